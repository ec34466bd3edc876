package pipeline_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unicode"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Hostile inputs: each must end in a finding or an *source.InputError naming the
// file, without a panic and within a bounded amount of memory. Time is bounded by
// go test's -timeout, not asserted.

const hostileHeader = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

// maxAlloc bounds the bytes one Evaluate may allocate on these inputs.
const maxAlloc = 256 << 20

type outcome int

const (
	inputError outcome = iota // an *source.InputError naming the file
	refused                   // the kubelet refuses: an error finding in the file
	starts                    // the kubelet starts; findings (if any) name the file
)

type hostile struct {
	name string
	// main and dropIns are written to a fresh folder: main as kubelet.yaml (when
	// non-nil), dropIns under conf.d (when non-nil). A name ending in "/" is a
	// folder, a value starting with "->" a symlink.
	main    []byte
	dropIns map[string][]byte
	// setup prepares the folder further (sparse files); optional.
	setup func(t *testing.T, dir string)
	// config overrides --config, relative to the folder.
	config string
	want   outcome
	// about is the file (relative to the folder) the error or a finding must name.
	about string
	// rule, when set, must be among the findings about the file.
	rule string
	// maxFindings, when set, bounds the number of findings: a key reached many
	// times through aliases is one mistake, reported once.
	maxFindings int
}

