package fuzzcase

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// node is a JSON Schema node as kubelets/data/<minor>/schema.json writes it.
type node map[string]any

func (n node) props() map[string]node {
	p, _ := n["properties"].(map[string]any)
	out := make(map[string]node, len(p))
	for k, v := range p {
		if m, ok := v.(map[string]any); ok {
			out[k] = m
		}
	}
	return out
}

func (n node) sub(key string) node {
	m, _ := n[key].(map[string]any)
	return m
}

// types lists the node's JSON types without "null"; nullable says whether null is one.
func (n node) types() (types []string, nullable bool) {
	switch t := n["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if s, _ := x.(string); s == "null" {
				nullable = true
			} else if s != "" {
				types = append(types, s)
			}
		}
	}
	return types, nullable
}

func (n node) gates() []string {
	var out []string
	if g, ok := n["x-kubernetes-feature-gates"].([]any); ok {
		for _, x := range g {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// Generator writes random cases for one minor.
type Generator struct {
	minor *kubelets.Minor
	root  node
	// others holds, per object path, the children that only other minors have.
	others map[string]map[string]node
	// gates of this minor, sorted; locked are those locked at its emulation version;
	// foreign are gates other minors register and this one does not.
	gates, locked, foreign []string
	flags                  *kubelets.FlagTable
}

// New reads the minor's schema and gate table, and the other minors'.
func New(m *kubelets.Minor) (*Generator, error) {
	g := &Generator{minor: m, others: map[string]map[string]node{}}
	var err error
	if g.root, err = schemaOf(m); err != nil {
		return nil, err
	}
	table, err := m.Gates()
	if err != nil {
		return nil, err
	}
	for _, name := range table.Names() {
		gate := table.Gates[name]
		if gate.Special {
			continue
		}
		g.gates = append(g.gates, name)
		if table.At(gate).LockToDefault {
			g.locked = append(g.locked, name)
		}
	}
	if g.flags, err = m.Flags(); err != nil {
		return nil, err
	}
	foreign := map[string]bool{}
	for _, v := range kubelets.Supported() {
		o, err := kubelets.Lookup(v)
		if err != nil || o == m {
			continue
		}
		ot, err := o.Gates()
		if err != nil {
			return nil, err
		}
		for name, gate := range ot.Gates {
			if _, ok := table.Gates[name]; !ok && !gate.Special {
				foreign[name] = true
			}
		}
		oroot, err := schemaOf(o)
		if err != nil {
			return nil, err
		}
		g.collectOthers("", g.root, oroot)
	}
	for name := range foreign {
		g.foreign = append(g.foreign, name)
	}
	sort.Strings(g.foreign)
	return g, nil
}

func schemaOf(m *kubelets.Minor) (node, error) {
	raw, err := m.Schema()
	if err != nil {
		return nil, err
	}
	var n node
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, fmt.Errorf("schema of %s: %w", m.Version, err)
	}
	return n, nil
}

// collectOthers records the object children that the other minor's schema has
// at a path and this minor's does not.
func (g *Generator) collectOthers(path string, mine, theirs node) {
	mp, tp := mine.props(), theirs.props()
	for name, t := range tp {
		if m, ok := mp[name]; ok {
			g.collectOthers(join(path, name), m, t)
			continue
		}
		if g.others[path] == nil {
			g.others[path] = map[string]node{}
		}
		if _, seen := g.others[path][name]; !seen {
			g.others[path][name] = t
		}
	}
}

// File is one generated file: its path in the case folder and its bytes.
type File struct {
	Name string
	Data []byte
}

// Case returns the files of case i of the seed.
func (g *Generator) Case(seed uint64, i int) []File {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	c := &caseGen{Generator: g, r: r}
	return c.build(seed, i)
}

// Write writes cases 0..n-1 of the seed under dir, one folder each (0000, 0001, ...).
func (g *Generator) Write(dir string, seed uint64, n int) error {
	for i := 0; i < n; i++ {
		cdir := filepath.Join(dir, fmt.Sprintf("%04d", i))
		for _, f := range g.Case(seed, i) {
			p := filepath.Join(cdir, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

type caseGen struct {
	*Generator
	r *rand.Rand
	// pool is the few top-level fields this case draws from, so that the main
	// file and the drop-ins often set the same ones.
	pool []string
}

func (c *caseGen) chance(p float64) bool { return c.r.Float64() < p }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func (c *caseGen) build(seed uint64, i int) []File {
	props := c.root.props()
	names := sortedKeys(props)
	for n := 2 + c.r.IntN(5); n > 0; n-- {
		c.pool = append(c.pool, pick(c.r, names))
	}
	if c.chance(0.3) {
		c.pool = append(c.pool, "featureGates")
	}
	// A third of the cases draw from the fields the run stage parses
	// (validate/runstage.go), so that a fresh seed gets past validation to it.
	if c.chance(0.35) {
		for n := 1 + c.r.IntN(3); n > 0; n-- {
			if name := pick(c.r, runStageFields); props[name] != nil {
				c.pool = append(c.pool, name)
			}
		}
	}

	var files []File
	meta := []string{fmt.Sprintf("description: fuzz case %d of seed %d at kubelet %s", i, seed, c.minor.Version)}
	if c.chance(0.1) {
		meta = append(meta, "cgroup: v1")
	}
	// 0-3 drop-ins, with and without a header.
	dropins := []int{0, 0, 0, 0, 1, 1, 1, 2, 2, 3}[c.r.IntN(10)]
	if c.chance(0.05) {
		meta = append(meta, `config: ""`)
		dropins = max(dropins, 1)
	} else {
		files = append(files, File{"kubelet.yaml", c.document(true)})
	}
	for d := 0; d < dropins; d++ {
		name := fmt.Sprintf("conf.d/%02d-fuzz.conf", 10*(d+1))
		if c.chance(0.05) {
			name = fmt.Sprintf("conf.d/%02d-fuzz.yaml", 10*(d+1)) // not *.conf: ignored
		}
		files = append(files, File{name, c.document(c.chance(0.9))})
	}
	if c.chance(0.08) {
		if flag := c.flag(); flag != "" {
			quoted, _ := json.Marshal(flag)
			meta = append(meta, "flags: ["+string(quoted)+"]")
		}
	}
	files = append(files, File{"case.yaml", []byte(strings.Join(meta, "\n") + "\n")})
	return files
}

// document is a KubeletConfiguration file: a header (sometimes broken) and a
// few fields from the pool.
func (c *caseGen) document(header bool) []byte {
	var doc obj
	if header {
		api, kind := "kubelet.config.k8s.io/v1beta1", "KubeletConfiguration"
		switch c.r.IntN(80) {
		case 0:
			api = "kubelet.config.k8s.io/v1"
		case 1:
			kind = "kubeletConfiguration"
		case 2:
			api = ""
		}
		if api != "" {
			doc = append(doc, kv{"apiVersion", raw(api)})
		}
		doc = append(doc, kv{"kind", raw(kind)})
	}
	props := c.root.props()
	for n := 1 + c.r.IntN(3); n > 0; n-- {
		switch roll := c.r.IntN(20); {
		case roll == 0: // a key no minor has
			doc = append(doc, kv{pick(c.r, []string{"maxPod", "evictionHardd", "fooBar", "featuregate"}), c.r.IntN(10)})
		case roll <= 2 && len(c.others[""]) > 0: // a field only other minors have
			name := pick(c.r, sortedKeys(c.others[""]))
			doc = append(doc, kv{c.keyVariant(name), c.value(c.others[""][name], name, 0)})
		default:
			name := pick(c.r, c.pool)
			if name == "featureGates" {
				doc = append(doc, kv{c.keyVariant(name), c.featureGates()})
				continue
			}
			p := props[name]
			if gates := p.gates(); len(gates) > 0 && c.chance(0.5) {
				doc = append(doc, kv{"featureGates", obj{{pick(c.r, gates), c.chance(0.7)}}})
			}
			doc = append(doc, kv{c.keyVariant(name), c.value(p, name, 0)})
		}
	}
	doc = dedupe(doc)
	if c.chance(0.02) && len(doc) > 0 { // a duplicate key
		doc = append(doc, doc[c.r.IntN(len(doc))])
	}
	switch c.r.IntN(40) {
	case 0: // the kubelet reads JSON too
		return emitJSON(doc)
	case 1: // a comment-only file
		return []byte("# nothing here yet\n")
	}
	return emitDocument(doc)
}

// flag is a kubelet command-line flag for a field of the pool (it wins over the
// files), or --feature-gates; "" when the pool has no field with a flag.
func (c *caseGen) flag() string {
	if c.chance(0.3) {
		return "--feature-gates=" + pick(c.r, c.gates) + "=" + pick(c.r, []string{"true", "false", "maybe"})
	}
	for _, path := range c.pool {
		f, ok := c.flags.ForPath(path)
		if !ok {
			continue
		}
		var vals []string
		switch f.Value {
		case "bool":
			vals = []string{"true", "false", "maybe"}
		case "int32", "int", "int64", "float64":
			vals = []string{"0", "50", "-1", "2147483648", "1.5", "x"}
		case "duration":
			vals = []string{"10s", "0", "-1s", "x"}
		default:
			vals = []string{"", "x", "a=b", "systemd", "10"}
		}
		return "--" + f.Name + "=" + pick(c.r, vals)
	}
	return ""
}

// keyVariant returns the key, or sometimes a case variant of it.
func (c *caseGen) keyVariant(name string) string {
	if !c.chance(0.08) {
		return name
	}
	switch c.r.IntN(3) {
	case 0:
		return strings.ToLower(name)
	case 1:
		return strings.ToUpper(name[:1]) + name[1:]
	}
	b := []byte(name)
	j := c.r.IntN(len(b))
	if b[j] >= 'a' && b[j] <= 'z' {
		b[j] -= 'a' - 'A'
	} else if b[j] >= 'A' && b[j] <= 'Z' {
		b[j] += 'a' - 'A'
	}
	return string(b)
}

// featureGates is a featureGates map: registered, locked, foreign (removed or not
// yet added), unknown and case-variant gates, AllAlpha/AllBeta, wrongly typed values.
func (c *caseGen) featureGates() any {
	if c.chance(0.03) {
		return pick(c.r, []any{nil, "NodeSwap=true", []any{"x"}})
	}
	var m obj
	for n := 1 + c.r.IntN(3); n > 0; n-- {
		var name string
		switch roll := c.r.IntN(20); {
		case roll < 9 || (roll < 12 && len(c.locked) == 0) || (roll < 15 && len(c.foreign) == 0):
			name = pick(c.r, c.gates)
		case roll < 12:
			name = pick(c.r, c.locked)
		case roll < 15:
			name = pick(c.r, c.foreign)
		case roll < 17:
			name = strings.ToLower(pick(c.r, c.gates))
		case roll < 18:
			name = "NoSuchGate"
		default:
			name = pick(c.r, []string{"AllAlpha", "AllBeta"})
		}
		var v any = c.chance(0.5)
		if c.chance(0.05) {
			v = pick(c.r, []any{"true", nil, 1, raw("yes")})
		}
		m = append(m, kv{name, v})
	}
	return m
}

// value is a value for a schema node: mostly valid, sometimes null, wrongly
// typed, or at and past a bound.
func (c *caseGen) value(n node, path string, depth int) any {
	types, _ := n.types()
	switch roll := c.r.IntN(100); {
	case roll < 5:
		return pick(c.r, []any{nil, raw("~"), raw("null")})
	case roll < 10:
		return c.wrongType(types)
	}
	if len(types) == 0 {
		return c.r.IntN(3)
	}
	t := pick(c.r, types)
	if enum, ok := n["enum"].([]any); ok && len(enum) > 0 {
		v := pick(c.r, enum)
		if s, ok := v.(string); ok && s != "" && c.chance(0.2) {
			return strings.ToLower(s)
		}
		if c.chance(0.1) {
			return "Bogus"
		}
		return v
	}
	if v, ok := n["const"]; ok && c.chance(0.9) {
		return v
	}
	switch t {
	case "boolean":
		if c.chance(0.1) {
			return raw(pick(c.r, []string{"yes", "on", "True", "FALSE", "off"}))
		}
		return c.chance(0.5)
	case "integer":
		return c.integer(n)
	case "number":
		return pick(c.r, []any{0, 0.5, 1, 1.0000001, -0.1, 2, 0.9, raw("1e3"), raw(".5")})
	case "string":
		pattern, _ := n["pattern"].(string)
		switch {
		case strings.Contains(pattern, "(ns|us"):
			return c.duration()
		case strings.Contains(pattern, "[KMGTPE]i"):
			return c.quantity(contains(types, "integer") || contains(types, "number"))
		case n["format"] == "date-time":
			return pick(c.r, []any{"2026-01-01T00:00:00Z", "yesterday", ""})
		}
		return c.str(path)
	case "array":
		items := n.sub("items")
		var l []any
		for k := c.r.IntN(4); k > 0; k-- {
			l = append(l, c.value(items, path+"[]", depth+1))
		}
		if l == nil {
			return []any{}
		}
		return l
	case "object":
		if depth > 4 {
			return obj{}
		}
		if props := n.props(); len(props) > 0 {
			var o obj
			names := sortedKeys(props)
			for k := 1 + c.r.IntN(3); k > 0; k-- {
				name := pick(c.r, names)
				if others := c.others[path]; len(others) > 0 && c.chance(0.15) {
					name := pick(c.r, sortedKeys(others))
					o = append(o, kv{c.keyVariant(name), c.value(others[name], join(path, name), depth+1)})
					continue
				}
				o = append(o, kv{c.keyVariant(name), c.value(props[name], join(path, name), depth+1)})
			}
			return dedupe(o)
		}
		if elem := n.sub("additionalProperties"); elem != nil {
			var o obj
			for k := 1 + c.r.IntN(3); k > 0; k-- {
				o = append(o, kv{c.mapKey(path), c.value(elem, path+"[]", depth+1)})
			}
			return dedupe(o)
		}
		return obj{}
	}
	return nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// dedupe keeps the first of repeated keys (duplicates are made on purpose elsewhere).
func dedupe(o obj) obj {
	seen := map[string]bool{}
	var out obj
	for _, e := range o {
		if !seen[e.k] {
			seen[e.k] = true
			out = append(out, e)
		}
	}
	if out == nil {
		return obj{}
	}
	return out
}

func (c *caseGen) wrongType(types []string) any {
	var cands []any
	if !contains(types, "string") {
		cands = append(cands, "10", "true", "")
	}
	if !contains(types, "integer") && !contains(types, "number") {
		cands = append(cands, 10, 1.5)
	}
	if !contains(types, "boolean") {
		cands = append(cands, true)
	}
	if !contains(types, "object") {
		cands = append(cands, obj{{"a", 1}})
	}
	if !contains(types, "array") {
		cands = append(cands, []any{1})
	}
	if contains(types, "integer") && !contains(types, "number") {
		cands = append(cands, 1.5, raw("1e3"))
	}
	return pick(c.r, cands)
}

// integer is a valid value, or one at or past a bound: the type's (schema
// minimum/maximum) and the kubelet's usual ones (0, percentages, ports).
func (c *caseGen) integer(n node) any {
	lo, _ := n["minimum"].(float64)
	hi, _ := n["maximum"].(float64)
	if c.chance(0.5) {
		return c.r.IntN(120)
	}
	bounds := []any{-1, 0, 1, 99, 100, 101, 65535, 65536, 1 << 31}
	if hi != 0 {
		one := big.NewInt(1)
		l, _ := big.NewFloat(lo).Int(nil)
		h, _ := big.NewFloat(hi).Int(nil)
		if h.IsInt64() && h.Int64()%2 == 0 { // float64 rounds 2^63-1 up to 2^63
			h.Sub(h, one)
		}
		bounds = append(bounds, raw(l.String()), raw(h.String()),
			raw(new(big.Int).Sub(l, one).String()), raw(new(big.Int).Add(h, one).String()))
	}
	return pick(c.r, bounds)
}

func (c *caseGen) duration() any {
	if c.chance(0.6) {
		return pick(c.r, []string{"0s", "1s", "10s", "1m", "5m0s", "300ms", "2h", "1h30m"})
	}
	return pick(c.r, []any{"-1s", "0", "999ms", "1ns", "2562047h47m16.854775807s", "2562048h", "10", "1d", "", 10, raw("1s")})
}

func (c *caseGen) quantity(numeric bool) any {
	if numeric && c.chance(0.3) {
		return pick(c.r, []any{0, 1, 100, -1, 1.5})
	}
	return pick(c.r, []any{"100Mi", "1Gi", "0", "-1", "10%", "100%", "0%", "1e3", "5.5", "1Ki", "abc", "", "9223372036854775807", "9223372036854775808Ki"})
}

// mapKey is a key for the map at path: ones the kubelet knows and ones it does not.
func (c *caseGen) mapKey(path string) string {
	switch path {
	case "evictionHard", "evictionSoft", "evictionSoftGracePeriod", "evictionMinimumReclaim":
		return pick(c.r, []string{"memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "containerfs.available", "pid.available", "allocatableMemory.available", "memory.Available", "memory.availble", "bogus"})
	case "kubeReserved", "systemReserved", "reservedMemory[].limits":
		return pick(c.r, []string{"cpu", "memory", "ephemeral-storage", "pid", "hugepages-2Mi", "Memory", "nvidia.com/gpu"})
	case "qosReserved":
		return pick(c.r, []string{"memory", "cpu"})
	case "defaultPodSysctls":
		return pick(c.r, []string{"net.ipv4.ip_forward", "kernel.shm_rmid_forced", "bogus"})
	case "cpuManagerPolicyOptions", "topologyManagerPolicyOptions":
		return pick(c.r, []string{"full-pcpus-only", "distribute-cpus-across-numa", "prefer-closest-numa-nodes", "bogus"})
	}
	return pick(c.r, []string{"a", "b", "Key"})
}

// runStageFields are the fields run() and NewMainKubelet parse after validation.
var runStageFields = []string{
	"kubeReserved", "systemReserved", "reservedSystemCPUs", "evictionHard", "evictionSoft", "evictionSoftGracePeriod",
	"evictionMinimumReclaim", "qosReserved", "containerLogMaxSize", "configMapAndSecretChangeDetectionStrategy",
	"allowedUnsafeSysctls", "tlsCipherSuites", "tlsMinVersion", "syncFrequency",
}

// str is a string for the field at path: for the fields the run stage parses
// (validate/runstage.go), the values written in real files, right and wrong.
func (c *caseGen) str(path string) any {
	switch path {
	case "evictionHard[]", "evictionSoft[]":
		return pick(c.r, []string{"100Mi", "1Gi", "10%", "7.5%", "500MB", "1 Gi", "110%", "-5%", "0%", "100%", "0", "-1Gi", "ten%", "NaN%", "10k"})
	case "evictionSoftGracePeriod[]":
		return pick(c.r, []string{"1m30s", "90s", "0s", "90", "-1s", "1h"})
	case "evictionMinimumReclaim[]":
		return pick(c.r, []string{"500Mi", "0", "5%", "0%", "-2Gi", "x%"})
	case "kubeReserved[]", "systemReserved[]":
		return pick(c.r, []string{"100m", "500Mi", "1Gi", "1000", "0", "500MB", "lots", "-1", "1 Gi", "2 cores"})
	case "qosReserved[]":
		return pick(c.r, []string{"50%", "0%", "100%", "50", "101%", "-1%", "x%", "5.5%"})
	case "reservedSystemCPUs":
		return pick(c.r, []string{"", "0", "0-1", "0,2", "1-0", "a"})
	case "containerLogMaxSize":
		return pick(c.r, []string{"10Mi", "50Mi", "10MB", "10 Mi", "-1", "0", "1e100", ""})
	case "configMapAndSecretChangeDetectionStrategy":
		return pick(c.r, []string{"Watch", "Cache", "Get", "watch", "TTL", ""})
	case "allowedUnsafeSysctls[]":
		return pick(c.r, []string{"net.core.somaxconn", "net.ipv4.*", "kernel.msg*", "kernel.shm_rmid_forced", "vm.swappiness", "net.ipv4.*.rp_filter", "Net.core"})
	case "tlsCipherSuites[]":
		return pick(c.r, []string{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", "TLS_RSA_WITH_RC4_128_SHA", "TLS_RSA_WITH_RC4_128_MD5", "tls_ecdhe_rsa_with_aes_128_gcm_sha256"})
	case "tlsMinVersion":
		return pick(c.r, []string{"VersionTLS12", "VersionTLS13", "VersionTLS10", "1.2", "VersionTLS14", ""})
	case "cgroupDriver":
		return pick(c.r, []string{"systemd", "cgroupfs", "Systemd", ""})
	case "address", "healthzBindAddress":
		return pick(c.r, []string{"0.0.0.0", "127.0.0.1", "::1", "not-an-ip", ""})
	}
	return pick(c.r, []string{"", "x", "/var/lib/kubelet/x", "relative/dir", "none", "static", "systemd", "Always", "json", "text", "1", "true"})
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
