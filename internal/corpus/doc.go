// Package corpus reads the conformance corpus (testdata/conformance/cases) the
// way the harness does, for the tests of several packages.
package corpus
