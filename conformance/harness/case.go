package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/go-logr/logr"

	"github.com/spf13/pflag"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/codec"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"
	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubeletscheme "k8s.io/kubernetes/pkg/kubelet/apis/config/scheme"
	kubeletconfigv1beta1conversion "k8s.io/kubernetes/pkg/kubelet/apis/config/v1beta1"
	kubeletconfigvalidation "k8s.io/kubernetes/pkg/kubelet/apis/config/validation"
)

// kubeletVersion is the k8s.io/kubernetes module linked into this binary.
func kubeletVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "k8s.io/kubernetes" {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return "unknown"
}

// stepError is how one start-up step ended.
type stepError struct {
	err      error
	panicked bool
}

// step runs f and turns a panic into an error whose text is the panic value.
func step(f func() error) (res stepError) {
	defer func() {
		if r := recover(); r != nil {
			res = stepError{err: fmt.Errorf("%v", r), panicked: true}
		}
	}()
	return stepError{err: f()}
}

// evaluateCase mirrors the RunE of k8s.io/kubernetes/cmd/kubelet/app.NewKubeletCommand,
// step by step, with the kubelet's own functions, for the command line
// `kubelet --config <abs> --config-dir <abs>`. It must run in a fresh process: it
// changes the global feature gate and the global logging configuration.
func evaluateCase(c *Case) *Result {
	r := &Result{Case: c.Name, Kubelet: kubeletVersion(), Cgroup: c.Cgroup, Flags: c.Flags}
	ctx := context.Background()
	args := c.Args()

	fail := func(stage string, s stepError) *Result {
		r.Stage = stage
		r.Panic = s.panicked
		r.Error = canonicalError(normalizeString(s.err.Error(), c.Dir))
		return r
	}

	// NewKubeletCommand: the flag-based defaults and the clean flag set.
	cleanFlagSet := pflag.NewFlagSet(componentKubelet, pflag.ContinueOnError)
	cleanFlagSet.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	kubeletFlags := options.NewKubeletFlags()
	kubeletConfig, err := options.NewKubeletConfiguration()
	if err != nil {
		return fail(StageLoad, stepError{err: fmt.Errorf("programmer error: %w", err)})
	}
	kubeletFlags.AddFlags(cleanFlagSet)
	options.AddKubeletConfigFlags(cleanFlagSet, kubeletConfig)
	options.AddGlobalFlags(cleanFlagSet)
	cleanFlagSet.BoolP("help", "h", false, "help for kubelet")

	// RunE: initial flag parse, initial feature gates, flag validation.
	if s := step(func() error {
		if err := cleanFlagSet.Parse(args); err != nil {
			return fmt.Errorf("failed to parse kubelet flag: %w", err)
		}
		// RunE refuses arguments that are not flags (server.go, NewKubeletCommand).
		if cmds := cleanFlagSet.Args(); len(cmds) > 0 {
			return fmt.Errorf("unknown command %+s", cmds[0])
		}
		return nil
	}); s.err != nil {
		return fail(StageFlags, s)
	}
	// RunE: "short-circuit on help", then verflag.PrintAndExitIfRequested (it
	// exits for the version values true and raw). The kubelet prints and exits 0
	// without starting; recorded as a stop at the flags stage.
	if help, err := cleanFlagSet.GetBool("help"); err == nil && help {
		return fail(StageFlags, stepError{err: errors.New("--help: the kubelet prints its help and exits 0 without starting")})
	}
	if v := cleanFlagSet.Lookup("version"); v != nil && (v.Value.String() == "true" || v.Value.String() == "raw") {
		return fail(StageFlags, stepError{err: errors.New("--version: the kubelet prints its version and exits 0 without starting")})
	}
	if s := step(func() error {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(kubeletConfig.FeatureGates); err != nil {
			return fmt.Errorf("failed to set feature gates from initial flags-based config: %w", err)
		}
		return nil
	}); s.err != nil {
		return fail(StageFeatureGates, s)
	}
	if s := step(func() error {
		if err := options.ValidateKubeletFlags(kubeletFlags); err != nil {
			return fmt.Errorf("failed to validate kubelet flags: %w", err)
		}
		return nil
	}); s.err != nil {
		return fail(StageFlags, s)
	}

	// --config
	if len(kubeletFlags.KubeletConfigFile) > 0 {
		if s := step(func() error {
			kc, err := loadConfigFile(ctx, kubeletFlags.KubeletConfigFile)
			if err != nil {
				return fmt.Errorf("failed to load kubelet config file, path: %s, error: %w", kubeletFlags.KubeletConfigFile, err)
			}
			kubeletConfig = kc
			return nil
		}); s.err != nil {
			r.Lenient, r.StrictError = checkLenient(c)
			return fail(StageLoad, s)
		}
	}
	r.Lenient, r.StrictError = checkLenient(c)

	// --config-dir
	if len(kubeletFlags.KubeletDropinConfigDirectory) > 0 {
		if s := step(func() error {
			if _, err := mergeKubeletConfigurations(kubeletConfig, kubeletFlags.KubeletDropinConfigDirectory); err != nil {
				return fmt.Errorf("failed to merge kubelet configs: %w", err)
			}
			return nil
		}); s.err != nil {
			return fail(StageMerge, s)
		}
	}

	// Load and merge succeeded. The effective configuration is what the kubelet
	// holds when it validates: after kubeletConfigFlagPrecedence, whose flag
	// registration rewrites some fields (the split-stream logging options).
	recordEffective := func() *Result {
		eff, err := effectiveJSON(kubeletConfig)
		if err != nil {
			return fail(StageMerge, stepError{err: fmt.Errorf("harness: encoding the effective configuration: %w", err)})
		}
		r.Effective = normalizeJSON(eff, c.Dir)
		return nil
	}

	if len(kubeletFlags.KubeletConfigFile) > 0 || len(kubeletFlags.KubeletDropinConfigDirectory) > 0 {
		if s := step(func() error {
			if err := kubeletConfigFlagPrecedence(kubeletConfig, args); err != nil {
				return fmt.Errorf("failed to precedence kubeletConfigFlag: %w", err)
			}
			return nil
		}); s.err != nil {
			return fail(StageFlags, s)
		}
		if res := recordEffective(); res != nil {
			return res
		}
		if s := step(func() error {
			if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(kubeletConfig.FeatureGates); err != nil {
				return fmt.Errorf("failed to set feature gates from initial flags-based config: %w", err)
			}
			return nil
		}); s.err != nil {
			return fail(StageFeatureGates, s)
		}
	} else if res := recordEffective(); res != nil {
		return res
	}

	// Logging.
	if s := step(func() error {
		logs.InitLogs()
		if err := logsapi.ValidateAndApplyAsField(&kubeletConfig.Logging, utilfeature.DefaultFeatureGate, field.NewPath("logging")); err != nil {
			return fmt.Errorf("initialize logging: %v", err)
		}
		return nil
	}); s.err != nil {
		return fail(StageLogging, s)
	}

	// Validation. RunE appends ", path: %s" with the whole *KubeletConfiguration
	// formatted by %s; that dump holds pointer addresses, so it is left out here.
	// The warnings it prints on the way are recorded (the Windows kubelet's ignored
	// options).
	s, warnings := captureWarnings(func() stepError {
		return step(func() error {
			if err := kubeletconfigvalidation.ValidateKubeletConfiguration(kubeletConfig, utilfeature.DefaultFeatureGate); err != nil {
				return fmt.Errorf("failed to validate kubelet configuration, error: %w", err)
			}
			return nil
		})
	})
	for _, w := range warnings {
		r.Warnings = append(r.Warnings, normalizeString(w, c.Dir))
	}
	if s.err != nil {
		return fail(StageValidate, s)
	}

	// The run stage: UnsecuredDependencies, run and NewMainKubelet (runstage.go).
	if s := step(func() error { return runStage(kubeletFlags, kubeletConfig) }); s.err != nil {
		return fail(StageRun, s)
	}

	r.Stage = StageOK
	r.Starts = true

	// What the kubelet's crash-loop back-off will use (reads the global gate).
	if s := step(func() error {
		boMax, boInitial := newCrashLoopBackOff(kubeletConfig)
		r.CrashLoopBackOff = &CrashLoopResult{Initial: boInitial.String(), Max: boMax.String()}
		return nil
	}); s.err != nil {
		r.Starts = false
		return fail("crashloopbackoff", s)
	}
	return r
}

