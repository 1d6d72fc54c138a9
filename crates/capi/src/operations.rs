//! The operations: compile, IR text and binary, disassembly, format detection.
//!
//! Each takes its inputs, runs one [`dxspv`] facade function and writes a new result object to
//! `*result` — on failure too, so the message can be read — and returns the result's status.
//! Only a NULL (or misaligned) `result` gets no object: then the call returns
//! `DXSPV_ERROR_INVALID_ARGUMENT` and does nothing.
//!
//! Options may be NULL for the defaults. The library keeps nothing between calls: operations
//! may run on any number of threads at once, sharing one options object (read-only while
//! they run) or not.

use crate::codes::*;
use crate::guard::{bytes, guard, object, text as utf8_text, Failure};
use crate::options::dxspv_options;
use crate::result::dxspv_result;
use std::ffi::c_char;
use std::sync::OnceLock;

/// Runs an operation's body and hands its result to C.
///
/// # Safety
/// `result` must be NULL or valid for a write of a pointer.
unsafe fn finish(
    result: *mut *mut dxspv_result,
    body: impl FnOnce() -> Result<dxspv_result, Failure>,
) -> dxspv_status {
    if result.is_null() || !result.is_aligned() {
        return DXSPV_ERROR_INVALID_ARGUMENT;
    }
    let r = guard(|m| Err(Failure::panic(m)), body).unwrap_or_else(dxspv_result::failure);
    let status = r.status();
    // SAFETY: `result` is non-null and aligned; the caller guarantees it is writable.
    unsafe { result.write(Box::into_raw(Box::new(r))) };
    status
}

/// The options behind a pointer, or the defaults for NULL.
///
/// # Safety
/// `options` must be NULL or a live options object nobody sets during the operation.
unsafe fn options_or_default<'a>(
    options: *const dxspv_options,
) -> Result<&'a dxspv::Options, Failure> {
    static DEFAULT: OnceLock<dxspv::Options> = OnceLock::new();
    if options.is_null() {
        return Ok(DEFAULT.get_or_init(dxspv::Options::default));
    }
    // SAFETY: forwarded from the caller.
    Ok(&unsafe { object(options, "options") }?.inner)
}

