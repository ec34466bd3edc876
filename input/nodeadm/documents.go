package nodeadm

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Document is one NodeConfig nodeadm merges, as a caller that reads the user
// data itself hands it over (input/karpenter: the NodeConfigs of
// spec.userData, then the one Karpenter generates): TranslateDocuments.
type Document struct {
	// Data is the NodeConfig (YAML or JSON) as nodeadm decodes it.
	Data []byte
	// At is where Data's line:column stands in the user's file; nil puts
	// every position at Anchor.
	At func(line, column int) finding.Position
	// Anchor is where findings on the document as a whole point when it has
	// no key (or At is nil).
	Anchor finding.Position
	// Skipped, when not empty, is the Content-Type of a user-data part that
	// holds a NodeConfig but that nodeadm skips (KC9003); Data is not read.
	Skipped string
	// Generator names the tool that generates the document ("Karpenter").
	// Its keys are at Positions (by NodeConfig path, spec.cluster.cidr, or by
	// KubeletConfiguration field path under spec.kubelet.config, maxPods,
	// kubeReserved[cpu]; else the nearest ancestor's, then Anchor), and the
	// values it replaces in earlier documents are its generator's findings,
	// not nodeadm's.
	Generator string
	Positions map[string]finding.Position
	// AtBoot are the paths the generator writes with a value only known at
	// boot, left out of Data, each with what sets it: top-level
	// KubeletConfiguration fields (maxPods, clusterDNS), which then count as
	// set by the document (an earlier document's value is replaced, nodeadm's
	// own value for them is not reported), and the
	// NodeConfig paths spec.cluster.name, .apiServerEndpoint,
	// .certificateAuthority and .cidr, which count as given (a service CIDR
	// at boot makes config.json's clusterDNS and the --node-ip family at
	// boot too).
	AtBoot map[string]string
}

// UserDataDocuments are the NodeConfigs nodeadm init finds in user data
// (configprovider/mime.go ParseMaybeMultipart): the parts of MIME
// multi-part data of type application/node.eks.aws (each base64-decoded and
// gunzipped when so encoded) and, Skipped, the parts of other types that
// hold a NodeConfig; anything else is one NodeConfig. at is where data's
// line:column stands in the user's file. MIME data without a NodeConfig
// part gives no documents and no error; data nodeadm cannot read as MIME
// gives the error.
func UserDataDocuments(data []byte, at func(line, column int) finding.Position) ([]Document, error) {
	docs, _, err := userDataDocuments(data, at)
	if errors.Is(err, errNoConfigInUserData) {
		err = nil
	}
	return docs, err
}

// userDataDocuments is parseMaybeMultipart's parts as Documents, in the
// file's order (skipped parts among them), positioned through at.
func userDataDocuments(data []byte, at func(line, column int) finding.Position) ([]Document, bool, error) {
	parts, ignored, multi, err := parseMaybeMultipart(data)
	var docs []Document
	for _, ip := range ignored {
		docs = append(docs, Document{Skipped: ip.contentType, Anchor: at(max(ip.header, 1), 1)})
	}
	for _, p := range parts {
		header := at(max(p.header, 1), 1)
		d := Document{Data: p.data, Anchor: header}
		if !p.encoded {
			line := p.line
			d.At = func(l, c int) finding.Position { return at(l+line-1, c) }
		}
		docs = append(docs, d)
	}
	// Skipped parts stand where they are among the others.
	sortByLine(docs)
	return docs, multi, err
}

func sortByLine(docs []Document) {
	for i := 1; i < len(docs); i++ {
		for j := i; j > 0 && docs[j].Anchor.Line < docs[j-1].Anchor.Line; j-- {
			docs[j], docs[j-1] = docs[j-1], docs[j]
		}
	}
}

// TranslateDocuments is Translate for NodeConfigs a caller has already found
// (UserDataDocuments, and its own): nodeadm merges them in the order given
// (api.MergeNodeConfigs), validates the result and writes config.json, the
// 40-nodeadm.conf drop-in and the kubelet's flags for kubelet opt.Minor, as
// Translate does for a file; findings point where the documents say, and
// those on the whole (the values nodeadm takes at boot) at anchor.
func TranslateDocuments(path string, anchor finding.Position, docs []Document, opt bootstrap.Options) (*bootstrap.Output, error) {
	t, minor, minorName, err := newTranslation(path, opt)
	if err != nil {
		return nil, err
	}
	t.anchor, t.out.Anchor, t.fixedAnchor = anchor, anchor, true
	cfg, n := t.readDocs(docs, true)
	if cfg == nil && n == 0 && !t.refused() {
		t.add(bootstrap.Refuses, t.anchor, "",
			fmt.Sprintf("%s finds no NodeConfig in the user data: no part has Content-Type %s (configprovider/mime.go ParseMultipart: %v, %s); nodeadm init stops",
				Tool.Name, nodeConfigMediaType, errNoConfigInUserData, Tool.Release),
			"put the NodeConfig in a part with Content-Type: "+nodeConfigMediaType)
	}
	return t.finish(cfg, n, minor, minorName)
}

// generated is the position of path in a generated document: its own, its
// nearest ancestor's, or the document's anchor.
func (d *Document) generated(path string) finding.Position {
	for p := path; p != ""; p = kubelets.Parent(p) {
		if pos, ok := d.Positions[p]; ok {
			return pos
		}
	}
	return d.Anchor
}

// atBootInto records the document's at-boot paths: KubeletConfiguration
// fields as set by it (positions, leaves), spec.cluster paths in t.boot; the
// merged NodeConfig's value of each is emptied (what nodeadm sees there is
// the generator's, unknown here).
func (t *translation) atBootInto(d *Document, pos *docPositions, merged *nodeConfig) {
	for p, note := range d.AtBoot {
		if !strings.HasPrefix(p, "spec.") {
			// The generator's value replaces an earlier document's: the
			// merged spec.kubelet.config has none (top-level fields only).
			delete(merged.Spec.Kubelet.Config, p)
			pos.kc[p] = d.generated(p)
			pos.leaf[p] = true
			continue
		}
		t.boot[p] = note
		pos.nc[p] = d.generated(p)
		c := &merged.Spec.Cluster
		switch p {
		case "spec.cluster.name":
			c.Name = ""
		case "spec.cluster.apiServerEndpoint":
			c.APIServerEndpoint = ""
		case "spec.cluster.certificateAuthority":
			c.CertificateAuthority = nil
		case "spec.cluster.cidr":
			c.CIDR = ""
		}
	}
}

// clearBoot forgets the at-boot spec.cluster values a later document gives.
func (t *translation) clearBoot(cfg *nodeConfig) {
	c := cfg.Spec.Cluster
	for p, set := range map[string]bool{"spec.cluster.name": c.Name != "", "spec.cluster.apiServerEndpoint": c.APIServerEndpoint != "",
		"spec.cluster.certificateAuthority": len(c.CertificateAuthority) > 0, "spec.cluster.cidr": c.CIDR != ""} {
		if set {
			delete(t.boot, p)
		}
	}
}
