# Maintainer targets. A newcomer needs only the two commands in the README.
GO ?= go
HARNESS := $(CURDIR)/bin/harness
CASES := $(CURDIR)/testdata/conformance/cases
GOLDEN := $(CURDIR)/testdata/conformance/golden

.PHONY: test check harness generate conformance conformance-check

test:
	$(GO) test ./...

check: test
	$(GO) vet ./...
	staticcheck ./...

# The harness links the real kubelet (k8s.io/kubernetes); it lives in its own module.
# -checklinkname=0 lets it call the kubelet's unexported start-up functions; the -X
# flags stamp the version as the release build does (showHiddenMetricsForVersion
# and the feature gates' emulation version read it).
KUBE_VERSION := v1.37.2
VERSION_PKG := k8s.io/component-base/version
HARNESS_LDFLAGS := -checklinkname=0 -X $(VERSION_PKG).gitVersion=$(KUBE_VERSION) -X $(VERSION_PKG).gitMajor=1 -X $(VERSION_PKG).gitMinor=37
harness:
	cd conformance && $(GO) build -ldflags="$(HARNESS_LDFLAGS)" -o $(HARNESS) ./harness

# Regenerate the per-version data embedded in skew/ from the upstream code.
generate: harness
	$(HARNESS) gates -out skew/data/1.37/gates.json
	$(HARNESS) fields -out skew/data/1.37/fields.json
	$(HARNESS) roundtrip -out skew/data/1.37/roundtrip.json

# Re-record the goldens with the real kubelet code.
conformance: harness
	$(HARNESS) run -cases $(CASES) -out $(GOLDEN)/1.37

# Fail if a golden no longer matches the real kubelet.
conformance-check: harness
	$(HARNESS) check -cases $(CASES) -golden $(GOLDEN)/1.37
