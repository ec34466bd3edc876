package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// walkInputs parses every YAML or JSON input under testdata (not the goldens,
// which are the kubelet's outputs), plus inputs where
// the two walks or the merged-key index differ from their shortcuts' premise:
// a key written in another case with the KEP-4603 draft name below it, and
// duplicates merged in with <<.
// The inputs are parsed once for both tests.
func walkInputs(t *testing.T) []*source.File {
	t.Helper()
	files, err := parsedInputs()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 1000 {
		t.Fatalf("only %d inputs", len(files))
	}
	return files
}

var parsedInputs = sync.OnceValues(func() ([]*source.File, error) {
	var files []*source.File
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "golden" {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".conf") || strings.HasSuffix(path, ".json")) {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && len(data) <= source.MaxFileSize {
			files = append(files, source.Parse(path, data))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	const header = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	for i, s := range []string{
		header + "crashloopbackoff: {maxSeconds: 30}\n",
		header + "crashLoopBackOff: {maxSeconds: 30}\n",
		header + "CrashLoopBackOff: {maxSeconds: 30}\nmaxPods: 1\nmaxPods: 2\n",
		header + "a: &a {cpu: \"1\"}\nsystemReserved: {<<: *a, cpu: \"2\"}\n",
		header + "systemReserved: &a {cpu: \"1\", cpu: \"2\"}\nkubeReserved: {<<: *a}\n",
		header + "maxPods: 1\nmaxPods: 2\nevictionHard: {memory.available: 1Gi, memory.available: 2Gi}\n",
	} {
		files = append(files, source.Parse("extra"+string(rune('a'+i))+".yaml", []byte(s)))
	}
	return files, nil
})

// TestFoldUnknownWalk: foldUnknownWalk gives the unknown keys of the
// case-insensitive walk, in its order, on every input at every minor.
func TestFoldUnknownWalk(t *testing.T) {
	files := walkInputs(t)
	// Unknown keys below case-only keys, with and without the draft name.
	for i, s := range []string{
		"Logging: {foo: 1}\nReservedMemory: [{NumaNode: 0, x: 1}]\n",
		"Logging: {foo: 1}\nCRASHLOOPBACKOFF: {maxSeconds: 3}\n",
		"crashloopbackoff: {MaxSeconds: 3}\n",
		"m: &m {CrashLoopBackOff: {maxseconds: 4}}\n<<: *m\nLogging: {foo: 1}\n",
	} {
		files = append(files, source.Parse(fmt.Sprintf("case-%d.yaml", i), []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"+s)))
	}
	unknown := func(keys []source.Key) []source.Key {
		var out []source.Key
		for _, k := range keys {
			if k.Kind == source.KeyUnknown {
				out = append(out, k)
			}
		}
		return out
	}
	drafts := func(keys []source.Key) []finding.Finding {
		var out []finding.Finding
		for _, k := range keys {
			if fd, ok := source.DraftCrashLoop(k.Pos, k.Path, k.Value); ok {
				out = append(out, fd)
			}
		}
		return out
	}
	found, caseOnly := 0, 0
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		for _, f := range files {
			c := source.NewCache()
			got := unknown(foldUnknownWalk(c, f, m))
			want := unknown(source.Walk(f, m.Fields(), source.Fold))
			if !reflect.DeepEqual(drafts(got), drafts(want)) {
				t.Errorf("%s %s: draft names\ngot  %+v\nwant %+v", v, f.Path, drafts(got), drafts(want))
			}
			if !reflect.DeepEqual(got, want) {
				caseOnly++ // the strict walk's keys stood in for the second walk's
			}
			found += len(drafts(want))
		}
	}
	if found == 0 {
		t.Error("no input has the draft name: the test checks nothing")
	}
	if caseOnly == 0 {
		t.Error("no input has case-only keys without the draft name's parent: the shortcut is not tested")
	}
}

// TestMergedIndexInOrder: the merged-key index answers the same with and
// without its shortcut for keys in document order, for every duplicate of every
// input at every minor, and the shortcut is taken for files without aliases.
func TestMergedIndexInOrder(t *testing.T) {
	files := walkInputs(t)
	dups, merged := 0, 0
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		for _, f := range files {
			keys := source.Walk(f, m.Fields(), source.Strict)
			var x, full mergedIndex
			full.built = true
			full.first = map[finding.Position]string{}
			full.multi = map[finding.Position]bool{}
			for _, k := range keys {
				if p, ok := full.first[k.Pos]; !ok {
					full.first[k.Pos] = k.Path
				} else if p != k.Path {
					full.multi[k.Pos] = true
				}
			}
			for _, k := range keys {
				if k.Kind != source.KeyDuplicate {
					continue
				}
				dups++
				got, want := x.in(keys, k), full.in(keys, k)
				if got != want {
					t.Errorf("%s %s: duplicate %s at %s: merged %v, want %v", v, f.Path, k.Path, k.Pos, got, want)
				}
				if want {
					merged++
				}
			}
			if x.built && !x.ordered && !strings.Contains(string(f.Data), "*") {
				t.Errorf("%s %s: no alias, yet the keys are not in document order", v, f.Path)
			}
		}
	}
	if dups == 0 || merged == 0 {
		t.Errorf("%d duplicates, %d merged in: the test checks nothing", dups, merged)
	}
}
