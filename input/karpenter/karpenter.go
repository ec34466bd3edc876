// Package karpenter translates a Karpenter EC2NodeClass (karpenter.k8s.aws/v1)
// into what the node's kubelet is started with, ported from
// github.com/aws/karpenter-provider-aws v1.14.1, moved to v1.15.0 (whose
// pkg/apis and pkg/providers/amifamily are v1.15.2's byte for byte) where it
// matters for the kubelet: spec.kubelet is an open map, AL2023 passes every
// key through, the other families refuse keys they cannot apply
// (pkg/controllers/nodeclass/validation.go validateKubeletFieldsSupported):
//
//   - pkg/apis/v1/ec2nodeclass.go: KubeletConfiguration (the fields of
//     spec.kubelet, their kubebuilder markers and CEL rules, in the CRD
//     pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml), AMIFamily and
//     Alias (spec.amiFamily first, else the family of the alias term);
//   - pkg/providers/amifamily/resolver.go resolveLaunchTemplates: maxPods
//     from the instance type when spec.kubelet.maxPods is not set,
//     defaultClusterDNS (the kube-dns Service's IP when clusterDNS is not
//     set), the karpenter.sh/unregistered:NoExecute taint;
//   - pkg/providers/amifamily/bootstrap/nodeadm.go getNodeConfigYAML and
//     generateInlineKubeletConfiguration (AL2023: the NodeConfig Karpenter
//     appends to the user data, after the user's own, so that nodeadm's
//     merge, nodeadm/internal/api/merge.go, lets it win); the NodeConfigs
//     then go through input/nodeadm (TranslateDocuments), which writes what
//     nodeadm writes on the node;
//   - bootstrap/bottlerocket.go Script and bottlerocketsettings.go (the
//     user's settings TOML decoded into Karpenter's types with go-toml, the
//     settings it writes over them, and so those it does not: podsPerCore,
//     clusterDNS after the first); then what Bottlerocket renders for the
//     kubelet from the settings (brkubelet.go: bottlerocket-core-kit v3.1.1's
//     packages/kubernetes-1.31/kubelet-config, the aws-k8s-1.31 defaults of
//     bottlerocket v1.26.0);
//   - bootstrap/bootstrap.go kubeletExtraArgs and eksbootstrap.go
//     eksBootstrapScript (AL2: bootstrap.sh's flags);
//   - bootstrap/custom.go (Custom: the user data as is, spec.kubelet unused).
package karpenter

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/mail"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/utils/lru"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/input/nodeadm"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Tool is Karpenter's AWS provider.
var Tool = bootstrap.Tool{Name: "Karpenter", Release: "v1.15.0",
	Source: "pkg/providers/amifamily/resolver.go (resolveLaunchTemplates) and pkg/providers/amifamily/bootstrap/ (nodeadm.go getNodeConfigYAML, bottlerocket.go Script, eksbootstrap.go eksBootstrapScript)"}

const (
	group = "karpenter.k8s.aws"
	// nodeadm's paths (nodeadm/internal/kubelet/config.go).
	nodeadmConfig    = "/etc/kubernetes/kubelet/config.json"
	nodeadmDropInDir = "/etc/kubernetes/kubelet/config.json.d"
	nodeadmDropIn    = nodeadmDropInDir + "/40-nodeadm.conf"
	kubeletAPI       = "kubelet.config.k8s.io/v1beta1"
)

// Detect reports whether data holds an EC2NodeClass (by apiVersion and kind).
func Detect(path string, data []byte) bool {
	if !bytes.Contains(data, []byte(group)) {
		return false
	}
	_, err := nodeClass(data)
	return err == nil
}

// nodeClass is the first EC2NodeClass document of data, at the file's lines.
func nodeClass(data []byte) (*yaml.Node, error) {
	docs, err := documents(data)
	for _, doc := range docs {
		if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		root := doc.Content[0]
		av, kind := yamlmap.Value(root, "apiVersion"), yamlmap.Value(root, "kind")
		if av != nil && kind != nil && strings.HasPrefix(av.Value, group+"/") && kind.Value == "EC2NodeClass" {
			return root, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("no %s/v1 EC2NodeClass document", group)
}

// parsed holds the YAML documents of the last files read (documents).
var parsed = lru.New(16)

type parsedDocuments struct {
	docs []*yaml.Node
	err  error
}

// documents are data's YAML documents up to the first that does not parse,
// and its error. They are parsed once for the last few files read in the
// process and shared, so nothing may change them: a file is translated once
// per kubelet minor (skew, the webhook's window), and detected before.
func documents(data []byte) ([]*yaml.Node, error) {
	key := sha256.Sum256(data)
	if v, ok := parsed.Get(key); ok {
		p := v.(parsedDocuments)
		return p.docs, p.err
	}
	var p parsedDocuments
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if err != io.EOF {
				p.err = err
			}
			break
		}
		p.docs = append(p.docs, &doc)
	}
	parsed.Add(key, p)
	return p.docs, p.err
}

// translation is one Translate call's state.
type translation struct {
	path string
	out  *bootstrap.Output
	// kubelet is spec.kubelet as Karpenter's KubeletConfiguration marshals
	// it (json field names, Go values), with where each field was written.
	kubelet                 map[string]any
	keys                    map[string]*yaml.Node
	kubeletNode, kubeletKey *yaml.Node
	// unmanaged are spec.kubelet's keys Karpenter does not map (v1.15:
	// v1.UnmanagedKubeletFields), in the file's order.
	unmanaged []string
	// taints are the NodeClaim's taints, startup taints and the
	// unregistered taint (resolveLaunchTemplates); pool names the NodePool
	// of the same file they come from ("" for none).
	taints []any
	pool   string
	lines  []string
	// exprs are the CEL expressions of maxPods, kubeReserved and
	// systemReserved (v1.15), by field path: Karpenter evaluates them per
	// instance type, so their values are known only at launch.
	exprs map[string]*yaml.Node
	// brData is the user data Karpenter writes for a Bottlerocket node.
	brData []byte
}

func (t *translation) pos(n *yaml.Node) finding.Position {
	if n == nil {
		return t.out.Anchor
	}
	return finding.Position{File: t.path, Line: n.Line, Column: n.Column}
}

// add reports a finding of one of the bootstrapper rules (input/bootstrap) at
// n, its message prefixed with "Karpenter: ".
func (t *translation) add(rule *rule.Rule, n *yaml.Node, path, msg, hint string) {
	t.out.Findings = append(t.out.Findings, rule.At(t.pos(n), path, "Karpenter: "+msg, hint))
}

// The validation of spec.kubelet's managed fields (v1.14.1: the CRD's markers
// and CEL rules, pkg/apis/v1/ec2nodeclass.go; v1.15.0: the controller's
// pkg/apis/v1/kubeletconfiguration_validation.go ValidateKubeletConfig).
var (
	reservedKeys = []string{"cpu", "memory", "ephemeral-storage", "pid"}
	signalKeys   = []string{"memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"}
	// The patterns compile on first use: a run that reads no EC2NodeClass
	// does not pay for them at start-up.
	quantityRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`)
	})
	thresholdRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^((\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?)%||(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?)$`)
	})
)

