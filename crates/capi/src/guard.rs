//! The boundary's guards: no panic crosses into C, no argument is trusted before it is
//! checked, and every failure becomes a status code with a message.
//!
//! Every `extern "C"` function runs its body through [`guard`], which catches a panic and turns
//! it into the function's failure value (an `DXSPV_ERROR_INTERNAL` result, a NULL pointer, a
//! zero count). Raw pointers and lengths become Rust references and slices only through the
//! helpers here, which check for NULL, misalignment and sizes no object can have, and name the
//! parameter when they refuse.

use crate::codes::*;
use std::any::Any;
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a call failed: its status code, a stable short category and a message.
#[derive(Debug)]
pub(crate) struct Failure {
    /// The status code returned to C.
    pub status: dxspv_status,
    /// A stable short category: `dxspv::Error::kind` for compiler errors, `invalid-argument`,
    /// `ir-binary` or `panic` for the boundary's own.
    pub kind: &'static str,
    /// What went wrong and where.
    pub message: String,
}

impl Failure {
    /// The caller broke the API contract (NULL pointer, bad size, bad enumeration value).
    pub fn argument(message: String) -> Self {
        Failure {
            status: DXSPV_ERROR_INVALID_ARGUMENT,
            kind: "invalid-argument",
            message,
        }
    }

    /// A panic inside the library, caught at the boundary.
    pub fn panic(message: String) -> Self {
        Failure {
            status: DXSPV_ERROR_INTERNAL,
            kind: "panic",
            message: format!(
                "internal error (a dxspv bug; please report it with the input): panic: {message}"
            ),
        }
    }
}

