// Package integration runs `kubeletcfg cluster` against a real kube-apiserver
// (k8s.io/kubernetes/cmd/kube-apiserver/app/testing, with etcd embedded from
// go.etcd.io/etcd/server/v3/embed) whose nodes are served by the kubelet's own
// server code (k8s.io/kubernetes/pkg/kubelet/server) with configurations the
// real kubelet produced (testdata/conformance/golden).
//
// The API server refuses to proxy to loopback addresses, so the whole suite
// runs in a network namespace it creates: TestMain re-executes the test
// binary with CLONE_NEWNET|CLONE_NEWNS (root only), brings up lo with one
// address per node in 198.18.0.0/15 (RFC 2544's benchmarking range), and runs
// the tests there. The namespace has no other interface: nothing leaves it.
package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const (
	// roleEnv tells a re-executed test binary what it is.
	roleEnv = "KUBELETCFG_IT_ROLE"
	// roleInside: the test process inside the namespace; roleKubelet: one kubelet
	// process serving the nodes that share a configuration.
	roleInside  = "inside"
	roleKubelet = "kubelet"
	// binEnv holds the path of the kubeletcfg binary the outer process built.
	binEnv = "KUBELETCFG_IT_BIN"
)

// skipReason is set when the suite cannot run here; every test skips with it.
var skipReason string

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case roleKubelet:
		os.Exit(kubeletMain(os.Args[len(os.Args)-1]))
	case roleInside:
		if err := setUpNamespace(); err != nil {
			fmt.Fprintln(os.Stderr, "integration: setting up the network namespace:", err)
			os.Exit(1)
		}
		os.Exit(m.Run())
	}
	if os.Geteuid() != 0 {
		skipReason = "the integration suite needs root: it creates a network namespace (the API server refuses to proxy to loopback)"
		os.Exit(m.Run())
	}
	// Build the command under test here, outside the namespace: the build may
	// need the module proxy, the namespace has no network.
	bin, err := buildKubeletcfg()
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(filepath.Dir(bin))
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		os.Exit(1)
	}
	cmd := exec.Command(self, os.Args[1:]...)
	cmd.Env = append(os.Environ(), roleEnv+"="+roleInside, binEnv+"="+bin)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWNET | syscall.CLONE_NEWNS,
		Pdeathsig:  syscall.SIGKILL,
	}
	code := 0
	if err := cmd.Run(); err != nil {
		code = 1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			fmt.Fprintln(os.Stderr, "integration:", err)
		}
	}
	os.RemoveAll(filepath.Dir(bin))
	os.Exit(code)
}

// requireNamespace skips a test that cannot run here.
func requireNamespace(t testing.TB) {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
}

// buildKubeletcfg builds the main module's command into a temporary directory.
func buildKubeletcfg() (string, error) {
	dir, err := os.MkdirTemp("", "kubeletcfg-it-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "kubeletcfg")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/kubeletcfg")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("building kubeletcfg: %v\n%s", err, out)
	}
	return bin, nil
}

// maxNodes addresses are added (198.18.0.1 onwards); the scale test needs 2,000.
const maxNodes = 2100

// nodeIP is the i-th node address (i from 0), 198.18.A.B with B in 1..250.
func nodeIP(i int) string {
	return fmt.Sprintf("198.18.%d.%d", i/250, i%250+1)
}

// setUpNamespace runs first in the re-executed process: mounts made here stay
// here, lo comes up with maxNodes addresses besides 127.0.0.1. They are not
// loopback addresses (the API server's proxy checks the address, not the
// device), and they exist in this namespace only.
func setUpNamespace() error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	var b strings.Builder
	b.WriteString("link set lo up\n")
	for i := 0; i < maxNodes; i++ {
		fmt.Fprintf(&b, "addr add %s/32 dev lo\n", nodeIP(i))
	}
	cmd := exec.Command("ip", "-batch", "-")
	cmd.Stdin = strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ip -batch: %v\n%s", err, out)
	}
	return nil
}
