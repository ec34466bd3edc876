package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	_ "unsafe" // for go:linkname

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	"k8s.io/kubernetes/pkg/features"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	"k8s.io/kubernetes/pkg/kubelet/eviction"
	"k8s.io/kubernetes/pkg/kubelet/sysctl"
	"k8s.io/utils/cpuset"
)

// The run stage: what the kubelet does with its configuration after
// ValidateKubeletConfiguration and before it needs the host (the CRI, cadvisor, the
// container manager). RunE calls UnsecuredDependencies, then Run -> run ->
// RunKubelet -> NewMainKubelet; each refuses more of the configuration, and a
// refusal there is as fatal as a validation error. runStage calls the kubelet's own
// functions in the order it reaches them (parseResourceList through go:linkname) and
// wraps each error as its callers do. What depends on the host is not reproduced
// (docs/fidelity.md): the CPU topology (reservedSystemCPUs must be a subset of the
// online CPUs), the TLS key and client CA files, cgroups and the managers
// NewContainerManager builds.
//
// The harness models a node that joins a cluster: NewMainKubelet checks the
// configmap and secret change detection strategy only with an API client
// (--kubeconfig), and every real node has one.

//go:linkname parseResourceList k8s.io/kubernetes/cmd/kubelet/app.parseResourceList
func parseResourceList(m map[string]string) (v1.ResourceList, error)

func init() { linkedFuncs = append(linkedFuncs, parseResourceList) }

// Error prefixes as RunE, Run and RunKubelet wrap what they return.
const (
	dependenciesPrefix = "failed to construct kubelet dependencies: "
	runPrefix          = "failed to run Kubelet: "
	newKubeletPrefix   = runPrefix + "failed to create kubelet: "
)

func prefixed(prefix string, err error) error {
	if err == nil {
		return nil
	}
	return errors.New(prefix + err.Error())
}

// runStage returns the kubelet's first refusal after validation, nil when it gets
// past every check of the configuration alone. kc is not changed.
func runStage(kf *options.KubeletFlags, in *kubeletconfiginternal.KubeletConfiguration) error {
	kc := in.DeepCopy()
	// RunE: UnsecuredDependencies -> InitializeTLS. It writes a self-signed key pair
	// into --cert-dir when no serving certificate is configured; a folder holding
	// (empty) files by those names makes it go straight to parsing the TLS settings.
	if err := initializeTLSSettings(kf, kc.DeepCopy()); err != nil {
		return prefixed(dependenciesPrefix, err)
	}
	if err := run(kf, kc); err != nil {
		return prefixed(runPrefix, err)
	}
	if err := newMainKubelet(kf, kc); err != nil {
		return prefixed(newKubeletPrefix, err)
	}
	return nil
}

func initializeTLSSettings(kf *options.KubeletFlags, kc *kubeletconfiginternal.KubeletConfiguration) error {
	certDir, err := os.MkdirTemp("", "harness-pki-")
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	defer os.RemoveAll(certDir)
	for _, name := range []string{"kubelet.crt", "kubelet.key"} {
		if err := os.WriteFile(filepath.Join(certDir, name), nil, 0o600); err != nil {
			return fmt.Errorf("harness: %w", err)
		}
	}
	flags := *kf
	flags.CertDirectory = certDir
	// Up to 1.35 InitializeTLS also reads authentication.x509.clientCAFile, last:
	// a file on the node, not the configuration.
	kc.Authentication.X509.ClientCAFile = ""
	return initializeTLS(&flags, kc)
}

// run is cmd/kubelet/app.run from the container manager's set-up: the part that
// reads the configuration only.
func run(kf *options.KubeletFlags, s *kubeletconfiginternal.KubeletConfiguration) error {
	// getReservedCPUs: the topology is the host's; the list itself was parsed by
	// validation already, and run parses it again.
	if s.ReservedSystemCPUs != "" {
		reserved, err := cpuset.Parse(s.ReservedSystemCPUs)
		if err != nil {
			return fmt.Errorf("unable to parse reserved-cpus list: %s", err)
		}
		if reserved.Size() > 0 {
			if s.KubeReserved != nil {
				delete(s.KubeReserved, "cpu")
			}
			if s.SystemReserved == nil {
				s.SystemReserved = make(map[string]string)
			}
			s.SystemReserved["cpu"] = strconv.Itoa(reserved.Size())
		}
	}
	if _, err := parseResourceList(s.KubeReserved); err != nil {
		return fmt.Errorf("--kube-reserved value failed to parse: %w", err)
	}
	if _, err := parseResourceList(s.SystemReserved); err != nil {
		return fmt.Errorf("--system-reserved value failed to parse: %w", err)
	}
	if !kf.ExperimentalNodeAllocatableIgnoreEvictionThreshold {
		if _, err := eviction.ParseThresholdConfig([]string{}, s.EvictionHard, nil, nil, nil); err != nil {
			return err
		}
	}
	if _, err := cm.ParseQOSReserved(s.QOSReserved); err != nil {
		return fmt.Errorf("--qos-reserved value failed to parse: %w", err)
	}
	if !utilfeature.DefaultFeatureGate.Enabled(features.TopologyManagerPolicyOptions) && s.TopologyManagerPolicyOptions != nil {
		return fmt.Errorf("topology manager policy options %v require feature gates %q enabled",
			s.TopologyManagerPolicyOptions, features.TopologyManagerPolicyOptions)
	}
	return limitedSwap(s)
}

// newMainKubelet is pkg/kubelet.NewMainKubelet's checks of the configuration, in
// its order.
func newMainKubelet(kf *options.KubeletFlags, kc *kubeletconfiginternal.KubeletConfiguration) error {
	if kf.RootDirectory == "" {
		return fmt.Errorf("invalid root directory %q", kf.RootDirectory)
	}
	if kc.PodLogsDir == "" {
		return errors.New("pod logs root directory is empty")
	}
	if kc.SyncFrequency.Duration <= 0 {
		return fmt.Errorf("invalid sync frequency %d", kc.SyncFrequency.Duration)
	}
	enforceNodeAllocatable := kc.EnforceNodeAllocatable
	if kf.ExperimentalNodeAllocatableIgnoreEvictionThreshold {
		enforceNodeAllocatable = []string{}
	}
	if _, err := eviction.ParseThresholdConfig(enforceNodeAllocatable, kc.EvictionHard, kc.EvictionSoft, kc.EvictionSoftGracePeriod, kc.EvictionMinimumReclaim); err != nil {
		return err
	}
	switch kc.ConfigMapAndSecretChangeDetectionStrategy {
	case kubeletconfiginternal.WatchChangeDetectionStrategy, kubeletconfiginternal.TTLCacheChangeDetectionStrategy, kubeletconfiginternal.GetChangeDetectionStrategy:
	default:
		return fmt.Errorf("unknown configmap and secret manager mode: %v", kc.ConfigMapAndSecretChangeDetectionStrategy)
	}
	if err := newContainerLogManager(kc); err != nil {
		return fmt.Errorf("failed to initialize container log manager: %v", err)
	}
	// NewMainKubelet appends the user's patterns to the safe sysctls, which are
	// valid patterns whatever the kernel; the first invalid pattern is the user's.
	if _, err := sysctl.NewAllowlist(kc.AllowedUnsafeSysctls); err != nil {
		return err
	}
	return nil
}
