// Command gen writes skew/tables_gen.go: the per-minor tables that the harness
// writes as JSON into skew/data/<minor>/ (gates.json, fields.json without the
// doc comments, flags.json, internalnames.json, and the key structure of
// schema.json) as Go literals, so that a run
// decodes no JSON at start-up, and the field-tree groups (minors whose trees
// are equal share one) computed here instead of at run time.
//
// Run it from the module root after the harness rewrites skew/data:
//
//	go generate ./skew   (or: go run ./skew/internal/gen)
//
// TestGeneratedIsFresh fails when skew/tables_gen.go differs from what this
// program writes.
//
// It decodes the JSON through internal/kubeletdata's types, the ones the harness
// writes and package skew aliases (GateTable, FieldInfo, FlagTable), so it does
// not need package skew to compile. It writes only the fields a run reads: a
// Gate's specs and dependencies, a field's path, kind, Go type and gates, every
// flag field.
package main