/// Compiles shader bytes (DXBC now; the format is detected) to SPIR-V. On success the result
/// holds the SPIR-V (`dxspv_result_spirv`), the reflection (`dxspv_result_reflection`), the
/// warnings and the time per stage.
///
/// `options` may be NULL for the defaults. `data` may be NULL when `size` is 0. `*result`
/// receives a result object, also on failure (free it with `dxspv_result_free`); the status
/// is returned and also kept in the result.
///
/// # Safety
/// `options` must be NULL or a live options object; `data` NULL or `size` readable bytes;
/// `result` NULL or writable. The inputs must not change during the call.
///
/// Thread safety: may run on any number of threads at once, sharing `options` (which no
/// thread may set meanwhile).
#[no_mangle]
pub unsafe extern "C" fn dxspv_compile(
    options: *const dxspv_options,
    data: *const u8,
    size: usize,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let (opts, input) = unsafe { (options_or_default(options)?, bytes(data, size, "data")?) };
        Ok(dxspv_result::compiled(dxspv::compile(input, opts)?))
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// Compiles dxspv IR text (raw or lowered; `length` bytes of UTF-8, no NUL needed) through
/// the pass pipeline to SPIR-V. The result is as `dxspv_compile`'s.
///
/// # Safety
/// As `dxspv_compile`, with `text` for `data`.
///
/// Thread safety: as `dxspv_compile`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_compile_ir_text(
    options: *const dxspv_options,
    text: *const c_char,
    length: usize,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let (opts, input) = unsafe {
            (
                options_or_default(options)?,
                utf8_text(text, length, "text")?,
            )
        };
        Ok(dxspv_result::compiled(dxspv::compile_ir_text(input, opts)?))
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// Compiles IR binary (from `dxspv_to_ir_binary`, typically kept in a shader cache) to
/// SPIR-V. `stage` says what the IR is: `DXSPV_IR_STAGE_RAW` IR runs through the pass
/// pipeline, `DXSPV_IR_STAGE_LOWERED` IR goes straight to the SPIR-V backend (what makes a
/// cache of lowered IR worth keeping). The bytes are not trusted: damaged bytes or IR the
/// validator rejects are `DXSPV_ERROR_INVALID_INPUT` saying where. The result is as
/// `dxspv_compile`'s, without warnings (the frontend's warnings are not kept in IR).
///
/// # Safety
/// As `dxspv_compile`.
///
/// Thread safety: as `dxspv_compile`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_compile_ir_binary(
    options: *const dxspv_options,
    data: *const u8,
    size: usize,
    stage: dxspv_ir_stage,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let (opts, input) = unsafe { (options_or_default(options)?, bytes(data, size, "data")?) };
        let stage = ir_stage(stage, "stage")?;
        let t = std::time::Instant::now();
        let builder = dxspv::ir::serialize::deserialize(input)?;
        let read = t.elapsed();
        let mut out = dxspv::compile_ir(builder, stage, opts)?;
        out.times.parse += read;
        Ok(dxspv_result::compiled(out))
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// Translates shader bytes to dxspv IR and prints it as IR text (the `dxspv ir` form): the
/// frontend's raw IR (`DXSPV_IR_STAGE_RAW`) or the pass pipeline's output
/// (`DXSPV_IR_STAGE_LOWERED`). The result holds the text (`dxspv_result_text`), warnings and
/// times.
///
/// # Safety
/// As `dxspv_compile`.
///
/// Thread safety: as `dxspv_compile`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_to_ir_text(
    options: *const dxspv_options,
    data: *const u8,
    size: usize,
    stage: dxspv_ir_stage,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let (opts, input) = unsafe { (options_or_default(options)?, bytes(data, size, "data")?) };
        let ir = dxspv::to_ir_timed(input, ir_stage(stage, "stage")?, opts)?;
        Ok(dxspv_result::text(dxspv::ir::text::print(&ir.builder))
            .with_times(ir.times)
            .with_warnings(&ir.warnings))
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// Translates shader bytes to dxspv IR (raw or lowered, as `stage` says) and serializes it:
/// the compact binary form a shader cache keeps and `dxspv_compile_ir_binary` compiles later.
/// The result holds the bytes (`dxspv_result_binary`), warnings and times.
///
/// # Safety
/// As `dxspv_compile`.
///
/// Thread safety: as `dxspv_compile`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_to_ir_binary(
    options: *const dxspv_options,
    data: *const u8,
    size: usize,
    stage: dxspv_ir_stage,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let (opts, input) = unsafe { (options_or_default(options)?, bytes(data, size, "data")?) };
        let ir = dxspv::to_ir_timed(input, ir_stage(stage, "stage")?, opts)?;
        Ok(
            dxspv_result::binary(dxspv::ir::serialize::serialize(&ir.builder))
                .with_times(ir.times)
                .with_warnings(&ir.warnings),
        )
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// Reads IR binary back and prints it as IR text (to look into a shader cache). The bytes
/// are checked as they are read, not validated.
///
/// # Safety
/// `data` must be NULL or `size` readable bytes; `result` NULL or writable.
///
/// Thread safety: may run on any number of threads at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_ir_binary_to_text(
    data: *const u8,
    size: usize,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let input = unsafe { bytes(data, size, "data") }?;
        let builder = dxspv::ir::serialize::deserialize(input)?;
        Ok(dxspv_result::text(dxspv::ir::text::print(&builder)))
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// Disassembles shader bytes in their format's own assembly syntax (fxc-like for DXBC). The
/// result holds the text (`dxspv_result_text`).
///
/// # Safety
/// `data` must be NULL or `size` readable bytes; `result` NULL or writable.
///
/// Thread safety: may run on any number of threads at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_disassemble(
    data: *const u8,
    size: usize,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let input = unsafe { bytes(data, size, "data") }?;
        Ok(dxspv_result::text(dxspv::disassemble(input)?))
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// The reflection of a compile result as a JSON document (the `dxspv compile --reflect`
/// format), in a new text result. `DXSPV_ERROR_INVALID_ARGUMENT` when `compiled` is NULL or
/// holds no reflection.
///
/// # Safety
/// `compiled` must be NULL or a live result; `result` NULL or writable.
///
/// Thread safety: may run on any number of threads at once, also on one `compiled`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_result_reflection_json(
    compiled: *const dxspv_result,
    result: *mut *mut dxspv_result,
) -> dxspv_status {
    let body = || {
        // SAFETY: forwarded from the caller.
        let compiled = unsafe { object(compiled, "compiled") }?;
        let reflection = compiled.source_reflection().ok_or_else(|| {
            Failure::argument("compiled: the result holds no reflection".to_string())
        })?;
        Ok(dxspv_result::text(dxspv::reflection_json(reflection)))
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(result, body) }
}

