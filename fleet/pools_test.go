package fleet

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// TestTake: a node's read is a failure (passed on, or a body that is not
// configz) or gives it keys: the same body at the same minor is the same
// key, another cgroup version another.
func TestTake(t *testing.T) {
	m := kubelets.Default()
	body := []byte(`{"kubeletconfig":{"maxPods":50}}`)
	for _, tt := range []struct {
		name   string
		data   NodeData
		reason string
	}{
		{"configz", NodeData{Configz: body}, ""},
		{"an HTML page", NodeData{Configz: []byte("<html>502</html>")}, ReasonMalformed},
		{"truncated", NodeData{Configz: body[:len(body)-1]}, ReasonMalformed},
		{"unwrapped", NodeData{Configz: []byte(`{"maxPods":50}`)}, ReasonMalformed},
		{"not read", NodeData{Failure: &Failure{Node: "n", Reason: ReasonTimeout}}, ReasonTimeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := &Node{Name: "n", Kubelet: m}
			f := n.Take(tt.data, 2)
			switch {
			case tt.reason == "" && (f != nil || n.Key == "" || n.Kubelet == nil):
				t.Errorf("failure %v, key %q: want the node evaluated", f, n.Key)
			case tt.reason != "" && (f == nil || f.Reason != tt.reason || n.Kubelet != nil):
				t.Errorf("failure %v, want %s and the node not evaluated", f, tt.reason)
			}
		})
	}
	a, b, c := &Node{Kubelet: m}, &Node{Kubelet: m}, &Node{Kubelet: m}
	a.Take(NodeData{Configz: body}, 2)
	b.Take(NodeData{Configz: body}, 2)
	c.Take(NodeData{Configz: body}, 1)
	if a.Key != b.Key || a.Key == c.Key || a.Config != c.Config {
		t.Errorf("keys %s %s %s (configs %s %s): want the same configuration, one key per cgroup version", a.Key, b.Key, c.Key, a.Config, c.Config)
	}
}

// TestCheckConfigz: what is not the kubelet's configz is refused with a
// message saying why, and what passes is exactly what input.FromConfigz
// converts, so that a node that passes is one the evaluation can read.
func TestCheckConfigz(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`{"kubeletconfig":{"maxPods":50}}`, ""},
		{" {\n \"kubeletconfig\" : {} }\n", ""},
		{`{"kubeletconfig":{"maxPods":50}`, "configz is not JSON: unexpected end of JSON input"},
		{`<html>502 Bad Gateway</html>`, "configz is not JSON: invalid character '<' looking for beginning of value"},
		{``, "configz is not JSON: unexpected end of JSON input"},
		{`{"kubeletconfig":{}} {}`, "configz is not JSON: invalid character '{' after top-level value"},
		{`{"maxPods":50}`, `configz has no kubeletconfig: the body is an object with the key "maxPods", not {"kubeletconfig": {...}}`},
		{`{}`, `configz has no kubeletconfig: the body is an object with no keys, not {"kubeletconfig": {...}}`},
		{`[{"kubeletconfig":{}}]`, `configz has no kubeletconfig: the body is an array, not {"kubeletconfig": {...}}`},
		{`"kubeletconfig"`, `configz has no kubeletconfig: the body is a string, not {"kubeletconfig": {...}}`},
		{`null`, `configz has no kubeletconfig: the body is null, not {"kubeletconfig": {...}}`},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}`, `configz has no kubeletconfig: the body is an object with the keys "a", "b", "c", "d", "e" (+2 more), not {"kubeletconfig": {...}}`},
		{`{"kubeletconfig":{},"other":{}}`, `configz has keys besides kubeletconfig: the body is an object with the keys "kubeletconfig", "other", not {"kubeletconfig": {...}}`},
		{`{"kubeletconfig":{},"kubeletconfig":{}}`, `configz has keys besides kubeletconfig: the body is an object with the keys "kubeletconfig", "kubeletconfig", not {"kubeletconfig": {...}}`},
		{`{"kubeletconfig":null}`, "configz's kubeletconfig is null, not an object"},
		{`{"kubeletconfig":[1]}`, "configz's kubeletconfig is an array, not an object"},
		{`{"kubeletconfig":5}`, "configz's kubeletconfig is a number, not an object"},
	} {
		err := CheckConfigz([]byte(tt.body))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckConfigz(%q) = %q, want %q", tt.body, got, tt.want)
		}
		_, ok, convErr := input.FromConfigz([]byte(tt.body))
		if converts := ok && convErr == nil; converts != (err == nil) {
			t.Errorf("%q: CheckConfigz says %v, input.FromConfigz converts it: %v", tt.body, err, converts)
		}
	}
	if err := CheckConfigz([]byte(`{"` + strings.Repeat("k", 100) + `":1}`)); err == nil || strings.Contains(err.Error(), strings.Repeat("k", 41)) {
		t.Errorf("a long key is not cut in the message: %v", err)
	}
}

// TestGroupsDrift: nodes of one pool with two configurations are two groups
// and drift; a pool with one configuration is not.
func TestGroupsDrift(t *testing.T) {
	m := kubelets.Default()
	node := func(name, pool, configz string) *Node {
		n := &Node{Name: name, Pool: pool, Minor: m.Version, Kubelet: m}
		n.Take(NodeData{Configz: []byte(`{"kubeletconfig":` + configz + `}`)}, 2)
		return n
	}
	nodes := []*Node{node("a1", "a", `{"maxPods":50}`), node("a2", "a", `{"maxPods":60}`), node("b1", "b", `{}`), node("b2", "b", `{}`)}
	evals := []*Eval{{Starts: true}, {Starts: false}, {Starts: true}, {Starts: true}}
	groups, pools, results := Groups(nodes, evals, nil)
	if len(groups) != 3 {
		t.Fatalf("%d groups, want 3", len(groups))
	}
	want := map[string]bool{"a": true, "b": false}
	for _, p := range pools {
		if p.Drift != want[p.Name] {
			t.Errorf("pool %s: drift %v, want %v", p.Name, p.Drift, want[p.Name])
		}
	}
	if len(results) != 2 || results[0].Starts || len(results[0].Refusing) != 1 || results[0].Refusing[0] != "a2" || !results[1].Starts {
		t.Errorf("results %+v: want pool a refused by a2, pool b starting", results)
	}
}

// TestWithoutDefaults: the values equal to the minor's defaults go, the
// others stay (a map key by key).
func TestWithoutDefaults(t *testing.T) {
	doc := []byte(`{"maxPods":110,"podPidsLimit":4096,"evictionHard":{"memory.available":"100Mi","nodefs.available":"5%"}}`)
	out, err := WithoutDefaults(doc, kubelets.Default())
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["maxPods"]; ok {
		t.Errorf("maxPods 110 (the default) kept: %s", out)
	}
	if got["podPidsLimit"] != float64(4096) {
		t.Errorf("podPidsLimit dropped: %s", out)
	}
	if eh, _ := got["evictionHard"].(map[string]any); len(eh) != 1 || eh["nodefs.available"] != "5%" {
		t.Errorf("evictionHard %v, want nodefs.available alone", got["evictionHard"])
	}
}
