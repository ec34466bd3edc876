package k3s

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// A kubeletArg is one of the user's kubelet-arg values (or one RKE2 adds), with
// where it was written (zero: the tool's own).
type kubeletArg struct {
	Text string
	Pos  finding.Position
	// KeyPos is the kubelet-arg key's position, for file-level messages.
	KeyPos finding.Position
	// Note says who added it when the user did not.
	Note string
}

// A flagOut is one flag of the kubelet's command line as GetArgs writes it,
// with its origin.
type flagOut struct {
	Text string
	// User is set when the value comes from an extra argument (kubelet-arg);
	// Arg is then that argument.
	User bool
	Arg  kubeletArg
	// Default is k3s's own value's note when !User.
	Default string
}

// extracted is what extractConfigArgs strips from the extra arguments.
type extracted struct {
	args []kubeletArg
	// config and configDir are the values of --config and --config-dir, with
	// the argument that set them.
	config, configDir       string
	configArg, configDirArg kubeletArg
	// swallowed are the arguments taken as the value of the one before.
	swallowed []swallow
}

type swallow struct{ by, arg kubeletArg }

// extractConfigArgs ports pkg/daemons/agent/agent.go extractConfigArgs (k3s
// 2a1e2e8cf41b): --config and --config-dir are taken out of the extra kubelet
// arguments (k3s copies the file to 10-cli-config.conf and the folder to
// 20-cli-config-dir inside its own drop-in folder); an argument with no "="
// takes the next one as its value, which is then skipped: for any flag, not
// only those two.
func extractConfigArgs(extraArgs []kubeletArg) (extracted, error) {
	var out extracted
	var skipVal bool
	for i := range extraArgs {
		if skipVal {
			skipVal = false
			continue
		}
		var val string
		key := strings.TrimPrefix(extraArgs[i].Text, "--")
		if k, v, ok := strings.Cut(key, "="); ok {
			key = k
			val = v
		} else if len(extraArgs) > i+1 {
			val = extraArgs[i+1].Text
			skipVal = true
			if key != "config" && key != "config-dir" {
				out.swallowed = append(out.swallowed, swallow{by: extraArgs[i], arg: extraArgs[i+1]})
			}
		}
		switch key {
		case "config", "config-dir":
			if val == "" {
				return out, fmt.Errorf("value required for kubelet-arg --%s", key)
			}
			if key == "config" {
				out.config, out.configArg = val, extraArgs[i]
			} else {
				out.configDir, out.configDirArg = val, extraArgs[i]
			}
		default:
			out.args = append(out.args, extraArgs[i])
		}
	}
	return out, nil
}

// defaultArg is one of k3s's own kubelet flags (kubeletArgsAndConfig's argsMap)
// with why it is set.
type defaultArg struct{ value, note string }

// getArgs ports pkg/util/args.go GetArgs (k3s 2a1e2e8cf41b): an extra argument
// replaces k3s's value of the same flag; "name+=v" keeps k3s's value and adds
// v after it, "name-=v" adds v before it; repeated names keep their order; the
// result is sorted by flag name.
func getArgs(initialArgs map[string]defaultArg, extraArgs []kubeletArg) []flagOut {
	initial := map[string]defaultArg{}
	for k, v := range initialArgs {
		initial[k] = v
	}
	multiArgs := map[string][]flagOut{}
	for _, ea := range extraArgs {
		splitArg := strings.SplitN(strings.TrimPrefix(ea.Text, "--"), "=", 2)
		arg := splitArg[0]
		value := "true"
		if len(splitArg) > 1 {
			value = splitArg[1]
		}
		cleanedArg := strings.TrimRight(arg, "-+")
		initialValue, initialValueExists := initial[cleanedArg]
		existingValues, existingValuesFound := multiArgs[cleanedArg]
		user := flagOut{User: true, Arg: ea, Text: value}
		def := flagOut{Default: initialValue.note, Text: initialValue.value}

		var newValues []flagOut
		switch {
		case strings.HasSuffix(arg, "+"):
			if initialValueExists {
				newValues = append(newValues, def)
			}
			if existingValuesFound {
				newValues = append(newValues, existingValues...)
			}
			newValues = append(newValues, user)
		case strings.HasSuffix(arg, "-"):
			newValues = append(newValues, user)
			if initialValueExists {
				newValues = append(newValues, def)
			}
			if existingValuesFound {
				newValues = append(newValues, existingValues...)
			}
		default:
			if existingValuesFound {
				newValues = append(newValues, existingValues...)
			}
			newValues = append(newValues, user)
		}
		delete(initial, cleanedArg)
		multiArgs[cleanedArg] = newValues
	}
	for arg, v := range initial {
		multiArgs[arg] = []flagOut{{Text: v.value, Default: v.note}}
	}
	keys := make([]string, 0, len(multiArgs))
	for k := range multiArgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var args []flagOut
	for _, arg := range keys {
		for _, v := range multiArgs[arg] {
			v.Text = fmt.Sprintf("--%s=%s", strings.TrimPrefix(arg, "--"), v.Text)
			args = append(args, v)
		}
	}
	return args
}
