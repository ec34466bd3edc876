package policy

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Find walks up from the working folder to the repository root (a folder with
// .git), searching the root too, and never above it.
func TestFind(t *testing.T) {
	const pol = "apiVersion: kubeletcfg/v1\n"
	tests := []struct {
		name  string
		files []string // created under the temporary folder; a trailing / is a folder
		start string
		want  string
	}{
		{"in the working folder", []string{"repo/.git/", "repo/a/b/.kubeletcfg.yaml"}, "repo/a/b", ".kubeletcfg.yaml"},
		{"two folders up", []string{"repo/.git/", "repo/a/.kubeletcfg.yaml", "repo/a/b/c/"}, "repo/a/b/c", "../../.kubeletcfg.yaml"},
		{"at the repository root", []string{"repo/.git/", "repo/.kubeletcfg.yaml", "repo/a/"}, "repo/a", "../.kubeletcfg.yaml"},
		{"a .git file (worktree) is a root too", []string{"repo/.git", "repo/.kubeletcfg.yaml", "repo/a/"}, "repo/a", "../.kubeletcfg.yaml"},
		{"the nearest wins", []string{"repo/.git/", "repo/.kubeletcfg.yaml", "repo/a/.kubeletcfg.yaml"}, "repo/a", ".kubeletcfg.yaml"},
		{"not above the repository root", []string{".kubeletcfg.yaml", "repo/.git/", "repo/a/"}, "repo/a", ""},
		{"none", []string{"repo/.git/", "repo/a/"}, "repo/a", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				p := filepath.Join(dir, f)
				if strings.HasSuffix(f, "/") {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				write(t, p, pol)
			}
			t.Chdir(filepath.Join(dir, tt.start))
			got, err := Find(".")
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Find = %q, want %q", got, tt.want)
			}
			if got != "" {
				if _, err := Load(got); err != nil {
					t.Errorf("Load(%s): %v", got, err)
				}
			}
		})
	}
}

func TestFindFolderNamedLikeThePolicy(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("Find: %v, want an error saying it is a folder", err)
	}
}

func TestLoad(t *testing.T) {
	good := `# the project's policy
apiVersion: kubeletcfg/v1
kubeletVersion: 1.35
versions: 1.33..1.37
failOn: warning
rules:
  KC3005: off
  kc1105: warning     # IDs are case-insensitive
  unknown-field: error  # KC1101 by its name; raising anything is allowed
  KC4050: error       # an error may stay an error
exclude:
  - legacy/**
  - ./conf.d/*.bak
`
	p := load(t, good)
	want := &Policy{
		Path: p.Path, KubeletVersion: "1.35", Versions: "1.33..1.37", FailOn: "warning",
		Rules: map[string]Grade{
			"KC3005": {Off: true},
			"KC1105": {Severity: finding.Warning},
			"KC1101": {Severity: finding.Error},
			"KC4050": {Severity: finding.Error},
		},
		Exclude: []string{"legacy/**", "conf.d/*.bak"},
		dir:     p.dir,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Load:\n got %+v\nwant %+v", p, want)
	}
	if p := load(t, "apiVersion: kubeletcfg/v1\n"); p.KubeletVersion != "" || p.FailOn != "" || len(p.Rules) != 0 || p.Exclude != nil {
		t.Errorf("a minimal policy sets nothing: %+v", p)
	}
}

// Every mistake is one line naming the file and line, with the nearest known
// name when there is one.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"unknown key", "apiVersion: kubeletcfg/v1\nfailon: warning\n", `:2: unknown key "failon"; did you mean "failOn"?`},
		{"unknown key far from any", "apiVersion: kubeletcfg/v1\nseverityOverrides: {}\n", `:2: unknown key "severityOverrides" (known: apiVersion, kubeletVersion, versions, failOn, rules, exclude)`},
		{"repeated key", "apiVersion: kubeletcfg/v1\nfailOn: error\nfailOn: info\n", `:3: "failOn" is repeated (first at line 2)`},
		{"no apiVersion", "failOn: error\n", ":1: apiVersion missing: write apiVersion: kubeletcfg/v1"},
		{"other apiVersion", "apiVersion: kubeletcfg/v2\n", `:1: apiVersion "kubeletcfg/v2" is not supported (want kubeletcfg/v1)`},
		{"empty", "", ": empty policy: write at least apiVersion: kubeletcfg/v1"},
		{"comments only", "# nothing\n", ": empty policy"},
		{"not a mapping", "- apiVersion\n", ":1: a policy is a mapping"},
		{"two documents", "apiVersion: kubeletcfg/v1\n---\nfailOn: none\n", ":2: a second YAML document"},
		{"syntax", "apiVersion: kubeletcfg/v1\nrules: [\n", ":3: did not find expected node content"},
		{"unknown minor", "apiVersion: kubeletcfg/v1\nkubeletVersion: 1.12\n", `:2: kubeletVersion: unsupported kubelet version "1.12"`},
		{"versions reversed", "apiVersion: kubeletcfg/v1\nversions: 1.37..1.34\n", ":2: versions: 1.37 is newer than 1.34"},
		{"versions unknown", "apiVersion: kubeletcfg/v1\nversions: 1.33,1.40\n", `:2: versions: unsupported kubelet version "1.40"`},
		{"failOn", "apiVersion: kubeletcfg/v1\nfailOn: fatal\n", `:2: failOn "fatal": want error, warning, info or none`},
		{"failOn not a string", "apiVersion: kubeletcfg/v1\nfailOn: [error]\n", ":2: failOn must be a non-empty string"},
		{"unknown rule", "apiVersion: kubeletcfg/v1\nrules:\n  KC1110: off\n", `:3: no rule "KC1110"; did you mean KC1101 (unknown-field)?`},
		{"rule repeated by its name", "apiVersion: kubeletcfg/v1\nrules:\n  KC3005: off\n  gate-ga: info\n", ":4: rule KC3005 is repeated"},
		{"unknown grade", "apiVersion: kubeletcfg/v1\nrules:\n  KC3005: ignore\n", `:3: KC3005: want off, info, warning or error, not "ignore"`},
		{"rules not a mapping", "apiVersion: kubeletcfg/v1\nrules: [KC3005]\n", ":2: rules must be a mapping"},
		{"rule repeated", "apiVersion: kubeletcfg/v1\nrules:\n  KC3005: off\n  kc3005: info\n", ":4: rule KC3005 is repeated"},
		{"exclude not a list", "apiVersion: kubeletcfg/v1\nexclude: legacy\n", ":2: exclude must be a list of globs"},
		{"exclude absolute", "apiVersion: kubeletcfg/v1\nexclude:\n  - /etc/kubernetes\n", `:3: exclude "/etc/kubernetes": globs are relative`},
		{"exclude malformed", "apiVersion: kubeletcfg/v1\nexclude:\n  - 'conf.d/[a'\n", `:3: exclude "conf.d/[a": malformed glob`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), FileName)
			write(t, file, tt.data)
			_, err := Load(file)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, file+tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q\nwant one line starting %q", msg, file+tt.want)
			}
		})
	}
}

