package source

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	yamlv3 "go.yaml.in/yaml/v3"
)

func TestDecodeMain(t *testing.T) {
	tests := []struct {
		name string
		data string
		// lenient: strict decoding failed, the lenient retry succeeded
		lenient bool
		// err: a substring of the refusal; "" when the kubelet accepts the file
		err   string
		check func(t *testing.T, d MainDecode)
	}{
		{name: "valid", data: header + "maxPods: 50\n", check: func(t *testing.T, d MainDecode) {
			if d.Config.MaxPods != 50 {
				t.Errorf("maxPods %d", d.Config.MaxPods)
			}
		}},
		{name: "JSON", data: `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":7}`, check: func(t *testing.T, d MainDecode) {
			if d.Config.MaxPods != 7 {
				t.Errorf("maxPods %d", d.Config.MaxPods)
			}
		}},
		{name: "unknown field falls back to lenient", data: header + "maxPods: 5\nmaxPod: 3\n", lenient: true, check: func(t *testing.T, d MainDecode) {
			if !strings.Contains(d.StrictErr.Error(), `unknown field "maxPod"`) || d.Config.MaxPods != 5 {
				t.Errorf("strict error %v, maxPods %d", d.StrictErr, d.Config.MaxPods)
			}
		}},
		{name: "case-only key is dropped", data: header + "MaxPods: 7\n", lenient: true, check: func(t *testing.T, d MainDecode) {
			if d.Config.MaxPods != 0 {
				t.Errorf("maxPods %d, want 0: the lenient decoder is case-sensitive too", d.Config.MaxPods)
			}
		}},
		{name: "duplicate key: last wins", data: header + "maxPods: 5\nmaxPods: 6\n", lenient: true, check: func(t *testing.T, d MainDecode) {
			if d.Config.MaxPods != 6 || !strings.Contains(d.StrictErr.Error(), `line 4: key "maxPods" already set`) {
				t.Errorf("maxPods %d, strict error %v", d.Config.MaxPods, d.StrictErr)
			}
		}},
		{name: "type error", data: header + "maxPods: abc\n", err: "failed to decode: json: cannot unmarshal string into Go struct field KubeletConfiguration.maxPods of type int32"},
		{name: "type error wins over an unknown field", data: header + "maxPods: abc\nfoo: 1\n", err: "cannot unmarshal string"},
		{name: "bad duration", data: header + "syncFrequency: \"60\"\n", err: `missing unit in duration "60"`},
		{name: "wrong apiVersion", data: "apiVersion: kubelet.config.k8s.io/v1alpha1\nkind: KubeletConfiguration\n", err: `no kind "KubeletConfiguration" is registered for version "kubelet.config.k8s.io/v1alpha1"`},
		{name: "wrong kind", data: "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfig\n", err: `no kind "KubeletConfig" is registered`},
		{name: "registered kind of another type", data: "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: SerializedNodeConfigSource\n", err: "failed to cast object to KubeletConfiguration"},
		{name: "missing apiVersion", data: "kind: KubeletConfiguration\n", err: "Object 'apiVersion' is missing"},
		{name: "missing kind", data: "apiVersion: kubelet.config.k8s.io/v1beta1\n", err: "Object 'Kind' is missing"},
		{name: "empty", data: "", err: "Object 'Kind' is missing"},
		{name: "syntax error", data: header + "maxPods: [\n", err: "yaml: line 3"},
		{name: "top-level list", data: "- a\n", err: "couldn't get version/kind"},
		{name: "alias cycle", data: header + "authentication: &a {x509: *a}\n", err: "anchor 'a' value contains itself"},
		{name: "excessive aliasing", data: header + aliasBomb(), err: "excessive aliasing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := DecodeMain([]byte(tc.data))
			if tc.err != "" {
				if d.Err == nil || !strings.Contains(d.Err.Error(), tc.err) {
					t.Fatalf("error %v, want it to contain %q", d.Err, tc.err)
				}
				if d.Config != nil {
					t.Errorf("config returned with the refusal")
				}
				return
			}
			if d.Err != nil {
				t.Fatalf("refused: %v", d.Err)
			}
			if d.Config == nil {
				t.Fatal("no config")
			}
			if (d.StrictErr != nil) != tc.lenient {
				t.Errorf("strict error %v, want lenient fallback: %v", d.StrictErr, tc.lenient)
			}
			if tc.lenient && !runtime.IsStrictDecodingError(d.StrictErr) {
				t.Errorf("StrictErr %T is not a strict decoding error", d.StrictErr)
			}
			if tc.check != nil {
				tc.check(t, d)
			}
		})
	}
}

