//! `dxspv_options`: an opaque options object with one setter per option.
//!
//! The object wraps [`dxspv::Options`] (the pass pipeline's, the SPIR-V backend's and the
//! frontends' options). C code never sees its layout, so an option added to the library is a
//! new setter and nothing else: no struct grows, no ABI breaks. A new object holds the
//! defaults, which give correct D3D behaviour.
//!
//! Every setter returns `DXSPV_OK`, or `DXSPV_ERROR_INVALID_ARGUMENT` for a NULL object or an
//! out-of-range value (leaving the object unchanged). Setters need exclusive access; once set
//! up, one object may be read by any number of compiles on any number of threads at once.

use crate::codes::*;
use crate::guard::{c_str, guard, object_mut, Failure};
use dxspv::spirv::RegisterClass;
use std::ffi::c_char;

/// Options for every operation: opaque, created by `dxspv_options_create`, freed by
/// `dxspv_options_free`.
pub struct dxspv_options {
    pub(crate) inner: dxspv::Options,
}

/// Creates an options object holding the defaults. Returns NULL only if the library failed
/// internally. Free it with `dxspv_options_free`.
///
/// Thread safety: may be called from any thread; the new object belongs to the caller.
#[no_mangle]
pub extern "C" fn dxspv_options_create() -> *mut dxspv_options {
    guard(
        |_| std::ptr::null_mut(),
        || {
            Box::into_raw(Box::new(dxspv_options {
                inner: dxspv::Options::default(),
            }))
        },
    )
}

/// Creates a copy of `options` (for a variant of a common set-up). Returns NULL when
/// `options` is NULL. Free the copy with `dxspv_options_free`.
///
/// # Safety
/// `options` must be NULL or a live object from `dxspv_options_create` or
/// `dxspv_options_clone`.
///
/// Thread safety: may run while other threads read `options`, not while one sets it.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_clone(options: *const dxspv_options) -> *mut dxspv_options {
    guard(
        |_| std::ptr::null_mut(),
        || {
            // SAFETY: the caller passes NULL or a live options object nobody is setting.
            match unsafe { crate::guard::object(options, "options") } {
                Ok(o) => Box::into_raw(Box::new(dxspv_options {
                    inner: o.inner.clone(),
                })),
                Err(_) => std::ptr::null_mut(),
            }
        },
    )
}

/// Frees an options object. NULL is ignored. Results made with it stay valid.
///
/// # Safety
/// `options` must be NULL or a live object from `dxspv_options_create` or
/// `dxspv_options_clone`, not used again afterwards.
///
/// Thread safety: needs exclusive access to `options`: no other thread may use it.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_free(options: *mut dxspv_options) {
    guard(
        |_| (),
        || {
            if !options.is_null() && options.is_aligned() {
                // SAFETY: the caller passes a live object made by `Box::into_raw` above and
                // gives up its ownership.
                drop(unsafe { Box::from_raw(options) });
            }
        },
    )
}

/// Runs a setter: checks the object, applies `set` to its options, maps failures to a status.
/// `set` checks every argument before it changes anything, so a refused call leaves the
/// object as it was.
///
/// # Safety
/// `options` must be NULL or a live options object no other thread uses during the call.
pub(crate) unsafe fn set(
    options: *mut dxspv_options,
    set: impl FnOnce(&mut dxspv::Options) -> Result<(), Failure>,
) -> dxspv_status {
    guard(
        |_| DXSPV_ERROR_INTERNAL,
        || {
            // SAFETY: forwarded from the caller.
            let result = unsafe { object_mut(options, "options") }.and_then(|o| set(&mut o.inner));
            match result {
                Ok(()) => DXSPV_OK,
                Err(f) => f.status,
            }
        },
    )
}

/// Sets how HLSL min-precision types are lowered: `DXSPV_MIN_PRECISION_PROMOTE32` (default)
/// or `DXSPV_MIN_PRECISION_NATIVE16`.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_min_precision(
    options: *mut dxspv_options,
    mode: dxspv_min_precision,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.min_precision = min_precision(mode, "mode")?;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Keeps D3D9's rule that `0 * anything = 0` (infinity and NaN included) in legacy
