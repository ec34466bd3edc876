// Package validate holds the kubelet's validation as rules (package rule): its
// own ValidateKubeletConfiguration and the checks of its start-up that follow
// (the run stage), the command-line rules the pipeline emits, the lint rules the
// kubelet does not have, and the cis profile. Run evaluates them.
package validate
