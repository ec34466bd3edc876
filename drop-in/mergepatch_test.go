package dropin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

// The patcher must build the document that calling jsonpatch.MergePatch once
// per drop-in builds, byte for byte, errors included.
func TestPatcherIsMergePatch(t *testing.T) {
	seqs := [][]string{
		{`{"a":1}`, `{"b":{"c":null,"d":[{"e":null}]}}`, `{"a":null}`},
		{`{"m":{"x":1,"y":2}}`, `{"m":{"x":null}}`, `{"m":[1,null,{"z":null}]}`, `{"m":{"w":{"v":null,"u":1}}}`},
		{`{"s":"<&>"}`, `{"n":1.50,"e":1e3}`, `{"s":{"a":null}}`},
		{`{"k":{"a":{"b":{"c":1}}}}`, `{"k":{"a":{"b":null}}}`, `{"k":{"a":{"b":{"d":2}}}}`},
		{`[1,2]`, `{"a":1}`},
		{`null`},
		{`{"a":1}`, `"str"`, `{"b":2}`},
		{`{bad`},
		// What the parser and writer must treat as encoding/json does: white
		// space, escapes, HTML characters, U+2028, duplicate keys, invalid
		// UTF-8 in a key, exact numbers, nulls in lists.
		{" { \"a\" : [ 1 , { \"b\" : null } ] ,\n\t\"c\": \"x y\" } ", `{"a":{"c":null}}`},
		{`{"k\u00e9y":"v\u00e9","<k>":"a&b"}`, `{"l":"\u2028  ","q":"\"\\"}`},
		{`{"d":1,"d":2,"d":null}`, `{"e":{"f":1,"f":{"g":null}}}`},
		{"{\"\xff\":1}", `{"\ufffd":2}`},
		{`{"n":12345678901234567890,"f":-0.0e-0}`, `{"n":{"x":9223372036854775807}}`},
		{`{"l":[null,{"a":null},[null]]}`, `{"l":{"a":null}}`, `{"m":[null]}`},
		{`{}`, ` {} `, `{"a":{}}`, `{"a":{"b":{}}}`},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var seq []string
		for range 1 + r.IntN(6) {
			seq = append(seq, randomPatch(r, 3))
		}
		seqs = append(seqs, seq)
	}
	for _, base := range []string{`{"maxPods":110,"featureGates":{"A":true},"evictionHard":{"memory.available":"100Mi"},"list":[{"a":1}]}`, `{}`, " {\"a\" : [1, {\"b\": \"<\"}], \"s\": {\"t\" : 1.0} } "} {
		for i, seq := range seqs {
			want, wantErr := []byte(base), error(nil)
			for _, p := range seq {
				if want, wantErr = jsonpatch.MergePatch(want, []byte(p)); wantErr != nil {
					break
				}
			}
			pt := newPatcher([]byte(base))
			var gotErr error
			for _, p := range seq {
				if gotErr = pt.apply([]byte(p)); gotErr != nil {
					break
				}
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("sequence %d %v: error %v, MergePatch %v", i, seq, gotErr, wantErr)
				continue
			}
			if wantErr != nil {
				continue
			}
			got, err := pt.bytes()
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("sequence %d %v over %s:\n got %s (%v)\nwant %s", i, seq, base, got, err, want)
			}
		}
	}
}

// randomPatch is a JSON object of a few keys from a small alphabet, with
// nulls, scalars, lists and nested objects.
func randomPatch(r *rand.Rand, depth int) string {
	var value func(d int) any
	value = func(d int) any {
		switch n := r.IntN(7); {
		case n == 0:
			return nil
		case n == 1:
			return r.IntN(3)
		case n == 2:
			return "v<" + fmt.Sprint(r.IntN(3))
		case n == 3 && d > 0:
			var l []any
			for range r.IntN(3) {
				l = append(l, value(d-1))
			}
			return l
		case d > 0:
			m := map[string]any{}
			for range 1 + r.IntN(3) {
				m[string(rune('a'+r.IntN(4)))] = value(d - 1)
			}
			return m
		}
		return true
	}
	m := map[string]any{}
	for range 1 + r.IntN(4) {
		m[string(rune('a'+r.IntN(4)))] = value(depth)
	}
	out, _ := json.Marshal(m)
	return string(out)
}
