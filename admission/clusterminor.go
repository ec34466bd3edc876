package admission

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
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

// MachineVersions is TemplateVersions through the API server at cfg: the
// Cluster API MachineDeployments and MachinePools of the template's
// namespace (cluster.x-k8s.io v1beta2, else v1beta1) whose
// spec.template.spec.bootstrap.configRef names the KubeadmConfigTemplate, and
// their spec.template.spec.version. It needs list on both (read-only RBAC).
func MachineVersions(cfg *rest.Config) (TemplateVersions, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	host := strings.TrimSuffix(cfg.Host, "/")
	return func(ctx context.Context, namespace, name string) ([]string, error) {
		var versions []string
		for _, resource := range []string{"machinedeployments", "machinepools"} {
			items, err := listCAPI(ctx, hc, host, namespace, resource)
			if err != nil {
				return nil, err
			}
			for _, it := range items {
				ref, spec := it.Spec.Template.Spec.Bootstrap.ConfigRef, it.Spec.Template.Spec
				if ref.Kind == "KubeadmConfigTemplate" && ref.Name == name && spec.Version != "" && !slices.Contains(versions, spec.Version) {
					versions = append(versions, spec.Version)
				}
			}
		}
		slices.Sort(versions)
		return versions, nil
	}, nil
}

// capiMachine is what MachineVersions reads of a MachineDeployment or
// MachinePool (the same at v1beta1 and v1beta2).
type capiMachine struct {
	Spec struct {
		Template struct {
			Spec struct {
				Version   string `json:"version"`
				Bootstrap struct {
					ConfigRef struct {
						Kind string `json:"kind"`
						Name string `json:"name"`
					} `json:"configRef"`
				} `json:"bootstrap"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

// listCAPI lists a Cluster API resource of a namespace at v1beta2, else
// v1beta1; a resource the API server does not serve (Cluster API not
// installed, MachinePools off) is an empty list.
func listCAPI(ctx context.Context, hc *http.Client, host, namespace, resource string) ([]capiMachine, error) {
	for _, v := range []string{"v1beta2", "v1beta1"} {
		url := fmt.Sprintf("%s/apis/cluster.x-k8s.io/%s/namespaces/%s/%s", host, v, namespace, resource)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %v", resource, err)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		resp.Body.Close()
		switch {
		case err != nil:
			return nil, fmt.Errorf("listing %s: %v", resource, err)
		case resp.StatusCode == http.StatusNotFound:
			continue
		case resp.StatusCode != http.StatusOK:
			return nil, fmt.Errorf("listing %s in %s: %s", resource, namespace, resp.Status)
		}
		var list struct {
			Items []capiMachine `json:"items"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			return nil, fmt.Errorf("listing %s: %v", resource, err)
		}
		return list.Items, nil
	}
	return nil, nil
}
