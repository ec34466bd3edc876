package kubeadm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// TestKubeadmPeerSuite runs kubeadm's own unit tests of the code the port follows
// (testdata/bootstrappers/kubeadm, ORIGIN.md): TestArgumentsToCommand of 1.31 and 1.37
// against argumentsToCommand, TestBuildKubeletArgs of 1.37 against the flags the port
// writes for a node document with those extra args and taints.
func TestKubeadmPeerSuite(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "bootstrappers", "kubeadm")
	type arg struct{ Name, Value string }
	args := func(in []arg) []Arg {
		var out []Arg
		for _, a := range in {
			out = append(out, Arg{Name: a.Name, Value: a.Value})
		}
		return out
	}
	read := func(name string, v any) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for minor, file := range map[int]string{31: "arguments-to-command-1.31.json", 37: "arguments-to-command-1.37.json"} {
		var cases []struct {
			Name            string
			Base, Overrides []arg
			Expected        []string
		}
		read(file, &cases)
		for _, c := range cases {
			var got []string
			for _, a := range argumentsToCommand(minor, args(c.Base), args(c.Overrides)) {
				got = append(got, "--"+a.Name+"="+a.Value)
			}
			if strings.Join(got, " ") != strings.Join(c.Expected, " ") {
				t.Errorf("%s: %s: got %q, want %q", file, c.Name, got, c.Expected)
			}
		}
	}
	var cases []struct {
		Name                     string
		ExtraArgs                []arg
		Taints                   []map[string]string
		RegisterTaintsUsingFlags bool
		Expected                 []arg
	}
	read("build-kubelet-args-1.37.json", &cases)
	for _, c := range cases {
		// A joining worker registers its taints with the flag; an init node does not.
		kind := "InitConfiguration"
		if c.RegisterTaintsUsingFlags {
			kind = "JoinConfiguration"
		}
		nr := map[string]any{"criSocket": "unix:///run/containerd/containerd.sock"}
		if c.ExtraArgs != nil {
			var extra []map[string]string
			for _, a := range c.ExtraArgs {
				extra = append(extra, map[string]string{"name": a.Name, "value": a.Value})
			}
			nr["kubeletExtraArgs"] = extra
		}
		if c.Taints != nil {
			nr["taints"] = c.Taints
		}
		doc, err := sigsyaml.Marshal(map[string]any{"apiVersion": "kubeadm.k8s.io/v1beta4", "kind": kind, "nodeRegistration": nr})
		if err != nil {
			t.Fatal(err)
		}
		w := NodeOf("kubeadm.yaml", SplitDocs(doc)).Writes(lookup(t, "1.37"), "")
		if got, want := flagsEnv(w.Flags), flagsEnv(args(c.Expected)); string(got) != string(want) {
			t.Errorf("build-kubelet-args-1.37.json: %s: got %s, want %s", c.Name, got, want)
		}
	}
}

func lookup(t *testing.T, v string) *kubelets.Minor {
	t.Helper()
	m, err := kubelets.Lookup(v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
