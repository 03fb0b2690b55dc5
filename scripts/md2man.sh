#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# md2man.sh - turn one docs/*.md page into a man page with go-md2man:
#   sh scripts/md2man.sh docs/record.md VERSION man   (writes man/man1/vmscope-record.1)
# The page's name and section come from its first line, "# vmscope-record(1)"
# (command pages, vmscope-policy(7)); the report section pages become
# vmscope-report-SECTION(7) and schema.md vmscope-schema(5). The Markdown is
# the one source: headings move up one level (## NAME becomes .SH NAME), links
# to other pages keep their text (and name the man page), figures are dropped.
set -eu
command -v go-md2man >/dev/null 2>&1 ||
	{ echo "md2man.sh: go-md2man not found (Debian package go-md2man; 'make deps' installs it)" >&2; exit 1; }

doc=$1
version=$2
outdir=$3
base=$(basename "$doc" .md)
first=$(sed -n 1p "$doc")

case "$first" in
"# "*"("[0-9]")")
	name=${first#\# }
	section=${name##*(}
	section=${section%)}
	name=${name%(*}
	;;
*)
	case "$base" in
	report-*) name="vmscope-$base" section=7 ;;
	schema) name="vmscope-schema" section=5 ;;
	*) echo "md2man.sh: $doc: first line is not '# NAME(SECTION)'" >&2; exit 1 ;;
	esac
	;;
esac

title=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')

# go-md2man reads a pandoc title block ("% TITLE SECTION DATE SOURCE MANUAL").
{
	printf '%% %s %s "" "vmscope %s" "vmscope manual"\n\n' "$title" "$section" "$version"
	case "$first" in
	"# "*"("[0-9]")") sed 1d "$doc" ;;
	*)
		printf '## NAME\n\n%s - %s\n\n## DESCRIPTION\n\n' "$name" "$(printf '%s' "${first#\# }" | tr -d '`')"
		sed 1d "$doc"
		;;
	esac
} | awk '
	/^```/ { fence = !fence; print; next }
	fence { print; next }
	{
		if (sub(/^##/, "#") == 0 && /^# /)
			sub(/^# /, "")
		gsub(/!\[[^]]*\]\([^)]*\)/, "")
		while (match($0, /\[[^]]*\]\([^)]*\)/)) {
			link = substr($0, RSTART, RLENGTH)
			text = link; sub(/\]\(.*/, "", text); sub(/^\[/, "", text)
			target = link; sub(/^\[[^]]*\]\(/, "", target); sub(/\)$/, "", target)
			sub(/#.*/, "", target)
			page = target; sub(/\.md$/, "", page)
			if (target == "" || target !~ /\.md$/ || page ~ /\//)
				ref = ""
			else if (page ~ /^report-/)
				ref = " (vmscope-" page "(7))"
			else if (page == "schema")
				ref = " (vmscope-schema(5))"
			else if (page == "policy")
				ref = " (vmscope-policy(7))"
			else if (page == "architecture")
				ref = " (docs/architecture.md)"
			else if (page == "vmscope")
				ref = " (vmscope(1))"
			else
				ref = " (vmscope-" page "(1))"
			$0 = substr($0, 1, RSTART - 1) text ref substr($0, RSTART + RLENGTH)
		}
		print
	}' | go-md2man > "$outdir/man$section/$name.$section+"
mv "$outdir/man$section/$name.$section+" "$outdir/man$section/$name.$section"
