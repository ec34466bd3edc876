package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	kubeapiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
	"sigs.k8s.io/yaml"
)

// Users the API server knows (--token-auth-file). admin is in system:masters;
// reader holds what `kubeletcfg cluster` needs (get/list nodes, get
// nodes/proxy); nodesOnly may list nodes but not reach their kubelets.
const (
	userAdmin     = "admin"
	userReader    = "reader"
	userNodesOnly = "nodes-only"
	// apiserverKubeletClient is the API server's client certificate's name
	// towards kubelets, bound to system:kubelet-api-admin as kubeadm does.
	apiserverKubeletClient = "kube-apiserver-kubelet-client"
	// readerRole is deploy/rbac.yaml's ClusterRole, bound there to deploySA.
	readerRole  = "kubeletcfg-reader"
	deploySA    = "system:serviceaccount:kubeletcfg:kubeletcfg"
	kubeletPort = 10250
)

// env is a running API server with its users, nodes and kubelet processes.
type env struct {
	t      testing.TB
	dir    string
	host   string // https://127.0.0.1:port
	caPEM  []byte // the API server's serving CA
	client kubernetes.Interface
	tokens map[string]string

	servingCACert, servingCAKey, clientCAFile string
	kubelets                                  []*exec.Cmd
}

// startEnv starts etcd (embedded) and kube-apiserver (its test server) in
// the namespace and sets up users and RBAC. Everything stops at t's cleanup.
func startEnv(t testing.TB) *env { return startEnvAt(t, 2379) }

// startEnvAt is startEnv with etcd on etcdPort (clients) and etcdPort+1
// (peers): a second cluster in the same test takes other ports.
func startEnvAt(t testing.TB, etcdPort int) *env {
	t.Helper()
	requireNamespace(t)
	e := &env{t: t, dir: t.TempDir(), tokens: map[string]string{}}

	etcdURL := startEtcd(t, filepath.Join(e.dir, "etcd"), etcdPort)

	servingCA, err := newCA("kubelet-serving-ca")
	check(t, err)
	e.servingCACert, e.servingCAKey = filepath.Join(e.dir, "kubelet-serving-ca.crt"), filepath.Join(e.dir, "kubelet-serving-ca.key")
	check(t, servingCA.write(e.servingCACert, e.servingCAKey))
	clientCA, err := newCA("kubelet-client-ca")
	check(t, err)
	e.clientCAFile = filepath.Join(e.dir, "kubelet-client-ca.crt")
	check(t, clientCA.write(e.clientCAFile, filepath.Join(e.dir, "kubelet-client-ca.key")))
	clientCert, clientKey, err := clientCA.issue(apiserverKubeletClient, nil, true)
	check(t, err)
	clientCertFile, clientKeyFile := filepath.Join(e.dir, "apiserver-kubelet-client.crt"), filepath.Join(e.dir, "apiserver-kubelet-client.key")
	check(t, os.WriteFile(clientCertFile, clientCert, 0o644))
	check(t, os.WriteFile(clientKeyFile, clientKey, 0o600))

	var tokenFile strings.Builder
	for _, u := range []struct{ name, groups string }{{userAdmin, "system:masters"}, {userReader, ""}, {userNodesOnly, ""}} {
		e.tokens[u.name] = "token-" + u.name
		fmt.Fprintf(&tokenFile, "%s,%s,uid-%s,%q\n", e.tokens[u.name], u.name, u.name, u.groups)
	}
	tokenPath := filepath.Join(e.dir, "tokens.csv")
	check(t, os.WriteFile(tokenPath, []byte(tokenFile.String()), 0o600))

	storage := storagebackend.NewDefaultConfig("/kubeletcfg-it/registry", nil)
	storage.Transport.ServerList = []string{etcdURL}
	server, err := kubeapiservertesting.StartTestServer(t, &kubeapiservertesting.TestServerInstanceOptions{DisableInvariantChecks: true}, []string{
		"--endpoint-reconciler-type=none",
		"--disable-admission-plugins=ServiceAccount",
		"--authorization-mode=Node,RBAC",
		"--token-auth-file=" + tokenPath,
		// The API server reaches kubelets as a real one does: by InternalIP,
		// verifying their serving certificates, with its client certificate.
		"--kubelet-preferred-address-types=InternalIP",
		"--kubelet-certificate-authority=" + e.servingCACert,
		"--kubelet-client-certificate=" + clientCertFile,
		"--kubelet-client-key=" + clientKeyFile,
	}, storage)
	check(t, err)
	t.Cleanup(server.TearDownFn)

	e.host = server.ClientConfig.Host
	// The serving certificate file holds the self-signed certificate and its CA.
	e.caPEM, err = os.ReadFile(filepath.Join(server.TmpDir, "apiserver.crt"))
	check(t, err)
	cfg := rest.CopyConfig(server.ClientConfig)
	cfg.QPS, cfg.Burst = 2000, 4000
	e.client, err = kubernetes.NewForConfig(cfg)
	check(t, err)

	e.setUpRBAC()
	t.Cleanup(e.stopKubelets)
	return e
}

