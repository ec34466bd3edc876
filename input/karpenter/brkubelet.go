package karpenter

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// Bottlerocket turns settings.kubernetes into the kubelet's configuration
// with a handlebars template per Kubernetes version
// (packages/kubernetes-1.XX/kubelet-config, rendered by schnauzer to
// /etc/kubernetes/kubelet/config) and its flags with another
// (kubelet-exec-start-conf). The sources read: bottlerocket-core-kit v3.1.1
// (the templates and schnauzer's helpers) and the aws-k8s-1.31 variant's
// settings defaults of bottlerocket v1.26.0, the release built on it
// (sources/settings-defaults/aws-k8s-1.31/defaults.d).
const (
	brCoreKit = "bottlerocket-core-kit v3.1.1"
	brOS      = "bottlerocket v1.26.0"
	// brNewest is the newest Kubernetes version with a kubelet-config
	// template in brCoreKit; newer kubelets are paired with it.
	brNewest = "1.31"
)

// brTool is Bottlerocket as the writer of the kubelet's files on the node.
var brTool = bootstrap.Tool{Name: "Bottlerocket", Release: "core-kit v3.1.1", Source: "packages/kubernetes-1.31/kubelet-config, kubelet-exec-start-conf"}

// brDefaults are the aws-k8s-1.31 variant's defaults of the settings the
// kubelet-config template reads (the others it reads have none).
var brDefaults = map[string]struct {
	value any
	file  string
}{
	"cluster-domain":       {"cluster.local", "sources/shared-defaults/kubernetes-aws.toml"},
	"server-tls-bootstrap": {true, "sources/shared-defaults/kubernetes-aws.toml"},
	"seccomp-default":      {false, "sources/shared-defaults/kubernetes-seccomp-default-false.toml"},
}

// brUnmapped are settings of Karpenter's BottlerocketKubernetes that reach
// the kubelet in a way this port does not model, or that the templates of
// brCoreKit do not read at all, with what becomes of them.
var brUnmapped = map[string]string{
	"cloud-provider":                         "Bottlerocket passes it as the kubelet's --cloud-provider flag (kubelet-exec-start-conf), which kubeletcfg does not model",
	"credential-providers":                   "Bottlerocket writes it to the kubelet's --image-credential-provider-config file and flags (credential-provider-config-yaml, kubelet-exec-start-conf), which kubeletcfg does not model",
	"node-labels":                            "Bottlerocket passes it, with the NodePool's labels Karpenter merges in, as the kubelet's --node-labels flag (kubelet-env, kubelet-exec-start-conf), which kubeletcfg does not model",
	"hostname-override-source":               "Bottlerocket derives the kubelet's --hostname-override from it at boot, which kubeletcfg does not model",
	"device-ownership-from-security-context": "the kubelet-config template of " + brCoreKit + " does not read it (newer Bottlerocket releases may)",
	"single-process-oom-kill":                "the kubelet-config template of " + brCoreKit + " does not read it (newer Bottlerocket releases may)",
	"container-log-max-workers":              "the kubelet-config template of " + brCoreKit + " does not read it (newer Bottlerocket releases may)",
	"container-log-monitor-interval":         "the kubelet-config template of " + brCoreKit + " does not read it (newer Bottlerocket releases may)",
	"ids-per-pod":                            "the kubelet-config template of " + brCoreKit + " does not read it (newer Bottlerocket releases may)",
	"topology-manager-policy-options":        "the kubelet-config template of " + brCoreKit + " does not read it (newer Bottlerocket releases may)",
}

// brRender is one rendering of the kubelet-config template.
type brRender struct {
	t    *translation
	s    *brScript
	tmpl string // the template's path in brCoreKit
	b    strings.Builder
	// from are the settings each kubelet path was rendered from (the key
	// path under settings.kubernetes); nil for the template's own value.
	from map[string][]string
	// defaulted are the paths a default helper gave, with its value.
	defaulted map[string]bool
}

// setting is settings.kubernetes' value at the key path, else the
// variant's default (top-level settings).
func (r *brRender) setting(parts ...string) (any, bool) {
	var v any = r.s.k8s
	for _, p := range parts {
		m, ok := v.(map[string]any)
		if !ok {
			v = nil
			break
		}
		v, ok = m[p]
		if !ok {
			v = nil
			break
		}
	}
	if v != nil {
		return v, true
	}
	if d, ok := brDefaults[parts[0]]; ok && len(parts) == 1 {
		return d.value, true
	}
	return nil, false
}

