package fleet

import (
	"context"
	"fmt"
	"io"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
)

// NewClient is the client of a cluster run: a REST client for the core/v1
// API, which is all ListNodes and Fetch call (list and get nodes, GET
// nodes/NAME/proxy/PATH). It is configured as client-go's typed clientset
// configures its core/v1 client (kubernetes.NewForConfig: the user agent, a
// token bucket of cfg.QPS and cfg.Burst, path /api, the generated clients'
// codecs), with a scheme that holds only Node, NodeList, the options and
// Status: the typed clientset's scheme registers every API group when the
// program starts, a cost every kubeletcfg run paid although only cluster uses
// it.
func NewClient(cfg *rest.Config) (*rest.RESTClient, error) {
	c := *cfg
	if c.UserAgent == "" {
		c.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	if c.RateLimiter == nil && c.QPS > 0 {
		if c.Burst <= 0 {
			return nil, fmt.Errorf("burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0")
		}
		c.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(c.QPS, c.Burst)
	}
	gv := corev1.SchemeGroupVersion
	c.GroupVersion = &gv
	c.APIPath = "/api"
	s := nodeScheme()
	c.NegotiatedSerializer = rest.CodecFactoryForGeneratedClient(s, serializer.NewCodecFactory(s)).WithoutConversion()
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return limitBodies{rt} })
	return rest.RESTClientFor(&c)
}

type bodyLimitKey struct{}

// withBodyLimit asks NewClient's transport to hand the requests made with ctx
// at most limit+1 bytes of each response body (limitBodies).
func withBodyLimit(ctx context.Context, limit int64) context.Context {
	return context.WithValue(ctx, bodyLimitKey{}, limit)
}

// limitBodies cuts a response body after its request's limit plus one byte
// (withBodyLimit; other requests, such as node lists, are left whole). client-go
// reads a whole body, an error's too, before the caller sees it: cutting it
// here is what bounds the memory a kubelet's answer can take, and the byte
// past the limit is how the caller tells an answer that is too large.
type limitBodies struct{ rt http.RoundTripper }

func (l limitBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(req)
	if limit, ok := req.Context().Value(bodyLimitKey{}).(int64); ok && err == nil && resp.Body != nil {
		resp.Body = cutBody{Reader: io.LimitReader(resp.Body, limit+1), Closer: resp.Body}
	}
	return resp, err
}

type cutBody struct {
	io.Reader
	io.Closer
}

// nodeScheme is the scheme of the cluster run's requests and answers: the
// objects they decode (Node, NodeList; Status, which AddToGroupVersion
// registers) and the options they encode as query parameters (GetOptions,
// ListOptions) in core/v1, as the typed clientset's scheme has them. Built when
// a client is, not when the program starts.
func nodeScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypes(corev1.SchemeGroupVersion, &corev1.Node{}, &corev1.NodeList{})
	metav1.AddToGroupVersion(s, corev1.SchemeGroupVersion)
	return s
}
