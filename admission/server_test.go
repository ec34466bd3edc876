package admission

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// writeCert writes a self-signed certificate for 127.0.0.1 with serial n.
func writeCert(t *testing.T, dir string, n int64) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(n), Subject: pkix.Name{CommonName: "kubeletcfg-webhook"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServe: the webhook over TLS on loopback answers an AdmissionReview,
// refuses a body that is not one with 400, serves health and metrics that
// count the decisions, and serves a renewed certificate without a restart.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, pool := writeCert(t, dir, 1)
	r, err := New(Config{Minors: minors(t, "1.37")})
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	h := Handler(r, NewMetrics(reg), reg)
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- Serve(ctx, ServeConfig{Addr: "127.0.0.1:0", CertFile: certFile, KeyFile: keyFile}, h, func(a net.Addr) { addrc <- a })
	}()
	var base string
	select {
	case a := <-addrc:
		base = "https://" + a.String()
	case err := <-errc:
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}

	review, _ := json.Marshal(admissionv1.AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass("    evictionHard:\n      memory.available: 500Mx\n"), nil)})
	resp, err := client.Post(base+"/validate", "application/json", bytes.NewReader(review))
	if err != nil {
		t.Fatal(err)
	}
	var out admissionv1.AdmissionReview
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || out.Response == nil || out.Response.Allowed || out.Response.UID != "uid-1" || out.Kind != "AdmissionReview" {
		t.Fatalf("status %d, response %+v", resp.StatusCode, out.Response)
	}

	resp, err = client.Post(base+"/validate", "application/json", strings.NewReader("{"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "not an AdmissionReview") {
		t.Errorf("bad body: %d %q", resp.StatusCode, body)
	}

	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := client.Get(base + path)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %v %v", path, err, resp)
		}
		if resp != nil {
			resp.Body.Close()
		}
	}
	resp, err = client.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`kubeletcfg_webhook_decisions_total{decision="denied",kind="EC2NodeClass"} 1`,
		`kubeletcfg_webhook_requests_total{outcome="unreadable"} 1`, `kubeletcfg_webhook_findings_total{effect="denied",kind="EC2NodeClass",rule="KC9001"} 1`,
		"kubeletcfg_webhook_review_duration_seconds_count 1", `kubeletcfg_webhook_objects_total{source="evaluated"} 1`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("metrics lack %s", want)
		}
	}

	// A renewed certificate (cert-manager writes the Secret's files again).
	_, _, pool2 := writeCert(t, dir, 2)
	client2 := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool2}}}
	served := false
	for i := 0; i < 30 && !served; i++ { // the reloader looks at most once a second
		if resp, err := client2.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			served = true
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !served {
		t.Error("the renewed certificate is not served")
	}
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestCertReloaderRefusesBadFiles: a key pair that does not load is an error
// naming the flags and files.
func TestCertReloaderRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "tls.crt")
	if err := os.WriteFile(bad, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := NewCertReloader(bad, filepath.Join(dir, "missing.key"))
	if err == nil || !strings.Contains(err.Error(), "--tls-cert-file "+bad) {
		t.Errorf("error %v", err)
	}
}
