package kubelets

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// NonStrictSchema opens closed objects and keeps map value schemas and other
// keywords; it drops $id and says so in $comment.
func TestNonStrictSchema(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"closed object opened",
			`{"$id":"x","$comment":"c.","type":"object","additionalProperties":false,"properties":{"a":{"type":"object","additionalProperties":false}}}`,
			`{"$comment":"c. Non-strict variant written by kubeletcfg schema --kubeconform: unknown keys are allowed.","properties":{"a":{"type":"object"}},"type":"object"}`},
		{"map kept",
			`{"type":"object","additionalProperties":{"type":"string"},"allOf":[{"additionalProperties":false}]}`,
			`{"additionalProperties":{"type":"string"},"allOf":[{}],"type":"object"}`},
		{"numbers exact", `{"maximum":9007199254740993}`, `{"maximum":9007199254740993}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NonStrictSchema([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			var v any
			dec := json.NewDecoder(strings.NewReader(string(got)))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			compact, _ := json.Marshal(v)
			if string(compact) != tt.want {
				t.Errorf("got  %s\nwant %s", compact, tt.want)
			}
		})
	}
	if _, err := NonStrictSchema([]byte(`[`)); err == nil {
		t.Error("broken JSON: want an error")
	}
}

// WriteKubeconform writes every file once, leaves identical files alone,
// refuses a differing one without force before writing anything, and
// replaces it with force.
func TestWriteKubeconform(t *testing.T) {
	dir := t.TempDir()
	first, err := WriteKubeconform(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if first.Written != len(first.Files) || first.Written == 0 {
		t.Fatalf("wrote %d of %d", first.Written, len(first.Files))
	}
	again, err := WriteKubeconform(dir, false)
	if err != nil || again.Written != 0 {
		t.Fatalf("rerun: wrote %v, %v", again, err)
	}
	strict := filepath.Join(dir, "master-standalone-strict", KubeconformFileName)
	loose := filepath.Join(dir, "master-standalone", KubeconformFileName)
	if err := os.WriteFile(loose, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(strict); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteKubeconform(dir, false); err == nil || !strings.Contains(err.Error(), "differs; pass SchemaRequest.Force") {
		t.Errorf("differing file without force: %v", err)
	}
	if _, err := os.Stat(strict); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote %s", strict)
	}
	forced, err := WriteKubeconform(dir, true)
	if err != nil || forced.Written != 2 {
		t.Fatalf("force: wrote %v, %v", forced, err)
	}
	if _, err := WriteKubeconform(loose, false); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("a file as the folder: %v", err)
	}
}
