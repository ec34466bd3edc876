// Package admission judges, for a validating admission webhook, the node
// configuration objects teams change through the API (Karpenter's
// EC2NodeClass, Cluster API's KubeadmConfig and KubeadmControlPlane kinds,
// kubeadm's kube-system/kubelet-config ConfigMap, k0s's ClusterConfig): each
// is read with the same translator as `kubeletcfg lint` and evaluated at the
// kubelet minors it is for; what a target kubelet or the bootstrapper would
// refuse at or above the fail-on severity is denied, the rest admitted with
// warnings. On UPDATE only what the change makes worse is denied, so that an
// object already broken can be edited toward a fix.
//
// The package decides; the HTTPS server around it is the webhook command's.
package admission

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/lru"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/input/capi"
	"github.com/kubeletcfg/kubeletcfg/input/k0s"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/policy"
)

// MaxRequestBytes is the largest AdmissionReview read: the API server's own
// limit on a request body (3 MiB).
const MaxRequestBytes = 3 << 20

// OptInLabel marks a ConfigMap other than kube-system/kubelet-config whose
// "kubelet" key holds a KubeletConfiguration to judge (its value: "true").
const OptInLabel = "kubeletcfg.dev/validate"

// kinds are the objects judged, with the input format that reads them.
var kinds = map[schema.GroupKind]input.Format{
	{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass"}:                            "karpenter",
	{Group: "bootstrap.cluster.x-k8s.io", Kind: "KubeadmConfig"}:                  "cluster-api",
	{Group: "bootstrap.cluster.x-k8s.io", Kind: "KubeadmConfigTemplate"}:          "cluster-api",
	{Group: "controlplane.cluster.x-k8s.io", Kind: "KubeadmControlPlane"}:         "cluster-api",
	{Group: "controlplane.cluster.x-k8s.io", Kind: "KubeadmControlPlaneTemplate"}: "cluster-api",
	{Group: "", Kind: "ConfigMap"}:                                                input.Kubeadm,
	{Group: "k0s.k0sproject.io", Kind: "ClusterConfig"}:                           "k0s",
}

// Kinds lists the group/kinds judged, sorted, for the webhook's rules and docs.
func Kinds() []schema.GroupKind {
	out := make([]schema.GroupKind, 0, len(kinds))
	for gk := range kinds {
		out = append(out, gk)
	}
	slices.SortFunc(out, func(a, b schema.GroupKind) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// Config is how a Reviewer judges.
type Config struct {
	// Minors are the kubelets an object is judged against when it names
	// none of its own (the cluster's minor and the n-3 window below it).
	Minors []*kubelets.Minor
	// FailOn is the severity denied from (nil: error, what a kubelet or
	// the bootstrapper refuses).
	FailOn *finding.Severity
	// Timeout cuts an evaluation that takes longer (0: none); the object is
	// then admitted with a warning that it was not judged, as the webhook's
	// failurePolicy Ignore would admit it.
	Timeout time.Duration
	// Templates, when set, finds the Kubernetes versions of the machines a
	// KubeadmConfigTemplate bootstraps (the MachineDeployments and
	// MachinePools that reference it): the template is judged at those
	// minors rather than at Minors.
	Templates TemplateVersions
	// Policy, when set, decides what is reported of every evaluation
	// (kubeletcfg.Options.Policy): its rules turn findings off or re-grade
	// them, but never hide or lower an error.
	Policy *policy.Policy
}

// TemplateVersions lists the Kubernetes versions ("v1.36.2") of the machines
// that reference the KubeadmConfigTemplate namespace/name; none: not in use.
type TemplateVersions func(ctx context.Context, namespace, name string) ([]string, error)

// Reviewer judges AdmissionRequests.
type Reviewer struct {
	cfg    Config
	failOn finding.Severity
	// cache holds the last judgements by object and minors (judgeOnce).
	cache *lru.Cache
}

// cacheSize bounds the judgements kept: a few kilobytes each.
const cacheSize = 256

// New returns a Reviewer for cfg.
func New(cfg Config) (*Reviewer, error) {
	if len(cfg.Minors) == 0 {
		return nil, errors.New("admission: no kubelet minors to judge against")
	}
	failOn := finding.Error
	if cfg.FailOn != nil {
		failOn = *cfg.FailOn // Info is the zero Severity: hence a pointer
	}
	return &Reviewer{cfg: cfg, failOn: failOn, cache: lru.New(cacheSize)}, nil
}

// Decision is what Review decided, for the webhook's metrics.
type Decision struct {
	// Kind is the object's kind ("EC2NodeClass"), "" when unread.
	Kind string
	// Allowed, and the rules of the findings that deny it (Denied) or are
	// warned of (Warned).
	Allowed        bool
	Denied, Warned []string
	// Unjudged says why the object was admitted without a verdict (not a
	// kind judged here, cut at the deadline); empty otherwise.
	Unjudged string
	// Cached and Evaluated count the objects of the request (the object,
	// an UPDATE's old object) whose findings came from the cache or were
	// evaluated.
	Cached, Evaluated int
}

// judged is what the evaluation of a request found.
type judged struct {
	now, before       []Finding
	err               error
	cached, evaluated int
}

func (j *judged) count(hit bool) {
	if hit {
		j.cached++
	} else {
		j.evaluated++
	}
}

// Review answers one AdmissionRequest: its UID, allowed or denied with a
// status message listing each refusal, and warnings.
func (r *Reviewer) Review(ctx context.Context, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, Decision) {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	d := Decision{Kind: req.Kind.Kind, Allowed: true}
	gk := schema.GroupKind{Group: req.Kind.Group, Kind: req.Kind.Kind}
	format, ok := kinds[gk]
	if !ok {
		resp.Allowed, d.Allowed = false, false
		resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusBadRequest, Reason: metav1.StatusReasonBadRequest,
			Message: fmt.Sprintf("kubeletcfg does not judge %s: the webhook's rules should not send it (it judges %s)", gk, kindList())}
		return resp, d
	}
	if req.Operation == admissionv1.Delete || req.Operation == admissionv1.Connect {
		d.Unjudged = "operation " + string(req.Operation)
		return resp, d
	}
	if gk.Kind == "ConfigMap" && !judgedConfigMap(req) {
		d.Unjudged = "a ConfigMap that is not kube-system/kubelet-config and does not opt in"
		return resp, d
	}
	if r.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.cfg.Timeout)
		defer cancel()
	}
	done := make(chan judged, 1)
	minors, used := r.cfg.Minors, ""
	if gk.Kind == "KubeadmConfigTemplate" && r.cfg.Templates != nil {
		var err error
		if minors, used, err = r.templateMinors(ctx, req); err != nil {
			// Unknown which machines use it: the configured minors, said so.
			minors, used = r.cfg.Minors, ""
			resp.Warnings = append(resp.Warnings, clip("kubeletcfg: judged at the configured minors: "+err.Error(), maxWarning))
		}
	}
	go func() {
		var j judged
		var hit bool
		j.now, hit, j.err = r.judgeOnce(minors, req.Object.Raw, format, objectName(req))
		j.count(hit)
		if j.err == nil && req.Operation == admissionv1.Update && len(req.OldObject.Raw) > 0 {
			// An old object kubeletcfg cannot read counts as no findings.
			j.before, hit, _ = r.judgeOnce(minors, req.OldObject.Raw, format, objectName(req))
			j.count(hit)
		}
		done <- j
	}()
	var j judged
	select {
	case j = <-done:
		d.Cached, d.Evaluated = j.cached, j.evaluated
	case <-ctx.Done():
		d.Unjudged = "cut at the deadline"
		resp.Warnings = []string{fmt.Sprintf("kubeletcfg: not judged: the evaluation took longer than %s", r.cfg.Timeout)}
		return resp, d
	}
	if j.err != nil {
		resp.Allowed, d.Allowed = false, false
		resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusUnprocessableEntity, Reason: metav1.StatusReasonInvalid,
			Message: clip(fmt.Sprintf("kubeletcfg cannot read %s %s: %v", gk.Kind, objectName(req), j.err), maxMessage)}
		return resp, d
	}
	deny, warn := r.split(j.now, j.before, req.Operation == admissionv1.Update)
	for _, f := range deny {
		d.Denied = append(d.Denied, f.Rule)
	}
	for _, f := range warn {
		d.Warned = append(d.Warned, f.Rule)
	}
	resp.Warnings = append(resp.Warnings, warnings(warn)...)
	if len(deny) > 0 {
		resp.Allowed, d.Allowed = false, false
		resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden,
			Message: denyMessage(gk.Kind, objectName(req), deny) + used}
	}
	return resp, d
}

