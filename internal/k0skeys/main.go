// Command k0skeys writes input/k0s/keys_gen.go: the JSON keys k0s's decoding
// of a ClusterConfig (k0s.yaml) accepts, read from k0s's API Go source at a
// release with go/ast.
//
// k0s decodes k0s.yaml with sigs.k8s.io/yaml.UnmarshalStrict into a
// ClusterConfig (pkg/apis/k0s/v1beta1/clusterconfig_types.go ConfigFromBytes),
// whose UnmarshalJSON decodes it again with its own encoding/json Decoder and
// DisallowUnknownFields: a key no field has is an error, below ClusterConfig,
// until a type with its own UnmarshalJSON takes over. The program follows the
// struct fields from ClusterConfig by their json tags (embedded structs
// promoted as encoding/json promotes them, pointers, slices, arrays, maps of
// any key) into k0s's packages, k8s.io/apimachinery and the standard library at
// the versions k0s's go.mod names, and reads every UnmarshalJSON it meets:
//
//   - one that decodes into an alias of its own type with a Decoder and
//     DisallowUnknownFields: the fields, strictly (ClusterConfig);
//   - one that decodes into an alias of its own type with json.Unmarshal: the
//     fields, leniently: a key no field has is dropped, here and below
//     (APISpec, Network, Calico, StorageSpec, ...);
//   - any other: a value read its own way, whose keys are not checked
//     (runtime.RawExtension, metav1.Time, metav1.Duration, ...).
//
// A type with UnmarshalText, interface{}/any and json.RawMessage are free-form
// too. Run it from the module root with a k0s git directory (a bare mirror
// will do) or a checked-out k0s tree:
//
//	go run ./internal/k0skeys -git /path/to/k0s.git [-tag v1.36.3+k0s.2]
//	go run ./internal/k0skeys -src /path/to/k0s
//
// The modules k0s's types import are read from the module cache (`go mod
// download`), at the versions of k0s's go.mod (its replace directives first).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

const (
	k0sModule = "github.com/k0sproject/k0s"
	apiPkg    = k0sModule + "/pkg/apis/k0s/v1beta1"
	root      = apiPkg + ".ClusterConfig"
	outFile   = "input/k0s/keys_gen.go"
)

func main() {
	gitDir := flag.String("git", "", "a k0s git directory (bare will do): read the sources at -tag")
	tag := flag.String("tag", "v1.36.3+k0s.2", "the k0s release, with -git")
	src := flag.String("src", "", "a checked-out k0s source tree (instead of -git)")
	out := flag.String("out", outFile, "the file to write")
	flag.Parse()
	var k0s source
	switch {
	case *gitDir != "" && *src == "":
		k0s = gitSource{dir: *gitDir, rev: *tag}
	case *src != "" && *gitDir == "":
		k0s = dirSource(*src)
	default:
		fmt.Fprintln(os.Stderr, "k0skeys: give one of -git or -src")
		os.Exit(2)
	}
	data, err := generate(k0s, *tag, modCache)
	if err != nil {
		fmt.Fprintln(os.Stderr, "k0skeys:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "k0skeys:", err)
		os.Exit(1)
	}
}

// source is a tree of files: k0s's, at a tag or checked out.
type source interface {
	// list is the names of the files of a folder (not below it).
	list(dir string) ([]string, error)
	read(name string) ([]byte, error)
}

type gitSource struct{ dir, rev string }

func (g gitSource) git(args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"--git-dir=" + g.dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func (g gitSource) list(dir string) ([]string, error) {
	out, err := g.git("ls-tree", "--name-only", g.rev, dir+"/")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			names = append(names, path.Base(l))
		}
	}
	return names, nil
}

func (g gitSource) read(name string) ([]byte, error) { return g.git("show", g.rev+":"+name) }

type dirSource string

func (d dirSource) list(dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(string(d), filepath.FromSlash(dir)))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

func (d dirSource) read(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), filepath.FromSlash(name)))
}

// modCache returns the folder of module mod at version in the module cache,
// downloading it when missing.
func modCache(mod, version string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", mod+"@"+version).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v", mod, version, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", err
	}
	if m.Error != "" {
		return "", errors.New(m.Error)
	}
	return m.Dir, nil
}

// pkg is one parsed Go package.
type pkg struct {
	path    string
	name    string
	types   map[string]*ast.TypeSpec
	imports map[*ast.TypeSpec]map[string]string // a type's file's imports: name -> path
	file    map[ast.Node]string                 // the file declaring a type or method
	// methods are the decoding methods by receiver type name.
	methods map[string]map[string]*ast.FuncDecl
}

