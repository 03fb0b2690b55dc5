#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0010-docs.sh - the documentation matches the program: for every command
# `vmscope --help` lists, its page's SYNOPSIS carries the synopsis lines of
# the command's --help and its OPTIONS list exactly the options --help lists
# (as git's t0450 does); docs/schema.md documents every table, view and
# column (and index) of a fresh database; `vmscope --help` lists every
# command that has a page, and every command it lists has a page.

. "$(dirname "$0")/test-lib.sh"

DOCS="$SRC_DIR/docs"

# doc_section FILE TITLE: the lines of the "## TITLE" section of FILE.
doc_section() {
	awk -v want="## $2" '
		/^```/ { fence = !fence }
		!fence && /^## / { if (insec) exit; if ($0 == want) { insec = 1; next } }
		insec { print }' "$1"
}

# schema_section NAME: the lines under the heading (level 1-3) of docs/schema.md
# that names `NAME`, up to the next heading of level 1-3.
schema_section() {
	awk -v want="\`$1\`" '
		/^```/ { fence = !fence }
		!fence && /^#/ {
			match($0, /^#+/)
			if (RLENGTH <= 3) {
				if (insec) exit
				if (index($0, want)) { insec = 1; next }
			}
		}
		insec { print }' "$DOCS/schema.md"
}

# help_commands: the commands under "Commands:" in `vmscope --help`.
help_commands() {
	vmscope --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'
}

# command_pages: docs pages that document a command (they have a SYNOPSIS;
# vmscope.md is the page of the program itself, vmscope(1)).
command_pages() {
	for f in "$DOCS"/*.md; do
		[ "$f" = "$DOCS/vmscope.md" ] && continue
		grep -q '^## SYNOPSIS$' "$f" && basename "$f" .md
	done
	return 0
}

# db_objects DB: its tables and views; db_columns DB NAME: the columns of
# one; db_indexes DB: its indexes.
db_objects() {
	sqlite3 -batch "$1" "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')
		AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name"
}
db_columns() {
	sqlite3 -batch "$1" "SELECT name FROM pragma_table_info('$2') ORDER BY cid"
}
db_indexes() {
	sqlite3 -batch "$1" "SELECT name FROM sqlite_master WHERE type = 'index'
		AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name"
}

# help_synopsis CMD: the synopsis lines of `vmscope CMD --help` (up to the first blank line).
help_synopsis() {
	vmscope "$1" --help | awk 'NF == 0 { exit } { print }'
}

# help_options CMD: the option names (-o, --output) of `vmscope CMD --help`,
# from the lines of its option list, one a line, sorted.
help_options() {
	vmscope "$1" --help | awk '
		/^  +-/ {
			col = $0
			sub(/^ +/, "", col)
			i = index(col, "  ")
			if (i)
				col = substr(col, 1, i - 1)
			n = split(col, w, /[ ,]+/)
			for (k = 1; k <= n; k++)
				if (w[k] ~ /^--?[A-Za-z]/)
					print w[k]
		}' | sort -u
}

# doc_options CMD: the option names in the terms of the OPTIONS section of
# docs/CMD.md (a line starting with `-...` followed by its ":   "
# definition), one a line, sorted.
doc_options() {
	doc_section "$DOCS/$1.md" OPTIONS | awk '
		/^:   / && term ~ /^`-/ {
			s = term
			while (match(s, /`-[^`]*`/)) {
				print substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)
			}
		}
		{ term = $0 }' | sort -u
}

test_expect_success 'docs pages exist' '
	for f in schema import info record; do
		test -s "$DOCS/$f.md" || { echo "missing docs/$f.md"; exit 1; }
	done
'

test_expect_success 'vmscope --help lists the commands' '
	help_commands > commands &&
	test "$(wc -l < commands)" -ge 7 &&
	for c in import record info report compare plot replay; do
		grep -qx "$c" commands || { echo "vmscope --help does not list $c"; exit 1; }
	done
'

for cmd in $(help_commands); do
	test_expect_success "docs/$cmd.md SYNOPSIS has the synopsis lines of 'vmscope $cmd --help'" '
		help_synopsis "$cmd" > want
		first=$(head -n 1 want)
		case "$first" in "usage: vmscope $cmd"*) ;; *) echo "odd help: $first"; exit 1 ;; esac
		doc_section "$DOCS/$cmd.md" SYNOPSIS > synopsis
		test -s synopsis || { echo "docs/$cmd.md has no SYNOPSIS section"; exit 1; }
		while IFS= read -r line; do
			grep -Fqx -e "$line" synopsis || { echo "not in SYNOPSIS: $line"; cat synopsis; exit 1; }
		done < want
	'

	test_expect_success "docs/$cmd.md OPTIONS lists the options of 'vmscope $cmd --help'" '
		help_options "$cmd" > help-options
		grep -qx -e "--help" help-options || { echo "no --help in the help of $cmd"; exit 1; }
		doc_options "$cmd" > doc-options
		diff -u help-options doc-options || {
			echo "options in --help (-) and in docs/$cmd.md OPTIONS (+) differ"; exit 1; }
	'
done

test_expect_success 'a tiny text trace imports completely' '
	printf "  cat-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n" > tiny.txt
	vmscope import -q -o tiny.db tiny.txt
	test -f tiny.db
'

test_expect_success SQLITE3 'the tiny database is complete' '
	assert_eq "$(sql tiny.db "SELECT status, events FROM run")" "complete|1" "run status|events"
'

test_expect_success SQLITE3 'schema.md has a section for every table and view' '
	db_objects tiny.db > objects
	test "$(wc -l < objects)" -gt 40
	missing=""
	while read -r t; do
		schema_section "$t" > section
		test -s section || missing="$missing $t"
	done < objects
	assert_eq "$missing" "" "tables or views without a section in docs/schema.md"
'

test_expect_success SQLITE3 'schema.md documents every column in the section of its table or view' '
	missing=""
	for t in $(db_objects tiny.db); do
		schema_section "$t" > section
		for c in $(db_columns tiny.db "$t"); do
			grep -qF "\`$c\`" section || missing="$missing $t.$c"
		done
	done
	assert_eq "$missing" "" "columns not documented in their section of docs/schema.md"
'

test_expect_success SQLITE3 'schema.md names every index' '
	test -n "$(db_indexes tiny.db)"
	missing=""
	for i in $(db_indexes tiny.db); do
		grep -qF "\`$i\`" "$DOCS/schema.md" || missing="$missing $i"
	done
	assert_eq "$missing" "" "indexes not in docs/schema.md"
'

test_expect_success 'vmscope --help lists every command that has a docs page' '
	help_commands > commands
	grep -qx import commands && grep -qx info commands
	command_pages > pages
	grep -qx import pages && grep -qx info pages
	missing=""
	while read -r p; do
		grep -qx "$p" commands || missing="$missing $p"
	done < pages
	assert_eq "$missing" "" "commands with a docs page missing from vmscope --help"
'

test_expect_success 'every command vmscope --help lists has a docs page with a SYNOPSIS' '
	help_commands > commands
	grep -qx import commands
	grep -qx record commands
	grep -qx info commands
	command_pages > pages
	missing=""
	while read -r c; do
		grep -qx "$c" pages || missing="$missing $c"
	done < commands
	assert_eq "$missing" "" "commands in vmscope --help without a docs/CMD.md page"
'

test_done
