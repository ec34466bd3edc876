package validate

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-base/featuregate"
)

func TestGatedFieldIgnored(t *testing.T) {
	gate := func(on bool) featuregate.FeatureGate {
		fg := featuregate.NewVersionedFeatureGate(version.MustParse("1.37"))
		if err := fg.AddVersioned(map[featuregate.Feature]featuregate.VersionedSpecs{
			"MemoryQoS": {{Version: version.MustParse("1.22"), Default: on, PreRelease: featuregate.Beta}},
		}); err != nil {
			t.Fatal(err)
		}
		return fg
	}
	fieldGates := map[string][]string{
		"memoryThrottlingFactor":    {"MemoryQoS"},
		"memoryReservationPolicy":   {"MemoryQoS"},
		"userNamespaces.idsPerPod":  {"UserNamespaceSupport"}, // a marker naming no registered gate
		"crashLoopBackOff":          {"KubeletCrashLoopBackOffMax"},
		"crashLoopBackOff.whatever": {"KubeletCrashLoopBackOffMax"},
	}
	tests := []struct {
		name  string
		gate  bool
		set   []string
		prior []finding.Finding
		want  []string // paths reported
	}{
		{"gate on: nothing", true, []string{"memoryThrottlingFactor"}, nil, nil},
		{"gate off, field from defaults: nothing", false, nil, nil, nil},
		{"gate off, field set: ignored", false, []string{"memoryReservationPolicy"}, nil, []string{"memoryReservationPolicy"}},
		{"gate off, kubelet refuses already: not repeated", false, []string{"memoryThrottlingFactor"},
			[]finding.Finding{{Rule: "KC4089", Severity: finding.Error, Path: "memoryThrottlingFactor"}}, nil},
		{"unregistered marker gate: not reported", false, []string{"userNamespaces.idsPerPod"}, nil, nil},
		{"object key only (set to {} or nulls): not reported", false, []string{"crashLoopBackOff"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := map[string]bool{}
			for _, p := range tt.set {
				set[p] = true
			}
			ctx := &rule.Context{
				Minor: minorOf("1.37"), Config: &kubeletv1beta1.KubeletConfiguration{}, Gates: gate(tt.gate),
				FieldGates: fieldGates, Prior: tt.prior,
				SetByFile: func(p string) bool { return set[p] },
			}
			got := checkGatedFields(ctx)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d findings %+v, want %v", len(got), got, tt.want)
			}
			for i, f := range got {
				if f.Path != tt.want[i] || f.Rule != "KC6002" || f.Severity != finding.Warning {
					t.Errorf("finding %d = %s %s %s, want KC6002 warning at %s", i, f.Rule, f.Severity, f.Path, tt.want[i])
				}
			}
		})
	}
}
