package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

// kubeconformTemplate is kubeconform's default -schema-location layout (pkg/registry:
// a location that does not end in "json" gets it appended). For apiVersion
// kubelet.config.k8s.io/v1beta1, kind KubeletConfiguration it expands to
// <version>-standalone[-strict]/kubeletconfiguration-kubelet-v1beta1.json, where
// <version> is "master" or "v" + -kubernetes-version.
const kubeconformTemplate = "{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"

// kubeconformFile is {{ .ResourceKind }}{{ .KindSuffix }}.json for KubeletConfiguration:
// the kind lower-cased, then "-" + the group's first label + "-" + the version.
const kubeconformFile = "kubeletconfiguration-kubelet-v1beta1.json"

func newSchemaCommand() *cobra.Command {
	var kubeletVersion, kubeconformDir string
	var force, verbose bool
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of KubeletConfiguration for a kubelet minor, or write kubeconform's schema folder",
		Long: `Print the JSON Schema (draft 2020-12) of KubeletConfiguration
(kubelet.config.k8s.io/v1beta1) as the given kubelet minor defines it, generated
from that minor's k8s.io/kubelet types: field docs, types and Go integer
widths, Go durations, quantities, enums and the feature gate of each gated
field. Every object is closed (additionalProperties: false), like the kubelet's
strict decoding of the main file. Use it in editors (yaml-language-server).

With --kubeconform DIR, write the schemas of every supported minor in the layout
of kubeconform's default -schema-location template
  DIR/` + kubeconformTemplate + `
as master (the newest minor) and v1.MINOR.0 up to the patch each minor was
generated from, each strict (-strict folders: unknown keys are errors) and
non-strict. Files are written atomically; an existing file that differs is
never overwritten without --force. It prints one summary line; -v lists the files.

A schema checks shape only; kubeletcfg lint also runs the kubelet's defaulting,
drop-in merge, feature gates and validation.`,
		Example: `  # the newest minor's schema, for an editor
  kubeletcfg schema > kubelet-config.schema.json
  kubeletcfg schema --kubelet-version 1.37

  # a schema folder for kubeconform, then validate with it
  kubeletcfg schema --kubeconform schemas
  kubeconform -strict -schema-location default -schema-location 'schemas/` + kubeconformTemplate + `' config.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if kubeconformDir != "" {
				if cmd.Flags().Changed("kubelet-version") {
					return fmt.Errorf("--kubeconform writes every supported minor; leave out --kubelet-version")
				}
				return writeKubeconform(cmd, kubeconformDir, force, verbose)
			}
			if force {
				return fmt.Errorf("--force only applies with --kubeconform")
			}
			m, err := lookupMinor(kubeletVersion, "kubeletcfg schema --kubeconform writes every minor's schema")
			if err != nil {
				return err
			}
			raw, err := m.Schema()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(raw)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&kubeletVersion, "kubelet-version", skew.Newest().Version, "kubelet minor whose schema to print ("+strings.Join(skew.Supported(), ", ")+"); v1.37.2 is accepted")
	fl.StringVar(&kubeconformDir, "kubeconform", "", "write the schemas of every supported minor under this folder, in kubeconform's layout")
	fl.BoolVar(&force, "force", false, "with --kubeconform: overwrite existing files that differ")
	fl.BoolVarP(&verbose, "verbose", "v", false, "with --kubeconform: list every file")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return skew.Supported(), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.MarkFlagDirname("kubeconform")
	return cmd
}

// schemaFile is one file of the kubeconform folder.
type schemaFile struct {
	rel  string // slash-separated, under the folder
	data []byte
}

// kubeconformFiles lays out every supported minor's schema as kubeconform looks
// them up: "master" is the newest minor, "v1.M.P" each patch from 0 to the one the
// minor was generated from (the v1beta1 types do not change within a minor).
func kubeconformFiles() ([]schemaFile, error) {
	var files []schemaFile
	add := func(version string, strict, loose []byte) {
		files = append(files,
			schemaFile{version + "-standalone-strict/" + kubeconformFile, strict},
			schemaFile{version + "-standalone/" + kubeconformFile, loose})
	}
	for _, v := range skew.Supported() {
		m, err := skew.Lookup(v)
		if err != nil {
			return nil, err
		}
		strict, err := m.Schema()
		if err != nil {
			return nil, err
		}
		loose, err := nonStrictSchema(strict)
		if err != nil {
			return nil, fmt.Errorf("schema of %s: %w", v, err)
		}
		var patch int
		if _, err := fmt.Sscanf(m.Patch, "v"+m.Version+".%d", &patch); err != nil {
			return nil, fmt.Errorf("kubelet %s: release %q: %w", v, m.Patch, err)
		}
		for p := 0; p <= patch; p++ {
			add(fmt.Sprintf("v%s.%d", m.Version, p), strict, loose)
		}
		if m == skew.Newest() {
			add("master", strict, loose)
		}
	}
	return files, nil
}

// nonStrictSchema opens every closed object of a schema (additionalProperties:
// false), as kubeconform's non-strict schemas allow unknown keys. Maps keep their
// value schemas. The $id is dropped: the document is no longer the one it names.
func nonStrictSchema(strict []byte) ([]byte, error) {
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

// writeKubeconform writes the folder. Every target is checked before anything is
// written, so a refusal leaves the folder as it was.
func writeKubeconform(cmd *cobra.Command, dir string, force, verbose bool) error {
	files, err := kubeconformFiles()
	if err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s: not a folder", dir)
	}
	var todo []schemaFile
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.rel))
		old, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			todo = append(todo, f)
		case err != nil:
			return fmt.Errorf("%s: %w", path, unwrapPathError(err))
		case bytes.Equal(old, f.data):
			// Already there: nothing to do.
		case !force:
			return fmt.Errorf("%s already exists and differs; pass --force to overwrite it", path)
		default:
			todo = append(todo, f)
		}
	}
	for _, f := range todo {
		if err := writeFileAtomic(filepath.Join(dir, filepath.FromSlash(f.rel)), f.data, force); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	if verbose {
		for _, f := range files {
			fmt.Fprintln(out, filepath.Join(dir, filepath.FromSlash(f.rel)))
		}
	}
	minors := skew.Supported()
	fmt.Fprintf(out, "%s: %d %s for kubelet %s..%s (%d written, %d unchanged)\n", dir, len(files), plural(len(files), "schema file", "schema files"),
		minors[0], minors[len(minors)-1], len(todo), len(files)-len(todo))
	return nil
}

// writeFileAtomic writes data to a temporary file in path's folder and moves it
// into place: readers see the old file or the new one, never a part. Without
// overwrite the move is a hard link, which fails if path appeared meanwhile.
func writeFileAtomic(path string, data []byte, overwrite bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", dir, unwrapPathError(err))
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: %w", dir, unwrapPathError(err))
	}
	name := tmp.Name()
	defer os.Remove(name) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", name, unwrapPathError(err))
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", name, unwrapPathError(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPathError(err))
	}
	if err := os.Chmod(name, 0o644); err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPathError(err))
	}
	if !overwrite {
		err := os.Link(name, path)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrExist):
			return fmt.Errorf("%s already exists; pass --force to overwrite it", path)
		}
		// No hard links on this file system: the check above has to do.
		if _, serr := os.Lstat(path); serr == nil {
			return fmt.Errorf("%s already exists; pass --force to overwrite it", path)
		}
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	return nil
}

// unwrapPathError drops the *fs.PathError wrapper, whose text repeats the path
// the message already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
