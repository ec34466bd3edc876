package source

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

const header = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

// wantKey is what a test expects of one key; zero fields are not checked except
// Kind, Path and the position.
type wantKey struct {
	Kind        KeyKind
	Path        string
	WrittenPath string // checked when set
	Line, Col   int
	Suggest     string // checked when set (use "-" for "no suggestion")
	WinnerLine  int    // checked for duplicates
	Null        bool
	Value       string // checked when set
}

func (w wantKey) String() string {
	return fmt.Sprintf("%v %s @%d:%d", w.Kind, w.Path, w.Line, w.Col)
}

func (k KeyKind) String() string {
	switch k {
	case KeyExact:
		return "exact"
	case KeyCase:
		return "case"
	case KeyUnknown:
		return "unknown"
	case KeyDuplicate:
		return "duplicate"
	}
	return fmt.Sprintf("KeyKind(%d)", int(k))
}

func walkString(t testing.TB, doc string, mode Mode) []Key {
	t.Helper()
	f := Parse("cfg.yaml", []byte(doc))
	if f.SyntaxErr != nil {
		t.Fatalf("parse: %v", f.SyntaxErr)
	}
	return Walk(f, kubelets.Tree(), mode)
}

// findKey returns the keys at path (several for duplicates and shadowed spellings).
func findKeys(keys []Key, path string) []Key {
	var out []Key
	for _, k := range keys {
		if k.Path == path {
			out = append(out, k)
		}
	}
	return out
}

// withoutHeader drops the apiVersion and kind keys of the header.
func withoutHeader(keys []Key) []Key {
	var out []Key
	for _, k := range keys {
		if k.Pos.Line <= 2 && (k.Path == "apiVersion" || k.Path == "kind") {
			continue
		}
		out = append(out, k)
	}
	return out
}

func checkKey(t *testing.T, got Key, w wantKey) {
	t.Helper()
	if got.Kind != w.Kind {
		t.Errorf("%s: kind %v, want %v", w.Path, got.Kind, w.Kind)
	}
	if got.Pos != (finding.Position{File: "cfg.yaml", Line: w.Line, Column: w.Col}) {
		t.Errorf("%s: position %v, want cfg.yaml:%d:%d", w.Path, got.Pos, w.Line, w.Col)
	}
	wp := w.WrittenPath
	if wp == "" {
		wp = w.Path
	}
	if got.WrittenPath != wp {
		t.Errorf("%s: written path %q, want %q", w.Path, got.WrittenPath, wp)
	}
	switch w.Suggest {
	case "":
	case "-":
		if got.Suggest != "" {
			t.Errorf("%s: suggestion %q, want none", w.Path, got.Suggest)
		}
	default:
		if got.Suggest != w.Suggest {
			t.Errorf("%s: suggestion %q, want %q", w.Path, got.Suggest, w.Suggest)
		}
	}
	if w.Kind == KeyDuplicate && got.Winner.Line != w.WinnerLine {
		t.Errorf("%s: winner at line %d, want %d", w.Path, got.Winner.Line, w.WinnerLine)
	}
	if got.Null != w.Null {
		t.Errorf("%s: null %v, want %v", w.Path, got.Null, w.Null)
	}
	if w.Value != "" && got.Value != w.Value {
		t.Errorf("%s: value %q, want %q", w.Path, got.Value, w.Value)
	}
	if (got.Kind == KeyExact || got.Kind == KeyCase) && got.Field == nil {
		t.Errorf("%s: no field for a %v key", w.Path, got.Kind)
	}
	if got.Kind == KeyUnknown && got.Field != nil {
		t.Errorf("%s: unknown key has field %s", w.Path, got.Field.Name)
	}
}

