package k3s

import (
	"fmt"
	"net"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	logsv1 "k8s.io/component-base/logs/api/v1"
	kubeletconfig "k8s.io/kubelet/config/v1beta1"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/internal/taints"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// aliases are the flags' short names (urfave/cli Aliases in pkg/cli/cmds).
var aliases = map[string]string{
	"c": "config", "t": "token", "s": "server", "d": "data-dir", "i": "node-ip",
	"l": "log", "o": "write-kubeconfig",
}

// sliceFlags are the StringSliceFlags among the keys the kubelet depends on:
// each occurrence adds a value (the app sets DisableSliceFlagSeparator, so a
// value is never split on commas by the CLI).
var sliceFlags = map[string]bool{
	"kubelet-arg": true, "node-label": true, "node-taint": true, "node-ip": true,
	"cluster-dns": true, "service-cidr": true, "disable": true,
}

type translation struct {
	path, program, command string
	// forceCommand, when set, is the command (tests: k3s agent)
	forceCommand string
	opt          bootstrap.Options
	out          *bootstrap.Output
	// values are the flags' values after the CLI parse: the last for a
	// scalar, all for a slice; at the position of the last/each.
	values map[string][]configArg
}

func (t *translation) tool() bootstrap.Tool {
	if t.program == "rke2" {
		return RKE2
	}
	return Tool
}

func (t *translation) name() string { return t.tool().Name }

// add reports a finding of one of the bootstrapper rules (input/bootstrap).
func (t *translation) add(rule *rule.Rule, pos finding.Position, path, msg, hint string) {
	t.out.Findings = append(t.out.Findings, rule.At(pos, path, msg, hint))
}

func (t *translation) last(key string) (configArg, bool) {
	v := t.values[key]
	if len(v) == 0 {
		return configArg{}, false
	}
	return v[len(v)-1], true
}

func (t *translation) str(key, def string) string {
	if a, ok := t.last(key); ok {
		return a.Value
	}
	return def
}

// boolean parses a BoolFlag as urfave/cli does (strconv.ParseBool); a value it
// cannot parse stops k3s.
func (t *translation) boolean(key string) (bool, bool) {
	a, ok := t.last(key)
	if !ok {
		return false, true
	}
	b, err := strconv.ParseBool(a.Value)
	if err != nil {
		t.add(bootstrap.Refuses, a.ValuePos, "",
			fmt.Sprintf("%s refuses %s: %q is no boolean (urfave/cli BoolFlag, pkg/cli/cmds, %s %s): invalid boolean value %q for -%s", t.name(), key, a.Value, t.name(), t.tool().Release, a.Value, key),
			"write true or false")
		return false, false
	}
	return b, true
}

func (t *translation) run(args []configArg) (*bootstrap.Output, error) {
	tool := t.tool()
	t.out = &bootstrap.Output{
		Tool:      tool,
		Positions: map[string]finding.Position{},
		Notes:     map[string]string{},
		AtBoot:    map[string]string{},
		Anchor:    finding.Position{File: t.path, Line: 1, Column: 1},
	}
	for _, a := range args {
		if a.KeyPos.File == t.path && a.KeyPos.Line > 0 {
			t.out.Anchor = a.KeyPos
			break
		}
	}
	// The command: a file with a flag only the server takes is a server's; one
	// naming a server to join (and no server-only flag) an agent's; else the
	// server (what the install script runs without K3S_URL).
	t.command = "server"
	hasServer := false
	for _, a := range args {
		k := a.Key
		if n, ok := aliases[k]; ok {
			k = n
		}
		if serverOnly(k) {
			hasServer = false
			t.command = "server"
			break
		}
		if k == "server" {
			hasServer = true
		}
	}
	if hasServer {
		t.command = "agent"
	}
	if t.forceCommand != "" {
		t.command = t.forceCommand
	}

	// configfilearg.Parser.stripInvalidFlags: a key the command does not take
	// is skipped with a warning, except for k3s agent, whose flags are not
	// registered with the parser: urfave/cli then stops on it.
	valid := flagSet(t.program, t.command)
	var names []string
	for n := range valid {
		names = append(names, n)
	}
	sort.Strings(names)
	strip := !(t.program == "k3s" && t.command == "agent")
	reported := map[string]bool{}
	t.values = map[string][]configArg{}
	for _, a := range args {
		if !valid[a.Key] {
			if !reported[a.Key] {
				reported[a.Key] = true
				hint := "remove the key, or move it where " + t.name() + " " + t.command + " takes it"
				if near := didyoumean.Nearest(a.Key, names); near != "" {
					hint = fmt.Sprintf("did you mean %q?", near)
				}
				if strip {
					t.add(bootstrap.Drops, a.KeyPos, "",
						fmt.Sprintf("%s %s drops %q: it is no flag of %s %s, and configfilearg.Parser.stripInvalidFlags (pkg/configfilearg/parser.go, k3s %s) skips it (\"Unknown flag --%s found in config.yaml, skipping\")", t.name(), t.command, a.Key, t.name(), t.command, Release, a.Key),
						hint)
				} else {
					t.add(bootstrap.Refuses, a.KeyPos, "",
						fmt.Sprintf("k3s agent refuses %q: it is no flag of k3s agent and the agent's flags are not registered with configfilearg (pkg/configfilearg/defaultparser.go ValidFlags, k3s %s), so urfave/cli stops: flag provided but not defined: -%s", a.Key, Release, a.Key),
						hint)
				}
			}
			continue
		}
		k := a.Key
		if n, ok := aliases[k]; ok {
			k = n
		}
		if sliceFlags[k] {
			t.values[k] = append(t.values[k], a)
		} else {
			t.values[k] = []configArg{a}
		}
	}

	if t.command == "server" {
		if b, _ := t.boolean("disable-agent"); b {
			a, _ := t.last("disable-agent")
			return nil, fmt.Errorf("%s:%d:%d: %s server with disable-agent runs no kubelet (pkg/cli/server/server.go)", t.path, a.KeyPos.Line, a.KeyPos.Column, t.name())
		}
	}
	if err := t.kubelet(); err != nil {
		return nil, err
	}
	finding.SortFindings(t.out.Findings)
	return t.out, nil
}

// kubelet ports kubeletArgsAndConfig (pkg/daemons/agent/agent_linux.go),
// defaultKubeletConfig and startKubelet (pkg/daemons/agent/agent.go), with the
// agent configuration pkg/agent/config/config.go get builds from the flags.
func (t *translation) kubelet() error {
	dataDir := t.str("data-dir", "/var/lib/rancher/"+t.program)
	agentDir := filepath.Join(dataDir, "agent")
	configDir := filepath.Join(agentDir, "etc", "kubelet.conf.d")
	t.out.ConfigDir = configDir

	cfg := t.defaultConfig()
	nodeIPs := t.nodeIP(cfg)
	if err := t.serverDecides(cfg); err != nil {
		return err
	}
	if err := t.agentValues(cfg, agentDir); err != nil {
		return err
	}
	args, userPos, rke2Cloud := t.argsAndConfig(cfg, agentDir, configDir, nodeIPs)
	if err := t.startKubelet(args, userPos, rke2Cloud, agentDir, configDir); err != nil {
		return err
	}
	return t.writeDropIn(cfg, configDir)
}

// k3sSource names a function of k3s's source at the release ported.
func k3sSource(fn string) string { return fmt.Sprintf("%s, k3s %s", fn, Release) }

// positionFrom gives the configuration's path the position of the flag key's
// value, when the file sets it.
func (t *translation) positionFrom(path, key string) {
	if a, ok := t.last(key); ok {
		t.out.Positions[path] = a.ValuePos
	}
}

// setBy notes that the tool sets path of its own accord, and why.
func (t *translation) setBy(path, why string) { t.out.Notes[path] = "set by " + t.name() + ": " + why }

// atBoot notes that the tool sets path on the node at boot, from what only
// the node knows.
func (t *translation) atBoot(path, why string) { t.out.AtBoot[path] = t.name() + ": " + why }

// defaultConfig is pkg/daemons/agent/agent.go defaultKubeletConfig.
func (t *translation) defaultConfig() *kubeletconfig.KubeletConfiguration {
	cfg := &kubeletconfig.KubeletConfiguration{
		TypeMeta: metav1.TypeMeta{
			APIVersion: "kubelet.config.k8s.io/v1beta1",
			Kind:       "KubeletConfiguration",
		},
		CPUManagerReconcilePeriod:        metav1.Duration{Duration: time.Second * 10},
		EvictionPressureTransitionPeriod: metav1.Duration{Duration: time.Minute * 5},
		FailSwapOn:                       ptr(false),
		FileCheckFrequency:               metav1.Duration{Duration: time.Second * 20},
		HTTPCheckFrequency:               metav1.Duration{Duration: time.Second * 20},
		ImageMinimumGCAge:                metav1.Duration{Duration: time.Minute * 2},
		NodeStatusReportFrequency:        metav1.Duration{Duration: time.Minute * 5},
		NodeStatusUpdateFrequency:        metav1.Duration{Duration: time.Second * 10},
		RuntimeRequestTimeout:            metav1.Duration{Duration: time.Minute * 2},
		StreamingConnectionIdleTimeout:   metav1.Duration{Duration: time.Hour * 4},
		SyncFrequency:                    metav1.Duration{Duration: time.Minute},
		VolumeStatsAggPeriod:             metav1.Duration{Duration: time.Minute},
		EvictionHard:                     map[string]string{"imagefs.available": "5%", "nodefs.available": "5%"},
		EvictionMinimumReclaim:           map[string]string{"imagefs.available": "10%", "nodefs.available": "10%"},
		Authentication: kubeletconfig.KubeletAuthentication{
			Anonymous: kubeletconfig.KubeletAnonymousAuthentication{Enabled: ptr(false)},
			Webhook:   kubeletconfig.KubeletWebhookAuthentication{Enabled: ptr(true), CacheTTL: metav1.Duration{Duration: time.Minute * 2}},
		},
		Authorization: kubeletconfig.KubeletAuthorization{
			Mode: kubeletconfig.KubeletAuthorizationModeWebhook,
			Webhook: kubeletconfig.KubeletWebhookAuthorization{
				CacheAuthorizedTTL:   metav1.Duration{Duration: time.Minute * 5},
				CacheUnauthorizedTTL: metav1.Duration{Duration: time.Second * 30},
			},
		},
		Logging: logsv1.LoggingConfiguration{
			Format: "text",
			FlushFrequency: logsv1.TimeOrMetaDuration{
				Duration:          metav1.Duration{Duration: time.Second * 5},
				SerializeAsString: true,
			},
		},
	}
	for _, p := range []string{"cpuManagerReconcilePeriod", "evictionPressureTransitionPeriod", "failSwapOn", "fileCheckFrequency",
		"httpCheckFrequency", "imageMinimumGCAge", "nodeStatusReportFrequency", "nodeStatusUpdateFrequency", "runtimeRequestTimeout",
		"streamingConnectionIdleTimeout", "syncFrequency", "volumeStatsAggPeriod", "evictionHard", "evictionMinimumReclaim",
		"authentication", "authorization", "logging"} {
		t.setBy(p, "default of "+k3sSource("pkg/daemons/agent/agent.go defaultKubeletConfig"))
	}

	return cfg
}

// nodeIP is the node's IP: node-ip, or the default route's address at boot
// (pkg/util/net.go GetHostnameAndIPs, ParseStringSliceToIPs); the healthz
// address follows its family.
func (t *translation) nodeIP(cfg *kubeletconfig.KubeletConfiguration) []string {
	name := t.name()
	var nodeIPs []string
	for _, a := range t.values["node-ip"] {
		for _, v := range strings.Split(a.Value, ",") {
			ip := net.ParseIP(v)
			if ip == nil {
				t.add(bootstrap.Refuses, a.ValuePos, "",
					fmt.Sprintf("%s refuses node-ip %q: invalid node-ip: invalid ip format '%s' (pkg/util/net.go GetHostnameAndIPs, k3s %s)", name, a.Value, v, Release),
					"write IP addresses, comma-separated")
				continue
			}
			nodeIPs = append(nodeIPs, ip.String())
		}
	}
	if len(nodeIPs) > 0 {
		ip := net.ParseIP(nodeIPs[0])
		cfg.HealthzBindAddress = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			cfg.HealthzBindAddress = "::1"
		}
		t.positionFrom("healthzBindAddress", "node-ip")
	} else {
		t.atBoot("healthzBindAddress", "127.0.0.1, or ::1 when the node's IP (found at boot) is IPv6 ("+k3sSource("defaultKubeletConfig")+")")
	}

	return nodeIPs
}

