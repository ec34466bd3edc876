package admission

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	admissionv1 "k8s.io/api/admission/v1"
)

// Metrics are the webhook's Prometheus metrics.
type Metrics struct {
	requests  *prometheus.CounterVec
	decisions *prometheus.CounterVec
	findings  *prometheus.CounterVec
	latency   prometheus.Histogram
	objects   *prometheus.CounterVec
}

// NewMetrics registers the webhook's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeletcfg_webhook_requests_total",
			Help: "AdmissionReview requests by outcome: reviewed, or the reason a request was not read."}, []string{"outcome"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeletcfg_webhook_decisions_total",
			Help: "Decisions by object kind and decision (allowed, denied, unjudged)."}, []string{"kind", "decision"}),
		findings: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeletcfg_webhook_findings_total",
			Help: "Findings in decisions by kind, rule and effect (denied, warned)."}, []string{"kind", "rule", "effect"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "kubeletcfg_webhook_review_duration_seconds",
			Help: "Time to review one AdmissionReview.", Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}}),
		objects: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeletcfg_webhook_objects_total",
			Help: "Objects judged (an UPDATE has two) by whether they were evaluated or their findings came from the cache."}, []string{"source"}),
	}
	reg.MustRegister(m.requests, m.decisions, m.findings, m.latency, m.objects)
	return m
}

func (m *Metrics) observe(d Decision, took time.Duration) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues("reviewed").Inc()
	m.latency.Observe(took.Seconds())
	decision := "allowed"
	switch {
	case d.Unjudged != "":
		decision = "unjudged"
	case !d.Allowed:
		decision = "denied"
	}
	m.decisions.WithLabelValues(d.Kind, decision).Inc()
	m.objects.WithLabelValues("evaluated").Add(float64(d.Evaluated))
	m.objects.WithLabelValues("cache").Add(float64(d.Cached))
	for _, r := range d.Denied {
		m.findings.WithLabelValues(d.Kind, r, "denied").Inc()
	}
	for _, r := range d.Warned {
		m.findings.WithLabelValues(d.Kind, r, "warned").Inc()
	}
}

// Handler serves POST /validate (AdmissionReview in, AdmissionReview out),
// GET /healthz, /readyz and /metrics (gatherer's, when not nil).
func Handler(r *Reviewer, m *Metrics, gatherer prometheus.Gatherer) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /validate", func(w http.ResponseWriter, req *http.Request) {
		start := time.Now()
		review, err := ReadReview(req.Body)
		if err != nil {
			if m != nil {
				m.requests.WithLabelValues("unreadable").Inc()
			}
			http.Error(w, "kubeletcfg: "+err.Error(), http.StatusBadRequest)
			return
		}
		resp, d := r.Review(req.Context(), review.Request)
		m.observe(d, time.Since(start))
		out := admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp}
		w.Header().Set("Content-Type", "application/json")
		if err := json.NewEncoder(w).Encode(out); err != nil {
			log.Printf("kubeletcfg webhook: writing the response: %v", err)
		}
	})
	ok := func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) }
	mux.HandleFunc("GET /healthz", ok)
	mux.HandleFunc("GET /readyz", ok)
	if gatherer != nil {
		mux.Handle("GET /metrics", promhttp.HandlerFor(gatherer, promhttp.HandlerOpts{}))
	}
	return mux
}

// CertReloader serves the certificate of a key pair on disk, read again when
// either file changes (cert-manager renews a Secret's files in place), checked
// at most once a second.
type CertReloader struct {
	certFile, keyFile string

	// interval is how often the files are looked at (a second).
	interval time.Duration

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   string
	checked time.Time
}

// NewCertReloader reads the key pair once: an error names the files.
func NewCertReloader(certFile, keyFile string) (*CertReloader, error) {
	c := &CertReloader{certFile: certFile, keyFile: keyFile, interval: time.Second}
	if err := c.load(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *CertReloader) stampNow() string {
	var parts []string
	for _, f := range []string{c.certFile, c.keyFile} {
		st, err := os.Stat(f)
		if err != nil {
			return ""
		}
		parts = append(parts, fmt.Sprintf("%d/%d", st.ModTime().UnixNano(), st.Size()))
	}
	return strings.Join(parts, ",")
}

func (c *CertReloader) load() error {
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-cert-file %s, --tls-private-key-file %s: %v", c.certFile, c.keyFile, err)
	}
	c.cert, c.stamp = &cert, c.stampNow()
	return nil
}

// GetCertificate is tls.Config.GetCertificate: the current key pair; a pair
// that fails to load keeps the one served (and is tried again).
func (c *CertReloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := time.Now(); now.Sub(c.checked) >= c.interval {
		c.checked = now
		if s := c.stampNow(); s != "" && s != c.stamp {
			if err := c.load(); err != nil {
				log.Printf("kubeletcfg webhook: keeping the certificate served: %v", err)
			}
		}
	}
	return c.cert, nil
}

// ServeConfig is how Serve listens.
type ServeConfig struct {
	// Addr is the address to listen on (":8443").
	Addr string
	// CertFile and KeyFile are the serving key pair, reloaded on change.
	CertFile, KeyFile string
}

// Serve serves Handler over TLS on cfg.Addr until ctx ends, then shuts down
// within 10 seconds. ready, when not nil, is called with the address bound.
func Serve(ctx context.Context, cfg ServeConfig, h http.Handler, ready func(net.Addr)) error {
	certs, err := NewCertReloader(cfg.CertFile, cfg.KeyFile)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second,
		TLSConfig: &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certs.GetCertificate}}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ServeTLS(ln, "", "") }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			return err
		}
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
