#!/usr/bin/env bash
# Builds and installs the dxspv C library: libdxspv.so (shared, soname libdxspv.so.<ABI>) and
# libdxspv.a (static), the headers dxspv.h and dxspv.hpp, and the pkg-config file dxspv.pc.
#
#   scripts/install-lib.sh --prefix /usr/local
#   cc app.c $(pkg-config --cflags --libs dxspv)                 # links libdxspv.so
#   cc app.c $(pkg-config --cflags dxspv) -L"$(pkg-config --variable=libdir dxspv)" \
#       -Wl,-Bstatic -ldxspv -Wl,-Bdynamic $(pkg-config --libs-only-l --static dxspv | sed 's/-ldxspv//')
#                                                               # links libdxspv.a
#
# Options:
#   --prefix DIR       where to install (required): DIR/lib, DIR/include, DIR/lib/pkgconfig
#   --libdir DIR       libraries and pkgconfig/ here instead (e.g. /usr/lib/x86_64-linux-gnu)
#   --includedir DIR   headers here instead of DIR/include
#   --profile NAME     cargo profile to build with (default: release)
# DESTDIR, when set, is put before every installed path (for packaging); dxspv.pc still names
# the final locations. CARGO_TARGET_DIR and cargo's own settings are honoured.
set -euo pipefail

usage() {
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

prefix=""
libdir=""
includedir=""
profile="release"
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --prefix=*) prefix="${1#*=}"; shift ;;
        --libdir) libdir="${2:?--libdir needs a directory}"; shift 2 ;;
        --libdir=*) libdir="${1#*=}"; shift ;;
        --includedir) includedir="${2:?--includedir needs a directory}"; shift 2 ;;
        --includedir=*) includedir="${1#*=}"; shift ;;
        --profile) profile="${2:?--profile needs a name}"; shift 2 ;;
        --profile=*) profile="${1#*=}"; shift ;;
        -h|--help) usage 0 ;;
        *) echo "install-lib.sh: unknown argument '$1'" >&2; usage 2 ;;
    esac
done
if [ -z "$prefix" ]; then
    echo "install-lib.sh: --prefix DIR is required" >&2
    usage 2
fi
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
# dxspv.pc keeps libdir and includedir relative to ${prefix} when they lie under it.
pc_libdir='${prefix}/lib'
pc_includedir='${prefix}/include'
if [ -n "$libdir" ]; then
    case "$libdir" in /*) ;; *) libdir="$(pwd)/$libdir" ;; esac
    pc_libdir="$libdir"
else
    libdir="$prefix/lib"
fi
if [ -n "$includedir" ]; then
    case "$includedir" in /*) ;; *) includedir="$(pwd)/$includedir" ;; esac
    pc_includedir="$includedir"
else
    includedir="$prefix/include"
fi
destdir="${DESTDIR:-}"

cd "$(dirname "$0")/.."
capi=crates/capi

echo "building dxspv-capi (profile $profile)"
cargo build --profile "$profile" -p dxspv-capi --lib

# Where cargo put the libraries: the target directory (cargo metadata knows CARGO_TARGET_DIR and
# build.target-dir) and the profile's folder (dev builds land in debug/).
target_dir="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
case "$profile" in dev|test) out="$target_dir/debug" ;; *) out="$target_dir/$profile" ;; esac
version="$(cargo pkgid -p dxspv-capi | sed 's/.*[@#]//')"
abi="$(sed -n 's/^pub const DXSPV_ABI_VERSION: u32 = \([0-9]*\);/\1/p' "$capi/src/abi_version.rs")"
if [ -z "$abi" ] || [ -z "$version" ]; then
    echo "install-lib.sh: could not read the version ($version) or ABI version ($abi)" >&2
    exit 1
fi

install -d "$destdir$libdir" "$destdir$libdir/pkgconfig" "$destdir$includedir"
install -m 644 "$out/libdxspv.a" "$destdir$libdir/libdxspv.a"
case "$(uname -s)" in
    Darwin)
        install -m 755 "$out/libdxspv.dylib" "$destdir$libdir/libdxspv.dylib"
        shared="libdxspv.dylib"
        ;;
    *)
        # The file carries the soname (libdxspv.so.<ABI>, set by crates/capi/build.rs); the
        # unversioned name is the link the linker finds with -ldxspv.
        install -m 755 "$out/libdxspv.so" "$destdir$libdir/libdxspv.so.$abi"
        ln -sf "libdxspv.so.$abi" "$destdir$libdir/libdxspv.so"
        shared="libdxspv.so.$abi"
        ;;
esac
install -m 644 "$capi/include/dxspv.h" "$capi/include/dxspv.hpp" "$destdir$includedir/"

# Libs.private: what a program linking libdxspv.a also needs (Rust's standard library's system
# libraries, as `cargo rustc -- --print native-static-libs` lists them on Linux).
cat > "$destdir$libdir/pkgconfig/dxspv.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=$pc_libdir
includedir=$pc_includedir

Name: dxspv
Description: Direct3D shader bytecode (DXBC, D3D9, DXIL) to SPIR-V compiler
Version: $version
Libs: -L\${libdir} -ldxspv
Libs.private: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
Cflags: -I\${includedir}
EOF

echo "installed dxspv $version (ABI $abi) into $destdir$prefix:"
echo "  $libdir/$shared, $libdir/libdxspv.a"
echo "  $includedir/dxspv.h, $includedir/dxspv.hpp"
echo "  $libdir/pkgconfig/dxspv.pc"