type loader struct {
	k0s      source
	requires map[string]string // module -> version, k0s's go.mod with its replaces
	modDir   func(mod, version string) (string, error)
	pkgs     map[string]*pkg
}

func (l *loader) load(importPath string) (*pkg, error) {
	if p, ok := l.pkgs[importPath]; ok {
		return p, nil
	}
	var files map[string][]byte
	var err error
	switch {
	case importPath == k0sModule || strings.HasPrefix(importPath, k0sModule+"/"):
		files, err = readPkg(l.k0s, strings.TrimPrefix(strings.TrimPrefix(importPath, k0sModule), "/"))
	case !strings.Contains(strings.Split(importPath, "/")[0], "."):
		goroot, gerr := exec.Command("go", "env", "GOROOT").Output()
		if gerr != nil {
			return nil, gerr
		}
		files, err = readPkg(dirSource(filepath.Join(strings.TrimSpace(string(goroot)), "src")), importPath)
	default:
		mod := ""
		for m := range l.requires {
			if (importPath == m || strings.HasPrefix(importPath, m+"/")) && len(m) > len(mod) {
				mod = m
			}
		}
		if mod == "" {
			return nil, fmt.Errorf("%s: no module of k0s's go.mod provides it", importPath)
		}
		dir, derr := l.modDir(mod, l.requires[mod])
		if derr != nil {
			return nil, derr
		}
		files, err = readPkg(dirSource(dir), strings.TrimPrefix(strings.TrimPrefix(importPath, mod), "/"))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", importPath, err)
	}
	p := &pkg{path: importPath, types: map[string]*ast.TypeSpec{}, imports: map[*ast.TypeSpec]map[string]string{},
		file: map[ast.Node]string{}, methods: map[string]map[string]*ast.FuncDecl{}}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, files[n], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if f.Name.Name == "main" || strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		p.name = f.Name.Name
		imports := map[string]string{}
		for _, im := range f.Imports {
			ipath, _ := strconv.Unquote(im.Path.Value)
			name := path.Base(ipath)
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = ipath
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						if prev, dup := p.types[ts.Name.Name]; dup && !sameType(prev.Type, ts.Type) {
							return nil, fmt.Errorf("%s: type %s declared twice, differently (%s, %s)", importPath, ts.Name.Name, p.file[prev], n)
						}
						p.types[ts.Name.Name], p.imports[ts], p.file[ts] = ts, imports, n
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				switch d.Name.Name {
				case "UnmarshalJSON", "UnmarshalText":
					recv := typeName(d.Recv.List[0].Type)
					if p.methods[recv] == nil {
						p.methods[recv] = map[string]*ast.FuncDecl{}
					}
					p.methods[recv][d.Name.Name] = d
					p.file[d] = n
				}
			}
		}
	}
	l.pkgs[importPath] = p
	return p, nil
}

// readPkg reads the Go files of a package folder that a linux/amd64 build
// compiles (go/build's rules: file name and //go:build line), tests left out.
func readPkg(src source, dir string) (map[string][]byte, error) {
	names, err := src.list(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, n := range names {
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		data, err := src.read(path.Join(dir, n))
		if err != nil {
			return nil, err
		}
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = "linux", "amd64", true
		ctx.JoinPath = path.Join
		ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		if ok, err := ctx.MatchFile(dir, n); err != nil {
			return nil, err
		} else if ok {
			files[n] = data
		}
	}
	if len(files) == 0 {
		return nil, errors.New("no Go files")
	}
	return files, nil
}

func sameType(a, b ast.Expr) bool {
	var x, y bytes.Buffer
	_ = format.Node(&x, token.NewFileSet(), a)
	_ = format.Node(&y, token.NewFileSet(), b)
	return x.String() == y.String()
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return typeName(e.X)
	}
	return ""
}

// Decoding modes, as input/k0s names them.
const (
	modeInherit = "fieldsInherit"
	modeStrict  = "fieldsStrict"
	modeLenient = "fieldsLenient"
	modeFree    = "freeForm"
)

// entry is one generated type: how it decodes and its JSON fields.
type entry struct {
	name   string
	mode   string
	method string // the UnmarshalJSON that sets the mode, as "file Type.UnmarshalJSON"
	fields []field
}

type field struct{ name, typ string }

type generator struct {
	l       *loader
	entries map[string]*entry
	queue   []string
}

