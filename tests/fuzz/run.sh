#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run.sh - `make fuzz FUZZ_SECONDS=N`: build the libFuzzer targets of
# tests/fuzz with clang under AddressSanitizer and UndefinedBehaviorSanitizer
# and run each for N seconds, one after the other (tests/fuzz/README.md).
#
# The build happens in a copy of the tree ($FUZZ_DIR/src, the worktree is
# never touched), whose config.mak selects clang and the sanitizers, so the
# normal build needs no clang. Corpora grow in $FUZZ_DIR/corpus/TARGET,
# seeded from the fixtures and samples; crashes land in
# $FUZZ_DIR/crashes/TARGET-*. One line per target says its executions,
# coverage and crashes. Exit status 1 when any target crashed.
#
# Usage: sh tests/fuzz/run.sh SECONDS [TARGET...]
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
shift || true
targets=${*:-"text-line text-trace dat dat-check db-open counters"}
dir=${FUZZ_DIR:-/tmp/vmscope-fuzz-$(id -u)}
CC=${FUZZ_CC:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

command -v "$CC" >/dev/null || { echo "fuzz: no $CC: run 'sh scripts/install-deps.sh fuzz' as root" >&2; exit 1; }

# the tree as it is (tracked and new files, not the build outputs), rebuilt when changed
mkdir -p "$dir/src" "$dir/corpus" "$dir/crashes"
(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - ) | (cd "$dir/src" && tar xf -)
cat > "$dir/src/config.mak" <<EOF
CC = $CC
CFLAGS = -O1 -g -fsanitize=fuzzer-no-link $SAN
EOF
make -C "$dir/src" -s -j2 libvms.a >/dev/null
libs="$(pkg-config --libs libtracecmd libtracefs libtraceevent sqlite3 zlib libzstd liblzma) -lm -ldl -lpthread"
cflags="$(pkg-config --cflags libtracecmd libtracefs libtraceevent) -D_GNU_SOURCE -I$dir/src/include"
for t in $targets; do
	out="$dir/fuzz-$t"
	if [ ! -x "$out" ] || [ "$dir/src/libvms.a" -nt "$out" ] ||
	   [ "$dir/src/tests/fuzz/fuzz-$t.c" -nt "$out" ]; then
		$CC -O1 -g -fsanitize=fuzzer $SAN $cflags -o "$out" \
			"$dir/src/tests/fuzz/fuzz-$t.c" "$dir/src/libvms.a" $libs
	fi
done

# seed corpora (the inputs are kept: a corpus only grows)
seed() {
	into="$dir/corpus/$1"
	mkdir -p "$into"
	shift
	for f in "$@"; do
		[ -f "$f" ] && cp -n "$f" "$into/" 2>/dev/null || true
	done
}
for t in $targets; do
	case $t in
	text-line)
		mkdir -p "$dir/corpus/$t"
		cat "$src"/tests/fixtures/text/*.txt | sort -u | head -400 | {
			i=0
			while IFS= read -r line; do
				printf '%s\n' "$line" > "$dir/corpus/$t/seed-$i"
				i=$((i + 1))
			done
		} ;;
	text-trace) seed "$t" "$src"/tests/fixtures/text/*.txt ;;
	dat|dat-check) seed "$t" "$src/tests/fixtures/dat/small.dat" \
		"$src/tests/fuzz/seeds/"*.dat ;;
	counters) seed "$t" "$src"/tests/fixtures/counters/*[!h] ;;
	db-open)
		mkdir -p "$dir/corpus/$t"
		if [ ! -f "$dir/corpus/$t/seed-small.db" ]; then
			"$src/vmscope" import -q -f "$src/tests/fixtures/text/k6.18-trace.txt" \
				-o "$dir/corpus/$t/seed-small.db" 2>/dev/null ||
			echo "fuzz: build vmscope first for the db-open seed" >&2
		fi ;;
	esac
done

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$src/tests/sanitizer/lsan.supp:print_suppressions=0
export VMSCOPE_FUZZ_FORMATS="$src/tests/fixtures/dat/small.dat"
failed=0
for t in $targets; do
	log="$dir/fuzz-$t.log"
	max_len=4096
	case $t in
	dat|dat-check) max_len=65536 ;;
	db-open) max_len=1048576 ;;
	text-trace|counters) max_len=16384 ;;
	esac
	rc=0
	# artifacts of earlier runs in $FUZZ_DIR (fixed since, or not) are not this run's
	touch "$dir/crashes/.start-$t"
	old=$(find "$dir/crashes" -maxdepth 1 -name "$t-*" ! -newer "$dir/crashes/.start-$t" | wc -l)
	# -malloc_limit_mb: a huge allocation in the .dat reader process (libtracecmd) is not ours
	"$dir/fuzz-$t" -max_total_time="$seconds" -max_len=$max_len -rss_limit_mb=2048 \
		-malloc_limit_mb=$( [ "$t" = dat ] && echo 1000000 || echo 2048) \
		-timeout=20 -print_final_stats=1 -dict="$src/tests/fuzz/vmscope.dict" \
		-artifact_prefix="$dir/crashes/$t-" "$dir/corpus/$t" >"$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
	# libFuzzer names each artifact by its kind: crash-, leak-, timeout-,
	# oom- fail the target; slow-unit- (an input that took over 10 s but
	# finished) is named, not failed
	crashes=$(find "$dir/crashes" -maxdepth 1 -newer "$dir/crashes/.start-$t" -name "$t-*" |
		grep -c -E "/$t-(crash|leak|timeout|oom)-" || true)
	slow=$(find "$dir/crashes" -maxdepth 1 -newer "$dir/crashes/.start-$t" -name "$t-slow-unit-*" |
		wc -l)
	[ "$old" = 0 ] || echo "fuzz $t: $old artifact(s) of earlier runs in $dir/crashes, not counted"
	slowest=$(sed -n 's/^Slowest unit: \([0-9]*\) s.*/\1/p' "$log" | tail -1)
	echo "fuzz $t: ${execs:-0} executions in ${seconds} s, ${cov:-cov: ?}, corpus $(ls "$dir/corpus/$t" | wc -l), crashes $crashes${slowest:+, slowest input $slowest s} (exit $rc; log $log)"
	[ "$slow" = 0 ] || echo "fuzz $t: $slow slow input(s) kept as $dir/crashes/$t-slow-unit-*"
	[ "$rc" = 0 ] && [ "$crashes" = 0 ] || failed=1
done
exit $failed
