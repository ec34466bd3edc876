package kubeadm

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// What the kubelet-start phase of kubeadm init and kubeadm join writes besides
// config.yaml, ported from k8s.io/kubernetes cmd/kubeadm/app at each minor's release
// (conformance/minors/versions.txt: v1.31.0 ... v1.38.0-beta.0):
//
//   - /var/lib/kubelet/kubeadm-flags.env, KUBELET_KUBEADM_ARGS
//     (phases/kubelet/flags.go, WriteKubeletDynamicEnvFile and buildKubeletArgsCommon;
//     util/arguments.go, ArgumentsToCommand): kubeadm's own flags
//     (--container-runtime-endpoint from criSocket, --pod-infra-container-image,
//     --register-with-taints on a joining worker, --hostname-override) overridden by
//     nodeRegistration.kubeletExtraArgs;
//   - /var/lib/kubelet/instance-config.yaml (phases/kubelet/config.go,
//     WriteInstanceConfigToDisk), containerRuntimeEndpoint from criSocket, merged into
//     config.yaml after the patches (applyKubeletConfigPatchFromFile) where the minor
//     writes it;
//   - the API versions the minor reads (util/config/common.go, validateSupportedVersion).
//
// The conformance harness runs kubeadm's own WriteKubeletDynamicEnvFile,
// WriteInstanceConfigToDisk and applyKubeletConfigPatchFromFile on testdata/kubeadm/cases
// at every minor (testdata/kubeadm/golden/<minor>/NAME.flags.env and
// NAME.instance-config.yaml); TestKubeadmNodeGoldens compares.

// Arg is one kubelet flag of kubeadm-flags.env (kubeadmapi.Arg) and where the
// user's file sets it.
type Arg struct {
	Name, Value string
	Pos         finding.Position
	// From says what in the file the flag comes from, for origins and messages:
	// "nodeRegistration.kubeletExtraArgs[max-pods]".
	From string
}

// Node is what the kubelet-start phase reads of the node's document (the
// InitConfiguration, or the JoinConfiguration of a file without one) and of the
// ClusterConfiguration.
type Node struct {
	path         string
	doc          *Doc // nil: no InitConfiguration (kubeadm's defaults)
	join         bool
	controlPlane bool // a JoinConfiguration with controlPlane
	Anchor       finding.Position
	Name         string
	NamePos      finding.Position
	CRISocket    string
	CRIPos       finding.Position
	Extra        []Arg    // in the internal type's order
	taints       []string // v1.Taint.ToString of each
	taintsPos    finding.Position
	imageRepo    string
	imageRepoPos finding.Position
	// gate: the ClusterConfiguration's featureGates.NodeLocalCRISocket, when written.
	gate    *bool
	gatePos finding.Position
	// versions are the kubeadm documents kubeadm checks (validateSupportedVersion), in
	// its order: sorted by GroupVersionKind string.
	versions []*Doc
	cluster  *Doc
	// kubelet is the file's kubelet.config.k8s.io document, which kubeadm init
	// loads as a component config (componentconfigs.FetchFromDocumentMap).
	kubelet *Doc
	// refusedOnly: the file is read as written (kubeadm cannot decode its
	// KubeletConfiguration): only kubeadm's refusal is reported of kubeadm.
	refusedOnly bool
	// OS is the node's operating system (kubeadm's Windows build prepends
	// npipe://, not unix://, to a criSocket without it).
	OS kubelets.OS
	// Detected is Options.CRISocket.
	Detected string
	// own are the names of the flags kubeadm wrote itself (not kubeletExtraArgs'),
	// set by the conversion.
	own []string
	// badArgs is a kubeletExtraArgs of the other API version's shape; nil: none.
	badArgs *yaml.Node
	// BadValue is the first kubeletExtraArgs value that is not a string (a number,
	// a boolean, ...), which kubeadm's decoder refuses; nil: none.
	BadValue *yaml.Node
}

