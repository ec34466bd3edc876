package k3s

// The names (and aliases) of the flags each command takes, which are the keys
// config.yaml may hold: configfilearg.Parser.stripInvalidFlags keeps a key only
// when the command's flags have that name.
//
// k3s (main at 2a1e2e8cf41b, built against Kubernetes v1.36.3-k3s1):
// pkg/cli/cmds/agent.go NewAgentCommand (Flags), pkg/cli/cmds/server.go
// ServerFlags, pkg/cli/cmds/log.go (v, vmodule, log, alsologtostderr),
// pkg/cli/cmds/root.go (debug, prefer-bundled-bin), pkg/cli/cmds/config.go
// (config).

var k3sAgentFlags = []string{
	"config", "c", "debug", "v", "vmodule", "log", "l", "alsologtostderr",
	"token", "t", "token-file", "server", "s", "data-dir", "d",
	"node-name", "with-node-id", "node-label", "node-taint",
	"image-credential-provider-bin-dir", "image-credential-provider-config",
	"selinux", "lb-server-port", "protect-kernel-defaults",
	"container-runtime-endpoint", "default-runtime", "image-service-endpoint",
	"pause-image", "snapshotter", "private-registry",
	"disable-default-registry-endpoint", "nonroot-devices", "airgap-extra-registry",
	"node-ip", "i", "bind-address", "node-external-ip", "node-internal-dns",
	"node-external-dns", "resolv-conf", "flannel-iface", "flannel-conf",
	"flannel-cni-conf", "kubelet-arg", "kube-proxy-arg", "enable-pprof",
	"rootless", "prefer-bundled-bin", "docker", "vpn-auth", "vpn-auth-file",
	"disable-apiserver-lb",
}

var k3sServerFlags = []string{
	"config", "c", "debug", "v", "vmodule", "log", "l", "alsologtostderr",
	"bind-address", "https-listen-port", "supervisor-port", "apiserver-port",
	"apiserver-bind-address", "advertise-address", "advertise-port", "tls-san",
	"tls-san-security", "data-dir", "d", "cluster-cidr", "service-cidr",
	"service-node-port-range", "cluster-dns", "cluster-domain", "flannel-backend",
	"flannel-ipv6-masq", "flannel-external-ip", "egress-selector-mode",
	"servicelb-namespace", "write-kubeconfig", "o", "write-kubeconfig-mode",
	"write-kubeconfig-group", "write-kubeconfig-name", "helm-job-image",
	"token", "t", "token-file", "agent-token", "agent-token-file", "server", "s",
	"cluster-init", "cluster-reset", "cluster-reset-restore-path",
	"kube-apiserver-arg", "etcd-arg", "kube-controller-manager-arg",
	"kube-scheduler-arg", "helm-controller-arg", "kube-cloud-controller-manager-arg",
	"kine-tls", "datastore-endpoint", "datastore-cafile", "datastore-certfile",
	"datastore-keyfile", "etcd-expose-metrics", "etcd-disable-snapshots",
	"etcd-snapshot-name", "etcd-snapshot-schedule-cron",
	"etcd-snapshot-reconcile-interval", "etcd-snapshot-retention",
	"etcd-snapshot-dir", "etcd-snapshot-compress", "etcd-s3", "etcd-s3-endpoint",
	"etcd-s3-endpoint-ca", "etcd-s3-skip-ssl-verify", "etcd-s3-access-key",
	"etcd-s3-secret-key", "etcd-s3-session-token", "etcd-s3-bucket",
	"etcd-s3-bucket-lookup-type", "etcd-s3-region", "etcd-s3-folder",
	"etcd-s3-retention", "etcd-s3-proxy", "etcd-s3-config-secret",
	"etcd-s3-insecure", "etcd-s3-timeout", "default-local-storage-path",
	"disable", "disable-scheduler", "disable-cloud-controller",
	"disable-kube-proxy", "disable-network-policy", "disable-helm-controller",
	"disable-apiserver", "disable-controller-manager", "disable-etcd",
	"embedded-registry", "supervisor-metrics", "node-name", "with-node-id",
	"node-label", "node-taint", "image-credential-provider-bin-dir",
	"image-credential-provider-config", "docker", "container-runtime-endpoint",
	"default-runtime", "image-service-endpoint", "disable-default-registry-endpoint",
	"nonroot-devices", "pause-image", "snapshotter", "private-registry",
	"system-default-registry", "airgap-extra-registry", "node-ip", "i",
	"node-external-ip", "node-internal-dns", "node-external-dns", "resolv-conf",
	"flannel-iface", "flannel-conf", "flannel-cni-conf", "vpn-auth",
	"vpn-auth-file", "kubelet-arg", "kube-proxy-arg", "protect-kernel-defaults",
	"secrets-encryption", "enable-pprof", "rootless", "secrets-encryption-provider",
	"prefer-bundled-bin", "selinux", "lb-server-port", "disable-agent",
	"kube-controller-arg", "kube-cloud-controller-arg",
}