// serverDecides sets the values the server decides: for a server from this
// file, for an agent from the server it joins.
func (t *translation) serverDecides(cfg *kubeletconfig.KubeletConfiguration) error {
	if t.command == "server" {
		cfg.ClusterDomain = t.str("cluster-domain", "cluster.local")
		if _, ok := t.last("cluster-domain"); ok {
			t.positionFrom("clusterDomain", "cluster-domain")
		} else {
			t.setBy("clusterDomain", "the server's cluster-domain default (pkg/cli/cmds/server.go)")
		}
		dns, err := t.clusterDNS()
		if err != nil {
			return err
		}
		cfg.ClusterDNS = dns
	} else {
		t.atBoot("clusterDomain", "the server's cluster-domain, sent to the agent when it joins (pkg/agent/config/config.go get)")
		t.atBoot("clusterDNS", "the server's cluster-dns, sent to the agent when it joins (pkg/agent/config/config.go get)")
	}

	return nil
}

// agentValues sets what the agent's own flags and data dir decide
// (pkg/agent/config/config.go get, defaultKubeletConfig).
func (t *translation) agentValues(cfg *kubeletconfig.KubeletConfiguration, agentDir string) error {
	name := t.name()
	dataDirArg, dataDirSet := t.last("data-dir")
	if pkd, ok := t.boolean("protect-kernel-defaults"); ok && pkd {
		cfg.ProtectKernelDefaults = true
		t.positionFrom("protectKernelDefaults", "protect-kernel-defaults")
	}
	if a, ok := t.last("v"); ok {
		v, err := strconv.Atoi(a.Value)
		if err != nil {
			t.add(bootstrap.Refuses, a.ValuePos, "logging.verbosity",
				fmt.Sprintf("%s refuses v: %q is no integer (urfave/cli IntFlag, pkg/cli/cmds/log.go)", name, a.Value), "write a number: v: 2")
		} else {
			cfg.Logging.Verbosity = logsv1.VerbosityLevel(v)
			t.out.Positions["logging.verbosity"] = a.ValuePos
		}
	}
	if a, ok := t.last("vmodule"); ok && a.Value != "" {
		// defaultKubeletConfig ignores Set's error: what does not parse is
		// not written.
		if err := logsv1.VModuleConfigurationPflag(&cfg.Logging.VModule).Set(a.Value); err != nil {
			cfg.Logging.VModule = nil
			t.add(bootstrap.Drops, a.ValuePos, "logging.vmodule",
				fmt.Sprintf("%s drops vmodule %q from the kubelet's configuration: it does not parse (%v) and defaultKubeletConfig (%s) ignores the error", name, a.Value, err, k3sSource("pkg/daemons/agent/agent.go")),
				"write pattern=N,... (file.go=2,server=4)")
		}
		t.out.Positions["logging.vmodule"] = a.ValuePos
	}

	if a, ok := t.last("bind-address"); ok && a.Value != "" {
		cfg.Address = a.Value
		t.out.Positions["address"] = a.ValuePos
	} else {
		t.atBoot("address", "0.0.0.0 or :: by the node IP's family, found at boot (pkg/agent/config/config.go get, util.GetDefaultAddresses)")
	}
	cfg.Authentication.X509.ClientCAFile = filepath.Join(agentDir, "client-ca.crt")
	cfg.TLSCertFile = filepath.Join(agentDir, "serving-kubelet.crt")
	cfg.TLSPrivateKeyFile = filepath.Join(agentDir, "serving-kubelet.key")
	cfg.StaticPodPath = filepath.Join(agentDir, "pod-manifests")
	for _, p := range []string{"authentication.x509.clientCAFile", "tlsCertFile", "tlsPrivateKeyFile", "staticPodPath"} {
		if dataDirSet {
			t.out.Positions[p] = dataDirArg.ValuePos
		}
		t.setBy(p, "under the data dir ("+k3sSource("pkg/agent/config/config.go get")+")")
	}
	if a, ok := t.last("resolv-conf"); ok && a.Value != "" {
		cfg.ResolverConfig = ptr(a.Value)
		t.out.Positions["resolverConfig"] = a.ValuePos
	} else {
		t.atBoot("resolverConfig", "/etc/resolv.conf or /run/systemd/resolve/resolv.conf if usable, else one k3s writes (pkg/agent/config/config.go locateOrGenerateResolvConf)")
	}
	taints, err := t.taints()
	if err != nil {
		return err
	}
	cfg.RegisterWithTaints = taints

	return nil
}

