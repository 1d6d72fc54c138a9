/// The ABI version of this library: the number the header was written for. It changes when a
/// function's signature or a struct's layout changes incompatibly (never when functions are
/// added). A program compares `dxspv_abi_version()` with this constant at start-up; the Linux
/// soname is `libdxspv.so.<DXSPV_ABI_VERSION>`.
pub const DXSPV_ABI_VERSION: u32 = 3;