// celRef names Karpenter's rule in messages. v1.15 moved the rules from the CRD's CEL to the controller
// (spec.kubelet is an open map the API server does not validate): the
// messages keep v1.14.1's CEL wording.
var celRef = "Karpenter's rule (pkg/apis/v1/kubeletconfiguration_validation.go ValidateKubeletConfig, " + Tool.Release + "; as v1.14.1's CEL rule words it)"

// readKubelet reads spec.kubelet as Karpenter v1.15 decodes and validates it:
// the managed fields (ParsedKubeletConfig) with their types, minimums,
// patterns and rules; any other key kept as written (t.unmanaged) and checked
// against the upstream type (checkUpstream). CEL expressions in maxPods/kubeReserved/
// systemReserved are values known at launch (exprs), not checked as CEL.
func (t *translation) readKubelet(k *yaml.Node) {
	t.kubelet, t.keys = map[string]any{}, map[string]*yaml.Node{}
	if k == nil {
		return
	}
	if k.Kind != yaml.MappingNode {
		t.add(bootstrap.Refuses, k, "", "spec.kubelet must be an object (the CRD's schema)", "write spec.kubelet as a mapping")
		return
	}
	schemaErr := func(n *yaml.Node, path, msg string) {
		t.add(bootstrap.Refuses, n, path, fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False; no node is launched): spec.kubelet.%s (pkg/apis/v1/kubeletconfiguration_validation.go ValidateKubeletConfig, %s; the rule as v1.14.1's CRD schema words it)", msg, Tool.Release),
			"fix the value as the schema says")
	}
	for i := 0; i+1 < len(k.Content); i += 2 {
		key, v := k.Content[i], k.Content[i+1]
		name := key.Value
		switch name {
		case "maxPods", "podsPerCore", "evictionMaxPodGracePeriod", "imageGCHighThresholdPercent", "imageGCLowThresholdPercent":
			if name == "maxPods" && v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
				// v1.15: a string maxPods is a CEL expression evaluated per
				// instance type (ParsedKubeletConfig.HasExpressions).
				t.expr(name, v)
				continue
			}
			n, err := strconv.ParseInt(v.Value, 10, 32)
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil {
				schemaErr(v, name, fmt.Sprintf("%s: Invalid value: %q: must be of type integer", name, v.Value))
				continue
			}
			min, max := int64(0), int64(-1)
			if strings.HasPrefix(name, "imageGC") {
				max = 100
			}
			if name == "evictionMaxPodGracePeriod" {
				min = -1 << 31
			}
			if n < min {
				schemaErr(v, name, fmt.Sprintf("%s: Invalid value: %d: should be greater than or equal to %d", name, n, min))
				continue
			}
			if max >= 0 && n > max {
				schemaErr(v, name, fmt.Sprintf("%s: Invalid value: %d: should be less than or equal to %d", name, n, max))
				continue
			}
			t.kubelet[name] = n
		case "cpuCFSQuota":
			if v.Tag != "!!bool" {
				schemaErr(v, name, fmt.Sprintf("%s: Invalid value: %q: must be of type boolean", name, v.Value))
				continue
			}
			t.kubelet[name] = v.Value == "true"
		case "clusterDNS":
			if v.Kind != yaml.SequenceNode {
				schemaErr(v, name, name+": must be of type array")
				continue
			}
			var ips []any
			for _, e := range v.Content {
				ips = append(ips, e.Value)
			}
			t.kubelet[name] = ips
		case "systemReserved", "kubeReserved", "evictionHard", "evictionSoft", "evictionSoftGracePeriod":
			if v.Kind != yaml.MappingNode {
				schemaErr(v, name, name+": must be of type object")
				continue
			}
			keys, valueRE := signalKeys, thresholdRE()
			if name == "systemReserved" || name == "kubeReserved" {
				keys, valueRE = reservedKeys, quantityRE()
			}
			m := map[string]any{}
			ok := true
			for j := 0; j+1 < len(v.Content); j += 2 {
				mk, mv := v.Content[j], v.Content[j+1]
				path := name + "[" + mk.Value + "]"
				if !contains(keys, mk.Value) {
					t.add(bootstrap.Refuses, mk, path, fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False; no node is launched): spec.kubelet.%s: valid keys for %s are ['%s'] (%s)", name, name, strings.Join(keys, "','"), celRef),
						fmt.Sprintf("use one of %s", strings.Join(keys, ", ")))
					ok = false
					continue
				}
				if name == "evictionSoftGracePeriod" {
					d, err := time.ParseDuration(mv.Value)
					if err != nil {
						schemaErr(mv, path, fmt.Sprintf("%s: Invalid value: %q: %v", path, mv.Value, err))
						ok = false
						continue
					}
					m[mk.Value] = d.String() // metav1.Duration's MarshalJSON
					continue
				}
				if (name == "systemReserved" || name == "kubeReserved") && !strings.HasPrefix(mv.Value, "-") && !quantityRE().MatchString(mv.Value) {
					// v1.15: a reservation that is no quantity is a CEL
					// expression evaluated per instance type
					// (HasResourceExpressions), not an error.
					t.expr(path, mv)
					continue
				}
				if !valueRE.MatchString(mv.Value) {
					schemaErr(mv, path, fmt.Sprintf("%s: Invalid value: %q: should match '%s'", path, mv.Value, valueRE.String()))
					ok = false
					continue
				}
				if (name == "systemReserved" || name == "kubeReserved") && strings.HasPrefix(mv.Value, "-") {
					t.add(bootstrap.Refuses, mv, path, fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False; no node is launched): spec.kubelet.%s: %s value cannot be a negative resource quantity (%s)", name, name, celRef),
						"use a quantity of zero or more")
					ok = false
					continue
				}
				m[mk.Value] = mv.Value
			}
			if ok {
				t.kubelet[name] = m
			}
		default:
			// v1.15: spec.kubelet is an open map (pkg/apis/v1/kubeletconfiguration.go
			// KubeletConfiguration, the CRD's x-kubernetes-preserve-unknown-fields):
			// a key Karpenter does not manage is kept as written. AL2023 passes it
			// through (nodeadm.go generateInlineKubeletConfiguration); the other
			// families refuse it (unsupported).
			var raw any
			if err := v.Decode(&raw); err != nil {
				schemaErr(v, name, fmt.Sprintf("%s: %v", name, err))
				continue
			}
			t.kubelet[name] = raw
			t.unmanaged = append(t.unmanaged, name)
			t.checkUpstream(key, v, name)
		}
		t.keys[name] = key
	}
	// The object-level CEL rules.
	hi, okH := t.kubelet["imageGCHighThresholdPercent"].(int64)
	lo, okL := t.kubelet["imageGCLowThresholdPercent"].(int64)
	if okH && okL && hi <= lo {
		t.add(bootstrap.Refuses, yamlmap.Value(k, "imageGCHighThresholdPercent"), "imageGCHighThresholdPercent", fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False; no node is launched): spec.kubelet: imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent (%d <= %d; %s)", hi, lo, celRef),
			"make imageGCHighThresholdPercent greater than imageGCLowThresholdPercent")
	}
	soft, _ := t.kubelet["evictionSoft"].(map[string]any)
	grace, _ := t.kubelet["evictionSoftGracePeriod"].(map[string]any)
	if yamlmap.Value(k, "evictionSoft") != nil {
		for _, s := range sortedKeys(soft) {
			if _, ok := grace[s]; !ok {
				t.add(bootstrap.Refuses, yamlmap.Key(yamlmap.Value(k, "evictionSoft"), s), "evictionSoft["+s+"]", fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False; no node is launched): spec.kubelet: evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod (%s has none; %s)", s, celRef),
					"give evictionSoftGracePeriod["+s+"]")
			}
		}
	}
	if yamlmap.Value(k, "evictionSoftGracePeriod") != nil {
		for _, s := range sortedKeys(grace) {
			if _, ok := soft[s]; !ok {
				t.add(bootstrap.Refuses, yamlmap.Key(yamlmap.Value(k, "evictionSoftGracePeriod"), s), "evictionSoftGracePeriod["+s+"]", fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False; no node is launched): spec.kubelet: evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft (%s has none; %s)", s, celRef),
					"give evictionSoft["+s+"] or drop the grace period")
			}
		}
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// family is EC2NodeClass.AMIFamily: spec.amiFamily, else the alias's family.
func (t *translation) family(spec *yaml.Node) string {
	var alias *yaml.Node
	if terms := yamlmap.Value(spec, "amiSelectorTerms"); terms != nil && terms.Kind == yaml.SequenceNode {
		for _, term := range terms.Content {
			if a := yamlmap.Value(term, "alias"); a != nil && a.Value != "" {
				alias = a
				break
			}
		}
	}
	fam := ""
	if alias != nil {
		f, v, ok := strings.Cut(alias.Value, "@")
		known := map[string]string{"al2": "AL2", "al2023": "AL2023", "bottlerocket": "Bottlerocket", "windows2019": "Windows2019", "windows2022": "Windows2022", "windows2025": "Windows2025"}
		switch {
		case !ok || !regexp.MustCompile(`^[a-zA-Z0-9]+@.+$`).MatchString(alias.Value):
			t.add(bootstrap.Refuses, alias, "", fmt.Sprintf("the API server refuses the EC2NodeClass: amiSelectorTerms alias %q: 'alias' is improperly formatted, must match the format 'family@version' (%s)", alias.Value, strings.Replace(celRef, "KubeletConfiguration", "AMISelectorTerm", 1)),
				"write the alias as family@version: al2023@latest")
		case known[f] == "":
			t.add(bootstrap.Refuses, alias, "", fmt.Sprintf("the API server refuses the EC2NodeClass: amiSelectorTerms alias %q: family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', 'windows2019', 'windows2022', 'windows2025' (%s)", alias.Value, strings.Replace(celRef, "KubeletConfiguration", "AMISelectorTerm", 1)),
				"use one of al2, al2023, bottlerocket, windows2019, windows2022, windows2025")
		default:
			fam = known[f]
			t.out.Note = fmt.Sprintf("alias %s@%s", f, v)
		}
	}
	if af := yamlmap.Value(spec, "amiFamily"); af != nil && af.Value != "" {
		if fam != "" && af.Value != fam && af.Value != "Custom" {
			t.add(bootstrap.Refuses, af, "", fmt.Sprintf("the API server refuses the EC2NodeClass: if set, amiFamily must be '%s' or 'Custom' when using an %s alias (Karpenter's CEL rule, pkg/apis/v1/ec2nodeclass.go EC2NodeClassSpec, %s)", fam, fam, Tool.Release),
				"drop amiFamily, or set it to the alias's family")
		}
		return af.Value
	}
	if fam == "" && alias == nil {
		t.add(bootstrap.Refuses, yamlmap.Key(spec, "amiSelectorTerms"), "", fmt.Sprintf("the API server refuses the EC2NodeClass: must specify amiFamily if amiSelectorTerms does not contain an alias (Karpenter's CEL rule, pkg/apis/v1/ec2nodeclass.go EC2NodeClassSpec, %s)", Tool.Release),
			"add an alias term (al2023@latest) or spec.amiFamily")
	}
	return fam
}

