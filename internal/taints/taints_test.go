package taints

import (
	"testing"

	v1 "k8s.io/api/core/v1"
)

// The cases of pkg/util/taints TestParseTaint that parseTaint decides.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		want    v1.Taint
		wantErr string
	}{
		{spec: "foo=bar:NoSchedule", want: v1.Taint{Key: "foo", Value: "bar", Effect: v1.TaintEffectNoSchedule}},
		{spec: "foo:NoExecute", want: v1.Taint{Key: "foo", Effect: v1.TaintEffectNoExecute}},
		{spec: "foo", want: v1.Taint{Key: "foo"}},
		{spec: "example.com/foo=bar:PreferNoSchedule", want: v1.Taint{Key: "example.com/foo", Value: "bar", Effect: v1.TaintEffectPreferNoSchedule}},
		{spec: "foo=bar:NoSchedul", wantErr: "invalid taint effect: NoSchedul, unsupported taint effect"},
		{spec: "foo=bar=baz:NoSchedule", wantErr: "invalid taint spec: foo=bar=baz:NoSchedule"},
		{spec: "foo:bar:NoSchedule", wantErr: "invalid taint spec: foo:bar:NoSchedule"},
		{spec: "foo=bar baz:NoSchedule", wantErr: "invalid taint spec: foo=bar baz:NoSchedule, a valid label must be"},
		{spec: "-foo:NoSchedule", wantErr: "invalid taint spec: -foo:NoSchedule, name part must consist of"},
	} {
		got, err := Parse(tc.spec)
		switch {
		case tc.wantErr != "" && (err == nil || len(err.Error()) < len(tc.wantErr) || err.Error()[:len(tc.wantErr)] != tc.wantErr):
			t.Errorf("%s: error %v, want %q", tc.spec, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("%s: %+v, %v; want %+v", tc.spec, got, err, tc.want)
		}
	}
}
