#!/usr/bin/env bash
# Run every native fuzz target briefly (FUZZTIME each, default 3s). An
# input that fails is written by go test to the package's
# testdata/fuzz/FuzzXxx/ and fails this step: commit it, and `go test`
# replays it as a regression case from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
n=0
# only the packages whose tests declare a fuzz target
for pkg in $(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do
	for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "-- $pkg $target"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/ringlab-fuzz.log 2>&1 || {
			cat /tmp/ringlab-fuzz.log
			echo "fuzz target $target of $pkg failed; its input is in that package's testdata/fuzz/$target/"
			exit 1
		}
		n=$((n + 1))
	done
done
echo "$n fuzz targets ran for $fuzztime each"
