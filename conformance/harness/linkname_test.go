package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

var qualifierRe = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*\.`)

// unqualified drops package qualifiers: the declarations and upstream name the same
// packages differently (kubeletconfiginternal.X in the harness, config.X by reflect).
func unqualified(s string) string { return qualifierRe.ReplaceAllString(s, "") }

// astSignature is a function's signature as reflect.Type.String writes it.
func astSignature(ft *ast.FuncType) string {
	list := func(fl *ast.FieldList) []string {
		var out []string
		if fl == nil {
			return nil
		}
		for _, f := range fl.List {
			n := max(len(f.Names), 1)
			for i := 0; i < n; i++ {
				out = append(out, types.ExprString(f.Type))
			}
		}
		return out
	}
	s := "func(" + strings.Join(list(ft.Params), ", ") + ")"
	switch res := list(ft.Results); len(res) {
	case 0:
	case 1:
		s += " " + res[0]
	default:
		s += " (" + strings.Join(res, ", ") + ")"
	}
	return s
}

// upstreamFuncs are the top-level functions called name in the package's non-test
// files that keep (by file name), with the file set that positions them.
func upstreamFuncs(t *testing.T, w *astWalker, pkgPath, name string, keep func(file string) bool) ([]*ast.FuncDecl, *token.FileSet) {
	t.Helper()
	_, _, dir, err := w.locate(pkgPath)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []*ast.FuncDecl
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || !keep(n) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
				out = append(out, fd)
			}
		}
	}
	return out, fset
}

// TestLinknameSignatures: the linker does not check a go:linkname declaration against
// the function it names, so each declaration of this build must match the upstream
// source of the linked minor (parameter and result types, package names aside).
func TestLinknameSignatures(t *testing.T) {
	w := newAstWalker()
	for _, fn := range linkedFuncs {
		v := reflect.ValueOf(fn)
		full := runtime.FuncForPC(v.Pointer()).Name()
		slash := strings.LastIndex(full, "/")
		dot := slash + strings.Index(full[slash:], ".")
		pkgPath, name := full[:dot], full[dot+1:]
		decls, _ := upstreamFuncs(t, w, pkgPath, name, func(string) bool { return true })
		var found *ast.FuncDecl
		if len(decls) > 0 {
			found = decls[len(decls)-1]
		}
		if found == nil {
			t.Errorf("%s: no func %s in %s", full, name, pkgPath)
			continue
		}
		// reflect spells byte by what it aliases.
		got, want := unqualified(v.Type().String()), strings.ReplaceAll(unqualified(astSignature(found.Type)), "[]byte", "[]uint8")
		if got != want {
			t.Errorf("%s: declared %s, upstream %s", full, got, want)
		} else {
			t.Logf("%s %s", full, got)
		}
	}
}
