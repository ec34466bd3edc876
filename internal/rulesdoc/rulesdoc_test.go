package rulesdoc

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		line            int
		want, lang      string
	}{{
		name: "top-level key",
		file: "kubelet.yaml",
		src:  "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: -1 # want KC4025\n",
		line: 3, want: "maxPods: -1", lang: "yaml",
	}, {
		name: "nested key keeps its parents, not its siblings",
		file: "kubelet.yaml",
		src: `kind: KubeletConfiguration
authentication:
  anonymous:
    enabled: true
  x509:

    # a comment between parent and line
    clientCAFile: ca.crt # want KC1105
  webhook:
    enabled: true
`,
		line: 8, want: "authentication:\n  x509:\n    clientCAFile: ca.crt", lang: "yaml",
	}, {
		name: "list item at its key's column",
		file: "kubelet.yaml",
		src:  "kind: KubeletConfiguration\ntlsCipherSuites:\n- TLS_A\n- TLS_B # want KC4042\n",
		line: 4, want: "tlsCipherSuites:\n- TLS_B", lang: "yaml",
	}, {
		name: "key inside a list item",
		file: "kubelet.yaml",
		src:  "reservedMemory:\n  - numaNode: 0\n    limits:\n      memory: 1Gi # want KC4060\n  - numaNode: 1\n",
		line: 4, want: "reservedMemory:\n  - numaNode: 0\n    limits:\n      memory: 1Gi", lang: "yaml",
	}, {
		name: "key with nested lines brings them, up to MaxLines",
		file: "conf.d/50-crashloop.conf",
		src:  "crashLoopBackOff: # want KC4050\n  maxContainerRestartPeriod: 10s\nmaxPods: 3\n",
		line: 1, want: "crashLoopBackOff:\n  maxContainerRestartPeriod: 10s", lang: "yaml",
	}, {
		name: "flow value; the # in quotes is not the want comment",
		file: "kubelet.yaml",
		src:  "kind: KubeletConfiguration\nfeatureGates: {\"Foo#1\": true, Bar: false}   # want KC3001 KC1101\n",
		line: 2, want: `featureGates: {"Foo#1": true, Bar: false}`, lang: "yaml",
	}, {
		name: "document marker brings the document it starts",
		file: "kubelet.yaml",
		src:  "kind: KubeletConfiguration\n--- # want KC1104\nkind: KubeletConfiguration\nmaxPods: 70\n---\nmaxPods: 1\n",
		line: 2, want: "---\nkind: KubeletConfiguration\nmaxPods: 70", lang: "yaml",
	}, {
		name: "JSON file: the whole file when short",
		file: "kubelet.json",
		src:  `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":50,"extra":{"a":1}}` + "\n",
		line: 1, want: `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":50,"extra":{"a":1}}`, lang: "json",
	}, {
		name: "long JSON file: the line alone",
		file: "kubelet.conf",
		src:  "{\n \"a\": 1,\n \"b\": 2,\n \"c\": 3,\n \"d\": 4,\n \"e\": 5,\n \"f\": 6,\n \"g\": 7,\n \"maxPods\": \"x\"\n}\n",
		line: 9, want: ` "maxPods": "x"`, lang: "json",
	}, {
		name: "case.yaml names the file only: the whole file when short",
		file: "kubelet.yaml",
		src:  "kind: KubeletConfiguration\nmaxPods: 3\n",
		line: 0, want: "kind: KubeletConfiguration\nmaxPods: 3", lang: "yaml",
	}, {
		name: "case.yaml names a line of a file that does not parse: the whole file",
		file: "kubelet.yaml",
		src:  "kind: KubeletConfiguration\nauthentication:\n\tanonymous:\n\t\tenabled: false\n",
		line: 3, want: "kind: KubeletConfiguration\nauthentication:\n\tanonymous:\n\t\tenabled: false", lang: "yaml",
	}, {
		name: "case.yaml names a long file only: nothing",
		file: "kubelet.yaml",
		src:  strings.Repeat("# filler\n", MaxLines) + "maxPods: 3\n",
		line: 0, want: "", lang: "yaml",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, lang := Excerpt(tc.file, []byte(tc.src), tc.line)
			if got != tc.want || lang != tc.lang {
				t.Errorf("Excerpt(%s:%d) =\n%s\n(%s), want\n%s\n(%s)", tc.file, tc.line, got, lang, tc.want, tc.lang)
			}
		})
	}
}