/// The format of shader bytes, detected from their first bytes (and a container's part
/// table): `DXSPV_FORMAT_DXBC`, `_DXIL`, `_D3D9` or `_UNKNOWN` (also for NULL).
///
/// # Safety
/// `data` must be NULL or `size` readable bytes.
///
/// Thread safety: may run on any number of threads at once.
#[no_mangle]
pub unsafe extern "C" fn dxspv_detect_format(data: *const u8, size: usize) -> dxspv_format {
    guard(
        |_| DXSPV_FORMAT_UNKNOWN,
        || {
            // SAFETY: forwarded from the caller.
            match unsafe { bytes(data, size, "data") } {
                Ok(input) => format_code(dxspv::detect_format(input)),
                Err(_) => DXSPV_FORMAT_UNKNOWN,
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::*;
    use crate::reflection::dxspv_reflection;
    use crate::result::*;
    use crate::test_shaders::*;
    use std::ffi::CStr;
    use std::ptr::{null, null_mut};

    /// A result owned by a test, freed on drop.
    struct Owned(*mut dxspv_result);

    impl Drop for Owned {
        fn drop(&mut self) {
            // SAFETY: the pointer came from an operation and is freed once.
            unsafe { dxspv_result_free(self.0) };
        }
    }

    impl Owned {
        fn status(&self) -> dxspv_status {
            // SAFETY: `self.0` is a live result.
            unsafe { dxspv_result_status(self.0) }
        }
        fn message(&self) -> String {
            // SAFETY: `self.0` is a live result.
            string(unsafe { dxspv_result_error_message(self.0) })
        }
        fn kind(&self) -> String {
            // SAFETY: `self.0` is a live result.
            string(unsafe { dxspv_result_error_kind(self.0) })
        }
        fn spirv(&self) -> Vec<u32> {
            let mut n = 7;
            // SAFETY: `self.0` is a live result.
            let p = unsafe { dxspv_result_spirv(self.0, &mut n) };
            if p.is_null() {
                assert_eq!(n, 0);
                return Vec::new();
            }
            // SAFETY: the result holds `n` words at `p`.
            unsafe { std::slice::from_raw_parts(p, n) }.to_vec()
        }
        fn text(&self) -> Option<String> {
            let mut n = 7;
            // SAFETY: `self.0` is a live result.
            let p = unsafe { dxspv_result_text(self.0, &mut n) };
            // SAFETY: a NUL-terminated text of `n` bytes.
            (!p.is_null()).then(|| {
                let s = string(p);
                assert_eq!(s.len(), n);
                s
            })
        }
        fn binary(&self) -> Vec<u8> {
            let mut n = 7;
            // SAFETY: `self.0` is a live result.
            let p = unsafe { dxspv_result_binary(self.0, &mut n) };
            if p.is_null() {
                assert_eq!(n, 0);
                return Vec::new();
            }
            // SAFETY: the result holds `n` bytes at `p`.
            unsafe { std::slice::from_raw_parts(p, n) }.to_vec()
        }
        fn reflection(&self) -> Option<&dxspv_reflection> {
            // SAFETY: NULL or a pointer into the live result.
            unsafe { dxspv_result_reflection(self.0).as_ref() }
        }
        fn warnings(&self) -> Vec<String> {
            // SAFETY: `self.0` is a live result.
            let n = unsafe { dxspv_result_warning_count(self.0) };
            // SAFETY: `self.0` is a live result.
            assert!(unsafe { dxspv_result_warning(self.0, n) }.is_null());
            (0..n)
                // SAFETY: `self.0` is a live result.
                .map(|i| string(unsafe { dxspv_result_warning(self.0, i) }))
                .collect()
        }
    }

    fn string(p: *const c_char) -> String {
        assert!(!p.is_null());
        // SAFETY: accessors return NUL-terminated strings owned by a live result.
        unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()
    }

    /// Runs an operation the way C does: out-parameter, status returned and kept.
    fn call(op: impl FnOnce(*mut *mut dxspv_result) -> dxspv_status) -> Owned {
        let mut r = null_mut();
        let status = op(&mut r);
        assert!(
            !r.is_null(),
            "every call with an out-parameter makes a result"
        );
        let owned = Owned(r);
        assert_eq!(owned.status(), status);
        owned
    }

    fn compile(o: *const dxspv_options, bytes: &[u8]) -> Owned {
        // SAFETY: the inputs are live slices, the options NULL or live.
        call(|r| unsafe { dxspv_compile(o, bytes.as_ptr(), bytes.len(), r) })
    }
    fn to_ir_binary(bytes: &[u8], stage: dxspv_ir_stage) -> Owned {
        // SAFETY: the inputs are live slices, the options NULL or live.
        call(|r| unsafe { dxspv_to_ir_binary(null(), bytes.as_ptr(), bytes.len(), stage, r) })
    }
    fn to_ir_text(bytes: &[u8], stage: dxspv_ir_stage) -> Owned {
        // SAFETY: the inputs are live slices, the options NULL or live.
        call(|r| unsafe { dxspv_to_ir_text(null(), bytes.as_ptr(), bytes.len(), stage, r) })
    }
    fn compile_ir_binary(bytes: &[u8], stage: dxspv_ir_stage) -> Owned {
        // SAFETY: the inputs are live slices, the options NULL or live.
        call(|r| unsafe { dxspv_compile_ir_binary(null(), bytes.as_ptr(), bytes.len(), stage, r) })
    }
    fn compile_ir_text(text: &str) -> Owned {
        // SAFETY: the inputs are live slices, the options NULL or live.
        call(|r| unsafe { dxspv_compile_ir_text(null(), text.as_ptr().cast(), text.len(), r) })
    }

    #[test]
    fn compile_gives_valid_spirv_and_reflection_shaped_by_the_options() {
        let o = dxspv_options_create();
        // SAFETY: `o` is live and used by this thread only.
        unsafe {
            dxspv_options_set_binding_shift(o, DXSPV_REGISTER_CLASS_UAV, 7);
            dxspv_options_set_descriptor_set_offset(o, 2);
        }
        let r = compile(o, &tiny_compute_shader());
        // SAFETY: `o` is not used again.
        unsafe { dxspv_options_free(o) };
        assert_eq!(r.status(), DXSPV_OK, "{}", r.message());
        assert_eq!((r.message(), r.kind()), (String::new(), String::new()));
        let spirv = r.spirv();
        let direct = dxspv::compile(&tiny_compute_shader(), &dxspv::Options::default()).unwrap();
        assert_eq!(spirv.len(), direct.spirv.len());
        dxspv_testkit::assert_spirv_valid("tiny compute shader", &spirv);
        let refl = r.reflection().unwrap();
        assert_eq!(refl.resource_count, 1);
        // SAFETY: one resource, owned by `r`.
        let uav = unsafe { &*refl.resources };
        assert_eq!(
            (uav.register_class, uav.space, uav.register_index),
            (DXSPV_REGISTER_CLASS_UAV, 0, 0)
        );
        assert_eq!((uav.set, uav.binding, uav.count), (2, 7, 1));
        assert_eq!(uav.descriptor_type, DXSPV_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        assert_eq!(string(uav.name), "u0");
        assert_eq!(
            refl.input_count + refl.output_count + refl.push_data_count,
            0
        );
        assert!(r.warnings().is_empty());
        assert_eq!((r.text(), r.binary()), (None, Vec::new()));
        // SAFETY: the times live in `r`.
        let t = unsafe { &*dxspv_result_times(r.0) };
        assert!(t.parse_ns > 0 && t.passes_ns > 0 && t.spirv_ns > 0, "{t:?}");
    }

    #[test]
    fn pipeline_state_that_does_not_fit_the_shader_is_refused_by_the_compile() {
        use crate::pipeline_state::*;
        let shader = tiny_compute_shader();
        // A compute shader does not stream out: the options are at fault.
        let entry = dxspv_stream_output_entry {
            stream: 0,
            semantic_name: c"SV_Position".as_ptr(),
            semantic_index: 0,
            start_component: 0,
            component_count: 4,
            output_slot: 0,
        };
        let stride = 16u32;
        let o = dxspv_options_create();
        // SAFETY: `o` is live and used by this thread only; the arrays are live.
        let set = unsafe { dxspv_options_set_stream_output(o, &entry, 1, &stride, 1, 0) };
        assert_eq!(set, DXSPV_OK);
        let r = compile(o, &shader);
        assert_eq!(r.status(), DXSPV_ERROR_INVALID_ARGUMENT, "{}", r.message());
        assert!(r.message().contains("stream"), "{}", r.message());
        // Cleared, the shader compiles again.
        // SAFETY: `o` is live.
        unsafe { dxspv_options_clear_stream_output(o) };
        assert_eq!(compile(o, &shader).status(), DXSPV_OK);
        // A class instance for a shader without interface slots.
        let binding = dxspv_interface_binding {
            function_table: DXSPV_FIRST_FUNCTION_TABLE,
            constant_buffer: 0,
            constant_vector_offset: 0,
            texture_offset: 0,
            sampler_offset: 0,
        };
        // SAFETY: `o` is live; the array is live.
        unsafe { dxspv_options_set_class_linkage(o, &binding, 1) };
        let r = compile(o, &shader);
        assert_eq!(r.status(), DXSPV_ERROR_INVALID_INPUT, "{}", r.message());
        // SAFETY: `o` is not used again.
        unsafe { dxspv_options_free(o) };
    }

    #[test]
    fn target_env_and_d3d9_state_reach_the_compile() {
        use crate::d3d9_options::*;
        let shader = tiny_compute_shader();
        let o = dxspv_options_create();
        // SAFETY: `o` is live and used by this thread only.
        unsafe {
            dxspv_options_set_target_env(o, DXSPV_TARGET_ENV_VULKAN1_1);
            // Direct3D 9 state changes nothing for a DXBC shader.
            dxspv_options_set_d3d9_flat_shading(o, true);
            dxspv_options_set_d3d9_sampler_type(o, 0, DXSPV_D3D9_TEXTURE_TYPE_CUBE);
        }
        let r = compile(o, &shader);
        // SAFETY: `o` is not used again.
        unsafe { dxspv_options_free(o) };
        assert_eq!(r.status(), DXSPV_OK, "{}", r.message());
        let words = r.spirv();
        assert_eq!(words[1], 0x0001_0300, "SPIR-V 1.3 for Vulkan 1.1");
        let mut opts = dxspv::Options::default();
        opts.spirv.target_env = dxspv::spirv::TargetEnv::Vulkan1_1;
        assert_eq!(words, dxspv::compile(&shader, &opts).unwrap().spirv);
        if let Some(verdict) = dxspv_testkit::spirv_val_with(&words, &["--target-env", "vulkan1.1"])
        {
            verdict.unwrap();
        }
        let refl = r.reflection().unwrap();
        assert_eq!(refl.target_env, DXSPV_TARGET_ENV_VULKAN1_1);
        assert_eq!(refl.workgroup_size, [1, 1, 1]);
        assert_eq!(refl.vk_shader_stage, 0x20);
    }

    #[test]
    fn a_checksum_mismatch_is_a_warning_unless_checks_are_off() {
        let mut signed = tiny_compute_shader();
        signed[4..20].copy_from_slice(&[1; 16]); // a checksum that does not match
        let r = compile(null(), &signed);
        assert_eq!(r.status(), DXSPV_OK);
        let w = r.warnings();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("checksum"), "{w:?}");
        let o = dxspv_options_create();
        // SAFETY: `o` is live.
        unsafe { dxspv_options_set_verify_checksum(o, false) };
        assert!(compile(o, &signed).warnings().is_empty());
        // SAFETY: `o` is not used again.
        unsafe { dxspv_options_free(o) };
    }

    #[test]
    fn every_failure_has_its_code_category_and_message() {
        let r = compile(null(), b"not a shader");
        assert_eq!(
            (r.status(), r.kind().as_str()),
            (DXSPV_ERROR_UNKNOWN_FORMAT, "unknown-format")
        );
        assert!(
            r.message().starts_with("unrecognised input"),
            "{}",
            r.message()
        );
        assert!(r.spirv().is_empty() && r.reflection().is_none());

        // A DXIL container whose DXIL part is empty: the DXIL reader refuses it as input.
        let r = compile(null(), &dxil_container());
        assert_eq!(
            (r.status(), r.kind().as_str()),
            (DXSPV_ERROR_INVALID_INPUT, "dxil-container"),
            "{}",
            r.message()
        );

        let r = compile(null(), &aborting_compute_shader());
        assert_eq!(
            (r.status(), r.kind().as_str()),
            (DXSPV_ERROR_UNSUPPORTED_FEATURE, "convert-unsupported")
        );
        assert!(r.message().contains("abort"), "{}", r.message());

        let shader = tiny_compute_shader();
        let r = compile(null(), &shader[..shader.len() - 8]);
        assert_eq!(r.status(), DXSPV_ERROR_INVALID_INPUT, "{}", r.message());
        assert!(r.kind().starts_with("dxbc"), "{}", r.kind());

        let r = compile_ir_text("%1 = NoSuchOp");
        assert_eq!(
            (r.status(), r.kind().as_str()),
            (DXSPV_ERROR_INVALID_INPUT, "ir-text")
        );

        let r = compile_ir_binary(&[0xff], DXSPV_IR_STAGE_LOWERED);
        assert_eq!(
            (r.status(), r.kind().as_str()),
            (DXSPV_ERROR_INVALID_INPUT, "ir-binary")
        );
        assert!(
            r.message().starts_with("IR binary: byte 0"),
            "{}",
            r.message()
        );
    }

    #[test]
    fn bad_arguments_are_errors_naming_the_parameter() {
        let data = tiny_compute_shader();
        // SAFETY: every pointer is NULL, or live and aligned where the test needs it.
        unsafe {
            assert_eq!(
                dxspv_compile(null(), data.as_ptr(), data.len(), null_mut()),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            let r = call(|r| dxspv_compile(null(), null(), 5, r));
            assert_eq!(r.status(), DXSPV_ERROR_INVALID_ARGUMENT);
            assert_eq!(
                (r.kind().as_str(), r.message().as_str()),
                ("invalid-argument", "data is NULL but its size is 5")
            );
            let r = call(|r| dxspv_compile(null(), null(), 0, r));
            assert_eq!(
                r.status(),
                DXSPV_ERROR_UNKNOWN_FORMAT,
                "empty input is input"
            );
            let r = call(|r| dxspv_compile(null(), data.as_ptr(), usize::MAX, r));
            assert_eq!(r.status(), DXSPV_ERROR_INVALID_ARGUMENT);
            let odd = std::ptr::dangling::<u8>().cast::<dxspv_options>();
            let r = call(|r| dxspv_compile(odd, data.as_ptr(), data.len(), r));
            assert_eq!(r.message(), "options is misaligned: not a dxspv object");
            let r = call(|r| dxspv_to_ir_text(null(), data.as_ptr(), data.len(), 9, r));
            assert_eq!(r.message(), "stage: 9 is not a dxspv_ir_stage value");
            let r = call(|r| dxspv_compile_ir_text(null(), b"\xff".as_ptr().cast(), 1, r));
            assert_eq!(r.message(), "text is not UTF-8: invalid byte at offset 0");
            let r = call(|r| dxspv_result_reflection_json(null(), r));
            assert_eq!(r.message(), "compiled is NULL");
            let text = call(|r| dxspv_disassemble(data.as_ptr(), data.len(), r));
            let r = call(|r| dxspv_result_reflection_json(text.0, r));
            assert_eq!(r.message(), "compiled: the result holds no reflection");
            assert_eq!(dxspv_detect_format(null(), 4), DXSPV_FORMAT_UNKNOWN);

            // Accessors and frees take NULL.
            assert_eq!(dxspv_result_status(null()), DXSPV_ERROR_INVALID_ARGUMENT);
            assert!(dxspv_result_error_message(null()).is_null());
            assert!(dxspv_result_error_kind(null()).is_null());
            let mut n = 3;
            assert!(dxspv_result_spirv(null(), &mut n).is_null());
            assert_eq!(n, 0);
            assert!(dxspv_result_text(null(), null_mut()).is_null());
            assert!(dxspv_result_binary(null(), null_mut()).is_null());
            assert!(dxspv_result_reflection(null()).is_null());
            assert!(dxspv_result_times(null()).is_null());
            assert_eq!(dxspv_result_warning_count(null()), 0);
            assert!(dxspv_result_warning(null(), 0).is_null());
            dxspv_result_free(null_mut());
        }
    }

    #[test]
    fn ir_binary_kept_from_a_shader_compiles_like_the_shader() {
        let shader = tiny_compute_shader();
        let direct = compile(null(), &shader).spirv();
        for stage in [DXSPV_IR_STAGE_RAW, DXSPV_IR_STAGE_LOWERED] {
            let kept = to_ir_binary(&shader, stage);
            assert_eq!(kept.status(), DXSPV_OK, "{}", kept.message());
            let bytes = kept.binary();
            let r = compile_ir_binary(&bytes, stage);
            assert_eq!(r.status(), DXSPV_OK, "{}", r.message());
            // Serialization renumbers ids; the module is as long and as valid.
            assert_eq!(r.spirv().len(), direct.len());
            dxspv_testkit::assert_spirv_valid("kept IR", &r.spirv());
            assert!(r.reflection().is_some());

            // Its text is the text of the same IR read back in Rust.
            // SAFETY: a live byte slice.
            let text = call(|r| unsafe { dxspv_ir_binary_to_text(bytes.as_ptr(), bytes.len(), r) });
            let builder = dxspv::ir::serialize::deserialize(&bytes).unwrap();
            assert_eq!(text.text().unwrap(), dxspv::ir::text::print(&builder));
        }
        // Raw IR is not lowered IR: the validator says so.
        let raw = to_ir_binary(&shader, DXSPV_IR_STAGE_RAW).binary();
        let r = compile_ir_binary(&raw, DXSPV_IR_STAGE_LOWERED);
        assert_eq!(
            (r.status(), r.kind().as_str()),
            (DXSPV_ERROR_INVALID_INPUT, "pass")
        );
        assert!(
            r.message().contains("validation failed after input"),
            "{}",
            r.message()
        );
    }

    #[test]
    fn texts_are_what_the_rust_library_prints() {
        let shader = tiny_compute_shader();
        let opts = dxspv::Options::default();
        for (stage, rust) in [
            (DXSPV_IR_STAGE_RAW, dxspv::IrStage::Raw),
            (DXSPV_IR_STAGE_LOWERED, dxspv::IrStage::Lowered),
        ] {
            let expected = dxspv::ir::text::print(&dxspv::to_ir(&shader, rust, &opts).unwrap());
            assert_eq!(to_ir_text(&shader, stage).text().unwrap(), expected);
        }
        // SAFETY: a live byte slice.
        let d = call(|r| unsafe { dxspv_disassemble(shader.as_ptr(), shader.len(), r) });
        assert_eq!(d.text().unwrap(), dxspv::disassemble(&shader).unwrap());
        let compiled = compile(null(), &shader);
        // SAFETY: a live result.
        let json = call(|r| unsafe { dxspv_result_reflection_json(compiled.0, r) });
        let direct = dxspv::compile(&shader, &opts).unwrap();
        assert_eq!(
            json.text().unwrap(),
            dxspv::reflection_json(&direct.reflection)
        );
        // The IR text compiles back.
        let lowered = to_ir_text(&shader, DXSPV_IR_STAGE_LOWERED).text().unwrap();
        assert_eq!(compile_ir_text(&lowered).status(), DXSPV_OK);
        // SAFETY: live byte slices.
        unsafe {
            assert_eq!(
                dxspv_detect_format(shader.as_ptr(), shader.len()),
                DXSPV_FORMAT_DXBC
            );
            let d9 = 0xfffe_0300u32.to_le_bytes();
            assert_eq!(dxspv_detect_format(d9.as_ptr(), 4), DXSPV_FORMAT_D3D9);
        }
    }

    #[test]
    fn threads_compile_at_once_sharing_one_options_object() {
        struct Shared(*mut dxspv_options);
        // SAFETY: the options are set up before the threads start and only read by them.
        unsafe impl Sync for Shared {}
        impl Shared {
            /// The pointer (a method, so closures capture the whole `Sync` wrapper).
            fn get(&self) -> *mut dxspv_options {
                self.0
            }
        }
        let o = Shared(dxspv_options_create());
        // SAFETY: not shared yet.
        unsafe { dxspv_options_set_binding_shift(o.0, DXSPV_REGISTER_CLASS_UAV, 9) };
        let shader = tiny_compute_shader();
        let expected = compile(o.0, &shader).spirv();
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..20 {
                        let r = compile(o.get(), &shader);
                        assert_eq!(r.spirv(), expected);
                        // SAFETY: one resource, owned by `r`.
                        assert_eq!(unsafe { (*r.reflection().unwrap().resources).binding }, 9);
                    }
                });
            }
        });
        // SAFETY: the threads are done.
        unsafe { dxspv_options_free(o.0) };
    }

    #[test]
    fn a_panic_in_an_operation_becomes_an_internal_error_result() {
        let mut r = null_mut();
        // SAFETY: `r` is writable.
        let status = unsafe { finish(&mut r, || panic!("deliberate")) };
        let owned = Owned(r);
        assert_eq!(
            (status, owned.status()),
            (DXSPV_ERROR_INTERNAL, DXSPV_ERROR_INTERNAL)
        );
        assert_eq!(owned.kind(), "panic");
        assert!(
            owned.message().ends_with("panic: deliberate"),
            "{}",
            owned.message()
        );
    }
}