// truthy is handlebars' #if: false, null, "", 0 (unless includeZero), an
// empty list or object are false.
func truthy(v any, includeZero bool) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int64:
		return x != 0 || includeZero
	case float64:
		return x != 0 || includeZero
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// render is handlebars' rendering of a value: an array is "[a, b, ]".
func render(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []any:
		var b strings.Builder
		b.WriteString("[")
		for _, e := range x {
			b.WriteString(render(e) + ", ")
		}
		b.WriteString("]")
		return b.String()
	case map[string]any:
		return "[object]"
	}
	return fmt.Sprint(v)
}

func (r *brRender) line(path string, from []string, text string) {
	r.b.WriteString(text + "\n")
	if path != "" {
		r.from[path] = from
	}
}

// val renders a setting's value on a line of its own ("kubeAPIQPS: 30").
func (r *brRender) val(path, setting string, includeZero bool) {
	if v, ok := r.setting(setting); ok && truthy(v, includeZero) && !r.s.atBoot[setting] {
		r.line(path, []string{setting}, path+": "+render(v))
	}
}

// def is {{default DEF setting}}.
func (r *brRender) def(path, setting string, def any) {
	if r.s.atBoot[setting] {
		return
	}
	v, ok := r.setting(setting)
	if !ok {
		v = def
		r.defaulted[path] = true
	}
	r.line(path, []string{setting}, path+": "+render(v))
}

// strMap renders a map setting as the template's #each ({{@key}}: "{{this}}").
func (r *brRender) strMap(path, setting, indent string) {
	v, ok := r.setting(setting)
	if !ok || !truthy(v, false) {
		return
	}
	m, _ := v.(map[string]any)
	r.line(path, []string{setting}, path+":")
	for _, k := range sortedKeys(m) {
		r.line(path+"["+k+"]", []string{setting, k}, fmt.Sprintf("%s%s: %q", indent, k, render(m[k])))
	}
}

