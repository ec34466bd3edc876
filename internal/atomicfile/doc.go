// Package atomicfile writes files so that a reader (or a kubelet starting on the
// node) sees either the old content or the new one, never a half-written file.
package atomicfile