// argsAndConfig is pkg/daemons/agent/agent_linux.go kubeletArgsAndConfig: the
// flags k3s passes (by flag name, with the user's position where a key of the
// file decides them) and the settings it adds to the configuration.
func (t *translation) argsAndConfig(cfg *kubeletconfig.KubeletConfiguration, agentDir, configDir string, nodeIPs []string) (argsMap map[string]defaultArg, flagUserPos map[string]finding.Position, rke2Cloud string) {
	name := t.name()
	argsMap = map[string]defaultArg{
		"config-dir":     {configDir, "k3s's drop-in folder (" + k3sSource("kubeletArgsAndConfig") + ")"},
		"kubeconfig":     {filepath.Join(agentDir, "kubelet.kubeconfig"), "k3s's kubelet kubeconfig (" + k3sSource("kubeletArgsAndConfig") + ")"},
		"read-only-port": {"0", "set by k3s as a flag because the config file would omit 0 (" + k3sSource("kubeletArgsAndConfig") + ", k3s-io/k3s#12164)"},
	}
	rootless, _ := t.boolean("rootless")
	if rootless {
		argsMap["root-dir"] = defaultArg{filepath.Join(agentDir, "kubelet"), "rootless (" + k3sSource("kubeletArgsAndConfig") + ")"}
		argsMap["cert-dir"] = defaultArg{filepath.Join(agentDir, "kubelet", "pki"), "rootless (" + k3sSource("kubeletArgsAndConfig") + ")"}
	}
	docker, _ := t.boolean("docker")
	runtimeSocket := "/run/k3s/containerd/containerd.sock"
	if a, ok := t.last("container-runtime-endpoint"); ok && a.Value != "" && !docker {
		runtimeSocket = a.Value
		t.out.Positions["containerRuntimeEndpoint"] = a.ValuePos
	} else if docker {
		runtimeSocket = ""
		t.atBoot("containerRuntimeEndpoint", "cri-dockerd's socket (pkg/agent/config applyCRIDockerdOSSpecificConfig)")
	} else {
		t.setBy("containerRuntimeEndpoint", "k3s's embedded containerd (pkg/agent/config/config_linux.go applyContainerdOSSpecificConfig)")
	}
	if runtimeSocket != "" || docker {
		cfg.SerializeImagePulls = ptr(false)
		t.setBy("serializeImagePulls", "with a container runtime socket ("+k3sSource("kubeletArgsAndConfig")+")")
	}
	if runtimeSocket != "" {
		if strings.HasPrefix(runtimeSocket, "unix://") {
			cfg.ContainerRuntimeEndpoint = runtimeSocket
		} else {
			cfg.ContainerRuntimeEndpoint = "unix://" + runtimeSocket
		}
	}
	if a, ok := t.last("image-service-endpoint"); ok && a.Value != "" {
		if strings.HasPrefix(a.Value, "unix://") {
			cfg.ImageServiceEndpoint = a.Value
		} else {
			cfg.ImageServiceEndpoint = "unix://" + a.Value
		}
		t.out.Positions["imageServiceEndpoint"] = a.ValuePos
	}
	flagUserPos = map[string]finding.Position{}
	if a, ok := t.last("node-name"); ok && a.Value != "" {
		if wid, _ := t.boolean("with-node-id"); !wid {
			argsMap["hostname-override"] = defaultArg{strings.ToLower(a.Value), "node-name"}
			flagUserPos["hostname-override"] = a.ValuePos
		}
	}
	disableCCM := false
	if t.command == "server" {
		disableCCM, _ = t.boolean("disable-cloud-controller")
	}
	if t.program == "rke2" {
		var cpi bool
		rke2Cloud, cpi = t.rke2CloudProvider()
		disableCCM = disableCCM || cpi
	}
	if disableCCM {
		if len(nodeIPs) == 1 || (len(nodeIPs) > 0 && !dualStack(nodeIPs)) {
			argsMap["node-ip"] = defaultArg{nodeIPs[0], "node-ip"}
			flagUserPos["node-ip"] = t.values["node-ip"][0].ValuePos
		}
	} else {
		why := "k3s's embedded cloud controller (" + k3sSource("kubeletArgsAndConfig") + ")"
		if t.command == "agent" {
			why += "; assumes the server does not set disable-cloud-controller"
		}
		argsMap["cloud-provider"] = defaultArg{"external", why}
		if len(nodeIPs) > 0 {
			argsMap["node-ip"] = defaultArg{strings.Join(nodeIPs, ","), "node-ip"}
			flagUserPos["node-ip"] = t.values["node-ip"][0].ValuePos
		}
	}
	t.atBoot("kubeletCgroups", "the cgroup k3s runs in, found at boot ("+k3sSource("kubeletArgsAndConfig")+", cgroups.CheckCgroups)")
	t.atBoot("cpuCFSQuota", "false when the cpu controller is missing, found at boot ("+k3sSource("kubeletArgsAndConfig")+")")
	t.atBoot("cgroupDriver", "systemd when k3s runs under systemd with the cpuset controller, else cgroupfs (pkg/agent/containerd/config_linux.go)")

	var labels []string
	for _, l := range t.values["node-label"] {
		labels = append(labels, l.Value)
	}
	argsMap["node-labels"] = defaultArg{strings.Join(labels, ","), "node-label"}
	if len(labels) > 0 {
		flagUserPos["node-labels"] = t.values["node-label"][0].ValuePos
	}
	if rootless {
		argsMap["feature-gates=KubeletInUserNamespace"] = defaultArg{"true", "rootless (" + k3sSource("createRootlessConfig") + ")"}
	}

	disableServiceLB := false
	if t.command == "server" {
		for _, d := range splitAll(t.values["disable"]) {
			if d == "servicelb" {
				disableServiceLB = true
			}
		}
		if cr, _ := t.boolean("cluster-reset"); cr {
			disableCCM, disableServiceLB = true, true
		}
	}
	if !disableServiceLB {
		cfg.AllowedUnsafeSysctls = []string{"net.ipv4.ip_forward", "net.ipv6.conf.all.forwarding"}
		t.setBy("allowedUnsafeSysctls", "for ServiceLB ("+k3sSource("kubeletArgsAndConfig")+")")
	} else if a, ok := t.last("disable"); ok {
		t.out.Notes["allowedUnsafeSysctls"] = fmt.Sprintf("%s: not set: disable lists servicelb (%s)", name, a.ValuePos)
	}

	return argsMap, flagUserPos, rke2Cloud
}

