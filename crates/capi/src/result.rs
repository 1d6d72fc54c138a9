//! `dxspv_result`: what an operation returns, owning all of its memory.
//!
//! Every operation (`dxspv_compile`, `dxspv_disassemble`, ...) hands back one result object,
//! on failure too: then it holds the status, the error's category and its message. On success
//! it holds what the operation makes: SPIR-V words and reflection, text, or IR binary, plus
//! warnings and the time per stage. The payload is moved in, not copied (the SPIR-V vector,
//! the text's string); only the reflection is converted to C structs, once.
//!
//! Pointers returned by the accessors point into the result and stay valid until
//! `dxspv_result_free`. A result is never modified after it is made, so any number of threads
//! may read one result at once; freeing needs exclusive access.

use crate::codes::*;
use crate::guard::{guard, Failure};
use crate::reflection::{dxspv_reflection, ReflectionStore};
use std::ffi::{c_char, CString};

/// What an operation made: opaque, freed by `dxspv_result_free`.
pub struct dxspv_result {
    status: dxspv_status,
    /// The error's category and message (both NUL-terminated); `None` on success.
    error: Option<(CString, CString)>,
    spirv: Vec<u32>,
    /// NUL-terminated text; `None` when the operation makes no text.
    text: Option<Vec<u8>>,
    binary: Option<Vec<u8>>,
    reflection: Option<ReflectionStore>,
    warnings: Vec<CString>,
    times: dxspv_stage_times,
}

/// Time spent in each stage of an operation, in nanoseconds (0 for stages it did not run).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dxspv_stage_times {
    /// Reading the container and program (or IR text / binary, and its validation).
    pub parse_ns: u64,
    /// The frontend's conversion to IR.
    pub convert_ns: u64,
    /// The IR pass pipeline.
    pub passes_ns: u64,
    /// SPIR-V emission.
    pub spirv_ns: u64,
}

impl From<dxspv::StageTimes> for dxspv_stage_times {
    fn from(t: dxspv::StageTimes) -> Self {
        let ns = |d: std::time::Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        dxspv_stage_times {
            parse_ns: ns(t.parse),
            convert_ns: ns(t.convert),
            passes_ns: ns(t.passes),
            spirv_ns: ns(t.spirv),
        }
    }
}

/// A C string of `s`; NULs inside are dropped (C would stop reading at them).
fn c_string(s: impl Into<Vec<u8>>) -> CString {
    let mut bytes = s.into();
    bytes.retain(|&b| b != 0);
    CString::new(bytes).unwrap_or_default()
}

impl dxspv_result {
    fn empty(status: dxspv_status) -> Self {
        dxspv_result {
            status,
            error: None,
            spirv: Vec::new(),
            text: None,
            binary: None,
            reflection: None,
            warnings: Vec::new(),
            times: dxspv_stage_times::default(),
        }
    }

    /// The result of a failed operation.
    pub(crate) fn failure(f: Failure) -> Self {
        let mut r = Self::empty(f.status);
        r.error = Some((c_string(f.kind), c_string(f.message)));
        r
    }

    /// The result of a compile: SPIR-V, reflection, warnings, times.
    pub(crate) fn compiled(out: dxspv::Output) -> Self {
        let mut r = Self::empty(DXSPV_OK);
        r.reflection = Some(ReflectionStore::new(out.reflection));
        r.spirv = out.spirv;
        r.times = out.times.into();
        r.with_warnings(&out.warnings)
    }

    /// The result of an operation that makes text.
    pub(crate) fn text(text: String) -> Self {
        let mut bytes = text.into_bytes();
        bytes.push(0);
        let mut r = Self::empty(DXSPV_OK);
        r.text = Some(bytes);
        r
    }

    /// The result of an operation that makes bytes.
    pub(crate) fn binary(bytes: Vec<u8>) -> Self {
        let mut r = Self::empty(DXSPV_OK);
        r.binary = Some(bytes);
        r
    }

