package k0s

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// The replica types decode as k0s v1.36.3+k0s.2's of the same names do
// (pkg/apis/k0s/v1beta1): ClusterConfig.UnmarshalJSON with its own Decoder
// and DisallowUnknownFields, Network.UnmarshalJSON and Calico.UnmarshalJSON
// with json.Unmarshal; the other types have no UnmarshalJSON. Only the fields
// the cases use are kept.
type replicaConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              *replicaSpec `json:"spec,omitempty"`
}

func (c *replicaConfig) UnmarshalJSON(data []byte) error {
	type config replicaConfig
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	return decoder.Decode((*config)(c))
}

type replicaSpec struct {
	Network        *replicaNetwork `json:"network,omitempty"`
	WorkerProfiles []struct {
		Name   string                `json:"name"`
		Config *runtime.RawExtension `json:"values,omitempty"`
	} `json:"workerProfiles,omitempty"`
	Telemetry *struct {
		Enabled bool `json:"enabled"`
	} `json:"telemetry,omitempty"`
	ControllerManager *struct {
		ExtraArgs map[string]string `json:"extraArgs,omitempty"`
	} `json:"controllerManager,omitempty"`
}

type replicaNetwork struct {
	ServiceCIDR string         `json:"serviceCIDR"`
	Calico      *replicaCalico `json:"calico"`
}

func (n *replicaNetwork) UnmarshalJSON(data []byte) error {
	type network replicaNetwork
	return json.Unmarshal(data, (*network)(n))
}

type replicaCalico struct {
	MTU int `json:"mtu"`
}

func (c *replicaCalico) UnmarshalJSON(data []byte) error {
	type calico replicaCalico
	return json.Unmarshal(data, (*calico)(c))
}

// replicaConfigFromBytes is ConfigFromBytes: MergedWithYAML's
// strictyaml.YamlUnmarshalStrictIgnoringFields (internal/pkg/strictyaml),
// yaml.UnmarshalStrict into a pointer to an interface holding the config,
// its loop over the ignored names as k0s writes it: once "interval" set err
// to nil, err.Error() for "podSecurityPolicy" panics, reported here as
// panicked.
func replicaConfigFromBytes(in []byte) (err error, panicked bool) {
	defer func() {
		if recover() != nil {
			err, panicked = nil, true
		}
	}()
	var out any = &replicaConfig{}
	err = sigsyaml.UnmarshalStrict(in, &out)
	if err != nil {
		for _, field := range []string{"interval", "podSecurityPolicy"} {
			unknownFieldErr := fmt.Sprintf("unknown field \"%s\"", field)
			if strings.Contains(err.Error(), unknownFieldErr) {
				err = nil
			}
		}
		return err, false
	}
	return nil, false
}

