#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0060-install.sh - `make install` into a DESTDIR gives what the users'
# habits expect: a manual page for vmscope(1), every subcommand, the plugin
# API and the schema, each readable with `man -l` and each command page's
# SYNOPSIS carrying the synopsis of its --help; `vmscope help COMMAND`
# showing the page; a bash completion that completes commands, report
# sections and plot kinds from the program's own lists; and the plugin SDK
# (header and pkg-config module) building the example policy out of tree,
# which replay then loads and which decides as the in-tree build does.

. "$(dirname "$0")/test-lib.sh"

DEST="$TRASH/dest"
MAN="$DEST/usr/share/man"

# make without the outer make's jobserver or variables (SANITIZE stays out:
# install only copies what the suite was built with).
clean_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$SRC_DIR" "$@"
}

# synopsis_of CMD: the usage lines of `vmscope CMD --help`, spaces squeezed.
synopsis_of() {
	vmscope "$1" --help | awk 'NF == 0 { exit } { $1 = $1; print }'
}

test_expect_success 'make install DESTDIR=... PREFIX=/usr installs pages, completion, header, pkg-config' '
	clean_make -s install DESTDIR="$DEST" PREFIX=/usr > install.log 2>&1 ||
		{ cat install.log; false; } &&
	test -x "$DEST/usr/bin/vmscope" &&
	test -f "$MAN/man1/vmscope.1" &&
	test -f "$MAN/man7/vmscope-policy.7" &&
	test -f "$MAN/man5/vmscope-schema.5" &&
	test -f "$DEST/usr/share/bash-completion/completions/vmscope" &&
	test -f "$DEST/usr/include/vmscope/vms-policy.h" &&
	test -f "$DEST/usr/lib/pkgconfig/vmscope.pc"
'

test_expect_success 'every command has a manual page' '
	vmscope --list-commands > commands &&
	test -s commands &&
	: > missing &&
	while read -r c; do
		test -f "$MAN/man1/vmscope-$c.1" || echo "$c" >> missing
	done < commands &&
	assert_eq "$(cat missing)" ""
'

test_expect_success 'every page renders with man -l, with a NAME section and no troff error' '
	: > bad &&
	for p in "$MAN"/man*/*; do
		MANWIDTH=100 man -l "$p" > page.txt 2> page.err || echo "$p: man failed" >> bad
		grep -q "^NAME" page.txt || echo "$p: no NAME" >> bad
		if grep -qi "error" page.err; then cat page.err >> bad; fi
	done &&
	assert_eq "$(cat bad)" "" &&
	test "$(ls "$MAN"/man*/* | wc -l)" -ge 12
'

test_expect_success 'each command page shows the synopsis of its --help' '
	: > bad &&
	while read -r c; do
		MANWIDTH=200 man -l "$MAN/man1/vmscope-$c.1" 2>/dev/null |
			awk "/^SYNOPSIS/ { on = 1; next } on && /^[A-Z]/ { exit } on { \$1 = \$1; print }" > page-syn
		synopsis_of "$c" > help-syn
		while read -r line; do
			grep -qxF "$line" page-syn || echo "$c: page lacks: $line" >> bad
		done < help-syn
	done < commands &&
	assert_eq "$(cat bad)" ""
'

test_expect_success 'vmscope help COMMAND shows the manual page; unknown topics are usage errors' '
	MANPATH="$MAN" MANWIDTH=100 "$DEST/usr/bin/vmscope" help record > help.txt 2> help.err &&
	grep -q "^VMSCOPE-RECORD(1)" help.txt &&
	grep -q "^NAME" help.txt &&
	test_must_fail vmscope help no-such-topic 2> err &&
	grep -q "no manual page vmscope-no-such-topic" err
'

# complete WORDS...: what the installed completion offers for the last word.
complete_words() {
	bash -c ". \"$DEST/usr/share/bash-completion/completions/vmscope\"
		COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1)); _vmscope
		printf \"%s\n\" \"\${COMPREPLY[@]}\"" complete "$@"
}

test_expect_success 'completion: commands, options, report sections, plot kinds, policies, knobs' '
	assert_eq "$(complete_words "$VMSCOPE" rep | sort | tr "\n" " ")" "replay report " &&
	vmscope plot --list | while read -r k _; do echo "$k"; done | sort > kinds &&
	complete_words "$VMSCOPE" plot run.db "" | sort > offered &&
	test_cmp kinds offered &&
	vmscope report --list | while read -r s _; do echo "$s"; done | sort > sections &&
	complete_words "$VMSCOPE" report --format csv run.db "" | sort > offered &&
	test_cmp sections offered &&
	assert_eq "$(complete_words "$VMSCOPE" report --format j)" "json" &&
	assert_eq "$(complete_words "$VMSCOPE" replay run.db --pol)" "--policy" &&
	complete_words "$VMSCOPE" replay run.db --policy v6. > offered &&
	grep -qx "v6.18" offered &&
	assert_eq "$(complete_words "$VMSCOPE" whatif run.db --set memcg. | sort | tr "\n" " ")" \
		"memcg.limit= memcg.swappiness= "
'

test_expect_success 'the example plugin builds out of tree with pkg-config and replays as in tree' '
	cp "$SRC_DIR/samples/policies/refault-guard.c" mine.c &&
	cflags=$(PKG_CONFIG_PATH="$DEST/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$DEST" \
		pkg-config --cflags vmscope) &&
	case "$cflags" in *"$DEST/usr/include/vmscope"*) ;; *) false ;; esac &&
	${CC:-cc} $cflags -shared -fPIC -o mine.so mine.c &&
	make -C "$SRC_DIR/samples" policies/refault-guard.so > /dev/null &&
	vmscope import -q -o run.db "$SRC_DIR/samples/traces/memcg-fileread.dat" &&
	answers="SELECT question, policy_answer, COUNT(*) FROM replay_result
		WHERE policy LIKE \"%.so:threshold=8\" GROUP BY 1, 2 ORDER BY 1, 2" &&
	vmscope replay run.db --policy ./mine.so:threshold=8 > /dev/null 2>replay.err &&
	sql run.db "$answers" > mine.txt &&
	vmscope replay run.db --policy "$SRC_DIR/samples/policies/refault-guard.so:threshold=8" > /dev/null 2>replay.err &&
	sql run.db "$answers" > intree.txt &&
	test -s mine.txt &&
	test_cmp intree.txt mine.txt
'

test_done
