#!/usr/bin/env bash
# Every test Arbiter has: formatting, lints, then the whole workspace's tests.
# It installs what the tests need when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null; then
    echo "cargo is missing: install Rust with rustup (https://rustup.rs)" >&2
    exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace
