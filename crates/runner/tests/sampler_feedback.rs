//! Runs the corpus's sampler feedback shaders (vkd3d-proton's compute shaders
//! `d3d12_sampler_feedback_cs_code_*`: `WriteSamplerFeedbackLevel` at the coordinate and level
//! of the constant buffer `{float2 uv; float lod}`; and its implicit-LOD pixel shaders, plain
//! and biased) on the Vulkan device (lavapipe) and reads
//! the feedback maps back, emulated as `docs/sampler_feedback.md` says: an `R32ui` storage
//! image with a texel per mip region of the paired texture's mip 0, cleared by the host to
//! `0xffffffff` (`MIN_MIP`) or 0 (`MIP_REGION_USED`).
//!
//! The expected maps are derived by hand from Direct3D's definition: a sample at `uv` reads
//! texel `floor(uv * size)` of mip 0, which lies in mip region `texel / region size`; a
//! `MIN_MIP` map holds the most detailed mip sampled there (others stay "not sampled"); a
//! `MIP_REGION_USED` map holds the set of mips sampled (a linear mip filter at a fractional
//! level samples both neighbouring mips). The explicit level is clamped to the texture's mips.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_runner::case::Case;
use dxspv_runner::exec::{missing_requirement, run_compute, Outcome};
use dxspv_runner::graphics::case::GraphicsRun;
use dxspv_runner::graphics::{execute, shaders::ShaderCache};
use dxspv_runner::vk::Gpu;
use dxspv_testkit::Corpus;
use serde_json::json;

/// One dispatch of a corpus shader with a `width x height` texture of `mips` mips and a
/// `map` (width, height) feedback map cleared to `clear`, sampling `uv` at `lod`; the map
/// must then hold `written` at `texel` and `clear` elsewhere.
struct Check {
    shader: &'static str,
    texture: (u32, u32, u32),
    map: (u32, u32),
    clear: u32,
    uv: (f32, f32),
    lod: f32,
    texel: (u32, u32),
    written: u32,
    /// For the array shader: layers, the layer coordinate, and the layer written.
    array: Option<(u32, f32, u32)>,
}

fn run(gpu: &Gpu, corpus: &Corpus, c: &Check) {
    let path = format!("dxil/vkd3d-proton/{}.dxil", c.shader);
    let Some(e) = corpus.entries.iter().find(|e| e.path == path) else {
        return println!("{path} is not in the corpus: skipping");
    };
    let out = dxspv::compile(&corpus.read(e), &dxspv::Options::default())
        .unwrap_or_else(|err| panic!("{path}: {err}"));
    let (layers, layer, written_layer) = c.array.unwrap_or((1, 0.0, 0));
    let view = if c.array.is_some() {
        "texture2d_array"
    } else {
        "texture2d"
    };
    let mut entries = Vec::new();
    for l in 0..layers {
        for y in 0..c.map.1 {
            for x in 0..c.map.0 {
                let v = if (x, y, l) == (c.texel.0, c.texel.1, written_layer) {
                    c.written
                } else {
                    c.clear
                };
                entries.push(json!({"x": x, "y": y, "layer": l, "value": format!("{v:#x}")}));
            }
        }
    }
    let case: Case = serde_json::from_value(json!({
        "name": c.shader,
        "shader": path,
        "format": "dxil",
        "model": "6_5",
        "stage": "cs",
        "dispatch": [1, 1, 1],
        "root_constants": [{
            "space": 0, "register": 0,
            "values": [c.uv.0.to_bits(), c.uv.1.to_bits(), c.lod.to_bits(), layer.to_bits()]
        }],
        "resources": [
            {"kind": "srv", "space": 0, "register": 0, "view": view, "format": "R32_FLOAT",
             "width": c.texture.0, "height": c.texture.1, "mip_levels": c.texture.2,
             "array_size": layers},
            {"kind": "sampler", "space": 0, "register": 0,
             "sampler": {"filter": "MIN_MAG_MIP_LINEAR"}},
            {"kind": "uav", "space": 0, "register": 0, "view": view, "format": "R32_UINT",
             "width": c.map.0, "height": c.map.1, "array_size": layers,
             "initial": {"type": "u32", "fill": format!("{:#x}", c.clear)},
             "expect": {"type": "u32", "entries": entries}}
        ]
    }))
    .expect("case");
    if let Some(why) = missing_requirement(gpu, &case.requires) {
        return println!("skipping: {why}");
    }
    for r in case.runs() {
        match run_compute(gpu, &case, r, &out.spirv, &out.reflection) {
            Outcome::Ok => {}
            Outcome::Skipped(why) => println!("{}: skipped: {why}", c.shader),
            Outcome::Fail(why) => panic!("{} at uv {:?}, lod {}: {why}", c.shader, c.uv, c.lod),
        }
    }
}

