package verbtext

import (
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/explain"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// WriteExplained prints what kubeletcfg explain found: the field, its type,
// default and minors, the feature gates and rules about it, its description
// and its fields.
func WriteExplained(w io.Writer, d *explain.Result) error {
	var b strings.Builder
	name := d.Path
	if name == "" {
		name = "KubeletConfiguration"
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "NOTE:    %s\n", n)
	}
	if len(d.Notes) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "KUBELET: %s\n", d.KubeletVersion)
	if note := kubelets.PreReleaseNote(d.KubeletVersion, d.PreRelease); note != "" {
		fmt.Fprintf(&b, "NOTE:    %s\n", note)
	}
	fmt.Fprintf(&b, "FIELD:   %s <%s>\n", name, d.Type)
	if d.GoType != "" {
		fmt.Fprintf(&b, "GO TYPE: %s\n", d.GoType)
	}
	if len(d.Enum) > 0 {
		fmt.Fprintf(&b, "VALUES:  %s\n", strings.Join(d.Enum, ", "))
	}
	if d.Path == "" {
		b.WriteString("DEFAULT: every field's: kubeletcfg effective -c FILE\n")
	} else {
		fmt.Fprintf(&b, "DEFAULT:%s\n", formatDefault(d))
		if d.WindowsDefault != nil {
			fmt.Fprintf(&b, "DEFAULT (windows):%s\n", formatValue(d.WindowsDefault))
		}
		fmt.Fprintf(&b, "MINORS:  %s\n", explain.MinorRanges(d.Minors))
	}
	if len(d.FeatureGates) > 0 {
		b.WriteString("\nFEATURE GATES (at " + d.KubeletVersion + "):\n")
		for _, g := range d.FeatureGates {
			if !g.Registered {
				fmt.Fprintf(&b, "  %s: not registered by kubelet %s\n", g.Name, d.KubeletVersion)
				continue
			}
			state := "off"
			if g.Default {
				state = "on"
			}
			locked := ""
			if g.Locked {
				locked = ", locked"
			}
			fmt.Fprintf(&b, "  %s: %s since %s, %s by default%s\n", g.Name, g.Stage, g.Since, state, locked)
		}
	}
	if d.Path != "" {
		if d.Known {
			b.WriteString("\nRULES (that check this field):\n")
		} else {
			fmt.Fprintf(&b, "\nRULES (kubelet %s drops the key):\n", d.KubeletVersion)
		}
		if len(d.Rules) == 0 {
			b.WriteString("  none\n")
		}
		for _, r := range d.Rules {
			only := ""
			if r.OS != "" {
				only = ", " + r.OS + " only"
			}
			fmt.Fprintf(&b, "  %s %s (%s, %s%s): %s\n", r.ID, r.Name, r.Severity, r.Minors, only, r.Summary)
		}
	}
	if d.Doc != "" {
		b.WriteString("\nDESCRIPTION:\n")
		for _, line := range strings.Split(d.Doc, "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	if len(d.Children) > 0 {
		b.WriteString("\nFIELDS:\n")
		width := 0
		for _, c := range d.Children {
			width = max(width, len(c.Name)+len(c.Type)+3)
		}
		for _, c := range d.Children {
			col := c.Name + " <" + c.Type + ">"
			fmt.Fprintf(&b, "  %-*s  %s\n", width, col, c.Doc)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatDefault prints the default after "DEFAULT:": a scalar on the line,
// a map, list or object as indented YAML below it.
func formatDefault(d *explain.Result) string {
	if !d.Known {
		return " (not in kubelet " + d.KubeletVersion + ")"
	}
	return formatValue(d.Default)
}

// formatValue is formatDefault of a known field's value v.
func formatValue(v any) string {
	switch v := v.(type) {
	case map[string]any, []any:
		raw, err := yaml.Marshal(v)
		if err != nil || strings.TrimSpace(string(raw)) == "{}" || strings.TrimSpace(string(raw)) == "[]" {
			return " " + kubelets.Format(v)
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
			lines = append(lines, "  "+l)
		}
		return "\n" + strings.Join(lines, "\n")
	}
	return " " + kubelets.Format(v)
}
