package source

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Reading and decoding the main --config file (KC1xxx), as
// pkg/kubelet/kubeletconfig/configfiles (fsLoader.Load, resolveRelativePaths)
// and pkg/kubelet/kubeletconfig/util/codec (DecodeKubeletConfiguration) do. The
// pipeline's read step emits these findings from what this package reads
// (Rule.EmittedBy): the rules have no Check. They are declared here, with the
// reading, and listed in internal/ruleset (go generate ./internal/rulesgen
// ./internal/ruleset).

// readStep is the step the rules reference names for these rules.
const readStep = "pipeline: read"

var (
	// --- reading the main --config file (KC1xxx) ---

	ConfigEmpty = &rule.Rule{ID: "KC1001", Name: "config-empty", Severity: finding.Error, Stage: rule.StageRead,
		Summary:   "The --config file is empty; the kubelet refuses to start.",
		Doc:       "The kubelet's file loader treats a zero-byte config file as an error (\"kubelet config file was empty\"). Write at least apiVersion and kind.",
		Kubelet:   "pkg/kubelet/kubeletconfig/configfiles/configfiles.go fsLoader.Load",
		EmittedBy: readStep}
	ConfigTypeMeta = &rule.Rule{ID: "KC1002", Fix: "start the file with `apiVersion: kubelet.config.k8s.io/v1beta1` and `kind: KubeletConfiguration`, spelled exactly so; `kubeletcfg fix` adds the apiVersion a `kind: KubeletConfiguration` lacks.", Fields: []string{"apiVersion", "kind"}, Name: "config-apiversion-kind", Severity: finding.Error, Stage: rule.StageRead,
		Repair:    rule.Repair{Kind: rule.RepairAPIVersion, Doc: "kind: KubeletConfiguration without apiVersion in the --config file: apiVersion: kubelet.config.k8s.io/v1beta1 is added above kind"},
		Summary:   "apiVersion/kind missing or not kubelet.config.k8s.io/v1beta1 KubeletConfiguration; the kubelet refuses to start.",
		Doc:       "The kubelet decodes the file with a scheme that knows kubelet.config.k8s.io/v1beta1 KubeletConfiguration only. A missing or different apiVersion or kind (including a file with only comments) is a decoding error and the kubelet exits.",
		Kubelet:   "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration",
		EmittedBy: readStep}
	ConfigSyntax = &rule.Rule{ID: "KC1003", Fix: "correct the syntax at the line the finding names (indent with spaces, close quotes and brackets).", Name: "config-syntax", Severity: finding.Error, Stage: rule.StageRead,
		Summary:   "The --config file is not valid YAML or JSON; the kubelet refuses to start.",
		Doc:       "YAML syntax errors (tabs for indentation, unclosed quotes, bad nesting) make decoding fail before any field is read. A file whose aliases expand too far (a YAML alias bomb: \"excessive aliasing\") is refused by the YAML decoder the same way.",
		Kubelet:   "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration",
		EmittedBy: readStep}
	ConfigDecode = &rule.Rule{ID: "KC1004", Fix: "write the value with the field's type (maxPods: 110, not \"110\" or [110]); `kubeletcfg explain <field>` shows the type.", AnyField: true, Name: "config-decode", Severity: finding.Error, Stage: rule.StageRead,
		Summary:   "A value has the wrong type for its field; the kubelet refuses to start.",
		Doc:       "Type errors (a string where a number is expected, a list where a map is expected) fail even the lenient decoder, so the kubelet exits with \"failed to decode\" or \"failed lenient decoding\".",
		Kubelet:   "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration",
		EmittedBy: readStep}
	UnknownField = &rule.Rule{ID: "KC1101", Fix: "rename the key to the field the hint names, or remove it.", AnyField: true, Name: "unknown-field", Severity: finding.Warning, Stage: rule.StageRead,
		Summary:   "A key the kubelet does not know is silently dropped.",
		Doc:       "Strict decoding of the main file fails on unknown keys; the kubelet then decodes leniently, logs one info line and starts without the key. The setting you wrote has no effect. The hint names the nearest real field.",
		Kubelet:   "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration (lenient fallback)",
		EmittedBy: readStep}
	CaseMismatch = &rule.Rule{ID: "KC1102", Fix: "spell the key exactly as the field (`maxPods`); `kubeletcfg fix` renames it.", AnyField: true, Name: "field-case-mismatch", Severity: finding.Warning, Stage: rule.StageRead,
		Repair:    rule.Repair{Kind: rule.RepairRenameKey, Doc: "a key of the --config file that differs from a field's name only in case -> the field's name"},
		Summary:   "A key that differs from a field only in case is dropped in the main file.",
		Doc:       "The main file is decoded case-sensitively: `MaxPods` is not `maxPods`, so the lenient decoder drops it and the default stays. The same key in a drop-in would take effect, because drop-ins are decoded with encoding/json, which matches case-insensitively.",
		Kubelet:   "k8s.io/apimachinery/pkg/runtime/serializer/json (UnmarshalCaseSensitivePreserveInts)",
		EmittedBy: readStep}
	DuplicateKey = &rule.Rule{ID: "KC1103", Fix: "keep one occurrence of the key, with the value you mean.", AnyField: true, Name: "duplicate-key", Severity: finding.Warning, Stage: rule.StageRead,
		Summary:   "A key repeated in the main file: the last occurrence wins, the others are dropped.",
		Doc:       "Strict decoding fails on duplicate keys; the lenient fallback keeps the last value. In a drop-in the same mistake is fatal (see KC2004).",
		Kubelet:   "sigs.k8s.io/yaml YAMLToJSONStrict, then the lenient fallback",
		EmittedBy: readStep}
	ExtraDocument = &rule.Rule{ID: "KC1104", Fix: "remove the `---` and what follows, or move those settings into the first document or a drop-in.", Name: "extra-yaml-document", Severity: finding.Warning, Stage: rule.StageRead,
		Summary:   "Only the first YAML document of the file is read; later ones are ignored.",
		Doc:       "YAML-to-JSON conversion reads the first document only. Anything after `---` has no effect, even if it is another KubeletConfiguration.",
		Kubelet:   "sigs.k8s.io/yaml YAMLToJSON",
		EmittedBy: readStep}
	RelativePathResolved = &rule.Rule{ID: "KC1105", Fix: "nothing is wrong; write an absolute path if the file may be read from another folder.", Fields: RelativePathFields, Name: "relative-path-resolved", Severity: finding.Info, Stage: rule.StageRead,
		Summary:   "A relative path in the main file is resolved against the file's folder.",
		Doc:       "The kubelet makes staticPodPath, authentication.x509.clientCAFile, tlsCertFile, tlsPrivateKeyFile, resolvConf, volumePluginDir and podLogsDir absolute by joining them to the folder of the --config file. The same path in a drop-in is not resolved (KC2008).",
		Kubelet:   "pkg/kubelet/kubeletconfig/configfiles/configfiles.go resolveRelativePaths",
		EmittedBy: readStep}
)

// RelativePathFields are the paths configfiles.resolveRelativePaths makes
// absolute in the main file (and leaves as written in a drop-in).
var RelativePathFields = []string{"staticPodPath", "authentication.x509.clientCAFile", "tlsCertFile",
	"tlsPrivateKeyFile", "resolvConf", "volumePluginDir", "podLogsDir"}