/// What the C boundary costs over the Rust library (run with `cargo test -p dxspv-capi
/// --release --lib -- --ignored --nocapture boundary_cost`): best of five passes over the DXBC
/// corpus through `dxspv::compile` and through `dxspv_compile` with its result freed, and the
/// conversion to a C result alone.
#[cfg(test)]
mod cost {
    use super::*;
    use std::time::{Duration, Instant};

    fn best(mut pass: impl FnMut()) -> Duration {
        (0..5)
            .map(|_| {
                let t = Instant::now();
                pass();
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    }

    #[test]
    #[ignore = "a measurement, not a check"]
    fn boundary_cost() {
        let Some(corpus) = dxspv_testkit::Corpus::open() else {
            return;
        };
        let inputs: Vec<Vec<u8>> = corpus
            .of_format("dxbc")
            .iter()
            .map(|e| corpus.read(e))
            .collect();
        let opts = dxspv::Options::default();
        let rust_pass = || {
            for b in &inputs {
                let _ = std::hint::black_box(dxspv::compile(b, &opts));
            }
        };
        let c_pass = || {
            for b in &inputs {
                let mut r = std::ptr::null_mut();
                // SAFETY: a live slice and a writable out-parameter; the result is freed once.
                unsafe {
                    dxspv_compile(std::ptr::null(), b.as_ptr(), b.len(), &mut r);
                    crate::result::dxspv_result_free(r);
                }
            }
        };
        // Alternating passes, so both see the same machine load.
        let (mut rust, mut c) = (Duration::MAX, Duration::MAX);
        for _ in 0..10 {
            rust = rust.min(best(rust_pass));
            c = c.min(best(c_pass));
        }
        let outputs: Vec<dxspv::Output> = inputs
            .iter()
            .filter_map(|b| dxspv::compile(b, &opts).ok())
            .collect();
        let convert = best(|| {
            for o in &outputs {
                std::hint::black_box(dxspv_result::compiled(o.clone()));
            }
        });
        let clone = best(|| {
            for o in &outputs {
                std::hint::black_box(o.clone());
            }
        });
        // The shader-cache path: lowered IR kept as bytes, compiled later (read, validated,
        // emitted), against compiling the shader.
        let kept: Vec<Vec<u8>> = inputs
            .iter()
            .filter_map(|b| dxspv::to_ir(b, dxspv::IrStage::Lowered, &opts).ok())
            .map(|ir| dxspv::ir::serialize::serialize(&ir))
            .collect();
        let cached = best(|| {
            for k in &kept {
                let mut r = std::ptr::null_mut();
                // SAFETY: a live slice and a writable out-parameter; the result is freed once.
                unsafe {
                    dxspv_compile_ir_binary(
                        std::ptr::null(),
                        k.as_ptr(),
                        k.len(),
                        DXSPV_IR_STAGE_LOWERED,
                        &mut r,
                    );
                    crate::result::dxspv_result_free(r);
                }
            }
        });
        let builders: Vec<_> = kept
            .iter()
            .filter_map(|k| dxspv::ir::serialize::deserialize(k).ok())
            .collect();
        let validation = best(|| {
            for b in &builders {
                let _ = std::hint::black_box(dxspv::ir::validate(b, dxspv::ir::Level::Lowered));
            }
        });
        println!(
            "{} lowered IR binaries ({} bytes): dxspv_compile_ir_binary {cached:?}, of which validation {validation:?}",
            kept.len(),
            kept.iter().map(Vec::len).sum::<usize>()
        );
        println!(
            "{} shaders: dxspv::compile {rust:?}, dxspv_compile {c:?} (+{:.2} %); \
             conversion to C results {:?} ({:.1} µs per shader)",
            inputs.len(),
            (c.as_secs_f64() / rust.as_secs_f64() - 1.0) * 100.0,
            convert.saturating_sub(clone),
            convert.saturating_sub(clone).as_secs_f64() * 1e6 / outputs.len() as f64
        );
    }
}
