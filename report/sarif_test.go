package report

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

const sarifSchemaFile = "../testdata/sarif/sarif-schema-2.1.0.json"

// sarifValidator compiles the committed SARIF 2.1.0 schema of the OASIS TC
// (no network: the schema is registered under its own $id).
//
// The file as published puts errata01's "a region has startLine, charOffset or
// byteOffset" anyOf inside region's properties, which no validator compiles
// (oasis-tcs/sarif-spec#578); it is moved where the erratum meant it, next to
// properties, so the constraint is checked too.
func sarifValidator(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", sarifSchemaFile, err)
	}
	id, _ := doc["$id"].(string)
	if id != sarifSchema {
		t.Fatalf("the schema's $id %q differs from the $schema kubeletcfg writes (%q)", id, sarifSchema)
	}
	region := doc["definitions"].(map[string]any)["region"].(map[string]any)
	props := region["properties"].(map[string]any)
	if anyOf, ok := props["anyOf"]; ok {
		delete(props, "anyOf")
		region["anyOf"] = anyOf
	}
	fixed, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat = true
	if err := c.AddResource(id, bytes.NewReader(fixed)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	return s
}

// exampleDocs evaluates the example node at the given minors.
func exampleDocs(t *testing.T, minors ...string) []Document {
	t.Helper()
	var docs []Document
	for _, v := range minors {
		m, err := kubelets.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		res, err := pipeline.Evaluate(m, pipeline.Input{
			Config:        "../testdata/examples/node/config.yaml",
			ConfigDir:     "../testdata/examples/node/conf.d",
			CgroupVersion: 2,
		})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, FromResult(res))
	}
	return docs
}

// edgeDocs holds what the example does not: a finding without a file, one
// without a line, an absolute path, a path with a space and a colon, and
// characters JSON must escape.
func edgeDocs() []Document {
	return []Document{{
		KubeletVersion: "1.37",
		Files:          []string{"nodes/a b/config.yaml", "/etc/kubernetes/kubelet.conf.d/10-x.conf"},
		Findings: []finding.Finding{
			{Rule: "KC5001", Severity: finding.Error, Message: "cgroup v1 <host> & \"quotes\"", Path: "failCgroupV1"},
			{Rule: "KC2001", Severity: finding.Info, Message: "not merged", Position: finding.Position{File: "nodes/a b/x:y.txt"}},
			{Rule: "KC1101", Severity: finding.Warning, Message: "dropped\nsecond line", Position: finding.Position{File: "/etc/kubernetes/kubelet.conf.d/10-x.conf", Line: 3, Column: 1}, Path: "maxPod", Hint: "did you mean \"maxPods\"?"},
			{Rule: "KC9999", Severity: finding.Warning, Message: "a rule kubeletcfg does not register", Position: finding.Position{File: "nodes/a b/config.yaml", Line: 2}},
		},
	}}
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	schema := sarifValidator(t)
	for name, docs := range map[string][]Document{
		"one minor":  exampleDocs(t, "1.37"),
		"skew":       exampleDocs(t, "1.34", "1.35", "1.36", "1.37"),
		"edge cases": edgeDocs(),
		"no minors":  nil,
	} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			if err := (sarifWriter{}).Write(&out, docs, Options{}); err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(out.Bytes(), &v); err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(v); err != nil {
				t.Fatalf("%#v", err)
			}
		})
	}
}

// The schema rejects what it should: the validator is not vacuous.
func TestSARIFSchemaRejects(t *testing.T) {
	schema := sarifValidator(t)
	for _, doc := range []string{
		`{"version":"2.0.0","runs":[]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startLine":0}}}]}]}]}`,
		// The erratum: a region needs a start.
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startColumn":3}}}]}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r","helpUri":"not a uri"}]}}}]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if schema.Validate(v) == nil {
			t.Errorf("the schema accepts %s", doc)
		}
	}
}

type sarifOut struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Version string `json:"version"`
				Rules   []struct {
					ID                   string `json:"id"`
					Name                 string `json:"name"`
					HelpURI              string `json:"helpUri"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          struct {
				KubeletVersions []string `json:"kubeletVersions"`
				Field           string   `json:"field"`
				Location        string   `json:"location"`
			} `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

func writeSARIF(t *testing.T, docs []Document) sarifOut {
	t.Helper()
	var out bytes.Buffer
	if err := (sarifWriter{}).Write(&out, docs, Options{}); err != nil {
		t.Fatal(err)
	}
	var s sarifOut
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// The rule table holds the registered rules the results reference, in ID
// order, each with a help link to its heading in docs/rules.md, and each
// result's ruleIndex points at its rule.
func TestSARIFRuleTable(t *testing.T) {
	s := writeSARIF(t, append(exampleDocs(t, "1.37"), edgeDocs()...))
	if len(s.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(s.Runs))
	}
	run := s.Runs[0]
	used := map[string]bool{}
	for _, res := range run.Results {
		used[res.RuleID] = true
	}
	var rules []*rule.Rule
	for _, r := range rule.All() {
		if used[r.ID] {
			rules = append(rules, r)
		}
	}
	if len(run.Tool.Driver.Rules) != len(rules) || len(rules) < 2 {
		t.Fatalf("%d rules, want the %d the results reference", len(run.Tool.Driver.Rules), len(rules))
	}
	md, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^### (\S+)$`).FindAllStringSubmatch(string(md), -1) {
		// GitHub's anchor of a heading: lower case, no punctuation.
		headings[strings.ToLower(m[1])] = true
	}
	for i, r := range run.Tool.Driver.Rules {
		if r.ID != rules[i].ID || r.Name != rules[i].Name || r.DefaultConfiguration.Level != sarifLevelOf(rules[i].Severity) {
			t.Errorf("rule %d is %s %s %s, want %s %s", i, r.ID, r.Name, r.DefaultConfiguration.Level, rules[i].ID, rules[i].Name)
		}
		anchor, ok := strings.CutPrefix(r.HelpURI, rulesDocURL+"#")
		if !ok || !headings[anchor] {
			t.Errorf("%s: helpUri %s has no heading in docs/rules.md", r.ID, r.HelpURI)
		}
	}
	for _, res := range run.Results {
		switch {
		case res.RuleID == "KC9999":
			if res.RuleIndex != -1 {
				t.Errorf("an unregistered rule has ruleIndex %d", res.RuleIndex)
			}
		case res.RuleIndex < 0 || run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID:
			t.Errorf("%s: ruleIndex %d", res.RuleID, res.RuleIndex)
		}
	}
	if run.Tool.Driver.Version == "" {
		t.Error("no tool version")
	}
}

