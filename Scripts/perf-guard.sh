#!/usr/bin/env bash
# The performance guard: counts the instructions (valgrind's cachegrind) of a
# few commands of the release binary — start-up, a Lua-heavy run, `check` of
# a large script, a spec file — and fails when one is over its budget in
# Benchmarks/Guard/budgets.txt by more than the tolerance. Instruction counts
# repeat run after run (within ~0.1%, the spec file's ~0.7%: its runner reads
# its worker's reports as they come), where wall time on a shared 2-core
# machine does not.
#   Scripts/perf-guard.sh                 build, measure and compare (CI runs this)
#   Scripts/perf-guard.sh --update        write the measured counts as the budgets: a
#                                         deliberate commit, whose message says why
#   Scripts/perf-guard.sh --compare BUDGETS MEASURED
#                                         compare two files of `case count` lines only
set -euo pipefail
cd "$(dirname "$0")/.."
tolerance_percent=3
budgets=Benchmarks/Guard/budgets.txt

# Every case within budget + tolerance? Prints a table; the status says.
compare() {
    awk -v tolerance="$tolerance_percent" '
        FNR == NR { if ($0 !~ /^#/ && NF == 2) budget[$1] = $2; next }
        $0 !~ /^#/ && NF == 2 { measured[$1] = $2; order[++n] = $1 }
        END {
            failed = 0
            printf "%-16s %15s %15s %8s\n", "case", "budget", "measured", "ratio"
            for (i = 1; i <= n; i++) {
                name = order[i]
                if (!(name in budget)) { printf "%-16s %15s %15d  no budget\n", name, "-", measured[name]; failed = 1; continue }
                ratio = measured[name] / budget[name]
                note = ""
                if (ratio > 1 + tolerance / 100) { note = "  OVER BUDGET"; failed = 1 }
                else if (ratio < 0.9) note = "  (well under: lower the budget with --update)"
                printf "%-16s %15d %15d %8.3f%s\n", name, budget[name], measured[name], ratio, note
            }
            for (name in budget) if (!(name in measured)) { printf "%-16s %15d %15s  not measured\n", name, budget[name], "-"; failed = 1 }
            exit failed
        }' "$1" "$2"
}

if [ "${1:-}" = --compare ]; then
    compare "$2" "$3" && exit 0
    echo "perf-guard: a case is over its budget by more than $tolerance_percent% (or has none)" >&2
    exit 1
fi

command -v valgrind >/dev/null 2>&1 || { echo "perf-guard: valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 1; }
built=$(Scripts/build.sh)
# valgrind 3.19 cannot read the debug information of a Swift binary: the guard
# measures a copy without it (the same code).
mkdir -p .build/perf-guard
objcopy --strip-debug "$built" .build/perf-guard/factoryhost
binary="$PWD/.build/perf-guard/factoryhost"
logs="$PWD/.build/perf-guard/logs"

# The instructions of `factoryhost ARGS…` (`measure STATUS ARGS…`: it must exit
# with STATUS — a check that finds the problems it is there to find exits 1),
# run in Benchmarks/Guard, summed over its processes (a spec file's worker too:
# each writes its own log).
measure() {
    local expected=$1
    shift
    rm -rf "$logs"
    mkdir -p "$logs"
    local status=0
    (cd Benchmarks/Guard && env -i PATH="$PATH" HOME="$HOME" LC_ALL=C SWIFT_DETERMINISTIC_HASHING=1 \
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --trace-children=yes \
        --log-file="$logs/%p.log" "$binary" "$@" > /dev/null 2>&1) || status=$?
    if [ "$status" -ne "$expected" ]; then
        echo "perf-guard: factoryhost $* exited with status $status, not $expected" >&2
        cat "$logs"/*.log >&2
        exit 1
    fi
    grep -h "I *refs:" "$logs"/*.log | awk '{ gsub(",", "", $NF); total += $NF } END { print total }'
}

measured=.build/perf-guard/measured.txt
: > "$measured"
while read -r name status arguments; do
    count=$(measure "$status" $arguments) || exit 1
    echo "$name $count" >> "$measured"
done <<'CASES'
startup_run 0 run startup.lua
dsl_run 0 run dsl.lua
dsl_check 0 check dsl.lua
lua_resolves 0 run resolves.lua
large_check 0 check large_check.lua
captive_check 1 check captive_check.lua
spec_file 0 test --jobs 1 guard_spec.lua
CASES

if [ "${1:-}" = --update ]; then
    {
        echo "# Instructions each case of Scripts/perf-guard.sh may take (valgrind cachegrind, the release"
        echo "# build of Scripts/build.sh); the guard fails past a budget + ${tolerance_percent}%. Written by"
        echo "# Scripts/perf-guard.sh --update: a change here is a deliberate commit that says why."
        cat "$measured"
    } > "$budgets"
    cat "$budgets"
    exit 0
fi
if ! compare "$budgets" "$measured"; then
    echo "perf-guard: a case is over its budget by more than $tolerance_percent% — a regression, or a change" >&2
    echo "  that costs more on purpose: then Scripts/perf-guard.sh --update, and say why in the commit" >&2
    exit 1
fi
