// Command gen writes kubelets/tables_gen.go: the per-minor tables that the harness
// writes as JSON into kubelets/data/<minor>/ (gates.json, fields.json without the
// doc comments, flags.json, internalnames.json, and the key structure of
// schema.json) as Go literals, so that a run
// decodes no JSON at start-up, and the field-tree groups (minors whose trees
// are equal share one) computed here instead of at run time.
//
// Run it from the module root after the harness rewrites kubelets/data:
//
//	go generate ./kubelets   (or: go run ./kubelets/internal/gen)
//
// TestGeneratedIsFresh fails when kubelets/tables_gen.go differs from what this
// program writes.
//
// It decodes the JSON through internal/kubeletdata's types, the ones the harness
// writes and package kubelets aliases (GateTable, FieldInfo, FlagTable), so it does
// not need package kubelets to compile. It writes only the fields a run reads: a
// Gate's specs and dependencies, a field's path, kind, Go type and gates, every
// flag field.
package main
