# Maintainer targets. A newcomer needs only the two commands in the README.
GO ?= go
CASES := $(CURDIR)/testdata/conformance/cases
GOLDEN := $(CURDIR)/testdata/conformance/golden
BACKOFF := $(CURDIR)/testdata/conformance/backoff
# What kubeadm's kubelet-start phase writes to the node (config.yaml, kubeadm-flags.env,
# instance-config.yaml: harness kubeadm; checked by input/kubeadm's TestKubeadmGoldens).
KUBEADM := $(CURDIR)/testdata/kubeadm

.PHONY: minor test check harness harness-test generate conformance conformance-check \
	harness-all generate-all conformance-all conformance-check-all harness-test-all fuzz-conformance fuzz-conformance-windows release-check harness-vet \
	harness-windows conformance-windows conformance-windows-check generate-windows \
	integration integration-scale capi-golden capi-golden-check karpenter-check karpenter-goldens karpenter-goldens-check

test:
	$(GO) test ./...

check: test
	$(GO) vet ./...
	staticcheck ./...

# The harness links the real kubelet (k8s.io/kubernetes); it lives in its own module.
# -checklinkname=0 lets it call the kubelet's unexported start-up functions; the -X
# flags stamp the version as the release build does (showHiddenMetricsForVersion
# and the feature gates' emulation version read it).
#
# Kubelet minors: conformance/minors/versions.txt lists the k8s.io/kubernetes release of
# each. MINOR picks one (default: the newest, last in the list). The newest builds with
# conformance/go.mod and no build tag, to bin/harness (CI and the README use it); an
# older minor M builds with conformance/minors/M/go.mod (minors/modfile.sh M) and the tag
# kube1_<m> (see conformance/harness/linkname.go), to bin/harness-M.
#   make harness MINOR=1.34      make generate-all      make conformance-all
VERSIONS := conformance/minors/versions.txt
MINORS := $(shell awk '/^[0-9]/ {print $$1}' $(VERSIONS))
NEWEST := $(lastword $(MINORS))
MINOR ?= $(NEWEST)
KUBE_VERSION := $(shell awk -v m="$(MINOR)" '$$1 == m {print $$2}' $(VERSIONS))
$(if $(KUBE_VERSION),,$(error MINOR=$(MINOR) is not in $(VERSIONS)))
# The Go toolchain a release's modules need when it is newer than the main module's
# (versions.txt's third column: 1.38's modules declare go 1.27). The go command fetches
# it through the module proxy once per machine; the main module stays on its own Go.
HARNESS_TOOLCHAIN := $(shell awk -v m="$(MINOR)" '$$1 == m {print $$3}' $(VERSIONS))
TOOLCHAIN_ENV := $(if $(HARNESS_TOOLCHAIN),GOTOOLCHAIN=$(HARNESS_TOOLCHAIN))
ifeq ($(MINOR),$(NEWEST))
HARNESS := $(CURDIR)/bin/harness
HARNESS_ENV := $(TOOLCHAIN_ENV)
else
HARNESS := $(CURDIR)/bin/harness-$(MINOR)
# GOFLAGS (not flags) so that the go commands the tests run see the minor's go.mod too.
HARNESS_ENV := $(TOOLCHAIN_ENV) GOFLAGS="-modfile=minors/$(MINOR)/go.mod -tags=kube$(subst .,_,$(MINOR))"
endif
VERSION_PKG := k8s.io/component-base/version
HARNESS_LDFLAGS := -checklinkname=0 -X $(VERSION_PKG).gitVersion=$(KUBE_VERSION) \
	-X $(VERSION_PKG).gitMajor=$(word 1,$(subst ., ,$(MINOR))) -X $(VERSION_PKG).gitMinor=$(word 2,$(subst ., ,$(MINOR)))
# The 1.31 drop-in merge patches json.Marshal of the kubelet's internal type.
INTERNALNAMES_MINORS := 1.31

harness:
	cd conformance && $(HARNESS_ENV) $(GO) build -ldflags="$(HARNESS_LDFLAGS)" -o $(HARNESS) ./harness

