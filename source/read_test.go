package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name      string
		data      string
		doc       bool  // a first document was parsed
		nullDoc   bool  // the first document is an explicit empty (null) document
		extra     []int // ExtraDocs
		syntaxErr bool
		errLine   int // ErrorLine(SyntaxErr)
		// firstKey is the line:column of the first key, when doc.
		firstLine, firstCol int
	}{
		{name: "empty", data: ""},
		{name: "whitespace", data: "  \n\n"},
		{name: "comments only", data: "# a\n# b\n"},
		{name: "document marker only", data: "---\n", nullDoc: true},
		{name: "one document", data: header, doc: true, firstLine: 1, firstCol: 1},
		{name: "leading marker", data: "---\n" + header, doc: true, firstLine: 2, firstCol: 1},
		{name: "extra documents", data: header + "---\nmaxPods: 1\n---\n# c\nfoo: 2\n", doc: true, extra: []int{3, 5}, firstLine: 1, firstCol: 1},
		{name: "empty first document", data: "---\n---\n" + header, nullDoc: true, extra: []int{2}},
		{name: "broken second document is ignored", data: header + "---\nthis: [is: not, valid\n", doc: true, extra: []int{3}, firstLine: 1, firstCol: 1},
		{name: "broken document after an explicit first", data: "---\n" + header + "--- # c\nthis: [\n", doc: true, extra: []int{4}, firstLine: 2, firstCol: 1},
		{name: "a --- inside a scalar is not a marker", data: header + "x: |\n  ---\n--- \n[\n", doc: true, extra: []int{5}, firstLine: 1, firstCol: 1},
		{name: "extra docs before a broken one", data: header + "---\na: 1\n---\nb: [\n", doc: true, extra: []int{3, 5}, firstLine: 1, firstCol: 1},
		{name: "BOM", data: "\ufeff" + header, doc: true, firstLine: 1, firstCol: 1},
		{name: "CRLF", data: strings.ReplaceAll(header+"---\nmaxPods: 1\n", "\n", "\r\n"), doc: true, extra: []int{3}, firstLine: 1, firstCol: 1},
		{name: "indented first key", data: "\n\n   maxPods: 1\n", doc: true, firstLine: 3, firstCol: 4},
		{name: "JSON", data: `{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration"}`, doc: true, firstLine: 1, firstCol: 2},
		{name: "unclosed flow sequence", data: header + "clusterDNS: [10.96.0.10, 10.96.0.11\nmaxPods: 50\n", syntaxErr: true, errLine: 3},
		{name: "unclosed flow mapping", data: "a: 1\nb: {x: 1\n", syntaxErr: true, errLine: 2},
		{name: "list item in a mapping", data: "a: 1\nb: 2\n- c\n", syntaxErr: true, errLine: 3},
		{name: "bad indentation", data: "a: 1\nb:\n  c: 1\n   d: 2\n", syntaxErr: true, errLine: 4},
		{name: "mapping key indented too little", data: header + "authentication:\n  anonymous:\n    enabled: false\n   webhook:\n    enabled: true\n", syntaxErr: true, errLine: 6},
		{name: "list item under a mapping", data: "a:\n  b: 1\n  - c\n", syntaxErr: true, errLine: 3},
		{name: "unclosed at the end", data: "a: 1\nb: 2\nc: 3\nd: [\n", syntaxErr: true, errLine: 4},
		{name: "unclosed at the end without newline", data: "a: 1\nb: [", syntaxErr: true, errLine: 2},
		// go-yaml drops the context mark of the first line: the line where parsing stopped
		{name: "unclosed mapping from the first line", data: "a: {x: 1,\n  y: 2\nb: 3\n", syntaxErr: true, errLine: 3},
		{name: "tab indentation", data: "a: 1\nb:\n\tc: 1\n", syntaxErr: true, errLine: 3},
		{name: "mapping value in a plain scalar", data: "a: 1\nb: c: d\n", syntaxErr: true, errLine: 2},
		{name: "unterminated quote", data: "a: 1\nb: \"abc\n", syntaxErr: true, errLine: 2},
		// go-yaml prints no line for line 1 (its 0-based mark is 0)
		{name: "error on the first line", data: "a: b: c\n", syntaxErr: true, errLine: 0},
		{name: "unknown anchor has no line", data: "a: 1\nb: *nope\n", syntaxErr: true, errLine: 0},
		{name: "invalid UTF-8", data: "a: \xff\xfe\n", syntaxErr: true, errLine: 0},
		{name: "NUL byte", data: "a: 1\n\x00\n", syntaxErr: true},
		{name: "too deep", data: strings.Repeat("[", 10001), syntaxErr: true, errLine: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("in.yaml", []byte(tc.data))
			if f.Path != "in.yaml" || string(f.Data) != tc.data {
				t.Errorf("path/data not kept: %q", f.Path)
			}
			if (f.SyntaxErr != nil) != tc.syntaxErr {
				t.Fatalf("syntax error %v, want error: %v", f.SyntaxErr, tc.syntaxErr)
			}
			if tc.syntaxErr {
				if f.Doc != nil {
					t.Errorf("Doc set despite the syntax error")
				}
				if tc.errLine >= 0 && tc.name != "NUL byte" {
					if got := ErrorLine(f.SyntaxErr); got != tc.errLine {
						t.Errorf("ErrorLine(%q) = %d, want %d", f.SyntaxErr, got, tc.errLine)
					}
				}
				return
			}
			if tc.nullDoc {
				if f.Doc == nil || f.Doc.Kind != yaml.ScalarNode || f.Doc.Tag != "!!null" {
					t.Errorf("Doc = %+v, want a null scalar", f.Doc)
				}
				if keys := Walk(f, kubelets.Tree(), Strict); len(keys) != 0 {
					t.Errorf("%d keys in an empty document", len(keys))
				}
			} else if (f.Doc != nil) != tc.doc {
				t.Fatalf("Doc = %v, want a document: %v", f.Doc, tc.doc)
			}
			if !reflect.DeepEqual(f.ExtraDocs, tc.extra) {
				t.Errorf("ExtraDocs = %v, want %v", f.ExtraDocs, tc.extra)
			}
			if tc.doc {
				if f.Doc.Kind != yaml.MappingNode || len(f.Doc.Content) == 0 {
					t.Fatalf("Doc is not a mapping: kind %v", f.Doc.Kind)
				}
				k := f.Doc.Content[0]
				if k.Line != tc.firstLine || k.Column != tc.firstCol {
					t.Errorf("first key %q at %d:%d, want %d:%d", k.Value, k.Line, k.Column, tc.firstLine, tc.firstCol)
				}
			}
		})
	}
}

