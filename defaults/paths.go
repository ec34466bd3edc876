package defaults

import (
	"path/filepath"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/utils/ptr"
)

// PathFields lists the JSON field paths the kubelet resolves against the
// config file's folder, in the order of KubeletConfigurationPathRefs
// (pkg/kubelet/apis/config/helpers.go).
var PathFields = []string{
	"staticPodPath",
	"authentication.x509.clientCAFile",
	"tlsCertFile",
	"tlsPrivateKeyFile",
	"resolvConf",
	"volumePluginDir",
	"podLogsDir",
}

// ResolveRelativePaths reproduces configfiles.resolveRelativePaths
// (pkg/kubelet/kubeletconfig/configfiles/configfiles.go) on the v1beta1
// object: every PathFields value that is non-empty and not absolute becomes
// filepath.Join(dir, value). It returns the JSON paths whose value changed, in
// PathFields order.
//
// The kubelet does this on the internal type, after decoding and defaulting,
// with dir = filepath.Dir of the absolute config file path. Call it after
// Apply: resolvConf is a *string in v1beta1 and only reaches the kubelet's
// resolution as a string once defaulted; a nil resolvConf is left alone (the
// default "/etc/resolv.conf" is absolute anyway). A resolved resolvConf gets a
// fresh pointer so a string shared with another object is not modified.
//
// Absoluteness is filepath.IsAbs, as the kubelet's utilfs.IsAbs on Unix.
func ResolveRelativePaths(obj *kubeletv1beta1.KubeletConfiguration, dir string) []string {
	var changed []string
	resolve := func(field string, p *string) {
		// Upstream: leave empty paths alone ("no path" is valid) and do not
		// resolve paths that are already absolute.
		if len(*p) > 0 && !filepath.IsAbs(*p) {
			resolved := filepath.Join(dir, *p)
			if resolved != *p {
				changed = append(changed, field)
			}
			*p = resolved
		}
	}
	resolve(PathFields[0], &obj.StaticPodPath)
	resolve(PathFields[1], &obj.Authentication.X509.ClientCAFile)
	resolve(PathFields[2], &obj.TLSCertFile)
	resolve(PathFields[3], &obj.TLSPrivateKeyFile)
	if obj.ResolverConfig != nil {
		rc := *obj.ResolverConfig
		resolve(PathFields[4], &rc)
		if rc != *obj.ResolverConfig {
			obj.ResolverConfig = ptr.To(rc)
		}
	}
	resolve(PathFields[5], &obj.VolumePluginDir)
	resolve(PathFields[6], &obj.PodLogsDir)
	return changed
}
