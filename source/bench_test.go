package source

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// BenchmarkReadWalk reads a real-world main file (the EKS example of the corpus)
// and walks it as the pipeline does: strictly, then case-insensitively.
func BenchmarkReadWalk(b *testing.B) {
	path := filepath.Join("..", "testdata", "conformance", "cases", "396-real-eks", "kubelet.yaml")
	tree := kubelets.Tree()
	b.ReportAllocs()
	for b.Loop() {
		f, err := ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if keys := Walk(f, tree, Strict); len(keys) == 0 {
			b.Fatal("no keys")
		}
		Walk(f, tree, Fold)
	}
}

// BenchmarkWalkAliasBomb is the worst case the alias budget allows: 1000 aliases
// of a 1000-key map would be a million keys.
func BenchmarkWalkAliasBomb(b *testing.B) {
	var lim []string
	for i := range 1000 {
		lim = append(lim, fmt.Sprintf("m%d: 1Gi", i))
	}
	doc := header + "l: &l {" + strings.Join(lim, ", ") + "}\nr: &r {numaNode: 0, limits: *l}\n" +
		"reservedMemory: [" + strings.TrimSuffix(strings.Repeat("*r, ", 1000), ", ") + "]\n"
	f := Parse("bomb.yaml", []byte(doc))
	tree := kubelets.Tree()
	b.ReportAllocs()
	for b.Loop() {
		Walk(f, tree, Strict)
	}
}
