package nodeadm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// nodeConfigYAML is a valid NodeConfig with extra lines under spec.
func nodeConfigYAML(spec string) string {
	return `apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: my-cluster
    apiServerEndpoint: https://example.com
    certificateAuthority: Y2VydGlmaWNhdGVBdXRob3JpdHk=
    cidr: 10.100.0.0/16
` + spec
}

func userData(parts ...string) string {
	var b strings.Builder
	b.WriteString("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"BOUNDARY\"\n\n")
	for _, p := range parts {
		b.WriteString("--BOUNDARY\n" + p + "\n")
	}
	b.WriteString("--BOUNDARY--\n")
	return b.String()
}

// TestFindings has, for every finding the translation emits, a file that
// draws it (at a line:column of that file) and one that does not.
func TestFindings(t *testing.T) {
	allSet := map[string]string{"maxPods": "58", "kubeReserved[cpu]": "70m", "providerID": "aws:///z/i", "--node-ip": "10.0.0.1", "--hostname-override": "ip-10-0-0-1", "--node-labels": "a=b"}
	tests := []struct {
		name string
		rule *rule.Rule
		text string
		file string
		set  map[string]string
		// at is the finding's line:column, "" when the file must not draw it.
		at string
	}{
		// KC9001: nodeadm stops.
		{"validation: cidr missing", bootstrap.Refuses, "CIDR is missing", strings.Replace(nodeConfigYAML(""), "    cidr: 10.100.0.0/16\n", "", 1), nil, "4:3"},
		{"validation: passes", bootstrap.Refuses, "", nodeConfigYAML(""), nil, ""},
		{"validation: outpost without id", bootstrap.Refuses, "cluster ID must be provided", nodeConfigYAML("") + "    enableOutpost: true\n", nil, "4:3"},
		{"decode: wrong version", bootstrap.Refuses, `no kind "NodeConfig" is registered for version "node.eks.aws/v1beta1"`, strings.Replace(nodeConfigYAML(""), "v1alpha1", "v1beta1", 1), nil, "1:1"},
		{"decode: wrong type", bootstrap.Refuses, "cannot unmarshal string", nodeConfigYAML("  kubelet:\n    flags: --v=2\n"), nil, "1:1"},
		{"clusterDNS: bad cidr", bootstrap.Refuses, "cannot derive clusterDNS", strings.Replace(nodeConfigYAML(""), "10.100.0.0/16", "10.100.0.0", 1), nil, "8:5"},
		{"user data without NodeConfig", bootstrap.Refuses, "finds no NodeConfig", userData("Content-Type: text/x-shellscript\n\n#!/bin/bash\necho hi"), nil, "1:1"},
		// KC9002: nodeadm's value wins over the file's.
		{"a later NodeConfig replaces a value", bootstrap.Overrides, "replaced by the value at 29:7", userData(
			"Content-Type: application/node.eks.aws\n\n"+nodeConfigYAML("  kubelet:\n    config:\n      maxPods: 30\n      kubeReserved:\n        cpu: 100m\n"),
			"Content-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 20\n      kubeReserved:\n        memory: 1Gi\n"), nil, "17:7"},
		{"later NodeConfigs merge objects", bootstrap.Overrides, "", userData(
			"Content-Type: application/node.eks.aws\n\n"+nodeConfigYAML("  kubelet:\n    config:\n      kubeReserved:\n        cpu: 100m\n"),
			"Content-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      kubeReserved:\n        memory: 1Gi\n"), nil, ""},
		{"a flag with a space", bootstrap.Overrides, "2 arguments", nodeConfigYAML("  kubelet:\n    flags:\n      - --v=2\n      - --node-labels=a=b, c=d\n"), nil, "12:9"},
		// KC9003: nodeadm does not pass it on.
		{"unknown field", bootstrap.Drops, `"spec.kubelet.maxPods"`, nodeConfigYAML("  kubelet:\n    maxPods: 30\n"), nil, "10:5"},
		{"known fields only", bootstrap.Drops, "", nodeConfigYAML("  kubelet:\n    maxPodsExpression: max_pods\n    config:\n      maxPods: 30\n"), nil, ""},
		{"miscased field", bootstrap.Drops, `"spec.cluster.CIDR"`, nodeConfigYAML("    CIDR: 10.0.0.0/16\n"), nil, "9:5"},
		{"duplicate key", bootstrap.Drops, `duplicate keys "cidr"`, nodeConfigYAML("    cidr: 10.200.0.0/16\n"), nil, "8:5"},
		{"second document", bootstrap.Drops, "only the first YAML document", nodeConfigYAML("") + "---\n" + nodeConfigYAML(""), nil, "10:1"},
		{"part of another type", bootstrap.Drops, `"text/yaml"`, userData("Content-Type: application/node.eks.aws\n\n"+nodeConfigYAML(""), "Content-Type: text/yaml\n\n"+nodeConfigYAML("")), nil, "17:1"},
		// KC9004: only the instance knows.
		{"maxPods at boot", bootstrap.AtBoot, "writes maxPods", nodeConfigYAML(""), nil, "2:1"},
		{"maxPods at boot from the expression", bootstrap.AtBoot, "writes maxPods", nodeConfigYAML("  kubelet:\n    maxPodsExpression: max_pods + 2\n"), nil, "10:5"},
		{"maxPods given", bootstrap.AtBoot, "writes maxPods", nodeConfigYAML(""), allSet, ""},
		{"maxPods in the drop-in", bootstrap.AtBoot, "writes maxPods", nodeConfigYAML("  kubelet:\n    config:\n      maxPods: 30\n"), nil, ""},
		{"nothing at boot when all is given", bootstrap.AtBoot, "", nodeConfigYAML(""), allSet, ""},
		{"nothing at boot when nodeadm stops", bootstrap.AtBoot, "", strings.Replace(nodeConfigYAML(""), "    name: my-cluster\n", "", 1), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Translate("f.yaml", []byte(tt.file), bootstrap.Options{Minor: "1.37", Set: tt.set})
			if err != nil {
				t.Fatal(err)
			}
			f := findingWith(out, tt.rule.ID, tt.text)
			if tt.at == "" {
				if f != nil {
					t.Errorf("unexpected %s at %s: %s", f.Rule, f.Position, f.Message)
				}
				return
			}
			if f == nil {
				t.Fatalf("no %s with %q in %v", tt.rule.ID, tt.text, messages(out.Findings))
			}
			if got := fmt.Sprintf("%d:%d", f.Line, f.Column); got != tt.at || f.File != "f.yaml" {
				t.Errorf("%s at %s, want f.yaml:%s: %s", f.Rule, f.Position, tt.at, f.Message)
			}
			want := tt.rule.Severity
			if f.Severity != want || !strings.Contains(f.Message, "EKS nodeadm") || !strings.Contains(f.Message, Tool.Release) || f.Hint == "" {
				t.Errorf("finding %+v: want severity %s, the tool and its release named, a hint", f, want)
			}
		})
	}
}

func messages(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule+"@"+f.Position.String()+": "+f.Message)
	}
	return out
}
