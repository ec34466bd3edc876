package pipeline

import "testing"

// TestVersionValue: --version takes what verflag's Set takes at a kubelet of
// release v1.37.2 (conformance cases 704-710 hold the kubelet's verdicts).
func TestVersionValue(t *testing.T) {
	for _, tt := range []struct {
		in, err string
	}{
		{in: "raw"},
		{in: "true"},
		{in: "false"},
		{in: "1"},
		{in: "v1.37.2"},
		{in: "v1.37.2-custom.1+build"},
		{in: "vBAD", err: `could not parse "vBAD" as version`},
		{in: "v1.37", err: `illegal version string "v1.37"`},
		{in: "v1.37.9", err: `version "v1.37.9" must match major/minor/patch of default version "v1.37.2"`},
		{in: "v1.30.0", err: `version "v1.30.0" must match major/minor/patch of default version "v1.37.2"`},
		{in: "V1.37.2", err: `strconv.ParseBool: parsing "V1.37.2": invalid syntax`},
		{in: "", err: `strconv.ParseBool: parsing "": invalid syntax`},
	} {
		v := &versionValue{release: "v1.37.2"}
		err := v.Set(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("--version=%s: error %q, want %q", tt.in, got, tt.err)
		}
		if err == nil && v.String() != tt.in {
			t.Errorf("--version=%s: value %q", tt.in, v.String())
		}
	}
}