// displayName is a type's name in the table: the package's last path element,
// with the one before it when that is a version ("meta/v1", "k0s/v1beta1").
func displayName(importPath, name string) string {
	elems := strings.Split(importPath, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && last[1] >= '0' && last[1] <= '9' {
		last = elems[len(elems)-2] + "/" + last
	}
	return last + "." + name
}

func generate(k0s source, tag string, modDir func(mod, version string) (string, error)) ([]byte, error) {
	gomod, err := k0s.read("go.mod")
	if err != nil {
		return nil, err
	}
	l := &loader{k0s: k0s, requires: requires(gomod), modDir: modDir, pkgs: map[string]*pkg{}}
	g := &generator{l: l, entries: map[string]*entry{}}
	rootName, err := g.named(apiPkg, "ClusterConfig")
	if err != nil {
		return nil, err
	}
	for len(g.queue) > 0 {
		q := g.queue[0]
		g.queue = g.queue[1:]
		i := strings.LastIndex(q, ".")
		if err := g.fill(q[:i], q[i+1:]); err != nil {
			return nil, err
		}
	}
	return g.write(tag, rootName)
}

// requires reads the module versions of a go.mod, a replace of a module
// (to another version of it) over its require.
func requires(gomod []byte) map[string]string {
	req, repl := map[string]string{}, map[string]string{}
	add := func(directive string, f []string) {
		switch {
		case directive == "require" && len(f) >= 2:
			req[f[0]] = f[1]
		case directive == "replace" && len(f) >= 4 && f[1] == "=>" && f[2] == f[0]:
			repl[f[0]] = f[3]
		}
	}
	block := ""
	for _, line := range strings.Split(string(gomod), "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case block == "" && len(f) == 2 && f[1] == "(":
			block = f[0]
		case block == "":
			add(f[0], f[1:])
		case f[0] == ")":
			block = ""
		default:
			add(block, f)
		}
	}
	for m, v := range repl {
		req[m] = v
	}
	return req
}

// named queues a named type for the table (once) and returns its name there.
func (g *generator) named(importPath, name string) (string, error) {
	key := importPath + "." + name
	dn := displayName(importPath, name)
	if e, ok := g.entries[key]; ok {
		return e.name, nil
	}
	for k, e := range g.entries {
		if e.name == dn {
			return "", fmt.Errorf("%s and %s share the name %s in the table", k, key, dn)
		}
	}
	g.entries[key] = &entry{name: dn}
	g.queue = append(g.queue, key)
	return dn, nil
}

// fill reads a queued type: its decoding method, or its fields.
func (g *generator) fill(importPath, name string) error {
	e := g.entries[importPath+"."+name]
	p, err := g.l.load(importPath)
	if err != nil {
		return err
	}
	ts := p.types[name]
	if ts == nil {
		return fmt.Errorf("%s: no type %s", importPath, name)
	}
	e.mode = modeInherit
	if m := p.methods[name]; m != nil {
		if fn := m["UnmarshalJSON"]; fn != nil {
			e.mode = classify(fn, name)
			e.method = p.file[fn] + " " + name + ".UnmarshalJSON"
		} else if fn := m["UnmarshalText"]; fn != nil {
			e.mode, e.method = modeFree, p.file[fn]+" "+name+".UnmarshalText"
		}
	}
	if e.mode == modeFree {
		return nil
	}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return fmt.Errorf("%s.%s: decoded as its fields but not a struct", importPath, name)
	}
	e.fields, err = g.fields(p, ts, st)
	return err
}

// candidate is a JSON field found at a depth of embedding.
type candidate struct {
	field
	depth  int
	tagged bool
}

