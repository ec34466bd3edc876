package kubelets

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/utils/ptr"
)

// shape prints a tree as sorted path/kind lines, for comparing two trees.
func shape(f *Field, path string, out *[]string) {
	*out = append(*out, fmt.Sprintf("%s %d", path, f.Kind))
	switch f.Kind {
	case Object:
		for _, n := range f.ChildNames() {
			shape(f.Children[n], JoinPath(path, n), out)
		}
	case Map, List:
		if f.Elem != nil {
			shape(f.Elem, path+"[]", out)
		}
	}
}

func TestGeneratedTreeMatchesCompiledTypes(t *testing.T) {
	var want, got []string
	shape(Tree(), "", &want)
	shape(Newest().Fields(), "", &got)
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("the newest minor's generated field tree differs from the compiled k8s.io/kubelet types: regenerate kubelets/data (make generate)\ncompiled:\n%s\ngenerated:\n%s",
			strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

func TestEveryMinorHasATree(t *testing.T) {
	for _, v := range Supported() {
		m, _ := Lookup(v)
		tree, err := m.FieldTree()
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		for _, p := range []string{"apiVersion", "kind", "maxPods", "authentication.x509.clientCAFile", "evictionHard"} {
			if tree.At(p) == nil {
				t.Errorf("%s: no field %s", v, p)
			}
		}
	}
}

func TestPrune(t *testing.T) {
	tree, err := treeFromInfos([]FieldInfo{
		{Path: "kind", Kind: "scalar", GoType: "string"},
		{Path: "maxPods", Kind: "scalar", GoType: "int32"},
		{Path: "authentication", Kind: "object", GoType: "KubeletAuthentication"},
		{Path: "authentication.x509", Kind: "object", GoType: "KubeletX509Authentication"},
		{Path: "evictionHard", Kind: "map", GoType: "map[string]string"},
	})
	if err != nil {
		t.Fatal(err)
	}
	kc := &kubeletv1beta1.KubeletConfiguration{
		MaxPods:                50,
		PodsPerCore:            3,
		EvictionHard:           map[string]string{"memory.available": "1Gi"},
		MemoryThrottlingFactor: ptr.To(0.5),
	}
	kc.Kind = "KubeletConfiguration"
	kc.Authentication.X509.ClientCAFile = "/ca"
	kc.Authentication.Anonymous.Enabled = ptr.To(true)
	pruneValue(reflectValue(kc), tree)
	if kc.MaxPods != 50 || kc.EvictionHard["memory.available"] != "1Gi" || kc.Kind == "" {
		t.Errorf("a known field was pruned: %+v", kc)
	}
	if kc.PodsPerCore != 0 || kc.MemoryThrottlingFactor != nil {
		t.Errorf("an unknown top-level field survived: podsPerCore=%d memoryThrottlingFactor=%v", kc.PodsPerCore, kc.MemoryThrottlingFactor)
	}
	if kc.Authentication.X509.ClientCAFile != "" || kc.Authentication.Anonymous.Enabled != nil {
		t.Errorf("unknown nested fields survived: %+v", kc.Authentication)
	}

	obj := map[string]any{"apiVersion": "v", "kind": "k", "maxPods": 5.0, "podsPerCore": 1.0,
		"authentication": map[string]any{"webhook": map[string]any{}, "x509": map[string]any{}}}
	pruneJSON(obj, tree)
	if _, ok := obj["podsPerCore"]; ok {
		t.Error("PruneJSON kept podsPerCore")
	}
	if _, ok := obj["apiVersion"]; !ok {
		t.Error("PruneJSON dropped apiVersion")
	}
	if a := obj["authentication"].(map[string]any); a["webhook"] != nil || a["x509"] == nil {
		t.Errorf("PruneJSON nested: %v", a)
	}
}

// TestTreesShared checks that minors share a tree exactly when their generated
// trees are equal, and that the newest minor has its own.
func TestTreesShared(t *testing.T) {
	var ms []*Minor
	for _, v := range Supported() {
		m, _ := Lookup(v)
		ms = append(ms, m)
	}
	for i, a := range ms {
		for _, b := range ms[i+1:] {
			ia, _ := a.FieldInfos()
			ib, _ := b.FieldInfos()
			ta, _ := treeFromInfos(ia)
			tb, _ := treeFromInfos(ib)
			var sa, sb strings.Builder
			treeSignature(&sa, ta)
			treeSignature(&sb, tb)
			if same := a.Fields() == b.Fields(); same != (sa.String() == sb.String()) {
				t.Errorf("%s and %s: shared %v, equal %v", a.Version, b.Version, same, sa.String() == sb.String())
			}
		}
	}
}
