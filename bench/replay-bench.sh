#!/bin/sh
# replay-bench.sh - decisions per second of every built-in policy, evaluated
# in memory over the decision records of the largest sample recording
# (`vmscope replay --bench`: median of 21 rounds, and each policy's time as a
# ratio to the baseline v6.18 measured in the same run), with the firmness
# asks as replay does them and with the answers only. Target: >= 10M/s for
# the answers only (bench/README.md: about 1.3M/s with firmness).
# Usage: sh bench/replay-bench.sh [ROUNDS]
set -eu
ROUNDS=${1:-21}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
largest=$(ls -S "$top"/samples/traces/*.db.xz 2>/dev/null | head -1 || true)
if [ -n "$largest" ]; then
	xz -dc "$largest" > "$work/run.db"
	echo "sample: $(basename "$largest")"
else
	"$top/vmscope" import -q -o "$work/run.db" "$top/samples/traces/memcg-fileread.dat"
	echo "sample: memcg-fileread.dat"
fi
"$top/vmscope" replay "$work/run.db" --bench "$ROUNDS"