// NodeOf reads the node's kubeadm documents of a file split into docs.
func NodeOf(path string, docs []Doc) *Node {
	n := &Node{path: path, imageRepo: "registry.k8s.io"}
	var initDoc, joinDoc *Doc
	for i := range docs {
		d := &docs[i]
		if Group(d.APIVersion) == "kubelet.config.k8s.io" && n.kubelet == nil {
			n.kubelet = d
		}
		if Group(d.APIVersion) != "kubeadm.k8s.io" {
			continue
		}
		switch d.Kind {
		case "InitConfiguration":
			initDoc = d
		case "JoinConfiguration":
			joinDoc = d
		case "ClusterConfiguration":
			n.cluster = d
		}
	}
	n.doc = initDoc
	if initDoc == nil && joinDoc != nil {
		n.doc, n.join = joinDoc, true
	}
	for i := range docs {
		d := &docs[i]
		// documentMapToJoinConfiguration checks the JoinConfiguration only.
		if Group(d.APIVersion) == "kubeadm.k8s.io" && (!n.join || d == joinDoc) {
			n.versions = append(n.versions, d)
		}
	}
	slices.SortStableFunc(n.versions, func(a, b *Doc) int { return strings.Compare(gvkString(a), gvkString(b)) })
	n.Anchor = finding.Position{File: path, Line: 1, Column: 1}
	if len(docs) > 0 {
		n.Anchor.Line = docs[0].First
	}
	if n.doc != nil {
		n.Anchor = n.pos(n.doc.KindLine, n.doc.KindColumn)
		if n.join {
			n.controlPlane = yamlmap.Value(n.doc.Root, "controlPlane") != nil
		}
		n.readNodeRegistration(yamlmap.Value(n.doc.Root, "nodeRegistration"), strings.HasSuffix(n.doc.APIVersion, "/v1beta3"))
	}
	if c := n.cluster; c != nil && c.Root != nil {
		if k := yamlmap.Key(c.Root, "imageRepository"); k != nil {
			if v := yamlmap.Value(c.Root, "imageRepository"); v.Value != "" {
				n.imageRepo, n.imageRepoPos = v.Value, n.pos(k.Line, k.Column)
			}
		}
		if fg := yamlmap.Value(c.Root, "featureGates"); fg != nil {
			if k := yamlmap.Key(fg, "NodeLocalCRISocket"); k != nil {
				if b, err := strconv.ParseBool(yamlmap.Value(fg, "NodeLocalCRISocket").Value); err == nil {
					n.gate, n.gatePos = &b, n.pos(k.Line, k.Column)
				}
			}
		}
	}
	return n
}

// gvkString is schema.GroupVersionKind.String of a document.
func gvkString(d *Doc) string {
	return d.APIVersion + ", Kind=" + d.Kind
}

func (n *Node) pos(line, column int) finding.Position {
	return finding.Position{File: n.path, Line: line, Column: column}
}

// SocketOS is the node's operating system as its kubeadm documents say it:
// Windows when the node document's nodeRegistration.criSocket is a named pipe
// (npipe://, the only transport of a Windows runtime; kubeadm's Windows default
// is npipe:////./pipe/containerd-containerd), with where it says so; "" when
// nothing says.
func (n *Node) SocketOS() (kubelets.OS, string) {
	if IsWindowsSocket(n.CRISocket) {
		return kubelets.Windows, fmt.Sprintf("nodeRegistration.criSocket %s (line %d)", n.CRISocket, n.CRIPos.Line)
	}
	return "", ""
}

// IsWindowsSocket reports whether a CRI endpoint is a Windows named pipe.
func IsWindowsSocket(endpoint string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(endpoint)), "npipe:")
}

