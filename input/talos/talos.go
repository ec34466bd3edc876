// Package talos translates a Talos machine configuration (the v1alpha1
// document: version, machine, cluster) into what Talos starts the kubelet
// with: /etc/kubernetes/kubelet.yaml and the kubelet's flags, ported from
// siderolabs/talos at each release of Releases: Translate follows
// Options.Minor to the release whose default kubelet is that minor (the
// nearest one, with a note, when none is).
//
// The chain ported is the one machined runs on the node:
//
//   - pkg/machinery/config/configloader/internal/decoder decode: the v1alpha1
//     document is the one with machine/cluster keys and no kind; unknown keys
//     refuse the whole file (siderolabs/gen xyaml.CheckUnknownKeys);
//   - pkg/machinery/config/types/v1alpha1 (KubeletConfig.Validate,
//     v1alpha1_provider.go, v1alpha1_clusterconfig.go): the accessors and
//     their defaults;
//   - internal/app/machined/pkg/controllers/k8s/kubelet_config.go
//     NewKubeletConfigController: machine config -> KubeletConfigSpec;
//   - kubelet_spec.go KubeletSpecController.Run (the flags, argsbuilder merge
//     policies), prepareExtraConfig and NewKubeletConfiguration (the
//     configuration);
//   - kubelet_service.go KubeletServiceController.writeConfig (the file, as
//     the apimachinery YAML serializer writes it).
//
// From v1.14 Talos also reads the kubelet's settings from the KubeletConfig,
// KubeNodeConfig, KubeNetworkConfig and KubeCredentialProviderConfig
// documents beside v1alpha1 (documents.go); v1.13 refuses them as unknown
// kinds, as it refuses any kind its registry does not have.
//
// Values only the node knows (the node name Talos passes as
// --hostname-override, the addresses it picks for --node-ip, the URL of its
// local static pod server) are AtBoot: left out unless Options.Set gives them.
package talos

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Tool is Talos at its default release (the newest stable release of
// Releases, used when nothing names a kubelet minor); Output.Tool names the
// release a translation used.
var Tool = toolAt(defaultRelease())

func toolAt(r *Release) bootstrap.Tool {
	return bootstrap.Tool{
		Name:    "Talos",
		Release: r.Name,
		Source:  "internal/app/machined/pkg/controllers/k8s/kubelet_spec.go NewKubeletConfiguration",
	}
}

// Detect reports whether data is a Talos machine configuration: a YAML
// document (of possibly several) with `version: v1alpha1`, `machine:` and
// `cluster:` and no kind, as Talos's configloader decoder tells the v1alpha1
// document from the others.
func Detect(_ string, data []byte) bool {
	docs, err := splitDocuments(data)
	if err != nil {
		return false
	}
	for _, d := range docs {
		if isV1Alpha1(d) && yamlmap.Value(d, "machine") != nil && yamlmap.Value(d, "cluster") != nil {
			return true
		}
	}
	return false
}

// Accepts reports whether Talos reads data as a machine configuration at all,
// for --input-format talos: a YAML stream with a v1alpha1 document, with or
// without machine: and cluster: (Detect needs both to tell it from other
// formats; Talos's decoder takes any, then refuses or writes no kubelet).
func Accepts(_ string, data []byte) bool {
	docs, err := splitDocuments(data)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(docs, isV1Alpha1)
}

// splitDocuments reads every YAML document of data as its root node (nil for
// an empty document).
func splitDocuments(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
			docs = append(docs, n.Content[0])
		} else {
			docs = append(docs, nil)
		}
	}
}

// isV1Alpha1 follows decoder.go decode (configloader/internal/decoder, Talos
// v1.13.9): a document is the v1alpha1 one when it has no kind and either
// `apiVersion: v1alpha1` or one of the keys machine, cluster, debug, persist.
func isV1Alpha1(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	var version, kind string
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "kind":
			kind = n.Content[i+1].Value
		case "apiVersion":
			version = n.Content[i+1].Value
		case "machine", "cluster", "debug", "persist":
			version = "v1alpha1"
		}
	}
	return version == "v1alpha1" && kind == ""
}

// at returns the node at the path of keys below n, or nil.
func at(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = yamlmap.Value(n, k)
		if n == nil {
			return nil
		}
	}
	return n
}

// keyAt returns the key node of the last of keys below n, or nil.
func keyAt(n *yaml.Node, keys ...string) *yaml.Node {
	if len(keys) == 0 {
		return nil
	}
	parent := at(n, keys[:len(keys)-1]...)
	k, _ := yamlmap.Entry(parent, keys[len(keys)-1])
	return k
}