# The Windows kubelet: the same harness cross-built for windows/amd64 (the kubelet's
# *_windows.go files: validation, flags, defaults) and run under Wine
# (conformance/windows/setup-wine.sh: wine64, the ProcessPrng shim, the prefix and a
# persistent wineserver). Its goldens are testdata/conformance/golden-windows/<minor>/, and
# kubeadm's Windows build's are testdata/kubeadm/golden-windows/<minor>/ (run from Z:).
#   make harness-windows MINOR=1.37    make conformance-windows MINOR=1.37    make generate-windows MINOR=1.37
HARNESS_WINDOWS := $(CURDIR)/bin/harness-$(MINOR).exe
GOLDEN_WINDOWS := $(CURDIR)/testdata/conformance/golden-windows
WINE = $(shell conformance/windows/setup-wine.sh -cmd)

harness-windows:
	cd conformance && $(HARNESS_ENV) GOOS=windows GOARCH=amd64 $(GO) build -ldflags="$(HARNESS_LDFLAGS)" -o $(HARNESS_WINDOWS) ./harness

# Record (conformance-windows) or check the Windows kubelet's goldens through Wine.
# The harness is handed the case folder as a Unix path; Wine maps it to Z:\.
conformance-windows: harness-windows
	conformance/windows/setup-wine.sh
	$(WINE) $(HARNESS_WINDOWS) run -cases $(CASES) -out $(GOLDEN_WINDOWS)/$(MINOR)
	$(WINE) $(HARNESS_WINDOWS) kubeadm -cases $(KUBEADM)/cases -out $(KUBEADM)/golden-windows/$(MINOR)

conformance-windows-check: harness-windows
	conformance/windows/setup-wine.sh
	$(WINE) $(HARNESS_WINDOWS) check -cases $(CASES) -golden $(GOLDEN_WINDOWS)/$(MINOR)
	$(WINE) $(HARNESS_WINDOWS) kubeadm -cases $(KUBEADM)/cases -out $(KUBEADM)/golden-windows/$(MINOR) -check

# The Windows kubelet's flags (kubelets/data/<minor>/flags-windows.json, flags.json's format).
generate-windows: harness-windows
	conformance/windows/setup-wine.sh
	$(WINE) $(HARNESS_WINDOWS) flags -out kubelets/data/$(MINOR)/flags-windows.json

# The --version flag on a kubelet of another patch release than the recorded one:
# the harness linked again with gitVersion v<MINOR>.99 (only the link step runs),
# kubeletcfg told the binary with --kubelet-version (conformance/release/check.sh).
RELEASE_CHECK := v$(MINOR).99
release-check:
	cd conformance && $(HARNESS_ENV) $(GO) build -ldflags="$(subst $(KUBE_VERSION),$(RELEASE_CHECK),$(HARNESS_LDFLAGS))" -o $(CURDIR)/bin/harness-release ./harness
	$(GO) build -o $(CURDIR)/bin/kubeletcfg ./cmd/kubeletcfg
	conformance/release/check.sh $(CURDIR)/bin/harness-release $(CURDIR)/bin/kubeletcfg $(RELEASE_CHECK) $(KUBE_VERSION)

# vet the harness against MINOR (CI: the newest).
harness-vet:
	cd conformance && $(HARNESS_ENV) $(GO) vet ./...

# vet and test the harness against MINOR.
harness-test:
	cd conformance && $(HARNESS_ENV) $(GO) vet ./...
	cd conformance && $(HARNESS_ENV) $(GO) test -ldflags=-checklinkname=0 ./harness

# Regenerate the per-version data embedded in kubelets/ from the upstream code.
generate: harness
	$(HARNESS) gates -out kubelets/data/$(MINOR)/gates.json
	$(HARNESS) fields -out kubelets/data/$(MINOR)/fields.json
	$(HARNESS) roundtrip -out kubelets/data/$(MINOR)/roundtrip.json
	$(HARNESS) schema -out kubelets/data/$(MINOR)/schema.json
	$(HARNESS) flags -out kubelets/data/$(MINOR)/flags.json
	$(HARNESS) release -out kubelets/data/$(MINOR)/release.json
	$(if $(filter $(MINOR),$(INTERNALNAMES_MINORS)),$(HARNESS) internalnames -out kubelets/data/$(MINOR)/internalnames.json)
	$(GO) generate ./skew