func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestDecodeDropIn(t *testing.T) {
	tests := []struct {
		name string
		data string
		json string // the JSON the kubelet merges, when decoding succeeds
		gvk  string // the group/version/kind found
		err  string // a substring of the error
	}{
		{name: "valid", data: header + "maxPods: 5\n", json: `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":5}`, gvk: "kubelet.config.k8s.io/v1beta1, Kind=KubeletConfiguration"},
		{name: "unknown and case-folded keys are kept", data: header + "maxPod: 3\nMaxPods: 4\n", json: `{"MaxPods":4,"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPod":3}`, gvk: "kubelet.config.k8s.io/v1beta1, Kind=KubeletConfiguration"},
		{name: "type errors are not checked", data: header + "maxPods: abc\n", json: `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":"abc"}`, gvk: "kubelet.config.k8s.io/v1beta1, Kind=KubeletConfiguration"},
		{name: "nulls are kept", data: header + "staticPodPath: null\nevictionHard: {memory.available: null}\n", json: `{"apiVersion":"kubelet.config.k8s.io/v1beta1","evictionHard":{"memory.available":null},"kind":"KubeletConfiguration","staticPodPath":null}`, gvk: "kubelet.config.k8s.io/v1beta1, Kind=KubeletConfiguration"},
		{name: "merge keys are expanded", data: header + "a: &a {cpu: \"1\"}\nsystemReserved: {<<: *a, memory: 1Gi}\n", json: `{"a":{"cpu":"1"},"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","systemReserved":{"cpu":"1","memory":"1Gi"}}`, gvk: "kubelet.config.k8s.io/v1beta1, Kind=KubeletConfiguration"},
		{name: "wrong apiVersion is decoded, not refused here", data: "apiVersion: kubelet.config.k8s.io/v1alpha1\nkind: KubeletConfiguration\n", json: `{"apiVersion":"kubelet.config.k8s.io/v1alpha1","kind":"KubeletConfiguration"}`, gvk: "kubelet.config.k8s.io/v1alpha1, Kind=KubeletConfiguration"},
		{name: "missing apiVersion", data: "kind: KubeletConfiguration\n", json: `{"kind":"KubeletConfiguration"}`, gvk: "/, Kind=KubeletConfiguration"},
		{name: "missing kind", data: "apiVersion: kubelet.config.k8s.io/v1beta1\nmaxPods: 1\n", err: "Object 'Kind' is missing"},
		{name: "whitespace only", data: "  \n", err: "Object 'Kind' is missing"},
		{name: "duplicate keys are fatal", data: header + "maxPods: 5\nmaxPods: 6\n", err: `line 4: key "maxPods" already set in map`},
		{name: "nested duplicate keys are fatal", data: header + "evictionHard:\n  a: 1\n  a: 2\n", err: `line 5: key "a" already set in map`},
		{name: "duplicate keys under an unknown key are fatal", data: header + "x: {a: 1, a: 2}\n", err: "already set in map"},
		{name: "syntax error", data: header + "clusterDNS: [1\n", err: "did not find expected ',' or ']'"},
		{name: "top-level list", data: "- 1\n", err: "couldn't get version/kind"},
		{name: "excessive aliasing", data: header + aliasBomb(), err: "excessive aliasing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, gvk, err := DecodeDropIn([]byte(tc.data))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want it to contain %q", err, tc.err)
				}
				if out != nil {
					t.Errorf("JSON returned with an error: %s", out)
				}
				return
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if string(out) != tc.json {
				t.Errorf("JSON\n got  %s\n want %s", out, tc.json)
			}
			if !json.Valid(out) {
				t.Errorf("invalid JSON")
			}
			if gvk == nil || gvk.String() != tc.gvk {
				t.Errorf("gvk %v, want %s", gvk, tc.gvk)
			}
		})
	}
	if KubeletGVK.String() != "kubelet.config.k8s.io/v1beta1, Kind=KubeletConfiguration" {
		t.Errorf("KubeletGVK = %s", KubeletGVK)
	}
}

