#!/bin/sh
# Adds or refreshes a kubelet minor in versions.txt and writes the go.mod files that
# build its harness (run from conformance/; `make minor VERSION=...` runs it first):
#   minors/setminor.sh v1.38.0 [go1.27.3]
# A minor newer than every listed one becomes the newest: conformance/go.mod is
# rewritten for it and the previous newest moves to minors/<old>/go.mod. The Go
# toolchain column is kept from versions.txt, or given, or, when the release's go.mod
# needs a newer Go than the main module's, the newest patch of that Go that the
# module proxy serves (golang.org/toolchain).
set -eu
release=$1
toolchain=${2:-}
case $release in v1.*) ;; *) echo "setminor.sh: $release is not a release such as v1.38.0" >&2; exit 2 ;; esac
minor=$(echo "$release" | sed -E 's/^v([0-9]+\.[0-9]+)\..*/\1/')
versions=minors/versions.txt
newest=$(awk '/^[0-9]/ {m=$1} END {print m}' "$versions")
[ -n "$toolchain" ] || toolchain=$(awk -v m="$minor" '$1 == m {print $3}' "$versions")
if [ -z "$toolchain" ]; then
	kubemod=$(cd / && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$release" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
	[ -f "$kubemod" ] || { echo "setminor.sh: k8s.io/kubernetes@$release is not served" >&2; exit 1; }
	need=$(awk '$1 == "go" {print $2; exit}' "$kubemod")
	have=$(awk '$1 == "go" {print $2; exit}' ../go.mod)
	if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | tail -1)" != "$have" ]; then
		series=$(echo "$need" | cut -d. -f1,2)
		toolchain=$(cd / && GOFLAGS=-mod=mod go list -m -versions golang.org/toolchain | tr ' ' '\n' |
			sed -n "s/^v0\.0\.1-\(go$series\.[0-9]*\)\.linux-amd64$/\1/p" | sort -V | tail -1)
		[ -n "$toolchain" ] || { echo "setminor.sh: no go$series toolchain is served" >&2; exit 1; }
	fi
fi
line="$minor $release${toolchain:+ $toolchain}"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if grep -q "^$minor " "$versions"; then
	awk -v m="$minor" -v l="$line" '$1 == m {print l; next} {print}' "$versions" > "$tmp"
else
	[ "$(printf '%s\n%s\n' "$minor" "$newest" | sort -V | tail -1)" = "$minor" ] ||
		{ echo "setminor.sh: $minor is older than the newest minor $newest and not listed" >&2; exit 2; }
	{ cat "$versions"; echo "$line"; } > "$tmp"
fi
cp "$tmp" "$versions"
echo "versions.txt: $line"
if [ "$minor" = "$newest" ]; then
	sh minors/modfile.sh "$minor" .
elif [ "$(awk '/^[0-9]/ {m=$1} END {print m}' "$versions")" = "$minor" ]; then
	sh minors/modfile.sh "$newest"    # the old newest keeps building, from minors/<old>/
	sh minors/modfile.sh "$minor" .
else
	sh minors/modfile.sh "$minor"
fi
