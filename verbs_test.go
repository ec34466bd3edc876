package kubeletcfg

import "testing"

// TestVerbErrors: bad options are the command's usage errors, word for
// word, and good ones evaluate.
func TestVerbErrors(t *testing.T) {
	node := benchNode
	with := func(f func(*Options)) Options {
		o := node
		f(&o)
		return o
	}
	lint := func(o Options) error { _, err := Lint(o); return err }
	skew := func(o Options) error { _, err := Skew(o); return err }
	preflight := func(o Options) error { _, err := Preflight(o); return err }
	nodes := func(o Options) error { _, err := Nodes("testdata/examples", o); return err }
	for _, tt := range []struct {
		name string
		verb func(Options) error
		opt  Options
		err  string
	}{
		{"lint", lint, node, ""},
		{"lint at several minors", lint, with(func(o *Options) { o.KubeletVersion = "1.31,1.37" }),
			`--kubelet-version takes one minor, not "1.31,1.37": compare several minors with kubeletcfg skew --versions 1.31,1.37`},
		{"lint with an unknown profile", lint, with(func(o *Options) { o.Profile = "PCI" }), `unknown profile "pci" (want one of cis)`},
		{"lint with a profile", lint, with(func(o *Options) { o.Profile = "CIS" }), ""},
		{"skew", skew, with(func(o *Options) { o.Versions = "1.35..1.37" }), ""},
		{"skew over an unknown range", skew, with(func(o *Options) { o.Versions = "1.35..1.99" }),
			`--versions: unsupported kubelet version "1.99" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)`},
		{"preflight", preflight, with(func(o *Options) { o.From = "1.33" }), ""},
		{"preflight without --from", preflight, node,
			"--from is required: the kubelet minor the node pool runs now (--discover reads it from the running kubelet)"},
		{"nodes", nodes, Options{}, ""},
		{"nodes with a main file", nodes, node, "--nodes reads each node's files from its folder; it cannot be combined with --config or --config-dir"},
		{"nodes at several minors", nodes, Options{KubeletVersion: "1.35..1.37"},
			`--kubelet-version takes one minor, not "1.35..1.37": compare several minors with kubeletcfg skew --versions 1.35..1.37, or lint --nodes --versions 1.35..1.37`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.verb(tt.opt)
			switch {
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err != "" && (err == nil || CommandWords(err) != tt.err):
				t.Fatalf("error %v\nwant %s", err, tt.err)
			}
		})
	}
}
