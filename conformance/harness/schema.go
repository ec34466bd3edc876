package main

import (
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// The JSON Schema (draft 2020-12) of KubeletConfiguration as compiled into this
// harness: kubelets/data/<minor>/schema.json, embedded by the main module for
// `kubeletcfg schema` (editors, kubeconform).
//
// Types come from reflection over the compiled v1beta1 type (the Go widths the
// decoder enforces); doc comments and +featureGate markers from the field table
// (fields.go); enums from the typed string constants declared next to a field's
// named type, read from the same module source the field table reads.

const (
	schemaDraft = "https://json-schema.org/draft/2020-12/schema"
	// schemaIDFormat names the committed file of a minor in the repository.
	schemaIDFormat = "https://raw.githubusercontent.com/kubeletcfg/kubeletcfg/main/kubelets/data/%s/schema.json"

	kubeletAPIVersion = "kubelet.config.k8s.io/v1beta1"

	// durationPattern is what time.ParseDuration accepts (metav1.Duration decodes
	// with it): an optional sign, then "0" or one or more decimal numbers, each
	// with a unit. Go durations ("5m0s") are not ISO 8601, hence no format.
	durationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`
	// quantityPattern is the Kubernetes resource.Quantity syntax, as the
	// apiextensions and OpenAPI schemas of Quantity spell it.
	quantityPattern = `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`
)

// leafSchemas are the types of the KubeletConfiguration tree that decode
// themselves (UnmarshalJSON), by package path and name. A type that decodes itself
// and is not listed stops the generator: its JSON form needs a decision.
var leafSchemas = map[string]func() map[string]any{
	// UnmarshalJSON: a JSON string, then time.ParseDuration; null is an error.
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration": func() map[string]any {
		return map[string]any{"type": "string", "pattern": durationPattern}
	},
	// UnmarshalJSON: null, or a string in time.RFC3339.
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time": func() map[string]any {
		return map[string]any{"type": "string", "format": "date-time"}
	},
	// UnmarshalJSON: a string (quotes stripped) or a bare number, then ParseQuantity.
	"k8s.io/apimachinery/pkg/api/resource.Quantity": func() map[string]any {
		return map[string]any{"type": []any{"string", "number"}, "pattern": quantityPattern}
	},
	"k8s.io/apimachinery/pkg/api/resource.QuantityValue": func() map[string]any {
		return map[string]any{"type": []any{"string", "number"}, "pattern": quantityPattern}
	},
	// UnmarshalJSON: a string is a metav1.Duration, anything else an int64 of nanoseconds.
	"k8s.io/component-base/logs/api/v1.TimeOrMetaDuration": func() map[string]any {
		return map[string]any{"type": []any{"string", "integer"}, "pattern": durationPattern}
	},
}

// Schema is kubelets/data/<minor>/schema.json: a JSON Schema object.
type Schema map[string]any

func cmdSchema(args []string) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	out := fs.String("out", "", "file to write (- for stdout)")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() != 0 {
		return errUsage
	}
	s, err := buildSchema()
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d properties at the top level\n", s["$id"], len(s["properties"].(map[string]any)))
	return writeJSON(*out, s)
}

// schemaMinor is "1.37" for a harness linking k8s.io/kubernetes v1.37.x.
func schemaMinor() (string, error) {
	v := kubeletVersion()
	m, ok := kubeletdata.ParseVersion(v)
	if !ok || !strings.HasPrefix(v, "v") {
		return "", fmt.Errorf("cannot tell the kubelet minor from k8s.io/kubernetes version %q", v)
	}
	return m.String(), nil
}

func buildSchema() (Schema, error) {
	minor, err := schemaMinor()
	if err != nil {
		return nil, err
	}
	table, err := buildFieldTable()
	if err != nil {
		return nil, err
	}
	g := &schemaGen{
		w:      newAstWalker(),
		fields: make(map[string]FieldInfo, len(table.Fields)),
		seen:   map[string]bool{},
		enums:  map[string][]string{},
	}
	for _, f := range table.Fields {
		g.fields[f.Path] = f
	}
	root, err := g.schemaOf(reflect.TypeFor[kubeletconfigv1beta1.KubeletConfiguration](), "")
	if err != nil {
		return nil, err
	}
	for _, f := range table.Fields {
		if !g.seen[f.Path] {
			return nil, fmt.Errorf("field table path %s has no place in the schema", f.Path)
		}
	}
	props := root["properties"].(map[string]any)
	for name, value := range map[string]string{"apiVersion": kubeletAPIVersion, "kind": kubeletConfigType} {
		p, ok := props[name].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: no %s field (TypeMeta not inline?)", kubeletConfigType, name)
		}
		p["const"] = value
	}
	root["required"] = []any{"apiVersion", "kind"}
	root["$schema"] = schemaDraft
	root["$id"] = fmt.Sprintf(schemaIDFormat, minor)
	root["$comment"] = fmt.Sprintf(generatedHeader, "schema", kubeletVersion())
	root["title"] = fmt.Sprintf("%s (%s) of kubelet %s", kubeletConfigType, kubeletAPIVersion, minor)
	doc, err := g.typeDoc(kubeletConfigPkg, kubeletConfigType)
	if err != nil {
		return nil, err
	}
	if doc != "" {
		root["description"] = doc
	}
	return Schema(root), nil
}

type schemaGen struct {
	w      *astWalker
	fields map[string]FieldInfo // field table by path
	seen   map[string]bool      // field table paths the schema has placed
	enums  map[string][]string  // "pkg.Type" -> declared values
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// schemaOf is the schema of a value of type t at path (the field table's notation:
// "a.b", list items "a[]", map values "a[*]"). A pointer is its element or null:
// the decoder leaves a pointer nil for null, the same as an absent key (and a
// drop-in's null removes the key from the merged config).
func (g *schemaGen) schemaOf(t reflect.Type, path string) (map[string]any, error) {
	nullable := false
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
		nullable = true
	}
	s, err := g.valueSchema(t, path)
	if err != nil {
		return nil, err
	}
	if nullable {
		switch ty := s["type"].(type) {
		case string:
			s["type"] = []any{ty, "null"}
		case []any:
			s["type"] = append(ty, "null")
		}
		if e, ok := s["enum"].([]any); ok {
			s["enum"] = append(e, nil)
		}
	}
	return s, nil
}

func (g *schemaGen) valueSchema(t reflect.Type, path string) (map[string]any, error) {
	if t.Name() != "" {
		if leaf, ok := leafSchemas[t.PkgPath()+"."+t.Name()]; ok {
			return leaf(), nil
		}
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return nil, fmt.Errorf("%s: %s decodes itself; add its JSON form to leafSchemas", path, t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		s := map[string]any{
			"type":    "integer",
			"minimum": int64(-1) << (bits - 1),
			"maximum": int64(uint64(1)<<(bits-1) - 1),
		}
		if bits == 32 || bits == 64 {
			s["format"] = "int" + strconv.Itoa(bits)
		}
		return s, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		max := uint64(math.MaxUint64)
		if t.Bits() < 64 {
			max = uint64(1)<<t.Bits() - 1
		}
		return map[string]any{"type": "integer", "minimum": 0, "maximum": max}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.String:
		s := map[string]any{"type": "string"}
		if t.Name() != "" && t.PkgPath() != "" {
			values, err := g.enum(t.PkgPath(), t.Name())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if len(values) > 0 {
				// "" decodes to the zero value, exactly as an absent key does.
				e := []any{}
				for _, v := range values {
					e = append(e, v)
				}
				s["enum"] = append(e, "")
			}
		}
		return s, nil
	case reflect.Struct:
		props := map[string]any{}
		prefix := ""
		if path != "" {
			prefix = path + "."
		}
		if err := g.structProperties(t, prefix, props); err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "additionalProperties": false, "properties": props}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: map key %s is not a string", path, t.Key())
		}
		elem, err := g.schemaOf(t.Elem(), path+"[*]")
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "additionalProperties": elem}, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}, nil
		}
		items, err := g.schemaOf(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	}
	return nil, fmt.Errorf("%s: unsupported type %s", path, t)
}

// structProperties adds the JSON fields of a struct, as encoding/json sees them,
// with the field table's doc comment and feature gates.
func (g *schemaGen) structProperties(t reflect.Type, prefix string, props map[string]any) error {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" || !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := sf.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		self := reflect.PointerTo(ft).Implements(jsonUnmarshalerType) || reflect.PointerTo(ft).Implements(textUnmarshalerType)
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct && !self {
			// Inline (TypeMeta).
			if err := g.structProperties(ft, prefix, props); err != nil {
				return err
			}
			continue
		}
		if name == "" {
			name = sf.Name
		}
		path := prefix + name
		info, ok := g.fields[path]
		if !ok {
			return fmt.Errorf("%s: not in the field table", path)
		}
		g.seen[path] = true
		s, err := g.schemaOf(sf.Type, path)
		if err != nil {
			return err
		}
		if info.Doc != "" {
			s["description"] = info.Doc
		}
		if len(info.FeatureGates) > 0 {
			gates := make([]any, len(info.FeatureGates))
			for i, gate := range info.FeatureGates {
				gates[i] = gate
			}
			s["x-kubernetes-feature-gates"] = gates
		}
		if _, dup := props[name]; dup {
			return fmt.Errorf("%s: two fields named %q", prefix, name)
		}
		props[name] = s
	}
	return nil
}

// enum lists the string constants declared with type name in package pkgPath, in
// source order ("K T = value"; untyped constants next to it are not the type's).
func (g *schemaGen) enum(pkgPath, name string) ([]string, error) {
	key := pkgPath + "." + name
	if v, ok := g.enums[key]; ok {
		return v, nil
	}
	_, _, dir, err := g.w.locate(pkgPath)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	sort.Strings(files)
	var values []string
	seen := map[string]bool{}
	for _, n := range files {
		f, err := parser.ParseFile(g.w.fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				id, ok := vs.Type.(*ast.Ident)
				if !ok || id.Name != name || len(vs.Values) != len(vs.Names) {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						return nil, err
					}
					if !seen[s] {
						seen[s] = true
						values = append(values, s)
					}
				}
			}
		}
	}
	g.enums[key] = values
	return values, nil
}

// typeDoc is the doc comment of a type declaration, without marker lines.
func (g *schemaGen) typeDoc(pkgPath, name string) (string, error) {
	p, err := g.w.pkg(pkgPath)
	if err != nil {
		return "", err
	}
	td := p.types[name]
	if td == nil {
		return "", fmt.Errorf("type %s.%s not found", pkgPath, name)
	}
	cg := td.spec.Doc
	if cg == nil {
		for _, d := range td.file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && len(gd.Specs) == 1 && gd.Specs[0] == ast.Spec(td.spec) {
				cg = gd.Doc
			}
		}
	}
	doc, _, _ := splitDoc(cg)
	return doc, nil
}
