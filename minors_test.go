package kubeletcfg_test

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func TestOptionsMinors(t *testing.T) {
	def := kubelets.Default().Version
	var window []string // the default window: the default minor and the kubelets.Skew before it
	for _, m := range kubelets.Minors() {
		if !kubelets.Default().Before(m) && m.AtLeast(kubelets.Default().MajorMinor().Add(-kubelets.Skew)) {
			window = append(window, m.Version)
		}
	}
	for _, tc := range []struct {
		name string
		opt  kubeletcfg.Options
		none kubeletcfg.MinorChoice
		want string // the minors, or the error's start
	}{
		{"default minor", kubeletcfg.Options{}, kubeletcfg.DefaultMinor, def},
		{"default window", kubeletcfg.Options{}, kubeletcfg.DefaultWindow, strings.Join(window, ",")},
		{"one minor", kubeletcfg.Options{KubeletVersion: "v1.33.4"}, kubeletcfg.DefaultWindow, "1.33"},
		{"a vendor's release", kubeletcfg.Options{KubeletVersion: "v1.37.2-eks-abc"}, kubeletcfg.DefaultMinor, "1.37"},
		{"the pre-release by name", kubeletcfg.Options{KubeletVersion: "1.38"}, kubeletcfg.DefaultMinor, "1.38"},
		{"a range", kubeletcfg.Options{Versions: "1.35..1.38"}, kubeletcfg.DefaultMinor, "1.35,1.36,1.37,1.38"},
		{"a control plane", kubeletcfg.Options{ControlPlane: "1.38"}, kubeletcfg.DefaultMinor, "1.35,1.36,1.37,1.38"},
		{"a range over a flag's default", kubeletcfg.Options{KubeletVersion: def, Versions: "1.33..1.34"}, kubeletcfg.DefaultMinor, "1.33,1.34"},
		{"a list as one minor", kubeletcfg.Options{KubeletVersion: "1.33,1.37"}, kubeletcfg.DefaultMinor, "--kubelet-version takes one minor"},
		{"unsupported", kubeletcfg.Options{KubeletVersion: "1.12"}, kubeletcfg.DefaultMinor, "--kubelet-version: unsupported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := tc.opt.Minors(tc.none)
			var got []string
			for _, m := range ms {
				got = append(got, m.Version)
			}
			if err != nil {
				if !strings.HasPrefix(kubeletcfg.CommandWords(err), tc.want) {
					t.Errorf("error %v, want one starting %q", err, tc.want)
				}
				return
			}
			if strings.Join(got, ",") != tc.want {
				t.Errorf("minors %v, want %s", got, tc.want)
			}
		})
	}
}
