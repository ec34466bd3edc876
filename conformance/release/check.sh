#!/bin/sh
# check.sh HARNESS KUBELETCFG RELEASE RECORDED: the kubelet's --version flag
# against a binary of another patch release than the one the goldens were
# recorded from. HARNESS is the conformance harness linked with its gitVersion
# stamped RELEASE (make release-check does it: only the link step runs again);
# kubeletcfg is told the binary with --kubelet-version RELEASE. For each
# --version value, both must agree on whether the kubelet starts: RELEASE itself
# and RELEASE with a build suffix start (verflag takes them as the version to
# report), the recorded release and another patch are refused
# (validateDynamicVersion wants the binary's own major, minor and patch).
set -eu
harness=$1 kubeletcfg=$2 release=$3 recorded=$4
other=$(echo "$release" | awk -F. '{ printf "%s.%s.%d", $1, $2, $3 + 1 }')
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0 n=0
for value in "$release" "$release-custom" "$recorded" "$other" raw false; do
	n=$((n + 1))
	case_dir=$dir/$n
	mkdir -p "$case_dir"
	printf 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' >"$case_dir/kubelet.yaml"
	printf 'description: "--version=%s on a %s kubelet"\nflags: ["--version=%s"]\n' "$value" "$release" "$value" >"$case_dir/case.yaml"
	want=$("$harness" case "$case_dir" | sed -n 's/^  "starts": \(true\|false\),$/\1/p')
	got=false
	"$kubeletcfg" lint -q -o json -c "$case_dir/kubelet.yaml" --kubelet-version "$release" --kubelet-flags "--version=$value" >"$dir/out.json" || true
	grep -q '"starts": true' "$dir/out.json" && got=true
	if [ -z "$want" ] || [ "$want" != "$got" ]; then
		echo "release-check: --version=$value on a $release kubelet: the kubelet starts=${want:-?}, kubeletcfg starts=$got"
		fail=1
	fi
done
[ "$fail" = 0 ] && echo "release-check: $n --version values on a $release kubelet: kubeletcfg agrees with the kubelet on every one"
exit "$fail"
