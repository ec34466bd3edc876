package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `starts` is the node's in every verb and format: a file its bootstrapper
// refuses (KC9001) gets no kubelet, whatever the kubelet would do with what the
// tool writes, and refusedBy names the tool; every text verdict, summary and
// format says the same, and the exit code follows.
func TestVerdictAgreesEverywhere(t *testing.T) {
	const boot = "../../testdata/bootstrappers/"
	tests := []struct {
		name    string
		in      []string
		minor   string
		by      string // refusedBy.by; "" when the node starts
		kubelet string // kubeletVerdict
	}{
		{"plain file that starts", []string{"-c", "../../testdata/dropin/node/config.yaml"}, "1.37", "", ""},
		{"kubelet refuses", []string{"-c", example + "/config.yaml", "-d", example + "/conf.d"}, "1.37", "kubelet", ""},
		{"kubeadm v1beta3 at 1.37", []string{"-c", "../../testdata/kubeadm/cases/extra-args-v1beta3/kubeadm.yaml"}, "1.37", "kubeadm", "starts"},
		{"kubeadm v1beta3 at 1.36", []string{"-c", "../../testdata/kubeadm/cases/extra-args-v1beta3/kubeadm.yaml"}, "1.36", "", ""},
		{"Talos protected extraConfig key", []string{"-c", boot + "talos/worked-example.yaml"}, "1.36", "Talos", "starts"},
		{"Karpenter refuses, the kubelet too", []string{"-c", boot + "karpenter/mistakes.yaml"}, "1.37", "Karpenter", "refuses"},
		{"nodeadm under Karpenter refuses", []string{"-c", boot + "karpenter/al2023-userdata-nodeconfig.yaml"}, "1.37", "EKS nodeadm", "starts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			starts := tt.by == ""
			lint := func(args ...string) (int, string) {
				t.Helper()
				code, out, errOut := runCLI(append(append([]string{"lint", "--kubelet-version", tt.minor}, in...), args...)...)
				if code != exitClean && code != exitFindings {
					t.Fatalf("lint %v: exit %d: %s", args, code, errOut)
				}
				return code, out
			}

			code, out := lint("-o", "json")
			var doc struct {
				Starts    bool
				RefusedBy *struct{ By, Stage, Rule string }
				Kubelet   string `json:"kubeletVerdict"`
				Crash     any    `json:"crashLoopBackOff"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			by := ""
			if doc.RefusedBy != nil {
				by = doc.RefusedBy.By
			}
			if doc.Starts != starts || by != tt.by || doc.Kubelet != tt.kubelet || (doc.Crash != nil) != starts {
				t.Errorf("lint -o json: starts %v, refusedBy %q, kubeletVerdict %q, crashLoopBackOff %v; want %v, %q, %q",
					doc.Starts, by, doc.Kubelet, doc.Crash, starts, tt.by, tt.kubelet)
			}
			if (code == exitFindings) == starts {
				t.Errorf("lint: exit %d with starts %v", code, starts)
			}

			_, out = lint()
			verdict := lastLineWith(out, "kubelet "+tt.minor+": ")
			if strings.Contains(verdict, "does NOT start") == starts || !strings.Contains(verdict, tt.by) {
				t.Errorf("lint text verdict %q, want starts %v by %q", verdict, starts, tt.by)
			}
			_, out = lint("-o", "github")
			if summary := lastLineWith(out, "kubeletcfg: "); strings.Contains(summary, "does NOT start") == starts {
				t.Errorf("lint -o github summary %q, want starts %v", summary, starts)
			}
			_, out = lint("-o", "junit")
			var suites struct {
				Suites []struct {
					Properties []struct {
						Name  string `xml:"name,attr"`
						Value string `xml:"value,attr"`
					} `xml:"properties>property"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal([]byte(out), &suites); err != nil || len(suites.Suites) != 1 {
				t.Fatalf("lint -o junit: %v (%d suites)", err, len(suites.Suites))
			}
			for _, p := range suites.Suites[0].Properties {
				if p.Name == "starts" && (strings.HasPrefix(p.Value, "true") != starts || !strings.Contains(p.Value, tt.by) && tt.by != "kubelet") {
					t.Errorf("lint -o junit starts %q, want starts %v by %q", p.Value, starts, tt.by)
				}
			}
			_, out = lint("-o", "sarif")
			var sarif struct {
				Runs []struct {
					Properties struct {
						Starts    map[string]bool
						RefusedBy map[string]struct{ By string }
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &sarif); err != nil {
				t.Fatal(err)
			}
			if p := sarif.Runs[0].Properties; p.Starts[tt.minor] != starts || p.RefusedBy[tt.minor].By != tt.by {
				t.Errorf("lint -o sarif: starts %v, refusedBy %v; want %v, %q", p.Starts, p.RefusedBy, starts, tt.by)
			}

			window := []string{"skew", "--versions", tt.minor + ".." + tt.minor}
			code, out, _ = runCLI(append(append(window, in...), "-o", "json")...)
			var skew struct{ Versions []struct{ Starts bool } }
			if err := json.Unmarshal([]byte(out), &skew); err != nil || len(skew.Versions) != 1 || skew.Versions[0].Starts != starts || (code == exitFindings) == starts {
				t.Errorf("skew -o json: exit %d, %s, want starts %v", code, out, starts)
			}
			_, out, _ = runCLI(append(window, in...)...)
			if all := strings.Contains(out, "every kubelet minor in the window starts"); all != starts || (strings.Fields(lastLineWith(out, "starts "))[1] == "yes") != starts {
				t.Errorf("skew text, want starts %v:\n%s", starts, out)
			}
			_, out, _ = runCLI(append([]string{"preflight", "--from", tt.minor, "--to", tt.minor, "-o", "json"}, in...)...)
			var pre struct{ Starts bool }
			if err := json.Unmarshal([]byte(out), &pre); err != nil || pre.Starts != starts {
				t.Errorf("preflight -o json: %v, starts %v, want %v", err, pre.Starts, starts)
			}
			_, out, _ = runCLI(append([]string{"preflight", "--from", tt.minor, "--to", tt.minor}, in...)...)
			if blockers := lastLineWith(out, "Blockers: "); strings.Contains(blockers, "none") != starts || !strings.Contains(blockers, tt.by) {
				t.Errorf("preflight %q, want starts %v by %q", blockers, starts, tt.by)
			}
		})
	}
}

// lastLineWith is the last line of out that starts with prefix.
func lastLineWith(out, prefix string) string {
	found := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			found = l
		}
	}
	return found
}