// TestDecodeMainConverted checks that decoding from a shared YAML-to-JSON
// conversion gives the kubelet's own DecodeMain result, config and messages,
// on every input file in testdata and on the hand-made cases of TestDecodeMain.
func TestDecodeMainConverted(t *testing.T) {
	inputs := corpusInputs(t)
	for _, s := range []string{
		header + "maxPods: 50\nmaxPods: 60\n",
		header + "maxPods: 50\nmaxPods: 60\nfoo: 1\n",
		header + "a: &a {cpu: 1}\nsystemReserved: {<<: *a, cpu: 2}\nfoo: 1\n",
		"kind: KubeletConfiguration\nmaxPods: 1\n",
		"apiVersion: kubelet.config.k8s.io/v1beta1\nmaxPods: 1\n",
		"apiVersion: v1\nkind: Pod\n",
		header + "maxPods: x\nmaxPods: 1\n",
		header + "maxPods: [\n",
		"",
	} {
		inputs = append(inputs, []byte(s))
	}
	if len(inputs) < 1000 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	proven := 0
	for _, data := range inputs {
		want := DecodeMain(data)
		// With the node tree (duplicateKeys' proof) and without.
		doc := Parse("x.yaml", data).Doc
		if duplicateKeys(doc) != dupUnsure {
			proven++
		}
		for _, doc := range []*yamlv3.Node{doc, nil} {
			got := decodeMainConverted(data, doc, func() ([]byte, error) { return yaml.YAMLToJSON(data) })
			if errText(got.Err) != errText(want.Err) || errText(got.StrictErr) != errText(want.StrictErr) || !reflect.DeepEqual(got.Config, want.Config) {
				t.Errorf("%q:\ngot  %v / %v / %+v\nwant %v / %v / %+v", data, got.Err, got.StrictErr, got.Config, want.Err, want.StrictErr, want.Config)
			}
			if (got.StrictErr != nil) != (want.StrictErr != nil) || (got.StrictErr != nil && !runtime.IsStrictDecodingError(got.StrictErr)) {
				t.Errorf("%q: strict error %T, want %T", data, got.StrictErr, want.StrictErr)
			}
		}
	}
	if proven < len(inputs)/2 {
		t.Errorf("duplicateKeys proves only %d of %d inputs", proven, len(inputs))
	}
}

// TestDuplicateKeys: where duplicateKeys decides, yaml.YAMLToJSONStrict
// agrees; on keys whose yaml/v2 value is not the string read it does not decide.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct {
		data string
		want dupVerdict
	}{
		{"a: 1\nb: 2\n", dupNone},
		{"a: 1\na: 2\n", dupSome},
		{"a: {x: 1, l: [{z: 1, z: 2}]}\n", dupSome},
		{"a: {x: 1, y: 2}\n", dupUnsure}, // y is true to yaml/v2
		{"a: 1\n\"a\": 2\n", dupSome},
		{"'a': 1\n\"a\": 2\n", dupSome},
		{"nodeStatusUpdateFrequency: 1s\ntopologyManagerPolicy: x\nfailSwapOn: true\n", dupNone},
		{"m: {k0: 1, k1: 1, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k9: 1}\n", dupNone},
		{"m: {k0: 1, k1: 1, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k0: 1}\n", dupSome},
		{"a: &a {x: 1}\nb: *a\nc: *a\n", dupNone},
		// keys v2 resolves to another value than the string read
		{"1: a\n0x1: b\n", dupUnsure},
		{"yes: a\non: b\n", dupUnsure},
		{"yes: a\n\"yes\": b\n", dupUnsure},
		{"~: a\nnull: b\n", dupUnsure},
		{"!!str a: 1\na: 2\n", dupUnsure},
		{".inf: 1\n", dupUnsure},
		{"-1: a\n", dupUnsure},
		{"? |\n  a\n: 1\n", dupUnsure},
		// merge keys: v2 calls an override of a merged key a duplicate
		{"a: &a {x: 1}\nb: {<<: *a, x: 2}\n", dupUnsure},
		{"[a, b]: 1\n", dupUnsure},
		{"*a: 1\n", dupUnsure},
	}
	for _, tc := range tests {
		doc := Parse("x.yaml", []byte(tc.data)).Doc
		got := duplicateKeys(doc)
		if got != tc.want {
			t.Errorf("%q: %v, want %v", tc.data, got, tc.want)
		}
		if got == dupUnsure {
			continue
		}
		if _, err := yaml.YAMLToJSONStrict([]byte(tc.data)); (err != nil) != (got == dupSome) {
			t.Errorf("%q: %v, yet YAMLToJSONStrict says %v", tc.data, got, err)
		}
	}
	if duplicateKeys(nil) != dupUnsure {
		t.Error("no document: want dupUnsure")
	}
	// Every input of testdata that both YAML libraries parse.
	for _, in := range corpusFiles(t) {
		v := duplicateKeys(Parse(in.path, in.data).Doc)
		if _, err := yaml.YAMLToJSON(in.data); v == dupUnsure || err != nil {
			continue
		}
		if _, err := yaml.YAMLToJSONStrict(in.data); (err != nil) != (v == dupSome) {
			t.Errorf("%s: %v, yet YAMLToJSONStrict says %v", in.path, v, err)
		}
	}
}

