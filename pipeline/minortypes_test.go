package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/finding"
	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

const typeMeta = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

// TestEachMinorOwnTypes checks that every minor decodes with its own types: a
// key for a field a minor does not have is dropped there whatever its value,
// while the minors that have the field refuse a value of the wrong type. The
// conformance cases 483-486 hold the same inputs with the real kubelets' goldens.
func TestEachMinorOwnTypes(t *testing.T) {
	all := kubelets.Supported()
	from := func(v string) map[string]bool { // the minors from v on
		out := map[string]bool{}
		for _, m := range all {
			if c, _ := compareVersions(m, v); c >= 0 {
				out[m] = true
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		main   string
		dropIn string
		// refuse lists the minors that refuse; the others start.
		refuse map[string]bool
		// rule is reported at line 3 of the file by the refusing minors, with
		// Kubelet text naming field; the others report dropped at line 3.
		rule, field string
		// writtenField is what the kubelets built with Go 1.27 (kubelets.Minor.JSONv2)
		// name instead of field: the key as the drop-in wrote it (case 485).
		writtenField string
		dropped      string
	}{
		{name: "drop-in tlsCurvePreferences not a list", dropIn: `tlsCurvePreferences: "notalist"`,
			refuse: from("1.36"), rule: dropin.DropInMerged.ID, field: "tlsCurvePreferences", dropped: dropin.DropInUnknownField.ID},
		{name: "drop-in defaultPodSysctls a list", dropIn: `defaultPodSysctls: ["net.ipv4.ip_forward=1"]`,
			refuse: from("1.37"), rule: dropin.DropInMerged.ID, field: "defaultPodSysctls", dropped: dropin.DropInUnknownField.ID},
		{name: "drop-in case variant", dropIn: `TLSCurvePreferences: "notalist"`,
			refuse: from("1.36"), rule: dropin.DropInMerged.ID, field: "tlsCurvePreferences", writtenField: "TLSCurvePreferences", dropped: dropin.DropInUnknownField.ID},
		{name: "drop-in object field a scalar", dropIn: `userNamespaces: 65536`,
			refuse: from("1.33"), rule: dropin.DropInMerged.ID, field: "userNamespaces", dropped: dropin.DropInUnknownField.ID},
		{name: "main file tlsCurvePreferences not a list", main: `tlsCurvePreferences: "notalist"`,
			refuse: from("1.36"), rule: source.ConfigDecode.ID, field: "tlsCurvePreferences", dropped: source.UnknownField.ID},
	} {
		for _, v := range all {
			t.Run(tc.name+"/"+v, func(t *testing.T) {
				m, _ := kubelets.Lookup(v)
				dir := t.TempDir()
				in := Input{Config: filepath.Join(dir, "kubelet.yaml"), ConfigDir: filepath.Join(dir, "conf.d")}
				write(t, in.Config, typeMeta+tc.main+"\n")
				write(t, filepath.Join(in.ConfigDir, "10-a.conf"), typeMeta+tc.dropIn+"\n")
				res, err := Evaluate(m, in)
				if err != nil {
					t.Fatal(err)
				}
				file := in.Config
				if tc.dropIn != "" {
					file = filepath.Join(in.ConfigDir, "10-a.conf")
				}
				want, kubelet := tc.dropped, ""
				if tc.refuse[v] {
					field := tc.field
					if m.JSONv2 && tc.writtenField != "" {
						field = tc.writtenField
					}
					want, kubelet = tc.rule, "KubeletConfiguration."+field+" of type"
				}
				if res.Starts == tc.refuse[v] {
					t.Errorf("starts = %v, want %v\n%s", res.Starts, !tc.refuse[v], dump(res.Findings))
				}
				if !hasFinding(res.Findings, want, file, 3, kubelet) {
					t.Errorf("no %s at %s:3 (kubelet text %q)\n%s", want, file, kubelet, dump(res.Findings))
				}
			})
		}
	}
}

// TestMainFileErrorOfTheMinor: without the keys a minor does not have, the main
// file fails on a field it does have, and that is the error it reports.
func TestMainFileErrorOfTheMinor(t *testing.T) {
	dir := t.TempDir()
	in := Input{Config: filepath.Join(dir, "kubelet.yaml")}
	// The kubelet turns YAML into JSON with sorted keys; encoding/json reports
	// the first type error: defaultPodSysctls where it is a field, else maxPods.
	write(t, in.Config, typeMeta+"maxPods: \"many\"\ndefaultPodSysctls: [\"a=b\"]\n")
	for v, field := range map[string]string{"1.31": "maxPods", "1.35": "maxPods", "1.36": "maxPods", "1.37": "defaultPodSysctls"} {
		m, _ := kubelets.Lookup(v)
		res, err := Evaluate(m, in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Starts || !hasFinding(res.Findings, source.ConfigDecode.ID, in.Config, 0, "KubeletConfiguration."+field+" of type") {
			t.Errorf("%s: want a refusal on %s\n%s", v, field, dump(res.Findings))
		}
	}
}

// TestKubeletTextMatchesGoldens: where a refusal at reading or merging quotes the
// kubelet, the quote is what that minor's kubelet printed (the scheme name of its
// k8s.io/apimachinery, 1.31's internal field names), not the newest's.
func TestKubeletTextMatchesGoldens(t *testing.T) {
	// 016: kubeletcfg's scheme does not register kubelet.config.k8s.io/v1
	// CredentialProviderConfig, so its error is "no kind registered" where the
	// kubelet's is "failed to cast object": the same at every minor.
	skip := map[string]bool{"016-wrong-kind-credentialprovider": true}
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		goldens, _ := filepath.Glob(filepath.Join(corpus, "golden", v, "*.json"))
		checked := 0
		for _, g := range goldens {
			name := strings.TrimSuffix(filepath.Base(g), ".json")
			raw, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			var want testcorpus.Golden
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if want.Starts || skip[name] || (want.Stage != "load" && want.Stage != "merge") {
				continue
			}
			dir, _ := filepath.Abs(filepath.Join(corpus, "cases", name))
			in, _ := caseInput(t, dir)
			res, err := Evaluate(m, in)
			if err != nil {
				continue // an input error: no quote
			}
			kubelet := strings.ReplaceAll(want.Error, "$CASE", dir)
			var quotes []string
			for _, f := range res.Findings {
				switch f.Rule {
				case source.ConfigDecode.ID, source.ConfigTypeMeta.ID, dropin.DropInMerged.ID, dropin.DropInDecode.ID, dropin.DropInTypeMeta.ID:
				default:
					continue // gate errors: featuregate lists them in map order
				}
				if f.Severity == finding.Error && f.Kubelet != "" {
					quotes = append(quotes, f.Kubelet)
				}
			}
			if len(quotes) == 0 {
				continue
			}
			checked++
			found := false
			for _, q := range quotes {
				found = found || strings.Contains(kubelet, q)
			}
			if !found {
				t.Errorf("%s %s: no finding quotes the kubelet\n  kubelet: %s\n  quotes:  %q", v, name, kubelet, quotes)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no refusal checked", v)
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hasFinding: a finding of rule in file (at line, unless 0) whose Kubelet text
// contains kubelet.
func hasFinding(fs []finding.Finding, rule, file string, line int, kubelet string) bool {
	for _, f := range fs {
		if f.Rule == rule && f.File == file && (line == 0 || f.Line == line) && strings.Contains(f.Kubelet, kubelet) {
			return true
		}
	}
	return false
}

// compareVersions orders "1.33" and "1.37".
func compareVersions(a, b string) (int, bool) {
	ma, _ := kubelets.Lookup(a)
	mb, _ := kubelets.Lookup(b)
	if ma == nil || mb == nil {
		return 0, false
	}
	ia, ib := 0, 0
	for i, v := range kubelets.Supported() {
		if v == a {
			ia = i
		}
		if v == b {
			ib = i
		}
	}
	return ia - ib, true
}

// TestOverriddenAtEveryMinor: case 488 (EKS nodeadm's 00-overrides.conf before
// 99-defaults.conf) reports both lost values at every minor, 1.31's merge included.
func TestOverriddenAtEveryMinor(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join(corpus, "cases", "488-dropin-override-eks-nodeadm"))
	in, _ := caseInput(t, dir)
	loser := filepath.Join(dir, "conf.d", "00-overrides.conf")
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		res, err := Evaluate(m, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range []int{3, 5} {
			if !hasFinding(res.Findings, dropin.DropInOverridden.ID, loser, line, "") {
				t.Errorf("%s: no KC2011 at 00-overrides.conf:%d\n%s", v, line, dump(res.Findings))
			}
		}
		if res.Effective == nil || res.Effective.MaxPods != 110 {
			t.Errorf("%s: maxPods is not 99-defaults.conf's 110", v)
		}
	}
}
