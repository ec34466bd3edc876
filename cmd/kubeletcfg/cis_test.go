package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

const cisData = "../../testdata/cis/"

// TestCLIProfile runs lint and skew with --profile cis against golden files
// (go test ./cmd/kubeletcfg -run TestCLIProfile -update rewrites them).
func TestCLIProfile(t *testing.T) {
	weakened := []string{"-c", cisData + "weakened/config.yaml", "-d", cisData + "weakened/conf.d"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"cis-hardened", []string{"lint", "--profile", "cis", "-c", cisData + "hardened/config.yaml"}, exitClean},
		{"cis-kubeadm", []string{"lint", "--profile", "cis", "-c", cisData + "kubeadm/config.yaml"}, exitClean},
		{"cis-kubeadm-fail-on-warning", []string{"lint", "--profile", "cis", "-c", cisData + "kubeadm/config.yaml", "--fail-on", "warning", "-q"}, exitFindings},
		{"cis-weakened", append([]string{"lint", "--profile", "cis"}, weakened...), exitClean},
		{"cis-weakened-json", append([]string{"lint", "--profile", "cis", "-o", "json"}, weakened...), exitClean},
		{"cis-weakened-1.31", append([]string{"lint", "--profile", "cis", "--kubelet-version", "1.31"}, weakened...), exitClean},
		{"cis-without-profile", append([]string{"lint"}, weakened...), exitClean},
		{"cis-skew", append([]string{"skew", "--profile", "cis", "--versions", "1.31..1.37"}, weakened...), exitClean},
		{"cis-skew-json", []string{"skew", "--profile", "cis", "--versions", "1.36,1.37", "-o", "json", "-c", cisData + "hardened/config.yaml"}, exitClean},
		{"cis-skew-stops", []string{"skew", "--profile", "cis", "--versions", "1.34..1.37", "-c", example + "/config.yaml", "-d", example + "/conf.d"}, exitFindings},
		{"cis-unknown-profile", append([]string{"lint", "--profile", "nist"}, weakened...), exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}

// --profile completes its names on both commands.
func TestProfileCompletion(t *testing.T) {
	root := newRootCommand()
	for _, name := range []string{"lint", "skew"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		fn, ok := cmd.GetFlagCompletionFunc("profile")
		if !ok {
			t.Fatalf("%s: no completion for --profile", name)
		}
		got, dir := fn(cmd, nil, "")
		if strings.Join(got, ",") != "cis" || dir != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("%s: completion %v %v", name, got, dir)
		}
	}
}