// conformanceGoldens are the kubelets' verdicts, JSON documents (the Linux
// kubelet's and the Windows kubelet's): as a main file JSON takes DecodeMain
// itself (utilyaml.IsJSONBuffer), so they would only repeat DecodeMain against
// itself, 9,000 times.
var conformanceGoldens = map[string]bool{"../testdata/conformance/golden": true, "../testdata/conformance/golden-windows": true}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

type corpusFile struct {
	path string
	data []byte
}

// corpusFiles are every input file in testdata (YAML, drop-ins and JSON, the
// goldens left out).
func corpusFiles(t *testing.T) []corpusFile {
	t.Helper()
	var files []corpusFile
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && conformanceGoldens[path] {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".conf") || strings.HasSuffix(path, ".json")) {
			return err
		}
		data, err := os.ReadFile(path)
		files = append(files, corpusFile{path, data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// corpusInputs are the bytes of corpusFiles.
func corpusInputs(t *testing.T) [][]byte {
	t.Helper()
	var inputs [][]byte
	for _, f := range corpusFiles(t) {
		inputs = append(inputs, f.data)
	}
	return inputs
}

// hostileInputs are small versions of pipeline's hostile shapes (linear_test.go)
// and their neighbours: repeated keys, aliases, merge keys, deep nesting,
// case-only keys, as drop-ins with their header.
func hostileInputs() [][]byte {
	repeat := func(head, line string, n int, tail string) []byte {
		return []byte(header + head + strings.Repeat(line, n) + tail)
	}
	return [][]byte{
		repeat("reservedMemory:\n", "- NUMANode: 1\n", 500, ""),
		repeat("", "maxPods: 1\n", 200, "evictionHard:\n"+strings.Repeat("  memory.available: 1Gi\n", 200)),
		repeat("l: &l {m0: 1Gi, m1: 2Gi}\nr: &r {numaNode: 0, limits: *l}\nreservedMemory:\n", "- *r\n", 500, ""),
		repeat("m0: &m0 {cpu: \"1\", memory: 1Gi}\nsystemReserved: {<<: [*m0", ", *m0", 300, "]}\n"),
		repeat("m0: &m0 {cpu: \"1\"}\n", "p: {<<: *m0}\n", 1, "q: {<<: [*m0, *m0]}\n"),
		repeat("featureGates: ", "{a: ", 300, "1"+strings.Repeat("}", 300)+"\n"),
		repeat("x: ", "[", 300, strings.Repeat("]", 300)+"\n"),
		repeat("", "unknown: 1\n", 1, "Unknown: 2\nUNKNOWN: 3\n"),
		repeat("evictionHard: {", "memory.available: 1Gi, ", 1, "nodefs.available: 1Gi}\n"),
		[]byte("kind: KubeletConfiguration\napiVersion: 1\n"),
		[]byte("kind: 1\napiVersion: kubelet.config.k8s.io/v1beta1\n"),
		[]byte("kind: KubeletConfiguration\napiVersion: a/b/c\n"),
		[]byte(header + "maxPods: 18446744073709551616\nx: 1e400\ny: 0x10\nz: 2001-12-14\n"),
		[]byte(header + "a: yes\nb: on\nc: ~\nd: .inf\n\"e\": \"<&>\"\n"),
		[]byte(header + "---\nmaxPods: 1\nmaxPods: 2\n"),
		[]byte(header + "maxPods: 1\n---\n: [\n"),
		[]byte(header + "\xff: 1\n"),
	}
}

// TestDecodeDropInParsed checks that skipping the strict re-parse where the
// node tree proves there is no duplicate key gives the kubelet's own
// DecodeDropIn result, JSON, kind and message, on every input file in testdata,
// the hand-made cases of TestDecodeDropIn, the hostile shapes and the alias
// bombs of TestExcessiveAliasing.
func TestDecodeDropInParsed(t *testing.T) {
	inputs := append(corpusInputs(t), hostileInputs()...)
	inputs = append(append(inputs, aliasBombs()[:40]...), aliasEdges(t)...)
	for _, s := range []string{
		header + "maxPods: 5\n", header + "maxPod: 3\nMaxPods: 4\n", header + "maxPods: abc\n",
		header + "staticPodPath: null\nevictionHard: {memory.available: null}\n",
		"apiVersion: kubelet.config.k8s.io/v1alpha1\nkind: KubeletConfiguration\n",
		"kind: KubeletConfiguration\n", "apiVersion: kubelet.config.k8s.io/v1beta1\nmaxPods: 1\n", "  \n", "- 1\n",
		header + "x: {a: 1, a: 2}\n", header + "clusterDNS: [1\n", header + aliasBomb(), "",
		header + "APIVersion: v1\n", header + "Kind: Pod\n", header + "KIND: 5\n", "apiVersion: 5\nkind: KubeletConfiguration\n",
		"apiVersion: a/b/c\nkind: KubeletConfiguration\n", "apiVersion: v1\nkind: \"\"\n", "apiVersion: v1\nkind: 1\n",
		"apiVersion: null\nkind: KubeletConfiguration\n", "apiVersion: /v1\nkind: K\n", "apiVersion: g/\nkind: K\n",
		"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: [KubeletConfiguration]\n", "kind: x\nmetadata: {name: 1}\n",
		"- kind: x\n", "kind: x\nx: \"<&>\"\ny: -12\nz: ~\n",
		header + "a: &a [1, *a]\n", header + "a: &a {b: *a}\n", header + "? [a]\n: 1\n", header + "a: {? {b: 1}\n: 2}\n",
		header + "a: &a [1]\nb: {<<: *a}\n", header + "b: {<<: 1}\n", header + "b: {<<: [1]}\n",
	} {
		inputs = append(inputs, []byte(s))
	}
	proven := 0
	for _, data := range inputs {
		wantJSON, wantGVK, wantErr := DecodeDropIn(data)
		parsed := Parse("x.conf", data)
		if duplicateKeys(parsed.Doc) == dupNone {
			proven++
		}
		for _, f := range []*File{parsed, {Path: "x.conf", Data: data}} {
			gotJSON, gotGVK, gotErr := decodeDropInParsed(f)
			if string(gotJSON) != string(wantJSON) || errText(gotErr) != errText(wantErr) || !reflect.DeepEqual(gotGVK, wantGVK) {
				t.Errorf("%.200q:\ngot  %s / %v / %v\nwant %s / %v / %v", data, gotJSON, gotGVK, gotErr, wantJSON, wantGVK, wantErr)
			}
			if runtime.IsStrictDecodingError(gotErr) != runtime.IsStrictDecodingError(wantErr) ||
				runtime.IsMissingKind(gotErr) != runtime.IsMissingKind(wantErr) || runtime.IsMissingVersion(gotErr) != runtime.IsMissingVersion(wantErr) {
				t.Errorf("%.200q: error %T, want %T", data, gotErr, wantErr)
			}
		}
	}
	if proven < len(inputs)/2 {
		t.Errorf("duplicateKeys proves only %d of %d inputs", proven, len(inputs))
	}
}
