// Package policy decides what the user asked to see of an evaluation: the
// project's .kubeletcfg.yaml (default kubelet minors, the --fail-on threshold,
// rules turned off or re-graded, files excluded) and the inline
// "# kubeletcfg:ignore ID reason" comments in the configuration files.
//
// A policy never changes what the kubelet does (pipeline.Result.Starts stays
// the verdict); it changes what is reported and what fails the run. Findings
// that mean the kubelet will not start (severity error as the pipeline emits
// them) cannot be hidden or lowered by either means.
package policy