    /// Adds the time per stage.
    pub(crate) fn with_times(mut self, times: dxspv::StageTimes) -> Self {
        self.times = times.into();
        self
    }

    /// Adds the warnings, as text.
    pub(crate) fn with_warnings(mut self, warnings: &[dxspv::Warning]) -> Self {
        self.warnings = warnings.iter().map(|w| c_string(w.to_string())).collect();
        self
    }

    /// The result's status.
    pub(crate) fn status(&self) -> dxspv_status {
        self.status
    }

    /// The reflection, if the result has one (for `dxspv_result_reflection_json`).
    pub(crate) fn source_reflection(&self) -> Option<&dxspv::spirv::Reflection> {
        self.reflection.as_ref().map(|store| &store.source)
    }
}

/// Reads a result through `read`, or gives `none` for NULL, misaligned pointers and panics.
///
/// # Safety
/// `result` must be NULL or a live result that is not being freed.
unsafe fn read<T: Copy>(
    result: *const dxspv_result,
    none: T,
    read: impl FnOnce(&dxspv_result) -> T,
) -> T {
    guard(
        |_| none,
        || {
            // SAFETY: forwarded from the caller.
            match unsafe { crate::guard::object(result, "result") } {
                Ok(r) => read(r),
                Err(_) => none,
            }
        },
    )
}

/// Writes `value` to an optional out-parameter.
///
/// # Safety
/// `out` must be NULL or valid for a write of a `T`.
unsafe fn put<T>(out: *mut T, value: T) {
    if !out.is_null() && out.is_aligned() {
        // SAFETY: non-null and aligned; the caller guarantees it is writable.
        unsafe { out.write(value) };
    }
}

/// The status of the operation that made `result` (what it returned);
/// `DXSPV_ERROR_INVALID_ARGUMENT` for NULL.
///
/// # Safety
/// `result` must be NULL or a live result.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_status(result: *const dxspv_result) -> dxspv_status {
    // SAFETY: forwarded from the caller.
    unsafe { read(result, DXSPV_ERROR_INVALID_ARGUMENT, |r| r.status) }
}

/// What went wrong and where, as one line (`"DXBC -> IR: instruction 12 (at token 80): ..."`);
/// `""` on success, NULL for a NULL result. Owned by the result.
///
/// # Safety
/// `result` must be NULL or a live result.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_error_message(result: *const dxspv_result) -> *const c_char {
    // SAFETY: forwarded from the caller.
    unsafe {
        read(result, std::ptr::null(), |r| match &r.error {
            Some((_, message)) => message.as_ptr(),
            None => c"".as_ptr(),
        })
    }
}

/// A short, stable category of the failure, finer than the status (`"dxbc-container"`,
/// `"convert-unsupported"`, `"spirv-unsupported"`, `"ir-text"`, `"ir-binary"`,
/// `"invalid-argument"`, `"panic"`, ...); `""` on success, NULL for a NULL result. Owned by the
/// result.
///
/// # Safety
/// `result` must be NULL or a live result.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_error_kind(result: *const dxspv_result) -> *const c_char {
    // SAFETY: forwarded from the caller.
    unsafe {
        read(result, std::ptr::null(), |r| match &r.error {
            Some((kind, _)) => kind.as_ptr(),
            None => c"".as_ptr(),
        })
    }
}

/// The SPIR-V module of a compile: its words (host byte order), the count written to
/// `*word_count` (when not NULL). NULL and 0 when the result holds no SPIR-V. Owned by the
/// result.
///
/// # Safety
/// `result` must be NULL or a live result; `word_count` NULL or writable.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_spirv(
    result: *const dxspv_result,
    word_count: *mut usize,
) -> *const u32 {
    // SAFETY: forwarded from the caller.
    let (p, n) = unsafe {
        read(result, (std::ptr::null(), 0), |r| {
            match r.spirv.is_empty() {
                true => (std::ptr::null(), 0),
                false => (r.spirv.as_ptr(), r.spirv.len()),
            }
        })
    };
    // SAFETY: forwarded from the caller.
    unsafe { put(word_count, n) };
    p
}