// Finding is a finding at the kubelet minor it was found at, in the node
// group of the object it was found for (Object: input.Source.Objects' name
// of a k0s worker profile, "WorkerProfile/pool-b", or of a
// KubeadmControlPlane's first or joining machines; "" for an object of one).
type Finding struct {
	finding.Finding
	Minor  string
	Object string
}

// readable is the object as the translators read it fastest, the same data:
// without the API server's bookkeeping in metadata, which no translator reads
// (managedFields, often larger than the spec; and resourceVersion, uid,
// generation, creationTimestamp, so that an UPDATE's old object is the
// object judged before it was stored: Reviewer's cache), and indented a key
// a line, keys sorted. The translators parse YAML with yaml.v3, whose token
// queue grows with a flow mapping's line: the API server's one-line JSON cost
// a review 14% more allocations on a small EC2NodeClass (BenchmarkReview).
// Not a JSON object: as it came (the translator's error names it).
func readable(raw []byte) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return raw
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(obj["metadata"], &meta) == nil {
		for _, k := range []string{"managedFields", "resourceVersion", "uid", "generation", "creationTimestamp"} {
			delete(meta, k)
		}
		b, err := json.Marshal(meta)
		if err != nil {
			return raw
		}
		obj["metadata"] = b
	}
	compact, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	var out bytes.Buffer
	if json.Indent(&out, compact, "", " ") != nil {
		return raw
	}
	return out.Bytes()
}