func TestReadExpectations(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("case.yaml", "description: x\nflags: [\"--max-pods=5\"]\n# want: [\"kubelet.json:1: KC1101\", \"conf.d/README: KC2001\", \"(command line): KC2503 KC2504\"]\n")
	write("kubelet.json", `{"kind":"KubeletConfiguration","extra":1}`)
	write("conf.d/README", "notes\n")
	write("conf.d/10-a.conf", "kind: KubeletConfiguration\nMaxPods: 3 # want KC2006 # want-windows KC2006 KC5101\n")
	got, err := ReadExpectations(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Expectation{
		{File: "kubelet.json", Line: 1, Rules: []string{"KC1101"}, InCaseYAML: true},
		{File: "conf.d/README", Rules: []string{"KC2001"}, InCaseYAML: true},
		{File: CommandLine, Rules: []string{"KC2503", "KC2504"}, InCaseYAML: true},
		{File: "conf.d/10-a.conf", Line: 2, Rules: []string{"KC2006"}},
		{File: "conf.d/10-a.conf", Line: 2, Rules: []string{"KC2006", "KC5101"}, Windows: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadExpectations =\n%+v\nwant\n%+v", got, want)
	}

	c, ok, err := newCandidate(dir, got[2])
	if err != nil || !ok {
		t.Fatalf("command-line candidate: %v %v", ok, err)
	}
	// No config: key and no kubelet.yaml: the harness passes no --config.
	if c.Excerpt != "kubelet --config-dir conf.d --max-pods=5" {
		t.Errorf("command line = %q", c.Excerpt)
	}
}

// Every example in the real corpus is a valid excerpt of a file that parses,
// and the ones the brief prefers win: a rule marked alone on a YAML line.
func TestFindOnCorpus(t *testing.T) {
	examples, err := Find("../../testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) == 0 {
		t.Fatal("no examples found in the corpus")
	}
	e, ok := examples["KC4025"]
	if !ok || e.File != "kubelet.yaml" || e.Line == 0 || !strings.HasPrefix(e.Excerpt, "maxPods:") || strings.Contains(e.Excerpt, "# want") || e.Verdict.Starts {
		t.Errorf("KC4025 example = %+v", e)
	}
	// A rule only the Windows kubelet has: a `# want-windows` line, with the
	// Windows kubelet's verdict; a rule both have keeps a Linux example.
	if e := examples["KC5102"]; !e.Verdict.Windows || e.Verdict.Starts || e.Excerpt != "singleProcessOOMKill: false" ||
		!strings.Contains(e.Markdown(), "The Windows kubelet "+e.Verdict.Minor+" ([golden](../testdata/conformance/golden-windows/") {
		t.Errorf("KC5102 example = %+v\n%s", e, e.Markdown())
	}
	if e := examples["KC4058"]; e.Verdict.Windows {
		t.Errorf("KC4058 example is the Windows kubelet's: %+v", e)
	}
	for id, e := range examples {
		if strings.Contains(e.Excerpt, "# want") {
			t.Errorf("%s: excerpt keeps a want comment: %q", id, e.Excerpt)
		}
		if e.Verdict.Minor == "" {
			t.Errorf("%s: no verdict", id)
		}
	}
}

// docs/rules.md is this package's output; this fails when someone changes a
// rule, a case's expectations or a golden without regenerating it.
func TestRulesReferenceUpToDate(t *testing.T) {
	var want bytes.Buffer
	if _, err := Write(&want, "../../testdata/conformance"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatalf("docs/rules.md: %v (generate it: %s)", err, Generator)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("docs/rules.md is stale: %s", Generator)
	}
}
