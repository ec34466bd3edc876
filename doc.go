// Package kubeletcfg is kubeletcfg as a library: what a kubelet minor
// (1.31..1.38) will do with a KubeletConfiguration file, its --config-dir
// drop-ins and its command line, for a Go program (a controller, a kubectl
// plugin, a CI check) that wants the analysis without the command.
//
// One Options value says what to read and how; the verbs run the steps in
// the kubelet's order, which lives here once:
//
//	input conversion (configz, kubeadm, kind, stdin)
//	  -> the kubelet's command line and its --config/--config-dir
//	  -> pipeline evaluation at each minor (package pipeline)
//	  -> Settle (positions of converted inputs)
//	  -> security profile (package profile)
//	  -> policy (package policy: suppressions, re-grades, excludes)
//
// Lint evaluates at one minor, Effective returns the configuration the
// kubelet would run with, Skew compares minors, Preflight compares the minor a
// node pool runs with the one it moves to, and Nodes lints a folder of nodes,
// grouping the nodes the kubelet treats alike (Lint takes several main files,
// Options.Paths, and a folder, Options.Nodes, as the lint command does);
// Backoff plays out the crash-loop backoff, Fix plans the repairs that need
// no guess, DropInNew and DropInDiff write checked drop-ins, Explain describes
// a field and Discover finds the running kubelet (package cluster reads a
// live cluster, apart so that the library links no client-go). Their results are the JSON documents the
// kubeletcfg command prints (LintReport, PathsReport, SkewReport,
// PreflightReport, NodesReport; the cluster run's is fleet.Report), and each
// is a Verdict: Write prints it in one of the command's -o formats, and
// CountAtLeast counts what makes the command exit 1 (FailOn does both).
//
// Errors for bad input name what was given in the library's words
// (Options.KubeletVersion): an OptionError, which the command prints with its
// flags (--kubelet-version) through CommandWords.
package kubeletcfg