// judgeOnce is judge of the object as readable makes it, from the cache when
// the same object was judged at the same minors before (hit): the API
// server sends an object again and again (an UPDATE's old object, a dry run
// before the apply, a GitOps controller's re-apply, a controller's update of
// its metadata), and its findings depend on nothing else.
func (r *Reviewer) judgeOnce(minors []*kubelets.Minor, raw []byte, format input.Format, name string) (fs []Finding, hit bool, err error) {
	obj := readable(raw)
	h := sha256.New()
	for _, part := range []string{string(format), name} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	for _, m := range minors {
		h.Write([]byte(m.Version))
		h.Write([]byte{0})
	}
	h.Write(obj)
	key := string(h.Sum(nil))
	if v, ok := r.cache.Get(key); ok {
		c := v.(cachedJudgement)
		return c.findings, true, c.err
	}
	fs, err = r.judge(minors, obj, format, name)
	r.cache.Add(key, cachedJudgement{fs, err})
	return fs, false, err
}

// cachedJudgement is judge's answer for one object at one set of minors;
// its findings are only read.
type cachedJudgement struct {
	findings []Finding
	err      error
}

// judge evaluates the object at each minor it is for: the one it names (a
// KubeadmControlPlane's spec.version), else every configured minor; an
// object of several node groups (input.Source.Objects: a k0s ClusterConfig's
// worker profiles, a KubeadmControlPlane's first and joining machines) for
// each, as kubeletcfg lint checks each. An object kubeletcfg cannot read is
// an error.
func (r *Reviewer) judge(minors []*kubelets.Minor, obj []byte, format input.Format, name string) ([]Finding, error) {
	first, err := r.lint(obj, format, name, minors[0].Version, "")
	if err != nil {
		return nil, err
	}
	several, ok := first.Several.(*kubeletcfg.LintedPaths)
	if !ok || len(several.Objects) < 2 {
		return r.judgeObject(minors, obj, format, name, "", first)
	}
	// Lint checked each object at the first minor: those it read are kept,
	// one it could not read is read again for its error.
	at := map[string]*kubeletcfg.Linted{}
	for i, rep := range several.Report.Reports {
		at[rep.Object] = several.Linted[i]
	}
	var out []Finding
	for _, o := range several.Objects {
		fs, err := r.judgeObject(minors, obj, format, name, o, at[o])
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// lint is kubeletcfg lint of the object (the node group object, "" for the
// object's first or only one) at minor.
func (r *Reviewer) lint(obj []byte, format input.Format, name, minor, object string) (*kubeletcfg.Linted, error) {
	return kubeletcfg.Lint(kubeletcfg.Options{ConfigData: obj, Config: name, Format: format, KubeletVersion: minor, Policy: r.cfg.Policy, Read: input.Options{Object: object}})
}

// judgeObject is judge of one node group of the object (Finding.Object;
// first: its lint at the first minor, nil when not done yet).
func (r *Reviewer) judgeObject(minors []*kubelets.Minor, obj []byte, format input.Format, name, object string, first *kubeletcfg.Linted) ([]Finding, error) {
	lint := func(m string) (*kubeletcfg.Linted, error) { return r.lint(obj, format, name, m, object) }
	if first == nil {
		var err error
		if first, err = lint(minors[0].Version); err != nil {
			return nil, err
		}
	}
	if named := first.Source.KubeletVersionNamed(); named != "" {
		// The object names its kubelet: that minor alone.
		nm, err := kubelets.Lookup(named)
		if err != nil {
			return nil, fmt.Errorf("it names Kubernetes %s, a kubelet kubeletcfg does not know (%s)", named, kubelets.Span(kubelets.Supported()))
		}
		l := first
		if nm != minors[0] {
			if l, err = lint(nm.Version); err != nil {
				return nil, err
			}
		}
		return add(nil, l, nm.Version, object), nil
	}
	linted := make([]*kubeletcfg.Linted, len(minors))
	errs := make([]error, len(minors))
	linted[0] = first
	var wg sync.WaitGroup
	for i, m := range minors[1:] {
		wg.Go(func() { linted[i+1], errs[i+1] = lint(m.Version) })
	}
	wg.Wait()
	var out []Finding
	for i, m := range minors {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = add(out, linted[i], m.Version, object)
	}
	return out, nil
}

// templateMinors are the minors of the machines that use the template req
// names (Config.Templates), with the words the denial ends with; the
// configured minors when none uses it yet.
func (r *Reviewer) templateMinors(ctx context.Context, req *admissionv1.AdmissionRequest) ([]*kubelets.Minor, string, error) {
	versions, err := r.cfg.Templates(ctx, req.Namespace, req.Name)
	if err != nil {
		return nil, "", err
	}
	var minors []*kubelets.Minor
	for _, v := range versions {
		m, err := kubelets.Lookup(v)
		if err != nil {
			return nil, "", fmt.Errorf("a machine of the template runs Kubernetes %s, a kubelet kubeletcfg does not know (%s)", v, kubelets.Span(kubelets.Supported()))
		}
		if !slices.Contains(minors, m) {
			minors = append(minors, m)
		}
	}
	if len(minors) == 0 {
		return r.cfg.Minors, "", nil
	}
	slices.SortFunc(minors, func(a, b *kubelets.Minor) int { return strings.Compare(a.Version, b.Version) })
	return minors, fmt.Sprintf(" (the minors of the machines that use the template: %s)", strings.Join(versions, ", ")), nil
}

func add(out []Finding, l *kubeletcfg.Linted, minor, object string) []Finding {
	for _, f := range l.Report.Findings {
		out = append(out, Finding{Finding: f, Minor: minor, Object: object})
	}
	return out
}

// split sorts the findings into those denied (at or above failOn and, on
// UPDATE, not already in the old object at the same minor, node group,
// rule and field)
// and those warned of (warnings and errors, one per rule, field and message,
// whatever the minor; info findings are left to kubeletcfg lint).
func (r *Reviewer) split(now, before []Finding, update bool) (deny, warn []Finding) {
	had := map[string]bool{}
	for _, f := range before {
		had[f.Minor+"\x00"+f.Object+"\x00"+f.Rule+"\x00"+f.Path] = true
	}
	seen := map[string]bool{}
	for _, f := range now {
		if f.Severity >= r.failOn && !(update && had[f.Minor+"\x00"+f.Object+"\x00"+f.Rule+"\x00"+f.Path]) {
			deny = append(deny, f)
			continue
		}
		key := f.Object + "\x00" + f.Rule + "\x00" + f.Path + "\x00" + f.Message
		if f.Severity < finding.Warning {
			// Notes (what only the instance knows) would bury the warnings.
			continue
		}
		if !seen[key] {
			seen[key] = true
			warn = append(warn, f)
		}
	}
	return deny, warn
}

// maxWarnings and maxWarning bound the admission warnings: the API server
// truncates longer ones and clients show them one a line.
const (
	maxWarnings = 20
	maxWarning  = 256
	// maxMessage bounds the denial's status message.
	maxMessage = 3000
)

// warnings are the admission warnings for fs: the rule ID first.
func warnings(fs []Finding) []string {
	var out []string
	for i, f := range fs {
		if i == maxWarnings {
			out = append(out, fmt.Sprintf("kubeletcfg: %d more findings (kubeletcfg lint shows them all)", len(fs)-maxWarnings))
			break
		}
		out = append(out, clip(fmt.Sprintf("%s %s: %s", f.Rule, at(f), f.Message), maxWarning))
	}
	return out
}

// denyMessage lists each refusal: rule, field path, the kubelet minors it
// holds at and the kubelet's words (else kubeletcfg's). The same refusal at
// several minors is one entry ("kubelets 1.34..1.37"), so the message stays
// readable and within the API server's limits.
func denyMessage(kind, name string, fs []Finding) string {
	type refusal struct {
		rule, path, words string
		minors            []string
	}
	var order []*refusal
	byKey := map[string]*refusal{}
	for _, f := range fs {
		words := f.Message
		if f.Kubelet != "" {
			words = f.Kubelet
		}
		key := f.Rule + "\x00" + at(f) + "\x00" + words
		r := byKey[key]
		if r == nil {
			r = &refusal{rule: f.Rule, path: at(f), words: words}
			byKey[key] = r
			order = append(order, r)
		}
		if !slices.Contains(r.minors, f.Minor) {
			r.minors = append(r.minors, f.Minor)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "kubeletcfg: %s %s would not run: ", kind, name)
	for i, r := range order {
		minors := "kubelet " + r.minors[0]
		if len(r.minors) > 1 {
			minors = "kubelets " + kubelets.Span(r.minors)
		}
		line := fmt.Sprintf("%s %s (%s): %s", r.rule, r.path, minors, r.words)
		if i > 0 {
			line = "; " + line
		}
		if b.Len()+len(line) > maxMessage {
			fmt.Fprintf(&b, "; and %d more", len(order)-i)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// at is where f is: its field path, after the node group it is in
// (groupOf).
func at(f Finding) string {
	path := f.Path
	if path == "" {
		path = "(object)"
	}
	if g := groupOf(f.Object); g != "" {
		path = g + " " + path
	}
	return path
}

// groupOf names the node group of an object of several in the words of
// its tool: "worker profile pool-b" (k0s), "first control plane machine" and
// "joining control plane machines" (a KubeadmControlPlane(Template): kubeadm
// init, kubeadm join --control-plane; input/capi JoinSuffix); "" for an
// object of one.
func groupOf(object string) string {
	if p, ok := strings.CutPrefix(object, k0s.ObjectPrefix); ok {
		return "worker profile " + p
	}
	if strings.HasSuffix(object, capi.JoinSuffix) {
		return "joining control plane machines"
	}
	if strings.HasPrefix(object, "KubeadmControlPlane") {
		return "first control plane machine"
	}
	return object
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func kindList() string {
	var names []string
	for _, gk := range Kinds() {
		names = append(names, gk.String())
	}
	return strings.Join(names, ", ")
}

// judgedConfigMap: kube-system/kubelet-config (kubeadm's), or a ConfigMap
// with OptInLabel "true".
func judgedConfigMap(req *admissionv1.AdmissionRequest) bool {
	if req.Namespace == "kube-system" && req.Name == "kubelet-config" {
		return true
	}
	var meta struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if err := json.Unmarshal(req.Object.Raw, &meta); err != nil {
		return false
	}
	return meta.Metadata.Labels[OptInLabel] == "true"
}

// objectName names the object in findings: kind/namespace/name.
func objectName(req *admissionv1.AdmissionRequest) string {
	name := req.Name
	if req.Namespace != "" {
		name = req.Namespace + "/" + name
	}
	return strings.ToLower(req.Kind.Kind) + "/" + name
}

// ReadReview decodes an AdmissionReview request body of at most
// MaxRequestBytes: an admission.k8s.io/v1 AdmissionReview with a request.
func ReadReview(r io.Reader) (*admissionv1.AdmissionReview, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxRequestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the request: %v", err)
	}
	if len(body) > MaxRequestBytes {
		return nil, fmt.Errorf("the request is more than %d bytes, the API server's limit", MaxRequestBytes)
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil {
		return nil, fmt.Errorf("not an AdmissionReview: %v", err)
	}
	if review.APIVersion != admissionv1.SchemeGroupVersion.String() || review.Kind != "AdmissionReview" {
		return nil, fmt.Errorf("not an admission.k8s.io/v1 AdmissionReview: apiVersion %q, kind %q", review.APIVersion, review.Kind)
	}
	if review.Request == nil {
		return nil, errors.New("the AdmissionReview has no request")
	}
	return &review, nil
}