// TestRefusalAsK0s checks the translation's refusals against what k0s's
// decoding, replicated with the library k0s links (sigs.k8s.io/yaml
// v1.6.0), says of the same file: no refusal where it accepts the file, and
// where it refuses it, a refusal with its error, at the key it names.
func TestRefusalAsK0s(t *testing.T) {
	const top = "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\n"
	tests := []struct {
		name, doc string
		key       string // the key k0s's error names, "" when k0s accepts the file
	}{
		{"accepted", top + "metadata:\n  name: k0s\nspec:\n  network:\n    serviceCIDR: 10.96.0.0/12\n", ""},
		{"spec typo", top + "spec:\n  netwrok: {}\n", "netwrok"},
		{"metadata typo", top + "metadata:\n  nmae: k0s\n", "nmae"},
		{"top-level typo", top + "spc: {}\n", "spc"},
		{"case", top + "Spec:\n  Network:\n    ServiceCIDR: 10.96.0.0/12\n", ""},
		{"profile entry", top + "spec:\n  workerProfiles:\n  - name: p\n    value: {}\n", "value"},
		{"profile values", top + "spec:\n  workerProfiles:\n  - name: p\n    values:\n      anything: 1\n", ""},
		{"free-form map", top + "spec:\n  controllerManager:\n    extraArgs:\n      anything: x\n", ""},
		{"lenient network", top + "spec:\n  network:\n    netwrok: 1\n    calico:\n      mtuu: 1\n", ""},
		// encoding/json meets the keys sorted (sigs.k8s.io/yaml marshals a
		// map) and returns its first error: aa before spec's zz, below spec.
		{"first of two", top + "zz: 1\nspec:\n  bb: 1\naa: 1\n", "aa"},
		{"first below", top + "spec:\n  bb: 1\nzz: 1\n", "bb"},
		{"podSecurityPolicy first", top + "spec:\n  podSecurityPolicy: {}\n  zz: 1\n", ""},
		{"podSecurityPolicy after", top + "spec:\n  aa: 1\n  podSecurityPolicy: {}\n", "aa"},
		{"interval first", top + "spec:\n  telemetry:\n    interval: 10m\n", "interval"},
		{"interval after", top + "spec:\n  aa: 1\n  telemetry:\n    interval: 10m\n", "aa"},
		{"merge key", top + "base: &b\n  serviceCIDR: 10.96.0.0/12\n  cidr: x\nspec:\n  network:\n    <<: *b\n", "base"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err, panicked := replicaConfigFromBytes([]byte(tt.doc))
			if (err == nil && !panicked) != (tt.key == "") {
				t.Fatalf("replica: %v (panicked: %v); the case says k0s refuses %q", err, panicked, tt.key)
			}
			out := translateDoc(t, tt.doc, bootstrap.Options{})
			var refusals []string
			for _, f := range out.Findings {
				if f.Rule == bootstrap.Refuses.ID {
					refusals = append(refusals, f.Message)
				}
			}
			if panicked {
				if len(refusals) != 1 || !strings.Contains(refusals[0], "k0s panics reading the ClusterConfig") || !strings.Contains(refusals[0], fmt.Sprintf("%q", tt.key)) {
					t.Errorf("k0s panics; refusals %q", refusals)
				}
				return
			}
			if err == nil {
				if len(refusals) != 0 {
					t.Errorf("k0s accepts the file; refusals %q", refusals)
				}
				return
			}
			want := "k0s refuses the ClusterConfig: " + err.Error() + " ("
			found := false
			for _, m := range refusals {
				found = found || strings.HasPrefix(m, want)
			}
			if !found || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.key)) {
				t.Errorf("k0s: %v; refusals %q", err, refusals)
			}
		})
	}
}

// TestStrayKeysOrder checks the order strayKeys lists the keys in: the order
// encoding/json meets them (sorted by key at each level, depth first).
func TestStrayKeysOrder(t *testing.T) {
	doc := "zz: 1\nspec:\n  workerProfiles:\n  - values: {x: 1}\n    nmae: p\n  bb: 1\n  network:\n    zz: 1\naa: 1\n"
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range strayKeys(root.Content[0]) {
		got = append(got, fmt.Sprintf("%s %v", s.path, s.strict))
	}
	want := []string{"aa true", "spec.bb true", "spec.network.zz false", "spec.workerProfiles[0].nmae true", "zz true"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestKeyTypes checks the generated table is whole: every type a field names
// is in it or a scalar, and the decoding modes the translation depends on.
func TestKeyTypes(t *testing.T) {
	scalars := map[string]bool{"string": true, "bool": true, "int": true, "int32": true, "int64": true, "uint32": true, "any": true}
	for name, kt := range keyTypes {
		for _, f := range kt.fields {
			typ := f.typ
			for {
				if s, ok := strings.CutPrefix(typ, "[]"); ok {
					typ = s
				} else if s, ok := strings.CutPrefix(typ, "map[string]"); ok {
					typ = s
				} else {
					break
				}
			}
			if _, ok := keyTypes[typ]; !ok && !scalars[typ] {
				t.Errorf("%s.%s: type %s is neither in keyTypes nor a scalar", name, f.name, typ)
			}
		}
	}
	for typ, want := range map[string]decodeMode{
		rootType:                  fieldsStrict,
		"k0s/v1beta1.ClusterSpec": fieldsInherit,
		"k0s/v1beta1.Network":     fieldsLenient,
		"k0s/v1beta1.APISpec":     fieldsLenient,
		"meta/v1.ObjectMeta":      fieldsInherit,
		"runtime.RawExtension":    freeForm,
		"meta/v1.Time":            freeForm,
	} {
		if got := keyTypes[typ].decode; got != want {
			t.Errorf("%s: decode %d, want %d", typ, got, want)
		}
	}
}