// kubeletConfig ports packages/kubernetes-1.31/kubelet-config (brCoreKit):
// the text schnauzer renders from the settings, key for key in the
// template's order. Maps are written in key order (serde_json's order, as
// handlebars' #each walks them).
func (r *brRender) kubeletConfig(opt bootstrap.Options) string {
	r.line("", nil, "---\nkind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1")
	tmpl := []string(nil)
	// settings.kubernetes.standalone-mode is false: Karpenter's settings
	// have no such key (it drops the user's), and the variant's default is
	// false. So are reserved-cpus, provider-id, server-certificate and
	// server-key: the template's branches on them are left out.
	r.line("address", tmpl, "address: 0.0.0.0")
	r.line("authentication", tmpl, "authentication:\n  anonymous:\n    enabled: false\n  webhook:\n    cacheTTL: 2m0s\n    enabled: true\n  x509:\n    clientCAFile: \"/etc/kubernetes/pki/ca.crt\"")
	r.line("authorization", tmpl, "authorization:\n  mode: Webhook\n  webhook:\n    cacheAuthorizedTTL: 5m0s\n    cacheUnauthorizedTTL: 30s")
	v, _ := r.setting("cluster-domain")
	r.line("clusterDomain", []string{"cluster-domain"}, "clusterDomain: "+render(v))
	if v, ok := r.setting("cluster-dns-ip"); ok && truthy(v, false) && !r.s.atBoot["cluster-dns-ip"] {
		r.line("clusterDNS", []string{"cluster-dns-ip"}, "clusterDNS:")
		if l, isList := v.([]any); isList {
			for i, ip := range l {
				r.line("clusterDNS["+strconv.Itoa(i)+"]", []string{"cluster-dns-ip"}, "- "+render(ip))
			}
		} else {
			r.line("clusterDNS[0]", []string{"cluster-dns-ip"}, "- "+render(v))
		}
	}
	r.strMap("evictionHard", "eviction-hard", "  ")
	r.strMap("evictionSoft", "eviction-soft", "  ")
	r.strMap("evictionSoftGracePeriod", "eviction-soft-grace-period", "  ")
	r.val("evictionMaxPodGracePeriod", "eviction-max-pod-grace-period", false)
	r.val("allowedUnsafeSysctls", "allowed-unsafe-sysctls", false)
	r.val("registryPullQPS", "registry-qps", true)
	r.val("registryBurst", "registry-burst", true)
	r.val("eventRecordQPS", "event-qps", true)
	r.val("eventBurst", "event-burst", true)
	r.val("kubeAPIQPS", "kube-api-qps", true)
	r.val("kubeAPIBurst", "kube-api-burst", true)
	r.kubeReserved(opt)
	r.line("kubeReservedCgroup", tmpl, `kubeReservedCgroup: "/runtime"`)
	if v, ok := r.setting("system-reserved"); ok && truthy(v, false) {
		r.strMap("systemReserved", "system-reserved", "  ")
		r.line("systemReservedCgroup", tmpl, `systemReservedCgroup: "/system"`)
	}
	r.def("cpuCFSQuota", "cpu-cfs-quota-enforced", true)
	r.def("cpuManagerPolicy", "cpu-manager-policy", "none")
	r.val("cpuManagerReconcilePeriod", "cpu-manager-reconcile-period", false)
	if v, ok := r.setting("cpu-manager-policy-options"); ok && truthy(v, false) {
		r.line("cpuManagerPolicyOptions", []string{"cpu-manager-policy-options"}, "cpuManagerPolicyOptions:")
		for _, o := range v.([]any) {
			r.line("cpuManagerPolicyOptions["+render(o)+"]", []string{"cpu-manager-policy-options"}, "    "+render(o)+`: "true"`)
		}
	}
	r.val("topologyManagerScope", "topology-manager-scope", false)
	r.val("topologyManagerPolicy", "topology-manager-policy", false)
	r.def("podPidsLimit", "pod-pids-limit", int64(1048576))
	r.val("imageGCHighThresholdPercent", "image-gc-high-threshold-percent", true)
	r.val("imageGCLowThresholdPercent", "image-gc-low-threshold-percent", true)
	for _, l := range [][2]string{{"resolvConf", `resolvConf: "/run/netdog/resolv.conf"`}, {"hairpinMode", "hairpinMode: hairpin-veth"}, {"readOnlyPort", "readOnlyPort: 0"},
		{"cgroupDriver", "cgroupDriver: systemd"}, {"cgroupRoot", `cgroupRoot: "/"`}, {"runtimeRequestTimeout", "runtimeRequestTimeout: 15m"},
		{"protectKernelDefaults", "protectKernelDefaults: true"}, {"serializeImagePulls", "serializeImagePulls: false"}} {
		r.line(l[0], tmpl, l[1])
	}
	r.def("seccompDefault", "seccomp-default", false)
	v, _ = r.setting("server-tls-bootstrap")
	r.line("serverTLSBootstrap", []string{"server-tls-bootstrap"}, "serverTLSBootstrap: "+render(v))
	r.line("tlsCipherSuites", tmpl, "tlsCipherSuites:\n- TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")
	r.line("volumePluginDir", tmpl, `volumePluginDir: "/var/lib/kubelet/plugins/volume/exec"`)
	r.def("maxPods", "max-pods", int64(110))
	r.line("staticPodPath", tmpl, `staticPodPath: "/etc/kubernetes/static-pods/"`)
	r.val("containerLogMaxSize", "container-log-max-size", true)
	r.val("containerLogMaxFiles", "container-log-max-files", true)
	r.val("shutdownGracePeriod", "shutdown-grace-period", false)
	r.val("shutdownGracePeriodCriticalPods", "shutdown-grace-period-for-critical-pods", false)
	r.memoryManager()
	return r.b.String()
}

