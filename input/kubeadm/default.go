package kubeadm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	netutils "k8s.io/utils/net"
	"sigs.k8s.io/yaml"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Networking is what kubeadm's kubelet defaulting reads of a ClusterConfiguration,
// after kubeadm's static defaults (apis/kubeadm/v1beta4/defaults.go).
type Networking struct {
	ServiceSubnet   string // networking.serviceSubnet
	DNSDomain       string // networking.dnsDomain
	CertificatesDir string // certificatesDir
}

// kubeadm's static defaults (v1beta4 and v1beta3 alike, kubeadm 1.31-1.37).
const (
	defaultServiceSubnet   = "10.96.0.0/12"
	defaultDNSDomain       = "cluster.local"
	defaultCertificatesDir = "/etc/kubernetes/pki"
	defaultClusterDNSIP    = "10.96.0.10"
	defaultManifestsDir    = "/etc/kubernetes/manifests"
	systemdResolvConf      = "/run/systemd/resolve/resolv.conf"
)

// DefaultNetworking is a ClusterConfiguration's networking when the file has none.
func DefaultNetworking() Networking {
	return Networking{ServiceSubnet: defaultServiceSubnet, DNSDomain: defaultDNSDomain, CertificatesDir: defaultCertificatesDir}
}

// Options are what kubeadm reads from the node rather than from the file.
type Options struct {
	// SystemdResolved: systemd-resolved is active on the node, so kubeadm points
	// resolvConf at /run/systemd/resolve/resolv.conf (componentconfigs/kubelet_unix.go,
	// mutateResolverConfig). kubeletcfg cannot see the node: false unless asked.
	SystemdResolved bool
	// Patches is kubeadm init's --patches folder, which overrides the
	// InitConfiguration's patches.directory (patches.go).
	Patches string
	// CRISocket is the container runtime socket kubeadm detects on the node
	// (util/runtime DetectCRISocket) when nodeRegistration.criSocket is not
	// written; empty: unknown until boot, so kubeletcfg writes no
	// --container-runtime-endpoint or instance configuration for it.
	CRISocket string
	// OS is the node's operating system ("": Linux). On Windows kubeadm's
	// Mutate (componentconfigs/kubelet_windows.go) empties resolvConf and puts
	// Drive before staticPodPath and clientCAFile when they start with "/".
	OS kubelets.OS
	// Drive is the drive kubeadm.exe runs from on a Windows node (the volume of
	// os.Executable); empty: C:, the usual one.
	Drive string
}

// DefaultDrive is the drive a Windows node's kubeadm.exe is assumed to run from.
const DefaultDrive = "C:"

