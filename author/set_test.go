package author

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func newestSchema(t *testing.T) *Schema {
	t.Helper()
	s, err := SchemaOf(kubelets.Default())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseSet(t *testing.T) {
	s := newestSchema(t)
	tests := []struct {
		expr  string
		path  string
		value any
		del   bool
		notes int
	}{
		{"crashLoopBackOff.maxContainerRestartPeriod=30s", "crashLoopBackOff.maxContainerRestartPeriod", "30s", false, 0},
		{"crashloopbackoff.MaxContainerRestartPeriod=30s", "crashLoopBackOff.maxContainerRestartPeriod", "30s", false, 2},
		{"evictionHard[memory.available]=200Mi", "evictionHard[memory.available]", "200Mi", false, 0},
		{"evictionHard[memory.available]=null", "evictionHard[memory.available]", nil, true, 0},
		{"clusterDNS=[10.0.0.10, 10.0.0.11]", "clusterDNS", []any{"10.0.0.10", "10.0.0.11"}, false, 0},
		{"clusterDNS=[]", "clusterDNS", []any{}, false, 0},
		{"maxPods=50", "maxPods", int64(50), false, 0},
		{"memoryThrottlingFactor=1", "memoryThrottlingFactor", float64(1), false, 0},
		{"serializeImagePulls=false", "serializeImagePulls", false, false, 0},
		{"kubeReserved=null", "kubeReserved", nil, true, 0},
		{"kubeReserved={cpu: 200m, memory: 1Gi}", "kubeReserved", map[string]any{"cpu": "200m", "memory": "1Gi"}, false, 0},
		// A string field takes the text as written, even when YAML reads a number.
		{"cgroupRoot=10", "cgroupRoot", "10", false, 0},
		{"featureGates[NodeSwap]=true", "featureGates[NodeSwap]", true, false, 0},
		{"logging.format=json", "logging.format", "json", false, 0},
		{"staticPodPath=", "staticPodPath", "", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := s.ParseSet(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got.Path != tt.path || got.Delete != tt.del || !reflect.DeepEqual(got.Value, tt.value) || len(got.Notes) != tt.notes {
				t.Errorf("got path %q value %#v delete %v notes %q", got.Path, got.Value, got.Delete, got.Notes)
			}
		})
	}
}

func TestParseSetErrors(t *testing.T) {
	s := newestSchema(t)
	tests := []struct{ expr, want string }{
		{"maxPods", "want path=value"},
		{"maxPod=10", `did you mean "maxPods"`},
		{"crashloopbackoff.maxSeconds=30", "KEP-4603 draft name"},
		{"maxPods=lots", "is an integer"},
		{"maxPods=1.5", "is an integer"},
		{"serializeImagePulls=yes please", "true or false"},
		{"clusterDNS=10.0.0.10", "is a list"},
		{"evictionHard.memory.available=1Gi", "evictionHard[memory.available]"},
		{"maxPods[x]=1", "is not a map"},
		{"clusterDNS.x=1", "lists are replaced whole"},
		{"kind=Foo", "written by kubeletcfg"},
		{"evictionHard[=1", "unclosed ["},
		{"evictionHard[a]b=1", "want . or [ after [a]"},
		{"a..b=1", "empty field name"},
		{"kubeReserved=[1]", "is an object"},
		{"registerWithTaints=[{key: a, colour: red}]", `unknown field "colour"`},
		{"cgroupRoot=[a]", "is a string"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := s.ParseSet(tt.expr)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestFeatureGate(t *testing.T) {
	g, err := FeatureGate("KubeletCrashLoopBackOffMax=true")
	if err != nil || g.Path != "featureGates[KubeletCrashLoopBackOffMax]" || g.Value != true {
		t.Errorf("got %+v, %v", g, err)
	}
	for _, bad := range []string{"X", "=true", "X=maybe"} {
		if _, err := FeatureGate(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestDocumentYAML(t *testing.T) {
	s := newestSchema(t)
	var sets []Setting
	for _, e := range []string{"crashLoopBackOff.maxContainerRestartPeriod=30s", "evictionHard[memory.available]=200Mi", "clusterDNS=[10.0.0.10]", "kubeReserved=null", "evictionHard[true]=1Gi"} {
		st, err := s.ParseSet(e)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, st)
	}
	doc, err := NewDocument(sets)
	if err != nil {
		t.Fatal(err)
	}
	doc.Header = []string{"one", "two"}
	got, err := doc.YAML()
	if err != nil {
		t.Fatal(err)
	}
	want := `# one
# two

apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
crashLoopBackOff:
  maxContainerRestartPeriod: 30s
evictionHard:
  memory.available: 200Mi
  "true": 1Gi
clusterDNS: [10.0.0.10]
kubeReserved: null # null removes the key (kubelet 1.32+): the default applies
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := NewDocument([]Setting{sets[0], sets[0]}); err == nil {
		t.Error("the same path twice: want an error")
	}
}

func TestDiff(t *testing.T) {
	cur := map[string]any{"apiVersion": "v", "kind": "k", "maxPods": 110.0, "clusterDNS": []any{"a"}, "evictionHard": map[string]any{"memory.available": "100Mi", "nodefs.available": "10%"}}
	want := map[string]any{"apiVersion": "v", "kind": "k", "maxPods": 110.0, "clusterDNS": []any{"a", "b"}, "evictionHard": map[string]any{"memory.available": "200Mi"}}
	got, err := Diff(cur, want)
	if err != nil {
		t.Fatal(err)
	}
	exp := map[string]any{"clusterDNS": []any{"a", "b"}, "evictionHard": map[string]any{"memory.available": "200Mi", "nodefs.available": nil}}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("got %#v", got)
	}
	if same, _ := Diff(cur, cur); len(same) != 0 {
		t.Errorf("equal configs: got %v", same)
	}
}