// startEtcd runs etcd in this process (go.etcd.io/etcd/server/v3/embed) on
// port (clients) and port+1 (peers).
func startEtcd(t testing.TB, dir string, port int) string {
	t.Helper()
	cfg := embed.NewConfig()
	cfg.Dir = dir
	client, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", port))
	peer, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", port+1))
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*client}, []url.URL{*client}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*peer}, []url.URL{*peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.LogLevel = "error"
	// A test cluster: durability is not the point, speed is.
	cfg.UnsafeNoFsync = true
	etcd, err := embed.StartEtcd(cfg)
	check(t, err)
	select {
	case <-etcd.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		etcd.Close()
		t.Fatal("etcd did not become ready in 60s")
	}
	t.Cleanup(etcd.Close)
	return client.String()
}

func (e *env) setUpRBAC() {
	e.applyDeployRBAC()
	ctx := context.Background()
	_, err := e.client.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "nodes-only"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"get", "list"}}},
	}, metav1.CreateOptions{})
	check(e.t, err)
	e.bind(readerRole, rbacv1.Subject{Kind: rbacv1.UserKind, Name: userReader})
	e.bind("nodes-only", rbacv1.Subject{Kind: rbacv1.UserKind, Name: userNodesOnly})
	e.bind("system:kubelet-api-admin", rbacv1.Subject{Kind: rbacv1.UserKind, Name: apiserverKubeletClient})

	// RBAC reads bindings through informers: wait until they are in effect.
	e.waitAllowed(userReader, "proxy")
	e.waitAllowed(deploySA, "proxy")
	e.waitAllowed(userNodesOnly, "")
	e.waitAllowed(apiserverKubeletClient, "configz")
}

// applyDeployRBAC creates what deploy/rbac.yaml ships (namespace, service
// account, the reader ClusterRole and its binding), so the tests hold the
// manifest users apply to what kubeletcfg cluster needs.
func (e *env) applyDeployRBAC() {
	data, err := os.ReadFile(filepath.Join("..", "deploy", "rbac.yaml"))
	check(e.t, err)
	ctx := context.Background()
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var meta metav1.TypeMeta
		check(e.t, yaml.Unmarshal([]byte(doc), &meta))
		var err error
		switch meta.Kind {
		case "Namespace":
			var o corev1.Namespace
			check(e.t, yaml.UnmarshalStrict([]byte(doc), &o))
			_, err = e.client.CoreV1().Namespaces().Create(ctx, &o, metav1.CreateOptions{})
		case "ServiceAccount":
			var o corev1.ServiceAccount
			check(e.t, yaml.UnmarshalStrict([]byte(doc), &o))
			_, err = e.client.CoreV1().ServiceAccounts(o.Namespace).Create(ctx, &o, metav1.CreateOptions{})
		case "ClusterRole":
			var o rbacv1.ClusterRole
			check(e.t, yaml.UnmarshalStrict([]byte(doc), &o))
			_, err = e.client.RbacV1().ClusterRoles().Create(ctx, &o, metav1.CreateOptions{})
		case "ClusterRoleBinding":
			var o rbacv1.ClusterRoleBinding
			check(e.t, yaml.UnmarshalStrict([]byte(doc), &o))
			_, err = e.client.RbacV1().ClusterRoleBindings().Create(ctx, &o, metav1.CreateOptions{})
		default:
			e.t.Fatalf("deploy/rbac.yaml: unexpected kind %q", meta.Kind)
		}
		check(e.t, err)
	}
}