// fields lists a struct's JSON fields as encoding/json's typeFields finds
// them: exported fields by their json tag name or Go name, the fields of an
// untagged embedded struct promoted, the shallowest (then the tagged) of one
// name winning and a tie dropping the name.
func (g *generator) fields(p *pkg, ts *ast.TypeSpec, st *ast.StructType) ([]field, error) {
	var cands []candidate
	var walk func(p *pkg, ts *ast.TypeSpec, st *ast.StructType, depth int, seen map[string]bool) error
	walk = func(p *pkg, ts *ast.TypeSpec, st *ast.StructType, depth int, seen map[string]bool) error {
		for _, f := range st.Fields.List {
			tag := ""
			if f.Tag != nil {
				s, _ := strconv.Unquote(f.Tag.Value)
				tag = reflect.StructTag(s).Get("json")
			}
			if tag == "-" {
				continue
			}
			jname, _, _ := strings.Cut(tag, ",")
			if len(f.Names) == 0 { // embedded
				tname := typeName(f.Type)
				if jname == "" {
					if ep, ets, est, ok := g.structOf(p, ts, f.Type); ok {
						key := ep.path + "." + ets.Name.Name
						if seen[key] {
							continue
						}
						seen[key] = true
						if err := walk(ep, ets, est, depth+1, seen); err != nil {
							return err
						}
						continue
					}
					if !ast.IsExported(tname) {
						continue
					}
				}
				typ, err := g.expr(p, ts, f.Type)
				if err != nil {
					return err
				}
				name := jname
				if name == "" {
					name = tname
				}
				cands = append(cands, candidate{field{name, typ}, depth, jname != ""})
				continue
			}
			for _, n := range f.Names {
				if !n.IsExported() {
					continue
				}
				typ, err := g.expr(p, ts, f.Type)
				if err != nil {
					return err
				}
				name := jname
				if name == "" {
					name = n.Name
				}
				cands = append(cands, candidate{field{name, typ}, depth, jname != ""})
			}
		}
		return nil
	}
	if err := walk(p, ts, st, 0, map[string]bool{p.path + "." + ts.Name.Name: true}); err != nil {
		return nil, err
	}
	byName := map[string][]candidate{}
	var order []string
	for _, c := range cands {
		if byName[c.name] == nil {
			order = append(order, c.name)
		}
		byName[c.name] = append(byName[c.name], c)
	}
	var out []field
	for _, n := range order {
		cs := byName[n]
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].depth != cs[j].depth {
				return cs[i].depth < cs[j].depth
			}
			return cs[i].tagged && !cs[j].tagged
		})
		if len(cs) > 1 && cs[0].depth == cs[1].depth && cs[0].tagged == cs[1].tagged {
			continue // encoding/json drops an ambiguous name
		}
		out = append(out, cs[0].field)
	}
	return out, nil
}

// structOf resolves an embedded field's type to a struct declaration without
// its own UnmarshalJSON (whose fields encoding/json promotes).
func (g *generator) structOf(p *pkg, ts *ast.TypeSpec, e ast.Expr) (*pkg, *ast.TypeSpec, *ast.StructType, bool) {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	var tp *pkg
	var name string
	switch e := e.(type) {
	case *ast.Ident:
		tp, name = p, e.Name
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return nil, nil, nil, false
		}
		ip, ok := p.imports[ts][x.Name]
		if !ok {
			return nil, nil, nil, false
		}
		var err error
		if tp, err = g.l.load(ip); err != nil {
			return nil, nil, nil, false
		}
		name = e.Sel.Name
	default:
		return nil, nil, nil, false
	}
	ets := tp.types[name]
	if ets == nil || tp.methods[name]["UnmarshalJSON"] != nil {
		return nil, nil, nil, false
	}
	st, ok := ets.Type.(*ast.StructType)
	return tp, ets, st, ok
}

// expr is the table's spelling of a field's type: pointers dropped, slices
// and arrays as []T, maps as map[string]T whatever the key, a named type that
// decodes as itself by its underlying type, a struct or a type with its own
// decoding by its table name; scalars by their Go name, interface{} as any.
func (g *generator) expr(p *pkg, ts *ast.TypeSpec, e ast.Expr) (string, error) {
	switch e := e.(type) {
	case *ast.StarExpr:
		return g.expr(p, ts, e.X)
	case *ast.ArrayType:
		if id, ok := e.Elt.(*ast.Ident); ok && id.Name == "byte" && e.Len == nil {
			return "string", nil // []byte: base64 in JSON
		}
		el, err := g.expr(p, ts, e.Elt)
		return "[]" + el, err
	case *ast.MapType:
		el, err := g.expr(p, ts, e.Value)
		return "map[string]" + el, err
	case *ast.InterfaceType:
		return "any", nil
	case *ast.StructType:
		return "", fmt.Errorf("%s.%s: anonymous struct fields are not modelled", p.path, ts.Name.Name)
	case *ast.Ident:
		if ast.IsExported(e.Name) || p.types[e.Name] != nil {
			return g.namedExpr(p, e.Name)
		}
		if e.Name == "any" {
			return "any", nil
		}
		return e.Name, nil // a predeclared scalar
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return "", fmt.Errorf("%s.%s: type %T not modelled", p.path, ts.Name.Name, e.X)
		}
		ip, ok := p.imports[ts][x.Name]
		if !ok {
			return "", fmt.Errorf("%s.%s: no import %s", p.path, ts.Name.Name, x.Name)
		}
		tp, err := g.l.load(ip)
		if err != nil {
			return "", err
		}
		return g.namedExpr(tp, e.Sel.Name)
	}
	return "", fmt.Errorf("%s.%s: type %T not modelled", p.path, ts.Name.Name, e)
}

