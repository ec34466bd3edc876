package main

import (
	"reflect"
	"testing"

	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
)

// TestInternalNames: every v1beta1 path (the fields table's, by reflection) has an
// internal key path, and a few known pairs.
func TestInternalNames(t *testing.T) {
	got, err := internalNames()
	if err != nil {
		t.Fatal(err)
	}
	var paths []FieldInfo
	reflectPaths(reflect.TypeFor[kubeletconfigv1beta1.KubeletConfiguration](), "", &paths)
	for _, p := range paths {
		if _, ok := got[p.Path]; !ok {
			t.Errorf("no internal name for %s", p.Path)
		}
	}
	if len(got) != len(paths) {
		t.Errorf("%d internal names, %d v1beta1 paths", len(got), len(paths))
	}
	for ext, in := range map[string]string{
		"apiVersion":                       "apiVersion",
		"resolvConf":                       "ResolverConfig",
		"maxPods":                          "MaxPods",
		"authentication.x509.clientCAFile": "Authentication.X509.ClientCAFile",
		"logging.format":                   "Logging.format",
	} {
		if got[ext] != in {
			t.Errorf("%s: got %q, want %q", ext, got[ext], in)
		}
	}
}
