// Command capi writes, for each Cluster API fixture, the kubeadm documents Cluster API's
// kubeadm bootstrap provider writes to /run/kubeadm/kubeadm.yaml, by Cluster API's own
// code (sigs.k8s.io/cluster-api, the release in go.mod): the manifest decoded into CAPI's
// API types (a v1beta1 object converted to v1beta2 by the API module's conversions),
// controlplane/kubeadm/pkg/desiredstate.ComputeDesiredKubeadmConfig for a control plane
// kind (its first machine: kubeadm init; and, as <fixture>.join.yaml, its joining
// machines: kubeadm join --control-plane), then the steps of
// bootstrap/kubeadm/reconcilers/kubeadmconfig/kubeadmconfig_controller.go and
// bootstrap/kubeadm/pkg/types MarshalClusterConfigurationForVersion,
// MarshalInitConfigurationForVersion and MarshalJoinConfigurationForVersion.
//
// input's TestCAPIHarnessGoldens compares the kubeadm documents kubeletcfg's port
// (input/capi) builds with these goldens, at every minor.
//
//	go run . -cases ../../testdata/bootstrappers/capi -out ../../testdata/bootstrappers/capi/golden [-check]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver/v4"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	//lint:ignore SA1019 a v1beta1 manifest (a fixture) is converted to v1beta2 as the API server does
	bootstrapv1beta1 "sigs.k8s.io/cluster-api/api/bootstrap/kubeadm/v1beta1"
	bootstrapv1 "sigs.k8s.io/cluster-api/api/bootstrap/kubeadm/v1beta2"
	//lint:ignore SA1019 a v1beta1 manifest (a fixture) is converted to v1beta2 as the API server does
	controlplanev1beta1 "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta1"
	controlplanev1 "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta2"
	//lint:ignore SA1019 a v1beta1 manifest (a fixture) is converted to v1beta2 as the API server does
	clusterv1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	kubeadmtypes "sigs.k8s.io/cluster-api/bootstrap/kubeadm/pkg/types"
	"sigs.k8s.io/cluster-api/bootstrap/kubeadm/pkg/types/upstream"
	"sigs.k8s.io/cluster-api/controlplane/kubeadm/pkg/desiredstate"
)

// minors are kubeletcfg's kubelet minors: a golden directory each (the Kubernetes
// version of a template, or of a KubeadmConfig's machine, is v<minor>.0).
var minors = []string{"1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37", "1.38"}

func main() {
	cases := flag.String("cases", "", "directory of Cluster API manifests (*.yaml)")
	out := flag.String("out", "", "golden directory (<minor>/<fixture>.yaml)")
	check := flag.Bool("check", false, "fail if a golden differs instead of writing it")
	flag.Parse()
	if err := run(*cases, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "capi:", err)
		os.Exit(1)
	}
}

