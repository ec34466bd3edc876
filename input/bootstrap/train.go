package bootstrap

import (
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Shipped is one release of a tool that ships its own kubelet (k0s, k3s,
// RKE2, Talos's default image), with the kubelet it ships.
type Shipped struct {
	// Release is the tool's release ("v1.36.3+k0s.2").
	Release string
	// Kubelet is the kubelet release it ships ("v1.36.3").
	Kubelet string
}

// Minor is the kubelet minor s ships ("1.36").
func (s Shipped) Minor() string {
	v, ok := kubelets.ParseVersion(s.Kubelet)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// Train is the releases of such a tool that a translator ports, oldest
// first: which of them a node running a given kubelet minor runs. A node of
// such a tool runs the kubelet its release ships, so the minor decides the
// release, and the release what the tool writes.
type Train struct {
	// Tool names the tool in notes ("k0s").
	Tool     string
	Releases []Shipped
}

// Newest is the newest release ported: the one a file that names no kubelet
// is checked with by default.
func (t Train) Newest() Shipped { return t.Releases[len(t.Releases)-1] }

// At is the release that ships kubelet minor ("" for the newest); ok is false
// when the train has none for it (the newest is returned then, whose
// translation stands in for the user's own settings).
func (t Train) At(minor string) (s Shipped, ok bool) {
	if minor == "" {
		return t.Newest(), true
	}
	for _, r := range t.Releases {
		if r.Minor() == minor {
			return r, true
		}
	}
	return t.Newest(), false
}

// Pair sets what o says about the release that runs at minor (the
// translation was made with release r, t.At(minor)): Ships and Release, and
// when no release ports that minor, a note saying so, with the flags r's
// translation writes of its own accord that kubelet minor does not have left
// out, because they are r's and no release of the tool for that minor is
// known to write them: a flag error the node would not see is not reported.
func (t Train) Pair(o *Output, minor string) {
	r, ok := t.At(minor)
	o.Ships = t.Newest().Kubelet
	if ok {
		o.Release = r.Release
		return
	}
	o.Release = ""
	note := fmt.Sprintf("no %s release ships kubelet %s that kubeletcfg ports (%s %s ships kubelet %s): the file's own settings are checked at kubelet %s with what %s %s writes around them",
		t.Tool, minor, t.Tool, r.Release, strings.TrimPrefix(r.Kubelet, "v"), minor, t.Tool, r.Release)
	m, err := kubelets.Lookup(minor)
	if err != nil {
		o.Note += "; " + note
		return
	}
	table, err := m.Flags()
	if err != nil {
		o.Note += "; " + note
		return
	}
	var kept []string
	var keptPos []finding.Position
	var keptNotes []string
	var left []string
	for i, a := range o.Flags {
		own := i >= len(o.FlagPositions) || o.FlagPositions[i].File == ""
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if _, known := table.Lookup(name); own && !known {
			left = append(left, "--"+name)
			continue
		}
		kept = append(kept, a)
		if i < len(o.FlagPositions) {
			keptPos = append(keptPos, o.FlagPositions[i])
		}
		if i < len(o.FlagNotes) {
			keptNotes = append(keptNotes, o.FlagNotes[i])
		}
	}
	if len(left) > 0 {
		o.Flags, o.FlagPositions, o.FlagNotes = kept, keptPos, keptNotes
		note += fmt.Sprintf(", less the flags it passes that kubelet %s does not have (%s)", minor, strings.Join(left, ", "))
	}
	o.Note += "; " + note
}
