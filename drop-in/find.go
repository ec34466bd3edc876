package dropin

import (
	"io/fs"
	"path/filepath"
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
