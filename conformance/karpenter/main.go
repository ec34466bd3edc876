// Command karpenter-check runs the bootstrap code of Karpenter's AWS provider
// (github.com/aws/karpenter-provider-aws, the release in go.mod) on
// EC2NodeClass files and writes the user data it generates, the reference
// input/karpenter's TestKarpenterHarnessGoldens checks kubeletcfg's
// translation against. It lives in its own module so that the main module
// never links Karpenter (make karpenter-goldens).
//
// For each file: the first EC2NodeClass, the taints of a NodePool of the same
// file that refers to it, then what resolveLaunchTemplates
// (pkg/providers/amifamily/resolver.go) hands the AMI family's UserData:
// v1.ParseKubeletConfig of spec.kubelet, maxPods of the instance type where
// spec.kubelet gives no integer (110, the launch template suite's value),
// defaultClusterDNS (10.0.100.10, the suite's kube-dns IP), the NodeClaim's
// taints then karpenter.sh/unregistered:NoExecute. The family's Bootstrapper
// (pkg/providers/amifamily/bootstrap: Nodeadm, Bottlerocket, EKS, Windows, Custom,
// built as the family's UserData builds it) Script is written decoded (AL2
// and Bottlerocket base64-encode it). The amifamily package itself is not
// linked: it imports pkg/aws and the AWS SDK.
//
//	karpenter-check -out DIR FILE...
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/samber/lo"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/yaml"

	v1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/aws/karpenter-provider-aws/pkg/providers/amifamily/bootstrap"
)

// The launch template suite's cluster (pkg/providers/launchtemplate/suite_test.go).
const (
	maxPods   = 110
	kubeDNSIP = "10.0.100.10"
)

