package dropin

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// Entry is one file found under the drop-in folder.
type Entry struct {
	Path string
	// Conf is true for files the kubelet merges (extension exactly ".conf").
	Conf bool
}

// Find walks dir as mergeKubeletConfigurations does: filepath.WalkDir, lexical order
// of the whole path, symlinked folders not followed, folders skipped. A walk error
// (unreadable folder) is returned with the entries found before it, as the kubelet
// stops at that point.
func Find(dir string) ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		out = append(out, Entry{Path: path, Conf: filepath.Ext(d.Name()) == ".conf"})
		return nil
	})
	return out, err
}

// Insert adds path, a file directly inside dir, to entries found by Find in dir,
// where filepath.WalkDir would visit it once written: WalkDir sorts the names of each folder,
// so a top-level name sorts against the top-level name of every entry (a
// subfolder's files stay together at the subfolder's name). An entry with the
// same path is replaced (the file is about to be overwritten). A path not directly inside dir is ignored.
func Insert(entries []Entry, dir, path string) []Entry {
	dir, path = filepath.Clean(dir), filepath.Clean(path)
	if filepath.Dir(path) != dir {
		return entries
	}
	name := filepath.Base(path)
	e := Entry{Path: path, Conf: filepath.Ext(name) == ".conf"}
	for i, old := range entries {
		rel, err := filepath.Rel(dir, old.Path)
		if err != nil {
			continue
		}
		top, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		switch {
		case old.Path == path:
			return append(append(entries[:i:i], e), entries[i+1:]...)
		case top >= name:
			return append(append(entries[:i:i], e), entries[i:]...)
		}
	}
	return append(entries, e)
}
