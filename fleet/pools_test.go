package fleet

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeletcfg/kubeletcfg/engine"
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
	// A Linux node's key is what it was before nodes had an OS.
	if want := engine.NewHasher().String(a.Config).String(m.Version).String("2").Sum(); a.Key != want {
		t.Errorf("Linux key %s, want %s", a.Key, want)
	}
	// A Windows node with the same configz is evaluated apart; it has no
	// cgroups, so the cgroup version does not split its nodes.
	w1, w2 := &Node{Kubelet: m, OS: kubelets.Windows}, &Node{Kubelet: m, OS: kubelets.Windows}
	w1.Take(NodeData{Configz: body}, 2)
	w2.Take(NodeData{Configz: body}, 1)
	if w1.Key == a.Key || w1.Key == c.Key || w1.Key != w2.Key || w1.Config != a.Config {
		t.Errorf("Windows keys %s %s (Linux %s %s): want one key apart from the Linux ones", w1.Key, w2.Key, a.Key, c.Key)
	}
}

// TestNodeOS: windows is Windows; linux and an empty value are Linux; any
// other value is evaluated as Linux and kept to be shown.
func TestNodeOS(t *testing.T) {
	for _, tt := range []struct {
		in       string
		os       kubelets.OS
		reported string
	}{
		{"windows", kubelets.Windows, ""},
		{"linux", kubelets.Linux, ""},
		{"", kubelets.Linux, ""},
		{"freebsd", kubelets.Linux, "freebsd"},
		{"Windows", kubelets.Linux, "Windows"},
	} {
		if os, reported := NodeOS(tt.in); os != tt.os || reported != tt.reported {
			t.Errorf("NodeOS(%q) = %q, %q; want %q, %q", tt.in, os, reported, tt.os, tt.reported)
		}
	}
	list := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "w"}}, {ObjectMeta: metav1.ObjectMeta{Name: "l"}}}
	list[0].Status.NodeInfo = corev1.NodeSystemInfo{KubeletVersion: "v1.37.2", OperatingSystem: "windows"}
	list[1].Status.NodeInfo = corev1.NodeSystemInfo{KubeletVersion: "v1.29.0", OperatingSystem: "windows"}
	nodes, failures := NewNodes(list, nil, "")
	if nodes[0].OS != kubelets.Windows || nodes[1].OS != kubelets.Windows || len(failures) != 1 {
		t.Errorf("nodes %+v %+v, failures %v: want both Windows (the unknown minor too: its pool's failures are counted by OS)", nodes[0], nodes[1], failures)
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

// TestGroupsOS: the Windows nodes of a pool are a group, a pool entry and a
// result of their own: the Linux and Windows nodes of one pool with the same
// configz are two groups, neither drifts, and a Windows node that refuses is
// counted in its own result, not in its Linux pool mates'.
func TestGroupsOS(t *testing.T) {
	m := kubelets.Default()
	node := func(name string, os kubelets.OS, configz string) *Node {
		n := &Node{Name: name, Pool: "p", OS: os, Minor: m.Version, Kubelet: m}
		n.Take(NodeData{Configz: []byte(`{"kubeletconfig":` + configz + `}`)}, 2)
		return n
	}
	nodes := []*Node{
		node("w1", kubelets.Windows, `{"maxPods":50}`), node("l1", kubelets.Linux, `{"maxPods":50}`),
		node("l2", kubelets.Linux, `{"maxPods":50}`), node("w2", kubelets.Windows, `{"maxPods":50}`),
	}
	evals := []*Eval{{Starts: false}, {Starts: true}, {Starts: true}, {Starts: false}}
	groups, pools, results := Groups(nodes, evals, nil)
	type group struct {
		os    kubelets.OS
		nodes string
	}
	var got []group
	for _, g := range groups {
		got = append(got, group{g.OS, strings.Join(g.Nodes, ",")})
	}
	if want := []group{{kubelets.Linux, "l1,l2"}, {kubelets.Windows, "w1,w2"}}; !slices.Equal(got, want) {
		t.Errorf("groups %v, want %v (Linux first)", got, want)
	}
	if want := []Pool{{Name: "p", OS: kubelets.Linux, Nodes: 2, Configurations: 1}, {Name: "p", OS: kubelets.Windows, Nodes: 2, Configurations: 1}}; !slices.Equal(pools, want) {
		t.Errorf("pools %+v, want %+v", pools, want)
	}
	if len(results) != 2 || results[0].OS != kubelets.Linux || !results[0].Starts ||
		results[1].OS != kubelets.Windows || results[1].Starts || !slices.Equal(results[1].Refusing, []string{"w1", "w2"}) {
		t.Errorf("results %+v: want the Linux nodes starting, the Windows ones refusing", results)
	}
	for _, n := range nodes {
		if want := "p/" + n.Key[:12]; n.Group != want {
			t.Errorf("%s: group %q, want %q", n.Name, n.Group, want)
		}
	}
}

// TestWithoutDefaults: the values equal to the minor's defaults go, the
// others stay (a map key by key).
func TestWithoutDefaults(t *testing.T) {
	doc := []byte(`{"maxPods":110,"podPidsLimit":4096,"evictionHard":{"memory.available":"100Mi","nodefs.available":"5%"}}`)
	out, err := WithoutDefaults(doc, kubelets.Default(), kubelets.Linux)
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

// TestWithoutDefaultsWindows: a Windows node's values are compared with the
// Windows kubelet's defaults: its evictionHard defaults (500Mi of memory, no
// inode signals) are not set; the Linux defaults are.
func TestWithoutDefaultsWindows(t *testing.T) {
	windows := `{"evictionHard":{"imagefs.available":"15%","memory.available":"500Mi","nodefs.available":"10%"}}`
	linux := `{"evictionHard":{"imagefs.available":"15%","imagefs.inodesFree":"5%","memory.available":"100Mi","nodefs.available":"10%","nodefs.inodesFree":"5%"}}`
	for _, tt := range []struct {
		name string
		os   kubelets.OS
		doc  string
		want string
	}{
		{"Windows defaults on Windows", kubelets.Windows, windows, `{}`},
		{"Linux defaults on Windows", kubelets.Windows, linux, `{"evictionHard":{"imagefs.inodesFree":"5%","memory.available":"100Mi","nodefs.inodesFree":"5%"}}`},
		{"Windows defaults on Linux", kubelets.Linux, windows, `{"evictionHard":{"memory.available":"500Mi"}}`},
		{"Linux defaults on Linux", kubelets.Linux, linux, `{}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := WithoutDefaults([]byte(tt.doc), kubelets.Default(), tt.os)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Compact(&got, out); err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Errorf("%s, want %s", got.String(), tt.want)
			}
		})
	}
}
