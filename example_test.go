package kubeletcfg_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/discover"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/policy"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// Lint a main file and its drop-ins at one kubelet minor, and print the
// findings as `kubeletcfg lint` does.
func ExampleLint() {
	l, err := kubeletcfg.Lint(kubeletcfg.Options{
		Config:         "testdata/examples/node/config.yaml",
		ConfigDir:      "testdata/examples/node/conf.d",
		KubeletVersion: "1.37",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("starts:", l.Report.Starts)
	for _, f := range l.Report.Findings {
		fmt.Printf("%s %s %s\n", f.Rule, f.Severity, f.Position)
	}
	// Output:
	// starts: false
	// KC4050 error testdata/examples/node/conf.d/50-crashloop.conf:7:3
	// KC2007 warning testdata/examples/node/conf.d/90-local.conf:3:1
	// KC2001 info testdata/examples/node/conf.d/README.txt
	// KC1101 warning testdata/examples/node/config.yaml:19:1
	// KC1102 warning testdata/examples/node/config.yaml:20:1
	// KC6001 warning testdata/examples/node/config.yaml:21:3
}

// Lint a configuration held in memory, with the kubelet's own command line:
// the flags win over the file as the kubelet applies them.
func ExampleLint_inMemory() {
	l, err := kubeletcfg.Lint(kubeletcfg.Options{
		Config:       "node.yaml",
		ConfigData:   []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 50\n"),
		KubeletFlags: "--max-pods=-1",
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := l.Write(os.Stdout, "text", report.Options{Quiet: true}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// (command line)
	// (command line): warning: --max-pods is deprecated: the config-file field is maxPods [KC2503]
	//     field: maxPods
	//     hint:  set maxPods in the --config file or a drop-in instead
	//     kubelet: Flag --max-pods has been deprecated, This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.
	// (command line): info: --max-pods=-1 overrides maxPods: 50 from node.yaml:3:1 [KC2504]
	//     field: maxPods
	// (command line): error: maxPods is -1; it must not be negative [KC4025]
	//     field: maxPods
	//     hint:  set maxPods to 0 or more, or remove it to use the default
	//     kubelet: invalid configuration: maxPods (--max-pods) -1 must not be a negative number
	//
	// kubelet 1.37: does NOT start: the kubelet refuses this configuration
}

// Print the configuration the kubelet would run with.
func ExampleEffective() {
	e, err := kubeletcfg.Effective(kubeletcfg.Options{
		Config:         "testdata/examples/node/config.yaml",
		KubeletVersion: "1.36",
	})
	if err != nil {
		log.Fatal(err)
	}
	out, err := e.Render("yaml", false)
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "maxPods:") || strings.HasPrefix(line, "staticPodPath:") {
			fmt.Println(line)
		}
	}
	// Output:
	// maxPods: 110
	// staticPodPath: /etc/kubernetes/manifests
}

// Compare what several kubelet minors do with the same files.
func ExampleSkew() {
	s, err := kubeletcfg.Skew(kubeletcfg.Options{
		Config:    "testdata/examples/node/config.yaml",
		ConfigDir: "testdata/examples/node/conf.d",
		Versions:  "1.34..1.37",
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range s.Matrix.Columns {
		fmt.Println(c.Minor.Version, "starts:", c.Result.Starts)
	}
	// Output:
	// 1.34 starts: true
	// 1.35 starts: false
	// 1.36 starts: false
	// 1.37 starts: false
}

// What changes for a node pool moving from kubelet 1.33 to 1.37.
func ExamplePreflight() {
	p, err := kubeletcfg.Preflight(kubeletcfg.Options{
		Config:    "testdata/examples/node/config.yaml",
		ConfigDir: "testdata/examples/node/conf.d",
		From:      "1.33",
		To:        "1.37",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("1.33 starts:", p.From.Result.Starts)
	fmt.Println("1.37 starts:", p.To.Result.Starts)
	// Output:
	// 1.33 starts: true
	// 1.37 starts: false
}

// Lint a folder of nodes (a folder per node, or a file per node: configz
// dumps here), grouping the nodes the kubelet treats alike.
func ExampleNodes() {
	l, err := kubeletcfg.Nodes("testdata/inputs/nodes", kubeletcfg.Options{KubeletVersion: "1.37"})
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range l.Reports[0].Groups {
		fmt.Printf("%s: starts %v\n", strings.Join(g.Nodes, ", "), g.Document.Starts)
	}
	for _, e := range l.Reports[0].Errors {
		fmt.Printf("%s: could not be read\n", e.Node)
	}
	// Output:
	// pool-a-1, pool-a-2, pool-a-3: starts true
	// pool-b-1, pool-b-2: starts true
	// pool-a-4: starts false
	// broken: could not be read
}

// Lint several main files, each as its own node, and print the summary
// `kubeletcfg lint PATH PATH...` ends with.
func ExampleLint_paths() {
	linted, err := kubeletcfg.Lint(kubeletcfg.Options{KubeletVersion: "1.37", Paths: []string{
		"testdata/examples/node/config.yaml",
		"testdata/no-such-node.yaml",
	}})
	if err != nil {
		log.Fatal(err)
	}
	l := linted.Several.(*kubeletcfg.LintedPaths)
	for _, r := range l.Report.Reports {
		fmt.Println(r.Path, "starts:", r.Starts)
	}
	for _, e := range l.Report.Errors {
		fmt.Println(e.Path, "could not be read")
	}
	// Output:
	// testdata/examples/node/config.yaml starts: true
	// testdata/no-such-node.yaml could not be read
}

// Play out the crash-loop backoff a kubelet would apply, and say whether the
// kubelet would start at all (the verdict's count, as exit code 1).
func ExampleBackoff() {
	b, err := kubeletcfg.Backoff(kubeletcfg.Options{
		Config:   "testdata/examples/node/config.yaml",
		Versions: "1.34,1.37",
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range b.Entries {
		fmt.Println(e.KubeletVersion, "starts:", e.Starts)
	}
	fmt.Println("would not start:", b.CountAtLeast(finding.Error))
	// Output:
	// 1.34 starts: true
	// 1.37 starts: true
	// would not start: 0
}

// Plan the repairs that need no guess and print them as a diff, writing
// nothing: the diff on standard output, the list of repairs on the log.
func ExampleFix() {
	f, err := kubeletcfg.Fix(kubeletcfg.Options{
		Config:         "testdata/examples/node/config.yaml",
		KubeletVersion: "1.37",
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := f.Write(os.Stdout, "diff", report.Options{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("failures:", f.CountAtLeast(finding.Error))
	// Output:
	// --- a/testdata/examples/node/config.yaml
	// +++ b/testdata/examples/node/config.yaml
	// @@ -17,5 +17,5 @@
	//  rotateCertificates: true
	//  staticPodPath: /etc/kubernetes/manifests
	//  maxPod: 200            # misspelled: silently dropped, maxPods stays 110
	// -crashloopbackoff:      # the KEP-4603 draft name: silently dropped
	// -  maxSeconds: 30
	// +crashLoopBackOff:      # the KEP-4603 draft name: silently dropped
	// +  maxContainerRestartPeriod: 30s
	// failures: 0
}

// Describe a field at a kubelet minor, as `kubeletcfg explain` does.
func ExampleExplain() {
	r, err := kubeletcfg.Explain(kubeletcfg.Options{KubeletVersion: "1.37"}, "crashLoopBackOff.maxContainerRestartPeriod")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Path, r.Type)
	// Output:
	// crashLoopBackOff.maxContainerRestartPeriod duration
}

// Read `--cgroup-version`: v1, v2, 1 or 2.
func ExampleParseCgroup() {
	for _, s := range []string{"v1", "2", "cgroup2"} {
		v, err := kubeletcfg.ParseCgroup(s)
		fmt.Println(v, err)
	}
	// Output:
	// 1 <nil>
	// 2 <nil>
	// 0 Options.CgroupVersion must be v1 or v2, not "cgroup2"
}

// Read a `--kubelet-version` where one minor is expected: a patch release is
// its minor, and a list or a range gets the hint naming what takes several.
func ExampleLookupMinor() {
	m, err := kubeletcfg.LookupMinor("v1.37.2", "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Version)
	_, err = kubeletcfg.LookupMinor("1.34..1.37", "compare several minors with kubeletcfg skew --versions %s")
	fmt.Println(err)
	// Output:
	// 1.37
	// Options.KubeletVersion takes one minor, not "1.34..1.37": compare several minors with kubeletcfg skew --versions 1.34..1.37
}

// Lint a node with and without its repository's policy (.kubeletcfg.yaml):
// the policy re-grades rules (KC2006 fails CI, KC2001 is a warning, KC3005
// is off) and leaves out the image vendor's drop-in.
func ExampleLoadPolicy() {
	p, err := kubeletcfg.LoadPolicy("testdata/policy/repo/.kubeletcfg.yaml")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("kubeletVersion:", p.KubeletVersion, "versions:", p.Versions, "failOn:", p.FailOn)
	for _, pol := range []*policy.Policy{nil, p} {
		l, err := kubeletcfg.Lint(kubeletcfg.Options{
			Config:         "testdata/policy/repo/config.yaml",
			ConfigDir:      "testdata/policy/repo/conf.d",
			KubeletVersion: "1.35",
			Policy:         pol,
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("policy:", pol != nil)
		for _, f := range l.Report.Findings {
			fmt.Println(" ", f.Rule, f.Severity, f.Position.File)
		}
	}
	_, err = kubeletcfg.LoadPolicy("testdata/policy/bad/unknown-key.yaml")
	fmt.Println(err)
	// Output:
	// kubeletVersion: 1.35 versions: 1.34..1.37 failOn: warning
	// policy: false
	//   KC2006 warning testdata/policy/repo/conf.d/50-reserved.conf
	//   KC2001 info testdata/policy/repo/conf.d/60-old.conf.bak
	//   KC2005 warning testdata/policy/repo/conf.d/90-vendor.conf
	//   KC3005 warning testdata/policy/repo/config.yaml
	// policy: true
	//   KC2006 error testdata/policy/repo/conf.d/50-reserved.conf
	//   KC2001 warning testdata/policy/repo/conf.d/60-old.conf.bak
	// testdata/policy/bad/unknown-key.yaml:2: unknown key "failon"; did you mean "failOn"?
}

// The one minor lint evaluates at under a policy: its kubeletVersion, else
// the newest minor of its versions window; "" when it names neither.
func ExamplePolicyMinor() {
	for _, file := range []string{"testdata/policy/repo/.kubeletcfg.yaml", "testdata/policy/quiet.yaml"} {
		p, err := kubeletcfg.LoadPolicy(file)
		if err != nil {
			log.Fatal(err)
		}
		v, err := kubeletcfg.PolicyMinor(p)
		fmt.Printf("%s: %q %v\n", file, v, err)
	}
	v, err := kubeletcfg.PolicyMinor(&policy.Policy{Versions: "1.33,1.36"})
	fmt.Printf("versions 1.33,1.36: %q %v\n", v, err)
	// Output:
	// testdata/policy/repo/.kubeletcfg.yaml: "1.35" <nil>
	// testdata/policy/quiet.yaml: "" <nil>
	// versions 1.33,1.36: "1.36" <nil>
}

// Print a minor's JSON Schema (`kubeletcfg schema`) and read it as an
// editor or a validator would: a closed object whose fields are the minor's
// (crashLoopBackOff first appears in 1.32).
func ExampleSchema() {
	for _, v := range []string{"1.31", "1.37"} {
		var b bytes.Buffer
		if err := kubeletcfg.Schema(&b, kubeletcfg.SchemaRequest{KubeletVersion: v, KubeletVersionSet: true}); err != nil {
			log.Fatal(err)
		}
		var s struct {
			Title                string
			Required             []string
			AdditionalProperties bool
			Properties           map[string]struct{ Type any }
		}
		if err := json.Unmarshal(b.Bytes(), &s); err != nil {
			log.Fatal(err)
		}
		_, clbo := s.Properties["crashLoopBackOff"]
		fmt.Println(s.Title)
		fmt.Println("  required:", s.Required, "additionalProperties:", s.AdditionalProperties)
		fmt.Println("  maxPods:", s.Properties["maxPods"].Type, "crashLoopBackOff:", clbo)
	}
	err := kubeletcfg.Schema(io.Discard, kubeletcfg.SchemaRequest{KubeletVersion: "1.37", Force: true})
	fmt.Println(err)
	// Output:
	// KubeletConfiguration (kubelet.config.k8s.io/v1beta1) of kubelet 1.31
	//   required: [apiVersion kind] additionalProperties: false
	//   maxPods: integer crashLoopBackOff: false
	// KubeletConfiguration (kubelet.config.k8s.io/v1beta1) of kubelet 1.37
	//   required: [apiVersion kind] additionalProperties: false
	//   maxPods: integer crashLoopBackOff: true
	// Options.Force only applies with Options.Kubeconform
}

// Check a drop-in before writing it (`kubeletcfg dropin new --dry-run`): at
// every minor of the window, the new file sorts before 90-site.conf, which
// sets the same eviction threshold, so the kubelet would not run with the
// new value and the file is refused.
func ExampleDropInNew() {
	r, err := kubeletcfg.DropInNew(kubeletcfg.Options{
		Config:    "testdata/dropin/node/config.yaml",
		ConfigDir: "testdata/dropin/node/conf.d",
		Versions:  "1.34..1.37",
	}, author.NewRequest{
		Name:   "50-pods.conf",
		Sets:   []string{"maxPods=50", "evictionHard[memory.available]=200Mi"},
		DryRun: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("refused by:", r.Refused, "written:", r.Written)
	fmt.Print(r.Content)
	v := r.Verdicts[len(r.Verdicts)-1] // the newest minor's
	fmt.Println("kubelet", v.Minor, "starts:", v.Starts)
	for _, a := range v.Applied {
		if a.Holds() {
			fmt.Printf("  %s = %v\n", a.Path, a.Got)
		} else {
			fmt.Printf("  %s = %v, not %v: overridden by %s\n", a.Path, a.Got, a.Want, a.OverriddenBy)
		}
	}
	// Output:
	// refused by: [1.34 1.35 1.36 1.37] written: false
	// # Written by kubeletcfg dropin new; checked against kubelet 1.34, 1.35, 1.36, 1.37.
	// # Drop-ins merge in lexical order of their paths: a later file overrides these keys.
	//
	// apiVersion: kubelet.config.k8s.io/v1beta1
	// kind: KubeletConfiguration
	// maxPods: 50
	// evictionHard:
	//   memory.available: 200Mi
	// kubelet 1.37 starts: true
	//   evictionHard[memory.available] = 500Mi, not 200Mi: overridden by testdata/dropin/node/conf.d/90-site.conf
	//   maxPods = 50
}

// Compute the drop-in that turns what a node runs into the desired
// configuration (`kubeletcfg dropin diff`), checked at each minor: the
// desired file turns on a gate kubelet 1.31 does not have, so a window that
// includes 1.31 fails.
func ExampleDropInDiff() {
	for _, versions := range []string{"1.32..1.37", "1.31..1.37"} {
		r, err := kubeletcfg.DropInDiff(kubeletcfg.Options{Versions: versions}, author.DiffRequest{
			From: []string{"testdata/dropin/node/config.yaml", "testdata/dropin/node/conf.d"},
			To:   "testdata/dropin/golden.yaml",
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("checked:", r.Checked, "keys:", r.Keys, "written:", r.Written)
		for _, f := range r.Failures {
			fmt.Println("failure:", f)
		}
		if len(r.Failures) == 0 {
			fmt.Print(string(r.Content))
		}
	}
	// Output:
	// checked: [1.32 1.33 1.34 1.35 1.36 1.37] keys: 7 written: false
	// # Written by kubeletcfg dropin diff: merged after the current files, it gives testdata/dropin/golden.yaml.
	// # Checked against kubelet 1.32, 1.33, 1.34, 1.35, 1.36, 1.37.
	//
	// apiVersion: kubelet.config.k8s.io/v1beta1
	// kind: KubeletConfiguration
	// clusterDNS:
	//   - 10.96.0.10
	//   - 10.96.0.11
	// crashLoopBackOff:
	//   maxContainerRestartPeriod: 1m0s
	// evictionHard:
	//   imagefs.available: null
	//   imagefs.inodesFree: null
	//   nodefs.available: null
	//   nodefs.inodesFree: null
	// featureGates:
	//   KubeletCrashLoopBackOffMax: true
	// kubeReserved: null
	// maxPods: 200
	// serializeImagePulls: false
	// checked: [1.31 1.32 1.33 1.34 1.35 1.36 1.37] keys: 7 written: false
	// failure: kubelet 1.31: DiffRequest.To: kubelet 1.31 would not start with it (testdata/dropin/golden.yaml:23:3 KC3001: unknown feature gate "KubeletCrashLoopBackOffMax": the kubelet refuses to start); kubeletcfg lint shows why
}

// Lint a kind cluster file whose nodes get different kubelet configurations:
// the one-kubelet verbs refuse to pick one (KindNodesError), Lint checks each
// (the first worker's healthzPort 70000 is out of range).
func ExampleLint_kindNodes() {
	opt := kubeletcfg.Options{Config: "testdata/inputs/kind.yaml", KubeletVersion: "1.37"}
	_, err := kubeletcfg.Effective(opt)
	var several *kubeletcfg.KindNodesError
	if !errors.As(err, &several) {
		log.Fatalf("Effective: %v", err)
	}
	fmt.Println(several.Groups)
	linted, err := kubeletcfg.Lint(opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range linted.Several.(*kubeletcfg.LintedPaths).Report.Reports {
		fmt.Println(r.KindNodes, "starts:", r.Starts)
	}
	// Output:
	// [[dev-control-plane] [dev-worker] [dev-worker2]]
	// [dev-control-plane] starts: true
	// [dev-worker] starts: false
	// [dev-worker2] starts: true
}

// Lint takes what `kubeletcfg lint` takes: several paths, a folder of nodes,
// or one node's files.
func ExampleLint_inputs() {
	for _, opt := range []kubeletcfg.Options{
		{Paths: []string{"testdata/examples/node/config.yaml", "testdata/inputs/kubelet-config.yaml"}},
		{Nodes: "testdata/inputs/nodes"},
		{Config: "testdata/examples/node/config.yaml"},
	} {
		opt.KubeletVersion = "1.37"
		l, err := kubeletcfg.Lint(opt)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%T\n", l.Several)
	}
	// Output:
	// *kubeletcfg.LintedPaths
	// *kubeletcfg.LintedNodes
	// <nil>
}

// Write a verdict and turn it into the command's exit code: a
// *FindingsError (exit code 1) when findings are at or above the threshold.
func ExampleFailOn() {
	l, err := kubeletcfg.Lint(kubeletcfg.Options{
		Config:         "node.yaml",
		KubeletVersion: "1.37",
		ConfigData:     []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: -1\n"),
	})
	if err != nil {
		log.Fatal(err)
	}
	err = kubeletcfg.FailOn(os.Stdout, l, "text", report.Options{Quiet: true}, finding.Error)
	var fe *kubeletcfg.FindingsError
	fmt.Printf("--fail-on error: exit code 1: %v (%v)\n", errors.As(err, &fe), err)
	err = kubeletcfg.FailOn(io.Discard, l, "text", report.Options{}, -1)
	fmt.Printf("--fail-on none: %v\n", err)
	// Output:
	// node.yaml
	// node.yaml:3:1: error: maxPods is -1; it must not be negative [KC4025]
	//     field: maxPods
	//     hint:  set maxPods to 0 or more, or remove it to use the default
	//     kubelet: invalid configuration: maxPods (--max-pods) -1 must not be a negative number
	//
	// kubelet 1.37: does NOT start: the kubelet refuses this configuration
	// --fail-on error: exit code 1: true (1 findings at or above --fail-on)
	// --fail-on none: <nil>
}

// Count the findings of each group of alike nodes, as examples/lintdir does.
func ExampleCountAtLeast() {
	l, err := kubeletcfg.Nodes("testdata/inputs/nodes", kubeletcfg.Options{KubeletVersion: "1.37"})
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range l.Reports[0].Groups {
		fmt.Printf("%s: %d errors, %d warnings or worse\n", strings.Join(g.Nodes, ", "),
			kubeletcfg.CountAtLeast(g.Document.Findings, finding.Error),
			kubeletcfg.CountAtLeast(g.Document.Findings, finding.Warning))
	}
	// Output:
	// pool-a-1, pool-a-2, pool-a-3: 0 errors, 1 warnings or worse
	// pool-b-1, pool-b-2: 0 errors, 0 warnings or worse
	// pool-a-4: 1 errors, 2 warnings or worse
}

// Find the kubelet on a host and what it starts from (`kubeletcfg discover`):
// its command line read from /proc, traced back to the systemd unit and
// environment files that give it, and its --config read under the host
// root. The host is kubeadm's deb layout (testdata/hosts/kubeadm-deb), and
// its /proc a folder laid out here with one kubelet process.
func ExampleDiscover() {
	proc, err := os.MkdirTemp("", "proc")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(proc)
	args := []string{
		"/usr/bin/kubelet",
		"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf",
		"--kubeconfig=/etc/kubernetes/kubelet.conf",
		"--config=/var/lib/kubelet/config.yaml",
		"--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock",
		"--node-ip=10.0.0.11",
		"--pod-infra-container-image=registry.k8s.io/pause:3.10",
	}
	for name, content := range map[string]string{
		"1/comm":     "systemd\n",
		"1/cmdline":  "/sbin/init\x00",
		"42/comm":    "kubelet\n",
		"42/cmdline": strings.Join(args, "\x00") + "\x00",
	} {
		if err := os.MkdirAll(filepath.Join(proc, filepath.Dir(name)), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proc, name), []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	k, err := kubeletcfg.Discover(kubeletcfg.Options{Host: discover.Options{HostRoot: "testdata/hosts/kubeadm-deb", ProcRoot: proc}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("pid", k.PID, k.Exe, "arguments from the", k.ArgsFrom, k.Unit.Name)
	for _, f := range k.Flags {
		fmt.Println(" ", f.Arg, "from", f.From)
	}
	fmt.Println("--config", k.Config.Path, "read at", k.Config.Read)
	// Output:
	// pid 42 /usr/bin/kubelet arguments from the unit kubelet.service
	//   --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf from /usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf:5:1
	//   --kubeconfig=/etc/kubernetes/kubelet.conf from /usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf:5:1
	//   --config=/var/lib/kubelet/config.yaml from /usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf:6:1
	//   --container-runtime-endpoint=unix:///var/run/containerd/containerd.sock from /var/lib/kubelet/kubeadm-flags.env:1:1
	//   --node-ip=10.0.0.11 from /var/lib/kubelet/kubeadm-flags.env:1:1
	//   --pod-infra-container-image=registry.k8s.io/pause:3.10 from /var/lib/kubelet/kubeadm-flags.env:1:1
	// --config /var/lib/kubelet/config.yaml read at testdata/hosts/kubeadm-deb/var/lib/kubelet/config.yaml
}

// The minors a verb evaluates, the one rule every command follows: a
// --versions range or list, or the window a --control-plane minor supports,
// wins over --kubelet-version, which names one minor.
func ExampleOptions_Minors() {
	for _, o := range []kubeletcfg.Options{
		{Versions: "1.34..1.37"},
		{Versions: "1.33,1.37", KubeletVersion: "1.36"},
		{ControlPlane: "1.37"},
		{KubeletVersion: "v1.37.2-eks-abc"},
		{KubeletVersion: "1.35,1.37"},
	} {
		minors, err := o.Minors(kubeletcfg.DefaultMinor)
		if err != nil {
			fmt.Println(err)
			continue
		}
		var names []string
		for _, m := range minors {
			names = append(names, m.Version)
		}
		fmt.Println(strings.Join(names, " "))
	}
	// Output:
	// 1.34 1.35 1.36 1.37
	// 1.33 1.37
	// 1.34 1.35 1.36 1.37
	// 1.37
	// Options.KubeletVersion takes one minor, not "1.35,1.37": use --versions 1.35,1.37
}

// Check `kubeletcfg lint`'s positional paths before any is read: a folder
// is drop-ins or a pool of nodes, and which one is the user's to say.
func ExampleOptions_CheckPaths() {
	fmt.Println(kubeletcfg.Options{}.CheckPaths("lint", []string{"testdata/examples/node/config.yaml", "testdata/inputs/kubelet-config.yaml"}, ""))
	fmt.Println(kubeletcfg.Options{}.CheckPaths("lint", []string{"testdata/examples/node/conf.d"}, ""))
	fmt.Println(kubeletcfg.Options{Config: "node.yaml"}.CheckPaths("lint", []string{"testdata/examples/node/config.yaml"}, ""))
	// Output:
	// <nil>
	// testdata/examples/node/conf.d is a folder: lint takes files; drop-ins of a main file are Options.ConfigDir testdata/examples/node/conf.d, a folder of nodes is Options.Nodes testdata/examples/node/conf.d
	// testdata/examples/node/config.yaml and Options.Config node.yaml both name the main file: give one of them
}
