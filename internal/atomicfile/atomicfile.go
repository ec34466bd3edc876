package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned when the target exists and overwriting was not asked for.
var ErrExists = errors.New("file exists (use --force to overwrite)")

// Options says how Write may treat the target.
type Options struct {
	// Mode of a new file; an overwritten file keeps its own mode unless KeepMode is false.
	Mode fs.FileMode
	// Overwrite an existing regular file. A symlink target is never followed:
	// the link itself is replaced, so a write cannot land outside the folder.
	Overwrite bool
	// KeepMode keeps an overwritten file's permission bits (kubeletcfg fix edits in place).
	KeepMode bool
}

// Write writes data to path through a temporary file in the same folder: write,
// fsync, chmod, rename, fsync the folder. On any error the target is untouched
// and the temporary file is removed.
func Write(path string, data []byte, opt Options) (err error) {
	mode := opt.Mode
	if mode == 0 {
		mode = 0o644
	}
	fi, statErr := os.Lstat(path)
	switch {
	case statErr == nil && fi.IsDir():
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("is a directory")}
	case statErr == nil && !opt.Overwrite:
		return &fs.PathError{Op: "write", Path: path, Err: ErrExists}
	case statErr == nil && fi.Mode().IsRegular() && opt.KeepMode:
		mode = fi.Mode().Perm()
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return statErr
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename is durable only once the folder's entry is on disk.
	if d, derr := os.Open(dir); derr == nil {
		if serr := d.Sync(); serr != nil && !errors.Is(serr, errors.ErrUnsupported) {
			d.Close()
			return fmt.Errorf("sync %s: %w", dir, serr)
		}
		d.Close()
	}
	return nil
}