// startKubelet is pkg/daemons/agent/agent.go startKubelet: the extra
// arguments (RKE2 prepends its own), --config and --config-dir taken out,
// then GetArgs; the flags go to the output with their positions.
func (t *translation) startKubelet(argsMap map[string]defaultArg, flagUserPos map[string]finding.Position, rke2Cloud, agentDir, configDir string) error {
	name := t.name()
	var extra []kubeletArg
	if t.program == "rke2" {
		logs := filepath.Join(agentDir, "logs")
		for _, a := range []string{"stderrthreshold=FATAL", "log-file-max-size=50", "alsologtostderr=false", "logtostderr=false", "log-file=" + filepath.Join(logs, "kubelet.log")} {
			extra = append(extra, kubeletArg{Text: a, Note: "RKE2 (pkg/cli/defaults/defaults.go Set, " + RKE2.Release + ")"})
		}
	}
	for _, a := range t.values["kubelet-arg"] {
		extra = append(extra, kubeletArg{Text: a.Value, Pos: a.ValuePos, KeyPos: a.KeyPos})
	}
	ex, err := extractConfigArgs(extra)
	if err != nil {
		a := t.values["kubelet-arg"]
		p := t.out.Anchor
		if len(a) > 0 {
			p = a[0].KeyPos
		}
		for _, ka := range extra {
			if k, v, _ := strings.Cut(strings.TrimPrefix(ka.Text, "--"), "="); (k == "config" || k == "config-dir") && v == "" {
				p = ka.Pos
			}
		}
		t.add(bootstrap.Refuses, p, "",
			fmt.Sprintf("%s refuses to start the kubelet: %v (%s)", name, err, k3sSource("pkg/daemons/agent/agent.go extractConfigArgs")),
			"give the file or folder: kubelet-arg: config=/etc/kubelet.yaml")
	}
	for _, s := range ex.swallowed {
		t.add(bootstrap.Drops, s.arg.Pos, "",
			fmt.Sprintf("%s drops kubelet-arg %q: the kubelet-arg %q before it has no \"=\", so extractConfigArgs (%s) takes %q as its value and skips it",
				name, s.arg.Text, s.by.Text, k3sSource("pkg/daemons/agent/agent.go"), s.arg.Text),
			fmt.Sprintf("write %q as %s=VALUE", s.by.Text, strings.TrimPrefix(s.by.Text, "--")))
	}
	if ex.config != "" {
		t.copied(ex.config, ex.configArg, "config", "10-cli-config.conf", configDir)
	}
	if ex.configDir != "" {
		t.copied(ex.configDir, ex.configDirArg, "config-dir", "20-cli-config-dir", configDir)
	}

	flags := getArgs(argsMap, ex.args)
	if t.program == "rke2" {
		// pkg/executor/staticpod/staticpod.go Kubelet: RKE2's own flags first,
		// then k3s's, less the klog flags RKE2 keeps for its log writer.
		var pre []flagOut
		for _, f := range rke2KubeletFlags(rke2Cloud) {
			pre = append(pre, flagOut{Text: f, Default: "RKE2's static pod executor (pkg/executor/staticpod/staticpod.go Kubelet, " + RKE2.Release + ")"})
		}
		var rest []flagOut
		for _, f := range flags {
			if isKlogFlag(f.Text) {
				continue
			}
			rest = append(rest, f)
		}
		flags = append(pre, rest...)
	}
	for i, f := range flags {
		if strings.HasPrefix(f.Text, "--config-dir=") && !f.User {
			// the drop-in folder is Output.ConfigDir
			continue
		}
		pos, fnote := finding.Position{}, ""
		switch {
		case f.User && f.Arg.Pos.File != "":
			pos = f.Arg.Pos
		case f.User:
			fnote = f.Arg.Note
		default:
			fn := strings.SplitN(strings.TrimPrefix(f.Text, "--"), "=", 2)[0]
			if p, ok := flagUserPos[fn]; ok {
				pos = p
			} else {
				fnote = name + ": " + f.Default
			}
		}
		// KC9002: k3s's own value after one of the user's ("name-=v").
		if !f.User && i > 0 {
			prev := flags[i-1]
			fn := flagName(f.Text)
			if prev.User && prev.Arg.Pos.File != "" && flagName(prev.Text) == fn && !multiValued[fn] {
				t.add(bootstrap.Overrides, prev.Arg.Pos, "",
					fmt.Sprintf("%s passes its own %s after yours: kubelet-arg %q prepends (GetArgs, %s), and the kubelet keeps the last", name, f.Text, prev.Arg.Text, k3sSource("pkg/util/args.go")),
					fmt.Sprintf("write %s=VALUE (no \"-\") to replace %s's value", fn, name))
			}
		}
		t.out.Flags = append(t.out.Flags, f.Text)
		t.out.FlagPositions = append(t.out.FlagPositions, pos)
		t.out.FlagNotes = append(t.out.FlagNotes, fnote)
	}

	return nil
}

