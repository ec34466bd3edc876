package fleet

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// The kubelet's /flagz (k8s.io/apiserver/pkg/server/flagz, text/plain) is a
// header ("kubelet flagz", a warning line) and then one line per flag of the
// kubelet's command line, sorted by name: name, a separator picked at random
// per process among ":", ": ", "=" and " ", and pflag's Value.String(). Every
// flag is listed, set or not (flagz.NamedFlagSetsReader visits all of them);
// a flag annotated "classified" shows CLASSIFIED.
//
// What kubeletcfg makes of it: configuration flags (those with a
// KubeletConfiguration field) are skipped, because their values are already in
// /configz (the kubelet applies flags over the files before it serves
// configz); the other flags become --name=value arguments when their value is
// not the kubelet's default, so the pipeline sees them as it sees
// --kubelet-flags. Flags this minor does not know are skipped too: a Windows
// node's are looked up in the Windows kubelet's flag table (kubelets.Minor.
// FlagsOn); where it is not recorded yet, the Linux one's, keeping the
// Windows-only flags set (the pipeline leaves them out with a note, KC2508).

// flagDefaults are the defaults (as pflag prints them) of the kubelet flags
// that are not KubeletConfiguration fields and whose default is not the zero
// value (NewKubeletFlags in cmd/kubelet/app/options/options.go; the cadvisor
// housekeeping interval). Strings default to "", booleans to "false".
var flagDefaults = map[string]string{
	"cert-dir":                              "/var/lib/kubelet/pki",
	"root-dir":                              "/var/lib/kubelet",
	"maximum-dead-containers":               "-1",
	"maximum-dead-containers-per-container": "1",
	"minimum-container-ttl-duration":        "0s",
	"housekeeping-interval":                 "10s",
	"node-labels":                           "",
	"version":                               "false",
}

// flagsIgnored name files kubeletcfg does not read (the configuration it has
// from configz), or say nothing about the configuration.
var flagsIgnored = map[string]bool{"config": true, "config-dir": true, "help": true, "version": true}

var flagzLine = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9_.-]*)(: |:|=| )(.*)$`)

// ParseFlagz reads a /flagz text/plain body into the arguments that matter
// to the kubelet of minor m built for os (sorted by name): the flags that are
// not configuration fields and differ from their default. An error means the
// body is not flagz.
func ParseFlagz(body []byte, m *kubelets.Minor, os kubelets.OS) ([]string, error) {
	table, err := m.FlagsOn(os)
	var unrecorded *kubelets.NoWindowsFlagsError
	if errors.As(err, &unrecorded) {
		table, err = m.Flags()
	}
	if err != nil {
		return nil, err
	}
	values, err := parseFlagzText(body)
	if err != nil {
		return nil, err
	}
	var args []string
	for name, v := range values {
		f, ok := table.Lookup(name)
		if boolean, windows := validate.WindowsOnlyFlags[name]; !ok && unrecorded != nil && windows {
			f, ok = &kubelets.Flag{Name: name, Type: "string"}, true
			if boolean {
				f.Type = "bool"
			}
		}
		if !ok || f.Path != "" || flagsIgnored[name] || v == "CLASSIFIED" {
			continue
		}
		def, ok := flagDefaults[name]
		if !ok && (f.Type == "bool") {
			def = "false"
		}
		if v == def || (f.Type == "mapStringString" && (v == "" || v == "map[]")) {
			continue
		}
		args = append(args, "--"+name+"="+v)
	}
	sort.Strings(args)
	return args, nil
}

// parseFlagzText splits the body into name -> value. The separator is the
// same on every line of one body; it is found as the one every line agrees on
// (": " before ":", since a value may be empty).
func parseFlagzText(body []byte) (map[string]string, error) {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var lines []string
	header := false
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.TrimSpace(line) == "" && len(lines) == 0:
		case strings.HasSuffix(strings.TrimSpace(line), " flagz") && !header && len(lines) == 0:
			header = true
		case strings.HasPrefix(line, "Warning:") && len(lines) == 0:
		default:
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !header {
		return nil, fmt.Errorf("not a flagz page (no \"<component> flagz\" header)")
	}
	sep := ""
	for _, cand := range []string{": ", ":", "=", " "} {
		all := true
		for _, l := range lines {
			m := flagzLine.FindStringSubmatch(l)
			if m == nil {
				return nil, fmt.Errorf("flagz line %q is not NAME<sep>VALUE", l)
			}
			name, _, _ := strings.Cut(l, cand)
			if name != m[1] && !(cand == ": " && l == m[1]+":") {
				all = false
				break
			}
		}
		if all {
			sep = cand
			break
		}
	}
	if sep == "" && len(lines) > 0 {
		return nil, fmt.Errorf("flagz lines do not share one separator")
	}
	values := make(map[string]string, len(lines))
	for _, l := range lines {
		name, v, _ := strings.Cut(l, sep)
		if sep == ": " && !strings.Contains(l, ": ") {
			name = strings.TrimSuffix(l, ":")
		}
		values[name] = v
	}
	return values, nil
}