// kubeReserved: cpu from kube_reserve_cpu (the setting, else a share of
// the instance's cores), memory the setting, else kube_reserve_memory of
// max-pods (11Mi a pod and 255Mi), ephemeral-storage the setting or 1Gi;
// no other key (pid) is written.
func (r *brRender) kubeReserved(opt bootstrap.Options) {
	t := r.t
	r.line("kubeReserved", []string{"kube-reserved"}, "kubeReserved:")
	helpers := "sources/api/schnauzer/src/helpers/mod.rs, " + brCoreKit
	if v, ok := r.setting("kube-reserved", "cpu"); ok {
		r.line("kubeReserved[cpu]", []string{"kube-reserved", "cpu"}, fmt.Sprintf("  cpu: %q", render(v)))
	} else if s, ok := opt.Set["kubeReserved[cpu]"]; ok {
		r.line("kubeReserved[cpu]", nil, fmt.Sprintf("  cpu: %q", strings.TrimSpace(s)))
		t.out.Notes["kubeReserved[cpu]"] = "given with --set kubeReserved[cpu]; Bottlerocket: a share of the instance's cores (kube_reserve_cpu, " + helpers + ")"
	} else {
		t.out.AtBoot["kubeReserved[cpu]"] = "Bottlerocket: a share of the instance's cores: 60m for the first, 10m for the second, 5m for the third and fourth, 2.5m for each more (kube_reserve_cpu, " + helpers + ")"
		t.out.Findings = append(t.out.Findings, bootstrap.AtBoot.At(t.out.Anchor, "kubeReserved[cpu]",
			fmt.Sprintf("Bottlerocket: kubeReserved[cpu] is a share of the instance's cores (60m for the first, 10m for the second, 5m for the third and fourth, 2.5m for each more), computed on the node since settings.kubernetes.kube-reserved.cpu is not set (%s, kube_reserve_cpu, %s): unknown until then", r.tmpl, helpers),
			"give the value with --set kubeReserved[cpu]=VALUE when the instance type is known"))
	}
	if v, ok := r.setting("kube-reserved", "memory"); ok && truthy(v, false) {
		r.line("kubeReserved[memory]", []string{"kube-reserved", "memory"}, fmt.Sprintf("  memory: %q", render(v)))
	} else if n, ok := r.setting("max-pods"); ok && truthy(n, false) && !r.s.atBoot["max-pods"] {
		r.line("kubeReserved[memory]", nil, fmt.Sprintf("  memory: \"%dMi\"", n.(int64)*11+255))
		t.out.Notes["kubeReserved[memory]"] = fmt.Sprintf("Bottlerocket: 11Mi for each of the %d pods of settings.kubernetes.max-pods and 255Mi (kube_reserve_memory, %s; %s)", n, helpers, r.tmpl)
	} else if r.s.atBoot["max-pods"] {
		if s, ok := opt.Set["kubeReserved[memory]"]; ok {
			r.line("kubeReserved[memory]", nil, fmt.Sprintf("  memory: %q", strings.TrimSpace(s)))
			t.out.Notes["kubeReserved[memory]"] = "given with --set kubeReserved[memory]; Bottlerocket: 11Mi a pod of max-pods and 255Mi (kube_reserve_memory, " + helpers + ")"
		} else {
			t.out.AtBoot["kubeReserved[memory]"] = "Bottlerocket: 11Mi for each pod of settings.kubernetes.max-pods and 255Mi (kube_reserve_memory, " + helpers + "); max-pods is the instance type's, known at launch"
		}
	}
	if v, ok := r.setting("kube-reserved", "ephemeral-storage"); ok {
		r.line("kubeReserved[ephemeral-storage]", []string{"kube-reserved", "ephemeral-storage"}, fmt.Sprintf("  ephemeral-storage: %q", render(v)))
	} else {
		r.line("kubeReserved[ephemeral-storage]", nil, `  ephemeral-storage: "1Gi"`)
		r.defaulted["kubeReserved[ephemeral-storage]"] = true
	}
	m, _ := r.setting("kube-reserved")
	km, _ := m.(map[string]any)
	for _, k := range sortedKeys(km) {
		if k == "cpu" || k == "memory" || k == "ephemeral-storage" {
			continue
		}
		pos, ok := r.userAt("kube-reserved", k)
		if field := r.s.karp["kube-reserved"]; field != "" {
			pos, ok = t.out.Positions[field+"["+k+"]"], true
		}
		if !ok {
			pos = t.out.Anchor
		}
		t.out.Findings = append(t.out.Findings, bootstrap.Drops.At(pos, "kubeReserved["+k+"]",
			fmt.Sprintf("Bottlerocket: settings.kubernetes.kube-reserved.%s never reaches the kubelet: its kubelet-config template writes kubeReserved's cpu, memory and ephemeral-storage only (%s, %s)", k, r.tmpl, brCoreKit),
			"Bottlerocket has no setting for kubeReserved["+k+"]; bound it with the kubelet's podPidsLimit (settings.kubernetes.pod-pids-limit) instead"))
	}
}

// memoryManager: reservedMemory of the enabled NUMA nodes (any_enabled), and
// memoryManagerPolicy only with them.
func (r *brRender) memoryManager() {
	v, ok := r.setting("memory-manager-reserved-memory")
	if !ok || !truthy(v, false) {
		return
	}
	m, _ := v.(map[string]any)
	var enabled []string
	for _, k := range sortedKeys(m) {
		if e, _ := m[k].(map[string]any); e["enabled"] == true {
			enabled = append(enabled, k)
		}
	}
	if len(enabled) == 0 {
		return
	}
	r.val("memoryManagerPolicy", "memory-manager-policy", false)
	r.line("reservedMemory", []string{"memory-manager-reserved-memory"}, "reservedMemory:")
	for i, k := range enabled {
		e := m[k].(map[string]any)
		p := "reservedMemory[" + strconv.Itoa(i) + "]"
		r.line(p, []string{"memory-manager-reserved-memory", k}, "  - numaNode: "+k+"\n    limits:")
		for _, res := range []string{"memory", "hugepages-1Gi", "hugepages-2Mi"} {
			if x, ok := e[res]; ok && truthy(x, false) {
				r.line(p+".limits["+res+"]", []string{"memory-manager-reserved-memory", k, res}, "      "+res+": "+render(x))
			}
		}
	}
}

