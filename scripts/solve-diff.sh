#!/usr/bin/env bash
# Compares two reports of `sshuffle solve ... --list-won` over the same
# deals: a deal the old one won must not be lost in the new one, and a deal
# the old one proved lost must not be won. Deals neither won nor listed as
# undecided count as lost, so every deal is compared. A report without its
# undecided list (older ones) cannot tell its lost deals from its undecided
# ones: of its lost deals only those it names ("impossible deals (first
# 20)") are compared, and the deals won now but not then are listed for a
# look.
#
#   scripts/solve-diff.sh reports/klondike-draw3.txt /tmp/new-draw3.txt
#
# Exits 1 if the two disagree.
set -euo pipefail
old=$1 new=$2
range() { sed -n 's/.* deals \([0-9]*\)-\([0-9]*\) .*/\1 \2/p' "$1" | head -1; }
# Deal lists are kept in text order, as comm wants them.
won() { awk 'NR > 1 && /^[0-9]+$/' "$1" | sort; }
undecided() { sed -n 's/^undecided deals: \[\(.*\)\]/\1/p' "$1" | tr ' ' '\n' | sed '/^$/d' | sort; }
hasUndecided() { grep -q '^undecided deals: ' "$1" || grep -q 'undecided 0 ' "$1"; }
named() { sed -n 's/^impossible deals (first [0-9]*): \[\(.*\)\]/\1/p' "$1" | tr ' ' '\n' | sed '/^$/d' | sort; }
[ "$(range "$old")" = "$(range "$new")" ] || { echo "the reports cover different deals" >&2; exit 2; }
read -r lo hi < <(range "$old")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seq "$lo" "$hi" | sort >"$tmp/all"
for r in old new; do
	f=${!r}
	won "$f" >"$tmp/$r.won"
	undecided "$f" >"$tmp/$r.und"
	if hasUndecided "$f"; then
		sort "$tmp/$r.won" "$tmp/$r.und" | comm -23 "$tmp/all" - >"$tmp/$r.lost"
	else
		named "$f" >"$tmp/$r.lost"
	fi
done
c() { comm "$1" "$2" "$3" | sort -n | tr '\n' ' '; }
wonLost=$(c -12 "$tmp/old.won" "$tmp/new.lost")
lostWon=$(c -12 "$tmp/old.lost" "$tmp/new.won")
wonUnd=$(c -12 "$tmp/old.won" "$tmp/new.und")
newWon=$(c -13 "$tmp/old.won" "$tmp/new.won")
for r in old new; do
	if hasUndecided "${!r}"; then
		echo "$r: $(wc -l <"$tmp/$r.won") won, $(wc -l <"$tmp/$r.lost") lost, $(wc -l <"$tmp/$r.und") undecided"
	else
		echo "$r: $(wc -l <"$tmp/$r.won") won; lost and undecided not told apart (no undecided list): $(wc -l <"$tmp/$r.lost") named lost compared"
	fi
done
echo "won before, lost now: ${wonLost:-none}"
echo "lost before, won now: ${lostWon:-none}"
echo "won before, undecided now: ${wonUnd:-none}"
echo "won now, not before: ${newWon:-none}"
[ -z "$wonLost" ] && [ -z "$lostWon" ]
