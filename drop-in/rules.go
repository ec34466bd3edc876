package dropin

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Walking and merging the --config-dir drop-ins (KC2xxx), as
// cmd/kubelet/app/server.go mergeKubeletConfigurations does. This package
// emits these findings (Rule.EmittedBy): the rules have no Check. They are
// declared here, next to the code that emits them, and listed in
// internal/ruleset (go generate ./internal/rulesgen ./internal/ruleset).

// emittedBy is the step the rules reference names for these rules.
const emittedBy = "pipeline: drop-in merge"

// kubeletServer is where the kubelet merges the drop-ins.
const kubeletServer = "cmd/kubelet/app/server.go"

var (
	// --- drop-ins in --config-dir (KC2xxx) ---

	DropInIgnored = &rule.Rule{ID: "KC2001", Fix: "name drop-ins `<NN>-<name>.conf`, or move other files out of the --config-dir folder.", Name: "dropin-not-conf", Severity: finding.Info, Stage: rule.StageDropIn,
		Summary:   "A file in the drop-in folder is ignored because its name does not end in .conf.",
		Doc:       "Only files whose extension is exactly .conf are merged; x.yaml, x.conf.bak and README are skipped (logged at verbosity 4 only).",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations",
		EmittedBy: emittedBy}
	DropInEmpty = &rule.Rule{ID: "KC2002", Fix: "remove the empty drop-in, or give it at least apiVersion and kind.", Name: "dropin-empty", Severity: finding.Error, Stage: rule.StageDropIn,
		Summary:   "An empty .conf drop-in; the kubelet refuses to start.",
		Doc:       "A zero-byte drop-in is an error, as for the main file.",
		Kubelet:   "pkg/kubelet/kubeletconfig/configfiles/configfiles.go fsLoader.LoadIntoJSON",
		EmittedBy: emittedBy}
	DropInTypeMeta = &rule.Rule{ID: "KC2003", Fix: "start every drop-in with `apiVersion: kubelet.config.k8s.io/v1beta1` and `kind: KubeletConfiguration`; `kubeletcfg fix` adds the apiVersion a `kind: KubeletConfiguration` lacks.", Fields: []string{"apiVersion", "kind"}, Name: "dropin-apiversion-kind", Severity: finding.Error, Stage: rule.StageDropIn,
		Repair:    rule.Repair{Kind: rule.RepairAPIVersion, Doc: "kind: KubeletConfiguration without apiVersion in a drop-in: apiVersion: kubelet.config.k8s.io/v1beta1 is added above kind"},
		Summary:   "A drop-in without apiVersion/kind kubelet.config.k8s.io/v1beta1 KubeletConfiguration; the kubelet refuses to start.",
		Doc:       "Every drop-in must carry the same apiVersion and kind as the main file; the kubelet exits naming the file.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations",
		EmittedBy: emittedBy}
	DropInDecode = &rule.Rule{ID: "KC2004", Fix: "correct the drop-in the finding names: one occurrence per key, valid YAML, a readable regular file.", AnyField: true, Name: "dropin-decode", Severity: finding.Error, Stage: rule.StageDropIn,
		Summary:   "A drop-in that does not decode (syntax error, duplicate keys, unreadable); the kubelet refuses to start.",
		Doc:       "Drop-ins are decoded strictly into an unstructured object: duplicate keys, syntax errors and unreadable files (a symlink loop, a folder named x.conf reached through a link) stop the kubelet.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations, loadDropinConfigFileIntoJSON",
		EmittedBy: emittedBy}
	DropInUnknownField = &rule.Rule{ID: "KC2005", Fix: "rename the key to the field the hint names, or remove it.", AnyField: true, Name: "dropin-unknown-field", Severity: finding.Warning, Stage: rule.StageDropIn,
		Summary:   "A drop-in key that matches no field vanishes in the merge.",
		Doc:       "The merged JSON is decoded with encoding/json, which ignores keys that match no field, even case-insensitively. The setting has no effect.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations (json.Unmarshal)",
		EmittedBy: emittedBy}
	DropInCaseOnly = &rule.Rule{ID: "KC2006", AnyField: true, Name: "dropin-case-insensitive", Severity: finding.Warning, Stage: rule.StageDropIn,
		Repair:    rule.Repair{Kind: rule.RepairRenameKey, Doc: "a drop-in key that differs from a field's name only in case (the kubelet reads drop-ins case-insensitively) -> the field's name"},
		Summary:   "A drop-in key works only because drop-ins match field names case-insensitively.",
		Doc:       "encoding/json accepts `MaxPods` for `maxPods`, so the value takes effect here; moved to the main file it would be dropped (KC1102). Spell the field as the kubelet does.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations (json.Unmarshal)",
		EmittedBy: emittedBy}
	DropInCaseShadowed = &rule.Rule{ID: "KC2007", Fix: "spell the drop-in's key exactly as the field (`maxPods`), so that its value wins; `kubeletcfg fix` renames it.", AnyField: true, Name: "dropin-case-shadowed", Severity: finding.Warning, Stage: rule.StageDropIn,
		Repair:    rule.Repair{Kind: rule.RepairRenameKey, Doc: "a drop-in key that differs from a field's name only in case and loses to the correctly spelled key the merged configuration already has -> the field's name, so that the drop-in's value wins"},
		Summary:   "A drop-in key spelled in a different case is overridden by the correctly spelled key already in the merged config.",
		Doc:       "The merge keeps both `MaxPods` (from the drop-in) and `maxPods` (from the base) as separate JSON keys; encoding/json applies them in key order and the correctly spelled one comes last, so the drop-in's value is lost.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations (jsonpatch.MergePatch, json.Unmarshal)",
		EmittedBy: emittedBy}
	DropInRelativePath = &rule.Rule{ID: "KC2008", Fields: source.RelativePathFields, Name: "dropin-relative-path", Severity: finding.Warning, Stage: rule.StageDropIn,
		Summary:   "A relative path in a drop-in is not resolved against any folder.",
		Doc:       "Unlike the main file (KC1105), drop-ins are merged as raw JSON: a relative path stays relative to the kubelet's working directory. Use an absolute path.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations",
		EmittedBy: emittedBy}
	DropInMerged = &rule.Rule{ID: "KC2009", Fix: "write the value in the drop-in the hint names with the field's type.", AnyField: true, Name: "dropin-merge-result", Severity: finding.Error, Stage: rule.StageDropIn,
		Summary:   "The merged configuration does not decode (a drop-in value has the wrong type); the kubelet refuses to start.",
		Doc:       "Drop-ins are not type-checked when read; the merged JSON is. A string where a number belongs fails here, naming no file: the hint names the drop-in that set it.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations (json.Unmarshal)",
		EmittedBy: emittedBy}

	DropInNullKept = &rule.Rule{ID: "KC2010", Fix: "to reset a main-file value at 1.31, set the value you want in the drop-in instead of null.", AnyField: true, Name: "dropin-null-kept", Severity: finding.Warning, Stage: rule.StageDropIn, Until: "1.31",
		Summary:   "At kubelet 1.31 a null in a drop-in does not reset the field: the main file's value stays.",
		Doc:       "Kubelet 1.31 merge-patches the drop-ins over the JSON of its internal type, whose keys are Go field names (MaxPods), and decodes the result onto the loaded config. A drop-in's null removes only an earlier drop-in's key, never the main file's value, and nothing is defaulted after the merge. From 1.32 the same null deletes the key and the field is defaulted again.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations (v1.31)",
		EmittedBy: emittedBy}
	DropInOverridden = &rule.Rule{ID: "KC2011", Fix: "set the field in one drop-in only, or rename the files so that the one meant to win sorts last (`99-` after `00-`).", AnyField: true, Name: "dropin-overridden", Severity: finding.Info, Stage: rule.StageDropIn,
		Summary:   "A value a drop-in sets is overridden by a later drop-in: it never applies.",
		Doc:       "Drop-ins are merged in the order of their file names, each over the result of the ones before, so the last file to set a field wins and the earlier values are lost without a word (EKS nodeadm's 00-overrides.conf loses to a 99-defaults.conf). A later list, scalar or null replaces the whole value; objects and maps merge key by key. The finding sits at the value that is lost and names the line whose value applies.",
		Kubelet:   kubeletServer + " mergeKubeletConfigurations (jsonpatch.MergePatch, in file name order)",
		EmittedBy: emittedBy}
)