func TestLoadMissing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nope.yaml")
	if _, err := Load(file); err == nil || err.Error() != file+": no such file or directory" {
		t.Errorf("Load: %v", err)
	}
}

// A policy may raise any rule and lower warnings and infos, but an error means
// the kubelet will not start: turning it off or lowering it is refused.
func TestRegrade(t *testing.T) {
	tests := []struct {
		rule, grade string
		ok          bool
	}{
		{"KC1101", "off", true},      // warning off
		{"KC1101", "info", true},     // warning lowered
		{"KC1105", "error", true},    // info raised
		{"KC7001", "off", true},      // our own warnings too
		{"KC4050", "error", true},    // an error stays an error
		{"KC4050", "warning", false}, // crash-loop-max-needs-gate: the kubelet refuses
		{"KC3001", "off", false},     // gate-unknown: the kubelet panics
		{"KC1001", "info", false},    // config-empty
		{"KC5001", "off", false},     // a host rule: refuses on cgroup v1
	}
	for _, tt := range tests {
		t.Run(tt.rule+"="+tt.grade, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), FileName)
			write(t, file, "apiVersion: kubeletcfg/v1\nrules:\n  "+tt.rule+": "+tt.grade+"\n")
			_, err := Load(file)
			if tt.ok && err != nil {
				t.Errorf("refused: %v", err)
			}
			if !tt.ok {
				r, _ := rule.Lookup(tt.rule)
				want := file + ":3: " + tt.rule + " (" + r.Name + ") means the kubelet will not start: a policy cannot turn it off or lower it"
				if err == nil || err.Error() != want {
					t.Errorf("error %v\nwant %s", err, want)
				}
			}
		})
	}
}

func TestExcluded(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	p := &Policy{dir: filepath.Join(root, "nodes")}
	tests := []struct {
		pattern, file string
		want          bool
	}{
		{"conf.d/90-vendor.conf", "nodes/conf.d/90-vendor.conf", true},
		{"conf.d/90-vendor.conf", "nodes/conf.d/50-local.conf", false},
		{"conf.d/*.conf", "nodes/conf.d/50-local.conf", true},
		{"*.conf", "nodes/conf.d/50-local.conf", false}, // * stays within a folder name
		{"**/*.conf", "nodes/conf.d/50-local.conf", true},
		{"**/*.conf", "nodes/50-local.conf", true}, // ** matches no folder too
		{"legacy/**", "nodes/legacy/a/b/config.yaml", true},
		{"legacy", "nodes/legacy/a/config.yaml", true}, // a folder excludes what is below it
		{"legacy", "nodes/legacy-2/config.yaml", false},
		{"conf.d", filepath.Join(root, "nodes/conf.d/x.conf"), true}, // absolute paths too
		{"**", "other/config.yaml", false},                           // outside the policy's folder
		{"config.yaml", "", false},                                   // (defaults)
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.file, func(t *testing.T) {
			p.Exclude = []string{tt.pattern}
			if got := p.Excluded(tt.file); got != tt.want {
				t.Errorf("Excluded = %v, want %v", got, tt.want)
			}
		})
	}
	if (*Policy)(nil).Excluded("nodes/config.yaml") {
		t.Error("no policy excludes nothing")
	}
}

func load(t *testing.T, data string) *Policy {
	t.Helper()
	file := filepath.Join(t.TempDir(), FileName)
	write(t, file, data)
	p, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
