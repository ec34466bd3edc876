package validate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	imageref "github.com/distribution/reference"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-base/featuregate"
)

// This file holds the plumbing shared by the ValidateKubeletConfiguration rules
// (validation*.go) and small, verbatim ports of upstream helpers that live in
// k8s.io/kubernetes or k8s.io/component-helpers, which this module must not import.

// kvValidationFunc is the upstream code the KC4xxx rules mirror.
const kvValidationFunc = "pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration"

// kvValidationLinuxFunc is the upstream code the Linux OS rules mirror.
const kvValidationLinuxFunc = "pkg/kubelet/apis/config/validation/validation_linux.go validateKubeletOSConfiguration"

// kvReservedMemoryFunc is the upstream code the reserved memory rules mirror.
const kvReservedMemoryFunc = "pkg/kubelet/apis/config/validation/validation_reserved_memory.go validateReservedMemoryConfiguration"

// kvRules are the rules of the validation*.go files, in the kubelet's order of
// checks: ValidateKubeletConfiguration and what it calls.
var kvRules = slices.Concat(validationRules, validationNodeRules, reservedMemoryRules,
	linuxRules, windowsRules, loggingRules, tracingRules, validationTailRules)

// kvPanicPrefix marks a kubelet text passed to kvEmit as a panic message: the
// kubelet panics at startup rather than returning an error.
const kvPanicPrefix = "panic: "

// kvEmit records one finding: the field path, the message for the engineer,
// the hint, and the kubelet's own error string.
type kvEmit func(path, msg, hint, kubelet string)

// kvCheck is the body of a kubelet validation rule.
type kvCheck func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit kvEmit)

// kubeletRule completes r with the kubelet validation defaults (Error severity,
// StageValidate unless set, the upstream function name unless set) and its check.
func kvRule(r *rule.Rule, check kvCheck) *rule.Rule {
	r.Severity = finding.Error
	if r.Stage == rule.StageRead { // zero value: not set
		r.Stage = rule.StageValidate
	}
	if r.Kubelet == "" {
		r.Kubelet = kvValidationFunc
	}
	r.Check = func(c *rule.Context) []finding.Finding {
		if c == nil || c.Config == nil {
			return nil
		}
		var out []finding.Finding
		check(c, c.Config, func(path, msg, hint, kubelet string) {
			f := r.At(c.At(path), path, msg, hint)
			f.Kubelet = kubelet
			if panicText, ok := strings.CutPrefix(kubelet, kvPanicPrefix); ok {
				f.Kubelet, f.Panics = panicText, true
			}
			out = append(out, f)
		})
		return out
	}
	return r
}

// kvEnabled reports whether the named gate is on in the gate the kubelet validates
// with; a gate the minor does not register is off.
func kvEnabled(c *rule.Context, name string) bool {
	if !c.GateRegistered(name) {
		return false
	}
	return c.Gates.Enabled(featuregate.Feature(name))
}

// The v1beta1 type has pointers where the internal type the kubelet validates has
// values. The generated conversions (Convert_Pointer_*_To_*) turn a nil pointer
// into the zero value; these helpers do the same.

func kvI32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func kvBool(p *bool) bool {
	if p == nil {
		return false
	}
	return *p
}

func kvDur(p *metav1.Duration) metav1.Duration {
	if p == nil {
		return metav1.Duration{}
	}
	return *p
}

// pick returns the first of paths that a file set, else the first path. Used to
// place a finding about two conflicting fields on the one the user wrote.
func kvPick(c *rule.Context, paths ...string) string {
	for _, p := range paths {
		if c.Set(p) {
			return p
		}
	}
	return paths[0]
}

// ---- sysctl names: ported from k8s.io/kubernetes validation.go and
// k8s.io/component-helpers/node/util/sysctl (namespace.go, sysctl.go) v0.37.2.

const (
	kvSysctlSegmentFmt      string = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
	kvSysctlContainSlashFmt string = "(" + kvSysctlSegmentFmt + "[\\./])*" + kvSysctlSegmentFmt
	kvSysctlMaxLength       int    = 253
)

var kvSysctlRegexp = regexp.MustCompile("^" + kvSysctlContainSlashFmt + "$")

func kvIsValidSysctlName(name string) bool {
	if len(name) > kvSysctlMaxLength {
		return false
	}
	return kvSysctlRegexp.MatchString(name)
}

var kvSysctlNameToNamespace = map[string]string{
	"kernel.domainname":      "UTS",
	"kernel.sem":             "IPC",
	"kernel.shmall":          "IPC",
	"kernel.shmmax":          "IPC",
	"kernel.shmmni":          "IPC",
	"kernel.shm_rmid_forced": "IPC",
	"kernel.shm":             "IPC",
	"kernel.msgmax":          "IPC",
	"kernel.msgmnb":          "IPC",
	"kernel.msgmni":          "IPC",
	"kernel.msg":             "IPC",
}

var kvSysctlPrefixToNamespace = map[string]string{
	"net":       "Net",
	"fs.mqueue": "IPC",
	"user":      "User",
}

