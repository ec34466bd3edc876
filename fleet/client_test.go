package fleet

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// fakeNodes is an API server's nodes resource on loopback: a list served a
// page of two at a time, each node by name, a 403 for the selector "deny";
// answers in protobuf when the client accepts it and proto is set, as the
// API server does, else JSON. Every request is recorded.
type fakeNodes struct {
	proto bool
	nodes []corev1.Node

	mu       sync.Mutex
	requests []string // method path?query accept user-agent
}

func (f *fakeNodes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, fmt.Sprintf("%s %s?%s accept=%q ua=%q", r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept"), r.Header.Get("User-Agent")))
	f.mu.Unlock()
	s := nodeScheme()
	var enc runtime.Encoder = json.NewSerializerWithOptions(json.DefaultMetaFactory, s, s, json.SerializerOptions{})
	contentType := "application/json"
	if f.proto && strings.HasPrefix(r.Header.Get("Accept"), "application/vnd.kubernetes.protobuf") {
		enc, contentType = protobuf.NewSerializer(s, s), "application/vnd.kubernetes.protobuf"
	}
	write := func(code int, obj runtime.Object) {
		var b bytes.Buffer
		if err := enc.Encode(obj, &b); err != nil {
			panic(err)
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(code)
		_, _ = w.Write(b.Bytes())
	}
	fail := func(err *apierrors.StatusError) {
		st := err.Status()
		st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
		write(int(st.Code), &st)
	}
	gr := corev1.Resource("nodes")
	name, named := strings.CutPrefix(r.URL.Path, "/api/v1/nodes/")
	switch {
	case named:
		for i := range f.nodes {
			if f.nodes[i].Name == name {
				n := f.nodes[i]
				n.TypeMeta = metav1.TypeMeta{Kind: "Node", APIVersion: "v1"}
				write(http.StatusOK, &n)
				return
			}
		}
		fail(apierrors.NewNotFound(gr, name))
	case r.URL.Path == "/api/v1/nodes":
		q := r.URL.Query()
		if q.Get("labelSelector") == "deny" {
			fail(apierrors.NewForbidden(gr, "", fmt.Errorf(`User "ci" cannot list resource "nodes"`)))
			return
		}
		start := 0
		if c := q.Get("continue"); c != "" {
			fmt.Sscan(c, &start)
		}
		end := min(start+2, len(f.nodes))
		list := &corev1.NodeList{TypeMeta: metav1.TypeMeta{Kind: "NodeList", APIVersion: "v1"}, Items: f.nodes[start:end]}
		if end < len(f.nodes) {
			list.Continue = fmt.Sprint(end)
		}
		write(http.StatusOK, list)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeNodes) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.requests
	f.requests = nil
	return r
}

// listNodesTyped is ListNodes as it was written on client-go's typed
// clientset, which NewClient replaced: the reference for the requests.
func listNodesTyped(ctx context.Context, cs kubernetes.Interface, selector string, names []string) (nodes []corev1.Node, missing []string, err error) {
	if len(names) > 0 {
		for _, name := range names {
			n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
			switch {
			case err == nil:
				nodes = append(nodes, *n)
			case apierrors.IsNotFound(err):
				missing = append(missing, name)
			default:
				return nil, nil, err
			}
		}
		return nodes, missing, nil
	}
	opts := metav1.ListOptions{LabelSelector: selector, Limit: 500}
	for {
		list, err := cs.CoreV1().Nodes().List(ctx, opts)
		if err != nil {
			return nil, nil, err
		}
		nodes = append(nodes, list.Items...)
		if list.Continue == "" {
			return nodes, nil, nil
		}
		opts.Continue = list.Continue
	}
}

// TestListNodesAsTypedClient: ListNodes on NewClient sends the requests the
// typed clientset sent (paths, query, Accept, User-Agent), decodes the same
// nodes from JSON and protobuf answers, and returns the same errors.
func TestListNodesAsTypedClient(t *testing.T) {
	var nodes []corev1.Node
	for _, n := range []string{"c", "a", "e", "b", "d"} {
		nodes = append(nodes, corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: n, Labels: map[string]string{"pool": "p-" + n}},
			Status:     corev1.NodeStatus{NodeInfo: corev1.NodeSystemInfo{KubeletVersion: "v1.36.1"}},
		})
	}
	for _, tt := range []struct {
		name     string
		selector string
		names    []string
		want     []string // node names
		missing  []string
		err      string // "" no error
	}{
		{name: "every node, three pages", want: []string{"a", "b", "c", "d", "e"}},
		{name: "a selector, sent as labelSelector", selector: "pool=p-a", want: []string{"a", "b", "c", "d", "e"}},
		{name: "by name", names: []string{"e", "gone", "a"}, want: []string{"a", "e"}, missing: []string{"gone"}},
		{name: "forbidden", selector: "deny", err: `nodes is forbidden: User "ci" cannot list resource "nodes"`},
	} {
		for _, proto := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/protobuf=%v", tt.name, proto), func(t *testing.T) {
				f := &fakeNodes{proto: proto, nodes: nodes}
				srv := httptest.NewServer(f)
				defer srv.Close()
				cfg := &rest.Config{Host: srv.URL, QPS: 1000, Burst: 1000, UserAgent: "kubeletcfg/test"}

				c, err := NewClient(cfg)
				if err != nil {
					t.Fatal(err)
				}
				got, missing, err := ListNodes(context.Background(), c, tt.selector, tt.names)
				requests := f.take()
				var names []string
				for _, n := range got {
					names = append(names, n.Name)
					if n.Status.NodeInfo.KubeletVersion != "v1.36.1" || n.Labels["pool"] != "p-"+n.Name {
						t.Errorf("node %s decoded as %+v", n.Name, n)
					}
				}
				if tt.err != "" {
					if err == nil || err.Error() != tt.err || !apierrors.IsForbidden(err) {
						t.Errorf("error %v, want the forbidden %q", err, tt.err)
					}
				} else if err != nil || !slices.Equal(names, tt.want) || !slices.Equal(missing, tt.missing) {
					t.Errorf("got %v missing %v (%v), want %v missing %v", names, missing, err, tt.want, tt.missing)
				}

				cs, csErr := kubernetes.NewForConfig(cfg)
				if csErr != nil {
					t.Fatal(csErr)
				}
				_, _, typedErr := listNodesTyped(context.Background(), cs, tt.selector, tt.names)
				if typed := f.take(); !slices.Equal(requests, typed) {
					t.Errorf("requests:\n%s\nthe typed clientset's:\n%s", strings.Join(requests, "\n"), strings.Join(typed, "\n"))
				}
				if fmt.Sprint(err) != fmt.Sprint(typedErr) {
					t.Errorf("error %v, the typed clientset's %v", err, typedErr)
				}
			})
		}
	}
}

