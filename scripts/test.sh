#!/usr/bin/env bash
# Runs the whole dxspv test suite on a fresh Debian machine: installs what the tests need,
# then formatting, lints and every test (the corpus tests read ../shared/corpus when present).
set -euo pipefail
cd "$(dirname "$0")/.."

# spirv-val (Debian spirv-tools) checks every SPIR-V module the tests produce.
if ! command -v spirv-val >/dev/null 2>&1; then
    echo "installing spirv-tools"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq spirv-tools >/dev/null
fi

# llvm-dis-14 (Debian llvm-14) is the reference the DXIL reader's corpus test compares with.
if ! command -v llvm-dis-14 >/dev/null 2>&1; then
    echo "installing llvm-14"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq llvm-14 >/dev/null
fi

# spirv-cross (Debian spirv-cross): its --reflect is the reference the reflection is compared with.
if ! command -v spirv-cross >/dev/null 2>&1; then
    echo "installing spirv-cross"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq spirv-cross >/dev/null
fi

# Mesa's lavapipe (CPU Vulkan driver) and the Vulkan loader: dxspv-runner executes the shared
# execution cases on it.
if [ ! -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] && ! ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1; then
    echo "installing mesa-vulkan-drivers libvulkan1"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq mesa-vulkan-drivers libvulkan1 >/dev/null
fi

# A C and a C++ compiler and pkg-config: the C API test (crates/capi/tests/install.rs) installs
# the library with scripts/install-lib.sh and builds examples/c/compile.c and the C++ wrapper test.
if ! command -v cc >/dev/null 2>&1 || ! command -v g++ >/dev/null 2>&1 || ! command -v pkg-config >/dev/null 2>&1; then
    echo "installing gcc g++ pkg-config"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcc g++ pkg-config >/dev/null
fi

# Graphviz renders the CFG pictures of `dxspv ir --dot` in the CLI tests.
if ! command -v dot >/dev/null 2>&1; then
    echo "installing graphviz"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq graphviz >/dev/null
fi

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
