package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	_ "unsafe" // for go:linkname

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	nodeutil "k8s.io/component-helpers/node/util"

	kubeadmapi "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm"
	kubeadmscheme "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm/scheme"
	kubeadmapiv1 "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm/v1beta4"
	"k8s.io/kubernetes/cmd/kubeadm/app/componentconfigs"
	kubeadmconstants "k8s.io/kubernetes/cmd/kubeadm/app/constants"
	// applyKubeletConfigPatches (below) is linked from here.
	kubeletphase "k8s.io/kubernetes/cmd/kubeadm/app/phases/kubelet"
)

// kubeadm's patches of the kubelet configuration (phases/kubelet/config.go), which
// WriteConfigToDisk applies to the marshalled config when a patches folder is given
// (kubeadm init --patches, or InitConfiguration's patches.directory): the files
// kubeletconfiguration[suffix][+strategic|+merge|+json].{yaml,json}, through
// util/patches (strategic merge patches against the v1beta1 KubeletConfiguration).
//
//go:linkname applyKubeletConfigPatches k8s.io/kubernetes/cmd/kubeadm/app/phases/kubelet.applyKubeletConfigPatches
func applyKubeletConfigPatches(kubeletBytes []byte, patchesDir string, output io.Writer) ([]byte, error)

func init() { linkedFuncs = append(linkedFuncs, applyKubeletConfigPatches) }

// resolvedMarker, a file in a kubeadm case folder, records the case as on a host where
// systemd-resolved is active.
const resolvedMarker = "systemd-resolved"

// cmdKubeadm writes, for each case folder DIR/NAME holding kubeadm.yaml, what the
// kubelet-start phase of `kubeadm init` (or `kubeadm join`, for a file whose node is a
// JoinConfiguration's) of this minor writes on the node: /var/lib/kubelet/config.yaml
// to OUT/NAME.yaml, /var/lib/kubelet/kubeadm-flags.env to OUT/NAME.flags.env and, where
// the minor writes it, /var/lib/kubelet/instance-config.yaml to
// OUT/NAME.instance-config.yaml (-check: compares instead).
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
		files := map[string][]byte{name + ".yaml": nil, name + kubeadmFlagsSuffix: nil, name + kubeadmInstanceSuffix: nil}
		node, err := kubeadmNodeFiles(data, resolved, dir)
		if err != nil {
			// A file kubeadm refuses is recorded as its error.
			files[name+".yaml"] = []byte("# kubeadm: " + err.Error() + "\n")
		} else {
			files[name+".yaml"] = node.config
			files[name+kubeadmFlagsSuffix] = node.flags
			files[name+kubeadmInstanceSuffix] = node.instance
		}
		for _, f := range slices.Sorted(maps.Keys(files)) {
			got, path := files[f], filepath.Join(*out, f)
			if *check {
				want, err := os.ReadFile(path)
				if got == nil && errors.Is(err, os.ErrNotExist) {
					continue
				}
				if err != nil || !bytes.Equal(want, got) {
					fmt.Fprintf(os.Stderr, "%s: differs from kubeadm's\n", path)
					stale++
				}
				continue
			}
			if got == nil {
				if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
				continue
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				return err
			}
		}
	}
	if stale > 0 {
		return exitError(1)
	}
	return nil
}

// The files of a case besides NAME.yaml.
const (
	kubeadmFlagsSuffix    = ".flags.env"
	kubeadmInstanceSuffix = ".instance-config.yaml"
)

// kubeadmNode is what the kubelet-start phase writes to /var/lib/kubelet.
type kubeadmNode struct {
	config, flags, instance []byte // instance nil: not written
}