func (g *generator) namedExpr(p *pkg, name string) (string, error) {
	ts := p.types[name]
	if ts == nil {
		return "", fmt.Errorf("%s: no type %s", p.path, name)
	}
	m := p.methods[name]
	if _, isStruct := ts.Type.(*ast.StructType); isStruct || m["UnmarshalJSON"] != nil || m["UnmarshalText"] != nil {
		return g.named(p.path, name)
	}
	if ts.Assign != 0 || ts.TypeParams != nil {
		return g.expr(p, ts, ts.Type)
	}
	return g.expr(p, ts, ts.Type) // a defined non-struct type decodes as its underlying type
}

// classify reads an UnmarshalJSON: does it decode the data into an alias of
// its own type (type alias T; (*alias)(receiver)), and with a Decoder that
// disallows unknown fields or with json.Unmarshal?
func classify(fn *ast.FuncDecl, recvType string) string {
	if fn.Body == nil {
		return modeFree
	}
	aliases := map[string]bool{}
	vars := map[string]bool{}
	disallow, strictDecode, lenientDecode := false, false, false
	isAliasOfRecv := func(e ast.Expr) bool {
		if p, ok := e.(*ast.ParenExpr); ok {
			e = p.X
		}
		if id, ok := e.(*ast.Ident); ok {
			return vars[id.Name]
		}
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return false
		}
		fun := call.Fun
		if p, ok := fun.(*ast.ParenExpr); ok {
			fun = p.X
		}
		if s, ok := fun.(*ast.StarExpr); ok {
			fun = s.X
		}
		id, ok := fun.(*ast.Ident)
		return ok && aliases[id.Name]
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if id, ok := n.Type.(*ast.Ident); ok && id.Name == recvType {
				aliases[n.Name.Name] = true
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && isAliasOfRecv(n.Rhs[0]) {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					vars[id.Name] = true
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch {
			case sel.Sel.Name == "DisallowUnknownFields":
				disallow = true
			case sel.Sel.Name == "Decode" && len(n.Args) == 1 && isAliasOfRecv(n.Args[0]):
				strictDecode = true
			case sel.Sel.Name == "Unmarshal" && isIdent(sel.X, "json") && len(n.Args) == 2 && isAliasOfRecv(n.Args[1]):
				lenientDecode = true
			}
		}
		return true
	})
	switch {
	case strictDecode && disallow && !lenientDecode:
		return modeStrict
	case strictDecode && !disallow, lenientDecode && !strictDecode:
		return modeLenient
	case strictDecode && lenientDecode:
		return modeLenient // the lenient decode is the weaker of the two
	}
	return modeFree
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func (g *generator) write(tag, rootName string) ([]byte, error) {
	var keys []string
	for k := range g.entries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return g.entries[keys[i]].name < g.entries[keys[j]].name })
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go run ./internal/k0skeys from k0s %s pkg/apis/k0s/v1beta1 and the modules its go.mod names; DO NOT EDIT.\n", tag)
	fmt.Fprintf(&b, "// Regenerate with `go run ./internal/k0skeys -git /path/to/k0s.git -tag TAG` (or -src /path/to/k0s) when Release changes.\n\n")
	fmt.Fprintf(&b, "package k0s\n\n")
	fmt.Fprintf(&b, "// rootType is the type k0s decodes k0s.yaml into.\nconst rootType = %q\n\n", rootName)
	fmt.Fprintf(&b, "// keyTypes are the Go types below ClusterConfig, by package and name, as\n// k0s %s's decoding of k0s.yaml reads them (internal/k0skeys).\n", tag)
	fmt.Fprintf(&b, "var keyTypes = map[string]keyType{\n")
	for _, k := range keys {
		e := g.entries[k]
		fmt.Fprintf(&b, "%q: {decode: %s", e.name, e.mode)
		if e.method != "" {
			fmt.Fprintf(&b, ", method: %q", e.method)
		}
		if e.mode != modeFree {
			b.WriteString(", fields: []keyField{")
			for _, f := range e.fields {
				fmt.Fprintf(&b, "\n{%q, %q},", f.name, f.typ)
			}
			b.WriteString("\n}")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
