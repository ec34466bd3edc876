package dropin

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree creates files (path -> content) under a fresh folder; a content starting
// with "->" makes a symlink to the rest (relative to the folder unless absolute),
// and a path ending in "/" a folder.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(p, "/"):
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(content, "->"):
			target := strings.TrimPrefix(content, "->")
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, filepath.FromSlash(target))
			}
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func rel(t testing.TB, dir string, entries []Entry) []string {
	t.Helper()
	var out []string
	for _, e := range entries {
		r, err := filepath.Rel(dir, e.Path)
		if err != nil {
			t.Fatal(err)
		}
		r = filepath.ToSlash(r)
		if !e.Conf {
			r += " (ignored)"
		}
		out = append(out, r)
	}
	return out
}

func TestFind(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "50-outside.conf"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name:  "lexical order, folders walked where they sort",
			files: map[string]string{"a/10.conf": "", "a.conf": "", "05-dir/99.conf": "", "10-b.conf": ""},
			// filepath.WalkDir sorts each folder's names: "a" sorts before "a.conf".
			want: []string{"05-dir/99.conf", "10-b.conf", "a/10.conf", "a.conf"},
		},
		{
			name:  "not numeric",
			files: map[string]string{"2.conf": "", "10.conf": "", "100.conf": ""},
			want:  []string{"10.conf", "100.conf", "2.conf"},
		},
		{
			name:  "upper case before lower case",
			files: map[string]string{"b.conf": "", "B.conf": "", "a.conf": ""},
			want:  []string{"B.conf", "a.conf", "b.conf"},
		},
		{
			name:  "deep folders",
			files: map[string]string{"x/y/z/1.conf": "", "x/y/0.conf": "", "x/2.conf": ""},
			want:  []string{"x/2.conf", "x/y/0.conf", "x/y/z/1.conf"},
		},
		{
			name: "non-.conf entries are listed, not merged",
			files: map[string]string{"10.conf": "", "README": "", "20.yaml": "", "30.conf.bak": "", "40.CONF": "", ".hidden.conf": "",
				".conf": "", "empty/": ""},
			want: []string{".conf", ".hidden.conf", "10.conf", "20.yaml (ignored)", "30.conf.bak (ignored)", "40.CONF (ignored)", "README (ignored)"},
		},
		{
			name:  "a folder named x.conf is walked, not merged",
			files: map[string]string{"x.conf/10-inner.conf": "", "x.conf/notes.txt": ""},
			want:  []string{"x.conf/10-inner.conf", "x.conf/notes.txt (ignored)"},
		},
		{
			name:  "symlinked folders are not followed",
			files: map[string]string{"10.conf": "", "linked": "->" + outside, "linked.conf": "->" + outside},
			// the links are listed as files (the kubelet tries to read linked.conf)
			want: []string{"10.conf", "linked (ignored)", "linked.conf"},
		},
		{
			name:  "symlinked files and loops are listed",
			files: map[string]string{"real.txt": "x", "20-link.conf": "->real.txt", "loop.conf": "->loop.conf", "dangling.conf": "->nowhere"},
			want:  []string{"20-link.conf", "dangling.conf", "loop.conf", "real.txt (ignored)"},
		},
		{
			name:  "empty folder",
			files: map[string]string{},
			want:  nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := tree(t, tc.files)
			entries, err := Find(dir)
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if got := rel(t, dir, entries); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Find:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

func TestFindNotAFolder(t *testing.T) {
	dir := tree(t, map[string]string{"only.conf": "x", "only.txt": "x"})
	// a file given as the folder is walked as the kubelet walks it: listed alone
	for name, conf := range map[string]bool{"only.conf": true, "only.txt": false} {
		p := filepath.Join(dir, name)
		entries, err := Find(p)
		if err != nil || len(entries) != 1 || entries[0].Path != p || entries[0].Conf != conf {
			t.Errorf("Find(%s) = %+v, %v", name, entries, err)
		}
	}
	// a missing folder is an error naming it
	missing := filepath.Join(dir, "missing")
	entries, err := Find(missing)
	if err == nil || len(entries) != 0 || !strings.Contains(err.Error(), missing) {
		t.Errorf("Find(missing) = %+v, %v", entries, err)
	}
}

func TestFindUnreadableSubfolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	dir := tree(t, map[string]string{"10.conf": "", "20-locked/x.conf": "", "30.conf": ""})
	locked := filepath.Join(dir, "20-locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	entries, err := Find(dir)
	if err == nil {
		t.Fatal("no error for an unreadable folder")
	}
	// the entries before the error are kept, as the kubelet merged them already
	if got := rel(t, dir, entries); !reflect.DeepEqual(got, []string{"10.conf"}) {
		t.Errorf("entries %q, want [10.conf]", got)
	}
}

// Insert puts a file where the walk finds it once the file is on disk.
func TestInsertMatchesWalk(t *testing.T) {
	layout := []string{"10-a.conf", "50-b.conf", "50-b/x.conf", "50-b.conf.d/y.conf", "9.conf", "notes.txt", "a/b/c.conf", "z/last.conf"}
	for _, name := range []string{"00-first.conf", "10-a.conf", "50-b", "50-b.conf", "50-b.conf.d", "50-b.confx", "50-a.conf", "9.conf", "99.conf", "a.conf", "a", "zz.conf", "Z.conf", "_x.conf", "-x.conf"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range layout {
				p := filepath.Join(dir, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before, err := Find(dir)
			if err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(dir, name)
			if fi, err := os.Stat(target); err == nil && fi.IsDir() {
				t.Skip("a folder of that name: the file cannot be written")
			}
			got := Insert(before, dir, target)
			if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := Find(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Insert:\n%v\nwalk after writing:\n%v", got, want)
			}
		})
	}
}