// kubeadmNodeFiles runs the kubelet-start phase of kubeadm init (cmd/phases/init/kubelet.go,
// runKubeletStart) or, when the file's node document is a JoinConfiguration (no
// InitConfiguration), of kubeadm join (cmd/phases/join/kubelet.go,
// runKubeletStartJoinPhase, the cluster being the one the same file's ClusterConfiguration
// and KubeletConfiguration make, as kubeadm init uploaded it): the API versions checked as
// the node's NodeRegistrationOptions decoded (a version this kubeadm does not register
// is refused by the decoder) and dynamically defaulted (nodeRegistrationDynamicDefaults),
// WriteKubeletDynamicEnvFile, WriteInstanceConfigToDisk where the minor writes it, and
// config.yaml as WriteConfigToDisk writes it (kubeadmKubeletConfig, then the instance
// configuration merged as a strategic patch, applyKubeletConfigPatchFromFile).
func kubeadmNodeFiles(data []byte, resolved bool, dir string) (*kubeadmNode, error) {
	docs, err := splitConfigDocuments(data)
	if err != nil {
		return nil, err
	}
	gvks := slices.SortedFunc(maps.Keys(docs), func(a, b schema.GroupVersionKind) int { return strings.Compare(a.String(), b.String()) })
	join := false
	for _, gvk := range gvks {
		if gvk.Group == kubeadmapi.GroupName && gvk.Kind == "JoinConfiguration" {
			join = true
		}
	}
	for _, gvk := range gvks {
		if gvk.Group == kubeadmapi.GroupName && gvk.Kind == "InitConfiguration" {
			join = false
		}
	}
	nodeReg := &kubeadmapi.NodeRegistrationOptions{}
	registerTaints := false
	if join {
		jc := &kubeadmapi.JoinConfiguration{}
		for gvk, doc := range docs {
			if gvk.Kind == "JoinConfiguration" {
				if err := runtime.DecodeInto(kubeadmscheme.Codecs.UniversalDecoder(), doc, jc); err != nil {
					return nil, err
				}
			}
		}
		if err := nodeRegistrationDynamicDefaults(&jc.NodeRegistration, jc.ControlPlane != nil); err != nil {
			return nil, err
		}
		nodeReg = &jc.NodeRegistration
		registerTaints = jc.ControlPlane == nil
	} else {
		ic := &kubeadmapi.InitConfiguration{}
		found := false
		for gvk, doc := range docs {
			if gvk.Kind == "InitConfiguration" {
				if err := runtime.DecodeInto(kubeadmscheme.Codecs.UniversalDecoder(), doc, ic); err != nil {
					return nil, err
				}
				found = true
			}
		}
		if !found {
			v := &kubeadmapiv1.InitConfiguration{}
			kubeadmscheme.Scheme.Default(v)
			if err := kubeadmscheme.Scheme.Convert(v, ic, nil); err != nil {
				return nil, err
			}
		}
		if err := nodeRegistrationDynamicDefaults(&ic.NodeRegistration, true); err != nil {
			return nil, err
		}
		nodeReg = &ic.NodeRegistration
	}
	cluster, patchesDir, err := kubeadmCluster(docs)
	if err != nil {
		return nil, err
	}
	config, err := kubeadmKubeletConfig(cluster, patchesDir, resolved, dir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "kubeadm-node-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	node := &kubeadmNode{}
	// WriteKubeletDynamicEnvFile prints where it writes: not the harness's output.
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	err = kubeletphase.WriteKubeletDynamicEnvFile(cluster, nodeReg, registerTaints, tmp)
	_ = os.Stdout.Close()
	os.Stdout = stdout
	if err != nil {
		return nil, err
	}
	if node.flags, err = os.ReadFile(filepath.Join(tmp, "kubeadm-flags.env")); err != nil {
		return nil, err
	}
	if instanceConfigWritten(cluster) {
		file := filepath.Join(tmp, "instance-config.yaml")
		if err := writeInstanceConfig(nodeReg.CRISocket, tmp); err != nil {
			return nil, err
		}
		if node.instance, err = os.ReadFile(file); err != nil {
			return nil, err
		}
		if config, err = applyInstanceConfig(config, file); err != nil {
			// WriteConfigToDisk's errors.Wrapf.
			return nil, fmt.Errorf("could not apply kubelet instance configuration as a patch from %q: %w", file, err)
		}
	}
	node.config = config
	return node, nil
}

// kubeadmCluster is the file's ClusterConfiguration, decoded and defaulted (v1beta4
// static defaults when there is none), with its component configs read
// (componentconfigs.FetchFromDocumentMap), and the patches folder of the node's
// document (InitConfiguration's or JoinConfiguration's patches.directory).
func kubeadmCluster(docs kubeadmapi.DocumentMap) (*kubeadmapi.ClusterConfiguration, string, error) {
	cluster := &kubeadmapi.ClusterConfiguration{}
	found := false
	patchesDir := ""
	for gvk, doc := range docs {
		switch gvk.Kind {
		case "InitConfiguration":
			init := &kubeadmapi.InitConfiguration{}
			if err := runtime.DecodeInto(kubeadmscheme.Codecs.UniversalDecoder(), doc, init); err != nil {
				return nil, "", err
			}
			if init.Patches != nil {
				patchesDir = init.Patches.Directory
			}
		case "JoinConfiguration":
			if _, ok := docs[schema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: "InitConfiguration"}]; ok {
				continue
			}
			jc := &kubeadmapi.JoinConfiguration{}
			if err := runtime.DecodeInto(kubeadmscheme.Codecs.UniversalDecoder(), doc, jc); err != nil {
				return nil, "", err
			}
			if jc.Patches != nil && patchesDir == "" {
				patchesDir = jc.Patches.Directory
			}
		case "ClusterConfiguration":
			if err := runtime.DecodeInto(kubeadmscheme.Codecs.UniversalDecoder(), doc, cluster); err != nil {
				return nil, "", err
			}
			found = true
		}
	}
	if !found {
		v := &kubeadmapiv1.ClusterConfiguration{}
		kubeadmscheme.Scheme.Default(v)
		if err := kubeadmscheme.Scheme.Convert(v, cluster, nil); err != nil {
			return nil, "", err
		}
	}
	if err := componentconfigs.FetchFromDocumentMap(cluster, docs); err != nil {
		return nil, "", err
	}
	return cluster, patchesDir, nil
}

