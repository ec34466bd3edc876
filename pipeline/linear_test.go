package pipeline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// Hostile shapes grown to a given size, for BenchmarkHostile: the time of one
// evaluation must grow linearly with the size of the input (about a second at
// the 4 MiB limit). Each generator returns the main file and the drop-ins
// (nil when none) of about size bytes in all.

type shape struct {
	name string
	gen  func(size int) (main []byte, dropIns map[string][]byte)
}

// fill appends lines from line(i) until b holds size bytes.
func fill(b *strings.Builder, size int, line func(i int) string) {
	for i := 0; b.Len() < size; i++ {
		b.WriteString(line(i))
	}
}

func hostileShapes() []shape {
	return []shape{
		// Aliases: one anchored map of limits, aliased from every item of
		// reservedMemory; the expansion is quadratic in the size.
		{"aliases", func(size int) ([]byte, map[string][]byte) {
			var b strings.Builder
			b.WriteString(hostileHeader + "l: &l {")
			for i := 0; b.Len() < size/2; i++ {
				fmt.Fprintf(&b, "m%d: 1Gi, ", i)
			}
			b.WriteString("x: 1Gi}\nr: &r {numaNode: 0, limits: *l}\nreservedMemory:\n")
			fill(&b, size, func(int) string { return "- *r\n" })
			return []byte(b.String()), nil
		}},
		// Merge keys: the file (m0..m6, each merging ten of the one
		// before), then more maps merging m6 ten times.
		{"merge keys", func(size int) ([]byte, map[string][]byte) {
			var b strings.Builder
			b.WriteString(hostileHeader + mergeBomb)
			fill(&b, size, func(i int) string {
				return fmt.Sprintf("p%d: {<<: [*m6, *m6, *m6, *m6, *m6, *m6, *m6, *m6, *m6, *m6]}\n", i)
			})
			return []byte(b.String()), nil
		}},
		// Merge keys that the walk enters: one map merged into systemReserved
		// over and over, every merged key a duplicate.
		{"merged duplicates", func(size int) ([]byte, map[string][]byte) {
			var b strings.Builder
			b.WriteString(hostileHeader + "m0: &m0 {cpu: \"1\", memory: 1Gi, pid: \"10\"}\nsystemReserved: {<<: [*m0")
			fill(&b, size-3, func(int) string { return ", *m0" })
			b.WriteString("]}\n")
			return []byte(b.String()), nil
		}},
		// Duplicate keys, at the top and in a map field.
		{"duplicate keys", func(size int) ([]byte, map[string][]byte) {
			var b strings.Builder
			b.WriteString(hostileHeader)
			fill(&b, size/2, func(int) string { return "maxPods: 1\n" })
			b.WriteString("evictionHard:\n")
			fill(&b, size, func(int) string { return "  memory.available: 1Gi\n" })
			return []byte(b.String()), nil
		}},
		// Keys that differ from a field only in case, each a finding carrying
		// its rename (KC1102 in the main file, the drop-in rules in a drop-in):
		// turning each position into a byte offset must not rescan the file.
		{"case-only keys", func(size int) ([]byte, map[string][]byte) {
			var main, drop strings.Builder
			main.WriteString(hostileHeader + "reservedMemory:\n")
			fill(&main, size/2, func(i int) string { return fmt.Sprintf("- NumaNode: %d\n", i) })
			drop.WriteString(hostileHeader + "reservedMemory:\n")
			fill(&drop, size/2, func(i int) string { return fmt.Sprintf("- NUMANode: %d\n", i) })
			return []byte(main.String()), map[string][]byte{"50-case.conf": []byte(drop.String())}
		}},
		// Spellings of one field in one mapping, and of one gate: each a
		// finding whose reason names its twins (three, and a count).
		{"case spellings", func(size int) ([]byte, map[string][]byte) {
			const field, gate = "containerRuntimeEndpoint", "  ReduceDefaultCrashLoopBackOffDecay"
			main := hostileHeader + caseSpellings(field, ": x\n", (size/2)/(len(field)+4)) +
				"featureGates:\n" + caseSpellings(gate, ": true\n", (size/2)/(len(gate)+7))
			return []byte(main), nil
		}},
		// Deep nesting: flow mappings under a map field.
		{"deep nesting", func(size int) ([]byte, map[string][]byte) {
			levels := (size - len(hostileHeader) - 20) / 5
			return deepFlow("featureGates", levels), nil
		}},
		// Deep nesting under a key the kubelet drops (it starts).
		{"deep unknown", func(size int) ([]byte, map[string][]byte) {
			levels := (size - len(hostileHeader) - 20) / 5
			return deepFlow("x", levels), nil
		}},
		// Many drop-ins, each setting a few fields and one unknown key.
		{"many drop-ins", func(size int) ([]byte, map[string][]byte) {
			d := map[string][]byte{}
			for n, i := len(okMain), 0; n < size; i++ {
				c := []byte(fmt.Sprintf("%smaxPods: %d\nevictionHard: {memory.available: %dMi}\nunknown%d: 1\n", hostileHeader, 10+i%100, 100+i, i))
				d[fmt.Sprintf("%06d.conf", i)] = c
				n += len(c)
			}
			return okMain, d
		}},
	}
}

// mergeBomb is the 638-byte file of issue 10 without its header: 10^7 keys once
// merge keys are expanded.
var mergeBomb = func() string {
	var b strings.Builder
	b.WriteString("m0: &m0 {cpu: \"1\", memory: 1Gi, pid: \"10\", x0: \"1\", x1: \"1\", x2: \"1\", x3: \"1\", x4: \"1\", x5: \"1\", x6: \"1\"}\n")
	for i := 1; i < 7; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [%s]}\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*m%d, ", i-1), 10), ", "))
	}
	b.WriteString("systemReserved: {<<: [" + strings.TrimSuffix(strings.Repeat("*m6, ", 10), ", ") + "]}\n")
	return b.String()
}()

var benchSizes = []int{1 << 10, 10 << 10, 100 << 10, 1 << 20}

// writeShape writes a generated input to dir and returns the pipeline input.
func writeShape(tb testing.TB, dir string, main []byte, dropIns map[string][]byte) pipeline.Input {
	in := pipeline.Input{Config: filepath.Join(dir, "kubelet.yaml")}
	if err := os.WriteFile(in.Config, main, 0o644); err != nil {
		tb.Fatal(err)
	}
	if dropIns != nil {
		in.ConfigDir = filepath.Join(dir, "conf.d")
		writeTree(tb, in.ConfigDir, dropIns)
	}
	return in
}

// cpuTime is the process's user and system CPU time so far, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkHostile evaluates each hostile shape at 1 KiB .. 1 MiB; ns/op must
// grow about tenfold per tenfold size.
func BenchmarkHostile(b *testing.B) {
	m := kubelets.Default()
	for _, s := range hostileShapes() {
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("%s/%dKiB", strings.ReplaceAll(s.name, " ", "_"), size>>10), func(b *testing.B) {
				main, dropIns := s.gen(size)
				in := writeShape(b, b.TempDir(), main, dropIns)
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					res, err := pipeline.Evaluate(m, in)
					if err != nil {
						b.Fatal(err)
					}
					checkResult(b, res)
				}
				// CPU time as well as wall time: on a shared machine it is the
				// figure that shows the growth.
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
