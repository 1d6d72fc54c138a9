//! The reflection checked against references over the whole corpus: every shader that
//! compiles is reflected by `spirv-cross --reflect` (Debian `spirv-cross`), and dxspv's
//! [`Reflection`](dxspv::spirv::Reflection) must say the same about it: the stage, entry
//! point and workgroup size; each descriptor's set, binding, descriptor type and array size;
//! each image's dimension, arrayness, multisampling, texel type and fixed format; each
//! constant buffer's size; each input and output's location, type and array sizes. Which
//! samplers compare is checked against the shader's own declarations (`dcl_sampler ...,
//! mode_comparison` in dxspv's disassembly of the DXBC), and every built-in that D3D names
//! by a system value must carry that name as its semantic.
//!
//! Without the corpus or spirv-cross the test says so and checks nothing.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::spirv::{
    DescriptorType, ImageDim, ImageFormat, InterfaceVariable, Reflection, ScalarKind,
};
use dxspv_testkit::{installed, Corpus};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// spirv-cross's reflection of `words` (through temporary files).
fn spirv_cross_reflect(words: &[u32], tag: usize) -> Result<Value, String> {
    let dir = std::env::temp_dir();
    let spv = dir.join(format!("dxspv-refl-{}-{tag}.spv", std::process::id()));
    let json = spv.with_extension("json");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv, bytes).map_err(|e| e.to_string())?;
    // `--reflect` takes an optional argument: `--output` must follow it.
    let out = Command::new("spirv-cross")
        .arg("--reflect")
        .arg("--output")
        .arg(&json)
        .arg(&spv)
        .output()
        .map_err(|e| e.to_string());
    let text = std::fs::read_to_string(&json);
    let _ = std::fs::remove_file(&spv);
    let _ = std::fs::remove_file(&json);
    let out = out?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = text.map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

/// What spirv-cross says of one descriptor.
#[derive(Clone, Debug, PartialEq)]
struct Descriptor {
    descriptor_type: DescriptorType,
    count: u32,
    /// The GLSL type name of an image (`utexture2DArray`, `imageBuffer`, ...).
    image: Option<String>,
    /// A constant buffer's size.
    size: Option<u32>,
    /// A storage image's fixed format (`r32ui`).
    format: Option<String>,
}

/// The GLSL type name spirv-cross gives an image of this shape.
fn glsl_image_name(r: &dxspv::spirv::ResourceBinding) -> Option<String> {
    let i = r.image?;
    let prefix = match i.sampled_type {
        ScalarKind::Sint => "i",
        ScalarKind::Uint => "u",
        _ => "",
    };
    let storage = matches!(
        r.descriptor_type,
        DescriptorType::StorageImage | DescriptorType::StorageTexelBuffer
    );
    let base = match (storage, i.dim) {
        (false, ImageDim::Buffer) => "samplerBuffer",
        (false, _) => "texture",
        (true, _) => "image",
    };
    let dim = match i.dim {
        ImageDim::Buffer if storage => "Buffer",
        ImageDim::Buffer => "",
        ImageDim::Dim1D => "1D",
        ImageDim::Dim2D => "2D",
        ImageDim::Dim3D => "3D",
        ImageDim::Cube => "Cube",
    };
    let ms = if i.multisampled { "MS" } else { "" };
    let arrayed = if i.arrayed { "Array" } else { "" };
    Some(format!("{prefix}{base}{dim}{ms}{arrayed}"))
}

/// spirv-cross's descriptors by `(set, binding)`.
fn cross_descriptors(j: &Value) -> Result<BTreeMap<(u32, u32), Descriptor>, String> {
    let mut map = BTreeMap::new();
    for (key, list) in j.as_object().into_iter().flatten() {
        let kind = match key.as_str() {
            "ubos" => Some(DescriptorType::UniformBuffer),
            "ssbos" => Some(DescriptorType::StorageBuffer),
            "separate_samplers" => Some(DescriptorType::Sampler),
            "separate_images" | "images" => None,
            "entryPoints"
            | "types"
            | "inputs"
            | "outputs"
            | "specialization_constants"
            | "push_constants" => continue,
            other => {
                return Err(format!(
                    "spirv-cross lists {other}, which dxspv never emits"
                ))
            }
        };
        for r in list.as_array().into_iter().flatten() {
            let ty = r["type"].as_str().unwrap_or("").to_string();
            let descriptor_type = kind.unwrap_or(match (key.as_str(), ty.contains("Buffer")) {
                ("images", true) => DescriptorType::StorageTexelBuffer,
                ("images", false) => DescriptorType::StorageImage,
                (_, true) => DescriptorType::UniformTexelBuffer,
                (_, false) => DescriptorType::SampledImage,
            });
            let count = match r["array"].as_array().map(|a| a.as_slice()) {
                None => 1,
                Some([n]) => n.as_u64().unwrap_or(u64::MAX) as u32,
                Some(a) => return Err(format!("descriptor array of {} dimensions", a.len())),
            };
            let set = r["set"].as_u64().unwrap_or(u64::MAX) as u32;
            let binding = r["binding"].as_u64().unwrap_or(u64::MAX) as u32;
            let d = Descriptor {
                descriptor_type,
                count,
                image: kind.is_none().then_some(ty),
                size: (key == "ubos").then(|| r["block_size"].as_u64().unwrap_or(0) as u32),
                format: r["format"].as_str().map(str::to_string),
            };
            // A storage buffer may have a second, 64-bit view at its binding (SM 6.6's
            // 64-bit atomics on raw and structured buffers): the same descriptor.
            if let Some(old) = map.insert((set, binding), d.clone()) {
                if old == d && d.descriptor_type == DescriptorType::StorageBuffer {
                    continue;
                }
                return Err(format!("two descriptors at set {set}, binding {binding}"));
            }
        }
    }
    Ok(map)
}

