package kubeletdata

// BackoffRecording is testdata/conformance/backoff/<minor>.json: the crash-loop
// backoff of a minor's real client-go flowcontrol.Backoff, driven as the kubelet
// drives it, for a few (initial, cap) pairs. Durations are time.Duration strings.
type BackoffRecording struct {
	Generated      string        `json:"_generated"`
	Kubelet        string        `json:"kubelet"`
	HasExpiredFunc string        `json:"hasExpiredFunc"`
	PollEvery      string        `json:"pollEvery"`
	Window         string        `json:"window"`
	Pairs          []BackoffPair `json:"pairs"`
}

// BackoffPair is the recorded curve of one (initial, cap) pair.
type BackoffPair struct {
	Initial string `json:"initial"`
	Max     string `json:"max"`
	// Delays are the waits before each restart in [0, window) after the first
	// crash, run-length encoded.
	Delays        []BackoffDelays `json:"delays"`
	RestartsIn10m int             `json:"restartsIn10m"`
	RestartsIn1h  int             `json:"restartsIn1h"`
	// ResetAfter is the longest clean run (to the nanosecond) after which a crash
	// still waits; ForgetAfter the longest time since the last restart for which
	// Backoff.GC (the kubelet's housekeeping) keeps the entry.
	ResetAfter  string            `json:"resetAfter"`
	ForgetAfter string            `json:"forgetAfter"`
	CleanRuns   []BackoffCleanRun `json:"cleanRuns"`
}

// BackoffDelays is Count restarts in a row, each after Delay.
type BackoffDelays struct {
	Delay string `json:"delay"`
	Count int    `json:"count"`
}

// BackoffCleanRun: restart AfterRestart's container ran cleanly for Run, then
// crashed; Next is the wait until it restarts, Following the wait after it exits
// again at once.
type BackoffCleanRun struct {
	AfterRestart int    `json:"afterRestart"`
	Run          string `json:"run"`
	Next         string `json:"next"`
	Following    string `json:"following"`
}
