#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# replay-scale.sh - make a recording of about N events from a real one, for
# bench/replay-bench.sh: the events and counter samples of SRC are laid end
# to end K times (copy k shifted by k spans of the run plus 1 s, seq and
# sample ids past the previous copy's), the last copy cut at the event that
# makes N (a smaller N is just a cut of SRC), and the derived tables made
# again with `vmscope upgrade --rederive`. Every copy keeps the pids, so each
# task has K times the episodes, one after the other in time.
# Usage: sh bench/replay-scale.sh SRC.db N OUT.db [VMSCOPE]
set -eu
src=$1 want=$2 out=$3 vmscope=${4:-./vmscope}
tmp=$out.partial-$$
trap 'rm -f "$tmp" "$tmp-journal"' EXIT INT TERM
cp "$src" "$tmp"
q() { sqlite3 -batch "$tmp" "$@"; }

tables=$(q "SELECT DISTINCT tbl FROM event_table UNION SELECT 'event_generic'" |
	while read -r t; do
		[ "$(q "SELECT COUNT(*) FROM pragma_table_info('$t') WHERE name IN ('seq','ts')")" = 2 ] &&
			echo "$t"
	done)
union=$(for t in $tables; do printf '%s SELECT seq, ts FROM "%s"' "${sep:-}" "$t"; sep=' UNION ALL'; done)
have=$(q "SELECT events FROM run")
maxseq=$(q "SELECT MAX(seq) FROM ($union)")
maxid=$(q "SELECT COALESCE(MAX(id), 0) FROM counter_sample")
span=$(q "SELECT end_ts - start_ts + 1000000000 FROM run")
copies=$(( (want + have - 1) / have ))
rest=$(( want - (copies - 1) * have ))
# the ts of the last event kept of the last copy (events in seq order)
cut_seq=$(q "SELECT seq FROM ($union) ORDER BY seq LIMIT 1 OFFSET $((rest - 1))")
cut_ts=$(q "SELECT ts FROM ($union) WHERE seq = $cut_seq")

cols() {
	q "SELECT group_concat(CASE name WHEN 'seq' THEN 'seq + $2' WHEN 'ts' THEN 'ts + $3'
	   ELSE '\"' || name || '\"' END, ', ') FROM pragma_table_info('$1')"
}
{
	echo "BEGIN;"
	k=1
	while [ "$k" -lt "$copies" ]; do
		last=$maxseq cond="id <= $maxid"
		[ "$k" -eq $((copies - 1)) ] && last=$cut_seq cond="$cond AND ts <= $cut_ts"
		for t in $tables; do
			echo "INSERT INTO \"$t\" SELECT $(cols "$t" $((k * (maxseq + 1))) $((k * span)))"
			echo "  FROM \"$t\" WHERE seq <= $last;"
		done
		echo "INSERT INTO counter_value SELECT sample + $((k * maxid)), name, value FROM counter_value"
		echo "  WHERE sample IN (SELECT id FROM counter_sample WHERE $cond);"
		echo "INSERT INTO counter_sample SELECT id + $((k * maxid)), ts + $((k * span)),"
		echo "  ts_end + $((k * span)), source, scope FROM counter_sample WHERE $cond;"
		k=$((k + 1))
	done
	if [ "$copies" -eq 1 ]; then
		for t in $tables; do echo "DELETE FROM \"$t\" WHERE seq > $cut_seq;"; done
		echo "DELETE FROM counter_value WHERE sample IN (SELECT id FROM counter_sample WHERE ts > $cut_ts);"
		echo "DELETE FROM counter_sample WHERE ts > $cut_ts;"
	fi
	echo "UPDATE run SET events = $want, end_ts = $cut_ts + $(((copies - 1) * span));"
	# decision: the view over decision_row, or the table of a replay by an earlier build
	if [ "$(q "SELECT type FROM sqlite_master WHERE name = 'decision'")" = view ]; then
		echo "DELETE FROM decision_row; DELETE FROM decision_json;"
	else
		echo "DELETE FROM decision;"
	fi
	echo "DELETE FROM replay_result; DELETE FROM replay_trivial;"
	echo "COMMIT;"
} > "$tmp.sql"
q < "$tmp.sql"
rm -f "$tmp.sql"
[ "$(q "SELECT COUNT(*) FROM ($union)")" = "$want" ] || { echo "replay-scale: event count is not $want" >&2; exit 1; }
q "VACUUM"
"$vmscope" upgrade --rederive -q "$tmp"
mv "$tmp" "$out"
