package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "50-a.conf")
	if err := Write(p, []byte("one"), Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if err := Write(p, []byte("two"), Options{}); !errors.Is(err, ErrExists) {
		t.Errorf("second write without Overwrite: %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Errorf("refused write changed the file: %q", b)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("three"), Options{Overwrite: true, KeepMode: true}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("KeepMode: mode %v, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Errorf("got %q", b)
	}
	if err := Write(filepath.Join(dir, "x.conf"), []byte("m"), Options{Mode: 0o600}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "x.conf")); fi.Mode().Perm() != 0o600 {
		t.Errorf("Mode: got %v", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// A symlink pointing out of the folder is replaced, never written through.
func TestWriteSymlinkNotFollowed(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "victim")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "50-a.conf")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), Options{}); !errors.Is(err, ErrExists) {
		t.Errorf("symlink without Overwrite: %v", err)
	}
	if err := Write(link, []byte("new"), Options{Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("write went through the symlink: %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink != 0 {
		t.Errorf("link not replaced by a regular file")
	}
}

func TestWriteMissingFolder(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "a.conf"), []byte("x"), Options{}); err == nil {
		t.Error("want an error for a missing folder")
	}
}

// MakeDirs creates the folder; without Overwrite a second write is refused (by
// the hard link when the file appears after the first check), with it the file
// is replaced; no temporary file is left.
func TestWriteMakeDirsNoClobber(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "f.json")
	if err := Write(path, []byte("one"), Options{MakeDirs: true}); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("two"), Options{MakeDirs: true}); !errors.Is(err, ErrExists) {
		t.Errorf("second write: %v, want ErrExists", err)
	}
	if err := place(path, path, false); !errors.Is(err, ErrExists) {
		t.Errorf("link over an existing file: %v, want ErrExists", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "one" {
		t.Errorf("clobbered: %q", got)
	}
	if err := Write(path, []byte("three"), Options{Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "three" {
		t.Errorf("overwrite: %q", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}