func TestWalk(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		mode Mode
		want []wantKey
		// absent paths must not be reported (subtrees the decoder drops).
		absent []string
	}{
		{
			name: "exact keys",
			doc:  header + "maxPods: 50\nauthentication:\n  x509:\n    clientCAFile: /etc/ca.crt\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "apiVersion", Line: 1, Col: 1, Value: "kubelet.config.k8s.io/v1beta1"},
				{Kind: KeyExact, Path: "kind", Line: 2, Col: 1},
				{Kind: KeyExact, Path: "maxPods", Line: 3, Col: 1, Value: "50"},
				{Kind: KeyExact, Path: "authentication", Line: 4, Col: 1},
				{Kind: KeyExact, Path: "authentication.x509", Line: 5, Col: 3},
				{Kind: KeyExact, Path: "authentication.x509.clientCAFile", Line: 6, Col: 5, Value: "/etc/ca.crt"},
			},
		},
		{
			name: "flow style positions",
			doc:  header + "authentication: {webhook: {enabled: true, cacheTTL: 1m}}\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "authentication", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "authentication.webhook", Line: 3, Col: 18},
				{Kind: KeyExact, Path: "authentication.webhook.enabled", Line: 3, Col: 28, Value: "true"},
				{Kind: KeyExact, Path: "authentication.webhook.cacheTTL", Line: 3, Col: 43, Value: "1m"},
			},
		},
		{
			name: "case-only key strict: reported, not entered",
			doc:  header + "MaxPods: 50\nAuthentication:\n  x509:\n    clientCAFile: /a\n",
			mode: Strict,
			want: []wantKey{
				{Kind: KeyCase, Path: "maxPods", WrittenPath: "MaxPods", Line: 3, Col: 1, Suggest: "maxPods"},
				{Kind: KeyCase, Path: "authentication", WrittenPath: "Authentication", Line: 4, Col: 1, Suggest: "authentication"},
			},
			absent: []string{"authentication.x509", "authentication.x509.clientCAFile"},
		},
		{
			name: "case-only key fold: entered, written path kept",
			doc:  header + "Authentication:\n  X509:\n    clientCAFile: /a\n",
			mode: Fold,
			want: []wantKey{
				{Kind: KeyCase, Path: "authentication", WrittenPath: "Authentication", Line: 3, Col: 1, Suggest: "authentication"},
				{Kind: KeyCase, Path: "authentication.x509", WrittenPath: "Authentication.X509", Line: 4, Col: 3, Suggest: "x509"},
				{Kind: KeyExact, Path: "authentication.x509.clientCAFile", WrittenPath: "Authentication.X509.clientCAFile", Line: 5, Col: 5},
			},
		},
		{
			name: "unknown keys with did-you-mean",
			doc:  header + "maxPod: 5\nauthentication:\n  x509:\n    clientCAFil: /a\nzzzqqq: 1\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "maxPod", Line: 3, Col: 1, Suggest: "maxPods"},
				{Kind: KeyExact, Path: "authentication", Line: 4, Col: 1},
				{Kind: KeyExact, Path: "authentication.x509", Line: 5, Col: 3},
				{Kind: KeyUnknown, Path: "authentication.x509.clientCAFil", Line: 6, Col: 5, Suggest: "clientCAFile"},
				{Kind: KeyUnknown, Path: "zzzqqq", Line: 7, Col: 1, Suggest: "-"},
			},
		},
		{
			name: "unknown subtree not entered",
			doc:  header + "x:\n  maxPods: 1\n  y: {z: 1}\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "x", Line: 3, Col: 1},
			},
			absent: []string{"x.maxPods", "x.y", "maxPods"},
		},
		{
			name: "duplicate top-level",
			doc:  header + "maxPods: 10\nmaxPods: 20\n",
			want: []wantKey{
				{Kind: KeyDuplicate, Path: "maxPods", Line: 3, Col: 1, WinnerLine: 4, Value: "10"},
				{Kind: KeyExact, Path: "maxPods", Line: 4, Col: 1, Value: "20"},
			},
		},
		{
			name: "duplicate nested",
			doc:  header + "logging:\n  verbosity: 1\n  format: text\n  verbosity: 2\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "logging", Line: 3, Col: 1},
				{Kind: KeyDuplicate, Path: "logging.verbosity", Line: 4, Col: 3, WinnerLine: 6},
				{Kind: KeyExact, Path: "logging.format", Line: 5, Col: 3},
				{Kind: KeyExact, Path: "logging.verbosity", Line: 6, Col: 3, Value: "2"},
			},
		},
		{
			name: "duplicate in a map",
			doc:  header + "evictionHard:\n  memory.available: 100Mi\n  nodefs.available: 10%\n  memory.available: 200Mi\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "evictionHard", Line: 3, Col: 1},
				{Kind: KeyDuplicate, Path: "evictionHard[memory.available]", Line: 4, Col: 3, WinnerLine: 6, Value: "100Mi"},
				{Kind: KeyExact, Path: "evictionHard[nodefs.available]", Line: 5, Col: 3},
				{Kind: KeyExact, Path: "evictionHard[memory.available]", Line: 6, Col: 3, Value: "200Mi"},
			},
		},
		{
			name: "duplicate of an unknown key",
			doc:  header + "maxPod: 1\nmaxPod: 2\n",
			want: []wantKey{
				{Kind: KeyDuplicate, Path: "maxPod", Line: 3, Col: 1, WinnerLine: 4},
				{Kind: KeyUnknown, Path: "maxPod", Line: 4, Col: 1, Suggest: "maxPods"},
			},
		},
		{
			name: "different case is not a duplicate (fold)",
			doc:  header + "maxPods: 10\nMaxPods: 20\n",
			mode: Fold,
			want: []wantKey{
				{Kind: KeyExact, Path: "maxPods", Line: 3, Col: 1},
				{Kind: KeyCase, Path: "maxPods", WrittenPath: "MaxPods", Line: 4, Col: 1},
			},
		},
		{
			name: "map keys",
			doc:  header + "featureGates:\n  NodeSwap: true\n  nodeswap: false\n  'Odd Key': true\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "featureGates", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "featureGates[NodeSwap]", Line: 4, Col: 3, Value: "true"},
				{Kind: KeyExact, Path: "featureGates[nodeswap]", Line: 5, Col: 3, Value: "false"},
				{Kind: KeyExact, Path: "featureGates[Odd Key]", Line: 6, Col: 3},
			},
		},
		{
			name: "map keys keep their case in fold mode",
			doc:  header + "FeatureGates:\n  NodeSwap: true\n",
			mode: Fold,
			want: []wantKey{
				{Kind: KeyCase, Path: "featureGates", WrittenPath: "FeatureGates", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "featureGates[NodeSwap]", WrittenPath: "FeatureGates[NodeSwap]", Line: 4, Col: 3},
			},
		},
		{
			name: "list of objects with a map",
			doc: header + "reservedMemory:\n- numaNode: 0\n  limits:\n    memory: 1Gi\n- numaNode: 1\n  limitz: {memory: 2Gi}\n" +
				"  limits: {memory: 2Gi, hugepages-1Gi: 1Gi}\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "reservedMemory", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "reservedMemory[0].numaNode", Line: 4, Col: 3, Value: "0"},
				{Kind: KeyExact, Path: "reservedMemory[0].limits", Line: 5, Col: 3},
				{Kind: KeyExact, Path: "reservedMemory[0].limits[memory]", Line: 6, Col: 5, Value: "1Gi"},
				{Kind: KeyExact, Path: "reservedMemory[1].numaNode", Line: 7, Col: 3, Value: "1"},
				{Kind: KeyUnknown, Path: "reservedMemory[1].limitz", Line: 8, Col: 3, Suggest: "limits"},
				{Kind: KeyExact, Path: "reservedMemory[1].limits", Line: 9, Col: 3},
				{Kind: KeyExact, Path: "reservedMemory[1].limits[memory]", Line: 9, Col: 12},
				{Kind: KeyExact, Path: "reservedMemory[1].limits[hugepages-1Gi]", Line: 9, Col: 25},
			},
		},
		{
			name: "list of scalars has no keys",
			doc:  header + "clusterDNS: [10.0.0.10, 10.0.0.11]\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "clusterDNS", Line: 3, Col: 1},
			},
			absent: []string{"clusterDNS[0]"},
		},
		{
			name: "null values",
			doc:  header + "staticPodPath: null\nproviderID: ~\nresolvConf:\nfeatureGates: null\nevictionHard:\n  memory.available: null\nmaxPods: 'null'\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "staticPodPath", Line: 3, Col: 1, Null: true},
				{Kind: KeyExact, Path: "providerID", Line: 4, Col: 1, Null: true},
				{Kind: KeyExact, Path: "resolvConf", Line: 5, Col: 1, Null: true},
				{Kind: KeyExact, Path: "featureGates", Line: 6, Col: 1, Null: true},
				{Kind: KeyExact, Path: "evictionHard", Line: 7, Col: 1},
				{Kind: KeyExact, Path: "evictionHard[memory.available]", Line: 8, Col: 3, Null: true},
				{Kind: KeyExact, Path: "maxPods", Line: 9, Col: 1, Null: false, Value: "null"},
			},
		},
		{
			name: "alias of a mapping",
			doc:  header + "x: &gates\n  NodeSwap: true\nfeatureGates: *gates\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "x", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "featureGates", Line: 5, Col: 1},
				// the key sits where the anchor defines it
				{Kind: KeyExact, Path: "featureGates[NodeSwap]", Line: 4, Col: 3, Value: "true"},
			},
			absent: []string{"x.NodeSwap"},
		},
		{
			name: "alias of a scalar",
			doc:  header + "x: &n 42\nmaxPods: *n\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "x", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "maxPods", Line: 4, Col: 1, Value: "42"},
			},
		},
		{
			name: "merge key",
			doc:  header + "x: &base\n  enabled: true\n  cacheTTL: 1m\nauthentication:\n  webhook:\n    <<: *base\n    cacheTTL: 2m\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "x", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "authentication", Line: 6, Col: 1},
				{Kind: KeyExact, Path: "authentication.webhook", Line: 7, Col: 3},
				{Kind: KeyExact, Path: "authentication.webhook.enabled", Line: 4, Col: 3, Value: "true"},
				{Kind: KeyDuplicate, Path: "authentication.webhook.cacheTTL", Line: 5, Col: 3, WinnerLine: 9, Value: "1m"},
				{Kind: KeyExact, Path: "authentication.webhook.cacheTTL", Line: 9, Col: 5, Value: "2m"},
			},
		},
		{
			name: "merge key list and unknown merged key",
			doc:  header + "a: &a {enabled: true}\nb: &b {mode: Webhook, bogus: 1}\nauthorization:\n  <<: [*a, *b]\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "a", Line: 3, Col: 1},
				{Kind: KeyUnknown, Path: "b", Line: 4, Col: 1},
				{Kind: KeyExact, Path: "authorization", Line: 5, Col: 1},
				{Kind: KeyUnknown, Path: "authorization.enabled", Line: 3, Col: 8},
				{Kind: KeyExact, Path: "authorization.mode", Line: 4, Col: 8, Value: "Webhook"},
				{Kind: KeyUnknown, Path: "authorization.bogus", Line: 4, Col: 23},
			},
		},
		{
			name: "a map merged twice is reported once",
			doc:  header + "a: &a {cpu: \"1\", memory: 1Gi}\nsystemReserved: {<<: [*a, *a, *a], pid: \"5\"}\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "a", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "systemReserved", Line: 4, Col: 1},
				{Kind: KeyDuplicate, Path: "systemReserved[cpu]", Line: 3, Col: 8, WinnerLine: 3, Value: "1"},
				{Kind: KeyDuplicate, Path: "systemReserved[memory]", Line: 3, Col: 18, WinnerLine: 3, Value: "1Gi"},
				{Kind: KeyExact, Path: "systemReserved[cpu]", Line: 3, Col: 8, Value: "1"},
				{Kind: KeyExact, Path: "systemReserved[memory]", Line: 3, Col: 18, Value: "1Gi"},
				{Kind: KeyExact, Path: "systemReserved[pid]", Line: 4, Col: 36, Value: "5"},
			},
		},
		{
			name: "an aliased map under two paths is reported under each",
			doc:  header + "a: &a {cpu: \"1\"}\nsystemReserved: {<<: [*a, *a]}\nkubeReserved: {<<: [*a, *a]}\n",
			want: []wantKey{
				{Kind: KeyUnknown, Path: "a", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "systemReserved", Line: 4, Col: 1},
				{Kind: KeyDuplicate, Path: "systemReserved[cpu]", Line: 3, Col: 8, WinnerLine: 3, Value: "1"},
				{Kind: KeyExact, Path: "systemReserved[cpu]", Line: 3, Col: 8, Value: "1"},
				{Kind: KeyExact, Path: "kubeReserved", Line: 5, Col: 1},
				{Kind: KeyDuplicate, Path: "kubeReserved[cpu]", Line: 3, Col: 8, WinnerLine: 3, Value: "1"},
				{Kind: KeyExact, Path: "kubeReserved[cpu]", Line: 3, Col: 8, Value: "1"},
			},
		},
		{
			name: "wrong shapes are not entered",
			doc:  header + "authentication: [1, 2]\nfeatureGates: true\nreservedMemory: {numaNode: 0}\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "authentication", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "featureGates", Line: 4, Col: 1, Value: "true"},
				{Kind: KeyExact, Path: "reservedMemory", Line: 5, Col: 1},
			},
			absent: []string{"reservedMemory.numaNode", "reservedMemory[0].numaNode"},
		},
		{
			name: "Unicode case folding (strict)",
			doc:  header + "\u017ftaticPodPath: /x\n\u212aind: KubeletConfiguration\n",
			want: []wantKey{
				{Kind: KeyCase, Path: "staticPodPath", WrittenPath: "\u017ftaticPodPath", Line: 3, Col: 1, Suggest: "staticPodPath"},
				{Kind: KeyCase, Path: "kind", WrittenPath: "\u212aind", Line: 4, Col: 1, Suggest: "kind"},
			},
		},
		{
			name: "Unicode case folding (fold)",
			doc:  header + "authentication:\n  x509:\n    clientCAFile: /a\n  \u212a: 1\n",
			mode: Fold,
			want: []wantKey{
				{Kind: KeyExact, Path: "authentication", Line: 3, Col: 1},
				{Kind: KeyExact, Path: "authentication.x509", Line: 4, Col: 3},
				{Kind: KeyExact, Path: "authentication.x509.clientCAFile", Line: 5, Col: 5},
				{Kind: KeyUnknown, Path: "authentication.\u212a", Line: 6, Col: 3},
			},
		},
		{
			name: "quoted and unicode keys",
			doc:  header + "\"maxPods\": 3\nmäxPods: 4\n",
			want: []wantKey{
				{Kind: KeyExact, Path: "maxPods", Line: 3, Col: 1, Value: "3"},
				{Kind: KeyUnknown, Path: "mäxPods", Line: 4, Col: 1, Suggest: "maxPods"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			keys := walkString(t, tc.doc, tc.mode)
			if tc.want[0].Path != "apiVersion" {
				keys = withoutHeader(keys)
			}
			if len(keys) != len(tc.want) {
				var got []string
				for _, k := range keys {
					got = append(got, fmt.Sprintf("%v %s @%d:%d", k.Kind, k.Path, k.Pos.Line, k.Pos.Column))
				}
				t.Fatalf("got %d keys, want %d:\n  %s\nwant\n  %v", len(keys), len(tc.want), strings.Join(got, "\n  "), tc.want)
			}
			for i, w := range tc.want {
				if keys[i].Path != w.Path {
					t.Errorf("key %d: path %q, want %q", i, keys[i].Path, w.Path)
					continue
				}
				checkKey(t, keys[i], w)
			}
			for _, p := range tc.absent {
				if ks := findKeys(keys, p); len(ks) > 0 {
					t.Errorf("%s reported; the decoder never looks there", p)
				}
			}
		})
	}
}

