package integration

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/server/flagz"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/configz"
	zpagesfeatures "k8s.io/component-base/zpages/features"
	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
	kubeletapp "k8s.io/kubernetes/cmd/kubelet/app"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubeletscheme "k8s.io/kubernetes/pkg/kubelet/apis/config/scheme"
	kubeletserver "k8s.io/kubernetes/pkg/kubelet/server"
)

// kubeletSpec is what one kubelet process serves: the nodes that share one
// configuration (configz is a process-wide registry in the kubelet, so one
// process per configuration, as on a real node).
type kubeletSpec struct {
	// Minor is the kubelet minor that recorded Config; Newest says whether it is
	// the minor linked here (then the configuration takes the kubelet's own
	// conversion path to configz, else its recorded bytes are served).
	Minor  string          `json:"minor"`
	Newest bool            `json:"newest"`
	Config json.RawMessage `json:"config"`
	// Flags is the kubelet command line /flagz reports; Flagz is the
	// ComponentFlagz gate (beta, on by default, from 1.36).
	Flags []string `json:"flags"`
	Flagz bool     `json:"flagz"`
	// ServingCA signs each node's serving certificate; the API server trusts it
	// (--kubelet-certificate-authority). ClientCAFile authenticates the API
	// server's client certificate (authentication.x509.clientCAFile).
	ServingCACert string `json:"servingCACert"`
	ServingCAKey  string `json:"servingCAKey"`
	ClientCAFile  string `json:"clientCAFile"`
	// Kubeconfig reaches the API server for webhook authentication and
	// authorization (TokenReview, SubjectAccessReview), as the kubelet does.
	Kubeconfig string        `json:"kubeconfig"`
	Nodes      []kubeletNode `json:"nodes"`
}

type kubeletNode struct {
	Name string `json:"name"`
	IP   string `json:"ip"`
	Port int    `json:"port"`
}

// kubeletMain is a kubelet process: the kubelet's server code, configz
// registered as the kubelet registers it, one TLS listener per node. It prints
// "ready" once every listener is bound and serves until stdin closes.
func kubeletMain(specPath string) int {
	if err := serveKubelets(specPath); err != nil {
		fmt.Fprintln(os.Stderr, "kubelet:", err)
		return 1
	}
	return 0
}

func serveKubelets(specPath string) error {
	data, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var spec kubeletSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return fmt.Errorf("%s: %w", specPath, err)
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(zpagesfeatures.ComponentFlagz): spec.Flagz}); err != nil {
		return err
	}

	internal, err := internalConfig(spec.Config)
	if err != nil {
		return err
	}
	if err := registerConfigz(spec, internal); err != nil {
		return err
	}
	fs, err := kubeletFlagSet(spec.Flags)
	if err != nil {
		return err
	}
	flagReader := flagz.NamedFlagSetsReader{FlagSets: cliflag.NamedFlagSets{FlagSets: map[string]*pflag.FlagSet{kubeletserver.ComponentKubelet: fs}}}

	restConfig, err := clientcmd.BuildConfigFromFlags("", spec.Kubeconfig)
	if err != nil {
		return err
	}
	restConfig.QPS, restConfig.Burst = 200, 400
	client, err := kubernetes.NewForConfig(restConfig)
	if err != nil {
		return err
	}
	ca, err := loadCA(spec.ServingCACert, spec.ServingCAKey)
	if err != nil {
		return err
	}

	ctx := context.Background()
	authConfig := *internal
	authConfig.Authentication.X509.ClientCAFile = spec.ClientCAFile
	for _, n := range spec.Nodes {
		// BuildAuth is the kubelet's: x509 from the client CA (loaded now; the
		// reload loop is not started, the file never changes here), webhook
		// authentication and authorization against the API server.
		auth, _, err := kubeletapp.BuildAuth(types.NodeName(n.Name), client, authConfig)
		if err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
		handler := kubeletserver.NewServer(ctx, noHost{}, nil, nil, flagReader, auth, internal)
		certPEM, keyPEM, err := ca.issue(n.Name, []net.IP{net.ParseIP(n.IP)}, false)
		if err != nil {
			return err
		}
		cert, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(n.IP, strconv.Itoa(n.Port)))
		if err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
		srv := &http.Server{
			Handler: &handler,
			TLSConfig: &tls.Config{
				Certificates: []tls.Certificate{cert},
				// As the kubelet: ask for a client certificate, let the
				// authenticator verify it against the client CA.
				ClientAuth: tls.RequestClientCert,
				MinVersion: tls.VersionTLS12,
			},
			ReadHeaderTimeout: 30 * time.Second,
			IdleTimeout:       90 * time.Second,
		}
		go func() { _ = srv.ServeTLS(ln, "", "") }()
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// internalConfig decodes a recorded effective configuration (v1beta1 JSON) into
// the kubelet's internal type, with the kubelet's scheme: defaults, then
// conversion. The server reads it (enableDebuggingHandlers installs configz and
// flagz; authentication and authorization build the auth filter).
func internalConfig(raw []byte) (*kubeletconfiginternal.KubeletConfiguration, error) {
	scheme, _, err := kubeletscheme.NewSchemeAndCodecs()
	if err != nil {
		return nil, err
	}
	versioned := &kubeletconfigv1beta1.KubeletConfiguration{}
	if err := json.Unmarshal(raw, versioned); err != nil {
		return nil, fmt.Errorf("decoding the recorded configuration: %w", err)
	}
	scheme.Default(versioned)
	internal := &kubeletconfiginternal.KubeletConfiguration{}
	if err := scheme.Convert(versioned, internal, nil); err != nil {
		return nil, err
	}
	return internal, nil
}

