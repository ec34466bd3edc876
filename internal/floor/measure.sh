#!/bin/sh
# measure.sh N CMD...: runs CMD N times and prints the median whole-process CPU
# time (perf's task-clock: user+sys of every thread, ms). CPU time is what the
# speed targets of issue 11 compare: on a shared machine it is steadier than
# wall time.
#
#	B=testdata/bench/kubeadm-3dropins
#	internal/floor/measure.sh 40 /tmp/floor $B/kubelet.yaml
#	internal/floor/measure.sh 40 /tmp/kubeletcfg lint -c $B/kubelet.yaml -d $B/conf.d
n=$1; shift
tmp=$(mktemp)
i=0
while [ "$i" -lt "$n" ]; do
	perf stat -x, -e task-clock -o "$tmp" --append "$@" >/dev/null 2>&1
	i=$((i + 1))
done
awk -F, '/task-clock/ { v[++n] = $1 }
END {
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j > 0 && v[j] > t; j--) v[j+1] = v[j]; v[j+1] = t }
	m = n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
	printf "cpu %.2f ms (median of %d, min %.2f, max %.2f)\n", m, n, v[1], v[n]
}' "$tmp"
rm -f "$tmp"
