package fleet

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kubeletcfg/kubeletcfg/source"
)

// fakeProxy is an API server's node proxy on loopback: each node behaves as
// its handler says; every request is recorded.
type fakeProxy struct {
	mu    sync.Mutex
	calls map[string][]time.Time // "node/path" -> request times
	nodes map[string]http.HandlerFunc
}

func (f *fakeProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// /api/v1/nodes/NAME/proxy/PATH
	rest, ok := strings.CutPrefix(r.URL.Path, "/api/v1/nodes/")
	name, path, ok2 := strings.Cut(rest, "/proxy/")
	if !ok || !ok2 {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	f.calls[name+"/"+path] = append(f.calls[name+"/"+path], time.Now())
	h := f.nodes[name]
	f.mu.Unlock()
	if h == nil {
		status(w, http.StatusNotFound, "NotFound", fmt.Sprintf("nodes %q not found", name))
		return
	}
	h(w, r)
}

func (f *fakeProxy) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls[key])
}

// status writes a metav1.Status as the API server does.
func status(w http.ResponseWriter, code int, reason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"code":%d}`, msg, reason, code)
}

const configzBody = `{"kubeletconfig":{"maxPods":110}}`

func client(t *testing.T, h http.Handler) rest.Interface {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := NewClient(&rest.Config{Host: srv.URL, QPS: 1000, Burst: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFetch(t *testing.T) {
	var flaky, retryAfter sync.Map
	proxy := &fakeProxy{calls: map[string][]time.Time{}, nodes: map[string]http.HandlerFunc{
		"ok": func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/flagz") {
				if r.Header.Get("Accept") != "text/plain" {
					t.Errorf("flagz asked with Accept %q", r.Header.Get("Accept"))
				}
				fmt.Fprint(w, "\nkubelet flagz\nWarning: not machine parseable\n\nnode-ip=10.0.0.1\n")
				return
			}
			fmt.Fprint(w, configzBody)
		},
		"flaky": func(w http.ResponseWriter, r *http.Request) {
			n, _ := flaky.LoadOrStore(r.URL.Path, new(int))
			if *n.(*int)++; *n.(*int) <= 2 {
				status(w, http.StatusServiceUnavailable, "ServiceUnavailable", "error trying to reach service: dial tcp 10.0.0.2:10250: connect: connection refused")
				return
			}
			fmt.Fprint(w, configzBody)
		},
		"throttled": func(w http.ResponseWriter, r *http.Request) {
			n, _ := retryAfter.LoadOrStore(r.URL.Path, new(int))
			if *n.(*int)++; *n.(*int) == 1 {
				w.Header().Set("Retry-After", "1")
				status(w, http.StatusTooManyRequests, "TooManyRequests", "too many requests")
				return
			}
			fmt.Fprint(w, configzBody)
		},
		"down": func(w http.ResponseWriter, r *http.Request) {
			status(w, http.StatusServiceUnavailable, "ServiceUnavailable", "error trying to reach service: dial tcp 10.0.0.3:10250: connect: connection refused")
		},
		"forbidden": func(w http.ResponseWriter, r *http.Request) {
			status(w, http.StatusForbidden, "Forbidden", `nodes "forbidden" is forbidden: User "ci" cannot get resource "nodes/proxy" in API group "" at the cluster scope`)
		},
		"debug-off": func(w http.ResponseWriter, r *http.Request) {
			http.NotFound(w, r) // the kubelet's own 404 page, text
		},
		"slow": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		},
		"bad-request": func(w http.ResponseWriter, r *http.Request) {
			status(w, http.StatusBadRequest, "BadRequest", "no")
		},
	}}
	c := client(t, proxy)
	names := []string{"ok", "flaky", "throttled", "down", "forbidden", "debug-off", "slow", "gone", "bad-request"}
	var reqs []Request
	for _, n := range names {
		reqs = append(reqs, Request{Name: n, Flagz: n == "ok"})
	}
	var progress []string
	got := Fetch(context.Background(), c, reqs, FetchOptions{
		Concurrency: 3, NodeTimeout: 1500 * time.Millisecond, Attempts: 4, BaseDelay: 10 * time.Millisecond, MaxDelay: 40 * time.Millisecond,
		Progress: func(done, failed, total int) {
			progress = append(progress, fmt.Sprintf("%d/%d/%d", done, failed, total))
		},
	})
	want := map[string]string{ // node -> failure reason ("" read)
		"ok": "", "flaky": "", "throttled": "", "down": ReasonUnreachable, "forbidden": ReasonForbidden,
		"debug-off": ReasonNotServed, "slow": ReasonTimeout, "gone": ReasonUnreachable, "bad-request": ReasonUnreachable,
	}
	for i, d := range got {
		if d.Name != names[i] {
			t.Fatalf("result %d is %s, want %s", i, d.Name, names[i])
		}
		reason := ""
		if d.Failure != nil {
			reason = d.Failure.Reason
			if d.Failure.Node != d.Name || d.Failure.Message == "" {
				t.Errorf("%s: failure %+v", d.Name, d.Failure)
			}
		} else if string(d.Configz) != configzBody {
			t.Errorf("%s: configz %q", d.Name, d.Configz)
		}
		if reason != want[d.Name] {
			t.Errorf("%s: reason %q, want %q (%+v)", d.Name, reason, want[d.Name], d.Failure)
		}
	}
	if !strings.Contains(string(got[0].Flagz), "node-ip=10.0.0.1") || got[1].Flagz != nil || got[1].FlagzMissing == "" {
		t.Errorf("flagz: ok %q, flaky %q (%s)", got[0].Flagz, got[1].Flagz, got[1].FlagzMissing)
	}
	if m := got[4].Failure.Message; !strings.Contains(m, "get on nodes/proxy") || !strings.Contains(m, "deploy/rbac.yaml") {
		t.Errorf("forbidden: the message does not name the missing RBAC: %s", m)
	}
	if m := got[7].Failure.Message; m != "the node was deleted during the run" {
		t.Errorf("gone: %s", m)
	}
	// Retries: flaky read on its third attempt, down tried Attempts times, a
	// 400 and a 403 and a 404 never retried.
	for key, n := range map[string]int{"flaky/configz": 3, "down/configz": 4, "forbidden/configz": 1, "debug-off/configz": 1, "bad-request/configz": 1, "throttled/configz": 2, "ok/flagz": 1} {
		if got := proxy.count(key); got != n {
			t.Errorf("%s: %d requests, want %d", key, got, n)
		}
	}
	// Retry-After: 1 is honoured although the backoff asks for 10ms.
	proxy.mu.Lock()
	at := proxy.calls["throttled/configz"]
	proxy.mu.Unlock()
	if len(at) == 2 && at[1].Sub(at[0]) < 900*time.Millisecond {
		t.Errorf("throttled: retried after %s, Retry-After said 1s", at[1].Sub(at[0]))
	}
	if len(progress) != len(names) || progress[len(progress)-1] != fmt.Sprintf("%d/6/%d", len(names), len(names)) {
		t.Errorf("progress: %v", progress)
	}
}

// TestFetchCancelled: a cancelled run stops and fails the nodes it did not
// read, with the reason timeout and a message that says so.
func TestFetchCancelled(t *testing.T) {
	proxy := &fakeProxy{calls: map[string][]time.Time{}, nodes: map[string]http.HandlerFunc{}}
	block := make(chan struct{})
	for i := range 4 {
		proxy.nodes[fmt.Sprint("n", i)] = func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-block:
			}
		}
	}
	defer close(block)
	ctx, cancel := context.WithCancel(context.Background())
	c := client(t, proxy)
	var reqs []Request
	for i := range 4 {
		reqs = append(reqs, Request{Name: fmt.Sprint("n", i)})
	}
	done := make(chan []NodeData)
	go func() { done <- Fetch(ctx, c, reqs, FetchOptions{Concurrency: 2, NodeTimeout: time.Minute}) }()
	for proxy.count("n0/configz")+proxy.count("n1/configz") < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	for _, d := range <-done {
		if d.Failure == nil || d.Failure.Reason != ReasonTimeout || !strings.Contains(d.Failure.Message, "cancelled") {
			t.Errorf("%s: %+v", d.Name, d.Failure)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		`Get "https://admin:s3cret@10.0.0.1:6443/api/v1/nodes": EOF`: `Get "https://10.0.0.1:6443/api/v1/nodes": EOF`,
		`Get "https://10.0.0.1:6443/api": EOF`:                       `Get "https://10.0.0.1:6443/api": EOF`,
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFetchTooLarge: an answer larger than a file kubeletcfg reads
// (source.MaxFileSize) fails its node (configz) or leaves its flags unknown
// (flagz), and is not read on: of a 64 MiB configz, the kubelet's side gets
// rid of little more than the limit before the connection closes. An answer
// of exactly the limit is read.
func TestFetchTooLarge(t *testing.T) {
	var bigWritten atomic.Int64
	exact := append([]byte(`{"kubeletconfig":{"x":"`), bytes.Repeat([]byte("a"), source.MaxFileSize-len(`{"kubeletconfig":{"x":""}}`))...)
	exact = append(exact, `"}}`...)
	proxy := &fakeProxy{calls: map[string][]time.Time{}, nodes: map[string]http.HandlerFunc{
		"big": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			chunk := bytes.Repeat([]byte(" "), 64<<10)
			_, _ = w.Write([]byte(`{"kubeletconfig":{}`))
			for range 1024 { // 64 MiB
				n, err := w.Write(chunk)
				bigWritten.Add(int64(n))
				if err != nil {
					return
				}
			}
			_, _ = w.Write([]byte("}"))
		},
		"exact": func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(exact) },
		"big-flagz": func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/flagz") {
				_, _ = w.Write(bytes.Repeat([]byte("a=b\n"), (source.MaxFileSize+4)/4))
				return
			}
			fmt.Fprint(w, configzBody)
		},
	}}
	c := client(t, proxy)
	got := Fetch(context.Background(), c, []Request{{Name: "big"}, {Name: "exact"}, {Name: "big-flagz", Flagz: true}},
		FetchOptions{Concurrency: 3, NodeTimeout: 20 * time.Second, Attempts: 3, BaseDelay: time.Millisecond})
	if f := got[0].Failure; f == nil || f.Reason != ReasonTooLarge || !strings.HasPrefix(f.Message, "configz larger than 4 MiB") {
		t.Errorf("big: failure %+v, want %s: configz larger than 4 MiB", f, ReasonTooLarge)
	}
	if n := proxy.count("big/configz"); n != 1 {
		t.Errorf("big: %d requests: a too large answer is not tried again", n)
	}
	if w := bigWritten.Load(); w > 16<<20 {
		t.Errorf("big: %d MiB of 64 sent before the client stopped reading", w>>20)
	}
	if got[1].Failure != nil || len(got[1].Configz) != source.MaxFileSize {
		t.Errorf("exact: failure %+v, %d bytes; want the %d bytes read", got[1].Failure, len(got[1].Configz), source.MaxFileSize)
	}
	if d := got[2]; d.Failure != nil || d.Flagz != nil || !strings.HasPrefix(d.FlagzMissing, "flagz larger than 4 MiB") {
		t.Errorf("big-flagz: failure %+v, flagz %d bytes, missing %q: want configz read, flagz too large", d.Failure, len(d.Flagz), d.FlagzMissing)
	}
}
