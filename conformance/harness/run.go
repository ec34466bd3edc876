package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

const (
	caseRawCmd = "case-raw" // internal: evaluate a case in this process
	mountNSCmd = "mountns"  // internal (Linux): mount the case's cgroup fs, then exec the rest
)

// maxStarts bounds the attempts to start a case's process.
const maxStarts = 3

// runCaseIsolated evaluates a case in a fresh process (pristine global feature gate and
// logging state): caseCommand (run_linux.go, run_other.go) says how that process is
// started on this OS.
func runCaseIsolated(dir string, verbose bool, stderr io.Writer) ([]byte, error) {
	c, err := loadCase(dir)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{caseRawCmd}
	if verbose {
		args = append(args, "-v")
	}
	args = append(args, c.Dir)
	var out, errBuf bytes.Buffer
	// A child that never started (Wine's CreateProcess fails now and then under
	// load: "fork/exec ...: Internal error") says nothing about the kubelet: it
	// is started again, a bounded number of times.
	for attempt := 1; ; attempt++ {
		cmd := caseCommand(exe, c, args)
		cmd.Dir = c.Dir
		out.Reset()
		errBuf.Reset()
		cmd.Stdout = &out
		if stderr != nil {
			cmd.Stderr = io.MultiWriter(&errBuf, stderr)
		} else {
			cmd.Stderr = &errBuf
		}
		err := cmd.Run()
		if err != nil && cmd.ProcessState == nil && attempt < maxStarts {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("case %s: %v\n%s", c.Name, err, strings.TrimSpace(errBuf.String()))
		}
		break
	}
	var probe Result
	if err := json.Unmarshal(out.Bytes(), &probe); err != nil {
		return nil, fmt.Errorf("case %s: bad output: %v\n%s", c.Name, err, strings.TrimSpace(errBuf.String()))
	}
	return out.Bytes(), nil
}

// listCases returns the case folders under dir, sorted by name.
func listCases(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

type caseOutcome struct {
	name string
	out  []byte
	err  error
}

// runAll evaluates the cases with `workers` processes at a time, in name order.
func runAll(casesDir string, names []string, workers int) []caseOutcome {
	res := make([]caseOutcome, len(names))
	idx := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				out, err := runCaseIsolated(filepath.Join(casesDir, names[i]), false, nil)
				res[i] = caseOutcome{name: names[i], out: out, err: err}
			}
		}()
	}
	for i := range names {
		idx <- i
	}
	close(idx)
	wg.Wait()
	return res
}