// Translate is what a node Karpenter launches from the EC2NodeClass in data
// starts its kubelet with, by AMI family. Values Karpenter takes from the
// instance type or the cluster (maxPods, clusterDNS) are AtBoot unless
// opt.Set gives them; the NodePool's labels and taints are not in the file.
func Translate(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	t, err := newTranslation(path, data, opt)
	if err != nil {
		return nil, err
	}
	return t.out, nil
}

// BottlerocketUserData is the user data Karpenter writes for a Bottlerocket
// node from the EC2NodeClass in data (Bottlerocket.Script, decoded), without
// the cluster details it discovers (api-server, cluster-certificate,
// cluster-name) and with the values only the instance or the cluster knows
// (max-pods, cluster-dns-ip) left out unless opt.Set gives them.
func BottlerocketUserData(path string, data []byte, opt bootstrap.Options) ([]byte, error) {
	t, err := newTranslation(path, data, opt)
	if err != nil {
		return nil, err
	}
	if t.brData == nil {
		return nil, fmt.Errorf("%s: not an EC2NodeClass of the Bottlerocket family", path)
	}
	return t.brData, nil
}

func newTranslation(path string, data []byte, opt bootstrap.Options) (*translation, error) {
	root, err := nodeClass(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	kind := yamlmap.Value(root, "kind")
	t := &translation{path: path, lines: strings.Split(string(data), "\n"), out: &bootstrap.Output{Tool: Tool, Positions: map[string]finding.Position{}, Notes: map[string]string{}, AtBoot: map[string]string{},
		Anchor: finding.Position{File: path, Line: kind.Line, Column: kind.Column}}}
	spec := yamlmap.Value(root, "spec")
	t.kubeletNode, t.kubeletKey = yamlmap.Value(spec, "kubelet"), yamlmap.Key(spec, "kubelet")
	t.readKubelet(t.kubeletNode)
	name := ""
	if n := yamlmap.Value(yamlmap.Value(root, "metadata"), "name"); n != nil {
		name = n.Value
	}
	t.readTaints(data, name)
	aliasNote := ""
	fam := t.family(spec)
	aliasNote, t.out.Note = t.out.Note, ""
	for name, k := range t.keys {
		t.out.Positions[name] = t.pos(k)
		if v := yamlmap.Value(t.kubeletNode, name); v != nil && v.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(v.Content); j += 2 {
				t.out.Positions[name+"["+v.Content[j].Value+"]"] = t.pos(v.Content[j])
			}
		}
		if v := yamlmap.Value(t.kubeletNode, name); v != nil && v.Kind == yaml.SequenceNode {
			for j, e := range v.Content {
				t.out.Positions[name+"["+strconv.Itoa(j)+"]"] = t.pos(e)
			}
		}
	}
	var kc map[string]any
	if fam == "AL2023" || fam == "Bottlerocket" || fam == "AL2" || isWindows(fam) {
		// Custom passes the user data as is: nothing Karpenter resolves reaches the node.
		kc = t.resolved(opt)
	}
	switch fam {
	case "AL2023":
		err = t.al2023(kc, spec, opt)
	case "Bottlerocket":
		err = t.bottlerocket(kc, spec, opt)
	case "AL2":
		t.al2(kc)
	case "Windows2019", "Windows2022", "Windows2025":
		t.windows(fam, kc)
		t.out.OS, t.out.OSFrom = kubelets.Windows, "amiFamily "+fam
		if aliasNote != "" {
			t.out.OSFrom = "amiSelectorTerms " + aliasNote
		}
	case "Custom":
		for _, name := range sortedKeys(t.kubelet) {
			t.add(bootstrap.Drops, t.keys[name], name, fmt.Sprintf("amiFamily Custom: Karpenter passes spec.userData as is and generates no kubelet configuration, so spec.kubelet.%s never reaches the kubelet (pkg/providers/amifamily/bootstrap/custom.go Script, %s)", name, Tool.Release),
				"set the value in spec.userData, which the Custom AMI's bootstrap reads")
		}
		t.out.Note = "Karpenter EC2NodeClass, amiFamily Custom: the user data is passed as is; kubeletcfg reads no kubelet configuration from it"
	case "":
		t.out.Note = "Karpenter EC2NodeClass without an AMI family Karpenter accepts: nothing is generated"
	default:
		return nil, fmt.Errorf("%s: EC2NodeClass for %s: kubeletcfg reads the families AL2023, Bottlerocket, AL2, Windows2019, Windows2022, Windows2025 and Custom", path, fam)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if aliasNote != "" {
		t.out.Note += " (" + aliasNote + ")"
	}
	return t, nil
}

// resolved is resolveLaunchTemplates' kubeletConfig: spec.kubelet with
// maxPods from the instance type and clusterDNS from the cluster's kube-dns
// Service when not set (defaultClusterDNS), both unknown here: AtBoot, or
// opt.Set's value.
func (t *translation) resolved(opt bootstrap.Options) map[string]any {
	kc := map[string]any{}
	for k, v := range t.kubelet {
		kc[k] = v
	}
	for _, path := range slices.Sorted(maps.Keys(t.exprs)) {
		t.atBootExpr(opt, kc, path)
	}
	if _, ok := kc["maxPods"]; !ok && t.exprs["maxPods"] == nil {
		t.atBoot(opt, kc, "maxPods", "Karpenter: the pod capacity of the instance type it launches (pkg/providers/amifamily/resolver.go resolveLaunchTemplates)",
			"maxPods is the pod capacity of the instance type launched (ENI-limited, or 110), since spec.kubelet.maxPods is not set (pkg/providers/amifamily/resolver.go resolveLaunchTemplates, "+Tool.Release+")")
	}
	if _, ok := kc["clusterDNS"]; !ok {
		t.atBoot(opt, kc, "clusterDNS", "Karpenter: the kube-dns Service's cluster IP it discovers (pkg/providers/amifamily/resolver.go defaultClusterDNS)",
			"clusterDNS is the kube-dns Service's IP, discovered in the cluster, since spec.kubelet.clusterDNS is not set (pkg/providers/amifamily/resolver.go defaultClusterDNS, "+Tool.Release+")")
	}
	return kc
}

// upstreamMinor is the kubelet whose KubeletConfiguration type Karpenter
// links (k8s.io/kubelet v0.37.0 in v1.15.0's go.mod): validateAgainstUpstreamType
// decodes spec.kubelet into it strictly.
const upstreamMinor = "1.37"

// checkUpstream is validateAgainstUpstreamType (pkg/apis/v1/
// kubeletconfiguration_validation.go) for one key Karpenter does not manage:
// sigs.k8s.io/json's strict decode into the upstream type refuses a field the
// type does not have (case-sensitively), at any depth of the structs. Types are
// left to the kubelet's own checks.
func (t *translation) checkUpstream(key, v *yaml.Node, path string) {
	m, err := kubelets.Lookup(upstreamMinor)
	if err != nil {
		return
	}
	t.checkFields(m.Fields(), key, v, path)
}

func (t *translation) checkFields(parent *kubelets.Field, key, v *yaml.Node, path string) {
	name := key.Value
	f, exact := parent.Child(name)
	if f == nil || !exact {
		var names []string
		for n := range parent.Children {
			names = append(names, n)
		}
		sort.Strings(names)
		hint := "remove it, or spell it as the kubelet's KubeletConfiguration does"
		if near := didyoumean.Nearest(name, names); near != "" {
			hint = fmt.Sprintf("did you mean %q?", near)
		}
		t.add(bootstrap.Refuses, key, path, fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False; no node is launched): spec.kubelet: unknown field %q: the kubelet %s KubeletConfiguration it decodes spec.kubelet into strictly has no such field (pkg/apis/v1/kubeletconfiguration_validation.go validateAgainstUpstreamType, %s)", path, upstreamMinor, Tool.Release), hint)
		return
	}
	if f.Kind != kubelets.Object || v.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		t.checkFields(f, v.Content[i], v.Content[i+1], path+"."+v.Content[i].Value)
	}
}

