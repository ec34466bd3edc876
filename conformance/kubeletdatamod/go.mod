// The main module as the harness sees it: only internal/kubeletdata (a symbolic link
// to ../../../internal/kubeletdata) and no requirements, so that requiring it adds
// nothing to the module graph of the kubelet release the harness links.
module github.com/kubeletcfg/kubeletcfg

go 1.26.0