// writeDropIn writes the configuration as the drop-in k3s writes, and
// reports what the tool sets only at boot.
func (t *translation) writeDropIn(cfg *kubeletconfig.KubeletConfiguration, configDir string) error {
	name := t.name()
	b, err := yaml.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("%s: %v", t.path, err)
	}
	if b, err = t.applySet(b); err != nil {
		return err
	}
	t.out.DropIns = []bootstrap.File{{Path: filepath.Join(configDir, "00-"+t.program+"-defaults.conf"), Data: b}}
	boot := make([]string, 0, len(t.out.AtBoot))
	for p := range t.out.AtBoot {
		boot = append(boot, p)
	}
	sort.Strings(boot)
	for _, p := range boot {
		at := t.out.Anchor
		if a, ok := t.last("server"); ok && (p == "clusterDNS" || p == "clusterDomain") {
			at = a.KeyPos
		}
		t.add(bootstrap.AtBoot, at, p,
			fmt.Sprintf("%s sets %s on the node at boot: %s; it is left to the kubelet's default here", name, p, strings.TrimPrefix(t.out.AtBoot[p], name+": ")),
			fmt.Sprintf("give the value with --set %s=VALUE when it is known", p))
	}
	t.out.Note = fmt.Sprintf("%s %s configuration: the kubelet flags and %s as %s %s writes them",
		name, t.command, filepath.Base(t.out.DropIns[0].Path), name, t.tool().Release)
	if old(t.opt.Minor) {
		// k3s's kubelet is its own: kubelet 1.31 is k3s v1.31, which predates
		// "Switch to using kubelet config file for all supported flags"
		// (k3s-io/k3s#10433, first released in v1.32.0+k3s1).
		t.out.Note += fmt.Sprintf("; %s %s passed these settings as kubelet flags instead (the drop-in came with v1.32.0+k3s1): modelled as the newer releases write them", name, t.opt.Minor)
	}
	Trains[t.program].Pair(t.out, t.opt.Minor)
	return nil
}

