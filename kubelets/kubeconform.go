package kubelets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
	"github.com/kubeletcfg/kubeletcfg/internal/fserr"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
)

// KubeconformTemplate is kubeconform's default -schema-location layout
// (pkg/registry: a location that does not end in "json" gets it appended). For
// apiVersion kubelet.config.k8s.io/v1beta1, kind KubeletConfiguration it expands
// to <version>-standalone[-strict]/kubeletconfiguration-kubelet-v1beta1.json,
// where <version> is "master" or "v" + -kubernetes-version.
const KubeconformTemplate = "{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"

// KubeconformFileName is {{ .ResourceKind }}{{ .KindSuffix }}.json for
// KubeletConfiguration: the kind lower-cased, then "-" + the group's first label
// + "-" + the version.
const KubeconformFileName = "kubeletconfiguration-kubelet-v1beta1.json"

// SchemaFile is one file of the kubeconform folder.
type SchemaFile struct {
	// Rel is the file's path under the folder, slash-separated.
	Rel  string
	Data []byte
}

// KubeconformFiles lays out every supported minor's schema as kubeconform looks
// them up: "master" is the default minor (the newest GA release, as everywhere
// else), "v1.M.P" each patch from 0 to the one the minor was generated from
// (the v1beta1 types do not change within a minor), and a pre-release minor
// only under its own name ("v1.38.0-beta.0": its types may still change before
// v1.38.0), each strict (the embedded schema) and non-strict (NonStrictSchema).
func KubeconformFiles() ([]SchemaFile, error) {
	var files []SchemaFile
	add := func(version string, strict, loose []byte) {
		files = append(files,
			SchemaFile{version + "-standalone-strict/" + KubeconformFileName, strict},
			SchemaFile{version + "-standalone/" + KubeconformFileName, loose})
	}
	for _, v := range Supported() {
		m, err := Lookup(v)
		if err != nil {
			return nil, err
		}
		strict, err := m.Schema()
		if err != nil {
			return nil, err
		}
		loose, err := NonStrictSchema(strict)
		if err != nil {
			return nil, fmt.Errorf("schema of %s: %w", v, err)
		}
		if m.PreRelease() {
			add(m.Patch, strict, loose)
			continue
		}
		var patch int
		if _, err := fmt.Sscanf(m.Patch, "v"+m.Version+".%d", &patch); err != nil {
			return nil, fmt.Errorf("kubelet %s: release %q: %w", v, m.Patch, err)
		}
		for p := 0; p <= patch; p++ {
			add(fmt.Sprintf("v%s.%d", m.Version, p), strict, loose)
		}
		if m == Default() {
			add("master", strict, loose)
		}
	}
	return files, nil
}

// NonStrictSchema opens every closed object of a schema (additionalProperties:
// false), as kubeconform's non-strict schemas allow unknown keys. Maps keep their
// value schemas. The $id is dropped: the document is no longer the one it names.
func NonStrictSchema(strict []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(strict))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return nil, err
	}
	var open func(v any)
	open = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ap, ok := v["additionalProperties"].(bool); ok && !ap {
				delete(v, "additionalProperties")
			}
			for _, c := range v {
				open(c)
			}
		case []any:
			for _, c := range v {
				open(c)
			}
		}
	}
	open(root)
	delete(root, "$id")
	if c, ok := root["$comment"].(string); ok {
		root["$comment"] = c + " Non-strict variant written by kubeletcfg schema --kubeconform: unknown keys are allowed."
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// KubeconformWrite is what WriteKubeconform did.
type KubeconformWrite struct {
	// Files are every file of the layout, as paths under the folder given.
	Files []string
	// Written counts the files written; the others already held the same bytes.
	Written int
}

// WriteText prints what `schema --kubeconform dir` prints: one summary line,
// every file before it when verbose.
func (k *KubeconformWrite) WriteText(w io.Writer, dir string, verbose bool) error {
	if verbose {
		for _, f := range k.Files {
			fmt.Fprintln(w, f)
		}
	}
	n, files := len(k.Files), "schema files"
	if n == 1 {
		files = "schema file"
	}
	minors := Supported()
	_, err := fmt.Fprintf(w, "%s: %d %s for kubelet %s..%s (%d written, %d unchanged)\n", dir, n, files, minors[0], minors[len(minors)-1], k.Written, n-k.Written)
	return err
}

// WriteKubeconform writes the KubeconformFiles under dir, each through
// internal/atomicfile. Every target is checked before anything is written, so
// a refusal (a file that differs, without force) leaves the folder as it was.
func WriteKubeconform(dir string, force bool) (*KubeconformWrite, error) {
	files, err := KubeconformFiles()
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a folder", dir)
	}
	res := &KubeconformWrite{}
	var todo []SchemaFile
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Rel))
		res.Files = append(res.Files, path)
		old, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			todo = append(todo, f)
		case err != nil:
			return nil, fmt.Errorf("%s: %w", path, fserr.Unwrap(err))
		case bytes.Equal(old, f.Data):
			// Already there: nothing to do.
		case !force:
			return nil, optionerr.In("SchemaRequest").Errorf("%s already exists and differs; pass {Force} to overwrite it", path)
		default:
			todo = append(todo, f)
		}
	}
	for _, f := range todo {
		path := filepath.Join(dir, filepath.FromSlash(f.Rel))
		err := atomicfile.Write(path, f.Data, atomicfile.Options{Mode: 0o644, Overwrite: force, MakeDirs: true})
		switch {
		case errors.Is(err, atomicfile.ErrExists):
			// It appeared after the check above.
			return nil, optionerr.In("SchemaRequest").Errorf("%s already exists; pass {Force} to overwrite it", path)
		case err != nil:
			return nil, fmt.Errorf("%s: %w", path, fserr.Unwrap(err))
		}
		res.Written++
	}
	return res, nil
}
