//! Reflection as JSON: what `dxspv compile --reflect out.json` writes (the format is
//! documented on [`reflection_json`]).

use crate::spirv::{ImageDim, ImageInfo, InterfaceVariable, Reflection, ScalarKind};
use std::fmt::Write;

/// Writes `s` as a JSON string literal.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn opt_string(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
}

/// A comma between list items.
fn sep(out: &mut String, i: usize) {
    if i > 0 {
        out.push_str(", ");
    }
}

/// `null` or the number.
fn opt_u32(out: &mut String, v: Option<u32>) {
    match v {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("null"),
    }
}

/// The JSON name of a component kind.
fn scalar_kind(k: ScalarKind) -> &'static str {
    match k {
        ScalarKind::Float => "float",
        ScalarKind::Sint => "int",
        ScalarKind::Uint => "uint",
        ScalarKind::Bool => "bool",
    }
}

fn image(out: &mut String, image: Option<&ImageInfo>) {
    let Some(i) = image else {
        out.push_str("null");
        return;
    };
    let dim = match i.dim {
        ImageDim::Buffer => "Buffer",
        ImageDim::Dim1D => "1D",
        ImageDim::Dim2D => "2D",
        ImageDim::Dim3D => "3D",
        ImageDim::Cube => "Cube",
    };
    let _ = write!(
        out,
        "{{\"dim\": \"{dim}\", \"arrayed\": {}, \"multisampled\": {}, \"format\": \"{:?}\", \"sampled_type\": \"{}\"}}",
        i.arrayed,
        i.multisampled,
        i.format,
        scalar_kind(i.sampled_type)
    );
}

fn interface(out: &mut String, vars: &[InterfaceVariable]) {
    out.push('[');
    for (i, v) in vars.iter().enumerate() {
        out.push_str(if i > 0 { ",\n    " } else { "\n    " });
        out.push_str("{\"location\": ");
        opt_u32(out, v.location);
        let _ = write!(out, ", \"component\": {}, \"builtin\": ", v.component);
        opt_string(out, v.builtin);
        out.push_str(", \"semantic\": ");
        match &v.semantic {
            Some((name, index)) => {
                out.push('[');
                string(out, name);
                let _ = write!(out, ", {index}]");
            }
            None => out.push_str("null"),
        }
        let _ = write!(
            out,
            ", \"patch\": {}, \"type\": \"{}\", \"bits\": {}, \"components\": {}, \"array\": [",
            v.patch,
            scalar_kind(v.scalar),
            v.bits,
            v.components
        );
        for (k, n) in v.array.iter().enumerate() {
            sep(out, k);
            let _ = write!(out, "{n}");
        }
        out.push_str("]}");
    }
    out.push_str(if vars.is_empty() { "]" } else { "\n  ]" });
}