// translation holds what one Translate builds.
type translation struct {
	path string
	opt  bootstrap.Options
	rel  *Release
	doc  *yaml.Node
	out  *bootstrap.Output
	// docs are the documents of the other kinds the release reads the
	// kubelet's settings from (KubeletConfig, ...), by kind.
	docs map[string]*yaml.Node
	// where each setting is read from: the v1alpha1 document's keys or a
	// document's (documents.go).
	kubelet, node, network, cred place
	// replaced are the extraConfig keys Talos refuses or writes over.
	replaced []string
}

func (t *translation) pos(n *yaml.Node) finding.Position {
	if n == nil {
		return t.out.Anchor
	}
	return finding.Position{File: t.path, Line: n.Line, Column: n.Column}
}

// posOf is the position of the key at keys below the document, falling back
// to the nearest ancestor present, then to the anchor.
func (t *translation) posOf(keys ...string) finding.Position {
	for i := len(keys); i > 0; i-- {
		if k := keyAt(t.doc, keys[:i]...); k != nil {
			return t.pos(k)
		}
	}
	return t.out.Anchor
}

// add reports a finding of one of the bootstrapper rules (input/bootstrap),
// its message prefixed with the Talos release.
func (t *translation) add(rule *rule.Rule, pos finding.Position, path, msg, hint string) {
	t.out.Findings = append(t.out.Findings, rule.At(pos, path, "Talos "+t.rel.Name+": "+msg, hint))
}

// Translate turns the Talos machine configuration in data into the kubelet's
// configuration file and flags as Talos writes them.
func Translate(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	docs, err := splitDocuments(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not YAML Talos can read: %s", path, oneLine(err.Error()))
	}
	var doc, second *yaml.Node
	for _, d := range docs {
		if !isV1Alpha1(d) {
			continue
		}
		if doc == nil {
			doc = d
		} else if second == nil {
			second = d
		}
	}
	if doc == nil {
		return nil, fmt.Errorf("%s: no Talos v1alpha1 machine configuration document (version: v1alpha1 with machine: and cluster:)", path)
	}
	if second != nil {
		// The decoder refuses the whole file before anything reads it: the
		// node gets no kubelet.
		rel, note := releaseFor(opt.Minor)
		t := &translation{path: path, opt: opt, rel: rel, doc: doc, out: &bootstrap.Output{Tool: toolAt(rel),
			Anchor: finding.Position{File: path, Line: second.Line, Column: second.Column}}}
		t.add(bootstrap.Refuses, t.out.Anchor, "",
			fmt.Sprintf("duplicate document /v1alpha1/ is not allowed (line %d): Talos refuses the whole machine configuration (pkg/machinery/config/configloader/internal/decoder/decoder.go parse)", second.Line),
			"keep one v1alpha1 document (version: v1alpha1 with machine: and cluster:); merge the others into it, or make them patches (talosctl --config-patch)")
		t.out.Note = "Talos machine configuration: Talos " + rel.Name + " refuses it and writes nothing for the kubelet"
		pair(t.out, rel, note)
		return t.out, nil
	}
	if at(doc, "machine") == nil || at(doc, "cluster") == nil {
		// kubelet_config.go NewKubeletConfigController: no KubeletConfig
		// without both.
		return nil, fmt.Errorf("%s: Talos writes no kubelet configuration without both machine: and cluster: (kubelet_config.go NewKubeletConfigController)", path)
	}
	minor := opt.Minor
	if minor == "" {
		// the kubelet the file names is the one the node runs
		minor = namedMinor(doc, docs)
	}
	rel, note := releaseFor(minor)
	t := &translation{path: path, opt: opt, rel: rel, doc: doc, out: &bootstrap.Output{
		Tool:      toolAt(rel),
		Positions: map[string]finding.Position{},
		Notes:     map[string]string{},
		AtBoot:    map[string]string{},
	}}
	t.out.Anchor = t.posOf("machine", "kubelet")
	t.documents(docs)
	if err := t.run(); err != nil {
		return nil, err
	}
	if note != "" {
		t.out.Note += "; " + note
	}
	pair(t.out, rel, note)
	finding.SortFindings(t.out.Findings)
	return t.out, nil
}

// pair says in out which Talos release runs the kubelet (rel; note: not its
// default one). Talos ships the kubelet image of its release: a file that
// names none runs the default release's, and skew names each minor's.
func pair(out *bootstrap.Output, rel *Release, note string) {
	out.Ships = "v" + defaultRelease().Kubernetes
	if note == "" {
		out.Release = rel.Name
	}
}

// oneLine folds a multi-line message.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