impl From<dxspv::Error> for Failure {
    fn from(e: dxspv::Error) -> Self {
        Failure {
            status: status_of(&e),
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

impl From<dxspv::ir::DeserializeError> for Failure {
    fn from(e: dxspv::ir::DeserializeError) -> Self {
        Failure {
            status: DXSPV_ERROR_INVALID_INPUT,
            kind: "ir-binary",
            message: format!("IR binary: {e}"),
        }
    }
}

/// The status code of a compiler error. The match is exhaustive on purpose: a new error
/// variant (a new frontend) must be given its code here.
fn status_of(e: &dxspv::Error) -> dxspv_status {
    use dxspv::dxbc;
    use dxspv::ir::passes::error::PassError;
    use dxspv::Error;
    match e {
        Error::Dxbc(dxbc::Error::Dxil { .. }) | Error::Unsupported(_) => {
            DXSPV_ERROR_UNSUPPORTED_FORMAT
        }
        Error::Dxbc(_) | Error::IrText(_) => DXSPV_ERROR_INVALID_INPUT,
        Error::Dxil(dxspv::dxil::Error::Unsupported { .. }) => DXSPV_ERROR_UNSUPPORTED_FEATURE,
        Error::Dxil(_) => DXSPV_ERROR_INVALID_INPUT,
        Error::D3d9(_) => DXSPV_ERROR_INVALID_INPUT,
        Error::D3d9Convert(c) => match c {
            dxspv::sm3::ConvertError::Unsupported { .. } => DXSPV_ERROR_UNSUPPORTED_FEATURE,
            // A register or flow control the shader's model lacks: no device accepts it.
            dxspv::sm3::ConvertError::Limit { .. }
            | dxspv::sm3::ConvertError::Decode(_)
            | dxspv::sm3::ConvertError::Invalid { .. } => DXSPV_ERROR_INVALID_INPUT,
        },
        Error::DxilConvert(c) => match c {
            dxspv::dxil::ConvertError::Unsupported { .. } => DXSPV_ERROR_UNSUPPORTED_FEATURE,
            dxspv::dxil::ConvertError::Read(dxspv::dxil::Error::Unsupported { .. }) => {
                DXSPV_ERROR_UNSUPPORTED_FEATURE
            }
            dxspv::dxil::ConvertError::Read(_)
            | dxspv::dxil::ConvertError::Invalid { .. }
            | dxspv::dxil::ConvertError::Limit { .. } => DXSPV_ERROR_INVALID_INPUT,
        },
        Error::Convert(c) => match c {
            dxbc::ConvertError::Unsupported { .. } => DXSPV_ERROR_UNSUPPORTED_FEATURE,
            dxbc::ConvertError::Decode(_) | dxbc::ConvertError::Invalid { .. } => {
                DXSPV_ERROR_INVALID_INPUT
            }
        },
        // IR given from outside that the validator rejects before any pass runs.
        Error::Pass(PassError::Validation { pass: "input", .. }, _) => DXSPV_ERROR_INVALID_INPUT,
        // A stream-output declaration that does not fit the shader (an output it lacks, a
        // stage that does not stream out): the caller's options are at fault.
        Error::Pass(
            PassError::InvalidIr {
                pass: "stream_output",
                ..
            },
            _,
        ) => DXSPV_ERROR_INVALID_ARGUMENT,
        // A pass failing on IR that was valid when the pipeline started is a bug.
        Error::Pass(..) => DXSPV_ERROR_INTERNAL,
        Error::Spirv(dxspv::spirv::SpirvError::Unsupported { .. }, _) => {
            DXSPV_ERROR_UNSUPPORTED_FEATURE
        }
        // The backend refusing validated lowered IR is a bug too.
        Error::Spirv(..) => DXSPV_ERROR_INTERNAL,
        Error::UnknownFormat => DXSPV_ERROR_UNKNOWN_FORMAT,
    }
}

/// Runs `body`; a panic in it becomes `on_panic(message)` instead of unwinding into C.
pub(crate) fn guard<T>(on_panic: impl FnOnce(String) -> T, body: impl FnOnce() -> T) -> T {
    // AssertUnwindSafe: after a panic nothing the body touched is used again except through
    // the caller's objects, which the body only reads (operations) or sets whole fields of
    // (setters, which cannot panic half-way through a field).
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(value) => value,
        Err(payload) => {
            let message = panic_message(&*payload);
            // Dropping the payload runs foreign code (its destructor), which could panic in
            // turn; that second payload is leaked rather than risk unwinding into C.
            if let Err(second) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
                std::mem::forget(second);
            }
            on_panic(message)
        }
    }
}

/// The text of a panic payload (`panic!` with a literal or a formatted message).
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// A C buffer as a byte slice. A zero size is the empty slice whatever the pointer (NULL
/// included); a NULL pointer with a non-zero size, and a size past `isize::MAX` (which no
/// object can have), are refused naming `param`.
///
/// # Safety
/// Unless NULL, `data` must point to `size` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn bytes<'a>(
    data: *const u8,
    size: usize,
    param: &str,
) -> Result<&'a [u8], Failure> {
    if size == 0 {
        return Ok(&[]);
    }
    if data.is_null() {
        return Err(Failure::argument(format!(
            "{param} is NULL but its size is {size}"
        )));
    }
    if size > isize::MAX as usize {
        return Err(Failure::argument(format!(
            "{param}: size {size} exceeds PTRDIFF_MAX"
        )));
    }
    // SAFETY: `data` is non-null and `size` fits `isize`; the caller guarantees that `size`
    // bytes are readable and unchanged for `'a`. A `u8` slice has no alignment requirement.
    Ok(unsafe { std::slice::from_raw_parts(data, size) })
}

/// A C buffer of text as a `str`: [`bytes`], then UTF-8 checked (the message names the first
/// bad byte).
///
/// # Safety
/// As [`bytes`].
pub(crate) unsafe fn text<'a>(
    data: *const c_char,
    size: usize,
    param: &str,
) -> Result<&'a str, Failure> {
    // SAFETY: forwarded from the caller.
    let b = unsafe { bytes(data.cast(), size, param) }?;
    std::str::from_utf8(b).map_err(|e| {
        Failure::argument(format!(
            "{param} is not UTF-8: invalid byte at offset {}",
            e.valid_up_to()
        ))
    })
}