func TestWalkEmpty(t *testing.T) {
	for _, doc := range []string{"", "# only a comment\n", "---\n"} {
		if keys := Walk(Parse("e.yaml", []byte(doc)), kubelets.Tree(), Strict); len(keys) != 0 {
			t.Errorf("%q: %d keys, want none", doc, len(keys))
		}
	}
	// A non-mapping document has no keys either.
	if keys := Walk(Parse("l.yaml", []byte("- a\n- b\n")), kubelets.Tree(), Strict); len(keys) != 0 {
		t.Errorf("top-level list: %d keys, want none", len(keys))
	}
}

func TestWalkParentAndField(t *testing.T) {
	keys := walkString(t, header+"evictionHard:\n  memory.available: 1Gi\nlogging:\n  format: json\n", Strict)
	tree := kubelets.Tree()
	byPath := map[string]Key{}
	for _, k := range keys {
		byPath[k.Path] = k
	}
	if k := byPath["evictionHard[memory.available]"]; k.Parent != tree.At("evictionHard") || k.Field != tree.At("evictionHard").Elem {
		t.Errorf("map entry: parent %v field %v", k.Parent, k.Field)
	}
	if k := byPath["logging.format"]; k.Parent != tree.At("logging") || k.Field != tree.At("logging.format") || k.Field.Kind != kubelets.Scalar {
		t.Errorf("logging.format: parent %v field %v", k.Parent, k.Field)
	}
	if k := byPath["logging"]; k.Parent != tree {
		t.Errorf("logging: parent is not the root")
	}
}

