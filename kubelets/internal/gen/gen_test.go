package main

import (
	"bytes"
	"os"
	"reflect"
	"testing"
)

func literalOf(v any) string { return literal(reflect.ValueOf(v)) }

// TestGeneratedIsFresh fails when kubelets/tables_gen.go is not what the generator
// writes from kubelets/data: run `go generate ./kubelets` after the harness rewrites it.
func TestGeneratedIsFresh(t *testing.T) {
	want, err := generate("../../data")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../tables_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("kubelets/tables_gen.go is stale: run go generate ./kubelets")
	}
}

// TestLiteral checks the Go literals of the generated tables: zero fields left
// out, a nil slice kept apart from an empty one.
func TestLiteral(t *testing.T) {
	type spec struct {
		Version string
		Default bool
	}
	type gate struct {
		Name  string
		Specs []spec
		Deps  []string
	}
	for _, tc := range []struct {
		in   any
		want string
	}{
		{gate{Name: "A", Specs: []spec{{Version: "1.8"}, {Version: "1.9", Default: true}}, Deps: []string{}}, `gate{Name: "A", Specs: []spec{{Version: "1.8"}, {Version: "1.9", Default: true}}, Deps: []string{}}`},
		{gate{Name: "B\n"}, `gate{Name: "B\n"}`},
	} {
		if got := literalOf(tc.in); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
