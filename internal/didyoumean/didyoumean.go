package didyoumean

import "strings"

// Nearest returns the candidate closest to name: an exact case-insensitive match
// first, then the smallest edit distance (case-insensitive) within a budget that
// grows with the name's length. It returns "" when nothing is close enough.
func Nearest(name string, candidates []string) string {
	return NewIndex(candidates).Nearest(name)
}

// Index is a list of candidates lowercased once, for callers that search the
// same names many times (a walk of thousands of drop-ins, each with an unknown
// key). It is safe for concurrent use.
type Index struct {
	names, lower []string
}

// NewIndex indexes candidates; Nearest then answers as Nearest(name, candidates).
func NewIndex(candidates []string) *Index {
	x := &Index{names: candidates, lower: make([]string, len(candidates))}
	for i, c := range candidates {
		x.lower[i] = strings.ToLower(c)
	}
	return x
}

// Nearest is Nearest(name, candidates) for the indexed candidates.
func (x *Index) Nearest(name string) string {
	lname := strings.ToLower(name)
	for i, lc := range x.lower {
		if lc == lname {
			return x.names[i]
		}
	}
	budget := 2 + len(name)/6
	best, bestD := "", budget+1
	for i, lc := range x.lower {
		if abs(len(lc)-len(lname)) > budget || bagDistance(lname, lc) >= bestD {
			continue
		}
		if d := distance(lname, lc, budget); d < bestD {
			best, bestD = x.names[i], d
		}
	}
	return best
}

// bagDistance is a lower bound of the Levenshtein distance between a and b,
// in linear time: the larger of the two counts of bytes one has and the other
// has not (as multisets). A candidate whose bound already reaches the best
// distance found cannot be nearer, so distance need not run: an unknown key
// is compared with every field name of its level.
func bagDistance(a, b string) int {
	if len(a) > 255 {
		return 0 // the counts are bytes
	}
	var count [256]uint8
	for i := 0; i < len(a); i++ {
		count[a[i]]++
	}
	common := 0
	for i := 0; i < len(b); i++ {
		if count[b[i]] > 0 {
			count[b[i]]--
			common++
		}
	}
	return max(len(a), len(b)) - common
}

// distance is the Levenshtein distance between a and b, or a value above max
// once it is certain to exceed max.
func distance(a, b string, max int) int {
	// Rows for names of up to 63 bytes live on the stack: a walk of thousands
	// of drop-ins, each with an unknown key, calls this for every field name.
	var prevBuf, curBuf [64]int
	prev, cur := prevBuf[:0], curBuf[:0]
	if len(b)+1 > len(prevBuf) {
		prev, cur = make([]int, 0, len(b)+1), make([]int, 0, len(b)+1)
	}
	prev, cur = prev[:len(b)+1], cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