// registerConfigz registers the configuration under "kubeletconfig", as
// cmd/kubelet/app's initConfigz does. For the newest minor the value is the
// kubelet's own v1beta1 conversion of the internal configuration
// (convertToVersionedKubeletConfig), and it must marshal to the recorded bytes;
// an older minor's recorded bytes are served as they are, since this process
// links the newest kubelet's types only.
func registerConfigz(spec kubeletSpec, internal *kubeletconfiginternal.KubeletConfiguration) error {
	cz, err := configz.New("kubeletconfig")
	if err != nil {
		return err
	}
	if !spec.Newest {
		return cz.Set(&recordedConfig{raw: spec.Config})
	}
	scheme, _, err := kubeletscheme.NewSchemeAndCodecs()
	if err != nil {
		return err
	}
	versioned := &kubeletconfigv1beta1.KubeletConfiguration{}
	if err := scheme.Convert(internal, versioned, nil); err != nil {
		return err
	}
	versioned.GetObjectKind().SetGroupVersionKind(kubeletconfigv1beta1.SchemeGroupVersion.WithKind("KubeletConfiguration"))
	got, err := json.Marshal(versioned)
	if err != nil {
		return err
	}
	var want bytes.Buffer
	if err := json.Compact(&want, spec.Config); err != nil {
		return err
	}
	if !bytes.Equal(got, want.Bytes()) {
		return fmt.Errorf("the kubelet's conversion of the recorded %s configuration does not give the recorded bytes back:\n got %s\nwant %s", spec.Minor, got, want.Bytes())
	}
	return cz.Set(versioned)
}

// recordedConfig is a configuration an older kubelet minor served, kept as its
// bytes; it satisfies what configz.Set checks (a versioned kind).
type recordedConfig struct {
	raw json.RawMessage
}

var recordedGVK = kubeletconfigv1beta1.SchemeGroupVersion.WithKind("KubeletConfiguration")

func (r *recordedConfig) GetObjectKind() schema.ObjectKind            { return r }
func (r *recordedConfig) SetGroupVersionKind(schema.GroupVersionKind) {}
func (r *recordedConfig) GroupVersionKind() schema.GroupVersionKind   { return recordedGVK }
func (r *recordedConfig) DeepCopyObject() runtime.Object {
	return &recordedConfig{raw: append(json.RawMessage(nil), r.raw...)}
}
func (r *recordedConfig) MarshalJSON() ([]byte, error) { return r.raw, nil }

// kubeletFlagSet is the kubelet's command-line flag set, registered as
// cmd/kubelet/app's NewKubeletCommand registers its cleanFlagSet, parsed from
// args: what /flagz reports.
func kubeletFlagSet(args []string) (*pflag.FlagSet, error) {
	fs := pflag.NewFlagSet(kubeletserver.ComponentKubelet, pflag.ContinueOnError)
	fs.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	kubeletFlags := options.NewKubeletFlags()
	kubeletConfig, err := options.NewKubeletConfiguration()
	if err != nil {
		return nil, err
	}
	kubeletFlags.AddFlags(fs)
	options.AddKubeletConfigFlags(fs, kubeletConfig)
	options.AddGlobalFlags(fs)
	fs.BoolP("help", "h", false, "help for kubelet")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("kubelet flags %q: %w", args, err)
	}
	return fs, nil
}

// noHost stands in for the kubelet (pods, stats, containers): none of that is
// asked for here. The methods the server takes as values at construction are
// defined; any other call would panic, and none is made.
type noHost struct {
	kubeletserver.HostInterface
}

func (noHost) SyncLoopHealthCheck(*http.Request) error { return nil }
