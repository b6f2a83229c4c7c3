#!/usr/bin/env bash
# Side by side: sshuffle's FreeCell solver and Freecell Solver (Debian's
# freecell-solver-bin, fc-solve 5.0, preset "lg"), whole processes on the
# same machine in the same run, CPU (user+sys) and peak memory from
# /usr/bin/time, medians of RUNS runs (3 unless set).
#
#   scripts/vs-fcsolve.sh 1-32000
#
# Ours runs as sshuffle-solve: the solve command in a binary of its own,
# without the server's code (fc-solve is a solver alone too). Peak memory
# is also taken on MEMRANGE (1-4000 unless set), where fc-solve needs far
# less than on ranges with deal 11982, and for ours solving deal 1 alone:
# the floor of the binary (its code and runtime).
#
# Mean solution lengths are over the first 1000 deals of the range (fewer
# if the range is shorter), counted in moves as each program writes them
# (fc-solve -m -snx; ours with --check, which also replays every one).
set -euo pipefail
range=${1:-1-32000}
runs=${RUNS:-3}
memrange=${MEMRANGE:-1-4000}
lo=${range%-*}
hi=${range#*-}
cd "$(dirname "$0")/.."

if ! command -v freecell-solver-range-parallel-solve >/dev/null; then
	echo "installing freecell-solver-bin" >&2
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq freecell-solver-bin >/dev/null
fi
if [ ! -x /usr/bin/time ]; then
	echo "installing time (for /usr/bin/time)" >&2
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq time >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sshuffle-solve" ./cmd/sshuffle-solve

# run NAME CMD...: one timed run; appends "cpu_seconds peak_kib" to
# $tmp/NAME.times and keeps the last output in $tmp/NAME.out.
run() {
	local name=$1
	shift
	/usr/bin/time -f "%U %S %M" -o "$tmp/t" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	awk '{printf "%.2f %d\n", $1+$2, $3}' "$tmp/t" >>"$tmp/$name.times"
}
for i in $(seq "$runs"); do
	echo "run $i of $runs" >&2
	run ours "$tmp/sshuffle-solve" freecell --deals "$range" --workers 1
	run fcs freecell-solver-range-parallel-solve "$lo" "$hi" 1000 -l lg
	run ours_m "$tmp/sshuffle-solve" freecell --deals "$memrange" --workers 1
	run fcs_m freecell-solver-range-parallel-solve "${memrange%-*}" "${memrange#*-}" 1000 -l lg
	run ours_1 "$tmp/sshuffle-solve" freecell --deals 1 --workers 1
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ours_cpu=$(cut -d' ' -f1 "$tmp/ours.times" | median)
fcs_cpu=$(cut -d' ' -f1 "$tmp/fcs.times" | median)
ours_mem=$(cut -d' ' -f2 "$tmp/ours.times" | median)
fcs_mem=$(cut -d' ' -f2 "$tmp/fcs.times" | median)
ours_m_cpu=$(cut -d' ' -f1 "$tmp/ours_m.times" | median)
fcs_m_cpu=$(cut -d' ' -f1 "$tmp/fcs_m.times" | median)
ours_m_mem=$(cut -d' ' -f2 "$tmp/ours_m.times" | median)
fcs_m_mem=$(cut -d' ' -f2 "$tmp/fcs_m.times" | median)
ours_1_mem=$(cut -d' ' -f2 "$tmp/ours_1.times" | median)

ours_solved=$(sed -n 's/^solved \([0-9]*\) .*/\1/p' "$tmp/ours.out")
ours_imp=$(sed -n 's/.*impossible \([0-9]*\) .*/\1/p' "$tmp/ours.out" | head -1)
ours_und=$(sed -n 's/.*undecided \([0-9]*\) .*/\1/p' "$tmp/ours.out" | head -1)
ours_which=$(sed -n 's/^impossible deals (first [0-9]*): \[\(.*\)\]/\1/p' "$tmp/ours.out")
ours_slow=$(sed -n 's/.*max \(.*\)$/\1/p' "$tmp/ours.out")
fcs_unsolved=$(grep -c '^Unsolved Board' "$tmp/fcs.out" || true)
fcs_which=$(sed -n 's/^Unsolved Board No. \([0-9]*\).*/\1/p' "$tmp/fcs.out" | tr '\n' ' ')
total=$((hi - lo + 1))

# Lengths over the first 1000 deals.
lhi=$((lo + 999 < hi ? lo + 999 : hi))
check=$("$tmp/sshuffle-solve" freecell --deals "$lo-$lhi" --workers 1 --check | grep '^checked')
ours_len=$(sed -n 's/.*mean length \([0-9.]*\) .*/\1/p' <<<"$check")
fcs_len=$(for n in $(seq "$lo" "$lhi"); do
	make-microsoft-freecell-board -t "$n" | FREECELL_SOLVER_QUIET=1 fc-solve -l lg -m -snx |
		grep -E '^([1-8a-d][1-8a-dh](v[0-9a-f]+)? )+$' | wc -w
done | awk '$1 > 0 {s += $1; n++} END {printf "%.1f", s / n}')

ratio=$(awk -v a="$ours_cpu" -v b="$fcs_cpu" 'BEGIN {printf "%.2f", a / b}')
mib() { awk -v k="$1" 'BEGIN {printf "%.1f MiB", k / 1024}'; }
ratio_m=$(awk -v a="$ours_m_cpu" -v b="$fcs_m_cpu" 'BEGIN {printf "%.2f", a / b}')
echo "FreeCell deals $range, whole processes, medians of $runs runs ($(nproc) cores; $(date -u +%F))"
echo
echo "| | \`sshuffle-solve freecell --deals $range --workers 1\` | \`freecell-solver-range-parallel-solve $lo $hi 1000 -l lg\` |"
echo "|---|---|---|"
echo "| solved | $ours_solved of $total; impossible (proved): ${ours_imp} (${ours_which:-none}); undecided $ours_und | $((total - fcs_unsolved)) of $total; \"unsolved\": $fcs_unsolved (${fcs_which% }) |"
echo "| CPU (user+sys) | $ours_cpu s | $fcs_cpu s (sshuffle/fc-solve $ratio) |"
echo "| peak memory | $(mib "$ours_mem") | $(mib "$fcs_mem") |"
echo "| deals $memrange: peak memory | $(mib "$ours_m_mem") | $(mib "$fcs_m_mem") |"
echo "| deals $memrange: CPU (user+sys) | $ours_m_cpu s | $fcs_m_cpu s (sshuffle/fc-solve $ratio_m) |"
echo "| deal 1 alone: peak memory (the binary's floor) | $(mib "$ours_1_mem") | |"
echo "| slowest deal | $ours_slow | |"
echo "| mean solution length, deals $lo-$lhi | $ours_len moves | $fcs_len moves |"
echo
echo "$check"