// expr records a CEL expression Karpenter evaluates per instance type.
func (t *translation) expr(path string, n *yaml.Node) {
	if t.exprs == nil {
		t.exprs = map[string]*yaml.Node{}
	}
	t.exprs[path] = n
}

// atBootExpr is atBoot for a CEL expression at path (maxPods,
// kubeReserved[cpu]): opt.Set's value, else unknown until launch (KC9004 at
// the expression).
func (t *translation) atBootExpr(opt bootstrap.Options, kc map[string]any, path string) {
	n := t.exprs[path]
	note := fmt.Sprintf("Karpenter: the CEL expression %q, evaluated for the instance type it launches (pkg/apis/v1/kubeletconfiguration.go, %s)", n.Value, Tool.Release)
	field, key, inMap := strings.Cut(strings.TrimSuffix(path, "]"), "[")
	if s, ok := opt.Set[path]; ok {
		if inMap {
			m, _ := kc[field].(map[string]any)
			if m == nil {
				m = map[string]any{}
			}
			m[key] = s
			kc[field] = m
		} else if v, err := strconv.ParseInt(s, 10, 32); err == nil {
			kc[path] = v
		}
		t.out.Notes[path] = "given with --set " + path + "; " + note
		return
	}
	t.out.AtBoot[path] = note
	t.add(bootstrap.AtBoot, n, path, fmt.Sprintf("%s is the CEL expression %q, which Karpenter evaluates for each instance type it launches (pkg/apis/v1/kubeletconfiguration.go ParsedKubeletConfig.HasExpressions, %s): unknown until then", path, n.Value, Tool.Release),
		fmt.Sprintf("give the value with --set %s=VALUE to check it for one instance type", path))
}

