package kubelets

import (
	"encoding/json"
	"errors"
	"io/fs"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/internal/testonly/schemacheck"
)

// schemaMinors are the supported minors whose schema.json has been generated.
// The newest must have one; an older minor without one is skipped until
// `make generate` writes it.
func schemaMinors(t *testing.T) []*Minor {
	t.Helper()
	var out []*Minor
	for _, v := range Supported() {
		m, err := Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Schema(); err != nil {
			if m == Newest() || !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %v", v, err)
			} else {
				t.Logf("%s: no schema.json yet (make generate)", v)
			}
			continue
		}
		out = append(out, m)
	}
	return out
}

func TestSchemaCompiles(t *testing.T) {
	for _, m := range schemaMinors(t) {
		raw, _ := m.Schema()
		var head struct {
			Schema  string `json:"$schema"`
			ID      string `json:"$id"`
			Comment string `json:"$comment"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			t.Fatalf("%s: %v", m.Version, err)
		}
		if head.Schema != "https://json-schema.org/draft/2020-12/schema" || !strings.Contains(head.ID, "/"+m.Version+"/") ||
			!strings.Contains(head.Comment, "DO NOT EDIT") || !strings.Contains(head.Comment, m.Patch) {
			t.Errorf("%s: header %+v", m.Version, head)
		}
		if _, err := schemacheck.Compile(raw); err != nil {
			t.Fatalf("%s: %v", m.Version, err)
		}
	}
}

// validateYAML validates a document as editors and kubeconform see it: YAML
// converted to JSON.
func validateYAML(t *testing.T, m *Minor, doc string) error {
	t.Helper()
	raw, _ := m.Schema()
	s, err := schemacheck.Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	v, err := schemacheck.Decode(j)
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// leaves flattens a validation error to its innermost causes.
func leaves(err error) []*jsonschema.ValidationError {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []*jsonschema.ValidationError
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

const head = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

func TestSchemaAcceptsValidConfigs(t *testing.T) {
	for _, doc := range []string{
		head,
		head + `
maxPods: 110
podPidsLimit: null        # a pointer: null is unset
syncFrequency: 1m30s
imageMinimumGCAge: "0"
authorization:
  mode: Webhook
  webhook:
    cacheAuthorizedTTL: 5m0s
authentication:
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
  anonymous:
    enabled: false
featureGates:
  KubeletCrashLoopBackOffMax: true
evictionHard:
  memory.available: 100Mi
crashLoopBackOff:
  maxContainerRestartPeriod: 30s
registerWithTaints:
- key: dedicated
  value: gpu
  effect: NoSchedule
  timeAdded: "2026-01-02T03:04:05Z"
reservedMemory:
- numaNode: 0
  limits:
    memory: 1Gi
- numaNode: 1
  limits:
    memory: 1073741824
shutdownGracePeriodByPodPriority:
- priority: 100000
  shutdownGracePeriodSeconds: 30
logging:
  format: json
  flushFrequency: 5000000000
  verbosity: 4
  options:
    json:
      infoBufferSize: 0
configMapAndSecretChangeDetectionStrategy: ""
`,
	} {
		if err := validateYAML(t, Newest(), doc); err != nil {
			t.Errorf("%v\n%s", err, doc)
		}
	}
}

func TestSchemaRejects(t *testing.T) {
	tests := []struct {
		name, doc string
		// the innermost error: where it points and which keyword fails
		instance, keyword, message string
	}{
		{"unknown top-level key", head + "maxPod: 110\n", "", "/additionalProperties", "maxPod"},
		{"unknown nested key", head + "authentication:\n  x509:\n    clientCAFil: /ca.crt\n", "/authentication/x509", "/additionalProperties", "clientCAFil"},
		{"key differs in case", head + "MaxPods: 110\n", "", "/additionalProperties", "MaxPods"},
		{"wrong type", head + "maxPods: \"110\"\n", "/maxPods", "/type", "expected integer"},
		{"int32 overflow", head + "maxPods: 2147483648\n", "/maxPods", "/maximum", ""},
		{"negative unsigned", head + "logging:\n  verbosity: -1\n", "/logging/verbosity", "/minimum", ""},
		{"not a Go duration", head + "syncFrequency: PT1M\n", "/syncFrequency", "/pattern", ""},
		{"duration without unit", head + "syncFrequency: 60\n", "/syncFrequency", "/type", ""},
		{"not a quantity", head + "reservedMemory:\n- numaNode: 0\n  limits:\n    memory: 1GB\n", "/reservedMemory/0/limits/memory", "/pattern", ""},
		{"not an enum value", head + "authorization:\n  mode: webhook\n", "/authorization/mode", "/enum", ""},
		{"null for a non-pointer", head + "syncFrequency: null\n", "/syncFrequency", "/type", ""},
		{"wrong apiVersion", "apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n", "/apiVersion", "/const", ""},
		{"no kind", "apiVersion: kubelet.config.k8s.io/v1beta1\n", "", "/required", "kind"},
		{"bad map value", head + "featureGates:\n  Foo: \"true\"\n", "/featureGates/Foo", "/type", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validateYAML(t, Newest(), tt.doc)
			if err == nil {
				t.Fatalf("valid:\n%s", tt.doc)
			}
			ls := leaves(err)
			if len(ls) != 1 {
				t.Fatalf("want one error, got %#v", err)
			}
			e := ls[0]
			if e.InstanceLocation != tt.instance || !strings.HasSuffix(e.KeywordLocation, tt.keyword) || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got instance %q keyword %q message %q; want instance %q keyword ...%s message ~%q",
					e.InstanceLocation, e.KeywordLocation, e.Message, tt.instance, tt.keyword, tt.message)
			}
		})
	}
}

// node is the part of a schema the walk below needs.
type node struct {
	Type                 any              `json:"type"`
	Properties           map[string]*node `json:"properties"`
	Items                *node            `json:"items"`
	AdditionalProperties json.RawMessage  `json:"additionalProperties"`
	Description          string           `json:"description"`
	FeatureGates         []string         `json:"x-kubernetes-feature-gates"`
}

// schemaPaths lists the field paths of a schema in the field table's notation
// (list items "a[]", map values "a[*]"), with each path's node.
func schemaPaths(n *node, prefix string, out map[string]*node) {
	for name, p := range n.Properties {
		path := prefix + name
		out[path] = p
		sub, suffix := p, ""
		for {
			if sub.Items != nil {
				sub, suffix = sub.Items, suffix+"[]"
				continue
			}
			var elem node
			if len(sub.AdditionalProperties) > 0 && sub.AdditionalProperties[0] == '{' && json.Unmarshal(sub.AdditionalProperties, &elem) == nil {
				sub, suffix = &elem, suffix+"[*]"
				continue
			}
			break
		}
		if sub.Properties != nil {
			schemaPaths(sub, path+suffix+".", out)
		}
	}
}

// Every field path of data/<minor>/fields.json is in the schema, and the schema has
// no other: the walk of both trees, with kinds, docs and feature gates.
func TestSchemaMatchesFieldTable(t *testing.T) {
	for _, m := range schemaMinors(t) {
		raw, _ := m.Schema()
		var root node
		if err := json.Unmarshal(raw, &root); err != nil {
			t.Fatal(err)
		}
		got := map[string]*node{}
		schemaPaths(&root, "", got)
		infos, err := m.FieldInfos()
		if err != nil {
			t.Fatal(err)
		}
		if len(infos) == 0 {
			t.Fatalf("%s: empty field table", m.Version)
		}
		want := map[string]bool{}
		for _, f := range infos {
			want[f.Path] = true
			n := got[f.Path]
			if n == nil {
				t.Errorf("%s: %s (%s) is not in the schema", m.Version, f.Path, f.GoType)
				continue
			}
			types := typeSet(n.Type)
			var ok bool
			switch f.Kind {
			case "object":
				ok = types["object"] && string(n.AdditionalProperties) == "false" && n.Properties != nil
			case "map":
				ok = types["object"] && strings.HasPrefix(string(n.AdditionalProperties), "{")
			case "list":
				ok = types["array"] && n.Items != nil
			case "scalar":
				ok = !types["object"] && !types["array"]
			}
			if !ok {
				t.Errorf("%s: %s is a %s (%s), schema type %v", m.Version, f.Path, f.Kind, f.GoType, n.Type)
			}
			if f.Doc != n.Description {
				t.Errorf("%s: %s: description %q, want the doc comment %q", m.Version, f.Path, n.Description, f.Doc)
			}
			if strings.Join(f.FeatureGates, ",") != strings.Join(n.FeatureGates, ",") {
				t.Errorf("%s: %s: feature gates %v, want %v", m.Version, f.Path, n.FeatureGates, f.FeatureGates)
			}
		}
		var extra []string
		for p := range got {
			if !want[p] {
				extra = append(extra, p)
			}
		}
		sort.Strings(extra)
		if len(extra) > 0 {
			t.Errorf("%s: schema paths not in fields.json: %v", m.Version, extra)
		}
	}
}

func typeSet(t any) map[string]bool {
	out := map[string]bool{}
	switch t := t.(type) {
	case string:
		out[t] = true
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out[s] = true
			}
		}
	}
	return out
}
