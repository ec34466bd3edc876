package bootstrap

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

func TestTrainPair(t *testing.T) {
	train := Train{Tool: "k0s", Releases: []Shipped{{Release: "v1.35.7+k0s.0", Kubelet: "v1.35.7"}, {Release: "v1.36.3+k0s.2", Kubelet: "v1.36.3"}}}
	user := finding.Position{File: "k0s.yaml", Line: 3, Column: 5}
	for _, tc := range []struct {
		minor       string
		release     string
		flags       []string // kept
		noteHas     string
		noteMissing bool
	}{
		// A minor a release ships: that release, every flag kept, no note.
		{minor: "1.36", release: "v1.36.3+k0s.2", flags: []string{"--containerd=/run/k0s/containerd.sock", "--containerd=/user", "--root-dir=/var/lib/k0s/kubelet"}, noteMissing: true},
		{minor: "1.35", release: "v1.35.7+k0s.0", flags: []string{"--containerd=/run/k0s/containerd.sock", "--containerd=/user", "--root-dir=/var/lib/k0s/kubelet"}, noteMissing: true},
		{minor: "", release: "v1.36.3+k0s.2", flags: []string{"--containerd=/run/k0s/containerd.sock", "--containerd=/user", "--root-dir=/var/lib/k0s/kubelet"}, noteMissing: true},
		// None ships 1.37: the tool's own --containerd (kubelet 1.37 has none)
		// is left out, the user's stays (the kubelet refuses it), the note says so.
		{minor: "1.37", release: "", flags: []string{"--containerd=/user", "--root-dir=/var/lib/k0s/kubelet"},
			noteHas: "no k0s release ships kubelet 1.37 that kubeletcfg ports (k0s v1.36.3+k0s.2 ships kubelet 1.36.3): the file's own settings are checked at kubelet 1.37 with what k0s v1.36.3+k0s.2 writes around them, less the flags it passes that kubelet 1.37 does not have (--containerd)"},
		// None ships 1.34, whose kubelet has every flag: nothing left out.
		{minor: "1.34", release: "", flags: []string{"--containerd=/run/k0s/containerd.sock", "--containerd=/user", "--root-dir=/var/lib/k0s/kubelet"},
			noteHas: "around them"},
	} {
		t.Run(tc.minor, func(t *testing.T) {
			o := &Output{Note: "read",
				Flags:         []string{"--containerd=/run/k0s/containerd.sock", "--containerd=/user", "--root-dir=/var/lib/k0s/kubelet"},
				FlagPositions: []finding.Position{{}, user, {}},
				FlagNotes:     []string{"k0s", "", "k0s"}}
			train.Pair(o, tc.minor)
			if o.Release != tc.release || o.Ships != "v1.36.3" {
				t.Errorf("Release, Ships = %q, %q, want %q, v1.36.3", o.Release, o.Ships, tc.release)
			}
			if !slices.Equal(o.Flags, tc.flags) || len(o.FlagPositions) != len(o.Flags) || len(o.FlagNotes) != len(o.Flags) {
				t.Errorf("flags %q (%d positions, %d notes), want %q", o.Flags, len(o.FlagPositions), len(o.FlagNotes), tc.flags)
			}
			if i := slices.Index(o.Flags, "--containerd=/user"); i < 0 || o.FlagPositions[i] != user {
				t.Errorf("the user's flag lost its position: %v", o.FlagPositions)
			}
			if tc.noteMissing && o.Note != "read" || !tc.noteMissing && !strings.Contains(o.Note, tc.noteHas) {
				t.Errorf("note %q, want it to have %q", o.Note, tc.noteHas)
			}
		})
	}
}
