// Command cmd writes docs/rules.md: the rules reference with an example for
// each rule from the conformance corpus. Run it from the module root:
//
//	go run ./internal/rulesdoc/cmd
//
// validate/doc_test.go fails when the committed file differs from its output.
package main
