package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// Hasher builds a node's key from its parts. Each part is written with its
// length first, so ("ab","c") and ("a","bc") never collide.
type Hasher struct{ h hash.Hash }

// NewHasher starts a key.
func NewHasher() *Hasher { return &Hasher{h: sha256.New()} }

// Bytes adds one part.
func (k *Hasher) Bytes(b []byte) *Hasher {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	k.h.Write(n[:])
	k.h.Write(b)
	return k
}

// Reader adds one part read from r to its end, without holding it in memory;
// its length follows it (a length after each part decodes as unambiguously as
// one before). At most limit bytes are read: more is an error.
func (k *Hasher) Reader(r io.Reader, limit int64) error {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	n, err := io.CopyBuffer(k.h, io.LimitReader(r, limit+1), *buf)
	if err != nil {
		return err
	}
	if n > limit {
		return fmt.Errorf("more than %d bytes", limit)
	}
	k.h.Write(binary.BigEndian.AppendUint64(nil, uint64(n)))
	return nil
}

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// String adds one part.
func (k *Hasher) String(s string) *Hasher { return k.Bytes([]byte(s)) }

// Strings adds a list as one part (its length, then each element).
func (k *Hasher) Strings(ss []string) *Hasher {
	k.Bytes(binary.BigEndian.AppendUint64(nil, uint64(len(ss))))
	for _, s := range ss {
		k.String(s)
	}
	return k
}

// Sum is the key: hex SHA-256 of the parts.
func (k *Hasher) Sum() string { return hex.EncodeToString(k.h.Sum(nil)) }

// Plan is which inputs are evaluated and which result each input gets.
type Plan struct {
	// Reps are the indices of the inputs evaluated, one per distinct key, each
	// the first input with its key (so reports name the first node).
	Reps []int
	// Of[i] is the index in Reps of input i's key; -1 for an input without a
	// key (it is not evaluated: it failed before).
	Of []int
}

// Dedup plans the evaluation of inputs with these keys ("" = skip).
func Dedup(keys []string) Plan {
	p := Plan{Of: make([]int, len(keys))}
	at := make(map[string]int, 64)
	for i, k := range keys {
		if k == "" {
			p.Of[i] = -1
			continue
		}
		j, ok := at[k]
		if !ok {
			j = len(p.Reps)
			at[k] = j
			p.Reps = append(p.Reps, i)
		}
		p.Of[i] = j
	}
	return p
}

// Each runs fn(0..n-1) on at most workers goroutines (GOMAXPROCS when
// workers <= 0); a panic in fn is raised again in the caller once all
// workers have stopped.
func Each(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked atomic.Value
	for range workers {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					panicked.CompareAndSwap(nil, p)
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || panicked.Load() != nil {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p)
	}
}

// Run evaluates each distinct key once (eval gets the index of the input it
// evaluates for) and returns every input's result: inputs with the same key
// share one value. Inputs with key "" get the zero T.
func Run[T any](keys []string, workers int, eval func(i int) T) []T {
	p := Dedup(keys)
	got := make([]T, len(p.Reps))
	Each(len(p.Reps), workers, func(j int) { got[j] = eval(p.Reps[j]) })
	out := make([]T, len(keys))
	for i, j := range p.Of {
		if j >= 0 {
			out[i] = got[j]
		}
	}
	return out
}
