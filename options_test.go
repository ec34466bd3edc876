package kubeletcfg

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/discover"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/k0s"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
)

const testConfig = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

// TestPrepare: the files come from the options or from the kubelet's own
// command line (under the host root), never from both; the command line's
// arguments keep their order and positions; bad options are the command's
// usage errors.
func TestPrepare(t *testing.T) {
	for _, tt := range []struct {
		name              string
		opt               Options
		config, configDir string
		flags             []string
		err               string
	}{
		{name: "files", opt: Options{Config: "a.yaml", ConfigDir: "conf.d", Format: "config"}, config: "a.yaml", configDir: "conf.d"},
		{name: "command line names the files", opt: Options{KubeletFlags: "/usr/bin/kubelet --config=/etc/k/config.yaml --config-dir=/etc/k/conf.d --max-pods=5", Format: "config", Host: discover.Options{HostRoot: "/host"}},
			config: "/host/etc/k/config.yaml", configDir: "/host/etc/k/conf.d", flags: []string{"--config=/etc/k/config.yaml", "--config-dir=/etc/k/conf.d", "--max-pods=5"}},
		{name: "line then args", opt: Options{Config: "a.yaml", Format: "config", KubeletFlags: "--max-pods=5", KubeletArgs: []string{"--max-pods=6"}}, config: "a.yaml", flags: []string{"--max-pods=5", "--max-pods=6"}},
		{name: "both name the files", opt: Options{Config: "a.yaml", KubeletFlags: "--config=b.yaml"},
			err: "--config a.yaml and the kubelet's own --config=b.yaml (in --kubelet-flags) both name the kubelet's files: give one of them"},
		{name: "nothing", opt: Options{}, err: "nothing to check: give --config and/or --config-dir, the kubelet's command line (--kubelet-flags, --kubelet-flags-file) or --discover"},
		{name: "pid without discover", opt: Options{Config: "a.yaml", Host: discover.Options{PID: 1}}, err: "--pid and --unit choose what --discover reads; add --discover"},
		{name: "cgroup", opt: Options{Config: "a.yaml", CgroupVersion: "v3"}, err: `--cgroup-version must be v1 or v2, not "v3"`},
		{name: "format without config", opt: Options{ConfigDir: "conf.d", Format: "configz"}, err: "--input-format configz needs --config"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.opt.Prepare()
			if tt.err != "" {
				if err == nil || CommandWords(err) != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Input.Config != tt.config || p.Input.ConfigDir != tt.configDir || strings.Join(p.Input.Flags, " ") != strings.Join(tt.flags, " ") {
				t.Errorf("config %q, config-dir %q, flags %q; want %q, %q, %q", p.Input.Config, p.Input.ConfigDir, p.Input.Flags, tt.config, tt.configDir, tt.flags)
			}
			for i, pos := range p.Input.FlagPositions {
				if pos.File != pipeline.CommandLine {
					t.Errorf("flag %d at %v, want the command line", i, pos)
				}
			}
		})
	}
	var nothing *NothingToCheckError
	if _, err := (Options{}).Prepare(); !errors.As(err, &nothing) {
		t.Errorf("error %T, want a *NothingToCheckError", err)
	}
}

// TestInMemory: a main file and a drop-in held in memory are read as if they
// were on disk, under their names; a drop-in joins the folder's walk where its
// name sorts.
func TestInMemory(t *testing.T) {
	for _, tt := range []struct {
		name   string
		dropin string
		starts bool
		rule   string
	}{
		{"a drop-in that keeps it starting", testConfig + "maxPods: 60\n", true, ""},
		{"a drop-in the kubelet refuses", testConfig + "maxPods: -1\n", false, "KC4025"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l, err := Lint(Options{
				Config: "node.yaml", ConfigData: []byte(testConfig + "maxPods: 50\n"),
				ConfigDir: dir, DropIns: map[string][]byte{"10-pods.conf": []byte(tt.dropin)},
			})
			if err != nil {
				t.Fatal(err)
			}
			if l.Report.Starts != tt.starts {
				t.Errorf("starts %v, want %v: %v", l.Report.Starts, tt.starts, l.Report.Findings)
			}
			var at []finding.Finding
			for _, f := range l.Report.Findings {
				if f.Rule == tt.rule {
					at = append(at, f)
				}
			}
			if tt.rule != "" && (len(at) != 1 || at[0].File != filepath.Join(dir, "10-pods.conf")) {
				t.Errorf("%s findings %v, want one in the in-memory drop-in", tt.rule, at)
			}
			if got := l.Result.Origins["maxPods"].File; tt.starts && got != filepath.Join(dir, "10-pods.conf") {
				t.Errorf("maxPods from %q, want the in-memory drop-in", got)
			}
		})
	}
}

// TestPrepareRelease: a --kubelet-version with its patch is the binary's
// release the --version flag is checked against; a minor alone is none.
func TestPrepareRelease(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"1.37.3", "v1.37.3"},
		{"v1.36.4", "v1.36.4"},
		{"1.37", ""},
		{"", ""},
	} {
		p, err := Options{Config: "testdata/bench/kubeadm-3dropins/kubelet.yaml", KubeletVersion: tc.version}.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		if p.Input.Release != tc.want {
			t.Errorf("--kubelet-version %q: release %q, want %q", tc.version, p.Input.Release, tc.want)
		}
	}
	l, err := Lint(Options{Config: "testdata/bench/kubeadm-3dropins/kubelet.yaml", KubeletVersion: "1.37.9", KubeletFlags: "--version=v1.37.9"})
	if err != nil {
		t.Fatal(err)
	}
	if !l.Report.Starts {
		t.Errorf("a v1.37.9 kubelet refuses --version=v1.37.9: %v", l.Report.Findings)
	}
}

// TestPrepareInputVersion: a minikube profile names the kubelet it installs:
// it is --kubelet-version's default (and the binary --version is checked
// against), below an explicit --kubelet-version and a policy's minor; a
// version kubeletcfg does not know is an error.
func TestPrepareInputVersion(t *testing.T) {
	profile := "testdata/minikube/config.json"
	data, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	future := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(future, bytes.Replace(data, []byte(`"KubernetesVersion": "v1.34.1"`), []byte(`"KubernetesVersion": "v1.99.0"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                   string
		opt                    Options
		wantMinor, wantRelease string
	}{
		{"the profile's", Options{Config: profile}, "v1.34.1", "v1.34.1"},
		{"given", Options{Config: profile, KubeletVersion: "1.36"}, "1.36", ""},
		{"a plain file names none", Options{Config: "testdata/bench/kubeadm-3dropins/kubelet.yaml"}, "", ""},
	} {
		p, err := tc.opt.Prepare()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p.KubeletVersion != tc.wantMinor || p.Input.Release != tc.wantRelease {
			t.Errorf("%s: kubelet %q release %q, want %q %q", tc.name, p.KubeletVersion, p.Input.Release, tc.wantMinor, tc.wantRelease)
		}
	}
	if _, err := (Options{Config: future}).Prepare(); err == nil || !strings.Contains(err.Error(), "v1.99.0") || !strings.Contains(CommandWords(err), "--kubelet-version") {
		t.Errorf("a profile of v1.99.0: %v", err)
	}
	if _, err := (Options{Config: future, KubeletVersion: "1.37"}).Prepare(); err != nil {
		t.Errorf("a profile of v1.99.0 with --kubelet-version 1.37: %v", err)
	}
	// skew and preflight name their minors with other flags: a Talos image of
	// a kubelet kubeletcfg does not know is no error for them.
	talos := "testdata/bootstrappers/talos/stability/base-controlplane.yaml" // image v1.28.0
	for name, opt := range map[string]Options{
		"skew --versions":      {Config: talos, Versions: "1.36..1.37"},
		"preflight --from":     {Config: talos, From: "1.36", To: "1.37"},
		"--kubelet-version":    {Config: talos, KubeletVersion: "1.37"},
		"skew --control-plane": {Config: talos, ControlPlane: "1.37"},
	} {
		p, err := opt.Prepare()
		if err != nil {
			t.Errorf("%s on a Talos image of 1.28: %v", name, err)
			continue
		}
		if name == "--kubelet-version" && !strings.Contains(p.Source.Note, "kubelet 1.37 is evaluated, as --kubelet-version asks, not the file's 1.28.0") {
			t.Errorf("the note does not say which kubelet is evaluated: %s", p.Source.Note)
		}
	}
	if _, err := (Options{Config: talos}).Prepare(); err == nil || !strings.Contains(CommandWords(err), "skew --versions") {
		t.Errorf("a Talos image of 1.28 with no minor: %v, want the flags of every verb named", err)
	}
}

// TestConvertedInputCarriesNoRepairs: a finding of a converted input (here a
// kubeadm ConfigMap) names the user's file, but a repair is byte edits of the
// converted document the pipeline read, so it carries none; the same
// configuration as a plain file carries the rename.
func TestConvertedInputCarriesNoRepairs(t *testing.T) {
	const kubelet = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nMaxPods: 50\n"
	configMap := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubelet-config\n  namespace: kube-system\ndata:\n  kubelet: |\n" +
		"    " + strings.ReplaceAll(strings.TrimSuffix(kubelet, "\n"), "\n", "\n    ") + "\n"
	for _, tc := range []struct {
		name, data string
		fixes      bool
	}{
		{"plain file", kubelet, true},
		{"kubeadm ConfigMap", configMap, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			l, err := Lint(Options{Config: path, KubeletVersion: "1.37"})
			if err != nil {
				t.Fatal(err)
			}
			seen := false
			for _, f := range l.Result.Findings {
				if f.Rule != "KC1102" {
					continue
				}
				seen = true
				if got := len(f.Fixes) > 0; got != tc.fixes || f.NoFix != "" {
					t.Errorf("%s at %s: fixes %v, reason %q; want fixes %t", f.Rule, f.Position, f.Fixes, f.NoFix, tc.fixes)
				}
				if f.File != path {
					t.Errorf("finding at %s, want in %s", f.Position, path)
				}
			}
			if !seen {
				t.Fatalf("no KC1102 finding: %+v", l.Result.Findings)
			}
		})
	}
}

// A tool that ships its kubelet (k0s) is checked at the kubelet its release
// ships unless a minor is named, and skew and preflight translate the file
// for each minor with that minor's release, standard input included.
func TestReleaseTrain(t *testing.T) {
	data, err := os.ReadFile("testdata/inputs/k0s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lint := func(version string) *Linted {
		t.Helper()
		l, err := Lint(Options{Config: "-", Stdin: bytes.NewReader(data), KubeletVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	if l := lint(""); l.Result.Minor.Version != "1.36" || l.Source.Paired != k0s.Release {
		t.Errorf("default: kubelet %s with k0s %q, want 1.36 with %s", l.Result.Minor.Version, l.Source.Paired, k0s.Release)
	}
	l := lint("1.37")
	if l.Result.Minor.Version != "1.37" || l.Source.Paired != "" || !l.Result.Starts {
		t.Errorf("1.37: kubelet %s with k0s %q, starts %v; want 1.37, no release, starts", l.Result.Minor.Version, l.Source.Paired, l.Result.Starts)
	}
	if slices.ContainsFunc(l.Result.Findings, func(f finding.Finding) bool { return strings.Contains(f.Message, "--containerd") }) {
		t.Errorf("1.37: a finding on k0s v1.36's own --containerd: %v", l.Result.Findings)
	}
	s, err := Skew(Options{Config: "-", Stdin: bytes.NewReader(data), Versions: "1.36..1.37"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range s.Matrix.Columns {
		got = append(got, c.Minor.Version+"="+c.Tool+" "+verbtext.ReleaseText(c))
	}
	if want := []string{"1.36=k0s " + k0s.Release, "1.37=k0s none ported"}; !slices.Equal(got, want) {
		t.Errorf("skew columns %q, want %q", got, want)
	}
	// A kubelet config file has no tool: the columns name none.
	s, err = Skew(Options{Config: "-", Stdin: strings.NewReader(testConfig), Versions: "1.36..1.37"})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Matrix.Columns[0]; c.Tool != "" {
		t.Errorf("a kubelet config names tool %q", c.Tool)
	}
}