func TestPositions(t *testing.T) {
	doc := header + "maxPods: 1\nMaxPods: 2\nPodPidsLimit: 3\nbogus: 4\nlogging:\n  verbosity: 1\n  verbosity: 2\n"
	tests := []struct {
		mode    Mode
		want    map[string]int // path -> line
		missing []string
	}{
		// Strict keeps only exact keys; the later of the duplicates wins.
		{Strict, map[string]int{"apiVersion": 1, "kind": 2, "maxPods": 3, "logging": 7, "logging.verbosity": 9}, []string{"podPidsLimit", "bogus"}},
		// Fold keeps case-folded keys too; the last spelling in document order wins.
		{Fold, map[string]int{"maxPods": 4, "podPidsLimit": 5, "logging.verbosity": 9}, []string{"bogus"}},
	}
	for _, tc := range tests {
		pos := Positions(walkString(t, doc, tc.mode), tc.mode)
		for p, line := range tc.want {
			if got, ok := pos[p]; !ok || got.Line != line {
				t.Errorf("mode %d: %s at %v, want line %d", tc.mode, p, got, line)
			}
		}
		for _, p := range tc.missing {
			if got, ok := pos[p]; ok {
				t.Errorf("mode %d: %s has a position (%v), want none", tc.mode, p, got)
			}
		}
	}
}

