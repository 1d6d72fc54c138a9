#!/usr/bin/env bash
# Runs the whole dxspv test suite on a fresh Debian machine: installs what the tests need,
# then formatting, lints and every test (the corpus tests read ../shared/corpus when present).
set -euo pipefail
cd "$(dirname "$0")/.."

# Installs Debian packages (with sudo when not root) unless `check` (a shell test) already holds.
need() {
    local check=$1 why=$2
    shift 2
    if ! eval "$check" >/dev/null 2>&1; then
        echo "installing $* ($why)"
        local sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
    fi
}

# spirv-val checks every SPIR-V module the tests produce.
need "command -v spirv-val" "spirv-val" spirv-tools
# llvm-dis-14 is the reference the DXIL reader's corpus test compares with.
need "command -v llvm-dis-14" "the DXIL reader's reference" llvm-14
# spirv-cross --reflect is the reference the reflection is compared with.
need "command -v spirv-cross" "the reflection's reference" spirv-cross
# Mesa's lavapipe (CPU Vulkan driver) and the Vulkan loader: dxspv-runner executes the shared
# execution cases on it.
need "ls /usr/share/vulkan/icd.d/lvp_icd.*.json" "lavapipe" mesa-vulkan-drivers libvulkan1
# A C and a C++ compiler and pkg-config: the C API test (crates/capi/tests/install.rs) installs
# the library with scripts/install-lib.sh and builds examples/c/compile.c and the C++ wrapper test.
need "command -v cc && command -v g++ && command -v pkg-config" "the C API test" gcc g++ pkg-config
# Graphviz renders the CFG pictures of `dxspv ir --dot` in the CLI tests.
need "command -v dot" "the CLI's --dot test" graphviz

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (https://rustup.rs) first" >&2
    exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

if [ -d ../shared/corpus ]; then
    echo "corpus: $(cd ../shared/corpus && pwd)"
else
    echo "corpus: ../shared/corpus not found; corpus tests will say so and skip"
fi

cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --release 2>&1