/// A NUL-terminated C string as a `str`, refusing NULL and text that is not UTF-8.
///
/// # Safety
/// Unless NULL, `s` must point to a NUL-terminated string that stays unchanged for `'a`.
pub(crate) unsafe fn c_str<'a>(s: *const c_char, param: &str) -> Result<&'a str, Failure> {
    if s.is_null() {
        return Err(Failure::argument(format!("{param} is NULL")));
    }
    // SAFETY: non-null; the caller guarantees a NUL-terminated string valid for `'a`.
    let s = unsafe { CStr::from_ptr(s) };
    s.to_str().map_err(|e| {
        Failure::argument(format!(
            "{param} is not UTF-8: invalid byte at offset {}",
            e.valid_up_to()
        ))
    })
}

/// An object pointer as a shared reference, refusing NULL and misaligned pointers.
///
/// # Safety
/// Unless NULL or misaligned, `p` must point to a live `T` that nothing writes to for `'a`.
pub(crate) unsafe fn object<'a, T>(p: *const T, param: &str) -> Result<&'a T, Failure> {
    if p.is_null() {
        return Err(Failure::argument(format!("{param} is NULL")));
    }
    if !p.is_aligned() {
        return Err(Failure::argument(format!(
            "{param} is misaligned: not a dxspv object"
        )));
    }
    // SAFETY: non-null and aligned; the caller guarantees a live object not written to for 'a.
    Ok(unsafe { &*p })
}