func billionLaughs() []byte {
	var b strings.Builder
	b.WriteString(hostileHeader)
	b.WriteString(`a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d,", i-1), 10), ","))
	}
	// the same through fields the walk enters: merge keys and lists of objects
	b.WriteString("m0: &m0 {cpu: \"1\", memory: 1Gi, pid: \"10\", x0: \"1\", x1: \"1\", x2: \"1\", x3: \"1\", x4: \"1\", x5: \"1\", x6: \"1\"}\n")
	for i := 1; i < 7; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [%s]}\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*m%d, ", i-1), 10), ", "))
	}
	b.WriteString("systemReserved: {<<: [" + strings.TrimSuffix(strings.Repeat("*m6, ", 10), ", ") + "]}\n")
	b.WriteString("r0: &r0 {numaNode: 0, limits: *m6}\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "r%d: &r%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*r%d, ", i-1), 10), ", "))
	}
	b.WriteString("reservedMemory: *r9\nallowedUnsafeSysctls: *a9\n")
	return []byte(b.String())
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
		if i%7 == 0 {
			b[i] = 0
		}
	}
	return b
}

// deepBlock nests mappings with growing indentation, one space per level.
func deepBlock(prefix string, levels int) []byte {
	var b strings.Builder
	b.WriteString(hostileHeader + prefix)
	for i := range levels {
		b.WriteString(strings.Repeat(" ", i+len(prefix)) + "a:\n")
	}
	b.WriteString(strings.Repeat(" ", levels+len(prefix)) + "b: 1\n")
	return []byte(b.String())
}

// deepFlow nests flow mappings under key.
func deepFlow(key string, levels int) []byte {
	return []byte(hostileHeader + key + ": " + strings.Repeat("{a: ", levels) + "1" + strings.Repeat("}", levels) + "\n")
}

func sparse(name string, size int64) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Truncate(p, size); err != nil { // no data blocks: fast and small
			t.Fatal(err)
		}
	}
}

var okMain = []byte(hostileHeader + "maxPods: 50\n")

func hostileCases() []hostile {
	return []hostile{
		{name: "billion laughs", main: billionLaughs(), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "merge keys of issue 10", main: []byte(hostileHeader + mergeBomb), want: refused, about: "kubelet.yaml", rule: "KC1103", maxFindings: 20},
		{name: "billion laughs in a drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": billionLaughs()}, want: refused, about: "conf.d/10.conf", rule: "KC2004"},
		{name: "100 MB main file", setup: sparse("kubelet.yaml", 100<<20), config: "kubelet.yaml", want: inputError, about: "kubelet.yaml"},
		{name: "100 MB drop-in", main: okMain, dropIns: map[string][]byte{"05.conf": okMain}, setup: sparse("conf.d/10.conf", 100<<20), want: inputError, about: "conf.d/10.conf"},
		{name: "just over the size limit", setup: sparse("kubelet.yaml", source.MaxFileSize+1), config: "kubelet.yaml", want: inputError, about: "kubelet.yaml"},
		{name: "binary bytes", main: randomBytes(1<<20, 1), want: refused, about: "kubelet.yaml"},
		{name: "binary bytes after a header", main: append([]byte(hostileHeader), randomBytes(1<<16, 2)...), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "NUL bytes", main: make([]byte, 1<<20), want: refused, about: "kubelet.yaml"},
		{name: "binary drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": randomBytes(1<<20, 3)}, want: refused, about: "conf.d/10.conf"},
		{name: "100k nested flow sequences", main: []byte(strings.Repeat("[", 100000)), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "100k nested flow sequences after a header", main: []byte(hostileHeader + "x: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000)), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "100k nested flow mappings", main: deepFlow("x", 100000), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "100k nested block sequences", main: []byte(hostileHeader + "x: " + strings.Repeat("- ", 100000) + "1\n"), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "a:\\n  repeated 100k times", main: []byte(hostileHeader + strings.Repeat("a:\n  ", 100000)), want: starts, about: "kubelet.yaml", rule: "KC1101"},
		{name: "100k nested in a drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": []byte(hostileHeader + "x: " + strings.Repeat("[", 100000))}, want: refused, about: "conf.d/10.conf", rule: "KC2004"},
		{name: "deep block nesting under an unknown key", main: deepBlock("x:\n", 2800), want: starts, about: "kubelet.yaml", rule: "KC1101"},
		{name: "deep nesting under a map field", main: deepFlow("featureGates", 9000), want: refused, about: "kubelet.yaml", rule: "KC1004"},
		{name: "deep nesting under evictionHard", main: deepFlow("evictionHard", 9000), want: refused, about: "kubelet.yaml", rule: "KC1004"},
		{name: "deep block nesting under a map field", main: deepBlock("evictionHard:\n", 2800), want: refused, about: "kubelet.yaml", rule: "KC1004"},
		{name: "deep nesting under a map field in a drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": deepFlow("featureGates", 9000)}, want: refused, about: "conf.d/10.conf", rule: "KC2009"},
		{name: "deep nesting under an unknown key in a drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": deepFlow("x", 9000)}, want: starts, about: "conf.d/10.conf", rule: "KC2005"},
		{name: "symlink loop in the drop-in folder", main: okMain, dropIns: map[string][]byte{"loop.conf": []byte("->loop.conf")}, want: refused, about: "conf.d/loop.conf", rule: "KC2004"},
		{name: "symlink to a folder named x.conf", main: okMain, dropIns: map[string][]byte{"real/": nil, "x.conf": []byte("->real")}, want: refused, about: "conf.d/x.conf", rule: "KC2004"},
		{name: "--config is a folder", dropIns: map[string][]byte{"10.conf": okMain}, config: "conf.d", want: inputError, about: "conf.d"},
		{name: "--config is missing", config: "nope.yaml", want: inputError, about: "nope.yaml"},
		{name: "--config is a symlink loop", dropIns: map[string][]byte{"10.conf": okMain}, config: "conf.d/loop.yaml", setup: func(t *testing.T, dir string) {
			p := filepath.Join(dir, "conf.d", "loop.yaml")
			if err := os.Symlink(p, p); err != nil {
				t.Fatal(err)
			}
		}, want: inputError, about: "conf.d/loop.yaml"},
		{name: "a folder named x.conf in the drop-in folder", main: okMain, dropIns: map[string][]byte{"x.conf/10.conf": []byte(hostileHeader + "maxPods: 60\n"), "x.conf/notes": []byte("x")}, want: starts, about: "conf.d/x.conf/notes", rule: "KC2001"},
		{name: "very long line (value)", main: []byte(hostileHeader + "providerID: " + strings.Repeat("x", 3<<20) + "\n"), want: starts, about: "kubelet.yaml"},
		// YAML limits implicit keys to 1024 characters: the kubelet refuses the file
		{name: "very long line (key)", main: []byte(hostileHeader + strings.Repeat("k", 3<<20) + ": 1\n"), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "very long quoted key", main: []byte(hostileHeader + "\"" + strings.Repeat("k", 1<<20) + "\": 1\n"), want: refused, about: "kubelet.yaml", rule: "KC1003"},
		{name: "very long line (flow list)", main: []byte(hostileHeader + "clusterDNS: [" + strings.TrimSuffix(strings.Repeat("10.0.0.1,", 100000), ",") + "]\n"), want: starts, about: "kubelet.yaml"},
		{name: "very long line in a drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": []byte(hostileHeader + "providerID: " + strings.Repeat("x", 3<<20) + "\n")}, want: starts, about: "conf.d/10.conf"},
		{name: "many unknown keys", main: []byte(hostileHeader + "maxPodz: 1\n" + manyKeys(20000)), want: starts, about: "kubelet.yaml", rule: "KC1101"},
		// systemReserved's 10,000 resources are each refused by the run stage
		// (cannot reserve "r0" resource): 10,000 findings, within the bound too.
		{name: "many case-folded keys over the same keys", main: []byte(hostileHeader + "evictionHard:\n" + mapEntries("k", "1Gi", 10000)),
			dropIns: map[string][]byte{"10.conf": []byte(hostileHeader + "EvictionHard:\n" + mapEntries("k", "2Gi", 10000) + "systemReserved:\n" + mapEntries("r", "\"1\"", 10000))},
			want:    refused, about: "conf.d/10.conf", rule: "KC2007"},
		{name: "many duplicate keys in a drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": []byte(hostileHeader + strings.Repeat("maxPods: 1\n", 30000))}, want: refused, about: "conf.d/10.conf", rule: "KC2004"},
		// Each spelling is a finding whose repair is refused for the others
		// (twins): the reasons name three of them, not all.
		{name: "many case spellings of one field", main: []byte(hostileHeader + caseSpellings("containerRuntimeEndpoint", ": x\n", 20000)), want: starts, about: "kubelet.yaml", rule: "KC1102"},
		{name: "many case spellings of one field in a drop-in", main: okMain, dropIns: map[string][]byte{"10.conf": []byte(hostileHeader + caseSpellings("containerRuntimeEndpoint", ": x\n", 20000))}, want: starts, about: "conf.d/10.conf", rule: "KC2007"},
		{name: "many case spellings of one gate", main: []byte(hostileHeader + "featureGates:\n" + caseSpellings("  ReduceDefaultCrashLoopBackOffDecay", ": true\n", 20000)), want: refused, about: "kubelet.yaml", rule: "KC3001"},
	}
}

// caseSpellings writes n spellings of name, each another mix of cases (name
// itself is not one), each followed by rest.
func caseSpellings(name, rest string, n int) string {
	rng := rand.New(rand.NewPCG(7, 7))
	seen := map[string]bool{name: true}
	var b strings.Builder
	for len(seen) <= n {
		s := []byte(name)
		for i, c := range s {
			if rng.IntN(2) == 0 {
				s[i] = byte(unicode.ToUpper(rune(c)))
			} else {
				s[i] = byte(unicode.ToLower(rune(c)))
			}
		}
		if !seen[string(s)] {
			seen[string(s)] = true
			b.Write(s)
			b.WriteString(rest)
		}
	}
	return b.String()
}

func mapEntries(prefix, value string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  %s%d: %s\n", prefix, i, value)
	}
	return b.String()
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "unknownKey%d: %d\n", i, i)
	}
	return b.String()
}

func TestHostileInputs(t *testing.T) {
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := pipeline.Input{}
			if tc.main != nil {
				in.Config = filepath.Join(dir, "kubelet.yaml")
				if err := os.WriteFile(in.Config, tc.main, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.dropIns != nil {
				in.ConfigDir = filepath.Join(dir, "conf.d")
				writeTree(t, in.ConfigDir, tc.dropIns)
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			if tc.config != "" {
				in.Config = filepath.Join(dir, filepath.FromSlash(tc.config))
			}
			about := filepath.Join(dir, filepath.FromSlash(tc.about))

			res, alloc, err := evaluateMeasured(t, in)
			t.Logf("allocated %d MiB", alloc>>20)
			if alloc > maxAlloc {
				t.Errorf("allocated %d MiB, limit %d MiB", alloc>>20, maxAlloc>>20)
			}
			checkOutcome(t, res, err, tc.want, about, tc.rule)
			if tc.maxFindings > 0 && res != nil && len(res.Findings) > tc.maxFindings {
				t.Errorf("%d findings, want at most %d: %s", len(res.Findings), tc.maxFindings, summary(res.Findings))
			}
		})
	}
}

// evaluateMeasured runs Evaluate, turning a panic into a test failure, and returns
// the bytes it allocated.
func evaluateMeasured(t *testing.T, in pipeline.Input) (res *pipeline.Result, alloc uint64, err error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Evaluate panicked: %v\n%s", r, debug.Stack())
			}
		}()
		res, err = pipeline.Evaluate(kubelets.Default(), in)
	}()
	runtime.ReadMemStats(&after)
	return res, after.TotalAlloc - before.TotalAlloc, err
}

func checkOutcome(t *testing.T, res *pipeline.Result, err error, want outcome, about, rule string) {
	t.Helper()
	if want == inputError {
		var ie *source.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("error %v (%T), want an *source.InputError; result %+v", err, err, res)
		}
		if ie.Path != about || !strings.Contains(err.Error(), about) {
			t.Errorf("input error %q names %q, want %q", err, ie.Path, about)
		}
		return
	}
	if err != nil {
		t.Fatalf("error %v, want a result", err)
	}
	checkResult(t, res)
	var rules []string
	var errorThere bool
	for _, f := range res.Findings {
		if f.File == about {
			rules = append(rules, f.Rule)
			errorThere = errorThere || f.Severity == finding.Error
		}
	}
	if len(rules) == 0 && want == refused {
		t.Errorf("no finding names %s; findings: %s", about, summary(res.Findings))
	}
	if rule != "" && !contains(rules, rule) {
		t.Errorf("no %s finding about %s; findings: %s", rule, about, summary(res.Findings))
	}
	switch want {
	case refused:
		if res.Starts || !errorThere {
			t.Errorf("starts %v, want a refusal with an error finding about %s; findings: %s", res.Starts, about, summary(res.Findings))
		}
	case starts:
		if !res.Starts {
			t.Errorf("the kubelet refuses; findings: %s", summary(res.Findings))
		}
	}
}

// checkResult checks the invariants of every Result.
func checkResult(t testing.TB, res *pipeline.Result) {
	t.Helper()
	if res == nil {
		t.Fatal("nil result without an error")
	}
	if res.Starts && res.Effective == nil {
		t.Errorf("starts without an effective config")
	}
	if res.Starts && res.CrashLoopBackOff == nil {
		t.Errorf("starts without a crash-loop backoff")
	}
	for _, f := range res.Findings {
		if f.Severity == finding.Error && res.Starts {
			t.Errorf("starts despite an error finding: %s %s", f.Rule, f.Message)
		}
		if f.Rule == "" || f.Message == "" {
			t.Errorf("finding without a rule or message: %+v", f)
		}
		if f.Line < 0 || f.Column < 0 {
			t.Errorf("finding with a negative position: %+v", f)
		}
	}
}

func summary(fs []finding.Finding) string {
	var out []string
	for i, f := range fs {
		if i == 10 {
			out = append(out, fmt.Sprintf("... %d more", len(fs)-10))
			break
		}
		msg := f.Message
		if len(msg) > 120 {
			msg = msg[:120] + "..."
		}
		out = append(out, fmt.Sprintf("%s %s %s", f.Rule, f.Position, msg))
	}
	return "\n  " + strings.Join(out, "\n  ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writeTree writes files under dir: a name ending in "/" is a folder, content
// starting with "->" a symlink to the rest (relative to dir).
func writeTree(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(name, "/"):
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(string(content), "->"):
			if err := os.Symlink(filepath.Join(dir, strings.TrimPrefix(string(content), "->")), p); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(p, content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
