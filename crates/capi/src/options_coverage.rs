//! The test that every option of [`dxspv::Options`] has a C setter.
//!
//! It sets every option through the C API to a value other than its default, then takes the
//! options apart with patterns that name every field and end without `..`: an option added to
//! `dxspv::Options`, or to one of the option structs inside it, stops this test from
//! compiling until it is listed here, which is the moment to give it a setter. Each field is
//! then compared with its default, so a setter that writes the wrong field fails too.

use crate::codes::*;
use crate::d3d9_options::*;
use crate::options::*;
use crate::pipeline_state::*;
use dxspv::ir::passes::options::{MinPrecisionMode, Options as PassOptions};
use dxspv::sm3::{DynamicState, FloatEmulation, Options as D3d9Options, TextureType};
use dxspv::spirv::{BindingModel, SpirvOptions, TargetEnv};

#[test]
fn every_option_of_the_library_has_a_setter() {
    let o = dxspv_options_create();
    let binding = dxspv_interface_binding {
        function_table: 2,
        constant_buffer: 1,
        constant_vector_offset: 3,
        texture_offset: 4,
        sampler_offset: 5,
    };
    let entry = dxspv_stream_output_entry {
        stream: 0,
        semantic_name: c"TEXCOORD".as_ptr(),
        semantic_index: 0,
        start_component: 0,
        component_count: 4,
        output_slot: 0,
    };
    let stride = 16u32;
    // SAFETY: `o` is live and used by this thread only; every pointer is live for the call.
    let statuses = unsafe {
        [
            dxspv_options_set_min_precision(o, DXSPV_MIN_PRECISION_NATIVE16),
            dxspv_options_set_preserve_legacy_mul_zero(o, false),
            dxspv_options_set_constant_fold(o, false),
            dxspv_options_set_simplify_arith(o, false),
            dxspv_options_set_cse(o, false),
            dxspv_options_set_dce(o, false),
            dxspv_options_set_cfg_cleanup(o, false),
            dxspv_options_set_remove_unused_declarations(o, false),
            dxspv_options_set_max_optimisation_rounds(o, 9),
            dxspv_options_set_infer_non_uniform(o, true),
            dxspv_options_set_validate_each_pass(o, !cfg!(debug_assertions)),
            dxspv_options_set_entry_point_name(o, c"vs_main".as_ptr()),
            dxspv_options_set_strip_debug_names(o, true),
            dxspv_options_set_binding_shift(o, DXSPV_REGISTER_CLASS_CBV, 10),
            dxspv_options_set_binding_shift(o, DXSPV_REGISTER_CLASS_SRV, 11),
            dxspv_options_set_binding_shift(o, DXSPV_REGISTER_CLASS_UAV, 12),
            dxspv_options_set_binding_shift(o, DXSPV_REGISTER_CLASS_SAMPLER, 13),
            dxspv_options_set_binding_shift(o, DXSPV_REGISTER_CLASS_UAV_COUNTER, 14),
            dxspv_options_set_descriptor_set_offset(o, 3),
            dxspv_options_set_float_controls(o, false),
            dxspv_options_set_vertex_point_size(o, false),
            dxspv_options_set_target_env(o, DXSPV_TARGET_ENV_VULKAN1_1),
            dxspv_options_set_generator(o, 0x00ab_0003),
            dxspv_options_set_verify_checksum(o, false),
            dxspv_options_set_d3d9_sampler_type(o, 1, DXSPV_D3D9_TEXTURE_TYPE_CUBE),
            dxspv_options_set_d3d9_depth_compare_samplers(o, 0b10),
            dxspv_options_set_d3d9_flat_shading(o, true),
            dxspv_options_set_d3d9_float_emulation(o, DXSPV_D3D9_FLOAT_EMULATION_FAST),
            dxspv_options_set_d3d9_software_vertex_processing(o, true),
            dxspv_options_set_d3d9_dynamic_state(
                o,
                DXSPV_D3D9_DYNAMIC_FOG | DXSPV_D3D9_DYNAMIC_CLIP_PLANES,
            ),
            dxspv_options_set_stream_output(o, &entry, 1, &stride, 1, DXSPV_NO_RASTERIZED_STREAM),
            dxspv_options_set_class_linkage(o, &binding, 1),
        ]
    };
    assert!(statuses.iter().all(|&s| s == DXSPV_OK), "{statuses:?}");
    // SAFETY: `o` is live; it is read here and freed below.
    let set = unsafe { (*o).inner.clone() };
    // SAFETY: `o` is live and not used afterwards.
    unsafe { dxspv_options_free(o) };

    // No `..` in these patterns: a new option fails to compile here until it is listed.
    let dxspv::Options {
        passes,
        spirv,
        verify_checksum,
        d3d9,
        stream_output,
        class_linkage,
    } = set;
    let PassOptions {
        min_precision,
        preserve_legacy_mul_zero,
        constant_fold,
        simplify_arith,
        cse,
        dce,
        cfg_cleanup,
        remove_unused_declarations,
        max_optimisation_rounds,
        infer_non_uniform,
        validate_each_pass,
        // Not in the C API: it only fills per-pass times of the pass pipeline's report, which
        // `dxspv_compile` does not return (the result has the time per stage).
        time_passes: _,
    } = passes;
    let SpirvOptions {
        entry_point_name,
        strip_debug_names,
        bindings,
        float_controls,
        vertex_point_size,
        target_env,
        generator,
    } = spirv;
    let BindingModel {
        b_shift,
        t_shift,
        u_shift,
        s_shift,
        counter_shift,
        set_offset,
    } = bindings;
    let D3d9Options {
        sampler_types,
        depth_compare_samplers,
        flat_shading,
        float_emulation,
        software_vertex_processing,
        dynamic_state,
    } = d3d9;

    let d = dxspv::Options::default();
    assert_eq!(d.passes.min_precision, MinPrecisionMode::Promote32);
    assert_eq!(min_precision, MinPrecisionMode::Native16);
    let switches = [
        preserve_legacy_mul_zero,
        constant_fold,
        simplify_arith,
        cse,
        dce,
        cfg_cleanup,
        remove_unused_declarations,
        float_controls,
        vertex_point_size,
        verify_checksum,
    ];
    let default_switches = [
        d.passes.preserve_legacy_mul_zero,
        d.passes.constant_fold,
        d.passes.simplify_arith,
        d.passes.cse,
        d.passes.dce,
        d.passes.cfg_cleanup,
        d.passes.remove_unused_declarations,
        d.spirv.float_controls,
        d.spirv.vertex_point_size,
        d.verify_checksum,
    ];
    assert_eq!(default_switches, [true; 10]);
    assert_eq!(switches, [false; 10]);
    assert_eq!(
        (infer_non_uniform, strip_debug_names, flat_shading),
        (true, true, true)
    );
    assert!(!d.passes.infer_non_uniform && !d.spirv.strip_debug_names && !d.d3d9.flat_shading);
    assert_eq!(validate_each_pass, !d.passes.validate_each_pass);
    assert_eq!(
        (max_optimisation_rounds, d.passes.max_optimisation_rounds),
        (9, 4)
    );
    assert_eq!(
        (entry_point_name.as_str(), generator),
        ("vs_main", 0x00ab_0003)
    );
    assert_eq!(
        [
            b_shift,
            t_shift,
            u_shift,
            s_shift,
            counter_shift,
            set_offset
        ],
        [10, 11, 12, 13, 14, 3]
    );
    assert_eq!(target_env, TargetEnv::Vulkan1_1);
    assert_ne!(d.spirv.target_env, TargetEnv::Vulkan1_1);
    assert_eq!(sampler_types[1], TextureType::Cube);
    assert_eq!(depth_compare_samplers, 0b10);
    assert_eq!(float_emulation, FloatEmulation::Fast);
    assert!(software_vertex_processing && !d.d3d9.software_vertex_processing);
    assert_eq!(d.d3d9.dynamic_state, DynamicState::NONE);
    assert_eq!(dynamic_state, DynamicState::FOG | DynamicState::CLIP_PLANES);
    let so = stream_output.unwrap_or_default();
    assert_eq!(
        (so.entries.len(), so.strides, so.rasterized_stream),
        (1, vec![16], None)
    );
    assert_eq!(class_linkage.len(), 1);
    assert_eq!(class_linkage[0].function_table, Some(2));
    assert_eq!(class_linkage[0].instance.components(), [1, 3, 4, 5]);
}