/// dxspv's descriptors, as spirv-cross would describe them.
fn our_descriptors(r: &Reflection) -> BTreeMap<(u32, u32), Descriptor> {
    r.resources
        .iter()
        .map(|res| {
            let format = res.image.and_then(|i| match i.format {
                ImageFormat::Unknown => None,
                f => Some(format!("{f:?}").to_lowercase()),
            });
            (
                (res.set, res.binding),
                Descriptor {
                    descriptor_type: res.descriptor_type,
                    count: res.count,
                    image: glsl_image_name(res),
                    size: res.size,
                    format,
                },
            )
        })
        .collect()
}

/// The GLSL type name of an interface variable's element (`vec4`, `uint`, `ivec3`).
fn glsl_value_name(v: &InterfaceVariable) -> String {
    let (scalar, prefix) = match (v.scalar, v.bits) {
        (ScalarKind::Float, 64) => ("double", "d"),
        (ScalarKind::Float, 16) => ("float16_t", "f16"),
        (ScalarKind::Float, _) => ("float", ""),
        (ScalarKind::Sint, _) => ("int", "i"),
        (ScalarKind::Uint, _) => ("uint", "u"),
        (ScalarKind::Bool, _) => ("bool", "b"),
    };
    match v.components {
        1 => scalar.to_string(),
        n => format!("{prefix}vec{n}"),
    }
}

/// Compares the user varyings of one direction: location, type and array sizes.
fn compare_interface(
    what: &str,
    cross: &Value,
    ours: &[InterfaceVariable],
    problems: &mut Vec<String>,
) {
    let mut theirs: Vec<(u32, String, Vec<u64>)> = cross
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            // spirv-cross lists array sizes innermost first; dxspv outermost first (they differ
            // for arrays of arrays: a geometry shader's per-vertex array of a DXIL element
            // spanning several rows).
            let array = v["array"]
                .as_array()
                .map(|a| a.iter().rev().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            (
                v["location"].as_u64().unwrap_or(u64::MAX) as u32,
                v["type"].as_str().unwrap_or("").to_string(),
                array,
            )
        })
        .collect();
    let mut mine: Vec<(u32, String, Vec<u64>)> = ours
        .iter()
        .filter_map(|v| {
            let array = v.array.iter().map(|&n| u64::from(n)).collect();
            Some((v.location?, glsl_value_name(v), array))
        })
        .collect();
    theirs.sort();
    mine.sort();
    if theirs != mine {
        problems.push(format!("{what}: spirv-cross {theirs:?}, dxspv {mine:?}"));
    }
}

/// The comparison samplers a DXBC shader declares, as `(space, register)`, from dxspv's
/// fxc-style disassembly (`dcl_sampler s0, mode_comparison`, or with SM 5.1 ranges
/// `dcl_sampler S0[2:2], mode_comparison, space=1`).
fn declared_comparison_samplers(disassembly: &str) -> Vec<(u32, u32)> {
    disassembly
        .lines()
        .filter_map(|l| l.trim().strip_prefix("dcl_sampler "))
        .filter(|l| l.contains("mode_comparison"))
        .filter_map(|l| {
            let reg = l.split(',').next()?.trim();
            let space = l
                .split("space=")
                .nth(1)
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            let register = match reg.split_once('[') {
                Some((_, range)) => range.split(':').next()?.parse().ok()?,
                None => reg.strip_prefix('s')?.parse().ok()?,
            };
            Some((space, register))
        })
        .collect()
}