func (t *translation) atBoot(opt bootstrap.Options, kc map[string]any, path, note, msg string) {
	if s, ok := opt.Set[path]; ok {
		var v any
		if err := sigsyaml.Unmarshal([]byte(s), &v); err == nil {
			if f, isNum := v.(float64); isNum {
				v = int64(f)
			}
			if str, isStr := v.(string); isStr && path == "clusterDNS" {
				v = []any{str}
			}
			kc[path] = v
			t.out.Notes[path] = "given with --set " + path + "; " + note
			return
		}
	}
	t.out.AtBoot[path] = note
	t.add(bootstrap.AtBoot, t.kubeletKey, path, msg, fmt.Sprintf("give the value with --set %s=VALUE when it is known", path))
}

// readTaints is resolveLaunchTemplates' taints: the NodeClaim's taints and
// startup taints, which a NodePool of the same file referring to this
// EC2NodeClass gives (spec.template.spec.taints, startupTaints), then
// karpenter.sh/unregistered:NoExecute unless one of them matches it.
func (t *translation) readTaints(data []byte, name string) {
	docs, _ := documents(data)
	for _, doc := range docs {
		if t.pool != "" {
			break
		}
		if len(doc.Content) != 1 {
			continue
		}
		root := doc.Content[0]
		av, kind := yamlmap.Value(root, "apiVersion"), yamlmap.Value(root, "kind")
		if av == nil || kind == nil || !strings.HasPrefix(av.Value, "karpenter.sh/") || kind.Value != "NodePool" {
			continue
		}
		spec := yamlmap.Value(yamlmap.Value(yamlmap.Value(root, "spec"), "template"), "spec")
		ref := yamlmap.Value(spec, "nodeClassRef")
		if r := yamlmap.Value(ref, "name"); r == nil || r.Value != name {
			continue
		}
		t.pool = "NodePool"
		if n := yamlmap.Value(yamlmap.Value(root, "metadata"), "name"); n != nil {
			t.pool = "NodePool " + n.Value
		}
		for _, list := range []string{"taints", "startupTaints"} {
			l := yamlmap.Value(spec, list)
			if l == nil || l.Kind != yaml.SequenceNode {
				continue
			}
			if _, ok := t.out.Positions["registerWithTaints"]; !ok {
				t.out.Positions["registerWithTaints"] = t.pos(yamlmap.Key(spec, list))
			}
			for _, e := range l.Content {
				taint := map[string]any{}
				for _, f := range []string{"key", "value", "effect"} {
					if v := yamlmap.Value(e, f); v != nil && v.Value != "" {
						taint[f] = v.Value
					}
				}
				t.taints = append(t.taints, taint)
			}
		}
	}
	for _, x := range t.taints {
		// MatchTaint: the same key and effect.
		if m := x.(map[string]any); m["key"] == unregisteredTaint["key"] && m["effect"] == unregisteredTaint["effect"] {
			return
		}
	}
	t.taints = append(t.taints, unregisteredTaint)
}

// taintsNote says where registerWithTaints comes from.
func (t *translation) taintsNote(how string) string {
	if t.pool != "" {
		return fmt.Sprintf("set by Karpenter%s: the taints and startup taints of %s in this file, then karpenter.sh/unregistered:NoExecute (pkg/providers/amifamily/resolver.go resolveLaunchTemplates)", how, t.pool)
	}
	return fmt.Sprintf("set by Karpenter%s: karpenter.sh/unregistered:NoExecute, after the taints of the NodePool (not in this file) (pkg/providers/amifamily/resolver.go resolveLaunchTemplates)", how)
}

// taintString is corev1.Taint.ToString.
func taintString(m map[string]any) string {
	if v, ok := m["value"]; ok {
		return fmt.Sprintf("%v=%v:%v", m["key"], v, m["effect"])
	}
	return fmt.Sprintf("%v:%v", m["key"], m["effect"])
}

// unregisteredTaint is karpv1.UnregisteredNoExecuteTaint, which
// resolveLaunchTemplates adds to the NodeClaim's taints.
var unregisteredTaint = map[string]any{"key": "karpenter.sh/unregistered", "effect": "NoExecute"}

