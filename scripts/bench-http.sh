#!/usr/bin/env bash
# Loopback HTTP benchmark of `arbiter serve --demo` (issue 5, section 8).
#
# It builds `arbiter` in release, starts it on the demo on a free loopback
# port, saves the JSON standings of the demo ladder and its HTML page as
# static files and serves them with nginx (a throwaway configuration in a
# temporary directory, as the current user, in the foreground, access log
# off, the same keep-alive settings), then loads four targets one after the
# other with the same threads and connections:
#
#   json        GET /api/competitions/tws-demo   (arbiter, the ladder's JSON view)
#   html        GET /c/tws-demo                  (arbiter, the ladder page, anonymous:
#                                                 kept rendered per version, issue 17 §4)
#   nginx       GET /standings.json              (nginx, the JSON's bytes as a static file)
#   nginx-html  GET /ladder.html                 (nginx, the page's bytes as a static file)
#
# and prints requests/s and p99 latency for each, the JSON endpoint's
# throughput as a percentage of nginx's on the JSON's bytes (target: at
# least 60%) and the page's as a percentage of nginx's on the page's bytes
# (target: at least 50%). It exits non-zero on errors only (a failed build,
# a server that does not start, non-2xx answers or socket errors under
# load), never on a missed target.
#
# The load generator is wrk (Debian's package); if wrk cannot be installed,
# oha (`cargo install oha --locked`). What is missing is installed.
#
# Settings (environment): DURATION (seconds per target, default 10), WARMUP
# (seconds, default 2, before the first round), THREADS (default 2),
# CONNECTIONS (default 32), ROUNDS (default 1: with more, the three targets
# are loaded in turn that many times and the medians are printed),
# ARBITER_LOG (the server's RUST_LOG, default `warn`: no line per request,
# like nginx with its access log off; `info` logs every request).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-2}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
ROUNDS="${ROUNDS:-1}"
ARBITER_LOG="${ARBITER_LOG:-warn}"
TARGET_PERCENT=60
HTML_TARGET_PERCENT=50
COMPETITION=tws-demo

say() { echo "== $*" >&2; }
die() {
    echo "bench-http: $*" >&2
    exit 1
}

# --- What the benchmark needs -------------------------------------------

apt_install() {
    command -v apt-get >/dev/null || return 1
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || return 1
        sudo=(sudo)
    fi
    say "installing $* (apt-get)"
    "${sudo[@]}" apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
        --no-install-recommends "$@" >/dev/null
}

command -v cargo >/dev/null || die "cargo is missing: install Rust with rustup (https://rustup.rs)"
command -v curl >/dev/null || apt_install curl || die "curl is missing and could not be installed"

find_nginx() {
    command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true
}
NGINX="$(find_nginx)"
if [ -z "$NGINX" ]; then
    apt_install nginx || die "nginx is missing and could not be installed (apt-get install nginx)"
    NGINX="$(find_nginx)"
    [ -n "$NGINX" ] || die "nginx was installed but cannot be found"
fi

LOADGEN=""
if command -v wrk >/dev/null || apt_install wrk; then
    LOADGEN=wrk
else
    export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
    if ! command -v oha >/dev/null; then
        say "wrk could not be installed: installing oha (cargo install oha --locked)"
        cargo install oha --locked >&2 || die "neither wrk nor oha could be installed"
    fi
    LOADGEN=oha
fi

say "cargo build --release -p arbiter-cli"
cargo build --release -p arbiter-cli >&2
ARBITER="$PWD/target/release/arbiter"

# --- Processes, cleaned up whatever happens ------------------------------