// kubeadmKubeletConfig runs kubeadm's own steps from a config file to the node's
// kubelet config file: the ClusterConfiguration decoded and defaulted (v1beta4 static
// defaults), the KubeletConfiguration document read (componentconfigs.FetchFromDocumentMap),
// kubeadm's component-config defaulting (componentconfigs.Default, as
// SetClusterDynamicDefaults calls it), the node-local mutation (Mutate) and the
// marshalling phases/kubelet.WriteConfigToDisk writes, with the patches of the
// node document's patches.directory applied as WriteConfigToDisk applies them (a
// relative folder is kubeadm's working folder's: the case folder's here).
func kubeadmKubeletConfig(cluster *kubeadmapi.ClusterConfiguration, patchesDir string, resolved bool, dir string) ([]byte, error) {
	componentconfigs.Default(cluster, &kubeadmapi.APIEndpoint{}, &kubeadmapi.NodeRegistrationOptions{})
	kc, ok := cluster.ComponentConfigs[componentconfigs.KubeletGroup]
	if !ok {
		return nil, errors.New("no kubelet component config")
	}
	local := kc.DeepCopy()
	if err := mutateNodeLocal(local, resolved); err != nil {
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

// nodeRegistrationDynamicDefaults is util/config.SetNodeRegistrationDynamicDefaults
// (initconfiguration.go, the same in 1.31-1.38) with CRI detection skipped, as kubeadm's
// skipCRIDetect does: an empty criSocket is constants.DefaultCRISocket, where kubeadm on
// a node would detect the runtime's socket. The harness cannot link util/config (it
// pulls k8s.io/cli-runtime, which the minors' go.mod files do not have), so these lines
// are the function's own: the node name is this machine's hostname unless the file
// names one, lower-cased; a socket without a scheme gets unix://.
func nodeRegistrationDynamicDefaults(cfg *kubeadmapi.NodeRegistrationOptions, controlPlaneTaint bool) error {
	var err error
	if cfg.Name, err = nodeutil.GetHostname(cfg.Name); err != nil {
		return err
	}
	if controlPlaneTaint && cfg.Taints == nil {
		cfg.Taints = []v1.Taint{kubeadmconstants.ControlPlaneTaint}
	}
	if cfg.CRISocket == "" {
		cfg.CRISocket = kubeadmconstants.DefaultCRISocket
	} else if !strings.HasPrefix(cfg.CRISocket, kubeadmapiv1.DefaultContainerRuntimeURLScheme) {
		cfg.CRISocket = kubeadmapiv1.DefaultContainerRuntimeURLScheme + "://" + cfg.CRISocket
	}
	return nil
}
