package validate

// What the start-up stages' rules share. The read rules (KC1xxx) are declared
// in package source (rules.go), the drop-in rules (KC2xxx) in drop-in.

const kubeletServer = "cmd/kubelet/app/server.go"

// RelativePathFields are the paths configfiles.resolveRelativePaths makes
// absolute in the main file (and leaves as written in a drop-in).
var RelativePathFields = []string{"staticPodPath", "authentication.x509.clientCAFile", "tlsCertFile",
	"tlsPrivateKeyFile", "resolvConf", "volumePluginDir", "podLogsDir"}
