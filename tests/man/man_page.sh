#!/bin/sh
# man_page.sh PAGE TABLE: dtpp(1) renders without a troff warning, with its sections in order, and
# names every -x option of TABLE (include/dtpp/options/table.hpp) and the output options.
set -u
page=$1 table=$2
fail() { echo "man page: $*"; exit 1; }

warnings=$(groff -ww -z -man "$page" 2>&1) || fail "groff failed: $warnings"
[ -z "$warnings" ] || fail "troff warnings: $warnings"

rendered=$(MANWIDTH=80 man -l "$page" 2>"${TMPDIR:-/tmp}/man_page.$$") || fail "man -l failed"
errors=$(cat "${TMPDIR:-/tmp}/man_page.$$"); rm -f "${TMPDIR:-/tmp}/man_page.$$"
[ -z "$errors" ] || fail "man -l said: $errors"
sections=$(printf '%s\n' "$rendered" | grep -E '^(-x )?[A-Z][A-Z ]*$' | tr '\n' '|')
want='NAME|SYNOPSIS|DESCRIPTION|OPTIONS|-x OPTIONS|OUTPUT FORMATS|METRICS|EXIT STATUS|ENVIRONMENT|FILES|EXAMPLES|SEE ALSO|'
[ "$sections" = "$want" ] || fail "sections are $sections, not $want"
[ "$(printf '%s\n' "$rendered" | head -1 | tr -s ' ')" = 'DTPP(1) User Commands DTPP(1)' ] ||
  fail "the header is not DTPP(1)'s"
[ -z "$(printf '%s\n' "$rendered" | awk 'length > 80')" ] || fail "lines wider than 80 columns"

names=$(sed -n 's/^ *{"\([a-z_]*\)", value_kind.*/\1/p' "$table")
[ "$(printf '%s\n' "$names" | wc -l)" -gt 90 ] || fail "read too few option names from $table"
for name in $names oformat flamegraph; do
  printf '%s\n' "$rendered" | grep -qE "(^|[^a-z_])$name([^a-z_]|$)" || fail "-x $name is not described"
done
echo "dtpp(1): $(printf '%s\n' "$rendered" | wc -l) lines, every option named"
