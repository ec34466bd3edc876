package kubelets_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeletcfg/kubeletcfg/defaults"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

func allMinors(t *testing.T) []*kubelets.Minor {
	var out []*kubelets.Minor
	for _, v := range kubelets.Supported() {
		m, err := kubelets.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.RoundTripPlanErr(); err != nil {
			t.Fatalf("%s: the round trip has no reflection plan (it would fall back to JSON every time): %v", v, err)
		}
		out = append(out, m)
	}
	return out
}

// checkRoundTrip compares the reflection round trip with the JSON one it replays.
func checkRoundTrip(t *testing.T, m *kubelets.Minor, name string, kc *kubeletv1beta1.KubeletConfiguration) {
	t.Helper()
	before := kc.DeepCopy()
	want, err := m.RoundTripJSON(kc)
	if err != nil {
		t.Fatalf("%s at %s: JSON round trip: %v", name, m.Version, err)
	}
	got, ok := m.RoundTripReflect(kc)
	if !ok {
		t.Fatalf("%s at %s: the reflection round trip fell back", name, m.Version)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s at %s: reflection round trip differs from JSON: %s", name, m.Version, firstDiff(reflect.ValueOf(got), reflect.ValueOf(want), ""))
	}
	if !reflect.DeepEqual(kc, before) {
		t.Errorf("%s at %s: the round trip modified its input", name, m.Version)
	}
}

// checkPrune compares Prune with the walk it plans.
func checkPrune(t *testing.T, m *kubelets.Minor, name string, kc *kubeletv1beta1.KubeletConfiguration) {
	t.Helper()
	got, want := kc.DeepCopy(), kc.DeepCopy()
	m.Prune(got)
	m.PruneByWalk(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s at %s: Prune differs from the walk: %s", name, m.Version, firstDiff(reflect.ValueOf(got), reflect.ValueOf(want), ""))
	}
}

// TestRoundTripMatchesJSON decodes every file of the conformance corpus as a
// main file and compares both round trips, as decoded and as defaulted.
func TestRoundTripMatchesJSON(t *testing.T) {
	minors := allMinors(t)
	var files []string
	err := filepath.WalkDir("../testdata/conformance/cases", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(p) != "case.yaml" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	decoded := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dec := source.DecodeMain(data)
		if dec.Err != nil || dec.Config == nil {
			continue
		}
		decoded++
		for _, m := range minors {
			kc := dec.Config.DeepCopy()
			checkPrune(t, m, p, kc)
			m.Prune(kc)
			checkRoundTrip(t, m, p, kc)
			for _, on := range []bool{false, true} {
				d := kc.DeepCopy()
				if err := defaults.ApplyObject(m.Version, d, func(string) bool { return on }); err != nil {
					continue
				}
				m.Prune(d)
				checkRoundTrip(t, m, p+" (defaulted)", d)
				if out, ok := m.RoundTripReflect(d); ok {
					checkRoundTrip(t, m, p+" (round-tripped twice)", out)
				}
			}
		}
	}
	if decoded < 300 {
		t.Fatalf("only %d files of the corpus decoded", decoded)
	}
	for _, m := range minors {
		checkRoundTrip(t, m, "empty", &kubeletv1beta1.KubeletConfiguration{})
	}
}

// TestRoundTripMatchesJSONRandom compares both round trips on random objects:
// nil, empty and filled pointers, maps and lists everywhere.
func TestRoundTripMatchesJSONRandom(t *testing.T) {
	minors := allMinors(t)
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		kc := &kubeletv1beta1.KubeletConfiguration{}
		fill(r, reflect.ValueOf(kc).Elem(), 0)
		for _, m := range minors {
			checkRoundTrip(t, m, "random", kc)
			checkPrune(t, m, "random", kc)
		}
	}
}

// TestRoundTripFallsBack checks that values the plan does not replay still get
// the JSON's answer.
func TestRoundTripFallsBack(t *testing.T) {
	m := kubelets.Newest()
	for name, kc := range map[string]*kubeletv1beta1.KubeletConfiguration{
		"invalid UTF-8":       {StaticPodPath: "a\xffb"},
		"invalid UTF-8 key":   {EvictionHard: map[string]string{"a\xff": "1"}},
		"invalid UTF-8 value": {EvictionHard: map[string]string{"a": "\xfe"}},
		"NaN":                 {MemoryThrottlingFactor: ptrTo(math.NaN())},
	} {
		if _, ok := m.RoundTripReflect(kc); ok {
			t.Errorf("%s: no fallback", name)
		}
		want, werr := m.RoundTripJSON(kc)
		got, gerr := m.RoundTrip(kc)
		if (werr != nil) != (gerr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: RoundTrip = %v, %v; JSON = %v, %v", name, got, gerr, want, werr)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

var (
	quantityType = reflect.TypeFor[resource.Quantity]()
	timeType     = reflect.TypeFor[metav1.Time]()
	quantities   = []string{"0", "1", "100m", "1.5Gi", "500Mi", "1e3", "0.1", "2k", "1024Ki", "12345678901234567890"}
	words        = []string{"", "a", "memory.available", "/var/lib/kubelet", "Webhook", "systemd", "é", "<&>"}
)

// fill sets v to a random value: about a third of pointers, maps and lists are
// nil, some maps and lists are empty but not nil.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Type() {
	case quantityType:
		v.Set(reflect.ValueOf(resource.MustParse(quantities[r.IntN(len(quantities))])))
		return
	case timeType:
		v.Set(reflect.ValueOf(metav1.NewTime(time.Unix(r.Int64N(1<<32), r.Int64N(1e9)))))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if r.IntN(3) == 0 || depth > 8 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(r, v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	case reflect.Map:
		if r.IntN(3) == 0 {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for j := r.IntN(3); j > 0; j-- {
			k := reflect.New(v.Type().Key()).Elem()
			fill(r, k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, e, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Slice:
		if r.IntN(3) == 0 {
			return
		}
		n := r.IntN(3)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for j := 0; j < n; j++ {
			fill(r, v.Index(j), depth+1)
		}
	case reflect.String:
		v.SetString(words[r.IntN(len(words))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if r.IntN(3) > 0 {
			v.SetInt(int64(r.Uint64()) >> uint(64-v.Type().Bits()))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if r.IntN(3) > 0 {
			v.SetUint(r.Uint64() >> uint(64-v.Type().Bits()))
		}
	case reflect.Float32, reflect.Float64:
		if r.IntN(3) > 0 {
			v.SetFloat(float64(float32(r.NormFloat64() * 1e3)))
		}
	default:
		if !strings.Contains(v.Type().String(), "interface") {
			panic("fill: " + v.Type().String())
		}
	}
}

// firstDiff names where two values first differ, for a readable failure.
func firstDiff(a, b reflect.Value, path string) string {
	if !a.IsValid() || !b.IsValid() || a.Type() != b.Type() {
		return path + ": types differ"
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.IsNil() {
			return ""
		}
		return firstDiff(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map, reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v vs %v (len %d, %d)", path, a.IsNil(), b.IsNil(), a.Len(), b.Len())
		}
	}
	if a.CanInterface() && b.CanInterface() {
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %#v vs %#v", path, a.Interface(), b.Interface())
		}
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s: %v vs %v", path, a, b)
	}
	return ""
}
