package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRepeatedFileFlags: -c or -d given twice is a usage error naming the flag
// and both values, on every command that has them; once is fine.
func TestRepeatedFileFlags(t *testing.T) {
	cfg, dir := example+"/config.yaml", example+"/conf.d"
	other := "../../testdata/inputs/configz.json"
	for _, tc := range []struct {
		args                []string
		flag, first, second string
	}{
		{[]string{"lint", "-c", cfg, "-c", other}, "-c, --config", cfg, other},
		{[]string{"lint", "-c", cfg, "--config-dir", dir, "-d", "elsewhere"}, "-d, --config-dir", dir, "elsewhere"},
		{[]string{"effective", "--config", cfg, "-c", other}, "-c, --config", cfg, other},
		{[]string{"skew", "-c", cfg, "--config=" + other}, "-c, --config", cfg, other},
		{[]string{"preflight", "--from", "1.34", "-d", dir, "-d", dir}, "-d, --config-dir", dir, dir},
		{[]string{"backoff", "-c", cfg, "-c", other}, "-c, --config", cfg, other},
		{[]string{"fix", "-c", cfg, "-c", other, "--diff"}, "-c, --config", cfg, other},
		{[]string{"dropin", "new", "10-x.conf", "-d", dir, "-d", "elsewhere", "--set", "maxPods=10"}, "-d, --config-dir", dir, "elsewhere"},
		{[]string{"dropin", "new", "10-x.conf", "-d", dir, "-c", cfg, "-c", other, "--set", "maxPods=10", "--dry-run"}, "-c, --config", cfg, other},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, exitUsage, stderr.String())
		}
		msg := stderr.String()
		want := `for "` + tc.flag + `" flag: given twice ("` + tc.first + `", then "` + tc.second + `")`
		if !strings.Contains(msg, want) || strings.Count(msg, "\n") != 1 || stdout.Len() > 0 {
			t.Errorf("%v: stderr %q, want one line with %q", tc.args, msg, want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"lint", "-q", "-c", cfg, "-d", dir}, &stdout, &stderr); code == exitUsage {
		t.Errorf("-c and -d once each: usage error %q", stderr.String())
	}
}
