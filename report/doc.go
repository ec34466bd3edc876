// Package report renders evaluation results: one file per output format behind one
// small interface, so the commands stay format-agnostic.
package report
