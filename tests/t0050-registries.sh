#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0050-registries.sh - the lists of report sections and plot kinds agree
# everywhere they are written: `vmscope report --list` and `vmscope plot
# --list` (the registries analyze/report-sections.c and plots/kinds.c) against
# README.md, docs/report.md, docs/plot.md and `vmscope plot --help`; each
# entry has its files (plots/kind-NAME.c and plots/NAME.gp, a docs page for a
# section that names one) and its Makefile object line. Adding a section or a
# kind without them fails here.

. "$(dirname "$0")/test-lib.sh"

DOCS="$SRC_DIR/docs"

# words LIST: "a, b (c), d" -> one name a line, parenthesised remarks dropped
words() {
	printf '%s\n' "$1" | sed 's/([^)]*)//g' | tr ',' '\n' | sed 's/^ *//; s/ *$//' | sed '/^$/d'
}

test_expect_success 'report --list and plot --list print one name and a summary a line' '
	vmscope report --list > sections &&
	vmscope plot --list > kinds &&
	cut -d" " -f1 sections > section-names &&
	cut -d" " -f1 kinds > kind-names &&
	assert_eq "$(wc -l < section-names)" 11 "report sections" &&
	assert_eq "$(wc -l < kind-names)" 9 "plot kinds" &&
	assert_eq "$(sort -u section-names | wc -l)" 11 "distinct section names" &&
	assert_eq "$(sort -u kind-names | wc -l)" 9 "distinct kind names" &&
	assert_eq "$(awk "NF < 2" sections kinds)" "" "entries without a summary"
'

test_expect_success 'the registries hold what --list prints' '
	assert_eq "$(sed -n "s/^	SECTION(\"\([^\"]*\)\".*/\1/p" "$SRC_DIR/analyze/report-sections.c")" \
		"$(cat section-names)" "SECTION() lines of report-sections.c" &&
	assert_eq "$(sed -n "s/^	PLOT_KIND(\([a-z_]*\)).*/\1/p" "$SRC_DIR/plots/kinds.c")" \
		"$(cat kind-names)" "PLOT_KIND() lines of plots/kinds.c"
'

test_expect_success 'README.md lists the sections and the kinds in --list order' '
	list=$(sed -n "s/^| \`vmscope report run.db \[SECTION...\]\` | \([^|]*\) |.*/\1/p" "$SRC_DIR/README.md") &&
	assert_eq "$(words "$list")" "$(cat section-names)" "README report sections" &&
	list=$(sed -n "s/^| \`vmscope plot run.db KIND -o f.png\` | \([^|]*\) as PNG.*/\1/p" "$SRC_DIR/README.md") &&
	assert_eq "$(words "$list")" "$(cat kind-names)" "README plot kinds"
'

test_expect_success 'docs/report.md has a row per section, with its page' '
	assert_eq "$(sed -n "s/^| \`\([a-z-]*\)\` | .* | \(.*\) |$/\1/p" "$DOCS/report.md")" \
		"$(cat section-names)" "docs/report.md sections" &&
	pages=$(sed -n "s/^| \`[a-z-]*\` | .* | \[\([a-z-]*\.md\)\](.*) |$/\1/p" "$DOCS/report.md") &&
	assert_eq "$(echo "$pages" | wc -l)" 9 "sections with a page of their own" &&
	missing= &&
	for p in $pages; do
		test -f "$DOCS/$p" || missing="$missing $p"
	done &&
	assert_eq "$missing" "" "section pages named by docs/report.md that do not exist"
'

test_expect_success 'docs/plot.md describes each kind, and plot --help lists them' '
	assert_eq "$(sed -n "s/^\*\*\`\([a-z]*\)\`\*\*.*/\1/p" "$DOCS/plot.md")" \
		"$(cat kind-names)" "kinds described in docs/plot.md" &&
	vmscope plot --help > help &&
	assert_eq "$(sed -n "/KIND is one of:/,/^\$/p" help | sed -n "s/^  \([a-z]*\)  .*/\1/p")" \
		"$(cat kind-names)" "kinds in vmscope plot --help"
'

test_expect_success 'each kind has its file, script and Makefile line; each section its Makefile line' '
	missing= &&
	for k in $(cat kind-names); do
		test -f "$SRC_DIR/plots/kind-$k.c" || missing="$missing plots/kind-$k.c"
		test -f "$SRC_DIR/plots/$k.gp" || missing="$missing plots/$k.gp"
		grep -q "^LIB_OBJS += plots/kind-$k.o$" "$SRC_DIR/Makefile" ||
			missing="$missing Makefile:plots/kind-$k.o"
		grep -q "^const struct plot_kind plot_kind_$k = {" "$SRC_DIR/plots/kind-$k.c" ||
			missing="$missing plot_kind_$k"
	done &&
	for s in $(cat section-names); do
		f=$(echo "$s" | tr - _) &&
		file=$(grep -l "^int report_$f(struct vms_window \*ctx, struct out \*o)$" \
			"$SRC_DIR"/analyze/report-*.c) &&
		grep -q "^LIB_OBJS += analyze/$(basename "$file" .c).o$" "$SRC_DIR/Makefile" ||
			missing="$missing report_$f"
	done &&
	assert_eq "$missing" "" "missing files, descriptors or Makefile lines"
'

test_done