func TestScalarValue(t *testing.T) {
	long := strings.Repeat("x", 200)
	keys := walkString(t, header+"providerID: "+long+"\nstaticPodPath: |\n  a\n  b\n", Strict)
	if v := findKeys(keys, "providerID")[0].Value; len(v) != 80 || !strings.HasSuffix(v, "...") {
		t.Errorf("long value rendered as %q (%d bytes), want 77 bytes and ...", v, len(v))
	}
	if v := findKeys(keys, "staticPodPath")[0].Value; v != `a\nb\n` {
		t.Errorf("multi-line value rendered as %q", v)
	}
}

// A "billion laughs" document expands exponentially through aliases and merge
// keys; Walk must stay within its alias budget instead of exhausting memory.
func TestWalkAliasBomb(t *testing.T) {
	// merge keys: 10 merges per level, 6 levels deep (10^6 pairs, within maxMergeDepth)
	var merges strings.Builder
	merges.WriteString(header + "m0: &m0 {k0: 1, k1: 2, k2: 3, k3: 4, k4: 5, k5: 6, k6: 7, k7: 8, k8: 9, k9: 10}\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&merges, "m%d: &m%d {<<: [%s]}\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*m%d, ", i-1), 10), ", "))
	}
	merges.WriteString("authorization: {<<: [" + strings.TrimSuffix(strings.Repeat("*m6, ", 10), ", ") + "]}\n")
	// lists of aliases to maps: 1000 items of 1000 limits each
	var lim []string
	for i := range 1000 {
		lim = append(lim, fmt.Sprintf("m%d: 1Gi", i))
	}
	lists := header + "l: &l {" + strings.Join(lim, ", ") + "}\nr: &r {numaNode: 0, limits: *l}\n" +
		"reservedMemory: [" + strings.TrimSuffix(strings.Repeat("*r, ", 1000), ", ") + "]\n"
	// nested aliases in maps of lists: each level doubles
	nested := header + "a0: &a0 {numaNode: 0, limits: {memory: 1Gi}}\n"
	for i := 1; i <= 30; i++ {
		nested += fmt.Sprintf("a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
	}
	nested += "reservedMemory: *a30\n"

	for name, tc := range map[string]struct {
		doc   string
		first string // a key the walk reaches before the budget runs out
	}{
		"merge keys":      {merges.String(), "authorization.k0"},
		"list of aliases": {lists, "reservedMemory[0].limits[m0]"},
		"nested lists":    {nested, ""},
	} {
		for _, mode := range []Mode{Strict, Fold} {
			keys := walkString(t, tc.doc, mode)
			// Every key visited through an alias costs at least one unit of the budget.
			if len(keys) > 2*maxAliasNodes+100 {
				t.Errorf("%s, mode %d: %d keys; the alias budget is %d", name, mode, len(keys), maxAliasNodes)
			}
			if tc.first != "" && len(findKeys(keys, tc.first)) == 0 {
				t.Errorf("%s, mode %d: %s not walked", name, mode, tc.first)
			}
			// A key met again under the same path is reported once.
			seen := map[walkedKey]bool{}
			for _, k := range keys {
				id := walkedKey{pos: k.Pos, winner: k.Winner, path: k.Path, kind: k.Kind}
				if seen[id] {
					t.Errorf("%s, mode %d: %v %s at %v reported twice", name, mode, k.Kind, k.Path, k.Pos)
					break
				}
				seen[id] = true
			}
		}
	}
}

// Aliases within the budget are walked completely.
func TestWalkAliasesBelowBudget(t *testing.T) {
	var lim []string
	for i := range 100 {
		lim = append(lim, fmt.Sprintf("m%d: 1Gi", i))
	}
	doc := header + "l: &l {" + strings.Join(lim, ", ") + "}\nr: &r {numaNode: 0, limits: *l}\nreservedMemory: [" +
		strings.TrimSuffix(strings.Repeat("*r, ", 100), ", ") + "]\n"
	keys := walkString(t, doc, Strict)
	n := 0
	for _, k := range keys {
		if strings.HasPrefix(k.Path, "reservedMemory[") && strings.Contains(k.Path, ".limits[") {
			n++
		}
	}
	if n != 100*100 {
		t.Errorf("%d limits walked, want %d", n, 100*100)
	}
}

// A mapping that contains an alias to itself (yaml.v3 builds the cycle; the
// kubelet's decoder refuses it) must not make Walk recurse forever.
func TestWalkAliasCycle(t *testing.T) {
	for _, doc := range []string{
		header + "authentication: &a\n  x509: *a\n  webhook: {<<: *a}\n",
		header + "reservedMemory: &a\n- limits: {memory: 1Gi}\n  numaNode: 0\n- *a\n",
		header + "x: &a {<<: *a, maxPods: 1}\nauthorization: {<<: *a}\n",
	} {
		for _, mode := range []Mode{Strict, Fold} {
			keys := walkString(t, doc, mode)
			if len(keys) == 0 || len(keys) > 2*maxAliasNodes {
				t.Errorf("%q mode %d: %d keys", doc, mode, len(keys))
			}
		}
	}
}

// Unknown keys past maxSuggestions are still reported, without a suggestion.
func TestWalkSuggestionBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(header)
	for i := range maxSuggestions + 10 {
		fmt.Fprintf(&b, "maxPodz%d: 1\n", i)
	}
	b.WriteString("maxPodx: 1\n")
	keys := walkString(t, b.String(), Strict)
	if len(keys) != maxSuggestions+13 {
		t.Fatalf("%d keys, want %d", len(keys), maxSuggestions+13)
	}
	if k := keys[2]; k.Kind != KeyUnknown || k.Suggest != "maxPods" {
		t.Errorf("first unknown key: %v suggestion %q, want maxPods", k.Kind, k.Suggest)
	}
	if k := keys[len(keys)-1]; k.Kind != KeyUnknown || k.Suggest != "" {
		t.Errorf("unknown key past the budget: %v suggestion %q, want none", k.Kind, k.Suggest)
	}
}