/// The reflection of a compiled shader as a JSON document: what `dxspv compile --reflect`
/// writes, so a program can bind the module without guessing.
///
/// ```json
/// {
///   "stage": "Pixel",
///   "execution_model": "Fragment",
///   "entry_point": "main",
///   "target_env": "vulkan1.3",
///   "spirv_version": "1.6",
///   "workgroup_size": null,
///   "capabilities": ["Shader", "ImageQuery"],
///   "extensions": [],
///   "resources": [
///     {"class": "Cbv", "space": 0, "register": 0, "count": 1, "set": 0, "binding": 0,
///      "descriptor_type": "UniformBuffer", "name": "cb0", "image": null,
///      "comparison": false, "size": 64, "stride": null},
///     {"class": "Srv", "space": 0, "register": 0, "count": 1, "set": 0, "binding": 1000,
///      "descriptor_type": "SampledImage", "name": "t0",
///      "image": {"dim": "2D", "arrayed": false, "multisampled": false,
///                "format": "Unknown", "sampled_type": "float"},
///      "comparison": false, "size": null, "stride": null},
///     {"class": "Sampler", "space": 0, "register": 0, "count": 1, "set": 0,
///      "binding": 3000, "descriptor_type": "Sampler", "name": "s0", "image": null,
///      "comparison": true, "size": null, "stride": null}
///   ],
///   "push_data": [{"offset": 0, "size": 16}],
///   "spec_constants": [{"spec_id": 1073741824, "default": 1, "kind": "SampleCount"}],
///   "inputs": [
///     {"location": 0, "component": 0, "builtin": null, "semantic": ["TEXCOORD", 0],
///      "patch": false, "type": "float", "bits": 32, "components": 2, "array": []}
///   ],
///   "outputs": [
///     {"location": null, "component": 0, "builtin": "Depth", "semantic": ["SV_Depth", 0],
///      "patch": false, "type": "float", "bits": 32, "components": 1, "array": []}
///   ]
/// }
/// ```
///
/// - `stage` is the D3D stage (`Vertex`, `Hull`, `Domain`, `Geometry`, `Pixel`, `Compute`),
///   `execution_model` its SPIR-V execution model, `entry_point` the SPIR-V entry point's
///   name; `target_env` and `spirv_version` say what the module was written for;
///   `workgroup_size` is `[x, y, z]` for a compute shader, else `null`. A shader that
///   names its wave sizes (`[WaveSize]`, SM 6.6) has `"wave_size": {"min": 16, "max": 64,
///   "preferred": 32}` after it (`preferred` may be `null`): the host requires one of them as
///   the pipeline's subgroup size (`dxspv_spirv::WaveSizeRange::choose`); other shaders
///   have no `wave_size` key.
/// - `capabilities` (SPIR-V names) and `extensions` are what the module declares: each
///   capability beyond `Shader` may need a device feature, each extension its Vulkan
///   extension.
/// - Each resource: `class` is the D3D register class (`Cbv` b, `Srv` t, `Uav` u, `Sampler`
///   s, `UavCounter` the hidden counter of a `u` register), `space` and `register` the D3D
///   register (the first of an array), `count` the descriptor array size (0: unbounded),
///   `set` and `binding` where Vulkan expects it, `descriptor_type` the Vulkan descriptor
///   type (`VK_DESCRIPTOR_TYPE_` + the name in upper snake case), `name` the shader's name
///   for it or `null`. `image` is `null` except for textures, storage images and texel
///   buffers: `dim` (`Buffer`, `1D`, `2D`, `3D`, `Cube`), `arrayed`, `multisampled`,
///   `format` (`Unknown`, or `R32f`/`R32i`/`R32ui`/`R64i`/`R64ui` for a UAV of fixed
///   format) and
///   `sampled_type` (`float`, `int`, `uint`: the texel components). `comparison` is true for
///   a sampler the shader does depth comparisons with (a `SamplerComparisonState`).
///   `size` is a constant buffer's size in bytes, `stride` a raw or structured buffer's
///   bytes per element (4 for raw); both `null` for other resources. A sampler feedback
///   map (a `FeedbackTexture2D*` UAV, an `R32ui` storage image) has `"sampler_feedback":
///   "MinMip"` or `"MipRegionUsed"` after `stride`, saying how the host clears and decodes it
///   (`docs/sampler_feedback.md`); other resources have no `sampler_feedback` key.
/// - `push_data`: push constant ranges (`offset`, `size` in bytes). `spec_constants`: each
///   specialization constant's id, default value bits and `kind` (`User`, or
///   `SampleCount`: the render target sample count, which the host sets).
/// - Each input and output: `location` (`null` for a built-in) and first `component`;
///   `builtin`, the built-in's name or `null`; `semantic`, `[name, index]` as the shader's
///   signature declared it, and for a built-in without one its D3D system-value name
///   (`SV_Depth`, `SV_Coverage`, ...; `null` only for values D3D reads through intrinsics);
///   `patch` for per-patch variables; `type` (`float`, `int`, `uint`, `bool`), `bits`,
///   `components` (vector size) and `array` (array sizes, outermost first) of the variable
///   as the module declares it.
pub fn reflection_json(r: &Reflection) -> String {
    let mut out = String::from("{\n  \"stage\": ");
    opt_string(&mut out, r.stage.map(|s| s.name()));
    out.push_str(",\n  \"execution_model\": ");
    opt_string(&mut out, r.execution_model());
    out.push_str(",\n  \"entry_point\": ");
    string(&mut out, &r.entry_point);
    let (major, minor) = r.target_env.spirv_version();
    let _ = write!(
        out,
        ",\n  \"target_env\": \"{}\",\n  \"spirv_version\": \"{major}.{minor}\",\n  \"workgroup_size\": ",
        r.target_env
    );
    match r.workgroup_size {
        Some([x, y, z]) => {
            let _ = write!(out, "[{x}, {y}, {z}]");
        }
        None => out.push_str("null"),
    }
    if let Some(w) = r.wave_size {
        let _ = write!(
            out,
            ",\n  \"wave_size\": {{\"min\": {}, \"max\": {}, \"preferred\": ",
            w.min, w.max
        );
        opt_u32(&mut out, w.preferred);
        out.push('}');
    }
    out.push_str(",\n  \"capabilities\": [");
    for (i, c) in r.capabilities.iter().enumerate() {
        sep(&mut out, i);
        string(&mut out, c);
    }
    out.push_str("],\n  \"extensions\": [");
    for (i, e) in r.extensions.iter().enumerate() {
        sep(&mut out, i);
        string(&mut out, e);
    }
    out.push_str("],\n  \"resources\": [");
    for (i, res) in r.resources.iter().enumerate() {
        out.push_str(if i > 0 { ",\n    " } else { "\n    " });
        let _ = write!(
            out,
            "{{\"class\": \"{:?}\", \"space\": {}, \"register\": {}, \"count\": {}, \"set\": {}, \"binding\": {}, \"descriptor_type\": \"{:?}\", \"name\": ",
            res.class, res.space, res.register, res.count, res.set, res.binding, res.descriptor_type
        );
        opt_string(&mut out, res.name.as_deref());
        out.push_str(", \"image\": ");
        image(&mut out, res.image.as_ref());
        let _ = write!(out, ", \"comparison\": {}, \"size\": ", res.comparison);
        opt_u32(&mut out, res.size);
        out.push_str(", \"stride\": ");
        opt_u32(&mut out, res.stride);
        if let Some(k) = res.sampler_feedback {
            let _ = write!(out, ", \"sampler_feedback\": \"{k:?}\"");
        }
        out.push('}');
    }
    out.push_str(if r.resources.is_empty() { "]" } else { "\n  ]" });
    out.push_str(",\n  \"push_data\": [");
    for (i, p) in r.push_data.iter().enumerate() {
        sep(&mut out, i);
        let _ = write!(out, "{{\"offset\": {}, \"size\": {}}}", p.offset, p.size);
    }
    out.push_str("],\n  \"spec_constants\": [");
    for (i, c) in r.spec_constants.iter().enumerate() {
        sep(&mut out, i);
        let _ = write!(
            out,
            "{{\"spec_id\": {}, \"default\": {}, \"kind\": \"{:?}\"}}",
            c.spec_id, c.default, c.kind
        );
    }
    out.push_str("],\n  \"inputs\": ");
    interface(&mut out, &r.inputs);
    out.push_str(",\n  \"outputs\": ");
    interface(&mut out, &r.outputs);
    out.push_str("\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spirv::{
        DescriptorType, ImageFormat, PushDataRange, RegisterClass, ResourceBinding,
        SpecConstantInfo, SpecConstantKind, TargetEnv,
    };
    use serde_json::{json, Value};

    fn sample() -> Reflection {
        Reflection {
            stage: Some(crate::ir::ShaderStage::Compute),
            entry_point: "cs\"main".into(),
            workgroup_size: Some([8, 4, 1]),
            target_env: TargetEnv::Vulkan1_1,
            capabilities: vec!["Shader", "ImageQuery"],
            extensions: vec!["SPV_EXT_descriptor_indexing"],
            resources: vec![
                ResourceBinding {
                    class: RegisterClass::Uav,
                    space: 1,
                    register: 2,
                    count: 0,
                    set: 1,
                    binding: 2002,
                    descriptor_type: DescriptorType::StorageBuffer,
                    name: Some("a\"b".into()),
                    image: None,
                    comparison: false,
                    size: None,
                    stride: Some(12),
                    sampler_feedback: None,
                },
                ResourceBinding {
                    class: RegisterClass::Srv,
                    space: 0,
                    register: 0,
                    count: 1,
                    set: 0,
                    binding: 1000,
                    descriptor_type: DescriptorType::SampledImage,
                    name: None,
                    image: Some(ImageInfo {
                        dim: ImageDim::Cube,
                        arrayed: true,
                        multisampled: false,
                        format: ImageFormat::R32ui,
                        sampled_type: ScalarKind::Uint,
                    }),
                    comparison: false,
                    size: None,
                    stride: None,
                    sampler_feedback: None,
                },
                ResourceBinding {
                    class: RegisterClass::Sampler,
                    space: 0,
                    register: 3,
                    count: 1,
                    set: 0,
                    binding: 3003,
                    descriptor_type: DescriptorType::Sampler,
                    name: Some("s".into()),
                    image: None,
                    comparison: true,
                    size: None,
                    stride: None,
                    sampler_feedback: None,
                },
            ],
            push_data: vec![PushDataRange {
                offset: 0,
                size: 16,
            }],
            spec_constants: vec![SpecConstantInfo {
                spec_id: 7,
                default: 1,
                kind: SpecConstantKind::SampleCount,
            }],
            inputs: vec![InterfaceVariable {
                location: Some(3),
                component: 2,
                builtin: None,
                semantic: Some(("TEXCOORD".into(), 1)),
                patch: false,
                scalar: ScalarKind::Sint,
                bits: 32,
                components: 2,
                array: vec![3, 2],
            }],
            outputs: vec![InterfaceVariable {
                location: None,
                component: 0,
                builtin: Some("Depth"),
                semantic: Some(("SV_Depth".into(), 0)),
                patch: true,
                scalar: ScalarKind::Float,
                bits: 32,
                components: 1,
                array: vec![],
            }],
            wave_size: None,
        }
    }

    #[test]
    fn a_sampler_feedback_map_says_its_kind() {
        let mut r = sample();
        r.resources[0].sampler_feedback = Some(crate::spirv::SamplerFeedbackKind::MipRegionUsed);
        r.resources[1].sampler_feedback = Some(crate::spirv::SamplerFeedbackKind::MinMip);
        let text = reflection_json(&r);
        let j: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(j["resources"][0]["sampler_feedback"], "MipRegionUsed");
        assert_eq!(j["resources"][1]["sampler_feedback"], "MinMip");
        assert!(j["resources"][2].get("sampler_feedback").is_none());
    }

    #[test]
    fn writes_every_field_and_escapes_strings() {
        let text = reflection_json(&sample());
        let j: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(j["stage"], "Compute");
        assert_eq!(j["execution_model"], "GLCompute");
        assert_eq!(j["entry_point"], "cs\"main");
        assert_eq!(j["target_env"], "vulkan1.1");
        assert_eq!(j["spirv_version"], "1.3");
        assert_eq!(j["workgroup_size"], json!([8, 4, 1]));
        assert_eq!(j["capabilities"], json!(["Shader", "ImageQuery"]));
        assert_eq!(j["extensions"], json!(["SPV_EXT_descriptor_indexing"]));
        assert_eq!(
            j["resources"][0],
            json!({"class": "Uav", "space": 1, "register": 2, "count": 0, "set": 1,
                   "binding": 2002, "descriptor_type": "StorageBuffer", "name": "a\"b",
                   "image": null, "comparison": false, "size": null, "stride": 12})
        );
        assert_eq!(
            j["resources"][1]["image"],
            json!({"dim": "Cube", "arrayed": true, "multisampled": false,
                   "format": "R32ui", "sampled_type": "uint"})
        );
        assert_eq!(j["resources"][2]["comparison"], true);
        assert_eq!(j["push_data"], json!([{"offset": 0, "size": 16}]));
        assert_eq!(
            j["spec_constants"],
            json!([{"spec_id": 7, "default": 1, "kind": "SampleCount"}])
        );
        assert_eq!(
            j["inputs"],
            json!([{"location": 3, "component": 2, "builtin": null,
                    "semantic": ["TEXCOORD", 1], "patch": false, "type": "int", "bits": 32,
                    "components": 2, "array": [3, 2]}])
        );
        assert_eq!(
            j["outputs"],
            json!([{"location": null, "component": 0, "builtin": "Depth",
                    "semantic": ["SV_Depth", 0], "patch": true, "type": "float", "bits": 32,
                    "components": 1, "array": []}])
        );
    }

    #[test]
    fn an_empty_reflection_is_valid_json() {
        let text = reflection_json(&Reflection::default());
        let j: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(j["stage"], Value::Null);
        assert_eq!(j["resources"], json!([]));
        assert_eq!(j["inputs"], json!([]));
    }
}