// NodeConfig is the NodeConfig Karpenter generates for an AL2023 node from
// the EC2NodeClass in data (nodeadm.go getNodeConfigYAML), without the
// cluster details Karpenter discovers (name, endpoint, CA, CIDR) and with the
// NodePool's taints and labels left out: what input/nodeadm reads after the
// user's NodeConfigs of spec.userData. Values only the instance or the
// cluster knows (maxPods, clusterDNS) are left out unless opt.Set gives them.
func NodeConfig(path string, data []byte, opt bootstrap.Options) ([]byte, error) {
	root, err := nodeClass(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	t := &translation{path: path, out: &bootstrap.Output{Positions: map[string]finding.Position{}, Notes: map[string]string{}, AtBoot: map[string]string{}}}
	t.kubeletNode = yamlmap.Value(yamlmap.Value(root, "spec"), "kubelet")
	t.readKubelet(t.kubeletNode)
	name := ""
	if n := yamlmap.Value(yamlmap.Value(root, "metadata"), "name"); n != nil {
		name = n.Value
	}
	t.readTaints(data, name)
	return nodeConfigYAML(t.resolved(opt), t.taints)
}

func nodeConfigYAML(kc map[string]any, taints []any) ([]byte, error) {
	config := map[string]any{}
	for k, v := range kc {
		config[k] = v
	}
	config["registerWithTaints"] = taints
	nc := map[string]any{
		"apiVersion": "node.eks.aws/v1alpha1",
		"kind":       "NodeConfig",
		"metadata":   map[string]any{},
		"spec": map[string]any{
			"cluster":    map[string]any{},
			"containerd": map[string]any{},
			"instance":   map[string]any{"localStorage": map[string]any{}},
			"kubelet":    map[string]any{"config": config},
		},
	}
	j, err := json.Marshal(nc)
	if err != nil {
		return nil, err
	}
	y, err := jsonToYAML(j)
	if err != nil {
		return nil, err
	}
	return append([]byte("# Karpenter Generated NodeConfig\n"), y...), nil
}

// generated holds the last NodeConfigs generated, by their JSON (jsonToYAML).
var generated = lru.New(16)

// jsonToYAML is sigs.k8s.io/yaml's JSONToYAML of j, kept for the last few
// NodeConfigs: an EC2NodeClass's is the same at every kubelet minor. The
// bytes returned are shared: they are only read.
func jsonToYAML(j []byte) ([]byte, error) {
	if y, ok := generated.Get(string(j)); ok {
		return y.([]byte), nil
	}
	y, err := sigsyaml.JSONToYAML(j)
	if err == nil {
		generated.Add(string(j), y)
	}
	return y, err
}

// userNodeConfig is a NodeConfig of spec.userData: its kubelet config, with
// where its keys are in the manifest.
type userNodeConfig struct {
	config map[string]any
	keys   map[string]finding.Position // spec.kubelet.config's keys
}

// al2023: Nodeadm.Script: the user's NodeConfigs of spec.userData, then the
// NodeConfig Karpenter generates, in one MIME archive that nodeadm reads on
// the node: input/nodeadm merges them as nodeadm does (MergeNodeConfigs:
// kubelet.config deep-merged, a later document's value winning;
// kubelet.flags appended) and writes what nodeadm writes for the kubelet
// version: config.json with its defaults, the merged kubelet.config as the
// 40-nodeadm.conf drop-in, its flags then the NodeConfigs'. Karpenter's
// findings (a user-data value its NodeConfig replaces, values it takes at
// launch) are Karpenter's; nodeadm's (its validation, values it takes at
// boot, keys it drops) are nodeadm's.
func (t *translation) al2023(kc map[string]any, spec *yaml.Node, opt bootstrap.Options) error {
	docs, err := t.userDocuments(yamlmap.Value(spec, "userData"))
	if err != nil {
		return err
	}
	for _, u := range t.userNodeConfigs(docs) {
		for k, pos := range u.keys {
			kv, ok := kc[k]
			note, atBoot := t.out.AtBoot[k]
			if !ok && !atBoot && k != "registerWithTaints" {
				continue
			}
			if k == "registerWithTaints" {
				kv = t.taints
			}
			uv, _ := json.Marshal(u.config[k])
			kj, _ := json.Marshal(kv)
			if !atBoot && bytes.Equal(uv, kj) {
				continue
			}
			what := string(kj)
			if atBoot {
				what, _, _ = strings.Cut(strings.TrimPrefix(note, "Karpenter: "), " (")
			}
			t.out.Findings = append(t.out.Findings, bootstrap.Overrides.At(pos, k,
				fmt.Sprintf("Karpenter: the NodeConfig in spec.userData sets kubelet.config.%s, but Karpenter appends its own NodeConfig after the user data with %s, and nodeadm lets the later one win (pkg/providers/amifamily/bootstrap/nodeadm.go Script, %s; nodeadm/internal/api/merge.go MergeNodeConfigs)", k, what, Tool.Release),
				fmt.Sprintf("set spec.kubelet.%s in the EC2NodeClass instead", k)))
		}
	}
	y, err := nodeConfigYAML(kc, t.taints)
	if err != nil {
		return err
	}
	// Karpenter's NodeConfig: its keys at spec.kubelet's (and the NodePool's
	// taints); the cluster details and the values it resolves at launch are
	// known at boot only.
	discovered := "Karpenter: the cluster's %s it discovers (pkg/providers/amifamily/bootstrap/nodeadm.go getNodeConfigYAML)"
	karp := nodeadm.Document{Data: y, Generator: "Karpenter", Anchor: t.out.Anchor, Positions: map[string]finding.Position{},
		AtBoot: map[string]string{
			"spec.cluster.name":                 fmt.Sprintf(discovered, "name"),
			"spec.cluster.apiServerEndpoint":    fmt.Sprintf(discovered, "API server endpoint"),
			"spec.cluster.certificateAuthority": fmt.Sprintf(discovered, "CA bundle"),
			"spec.cluster.cidr":                 fmt.Sprintf(discovered, "service CIDR"),
		}}
	for p, pos := range t.out.Positions {
		karp.Positions[p] = pos
	}
	for p, note := range t.out.AtBoot {
		karp.AtBoot[p] = note
	}
	nout, err := nodeadm.TranslateDocuments(t.path, t.out.Anchor, append(docs, karp), opt)
	if err != nil {
		return err
	}
	// What Karpenter writes without a place in the file (values given with
	// --set, at boot) has Karpenter's note, not the anchor's position.
	wrote := map[string]bool{"registerWithTaints": true}
	for k := range kc {
		wrote[k] = true
	}
	for k := range t.out.AtBoot {
		wrote[k] = true
	}
	positions := map[string]finding.Position{}
	for p, pos := range nout.Positions {
		root := p
		if i := strings.IndexAny(p, ".["); i > 0 {
			root = p[:i]
		}
		if wrote[root] && pos == karp.Anchor {
			continue
		}
		positions[p] = pos
	}
	for p, pos := range t.out.Positions {
		positions[p] = pos
	}
	t.out.Positions = positions
	for p, n := range nout.Notes {
		if _, ok := t.out.Notes[p]; !ok {
			t.out.Notes[p] = n
		}
	}
	t.out.Notes["registerWithTaints"] = t.taintsNote("")
	for p, n := range nout.AtBoot {
		if _, ok := t.out.AtBoot[p]; !ok {
			t.out.AtBoot[p] = n
		}
	}
	nout.Claim() // nodeadm's own findings, nodeadm's refusals: not Karpenter's
	t.out.Writer = &nout.Tool
	t.out.Findings = append(t.out.Findings, nout.Findings...)
	t.out.Config, t.out.ConfigDir, t.out.DropIns = nout.Config, nout.ConfigDir, nout.DropIns
	t.out.Flags, t.out.FlagPositions, t.out.FlagNotes = nout.Flags, nout.FlagPositions, nout.FlagNotes
	through := nout.Note
	if what, rest, ok := strings.Cut(strings.TrimPrefix(through, nodeadm.Tool.Name+" "), ": "); ok {
		through = fmt.Sprintf("%s (%s): %s", nodeadm.Tool.Name, what, rest)
	}
	t.out.Note = "Karpenter EC2NodeClass, AL2023: spec.userData's NodeConfigs, then the NodeConfig Karpenter generates (spec.kubelet, registerWithTaints), through " + through +
		"; the NodePool's --node-labels flag is not in this file"
	return nil
}

// userDocuments are the NodeConfigs of spec.userData as nodeadm finds them
// in the archive Karpenter writes (nodeadm.go parseUserData: MIME
// multi-part user data is split into its parts, YAML is one NodeConfig,
// anything else a shell script), at the manifest's lines: a literal block's
// content starts on the line after its indicator, indented by the block's
// indentation; a value of another style has every position at the value.
func (t *translation) userDocuments(ud *yaml.Node) ([]nodeadm.Document, error) {
	if ud == nil || strings.TrimSpace(ud.Value) == "" {
		return nil, nil
	}
	text := ud.Value
	trimmed := strings.TrimSpace(text)
	if strings.HasPrefix(trimmed, "MIME-Version:") || strings.HasPrefix(trimmed, "Content-Type:") {
		// mime.NewArchive: the archive must be multipart.
		msg, err := mail.ReadMessage(strings.NewReader(text))
		if err != nil {
			return nil, fmt.Errorf("spec.userData: Karpenter cannot parse the MIME archive: %v", err)
		}
		if mt, _, err := mime.ParseMediaType(msg.Header.Get("Content-Type")); err != nil || !strings.HasPrefix(mt, "multipart/") {
			return nil, fmt.Errorf("spec.userData: Karpenter cannot parse the MIME archive: not multipart")
		}
	} else if sigsyaml.Unmarshal([]byte(text), &map[string]any{}) != nil {
		return nil, nil
	}
	at := func(int, int) finding.Position { return t.pos(ud) }
	if ud.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		indent := t.blockIndent(ud)
		at = func(l, c int) finding.Position {
			return finding.Position{File: t.path, Line: ud.Line + l, Column: indent + c}
		}
	}
	docs, err := nodeadm.UserDataDocuments([]byte(text), at)
	if err != nil {
		return nil, fmt.Errorf("spec.userData: Karpenter cannot parse the MIME archive: %v", err)
	}
	return docs, nil
}

