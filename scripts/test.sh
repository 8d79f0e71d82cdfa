#!/usr/bin/env bash
# Every test Arbiter has: formatting, lints, then the whole workspace's tests.
# It installs what the tests need when it is missing: rustfmt and clippy,
# Debian's chromium and chromium-driver for the end-to-end browser tests,
# axe-core from the npm registry (into target/axe) for their accessibility
# audit, and Debian's postgresql for the PostgreSQL tests (scripts/pg.sh, which starts a
# throwaway cluster unless ARBITER_TEST_PG_URL names a server).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null; then
    echo "cargo is missing: install Rust with rustup (https://rustup.rs)" >&2
    exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# The end-to-end browser tests (crates/cli/tests/e2e.rs) drive Debian's
# headless Chromium through chromedriver.
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    :
elif command -v apt-get >/dev/null; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null; then
            sudo="sudo"
        else
            echo "warning: the browser tests need chromium and chromium-driver, and installing them needs root: apt-get install chromium chromium-driver (the e2e test fails without them)" >&2
            sudo="none"
        fi
    fi
    if [ "$sudo" != "none" ]; then
        echo "== installing chromium and chromium-driver (apt-get) for the browser tests"
        $sudo apt-get update
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
        echo "installed: $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium: none'); $(/usr/bin/chromedriver --version 2>/dev/null || echo 'chromedriver: none')"
    fi
else
    echo "warning: the browser tests need Debian's chromium and chromium-driver, and apt-get is missing (the e2e test fails without them)" >&2
fi

# The time zone's peer comparison (crates/engine/tests/zone_peer.rs, ARB-R82)
# runs Python's zoneinfo on the system's IANA database: Debian's python3 and
# tzdata, installed when missing.
if ! python3 -c "import zoneinfo; zoneinfo.ZoneInfo('Europe/Berlin')" >/dev/null 2>&1 \
    && command -v apt-get >/dev/null; then
    tz_root=""
    [ "$(id -u)" -ne 0 ] && tz_root="sudo"
    echo "== installing python3 and tzdata (apt-get) for the time zone comparison"
    $tz_root apt-get update || true
    $tz_root env DEBIAN_FRONTEND=noninteractive apt-get install -y python3 tzdata || true
fi

# The accessibility audit of the browser tests (crates/cli/tests/e2e_overflow.rs,
# issue 17 §3) runs axe-core, pinned here and in crates/cli/tests/common/axe.rs:
# installed from the npm registry into target/axe/ (thrown away with target/,
# never committed) unless that version is there, and its script exported as
# ARBITER_AXE_JS. Debian's npm is installed when npm is missing. If the
# install fails, the audit's test fails saying how to install it.
AXE_VERSION=4.14.1
axe_dir="${CARGO_TARGET_DIR:-target}/axe"
case "$axe_dir" in /*) ;; *) axe_dir="$PWD/$axe_dir" ;; esac
if ! grep -qs "\"version\": \"$AXE_VERSION\"" "$axe_dir/node_modules/axe-core/package.json"; then
    if ! command -v npm >/dev/null && command -v apt-get >/dev/null; then
        as_root=""
        if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then as_root="sudo"; fi
        echo "== installing npm (apt-get) for the accessibility audit"
        $as_root apt-get update || true
        $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y npm || true
    fi
    echo "== installing axe-core $AXE_VERSION (npm, into $axe_dir) for the accessibility audit"
    mkdir -p "$axe_dir"
    npm install --prefix "$axe_dir" --no-save --no-package-lock --no-audit --no-fund "axe-core@$AXE_VERSION" ||
        echo "warning: axe-core was not installed: the accessibility audit (e2e_overflow) fails without it" >&2
fi
export ARBITER_AXE_JS="$axe_dir/node_modules/axe-core/axe.min.js"

# A build from scratch gains nothing from incremental caches, which add
# gigabytes to target/ (a CI machine ran out of disk writing one): off unless
# the caller sets CARGO_INCREMENTAL.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
disk() {
    echo "disk: $(df -h --output=avail . | tail -1 | tr -d ' ') free here; target/ $(du -sh target 2>/dev/null | cut -f1 || echo 0)"
}
disk

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
log="$(mktemp)"
pg_dir=""
cleanup() {
    rm -f "$log"
    if [ -n "$pg_dir" ]; then
        bash scripts/pg.sh stop "$pg_dir" || true
    fi
}
trap cleanup EXIT
# The PostgreSQL tests (the store's conformance on PostgreSQL, and every test
# that reads ARBITER_TEST_PG_URL) need a server: unless one is given, a
# throwaway cluster (scripts/pg.sh: initdb in a temporary folder, a free
# loopback port), stopped on exit, failure included.
if [ -z "${ARBITER_TEST_PG_URL:-}" ]; then
    echo "== starting a throwaway PostgreSQL (scripts/pg.sh)"
    pg_env="$(bash scripts/pg.sh start)"
    eval "$pg_env"
    pg_dir="$ARBITER_TEST_PG_DIR"
    export ARBITER_TEST_PG_URL ARBITER_TEST_PG_DIR
fi
cargo test --workspace 2>&1 | tee "$log"
# One closing line for the whole workspace (cargo prints one per test binary).
passed=$(grep -Eo '^test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -Eo '[0-9]+ failed;' "$log" | awk '{s += $1} END {print s + 0}')
echo
echo "workspace: ${passed} passed, ${failed} failed"
disk
