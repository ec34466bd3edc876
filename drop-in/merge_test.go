package dropin

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/defaults"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

const hdr = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

// baseConfig is the main config the drop-ins are merged over, as the pipeline
// hands it to Merge: the JSON of the (defaulted) v1beta1 object.
func baseConfig(t testing.TB) []byte {
	t.Helper()
	kc := &kubeletv1beta1.KubeletConfiguration{
		MaxPods:      110,
		EvictionHard: map[string]string{"memory.available": "100Mi", "nodefs.available": "10%"},
		ClusterDNS:   []string{"10.96.0.10", "10.96.0.11"},
		FeatureGates: map[string]bool{"NodeSwap": true},
		TLSCertFile:  "/etc/kubelet/tls.crt",
	}
	kc.APIVersion, kc.Kind = source.KubeletGVK.GroupVersion().String(), source.KubeletGVK.Kind
	data, err := json.Marshal(kc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// baseOrigins are where the main file set the base's values.
func baseOrigins() map[string]finding.Position {
	at := func(line, col int) finding.Position {
		return finding.Position{File: "kubelet.yaml", Line: line, Column: col}
	}
	return map[string]finding.Position{
		"maxPods": at(3, 1), "evictionHard": at(4, 1), "evictionHard[memory.available]": at(5, 3),
		"evictionHard[nodefs.available]": at(6, 3), "clusterDNS": at(7, 1), "featureGates": at(8, 1),
		"featureGates[NodeSwap]": at(9, 3), "tlsCertFile": at(10, 1),
	}
}

type merged struct {
	res     *Result
	dir     string
	origins map[string]finding.Position
}

// merge writes files into a drop-in folder and merges them over the base.
func merge(t *testing.T, files map[string]string) merged {
	t.Helper()
	dir := tree(t, files)
	entries, err := Find(dir)
	if err != nil {
		t.Fatalf("Find: %v", err)
	}
	origins := baseOrigins()
	res, err := Merge(baseConfig(t), entries, Options{Tree: kubelets.Tree(), PathFields: defaults.PathFields, Origins: origins})
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	return merged{res: res, dir: dir, origins: origins}
}

// findings renders findings as "file:line:col RULE path", files relative to the folder.
func (m merged) findings() []string {
	var out []string
	for _, f := range m.res.Findings {
		file := f.File
		if r, err := filepath.Rel(m.dir, f.File); err == nil && !strings.HasPrefix(r, "..") {
			file = filepath.ToSlash(r)
		}
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s:%d:%d %s %s", file, f.Line, f.Column, f.Rule, f.Path)))
	}
	sort.Strings(out)
	return out
}

func (m merged) find(rule string) *finding.Finding {
	for i, f := range m.res.Findings {
		if f.Rule == rule {
			return &m.res.Findings[i]
		}
	}
	return nil
}

func (m merged) origin(path string) string {
	p, ok := m.origins[path]
	if !ok {
		return "(none)"
	}
	if r, err := filepath.Rel(m.dir, p.File); err == nil && !strings.HasPrefix(r, "..") {
		p.File = filepath.ToSlash(r)
	}
	return p.String()
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		findings []string // every finding, sorted
		refused  bool
		check    func(t *testing.T, m merged)
	}{
		{
			name:  "scalar override",
			files: map[string]string{"10.conf": hdr + "maxPods: 50\n"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.MaxPods != 50 {
					t.Errorf("maxPods %d, want 50", m.res.Config.MaxPods)
				}
				if o := m.origin("maxPods"); o != "10.conf:3:1" {
					t.Errorf("maxPods origin %s, want 10.conf:3:1", o)
				}
				if m.res.Config.TLSCertFile != "/etc/kubelet/tls.crt" || m.origin("tlsCertFile") != "kubelet.yaml:10:1" {
					t.Errorf("untouched field changed: %q from %s", m.res.Config.TLSCertFile, m.origin("tlsCertFile"))
				}
			},
		},
		{
			name: "later file wins",
			files: map[string]string{
				"20-b.conf": hdr + "maxPods: 60\n",
				"10-a.conf": hdr + "maxPods: 50\nmaxOpenFiles: 1000\n",
			},
			findings: []string{"10-a.conf:3:1 KC2011 maxPods"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.MaxPods != 60 || m.res.Config.MaxOpenFiles != 1000 {
					t.Errorf("maxPods %d maxOpenFiles %d, want 60 and 1000", m.res.Config.MaxPods, m.res.Config.MaxOpenFiles)
				}
				if o := m.origin("maxPods"); o != "20-b.conf:3:1" {
					t.Errorf("maxPods origin %s", o)
				}
				if o := m.origin("maxOpenFiles"); o != "10-a.conf:4:1" {
					t.Errorf("maxOpenFiles origin %s", o)
				}
				if len(m.res.Patches) != 2 || filepath.Base(m.res.Patches[0].Path) != "10-a.conf" {
					t.Errorf("patches not in order: %+v", m.res.Patches)
				}
			},
		},
		{
			name:  "list replaced whole",
			files: map[string]string{"10.conf": hdr + "clusterDNS:\n- 1.1.1.1\n"},
			check: func(t *testing.T, m merged) {
				if !reflect.DeepEqual(m.res.Config.ClusterDNS, []string{"1.1.1.1"}) {
					t.Errorf("clusterDNS %v, want [1.1.1.1]", m.res.Config.ClusterDNS)
				}
				if o := m.origin("clusterDNS"); o != "10.conf:3:1" {
					t.Errorf("clusterDNS origin %s", o)
				}
			},
		},
		{
			name:  "empty list replaces too",
			files: map[string]string{"10.conf": hdr + "clusterDNS: []\n"},
			check: func(t *testing.T, m merged) {
				if len(m.res.Config.ClusterDNS) != 0 {
					t.Errorf("clusterDNS %v, want empty", m.res.Config.ClusterDNS)
				}
			},
		},
		{
			name:  "map merged key by key",
			files: map[string]string{"10.conf": hdr + "evictionHard:\n  imagefs.available: 15%\n  memory.available: 200Mi\n"},
			check: func(t *testing.T, m merged) {
				want := map[string]string{"memory.available": "200Mi", "nodefs.available": "10%", "imagefs.available": "15%"}
				if !reflect.DeepEqual(m.res.Config.EvictionHard, want) {
					t.Errorf("evictionHard %v, want %v", m.res.Config.EvictionHard, want)
				}
				for p, o := range map[string]string{
					"evictionHard[imagefs.available]": "10.conf:4:3",
					"evictionHard[memory.available]":  "10.conf:5:3",
					"evictionHard[nodefs.available]":  "kubelet.yaml:6:3",
				} {
					if got := m.origin(p); got != o {
						t.Errorf("%s origin %s, want %s", p, got, o)
					}
				}
			},
		},
		{
			name:  "null deletes",
			files: map[string]string{"10.conf": hdr + "evictionHard:\n  memory.available: null\nfeatureGates: null\nmaxPods: null\n"},
			check: func(t *testing.T, m merged) {
				if !reflect.DeepEqual(m.res.Config.EvictionHard, map[string]string{"nodefs.available": "10%"}) {
					t.Errorf("evictionHard %v", m.res.Config.EvictionHard)
				}
				if m.res.Config.FeatureGates != nil || m.res.Config.MaxPods != 0 {
					t.Errorf("featureGates %v maxPods %d, want both gone", m.res.Config.FeatureGates, m.res.Config.MaxPods)
				}
				for _, p := range []string{"evictionHard[memory.available]", "featureGates", "featureGates[NodeSwap]", "maxPods"} {
					if o := m.origin(p); o != "(none)" {
						t.Errorf("%s still has origin %s", p, o)
					}
				}
				if strings.Contains(string(m.res.MergedJSON), "maxPods") {
					t.Errorf("merged JSON keeps maxPods: %s", m.res.MergedJSON)
				}
			},
		},
		{
			name:     "unknown key",
			files:    map[string]string{"10.conf": hdr + "maxPod: 5\nauthentication:\n  x509:\n    clientCaFile: /x\n"},
			findings: []string{"10.conf:3:1 KC2005 maxPod", "10.conf:6:5 KC2006 authentication.x509.clientCAFile"},
			check: func(t *testing.T, m merged) {
				if f := m.find("KC2005"); f.Hint != `did you mean "maxPods"?` || f.Severity != finding.Warning {
					t.Errorf("KC2005 hint %q severity %v", f.Hint, f.Severity)
				}
				if m.res.Config.MaxPods != 110 {
					t.Errorf("maxPods %d, want 110", m.res.Config.MaxPods)
				}
				// clientCaFile matches clientCAFile case-insensitively: it takes effect
				if m.res.Config.Authentication.X509.ClientCAFile != "/x" {
					t.Errorf("clientCAFile %q, want /x", m.res.Config.Authentication.X509.ClientCAFile)
				}
			},
		},
		{
			name:     "case-only key takes effect",
			files:    map[string]string{"10.conf": hdr + "StaticPodPath: /etc/kubernetes/manifests\n"},
			findings: []string{"10.conf:3:1 KC2006 staticPodPath"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.StaticPodPath != "/etc/kubernetes/manifests" {
					t.Errorf("staticPodPath %q", m.res.Config.StaticPodPath)
				}
				if o := m.origin("staticPodPath"); o != "10.conf:3:1" {
					t.Errorf("staticPodPath origin %s", o)
				}
			},
		},
		{
			name:     "case-only key shadowed by the base",
			files:    map[string]string{"10.conf": hdr + "MaxPods: 7\n"},
			findings: []string{"10.conf:3:1 KC2007 maxPods"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.MaxPods != 110 {
					t.Errorf("maxPods %d, want 110 (the base's)", m.res.Config.MaxPods)
				}
				if o := m.origin("maxPods"); o != "kubelet.yaml:3:1" {
					t.Errorf("maxPods origin %s, want the main file", o)
				}
			},
		},
		{
			name:     "both spellings in one drop-in",
			files:    map[string]string{"10.conf": hdr + "MaxPods: 7\nmaxPods: 5\n"},
			findings: []string{"10.conf:3:1 KC2007 maxPods"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.MaxPods != 5 || m.origin("maxPods") != "10.conf:4:1" {
					t.Errorf("maxPods %d from %s, want 5 from 10.conf:4:1", m.res.Config.MaxPods, m.origin("maxPods"))
				}
			},
		},
		{
			name:     "case-only key by Unicode folding",
			files:    map[string]string{"10.conf": hdr + "\u017ftaticPodPath: /etc/kubernetes/manifests\n\u212aubeReserved: {cpu: \"1\"}\n"},
			findings: []string{"10.conf:3:1 KC2006 staticPodPath", "10.conf:4:1 KC2006 kubeReserved"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.StaticPodPath != "/etc/kubernetes/manifests" || m.res.Config.KubeReserved["cpu"] != "1" {
					t.Errorf("staticPodPath %q kubeReserved %v: encoding/json folds \u017f to s and \u212a to k", m.res.Config.StaticPodPath, m.res.Config.KubeReserved)
				}
				if o := m.origin("kubeReserved[cpu]"); o != "10.conf:4:16" {
					t.Errorf("kubeReserved[cpu] origin %s", o)
				}
			},
		},
		{
			name:     "case-only map merges into the base's map",
			files:    map[string]string{"10.conf": hdr + "FeatureGates:\n  KubeletTracing: true\n"},
			findings: []string{"10.conf:3:1 KC2006 featureGates"},
			check: func(t *testing.T, m merged) {
				if !reflect.DeepEqual(m.res.Config.FeatureGates, map[string]bool{"NodeSwap": true, "KubeletTracing": true}) {
					t.Errorf("featureGates %v", m.res.Config.FeatureGates)
				}
				if o := m.origin("featureGates[KubeletTracing]"); o != "10.conf:4:3" {
					t.Errorf("featureGates[KubeletTracing] origin %s", o)
				}
			},
		},
		{
			name:     "case-only map whose entries are all overridden",
			files:    map[string]string{"10.conf": hdr + "FeatureGates:\n  NodeSwap: false\n"},
			findings: []string{"10.conf:3:1 KC2007 featureGates"},
			check: func(t *testing.T, m merged) {
				if !m.res.Config.FeatureGates["NodeSwap"] {
					t.Errorf("featureGates %v: the base's spelling decodes last", m.res.Config.FeatureGates)
				}
			},
		},
		{
			name:     "case-only object with only unknown keys",
			files:    map[string]string{"50.conf": hdr + "crashloopbackoff:\n  maxSeconds: 30\n"},
			findings: []string{"50.conf:3:1 KC2006 crashLoopBackOff", "50.conf:4:3 KC2005 crashLoopBackOff.maxSeconds", "50.conf:4:3 KC6001 crashLoopBackOff.maxSeconds"},
		},
		{
			name: "relative paths",
			files: map[string]string{"10.conf": hdr + "staticPodPath: manifests\ntlsCertFile: ./tls.crt\npodLogsDir: /var/log/pods\n" +
				"providerID: relative/not/a/path\nauthentication:\n  x509:\n    clientCAFile: ca.crt\n"},
			findings: []string{"10.conf:3:1 KC2008 staticPodPath", "10.conf:4:1 KC2008 tlsCertFile", "10.conf:9:5 KC2008 authentication.x509.clientCAFile"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.StaticPodPath != "manifests" || m.res.Config.TLSCertFile != "./tls.crt" {
					t.Errorf("drop-in paths were rewritten: %q %q", m.res.Config.StaticPodPath, m.res.Config.TLSCertFile)
				}
			},
		},
		{
			name:     "type error in the merged result",
			files:    map[string]string{"10.conf": hdr + "maxPods: 5\n", "20.conf": hdr + "# comment\nmaxPods: \"abc\"\n"},
			findings: []string{"20.conf:4:1 KC2009 maxPods"},
			refused:  true,
			check: func(t *testing.T, m merged) {
				f := m.find("KC2009")
				if !strings.Contains(f.Kubelet, "failed to unmarshal merged JSON into kubelet configuration") || f.Severity != finding.Error {
					t.Errorf("KC2009 kubelet %q", f.Kubelet)
				}
			},
		},
		{
			name:     "type error set by an earlier drop-in",
			files:    map[string]string{"10.conf": hdr + "syncFrequency: 10\n", "20.conf": hdr + "maxPods: 5\n"},
			findings: []string{"10.conf:3:1 KC2009 syncFrequency"},
			refused:  true,
		},
		{
			name:     "type error under a case-only key",
			files:    map[string]string{"10.conf": hdr + "StaticPodPath: [a]\n"},
			findings: []string{"10.conf:3:1 KC2009 staticPodPath"},
			refused:  true,
		},
		{
			name:     "non-.conf files are ignored",
			files:    map[string]string{"README": "x", "10.yaml": hdr + "maxPods: 5\n"},
			findings: []string{"10.yaml:0:0 KC2001", "README:0:0 KC2001"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.MaxPods != 110 {
					t.Errorf("10.yaml was merged")
				}
			},
		},
		{
			name:     "empty drop-in",
			files:    map[string]string{"10.conf": ""},
			findings: []string{"10.conf:0:0 KC2002"},
			refused:  true,
		},
		{
			name:     "missing kind",
			files:    map[string]string{"10.conf": "apiVersion: kubelet.config.k8s.io/v1beta1\nmaxPods: 5\n"},
			findings: []string{"10.conf:1:1 KC2003"},
			refused:  true,
		},
		{
			name:     "missing apiVersion",
			files:    map[string]string{"10.conf": "kind: KubeletConfiguration\nmaxPods: 5\n"},
			findings: []string{"10.conf:1:1 KC2003"},
			refused:  true,
		},
		{
			name:     "whitespace only",
			files:    map[string]string{"10.conf": "\n  \n# nothing\n"},
			findings: []string{"10.conf:1:1 KC2003"},
			refused:  true,
		},
		{
			name:     "wrong kind",
			files:    map[string]string{"10.conf": "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfig\n"},
			findings: []string{"10.conf:2:1 KC2003"},
			refused:  true,
		},
		{
			name:     "wrong apiVersion",
			files:    map[string]string{"10.conf": "kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1alpha1\n"},
			findings: []string{"10.conf:2:1 KC2003"},
			refused:  true,
		},
		{
			name:     "syntax error",
			files:    map[string]string{"10.conf": hdr + "clusterDNS: [10.96.0.10\n"},
			findings: []string{"10.conf:3:1 KC2004"},
			refused:  true,
			check: func(t *testing.T, m merged) {
				if f := m.find("KC2004"); f.Hint != "fix the syntax" {
					t.Errorf("KC2004 hint %q", f.Hint)
				}
			},
		},
		{
			name:     "alias bomb",
			files:    map[string]string{"10.conf": hdr + "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"},
			findings: []string{"10.conf:4:8 KC2004"},
			refused:  true,
			check: func(t *testing.T, m merged) {
				if f := m.find("KC2004"); !strings.Contains(f.Message, "alias bomb") || !strings.Contains(f.Hint, "instead of nesting aliases") {
					t.Errorf("KC2004 message %q hint %q", f.Message, f.Hint)
				}
			},
		},
		{
			name:     "tab",
			files:    map[string]string{"10.conf": hdr + "evictionHard:\n\tmemory.available: 100Mi\n"},
			findings: []string{"10.conf:4:1 KC2004"},
			refused:  true,
			check: func(t *testing.T, m merged) {
				if f := m.find("KC2004"); f.Hint != "fix the syntax: the file has a tab, and YAML indents with spaces, never tabs" {
					t.Errorf("KC2004 hint %q", f.Hint)
				}
			},
		},
		{
			name:     "duplicate keys",
			files:    map[string]string{"10.conf": hdr + "maxPods: 50\nmaxPods: 60\n"},
			findings: []string{"10.conf:4:1 KC2004"},
			refused:  true,
			check: func(t *testing.T, m merged) {
				if f := m.find("KC2004"); !strings.Contains(f.Message, `duplicate key "maxPods" (first at line 3)`) || !strings.Contains(f.Kubelet, "line 4") || !strings.Contains(f.Hint, "each key may appear once per mapping") {
					t.Errorf("KC2004 message %q kubelet %q", f.Message, f.Kubelet)
				}
			},
		},
		{
			name:     "duplicate keys in a map",
			files:    map[string]string{"10.conf": hdr + "evictionHard:\n  memory.available: 1Gi\n  memory.available: 2Gi\n"},
			findings: []string{"10.conf:5:3 KC2004"},
			refused:  true,
		},
		{
			name:     "duplicate keys under an unknown key",
			files:    map[string]string{"10.conf": hdr + "x:\n  a: 1\n  a: 2\n"},
			findings: []string{"10.conf:5:1 KC2004"},
			refused:  true,
		},
		{
			name:     "duplicate through a merge key",
			files:    map[string]string{"10.conf": hdr + "systemReserved: &res\n  cpu: 250m\n  memory: 512Mi\nkubeReserved:\n  <<: *res\n  memory: 1Gi\n"},
			findings: []string{"10.conf:8:3 KC2004"},
			refused:  true,
		},
		{
			name:     "symlink loop",
			files:    map[string]string{"loop.conf": "->loop.conf", "20.conf": hdr + "maxPods: 5\n"},
			findings: []string{"loop.conf:0:0 KC2004"},
			refused:  true,
			check: func(t *testing.T, m merged) {
				if f := m.find("KC2004"); !strings.Contains(f.Message, "too many levels of symbolic links") {
					t.Errorf("KC2004 message %q", f.Message)
				}
			},
		},
		{
			name:     "symlink to a folder named x.conf",
			files:    map[string]string{"real/": "", "x.conf": "->real"},
			findings: []string{"x.conf:0:0 KC2004"},
			refused:  true,
		},
		{
			name:     "dangling symlink",
			files:    map[string]string{"x.conf": "->nowhere"},
			findings: []string{"x.conf:0:0 KC2004"},
			refused:  true,
		},
		{
			name: "a bad drop-in stops the merge, later ones are still checked",
			files: map[string]string{
				"10.conf": "",
				"20.conf": hdr + "maxPods: 60\nmaxPod: 1\n",
			},
			findings: []string{"10.conf:0:0 KC2002", "20.conf:4:1 KC2005 maxPod"},
			refused:  true,
			check: func(t *testing.T, m merged) {
				if m.res.Config != nil {
					t.Errorf("config despite the refusal")
				}
				if strings.Contains(string(m.res.MergedJSON), `"maxPods":60`) {
					t.Errorf("20.conf merged after the refusal: %s", m.res.MergedJSON)
				}
				if m.origin("maxPods") != "kubelet.yaml:3:1" {
					t.Errorf("origins updated by a refused merge: %s", m.origin("maxPods"))
				}
			},
		},
		{
			name:     "extra documents",
			files:    map[string]string{"10.conf": hdr + "maxPods: 50\n---\n" + hdr + "maxPods: 60\n"},
			findings: []string{"10.conf:4:1 KC1104"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.MaxPods != 50 {
					t.Errorf("maxPods %d, want 50 (first document)", m.res.Config.MaxPods)
				}
			},
		},
		{
			name:     "anchors and merge keys",
			files:    map[string]string{"10.conf": hdr + "systemReserved: &r {cpu: \"1\", memory: 1Gi}\nkubeReserved:\n  <<: *r\n  ephemeral-storage: 1Gi\n"},
			findings: nil,
			check: func(t *testing.T, m merged) {
				if len(m.res.Config.KubeReserved) != 3 {
					t.Errorf("kubeReserved %v", m.res.Config.KubeReserved)
				}
			},
		},
		{
			name:  "JSON drop-in",
			files: map[string]string{"10.conf": `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":42}`},
			check: func(t *testing.T, m merged) {
				if m.res.Config.MaxPods != 42 || m.origin("maxPods") != "10.conf:1:77" {
					t.Errorf("maxPods %d from %s", m.res.Config.MaxPods, m.origin("maxPods"))
				}
			},
		},
		{
			name:  "nested objects clear origins below replaced values",
			files: map[string]string{"10.conf": hdr + "clusterDNS: null\nlogging:\n  format: json\n"},
			check: func(t *testing.T, m merged) {
				if m.res.Config.ClusterDNS != nil || m.origin("clusterDNS") != "(none)" {
					t.Errorf("clusterDNS %v from %s", m.res.Config.ClusterDNS, m.origin("clusterDNS"))
				}
				if m.origin("logging.format") != "10.conf:5:3" || m.origin("logging") != "10.conf:4:1" {
					t.Errorf("logging origins %s %s", m.origin("logging"), m.origin("logging.format"))
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := merge(t, tc.files)
			if got := m.findings(); !reflect.DeepEqual(got, tc.findings) {
				t.Errorf("findings:\n got  %q\n want %q", got, tc.findings)
				for _, f := range m.res.Findings {
					t.Logf("  %s %s: %s", f.Rule, f.Position, f.Message)
				}
			}
			if m.res.Refused != tc.refused {
				t.Errorf("refused %v, want %v", m.res.Refused, tc.refused)
			}
			if (m.res.Config == nil) != tc.refused {
				t.Errorf("config %v with refused %v", m.res.Config != nil, tc.refused)
			}
			if !tc.refused && !json.Valid(m.res.MergedJSON) {
				t.Errorf("merged JSON is not valid: %s", m.res.MergedJSON)
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

func TestMergeNoEntries(t *testing.T) {
	base := baseConfig(t)
	res, err := Merge(base, nil, Options{Tree: kubelets.Tree()})
	if err != nil || res.Refused || len(res.Findings) != 0 || res.Config == nil || res.Config.MaxPods != 110 {
		t.Fatalf("Merge with no drop-ins: %+v, %v", res, err)
	}
	if string(res.MergedJSON) != string(base) {
		t.Errorf("merged JSON differs from the base with no drop-ins")
	}
}

// A drop-in over the size limit is an input error naming it, not a finding.
func TestMergeTooLarge(t *testing.T) {
	dir := tree(t, map[string]string{"10.conf": hdr + "maxPods: 5\n"})
	big := filepath.Join(dir, "20-big.conf")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(big, source.MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	entries, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Merge(baseConfig(t), entries, Options{Tree: kubelets.Tree(), Origins: baseOrigins()})
	var ie *source.InputError
	if !errors.As(err, &ie) || ie.Path != big || res != nil {
		t.Fatalf("Merge = %v, %v; want an InputError naming %s", res, err, big)
	}
}

// A base that is not a JSON object cannot be patched: a finding, not a panic.
func TestMergeBadBase(t *testing.T) {
	dir := tree(t, map[string]string{"10.conf": hdr + "maxPods: 5\n"})
	entries, _ := Find(dir)
	for _, base := range []string{"", "null", "[1]", "{"} {
		res, err := Merge([]byte(base), entries, Options{Tree: kubelets.Tree()})
		if err != nil {
			t.Errorf("base %q: error %v", base, err)
			continue
		}
		if res.Config != nil && !json.Valid(res.MergedJSON) {
			t.Errorf("base %q: config from invalid JSON %s", base, res.MergedJSON)
		}
	}
}

// Origins below a value that a drop-in replaces (a list, null) are dropped; a
// later drop-in can set them again.
func TestMergeOrigins(t *testing.T) {
	main := finding.Position{File: "kubelet.yaml", Line: 1, Column: 1}
	origins := map[string]finding.Position{
		"reservedMemory": main, "reservedMemory[0].numaNode": main, "reservedMemory[0].limits": main,
		"reservedMemory[0].limits[memory]": main, "reservedMemory[1].numaNode": main,
		"logging": main, "logging.format": main, "logging.verbosity": main,
		"evictionHard": main, "evictionHard[memory.available]": main, "evictionHard[a.b]": main,
		"evictionHard[x].y]": main, "maxPods": main,
	}
	dir := tree(t, map[string]string{
		"10.conf": hdr + "reservedMemory:\n- numaNode: 1\n",
		"20.conf": hdr + "logging: null\nevictionHard:\n  x: 1Gi\n",
		"30.conf": hdr + "logging:\n  format: json\nevictionHard:\n  a.b: null\n",
	})
	entries, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	base := []byte(`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":1,"logging":{"format":"text","verbosity":1},` +
		`"evictionHard":{"memory.available":"1Gi","a.b":"1","x].y":"2"},"reservedMemory":[{"numaNode":0,"limits":{"memory":"1Gi"}},{"numaNode":1}]}`)
	res, err := Merge(base, entries, Options{Tree: kubelets.Tree(), Origins: origins})
	if err != nil || res.Refused {
		t.Fatalf("Merge: %v %+v", err, res.Findings)
	}
	m := merged{res: res, dir: dir, origins: origins}
	want := map[string]string{
		"reservedMemory":                   "10.conf:3:1",
		"reservedMemory[0].numaNode":       "10.conf:4:3",
		"reservedMemory[0].limits":         "(none)",
		"reservedMemory[0].limits[memory]": "(none)",
		"reservedMemory[1].numaNode":       "(none)",
		"logging":                          "30.conf:3:1",
		"logging.format":                   "30.conf:4:3",
		"logging.verbosity":                "(none)",
		"evictionHard":                     "30.conf:5:1",
		"evictionHard[memory.available]":   "kubelet.yaml:1:1",
		"evictionHard[x]":                  "20.conf:5:3",
		"evictionHard[a.b]":                "(none)",
		"maxPods":                          "kubelet.yaml:1:1",
	}
	for p, o := range want {
		if got := m.origin(p); got != o {
			t.Errorf("%s: origin %s, want %s", p, got, o)
		}
	}
	if res.Config.Logging.Verbosity != 0 || res.Config.Logging.Format != "json" || len(res.Config.ReservedMemory) != 1 {
		t.Errorf("config: %+v %+v", res.Config.Logging, res.Config.ReservedMemory)
	}
}

// Tens of thousands of keys, case-folded over the same keys of the base, merge in
// linear time and bounded memory.
func TestMergeManyKeys(t *testing.T) {
	const n = 20000
	var base, dropIn strings.Builder
	base.WriteString(`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","evictionHard":{`)
	dropIn.WriteString(hdr + "EvictionHard:\n")
	origins := map[string]finding.Position{}
	for i := range n {
		if i > 0 {
			base.WriteString(",")
		}
		fmt.Fprintf(&base, `"k%d":"1Gi"`, i)
		fmt.Fprintf(&dropIn, "  k%d: null\n  K%d: 2Gi\n", i, i)
		origins[fmt.Sprintf("evictionHard[k%d]", i)] = finding.Position{File: "kubelet.yaml", Line: i + 1}
	}
	base.WriteString("}}")
	dir := tree(t, map[string]string{"10.conf": dropIn.String()})
	entries, _ := Find(dir)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := Merge([]byte(base.String()), entries, Options{Tree: kubelets.Tree(), Origins: origins})
	runtime.ReadMemStats(&after)
	if err != nil || res.Refused {
		t.Fatalf("Merge: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
		t.Errorf("allocated %d MiB", alloc>>20)
	}
	// EvictionHard sorts before evictionHard: the base's map decodes last, but the
	// drop-in's K entries are new keys and its nulls were never merged there.
	if len(res.Config.EvictionHard) != 2*n {
		t.Errorf("%d evictionHard entries, want %d", len(res.Config.EvictionHard), 2*n)
	}
	if f := (merged{res: res}).find("KC2006"); f == nil || f.Path != "evictionHard" {
		t.Errorf("no KC2006 for EvictionHard: %v", res.Findings)
	}
}
