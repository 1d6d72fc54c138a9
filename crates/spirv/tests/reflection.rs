//! The reflection of the goldens' programs: stage, entry point and workgroup size, image
//! shapes, buffer sizes and strides, comparison samplers, interface types, and the D3D
//! system-value names of built-ins (the corpus test in the facade compares the rest with
//! `spirv-cross --reflect`).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_ir::text::parse;
use dxspv_ir::ShaderStage;
use dxspv_spirv::{
    emit_with_reflection, DescriptorType, ImageDim, ImageFormat, ImageInfo, Reflection,
    RegisterClass, SamplerFeedbackKind, ScalarKind, SpirvOptions, TargetEnv,
};

fn reflect(ir: &str, opts: &SpirvOptions) -> Reflection {
    let b = parse(ir).expect("parse");
    emit_with_reflection(&b, opts).expect("emit").reflection
}

fn semantic(v: &dxspv_spirv::InterfaceVariable) -> Option<(&str, u32)> {
    v.semantic.as_ref().map(|(n, i)| (n.as_ref(), *i))
}

#[test]
fn stage_entry_point_workgroup_size_target_and_capabilities() {
    let opts = SpirvOptions {
        entry_point_name: "cs_main".into(),
        target_env: TargetEnv::Vulkan1_1,
        ..SpirvOptions::default()
    };
    let r = reflect(include_str!("golden/resources_cs.ir"), &opts);
    assert_eq!(r.stage, Some(ShaderStage::Compute));
    assert_eq!(r.execution_model(), Some("GLCompute"));
    assert_eq!(r.entry_point, "cs_main");
    assert_eq!(r.workgroup_size, Some([32, 1, 1]));
    assert_eq!(r.target_env, TargetEnv::Vulkan1_1);
    assert_eq!(r.capabilities.first().copied(), Some("Shader"));
    assert!(r.capabilities.contains(&"RuntimeDescriptorArray"));
    assert!(!r.capabilities.contains(&"VulkanMemoryModel"));
    assert_eq!(r.extensions, ["SPV_EXT_descriptor_indexing"]);
    let r = reflect(
        include_str!("golden/images_ps.ir"),
        &SpirvOptions::default(),
    );
    assert_eq!(r.stage, Some(ShaderStage::Pixel));
    assert_eq!(r.execution_model(), Some("Fragment"));
    assert_eq!(r.workgroup_size, None);
    assert!(r.capabilities.contains(&"VulkanMemoryModel"));
}

#[test]
fn buffers_have_their_sizes_and_strides() {
    let r = reflect(
        include_str!("golden/resources_cs.ir"),
        &SpirvOptions::default(),
    );
    let find = |class, space, register| {
        r.resources
            .iter()
            .find(|x| x.class == class && x.space == space && x.register == register)
            .expect("resource")
    };
    // cbuffer of 4 rows; a raw SRV (4 bytes a word); a structured SRV of 16-byte elements.
    let cbv = find(RegisterClass::Cbv, 0, 0);
    assert_eq!((cbv.size, cbv.stride), (Some(64), None));
    assert_eq!(find(RegisterClass::Srv, 0, 1).stride, Some(4));
    assert_eq!(find(RegisterClass::Srv, 0, 2).stride, Some(16));
    let counter = find(RegisterClass::UavCounter, 0, 1);
    assert_eq!(
        (counter.size, counter.stride, counter.image),
        (None, None, None)
    );
    let typed = find(RegisterClass::Uav, 0, 2);
    assert_eq!(typed.descriptor_type, DescriptorType::StorageTexelBuffer);
    assert_eq!(
        typed.image,
        Some(ImageInfo {
            dim: ImageDim::Buffer,
            arrayed: false,
            multisampled: false,
            format: ImageFormat::Unknown,
            sampled_type: ScalarKind::Sint,
        })
    );
}

#[test]
fn images_have_their_shapes_and_comparison_samplers_are_found() {
    let r = reflect(
        include_str!("golden/images_ps.ir"),
        &SpirvOptions::default(),
    );
    let shape = |register: u32| {
        let res = r
            .resources
            .iter()
            .find(|x| x.class == RegisterClass::Srv && x.register == register)
            .expect("SRV");
        let i = res.image.expect("image");
        (i.dim, i.arrayed, i.multisampled, i.sampled_type)
    };
    assert_eq!(shape(0), (ImageDim::Dim2D, false, false, ScalarKind::Float));
    assert_eq!(shape(1), (ImageDim::Dim2D, true, false, ScalarKind::Float));
    assert_eq!(shape(2), (ImageDim::Cube, false, false, ScalarKind::Float));
    assert_eq!(shape(3), (ImageDim::Dim2D, false, true, ScalarKind::Float));
    assert_eq!(shape(4), (ImageDim::Dim1D, false, false, ScalarKind::Float));
    // s1 is used by the compare samples and the compare gather, s0 only by plain ones.
    let comparison: Vec<(u32, bool)> = r
        .resources
        .iter()
        .filter(|x| x.class == RegisterClass::Sampler)
        .map(|x| (x.register, x.comparison))
        .collect();
    assert_eq!(comparison, [(0, false), (1, true)]);
    assert!(r
        .resources
        .iter()
        .all(|x| x.class == RegisterClass::Sampler || !x.comparison));
    // A storage image with a fixed format says so.
    let r = reflect(
        include_str!("golden/image_storage_cs.ir"),
        &SpirvOptions::default(),
    );
    assert!(r
        .resources
        .iter()
        .any(|x| x.image.is_some_and(|i| i.format == ImageFormat::R32ui)));
}