// userNodeConfigs are the kubelet configs of the user's NodeConfigs.
func (t *translation) userNodeConfigs(docs []nodeadm.Document) []userNodeConfig {
	var out []userNodeConfig
	for _, d := range docs {
		if d.Skipped != "" {
			continue
		}
		var n yaml.Node
		if err := yaml.Unmarshal(d.Data, &n); err != nil || len(n.Content) != 1 {
			continue
		}
		u := userNodeConfig{config: map[string]any{}, keys: map[string]finding.Position{}}
		cfg := yamlmap.Value(yamlmap.Value(yamlmap.Value(n.Content[0], "spec"), "kubelet"), "config")
		if cfg == nil {
			continue
		}
		raw, _ := yaml.Marshal(cfg)
		if err := sigsyaml.Unmarshal(raw, &u.config); err != nil {
			continue
		}
		for i := 0; i+1 < len(cfg.Content); i += 2 {
			k := cfg.Content[i]
			u.keys[k.Value] = d.Anchor
			if d.At != nil {
				u.keys[k.Value] = d.At(k.Line, k.Column)
			}
		}
		out = append(out, u)
	}
	return out
}

// blockIndent is the indentation of a block scalar's content: that of its
// first non-blank line in the file.
func (t *translation) blockIndent(ud *yaml.Node) int {
	for i := ud.Line; i < len(t.lines); i++ {
		if l := strings.TrimRight(t.lines[i], "\r"); strings.TrimSpace(l) != "" {
			return len(l) - len(strings.TrimLeft(l, " "))
		}
	}
	return 0
}

// bottlerocket: Karpenter's user data (Bottlerocket.Script: spec.userData's
// settings with spec.kubelet's written over them), then what Bottlerocket
// writes for the kubelet from those settings (brkubelet.go).
func (t *translation) bottlerocket(kc map[string]any, spec *yaml.Node, opt bootstrap.Options) error {
	t.unsupported("Bottlerocket", false)
	s, err := t.script(kc, yamlmap.Value(spec, "userData"))
	if err != nil {
		return err
	}
	t.brData = s.data
	r := &brRender{t: t, s: s, tmpl: "packages/kubernetes-" + brNewest + "/kubelet-config", from: map[string][]string{}, defaulted: map[string]bool{}}
	config := r.kubeletConfig(opt)
	r.origins()
	t.brUnmappedSettings(s)
	t.brFlags(s)
	t.out.Config = &bootstrap.File{Path: "/etc/kubernetes/kubelet/config", Data: []byte(config)}
	t.out.Writer = &brTool
	paired := "Kubernetes " + brNewest
	if m := minorNumber(opt.Minor); m > minorNumber(brNewest) {
		paired = fmt.Sprintf("Kubernetes %s, the newest in %s, for kubelet %s", brNewest, brCoreKit, opt.Minor)
	}
	t.out.Note = fmt.Sprintf("Karpenter EC2NodeClass, Bottlerocket: spec.userData's settings with those Karpenter writes from spec.kubelet over them, then the kubelet configuration Bottlerocket renders from them (%s, its template for %s; the aws-k8s variant's defaults of %s) and its --register-with-taints and -v flags; its other flags are not modeled, nor the NodePool's labels", r.tmpl, paired, brOS)
	return nil
}

// minorNumber is the minor of "1.NN" (0 for another form).
func minorNumber(v string) int {
	_, m, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(m)
	return n
}

// al2: eksBootstrapScript: bootstrap.sh --dns-cluster-ip (the first
// clusterDNS address), --use-max-pods false when maxPods is set, and
// --kubelet-extra-args from kubeletExtraArgs.
func (t *translation) al2(kc map[string]any) {
	t.unsupported("AL2", true)
	t.extraArgs(kc, "Karpenter: bootstrap.sh --kubelet-extra-args (pkg/providers/amifamily/bootstrap/bootstrap.go kubeletExtraArgs)", "/etc/kubernetes/kubelet/kubelet-config.json")
	t.out.Note = "Karpenter EC2NodeClass, AL2: bootstrap.sh's --kubelet-extra-args as Karpenter writes them (map-valued flags with their keys sorted; Karpenter's order is Go's map order) and --dns-cluster-ip in kubelet-config.json; the AMI's own kubelet-config.json template is not modeled; the NodePool's --node-labels flag is not in this file"
}

// isWindows reports whether an AMI family is one of the Windows ones.
func isWindows(fam string) bool { return strings.HasPrefix(fam, "Windows") }

// windowsAMI is the EKS-optimized Windows AMI's bootstrap script, which
// starts the kubelet on a Windows node Karpenter launches.
var windowsAMI = bootstrap.Tool{Name: "the EKS Windows AMI", Release: "(Start-EKSBootstrap.ps1)", Source: "Start-EKSBootstrap.ps1 (in the AMI; not public source)"}

// windowsKubeletConfig is where the EKS Windows AMI's Start-EKSBootstrap.ps1
// writes the kubelet's --config ($env:ProgramData\kubernetes).
const windowsKubeletConfig = `C:\ProgramData\kubernetes\kubelet-config.json`

