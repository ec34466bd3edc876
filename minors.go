package kubeletcfg

import (
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// MinorChoice is what a verb evaluates when the options name no minor.
type MinorChoice int

const (
	// DefaultMinor: the default minor alone (kubelets.Default(); lint, effective, backoff).
	DefaultMinor MinorChoice = iota
	// DefaultWindow: the version-skew window ending at the default minor (fix,
	// dropin new, skew), since the same files usually serve a pool mid-upgrade.
	DefaultWindow
)

// Minors are the kubelet minors a verb evaluates, the one rule every command
// follows: Versions a range or a list and ControlPlane the window a control
// plane of that minor supports (either wins over a KubeletVersion that a flag's
// default filled in); else KubeletVersion names one minor (1.37, v1.37.2,
// v1.37.2-eks-abc; a list is refused, pointing at --versions); with none of
// them, the default minor or the default window, as the verb chooses.
func (o Options) Minors(none MinorChoice) ([]*kubelets.Minor, error) {
	switch {
	case o.Versions != "" || o.ControlPlane != "":
		return kubelets.Window(o.Versions, o.ControlPlane)
	case o.KubeletVersion != "":
		m, err := LookupMinor(o.KubeletVersion, "use --versions %s")
		if err != nil {
			return nil, err
		}
		return []*kubelets.Minor{m}, nil
	case none == DefaultWindow:
		return kubelets.Window("", "")
	}
	return []*kubelets.Minor{kubelets.Default()}, nil
}
