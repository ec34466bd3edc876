package main

import (
	"fmt"
	"net"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/admission"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/policy"
)

func newWebhookCommand() *cobra.Command {
	var certFile, keyFile, failOn, versions, controlPlane, kubeletVersion, policyFile string
	var port int
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "webhook",
		Short: "Serve a validating admission webhook: refuse node configuration the node's kubelet would refuse",
		Long: `webhook serves admission.k8s.io/v1 AdmissionReviews over HTTPS (POST /validate; /healthz,
/readyz, /metrics): EC2NodeClass, KubeadmConfig(Template), KubeadmControlPlane(Template),
kube-system/kubelet-config and ConfigMaps labelled ` + admission.OptInLabel + `=true, and k0s
ClusterConfig, each read as lint reads it and judged at the kubelet minors it is for (the one
the object names, else --control-plane's window, --versions or --kubelet-version, else the window
of the cluster's minor, asked of the API server). What a
kubelet or the bootstrapper would refuse at or above --fail-on is denied, the rest admitted
with warnings; an UPDATE is denied only for what it makes worse. --policy names a policy file
(never looked for): its rules apply to every evaluation, its versions and failOn are the
defaults of --versions and --fail-on.`,
		Example: `  kubeletcfg webhook --tls-cert-file /tls/tls.crt --tls-private-key-file /tls/tls.key --control-plane 1.37
  kubeletcfg webhook --tls-cert-file tls.crt --tls-private-key-file tls.key --versions 1.36..1.38 --secure-port 9443`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pol, sev, err := flags.WebhookPolicy(policyFile, flags.PolicyTargets{Versions: &versions, FailOn: &failOn, Changed: cmd.Flags().Changed})
			if err != nil {
				return err
			}
			// The API server the pod runs in (or $KUBECONFIG's): the cluster's
			// minor unless named, and the machines that use a template.
			cfg, cfgErr := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(clientcmd.NewDefaultClientConfigLoadingRules(), nil).ClientConfig()
			if controlPlane == "" && versions == "" && kubeletVersion == "" {
				if cfgErr != nil {
					return fmt.Errorf("finding the cluster's minor: %v (give --control-plane)", cfgErr)
				}
				if controlPlane, err = admission.ClusterMinor(cfg); err != nil {
					return err
				}
			}
			var templates admission.TemplateVersions
			if cfgErr == nil {
				templates, _ = admission.MachineVersions(cfg)
			}
			minors, err := kubeletcfg.Options{Versions: versions, ControlPlane: controlPlane, KubeletVersion: kubeletVersion}.Minors(kubeletcfg.DefaultWindow)
			if err != nil {
				return err
			}
			r, err := admission.New(admission.Config{Minors: minors, FailOn: &sev, Timeout: timeout, Templates: templates, Policy: pol})
			if err != nil {
				return err
			}
			reg := prometheus.NewRegistry()
			reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector( // and the live heap after the last GC
				collectors.WithGoCollectorRuntimeMetrics(collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/live:bytes$`)})))
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			var names []string
			for _, m := range minors {
				names = append(names, m.Version)
			}
			return admission.Serve(ctx, admission.ServeConfig{Addr: fmt.Sprintf(":%d", port), CertFile: certFile, KeyFile: keyFile},
				admission.Handler(r, admission.NewMetrics(reg), reg), func(a net.Addr) {
					fmt.Fprintf(cmd.ErrOrStderr(), "kubeletcfg webhook: serving on %s (kubelets %s, fail-on %s)\n", a, strings.Join(names, ", "), sev)
				})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&certFile, "tls-cert-file", "", "the serving certificate (PEM), read again when it changes")
	fl.StringVar(&keyFile, "tls-private-key-file", "", "the serving certificate's private key (PEM)")
	fl.IntVar(&port, "secure-port", 8443, "the port to serve HTTPS on")
	fl.StringVar(&failOn, "fail-on", "error", "deny findings at or above this severity: error, warning or info")
	fl.StringVar(&controlPlane, "control-plane", "", "the cluster's minor: judge at the kubelets it supports (n-3..n); default the API server's")
	fl.StringVar(&versions, "versions", "", "the kubelet minors to judge at: a range (1.35..1.38) or a list")
	fl.StringVar(&kubeletVersion, "kubelet-version", "", "one kubelet minor to judge at")
	fl.StringVar(&policyFile, "policy", "", "the policy file ("+policy.FileName+" is not looked for): its rules, and the defaults of --versions and --fail-on") // explicit only: flags.WebhookPolicy says why
	fl.DurationVar(&timeout, "timeout", 4*time.Second, "admit unjudged, with a warning, an object whose evaluation takes longer (below the webhook's timeoutSeconds)")
	_ = cmd.MarkFlagRequired("tls-cert-file")
	_ = cmd.MarkFlagRequired("tls-private-key-file")
	return cmd
}