func (e *env) bind(role string, subject rbacv1.Subject) {
	_, err := e.client.RbacV1().ClusterRoleBindings().Create(context.Background(), &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: role + "-" + strings.ToLower(subject.Name)},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
		Subjects:   []rbacv1.Subject{subject},
	}, metav1.CreateOptions{})
	check(e.t, err)
}

// waitAllowed waits until user may get nodes (subresource "" or one).
func (e *env) waitAllowed(user, subresource string) {
	e.t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		sar, err := e.client.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
			Spec: authorizationv1.SubjectAccessReviewSpec{
				User:               user,
				ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "get", Resource: "nodes", Subresource: subresource},
			},
		}, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		return sar.Status.Allowed, nil
	})
	if err != nil {
		e.t.Fatalf("RBAC for %s (nodes/%s) not in effect: %v", user, subresource, err)
	}
}

// kubeconfig writes a kubeconfig for the API server with a bearer token.
func (e *env) kubeconfig(name, token string) string {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["it"] = &clientcmdapi.Cluster{Server: e.host, CertificateAuthorityData: e.caPEM}
	cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts["it"] = &clientcmdapi.Context{Cluster: "it", AuthInfo: name}
	cfg.CurrentContext = "it"
	path := filepath.Join(e.dir, name+".kubeconfig")
	check(e.t, clientcmd.WriteToFile(*cfg, path))
	return path
}

// node is one node of a test cluster.
type node struct {
	Name   string
	Labels map[string]string
	// Version is status.nodeInfo.kubeletVersion, OS its operatingSystem
	// ("": linux).
	Version string
	OS      string
	IP      string
	// Config names the recorded configuration its kubelet serves (golden minor
	// and case); Flags its kubelet command line. Down: no kubelet listens.
	Config config
	Flags  []string
	Down   bool
}

// config is a recorded effective configuration: what the real kubelet of
// Minor produced for conformance case Case (testdata/conformance/golden), or
// with Windows the Windows kubelet, under Wine (golden-windows).
type config struct {
	Minor, Case string
	Windows     bool
}

// golden reads a recorded effective configuration. The real kubelet started
// with it (the tests only use configurations it accepted).
func golden(t testing.TB, c config) (effective json.RawMessage, kubeletVersion string) {
	t.Helper()
	dir := "golden"
	if c.Windows {
		dir = "golden-windows"
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "conformance", dir, c.Minor, c.Case+".json"))
	check(t, err)
	var g struct {
		Kubelet   string          `json:"kubelet"`
		Starts    bool            `json:"starts"`
		Effective json.RawMessage `json:"effective"`
	}
	check(t, json.Unmarshal(data, &g))
	if !g.Starts || len(g.Effective) == 0 {
		t.Fatalf("golden %s/%s: the kubelet did not start with it", c.Minor, c.Case)
	}
	return g.Effective, g.Kubelet
}

// addNodes creates the nodes through the API (object, then status as the
// kubelet reports it) and starts one kubelet process per configuration.
func (e *env) addNodes(nodes []node) {
	e.t.Helper()
	ctx := context.Background()
	work := make(chan node)
	errs := make(chan error, len(nodes))
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range work {
				errs <- e.createNode(ctx, n)
			}
		}()
	}
	for _, n := range nodes {
		work <- n
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		check(e.t, err)
	}
	e.startKubelets(nodes)
}

func (e *env) createNode(ctx context.Context, n node) error {
	obj, err := e.client.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: n.Labels}}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	obj.Status = corev1.NodeStatus{
		Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: n.IP}, {Type: corev1.NodeHostName, Address: n.Name}},
		DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: kubeletPort}},
		NodeInfo: corev1.NodeSystemInfo{
			KubeletVersion:          n.Version,
			OperatingSystem:         n.os(),
			Architecture:            "amd64",
			ContainerRuntimeVersion: "containerd://2.1.4",
		},
		Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now()}},
	}
	_, err = e.client.CoreV1().Nodes().UpdateStatus(ctx, obj, metav1.UpdateOptions{})
	return err
}