// windows: bootstrap/windows.go Script: Start-EKSBootstrap.ps1 of the EKS
// Windows AMI with -KubeletExtraArgs, the same kubeletExtraArgs as AL2's
// (joined with spaces, each value in double quotes, which the Windows
// command line takes off), and -DNSClusterIP, the first clusterDNS address.
// The families map what AL2 maps (SupportsArbitraryKubeletConfig false,
// PodsPerCoreEnabled true: pkg/providers/amifamily/windows.go FeatureFlags).
func (t *translation) windows(fam string, kc map[string]any) {
	t.unsupported(fam, true)
	t.extraArgs(kc, "Karpenter: Start-EKSBootstrap.ps1 -KubeletExtraArgs (pkg/providers/amifamily/bootstrap/windows.go Script, bootstrap.go kubeletExtraArgs)", windowsKubeletConfig)
	// The script's own arguments come first; -KubeletExtraArgs are appended.
	t.out.PrependFlags(windowsAMI, "EKS Windows AMI: Start-EKSBootstrap.ps1's own kubelet arguments (Register-KubernetesServices; the script ships in the AMI, not as public source: an assumption from its published copies)",
		"--cgroups-per-qos=false", "--enforce-node-allocatable=")
	t.out.Note = fmt.Sprintf("Karpenter EC2NodeClass, %s: Start-EKSBootstrap.ps1's -KubeletExtraArgs as Karpenter writes them (map-valued flags with their keys sorted; Karpenter's order is Go's map order) after the script's own --cgroups-per-qos=false --enforce-node-allocatable= (assumed: the script is not public source), and -DNSClusterIP in kubelet-config.json; the rest of the Windows AMI's kubelet-config.json and arguments are not modeled; the NodePool's --node-labels flag is not in this file", fam)
}

// extraArgs is kubeletExtraArgs (pkg/providers/amifamily/bootstrap/bootstrap.go)
// as the kubelet's flags, with the first clusterDNS address in the kubelet
// configuration file at configPath (bootstrap.sh --dns-cluster-ip,
// Start-EKSBootstrap.ps1 -DNSClusterIP).
func (t *translation) extraArgs(kc map[string]any, note, configPath string) {
	var flags []string
	var pos []finding.Position
	var notes []string
	addFlag := func(name, value, field string) {
		flags = append(flags, "--"+name+"="+value)
		pos = append(pos, t.out.Positions[field])
		notes = append(notes, note)
	}
	var ts []string
	for _, x := range t.taints {
		ts = append(ts, taintString(x.(map[string]any)))
	}
	flags = append(flags, "--register-with-taints="+strings.Join(ts, ","))
	pos = append(pos, t.out.Positions["registerWithTaints"])
	notes = append(notes, t.taintsNote(" (bootstrap.go nodeTaintArg)"))
	if v, ok := kc["maxPods"]; ok {
		addFlag("max-pods", fmt.Sprint(v), "maxPods")
	}
	if v, ok := kc["podsPerCore"]; ok {
		addFlag("pods-per-core", fmt.Sprint(v), "podsPerCore")
	}
	join := func(field, name, sep string) {
		m, ok := kc[field].(map[string]any)
		if !ok || len(m) == 0 {
			return
		}
		var parts []string
		for _, k := range sortedKeys(m) { // Go map order in Karpenter: the kubelet parses the list the same in any order
			parts = append(parts, fmt.Sprintf("%s%s%v", k, sep, m[k]))
		}
		addFlag(name, strings.Join(parts, ","), field)
	}
	join("systemReserved", "system-reserved", "=")
	join("kubeReserved", "kube-reserved", "=")
	join("evictionHard", "eviction-hard", "<")
	join("evictionSoft", "eviction-soft", "<")
	join("evictionSoftGracePeriod", "eviction-soft-grace-period", "=")
	if v, ok := kc["evictionMaxPodGracePeriod"]; ok {
		addFlag("eviction-max-pod-grace-period", fmt.Sprint(v), "evictionMaxPodGracePeriod")
	}
	if v, ok := kc["imageGCHighThresholdPercent"]; ok {
		addFlag("image-gc-high-threshold", fmt.Sprint(v), "imageGCHighThresholdPercent")
	}
	if v, ok := kc["imageGCLowThresholdPercent"]; ok {
		addFlag("image-gc-low-threshold", fmt.Sprint(v), "imageGCLowThresholdPercent")
	}
	if v, ok := kc["cpuCFSQuota"]; ok {
		addFlag("cpu-cfs-quota", fmt.Sprint(v), "cpuCFSQuota")
	}
	doc := map[string]any{"apiVersion": kubeletAPI, "kind": "KubeletConfiguration"}
	if ips, ok := kc["clusterDNS"].([]any); ok && len(ips) > 0 {
		doc["clusterDNS"] = ips[:1] // --dns-cluster-ip: the first address
	}
	j, _ := json.MarshalIndent(doc, "", "    ")
	t.out.Config = &bootstrap.File{Path: configPath, Data: j}
	t.out.Flags, t.out.FlagPositions, t.out.FlagNotes = flags, pos, notes
}

// unsupported is v1.15's validateKubeletFieldsSupported
// (pkg/controllers/nodeclass/validation.go, v1.15.0): a family without
// SupportsArbitraryKubeletConfig (every one but AL2023) refuses the keys
// Karpenter does not map (v1.UnmanagedKubeletFields), podsPerCore where the
// family has no setting for it (Bottlerocket: PodsPerCoreEnabled false), and
// more than one clusterDNS address (a single-valued bootstrap parameter):
// the EC2NodeClass gets ValidationSucceeded=False
// (UnsupportedKubeletConfiguration) and Karpenter launches no node from it.
// It returns the keys refused.
func (t *translation) unsupported(fam string, podsPerCoreEnabled bool) []string {
	fields := append([]string(nil), t.unmanaged...)
	if _, ok := t.kubelet["podsPerCore"]; ok && !podsPerCoreEnabled {
		fields = append(fields, "podsPerCore")
	}
	sorted := append([]string(nil), fields...)
	sort.Strings(sorted)
	src := "pkg/controllers/nodeclass/validation.go validateKubeletFieldsSupported, " + Tool.Release
	for _, k := range fields {
		path, hint := "", "set "+k+" in spec.userData, or use the AL2023 family, which passes every spec.kubelet key to the kubelet"
		if k == "podsPerCore" {
			path, hint = k, "bound the pods with spec.kubelet.maxPods instead (Karpenter maps it to settings.kubernetes.max-pods)"
		}
		t.add(bootstrap.Refuses, t.keys[k], path, fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False, UnsupportedKubeletConfiguration; no node is launched): spec.kubelet has fields not applied by the %s AMI family that would be silently dropped: %s (%s)", fam, strings.Join(sorted, ", "), src), hint)
	}
	if ips, ok := t.kubelet["clusterDNS"].([]any); ok && len(ips) > 1 {
		n := yamlmap.Value(t.kubeletNode, "clusterDNS")
		for i := 1; i < len(ips) && i < len(n.Content); i++ {
			t.add(bootstrap.Refuses, n.Content[i], "clusterDNS["+strconv.Itoa(i)+"]", fmt.Sprintf("its controller refuses the EC2NodeClass (ValidationSucceeded=False, UnsupportedKubeletConfiguration; no node is launched): spec.kubelet.clusterDNS: the %s AMI family doesn't accept multiple entries, only one, but %d were set (%s)", fam, len(ips), src),
				"give one clusterDNS address")
		}
	}
	return fields
}