func main() {
	out := flag.String("out", "", "directory of the goldens (FILE's base name, .userdata)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: karpenter-check -out DIR FILE...")
		os.Exit(2)
	}
	for _, f := range flag.Args() {
		ud, err := userData(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
			os.Exit(1)
		}
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)) + ".userdata"
		if err := os.WriteFile(filepath.Join(*out, name), []byte(ud), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

type nodePool struct {
	Spec struct {
		Template struct {
			Spec struct {
				NodeClassRef struct {
					Kind string `json:"kind"`
					Name string `json:"name"`
				} `json:"nodeClassRef"`
				Taints        []corev1.Taint `json:"taints"`
				StartupTaints []corev1.Taint `json:"startupTaints"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

func userData(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var nc *v1.EC2NodeClass
	var pools []nodePool
	r := utilyaml.NewYAMLReader(bufioReader(data))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		var meta struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if yaml.Unmarshal(doc, &meta) != nil {
			continue
		}
		switch {
		case meta.Kind == "EC2NodeClass" && strings.HasPrefix(meta.APIVersion, "karpenter.k8s.aws/") && nc == nil:
			nc = &v1.EC2NodeClass{}
			if err := yaml.Unmarshal(doc, nc); err != nil {
				return "", fmt.Errorf("EC2NodeClass: %w", err)
			}
		case meta.Kind == "NodePool" && strings.HasPrefix(meta.APIVersion, "karpenter.sh/"):
			var p nodePool
			if err := yaml.Unmarshal(doc, &p); err != nil {
				return "", fmt.Errorf("NodePool: %w", err)
			}
			pools = append(pools, p)
		}
	}
	if nc == nil {
		return "", fmt.Errorf("no EC2NodeClass")
	}
	// The NodeClaim's taints: those of the first NodePool referring to this EC2NodeClass.
	var taints []corev1.Taint
	for _, p := range pools {
		if ref := p.Spec.Template.Spec.NodeClassRef; ref.Kind == "EC2NodeClass" && ref.Name == nc.Name {
			taints = append(append(taints, p.Spec.Template.Spec.Taints...), p.Spec.Template.Spec.StartupTaints...)
			break
		}
	}
	// resolveLaunchTemplates.
	if _, found := lo.Find(taints, func(t corev1.Taint) bool { return t.MatchTaint(&karpv1.UnregisteredNoExecuteTaint) }); !found {
		taints = append(taints, karpv1.UnregisteredNoExecuteTaint)
	}
	parsed, err := v1.ParseKubeletConfig(nc.Spec.Kubelet)
	if err != nil {
		return "", fmt.Errorf("spec.kubelet: %w", err)
	}
	unparsed := nc.Spec.Kubelet.DeepCopy()
	if _, ok := parsed.MaxPodsValue(); !ok {
		parsed.MaxPods = lo.ToPtr(intstr.FromInt32(maxPods))
		if unparsed == nil {
			unparsed = v1.KubeletConfiguration{}
		}
		unparsed["maxPods"] = v1.JSONValue(maxPods)
	}
	// defaultClusterDNS.
	if len(parsed.ClusterDNS) == 0 {
		parsed.ClusterDNS = []string{kubeDNSIP}
		if unparsed != nil {
			unparsed["clusterDNS"] = v1.JSONValue(parsed.ClusterDNS)
		}
	}
	// The family's UserData (pkg/providers/amifamily/{al2023,bottlerocket,al2}.go),
	// building the bootstrap.Options as they do; labels are not in the file.
	opts := bootstrap.Options{
		ClusterName:           "test-cluster",
		ClusterEndpoint:       "https://test-cluster",
		KubeletConfig:         parsed,
		UnparsedKubeletConfig: unparsed,
		Taints:                taints,
		CABundle:              lo.ToPtr(base64.StdEncoding.EncodeToString([]byte("ca-bundle"))),
		CustomUserData:        nc.Spec.UserData,
		InstanceStorePolicy:   nc.Spec.InstanceStorePolicy,
	}
	family := nc.AMIFamily()
	var boot bootstrap.Bootstrapper
	switch family {
	case v1.AMIFamilyAL2023:
		opts.ClusterCIDR = lo.ToPtr("10.100.0.0/16")
		boot = bootstrap.Nodeadm{Options: opts}
	case v1.AMIFamilyBottlerocket:
		// EnableDefaultMountPaths is version.SupportsDefaultBind of the
		// alias's version (only mount paths, no kubelet setting): true for
		// @latest, the fixtures' alias.
		alias := nc.Alias()
		boot = bootstrap.Bottlerocket{Options: opts, EnableDefaultMountPaths: alias != nil && alias.Version == v1.AliasVersionLatest}
	case v1.AMIFamilyAL2:
		boot = bootstrap.EKS{Options: opts}
	case v1.AMIFamilyWindows2019, v1.AMIFamilyWindows2022, v1.AMIFamilyWindows2025:
		// windows.go UserData: the same Options but labels, cluster CIDR and
		// instance store policy.
		opts.UnparsedKubeletConfig, opts.InstanceStorePolicy = nil, nil
		boot = bootstrap.Windows{Options: opts}
	case v1.AMIFamilyCustom:
		boot = bootstrap.Custom{Options: opts}
	default:
		return "", fmt.Errorf("amiFamily %s: no family karpenter-check builds", family)
	}
	script, err := boot.Script(context.Background())
	if err != nil {
		return "", fmt.Errorf("%s Script: %w", family, err)
	}
	// Every Script base64-encodes the user data (launchtemplate.go passes it to EC2 as is).
	b, err := base64.StdEncoding.DecodeString(script)
	if err != nil {
		return "", fmt.Errorf("%s Script: %w", family, err)
	}
	script = string(b)
	if family == v1.AMIFamilyAL2 || strings.HasPrefix(family, "Windows") {
		// bootstrap.go joinParameterArgs writes a map's pairs in Go's map
		// order: sorted here so that the golden is the same on every run
		// (the kubelet parses the list the same in any order).
		script = mapFlag.ReplaceAllStringFunc(script, func(f string) string {
			name, v, _ := strings.Cut(f, "=")
			pairs := strings.Split(strings.Trim(v, `"`), ",")
			sort.Strings(pairs)
			return name + `="` + strings.Join(pairs, ",") + `"`
		})
	}
	return fmt.Sprintf("# %s: amiFamily %s\n%s", filepath.Base(path), family, script), nil
}

var mapFlag = regexp.MustCompile(`--(system-reserved|kube-reserved|eviction-hard|eviction-soft|eviction-soft-grace-period)="[^"]*"`)

func bufioReader(data []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(data)) }