// old reports whether minor ("1.31") is older than k3s v1.32, the first
// release with the drop-in.
func old(minor string) bool {
	major, m, ok := strings.Cut(minor, ".")
	if !ok || major != "1" {
		return false
	}
	n, err := strconv.Atoi(m)
	return err == nil && n < 32
}

// multiValued are kubelet flags whose occurrences add up rather than replace.
var multiValued = map[string]bool{"feature-gates": true, "node-labels": true}

func flagName(text string) string {
	return strings.SplitN(strings.TrimPrefix(text, "--"), "=", 2)[0]
}

// copied reports the user's --config or --config-dir, which k3s does not pass
// on: it copies the file or folder into its own drop-in folder.
func (t *translation) copied(val string, a kubeletArg, flag, dest, configDir string) {
	name := t.name()
	if strings.HasPrefix(val, configDir) {
		return
	}
	t.add(bootstrap.Overrides, a.Pos, "",
		fmt.Sprintf("%s does not pass --%s=%s to the kubelet: extractConfigArgs (pkg/daemons/agent/agent.go, k3s %s) copies it to %s, a drop-in merged over 00-%s-defaults.conf; k3s's own flags (--read-only-port=0, --node-labels, --cloud-provider, ...) still win over its values, and its content is not read here",
			name, flag, val, Release, filepath.Join(configDir, dest), t.program),
		"set the kubelet values there, or as kubelet-arg flags; lint the file itself with kubeletcfg lint")
}

