package kubeletdata

import "encoding/json"

// Golden is one golden file, testdata/conformance/golden/<minor>/<case>.json:
// what the real kubelet did with a case (see testdata/conformance/README.md).
// The harness writes it; kubeletcfg's conformance tests compare against it.
type Golden struct {
	Case    string   `json:"case"`
	Kubelet string   `json:"kubelet"`
	Cgroup  string   `json:"cgroup"`
	Flags   []string `json:"flags,omitempty"`
	Starts  bool     `json:"starts"`
	Panic   bool     `json:"panic"`
	// Stage is where RunE stopped (one of the Stage constants), StageOK when it
	// did not.
	Stage string `json:"stage"`
	Error string `json:"error"`
	// Warnings are the klog warnings the kubelet printed while it validated the
	// configuration, header left out: the Windows kubelet's "ignored configuration
	// option: ... is not supported on Windows" (validation_windows.go). The Linux
	// kubelet prints none there, so its goldens do not have the key.
	Warnings    []string        `json:"warnings,omitempty"`
	Lenient     bool            `json:"lenient"`
	StrictError string          `json:"strictError"`
	Effective   json.RawMessage `json:"effective,omitempty"`
	// CrashLoopBackOff is set when the kubelet starts.
	CrashLoopBackOff *CrashLoopBackOff `json:"crashLoopBackOff,omitempty"`
}

// CrashLoopBackOff is newCrashLoopBackOff's initial delay and cap, as
// time.Duration strings.
type CrashLoopBackOff struct {
	Initial string `json:"initial"`
	Max     string `json:"max"`
}

// Stages of a golden, in the order RunE reaches them.
const (
	StageLoad         = "load"
	StageMerge        = "merge"
	StageFlags        = "flags"
	StageFeatureGates = "featuregates"
	StageLogging      = "logging"
	StageValidate     = "validate"
	// StageRun is after validation: UnsecuredDependencies, run and
	// NewMainKubelet refusing what they parse (reserved resources, eviction
	// thresholds, log sizes, TLS settings).
	StageRun = "run"
	StageOK  = "ok"
)
