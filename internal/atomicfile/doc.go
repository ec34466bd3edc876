// Package atomicfile writes files so that a reader (or a kubelet starting on the
// node) sees either the old content or the new one, never a half-written file.
// It is the one writer of the commands that create files: dropin new and diff,
// fix, schema --kubeconform and the rules reference.
package atomicfile