// cmdRun implements `run` (write goldens) and `check` (compare with goldens).
func cmdRun(args []string, check bool) error {
	name := "run"
	if check {
		name = "check"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	casesDir := fs.String("cases", "", "folder of case folders")
	outDir := fs.String("out", "", "folder to write <case>.json into (run)")
	goldenDir := fs.String("golden", "", "folder of committed <case>.json (check)")
	only := fs.String("only", "", "only this case")
	workers := fs.Int("j", 2, "cases evaluated in parallel")
	retries := fs.Int("retries", 6, "re-evaluations of a case whose output differs from its golden before it counts as changed (the kubelet has map-order nondeterminism)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || *casesDir == "" {
		return errUsage
	}
	target := *outDir
	if check {
		target = *goldenDir
	}
	if target == "" {
		return errUsage
	}
	if *workers < 1 {
		*workers = 1
	}
	names, err := listCases(*casesDir)
	if err != nil {
		return err
	}
	if *only != "" {
		found := false
		for _, n := range names {
			if n == *only {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("no case %q in %s", *only, *casesDir)
		}
		names = []string{*only}
	}
	if !check {
		if err := os.MkdirAll(target, 0o755); err != nil {
			return err
		}
	}

	start := time.Now()
	outcomes := runAll(*casesDir, names, *workers)
	elapsed := time.Since(start)

	var starts, refuses, panics, failed, passed int
	var unstable, draws []string
	for _, o := range outcomes {
		if o.err != nil {
			failed++
			fmt.Fprintf(os.Stderr, "ERROR %s: %v\n", o.name, o.err)
			continue
		}
		var r Result
		_ = json.Unmarshal(o.out, &r)
		switch {
		case r.Starts:
			starts++
		case r.Panic:
			panics++
		default:
			refuses++
		}
		path := filepath.Join(target, o.name+".json")
		// The kubelet's output is not always the same from run to run (for example which
		// of two unknown gates it names). When the golden is one of the outputs this case
		// can give, keep it: another draw of the unrecognized gate is recognised as such
		// (sameDraw); other differences are re-run.
		if want, err := os.ReadFile(path); err == nil && !bytes.Equal(want, o.out) && sameDraw(want, o.out, filepath.Join(*casesDir, o.name)) {
			draws = append(draws, o.name)
			o.out = want
		}
		if want, err := os.ReadFile(path); err == nil && !bytes.Equal(want, o.out) {
			for i := 0; i < *retries; i++ {
				again, err := runCaseIsolated(filepath.Join(*casesDir, o.name), false, nil)
				if err == nil && bytes.Equal(want, again) {
					unstable = append(unstable, o.name)
					o.out = want
					break
				}
			}
		}
		if check {
			want, err := os.ReadFile(path)
			switch {
			case os.IsNotExist(err):
				failed++
				fmt.Printf("FAIL %s: no golden %s\n", o.name, path)
			case err != nil:
				failed++
				fmt.Printf("FAIL %s: %v\n", o.name, err)
			case !bytes.Equal(want, o.out):
				failed++
				fmt.Printf("FAIL %s: golden %s is stale (- golden, + kubelet):\n%s", o.name, path, lineDiff(string(want), string(o.out)))
			default:
				passed++
			}
			continue
		}
		if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, o.out) {
			if err := os.WriteFile(path, o.out, 0o644); err != nil {
				return err
			}
		}
		passed++
	}

	// Goldens without a case.
	if *only == "" {
		have := map[string]bool{}
		for _, n := range names {
			have[n+".json"] = true
		}
		entries, _ := os.ReadDir(target)
		for _, e := range entries {
			if e.IsDir() || filepath.Ext(e.Name()) != ".json" || have[e.Name()] {
				continue
			}
			if check {
				failed++
				fmt.Printf("FAIL %s: golden has no case folder\n", e.Name())
			} else {
				if err := os.Remove(filepath.Join(target, e.Name())); err != nil {
					return err
				}
				fmt.Printf("removed %s (no case folder)\n", filepath.Join(target, e.Name()))
			}
		}
	}

	if len(draws) > 0 {
		fmt.Printf("note: %d cases named another of their unrecognized feature gates than the golden (SetFromMap walks the gate map in random order; golden kept): %s\n",
			len(draws), strings.Join(draws, " "))
	}
	if len(unstable) > 0 {
		fmt.Printf("note: %d cases gave another output first and their golden on a re-run (kubelet nondeterminism; golden kept): %s\n",
			len(unstable), strings.Join(unstable, " "))
	}

	per := time.Duration(0)
	if len(names) > 0 {
		per = elapsed / time.Duration(len(names))
	}
	summary := fmt.Sprintf("%d cases (%d start, %d refuse, %d panic) in %s (%s per case, %d workers)",
		len(names), starts, refuses, panics, elapsed.Round(time.Millisecond), per.Round(time.Millisecond), *workers)
	if check {
		fmt.Println(summary)
		fmt.Printf("%d passed, %d failed\n", passed, failed)
		if failed > 0 {
			return exitError(1)
		}
		return nil
	}
	fmt.Printf("%s; wrote %d goldens to %s\n", summary, passed, target)
	if failed > 0 {
		return exitError(1)
	}
	return nil
}

// lineDiff is a small LCS line diff, enough for golden files of a few hundred lines.
func lineDiff(a, b string) string {
	x := strings.SplitAfter(a, "\n")
	y := strings.SplitAfter(b, "\n")
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var sb strings.Builder
	line := func(prefix, s string) {
		if s == "" {
			return
		}
		sb.WriteString(prefix)
		sb.WriteString(strings.TrimSuffix(s, "\n"))
		sb.WriteString("\n")
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			line("- ", x[i])
			i++
		default:
			line("+ ", y[j])
			j++
		}
	}
	return sb.String()
}