// Several paths and a node folder: each node's verdict, and the summary, are
// the node's when its bootstrapper refuses the file.
func TestVerdictAgreesSeveralNodes(t *testing.T) {
	talos, kubeadm := "../../testdata/bootstrappers/talos/worked-example.yaml", "../../testdata/kubeadm/cases/extra-args-v1beta3/kubeadm.yaml"
	dir := t.TempDir()
	for name, src := range map[string]string{"t.yaml": talos, "k.yaml": kubeadm} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{talos: "Talos", kubeadm: "kubeadm", "k": "kubeadm", "t": "Talos"}
	type verdict struct {
		Starts    bool
		RefusedBy struct{ By string }
	}
	check := func(what, name string, v verdict) {
		if v.Starts || v.RefusedBy.By != want[name] {
			t.Errorf("%s %s: starts %v, refused by %q; want refused by %q", what, name, v.Starts, v.RefusedBy.By, want[name])
		}
	}

	_, out, _ := runCLI("lint", "--kubelet-version", "1.37", talos, kubeadm, "-o", "json")
	var paths struct {
		Reports []struct {
			Path string
			verdict
		}
	}
	if err := json.Unmarshal([]byte(out), &paths); err != nil || len(paths.Reports) != 2 {
		t.Fatalf("lint PATH PATH -o json: %v, %s", err, out)
	}
	for _, r := range paths.Reports {
		check("lint PATH PATH", r.Path, r.verdict)
	}
	if _, out, _ = runCLI("lint", "--kubelet-version", "1.37", talos, kubeadm); !strings.Contains(out, "2 files: 0 start, 2 would not start") {
		t.Errorf("lint PATH PATH summary:\n%s", out)
	}

	code, out, _ := runCLI("lint", "--kubelet-version", "1.37", "--nodes", dir, "-o", "json")
	var nodes struct {
		Groups []struct {
			Nodes    []string
			Document verdict
		}
	}
	if err := json.Unmarshal([]byte(out), &nodes); err != nil || len(nodes.Groups) != 2 || code != exitFindings {
		t.Fatalf("lint --nodes -o json: exit %d, %v, %s", code, err, out)
	}
	for _, g := range nodes.Groups {
		check("lint --nodes", g.Nodes[0], g.Document)
	}
}
