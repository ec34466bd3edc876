package pipeline_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// addCorpusSeeds seeds f with every file of the conformance corpus.
func addCorpusSeeds(f *testing.F) {
	f.Helper()
	n := 0
	err := filepath.WalkDir("../testdata/conformance/cases", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f.Add(data)
		n++
		return nil
	})
	if err != nil {
		f.Fatalf("seeding from the corpus: %v", err)
	}
	if n == 0 {
		f.Fatal("no seeds in the corpus")
	}
	for _, tc := range hostileSeeds {
		f.Add([]byte(tc))
	}
}

// hostileSeeds are small inputs that reach the limits.
var hostileSeeds = []string{
	"",
	"\x00",
	"\ufeff",
	hostileHeader + "x: &a [*a]\n",
	hostileHeader + "authentication: &a {x509: *a, <<: *a}\n",
	hostileHeader + "reservedMemory: [{numaNode: 0, limits: {memory: 1Gi}}, *x]\n",
	hostileHeader + "---\n[\n",
	hostileHeader + "featureGates: {a: {b: {c: 1}}}\n",
	hostileHeader + "MaxPods: 1\nmaxPods: 2\nmaxpods: 3\n",
	hostileHeader + "StaticPodPath: rel\n",
	hostileHeader + "crashloopbackoff: {maxSeconds: 30}\n",
}

// checkEvaluate checks what every Evaluate must satisfy: an input error, or a
// result whose verdict agrees with its findings.
func checkEvaluate(t *testing.T, in pipeline.Input) {
	t.Helper()
	res, err := pipeline.Evaluate(kubelets.Default(), in)
	if err != nil {
		var ie *source.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("error %v (%T) is not an input error", err, err)
		}
		if res != nil {
			t.Fatalf("a result with an error")
		}
		return
	}
	checkResult(t, res)
}

func FuzzEvaluateMain(f *testing.F) {
	addCorpusSeeds(f)
	dir := f.TempDir()
	path := filepath.Join(dir, "kubelet.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkEvaluate(t, pipeline.Input{Config: path})
	})
}

func FuzzMergeDropIn(f *testing.F) {
	addCorpusSeeds(f)
	dir := f.TempDir()
	main := filepath.Join(dir, "kubelet.yaml")
	confDir := filepath.Join(dir, "conf.d")
	if err := os.WriteFile(main, []byte(hostileHeader+"maxPods: 50\nstaticPodPath: /etc/kubernetes/manifests\nfeatureGates:\n  KubeletTracing: true\nevictionHard:\n  memory.available: 100Mi\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		f.Fatal(err)
	}
	dropIn := filepath.Join(confDir, "10.conf")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(dropIn, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkEvaluate(t, pipeline.Input{Config: main, ConfigDir: confDir})
	})
}
