#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0030-layers.sh - the folders are layers that only point down: every
# symbol an object file of a folder uses from another folder is defined in
# a folder below it. From the bottom: lib < record < analyze, replay <
# plots < cli (main.o and every */cmd-*.o). analyze and replay are side by
# side: neither uses the other. Read from the objects of the build (nm).

. "$(dirname "$0")/test-lib.sh"

# layer OBJ: "RANK FOLDER" of an object file (path relative to SRC_DIR)
layer() {
	case "$1" in
	main.o|*/cmd-*.o) echo "5 cli" ;;
	lib/*) echo "0 lib" ;;
	record/*) echo "1 record" ;;
	analyze/*) echo "2 analyze" ;;
	replay/*) echo "2 replay" ;;
	plots/*) echo "3 plots" ;;
	*) echo "9 other" ;;
	esac
}

# one line per object: "RANK FOLDER OBJ"
objects() {
	(cd "$SRC_DIR" && for o in main.o lib/*.o record/*.o analyze/*.o replay/*.o plots/*.o; do
		[ -f "$o" ] && echo "$(layer "$o") $o"
	done)
}

# symbols: "D SYMBOL RANK FOLDER" per definition, "U SYMBOL RANK FOLDER OBJ" per use
symbols() {
	while read -r rank folder o; do
		(cd "$SRC_DIR" && nm -g --defined-only "$o") |
			awk -v r="$rank" -v f="$folder" '{ print "D", $3, r, f }'
		(cd "$SRC_DIR" && nm -u "$o") |
			awk -v r="$rank" -v f="$folder" -v o="$o" '{ print "U", $2, r, f, o }'
	done
}

# "USER_FOLDER -> DEFINER_FOLDER SYMBOL (OBJ)" for each use in SYMS that does
# not point down. A symbol defined twice (a weak default in lib/ that the CLI
# overrides, as vms_warning()) belongs to its lowest folder.
violations() { # SYMS
	awk 'NR == FNR { if ($1 == "D" && (!($2 in rank) || $3 < rank[$2])) {
			rank[$2] = $3; folder[$2] = $4 }
		next }
	     $1 == "U" && ($2 in rank) && folder[$2] != $4 && rank[$2] >= $3 {
		print $4, "->", folder[$2], $2, "(" $5 ")" }' "$1" "$1" | sort -u
}

test_expect_success 'the build has object files of every folder' '
	objects > objs &&
	for f in lib record analyze replay plots cli; do
		grep -q " $f " objs || { echo "no object of $f: build first"; return 1; }
	done &&
	symbols < objs > syms
'

test_expect_success 'the check finds a use that points up or sideways, not one that points down' '
	printf "%s\n" "D up_fn 5 cli" "U up_fn 0 lib lib/a.o" "D side_fn 2 replay" \
		"U side_fn 2 analyze analyze/b.o" "D down_fn 0 lib" "U down_fn 3 plots plots/c.o" \
		"D own_fn 2 analyze" "U own_fn 2 analyze analyze/d.o" "U weak_fn 0 lib lib/e.o" \
		"D weak_fn 5 cli" "D weak_fn 0 lib" > fake &&
	violations fake > got &&
	printf "%s\n" "analyze -> replay side_fn (analyze/b.o)" "lib -> cli up_fn (lib/a.o)" > want &&
	test_cmp want got
'

for f in lib record analyze replay plots; do
	test_expect_success "$f uses only the folders below it" "
		violations syms | awk -v f=$f '\$1 == f' > mine &&
		assert_eq \"\$(cat mine)\" '' 'uses of $f that do not point down'
	"
done

test_done
