#!/bin/sh
# Makes this machine ready to run the Windows harness (bin/harness-<minor>.exe) under
# Wine, headless. It installs nothing: it checks for wine64 and mingw-w64 and prints the
# apt-get line when one is missing. Then, each step skipped when already done:
#   1. builds the ProcessPrng shim (processprng.c) into bin/wine/bcryptprimitives.dll;
#   2. creates and initialises the Wine prefix bin/wine/prefix (wineboot -i);
#   3. copies the shim into the prefix's system32 (Go 1.22+ needs it, processprng.c);
#   4. starts a persistent wineserver (wineserver -p), so that each case's process
#      does not pay for a server start (about 0.3 s a case instead of seconds).
#
#   conformance/windows/setup-wine.sh          do the above (a second run: well under a second)
#   conformance/windows/setup-wine.sh -cmd     print the command prefix that runs a Windows
#                                              program in that prefix (the Makefile's $(WINE))
#   conformance/windows/setup-wine.sh -stop    stop the prefix's wineserver
#
# WINEPREFIX, when set, overrides the prefix folder.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=$root/bin/wine
prefix=${WINEPREFIX:-$dir/prefix}
apt='apt-get install -y wine64 gcc-mingw-w64-x86-64'

# Debian's wine64 package installs /usr/lib/wine/wine64 (the wine package adds the
# /usr/bin/wine wrapper); wineserver and wineboot likewise.
find_wine() {
	for c in "$@"; do
		if command -v "$c" >/dev/null 2>&1; then
			command -v "$c"
			return 0
		fi
		if [ -x "/usr/lib/wine/$c" ]; then
			echo "/usr/lib/wine/$c"
			return 0
		fi
	done
	return 1
}

wine=$(find_wine wine64 wine || true)
server=$(find_wine wineserver64 wineserver || true)
env="WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES=mscoree,mshtml="

case "${1:-}" in
-cmd)
	echo "$env ${wine:-wine64}"
	exit 0
	;;
-stop)
	[ -d "$prefix" ] && [ -n "$server" ] && WINEPREFIX=$prefix "$server" -k 2>/dev/null || true
	exit 0
	;;
"") ;;
*)
	echo "usage: $0 [-cmd | -stop]" >&2
	exit 2
	;;
esac

missing=
[ -n "$wine" ] && [ -n "$server" ] || missing="$missing wine64"
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing="$missing x86_64-w64-mingw32-gcc"
if [ -n "$missing" ]; then
	echo "setup-wine.sh: missing:$missing; install with:" >&2
	echo "  $apt" >&2
	exit 1
fi

mkdir -p "$dir"
dll=$dir/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ "$here/processprng.c" -nt "$dll" ] || [ "$here/bcryptprimitives.def" -nt "$dll" ]; then
	x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dll.tmp" "$here/processprng.c" "$here/bcryptprimitives.def" -ladvapi32
	mv "$dll.tmp" "$dll"
	echo "setup-wine.sh: built $dll"
fi

export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES=mscoree,mshtml=
sys32=$prefix/drive_c/windows/system32
if [ ! -f "$prefix/system.reg" ] || [ ! -d "$sys32" ]; then
	echo "setup-wine.sh: initialising the Wine prefix $prefix (wineboot -i, about a minute)"
	mkdir -p "$prefix"
	"$wine" wineboot -i >/dev/null 2>&1 || true
	"$server" -w
	[ -d "$sys32" ] || { echo "setup-wine.sh: wineboot did not create $sys32" >&2; exit 1; }
fi
if ! cmp -s "$dll" "$sys32/bcryptprimitives.dll"; then
	cp "$dll" "$sys32/bcryptprimitives.dll"
	echo "setup-wine.sh: installed the ProcessPrng shim in $sys32"
fi

# A persistent server: `wineserver -p` forks one that stays up until -stop; when one
# already serves the prefix it exits at once with status 2.
rc=0
"$server" -p || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { echo "setup-wine.sh: wineserver -p failed (status $rc)" >&2; exit 1; }
