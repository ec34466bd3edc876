package fleet

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"

	"github.com/kubeletcfg/kubeletcfg/engine"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Reasons a node could not be read (Failure.Reason).
const (
	ReasonForbidden    = "forbidden"
	ReasonUnreachable  = "unreachable"
	ReasonTimeout      = "timeout"
	ReasonNotServed    = "configz-not-served"
	ReasonUnknownMinor = "unknown-minor"
	// ReasonTooLarge: the answer is larger than a file kubeletcfg reads
	// (source.MaxFileSize); ReasonMalformed: it is not a configz document.
	ReasonTooLarge  = "too-large"
	ReasonMalformed = "malformed"
)

// errTooLarge is a proxied answer of more than source.MaxFileSize bytes: no
// kubelet's configuration is near it, and reading on would let one broken
// node take the run's memory.
var errTooLarge = fmt.Errorf("larger than %d MiB", source.MaxFileSize>>20)

// Failure is a node that could not be read or evaluated, with why.
type Failure struct {
	Node    string `json:"node"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// FetchOptions bound how nodes are read.
type FetchOptions struct {
	// Concurrency is how many nodes are read at once (requests in flight: at
	// most this many; the client's QPS and burst limit the rate besides).
	Concurrency int
	// NodeTimeout bounds one node's reads, retries included.
	NodeTimeout time.Duration
	// Attempts is how many times one request is tried (429, 5xx, timeouts).
	Attempts int
	// BaseDelay and MaxDelay bound the exponential backoff between attempts
	// (with jitter); a longer Retry-After from the server wins.
	BaseDelay, MaxDelay time.Duration
	// Progress, when set, is called after each node (done, failed, total);
	// calls are serialised.
	Progress func(done, failed, total int)
}

// The cluster run's defaults: at most 16 proxied requests in flight keeps
// kubeletcfg a small tenant of its API Priority and Fairness level (APF limits
// requests in flight, not their rate); 100 QPS with a burst of 200 reads 2,000
// nodes' configz and flagz (4,000 requests) in about 40 s.
const (
	DefaultConcurrency = 16
	DefaultQPS         = 100
	DefaultBurst       = 200
	DefaultNodeTimeout = 20 * time.Second
)

// Defaults fills unset options.
func (o FetchOptions) withDefaults() FetchOptions {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.NodeTimeout <= 0 {
		o.NodeTimeout = DefaultNodeTimeout
	}
	if o.Attempts <= 0 {
		o.Attempts = 5
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = 250 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 8 * time.Second
	}
	return o
}

// NodeData is what was read from one node.
type NodeData struct {
	Name string
	// Configz is /configz's body ({"kubeletconfig": {...}}).
	Configz []byte
	// Flagz is /flagz's body; nil when the kubelet does not serve it (or it
	// was not asked for), with FlagzMissing saying why.
	Flagz        []byte
	FlagzMissing string
	// Failure is set when configz could not be read.
	Failure *Failure
}

// Request is one node to read; Flagz also reads its /flagz (text/plain).
type Request struct {
	Name  string
	Flagz bool
}

// Fetch reads configz (and flagz) of each requested node through the API server's
// node proxy (GET /api/v1/nodes/NAME/proxy/configz), on at most
// opt.Concurrency workers; a node that cannot be read gets a Failure, never
// stops the others. An answer larger than source.MaxFileSize fails with
// ReasonTooLarge (a flagz that is: its flags are unknown); with c from
// NewClient no more than that is read of any answer. Cancelling ctx stops the
// run: the nodes not read yet fail with ReasonTimeout.
func Fetch(ctx context.Context, c rest.Interface, reqs []Request, opt FetchOptions) []NodeData {
	opt = opt.withDefaults()
	out := make([]NodeData, len(reqs))
	var done, failed atomic.Int64
	var mu sync.Mutex
	engine.Each(len(reqs), opt.Concurrency, func(i int) {
		out[i] = fetchNode(ctx, c, reqs[i], opt)
		d := done.Add(1)
		f := failed.Load()
		if out[i].Failure != nil {
			f = failed.Add(1)
		}
		if opt.Progress != nil {
			mu.Lock()
			opt.Progress(int(d), int(f), len(reqs))
			mu.Unlock()
		}
	})
	return out
}

func fetchNode(ctx context.Context, c rest.Interface, r Request, opt FetchOptions) NodeData {
	name := r.Name
	d := NodeData{Name: name}
	ctx, cancel := context.WithTimeout(ctx, opt.NodeTimeout)
	defer cancel()
	body, err := get(ctx, c, name, "configz", "", opt)
	if err != nil {
		d.Failure = classify(ctx, name, "configz", err, opt)
		return d
	}
	d.Configz = body
	if !r.Flagz {
		d.FlagzMissing = "not asked: the ComponentFlagz gate is off by default before kubelet 1.36"
		return d
	}
	body, err = get(ctx, c, name, "flagz", "text/plain", opt)
	if err != nil {
		d.FlagzMissing = classify(ctx, name, "flagz", err, opt).Message
		return d
	}
	d.Flagz = body
	return d
}

// get is one proxied GET with retries: on 429, 5xx and timeouts, after an
// exponential backoff with jitter or the server's Retry-After, whichever is
// longer, until opt.Attempts or ctx ends. client-go's own retries are off
// (MaxRetries(0)) so that this is the one policy.
func get(ctx context.Context, c rest.Interface, node, path, accept string, opt FetchOptions) ([]byte, error) {
	delay := opt.BaseDelay
	ctx = withBodyLimit(ctx, source.MaxFileSize)
	for attempt := 1; ; attempt++ {
		req := c.Get().Resource("nodes").Name(node).SubResource("proxy").Suffix(path).MaxRetries(0)
		if accept != "" {
			req = req.SetHeader("Accept", accept)
		}
		res := req.Do(ctx)
		body, err := res.Raw()
		if err == nil {
			if len(body) > source.MaxFileSize { // also without NewClient's cut; never tried again
				return nil, errTooLarge
			}
			return body, nil
		}
		header := err     // carries the Retry-After header
		err = res.Error() // the API server's Status when it sent one

		if attempt >= opt.Attempts || ctx.Err() != nil || !retryable(err) {
			return nil, err
		}
		wait := delay/2 + rand.N(delay/2+1) // jitter: [delay/2, delay]
		for _, e := range []error{err, header} {
			if s, ok := apierrors.SuggestsClientDelay(e); ok && time.Duration(s)*time.Second > wait {
				wait = time.Duration(s) * time.Second
			}
		}
		delay = min(delay*2, opt.MaxDelay)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
	}
}

func retryable(err error) bool {
	if apierrors.IsTooManyRequests(err) || apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) {
		return true
	}
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		code := se.Status().Code
		return code >= 500 && code != http.StatusNotImplemented
	}
	// Transport errors (connection reset, refused): the API server may be
	// restarting; worth another try within the node's time.
	return true
}

// classify turns the last error of a node's read into a Failure.
func classify(ctx context.Context, node, path string, err error, opt FetchOptions) *Failure {
	f := &Failure{Node: node}
	msg := Redact(err.Error())
	var se apierrors.APIStatus
	status := errors.As(err, &se)
	switch {
	case errors.Is(err, errTooLarge):
		f.Reason = ReasonTooLarge
		f.Message = fmt.Sprintf("%s %s: kubeletcfg reads at most %d bytes of an answer, as of a file", path, msg, source.MaxFileSize)
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		f.Reason = ReasonTimeout
		if errors.Is(ctx.Err(), context.Canceled) {
			f.Message = "cancelled before the node was read"
		} else {
			f.Message = fmt.Sprintf("no answer from the node's kubelet through the API server within --node-timeout %s (retries included)", opt.NodeTimeout)
		}
	case apierrors.IsForbidden(err) && strings.Contains(msg, "nodes/proxy"):
		f.Reason = ReasonForbidden
		f.Message = fmt.Sprintf("the API server refused GET nodes/%s/proxy/%s: the user needs get on nodes/proxy (and list, get on nodes); see deploy/rbac.yaml: %s", node, path, msg)
	case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
		f.Reason = ReasonForbidden
		f.Message = fmt.Sprintf("the node's kubelet refused the API server's request for /%s (the kubelet authorizes the API server's kubelet client: it needs nodes/proxy, or nodes/configz on kubelets with fine-grained authorization): %s", path, msg)
	case apierrors.IsNotFound(err) && strings.Contains(msg, fmt.Sprintf("nodes %q not found", node)):
		f.Reason = ReasonUnreachable
		f.Message = "the node was deleted during the run"
	case status && (se.Status().Code == http.StatusNotFound || se.Status().Code == http.StatusMethodNotAllowed):
		f.Reason = ReasonNotServed
		if path == "configz" {
			f.Message = fmt.Sprintf("the kubelet does not serve /configz (HTTP %d: it is a debugging handler, off with enableDebuggingHandlers: false)", se.Status().Code)
		} else {
			f.Message = fmt.Sprintf("the kubelet does not serve /%s (HTTP %d: the ComponentFlagz gate is off, on by default from 1.36)", path, se.Status().Code)
		}
	case apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) || (status && se.Status().Code == http.StatusGatewayTimeout):
		f.Reason = ReasonTimeout
		f.Message = fmt.Sprintf("the API server timed out reaching the kubelet after %d attempts: %s", opt.Attempts, msg)
	case apierrors.IsTooManyRequests(err):
		f.Reason = ReasonUnreachable
		f.Message = fmt.Sprintf("the API server kept answering 429 Too Many Requests after %d attempts (lower --qps or --concurrency): %s", opt.Attempts, msg)
	default:
		f.Reason = ReasonUnreachable
		f.Message = fmt.Sprintf("the API server could not reach the node's kubelet after %d attempts: %s", opt.Attempts, msg)
	}
	return f
}

var userinfo = regexp.MustCompile(`(://)[^/@\s]*@`)

// Redact removes credentials a URL in s may carry (user:password@).
func Redact(s string) string { return userinfo.ReplaceAllString(s, "$1") }