// kvSysctlNamespace is utilsysctl.GetNamespace's first result: "" when the sysctl
// is not known to be namespaced.
func kvSysctlNamespace(sysctl string) string {
	name := kvNormalizeSysctlName(sysctl)
	if i := strings.IndexAny(name, "*"); i != -1 {
		name = name[:i]
	}
	if ns, ok := kvSysctlNameToNamespace[name]; ok {
		return ns
	}
	for p, ns := range kvSysctlPrefixToNamespace {
		if strings.HasPrefix(name, p+".") {
			return ns
		}
	}
	return ""
}

// kvNormalizeSysctlName is utilsysctl.NormalizeName: a name written with slashes
// (net/ipv4/ip_forward) becomes the dotted form (net.ipv4.ip_forward).
func kvNormalizeSysctlName(val string) string {
	if val == "" {
		return val
	}
	firstSepIndex := strings.IndexAny(val, "./")
	if firstSepIndex == -1 || val[firstSepIndex] == '.' {
		return val
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '.':
			return '/'
		case '/':
			return '.'
		}
		return r
	}, val)
}

// ---- image allowlist patterns: ported from
// pkg/kubelet/images/pullmanager/image_pull_policies.go (getAllowlistImagePattern).

// kvAllowlistImageName is how a pattern without a wildcard is reduced to the image
// name it must equal: 1.33 to 1.35 normalize it (so a short name such as "nginx"
// becomes docker.io/library/nginx and no longer equals itself); 1.36 only trims
// the tag and digest.
var kvAllowlistImageName = byMinor[func(string) (string, error)]{
	{"1.33", kvNormalizedImageName},
	{"1.36", kvTrimImageTagDigest},
}

// kvNormalizedImageName is dockerref.ParseNormalizedNamed(image).Name().
func kvNormalizedImageName(image string) (string, error) {
	named, err := imageref.ParseNormalizedNamed(image)
	if err != nil {
		return "", err
	}
	return named.Name(), nil
}

func kvAllowlistImagePatternError(minor, pattern string) error {
	if pattern != strings.TrimSpace(pattern) {
		return fmt.Errorf("leading/trailing spaces are not allowed: %s", pattern)
	}

	trimmedPattern := pattern
	isWildcard := false
	if strings.HasSuffix(pattern, "/*") {
		isWildcard = true
		trimmedPattern = strings.TrimSuffix(trimmedPattern, "*")
	}

	if len(trimmedPattern) == 0 {
		return fmt.Errorf("the supplied pattern is too short: %s", pattern)
	}

	if strings.ContainsRune(trimmedPattern, '*') {
		return fmt.Errorf("not a valid wildcard pattern, only patterns ending with '/*' are allowed: %s", pattern)
	}

	if isWildcard {
		if len(trimmedPattern) == 1 {
			return fmt.Errorf("at least registry hostname is required")
		}
		return nil
	}
	image, err := kvAllowlistImageName.atVersion(minor)(trimmedPattern)
	if err != nil {
		return fmt.Errorf("failed to parse as an image name: %w", err)
	}
	if trimmedPattern != image {
		return fmt.Errorf("neither tag nor digest is accepted in an image reference: %s", pattern)
	}
	return nil
}

func kvTrimImageTagDigest(image string) (string, error) {
	imageParsed, err := imageref.Parse(image)
	if err != nil {
		return "", err
	}
	var tag, digest string
	if tagged, ok := imageParsed.(imageref.Tagged); ok {
		tag = tagged.Tag()
	}
	if digested, ok := imageParsed.(imageref.Digested); ok {
		digest = digested.Digest().String()
	}

	if len(digest) > 0 {
		var foundDigest bool
		image, foundDigest = strings.CutSuffix(image, "@"+digest)
		if !foundDigest {
			return "", fmt.Errorf("digest was not specified last, this does not appear to be a valid image spec: %q", image)
		}
	}

	if len(tag) > 0 {
		var tagFound bool
		image, tagFound = strings.CutSuffix(image, ":"+tag)
		if !tagFound {
			return "", fmt.Errorf("tag %q was not specified last (or before the digest), this does not appear to be a valid image spec: %q", tag, image)
		}
	}

	return image, nil
}

// kvGateTrap reports the defaulting trap of gated fields: no file set path, so the
// kubelet defaulted it while decoding the main file, whose own gates left the gate
// on; a drop-in then turned the gate off, and validation refuses the defaulted
// value. The finding points at the gate entry that did it. It reports whether it
// emitted.
func kvGateTrap(c *rule.Context, emit kvEmit, gate, path, value, kubelet string) bool {
	if c.Set(path) {
		return false
	}
	emit("featureGates["+gate+"]",
		fmt.Sprintf("%s is turned off here, but %s was already defaulted to %s while the gate was on, so the kubelet refuses to start", gate, path, value),
		fmt.Sprintf("turn the gate off in the main --config file (defaults then leave %s unset), or also set %s to null in this drop-in", path, path),
		kubelet)
	return true
}
