package validate

// Rules whose findings are produced by the read, drop-in and gate stages of the
// pipeline, where the kubelet makes the same decision. They have no Check: the
// stage that mirrors the kubelet's code emits them (grep the ID to find where).

const kubeletServer = "cmd/kubelet/app/server.go"

// relativePathFields are the paths configfiles.resolveRelativePaths makes
// absolute in the main file (and leaves as written in a drop-in).
var relativePathFields = []string{"staticPodPath", "authentication.x509.clientCAFile", "tlsCertFile",
	"tlsPrivateKeyFile", "resolvConf", "volumePluginDir", "podLogsDir"}

var (
	// --- reading the main --config file (KC1xxx) ---

	ConfigEmpty = &Rule{ID: "KC1001", Name: "config-empty", Severity: Error, Stage: StageRead,
		Summary: "The --config file is empty; the kubelet refuses to start.",
		Doc:     "The kubelet's file loader treats a zero-byte config file as an error (\"kubelet config file was empty\"). Write at least apiVersion and kind.",
		Kubelet: "pkg/kubelet/kubeletconfig/configfiles/configfiles.go fsLoader.Load"}
	ConfigTypeMeta = &Rule{ID: "KC1002", Fields: []string{"apiVersion", "kind"}, Name: "config-apiversion-kind", Severity: Error, Stage: StageRead,
		Summary: "apiVersion/kind missing or not kubelet.config.k8s.io/v1beta1 KubeletConfiguration; the kubelet refuses to start.",
		Doc:     "The kubelet decodes the file with a scheme that knows kubelet.config.k8s.io/v1beta1 KubeletConfiguration only. A missing or different apiVersion or kind (including a file with only comments) is a decoding error and the kubelet exits.",
		Kubelet: "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration"}
	ConfigSyntax = &Rule{ID: "KC1003", Name: "config-syntax", Severity: Error, Stage: StageRead,
		Summary: "The --config file is not valid YAML or JSON; the kubelet refuses to start.",
		Doc:     "YAML syntax errors (tabs for indentation, unclosed quotes, bad nesting) make decoding fail before any field is read.",
		Kubelet: "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration"}
	ConfigDecode = &Rule{ID: "KC1004", AnyField: true, Name: "config-decode", Severity: Error, Stage: StageRead,
		Summary: "A value has the wrong type for its field; the kubelet refuses to start.",
		Doc:     "Type errors (a string where a number is expected, a list where a map is expected) fail even the lenient decoder, so the kubelet exits with \"failed to decode\" or \"failed lenient decoding\".",
		Kubelet: "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration"}
	UnknownField = &Rule{ID: "KC1101", AnyField: true, Name: "unknown-field", Severity: Warning, Stage: StageRead,
		Summary: "A key the kubelet does not know is silently dropped.",
		Doc:     "Strict decoding of the main file fails on unknown keys; the kubelet then decodes leniently, logs one info line and starts without the key. The setting you wrote has no effect. The hint names the nearest real field.",
		Kubelet: "pkg/kubelet/kubeletconfig/util/codec/codec.go DecodeKubeletConfiguration (lenient fallback)"}
	CaseMismatch = &Rule{ID: "KC1102", AnyField: true, Name: "field-case-mismatch", Severity: Warning, Stage: StageRead,
		Summary: "A key that differs from a field only in case is dropped in the main file.",
		Doc:     "The main file is decoded case-sensitively: `MaxPods` is not `maxPods`, so the lenient decoder drops it and the default stays. The same key in a drop-in would take effect, because drop-ins are decoded with encoding/json, which matches case-insensitively.",
		Kubelet: "k8s.io/apimachinery/pkg/runtime/serializer/json (UnmarshalCaseSensitivePreserveInts)"}
	DuplicateKey = &Rule{ID: "KC1103", AnyField: true, Name: "duplicate-key", Severity: Warning, Stage: StageRead,
		Summary: "A key repeated in the main file: the last occurrence wins, the others are dropped.",
		Doc:     "Strict decoding fails on duplicate keys; the lenient fallback keeps the last value. In a drop-in the same mistake is fatal (see KC2004).",
		Kubelet: "sigs.k8s.io/yaml YAMLToJSONStrict, then the lenient fallback"}
	ExtraDocument = &Rule{ID: "KC1104", Name: "extra-yaml-document", Severity: Warning, Stage: StageRead,
		Summary: "Only the first YAML document of the file is read; later ones are ignored.",
		Doc:     "YAML-to-JSON conversion reads the first document only. Anything after `---` has no effect, even if it is another KubeletConfiguration.",
		Kubelet: "sigs.k8s.io/yaml YAMLToJSON"}
	RelativePathResolved = &Rule{ID: "KC1105", Fields: relativePathFields, Name: "relative-path-resolved", Severity: Info, Stage: StageRead,
		Summary: "A relative path in the main file is resolved against the file's folder.",
		Doc:     "The kubelet makes staticPodPath, authentication.x509.clientCAFile, tlsCertFile, tlsPrivateKeyFile, resolvConf, volumePluginDir and podLogsDir absolute by joining them to the folder of the --config file. The same path in a drop-in is not resolved (KC2008).",
		Kubelet: "pkg/kubelet/kubeletconfig/configfiles/configfiles.go resolveRelativePaths"}

	// --- drop-ins in --config-dir (KC2xxx) ---

	DropInIgnored = &Rule{ID: "KC2001", Name: "dropin-not-conf", Severity: Info, Stage: StageDropIn,
		Summary: "A file in the drop-in folder is ignored because its name does not end in .conf.",
		Doc:     "Only files whose extension is exactly .conf are merged; x.yaml, x.conf.bak and README are skipped (logged at verbosity 4 only).",
		Kubelet: kubeletServer + " mergeKubeletConfigurations"}
	DropInEmpty = &Rule{ID: "KC2002", Name: "dropin-empty", Severity: Error, Stage: StageDropIn,
		Summary: "An empty .conf drop-in; the kubelet refuses to start.",
		Doc:     "A zero-byte drop-in is an error, as for the main file.",
		Kubelet: "pkg/kubelet/kubeletconfig/configfiles/configfiles.go fsLoader.LoadIntoJSON"}
	DropInTypeMeta = &Rule{ID: "KC2003", Fields: []string{"apiVersion", "kind"}, Name: "dropin-apiversion-kind", Severity: Error, Stage: StageDropIn,
		Summary: "A drop-in without apiVersion/kind kubelet.config.k8s.io/v1beta1 KubeletConfiguration; the kubelet refuses to start.",
		Doc:     "Every drop-in must carry the same apiVersion and kind as the main file; the kubelet exits naming the file.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations"}
	DropInDecode = &Rule{ID: "KC2004", AnyField: true, Name: "dropin-decode", Severity: Error, Stage: StageDropIn,
		Summary: "A drop-in that does not decode (syntax error, duplicate keys, unreadable); the kubelet refuses to start.",
		Doc:     "Drop-ins are decoded strictly into an unstructured object: duplicate keys, syntax errors and unreadable files (a symlink loop, a folder named x.conf reached through a link) stop the kubelet.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations, loadDropinConfigFileIntoJSON"}
	DropInUnknownField = &Rule{ID: "KC2005", AnyField: true, Name: "dropin-unknown-field", Severity: Warning, Stage: StageDropIn,
		Summary: "A drop-in key that matches no field vanishes in the merge.",
		Doc:     "The merged JSON is decoded with encoding/json, which ignores keys that match no field, even case-insensitively. The setting has no effect.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations (json.Unmarshal)"}
	DropInCaseOnly = &Rule{ID: "KC2006", AnyField: true, Name: "dropin-case-insensitive", Severity: Warning, Stage: StageDropIn,
		Summary: "A drop-in key works only because drop-ins match field names case-insensitively.",
		Doc:     "encoding/json accepts `MaxPods` for `maxPods`, so the value takes effect here; moved to the main file it would be dropped (KC1102). Spell the field as the kubelet does.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations (json.Unmarshal)"}
	DropInCaseShadowed = &Rule{ID: "KC2007", AnyField: true, Name: "dropin-case-shadowed", Severity: Warning, Stage: StageDropIn,
		Summary: "A drop-in key spelled in a different case is overridden by the correctly spelled key already in the merged config.",
		Doc:     "The merge keeps both `MaxPods` (from the drop-in) and `maxPods` (from the base) as separate JSON keys; encoding/json applies them in key order and the correctly spelled one comes last, so the drop-in's value is lost.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations (jsonpatch.MergePatch, json.Unmarshal)"}
	DropInRelativePath = &Rule{ID: "KC2008", Fields: relativePathFields, Name: "dropin-relative-path", Severity: Warning, Stage: StageDropIn,
		Summary: "A relative path in a drop-in is not resolved against any folder.",
		Doc:     "Unlike the main file (KC1105), drop-ins are merged as raw JSON: a relative path stays relative to the kubelet's working directory. Use an absolute path.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations"}
	DropInMerged = &Rule{ID: "KC2009", AnyField: true, Name: "dropin-merge-result", Severity: Error, Stage: StageDropIn,
		Summary: "The merged configuration does not decode (a drop-in value has the wrong type); the kubelet refuses to start.",
		Doc:     "Drop-ins are not type-checked when read; the merged JSON is. A string where a number belongs fails here, naming no file: the hint names the drop-in that set it.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations (json.Unmarshal)"}

	DropInNullKept = &Rule{ID: "KC2010", AnyField: true, Name: "dropin-null-kept", Severity: Warning, Stage: StageDropIn, Until: "1.31",
		Summary: "At kubelet 1.31 a null in a drop-in does not reset the field: the main file's value stays.",
		Doc:     "Kubelet 1.31 merge-patches the drop-ins over the JSON of its internal type, whose keys are Go field names (MaxPods), and decodes the result onto the loaded config. A drop-in's null removes only an earlier drop-in's key, never the main file's value, and nothing is defaulted after the merge. From 1.32 the same null deletes the key and the field is defaulted again.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations (v1.31)"}
	DropInOverridden = &Rule{ID: "KC2011", AnyField: true, Name: "dropin-overridden", Severity: Info, Stage: StageDropIn,
		Summary: "A value a drop-in sets is overridden by a later drop-in: it never applies.",
		Doc:     "Drop-ins are merged in the order of their file names, each over the result of the ones before, so the last file to set a field wins and the earlier values are lost without a word (EKS nodeadm's 00-overrides.conf loses to a 99-defaults.conf). A later list, scalar or null replaces the whole value; objects and maps merge key by key. The finding sits at the value that is lost and names the line whose value applies.",
		Kubelet: kubeletServer + " mergeKubeletConfigurations (jsonpatch.MergePatch, in file name order)"}

	// --- flag precedence (KC25xx) ---

	SplitStreamReset = &Rule{ID: "KC2501", Fields: []string{"logging.options.json.splitStream", "logging.options.text.splitStream"}, Name: "splitstream-reset-by-flags", Severity: Warning, Stage: StageFlags,
		Summary: "logging.options.*.splitStream from a file is reset to false by the kubelet's flag re-parsing.",
		Doc:     "After loading the files the kubelet re-registers its command-line flags over the loaded configuration so that flags win. The --log-text-split-stream and --log-json-split-stream flags are registered with a literal default of false, which overwrites the file's value: splitStream: true in a config file never takes effect (and so never trips the LoggingAlphaOptions check). Use the flag instead.",
		Kubelet: kubeletServer + " kubeletConfigFlagPrecedence; k8s.io/component-base/logs/api/v1 addFlags"}

	// --- feature gates (KC3xxx) ---

	GateUnknown = &Rule{ID: "KC3001", Fields: []string{"featureGates[*]"}, Name: "gate-unknown", Severity: Error, Stage: StageGates,
		Summary: "A feature gate this kubelet does not know; the kubelet panics at startup (1.31: refuses to start).",
		Doc:     "Defaulting merges the file's featureGates into the kubelet's gate set and panics on any error (\"failed to merge global and in-flight KubeletConfiguration while setting defaults\"), from 1.32 on. Kubelet 1.31 does not look at gates while defaulting: it refuses to start when RunE applies them (\"failed to set feature gates from initial flags-based config\"). Gate names are case-sensitive; the hint names the nearest real gate.",
		Kubelet: "pkg/kubelet/apis/config/v1beta1/defaults.go SetDefaults_KubeletConfiguration"}
	GateLocked = &Rule{ID: "KC3002", Fields: []string{"featureGates[*]"}, Name: "gate-locked", Severity: Error, Stage: StageGates,
		Summary: "A feature gate locked to its default is set to the other value; the kubelet panics at startup (1.31: refuses to start).",
		Doc:     "GA and some deprecated gates are locked: setting them to anything but their default is an error.",
		Kubelet: "k8s.io/component-base/featuregate SetFromMap"}
	GatePreAlpha = &Rule{ID: "KC3003", Fields: []string{"featureGates[*]"}, Name: "gate-prealpha", Severity: Error, Stage: StageGates,
		Summary: "A feature gate that is not available (PreAlpha) at this kubelet version; the kubelet panics at startup (1.31: refuses to start).",
		Doc:     "The gate is registered but only from a later version; at this emulation version it cannot be set.",
		Kubelet: "k8s.io/component-base/featuregate SetFromMap"}
	GateDependency = &Rule{ID: "KC3004", Fields: []string{"featureGates[*]"}, Name: "gate-dependency", Severity: Error, Stage: StageGates, Since: "1.35",
		Summary: "An enabled feature gate depends on a gate that is disabled; the kubelet panics at startup.",
		Doc: "Gate dependencies are checked whenever gates are set (and again by ValidateKubeletConfiguration's " +
			"localFeatureGate.Validate()); enabling a gate needs its dependencies enabled too. Feature gates have " +
			"dependencies from 1.35 (component-base v0.35 AddDependencies); older kubelets have none.",
		Kubelet: "k8s.io/component-base/featuregate SetFromMap (dependencies)"}
	GateGA = &Rule{ID: "KC3005", Fields: []string{"featureGates[*]"}, Name: "gate-ga", Severity: Warning, Stage: StageGates,
		Summary: "A GA feature gate is set; it is on anyway and will be removed in a future release.",
		Doc:     "The kubelet logs a warning. Once the gate is removed, the same file makes the kubelet panic (unknown gate): drop the entry.",
		Kubelet: "k8s.io/component-base/featuregate SetFromMap"}
	GateDeprecated = &Rule{ID: "KC3006", Fields: []string{"featureGates[*]"}, Name: "gate-deprecated", Severity: Warning, Stage: StageGates,
		Summary: "A deprecated feature gate is set; it will be removed in a future release.",
		Doc:     "The kubelet logs a warning. Once the gate is removed, the same file makes the kubelet panic (unknown gate).",
		Kubelet: "k8s.io/component-base/featuregate SetFromMap"}

	// --- beyond the kubelet (KC6xxx) ---

	DraftCrashLoopField = &Rule{ID: "KC6001", Name: "kep4603-draft-field", Severity: Warning, Stage: StageLint,
		Summary: "The KEP-4603 draft name crashloopbackoff.maxSeconds is dropped by every kubelet.",
		Doc:     "The crash-loop backoff proposal drafted `crashloopbackoff.maxSeconds`; what shipped is `crashLoopBackOff.maxContainerRestartPeriod`, a duration between 1s and 300s behind the KubeletCrashLoopBackOffMax gate. No kubelet knows the draft name, so the setting silently has no effect.",
		Kubelet: "", EmittedBy: "pipeline: key walk of the files (DraftCrashLoop)"}
)

// readRules are emitted while the main --config file is read and decoded.
var readRules = emittedBy("pipeline: read", ConfigEmpty, ConfigTypeMeta, ConfigSyntax, ConfigDecode, UnknownField,
	CaseMismatch, DuplicateKey, ExtraDocument, RelativePathResolved)

// dropInRules are emitted while the --config-dir drop-ins are walked and merged.
var dropInRules = emittedBy("pipeline: drop-in merge", DropInIgnored, DropInEmpty, DropInTypeMeta, DropInDecode,
	DropInUnknownField, DropInCaseOnly, DropInCaseShadowed, DropInRelativePath, DropInMerged, DropInNullKept,
	DropInOverridden)

// gateRules are emitted while the feature gates are resolved.
var gateRules = emittedBy("pipeline: feature gates", GateUnknown, GateLocked, GatePreAlpha, GateDependency, GateGA,
	GateDeprecated)

// emittedBy sets EmittedBy on rules that have no Check and returns them.
func emittedBy(step string, rules ...*Rule) []*Rule {
	for _, r := range rules {
		r.EmittedBy = step
	}
	return rules
}
