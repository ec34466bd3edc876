package defaults

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/kubelets"

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
func ResolveRelativePaths(obj *kubeletv1beta1.KubeletConfiguration, dir string, nodeOS kubelets.OS) []string {
	var changed []string
	resolve := func(field string, p *string) {
		// Upstream: leave empty paths alone ("no path" is valid) and do not
		// resolve paths that are already absolute.
		if len(*p) > 0 && !IsAbs(nodeOS, *p) {
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

// IsAbs is the kubelet's utilfs.IsAbs (pkg/util/filesystem) on the node's OS:
// filepath.IsAbs on Linux; on Windows (util_windows.go) a path with a drive
// and a separator (C:\k, c:/k), or one that starts with \ or / (a UNC path,
// a path on the current drive). Go's Windows filepath.IsAbs also takes the
// reserved device names (NUL, COM1) as absolute; no kubelet path names one.
func IsAbs(nodeOS kubelets.OS, p string) bool {
	if nodeOS.Or() != kubelets.Windows {
		return filepath.IsAbs(p)
	}
	return strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/") || IsDrivePath(p)
}

// IsDrivePath reports whether p starts with a Windows drive and a separator
// (C:\k, c:/k): an absolute path only on Windows.
func IsDrivePath(p string) bool {
	return hasDrive(p) && len(p) >= 3 && (p[2] == '\\' || p[2] == '/')
}

// hasDrive reports whether p starts with a drive letter and a colon.
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && 'a' <= p[0]|0x20 && p[0]|0x20 <= 'z'
}

// CleanPath is p as the kubelet's utilfs.IsPathClean compares it on the
// node's OS: filepath.Clean on Linux; on Windows, filepath.ToSlash of
// Windows's filepath.Clean, which takes \ and / both as separators and keeps
// a drive (C:) or UNC volume (//host/share) in front of the cleaned rest (a
// UNC volume alone as it is, a drive alone with ".").
func CleanPath(nodeOS kubelets.OS, p string) string {
	if nodeOS.Or() != kubelets.Windows {
		return filepath.Clean(p)
	}
	s := strings.ReplaceAll(p, `\`, "/")
	vol := ""
	switch {
	case hasDrive(s):
		vol = s[:2]
	case strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "///"):
		if host, rest, ok := strings.Cut(s[2:], "/"); ok && host != "" {
			share, _, _ := strings.Cut(rest, "/")
			if share != "" {
				vol = "//" + host + "/" + share
			}
		}
	}
	rest := s[len(vol):]
	switch {
	case rest != "":
		return vol + path.Clean(rest)
	case strings.HasPrefix(vol, "//"):
		return vol
	}
	return vol + "."
}

// IsPathClean is the kubelet's utilfs.IsPathClean on the node's OS:
// filepath.ToSlash(filepath.Clean(p)) == filepath.ToSlash(p).
func IsPathClean(nodeOS kubelets.OS, p string) bool {
	if nodeOS.Or() != kubelets.Windows {
		return CleanPath(nodeOS, p) == p
	}
	return CleanPath(nodeOS, p) == strings.ReplaceAll(p, `\`, "/")
}