#[test]
fn feedback_maps_record_what_direct3d_records() {
    let Some(corpus) = Corpus::open() else {
        return;
    };
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => return println!("skipping: no Vulkan device: {e}"),
    };
    const MIN_MIP: &str = "d3d12_sampler_feedback_cs_code_min_mip_level_non_array";
    const MIN_MIP_ARRAY: &str = "d3d12_sampler_feedback_cs_code_min_mip_level_array";
    const REGION_USED: &str = "d3d12_sampler_feedback_cs_code_level_used_region";
    const NOT_SAMPLED: u32 = 0xffff_ffff;
    let checks = [
        // 64 x 64, 7 mips, 16 x 16 regions: a 4 x 4 map. uv (0.3, 0.6) is texel (19, 38) of
        // mip 0, in region (1, 2); level 2 is sampled there.
        Check {
            shader: MIN_MIP,
            texture: (64, 64, 7),
            map: (4, 4),
            clear: NOT_SAMPLED,
            uv: (0.3, 0.6),
            lod: 2.0,
            texel: (1, 2),
            written: 2,
            array: None,
        },
        // A level past the last mip samples the last mip (6).
        Check {
            shader: MIN_MIP,
            texture: (64, 64, 7),
            map: (4, 4),
            clear: NOT_SAMPLED,
            uv: (0.3, 0.6),
            lod: 9.0,
            texel: (1, 2),
            written: 6,
            array: None,
        },
        // 100 x 60 (7 mips) with 16 x 16 regions: a ceil(100 / 16) x ceil(60 / 16) = 7 x 4
        // map. uv (0.9, 0.5) is texel (90, 30), in region (5, 1) (not (6, 2), which scaling
        // uv by the map's size would give); a negative level samples mip 0.
        Check {
            shader: MIN_MIP,
            texture: (100, 60, 7),
            map: (7, 4),
            clear: NOT_SAMPLED,
            uv: (0.9, 0.5),
            lod: -1.5,
            texel: (5, 1),
            written: 0,
            array: None,
        },
        // MIP_REGION_USED, linear mip filter at level 1.5: mips 1 and 2 are sampled (bits
        // 0b110). uv (0.99, 0.01) is texel (63, 0), in region (3, 0).
        Check {
            shader: REGION_USED,
            texture: (64, 64, 7),
            map: (4, 4),
            clear: 0,
            uv: (0.99, 0.01),
            lod: 1.5,
            texel: (3, 0),
            written: 0b110,
            array: None,
        },
        // At a whole level only that mip is sampled: level 3, bit 3.
        Check {
            shader: REGION_USED,
            texture: (64, 64, 7),
            map: (4, 4),
            clear: 0,
            uv: (0.5, 0.5),
            lod: 3.0,
            texel: (2, 2),
            written: 0b1000,
            array: None,
        },
        // A 2D array of 3 layers: layer coordinate 1.6 rounds to layer 2.
        Check {
            shader: MIN_MIP_ARRAY,
            texture: (64, 64, 7),
            map: (4, 4),
            clear: NOT_SAMPLED,
            uv: (0.3, 0.6),
            lod: 4.0,
            texel: (1, 2),
            written: 4,
            array: Some((3, 1.6, 2)),
        },
    ];
    for c in &checks {
        run(&gpu, &corpus, c);
    }
}

