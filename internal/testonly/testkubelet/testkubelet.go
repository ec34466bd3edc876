package testkubelet

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

const source = `package main

import (
	"fmt"
	"os"
	"time"
)

var gitVersion = "v0.0.0-master"

func main() {
	for _, a := range os.Args[1:] {
		if a == "--version" {
			fmt.Println("Kubernetes " + gitVersion)
			return
		}
	}
	time.Sleep(time.Hour)
}
`

// Build builds the stand-in with the go build flags given (-ldflags=-X
// k8s.io/component-base/version.gitVersion=v1.34.2 stamps it as a release
// build does) and returns its path, .../kubelet.
func Build(t testing.TB, flags ...string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the stand-in kubelet")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "kubelet")
	cmd := exec.Command(goBin, append(append([]string{"build", "-o", bin}, flags...), src)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the stand-in kubelet: %v\n%s", err, out)
	}
	return bin
}

// Start runs bin with args until the test ends and returns its PID and a
// function that says why it exited early ("" while it runs), for the failure
// message of a test that did not find it.
func Start(t testing.TB, bin string, args []string) (int, func() string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	// Start returns once exec has closed the child's close-on-exec pipe, which
	// the kernel does before it lays out the new argument area: for a moment
	// /proc/PID/cmdline is empty, and discover rightly calls such a process
	// no kubelet. Wait for it, a bounded number of times.
	cmdline := fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid)
	for i := 0; i < 200; i++ {
		if data, err := os.ReadFile(cmdline); err != nil || len(data) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd.Process.Pid, func() string {
		select {
		case <-done:
			return fmt.Sprintf("the stand-in kubelet %d exited early: %v (%s)", cmd.Process.Pid, waitErr, cmd.ProcessState)
		default:
			return ""
		}
	}
}
