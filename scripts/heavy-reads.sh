#!/usr/bin/env bash
# Heavy reads against a real server (issue 14, item 3): starts
# `arbiter serve --demo` on a loopback port, sends CONCURRENT anonymous
# projections of the demo ladder at once, each at the anonymous caps and
# with a new seed (so nothing comes from the cache), and prints each
# answer's status and time, then how many were 200, 429 and 5xx, and the
# slowest. The bar: every answer 200 or 429 within 2 s, none 5xx.
#
# Then it sends one projection above the anonymous cap (400 naming the
# field) and one more burst from the same address to show the per-address
# rate (30 a minute by default): those past it answer 429 with Retry-After.
#
# Settings (environment):
#   ARBITER_BIN   the binary (default: target/release/arbiter, built if missing;
#                 target/debug/arbiter works too, slower per projection)
#   CONCURRENT    requests at once (default 6)
#   SEASONS, ROUNDS  the anonymous caps (default 2000 and 3, the server's defaults)
#   PORT          (default 18480)
set -euo pipefail
cd "$(dirname "$0")/.."

CONCURRENT="${CONCURRENT:-6}"
SEASONS="${SEASONS:-2000}"
ROUNDS="${ROUNDS:-3}"
PORT="${PORT:-18480}"
bin="${ARBITER_BIN:-target/release/arbiter}"
if [ ! -x "$bin" ]; then
    echo "== building $bin (release)"
    cargo build --release -p arbiter-cli --quiet
fi

work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" serve --demo --addr "127.0.0.1:$PORT" >"$work/serve.log" 2>&1 &
server=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 300); do
    curl -fs "$base/api/health" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fs "$base/api/health" >/dev/null || { echo "the server did not start:"; cat "$work/serve.log"; exit 1; }

burst() { # $1: label
    local i
    for i in $(seq 1 "$CONCURRENT"); do
        curl -s -o /dev/null -w "%{http_code} %{time_total}\n" \
            "$base/api/competitions/tws-demo/projection?seasons=$SEASONS&rounds=$ROUNDS&seed=$1-$i-$RANDOM$RANDOM" \
            >"$work/$1-$i" &
    done
    wait $(jobs -p | grep -v "^$server$") 2>/dev/null || true
    cat "$work/$1"-*
}

summary() { # stdin: "status seconds" lines
    awk '{ n[$1]++; if ($2 > max) max = $2; if ($1 >= 500) bad++ }
         END { printf "  200: %d, 429: %d, 5xx: %d, slowest %.3f s\n", n[200], n[429], bad, max;
               if (bad > 0 || max >= 2) { print "  FAILED the bar (200 or 429 within 2 s, no 5xx)"; exit 1 } }'
}

echo "== $CONCURRENT concurrent anonymous projections of tws-demo, seasons=$SEASONS rounds=$ROUNDS, new seeds ($bin)"
burst first | tee "$work/first.txt" | sed 's/^/  /'
summary <"$work/first.txt"

echo "== above the anonymous cap (seasons=$((SEASONS + 1)))"
curl -s -w "\n  status %{http_code}\n" "$base/api/competitions/tws-demo/projection?seasons=$((SEASONS + 1))" | sed 's/^{/  {/'

echo "== four more bursts from the same address (30 computations a minute per address)"
for b in 2 3 4 5; do
    burst "b$b" >"$work/b$b.txt"
    printf "  burst %s:" "$b"; summary <"$work/b$b.txt"
done
echo "  Retry-After of a refused one:"
curl -s -D - -o /dev/null "$base/api/competitions/tws-demo/projection?seasons=10&seed=last-$RANDOM" | grep -i -E "^(HTTP|retry-after)" | sed 's/^/    /'
