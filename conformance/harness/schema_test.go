package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

func buildSchemaT(t *testing.T) map[string]any {
	t.Helper()
	s, err := buildSchema()
	if err != nil {
		t.Fatal(err)
	}
	// What cmdSchema writes, decoded back.
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// schemaAt follows a field table path through the schema.
func schemaAt(root map[string]any, path string) map[string]any {
	cur := root
	for path != "" && cur != nil {
		switch {
		case strings.HasPrefix(path, "."):
			path = path[1:]
		case strings.HasPrefix(path, "[]"):
			cur, _ = cur["items"].(map[string]any)
			path = path[2:]
		case strings.HasPrefix(path, "[*]"):
			cur, _ = cur["additionalProperties"].(map[string]any)
			path = path[3:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			props, _ := cur["properties"].(map[string]any)
			cur, _ = props[path[:end]].(map[string]any)
			path = path[end:]
		}
	}
	return cur
}

// Every field of the table is in the schema with its kind, doc and gates; every
// object is closed.
func TestSchemaCoversFieldTable(t *testing.T) {
	s := buildSchemaT(t)
	table, err := buildFieldTable()
	if err != nil {
		t.Fatal(err)
	}
	if s["$schema"] != schemaDraft || s["additionalProperties"] != false {
		t.Errorf("root: $schema %v additionalProperties %v", s["$schema"], s["additionalProperties"])
	}
	for _, f := range table.Fields {
		p := schemaAt(s, f.Path)
		if p == nil {
			t.Errorf("%s: not in the schema", f.Path)
			continue
		}
		types := typesOf(p)
		switch f.Kind {
		case "object":
			if !types["object"] || p["additionalProperties"] != false {
				t.Errorf("%s: object: type %v additionalProperties %v", f.Path, p["type"], p["additionalProperties"])
			}
		case "map":
			if _, ok := p["additionalProperties"].(map[string]any); !ok || !types["object"] {
				t.Errorf("%s: map: %v", f.Path, p)
			}
		case "list":
			if !types["array"] {
				t.Errorf("%s: list: type %v", f.Path, p["type"])
			}
		}
		if f.Pointer != types["null"] {
			t.Errorf("%s: pointer %v, type %v", f.Path, f.Pointer, p["type"])
		}
		if f.Doc != "" && p["description"] != f.Doc {
			t.Errorf("%s: description %q", f.Path, p["description"])
		}
		if len(f.FeatureGates) > 0 {
			gates, _ := json.Marshal(p["x-kubernetes-feature-gates"])
			want, _ := json.Marshal(f.FeatureGates)
			if string(gates) != string(want) {
				t.Errorf("%s: gates %s, want %s", f.Path, gates, want)
			}
		}
	}
}

func typesOf(s map[string]any) map[string]bool {
	out := map[string]bool{}
	switch t := s["type"].(type) {
	case string:
		out[t] = true
	case []any:
		for _, x := range t {
			out[x.(string)] = true
		}
	}
	return out
}

func TestSchemaDetails(t *testing.T) {
	s := buildSchemaT(t)
	check := func(path, key, want string) {
		t.Helper()
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(schemaAt(s, path)[key])
		if got := strings.TrimSpace(buf.String()); got != want {
			t.Errorf("%s %s: %s, want %s", path, key, got, want)
		}
	}
	check("apiVersion", "const", `"kubelet.config.k8s.io/v1beta1"`)
	check("kind", "const", `"KubeletConfiguration"`)
	check("", "required", `["apiVersion","kind"]`)
	check("authorization.mode", "enum", `["AlwaysAllow","Webhook",""]`)
	check("configMapAndSecretChangeDetectionStrategy", "enum", `["Get","Cache","Watch",""]`)
	check("registerWithTaints[].effect", "enum", `["NoSchedule","PreferNoSchedule","NoExecute",""]`)
	check("hairpinMode", "enum", `null`) // a plain string field: its constants are untyped
	check("maxPods", "type", `"integer"`)
	check("maxPods", "format", `"int32"`)
	check("maxPods", "maximum", `2147483647`)
	check("podPidsLimit", "type", `["integer","null"]`)
	check("podPidsLimit", "minimum", `-9223372036854775808`)
	check("logging.verbosity", "minimum", `0`)
	check("logging.verbosity", "maximum", `4294967295`)
	if schemaAt(s, "syncFrequency")["pattern"] != durationPattern {
		t.Errorf("syncFrequency pattern: %v", schemaAt(s, "syncFrequency")["pattern"])
	}
	if schemaAt(s, "crashLoopBackOff") != nil { // a field from 1.32 on
		check("crashLoopBackOff.maxContainerRestartPeriod", "type", `["string","null"]`)
		check("crashLoopBackOff.maxContainerRestartPeriod", "x-kubernetes-feature-gates", `["KubeletCrashLoopBackOffMax"]`)
	}
	check("reservedMemory[].limits[*]", "type", `["string","number"]`)
	check("featureGates[*]", "type", `"boolean"`)
	check("logging.flushFrequency", "type", `["string","integer"]`)
	check("registerWithTaints[].timeAdded", "format", `"date-time"`)
	if id, _ := s["$id"].(string); !strings.Contains(id, "/kubelets/data/1.") {
		t.Errorf("$id %q", id)
	}
}

// The duration pattern accepts exactly what time.ParseDuration accepts.
func TestDurationPattern(t *testing.T) {
	re := regexp.MustCompile(durationPattern)
	for _, s := range []string{
		"0", "+0", "-0", "00", "0s", "5m0s", "1h2m3s", "1.5h", ".5s", "1.s", "300ms", "10us", "10µs", "10μs", "7ns",
		"-1m", "+2h", "1h1h", "", "s", "1", "10", ".s", "1x", "1 s", " 1s", "1s ", "1hm", "1.2.3s", "5m0", "P1D", "PT5M", "1d", "--1s",
	} {
		_, err := time.ParseDuration(s)
		if got, want := re.MatchString(s), err == nil; got != want {
			t.Errorf("%q: pattern %v, time.ParseDuration %v", s, got, want)
		}
	}
}

// The quantity pattern is the one Kubernetes publishes for Quantity: whatever it
// accepts resource.ParseQuantity accepts. The parser is more lenient with a
// missing number ("Mi", "+", "e3" are zero): the schema flags those.
func TestQuantityPattern(t *testing.T) {
	re := regexp.MustCompile(quantityPattern)
	for _, s := range []string{
		"0", "1", "100Mi", "1Gi", "1.5Gi", "+1k", "-1", ".5", "1.", "500m", "1e3", "1E-3", "2Ki", "1n", "1u", "1E",
		"", "1.5.5", "1MiB", "1 Mi", "1k1", "1ki", "1KI", "0x10", "1e", "1e+",
	} {
		_, err := resource.ParseQuantity(s)
		if got, want := re.MatchString(s), err == nil; got != want {
			t.Errorf("%q: pattern %v, resource.ParseQuantity %v", s, got, want)
		}
	}
	for _, s := range []string{"Mi", "+", ".", "e3"} {
		if _, err := resource.ParseQuantity(s); err != nil || re.MatchString(s) {
			t.Errorf("%q: parser leniency changed: ParseQuantity error %v, pattern %v", s, err, re.MatchString(s))
		}
	}
}
