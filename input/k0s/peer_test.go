package k0s

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// The peer suite: k0s's own tests at v1.36.3+k0s.2, their inputs and
// expectations as data files (testdata/bootstrappers/k0s/ORIGIN.md).

const fixtures = "../../testdata/bootstrappers/k0s"

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// canonical decodes a KubeletConfiguration JSON into the typed configuration
// and marshals it again, as k0s's test compares them (assert.JSONEq of two
// json.Marshal outputs).
func canonical(t *testing.T, data []byte) string {
	t.Helper()
	var kc kubeletv1beta1.KubeletConfiguration
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&kc); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	out, err := json.Marshal(&kc)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func rulesOf(fs []finding.Finding, rule string) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// TestReconcilerResourceGeneration ports TestReconciler_ResourceGeneration
// (pkg/component/controller/workerconfig/reconciler_test.go): the
// kubeletConfiguration of each worker-config ConfigMap.
func TestReconcilerResourceGeneration(t *testing.T) {
	data := readFixture(t, "reconciler/k0s.yaml")
	names, err := Profiles(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(names, ","), "profile_XXX,profile_YYY,profile_ZZZ,default"; got != want {
		t.Errorf("Profiles = %s, want %s", got, want)
	}
	for _, name := range []string{"default", "default-windows", "profile_XXX", "profile_YYY", "profile_ZZZ"} {
		t.Run(name, func(t *testing.T) {
			tr, err := translate("k0s.yaml", data, name, bootstrap.Options{Minor: "1.36"})
			if err != nil {
				t.Fatal(err)
			}
			want := canonical(t, readFixture(t, "reconciler/expected/"+name+".json"))
			if got := canonical(t, tr.configMap); got != want {
				t.Errorf("ConfigMap kubeletConfiguration:\n got %s\nwant %s", got, want)
			}
			// The test's profile names have an underscore, which
			// WorkerProfile.Validate refuses (the reconciler's test does not
			// validate the ClusterConfig).
			refusals := rulesOf(tr.out.Findings, bootstrap.Refuses.ID)
			if strings.HasPrefix(name, "profile_") {
				if len(refusals) != 1 || !strings.Contains(refusals[0].Message, ".name: Invalid value: \""+name+"\": a lowercase RFC 1123 label must consist of") {
					t.Errorf("refusals = %+v, want the name's", refusals)
				}
			} else if len(refusals) != 0 {
				t.Errorf("refusals = %+v, want none", refusals)
			}
		})
	}
}

// TestWorkerProfileValidation ports TestWorkerProfiles/worker_profile_validation
// (pkg/apis/k0s/v1beta1/workerprofile_test.go).
func TestWorkerProfileValidation(t *testing.T) {
	var cases []struct {
		Name              string         `json:"name"`
		Values            map[string]any `json:"values"`
		Msg               string         `json:"msg"`
		Path              string         `json:"path"`
		KubeletValidation string         `json:"kubeletValidation"`
	}
	if err := sigsyaml.Unmarshal(readFixture(t, "workerprofile/cases.yaml"), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 9 {
		t.Fatalf("%d cases, want the 9 of workerprofile_test.go", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			values, err := json.Marshal(tc.Values)
			if err != nil {
				t.Fatal(err)
			}
			doc := "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspec:\n  workerProfiles:\n  - name: test-case\n    values: " + string(values) + "\n"
			out, err := Translate("k0s.yaml", []byte(doc), bootstrap.Options{Minor: "1.36"})
			if err != nil {
				t.Fatal(err)
			}
			refusals := rulesOf(out.Findings, bootstrap.Refuses.ID)
			if tc.Msg == "" {
				if len(refusals) != 0 {
					t.Errorf("refusals = %+v, want none", refusals)
				}
				return
			}
			if len(refusals) != 1 {
				t.Fatalf("refusals = %+v, want one", refusals)
			}
			f := refusals[0]
			if !strings.Contains(f.Message, "k0s refuses the ClusterConfig: "+tc.Msg+" (") {
				t.Errorf("message %q\nwant k0s's %q", f.Message, tc.Msg)
			}
			if f.Path != tc.Path || f.Severity != finding.Error {
				t.Errorf("path %q severity %v, want %q error", f.Path, f.Severity, tc.Path)
			}
			if f.Line != 6 {
				t.Errorf("at line %d, want 6 (values)", f.Line)
			}
		})
	}
}

// TestWorkerProfileNames ports TestWorkerProfiles/name_validation.
func TestWorkerProfileNames(t *testing.T) {
	var cases []struct {
		Name string   `json:"name"`
		Msg  []string `json:"msg"`
	}
	if err := sigsyaml.Unmarshal(readFixture(t, "workerprofile/names.yaml"), &cases); err != nil {
		t.Fatal(err)
	}
	doc := "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspec:\n  workerProfiles:\n"
	for _, tc := range cases {
		doc += "  - name: \"" + tc.Name + "\"\n    values: {}\n"
	}
	for i, tc := range cases {
		out, err := TranslateProfile("k0s.yaml", []byte(doc), tc.Name, bootstrap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		refusals := rulesOf(out.Findings, bootstrap.Refuses.ID)
		if len(tc.Msg) == 0 {
			if len(refusals) != 0 {
				t.Errorf("%q: refusals %+v, want none", tc.Name, refusals)
			}
			continue
		}
		if len(refusals) != 1 {
			t.Errorf("%q: refusals %+v, want one", tc.Name, refusals)
			continue
		}
		for _, m := range tc.Msg {
			if m = strings.ReplaceAll(m, "nameValidation", "workerProfiles"); !strings.Contains(refusals[0].Message, m) {
				t.Errorf("%q: message %q lacks %q", tc.Name, refusals[0].Message, m)
			}
		}
		if want := 5 + 2*i; refusals[0].Line != want {
			t.Errorf("%q: at line %d, want %d (the name)", tc.Name, refusals[0].Line, want)
		}
	}
}

// TestDocsExamples runs the worker profile examples of k0s's documentation:
// each value reaches the kubelet's configuration; the docs' custom-pluginDir
// is a name k0s refuses.
func TestDocsExamples(t *testing.T) {
	data := readFixture(t, "docs/configuration-examples.yaml")
	names, err := Profiles(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(names, ","), "custom-pluginDir,custom-eviction,systemd-docker-cri,default,coreos"; got != want {
		t.Errorf("Profiles = %s, want %s", got, want)
	}
	want := map[string]map[string]any{
		"custom-pluginDir":   {"volumePluginDir": "/var/libexec/k0s/kubelet-plugins/volume/exec"},
		"custom-eviction":    {"evictionHard": map[string]any{"memory.available": "500Mi", "nodefs.available": "1Gi", "imagefs.available": "100Gi"}, "evictionMinimumReclaim": map[string]any{"memory.available": "0Mi", "nodefs.available": "500Mi", "imagefs.available": "2Gi"}, "allowedUnsafeSysctls": []any{"fs.inotify.max_user_instances"}},
		"systemd-docker-cri": {"cgroupDriver": "systemd"},
		"default":            {"failCgroupV1": false},
		"coreos":             {"volumePluginDir": "/etc/k0s/kubelet-plugins/volume/exec/"},
	}
	for _, name := range names {
		out, err := TranslateProfile("k0s.yaml", data, name, bootstrap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var cfg map[string]any
		if err := sigsyaml.Unmarshal(out.Config.Data, &cfg); err != nil {
			t.Fatal(err)
		}
		for k, v := range want[name] {
			got, _ := json.Marshal(cfg[k])
			exp, _ := json.Marshal(v)
			if !bytes.Equal(got, exp) {
				t.Errorf("%s: %s = %s, want %s", name, k, got, exp)
			}
		}
		var bad []string
		for _, f := range out.Findings {
			if f.Rule != bootstrap.AtBoot.ID {
				bad = append(bad, f.Rule+" "+f.Message)
			}
		}
		if name == "custom-pluginDir" {
			if len(bad) != 1 || !strings.Contains(bad[0], `KC9001 k0s refuses the ClusterConfig: workerProfiles[0].name: Invalid value: "custom-pluginDir"`) {
				t.Errorf("%s: findings %q, want the name refused", name, bad)
			}
		} else if len(bad) != 0 {
			t.Errorf("%s: findings %q, want none", name, bad)
		}
	}
}