// windowsPath is filepath.Join(drive, p) as Windows computes it for a path p
// that starts with "/": the drive, then p cleaned with backslashes.
func windowsPath(drive, p string) string {
	return drive + strings.ReplaceAll(path.Clean(p), "/", `\`)
}

// windowsJoin is filepath.Join(dir, name) as Windows computes it: cleaned,
// with backslashes.
func windowsJoin(dir, name string) string {
	return strings.ReplaceAll(path.Join(strings.ReplaceAll(dir, `\`, "/"), name), "/", `\`)
}

// mutateWindows is mutatePaths of componentconfigs/kubelet_windows.go (the same
// in 1.31..1.38).
func mutateWindows(kc *kubeletv1beta1.KubeletConfiguration, drive string) {
	kc.ResolverConfig = ptr("")
	if strings.HasPrefix(kc.StaticPodPath, "/") {
		kc.StaticPodPath = windowsPath(drive, kc.StaticPodPath)
	}
	if strings.HasPrefix(kc.Authentication.X509.ClientCAFile, "/") {
		kc.Authentication.X509.ClientCAFile = windowsPath(drive, kc.Authentication.X509.ClientCAFile)
	}
}

// drive is opt.Drive, else DefaultDrive.
func (opt Options) drive() string {
	if opt.Drive != "" {
		return opt.Drive
	}
	return DefaultDrive
}

// KubeletConfig reproduces what `kubeadm init` (1.31-1.37: the kubelet
// component-config code is the same in each) writes to /var/lib/kubelet/config.yaml
// from the KubeletConfiguration document doc (nil: none) and the ClusterConfiguration's
// networking: the document decoded as kubeadm decodes it (leniently: unknown fields are
// dropped), kubeletConfig.Default (componentconfigs/kubelet.go), Mutate (resolvConf)
// and the marshalling of phases/kubelet.WriteConfigToDisk. The conformance harness's
// kubeadm goldens (testdata/kubeadm/golden) are kubeadm's own output for the same input.
func KubeletConfig(doc []byte, net Networking, opt Options) ([]byte, error) {
	kc := &kubeletv1beta1.KubeletConfiguration{}
	if len(doc) > 0 {
		d := source.DecodeMain(doc)
		if d.Err != nil {
			return nil, d.Err
		}
		kc = d.Config
	}
	kubeadmDefault(kc, net, opt.OS)
	switch {
	case opt.OS == kubelets.Windows:
		mutateWindows(kc, opt.drive())
	case opt.SystemdResolved && kc.ResolverConfig == nil:
		kc.ResolverConfig = ptr(systemdResolvConf)
	}
	kc.APIVersion = kubeletv1beta1.SchemeGroupVersion.String()
	kc.Kind = "KubeletConfiguration"
	return yaml.Marshal(kc)
}

// kubeadmDefault is kubeletConfig.Default of componentconfigs/kubelet.go. Where the
// file sets a value other than kubeadm's, kubeadm only warns and keeps the file's,
// except rotateCertificates, which it forces to true.
func kubeadmDefault(kc *kubeletv1beta1.KubeletConfiguration, net Networking, nodeOS kubelets.OS) {
	if kc.FeatureGates == nil {
		kc.FeatureGates = map[string]bool{}
	}
	if kc.StaticPodPath == "" {
		kc.StaticPodPath = defaultManifestsDir
	}
	if kc.ClusterDNS == nil {
		kc.ClusterDNS = []string{clusterDNS(net.ServiceSubnet)}
	}
	if kc.ClusterDomain == "" {
		kc.ClusterDomain = net.DNSDomain
	}
	if kc.Authentication.X509.ClientCAFile == "" {
		kc.Authentication.X509.ClientCAFile = path.Join(net.CertificatesDir, "ca.crt")
		if nodeOS == kubelets.Windows {
			// filepath.Join on Windows: backslashes, so Mutate (which looks
			// for a leading "/") leaves it without a drive.
			kc.Authentication.X509.ClientCAFile = windowsJoin(net.CertificatesDir, "ca.crt")
		}
	}
	if kc.Authentication.Anonymous.Enabled == nil {
		kc.Authentication.Anonymous.Enabled = ptr(false)
	}
	if kc.Authorization.Mode == "" {
		kc.Authorization.Mode = kubeletv1beta1.KubeletAuthorizationModeWebhook
	}
	if kc.Authentication.Webhook.Enabled == nil {
		kc.Authentication.Webhook.Enabled = ptr(true)
	}
	if kc.HealthzBindAddress == "" {
		kc.HealthzBindAddress = "127.0.0.1"
	}
	if kc.HealthzPort == nil {
		kc.HealthzPort = ptr[int32](10248)
	}
	kc.RotateCertificates = true
	if kc.CgroupDriver == "" {
		kc.CgroupDriver = "systemd"
	}
}

// Sets are the paths kubeletConfig.Default and Mutate set.
var Sets = []string{"featureGates", "staticPodPath", "clusterDNS", "clusterDomain",
	"authentication.x509.clientCAFile", "authentication.anonymous.enabled", "authorization.mode",
	"authentication.webhook.enabled", "healthzBindAddress", "healthzPort", "rotateCertificates",
	"cgroupDriver", "resolvConf"}

// clusterDNS is constants.GetDNSIP: the 10th address of the first service subnet, or
// 10.96.0.10 when there is none (kubeadm falls back silently).
func clusterDNS(subnets string) string {
	cidrs, err := netutils.ParseCIDRs(strings.Split(subnets, ","))
	if err != nil || len(cidrs) == 0 {
		return defaultClusterDNSIP
	}
	ip, err := netutils.GetIndexedIP(cidrs[0], 10)
	if err != nil {
		return defaultClusterDNSIP
	}
	return ip.String()
}

func ptr[T any](v T) *T { return &v }

// DefaultsNote lists what kubeadm sets, for the report's note.
func DefaultsNote(net Networking, opt Options) string {
	s := fmt.Sprintf("clusterDNS %s (from serviceSubnet %s), clusterDomain %s, authentication/authorization webhook, x509 clientCAFile %s, staticPodPath, healthz 127.0.0.1:10248, rotateCertificates, cgroupDriver systemd",
		clusterDNS(net.ServiceSubnet), net.ServiceSubnet, net.DNSDomain, path.Join(net.CertificatesDir, "ca.crt"))
	switch {
	case opt.OS == kubelets.Windows:
		s += fmt.Sprintf(`; on Windows resolvConf "", the drive %s before staticPodPath and a clientCAFile written with a leading /, a default clientCAFile with backslashes`, opt.drive())
	case opt.SystemdResolved:
		s += ", resolvConf " + systemdResolvConf
	}
	return s
}

// KubeletConfigAt is KubeletConfig as kubeadm of minor m writes it:
// kubeadm decodes and marshals with its own minor's kubelet types, so a field m does
// not have (crashLoopBackOff before 1.32) is neither kept from the file nor written
// as a zero value.
func KubeletConfigAt(doc []byte, net Networking, opt Options, m *kubelets.Minor) ([]byte, error) {
	out, err := KubeletConfig(doc, net, opt)
	if err != nil || m == nil {
		return out, err
	}
	j, err := yaml.YAMLToJSON(out)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	pruneFields(obj, m.Fields(), true)
	j, err = json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}

// pruneFields drops the keys of obj that the Object field f does not have
// (apiVersion and kind at the top stay).
func pruneFields(obj map[string]any, f *kubelets.Field, top bool) {
	for k, v := range obj {
		if top && (k == "apiVersion" || k == "kind") {
			continue
		}
		c, exact := f.Child(k)
		if c == nil || !exact {
			delete(obj, k)
			continue
		}
		if sub, ok := v.(map[string]any); ok && c.Kind == kubelets.Object {
			pruneFields(sub, c, false)
		}
	}
}