// The first key of a file with a BOM is read without the BOM, so it matches its field.
func TestParseBOMKey(t *testing.T) {
	keys := Walk(Parse("bom.yaml", []byte("\ufeff"+header+"maxPods: 3\r\n")), kubelets.Tree(), Strict)
	if len(keys) != 3 || keys[0].Kind != KeyExact || keys[0].Path != "apiVersion" || keys[2].Path != "maxPods" || keys[2].Pos.Line != 3 {
		t.Fatalf("keys of a BOM file: %+v", keys)
	}
	if keys[2].Value != "3" {
		t.Errorf("CRLF value %q, want 3", keys[2].Value)
	}
}

// The syntax error of a file names the line its position uses.
func TestSyntaxErrorText(t *testing.T) {
	data := header + "authentication:\n  anonymous:\n    enabled: false\n   webhook:\n    enabled: true\n"
	f := Parse("bad.yaml", []byte(data))
	if f.SyntaxErr == nil {
		t.Fatal("no syntax error")
	}
	if got := f.SyntaxErr.Error(); got != "yaml: line 6: did not find expected key" {
		t.Errorf("message %q", got)
	}
	if inner := errors.Unwrap(f.SyntaxErr); inner == nil || inner.Error() != "yaml: line 3: did not find expected key" {
		t.Errorf("the parser's own error is not kept: %v", inner)
	}
	if ErrorLine(f.SyntaxErr) != 6 || ErrorLine(fmt.Errorf("wrapped: %w", f.SyntaxErr)) != 6 {
		t.Errorf("ErrorLine = %d", ErrorLine(f.SyntaxErr))
	}
}

