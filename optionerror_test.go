package kubeletcfg

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/input"
)

// An error about the options names them in the library's words, and in the
// command's flags through CommandWords, wrapped or not; other errors are as
// they are.
func TestOptionErrorWords(t *testing.T) {
	_, err := Options{Config: "a.yaml", CgroupVersion: "v3"}.Prepare()
	if got, want := err.Error(), `Options.CgroupVersion must be v1 or v2, not "v3"`; got != want {
		t.Errorf("library: %q, want %q", got, want)
	}
	if got, want := CommandWords(err), `--cgroup-version must be v1 or v2, not "v3"`; got != want {
		t.Errorf("command: %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("node-1: %w", optionErrorf("{KubeletVersion}: %w", errors.New("unsupported")))
	if got, want := CommandWords(wrapped), "node-1: --kubelet-version: unsupported"; got != want {
		t.Errorf("wrapped: %q, want %q", got, want)
	}
	if got := wrapped.Error(); got != "node-1: Options.KubeletVersion: unsupported" {
		t.Errorf("wrapped, library: %q", got)
	}
	var oe *OptionError
	if !errors.As(wrapped, &oe) || oe.Unwrap() == nil || oe.Unwrap().Error() != "unsupported" {
		t.Errorf("the wrapped error is not kept: %v", oe)
	}
	// The packages below the library name options the same way.
	_, err = Options{Versions: "1.37..1.34"}.Minors(DefaultWindow)
	if got, want := err.Error(), "Options.Versions 1.37..1.34: 1.37 is newer than 1.34 (write the older minor first)"; got != want {
		t.Errorf("kubelets, library: %q, want %q", got, want)
	}
	if got, want := CommandWords(err), "--versions 1.37..1.34: 1.37 is newer than 1.34 (write the older minor first)"; got != want {
		t.Errorf("kubelets, command: %q, want %q", got, want)
	}
	_, err = Options{Versions: "1.34..1.37", ControlPlane: "1.37"}.Minors(DefaultWindow)
	if got, want := CommandWords(err), "--versions and --control-plane are alternatives: give one"; got != want {
		t.Errorf("kubelets, command: %q, want %q", got, want)
	}
	// A verb's own request names its fields (author.NewRequest: dropin new).
	_, err = DropInNew(Options{ConfigDir: t.TempDir()}, author.NewRequest{Name: "50-x.conf", Sets: []string{"maxPods"}})
	if got, want := err.Error(), `NewRequest.Sets "maxPods": want path=value`; got != want {
		t.Errorf("author, library: %q, want %q", got, want)
	}
	if got, want := CommandWords(err), `--set "maxPods": want path=value`; got != want {
		t.Errorf("author, command: %q, want %q", got, want)
	}
	// A bootstrapper's translation refuses a --set value (k3s sets address at
	// boot; "[" is no YAML): the error keeps its OptionError through input.
	cfg := "testdata/inputs/rancher/k3s/config.yaml"
	_, err = Options{Config: cfg, Read: input.Options{Set: map[string]string{"address": "["}}}.Prepare()
	if err == nil || !strings.Contains(err.Error(), ": Options.Set address=[: ") {
		t.Errorf("k3s, library: %v", err)
	}
	if got := CommandWords(err); !strings.HasPrefix(got, cfg+": --set address=[: ") {
		t.Errorf("k3s, command: %q", got)
	}
	// A kind file of several nodes names the field that picks one.
	_, err = Effective(Options{Config: "testdata/inputs/kind.yaml"})
	const kind = "testdata/inputs/kind.yaml is a kind cluster of 3 nodes whose kubelets get different configurations (dev-control-plane, dev-worker, dev-worker2): pick one with %s NAME (kubeletcfg lint checks each)"
	if got, want := err.Error(), fmt.Sprintf(kind, "Options.Read.KindNode"); got != want {
		t.Errorf("kind, library: %q, want %q", got, want)
	}
	if got, want := CommandWords(err), fmt.Sprintf(kind, "--kind-node"); got != want {
		t.Errorf("kind, command: %q, want %q", got, want)
	}
	// A folder among the paths: the library names the fields a folder goes
	// in; the command writes its own lines (cmd/kubeletcfg's takePath:
	// "lint CONFIG -d DIR", "lint --nodes DIR"), from the FolderPathError.
	err = Options{}.CheckPaths("lint", []string{"testdata/examples/node/conf.d"}, "")
	const folder = "testdata/examples/node/conf.d is a folder: lint takes files; drop-ins of a main file are %s testdata/examples/node/conf.d, a folder of nodes is %s testdata/examples/node/conf.d"
	if got, want := err.Error(), fmt.Sprintf(folder, "Options.ConfigDir", "Options.Nodes"); got != want {
		t.Errorf("folder, library: %q, want %q", got, want)
	}
	if got, want := CommandWords(err), fmt.Sprintf(folder, "--config-dir", "--nodes"); got != want {
		t.Errorf("folder, flags: %q, want %q", got, want)
	}
	if fe := (*FolderPathError)(nil); !errors.As(err, &fe) || fe.Path != "testdata/examples/node/conf.d" || fe.Verb != "lint" {
		t.Errorf("folder: %#v, want a FolderPathError", err)
	}
	if got := CommandWords(errors.New("plain --x")); got != "plain --x" {
		t.Errorf("plain: %q", got)
	}
}

// TestErrorTextInResults: an error a result keeps (a path that could not be
// read) is in the library's words, or as Options.ErrorText writes it (the
// command's CommandWords: its flags).
func TestErrorTextInResults(t *testing.T) {
	p := filepath.Join("testdata", "inputs", "kubelet-config.yaml")
	for _, tt := range []struct {
		text func(error) string
		want string
	}{{nil, "(Options.Format talos)"}, {CommandWords, "(--input-format talos)"}} {
		l, err := Lint(Options{Paths: []string{p, p}, Format: "talos", ErrorText: tt.text})
		if err != nil {
			t.Fatal(err)
		}
		errs := l.Several.(*LintedPaths).Report.Errors
		if len(errs) != 2 || !strings.HasSuffix(errs[0].Error, tt.want) {
			t.Errorf("errors %+v, want each to end %q", errs, tt.want)
		}
	}
}
