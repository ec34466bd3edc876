package report

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// SARIF 2.1.0 as GitHub code scanning reads it.
//
// Several kubelet minors (kubeletcfg skew) go into ONE run, not one run per
// minor: since June 2025 code scanning refuses a file with several runs of the
// same tool and category. A finding the minors share (same rule, place,
// message) is one result whose properties list the minors, so a problem is one
// alert however wide the window. Each result carries a partialFingerprints
// entry built from the rule, the file and the field path (not the line), so an
// alert survives lines moving above it; an occurrence counter keeps two
// results of the same rule on the same field apart.

const (
	sarifSchema  = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
	projectURL   = "https://github.com/kubeletcfg/kubeletcfg"
	rulesDocURL  = projectURL + "/blob/main/docs/rules.md"
	fingerprintV = "kubeletcfg/v1"
)

// version is set at link time by release builds that have no module version
// (the Dockerfile: -ldflags "-X github.com/kubeletcfg/kubeletcfg/report.version=v1.2.3").
var version string

// Version is kubeletcfg's version: the link-time version, else the module
// version `go install ...@v1.2.3` records, else "(devel)" for a source build.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool      `json:"tool"`
	ColumnKind string         `json:"columnKind"`
	Results    []sarifResult  `json:"results"`
	Properties map[string]any `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifLevel     `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifLevel struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          sarifResultProps  `json:"properties"`
}