// captureWarnings runs f with klog's output going through a callback that keeps the
// text of each warning the validation package logs (klog.Warning* from a
// validation*.go file, the header left out) and writes every line where klog would
// (os.Stderr: /dev/null unless -v). The feature gate library's own warnings, which up
// to 1.35 it logs while validation applies the gates to its local copy ("Setting GA
// feature gate ..."), are not the kubelet's checks and are left out, as every other
// stage leaves them out. klog goes back to its own output afterwards: with
// logging.format json, -v shows the run stage's logs as text.
func captureWarnings(f func() stepError) (stepError, []string) {
	var warnings []string
	klog.SetLoggerWithOptions(logr.Discard(), klog.WriteKlogBuffer(func(line []byte) {
		_, _ = os.Stderr.Write(line)
		if w, ok := validationWarning(line); ok {
			warnings = append(warnings, w)
		}
	}))
	defer klog.ClearLogger()
	return f(), warnings
}

// validationWarning is the text of a klog line that is a warning logged from a
// validation*.go file: "Wmmdd hh:mm:ss.uuuuuu threadid file:line] text".
func validationWarning(line []byte) (string, bool) {
	if len(line) == 0 || line[0] != 'W' {
		return "", false
	}
	header, text, ok := bytes.Cut(line, []byte("] "))
	if !ok {
		return "", false
	}
	fields := bytes.Fields(header)
	if len(fields) == 0 || !bytes.HasPrefix(fields[len(fields)-1], []byte("validation")) {
		return "", false
	}
	return strings.TrimSuffix(string(text), "\n"), true
}

