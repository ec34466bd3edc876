package kubeletcfg

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"text/tabwriter"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// VersionInfo is what `kubeletcfg version -o json` prints: kubeletcfg's
// version, the commit and Go version it was built from, and the kubelet minors
// it knows.
type VersionInfo struct {
	Version  string         `json:"version"`
	Commit   string         `json:"commit,omitempty"`
	Go       string         `json:"go"`
	Platform string         `json:"platform"`
	Minors   []VersionMinor `json:"kubeletMinors"`
}

// VersionMinor is a kubelet minor kubeletcfg knows and the Kubernetes release
// its knowledge was generated from.
type VersionMinor struct {
	Minor      string `json:"minor"`
	Kubernetes string `json:"kubernetes"`
	PreRelease bool   `json:"preRelease,omitempty"`
	Default    bool   `json:"default,omitempty"`
}

// BuildInfo is this binary's version (report.Version), commit (the build's
// vcs.revision), Go version and platform, without the minors.
func BuildInfo() VersionInfo {
	v := VersionInfo{Version: report.Version(), Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				v.Commit = s.Value
			}
		}
	}
	return v
}

// WithMinors is v with every minor kubeletcfg knows, oldest first.
func (v VersionInfo) WithMinors() *VersionInfo {
	v.Minors = KubeletMinors()
	return &v
}

// MinorList is what `kubeletcfg versions` prints: the kubelet minors
// kubeletcfg knows, oldest first.
type MinorList []VersionMinor

// KubeletMinors lists every minor kubeletcfg knows, oldest first.
func KubeletMinors() MinorList {
	var out MinorList
	for _, m := range kubelets.Minors() {
		out = append(out, VersionMinor{Minor: m.Version, Kubernetes: m.Patch, PreRelease: m.PreRelease(), Default: m == kubelets.Default()})
	}
	return out
}

// Write prints the list as `kubeletcfg versions` does: "name" the minors
// alone, one a line; "json" an array of VersionMinor; "text" a line per minor
// with a tab, the release it was generated from, the default and the
// pre-releases marked.
func (l MinorList) Write(w io.Writer, format string, _ report.Options) error {
	switch format {
	case "json":
		return report.WriteJSON(w, l)
	case "name":
		for _, m := range l {
			if _, err := fmt.Fprintln(w, m.Minor); err != nil {
				return err
			}
		}
		return nil
	}
	for _, m := range l {
		var note string
		switch {
		case m.PreRelease:
			note = ", pre-release" // asked for by name, never a default
		case m.Default:
			note = "; the default"
		}
		if _, err := fmt.Fprintf(w, "%s\t(generated from k8s.io/kubernetes %s%s)\n", m.Minor, m.Kubernetes, note); err != nil {
			return err
		}
	}
	return nil
}

// CountAtLeast is 0: a list of minors has no findings.
func (MinorList) CountAtLeast(finding.Severity) int { return 0 }

// Write prints v as `kubeletcfg version` does: "json", or "text" (the
// version, commit, Go and platform, then a table of the minors).
func (v *VersionInfo) Write(w io.Writer, format string, _ report.Options) error {
	if format == "json" {
		return report.WriteJSON(w, v)
	}
	fmt.Fprintf(w, "kubeletcfg %s\n", v.Version)
	if v.Commit != "" {
		fmt.Fprintf(w, "commit      %s\n", v.Commit)
	}
	fmt.Fprintf(w, "go          %s %s\n\nkubelet minors:\n", v.Go, v.Platform)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, m := range v.Minors {
		note := ""
		switch {
		case m.PreRelease:
			note = " (pre-release)"
		case m.Default:
			note = " (default)"
		}
		fmt.Fprintf(tw, "  %s\tk8s.io/kubernetes %s%s\n", m.Minor, m.Kubernetes, note)
	}
	return tw.Flush()
}

// CountAtLeast is 0: a version has no findings.
func (v *VersionInfo) CountAtLeast(finding.Severity) int { return 0 }

// WriteVersions prints the minors as `kubeletcfg versions` does by default
// (KubeletMinors().Write, "text").
func WriteVersions(w io.Writer) error {
	return KubeletMinors().Write(w, "text", report.Options{})
}