#[test]
fn sampler_feedback_maps_are_r32ui_storage_images_of_their_kind() {
    let r = reflect(
        include_str!("golden/sampler_feedback_cs.ir"),
        &SpirvOptions::default(),
    );
    let map = |register: u32| {
        let res = r
            .resources
            .iter()
            .find(|x| x.class == RegisterClass::Uav && x.register == register)
            .expect("UAV");
        (res.descriptor_type, res.image, res.sampler_feedback)
    };
    let image = |arrayed| {
        Some(ImageInfo {
            dim: ImageDim::Dim2D,
            arrayed,
            multisampled: false,
            format: ImageFormat::R32ui,
            sampled_type: ScalarKind::Uint,
        })
    };
    assert_eq!(
        map(0),
        (
            DescriptorType::StorageImage,
            image(false),
            Some(SamplerFeedbackKind::MinMip)
        )
    );
    assert_eq!(
        map(1),
        (
            DescriptorType::StorageImage,
            image(true),
            Some(SamplerFeedbackKind::MipRegionUsed)
        )
    );
    // Other resources are no feedback maps.
    let r = reflect(
        include_str!("golden/image_storage_cs.ir"),
        &SpirvOptions::default(),
    );
    assert!(r.resources.iter().all(|x| x.sampler_feedback.is_none()));
}

#[test]
fn a_feedback_map_that_is_not_a_fixed_format_u32_uav_is_refused() {
    for dcl in [
        "DclUav f32 %1 0 0 1 FeedbackImage2D FixedFormat",
        "DclUav u32 %1 0 0 1 FeedbackImage2DArray MipRegionUsed",
        "DclSrv u32 %1 0 0 1 FeedbackImage2D",
    ] {
        let ir = format!(
            "%1 = EntryPoint %3 Compute\n%2 = SetCsWorkgroupSize %1 1 1 1\n%8 = {dcl}\n\
             %3 = Function void\n%5 = Label None\n%6 = Return void null\n%7 = FunctionEnd\n"
        );
        let b = parse(&ir).expect("parse");
        let err = emit_with_reflection(&b, &SpirvOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{dcl} emitted"));
        assert!(
            err.to_string().contains("sampler feedback map"),
            "{dcl}: {err}"
        );
    }
}

#[test]
fn interface_variables_have_types_and_built_ins_their_system_values() {
    let r = reflect(
        include_str!("golden/interface_ps.ir"),
        &SpirvOptions::default(),
    );
    let out: Vec<_> = r.outputs.iter().map(|v| (v.builtin, semantic(v))).collect();
    assert_eq!(
        out,
        [
            (None, Some(("SV_Target", 0))),
            (Some("Depth"), Some(("SV_Depth", 0))),
            (Some("SampleMask"), Some(("SV_Coverage", 0))),
            (Some("StencilRef"), Some(("SV_StencilRef", 0))),
        ]
    );
    // SV_Coverage is declared as Vulkan's SampleMask[1].
    let mask = &r.outputs[2];
    assert_eq!(
        (mask.scalar, mask.bits, mask.components),
        (ScalarKind::Uint, 32, 1)
    );
    assert_eq!(mask.array, [1]);
    let front = r
        .inputs
        .iter()
        .find(|v| v.builtin == Some("IsFrontFace"))
        .expect("input");
    assert_eq!(
        (front.scalar, semantic(front)),
        (ScalarKind::Bool, Some(("SV_IsFrontFace", 0)))
    );
    let int_input = r
        .inputs
        .iter()
        .find(|v| v.location == Some(2))
        .expect("input");
    assert_eq!(
        (int_input.scalar, int_input.components),
        (ScalarKind::Sint, 1)
    );
    // The depth output's variant follows the shader's depth mode.
    let r = reflect(include_str!("golden/modes_ps.ir"), &SpirvOptions::default());
    assert_eq!(semantic(&r.outputs[0]), Some(("SV_DepthGreaterEqual", 0)));
    // Geometry shader inputs are per-vertex arrays.
    let r = reflect(include_str!("golden/modes_gs.ir"), &SpirvOptions::default());
    let v = r
        .inputs
        .iter()
        .find(|v| v.location == Some(1))
        .expect("input");
    assert_eq!((v.components, v.array.as_slice()), (4, &[4][..]));
    // Vertex shader system values, the D3D9 point size among them.
    let r = reflect(
        include_str!("golden/interface_vs.ir"),
        &SpirvOptions::default(),
    );
    let names: Vec<_> = r
        .outputs
        .iter()
        .filter(|v| v.builtin.is_some())
        .filter_map(semantic)
        .map(|s| s.0)
        .collect();
    assert_eq!(
        names,
        [
            "SV_Position",
            "SV_ClipDistance",
            "PSIZE",
            "SV_RenderTargetArrayIndex",
            "SV_ViewportArrayIndex"
        ]
    );
}