# Re-record the goldens with the real kubelet code (and its crash-loop backoff curves).
conformance: harness
	$(HARNESS) run -cases $(CASES) -out $(GOLDEN)/$(MINOR)
	$(HARNESS) backoff -out $(BACKOFF)/$(MINOR).json
	$(HARNESS) kubeadm -cases $(KUBEADM)/cases -out $(KUBEADM)/golden/$(MINOR)

# Fail if a golden no longer matches the real kubelet.
conformance-check: harness
	$(HARNESS) check -cases $(CASES) -golden $(GOLDEN)/$(MINOR)
	$(HARNESS) backoff -check $(BACKOFF)/$(MINOR).json
	$(HARNESS) kubeadm -cases $(KUBEADM)/cases -out $(KUBEADM)/golden/$(MINOR) -check

# Differential fuzzing against the real kubelet: N random cases built from MINOR's own
# schema and gate table (internal/fuzzcase), each run through the kubelet (the harness)
# and kubeletcfg; prints the disagreements grouped by class and fails on any. Without
# SEED a fresh seed is drawn and printed, so that any run can be repeated. The cases
# and the kubelet's goldens stay in .fuzz/<minor>/<seed>/ for a look; a disagreement
# is minimised into a corpus case (testdata/conformance/cases).
#   make fuzz-conformance MINOR=1.37 N=200 SEED=1
N ?= 100
FUZZ_DIR ?= $(CURDIR)/.fuzz
fuzz-conformance:
	@test -x $(HARNESS) || $(MAKE) --no-print-directory harness MINOR=$(MINOR)
	@seed=$(if $(SEED),$(SEED),$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')); \
	dir=$(FUZZ_DIR)/$(MINOR)/$$seed; \
	echo "== fuzz-conformance MINOR=$(MINOR) N=$(N) SEED=$$seed (cases in $$dir)"; \
	rm -rf $$dir && \
	$(GO) run ./internal/fuzzcase/cmd gen -minor $(MINOR) -n $(N) -seed $$seed -out $$dir/cases && \
	{ $(HARNESS) run -cases $$dir/cases -out $$dir/golden; \
	$(GO) run ./internal/fuzzcase/cmd compare -minor $(MINOR) -cases $$dir/cases -golden $$dir/golden; } || \
	{ echo "fuzz-conformance failed; repeat with: make fuzz-conformance MINOR=$(MINOR) N=$(N) SEED=$$seed"; exit 1; }

# The same against the Windows kubelet: the cases run through the Windows harness under
# Wine (harness-windows) and are compared with kubeletcfg evaluating a Windows node.
#   make fuzz-conformance-windows MINOR=1.37 N=200 SEED=1
fuzz-conformance-windows: harness-windows
	@conformance/windows/setup-wine.sh >/dev/null
	@seed=$(if $(SEED),$(SEED),$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')); \
	dir=$(FUZZ_DIR)/windows-$(MINOR)/$$seed; \
	echo "== fuzz-conformance-windows MINOR=$(MINOR) N=$(N) SEED=$$seed (cases in $$dir)"; \
	rm -rf $$dir && \
	$(GO) run ./internal/fuzzcase/cmd gen -minor $(MINOR) -n $(N) -seed $$seed -out $$dir/cases && \
	{ $(WINE) $(HARNESS_WINDOWS) run -cases $$dir/cases -out $$dir/golden; \
	$(GO) run ./internal/fuzzcase/cmd compare -os windows -minor $(MINOR) -cases $$dir/cases -golden $$dir/golden; } || \
	{ echo "fuzz-conformance-windows failed; repeat with: make fuzz-conformance-windows MINOR=$(MINOR) N=$(N) SEED=$$seed"; exit 1; }

# Add or refresh a kubelet minor end to end (CONTRIBUTING.md, "Adding a kubelet
# minor"): versions.txt and the harness's go.mod files, the harness, kubelets/data and
# its Go tables, the newest minor's KubeletConfiguration types (upstream/), the
# goldens of the corpus, the backoff curves and kubeadm, docs/rules.md, the CLI
# goldens, man pages, docs/commands and the examples of README.md and docs/; then
# every test. A pre-release stays out of the defaults;
# its GA release (make minor VERSION=v1.38.0) makes it the default minor and window.
#   make minor VERSION=v1.38.0-rc.1        make minor VERSION=v1.39.0-alpha.1 TOOLCHAIN=go1.28.1
minor:
	@test -n "$(VERSION)" || { echo "usage: make minor VERSION=v1.38.0 [TOOLCHAIN=go1.27.3]" >&2; exit 2; }
	cd conformance && sh minors/setminor.sh $(VERSION) $(TOOLCHAIN)
	$(MAKE) --no-print-directory generate conformance MINOR=$(shell echo $(VERSION) | sed -E 's/^v([0-9]+\.[0-9]+)\..*/\1/')
	sh upstream/gen.sh
	$(GO) run ./internal/rulesdoc/cmd
	$(GO) test ./cmd/kubeletcfg -update || true
	$(GO) test ./...

# Karpenter's own bootstrap code (github.com/aws/karpenter-provider-aws, the release in
# conformance/karpenter/go.mod) run on every EC2NodeClass fixture: the user data it
# generates, the goldens input/karpenter's TestKarpenterHarnessGoldens checks kubeletcfg's
# translation against. Its own module, never linked by the main module; it declares a Go
# newer than the main module's, so it builds with the toolchain of the 1.38 harness.
KARPENTER_TOOLCHAIN := go1.27.3
KARPENTER_FIXTURES := $(wildcard testdata/bootstrappers/karpenter/*.yaml)
KARPENTER_GOLDEN := testdata/bootstrappers/karpenter/golden
karpenter-check:
	cd conformance/karpenter && GOTOOLCHAIN=$(KARPENTER_TOOLCHAIN) $(GO) build -o $(CURDIR)/bin/karpenter-check .

karpenter-goldens: karpenter-check
	bin/karpenter-check -out $(KARPENTER_GOLDEN) $(KARPENTER_FIXTURES)
	$(GO) test ./input/karpenter -run TestKarpenterHarnessGoldens

# Fail if a golden is no longer what Karpenter's code generates.
karpenter-goldens-check: karpenter-check
	@tmp=$$(mktemp -d) && bin/karpenter-check -out $$tmp $(KARPENTER_FIXTURES) && \
	diff -r $(KARPENTER_GOLDEN) $$tmp && rm -rf $$tmp

# Every minor in turn (one k8s build at a time: 5-10 min each when cold).
harness-all generate-all conformance-all conformance-check-all harness-test-all:
	@for m in $(MINORS); do $(MAKE) --no-print-directory $(@:-all=) MINOR=$$m || exit 1; done

# `kubeletcfg cluster` against a real kube-apiserver and etcd, in their own module
# (integration/, linking k8s.io/kubernetes); root, as the suite runs in a network
# namespace it creates. integration-scale adds the 2,000-node preflight.
integration:
	cd integration && $(GO) vet ./...
	cd integration && $(GO) test -count=1 -timeout 15m ./...

integration-scale:
	cd integration && KUBELETCFG_IT_SCALE=1 $(GO) test -count=1 -timeout 30m -run 'TestScale' -v ./...

# The kubeadm documents Cluster API writes for each fixture of testdata/bootstrappers/capi,
# by Cluster API's own code (conformance/capi: its own module, linking
# sigs.k8s.io/cluster-api; the main module never imports it), at every minor, into
# testdata/bootstrappers/capi/golden/<minor>/; input/capi's TestCAPIHarnessGoldens compares
# kubeletcfg's with them. About 10 minutes cold on a busy 2-core machine, seconds warm.
CAPI_CASES := $(CURDIR)/testdata/bootstrappers/capi
capi-golden:
	cd conformance/capi && $(GO) run . -cases $(CAPI_CASES) -out $(CAPI_CASES)/golden

# Fail if a golden no longer matches Cluster API's output.
capi-golden-check:
	cd conformance/capi && $(GO) vet . && $(GO) run . -cases $(CAPI_CASES) -out $(CAPI_CASES)/golden -check