// userAt is where the user's TOML writes settings.kubernetes' key path, or
// its nearest ancestor.
func (r *brRender) userAt(parts ...string) (finding.Position, bool) {
	for i := len(parts); i > 0; i-- {
		if p, ok := r.s.userPos[tomlPath(append([]string{"settings", "kubernetes"}, parts[:i]...)...)]; ok {
			return p, true
		}
	}
	return finding.Position{}, false
}

// origins gives every rendered path its origin: spec.kubelet's position
// where Karpenter wrote the setting from it (already in Positions, or its
// --set or at-boot note), the user's TOML where it wrote it, else a note
// naming the variant's default or the template.
func (r *brRender) origins() {
	t := r.t
	tmplNote := fmt.Sprintf("Bottlerocket default (%s, %s)", r.tmpl, brCoreKit)
	for _, path := range slices.Sorted(maps.Keys(r.from)) {
		from := r.from[path]
		if _, ok := t.out.Notes[path]; ok {
			continue
		}
		if from == nil || r.defaulted[path] {
			t.out.Notes[path] = tmplNote
			continue
		}
		if field := r.s.karp[from[0]]; field != "" {
			if _, ok := t.out.Positions[path]; !ok && t.out.Notes[field] == "" {
				if p, ok := t.out.Positions[field]; ok {
					t.out.Positions[path] = p
				}
			}
			continue
		}
		if pos, ok := r.userAt(from...); ok {
			t.out.Positions[path] = pos
			continue
		}
		if d, ok := brDefaults[from[0]]; ok {
			t.out.Notes[path] = fmt.Sprintf("Bottlerocket default: settings.kubernetes.%s = %v (%s, %s), through %s", from[0], render(d.value), d.file, brOS, r.tmpl)
			continue
		}
		t.out.Notes[path] = tmplNote
	}
}

// brUnmappedSettings reports the settings of the user's TOML that reach the
// kubelet in a way this port does not model, or that brCoreKit's templates
// do not read (brUnmapped).
func (t *translation) brUnmappedSettings(s *brScript) {
	for _, k := range sortedKeys(s.user) {
		why, ok := brUnmapped[k]
		if !ok {
			continue
		}
		pos, found := s.userPos[tomlPath("settings", "kubernetes", k)]
		if !found {
			pos = t.out.Anchor
		}
		t.out.Findings = append(t.out.Findings, bootstrap.Drops.At(pos, "",
			fmt.Sprintf("Bottlerocket: spec.userData sets settings.kubernetes.%s, which Karpenter passes on; %s: kubeletcfg leaves it out of the kubelet it checks", k, why),
			"check the value against Bottlerocket's documentation of settings.kubernetes."+k+"; kubeletcfg cannot"))
	}
}

// brFlags are the flags of kubelet-exec-start-conf that come from settings
// Karpenter writes: --register-with-taints (NODE_TAINTS of kubelet-env,
// join_node_taints: key=value:effect, in key order) and -v (log-level).
func (t *translation) brFlags(s *brScript) {
	taints, _ := s.k8s["node-taints"].(map[string]any)
	var pairs []string
	for _, k := range sortedKeys(taints) {
		vs, _ := taints[k].([]any)
		for _, v := range vs {
			pairs = append(pairs, fmt.Sprintf("%s=%v", k, v))
		}
	}
	t.out.Flags = append(t.out.Flags, "--register-with-taints="+strings.Join(pairs, ","))
	// Bottlerocket writes the flag itself (its template, not the user's
	// choice of a flag); where the taints come from is in the note.
	t.out.FlagPositions = append(t.out.FlagPositions, finding.Position{})
	note := t.taintsNote(" as settings.kubernetes.node-taints, which Bottlerocket passes as --register-with-taints (kubelet-env, kubelet-exec-start-conf, " + brCoreKit + ")")
	t.out.FlagNotes = append(t.out.FlagNotes, note)
	t.out.Notes["registerWithTaints"] = note
	if v, ok := s.k8s["log-level"]; ok {
		pos, _ := s.userPos[tomlPath("settings", "kubernetes", "log-level")]
		t.out.Flags = append(t.out.Flags, "--v="+render(v))
		t.out.FlagPositions = append(t.out.FlagPositions, pos)
		t.out.FlagNotes = append(t.out.FlagNotes, "Bottlerocket: settings.kubernetes.log-level as -v (kubelet-exec-start-conf, "+brCoreKit+")")
	}
}