// RKE2 (v1.36.3+rke2r1) builds its commands from k3s's (pkg/cli/cmds/agent.go
// and server.go, mustCmdFromK3S with a K3SFlagSet): the flags marked dropFlag
// are removed, and pkg/cli/cmds/root.go commonFlag and server.go's own flags
// are added. Both commands register their flags with
// configfilearg.DefaultParser.ValidFlags, so RKE2 drops unknown keys on agents
// too.

var rke2Dropped = map[string]bool{
	// agent.go and server.go K3SFlagSet entries set to dropFlag
	"docker": true, "image-service-endpoint": true, "disable-apiserver-lb": true,
	"flannel-iface": true, "flannel-conf": true, "flannel-cni-conf": true,
	"vpn-auth": true, "vpn-auth-file": true, "rootless": true,
	"prefer-bundled-bin": true, "https-listen-port": true, "supervisor-port": true,
	"apiserver-port": true, "apiserver-bind-address": true, "advertise-port": true,
	"cluster-init": true, "flannel-backend": true, "kube-controller-arg": true,
	"kube-cloud-controller-arg": true, "kine-tls": true,
	"default-local-storage-path": true, "disable-network-policy": true,
	"flannel-ipv6-masq": true, "flannel-external-ip": true,
	"disable-helm-controller": true,
}

var rke2Common = []string{
	// root.go commonFlag (images.* and podtemplate.* constants resolved)
	"kube-apiserver-image", "kube-controller-manager-image",
	"cloud-controller-manager-image", "kube-proxy-image", "kube-scheduler-image",
	"pause-image", "runtime-image", "etcd-image", "kubelet-path",
	"cloud-provider-name", "cloud-provider-config",
	"node-name-from-cloud-provider-metadata", "profile", "audit-policy-file",
	"pod-security-admission-config-file", "control-plane-resource-requests",
	"control-plane-resource-limits", "control-plane-probe-configuration",
	"kube-apiserver-extra-mount", "kube-scheduler-extra-mount",
	"kube-controller-manager-extra-mount", "kube-proxy-extra-mount",
	"etcd-extra-mount", "cloud-controller-manager-extra-mount",
	"kube-apiserver-extra-env", "kube-scheduler-extra-env",
	"kube-controller-manager-extra-env", "kube-proxy-extra-env", "etcd-extra-env",
	"cloud-controller-manager-extra-env",
}

// rke2ServerOnly are server.go's own flags; system-default-registry is the
// agent's deprecatedFlags entry.
var rke2ServerOnly = []string{"cni", "ingress-controller", "enable-servicelb", "prime"}

// flagSet is the set of keys a program's command accepts.
func flagSet(program, command string) map[string]bool {
	base := k3sServerFlags
	if command == "agent" {
		base = k3sAgentFlags
	}
	set := map[string]bool{}
	for _, n := range base {
		if program == "rke2" && rke2Dropped[n] {
			continue
		}
		set[n] = true
	}
	if program == "rke2" {
		for _, n := range rke2Common {
			set[n] = true
		}
		if command == "agent" {
			set["system-default-registry"] = true
		} else {
			for _, n := range rke2ServerOnly {
				set[n] = true
			}
		}
	}
	return set
}

// serverOnly reports whether key is a flag only k3s server takes: a file that
// holds one is a server's.
func serverOnly(key string) bool {
	for _, n := range k3sAgentFlags {
		if n == key {
			return false
		}
	}
	for _, n := range k3sServerFlags {
		if n == key {
			return true
		}
	}
	for _, n := range rke2ServerOnly {
		if n == key {
			return true
		}
	}
	return false
}