/// multiplies, dot products and powers (default: true). False gives plain IEEE multiplies.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_preserve_legacy_mul_zero(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.preserve_legacy_mul_zero = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Turns every optional optimisation pass on (the default) or off at once: constant
/// folding, arithmetic simplification, CSE, DCE, CFG cleanup and the removal of unused
/// declarations. The mandatory lowerings always run.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_optimisations(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.constant_fold = value;
        o.passes.simplify_arith = value;
        o.passes.cse = value;
        o.passes.dce = value;
        o.passes.cfg_cleanup = value;
        o.passes.remove_unused_declarations = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Runs constant folding (default: true).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_constant_fold(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.constant_fold = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Runs arithmetic simplification (default: true).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_simplify_arith(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.simplify_arith = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Runs common subexpression elimination (default: true).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_cse(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.cse = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Runs dead code elimination (default: true).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_dce(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.dce = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Runs CFG cleanup: constant branches, trivial blocks (default: true).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_cfg_cleanup(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.cfg_cleanup = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Removes declarations nothing uses (default: true). Off keeps every declared resource
/// and I/O variable in the module and its reflection.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_remove_unused_declarations(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.remove_unused_declarations = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets the most rounds of the fold / simplify / CSE / DCE loop (default: 4; it stops
/// earlier once a round changes nothing).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_max_optimisation_rounds(
    options: *mut dxspv_options,
    rounds: u32,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.max_optimisation_rounds = rounds;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Runs the IR validator after every pass and fails naming the pass that broke an
/// invariant (default: false in release builds of the library). For debugging dxspv.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_validate_each_pass(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.validate_each_pass = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets the name of the SPIR-V entry point (default `"main"`). `name` is copied; it must be
/// a NUL-terminated UTF-8 string.
///
/// # Safety
/// `options` must be NULL or a live options object; `name` NULL or a NUL-terminated string.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_entry_point_name(
    options: *mut dxspv_options,
    name: *const c_char,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let name = unsafe { c_str(name, "name") }?;
        o.spirv.entry_point_name = name.to_string();
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Leaves out `OpName` debug names (default: false, names kept).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_strip_debug_names(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.spirv.strip_debug_names = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets the binding shift of one register class: `register(xN, spaceM)` of class `class`
/// goes to binding `N + shift` (for `DXSPV_REGISTER_CLASS_UAV_COUNTER`, the counter of
/// `uN`). Defaults: CBV 0, SRV 1000, UAV 2000, sampler 3000, UAV counter 4000.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_binding_shift(
    options: *mut dxspv_options,
    class: dxspv_register_class,
    shift: u32,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        let b = &mut o.spirv.bindings;
        *match register_class(class, "class")? {
            RegisterClass::Cbv => &mut b.b_shift,
            RegisterClass::Srv => &mut b.t_shift,
            RegisterClass::Uav => &mut b.u_shift,
            RegisterClass::Sampler => &mut b.s_shift,
            RegisterClass::UavCounter => &mut b.counter_shift,
        } = shift;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets what is added to every register space to form the descriptor set: `spaceM` goes to
/// set `M + offset` (default 0).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_descriptor_set_offset(
    options: *mut dxspv_options,
    offset: u32,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.spirv.bindings.set_offset = offset;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Translates the shader's float mode into SPIR-V float-controls execution modes
/// (rounding, denormals, signed zero / inf / NaN preservation; default: true). Each mode
/// needs the matching `VkPhysicalDeviceFloatControlsProperties` bit; turn this off for
/// devices that lack them.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_float_controls(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.spirv.float_controls = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Makes vertex shaders that write no point size write `PointSize = 1.0` (default: true), as
/// Direct3D 10+ draws points one pixel wide and Vulkan needs a point size for point lists
/// unless the device has `maintenance5`.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_vertex_point_size(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.spirv.vertex_point_size = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Marks descriptor loads whose run-time index differs between invocations `NonUniform`
/// where the shader forgot `NonUniformResourceIndex` (default: false): a workaround for
/// games that rely on undefined behaviour.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_infer_non_uniform(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.passes.infer_non_uniform = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets the environment the SPIR-V module is written for (default
/// `DXSPV_TARGET_ENV_VULKAN1_3`: SPIR-V 1.6 with the Vulkan memory model). It decides the
/// module's version word, its memory model (`GLSL450` before `VULKAN1_3` / `SPIRV1_5`) and
/// the forms older versions need: extensions for what their core lacks (draw parameters,
/// multiview, float controls, descriptor indexing, viewport/layer output, demote to helper),
/// `Uniform` + `BufferBlock` buffers before SPIR-V 1.3, member-wise copies and selects before
/// 1.4. A shader using a feature the target has no form for fails to compile, naming it.
/// The reflection reports the target (`dxspv_reflection::target_env`).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_target_env(
    options: *mut dxspv_options,
    env: dxspv_target_env,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.spirv.target_env = target_env(env, "env")?;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets the generator word of the SPIR-V header: a tool id registered with Khronos in the
/// high 16 bits, the tool's version in the low 16 (default 0, which the SPIR-V specification
/// allows for a tool without a registered id; dxspv has none). A program with its own id, or
/// that tags its modules, sets it here; nothing else in the module changes.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_generator(
    options: *mut dxspv_options,
    generator: u32,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.spirv.generator = generator;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Computes the container checksum and reports a mismatch as a warning (default: true).
/// It is the costliest part of reading a small container; a program that never shows
/// warnings may turn it off.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_verify_checksum(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.verify_checksum = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxspv::ir::passes::options::MinPrecisionMode;

    /// Creates options, runs `f` on them and frees them.
    fn with_options(f: impl FnOnce(*mut dxspv_options)) {
        let o = dxspv_options_create();
        assert!(!o.is_null());
        f(o);
        // SAFETY: `o` is live and not used afterwards.
        unsafe { dxspv_options_free(o) };
    }

    /// The options inside a live object.
    fn inner<'a>(o: *mut dxspv_options) -> &'a dxspv::Options {
        // SAFETY: tests pass live objects only.
        unsafe { &(*o).inner }
    }

    #[test]
    fn every_setter_sets_its_option() {
        with_options(|o| {
            // SAFETY: `o` is live and used by this thread only.
            unsafe {
                assert_eq!(
                    dxspv_options_set_min_precision(o, DXSPV_MIN_PRECISION_NATIVE16),
                    DXSPV_OK
                );
                assert_eq!(
                    dxspv_options_set_preserve_legacy_mul_zero(o, false),
                    DXSPV_OK
                );
                assert_eq!(dxspv_options_set_max_optimisation_rounds(o, 9), DXSPV_OK);
                assert_eq!(dxspv_options_set_validate_each_pass(o, true), DXSPV_OK);
                assert_eq!(
                    dxspv_options_set_entry_point_name(o, c"vs_main".as_ptr()),
                    DXSPV_OK
                );
                assert_eq!(dxspv_options_set_strip_debug_names(o, true), DXSPV_OK);
                for (class, shift) in [(0, 10), (1, 11), (2, 12), (3, 13), (4, 14)] {
                    assert_eq!(dxspv_options_set_binding_shift(o, class, shift), DXSPV_OK);
                }
                assert_eq!(dxspv_options_set_descriptor_set_offset(o, 3), DXSPV_OK);
                assert_eq!(dxspv_options_set_float_controls(o, false), DXSPV_OK);
                assert_eq!(dxspv_options_set_verify_checksum(o, false), DXSPV_OK);
                assert_eq!(dxspv_options_set_vertex_point_size(o, false), DXSPV_OK);
                assert_eq!(dxspv_options_set_infer_non_uniform(o, true), DXSPV_OK);
                assert_eq!(
                    dxspv_options_set_target_env(o, DXSPV_TARGET_ENV_SPIRV1_4),
                    DXSPV_OK
                );
                assert_eq!(dxspv_options_set_generator(o, 0x00ab_0003), DXSPV_OK);
            }
            let i = inner(o);
            assert_eq!(i.passes.min_precision, MinPrecisionMode::Native16);
            assert!(!i.passes.preserve_legacy_mul_zero);
            assert_eq!(i.passes.max_optimisation_rounds, 9);
            assert!(i.passes.validate_each_pass);
            assert_eq!(i.spirv.entry_point_name, "vs_main");
            assert!(i.spirv.strip_debug_names);
            assert!(!i.spirv.vertex_point_size);
            assert!(i.passes.infer_non_uniform);
            assert_eq!(i.spirv.target_env, dxspv::spirv::TargetEnv::Spirv1_4);
            assert_eq!(i.spirv.generator, 0x00ab_0003);
            let b = &i.spirv.bindings;
            assert_eq!(
                [
                    b.b_shift,
                    b.t_shift,
                    b.u_shift,
                    b.s_shift,
                    b.counter_shift,
                    b.set_offset
                ],
                [10, 11, 12, 13, 14, 3]
            );
            assert!(!i.spirv.float_controls);
            assert!(!i.verify_checksum);
        });
    }

    #[test]
    fn pass_switches_are_set_one_by_one_or_all_at_once() {
        with_options(|o| {
            let switches = |o| {
                let p = &inner(o).passes;
                [
                    p.constant_fold,
                    p.simplify_arith,
                    p.cse,
                    p.dce,
                    p.cfg_cleanup,
                    p.remove_unused_declarations,
                ]
            };
            assert_eq!(switches(o), [true; 6]);
            // SAFETY: `o` is live and used by this thread only.
            unsafe {
                assert_eq!(dxspv_options_set_optimisations(o, false), DXSPV_OK);
                assert_eq!(switches(o), [false; 6]);
                dxspv_options_set_constant_fold(o, true);
                dxspv_options_set_simplify_arith(o, true);
                dxspv_options_set_cse(o, true);
                assert_eq!(switches(o), [true, true, true, false, false, false]);
                dxspv_options_set_dce(o, true);
                dxspv_options_set_cfg_cleanup(o, true);
                dxspv_options_set_remove_unused_declarations(o, true);
                assert_eq!(switches(o), [true; 6]);
            }
        });
    }

    #[test]
    fn bad_arguments_are_refused_and_change_nothing() {
        with_options(|o| {
            let bad = b"\xff\xfe\0";
            // SAFETY: `o` is live; pointers are NULL or valid strings.
            unsafe {
                assert_eq!(
                    dxspv_options_set_min_precision(o, 2),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
                assert_eq!(
                    dxspv_options_set_binding_shift(o, 5, 1),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
                assert_eq!(
                    dxspv_options_set_target_env(o, 11),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
                assert_eq!(
                    dxspv_options_set_generator(std::ptr::null_mut(), 1),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
                assert_eq!(
                    dxspv_options_set_entry_point_name(o, std::ptr::null()),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
                assert_eq!(
                    dxspv_options_set_entry_point_name(o, bad.as_ptr().cast()),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
                assert_eq!(
                    dxspv_options_set_cse(std::ptr::null_mut(), true),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
                assert_eq!(
                    dxspv_options_set_binding_shift(std::ptr::null_mut(), 0, 1),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
            }
            let d = dxspv::Options::default();
            let i = inner(o);
            assert_eq!(i.passes.min_precision, d.passes.min_precision);
            assert_eq!(i.spirv, d.spirv);
        });
    }

    #[test]
    fn clones_are_independent_and_null_is_tolerated() {
        with_options(|o| {
            // SAFETY: `o` and the clone are live; NULL is allowed.
            unsafe {
                dxspv_options_set_descriptor_set_offset(o, 5);
                let c = dxspv_options_clone(o);
                assert!(!c.is_null());
                dxspv_options_set_descriptor_set_offset(c, 6);
                assert_eq!(inner(o).spirv.bindings.set_offset, 5);
                assert_eq!(inner(c).spirv.bindings.set_offset, 6);
                dxspv_options_free(c);
                assert!(dxspv_options_clone(std::ptr::null()).is_null());
                dxspv_options_free(std::ptr::null_mut());
            }
        });
    }
}
