package nodeadm

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// TestDocumentsAsTranslate: a file's documents (UserDataDocuments) through
// TranslateDocuments give what Translate gives for the file: nodeadm's
// e2e case mime-userdata-merge and this package's user data example.
func TestDocumentsAsTranslate(t *testing.T) {
	for _, name := range []string{filepath.Join(casesDir, "mime-userdata-merge/config.yaml"), "../../testdata/bootstrappers/nodeadm/examples/userdata.txt"} {
		opt := bootstrap.Options{Minor: "1.35", Set: instance("58")}
		data := readFile(t, name)
		want, err := Translate(name, data, opt)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := UserDataDocuments(data, func(l, c int) finding.Position { return finding.Position{File: name, Line: l, Column: c} })
		if err != nil {
			t.Fatal(err)
		}
		got, err := TranslateDocuments(name, want.Anchor, docs, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Config, want.Config) || !reflect.DeepEqual(got.DropIns, want.DropIns) || !reflect.DeepEqual(got.Flags, want.Flags) ||
			!reflect.DeepEqual(got.FlagPositions, want.FlagPositions) || !reflect.DeepEqual(got.Positions, want.Positions) || !reflect.DeepEqual(got.Notes, want.Notes) {
			t.Errorf("%s: TranslateDocuments differs from Translate:\n got %+v\nwant %+v", name, got, want)
		}
		if len(got.Findings) != len(want.Findings) {
			t.Errorf("%s: findings %+v, want %+v", name, got.Findings, want.Findings)
		}
	}
}

// TestGeneratedDocument: a generated NodeConfig after the user's (Karpenter's
// after spec.userData's): its cluster details and maxPods at boot count as
// given, so nodeadm refuses nothing and reports neither its own maxPods nor
// the replaced user value (the generator's to report); config.json's
// clusterDNS and the node IP's family are at boot with the service CIDR; its
// keys are where its Positions say; two user documents still give nodeadm's
// own KC9002.
func TestGeneratedDocument(t *testing.T) {
	at := func(l, c int) finding.Position { return finding.Position{File: "nc.yaml", Line: l + 10, Column: c + 4} }
	user := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 42\n      shutdownGracePeriod: 30s\n"
	user2 := strings.Replace(user, "30s", "45s", 1)
	anchor := finding.Position{File: "nc.yaml", Line: 2, Column: 7}
	gen := Document{Generator: "Karpenter", Anchor: anchor,
		Data:      []byte("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      systemReserved:\n        cpu: 500m\n"),
		Positions: map[string]finding.Position{"systemReserved": {File: "nc.yaml", Line: 5, Column: 5}},
		AtBoot: map[string]string{"maxPods": "Karpenter: the instance type's pods", "clusterDNS": "Karpenter: kube-dns",
			"spec.cluster.name": "x", "spec.cluster.apiServerEndpoint": "x", "spec.cluster.certificateAuthority": "x", "spec.cluster.cidr": "Karpenter: the service CIDR"}}
	docs := []Document{{Data: []byte(user), At: at, Anchor: at(1, 1)}, {Data: []byte(user2), At: at, Anchor: at(1, 1)}, gen}
	out, err := TranslateDocuments("nc.yaml", anchor, docs, bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	if f := findingWith(out, bootstrap.Refuses.ID, ""); f != nil {
		t.Errorf("refused: %s", f.Message)
	}
	var overrides []finding.Finding
	for _, f := range out.Findings {
		if f.Rule == bootstrap.Overrides.ID {
			overrides = append(overrides, f)
		}
		if f.Rule == bootstrap.AtBoot.ID && (f.Path == "maxPods" || f.Path == "clusterDNS") {
			t.Errorf("nodeadm reports the generator's at-boot %s: %s", f.Path, f.Message)
		}
	}
	// user's maxPods and shutdownGracePeriod replaced by user2's: nodeadm's; user2's maxPods by the generator's: not nodeadm's.
	lines := map[int]bool{}
	for _, f := range overrides {
		lines[f.Line] = f.Column == 11 && strings.HasPrefix(f.Message, "EKS nodeadm merges")
	}
	if len(overrides) != 2 || !lines[16] || !lines[17] {
		t.Errorf("KC9002s %+v", overrides)
	}
	if f := findingWith(out, bootstrap.AtBoot.ID, "--node-ip"); f == nil || !strings.Contains(f.Message, "IPv4 or IPv6") || f.Position != anchor {
		t.Errorf("node-ip: %+v", f)
	}
	if p := out.Positions["systemReserved[cpu]"]; p != (finding.Position{File: "nc.yaml", Line: 5, Column: 5}) {
		t.Errorf("systemReserved[cpu] at %s", p)
	}
	if p := out.Positions["maxPods"]; p != anchor {
		t.Errorf("maxPods at %s, want the generator's anchor", p)
	}
	if p := out.Positions["shutdownGracePeriod"]; p != (finding.Position{File: "nc.yaml", Line: 17, Column: 11}) {
		t.Errorf("shutdownGracePeriod at %s", p)
	}
	if !strings.Contains(string(out.Config.Data), `"clusterDNS": null`) || strings.Contains(string(out.DropIns[0].Data), "maxPods\": 42") {
		t.Errorf("config.json %s\ndrop-in %s", out.Config.Data, out.DropIns[0].Data)
	}
	// Without the generator's cluster details, nodeadm refuses the user's NodeConfigs.
	out, err = TranslateDocuments("nc.yaml", anchor, docs[:2], bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	if f := findingWith(out, bootstrap.Refuses.ID, "Name is missing"); f == nil {
		t.Errorf("no refusal: %+v", out.Findings)
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
