package report

import "strings"

// NodeNames is how many node names a group of nodes lists before "(+K
// more)" (lint --nodes, kubeletcfg cluster).
const NodeNames = 5

// Indent writes text to b with every non-blank line indented by prefix
// (blank lines stay empty): a node's or group's report nested in a listing
// (lint --nodes, kubeletcfg cluster).
func Indent(b *strings.Builder, text, prefix string) {
	for _, line := range strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			b.WriteString("\n")
		} else {
			b.WriteString(prefix + strings.TrimSuffix(line, "\n") + "\n")
		}
	}
}
