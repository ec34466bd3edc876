package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

const (
	kubeletConfigPkg  = "k8s.io/kubelet/config/v1beta1"
	kubeletConfigType = "KubeletConfiguration"
)

// FieldTable is kubelets/data/<minor>/fields.json (kubeletdata's type, shared with
// kubelets, which reads it).
type (
	FieldTable = kubeletdata.FieldTable
	FieldInfo  = kubeletdata.FieldInfo
)

func cmdFields(args []string) error {
	fs := flag.NewFlagSet("fields", flag.ContinueOnError)
	out := fs.String("out", "", "file to write (- for stdout)")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() != 0 {
		return errUsage
	}
	t, err := buildFieldTable()
	if err != nil {
		return err
	}
	top := 0
	for _, f := range t.Fields {
		if !strings.ContainsAny(f.Path, ".[") {
			top++
		}
	}
	fmt.Fprintf(os.Stderr, "%d field paths (%d top-level) from %s\n", t.Count, top, t.Module)
	return writeJSON(*out, t)
}

func buildFieldTable() (*FieldTable, error) {
	w := newAstWalker()
	modPath, modVer, _, err := w.locate(kubeletConfigPkg)
	if err != nil {
		return nil, err
	}
	fields, err := w.walkType(kubeletConfigPkg, kubeletConfigType)
	if err != nil {
		return nil, err
	}
	return &FieldTable{
		Generated: fmt.Sprintf(generatedHeader, "fields", kubeletVersion()),
		Module:    modPath + "@" + modVer,
		Source:    kubeletConfigPkg + "." + kubeletConfigType,
		Count:     len(fields),
		Fields:    fields,
	}, nil
}

// astPkg is one parsed package: its type declarations and the methods of its types.
type astPkg struct {
	path    string
	types   map[string]*typeDecl
	methods map[string]map[string]bool // receiver type name -> method names
}

type typeDecl struct {
	spec *ast.TypeSpec
	file *ast.File
}

type astWalker struct {
	fset *token.FileSet
	pkgs map[string]*astPkg
	mods []*debug.Module // fallback: `go list -m`
}

func newAstWalker() *astWalker {
	return &astWalker{fset: token.NewFileSet(), pkgs: map[string]*astPkg{}}
}

// modules of this binary (build info), for finding package sources in the module cache.
func buildModules() []*debug.Module {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi.Deps
}

// locate finds the module that provides pkgPath and the package's source folder.
func (w *astWalker) locate(pkgPath string) (modPath, modVer, dir string, err error) {
	var best *debug.Module
	for _, m := range append(buildModules(), w.mods...) {
		if (pkgPath == m.Path || strings.HasPrefix(pkgPath, m.Path+"/")) && (best == nil || len(m.Path) > len(best.Path)) {
			best = m
		}
	}
	if best == nil {
		// Not linked (for example in a test binary without module info): ask go list.
		m, lerr := goListModule(pkgPath)
		if lerr != nil {
			return "", "", "", fmt.Errorf("no module provides %s: %v", pkgPath, lerr)
		}
		w.mods = append(w.mods, m)
		best = m
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(pkgPath, best.Path), "/")
	m := best
	if m.Replace != nil {
		m = m.Replace
	}
	var root string
	switch {
	case m.Version == "" && filepath.IsAbs(m.Path): // local replacement
		root = m.Path
	default:
		cache, cerr := goModCache()
		if cerr != nil {
			return "", "", "", cerr
		}
		root = filepath.Join(cache, escapeModulePath(m.Path)+"@"+m.Version)
	}
	return best.Path, m.Version, filepath.Join(root, filepath.FromSlash(rest)), nil
}

// goListModule asks the go command for the module that provides pkgPath.
func goListModule(pkgPath string) (*debug.Module, error) {
	out, err := exec.Command("go", "list", "-f", "{{with .Module}}{{.Path}} {{.Version}}{{with .Replace}} {{.Path}} {{.Version}}{{end}}{{end}}", pkgPath).Output()
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return nil, fmt.Errorf("go list %s: %q", pkgPath, out)
	}
	m := &debug.Module{Path: f[0], Version: f[1]}
	switch len(f) {
	case 3: // local replacement: a folder
		m.Replace = &debug.Module{Path: f[2]}
	case 4:
		m.Replace = &debug.Module{Path: f[2], Version: f[3]}
	}
	return m, nil
}

func goModCache() (string, error) {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c, nil
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		if c := strings.TrimSpace(string(out)); c != "" {
			return c, nil
		}
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		gopath = filepath.Join(home, "go")
	}
	return filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod"), nil
}

