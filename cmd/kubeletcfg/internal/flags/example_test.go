package flags_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/input"
)

// Read `--fail-on` and count what makes the command exit 1: the lint of
// ExampleLint has an error, four warnings and an info finding.
func ExampleParseFailOn() {
	l, err := kubeletcfg.Lint(kubeletcfg.Options{
		Config:         "../../../../testdata/examples/node/config.yaml",
		ConfigDir:      "../../../../testdata/examples/node/conf.d",
		KubeletVersion: "1.37",
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []string{"error", "warning", "info", "none", "fatal"} {
		threshold, err := flags.ParseFailOn(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("--fail-on %s: %d\n", s, l.CountAtLeast(threshold))
	}
	// Output:
	// --fail-on error: 1
	// --fail-on warning: 5
	// --fail-on info: 6
	// --fail-on none: 0
	// --fail-on: unknown severity "fatal" (want error, warning, info or none)
}

// Give the values only a bootstrapped instance knows (`--set PATH=VALUE`):
// AKS's resource provider sets maxPods and clusterDNS, which the node pool's
// kubeletconfig.json does not hold.
func ExampleParseSets() {
	set, err := flags.ParseSets([]string{"maxPods=58", "clusterDNS=[10.0.0.10]"})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []map[string]string{nil, set} {
		e, err := kubeletcfg.Effective(kubeletcfg.Options{
			Config:         "../../../../testdata/inputs/aks-kubeletconfig.json",
			KubeletVersion: "1.37",
			Read:           input.Options{Set: s},
		})
		if err != nil {
			log.Fatal(err)
		}
		out, err := e.Render("yaml", false)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("--set %v:\n", s)
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "maxPods:") || strings.HasPrefix(line, "clusterDNS:") || line == "  - 10.0.0.10" {
				fmt.Println(line)
			}
		}
	}
	_, err = flags.ParseSets([]string{"maxPods"})
	fmt.Println(err)
	// Output:
	// --set map[]:
	// maxPods: 110
	// --set map[clusterDNS:[10.0.0.10] maxPods:58]:
	// clusterDNS:
	//   - 10.0.0.10
	// maxPods: 58
	// --set "maxPods": want PATH=VALUE (maxPods=58)
}

// Check `effective`'s -o and --show-origin before anything is read.
func ExampleCheckEffectiveFormat() {
	fmt.Println(flags.CheckEffectiveFormat("yaml", true))
	fmt.Println(flags.CheckEffectiveFormat("json", true))
	fmt.Println(flags.CheckEffectiveFormat("text", false))
	// Output:
	// <nil>
	// --show-origin needs -o yaml (JSON has no comments)
	// unknown output format "text" (want yaml or json)
}

// Fill in the flags a command line did not give from the policy, as every
// command that reports findings does before it runs: here --fail-on was
// given, so the policy's failOn does not replace it.
func ExampleApplyPolicy() {
	kubeletVersion, versions, failOn := "", "", "error"
	var kubeletVersionSet bool
	p, err := flags.ApplyPolicy("../../../../testdata/policy/repo/.kubeletcfg.yaml", false, flags.PolicyTargets{
		KubeletVersion:    &kubeletVersion,
		KubeletVersionSet: &kubeletVersionSet,
		Versions:          &versions,
		FailOn:            &failOn,
		Changed:           func(flag string) bool { return flag == "fail-on" },
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("policy:", p.Path)
	fmt.Printf("--kubelet-version %s (from the policy: %v), --versions %s, --fail-on %s\n", kubeletVersion, kubeletVersionSet, versions, failOn)

	// --no-policy: no policy, and the targets keep their values.
	kubeletVersion = ""
	p, err = flags.ApplyPolicy("../../../../testdata/policy/repo/.kubeletcfg.yaml", true, flags.PolicyTargets{KubeletVersion: &kubeletVersion})
	fmt.Printf("policy: %v, --kubelet-version %q, err: %v\n", p != nil, kubeletVersion, err)
	// Output:
	// policy: ../../../../testdata/policy/repo/.kubeletcfg.yaml
	// --kubelet-version 1.35 (from the policy: true), --versions 1.34..1.37, --fail-on error
	// policy: false, --kubelet-version "", err: <nil>
}

// The webhook's --policy: named, never found (no file, no policy, whatever
// the working folder holds); its versions window unless --versions,
// --control-plane or --kubelet-version is given; its failOn unless --fail-on
// is; its exclude globs dropped (objects are not files); and a failOn the
// webhook cannot deny at is an error naming the file.
func ExampleWebhookPolicy() {
	const repo = "../../../../testdata/policy/repo/.kubeletcfg.yaml"
	versions, failOn := "", "error"
	// Without --policy, in a folder that holds a .kubeletcfg.yaml: none.
	here, err := os.Getwd()
	if err != nil || os.Chdir(filepath.Dir(repo)) != nil {
		log.Fatal("chdir")
	}
	p, sev, err := flags.WebhookPolicy("", flags.PolicyTargets{Versions: &versions, FailOn: &failOn})
	if err := os.Chdir(here); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("no --policy: policy %v, --versions %q, deny from %s, err %v\n", p != nil, versions, sev, err)

	p, sev, err = flags.WebhookPolicy(repo, flags.PolicyTargets{Versions: &versions, FailOn: &failOn})
	fmt.Printf("--policy: --versions %s, deny from %s, exclude %v, rules %d, err %v\n", versions, sev, p.Exclude, len(p.Rules), err)

	versions, failOn = "", "error"
	given := func(flag string) bool { return flag == "kubelet-version" || flag == "fail-on" }
	_, sev, _ = flags.WebhookPolicy(repo, flags.PolicyTargets{Versions: &versions, FailOn: &failOn, Changed: given})
	fmt.Printf("with --kubelet-version and --fail-on: --versions %q, deny from %s\n", versions, sev)

	dir, err := os.MkdirTemp("", "policy")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	none := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(none, []byte("apiVersion: kubeletcfg/v1\nfailOn: none\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	failOn = "error"
	_, _, err = flags.WebhookPolicy(none, flags.PolicyTargets{Versions: &versions, FailOn: &failOn})
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// no --policy: policy false, --versions "", deny from error, err <nil>
	// --policy: --versions 1.34..1.37, deny from warning, exclude [], rules 3, err <nil>
	// with --kubelet-version and --fail-on: --versions "", deny from error
	// DIR/policy.yaml: failOn none: the webhook denies from error, warning or info (or give --fail-on)
}