// readNodeRegistration reads nodeRegistration: name, criSocket, taints and
// kubeletExtraArgs, v1beta3's map sorted by name as its conversion sorts it
// (v1beta3/conversion.go, convertToArgs), v1beta4's list as written.
func (n *Node) readNodeRegistration(nr *yaml.Node, v1beta3 bool) {
	if nr == nil || nr.Kind != yaml.MappingNode {
		return
	}
	if k := yamlmap.Key(nr, "name"); k != nil {
		n.Name, n.NamePos = yamlmap.Value(nr, "name").Value, n.pos(k.Line, k.Column)
	}
	if k := yamlmap.Key(nr, "criSocket"); k != nil {
		n.CRISocket, n.CRIPos = yamlmap.Value(nr, "criSocket").Value, n.pos(k.Line, k.Column)
	}
	if k := yamlmap.Key(nr, "taints"); k != nil {
		n.taintsPos = n.pos(k.Line, k.Column)
		for _, t := range yamlmap.Value(nr, "taints").Content {
			n.taints = append(n.taints, taintString(t))
		}
	}
	args := yamlmap.Value(nr, "kubeletExtraArgs")
	if args == nil {
		return
	}
	// v1beta4's list written as v1beta3's map (or the other way round): the decoder
	// refuses the field's type.
	if v1beta3 && args.Kind == yaml.SequenceNode || !v1beta3 && args.Kind == yaml.MappingNode {
		n.badArgs = args
		return
	}
	from := func(name string) string { return "nodeRegistration.kubeletExtraArgs[" + name + "]" }
	switch {
	case v1beta3 && args.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(args.Content); i += 2 {
			k, v := args.Content[i], args.Content[i+1]
			n.checkValue(v)
			n.Extra = append(n.Extra, Arg{Name: k.Value, Value: v.Value, Pos: n.pos(k.Line, k.Column), From: from(k.Value)})
		}
		slices.SortStableFunc(n.Extra, func(a, b Arg) int {
			if c := strings.Compare(a.Name, b.Name); c != 0 {
				return c
			}
			return strings.Compare(a.Value, b.Value)
		})
	case args.Kind == yaml.SequenceNode:
		for _, item := range args.Content {
			a := Arg{Pos: n.pos(item.Line, item.Column)}
			if k := yamlmap.Key(item, "name"); k != nil {
				a.Name, a.Pos = yamlmap.Value(item, "name").Value, n.pos(k.Line, k.Column)
			}
			if v := yamlmap.Value(item, "value"); v != nil {
				a.Value = v.Value
				n.checkValue(v)
			}
			a.From = from(a.Name)
			n.Extra = append(n.Extra, a)
		}
	}
}

// checkValue records v when kubeadm's decoder cannot read it as a string.
func (n *Node) checkValue(v *yaml.Node) {
	if n.BadValue == nil && jsonKind(v) != "" {
		n.BadValue = v
	}
}

// jsonKind is what encoding/json calls a YAML value that is not a string ("number",
// "bool", "object", "array"); empty for a string or null.
func jsonKind(v *yaml.Node) string {
	switch {
	case v.Kind == yaml.MappingNode:
		return "object"
	case v.Kind == yaml.SequenceNode:
		return "array"
	case v.Tag == "!!int" || v.Tag == "!!float":
		return "number"
	case v.Tag == "!!bool":
		return "bool"
	}
	return ""
}

// taintString is v1.Taint.ToString: key=value:effect, key:effect without a value.
func taintString(t *yaml.Node) string {
	val := func(k string) string {
		if v := yamlmap.Value(t, k); v != nil {
			return v.Value
		}
		return ""
	}
	if val("value") == "" {
		return val("key") + ":" + val("effect")
	}
	return val("key") + "=" + val("value") + ":" + val("effect")
}

// Writes is what the kubelet-start phase of one kubeadm minor writes
// besides config.yaml.
type Writes struct {
	// Flags are KUBELET_KUBEADM_ARGS in order.
	Flags []Arg
	// Instance: the minor writes Instance-config.yaml with containerRuntimeEndpoint
	// endpoint (empty when criSocket is not written: kubeadm detects the socket on the
	// node).
	Instance bool
	Endpoint string
}

// Refusal is kubeadm's error when it refuses the file, with the position of
// what it refuses and the source that refuses.
type Refusal struct {
	pos     finding.Position
	message string // kubeadm's words
	source  string
	hint    string // what to write instead, when the refusal says it best
}

func (r *Refusal) Error() string { return r.message }

// minorNumber is 37 of "1.37".
func minorNumber(m *kubelets.Minor) int {
	_, mm, _ := strings.Cut(m.Version, ".")
	n, _ := strconv.Atoi(mm)
	return n
}

