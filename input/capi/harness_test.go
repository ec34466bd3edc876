package capi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// capiAdditional are the ClusterConfiguration fields CAPI fills from objects other
// than the manifest (computeClusterConfigurationAndAdditionalData: the Machine's
// version, the Cluster's name); the harness assumes v<minor>.0 and no Cluster. kubeadm's
// kubelet-start phase reads neither, and kubeletcfg does not invent them.
var capiAdditional = []string{"kubernetesVersion", "clusterName"}

// capiTestdata holds the Cluster API fixtures (and the harness's goldens).
const capiTestdata = "../../testdata/bootstrappers/capi/"

// TestCAPIHarnessGoldens: the kubeadm documents kubeletcfg's port builds for each
// Cluster API fixture (kubeadmDocs) are those Cluster API v1.14.2 writes
// (conformance/capi: CAPI's own ComputeDesiredKubeadmConfig and
// Marshal{Cluster,Init,Join}ConfigurationForVersion; make capi-golden), at every minor:
// the same kubeadm fields and values, kubeletExtraArgs in order, taints, criSocket,
// patches directory. A null or an empty mapping is the field left out (kubeadm's
// decoder reads both as unset). A control plane fixture's <fixture>.join.yaml is
// what CAPI writes for its joining machines (ComputeDesiredKubeadmConfig with
// isJoin, joinControlplane: the JoinConfiguration alone), compared with the
// JoinConfiguration of its join object (JoinSuffix); the ClusterConfiguration
// kubeadm join reads is the cluster's, the first machine's, compared in the
// fixture's own golden.
func TestCAPIHarnessGoldens(t *testing.T) {
	dirs, err := filepath.Glob(capiTestdata + "golden/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no goldens under %sgolden (make capi-golden): %v", capiTestdata, err)
	}
	for _, dir := range dirs {
		minor := filepath.Base(dir)
		goldens, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, g := range goldens {
			name := filepath.Base(g)
			t.Run(minor+"/"+name, func(t *testing.T) {
				fixture, join := strings.CutSuffix(name, ".join.yaml")
				if join {
					fixture += ".yaml"
				}
				data, err := os.ReadFile(capiTestdata + fixture)
				if err != nil {
					t.Fatal(err)
				}
				opt := bootstrap.Options{Minor: minor}
				if join {
					opt.Object = joinObject(t, data)
				}
				c, err := translateCAPI(fixture, data, opt)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]any{}
				for _, d := range c.kdocs {
					if join && d.Kind != "JoinConfiguration" {
						continue
					}
					var v any
					if err := d.Root.Decode(&v); err != nil {
						t.Fatal(err)
					}
					got[d.Kind] = capiNormal(t, v)
				}
				want := map[string]any{}
				gdata, err := os.ReadFile(g)
				if err != nil {
					t.Fatal(err)
				}
				for _, doc := range bytes.Split(gdata, []byte("---\n")) {
					var v any
					if err := sigsyaml.Unmarshal(doc, &v); err != nil {
						t.Fatal(err)
					}
					m, _ := capiNormal(t, v).(map[string]any)
					if m["kind"] == "ClusterConfiguration" {
						for _, k := range capiAdditional {
							delete(m, k)
						}
					}
					kind, _ := m["kind"].(string)
					want[kind] = m
				}
				if !reflect.DeepEqual(got, want) {
					gj, _ := json.MarshalIndent(got, "", "  ")
					wj, _ := json.MarshalIndent(want, "", "  ")
					t.Errorf("kubeletcfg's kubeadm documents differ from Cluster API's (%s):\n got: %s\nwant: %s", g, gj, wj)
				}
			})
		}
	}
}

// joinObject is the object name of the joining machines of the manifest's
// control plane kind.
func joinObject(t *testing.T, data []byte) string {
	t.Helper()
	for _, o := range Objects(data) {
		if strings.HasSuffix(o, JoinSuffix) {
			return o
		}
	}
	t.Fatalf("no control plane kind: objects %v", Objects(data))
	return ""
}

// capiNormal is v through JSON, with nulls and empty mappings left out.
func capiNormal(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return prune(out)
}

func prune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			e = prune(e)
			if m, ok := e.(map[string]any); e == nil || ok && len(m) == 0 {
				delete(x, k)
				continue
			}
			x[k] = e
		}
		return x
	case []any:
		for i := range x {
			x[i] = prune(x[i])
		}
	}
	return v
}

// TestCAPIHarnessGoldensCover: every Cluster API fixture has a golden at every minor.
func TestCAPIHarnessGoldensCover(t *testing.T) {
	fixtures, _ := filepath.Glob(capiTestdata + "*.yaml")
	for _, m := range []string{"1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37", "1.38"} {
		for _, f := range fixtures {
			g := filepath.Join(capiTestdata, "golden", m, filepath.Base(f))
			if _, err := os.Stat(g); err != nil {
				t.Errorf("%s: no golden (make capi-golden)", strings.TrimPrefix(g, capiTestdata))
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(Objects(data), func(o string) bool { return strings.HasSuffix(o, JoinSuffix) }) {
				continue
			}
			g = strings.TrimSuffix(g, ".yaml") + ".join.yaml"
			if _, err := os.Stat(g); err != nil {
				t.Errorf("%s: no golden of the joining machines (make capi-golden)", strings.TrimPrefix(g, capiTestdata))
			}
		}
	}
}