func TestErrorLine(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("yaml: unknown anchor 'x' referenced"), 0},
		// scanner errors print 1-based lines
		{errors.New("yaml: line 4: mapping values are not allowed in this context"), 4},
		{errors.New("yaml: line 3: found character that cannot start any token"), 3},
		// parser errors print the 0-based line of their mark
		{errors.New("yaml: line 2: did not find expected ',' or ']'"), 3},
		{errors.New("yaml: line 5: did not find expected key"), 6},
		{errors.New("error converting YAML to JSON: yaml: line 1: did not find expected node content"), 2},
		{errors.New("yaml: line 99999999999999999999999: did not find expected key"), 0},
		{errors.New("no line here"), 0},
	}
	for _, tc := range tests {
		if got := ErrorLine(tc.err); got != tc.want {
			t.Errorf("ErrorLine(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// writeFile writes data to name under dir and returns the path.
func writeFile(t testing.TB, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.yaml", header+"maxPods: 5\n")
	empty := writeFile(t, dir, "empty.yaml", "")
	exact := writeFile(t, dir, "exact.yaml", "# "+strings.Repeat("x", MaxFileSize-3)+"\n")
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop.yaml")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.yaml")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if f, err := os.Create(big); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	if err := os.Truncate(big, MaxFileSize+1); err != nil { // sparse: no data written
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.yaml")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	if err := os.Truncate(huge, 100<<20); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(good, "child.yaml")

	tests := []struct {
		path    string
		errWant string // substring of the InputError; "" for success
		keys    int
	}{
		{good, "", 3},
		{link, "", 3},
		{empty, "", 0},
		{exact, "", 0},
		{filepath.Join(dir, "missing.yaml"), "no such file or directory", 0},
		{dir, "is a directory, not a file", 0},
		{os.DevNull, "is a device, not a file", 0}, // not a pipe: never read
		{big, "reads at most 4194304 bytes", 0},
		{huge, "is 104857600 bytes", 0},
		{loop, "too many levels of symbolic links", 0},
		{dangling, "no such file or directory", 0},
		{notDir, "not a directory", 0},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			f, err := ReadFile(tc.path)
			if tc.errWant == "" {
				if err != nil {
					t.Fatalf("ReadFile: %v", err)
				}
				if f.Path != tc.path {
					t.Errorf("Path %q, want %q", f.Path, tc.path)
				}
				if n := len(Walk(f, kubelets.Tree(), Strict)); n != tc.keys {
					t.Errorf("%d keys, want %d", n, tc.keys)
				}
				return
			}
			if f != nil {
				t.Errorf("file returned with an error")
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T), want *InputError", err, err)
			}
			if ie.Path != tc.path || !strings.HasPrefix(err.Error(), tc.path+": ") {
				t.Errorf("error %q does not name %s", err, tc.path)
			}
			if !strings.Contains(err.Error(), tc.errWant) {
				t.Errorf("error %q, want it to say %q", err, tc.errWant)
			}
			if errors.Unwrap(err) == nil {
				t.Errorf("InputError does not unwrap")
			}
		})
	}
}

// TestReadPipe: process substitution (lint -c <(cat f)) hands the kubelet and
// us a pipe; it is read once, within the limit stdin has, and a second read of
// the same path (detection, then the pipeline) gets the same bytes.
func TestReadPipe(t *testing.T) {
	tests := []struct {
		name    string
		write   string
		errWant string
	}{
		{"config", header + "maxPods: 5\n", ""},
		{"empty", "", ""},
		{"too-large", strings.Repeat("#", MaxFileSize+1), "is more than 4194304 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					done <- err
					return
				}
				_, err = w.WriteString(tc.write)
				if errors.Is(err, syscall.EPIPE) {
					err = nil // the reader stopped at the limit
				}
				w.Close()
				done <- err
			}()
			first, err := ReadBytes(fifo)
			if werr := <-done; werr != nil {
				t.Fatalf("writer: %v", werr)
			}
			if tc.errWant != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errWant) || !strings.HasPrefix(err.Error(), fifo+": ") {
					t.Fatalf("error %v, want one naming %s that says %q", err, fifo, tc.errWant)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadBytes: %v", err)
			}
			if string(first) != tc.write {
				t.Fatalf("read %q, want %q", first, tc.write)
			}
			again, err := ReadFile(fifo) // the writer is gone: only the kept bytes can answer
			if err != nil || string(again.Data) != tc.write {
				t.Fatalf("second read: %q, %v; want %q", again.Data, err, tc.write)
			}
		})
	}
}

func TestReadFilePermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	p := writeFile(t, t.TempDir(), "secret.yaml", header)
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("error %v, want a permission InputError", err)
	}
}