func TestSARIFResults(t *testing.T) {
	s := writeSARIF(t, edgeDocs())
	byRule := map[string]int{}
	for i, r := range s.Runs[0].Results {
		byRule[r.RuleID] = i
	}
	res := s.Runs[0].Results
	// No file: shown on the main file, without a region, saying where it is.
	r := res[byRule["KC5001"]]
	if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "nodes/a%20b/config.yaml" ||
		r.Locations[0].PhysicalLocation.Region != nil || r.Properties.Location != "(defaults)" || r.Level != "error" {
		t.Errorf("fileless finding: %+v", r)
	}
	// No line: no region.
	r = res[byRule["KC2001"]]
	if u := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; u != "nodes/a%20b/x:y.txt" || r.Locations[0].PhysicalLocation.Region != nil || r.Level != "note" {
		t.Errorf("file-level finding: %s %+v", u, r)
	}
	r = res[byRule["KC1101"]]
	if u := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; u != "file:///etc/kubernetes/kubelet.conf.d/10-x.conf" {
		t.Errorf("absolute path: uri %s", u)
	}
	if reg := r.Locations[0].PhysicalLocation.Region; reg == nil || reg.StartLine != 3 || reg.StartColumn != 1 {
		t.Errorf("region %+v", reg)
	}
	if !strings.Contains(r.Message.Text, "\nHint: did you mean \"maxPods\"?") || r.Properties.Field != "maxPod" {
		t.Errorf("message %q, field %q", r.Message.Text, r.Properties.Field)
	}
	// A line without a column: startLine only.
	if reg := res[byRule["KC9999"]].Locations[0].PhysicalLocation.Region; reg == nil || reg.StartLine != 2 || reg.StartColumn != 0 {
		t.Errorf("region %+v", reg)
	}
	// A colon in the first segment would read as a scheme.
	if u := sarifURI("x:y.yaml"); u != "./x:y.yaml" {
		t.Errorf("sarifURI(x:y.yaml) = %s", u)
	}
	if u := sarifURI("./conf.d/../config.yaml"); u != "config.yaml" {
		t.Errorf("sarifURI(./conf.d/../config.yaml) = %s", u)
	}
}

// Minors that report a finding alike share one result; fingerprints do not
// depend on the line, and stay distinct for the same rule on the same field.
func TestSARIFMergesMinorsAndFingerprints(t *testing.T) {
	s := writeSARIF(t, exampleDocs(t, "1.34", "1.35", "1.36", "1.37"))
	seen := map[string]bool{}
	for _, r := range s.Runs[0].Results {
		want := []string{"1.34", "1.35", "1.36", "1.37"}
		if r.RuleID == "KC4050" {
			want = want[1:] // 1.34 starts: the gate is alpha and off there
		}
		if strings.Join(r.Properties.KubeletVersions, ",") != strings.Join(want, ",") {
			t.Errorf("%s: kubeletVersions %v, want %v", r.RuleID, r.Properties.KubeletVersions, want)
		}
		fp := r.PartialFingerprints[fingerprintV]
		if fp == "" || seen[fp] {
			t.Errorf("%s: fingerprint %q missing or repeated", r.RuleID, fp)
		}
		seen[fp] = true
	}

	f := finding.Finding{Rule: "KC1103", Severity: finding.Warning, Message: "duplicate", Path: "maxPods", Position: finding.Position{File: "c.yaml", Line: 3, Column: 1}}
	g := f
	g.Line, g.Message = 9, "duplicate again"
	moved := f
	moved.Line = 30
	a := writeSARIF(t, []Document{{KubeletVersion: "1.37", Findings: []finding.Finding{f, g}}}).Runs[0].Results
	b := writeSARIF(t, []Document{{KubeletVersion: "1.37", Findings: []finding.Finding{moved}}}).Runs[0].Results
	if a[0].PartialFingerprints[fingerprintV] == a[1].PartialFingerprints[fingerprintV] {
		t.Error("two results of one rule on one field share a fingerprint")
	}
	if a[0].PartialFingerprints[fingerprintV] != b[0].PartialFingerprints[fingerprintV] {
		t.Error("the fingerprint changes when the finding moves down the file")
	}
}
