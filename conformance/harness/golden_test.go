package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNormalizeString(t *testing.T) {
	got := normalizeString(`failed to read kubelet config file "/tmp/x/001-a/kubelet.yaml", path: /tmp/x/001-a/conf.d`, "/tmp/x/001-a")
	want := `failed to read kubelet config file "$CASE/kubelet.yaml", path: $CASE/conf.d`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := normalizeString("/tmp/x", ""); got != "/tmp/x" {
		t.Errorf("empty case dir changed the string: %q", got)
	}
}

func TestNormalizeJSON(t *testing.T) {
	dir := `/tmp/we"ird&dir`
	doc, _ := json.Marshal(map[string]string{"staticPodPath": dir + "/manifests", "other": "/var/lib"})
	got := normalizeJSON(doc, dir)
	var m map[string]string
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("invalid JSON after normalisation: %v: %s", err, got)
	}
	if m["staticPodPath"] != "$CASE/manifests" || m["other"] != "/var/lib" {
		t.Errorf("got %v", m)
	}
}

// The Windows kubelet's paths: Z:\ (Wine's root) and backslashes. Below $CASE they
// are written with / as on Linux, in plain strings and in JSON.
func TestNormalizeWindowsPaths(t *testing.T) {
	defer func(sep rune) { pathSeparator = sep }(pathSeparator)
	pathSeparator = '\\'
	dir := `Z:\work\cases\001-a`
	got := normalizeString(`failed to merge kubelet configs: open Z:\work\cases\001-a\conf.d\10.conf: Access is denied., path: Z:\work\cases\001-a; C:\other\x`, dir)
	want := `failed to merge kubelet configs: open $CASE/conf.d/10.conf: Access is denied., path: $CASE; C:\other\x`
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = normalizeString(`failed to walk through kubelet dropin directory "Z:\\work\\cases\\001-a\\conf.d": GetFileAttributesEx Z:\work\cases\001-a\conf.d: not found`, dir)
	want = `failed to walk through kubelet dropin directory "$CASE/conf.d": GetFileAttributesEx $CASE/conf.d: not found`
	if got != want {
		t.Errorf("quoted: got  %q\nwant %q", got, want)
	}
	doc, _ := json.Marshal(map[string]string{"staticPodPath": dir + `\etc\manifests`, "other": `C:\var\lib`})
	var m map[string]string
	if err := json.Unmarshal(normalizeJSON(doc, dir), &m); err != nil {
		t.Fatalf("invalid JSON after normalisation: %v", err)
	}
	if m["staticPodPath"] != "$CASE/etc/manifests" || m["other"] != `C:\var\lib` {
		t.Errorf("got %v", m)
	}
	// Off Windows a backslash after $CASE is a character of the name.
	pathSeparator = '/'
	if got := normalizeString(`/c/001-a\x`, "/c/001-a"); got != `$CASE\x` {
		t.Errorf("Linux: got %q", got)
	}
}

