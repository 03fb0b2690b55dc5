#!/bin/sh
# embed-sql.sh - turn schema/*.sql into a C header, so that the SQL files stay
# the only source of the DDL. Files numbered 9xx are applied when a run is
# finished (indexes), the others when a database is created.
# Usage: embed-sql.sh schema/NNN-name.sql... > lib/schema-sql.h
set -e
echo "/* Generated from the schema SQL files by scripts/embed-sql.sh: do not edit. */"
echo "static const struct schema_file {"
echo "	const char *name;"
echo "	int at_finish;"
echo "	const char *sql;"
echo "} schema_files[] = {"
for f in "$@"; do
	base=$(basename "$f")
	case "$base" in 9*) fin=1 ;; *) fin=0 ;; esac
	printf '\t{ "%s", %d,\n' "$base" "$fin"
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t\t"/' -e 's/$/\\n"/' "$f"
	printf '\t},\n'
done
echo "};"
