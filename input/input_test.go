package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

const config = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 200\n"

// kubeadmCM wraps a kubelet config into a kubeadm ConfigMap, data.kubelet as
// a literal block at the given indentation.
func kubeadmCM(inner string, indent int) string {
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubelet-config\n  namespace: kube-system\ndata:\n  kubelet: |\n")
	for _, l := range strings.SplitAfter(inner, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(pad)
		}
		b.WriteString(l)
	}
	return b.String()
}

func TestParseFormat(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Format
		err  bool
	}{
		{"", Auto, false}, {"auto", Auto, false}, {"config", Config, false}, {"configz", Configz, false}, {"kubeadm", Kubeadm, false},
		{"yaml", "", true}, {"Configz", "", true},
	} {
		got, err := ParseFormat(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       Format
	}{
		{"config", config, Config},
		{"config json", `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration"}`, Config},
		{"configz", `{"kubeletconfig":{"maxPods":110}}`, Configz},
		{"configz pretty", "{\n  \"kubeletconfig\": {\n    \"maxPods\": 110\n  }\n}\n", Configz},
		{"configz not an object", `{"kubeletconfig":null}`, Configz}, // Convert says what is wrong
		{"configz with another key", `{"kubeletconfig":{},"x":1}`, Config},
		{"other json", `{"kind":"Status","status":"Failure"}`, Config},
		{"kubeadm", kubeadmCM(config, 4), Kubeadm},
		{"kubeadm json", `{"apiVersion":"v1","kind":"ConfigMap","data":{"kubelet":"kind: KubeletConfiguration\n"}}`, Kubeadm},
		{"other configmap", "apiVersion: v1\nkind: ConfigMap\ndata:\n  x: y\n", Kubeadm}, // Convert says what is missing
		{"configmap spelled with an escape", "apiVersion: v1\nkind: \"Config\\x4dap\"\ndata:\n  x: y\n", Kubeadm},
		{"configmap in UTF-16", "\xff\xfek\x00i\x00n\x00d\x00:\x00 \x00C\x00o\x00n\x00f\x00i\x00g\x00M\x00a\x00p\x00\n\x00", Kubeadm},
		{"not yaml", "a: [\n", Config},
		{"empty", "", Config},
	} {
		if got := Detect([]byte(tt.data)); got != tt.want {
			t.Errorf("%s: Detect = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestConfigz checks the conversion of configz dumps: every key keeps its
// line and column, TypeMeta is added unless present, and what is not a dump
// is refused when the format is forced.
func TestConfigz(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		err        string // Convert's error with format Configz
		keys       []string
	}{
		{name: "compact", data: `{"kubeletconfig":{"maxPods":110,"port":10250}}`, keys: []string{`"maxPods"`, `"port"`}},
		{name: "pretty", data: "{\n  \"kubeletconfig\": {\n    \"maxPods\": 110\n  }\n}\n", keys: []string{`"maxPods"`}},
		{name: "empty object", data: `{"kubeletconfig":{}}`},
		{name: "typemeta kept", data: `{"kubeletconfig":{"kind":"KubeletConfiguration","maxPods":1}}`, keys: []string{`"kind"`, `"maxPods"`}},
		{name: "null", data: `{"kubeletconfig":null}`, err: "kubeletconfig is not an object"},
		{name: "list", data: `{"kubeletconfig":[1]}`, err: "kubeletconfig is not an object"},
		{name: "not a dump", data: config, err: "is not a configz dump"},
		{name: "two keys", data: `{"kubeletconfig":{},"x":1}`, err: "is not a configz dump"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Convert("dump.json", []byte(tt.data), Configz)
			if tt.err != "" {
				var ie *source.InputError
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &ie) {
					t.Fatalf("error %v, want an input error with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var obj map[string]any
			if err := json.Unmarshal(s.Data, &obj); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, s.Data)
			}
			if obj["apiVersion"] != "kubelet.config.k8s.io/v1beta1" || obj["kind"] != "KubeletConfiguration" {
				t.Errorf("TypeMeta missing: %s", s.Data)
			}
			for _, k := range tt.keys {
				if i, j := strings.Index(tt.data, k), bytes.Index(s.Data, []byte(k)); i != j {
					t.Errorf("%s moved from offset %d to %d", k, i, j)
				}
			}
			if bytes.Count(s.Data, []byte("\n")) != strings.Count(tt.data, "\n") {
				t.Errorf("line count changed:\n%s", s.Data)
			}
		})
	}
}

// TestKubeadm checks the conversion of kubeadm ConfigMaps and that findings
// of the pipeline point at the ConfigMap's lines and columns.
func TestKubeadm(t *testing.T) {
	typo := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nclusterDomain: cluster.local\nmaxPod: 200\n"
	for _, tt := range []struct {
		name, data string
		err        string
		// rule and where it must be reported in the ConfigMap
		rule         string
		line, column int
		fallback     bool
	}{
		// line 8 is the first line of the block; maxPod is its 4th line.
		{name: "literal", data: kubeadmCM(typo, 4), rule: source.UnknownField.ID, line: 11, column: 5},
		{name: "literal deeper", data: kubeadmCM(typo, 6), rule: source.UnknownField.ID, line: 11, column: 7},
		{name: "literal strip chomping", data: strings.Replace(kubeadmCM(typo, 4), "|", "|-", 1), rule: source.UnknownField.ID, line: 11, column: 5},
		{name: "literal with comment and blank line", data: strings.Replace(kubeadmCM(strings.Replace(typo, "maxPod", "\n# pods\nmaxPod", 1), 4), "|", "| # written by kubeadm", 1),
			rule: source.UnknownField.ID, line: 13, column: 5},
		{name: "CRLF", data: strings.ReplaceAll(kubeadmCM(typo, 4), "\n", "\r\n"), rule: source.UnknownField.ID, line: 11, column: 5},
		// The kubelet's file starts with a document marker: it keeps column 1
		// in the converted document, and its findings get the block's column.
		{name: "document marker", data: kubeadmCM("---\n"+typo, 4), rule: source.UnknownField.ID, line: 12, column: 5},
		{name: "second document", data: kubeadmCM(typo+"---\nmaxPods: 1\n", 4), rule: source.ExtraDocument.ID, line: 12, column: 5},
		// Missing kind is reported at the top of the file: the top of the block.
		{name: "top of file", data: kubeadmCM("apiVersion: kubelet.config.k8s.io/v1beta1\nmaxPods: 1\n", 4), rule: source.ConfigTypeMeta.ID, line: 8, column: 5},
		{name: "syntax error", data: kubeadmCM("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: [1\n", 4), rule: source.ConfigSyntax.ID, line: 10},
		{name: "quoted", data: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubelet-config\ndata:\n  kubelet: \"apiVersion: kubelet.config.k8s.io/v1beta1\\nkind: KubeletConfiguration\\nmaxPod: 1\\n\"\n",
			rule: source.UnknownField.ID, line: 6, column: 3, fallback: true},
		{name: "folded", data: "apiVersion: v1\nkind: ConfigMap\ndata:\n  kubelet: >\n    apiVersion: kubelet.config.k8s.io/v1beta1\n\n    kind: KubeletConfiguration\n\n    maxPod: 1\n",
			rule: source.UnknownField.ID, line: 4, column: 3, fallback: true},
		{name: "json", data: `{"apiVersion":"v1","kind":"ConfigMap","data":{"kubelet":"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: 1\n"}}`,
			rule: source.UnknownField.ID, line: 1, column: 47, fallback: true},
		{name: "no data.kubelet", data: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata:\n  x: y\n", err: "ConfigMap other has no data.kubelet"},
		{name: "data.kubelet not a string", data: "apiVersion: v1\nkind: ConfigMap\ndata:\n  kubelet:\n    maxPods: 1\n", err: "line 4: data.kubelet is not a string"},
		{name: "not a configmap", data: config, err: "is not a ConfigMap"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cm.yaml")
			s, err := Convert(path, []byte(tt.data), Kubeadm)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := s.pos.Fallback; got != tt.fallback {
				t.Errorf("fallback %v, want %v; note %q", got, tt.fallback, s.Note)
			}
			var in pipeline.Input
			applyTo(s, &in)
			r, err := pipeline.Evaluate(kubelets.Default(), in)
			if err != nil {
				t.Fatal(err)
			}
			translateResult(s, r)
			for _, f := range r.Findings {
				if f.Rule == tt.rule {
					if f.File != path || f.Line != tt.line || tt.column != 0 && f.Column != tt.column {
						t.Errorf("%s at %d:%d, want %d:%d", f.Rule, f.Line, f.Column, tt.line, tt.column)
					}
					return
				}
			}
			t.Errorf("no %s finding in %+v\nconverted:\n%s", tt.rule, r.Findings, s.Data)
		})
	}
}

// TestKubeadmOrigins checks that effective --show-origin points into the
// ConfigMap too.
func TestKubeadmOrigins(t *testing.T) {
	s, err := Convert("cm.yaml", []byte(kubeadmCM(config, 4)), Auto)
	if err != nil {
		t.Fatal(err)
	}
	var in pipeline.Input
	applyTo(s, &in)
	r, err := pipeline.Evaluate(kubelets.Default(), in)
	if err != nil {
		t.Fatal(err)
	}
	translateResult(s, r)
	if got, want := r.Origins["maxPods"], (finding.Position{File: "cm.yaml", Line: 10, Column: 5}); got != want {
		t.Errorf("origin of maxPods %v, want %v", got, want)
	}
}

func TestPosition(t *testing.T) {
	block := &Source{Path: "cm.yaml", pos: &posmap.Map{Path: "cm.yaml", First: 8, Last: 20, Indent: 4, Dedented: map[int]bool{12: true}}}
	quoted := &Source{Path: "cm.yaml", pos: &posmap.Map{Path: "cm.yaml", Fallback: true, KeyLine: 6, KeyColumn: 3}}
	plain := &Source{Path: "cm.yaml"}
	for _, tt := range []struct {
		name string
		s    *Source
		in   finding.Position
		want finding.Position
	}{
		{"inside", block, finding.Position{File: "cm.yaml", Line: 9, Column: 7}, finding.Position{File: "cm.yaml", Line: 9, Column: 7}},
		{"top", block, finding.Position{File: "cm.yaml", Line: 1, Column: 1}, finding.Position{File: "cm.yaml", Line: 8, Column: 5}},
		{"past the end", block, finding.Position{File: "cm.yaml", Line: 21, Column: 1}, finding.Position{File: "cm.yaml", Line: 20, Column: 5}},
		{"marker", block, finding.Position{File: "cm.yaml", Line: 12, Column: 1}, finding.Position{File: "cm.yaml", Line: 12, Column: 5}},
		{"no line", block, finding.Position{File: "cm.yaml"}, finding.Position{File: "cm.yaml"}},
		{"other file", block, finding.Position{File: "conf.d/a.conf", Line: 1, Column: 1}, finding.Position{File: "conf.d/a.conf", Line: 1, Column: 1}},
		{"quoted", quoted, finding.Position{File: "cm.yaml", Line: 3, Column: 9}, finding.Position{File: "cm.yaml", Line: 6, Column: 3}},
		{"plain", plain, finding.Position{File: "cm.yaml", Line: 3, Column: 9}, finding.Position{File: "cm.yaml", Line: 3, Column: 9}},
	} {
		if got := tt.s.Position(tt.in); got != tt.want {
			t.Errorf("%s: Position(%v) = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}
	var none *Source
	none.Translate(&Result{}) // a nil source (no --config) is a no-op
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "node.json")
	if err := os.WriteFile(dump, []byte(`{"kubeletconfig":{"maxPods":7}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path, stdin string
		format            Format
		want              Format
		virtual           bool
		err               string
	}{
		{name: "config file read by the pipeline", path: cfg, format: Auto, want: Config},
		{name: "configz file", path: dump, format: Auto, want: Configz, virtual: true},
		{name: "forced config is not read", path: filepath.Join(dir, "missing.yaml"), format: Config, want: Config},
		{name: "missing", path: filepath.Join(dir, "missing.yaml"), format: Auto, err: "no such file or directory"},
		{name: "folder", path: dir, format: Auto, err: "is a directory"},
		{name: "stdin config", path: Stdin, stdin: config, format: Auto, want: Config, virtual: true},
		{name: "stdin configz", path: Stdin, stdin: `{"kubeletconfig":{}}`, format: Auto, want: Configz, virtual: true},
		{name: "stdin kubeadm", path: Stdin, stdin: kubeadmCM(config, 4), format: Auto, want: Kubeadm, virtual: true},
		{name: "stdin forced configz", path: Stdin, stdin: config, format: Configz, err: "<stdin>: is not a configz dump"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(tt.path, strings.NewReader(tt.stdin), tt.format)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != tt.want {
				t.Errorf("format %q, want %q", s.Format, tt.want)
			}
			var in pipeline.Input
			applyTo(s, &in)
			if _, ok := in.Virtual[in.Config]; ok != tt.virtual {
				t.Errorf("in memory: %v, want %v", ok, tt.virtual)
			}
			if tt.path == Stdin && in.Config != StdinName {
				t.Errorf("stdin is named %q", in.Config)
			}
			if tt.format != Config {
				if r, err := pipeline.Evaluate(kubelets.Default(), in); err != nil || !r.Starts {
					t.Errorf("does not evaluate: %v %+v", err, r)
				}
			}
		})
	}
}

// TestReadLimited checks the stdin limit: as many bytes as a file may have.
func TestReadLimited(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
		err  bool
	}{
		{"empty", 0, false},
		{"at the limit", source.MaxFileSize, false},
		{"over the limit", source.MaxFileSize + 1, true},
	} {
		data, err := ReadLimited(bytes.NewReader(make([]byte, tt.n)), StdinName)
		var ie *source.InputError
		switch {
		case tt.err && (!errors.As(err, &ie) || ie.Path != StdinName):
			t.Errorf("%s: error %v, want an input error naming %s", tt.name, err, StdinName)
		case !tt.err && (err != nil || len(data) != tt.n):
			t.Errorf("%s: read %d bytes, %v", tt.name, len(data), err)
		}
	}
	if _, err := ReadLimited(nil, StdinName); err == nil {
		t.Error("a nil reader reads")
	}
}

// Settle drops "set while its gate is off" for a dump's default values only.
func TestSettleConfigzDefaults(t *testing.T) {
	m, err := kubelets.Lookup("1.33")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, dump string
		want       int // KC6002 findings left
	}{
		// 0.9 is what 1.33 defaults memoryThrottlingFactor to, MemoryQoS off.
		{"default value", `{"kubeletconfig":{"memoryThrottlingFactor":0.9}}`, 0},
		{"value the kubelet would not choose", `{"kubeletconfig":{"memoryThrottlingFactor":0.7}}`, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "node.json")
			if err := os.WriteFile(path, []byte(tt.dump), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, nil, Auto)
			if err != nil {
				t.Fatal(err)
			}
			var in pipeline.Input
			applyTo(s, &in)
			r, err := pipeline.Evaluate(m, in)
			if err != nil {
				t.Fatal(err)
			}
			before := countRule(r, validate.GatedFieldIgnored.ID)
			if err := settleResult(s, r); err != nil {
				t.Fatal(err)
			}
			if got := countRule(r, validate.GatedFieldIgnored.ID); got != tt.want || before != 1 {
				t.Errorf("KC6002 findings: %d before Settle, %d after; want 1 and %d", before, got, tt.want)
			}
		})
	}
}

func countRule(r *pipeline.Result, id string) int {
	n := 0
	for _, f := range r.Findings {
		if f.Rule == id {
			n++
		}
	}
	return n
}
