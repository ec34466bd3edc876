package pipeline

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/internal/testonly/schemacheck"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// TestUnknownAgreesWithSchema: the main file's unknown keys are decided at run
// time by source.Unknown, a walk of the converted document over the minor's
// field tree, while the walk of the YAML gives their positions. The minor's
// JSON Schema is generated from the same types by the harness; on every case at
// every minor, and on random documents built from each field tree, the schema
// (validated with santhosh-tekuri/jsonschema) must reject exactly the keys
// source.Unknown names, and on the corpus the YAML walk must name them too.
func TestUnknownAgreesWithSchema(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(corpus, "cases", "*"))
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		raw, err := m.Schema()
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		schema, err := schemacheck.Compile(raw)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		checked, withUnknown := 0, 0
		for _, dir := range cases {
			in, _ := caseInput(t, dir)
			if in.Config == "" {
				continue
			}
			if fi, err := os.Stat(in.Config); err != nil || !fi.Mode().IsRegular() || fi.Size() > source.MaxFileSize {
				continue
			}
			f, err := source.ReadFile(in.Config)
			if err != nil {
				continue
			}
			got, ok := source.Unknown(f, m.Fields())
			want, wantOK := schemaUnknown(t, schema, f.Data, m.Fields())
			if ok != wantOK {
				t.Errorf("%s %s: Unknown ok=%v, the schema's instance ok=%v", v, filepath.Base(dir), ok, wantOK)
				continue
			}
			if !ok {
				continue
			}
			checked++
			if len(want) > 0 {
				withUnknown++
			}
			if g, w := joinedKeys(got), joinedKeys(want); g != w {
				t.Errorf("%s %s: Unknown finds %q, the schema %q", v, filepath.Base(dir), g, w)
			}
			var walked []string
			for _, k := range source.Walk(f, m.Fields(), source.Strict) {
				if k.Kind == source.KeyUnknown || k.Kind == source.KeyCase {
					walked = append(walked, k.WrittenPath)
				}
			}
			sort.Strings(walked)
			if g, w := strings.Join(dedupe(walked), "\n"), joinedKeys(want); g != w {
				t.Errorf("%s %s: walk finds unknown %q, schema %q", v, filepath.Base(dir), g, w)
			}
		}
		if checked < 100 || withUnknown < 10 {
			t.Errorf("%s: only %d main files checked, %d with unknown keys", v, checked, withUnknown)
		}

		// Random documents: every field of the tree, case variants, unknown
		// keys with characters a JSON pointer escapes, values of the wrong
		// shape, nulls.
		rng := rand.New(rand.NewPCG(11, uint64(len(v))))
		found := 0
		for i := range 200 {
			doc := randomValue(rng, m.Fields(), 0)
			j, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			source.UnknownKeys(j, m.Fields(), func(p string) { got[p] = true })
			want, _ := schemaUnknown(t, schema, j, m.Fields())
			found += len(want)
			if g, w := joinedKeys(got), joinedKeys(want); g != w {
				t.Fatalf("%s random document %d %s:\nUnknownKeys finds %q\nthe schema       %q", v, i, j, g, w)
			}
		}
		if found < 1000 {
			t.Errorf("%s: the random documents had only %d unknown keys", v, found)
		}
	}
}

func TestUnknownKeys(t *testing.T) {
	tree := kubelets.Default().Fields()
	for _, tc := range []struct {
		doc  string
		want string
	}{
		{`{"maxPods": 1, "evictionHard": {"x.y": "1"}}`, ""},
		{`{"maxpods": 1, "nope": {"a": 1}}`, "maxpods\nnope"},
		{`{"authentication": {"x509": {"clientCaFile": "a"}}}`, "authentication.x509.clientCaFile"},
		{`{"reservedMemory": [{"numaNode": 0}, {"NumaNode": 1, "limits": {"memory": "1Gi"}}]}`, "reservedMemory[1].NumaNode"},
		{`{"reservedMemory": {"x": 1}, "authentication": [{"y": 1}], "address": {"z": 1}}`, ""}, // wrong shapes: no keys to check
		{`{"logging": {"options": {"json": {"infoBufferSize": "0", "bogus": 1}}}}`, "logging.options.json.bogus"},
		{` { "maxPods" : 1 , "a\u0062c" : [ ] , "evictionHard" : { "x\"y" : "1" } } `, "abc"}, // escapes and spaces
		{`{"systemReserved": {"cpu": {"nested": {"k": 1}}}, "tlsCipherSuites": [{"x": 1}, "a"]}`, ""},
		{`{"featureGates": {"A": true}, "registerWithTaints": [{"key": "k", "Effect": "NoSchedule"}, {"value": "v", "x": [1, {"y": 2}]}]}`, "registerWithTaints[0].Effect\nregisterWithTaints[1].x"},
		{`{"x": "}{][", "y": "\\"}`, "x\ny"},
	} {
		var got []string
		source.UnknownKeys([]byte(tc.doc), tree, func(p string) { got = append(got, p) })
		sort.Strings(got)
		if g := strings.Join(got, "\n"); g != tc.want {
			t.Errorf("%s: got %q, want %q", tc.doc, g, tc.want)
		}
	}
}