// escapeModulePath is the module cache's case encoding (upper-case letters become !lower).
func escapeModulePath(p string) string {
	var sb strings.Builder
	for _, r := range p {
		if unicode.IsUpper(r) {
			sb.WriteByte('!')
			sb.WriteRune(unicode.ToLower(r))
		} else {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// pkg parses (once) the non-test Go files of a package.
func (w *astWalker) pkg(pkgPath string) (*astPkg, error) {
	if p, ok := w.pkgs[pkgPath]; ok {
		return p, nil
	}
	_, _, dir, err := w.locate(pkgPath)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &astPkg{path: pkgPath, types: map[string]*typeDecl{}, methods: map[string]map[string]bool{}}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(w.fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					if _, dup := p.types[ts.Name.Name]; !dup {
						p.types[ts.Name.Name] = &typeDecl{spec: ts, file: f}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				rt := d.Recv.List[0].Type
				if s, ok := rt.(*ast.StarExpr); ok {
					rt = s.X
				}
				if id, ok := rt.(*ast.Ident); ok {
					if p.methods[id.Name] == nil {
						p.methods[id.Name] = map[string]bool{}
					}
					p.methods[id.Name][d.Name.Name] = true
				}
			}
		}
	}
	w.pkgs[pkgPath] = p
	return p, nil
}

// importPath resolves a package name used in file f.
func importPath(f *ast.File, name string) (string, error) {
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := ""
		if imp.Name != nil {
			local = imp.Name.Name
		} else {
			local = path[strings.LastIndex(path, "/")+1:]
		}
		if local == name {
			return path, nil
		}
	}
	return "", fmt.Errorf("%s: no import named %s", filepath.Base(name), name)
}

// resolved is a type expression after following named types.
type resolved struct {
	kind string // scalar, object, list, map
	// for objects: the struct and its package/file; for lists and maps: the element
	st   *ast.StructType
	pkg  *astPkg
	file *ast.File
	elem *resolved
}

// leafNamed reports whether a named type decodes itself (UnmarshalJSON or
// UnmarshalText, declared or promoted from an embedded field), as encoding/json sees it.
func (w *astWalker) leafNamed(p *astPkg, name string, depth int) bool {
	if depth > 5 {
		return false
	}
	if m := p.methods[name]; m["UnmarshalJSON"] || m["UnmarshalText"] {
		return true
	}
	td := p.types[name]
	if td == nil {
		return false
	}
	st, ok := td.spec.Type.(*ast.StructType)
	if !ok {
		return false
	}
	for _, fld := range st.Fields.List {
		if len(fld.Names) != 0 {
			continue
		}
		t := fld.Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		switch t := t.(type) {
		case *ast.Ident:
			if w.leafNamed(p, t.Name, depth+1) {
				return true
			}
		case *ast.SelectorExpr:
			if x, ok := t.X.(*ast.Ident); ok {
				ip, err := importPath(td.file, x.Name)
				if err != nil {
					continue
				}
				q, err := w.pkg(ip)
				if err == nil && w.leafNamed(q, t.Sel.Name, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// resolve follows a type expression written in file f of package p.
func (w *astWalker) resolve(p *astPkg, f *ast.File, e ast.Expr) (*resolved, error) {
	switch t := e.(type) {
	case *ast.StarExpr:
		return w.resolve(p, f, t.X)
	case *ast.ParenExpr:
		return w.resolve(p, f, t.X)
	case *ast.ArrayType:
		if id, ok := t.Elt.(*ast.Ident); ok && id.Name == "byte" {
			return &resolved{kind: "scalar"}, nil // []byte is a base64 string
		}
		el, err := w.resolve(p, f, t.Elt)
		if err != nil {
			return nil, err
		}
		return &resolved{kind: "list", elem: el}, nil
	case *ast.MapType:
		el, err := w.resolve(p, f, t.Value)
		if err != nil {
			return nil, err
		}
		return &resolved{kind: "map", elem: el}, nil
	case *ast.StructType:
		return &resolved{kind: "object", st: t, pkg: p, file: f}, nil
	case *ast.InterfaceType:
		return &resolved{kind: "scalar"}, nil
	case *ast.Ident:
		if types.Universe.Lookup(t.Name) != nil {
			return &resolved{kind: "scalar"}, nil
		}
		return w.resolveNamed(p, t.Name)
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		if !ok {
			return nil, fmt.Errorf("unsupported type %s", types.ExprString(e))
		}
		ip, err := importPath(f, x.Name)
		if err != nil {
			return nil, err
		}
		q, err := w.pkg(ip)
		if err != nil {
			return nil, err
		}
		return w.resolveNamed(q, t.Sel.Name)
	}
	return nil, fmt.Errorf("unsupported type %s", types.ExprString(e))
}

func (w *astWalker) resolveNamed(p *astPkg, name string) (*resolved, error) {
	if w.leafNamed(p, name, 0) {
		return &resolved{kind: "scalar"}, nil
	}
	td := p.types[name]
	if td == nil {
		return nil, fmt.Errorf("type %s.%s not found", p.path, name)
	}
	return w.resolve(p, td.file, td.spec.Type)
}

// walkType lists the JSON field paths of a struct type, depth first in source order.
func (w *astWalker) walkType(pkgPath, name string) ([]FieldInfo, error) {
	p, err := w.pkg(pkgPath)
	if err != nil {
		return nil, err
	}
	r, err := w.resolveNamed(p, name)
	if err != nil {
		return nil, err
	}
	if r.kind != "object" {
		return nil, fmt.Errorf("%s.%s is not a struct", pkgPath, name)
	}
	var out []FieldInfo
	err = w.walkStruct(r, "", &out, 0)
	return out, err
}

func (w *astWalker) walkStruct(r *resolved, prefix string, out *[]FieldInfo, depth int) error {
	if depth > 10 {
		return fmt.Errorf("type nesting too deep at %s", prefix)
	}
	for _, fld := range r.st.Fields.List {
		tag := ""
		if fld.Tag != nil {
			raw, _ := strconv.Unquote(fld.Tag.Value)
			tag = reflect.StructTag(raw).Get("json")
		}
		if tag == "-" {
			continue
		}
		jsonName, opts, _ := strings.Cut(tag, ",")
		omitEmpty := false
		for _, o := range strings.Split(opts, ",") {
			if o == "omitempty" {
				omitEmpty = true
			}
		}
		_, pointer := fld.Type.(*ast.StarExpr)
		res, err := w.resolve(r.pkg, r.file, fld.Type)
		if err != nil {
			return fmt.Errorf("%s: %w", prefix+types.ExprString(fld.Type), err)
		}
		names := fld.Names
		if len(names) == 0 { // embedded
			base := fld.Type
			if s, ok := base.(*ast.StarExpr); ok {
				base = s.X
			}
			typeName := types.ExprString(base)
			if i := strings.LastIndex(typeName, "."); i >= 0 {
				typeName = typeName[i+1:]
			}
			if !ast.IsExported(typeName) {
				continue
			}
			if jsonName == "" && res.kind == "object" {
				// Inlined: its fields are this struct's fields.
				if err := w.walkStruct(res, prefix, out, depth+1); err != nil {
					return err
				}
				continue
			}
			names = []*ast.Ident{ast.NewIdent(typeName)}
		}
		for _, n := range names {
			if !n.IsExported() {
				continue
			}
			name := jsonName
			if name == "" {
				name = n.Name
			}
			info := FieldInfo{
				Path:      prefix + name,
				JSON:      name,
				GoName:    n.Name,
				GoType:    types.ExprString(fld.Type),
				Kind:      res.kind,
				OmitEmpty: omitEmpty,
				Pointer:   pointer,
			}
			info.Doc, info.Markers, info.FeatureGates = splitDoc(fld.Doc)
			*out = append(*out, info)
			// Expand nested structs.
			sub, suffix := res, ""
			for sub.kind == "list" || sub.kind == "map" {
				if sub.kind == "list" {
					suffix += "[]"
				} else {
					suffix += "[*]"
				}
				sub = sub.elem
			}
			if sub.kind == "object" {
				if err := w.walkStruct(sub, info.Path+suffix+".", out, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// splitDoc separates a doc comment into text, +markers and +featureGate values.
func splitDoc(cg *ast.CommentGroup) (doc string, markers, gates []string) {
	if cg == nil {
		return "", nil, nil
	}
	var lines []string
	for _, l := range strings.Split(cg.Text(), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "+") {
			markers = append(markers, t)
			if v, ok := strings.CutPrefix(t, "+featureGate="); ok {
				for _, g := range strings.Split(v, ",") {
					if g = strings.TrimSpace(g); g != "" {
						gates = append(gates, g)
					}
				}
			}
			continue
		}
		lines = append(lines, l)
	}
	doc = strings.TrimSpace(strings.Join(lines, "\n"))
	sort.Strings(gates)
	return doc, markers, gates
}
