package admission

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/rest"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// ClusterMinor asks the API server at cfg for its version (GET /version): the
// cluster's minor, whose window (the kubelets it supports, n-3..n) the
// webhook judges at when it is not told which. A plain REST request: the
// discovery client would link client-go's typed scheme into the command.
func ClusterMinor(cfg *rest.Config) (string, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return "", err
	}
	hc.Timeout = 30 * time.Second
	resp, err := hc.Get(strings.TrimSuffix(cfg.Host, "/") + "/version")
	if err != nil {
		return "", fmt.Errorf("asking the API server for its version: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("asking the API server for its version: %s %v", resp.Status, err)
	}
	var v version.Info
	if err := json.Unmarshal(body, &v); err != nil {
		return "", fmt.Errorf("the API server's /version: %v", err)
	}
	return MinorOf(&v)
}

// MinorOf is the minor a version.Info names ("1.37"): major and minor as the
// API server reports them (EKS and GKE add "+" to the minor), else the git
// version's (v1.37.2-eks-1234).
func MinorOf(v *version.Info) (string, error) {
	if v.Major != "" && v.Minor != "" {
		return v.Major + "." + strings.TrimSuffix(v.Minor, "+"), nil
	}
	if pv, ok := kubelets.ParseVersion(v.GitVersion); ok && pv.Major > 0 {
		return fmt.Sprintf("%d.%d", pv.Major, pv.Minor), nil
	}
	return "", fmt.Errorf("the API server reports no Kubernetes minor (version %q): give the minors with --control-plane or --versions", v.GitVersion)
}