// refusal is what kubeadm of minor m refuses in the file before it writes anything:
// an API version it no longer (or not yet) reads (util/config/common.go,
// validateSupportedVersion, in documentMapToInitConfiguration's order), and the
// NodeLocalCRISocket feature gate where kubeadm does not know it
// (apis/kubeadm/validation/validation.go, ValidateFeatureGates: 1.31, and 1.37 on).
func (n *Node) refusal(m *kubelets.Minor) *Refusal {
	minor := minorNumber(m)
	old := map[string]string{
		"kubeadm.k8s.io/v1alpha1": "v1.11",
		"kubeadm.k8s.io/v1alpha2": "v1.12",
		"kubeadm.k8s.io/v1alpha3": "v1.14",
		"kubeadm.k8s.io/v1beta1":  "v1.15",
		"kubeadm.k8s.io/v1beta2":  "v1.22",
	}
	if minor >= 37 {
		old["kubeadm.k8s.io/v1beta3"] = "v1.36"
	}
	migrate := "'kubeadm config migrate --old-config old-config-file --new-config new-config-file'"
	if minor <= 32 {
		migrate = "'kubeadm config migrate --old-config old.yaml --new-config new.yaml'"
	}
	src := fmt.Sprintf("cmd/kubeadm/app/util/config/common.go, validateSupportedVersion, kubeadm %s", m.Patch)
	for _, d := range n.versions {
		use := old[d.APIVersion]
		at := n.pos(d.KindLine, d.KindColumn)
		if v := yamlmap.Value(d.Root, "apiVersion"); v != nil {
			at = n.pos(v.Line, v.Column)
		}
		decodes := use == "" && d == n.doc && (d.APIVersion == "kubeadm.k8s.io/v1beta4" || d.APIVersion == "kubeadm.k8s.io/v1beta3")
		if decodes && n.badArgs != nil {
			typ, field := "[]v1beta4.Arg", "object"
			if d.APIVersion == "kubeadm.k8s.io/v1beta3" {
				typ, field = "map[string]string", "array"
			}
			return &Refusal{pos: n.pos(n.badArgs.Line, n.badArgs.Column), source: fmt.Sprintf("cmd/kubeadm/app/util/config, runtime.DecodeInto of the %s, kubeadm %s", n.doc.Kind, m.Patch),
				message: fmt.Sprintf("json: cannot unmarshal %s into Go struct field NodeRegistrationOptions.nodeRegistration.kubeletExtraArgs of type %s", field, typ)}
		}
		if decodes && n.BadValue != nil {
			// runtime.DecodeInto of the node's document (kubeadm's scheme, encoding/json).
			field := "Arg.nodeRegistration.kubeletExtraArgs.value"
			if d.APIVersion == "kubeadm.k8s.io/v1beta3" {
				field = "NodeRegistrationOptions.nodeRegistration.kubeletExtraArgs"
			}
			return &Refusal{pos: n.pos(n.BadValue.Line, n.BadValue.Column), source: fmt.Sprintf("cmd/kubeadm/app/util/config, runtime.DecodeInto of the %s, kubeadm %s", n.doc.Kind, m.Patch),
				message: fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s of type string", jsonKind(n.BadValue), field)}
		}
		if use != "" {
			return &Refusal{pos: at, source: src, message: fmt.Sprintf("your configuration file uses an old API spec: %q (kind: %q). Please use kubeadm %s instead and run %s, which will write the new, similar spec using a newer API version.", d.APIVersion, d.Kind, use, migrate)}
		}
		switch {
		case d.APIVersion == "kubeadm.k8s.io/v1" && minor >= 37:
			return &Refusal{pos: at, source: src, message: fmt.Sprintf("experimental API spec: %q (kind: %q) is not allowed. You can use the --allow-experimental-api flag if the command supports it.", d.APIVersion, d.Kind)}
		case d.APIVersion != "kubeadm.k8s.io/v1beta4" && d.APIVersion != "kubeadm.k8s.io/v1beta3" && d.APIVersion != "kubeadm.k8s.io/v1":
			// Not registered in the scheme: the decoder refuses it.
			return &Refusal{pos: at, source: fmt.Sprintf("cmd/kubeadm/app/apis/kubeadm/scheme, kubeadm %s", m.Patch),
				message: fmt.Sprintf("no kind %q is registered for version %q in scheme", d.Kind, d.APIVersion)}
		case d.APIVersion == "kubeadm.k8s.io/v1" && minor < 37:
			return &Refusal{pos: at, source: fmt.Sprintf("cmd/kubeadm/app/apis/kubeadm/scheme, kubeadm %s", m.Patch),
				message: fmt.Sprintf("no kind %q is registered for version %q in scheme", d.Kind, d.APIVersion)}
		}
	}
	if d := n.kubelet; d != nil && !n.join && d.APIVersion != "kubelet.config.k8s.io/v1beta1" {
		// documentMapToInitConfiguration loads the component configs after the
		// kubeadm documents: configBase.Unmarshal takes only the version
		// kubeadm converts (join reads the cluster's instead).
		at := n.pos(d.KindLine, d.KindColumn)
		if v := yamlmap.Value(d.Root, "apiVersion"); v != nil {
			at = n.pos(v.Line, v.Column)
		}
		return &Refusal{pos: at, source: fmt.Sprintf("cmd/kubeadm/app/componentconfigs/configset.go, configBase.Unmarshal, kubeadm %s", m.Patch),
			message: fmt.Sprintf("unsupported apiVersion %q, you may have to do manual conversion to %q and run kubeadm again", d.APIVersion, "kubelet.config.k8s.io/v1beta1"),
			hint:    "write the KubeletConfiguration document as apiVersion kubelet.config.k8s.io/v1beta1, the only version kubeadm reads (and the kubelet decodes)"}
	}
	if n.gate != nil && (minor <= 31 || minor >= 37) && !n.join {
		return &Refusal{pos: n.gatePos, source: fmt.Sprintf("cmd/kubeadm/app/apis/kubeadm/validation/validation.go, ValidateFeatureGates, kubeadm %s", m.Patch),
			message: fmt.Sprintf("featureGates: Invalid value: map[string]bool{\"NodeLocalCRISocket\":%t}: NodeLocalCRISocket is not a valid feature name.", *n.gate)}
	}
	return nil
}

// nodeLocalCRISocket is features.Enabled(cfg.FeatureGates, features.NodeLocalCRISocket)
// as the kubelet-start phase of minor m asks it: no gate in 1.31 (always the flag),
// alpha (off) in 1.32-1.33, beta (on) in 1.34-1.35, GA in 1.36 (locked on, yet a
// file's false is still read: kubeadm's NewFeatureGate does not check the lock), and
// from 1.37 no gate: the instance configuration always
// (cmd/phases/init/kubelet.go runKubeletStart, cmd/phases/join/kubelet.go
// runKubeletStartJoinPhase).
func (n *Node) nodeLocalCRISocket(minor int) bool {
	switch {
	case minor <= 31:
		return false
	case minor >= 37:
		return true
	case n.gate != nil:
		return *n.gate
	}
	return minor >= 34
}

// pauseVersion is constants.PauseVersion of kubeadm minor m.
func pauseVersion(minor int) string {
	switch {
	case minor <= 33:
		return "3.10"
	case minor <= 35:
		return "3.10.1"
	}
	return "3.10.2"
}

// Writes is what kubeadm of minor m Writes for the node: buildKubeletArgsCommon's
// flags, overridden by kubeletExtraArgs (ArgumentsToCommand), and whether the instance
// configuration is written. detected is the CRI socket kubeadm detects on the node
// when criSocket is not written (Options.CRISocket; empty: unknown).
func (n *Node) Writes(m *kubelets.Minor, detected string) Writes {
	minor := minorNumber(m)
	var w Writes
	// SetNodeRegistrationDynamicDefaults: a socket that does not start with the
	// OS's scheme (DefaultContainerRuntimeURLScheme: unix, on Windows npipe) gets
	// it prepended; none is detected on the node (DetectCRISocket).
	scheme := "unix"
	if n.OS == kubelets.Windows {
		scheme = "npipe"
	}
	socket, socketPos, socketFrom := n.CRISocket, n.CRIPos, "nodeRegistration.criSocket"
	switch {
	case socket == "":
		socket, socketPos, socketFrom = detected, n.Anchor, "the CRI socket kubeadm detects on the node"
	case !strings.HasPrefix(socket, scheme):
		socket = scheme + "://" + socket
	}
	var base []Arg
	if n.nodeLocalCRISocket(minor) {
		w.Instance, w.Endpoint = true, socket
	} else if socket != "" {
		base = append(base, Arg{Name: "container-runtime-endpoint", Value: socket, Pos: socketPos, From: socketFrom})
	}
	if minor <= 34 {
		// GetPauseImage: imageRepository/pause:PauseVersion (gone from 1.35).
		pos := n.imageRepoPos
		if pos.Line == 0 {
			pos = n.Anchor
		}
		base = append(base, Arg{Name: "pod-infra-container-image", Value: n.imageRepo + "/pause:" + pauseVersion(minor), Pos: pos,
			From: "ClusterConfiguration imageRepository (kubeadm's pause image)"})
	}
	if n.join && !n.controlPlane && len(n.taints) > 0 {
		base = append(base, Arg{Name: "register-with-taints", Value: strings.Join(n.taints, ","), Pos: n.taintsPos, From: "nodeRegistration.taints"})
	}
	// GetNodeNameAndHostname: the node name is nodeRegistration.name (lower-cased by
	// GetHostname), else the hostname-override extra arg, else the host's name; the flag
	// is written when it differs from the host's name, which only the node knows.
	nodeName, namePos, nameFrom := strings.ToLower(strings.TrimSpace(n.Name)), n.NamePos, "nodeRegistration.name"
	for _, a := range n.Extra {
		if a.Name == "hostname-override" {
			nodeName, namePos, nameFrom = a.Value, a.Pos, a.From
		}
	}
	if nodeName != "" {
		base = append(base, Arg{Name: "hostname-override", Value: nodeName, Pos: namePos, From: nameFrom})
	}
	w.Flags = argumentsToCommand(minor, base, n.Extra)
	return w
}

// hostnameFlag says, when the flags have kubeadm's own --hostname-override, that it
// depends on the node; empty otherwise.
func (n *Node) hostnameFlag(w Writes) string {
	for _, f := range w.Flags {
		if f.Name == "hostname-override" && f.From == "nodeRegistration.name" {
			return fmt.Sprintf("kubeadm writes --hostname-override=%s unless the node's hostname is %s: the node's name is the same either way", f.Value, f.Value)
		}
	}
	return ""
}

// argumentsToCommand is util/arguments.go ArgumentsToCommand: an extra arg replaces
// every base arg of its name. 1.31 sorts the lot by name, then value; from 1.32 the
// base args are sorted and the extra args follow as given (1.37's merge methods are
// v1's, which kubeadm 1.37 does not read without --allow-experimental-api).
func argumentsToCommand(minor int, base, overrides []Arg) []Arg {
	over := map[string]bool{}
	for _, a := range overrides {
		over[a.Name] = true
	}
	byNameValue := func(a, b Arg) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	}
	var out []Arg
	if minor <= 31 {
		out = slices.Clone(overrides)
	}
	base = slices.Clone(base)
	slices.SortStableFunc(base, byNameValue)
	for _, a := range base {
		if !over[a.Name] {
			out = append(out, a)
		}
	}
	if minor <= 31 {
		slices.SortStableFunc(out, byNameValue)
		return out
	}
	return append(out, overrides...)
}