func TestEncodeResult(t *testing.T) {
	r := &Result{Case: "c", Kubelet: "v1.37.2", Cgroup: "v2", Stage: StageOK, Starts: true,
		Effective:        json.RawMessage(`{"kind":"KubeletConfiguration","staticPodPath":"a&b"}`),
		CrashLoopBackOff: &CrashLoopResult{Initial: "10s", Max: "5m0s"}}
	got, err := encodeResult(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "case": "c",
  "kubelet": "v1.37.2",
  "cgroup": "v2",
  "starts": true,
  "panic": false,
  "stage": "ok",
  "error": "",
  "lenient": false,
  "strictError": "",
  "effective": {
    "kind": "KubeletConfiguration",
    "staticPodPath": "a&b"
  },
  "crashLoopBackOff": {
    "initial": "10s",
    "max": "5m0s"
  }
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestLoadCaseDefaults(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, files map[string]string) string {
		dir := filepath.Join(root, name)
		for p, data := range files {
			p = filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	a := mk("a", map[string]string{"kubelet.yaml": "x", "conf.d/10.conf": "y"})
	c, err := loadCase(a)
	if err != nil {
		t.Fatal(err)
	}
	if c.Config != filepath.Join(a, "kubelet.yaml") || c.ConfigDir != filepath.Join(a, "conf.d") || c.Cgroup != "v2" || c.Name != "a" {
		t.Errorf("defaults: %+v", c)
	}
	if got := strings.Join(c.Args(), " "); got != "--config "+a+"/kubelet.yaml --config-dir "+a+"/conf.d" {
		t.Errorf("args: %s", got)
	}
	b := mk("b", map[string]string{"kubelet.yaml": "x", "case.yaml": "config: \"\"\nconfigDir: drop\ncgroup: v1\n"})
	c, err = loadCase(b)
	if err != nil {
		t.Fatal(err)
	}
	if c.Config != "" || c.ConfigDir != filepath.Join(b, "drop") || c.Cgroup != "v1" {
		t.Errorf("case.yaml: %+v", c)
	}
	bad := mk("bad", map[string]string{"case.yaml": "confg: x\n"})
	if _, err := loadCase(bad); err == nil {
		t.Errorf("unknown case.yaml key accepted")
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc\n", "a\nB\nc\n")
	if got != "- b\n+ B\n" {
		t.Errorf("got %q", got)
	}
}

func TestCanonicalError(t *testing.T) {
	in := "failed to merge global and in-flight KubeletConfiguration while setting defaults, error: [WindowsGracefulNodeShutdown is enabled, but depends on features that are disabled: [GracefulNodeShutdown], GracefulNodeShutdownBasedOnPodPriority is enabled, but depends on features that are disabled: [GracefulNodeShutdown]]"
	want := "failed to merge global and in-flight KubeletConfiguration while setting defaults, error: [GracefulNodeShutdownBasedOnPodPriority is enabled, but depends on features that are disabled: [GracefulNodeShutdown], WindowsGracefulNodeShutdown is enabled, but depends on features that are disabled: [GracefulNodeShutdown]]"
	if got := canonicalError(in); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	in = `failed to validate kubelet configuration, error: [invalid configuration: "b.c" is not known to be namespaced for defaultPodSysctls, invalid configuration: "a b" is not a valid sysctl name for defaultPodSysctls, invalid configuration: maxPods (--max-pods) -1 must not be a negative number]`
	want = `failed to validate kubelet configuration, error: [invalid configuration: "a b" is not a valid sysctl name for defaultPodSysctls, invalid configuration: "b.c" is not known to be namespaced for defaultPodSysctls, invalid configuration: maxPods (--max-pods) -1 must not be a negative number]`
	if got := canonicalError(in); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	single := "unrecognized feature gate: Foo"
	if got := canonicalError(single); got != single {
		t.Errorf("single item changed: %s", got)
	}
}

func TestSameDraw(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kubelet.yaml"), []byte("featureGates:\n  SupportPodPidsLimit: true\n  DownwardAPIHugePages: true\n  NodeSwap: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const prefix = "failed to merge global and in-flight KubeletConfiguration while setting defaults, error: "
	golden := func(msg string) []byte {
		out, err := encodeResult(&Result{Case: "c", Kubelet: "v1.37.2", Cgroup: "v2", Panic: true, Stage: StageLoad, Error: prefix + msg})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := golden("unrecognized feature gate: SupportPodPidsLimit")
	for _, tt := range []struct {
		msg  string
		same bool
	}{
		{"unrecognized feature gate: DownwardAPIHugePages", true},
		{"[cannot set feature gate NodeSwap to false, feature is locked to true, unrecognized feature gate: DownwardAPIHugePages]", true},
		{"unrecognized feature gate: SupportPodPidsLimit", false},                       // equal, not another draw
		{"unrecognized feature gate: NotInTheCase", false},                              // a gate the case does not write
		{"cannot set feature gate NodeSwap to false, feature is locked to true", false}, // no unrecognized gate: deterministic
	} {
		if got := sameDraw(want, golden(tt.msg), dir); got != tt.same {
			t.Errorf("%s: sameDraw = %v, want %v", tt.msg, got, tt.same)
		}
	}
	// Another field differs: not the same draw.
	other, _ := encodeResult(&Result{Case: "c", Kubelet: "v1.37.2", Cgroup: "v2", Panic: false, Stage: StageLoad, Error: prefix + "unrecognized feature gate: DownwardAPIHugePages"})
	if sameDraw(want, other, dir) {
		t.Errorf("a golden with another panic verdict counted as the same draw")
	}
}

// TestValidationWarning: a warning the validation package logs is recorded; the
// feature gate library's, another severity's, or a line without a header are not.
func TestValidationWarning(t *testing.T) {
	for _, tt := range []struct {
		line, want string
		ok         bool
	}{
		{"W1206 23:29:16.123456    1234 validation_windows.go:37] ignored configuration option: CgroupsPerQOS (--cgroups-per-qos) true is not supported on Windows\n",
			"ignored configuration option: CgroupsPerQOS (--cgroups-per-qos) true is not supported on Windows", true},
		{"W1206 23:29:16.123456    1234 feature_gate.go:352] Setting GA feature gate NodeSwap=true. It will be removed in a future release.\n", "", false},
		{"I1206 23:29:16.123456    1234 validation_windows.go:37] not a warning\n", "", false},
		{"W no header\n", "", false},
	} {
		got, ok := validationWarning([]byte(tt.line))
		if got != tt.want || ok != tt.ok {
			t.Errorf("%q: %q %v, want %q %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}
