package dropin

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/utils/ptr"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// internalKeysOf is what the harness generates for the internal type: Go field
// names, except where v1beta1 renamed a field (resolvConf is ResolverConfig).
func internalKeysOf(tree *kubelets.Field) map[string]string {
	out := map[string]string{}
	var walk func(f *kubelets.Field, path, internal string)
	walk = func(f *kubelets.Field, path, internal string) {
		for name, c := range f.Children {
			goName := string(name[0]-'a'+'A') + name[1:]
			if name == "resolvConf" {
				goName = "ResolverConfig"
			}
			p, ip := kubelets.JoinPath(path, name), kubelets.JoinPath(internal, goName)
			out[p] = ip
			if c.Kind == kubelets.Object {
				walk(c, p, ip)
			}
		}
	}
	walk(tree, "", "")
	return out
}

func TestLegacyMerge(t *testing.T) {
	tree := kubelets.Default().Fields()
	onto := &kubeletv1beta1.KubeletConfiguration{
		MaxPods:             110,
		ResolverConfig:      ptr.To("/etc/resolv.conf"),
		EvictionHard:        map[string]string{"memory.available": "100Mi"},
		ClusterDNS:          []string{"10.0.0.1", "10.0.0.2"},
		SerializeImagePulls: ptr.To(true),
	}
	tests := []struct {
		name    string
		dropIns []string
		check   func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration)
	}{
		{"a key matching the internal name applies", []string{"maxPods: 50\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if kc.MaxPods != 50 {
				t.Errorf("maxPods = %d, want 50", kc.MaxPods)
			}
		}},
		{"a renamed field's v1beta1 name is ignored", []string{"resolvConf: /run/resolv.conf\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if *kc.ResolverConfig != "/etc/resolv.conf" {
				t.Errorf("resolvConf = %s, want the main file's", *kc.ResolverConfig)
			}
		}},
		{"the internal name of a renamed field applies", []string{"resolverConfig: /run/resolv.conf\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if *kc.ResolverConfig != "/run/resolv.conf" {
				t.Errorf("resolvConf = %s, want /run/resolv.conf", *kc.ResolverConfig)
			}
		}},
		{"maps are merged into, lists replaced", []string{"evictionHard:\n  nodefs.available: 5%\nclusterDNS: [10.9.9.9]\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if len(kc.EvictionHard) != 2 || len(kc.ClusterDNS) != 1 {
				t.Errorf("evictionHard = %v, clusterDNS = %v", kc.EvictionHard, kc.ClusterDNS)
			}
		}},
		{"null does not remove the main file's value", []string{"maxPods: null\nserializeImagePulls: null\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if kc.MaxPods != 110 || kc.SerializeImagePulls == nil || !*kc.SerializeImagePulls {
				t.Errorf("maxPods = %d, serializeImagePulls = %v", kc.MaxPods, kc.SerializeImagePulls)
			}
		}},
		{"null removes an earlier drop-in's value", []string{"maxPods: 50\n", "maxPods: null\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if kc.MaxPods != 110 {
				t.Errorf("maxPods = %d, want the main file's 110", kc.MaxPods)
			}
		}},
		{"the last of two spellings wins in key order", []string{"MaxPods: 30\nmaxPods: 40\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if kc.MaxPods != 40 {
				t.Errorf("maxPods = %d, want 40 (sorted keys: MaxPods, then maxPods)", kc.MaxPods)
			}
		}},
		{"another kind is merged all the same", []string{"maxPods: 70\n"}, func(t *testing.T, kc *kubeletv1beta1.KubeletConfiguration) {
			if kc.MaxPods != 70 {
				t.Errorf("maxPods = %d, want 70", kc.MaxPods)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var entries []Entry
			for i, body := range tc.dropIns {
				kind := hdr
				if tc.name == "another kind is merged all the same" {
					kind = "apiVersion: v1\nkind: ConfigMap\n"
				}
				p := filepath.Join(dir, string(rune('a'+i))+".conf")
				if err := os.WriteFile(p, []byte(kind+body), 0o644); err != nil {
					t.Fatal(err)
				}
				entries = append(entries, Entry{Path: p, Conf: true})
			}
			res, err := Merge(nil, entries, Options{Tree: tree, Legacy: &Legacy{Onto: onto, InternalKeys: internalKeysOf(tree)}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Config == nil {
				t.Fatalf("refused: %v", res.Findings)
			}
			tc.check(t, res.Config)
			if onto.MaxPods != 110 {
				t.Fatal("Merge modified Legacy.Onto")
			}
		})
	}
}

func TestLegacyKeyFindings(t *testing.T) {
	tree := kubelets.Default().Fields()
	onto := &kubeletv1beta1.KubeletConfiguration{MaxPods: 110}
	tests := []struct {
		name, body, legacyRule, rule string
	}{
		{"renamed field", "resolvConf: /run/resolv.conf\n", "KC2005", ""},
		{"internal name", "resolverConfig: /run/resolv.conf\n", "", "KC2005"},
		{"null", "maxPods: null\n", "KC2010", ""},
		{"value", "maxPods: 5\n", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "a.conf")
			if err := os.WriteFile(p, []byte(hdr+tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, legacy := range []bool{true, false} {
				opt := Options{Tree: tree}
				base := []byte(`{}`)
				if legacy {
					opt.Legacy = &Legacy{Onto: onto, InternalKeys: internalKeysOf(tree)}
				}
				res, err := Merge(base, []Entry{{Path: p, Conf: true}}, opt)
				if err != nil {
					t.Fatal(err)
				}
				var rules []string
				for _, f := range res.Findings {
					rules = append(rules, f.Rule)
				}
				want := tc.rule
				if legacy {
					want = tc.legacyRule
				}
				got := ""
				if len(rules) > 0 {
					got = rules[0]
				}
				if got != want || len(rules) > 1 {
					t.Errorf("legacy=%v: findings %v, want [%s]", legacy, rules, want)
				}
			}
		})
	}
}

// TestLegacyTypeErrorText: kubelet 1.31 decodes the merged drop-ins into its
// internal type, so its type errors name that type's fields and package (the
// goldens of cases 141, 142, 489 and 490 at 1.31).
func TestLegacyTypeErrorText(t *testing.T) {
	m, err := kubelets.Lookup("1.31")
	if err != nil {
		t.Fatal(err)
	}
	names, err := m.InternalNames()
	if err != nil {
		t.Fatal(err)
	}
	l := &Legacy{InternalKeys: names}
	for doc, want := range map[string]string{
		`{"maxPods":"50"}`: "json: cannot unmarshal string into Go struct field KubeletConfiguration.MaxPods of type int32",
		`{"authentication":{"anonymous":{"enabled":"no"}}}`: "json: cannot unmarshal string into Go struct field KubeletAnonymousAuthentication.Authentication.Anonymous.Enabled of type bool",
		`{"memorySwap":"NoSwap"}`:                           "json: cannot unmarshal string into Go struct field KubeletConfiguration.MemorySwap of type config.MemorySwapConfiguration",
		`{"registerWithTaints":[{"key":5}]}`:                "json: cannot unmarshal number into Go struct field Taint.RegisterWithTaints.key of type string",
	} {
		var kc kubeletv1beta1.KubeletConfiguration
		err := json.Unmarshal([]byte(doc), &kc)
		var ute *json.UnmarshalTypeError
		if !errors.As(err, &ute) {
			t.Fatalf("%s: %v", doc, err)
		}
		if got := l.typeErrorText(ute, m.Fields()); got != want {
			t.Errorf("%s:\n got %s\nwant %s", doc, got, want)
		}
	}
}