// startKubelets starts one kubelet process per (configuration, flags) and
// waits until each has bound its nodes' listeners.
func (e *env) startKubelets(nodes []node) {
	e.t.Helper()
	kubeconfig := e.kubeconfig("kubelet-webhook", e.tokens[userAdmin])
	self, err := os.Executable()
	check(e.t, err)
	specs := map[string]*kubeletSpec{}
	var keys []string
	for _, n := range nodes {
		if n.Down {
			continue
		}
		key := fmt.Sprintf("%s/%s|%v|%s", n.Config.Minor, n.Config.Case, n.Config.Windows, strings.Join(n.Flags, " "))
		spec := specs[key]
		if spec == nil {
			raw, _ := golden(e.t, n.Config)
			spec = &kubeletSpec{
				Minor:         n.Config.Minor,
				Newest:        n.Config.Minor == newestMinor,
				Config:        raw,
				Flags:         n.Flags,
				Flagz:         flagzServed(n.Config.Minor),
				ServingCACert: e.servingCACert,
				ServingCAKey:  e.servingCAKey,
				ClientCAFile:  e.clientCAFile,
				Kubeconfig:    kubeconfig,
			}
			specs[key] = spec
			keys = append(keys, key)
		}
		spec.Nodes = append(spec.Nodes, kubeletNode{Name: n.Name, IP: n.IP, Port: kubeletPort})
	}
	sort.Strings(keys)
	type started struct {
		cmd   *exec.Cmd
		ready chan error
	}
	var all []started
	for i, key := range keys {
		path := filepath.Join(e.dir, fmt.Sprintf("kubelet-%03d.json", i))
		data, err := json.Marshal(specs[key])
		check(e.t, err)
		check(e.t, os.WriteFile(path, data, 0o600))
		cmd := exec.Command(self, path)
		cmd.Env = append(os.Environ(), roleEnv+"="+roleKubelet)
		stdin, err := cmd.StdinPipe()
		check(e.t, err)
		_ = stdin // closed by stopKubelets through cmd.Process
		stdout, err := cmd.StdoutPipe()
		check(e.t, err)
		cmd.Stderr = &prefixWriter{prefix: fmt.Sprintf("kubelet %s: ", key), w: os.Stderr}
		check(e.t, cmd.Start())
		e.kubelets = append(e.kubelets, cmd)
		ready := make(chan error, 1)
		go func() {
			line, err := bufio.NewReader(stdout).ReadString('\n')
			if err == nil && line != "ready\n" {
				err = fmt.Errorf("unexpected %q", line)
			}
			ready <- err
			_, _ = io.Copy(io.Discard, stdout)
		}()
		all = append(all, started{cmd, ready})
	}
	for i, s := range all {
		select {
		case err := <-s.ready:
			if err != nil {
				e.t.Fatalf("kubelet process %s did not start: %v", keys[i], err)
			}
		case <-time.After(2 * time.Minute):
			e.t.Fatalf("kubelet process %s not ready after 2m", keys[i])
		}
	}
}

func (e *env) stopKubelets() {
	for _, cmd := range e.kubelets {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	e.kubelets = nil
}

// prefixWriter prefixes what a kubelet process logs.
type prefixWriter struct {
	prefix string
	w      io.Writer
	mu     sync.Mutex
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line != "" {
			fmt.Fprint(p.w, p.prefix+line)
		}
	}
	return len(b), nil
}

func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// newestMinor is the kubelet minor linked into this module (go.mod's
// k8s.io/kubernetes); its configurations take the kubelet's own path to configz.
const newestMinor = "1.37"

// flagzServed: ComponentFlagz is beta and on by default from 1.36 (alpha,
// off, in 1.32 to 1.35), so older kubelets do not serve /flagz.
func flagzServed(minor string) bool {
	var major, m int
	_, err := fmt.Sscanf(minor, "%d.%d", &major, &m)
	return err == nil && major == 1 && m >= 36
}
