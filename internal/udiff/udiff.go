package udiff

import (
	"fmt"
	"strings"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

// Unified returns the unified diff that turns a into b, with the file header
// "--- oldName" / "+++ newName" and hunks of Context lines of context; "" when
// a and b are equal. A last line without a newline is marked the way diff
// marks it ("\ No newline at end of file").
func Unified(oldName, newName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	x, y := Lines(string(a)), Lines(string(b))
	ops := Diff(x, y)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(ops, Context) {
		writeHunk(&sb, h, x, y)
	}
	return sb.String()
}

// Lines splits s into lines, each with its "\n"; the last one lacks it when s
// does not end with a newline.
func Lines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// OpKind says what an Op does.
type OpKind int

const (
	Equal  OpKind = iota // a line of both
	Delete               // a line of a only
	Insert               // a line of b only
)

// Op is one line of the edit script: A is its index in a (Equal, Delete), B its
// index in b (Equal, Insert).
type Op struct {
	Kind OpKind
	A, B int
}

// Diff returns a shortest edit script turning a into b (Myers' O(ND)
// algorithm, after trimming the common prefix and suffix, which is all of a
// file that kubeletcfg fix does not touch).
func Diff(a, b []string) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []Op
	for i := 0; i < pre; i++ {
		ops = append(ops, Op{Equal, i, i})
	}
	for _, op := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		op.A += pre
		op.B += pre
		ops = append(ops, op)
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, Op{Equal, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// maxSteps bounds Myers' search: past it the differing middle is written as
// all deleted then all inserted, still a correct diff, so that two unrelated
// large files cannot cost quadratic memory. Files fixed by kubeletcfg differ
// in a few lines.
const maxSteps = 1000

// myers is Myers' greedy forward algorithm with the diagonals -d..d of every
// step d kept for the backtrack: O((N+M)·D) time, O(D²) memory.
func myers(a, b []string) []Op {
	n, m := len(a), len(b)
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		if d > maxSteps {
			return replaceAll(n, m)
		}
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insert
			} else {
				x = v[off+k-1] + 1 // right: delete
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, d, n, m)
			}
		}
	}
	return nil // unreachable: d = n+m always reaches the end
}

// replaceAll is the edit script that deletes all n lines of a, then inserts all
// m lines of b.
func replaceAll(n, m int) []Op {
	ops := make([]Op, 0, n+m)
	for i := 0; i < n; i++ {
		ops = append(ops, Op{Delete, i, 0})
	}
	for j := 0; j < m; j++ {
		ops = append(ops, Op{Insert, n, j})
	}
	return ops
}

// backtrack walks the recorded steps from the end (reached at step d) to the
// start; trace[d] holds the diagonals -d-1..d+1 as they were before step d.
func backtrack(trace [][]int, d, n, m int) []Op {
	var rev []Op
	x, y := n, m
	for ; d > 0; d-- {
		prev := trace[d]
		off := d + 1
		k := x - y
		var pk int
		if k == -d || (k != d && prev[off+k-1] < prev[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := prev[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, Op{Equal, x, y})
		}
		if x == px {
			y--
			rev = append(rev, Op{Insert, x, y})
		} else {
			x--
			rev = append(rev, Op{Delete, x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, Op{Equal, x, y})
	}
	ops := make([]Op, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}

// hunks groups the changes of ops with ctx lines of context around each, merging
// groups whose context would touch or overlap.
func hunks(ops []Op, ctx int) [][]Op {
	var out [][]Op
	start, end := -1, -1 // the ops of the current hunk: [start, end)
	for i, op := range ops {
		if op.Kind == Equal {
			continue
		}
		lo := max(0, i-ctx)
		if start >= 0 && lo <= end {
			end = min(len(ops), i+1+ctx)
			continue
		}
		if start >= 0 {
			out = append(out, ops[start:end])
		}
		start, end = lo, min(len(ops), i+1+ctx)
	}
	if start >= 0 {
		out = append(out, ops[start:end])
	}
	return out
}

func writeHunk(sb *strings.Builder, h []Op, a, b []string) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, op := range h {
		if op.Kind != Insert {
			if aStart < 0 {
				aStart = op.A
			}
			aLen++
		}
		if op.Kind != Delete {
			if bStart < 0 {
				bStart = op.B
			}
			bLen++
		}
	}
	// An empty side is numbered by the line before it (0 at the top), as diff does.
	if aStart < 0 {
		aStart = h[0].A - 1
	}
	if bStart < 0 {
		bStart = h[0].B - 1
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", span(aStart, aLen), span(bStart, bLen))
	for _, op := range h {
		switch op.Kind {
		case Equal:
			writeLine(sb, ' ', a[op.A])
		case Delete:
			writeLine(sb, '-', a[op.A])
		case Insert:
			writeLine(sb, '+', b[op.B])
		}
	}
}

// span prints a hunk range: 1-based start, with the length omitted when it is 1.
func span(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func writeLine(sb *strings.Builder, mark byte, line string) {
	sb.WriteByte(mark)
	sb.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		sb.WriteString("\n\\ No newline at end of file\n")
	}
}