/// The text an operation made (disassembly, IR text, reflection JSON): NUL-terminated, its
/// length without the NUL written to `*length` (when not NULL). NULL and 0 when the result
/// holds no text. Owned by the result.
///
/// # Safety
/// `result` must be NULL or a live result; `length` NULL or writable.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_text(
    result: *const dxspv_result,
    length: *mut usize,
) -> *const c_char {
    // SAFETY: forwarded from the caller.
    let (p, n) = unsafe {
        read(result, (std::ptr::null(), 0), |r| match &r.text {
            Some(t) => (t.as_ptr().cast(), t.len() - 1),
            None => (std::ptr::null(), 0),
        })
    };
    // SAFETY: forwarded from the caller.
    unsafe { put(length, n) };
    p
}

/// The bytes an operation made (IR binary), their number written to `*size` (when not NULL).
/// NULL and 0 when the result holds none. Owned by the result.
///
/// # Safety
/// `result` must be NULL or a live result; `size` NULL or writable.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_binary(
    result: *const dxspv_result,
    size: *mut usize,
) -> *const u8 {
    // SAFETY: forwarded from the caller.
    let (p, n) = unsafe {
        read(result, (std::ptr::null(), 0), |r| match &r.binary {
            Some(b) if !b.is_empty() => (b.as_ptr(), b.len()),
            _ => (std::ptr::null(), 0),
        })
    };
    // SAFETY: forwarded from the caller.
    unsafe { put(size, n) };
    p
}

/// The reflection of a compile (resources, push data, specialization constants, inputs,
/// outputs); NULL when the result holds none. Owned by the result, like everything it points
/// to.
///
/// # Safety
/// `result` must be NULL or a live result.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_reflection(
    result: *const dxspv_result,
) -> *const dxspv_reflection {
    // SAFETY: forwarded from the caller.
    unsafe {
        read(result, std::ptr::null(), |r| match &r.reflection {
            Some(store) => &store.view as *const dxspv_reflection,
            None => std::ptr::null(),
        })
    }
}

/// The number of warnings (things worth telling the user about an input that still
/// translated, such as a container checksum mismatch); 0 for NULL.
///
/// # Safety
/// `result` must be NULL or a live result.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_warning_count(result: *const dxspv_result) -> usize {
    // SAFETY: forwarded from the caller.
    unsafe { read(result, 0, |r| r.warnings.len()) }
}

/// Warning `index` as one line of text; NULL when `index` is not below
/// `dxspv_result_warning_count`. Owned by the result.
///
/// # Safety
/// `result` must be NULL or a live result.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_warning(
    result: *const dxspv_result,
    index: usize,
) -> *const c_char {
    // SAFETY: forwarded from the caller.
    unsafe {
        read(result, std::ptr::null(), |r| {
            r.warnings
                .get(index)
                .map_or(std::ptr::null(), |w| w.as_ptr())
        })
    }
}

/// The time spent per stage; NULL for a NULL result. Owned by the result.
///
/// # Safety
/// `result` must be NULL or a live result.
///
/// Thread safety: any number of threads may read one result at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_times(
    result: *const dxspv_result,
) -> *const dxspv_stage_times {
    // SAFETY: forwarded from the caller.
    unsafe {
        read(result, std::ptr::null(), |r| {
            &r.times as *const dxspv_stage_times
        })
    }
}

/// Frees a result and everything its accessors returned. NULL is ignored.
///
/// # Safety
/// `result` must be NULL or a live result from a dxspv operation, not used again afterwards.
///
/// Thread safety: needs exclusive access: no other thread may read `result` meanwhile. A
/// result may be freed on another thread than the one that made it.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_free(result: *mut dxspv_result) {
    guard(
        |_| (),
        || {
            if !result.is_null() && result.is_aligned() {
                // SAFETY: the caller passes a live result made by `Box::into_raw` in
                // `crate::operations::finish` and gives up its ownership.
                drop(unsafe { Box::from_raw(result) });
            }
        },
    )
}
