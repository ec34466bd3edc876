package engine

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

func TestRunEvaluatesEachKeyOnce(t *testing.T) {
	keys := []string{"a", "b", "", "a", "c", "b", "a"}
	var calls atomic.Int64
	seen := make([]atomic.Int64, len(keys))
	got := Run(keys, 3, func(i int) string {
		calls.Add(1)
		seen[i].Add(1)
		return fmt.Sprint(keys[i], "@", i)
	})
	want := []string{"a@0", "b@1", "", "a@0", "c@4", "b@1", "a@0"}
	if !slices.Equal(got, want) {
		t.Errorf("Run = %v, want %v", got, want)
	}
	if calls.Load() != 3 {
		t.Errorf("%d evaluations, want 3 (one per distinct key, the first input of each)", calls.Load())
	}
	for _, i := range []int{0, 1, 4} {
		if seen[i].Load() != 1 {
			t.Errorf("input %d evaluated %d times", i, seen[i].Load())
		}
	}
}

func TestEachBoundsWorkersAndReraisesPanics(t *testing.T) {
	var running, peak atomic.Int64
	block := make(chan struct{})
	go func() {
		for peak.Load() < 2 {
			runtime.Gosched()
		}
		close(block)
	}()
	Each(20, 2, func(int) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-block
		running.Add(-1)
	})
	if peak.Load() != 2 {
		t.Errorf("%d workers at once, want 2", peak.Load())
	}
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want the worker's panic", p)
		}
	}()
	Each(5, 2, func(i int) {
		if i == 3 {
			panic("boom")
		}
	})
}

func TestHasherSeparatesParts(t *testing.T) {
	if NewHasher().String("ab").String("c").Sum() == NewHasher().String("a").String("bc").Sum() {
		t.Error("(ab, c) and (a, bc) hash the same")
	}
	if NewHasher().Strings([]string{"a", "b"}).String("").Sum() == NewHasher().Strings([]string{"a"}).String("b").Sum() {
		t.Error("a list and its last element moved out hash the same")
	}
	a, b := NewHasher().String("x"), NewHasher().String("x")
	if a.Sum() != b.Sum() {
		t.Error("not deterministic")
	}
}