type sarifResultProps struct {
	KubeletVersions []string `json:"kubeletVersions"`
	// Subjects are the inputs (files, nodes) that report the finding, when
	// one report covers several (lint a.yaml b.yaml, lint --nodes).
	Subjects []string `json:"subjects,omitempty"`
	Field    string   `json:"field,omitempty"`
	Hint     string   `json:"hint,omitempty"`
	Kubelet  string   `json:"kubelet,omitempty"`
	// Behind is Finding.Behind: the rule of the error the kubelet stops at
	// before it reaches this one.
	Behind string `json:"behind,omitempty"`
	// Location says where a finding without a file of its own belongs; it is
	// then shown on the main file.
	Location string `json:"location,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifWriter struct{}

// Write prints one SARIF log with one run for all documents.
func (sarifWriter) Write(w io.Writer, docs []Document, _ Options) error {
	merged := mergeFindings(docs)
	// The rule table holds the rules the results reference, in ID order: a
	// log of 3 findings need not carry 180 descriptors.
	referenced := map[string]bool{}
	for _, m := range merged {
		referenced[m.Finding.Rule] = true
	}
	index := map[string]int{}
	descriptors := []sarifRule{}
	for _, r := range rule.All() {
		if referenced[r.ID] {
			index[r.ID] = len(descriptors)
			descriptors = append(descriptors, sarifDescriptor(r))
		}
	}

	results := []sarifResult{}
	seen := map[string]int{} // fingerprint base -> occurrences so far
	for _, m := range merged {
		f := m.Finding
		res := sarifResult{
			RuleID:    f.Rule,
			RuleIndex: -1,
			Level:     sarifLevelOf(f.Severity),
			Message:   sarifText{Text: sarifMessage(f)},
			Properties: sarifResultProps{
				KubeletVersions: m.minors,
				Subjects:        m.subjects,
				Field:           f.Path,
				Hint:            f.Hint,
				Kubelet:         f.Kubelet,
				Behind:          f.Behind,
			},
		}
		if i, ok := index[f.Rule]; ok {
			res.RuleIndex = i
		}
		file := f.File
		label := ""
		if len(m.subjects) > 0 {
			label = m.subjects[0]
		}
		if main := mainFile(docs, label); file == "" && main != "" {
			// Code scanning shows only results with a location; a finding
			// about the configuration as a whole belongs to the main file.
			file = main
			res.Properties.Location = f.Position.String()
		}
		if file != "" {
			loc := sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(file)}}
			if f.File != "" && f.Line > 0 {
				loc.Region = &sarifRegion{StartLine: f.Line}
				if f.Column > 0 {
					loc.Region.StartColumn = f.Column
				}
			}
			res.Locations = []sarifLocation{{PhysicalLocation: loc}}
		}
		base := fingerprint(f.Rule, sarifURI(f.File), f.Path)
		seen[base]++
		res.PartialFingerprints = map[string]string{fingerprintV: base + ":" + strconv.Itoa(seen[base])}
		results = append(results, res)
	}

	versions := make([]string, 0, len(docs))
	starts := map[string]bool{}
	refused := map[string]*pipeline.Refusal{}
	for _, d := range docs {
		if !slices.Contains(versions, d.KubeletVersion) {
			versions = append(versions, d.KubeletVersion)
		}
		// Several inputs: whether each starts, by its subject, and who stops
		// the ones that do not.
		starts[d.Label()] = d.Starts && !d.Panics
		if d.RefusedBy != nil {
			refused[d.Label()] = d.RefusedBy
		}
	}
	props := map[string]any{"kubeletVersions": versions, "starts": starts}
	if len(refused) > 0 {
		props["refusedBy"] = refused
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{
				Name:           "kubeletcfg",
				Version:        Version(),
				InformationURI: projectURL,
				Rules:          descriptors,
			}},
			// YAML columns count characters, not UTF-16 code units.
			ColumnKind: "unicodeCodePoints",
			Results:    results,
			Properties: props,
		}},
	}
	return writeIndented(w, log, false) // < > & written as they are, not as \u003c
}

// mainFile is the main file of the document labelled label (the first
// document's when they are one input's minors).
func mainFile(docs []Document, label string) string {
	for _, d := range docs {
		if d.Subject == "" || d.Label() == label {
			if len(d.Files) > 0 {
				return d.Files[0]
			}
			return ""
		}
	}
	return ""
}

func sarifDescriptor(r *rule.Rule) sarifRule {
	full := r.Summary
	if r.Doc != "" {
		full = r.Doc
	}
	var help strings.Builder
	help.WriteString(r.Summary)
	if r.Doc != "" {
		help.WriteString("\n\n" + r.Doc)
	}
	help.WriteString("\n\nKubelet minors: " + r.Minors() + ".")
	if r.Kubelet != "" {
		help.WriteString(" Mirrors " + r.Kubelet + " (kubernetes " + r.Releases() + ").")
	}
	return sarifRule{
		ID:                   r.ID,
		Name:                 r.Name,
		ShortDescription:     sarifText{Text: r.Summary},
		FullDescription:      sarifText{Text: full},
		Help:                 sarifText{Text: help.String()},
		HelpURI:              rulesDocURL + "#" + strings.ToLower(r.ID),
		DefaultConfiguration: sarifLevel{Level: sarifLevelOf(r.Severity)},
		Properties:           map[string]any{"tags": []string{"kubelet", r.Stage.String()}, "minors": r.Minors()},
	}
}

func sarifLevelOf(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "note"
}

// sarifMessage is the message with the hint, as code scanning shows
// message.text only.
func sarifMessage(f finding.Finding) string {
	msg := f.Message
	if f.Hint != "" {
		msg += "\nHint: " + f.Hint
	}
	if f.Kubelet != "" {
		msg += "\nKubelet: " + f.Kubelet
	}
	if f.Behind != "" {
		msg += "\nBehind: " + BehindText(f)
	}
	return msg
}

// sarifURI is a relative URI reference with forward slashes, as code scanning
// resolves it against the checkout; an absolute path becomes a file: URI.
func sarifURI(path string) string {
	if path == "" {
		return ""
	}
	slashed := filepath.ToSlash(filepath.Clean(path))
	if filepath.IsAbs(path) {
		if !strings.HasPrefix(slashed, "/") { // a Windows drive letter
			slashed = "/" + slashed
		}
		return (&url.URL{Scheme: "file", Path: slashed}).String()
	}
	return (&url.URL{Path: slashed}).String()
}

func fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:16])
}
