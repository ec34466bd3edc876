package karpenter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/nodeadm"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// harnessDiffers are the fixtures where the user data Karpenter's own
// bootstrap code generates (the goldens of conformance/karpenter, linking
// karpenter-provider-aws v1.15.0, whose pkg/apis and pkg/providers/amifamily
// are those of v1.15.2) is not what kubeletcfg's port generates, with why. TestKarpenterHarnessGoldens fails when a fixture
// listed here agrees (drop it) or another one disagrees.
var harnessDiffers = map[string]string{}

// TestKarpenterHarnessGoldens checks kubeletcfg's translation of every
// fixture against the user data Karpenter's bootstrap code writes for it
// (testdata/bootstrappers/karpenter/golden/*.userdata, make
// karpenter-goldens), with the launch template suite's maxPods and kube-dns
// IP (suiteSet):
//   - AL2023: the NodeConfig Karpenter generates (the archive's last part)
//     has NodeConfig's spec.kubelet, and nodeadm (input/nodeadm) reading the
//     whole archive writes the drop-in and flags Translate gives;
//   - Bottlerocket: the user data Karpenter writes is BottlerocketUserData's
//     (spec.userData's settings with Karpenter's over them), but for the
//     cluster's details;
//   - AL2: bootstrap.sh's --kubelet-extra-args are Translate's flags (a
//     map-valued flag's pairs in any order: Karpenter's are in Go's map
//     order), --dns-cluster-ip its clusterDNS.
func TestKarpenterHarnessGoldens(t *testing.T) {
	goldens, _ := filepath.Glob(testdata + "golden/*.userdata")
	if len(goldens) == 0 {
		t.Fatal("no goldens under " + testdata + "golden")
	}
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), ".userdata") + ".yaml"
		t.Run(name, func(t *testing.T) {
			golden, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			head, ud, _ := strings.Cut(string(golden), "\n")
			family := head[strings.LastIndex(head, " ")+1:]
			data := []byte(read(t, name))
			out, err := Translate(name, data, suiteSet)
			if err != nil {
				t.Fatal(err)
			}
			var diffs []string
			switch family {
			case "AL2023":
				diffs = al2023Diffs(t, name, data, ud, out)
			case "Bottlerocket":
				diffs = bottlerocketDiffs(t, name, data, ud, out)
			case "AL2":
				diffs = al2Diffs(t, ud, out)
			case "Windows2019", "Windows2022", "Windows2025":
				diffs = windowsDiffs(t, ud, out)
			default:
				t.Fatalf("amiFamily %s: no comparison", family)
			}
			why, listed := harnessDiffers[name]
			switch {
			case len(diffs) > 0 && !listed:
				t.Errorf("kubeletcfg's translation is not Karpenter's:\n%s", strings.Join(diffs, "\n"))
			case len(diffs) == 0 && listed:
				t.Errorf("kubeletcfg now agrees with Karpenter: drop it from harnessDiffers (%s)", why)
			case listed:
				t.Logf("known difference (%s):\n%s", why, strings.Join(diffs, "\n"))
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	var x, y any
	_ = json.Unmarshal(ja, &x)
	_ = json.Unmarshal(jb, &y)
	return reflect.DeepEqual(x, y)
}

func diffMaps(what string, want, got map[string]any) []string {
	var d []string
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		if !jsonEqual(want[k], got[k]) {
			w, _ := json.Marshal(want[k])
			g, _ := json.Marshal(got[k])
			d = append(d, what+"."+k+": Karpenter "+string(w)+", kubeletcfg "+string(g))
		}
	}
	return d
}

func al2023Diffs(t *testing.T, name string, data []byte, ud string, out *bootstrap.Output) []string {
	t.Helper()
	at := func(int, int) finding.Position { return finding.Position{File: name} }
	docs, err := nodeadm.UserDataDocuments([]byte(ud), at)
	if err != nil || len(docs) == 0 {
		t.Fatalf("golden user data: %v (%d NodeConfigs)", err, len(docs))
	}
	kubelet := func(doc []byte) map[string]any {
		var nc struct {
			Spec struct {
				Kubelet map[string]any `json:"kubelet"`
			} `json:"spec"`
		}
		if err := sigsyaml.Unmarshal(doc, &nc); err != nil {
			t.Fatal(err)
		}
		return nc.Spec.Kubelet
	}
	ours, err := NodeConfig(name, data, suiteSet)
	if err != nil {
		t.Fatal(err)
	}
	diffs := diffMaps("Karpenter's NodeConfig spec.kubelet", kubelet(docs[len(docs)-1].Data), kubelet(ours))
	// nodeadm reading Karpenter's archive, as kubeletcfg's nodeadm port does.
	ref, err := nodeadm.TranslateDocuments(name, finding.Position{File: name}, docs, suiteSet)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ref.DropIns {
		if i >= len(out.DropIns) {
			diffs = append(diffs, "missing drop-in "+ref.DropIns[i].Path)
			continue
		}
		diffs = append(diffs, diffMaps(ref.DropIns[i].Path, jsonOf(t, ref.DropIns[i].Data), jsonOf(t, out.DropIns[i].Data))...)
	}
	if !reflect.DeepEqual(ref.Flags, out.Flags) {
		diffs = append(diffs, "flags: Karpenter's archive through nodeadm "+strings.Join(ref.Flags, " ")+", kubeletcfg "+strings.Join(out.Flags, " "))
	}
	return diffs
}

// bottlerocketDiffs compares the user data kubeletcfg's port of
// Bottlerocket.Script writes (BottlerocketUserData) with Karpenter's, setting
// by setting, both read with go-toml: every setting but the cluster's
// details, which the port leaves out (api-server, cluster-certificate,
// cluster-name); and checks that Translate's --register-with-taints is the
// node-taints Karpenter writes.
func bottlerocketDiffs(t *testing.T, name string, data []byte, ud string, out *bootstrap.Output) []string {
	t.Helper()
	ours, err := BottlerocketUserData(name, data, suiteSet)
	if err != nil {
		t.Fatal(err)
	}
	read := func(what string, b []byte) map[string]any {
		var m map[string]any
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return m
	}
	want, got := read("Karpenter's user data", []byte(ud)), read("kubeletcfg's user data", ours)
	if k8s, ok := want["settings"].(map[string]any)["kubernetes"].(map[string]any); ok {
		for _, k := range []string{"api-server", "cluster-certificate", "cluster-name"} {
			delete(k8s, k)
		}
	}
	diffs := diffMaps("user data", want, got)
	var pairs []string
	taints, _ := want["settings"].(map[string]any)["kubernetes"].(map[string]any)["node-taints"].(map[string]any)
	for _, k := range sortedKeys(taints) {
		for _, v := range taints[k].([]any) {
			pairs = append(pairs, k+"="+v.(string))
		}
	}
	if flag := "--register-with-taints=" + strings.Join(pairs, ","); len(out.Flags) == 0 || out.Flags[0] != flag {
		diffs = append(diffs, "flags: Karpenter's node-taints make "+flag+", kubeletcfg "+strings.Join(out.Flags, " "))
	}
	return diffs
}

var extraArgsRE = regexp.MustCompile(`--kubelet-extra-args '([^']*)'`)
var dnsRE = regexp.MustCompile(`--dns-cluster-ip '([^']*)'`)

// al2Diffs reads bootstrap.sh's line of the script Karpenter writes.
func al2Diffs(t *testing.T, ud string, out *bootstrap.Output) []string {
	t.Helper()
	return extraArgsDiffs(t, ud, out, extraArgsRE, dnsRE, "--kubelet-extra-args", "--dns-cluster-ip")
}

// Start-EKSBootstrap.ps1's parameters in the Windows user data (bootstrap/windows.go Script).
var (
	winExtraArgsRE = regexp.MustCompile(`-KubeletExtraArgs '([^']*)'`)
	winDNSRE       = regexp.MustCompile(`-DNSClusterIP '([^']*)'`)
)

// windowsDiffs: Start-EKSBootstrap.ps1's -KubeletExtraArgs are Translate's
// flags (the double quotes around a value are the Windows command line's,
// which the kubelet does not see), -DNSClusterIP its clusterDNS, and the
// node is a Windows one.
func windowsDiffs(t *testing.T, ud string, out *bootstrap.Output) []string {
	t.Helper()
	// The script's own arguments (assumed, not Karpenter's) come first.
	own := *out
	own.Flags = slices.DeleteFunc(slices.Clone(out.Flags), func(f string) bool {
		name, _, _ := strings.Cut(strings.TrimPrefix(f, "--"), "=")
		_, ok := out.FlagWriters[name]
		return ok
	})
	diffs := extraArgsDiffs(t, ud, &own, winExtraArgsRE, winDNSRE, "-KubeletExtraArgs", "-DNSClusterIP")
	if out.OS != kubelets.Windows {
		diffs = append(diffs, "OS: Karpenter writes a PowerShell script for Windows, kubeletcfg says "+string(out.OS))
	}
	return diffs
}

func extraArgsDiffs(t *testing.T, ud string, out *bootstrap.Output, argsRE, dnsParamRE *regexp.Regexp, argsName, dnsName string) []string {
	t.Helper()
	m := argsRE.FindStringSubmatch(ud)
	if m == nil {
		t.Fatalf("no %s in the golden", argsName)
	}
	norm := func(flag string) string {
		// bootstrap.sh puts the flags in KUBELET_EXTRA_ARGS; systemd's
		// word splitting drops the quotes; a map's pairs are in Go's order.
		name, v, _ := strings.Cut(strings.ReplaceAll(flag, `"`, ""), "=")
		parts := strings.Split(v, ",")
		sort.Strings(parts)
		return name + "=" + strings.Join(parts, ",")
	}
	var want, got []string
	for _, f := range strings.Fields(m[1]) {
		want = append(want, norm(f))
	}
	for _, f := range out.Flags {
		got = append(got, norm(f))
	}
	var diffs []string
	if !reflect.DeepEqual(want, got) {
		diffs = append(diffs, argsName+": Karpenter "+strings.Join(want, " ")+", kubeletcfg "+strings.Join(got, " "))
	}
	cfg := jsonOf(t, out.Config.Data)
	if d := dnsParamRE.FindStringSubmatch(ud); d != nil && !jsonEqual(cfg["clusterDNS"], []string{d[1]}) {
		diffs = append(diffs, dnsName+": Karpenter "+d[1]+", kubeletcfg "+strings.Join(strings.Fields(string(mustJSON(cfg["clusterDNS"]))), ""))
	}
	return diffs
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
