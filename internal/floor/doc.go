// Command floor is the start-up floor that kubeletcfg's speed targets are
// measured against (issue 11): a Go program that links only the
// k8s.io/kubelet v1beta1 KubeletConfiguration types and decodes one file into
// them with sigs.k8s.io/yaml, as every tool that reads a kubelet config must.
// Whatever kubeletcfg spends beyond this is its own analysis.
//
//	go build -o /tmp/floor ./internal/floor && /tmp/floor testdata/bench/kubeadm-3dropins/kubelet.yaml
//
// With -tags upstream (upstream.go) it also links the upstream packages that
// kubeletcfg must link to reproduce them exactly.
package main
