package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	_ "unsafe" // for go:linkname

	"k8s.io/apimachinery/pkg/runtime"
	kubeletconfig "k8s.io/kubelet/config/v1beta1"

	kubeadmapi "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm"
	kubeadmscheme "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm/scheme"
	kubeadmapiv1 "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm/v1beta4"
	"k8s.io/kubernetes/cmd/kubeadm/app/componentconfigs"
	// applyKubeletConfigPatches (below) is linked from here.
	_ "k8s.io/kubernetes/cmd/kubeadm/app/phases/kubelet"
)

// kubeadm's resolver mutation (componentconfigs/kubelet_unix.go), which `kubeadm init
// phase kubelet-start` runs on the node through kubeletConfig.Mutate with the host's
// init system as the oracle; the harness calls it with a fixed answer instead.
//
//go:linkname mutateResolverConfig k8s.io/kubernetes/cmd/kubeadm/app/componentconfigs.mutateResolverConfig
func mutateResolverConfig(cfg *kubeletconfig.KubeletConfiguration, isServiceActiveFunc func(string) (bool, error)) error

// kubeadm's patches of the kubelet configuration (phases/kubelet/config.go), which
// WriteConfigToDisk applies to the marshalled config when a patches folder is given
// (kubeadm init --patches, or InitConfiguration's patches.directory): the files
// kubeletconfiguration[suffix][+strategic|+merge|+json].{yaml,json}, through
// util/patches (strategic merge patches against the v1beta1 KubeletConfiguration).
//
//go:linkname applyKubeletConfigPatches k8s.io/kubernetes/cmd/kubeadm/app/phases/kubelet.applyKubeletConfigPatches
func applyKubeletConfigPatches(kubeletBytes []byte, patchesDir string, output io.Writer) ([]byte, error)

func init() { linkedFuncs = append(linkedFuncs, mutateResolverConfig, applyKubeletConfigPatches) }

// resolvedMarker, a file in a kubeadm case folder, records the case as on a host where
// systemd-resolved is active.
const resolvedMarker = "systemd-resolved"

// cmdKubeadm writes, for each case folder DIR/NAME holding kubeadm.yaml, the
// /var/lib/kubelet/config.yaml that `kubeadm init` of this minor writes on the node, to
// OUT/NAME.yaml (-check: compares instead).
func cmdKubeadm(args []string) error {
	fs := flag.NewFlagSet("kubeadm", flag.ContinueOnError)
	cases := fs.String("cases", "", "folder of case folders, each with kubeadm.yaml")
	out := fs.String("out", "", "folder to write NAME.yaml to")
	check := fs.Bool("check", false, "compare with the files in -out instead of writing them")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *cases == "" || *out == "" {
		return errUsage
	}
	entries, err := os.ReadDir(*cases)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if !*check {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
	}
	stale := 0
	for _, name := range names {
		dir := filepath.Join(*cases, name)
		data, err := os.ReadFile(filepath.Join(dir, "kubeadm.yaml"))
		if err != nil {
			return err
		}
		_, err = os.Stat(filepath.Join(dir, resolvedMarker))
		resolved := err == nil
		got, err := kubeadmKubeletConfig(data, resolved, dir)
		if err != nil {
			// A file kubeadm refuses is recorded as its error.
			got = []byte("# kubeadm: " + err.Error() + "\n")
		}
		path := filepath.Join(*out, name+".yaml")
		if *check {
			want, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(want, got) {
				fmt.Fprintf(os.Stderr, "%s: differs from kubeadm's\n", path)
				stale++
			}
			continue
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			return err
		}
	}
	if stale > 0 {
		return exitError(1)
	}
	return nil
}

// kubeadmKubeletConfig runs kubeadm's own steps from a config file to the node's
// kubelet config file: the ClusterConfiguration decoded and defaulted (v1beta4 static
// defaults), the KubeletConfiguration document read (componentconfigs.FetchFromDocumentMap),
// kubeadm's component-config defaulting (componentconfigs.Default, as
// SetClusterDynamicDefaults calls it), the node-local mutation (Mutate) and the
// marshalling phases/kubelet.WriteConfigToDisk writes, with the patches of the
// InitConfiguration's patches.directory applied as WriteConfigToDisk applies them (a
// relative folder is kubeadm's working folder's: the case folder's here).
func kubeadmKubeletConfig(data []byte, resolved bool, dir string) ([]byte, error) {
	docs, err := splitConfigDocuments(data)
	if err != nil {
		return nil, err
	}
	cluster := &kubeadmapi.ClusterConfiguration{}
	found := false
	patchesDir := ""
	for gvk, doc := range docs {
		if gvk.Kind == "InitConfiguration" {
			init := &kubeadmapi.InitConfiguration{}
			if err := runtime.DecodeInto(kubeadmscheme.Codecs.UniversalDecoder(), doc, init); err != nil {
				return nil, err
			}
			if init.Patches != nil {
				patchesDir = init.Patches.Directory
			}
		}
		if gvk.Kind != "ClusterConfiguration" {
			continue
		}
		if err := runtime.DecodeInto(kubeadmscheme.Codecs.UniversalDecoder(), doc, cluster); err != nil {
			return nil, err
		}
		found = true
	}
	if !found {
		v := &kubeadmapiv1.ClusterConfiguration{}
		kubeadmscheme.Scheme.Default(v)
		if err := kubeadmscheme.Scheme.Convert(v, cluster, nil); err != nil {
			return nil, err
		}
	}
	if err := componentconfigs.FetchFromDocumentMap(cluster, docs); err != nil {
		return nil, err
	}
	componentconfigs.Default(cluster, &kubeadmapi.APIEndpoint{}, &kubeadmapi.NodeRegistrationOptions{})
	kc, ok := cluster.ComponentConfigs[componentconfigs.KubeletGroup]
	if !ok {
		return nil, errors.New("no kubelet component config")
	}
	local := kc.DeepCopy()
	if err := mutateResolverConfig(local.Get().(*kubeletconfig.KubeletConfiguration), func(string) (bool, error) { return resolved, nil }); err != nil {
		return nil, err
	}
	out, err := local.Marshal()
	if err != nil || patchesDir == "" {
		return out, err
	}
	return applyPatchesIn(dir, patchesDir, out)
}

// applyPatchesIn runs applyKubeletConfigPatches with dir as the working folder.
// util/patches caches a folder's patches by the path given, for the life of the
// process: a relative folder is named from the cases folder (../NAME/patches), so that
// two cases' folders are never the same path.
func applyPatchesIn(dir, patchesDir string, kubeletBytes []byte) ([]byte, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if err := os.Chdir(dir); err != nil {
		return nil, err
	}
	defer func() { _ = os.Chdir(wd) }()
	if !filepath.IsAbs(patchesDir) {
		patchesDir = filepath.Join("..", filepath.Base(dir), patchesDir)
	}
	out, err := applyKubeletConfigPatches(kubeletBytes, patchesDir, io.Discard)
	if err != nil {
		// WriteConfigToDisk's errors.Wrap.
		return nil, fmt.Errorf("could not apply patches to the KubeletConfiguration: %w", err)
	}
	return out, nil
}