// effectiveJSON converts the internal configuration to v1beta1 with the kubelet's
// conversion function and marshals it with encoding/json, with apiVersion and kind.
func effectiveJSON(kc *kubeletconfiginternal.KubeletConfiguration) ([]byte, error) {
	versioned := &kubeletconfigv1beta1.KubeletConfiguration{}
	if err := kubeletconfigv1beta1conversion.Convert_config_KubeletConfiguration_To_v1beta1_KubeletConfiguration(kc, versioned, nil); err != nil {
		return nil, err
	}
	versioned.APIVersion = kubeletconfigv1beta1.SchemeGroupVersion.String()
	versioned.Kind = "KubeletConfiguration"
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(versioned); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}

// checkLenient decodes the main file with the kubelet's strict codec. When that fails
// with a strict decoding error and the kubelet's lenient codec accepts the file (the
// fallback in DecodeKubeletConfiguration), the kubelet went on leniently.
func checkLenient(c *Case) (lenient bool, strictError string) {
	if c.Config == "" {
		return false, ""
	}
	data, err := os.ReadFile(c.Config)
	if err != nil || len(data) == 0 {
		return false, ""
	}
	var strictErr error
	s := step(func() error {
		_, codecs, err := kubeletscheme.NewSchemeAndCodecs(serializer.EnableStrict)
		if err != nil {
			return err
		}
		_, _, strictErr = codecs.UniversalDecoder().Decode(data, nil, nil)
		return nil
	})
	if s.err != nil || strictErr == nil || !runtime.IsStrictDecodingError(strictErr) {
		return false, ""
	}
	s = step(func() error {
		_, lenientCodecs, err := codec.NewLenientSchemeAndCodecs(
			kubeletconfiginternal.AddToScheme,
			kubeletconfigv1beta1conversion.AddToScheme,
		)
		if err != nil {
			return err
		}
		_, _, err = lenientCodecs.UniversalDecoder().Decode(data, nil, nil)
		return err
	})
	if s.err != nil {
		return false, ""
	}
	return true, normalizeString(strictErr.Error(), c.Dir)
}

var errUsage = errors.New("usage")