tmp="$(mktemp -d)"
arbiter_pid=""
nginx_pid=""
cleanup() {
    local status=$?
    for pid in $arbiter_pid $nginx_pid; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -KILL "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- Arbiter ------------------------------------------------------------

say "starting arbiter serve --demo on a free loopback port"
RUST_LOG="$ARBITER_LOG" "$ARBITER" serve --demo --addr 127.0.0.1:0 \
    >"$tmp/arbiter.out" 2>"$tmp/arbiter.err" &
arbiter_pid=$!
base=""
for _ in $(seq 600); do
    base="$(sed -n 's|^Arbiter serves \(http://[^ ]*/\)$|\1|p' "$tmp/arbiter.out" | head -n1)"
    [ -n "$base" ] && break
    kill -0 "$arbiter_pid" 2>/dev/null || {
        cat "$tmp/arbiter.out" "$tmp/arbiter.err" >&2
        die "arbiter serve stopped before serving"
    }
    sleep 0.1
done
[ -n "$base" ] || die "arbiter serve did not print its address within 60 s"
for i in $(seq 300); do
    curl -fsS -o /dev/null "${base}api/health" 2>/dev/null && break
    [ "$i" -lt 300 ] || die "${base}api/health did not answer within 30 s"
    kill -0 "$arbiter_pid" 2>/dev/null || die "arbiter serve stopped"
    sleep 0.1
done
say "arbiter serves $base"

json_url="${base}api/competitions/$COMPETITION"
html_url="${base}c/$COMPETITION"
# No Accept-Encoding: the bodies are measured and served uncompressed, as
# wrk asks for them.
curl -fsS -o "$tmp/standings.json" "$json_url" || die "GET $json_url failed"
curl -fsS -o "$tmp/ladder.html" "$html_url" || die "GET $html_url failed"
json_bytes=$(wc -c <"$tmp/standings.json")
html_bytes=$(wc -c <"$tmp/ladder.html")

# --- nginx: the same bytes as a static file ------------------------------

mkdir -p "$tmp/nginx/root" "$tmp/nginx/logs"
# The same size as the JSON response (the response itself).
cp "$tmp/standings.json" "$tmp/nginx/root/standings.json"
# And the page's bytes.
cp "$tmp/ladder.html" "$tmp/nginx/root/ladder.html"
user_line=""
if [ "$(id -u)" -eq 0 ]; then
    # Workers as the current user (nginx would switch to nobody, who cannot
    # read the temporary directory).
    user_line="user $(id -un) $(id -gn);"
fi

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

nginx_url=""
for _ in $(seq 10); do
    port=$((20000 + RANDOM % 40000))
    port_free "$port" || continue
    cat >"$tmp/nginx/nginx.conf" <<EOF
$user_line
daemon off;
master_process on;
worker_processes auto;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    gzip off;
    server_tokens off;
    # Keep-alive as hyper's (arbiter's): no limit on requests per
    # connection, idle connections kept.
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    client_body_temp_path $tmp/nginx/client_body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
    types { application/json json; text/html html; }
    server {
        listen 127.0.0.1:$port;
        root $tmp/nginx/root;
    }
}
EOF
    "$NGINX" -p "$tmp/nginx" -e "$tmp/nginx/logs/error.log" -c "$tmp/nginx/nginx.conf" \
        >"$tmp/nginx/logs/stdout" 2>&1 &
    nginx_pid=$!
    for _ in $(seq 50); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$port/standings.json" 2>/dev/null; then
            nginx_url="http://127.0.0.1:$port/standings.json"
            break 2
        fi
        kill -0 "$nginx_pid" 2>/dev/null || break
        sleep 0.1
    done
    # It did not start (a port taken meanwhile?): try another port.
    kill -TERM "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
done
if [ -z "$nginx_url" ]; then
    cat "$tmp/nginx/logs/"* >&2 2>/dev/null || true
    die "nginx did not start"
fi
static_bytes=$(curl -fsS -o /dev/null -w '%{size_download}' "$nginx_url")
[ "$static_bytes" -eq "$json_bytes" ] ||
    die "nginx serves $static_bytes bytes, the JSON is $json_bytes bytes"
nginx_html_url="${nginx_url%/standings.json}/ladder.html"
static_html_bytes=$(curl -fsS -o /dev/null -w '%{size_download}' "$nginx_html_url")
[ "$static_html_bytes" -eq "$html_bytes" ] ||
    die "nginx serves $static_html_bytes bytes, the page is $html_bytes bytes"
say "nginx serves $nginx_url and $nginx_html_url"

# --- Load ----------------------------------------------------------------

warmup="$WARMUP"

