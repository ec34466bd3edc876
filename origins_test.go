package kubeletcfg

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// TestNoDefaultLabelOnToolValues: on every bootstrapper file of the test data,
// a value `effective --show-origin` labels "default" (no origin, no note) is
// the kubelet's own default: a value a file the tool read or wrote set is
// never labelled default.
func TestNoDefaultLabelOnToolValues(t *testing.T) {
	tools := input.BootstrapperFormats()
	var files []string
	for _, root := range []string{"testdata/bootstrappers", "testdata/inputs"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if slices.Contains(tools, string(input.DetectPath(path, data))) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d bootstrapper files found", len(files))
	}
	defaults := map[string]map[string]any{}
	checked := 0
	for _, path := range files {
		e, err := Effective(Options{Config: path})
		if err != nil || e.Result.Effective == nil || e.Result.Bootstrapper() != "" {
			// A file the tool refuses (the node gets no kubelet), or one that
			// needs a minor named: other tests' business.
			continue
		}
		res := e.Result
		m := res.Minor
		// The defaults of the kubelet the file is for (a Windows template's: 500Mi),
		// run as the tool runs it: a kubelet without --config (an AKS Windows
		// node's) has its flags' defaults.
		p, err := Options{Config: path}.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		empty := pipeline.Input{Config: "empty.yaml", OS: res.OS, Virtual: map[string][]byte{"empty.yaml": []byte(testConfig)}}
		key := m.Version + "/" + string(res.OS.Or())
		if p.Input.Config == "" && p.Input.ConfigDir == "" {
			empty, key = pipeline.Input{OS: res.OS}, key+"/flags"
		}
		if defaults[key] == nil {
			d, err := pipeline.Evaluate(m, empty)
			if err != nil {
				t.Fatal(err)
			}
			obj, err := d.EffectiveObject()
			if err != nil {
				t.Fatal(err)
			}
			defaults[key] = kubelets.Flatten(obj, m.Fields())
		}
		obj, err := res.EffectiveObject()
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for p, v := range kubelets.Flatten(obj, m.Fields()) {
			if labelled(res, p) {
				continue
			}
			if def, ok := defaults[key][p]; !ok || !reflect.DeepEqual(def, v) {
				t.Errorf("%s (kubelet %s): %s: %v is labelled default, the kubelet's default is %v", path, m.Version, p, v, def)
			}
		}
	}
	t.Logf("%d bootstrapper files checked", checked)
}

// labelled reports whether --show-origin names where p's value came from
// (annotate: a note or an origin on p or, for a map's entry, on the map).
func labelled(res *pipeline.Result, p string) bool {
	for q := p; q != ""; q = kubelets.Parent(q) {
		if _, ok := res.OriginNotes[q]; ok {
			return true
		}
		if pos, ok := res.Origins[q]; ok && pos.File != "" {
			return true
		}
		if !strings.Contains(q, "[") {
			break // annotate looks at a struct field's own path only
		}
	}
	return false
}