// clusterDNS ports pkg/cli/server/server.go run: cluster-dns's addresses, or
// the tenth address of each service CIDR (10.43.0.10 by default).
func (t *translation) clusterDNS() ([]string, error) {
	if vals := t.values["cluster-dns"]; len(vals) > 0 {
		var out []string
		for _, a := range vals {
			for _, ip := range strings.Split(a.Value, ",") {
				if net.ParseIP(ip) == nil {
					t.add(bootstrap.Refuses, a.ValuePos, "clusterDNS",
						fmt.Sprintf("%s server refuses cluster-dns: invalid cluster-dns address %s (pkg/cli/server/server.go run, k3s %s)", t.name(), ip, Release), "write an IP address")
					continue
				}
				out = append(out, ip)
			}
			t.out.Positions["clusterDNS"] = a.ValuePos
		}
		return out, nil
	}
	cidrs := splitAll(t.values["service-cidr"])
	if len(cidrs) == 0 {
		cidrs = []string{"10.43.0.0/16"}
		t.out.Notes["clusterDNS"] = t.name() + ": the tenth address of the default service-cidr 10.43.0.0/16 (pkg/cli/server/server.go run)"
	} else {
		t.out.Positions["clusterDNS"] = t.values["service-cidr"][0].ValuePos
	}
	var out []string
	for _, c := range cidrs {
		_, n, err := net.ParseCIDR(c)
		if err != nil {
			a := t.values["service-cidr"][0]
			t.add(bootstrap.Refuses, a.ValuePos, "",
				fmt.Sprintf("%s server refuses service-cidr %q: %v (pkg/cli/server/server.go run)", t.name(), c, err), "write a CIDR: 10.43.0.0/16")
			continue
		}
		ip := indexedIP(n, 10)
		if ip != nil {
			out = append(out, ip.String())
		}
	}
	return out, nil
}