# Prints "requests_per_second p99_ms" for `url`, after a warm-up; fails on
# errors (non-2xx answers, socket errors, no request answered).
load() {
    local name="$1" url="$2" out="$tmp/load-$1.txt"
    say "$name: ${WARMUP} s of warm-up, then ${DURATION} s ($LOADGEN, $THREADS threads, $CONNECTIONS connections)"
    case "$LOADGEN" in
    wrk)
        if [ "$WARMUP" != 0 ]; then
            wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" "$url" >/dev/null
        fi
        wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$url" >"$out"
        if grep -Eq 'Non-2xx or 3xx responses|Socket errors' "$out"; then
            cat "$out" >&2
            die "$name: errors under load"
        fi
        awk '
            function ms(v) {
                if (v ~ /us$/) return v * 0.001
                if (v ~ /ms$/) return v + 0
                if (v ~ /m$/) return v * 60000
                if (v ~ /s$/) return v * 1000
                return v + 0
            }
            $1 == "Requests/sec:" { rps = $2 }
            $1 == "99%" { p99 = ms($2) }
            END {
                if (rps == "" || p99 == "") exit 1
                printf "%s %.3f\n", rps, p99
            }' "$out" || die "$name: cannot read wrk's output"
        ;;
    oha)
        if [ "$WARMUP" != 0 ]; then
            oha --no-tui -z "${WARMUP}s" -c "$CONNECTIONS" "$url" >/dev/null
        fi
        oha --no-tui -z "${DURATION}s" -c "$CONNECTIONS" --output-format json "$url" >"$out" 2>/dev/null ||
            oha --no-tui -z "${DURATION}s" -c "$CONNECTIONS" --json "$url" >"$out"
        if command -v jq >/dev/null; then
            local bad
            bad=$(jq '[.statusCodeDistribution | to_entries[] | select(.key | test("^2") | not) | .value] | add // 0' "$out")
            bad=$((bad + $(jq '[.errorDistribution | to_entries[] | .value] | add // 0' "$out")))
            [ "$bad" -eq 0 ] || die "$name: $bad errors or non-2xx answers under load"
            jq -r '"\(.summary.requestsPerSec) \(.latencyPercentiles.p99 * 1000)"' "$out"
        else
            grep -q '"errorDistribution":{}' "$out" || die "$name: errors under load"
            local rps p99
            rps=$(grep -o '"requestsPerSec":[0-9.e+-]*' "$out" | cut -d: -f2)
            p99=$(grep -o '"p99":[0-9.e+-]*' "$out" | head -n1 | cut -d: -f2)
            awk -v r="$rps" -v p="$p99" 'BEGIN { printf "%s %.3f\n", r, p * 1000 }'
        fi
        ;;
    esac
}

# Rounds interleave the targets, so that whatever else the machine does
# weighs on all three alike; each figure is the median over the rounds.
for round in $(seq "$ROUNDS"); do
    [ "$ROUNDS" -eq 1 ] || say "round $round of $ROUNDS"
    load json "$json_url" >>"$tmp/figures-json"
    load html "$html_url" >>"$tmp/figures-html"
    load nginx "$nginx_url" >>"$tmp/figures-nginx"
    load nginx-html "$nginx_html_url" >>"$tmp/figures-nginx-html"
    WARMUP=0
done
kill -0 "$arbiter_pid" 2>/dev/null || die "arbiter serve stopped during the load"
median() { # column $2 of file $1
    cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
json_rps=$(median "$tmp/figures-json" 1)
json_p99=$(median "$tmp/figures-json" 2)
html_rps=$(median "$tmp/figures-html" 1)
html_p99=$(median "$tmp/figures-html" 2)
nginx_rps=$(median "$tmp/figures-nginx" 1)
nginx_p99=$(median "$tmp/figures-nginx" 2)
nginx_html_rps=$(median "$tmp/figures-nginx-html" 1)
nginx_html_p99=$(median "$tmp/figures-nginx-html" 2)

# --- Report --------------------------------------------------------------

percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", 100 * a / b }'; }
json_pct=$(percent "$json_rps" "$nginx_rps")
html_pct=$(percent "$html_rps" "$nginx_html_rps")

echo
rounds=""
[ "$ROUNDS" -eq 1 ] || rounds=", medians of $ROUNDS rounds"
echo "$LOADGEN, $THREADS threads, $CONNECTIONS connections, ${DURATION} s per target after ${warmup} s of warm-up${rounds}, loopback, $(nproc) CPUs"
printf '%-11s %-34s %9s %12s %10s %9s\n' target path bytes requests/s "p99 (ms)" "of nginx"
printf '%-11s %-34s %9s %12.0f %10.2f %8s%%\n' json "/api/competitions/$COMPETITION" "$json_bytes" "$json_rps" "$json_p99" "$json_pct"
printf '%-11s %-34s %9s %12.0f %10.2f %8s%%\n' nginx "/standings.json (static)" "$static_bytes" "$nginx_rps" "$nginx_p99" 100
printf '%-11s %-34s %9s %12.0f %10.2f %8s%%\n' html "/c/$COMPETITION" "$html_bytes" "$html_rps" "$html_p99" "$html_pct"
printf '%-11s %-34s %9s %12.0f %10.2f %8s%%\n' nginx-html "/ladder.html (static)" "$static_html_bytes" "$nginx_html_rps" "$nginx_html_p99" 100
echo
if [ "$json_pct" -ge "$TARGET_PERCENT" ]; then
    echo "JSON endpoint: ${json_pct}% of nginx's throughput (target >= ${TARGET_PERCENT}%): met"
else
    echo "JSON endpoint: ${json_pct}% of nginx's throughput (target >= ${TARGET_PERCENT}%): NOT met"
fi
if [ "$html_pct" -ge "$HTML_TARGET_PERCENT" ]; then
    echo "HTML page: ${html_pct}% of nginx's throughput on the same bytes (target >= ${HTML_TARGET_PERCENT}%): met"
else
    echo "HTML page: ${html_pct}% of nginx's throughput on the same bytes (target >= ${HTML_TARGET_PERCENT}%): NOT met"
fi