// flagsEnv is the kubeadm-flags.env WriteKubeletArgsToFile writes:
// KUBELET_KUBEADM_ARGS=%q of the flags joined by spaces.
func flagsEnv(flags []Arg) []byte {
	var args []string
	for _, a := range flags {
		args = append(args, "--"+a.Name+"="+a.Value)
	}
	return fmt.Appendf(nil, "KUBELET_KUBEADM_ARGS=%q\n", strings.Join(args, " "))
}

// instanceConfig is the instance-config.yaml WriteInstanceConfigToDisk writes.
func instanceConfig(endpoint string) []byte {
	return fmt.Appendf(nil, "containerRuntimeEndpoint: %q\n", endpoint)
}

// Wrote records flags as written by kubeadm into kubeadm-flags.env: those not
// from kubeletExtraArgs are kubeadm's own, not the file's to change (Settle).
func (n *Node) Wrote(flags []Arg) {
	for _, f := range flags {
		if !strings.HasPrefix(f.From, "nodeRegistration.kubeletExtraArgs") {
			n.own = append(n.own, f.Name)
		}
	}
}

// Settle adds, to findings at minor of a kubeadm config file (pm: its position map),
// what kubeadm of that minor says of the file: that it refuses it (KC9001, kubeadm's
// own words), and what it takes from the node instead of the file (KC9004).
func (n *Node) Settle(findings *[]finding.Finding, minor *kubelets.Minor, pm *posmap.Map) {
	if n == nil || minor == nil {
		return
	}
	if m := pm; m != nil && m.ByPath != nil {
		// kubeadm marshals a field it does not set as its zero value
		// (containerRuntimeEndpoint: ""), which the kubelet defaults as if absent: a
		// kubeadm flag for it overrides nothing the file says.
		kept := (*findings)[:0]
		for _, f := range *findings {
			if f.Rule == validate.FlagOverridesFile.ID && f.Path != "" && !writtenOrKubeadms(m, f.Path) {
				continue
			}
			// A deprecated flag kubeadm writes itself (--pod-infra-container-image,
			// --container-runtime-endpoint): not the file's to remove.
			for _, own := range n.own {
				if f.Rule == validate.FlagDeprecated.ID && strings.HasPrefix(f.Message, "--"+own+" ") {
					f.Message += " (kubeadm writes it itself into kubeadm-flags.env)"
					f.Hint = "nothing to change in the file: kubeadm of this minor passes it; newer kubeadm releases do not"
					if own == "register-with-taints" {
						// buildKubeletArgsCommon writes a joining worker's taints as the flag at every minor.
						f.Hint = "nothing to change in the file: kubeadm join passes a worker's nodeRegistration.taints as this flag at every minor"
					}
				}
			}
			kept = append(kept, f)
		}
		*findings = kept
	}
	if ref := n.refusal(minor); ref != nil {
		hint := "use apiVersion kubeadm.k8s.io/v1beta4 in every kubeadm document (kubeadm config migrate writes it)"
		switch {
		case n.BadValue != nil && ref.pos == n.pos(n.BadValue.Line, n.BadValue.Column):
			hint = fmt.Sprintf("quote the value: %q", n.BadValue.Value)
		case n.badArgs != nil && ref.pos == n.pos(n.badArgs.Line, n.badArgs.Column) && n.badArgs.Kind == yaml.MappingNode:
			hint = "v1beta4's kubeletExtraArgs is a list: - name: max-pods, value: \"150\" (kubeadm config migrate converts v1beta3's map)"
		case n.badArgs != nil && ref.pos == n.pos(n.badArgs.Line, n.badArgs.Column):
			hint = "v1beta3's kubeletExtraArgs is a map: max-pods: \"150\""
		case ref.hint != "":
			hint = ref.hint
		case n.gate != nil && ref.pos == n.gatePos:
			hint = fmt.Sprintf("remove featureGates.NodeLocalCRISocket: kubeadm %s does not know the gate", minor.Version)
		}
		f := bootstrap.Refuses.At(ref.pos, "",
			fmt.Sprintf("kubeadm %s refuses the file and writes nothing for the kubelet: %s (%s)", minor.Version, ref.message, ref.source), hint)
		f.By = &finding.Tool{Name: "kubeadm", Release: minor.Version}
		*findings = append(*findings, f)
	}
	if n.refusedOnly {
		finding.SortFindings(*findings)
		return
	}
	if n.CRISocket == "" && n.Detected == "" {
		verb := "init"
		if n.join {
			verb = "join"
		}
		where := "--container-runtime-endpoint in kubeadm-flags.env"
		if n.nodeLocalCRISocket(minorNumber(minor)) {
			where = "containerRuntimeEndpoint in /var/lib/kubelet/instance-config.yaml, merged into config.yaml"
		}
		*findings = append(*findings, bootstrap.AtBoot.At(n.Anchor, "containerRuntimeEndpoint",
			fmt.Sprintf("kubeadm %s %s writes the container runtime socket it detects on the node as %s (nodeRegistration.criSocket is not written: util/config SetNodeRegistrationDynamicDefaults, DetectCRISocket): unknown until boot, the kubelet's default is used here",
				verb, minor.Version, where),
			"write nodeRegistration.criSocket (unix:///run/containerd/containerd.sock, unix:///var/run/crio/crio.sock), or give the node's with --set containerRuntimeEndpoint=unix:///..."))
	}
	finding.SortFindings(*findings)
}

// writtenOrKubeadms reports whether the file (or a patch) writes path or kubeadm's
// defaulting sets it (Sets, the instance configuration's endpoint).
func writtenOrKubeadms(m *posmap.Map, path string) bool {
	for p := path; p != ""; p = kubelets.Parent(p) {
		if _, ok := m.ByPath[p]; ok {
			return true
		}
	}
	for _, q := range Sets {
		if kubelets.Within(path, q) || kubelets.Within(q, path) {
			return true
		}
	}
	return false
}