// TestNewClient: the client's rate limit is the config's QPS and burst, as
// the typed clientset's; a QPS without a burst is refused as it refused it.
func TestNewClient(t *testing.T) {
	c, err := NewClient(&rest.Config{Host: "https://10.0.0.1:6443", QPS: 40, Burst: 80})
	if err != nil {
		t.Fatal(err)
	}
	if q := c.GetRateLimiter().QPS(); q != 40 {
		t.Errorf("QPS %v, want 40", q)
	}
	if _, err := NewClient(&rest.Config{Host: "https://10.0.0.1:6443", QPS: 40}); err == nil {
		t.Error("QPS without a burst: no error")
	} else if _, typed := kubernetes.NewForConfig(&rest.Config{Host: "https://10.0.0.1:6443", QPS: 40}); typed == nil || err.Error() != typed.Error() {
		t.Errorf("QPS without a burst: %v, the typed clientset's %v", err, typed)
	}
}

// TestFetchAsTypedClient: Fetch on NewClient sends the proxied requests it
// sent on the typed clientset's core/v1 client, and fails as it did.
func TestFetchAsTypedClient(t *testing.T) {
	f := &fakeNodes{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL, QPS: 1000, Burst: 1000, UserAgent: "kubeletcfg/test"}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reqs := []Request{{Name: "a", Flagz: true}}
	opt := FetchOptions{Concurrency: 1, Attempts: 1}
	got := Fetch(context.Background(), c, reqs, opt)
	requests := f.take()
	typed := Fetch(context.Background(), cs.CoreV1().RESTClient(), reqs, opt)
	if typedRequests := f.take(); len(requests) == 0 || !slices.Equal(requests, typedRequests) {
		t.Errorf("requests:\n%s\nthe typed clientset's:\n%s", strings.Join(requests, "\n"), strings.Join(typedRequests, "\n"))
	}
	if got[0].Failure == nil || typed[0].Failure == nil || *got[0].Failure != *typed[0].Failure {
		t.Errorf("failure %+v, the typed clientset's %+v", got[0].Failure, typed[0].Failure)
	}
}