#[test]
fn reflection_matches_spirv_cross_over_the_corpus() {
    let Some(corpus) = Corpus::open() else { return };
    if !installed("spirv-cross") {
        println!(
            "spirv-cross not installed: reflection not compared (apt-get install spirv-cross)"
        );
        return;
    }
    let opts = dxspv::Options::default();
    let entries: Vec<_> = ["dxbc", "d3d9", "dxil"]
        .iter()
        .flat_map(|f| corpus.of_format(f))
        .collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let counts = Mutex::new([0usize; 5]);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(entry) = entries.get(i) else { break };
                let bytes = corpus.read(entry);
                let Ok(out) = dxspv::compile(&bytes, &opts) else {
                    continue;
                };
                let r = &out.reflection;
                let mut problems = Vec::new();
                match spirv_cross_reflect(&out.spirv, i) {
                    Err(e) => problems.push(format!("spirv-cross: {e}")),
                    Ok(j) => {
                        let ep = &j["entryPoints"][0];
                        let mode = match r.stage.map(|s| s.name()) {
                            Some("Pixel") => "frag",
                            Some("Vertex") => "vert",
                            Some("Geometry") => "geom",
                            Some("Hull") => "tesc",
                            Some("Domain") => "tese",
                            Some("Compute") => "comp",
                            Some("Mesh") => "mesh",
                            Some("Amplification") => "task",
                            _ => "?",
                        };
                        // spirv-cross releases before SPV_EXT_mesh_shader print "???" for
                        // MeshEXT/TaskEXT and no workgroup size: only the descriptors compare.
                        let unknown_stage = matches!(mode, "mesh" | "task") && ep["mode"] == "???";
                        if !unknown_stage && (ep["mode"] != mode || ep["name"] != *r.entry_point) {
                            problems
                                .push(format!("entry point {ep}, dxspv {mode} {}", r.entry_point));
                        }
                        if let Some(size) = r.workgroup_size.filter(|_| !unknown_stage) {
                            if ep["workgroup_size"] != serde_json::json!(size) {
                                problems.push(format!("workgroup size {ep}, dxspv {size:?}"));
                            }
                        }
                        match cross_descriptors(&j) {
                            Ok(mut theirs) => {
                                let mine = our_descriptors(r);
                                // spirv-cross releases without SPV_EXT_shader_image_int64
                                // read 64-bit integer images as float ones of no format.
                                for (k, d) in &mine {
                                    let wide =
                                        matches!(d.format.as_deref(), Some("r64ui" | "r64i"));
                                    if let Some(t) =
                                        theirs.get_mut(k).filter(|t| wide && t.format.is_none())
                                    {
                                        t.image.clone_from(&d.image);
                                        t.format.clone_from(&d.format);
                                    }
                                }
                                if theirs != mine {
                                    problems.push(format!(
                                        "descriptors: spirv-cross {theirs:?}, dxspv {mine:?}"
                                    ));
                                }
                            }
                            Err(e) => problems.push(e),
                        }
                        compare_interface("inputs", &j["inputs"], &r.inputs, &mut problems);
                        compare_interface("outputs", &j["outputs"], &r.outputs, &mut problems);
                    }
                }
                // Built-ins D3D names by a system value carry it.
                for v in r.inputs.iter().chain(&r.outputs) {
                    let named = v
                        .builtin
                        .and_then(dxspv::ir::BuiltIn::from_name)
                        .and_then(|b| dxspv::spirv::d3d_system_value(b, None));
                    if named.is_some() && v.semantic.is_none() {
                        problems.push(format!("built-in {:?} without a semantic", v.builtin));
                    }
                }
                // Comparison samplers are declared as such.
                let mut compared = 0;
                let mut declared = 0;
                if entry.format == "dxbc" {
                    let text = dxspv::disassemble(&bytes).unwrap_or_default();
                    let decls = declared_comparison_samplers(&text);
                    declared = decls.len();
                    for res in r.resources.iter().filter(|x| x.comparison) {
                        compared += 1;
                        if !decls.contains(&(res.space, res.register)) {
                            problems.push(format!(
                                "{} compares but is not declared mode_comparison",
                                res.register_name()
                            ));
                        }
                    }
                }
                let mut c = counts.lock().expect("counts");
                c[0] += 1;
                c[1] += r.resources.len();
                c[2] += r.inputs.len() + r.outputs.len();
                c[3] += compared;
                c[4] += declared;
                drop(c);
                if !problems.is_empty() {
                    failures.lock().expect("failures").push(format!(
                        "{}: {}",
                        entry.path,
                        problems.join("; ")
                    ));
                }
            });
        }
    });
    let [shaders, resources, varyings, compared, declared] = counts.into_inner().expect("counts");
    println!(
        "{shaders} shaders, {resources} resources, {varyings} inputs and outputs compared with \
         spirv-cross; {compared} of {declared} declared comparison samplers flagged"
    );
    let failures = failures.into_inner().expect("failures");
    assert!(
        failures.is_empty(),
        "{} shaders differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(shaders > 700, "only {shaders} shaders compiled");
    assert!(compared > 0, "no comparison sampler in the corpus");
}
