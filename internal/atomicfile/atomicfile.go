package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned when the target exists and overwriting was not asked
// for. Its text names no option: the caller knows the one that asks for it
// (author's writeFile: NewRequest.Force, the command's --force).
var ErrExists = errors.New("file exists")

// Options says how Write may treat the target.
type Options struct {
	// Mode of a new file; an overwritten file keeps its own mode unless KeepMode is false.
	Mode fs.FileMode
	// Overwrite an existing regular file. A symlink target is never followed:
	// the link itself is replaced, so a write cannot land outside the folder.
	Overwrite bool
	// KeepMode keeps an overwritten file's permission bits (kubeletcfg fix edits in place).
	KeepMode bool
	// MakeDirs creates the target's folder and its parents (mode 0755) when
	// they are missing; without it a missing folder is an error.
	MakeDirs bool
}

// Write writes data to path through a temporary file in the same folder: write,
// fsync, chmod, move into place, fsync the folder. Without Overwrite the move is
// a hard link, which fails if path appeared after the first check, so a file
// created meanwhile is never clobbered (a file system without hard links falls
// back to the check). On any error the target is untouched and the temporary
// file is removed.
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
		return exists(path)
	case statErr == nil && fi.Mode().IsRegular() && opt.KeepMode:
		mode = fi.Mode().Perm()
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return statErr
	}
	dir := filepath.Dir(path)
	if opt.MakeDirs {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	// The temporary name goes in every case: renamed, it is already gone;
	// linked, the target holds the content.
	defer func() {
		if err != nil {
			tmp.Close()
		}
		os.Remove(tmp.Name())
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
	if err = place(tmp.Name(), path, opt.Overwrite); err != nil {
		return err
	}
	// The new entry is durable only once the folder is on disk.
	if d, derr := os.Open(dir); derr == nil {
		if serr := d.Sync(); serr != nil && !errors.Is(serr, errors.ErrUnsupported) {
			d.Close()
			return fmt.Errorf("sync %s: %w", dir, serr)
		}
		d.Close()
	}
	return nil
}

// place moves the written temporary file to path: a rename when overwriting is
// allowed, else a hard link, which refuses an existing path atomically.
func place(tmp, path string, overwrite bool) error {
	if !overwrite {
		err := os.Link(tmp, path)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrExist):
			return exists(path)
		}
		// No hard links on this file system: the check Write made has to do.
		if _, serr := os.Lstat(path); serr == nil {
			return exists(path)
		}
	}
	return os.Rename(tmp, path)
}

func exists(path string) error {
	return &fs.PathError{Op: "write", Path: path, Err: ErrExists}
}
