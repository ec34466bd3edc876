package dropin

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// TestOverridden: a value a drop-in sets and a later drop-in overrides is
// reported at the losing line, naming the line whose value applies.
func TestOverridden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // "file:line:col: message"
	}{
		{
			// EKS nodeadm: the user's overrides sort before the defaults.
			name: "EKS nodeadm 00-overrides.conf loses to 99-defaults.conf",
			files: map[string]string{
				"00-overrides.conf": hdr + "maxPods: 58\nevictionHard:\n  memory.available: 5%\n  nodefs.available: 5%\n",
				"99-defaults.conf":  hdr + "maxPods: 110\nevictionHard:\n  memory.available: 100Mi\n",
			},
			want: []string{
				"00-overrides.conf:3:1: maxPods: 58 set here is overridden by 99-defaults.conf:3:1, a later drop-in in name order: the value that applies is 110",
				"00-overrides.conf:5:3: evictionHard[memory.available]: 5% set here is overridden by 99-defaults.conf:5:3, a later drop-in in name order: the value that applies is \"100Mi\"",
			},
		},
		{
			name: "different fields and merged maps: nothing lost",
			files: map[string]string{
				"00-a.conf": hdr + "maxPods: 58\nevictionHard:\n  memory.available: 5%\nfeatureGates:\n  NodeSwap: true\n",
				"99-b.conf": hdr + "maxOpenFiles: 10\nevictionHard:\n  nodefs.available: 5%\nfeatureGates: {}\n",
			},
		},
		{
			name: "the last of three wins; a null in between",
			files: map[string]string{
				"10.conf": hdr + "maxPods: 10\n",
				"20.conf": hdr + "maxPods: null\n",
				"30.conf": hdr + "maxPods: 30\n",
			},
			want: []string{
				"10.conf:3:1: maxPods: 10 set here is overridden by 30.conf:3:1, a later drop-in in name order: the value that applies is 30",
				"20.conf:3:1: maxPods: null set here is overridden by 30.conf:3:1, a later drop-in in name order: the value that applies is 30",
			},
		},
		{
			name: "a later null or list replaces what is below",
			files: map[string]string{
				"10.conf": hdr + "featureGates:\n  NodeSwap: true\nregisterWithTaints:\n- key: a\n  effect: NoSchedule\n",
				"20.conf": hdr + "featureGates: null\nregisterWithTaints: []\n",
			},
			want: []string{
				"10.conf:4:3: featureGates[NodeSwap]: true set here is overridden by 20.conf:3:1, a later drop-in in name order: null there removes featureGates from the merge",
				"10.conf:5:1: registerWithTaints set here is overridden by 20.conf:4:1, a later drop-in in name order: the value that applies is []",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := merge(t, tc.files)
			var got []string
			for _, f := range m.res.Findings {
				if f.Rule != DropInOverridden.ID {
					continue
				}
				if f.Severity != finding.Info {
					t.Errorf("severity %s", f.Severity)
				}
				got = append(got, strings.TrimPrefix(f.Position.String(), m.dir+"/")+": "+f.Message)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}
