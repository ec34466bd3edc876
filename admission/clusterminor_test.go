package admission

import (
	"testing"

	"k8s.io/apimachinery/pkg/version"
)

// TestMinorOf: the cluster's minor from what the API server's /version says,
// as managed clusters spell it.
func TestMinorOf(t *testing.T) {
	tests := []struct {
		name string
		v    version.Info
		want string
	}{
		{"upstream", version.Info{Major: "1", Minor: "37", GitVersion: "v1.37.2"}, "1.37"},
		{"EKS", version.Info{Major: "1", Minor: "36+", GitVersion: "v1.36.4-eks-3025e55"}, "1.36"},
		{"git version alone", version.Info{GitVersion: "v1.35.1-gke.1000"}, "1.35"},
		{"a build without a version", version.Info{GitVersion: "v0.0.0-master+$Format:%H$"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MinorOf(&tt.v)
			if got != tt.want || (err != nil) != (tt.want == "") {
				t.Errorf("MinorOf = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
