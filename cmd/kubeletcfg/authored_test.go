package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// authoredCases are conformance cases whose drop-in kubeletcfg writes. The
// harness records what the real kubelet does with the written file; this test
// checks that the file is what the command writes today (-update rewrites it)
// and that the kubelet's effective values are the ones the command promised.
var authoredCases = []struct {
	dir, file string
	args      []string // run inside a copy of the case folder without file
	minors    string
}{
	{"457-authored-dropin-new", "conf.d/50-crashloop.conf", []string{"dropin", "new", "50-crashloop.conf", "-d", "conf.d", "-c", "kubelet.yaml",
		"--set", "crashLoopBackOff.maxContainerRestartPeriod=30s", "--feature-gate", "KubeletCrashLoopBackOffMax=true",
		"--set", "maxPods=80", "--set", "kubeReserved=null", "--set", "clusterDNS=[10.96.0.10, 10.96.0.11]",
		"--set", "evictionHard[nodefs.available]=15%", "--set", "registerWithTaints=[{key: dedicated, value: batch, effect: NoSchedule}]",
		"--set", "logging.verbosity=2", "--dry-run", "-o", "json"}, "1.32..1.37"},
	{"458-authored-dropin-diff", "conf.d/95-golden.conf", []string{"dropin", "diff", "--from", "kubelet.yaml", "--from", "conf.d", "--to", "desired.yaml"}, "1.32..1.37"},
}

const casesDir = "../../testdata/conformance/cases"

func TestAuthoredCases(t *testing.T) {
	for _, ac := range authoredCases {
		t.Run(ac.dir, func(t *testing.T) {
			src, err := filepath.Abs(filepath.Join(casesDir, ac.dir))
			if err != nil {
				t.Fatal(err)
			}
			goldenDir, _ := filepath.Abs(filepath.Join(casesDir, "..", "golden"))
			work := t.TempDir()
			copyTree(t, src, work)
			if err := os.Remove(filepath.Join(work, ac.file)); err != nil && !(*update && os.IsNotExist(err)) {
				t.Fatal(err)
			}
			t.Chdir(work)
			args := append(append([]string{}, ac.args...), "--versions", ac.minors)
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != exitClean {
				t.Fatalf("%v: exit %d: %s%s", args, code, stdout.String(), stderr.String())
			}
			content := stdout.Bytes()
			var rep author.NewReport
			if args[1] == "new" {
				if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
					t.Fatal(err)
				}
				content = []byte(rep.Content)
			}
			committed := filepath.Join(src, ac.file)
			if *update {
				if err := os.WriteFile(committed, content, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(committed); err != nil || !bytes.Equal(want, content) {
				t.Fatalf("%s is not what %v writes today (go test ./cmd/kubeletcfg -run Authored -update, then make conformance-all):\n%s", committed, args, content)
			}
			minors, err := kubelets.Window(ac.minors, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range minors {
				kubelet := kubeletEffective(t, filepath.Join(goldenDir, m.Version, ac.dir+".json"), m)
				switch args[1] {
				case "new":
					// Every key the command said applies has that value in the real kubelet.
					for _, v := range rep.Verdicts {
						if v.Minor != m.Version {
							continue
						}
						if !v.OK() {
							t.Errorf("kubelet %s: our verdict refuses the committed file", m.Version)
						}
						for _, a := range v.Applied {
							if got := kubelet[a.Path]; !a.Delete && !reflect.DeepEqual(got, a.Got) {
								t.Errorf("kubelet %s: %s: we promised %v, the kubelet has %v", m.Version, a.Path, a.Got, got)
							}
							if a.Delete && leafCount(kubelet, a.Path) != 0 {
								t.Errorf("kubelet %s: %s: we promised it removed, the kubelet keeps it", m.Version, a.Path)
							}
						}
					}
				case "diff":
					// The kubelet merging the drop-in ends up with desired.yaml's effective config.
					r, err := pipeline.Evaluate(m, pipeline.Input{Config: "desired.yaml"})
					if err != nil {
						t.Fatal(err)
					}
					obj, err := r.EffectiveObject()
					if err != nil {
						t.Fatal(err)
					}
					want := kubelets.Flatten(obj, m.Fields())
					if changes := skew.Diff(kubelet, want, all, all); len(changes) > 0 {
						t.Errorf("kubelet %s with the drop-in differs from the desired config: %+v", m.Version, changes)
					}
				}
			}
		})
	}
}

func all(string) bool { return true }

// kubeletEffective reads the effective config the real kubelet recorded.
func kubeletEffective(t *testing.T, golden string, m *kubelets.Minor) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (record it: make conformance MINOR=%s)", err, m.Version)
	}
	var g struct {
		Starts    bool           `json:"starts"`
		Error     string         `json:"error"`
		Effective map[string]any `json:"effective"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if !g.Starts {
		t.Fatalf("%s: the real kubelet does not start: %s", golden, g.Error)
	}
	return kubelets.Flatten(g.Effective, m.Fields())
}

func leafCount(flat map[string]any, path string) int {
	n := 0
	for p := range flat {
		if kubelets.Within(p, path) {
			n++
		}
	}
	return n
}
