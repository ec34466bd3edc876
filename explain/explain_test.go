package explain

import (
	"encoding/json"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// The default explain reports is the pipeline's: gated defaults follow the
// gate's default at each minor.
func TestExplainDefaults(t *testing.T) {
	for _, tt := range []struct{ path, minor, want string }{
		{"crashLoopBackOff.maxContainerRestartPeriod", "1.34", "null"},
		{"crashLoopBackOff.maxContainerRestartPeriod", "1.35", `"5m0s"`},
		{"maxPods", "1.31", "110"},
		{"evictionHard[nodefs.available]", "1.37", `"10%"`},
		{"memoryThrottlingFactor", "1.36", "0.9"},
		{"memoryThrottlingFactor", "1.37", "null"},
		{"featureGates[NodeSwap]", "1.33", "true"},
		{"readOnlyPort", "1.37", "0"},
	} {
		m := mustMinor(t, tt.minor)
		doc, err := Field(m, tt.path)
		if err != nil {
			t.Fatalf("%s at %s: %v", tt.path, tt.minor, err)
		}
		got, _ := json.Marshal(doc.Default)
		if string(got) != tt.want {
			t.Errorf("%s at %s: default %s, want %s", tt.path, tt.minor, got, tt.want)
		}
	}
}

// Rules are found by the paths they declare (Rule.Fields).
func TestExplainRules(t *testing.T) {
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"readOnlyPort", []string{"KC4029", "KC8004"}},
		{"logging.options.text.splitStream", []string{"KC2501", "KC4083"}},
		{"featureGates[RotateKubeletServerCertificate]", []string{"KC3001", "KC3002", "KC3003", "KC3004", "KC3005", "KC3006", "KC8011"}},
		{"featureGates[KubeletCrashLoopBackOffMax]", []string{"KC3001", "KC3002", "KC3003", "KC3004", "KC3005", "KC3006", "KC4050"}},
		{"reservedMemory[0].limits", []string{"KC4067", "KC4068", "KC4069"}},
		{"maxPods", []string{"KC4025"}},
		{"serverTLSBootstrap", []string{"KC4034", "KC8009", "KC8011"}},
		{"memorySwap.swapBehavior", []string{"KC4046", "KC4047", "KC4532", "KC6002"}},
	} {
		doc, err := Field(mustMinor(t, "1.37"), tt.path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range doc.Rules {
			got = append(got, r.ID)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: rules %v, want %v", tt.path, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: rules %v, want %v", tt.path, got, tt.want)
				break
			}
		}
	}
}

func mustMinor(t *testing.T, v string) *kubelets.Minor {
	t.Helper()
	m, err := kubelets.Lookup(v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFirstSentence: abbreviations do not end the first sentence; a period
// and a space after anything else do.
func TestFirstSentence(t *testing.T) {
	for doc, want := range map[string]string{
		"systemReserved is a set of ResourceName=ResourceQuantity (e.g. cpu=200m,memory=150G) pairs. Default: nil": "systemReserved is a set of ResourceName=ResourceQuantity (e.g. cpu=200m,memory=150G) pairs.",
		"providerID is set by an external provider (i.e. cloudprovider) to identify a node. More.":                 "providerID is set by an external provider (i.e. cloudprovider) to identify a node.",
		"FilePattern is a base file name (i.e. minus the \".go\" suffix and directory). Or a pattern.":             "FilePattern is a base file name (i.e. minus the \".go\" suffix and directory).",
		"Files, folders, etc. are read. Second.":                                                                   "Files, folders, etc. are read.",
		"Read files, folders etc. The rest.":                                                                       "Read files, folders etc.",
		"format specifies the structure of log messages. default value of format is `text`":                        "format specifies the structure of log messages.",
		"tlsCertFile is the file containing x509 Certificate for HTTPS. (CA cert, if any, after.)":                 "tlsCertFile is the file containing x509 Certificate for HTTPS.",
		"One sentence\n  over two lines":                                                                           "One sentence over two lines",
		"Ends e.g. here":                                                                                           "Ends e.g. here",
	} {
		if got := firstSentence(doc); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", doc, got, want)
		}
	}
}
