package kubelets

import "fmt"

// OS is the operating system a kubelet is built for: the Windows kubelet has
// OS checks, defaults and flags of its own (validation_windows.go,
// eviction/defaults_windows.go, options/osflags_windows.go).
type OS string

const (
	Linux   OS = "linux"
	Windows OS = "windows"
)

// OSes are the operating systems kubeletcfg evaluates, the default first.
func OSes() []string { return []string{string(Linux), string(Windows)} }

// ParseOS parses an operating system's name; "" is Linux.
func ParseOS(s string) (OS, error) {
	switch OS(s) {
	case "", Linux:
		return Linux, nil
	case Windows:
		return Windows, nil
	}
	return "", fmt.Errorf("%q is not an operating system kubelets run on: linux or windows", s)
}

// Or is os, or Linux when os is empty.
func (os OS) Or() OS {
	if os == "" {
		return Linux
	}
	return os
}