func run(cases, out string, check bool) error {
	files, err := filepath.Glob(filepath.Join(cases, "*.yaml"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, bootstrapv1beta1.AddToScheme, bootstrapv1.AddToScheme,
		controlplanev1beta1.AddToScheme, controlplanev1.AddToScheme, clusterv1beta1.AddToScheme, clusterv1.AddToScheme} {
		if err := add(scheme); err != nil {
			return err
		}
	}
	var stale []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, minor := range minors {
			doc, join, err := kubeadmYAML(scheme, data, minor)
			if err != nil {
				return fmt.Errorf("%s: %v", f, err)
			}
			goldens := map[string][]byte{filepath.Join(out, minor, filepath.Base(f)): doc}
			if join != nil {
				// A control plane kind's joining machines: <fixture>.join.yaml.
				goldens[filepath.Join(out, minor, strings.TrimSuffix(filepath.Base(f), ".yaml")+".join.yaml")] = join
			}
			for golden, doc := range goldens {
				if check {
					old, _ := os.ReadFile(golden)
					if !bytes.Equal(old, doc) {
						stale = append(stale, golden)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(golden, doc, 0o644); err != nil {
					return err
				}
			}
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("goldens differ from Cluster API's output (make capi-golden): %s", strings.Join(stale, ", "))
	}
	return nil
}

// kubeadmYAML is the kubeadm configuration CAPI writes for the manifest's first
// KubeadmConfig, KubeadmConfigTemplate, KubeadmControlPlane or KubeadmControlPlaneTemplate
// (the one kubeletcfg reads), with the manifest's first Cluster, at the minor; for a
// control plane kind, join is what it writes for the joining machines (nil otherwise).
func kubeadmYAML(scheme *runtime.Scheme, data []byte, minor string) (doc, join []byte, err error) {
	var spec *bootstrapv1.KubeadmConfigSpec
	var kcp *controlplanev1.KubeadmControlPlane
	cluster := &clusterv1.Cluster{}
	haveCluster := false
	version := "v" + minor + ".0"
	for _, raw := range bytes.Split(data, []byte("\n---")) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(raw, &tm); err != nil || tm.Kind == "" {
			continue
		}
		gvk := tm.GroupVersionKind()
		if !scheme.Recognizes(gvk) {
			continue
		}
		obj, err := scheme.New(gvk)
		if err != nil {
			return nil, nil, err
		}
		if err := yaml.Unmarshal(raw, obj); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", gvk, err)
		}
		switch gvk.Kind {
		case "Cluster":
			if haveCluster {
				continue
			}
			if err := scheme.Convert(obj, cluster, nil); err != nil {
				return nil, nil, err
			}
			haveCluster = true
			continue
		}
		if spec != nil {
			continue
		}
		switch gvk.Kind {
		case "KubeadmConfig":
			c := &bootstrapv1.KubeadmConfig{}
			if err := scheme.Convert(obj, c, nil); err != nil {
				return nil, nil, err
			}
			spec = &c.Spec
		case "KubeadmConfigTemplate":
			c := &bootstrapv1.KubeadmConfigTemplate{}
			if err := scheme.Convert(obj, c, nil); err != nil {
				return nil, nil, err
			}
			spec = &c.Spec.Template.Spec
		case "KubeadmControlPlane":
			kcp = &controlplanev1.KubeadmControlPlane{}
			if err := scheme.Convert(obj, kcp, nil); err != nil {
				return nil, nil, err
			}
			spec = &kcp.Spec.KubeadmConfigSpec
		case "KubeadmControlPlaneTemplate":
			t := &controlplanev1.KubeadmControlPlaneTemplate{}
			if err := scheme.Convert(obj, t, nil); err != nil {
				return nil, nil, err
			}
			kcp = &controlplanev1.KubeadmControlPlane{ObjectMeta: t.ObjectMeta}
			kcp.Spec.KubeadmConfigSpec = t.Spec.Template.Spec.KubeadmConfigSpec
		}
	}
	if spec == nil && kcp == nil {
		return nil, nil, fmt.Errorf("no KubeadmConfig, KubeadmConfigTemplate, KubeadmControlPlane or KubeadmControlPlaneTemplate")
	}
	if kcp != nil {
		// A KubeadmControlPlane's version is its own (kubeletcfg reads it too); a
		// clusterctl variable or a template: the minor's.
		if _, err := semver.ParseTolerant(kcp.Spec.Version); err != nil {
			kcp.Spec.Version = version
		}
		// webhooks/admission/kubeadmcontrolplane.go Default: the "v" prefix.
		if !strings.HasPrefix(kcp.Spec.Version, "v") {
			kcp.Spec.Version = "v" + kcp.Spec.Version
		}
		version = kcp.Spec.Version
		// The first control plane machine: kubeadm init.
		kc, err := desiredstate.ComputeDesiredKubeadmConfig(kcp, cluster, false, "first", nil)
		if err != nil {
			return nil, nil, err
		}
		if doc, err = initYAML(&kc.Spec, cluster, version); err != nil {
			return nil, nil, err
		}
		// The other control plane machines (scale up, rollouts): kubeadm join
		// --control-plane; joinControlplane writes the JoinConfiguration alone.
		jc, err := desiredstate.ComputeDesiredKubeadmConfig(kcp, cluster, true, "joining", nil)
		if err != nil {
			return nil, nil, err
		}
		parsed, err := semver.ParseTolerant(version)
		if err != nil {
			return nil, nil, err
		}
		j, err := kubeadmtypes.MarshalJoinConfigurationForVersion(&jc.Spec.JoinConfiguration, parsed)
		if err != nil {
			return nil, nil, err
		}
		return doc, []byte(j), nil
	}
	// KubeadmConfig(Template): kubeletcfg's reading of which phase runs (a control
	// plane's own KubeadmConfig inits only with an initConfiguration and no
	// joinConfiguration; CAPI decides by the machine's role and the cluster's state).
	init := !isZero(spec.InitConfiguration) && isZero(spec.JoinConfiguration)
	if init {
		doc, err := initYAML(spec, cluster, version)
		return doc, nil, err
	}
	parsed, err := semver.ParseTolerant(version)
	if err != nil {
		return nil, nil, err
	}
	jcfg := spec.JoinConfiguration.DeepCopy()
	if jcfg.ControlPlane == nil {
		// kubeadmconfig_controller.go joinWorker: the uninitialized taint, unless one
		// matches it (internal/util/taints HasTaint: key and effect).
		taints := ptr.Deref(jcfg.NodeRegistration.Taints, []corev1.Taint{})
		has := false
		for _, t := range taints {
			if t.MatchTaint(&clusterv1.NodeUninitializedTaint) {
				has = true
			}
		}
		if !has {
			jcfg.NodeRegistration.Taints = ptr.To(append(taints, clusterv1.NodeUninitializedTaint))
		}
	}
	// joinWorker, joinControlplane: the JoinConfiguration alone.
	s, err := kubeadmtypes.MarshalJoinConfigurationForVersion(jcfg, parsed)
	if err != nil {
		return nil, nil, err
	}
	return []byte(s), nil, nil
}

// initYAML is handleClusterNotInitialized's ClusterConfiguration and InitConfiguration.
func initYAML(spec *bootstrapv1.KubeadmConfigSpec, cluster *clusterv1.Cluster, version string) ([]byte, error) {
	parsed, err := semver.ParseTolerant(version)
	if err != nil {
		return nil, err
	}
	data := additionalData(cluster, version, &spec.ClusterConfiguration, &spec.InitConfiguration)
	cc, err := kubeadmtypes.MarshalClusterConfigurationForVersion(&spec.ClusterConfiguration, parsed, data)
	if err != nil {
		return nil, err
	}
	ic, err := kubeadmtypes.MarshalInitConfigurationForVersion(&spec.InitConfiguration, parsed)
	if err != nil {
		return nil, err
	}
	return []byte(cc + "---\n" + ic), nil
}

// additionalData is kubeadmconfig_controller.go computeClusterConfigurationAndAdditionalData
// (a method of the unexported reconciler, so copied here; the machine's version is version).
func additionalData(cluster *clusterv1.Cluster, version string, cc *bootstrapv1.ClusterConfiguration, ic *bootstrapv1.InitConfiguration) *upstream.AdditionalData {
	data := &upstream.AdditionalData{}
	if cc.ControlPlaneEndpoint == "" && cluster.Spec.ControlPlaneEndpoint.IsValid() {
		cc.ControlPlaneEndpoint = cluster.Spec.ControlPlaneEndpoint.String()
	}
	data.ClusterName = ptr.To(cluster.Name)
	if cluster.Spec.ClusterNetwork.ServiceDomain != "" {
		data.DNSDomain = ptr.To(cluster.Spec.ClusterNetwork.ServiceDomain)
	}
	if len(cluster.Spec.ClusterNetwork.Services.CIDRBlocks) > 0 {
		data.ServiceSubnet = ptr.To(cluster.Spec.ClusterNetwork.Services.String())
	}
	if len(cluster.Spec.ClusterNetwork.Pods.CIDRBlocks) > 0 {
		data.PodSubnet = ptr.To(cluster.Spec.ClusterNetwork.Pods.String())
	}
	data.KubernetesVersion = ptr.To(version)
	if ic.Timeouts.ControlPlaneComponentHealthCheckSeconds != nil {
		data.ControlPlaneComponentHealthCheckSeconds = ic.Timeouts.ControlPlaneComponentHealthCheckSeconds
	}
	return data
}

// isZero: the configuration was not given (its JSON is {}).
func isZero(v any) bool {
	b, err := yaml.Marshal(v)
	return err == nil && strings.TrimSpace(string(b)) == "{}"
}
