#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests.
#
#   eval "$(bash scripts/pg.sh start)"        # sets ARBITER_TEST_PG_URL and ARBITER_TEST_PG_DIR
#   bash scripts/pg.sh start FILE             # the same, and writes those export lines to FILE
#   bash scripts/pg.sh stop "$ARBITER_TEST_PG_DIR"
#
# `start` runs initdb into a new temporary folder, then starts the server on a
# free loopback port (127.0.0.1 only, trust authentication: nothing else can
# reach it), with its unix socket inside that folder and fsync on, and prints
# the export lines on stdout (everything else goes to stderr). `stop DIR`
# stops that server and removes the folder.
#
# It finds initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin (the
# newest), and when there are none installs Debian's `postgresql` package
# with apt-get (through sudo when not root). initdb refuses to run as root:
# as root, the cluster belongs to the `postgres` user (made by the Debian
# package; created here as a system user if missing) and every PostgreSQL
# command runs as that user through runuser.
set -euo pipefail

say() { echo "pg.sh: $*" >&2; }
die() {
    say "$*"
    exit 1
}

# The directory holding initdb, pg_ctl and postgres of one installation.
find_bindir() {
    local initdb pg_ctl dir
    initdb="$(command -v initdb 2>/dev/null || true)"
    pg_ctl="$(command -v pg_ctl 2>/dev/null || true)"
    if [ -n "$initdb" ] && [ -n "$pg_ctl" ]; then
        # /usr/local/bin/initdb may be a link into the real installation:
        # take the folder of what it points to, where postgres lives too.
        dir="$(dirname "$(readlink -f "$initdb")")"
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
            echo "$dir"
            return 0
        fi
    fi
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
        echo "$dir"
        return 0
    fi
    return 1
}

install_postgresql() {
    command -v apt-get >/dev/null || die "PostgreSQL (initdb, pg_ctl) is missing and apt-get is not there to install it: install PostgreSQL, or set ARBITER_TEST_PG_URL to a database server"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "PostgreSQL is missing and installing it needs root: apt-get install postgresql"
        sudo="sudo"
    fi
    say "installing Debian's postgresql package (apt-get)"
    $sudo apt-get update >&2
    # The package's own cluster is not needed; policy-rc.d may refuse to start
    # it in a container, which is fine.
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
}

# Run a PostgreSQL command as the owner of the cluster.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

ensure_postgres_user() {
    if ! id -u postgres >/dev/null 2>&1; then
        say "creating the system user postgres"
        useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin postgres
    fi
}

# A port nobody listens on (the server's start fails, and is retried on
# another one, if somebody takes it meanwhile).
free_port() {
    local port
    for _ in $(seq 1 100); do
        port=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    return 1
}

start() {
    local out="${1:-}"
    local bindir
    if ! bindir="$(find_bindir)"; then
        install_postgresql
        bindir="$(find_bindir)" || die "PostgreSQL was installed but initdb and pg_ctl are still not found"
    fi
    say "using $bindir ($("$bindir/postgres" --version))"

    local dir
    if [ "$(id -u)" -eq 0 ]; then
        ensure_postgres_user
        # Somewhere the postgres user can reach (TMPDIR may be under /root).
        dir="$(mktemp -d /tmp/arbiter-pg.XXXXXX)"
        chown postgres: "$dir"
    else
        dir="$(mktemp -d "${TMPDIR:-/tmp}/arbiter-pg.XXXXXX")"
    fi
    chmod 700 "$dir"
    as_owner mkdir "$dir/sock"

    # Only loopback connections reach the server (listen_addresses below) and
    # the socket is in a private folder: trust is enough. fsync stays on.
    as_owner "$bindir/initdb" --pgdata="$dir/data" --username=arbiter --auth=trust \
        --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
        {
            cat "$dir/initdb.log" >&2
            rm -rf "$dir"
            die "initdb failed"
        }

    local port started=""
    for _ in 1 2 3 4 5; do
        port="$(free_port)" || break
        if as_owner "$bindir/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait \
            --timeout=60 --silent \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir/sock -c fsync=on -c synchronous_commit=on -c max_connections=300" \
            start >&2; then
            started=yes
            break
        fi
        say "the server did not start on port $port, trying another"
    done
    if [ -z "$started" ]; then
        cat "$dir/server.log" >&2 || true
        rm -rf "$dir"
        die "cannot start PostgreSQL"
    fi
    echo "$bindir" >"$dir/bindir"

    local lines
    lines="export ARBITER_TEST_PG_URL=postgres://arbiter@127.0.0.1:$port/postgres
export ARBITER_TEST_PG_DIR=$dir"
    say "PostgreSQL is up on 127.0.0.1:$port (data in $dir; stop it with: bash scripts/pg.sh stop $dir)"
    if [ -n "$out" ]; then
        echo "$lines" >"$out"
    fi
    echo "$lines"
}

stop() {
    local dir="${1:-}"
    [ -n "$dir" ] || die "usage: pg.sh stop DIR (the ARBITER_TEST_PG_DIR that start printed)"
    [ -d "$dir/data" ] || die "$dir holds no cluster made by pg.sh start"
    local bindir
    bindir="$(cat "$dir/bindir" 2>/dev/null || find_bindir)" || die "pg_ctl not found"
    as_owner "$bindir/pg_ctl" --pgdata="$dir/data" --mode=fast --wait --silent stop >&2 ||
        say "pg_ctl stop failed (was the server running?)"
    rm -rf "$dir"
    say "stopped and removed $dir"
}

case "${1:-}" in
start)
    start "${2:-}"
    ;;
stop)
    stop "${2:-}"
    ;;
*)
    echo "usage: pg.sh start [FILE] | pg.sh stop DIR" >&2
    exit 2
    ;;
esac
