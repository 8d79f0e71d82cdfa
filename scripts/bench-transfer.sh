#!/usr/bin/env bash
# Export and import of a competition with 10,000 results (issue 7, part 2).
#
# 1. Generates a TWS ladder of 200 players over 100 rounds (10,000 recorded
#    results, ~10,600 events, ~6.8 MB of export) through the service, with
#    the ignored test crates/service/tests/transfer_bench.rs (which also
#    prints in-process timings of export, parse and import).
# 2. Times the release `arbiter` binary, each run on a fresh database:
#      import   arbiter --db fresh.db import ladder-10k.jsonl
#      export   arbiter --db that.db export --all -o out.jsonl
#    with hyperfine when it is installed (RUNS runs each, default 10), else
#    with a plain loop that prints the mean and the fastest run.
# 3. Checks that the re-export is byte-identical to the file imported.
#
# 4. With ARBITER_TEST_PG_URL set (`eval "$(bash scripts/pg.sh start)"`), times the same
#    on PostgreSQL (a fresh database before each import) and checks its re-export.
#
# Settings (environment): RUNS (default 10), ARBITER_BENCH_PLAYERS (200),
# ARBITER_BENCH_ROUNDS (100), ARBITER_TEST_PG_URL.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
file="$work/ladder-10k.jsonl"

echo "== building (release)"
cargo build --release -p arbiter-cli --quiet
bin="$(pwd)/target/release/arbiter"

echo "== generating the ladder and the in-process timings"
ARBITER_BENCH_EXPORT="$file" cargo test --release --quiet -p arbiter-service \
    --test transfer_bench -- --ignored --nocapture 2>&1 | grep -vE '^(running|test |\.|$)' || true
[ -s "$file" ] || { echo "the generator wrote no export" >&2; exit 1; }
echo "export file: $(wc -c <"$file") bytes, $(wc -l <"$file") lines"

# One import to export from.
"$bin" --db "$work/source.db" import "$file" >/dev/null

# `time_runs NAME PREPARE COMMAND...`: run COMMAND $RUNS times, PREPARE (evaluated) before each,
# and print the mean and the fastest in milliseconds.
time_runs() {
    local name="$1" prepare="$2"; shift 2
    local total=0 best=0
    for _ in $(seq "$RUNS"); do
        eval "$prepare"
        local t0 t1 ms
        t0=$(date +%s%N)
        "$@" >/dev/null
        t1=$(date +%s%N)
        ms=$(( (t1 - t0) / 1000000 ))
        total=$(( total + ms ))
        if [ "$best" -eq 0 ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    echo "$name: mean $(( total / RUNS )) ms, fastest $best ms over $RUNS runs"
}

if command -v hyperfine >/dev/null 2>&1; then
    echo "== arbiter import / export (hyperfine, $RUNS runs each)"
    hyperfine --runs "$RUNS" --warmup 1 \
        --prepare "rm -f '$work'/fresh.db*" \
        -n import "'$bin' --db '$work/fresh.db' import '$file'"
    hyperfine --runs "$RUNS" --warmup 1 \
        -n export "'$bin' --db '$work/source.db' export --all -o '$work/out.jsonl'"
else
    echo "== arbiter import / export ($RUNS runs each; install hyperfine for more)"
    time_runs import "rm -f '$work'/fresh.db*" "$bin" --db "$work/fresh.db" import "$file"
    time_runs export ":" "$bin" --db "$work/source.db" export --all -o "$work/out.jsonl"
fi

# PostgreSQL: with ARBITER_TEST_PG_URL set (`eval "$(bash scripts/pg.sh start)"`), the same
# on a database of that server, made afresh before each import.
if [ -n "${ARBITER_TEST_PG_URL:-}" ]; then
    pg_server="${ARBITER_TEST_PG_URL%%\?*}"
    pg_db="${pg_server%/*}/arbiter_bench_transfer"
    fresh_pg() {
        PGOPTIONS="-c client_min_messages=warning" psql "$pg_server" -qX -c "DROP DATABASE IF EXISTS arbiter_bench_transfer WITH (FORCE)" \
            -c "CREATE DATABASE arbiter_bench_transfer" >/dev/null
    }
    echo "== PostgreSQL ($pg_db): arbiter import / export ($RUNS runs each)"
    time_runs "postgres import" fresh_pg "$bin" --db "$pg_db" import "$file"
    time_runs "postgres export" ":" "$bin" --db "$pg_db" export --all -o "$work/out-pg.jsonl"
    if cmp -s "$file" "$work/out-pg.jsonl"; then
        echo "postgres re-export: byte-identical"
    else
        echo "postgres re-export: DIFFERS" >&2
        exit 1
    fi
    psql "$pg_server" -qX -c "DROP DATABASE IF EXISTS arbiter_bench_transfer WITH (FORCE)" >/dev/null
fi

"$bin" --db "$work/source.db" export --all -o "$work/out.jsonl" >/dev/null
if cmp -s "$file" "$work/out.jsonl"; then
    echo "re-export: byte-identical"
else
    echo "re-export: DIFFERS" >&2
    exit 1
fi
