package kubeletcfg

import (
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/report"
)

func TestZZProf(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	if dir == "" {
		t.Skip()
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(512 << 20)
	l, err := Lint(Options{Config: dir + "/kubelet.yaml", ConfigDir: dir + "/conf.d"})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"github", "sarif", "junit"} {
		f, _ := os.Create("/tmp/w-" + format + ".prof")
		pprof.StartCPUProfile(f)
		if err := l.Write(io.Discard, format, report.Options{}); err != nil {
			t.Fatal(err)
		}
		pprof.StopCPUProfile()
		f.Close()
	}
}