/// An object pointer as an exclusive reference, refusing NULL and misaligned pointers.
///
/// # Safety
/// Unless NULL or misaligned, `p` must point to a live `T` that nothing else reads or writes
/// for `'a`.
pub(crate) unsafe fn object_mut<'a, T>(p: *mut T, param: &str) -> Result<&'a mut T, Failure> {
    if p.is_null() {
        return Err(Failure::argument(format!("{param} is NULL")));
    }
    if !p.is_aligned() {
        return Err(Failure::argument(format!(
            "{param} is misaligned: not a dxspv object"
        )));
    }
    // SAFETY: non-null and aligned; the caller guarantees exclusive access for 'a.
    Ok(unsafe { &mut *p })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_the_failure_value_with_its_message() {
        let r = guard(
            |m| Err::<u32, _>(Failure::panic(m)),
            || panic!("boom {}", 7),
        );
        let f = r.unwrap_err();
        assert_eq!(f.status, DXSPV_ERROR_INTERNAL);
        assert_eq!(f.kind, "panic");
        assert!(f.message.ends_with("panic: boom 7"), "{}", f.message);
        assert_eq!(guard(|_| 0, || 5), 5);
        assert_eq!(guard(|m| m, || std::panic::panic_any(3u8)), "(no message)");
    }

    #[test]
    fn buffers_are_checked_before_use() {
        // SAFETY: every non-null pointer points to a live buffer of the given size.
        unsafe {
            assert_eq!(bytes(std::ptr::null(), 0, "data").unwrap(), &[] as &[u8]);
            let e = bytes(std::ptr::null(), 4, "data").unwrap_err();
            assert_eq!(e.message, "data is NULL but its size is 4");
            let b = [1u8, 2, 3];
            let e = bytes(b.as_ptr(), usize::MAX, "data").unwrap_err();
            assert!(e.message.contains("exceeds PTRDIFF_MAX"), "{}", e.message);
            assert_eq!(bytes(b.as_ptr(), 2, "data").unwrap(), &[1, 2]);
            let t = b"ok\xff";
            assert_eq!(text(t.as_ptr().cast(), 2, "text").unwrap(), "ok");
            let e = text(t.as_ptr().cast(), 3, "text").unwrap_err();
            assert_eq!(e.message, "text is not UTF-8: invalid byte at offset 2");
            assert_eq!(c_str(c"main".as_ptr(), "name").unwrap(), "main");
            assert_eq!(
                c_str(std::ptr::null(), "name").unwrap_err().message,
                "name is NULL"
            );
            let x = [0u32; 2];
            let odd = x.as_ptr().cast::<u8>().wrapping_add(1).cast::<u32>();
            assert!(object(odd, "o").unwrap_err().message.contains("misaligned"));
            assert_eq!(*object(x.as_ptr(), "o").unwrap(), 0);
        }
    }

    #[test]
    fn compiler_errors_get_their_codes() {
        use dxspv::ir::passes::error::PassError;
        use dxspv::{Error, Format};
        let f = Failure::from(Error::Unsupported(Format::Dxil));
        assert_eq!(
            (f.status, f.kind),
            (DXSPV_ERROR_UNSUPPORTED_FORMAT, "unsupported-format")
        );
        assert_eq!(f.message, "DXIL: not supported yet");
        let f = Failure::from(Error::UnknownFormat);
        assert_eq!(f.status, DXSPV_ERROR_UNKNOWN_FORMAT);
        let pass = |pass| PassError::Validation {
            pass,
            errors: vec![],
        };
        assert_eq!(
            Failure::from(Error::from(pass("input"))).status,
            DXSPV_ERROR_INVALID_INPUT
        );
        assert_eq!(
            Failure::from(Error::from(pass("ssa_construction"))).status,
            DXSPV_ERROR_INTERNAL
        );
        let bad_declaration = PassError::invalid("stream_output", None, "no output TEXCOORD0");
        assert_eq!(
            Failure::from(Error::from(bad_declaration)).status,
            DXSPV_ERROR_INVALID_ARGUMENT
        );
        // An error naming its op in D3D terms keeps its code; the message carries the names.
        let def = dxspv::ir::SsaDef::new(45).unwrap();
        let refused = dxspv::spirv::SpirvError::Unsupported {
            def,
            opcode: dxspv::ir::OpCode::ImageSample,
            feature: "x".into(),
        };
        let f = Failure::from(Error::Spirv(
            refused,
            Some("ImageSample of `t0`, `s0` (%45)".into()),
        ));
        assert_eq!(
            (f.status, f.kind),
            (DXSPV_ERROR_UNSUPPORTED_FEATURE, "spirv-unsupported")
        );
        assert_eq!(
            f.message,
            "SPIR-V: ImageSample of `t0`, `s0` (%45): unsupported: x"
        );
        let moved = PassError::invalid("stream_output", def, "no output TEXCOORD0");
        let f = Failure::from(Error::Pass(moved, Some("`o1_TEXCOORD0` (%45)".into())));
        assert_eq!(f.status, DXSPV_ERROR_INVALID_ARGUMENT);
        assert_eq!(
            f.message,
            "IR passes: stream_output: `o1_TEXCOORD0` (%45): no output TEXCOORD0"
        );
        // The newer frontends' errors: malformed input, or a construct not translated.
        for (e, status) in [
            (
                Error::Dxil(dxspv::dxil::Error::Limit {
                    location: dxspv::dxil::Location::top(0),
                    what: "block nesting",
                    limit: 32,
                }),
                DXSPV_ERROR_INVALID_INPUT,
            ),
            (
                Error::D3d9Convert(dxspv::sm3::ConvertError::Unsupported {
                    at: dxspv::ir::frontend::InstructionSite {
                        index: 0,
                        offset: 1,
                        opcode: "texm3x3vspec",
                    },
                    feature: "texm3x3vspec",
                }),
                DXSPV_ERROR_UNSUPPORTED_FEATURE,
            ),
        ] {
            assert_eq!(Failure::from(e).status, status);
        }
    }
}
