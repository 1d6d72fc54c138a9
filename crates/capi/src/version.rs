//! The library's version: semantic version and ABI version.

use crate::abi_version::DXSPV_ABI_VERSION;
use std::ffi::{c_char, CStr};

/// The semantic version as text (`"0.1.0"`). Static: never free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn dxspv_version_string() -> *const c_char {
    // A constant: nothing here can panic, so no guard is needed.
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

/// The semantic version as numbers, each written where its pointer is not NULL.
///
/// # Safety
/// Each pointer must be NULL or writable.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub unsafe extern "C" fn dxspv_version(major: *mut u32, minor: *mut u32, patch: *mut u32) {
    let parts = [
        (major, env!("CARGO_PKG_VERSION_MAJOR")),
        (minor, env!("CARGO_PKG_VERSION_MINOR")),
        (patch, env!("CARGO_PKG_VERSION_PATCH")),
    ];
    crate::guard::guard(
        |_| (),
        || {
            for (out, text) in parts {
                if !out.is_null() && out.is_aligned() {
                    // SAFETY: non-null and aligned; the caller guarantees it is writable.
                    unsafe { out.write(text.parse().unwrap_or(0)) };
                }
            }
        },
    )
}

/// The ABI version of the loaded library. A program built against `dxspv.h` checks
/// `dxspv_abi_version() == DXSPV_ABI_VERSION` before anything else; a different number
/// means the header and the library disagree on some signature or struct layout.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn dxspv_abi_version() -> u32 {
    // A constant: nothing here can panic, so no guard is needed.
    DXSPV_ABI_VERSION
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_match_the_package() {
        // SAFETY: a static NUL-terminated string.
        let text = unsafe { CStr::from_ptr(dxspv_version_string()) }
            .to_str()
            .unwrap();
        assert_eq!(text, env!("CARGO_PKG_VERSION"));
        let (mut a, mut b, mut c) = (99, 99, 99);
        // SAFETY: three writable u32s, then NULLs.
        unsafe {
            dxspv_version(&mut a, &mut b, &mut c);
            dxspv_version(
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
        }
        assert_eq!(format!("{a}.{b}.{c}"), text);
        assert_eq!(dxspv_abi_version(), 3);
    }
}