// indexedIP is k8s.io/utils/net GetIndexedIP: the network address plus index.
func indexedIP(n *net.IPNet, index int) net.IP {
	ip := make(net.IP, len(n.IP))
	copy(ip, n.IP)
	carry := index
	for i := len(ip) - 1; i >= 0 && carry > 0; i-- {
		sum := int(ip[i]) + carry
		ip[i] = byte(sum % 256)
		carry = sum / 256
	}
	if !n.Contains(ip) {
		return nil
	}
	return ip
}

func splitAll(vals []configArg) []string {
	var out []string
	for _, a := range vals {
		for _, s := range strings.Split(a.Value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func dualStack(ips []string) bool {
	v4, v6 := false, false
	for _, s := range ips {
		ip := net.ParseIP(s)
		if ip == nil {
			continue
		}
		if ip.To4() != nil {
			v4 = true
		} else {
			v6 = true
		}
	}
	return v4 && v6
}

// taints ports k8s.io/kubernetes/pkg/util/taints ParseTaints as
// defaultKubeletConfig calls it on node-taint: KEY[=VALUE]:EFFECT, a spec
// ending in "-" removes (and is ignored by k3s), anything else stops k3s
// ("failed to parse node taints").
func (t *translation) taints() ([]v1.Taint, error) {
	var out []v1.Taint
	seen := map[string]bool{}
	for i, a := range t.values["node-taint"] {
		spec := a.Value
		if strings.HasSuffix(spec, "-") {
			continue
		}
		taint, err := taints.Parse(spec)
		if err == nil && seen[taint.Key+":"+string(taint.Effect)] {
			err = fmt.Errorf("duplicated taints with the same key and effect: %v", taint)
		}
		if err != nil {
			t.add(bootstrap.Refuses, a.ValuePos, fmt.Sprintf("registerWithTaints[%d]", i),
				fmt.Sprintf("%s refuses node-taint %q: failed to parse node taints: %v (pkg/daemons/agent/agent.go defaultKubeletConfig, taints.ParseTaints, k3s %s)", t.name(), spec, err, Release),
				"write KEY=VALUE:EFFECT, EFFECT one of NoSchedule, PreferNoSchedule, NoExecute")
			continue
		}
		seen[taint.Key+":"+string(taint.Effect)] = true
		if len(out) == 0 {
			t.out.Positions["registerWithTaints"] = a.ValuePos
		}
		t.out.Positions[fmt.Sprintf("registerWithTaints[%d]", len(out))] = a.ValuePos
		out = append(out, taint)
	}
	return out, nil
}

// applySet writes the values the user gives (Options.Set, --set) for the
// paths only the node knows into the generated drop-in, where k3s writes them
// at boot.
func (t *translation) applySet(doc []byte) ([]byte, error) {
	var m map[string]any
	if err := yaml.Unmarshal(doc, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", t.path, err)
	}
	n := 0
	for k, v := range t.opt.Set {
		if _, ok := t.out.AtBoot[k]; !ok || strings.ContainsAny(k, ".[") {
			continue
		}
		var val any
		if err := yaml.Unmarshal([]byte(v), &val); err != nil {
			return nil, optionerr.Errorf("%s: {Set} %s=%s: %v", t.path, k, v, err)
		}
		m[k] = val
		delete(t.out.AtBoot, k)
		t.out.Notes[k] = "given with --set"
		n++
	}
	if n == 0 {
		return doc, nil
	}
	return yaml.Marshal(m)
}

func ptr[T any](v T) *T { return &v }