// schemaUnknown is the oracle: the written paths of the keys the schema rejects
// as additional properties in data converted as the kubelet converts it.
func schemaUnknown(t *testing.T, schema *jsonschema.Schema, data []byte, tree *kubelets.Field) (map[string]bool, bool) {
	t.Helper()
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, false
	}
	doc, err := schemacheck.Decode(j)
	if err != nil {
		return nil, false
	}
	if _, isObject := doc.(map[string]any); !isObject {
		return nil, false
	}
	out := map[string]bool{}
	for _, a := range schemacheck.AdditionalProperties(schema, doc) {
		base, ok := writtenPath(doc, tree, a.Pointer)
		if !ok {
			t.Fatalf("pointer %q not in the document", a.Pointer)
		}
		for _, n := range a.Names {
			out[kubelets.JoinPath(base, n)] = true
		}
	}
	return out, true
}

// writtenPath turns a JSON pointer into doc into the walk's written path syntax
// (a.b, m[key], l[0].x).
func writtenPath(doc any, tree *kubelets.Field, pointer string) (string, bool) {
	if pointer == "" {
		return "", true
	}
	path, cur, f := "", doc, tree
	for _, seg := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return "", false
			}
			path, cur = path+"["+seg+"]", v[i]
			if f != nil {
				f = f.Elem
			}
		case map[string]any:
			cur = v[seg]
			if f != nil && f.Kind == kubelets.Map {
				path, f = path+"["+seg+"]", f.Elem
				continue
			}
			path = kubelets.JoinPath(path, seg)
			if f != nil {
				f, _ = f.Child(seg)
			}
		default:
			return "", false
		}
	}
	return path, true
}

// randomValue builds a JSON value for field f: mostly the right shape, with
// known, case-varied and unknown keys, sometimes the wrong shape or null.
func randomValue(rng *rand.Rand, f *kubelets.Field, depth int) any {
	if f == nil || depth > 6 {
		return "x"
	}
	switch rng.IntN(12) {
	case 0:
		return nil
	case 1:
		return []any{map[string]any{"wrongShape": 1}}
	case 2:
		return map[string]any{"wrong/shape~": 1}
	}
	switch f.Kind {
	case kubelets.Object:
		out := map[string]any{}
		for _, name := range f.ChildNames() {
			if rng.IntN(3) == 0 {
				continue
			}
			key := name
			if rng.IntN(8) == 0 {
				key = strings.ToUpper(name[:1]) + name[1:]
			}
			c, _ := f.Child(name)
			out[key] = randomValue(rng, c, depth+1)
		}
		for range rng.IntN(3) {
			out[fmt.Sprintf("unknown%d%s", rng.IntN(100), []string{"", ".a", "/b", "~c", "'d", `"e`, "[0]"}[rng.IntN(7)])] = randomValue(rng, f, depth+2)
		}
		return out
	case kubelets.Map:
		out := map[string]any{}
		for i := range rng.IntN(3) {
			out[fmt.Sprintf("k%d%s", i, []string{"", ".x", "/y", "~z"}[rng.IntN(4)])] = randomValue(rng, f.Elem, depth+1)
		}
		return out
	case kubelets.List:
		out := []any{}
		for range rng.IntN(3) {
			out = append(out, randomValue(rng, f.Elem, depth+1))
		}
		return out
	}
	return json.Number(strconv.Itoa(rng.IntN(100)))
}

func joinedKeys(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, "\n")
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
