//! Gives the Linux shared library the soname `libdxspv.so.<ABI version>`, so programs linked
//! against one ABI never load a library of another (`scripts/install-lib.sh` installs the file
//! under that name with a `libdxspv.so` link beside it).

include!("src/abi_version.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/abi_version.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdxspv.so.{DXSPV_ABI_VERSION}");
    }
}
