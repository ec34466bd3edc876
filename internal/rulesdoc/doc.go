// Package rulesdoc writes docs/rules.md: the registry's rules reference
// (validate.WriteMarkdownOptions) with, for each rule, an example taken from the
// conformance corpus and what the real kubelet did with it. The binary carries
// no corpus, so this runs from the source tree: `go run ./internal/rulesdoc/cmd`.
//
// Every example is a line a case marks with `# want KCxxxx`, which
// pipeline/want_test.go checks kubeletcfg reports at the newest minor, and the
// verdict is the case's golden at that minor, recorded from the kubelet itself:
// nothing here is written by hand. A rule only the Windows kubelet has takes
// its example from a `# want-windows KCxxxx` line, checked with the case
// evaluated as a Windows node, and the Windows kubelet's golden
// (golden-windows).
package rulesdoc
