// Package input recognises the forms a kubelet configuration arrives in — a
// KubeletConfiguration file, a configz dump of a running kubelet, the kubeadm
// kubelet-config ConfigMap, standard input — and turns each into the
// KubeletConfiguration document the kubelet would read, laid out so that the
// positions the pipeline reports are positions in the file the user has.
//
// The converted document is fed to the pipeline under the original path
// (Source.Apply: Files.Virtual, which the module root copies into the
// pipeline's input), so findings name that file. Where the layout alone
// cannot keep a position (the top of the file, a quoted data.kubelet string),
// Source.Translate maps the result's positions afterwards.
package input