#[test]
fn an_implicit_lod_in_a_pixel_shader_records_the_level_its_derivatives_give() {
    // vkd3d-proton's implicit-LOD pixel shader: pixel (x, y) writes feedback at
    // uv = base + scale * (x, y) with the implicit level of `t0` (the constant buffer is
    // `{float2 base; float scale}`). Over a 4 x 4 viewport, uv moves `scale` per pixel: with a
    // 64 x 64 texture and scale 6 / 64 a pixel spans 6 texels, the level is log2(6) = 2.58, and
    // a linear mip filter reads mips 2 and 3, so MIN_MIP records 2. The pixels' texels of mip
    // 0 are 0, 6, 12, 18 on each axis: regions 0 and 1 of the 4 x 4 map (16 x 16 regions).
    let Some(corpus) = Corpus::open() else {
        return;
    };
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => return println!("skipping: no Vulkan device: {e}"),
    };
    let dir = "dxil/vkd3d-proton/d3d12_sampler_feedback_test_sampler_feedback_implicit_lod_inner";
    let vs = format!("{dir}_vs_code.dxil");
    let roots = [corpus.root.clone()];
    let mut cache = ShaderCache::new(&roots);
    // The biased variant adds the constant buffer's fourth word: a bias of 1 gives 3.58.
    for (variant, bias, level) in [("non_bias", 0.0f32, 2u32), ("bias", 1.0, 3)] {
        let ps = format!("{dir}_ps_code_{variant}.dxil");
        if !corpus.entries.iter().any(|e| e.path == ps) {
            println!("{ps} is not in the corpus: skipping");
            continue;
        }
        let mut entries = Vec::new();
        for y in 0..4u32 {
            for x in 0..4u32 {
                let v = if x <= 1 && y <= 1 { level } else { 0xffff_ffff };
                entries.push(json!({"x": x, "y": y, "value": format!("{v:#x}")}));
            }
        }
        let case: Case = serde_json::from_value(json!({
            "name": format!("sampler_feedback_implicit_lod_ps_{variant}"),
            "shader": ps,
            "format": "dxil",
            "model": "6_6",
            "stage": "ps",
            "vertex_shader": vs,
            "draw": {
                "topology": "triangle_list", "vertex_count": 3, "instance_count": 1,
                "cull_mode": "none", "front_counter_clockwise": false
            },
            "viewport": {"x": 0, "y": 0, "width": 4, "height": 4, "min_depth": 0.0,
                         "max_depth": 1.0},
            "root_constants": [{
                "space": 0, "register": 0,
                "values": [0.0f32.to_bits(), 0.0f32.to_bits(), (6.0f32 / 64.0).to_bits(),
                           bias.to_bits()]
            }],
            "resources": [
                {"kind": "srv", "space": 0, "register": 0, "view": "texture2d",
                 "format": "R32_FLOAT", "width": 64, "height": 64, "mip_levels": 7},
                {"kind": "sampler", "space": 0, "register": 0,
                 "sampler": {"filter": "MIN_MAG_MIP_LINEAR"}},
                {"kind": "uav", "space": 0, "register": 0, "view": "texture2d",
                 "format": "R32_UINT", "width": 4, "height": 4,
                 "initial": {"type": "u32", "fill": "0xffffffff"},
                 "expect": {"type": "u32", "entries": entries}}
            ],
            "render_targets": [
                {"slot": 0, "format": "R32_FLOAT", "width": 4, "height": 4, "clear": null,
                 "expect": null}
            ]
        }))
        .expect("case");
        for r in case.runs() {
            let run = GraphicsRun::from_pixel_case(&case, r).expect("graphics run");
            match execute(&gpu, &run, &mut cache) {
                Outcome::Ok => {}
                Outcome::Skipped(why) => println!("{variant}: skipped: {why}"),
                Outcome::Fail(why) => panic!("{variant}: {why}"),
            }
        }
    }
}
