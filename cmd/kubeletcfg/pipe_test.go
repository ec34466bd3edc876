package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestConfigFromPipe: `lint -c <(cat config.yaml)` hands us /dev/fd/63, a
// pipe. Its findings are the file's, with the pipe's name, at every minor
// (the pipe is read once; detection and each minor see the same bytes).
func TestConfigFromPipe(t *testing.T) {
	file := "../../testdata/bench/kubeadm-3dropins/kubelet.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "63")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Write(data)
			w.Close()
		}
	}()
	args := []string{"skew", "--versions", "1.31..1.37", "--fail-on", "none"}
	code, fromPipe, errOut := runCLI(append(args, "-c", fifo)...)
	if code != exitClean {
		t.Fatalf("lint -c <pipe>: exit %d, stderr %q", code, errOut)
	}
	_, fromFile, _ := runCLI(append(args, "-c", file)...)
	if want := strings.ReplaceAll(fromFile, file, fifo); fromPipe != want || !strings.Contains(fromPipe, "1.31") {
		t.Errorf("lint -c <pipe>:\n%s\nwant the file's findings:\n%s", fromPipe, want)
	}
}
