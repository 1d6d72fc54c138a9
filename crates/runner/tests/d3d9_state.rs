//! Direct3D 9 state the shared cases do not exercise, run through the D3D9 harness on the
//! Vulkan device: fixed-function fog (vertex and table), the alpha test, user clip planes
//! and points of the fixed-function stand-ins, blending, colour write masks, culling, sRGB
//! writes and reads, and texture formats sampled the Direct3D 9 way.
//!
//! Each test builds a case in the `../shared/exec-d3d9` format around a corpus shader whose
//! disassembly is quoted, with expected colours worked out from Direct3D 9's documented
//! formulas (fog, blending, sRGB, format conversion), not from this harness's output. A test
//! returns quietly (saying why) without a Vulkan device, the corpus, or the D3D9 frontend.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]

use dxspv_runner::d3d9::{run_case, shaders::D3D9_SKIP};
use dxspv_runner::{default_corpus, exec::Outcome, vk::Gpu};
use serde_json::{json, Value};

/// `vs_1_1`: `dcl_position v0; dcl_color v1; mov oPos, v0; mov oD0, v1`.
const VS_COLOR: &str = "d3d9/wine/d3d9_visual_fog_with_shader_test_vertex_shader_code1.d3d9";
/// `ps_1_1`: `mov r0, v0`.
const PS_COLOR: &str = "d3d9/wine/d3d8_visual_fog_with_shader_test_pixel_shader_code.d3d9";
/// `ps_2_0`: `dcl_2d s0; dcl t0; texld r0, t0, s0; mov oC0, r0`.
const PS_TEXTURE: &str = "d3d9/wine/d3d9_visual_unbound_sampler_test_ps_code.d3d9";

/// A full-window quad (a strip of two clockwise triangles) at depth `z` in `color`, with
/// texture coordinates (0, 0) everywhere.
fn quad(color: &str, z: f64) -> Value {
    let corners = [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]];
    json!({
        "primitive": "D3DPT_TRIANGLESTRIP",
        "primitive_count": 2,
        "vertex_declaration": [
            {"stream": 0, "offset": 0, "type": "D3DDECLTYPE_FLOAT3", "usage": "D3DDECLUSAGE_POSITION", "usage_index": 0},
            {"stream": 0, "offset": 12, "type": "D3DDECLTYPE_D3DCOLOR", "usage": "D3DDECLUSAGE_COLOR", "usage_index": 0},
            {"stream": 0, "offset": 16, "type": "D3DDECLTYPE_FLOAT2", "usage": "D3DDECLUSAGE_TEXCOORD", "usage_index": 0}
        ],
        "vertices": corners.iter().map(|[x, y]| json!({
            "POSITION0": [x, y, z], "COLOR0": color, "TEXCOORD0": [0.0, 0.0]
        })).collect::<Vec<_>>()
    })
}

/// A 64x64 A8R8G8B8 target cleared to `clear`, checked at the listed texels.
fn target(clear: &str, mask: &str, entries: Value) -> Value {
    json!([{
        "slot": 0, "format": "D3DFMT_A8R8G8B8", "width": 64, "height": 64, "clear": clear,
        "expect": {"type": "d3dcolor", "mask": mask, "entries": entries},
        "tolerance": {"per_byte": 1}
    }])
}

/// Runs `case`; `false` (after saying why) when it cannot run here. Panics on a failure.
fn run(case: Value) -> bool {
    let corpus = default_corpus();
    if !corpus.is_dir() {
        println!("skipping: corpus {} not found", corpus.display());
        return false;
    }
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            println!("skipping: no Vulkan device: {e}");
            return false;
        }
    };
    let reports = run_case(&gpu, case, &[corpus]);
    let mut ran = true;
    for r in &reports {
        match &r.outcome {
            Outcome::Ok => {}
            Outcome::Skipped(why) if why == D3D9_SKIP => {
                println!("skipping: {why}");
                ran = false;
            }
            _ => panic!("{r}"),
        }
    }
    ran
}

#[test]
fn fixed_function_vertex_fog_feeds_the_pixel_shader() {
    // FOGVERTEXMODE LINEAR, start 0, end 1: the quad at z = 0.25 has f = 0.75, so the
    // ps_1_1's red becomes 0.75 red + 0.25 fog blue: (0xbf, 0, 0x40).
    run(json!({
        "name": "vertex_fog", "shader": PS_COLOR, "format": "d3d9", "model": "1_1",
        "stage": "ps",
        "render_states": {
            "D3DRS_FOGENABLE": true, "D3DRS_FOGVERTEXMODE": "D3DFOG_LINEAR",
            "D3DRS_FOGCOLOR": "0xff0000ff", "D3DRS_FOGSTART": 0.0, "D3DRS_FOGEND": 1.0
        },
        "draw": quad("0xffff0000", 0.25),
        "render_targets": target("0xff00ff00", "0x00ffffff",
            json!([{"x": 32, "y": 32, "value": "0x00bf0040"}]))
    }));
}

#[test]
fn fixed_function_pixel_stage_table_fog_and_alpha_test() {
    // Table fog EXP with density 2 at z = 0.5: f = e^-1 = 0.368, green over fog red:
    // (0.632, 0.368, 0) = (0xa1, 0x5e, 0).
    run(json!({
        "name": "table_fog", "shader": VS_COLOR, "format": "d3d9", "model": "1_1",
        "stage": "vs", "fixed_function_ps": "diffuse",
        "render_states": {
            "D3DRS_FOGENABLE": true, "D3DRS_FOGTABLEMODE": "D3DFOG_EXP",
            "D3DRS_FOGCOLOR": "0xffff0000", "D3DRS_FOGDENSITY": 2.0
        },
        "draw": quad("0xff00ff00", 0.5),
        "render_targets": target("0xff000000", "0x00ffffff",
            json!([{"x": 32, "y": 32, "value": "0x00a15e00"}]))
    }));
    // Alpha test GREATER: alpha 0x80 passes reference 0x7f, not 0x80.
    for (reference, expected) in [(127, "0x80ff0000"), (128, "0xff0000ff")] {
        run(json!({
            "name": "alpha_test", "shader": VS_COLOR, "format": "d3d9", "model": "1_1",
            "stage": "vs", "fixed_function_ps": "diffuse",
            "render_states": {
                "D3DRS_ALPHATESTENABLE": true, "D3DRS_ALPHAFUNC": "D3DCMP_GREATER",
                "D3DRS_ALPHAREF": reference
            },
            "draw": quad("0x80ff0000", 0.5),
            "render_targets": target("0xff0000ff", "0xffffffff",
                json!([{"x": 32, "y": 32, "value": expected}]))
        }));
    }
}

#[test]
fn blending_colour_writes_and_culling() {
    // SRCALPHA / INVSRCALPHA: 0x80ff0000 over opaque blue = (0x80, 0, 0x7f).
    run(json!({
        "name": "blend", "shader": PS_COLOR, "format": "d3d9", "model": "1_1", "stage": "ps",
        "render_states": {
            "D3DRS_ALPHABLENDENABLE": true, "D3DRS_SRCBLEND": "D3DBLEND_SRCALPHA",
            "D3DRS_DESTBLEND": "D3DBLEND_INVSRCALPHA"
        },
        "draw": quad("0x80ff0000", 0.5),
        "render_targets": target("0xff0000ff", "0x00ffffff",
            json!([{"x": 32, "y": 32, "value": "0x0080007f"}]))
    }));
    // COLORWRITEENABLE red | alpha: white over black keeps green and blue at 0.
    run(json!({
        "name": "color_write", "shader": PS_COLOR, "format": "d3d9", "model": "1_1",
        "stage": "ps", "render_states": {"D3DRS_COLORWRITEENABLE": 9},
        "draw": quad("0xffffffff", 0.5),
        "render_targets": target("0x00000000", "0xffffffff",
            json!([{"x": 32, "y": 32, "value": "0xffff0000"}]))
    }));
    // The quad's triangles are clockwise: D3DCULL_CW removes them.
    run(json!({
        "name": "cull", "shader": PS_COLOR, "format": "d3d9", "model": "1_1", "stage": "ps",
        "render_states": {"D3DRS_CULLMODE": "D3DCULL_CW"},
        "draw": quad("0xffffffff", 0.5),
        "render_targets": target("0xff123456", "0xffffffff",
            json!([{"x": 32, "y": 32, "value": "0xff123456"}]))
    }));
}

#[test]
fn fixed_function_clip_planes_and_points() {
    // Plane (0, -1, 0, 0) keeps y <= 0: the lower half of the window.
    run(json!({
        "name": "clip", "shader": PS_COLOR, "format": "d3d9", "model": "1_1", "stage": "ps",
        "render_states": {"D3DRS_CLIPPLANEENABLE": 1},
        "clip_planes": [{"index": 0, "plane": [0.0, -1.0, 0.0, 0.0]}],
        "draw": quad("0xffff0000", 0.5),
        "render_targets": target("0xff0000ff", "0x00ffffff", json!([
            {"x": 32, "y": 16, "value": "0x000000ff"},
            {"x": 32, "y": 48, "value": "0x00ff0000"}
        ]))
    }));
    // A pretransformed point at pixel (10, 20) with D3DRS_POINTSIZE 4 covers pixels 8-11
    // and 18-21 (Direct3D 9 pixel centres).
    run(json!({
        "name": "points", "shader": PS_COLOR, "format": "d3d9", "model": "1_1", "stage": "ps",
        "render_states": {"D3DRS_POINTSIZE": 4.0},
        "draw": {
            "primitive": "D3DPT_POINTLIST", "primitive_count": 1,
            "vertex_declaration": [
                {"stream": 0, "offset": 0, "type": "D3DDECLTYPE_FLOAT4", "usage": "D3DDECLUSAGE_POSITIONT", "usage_index": 0},
                {"stream": 0, "offset": 16, "type": "D3DDECLTYPE_D3DCOLOR", "usage": "D3DDECLUSAGE_COLOR", "usage_index": 0}
            ],
            "vertices": [{"POSITIONT0": [10.0, 20.0, 0.5, 1.0], "COLOR0": "0xff00ff00"}]
        },
        "render_targets": target("0xff000000", "0x00ffffff", json!([
            {"x": 8, "y": 18, "value": "0x0000ff00"},
            {"x": 11, "y": 21, "value": "0x0000ff00"},
            {"x": 7, "y": 20, "value": "0x00000000"},
            {"x": 12, "y": 20, "value": "0x00000000"},
            {"x": 10, "y": 17, "value": "0x00000000"},
            {"x": 10, "y": 22, "value": "0x00000000"}
        ]))
    }));
}

#[test]
fn srgb_writes_and_reads() {
    // 0x80 (0.502 linear) written through sRGB encoding: 1.055 * 0.502^(1/2.4) - 0.055 =
    // 0.737 = 0xbc.
    run(json!({
        "name": "srgb_write", "shader": PS_COLOR, "format": "d3d9", "model": "1_1",
        "stage": "ps", "render_states": {"D3DRS_SRGBWRITEENABLE": true},
        "draw": quad("0xff808080", 0.5),
        "render_targets": target("0xff000000", "0x00ffffff",
            json!([{"x": 32, "y": 32, "value": "0x00bcbcbc"}]))
    }));
    // A texel 0x80 read with sRGB decoding: ((0.502 + 0.055) / 1.055)^2.4 = 0.216 = 0x37;
    // alpha is not decoded.
    run(json!({
        "name": "srgb_read", "shader": PS_TEXTURE, "format": "d3d9", "model": "2_0",
        "stage": "ps",
        "textures": [{
            "sampler": 0, "type": "2d", "format": "D3DFMT_A8R8G8B8", "width": 1, "height": 1,
            "levels": 1, "data": {"type": "u32", "data": [2155905152u32]},
            "sampler_states": {"D3DSAMP_SRGBTEXTURE": true}
        }],
        "draw": quad("0xffffffff", 0.5),
        "render_targets": target("0xff000000", "0xffffffff",
            json!([{"x": 32, "y": 32, "value": "0x80373737"}]))
    }));
}

#[test]
fn texture_formats_sample_as_direct3d_9() {
    // (format, texel as a little-endian u32 list entry, element type, expected colour):
    // missing colour channels read 1, A8 reads (0, 0, 0, a), luminance (l, l, l, a), signed
    // V8U8 (u, v, 1, 1) with u = 0x10 / 127, v = 0x20 / 127.
    let formats: [(&str, &str, u64, &str); 6] = [
        ("D3DFMT_X8R8G8B8", "u32", 0x0011_2233, "0xff112233"),
        ("D3DFMT_L8", "u8", 0x40, "0xff404040"),
        ("D3DFMT_A8", "u8", 0x40, "0x40000000"),
        ("D3DFMT_A8L8", "u16", 0x8040, "0x80404040"),
        ("D3DFMT_V8U8", "u16", 0x2010, "0xff2040ff"),
        ("D3DFMT_R5G6B5", "u16", 0xf800, "0xffff0000"),
    ];
    for (format, ty, texel, expected) in formats {
        let ran = run(json!({
            "name": format, "shader": PS_TEXTURE, "format": "d3d9", "model": "2_0",
            "stage": "ps",
            "textures": [{
                "sampler": 0, "type": "2d", "format": format, "width": 1, "height": 1,
                "levels": 1, "data": {"type": ty, "data": [texel]}
            }],
            "draw": quad("0xffffffff", 0.5),
            "render_targets": target("0x00000000", "0xffffffff",
                json!([{"x": 32, "y": 32, "value": expected}]))
        }));
        if !ran {
            return;
        }
    }
}

/// A full-window quad of pretransformed vertices (64x64 window) with `texcoord` (FLOAT4)
/// on every vertex.
fn window_quad(texcoord: [f64; 4]) -> Value {
    let corners = [[0.0, 0.0], [64.0, 0.0], [0.0, 64.0], [64.0, 64.0]];
    json!({
        "primitive": "D3DPT_TRIANGLESTRIP",
        "primitive_count": 2,
        "vertex_declaration": [
            {"stream": 0, "offset": 0, "type": "D3DDECLTYPE_FLOAT4", "usage": "D3DDECLUSAGE_POSITIONT", "usage_index": 0},
            {"stream": 0, "offset": 16, "type": "D3DDECLTYPE_FLOAT4", "usage": "D3DDECLUSAGE_TEXCOORD", "usage_index": 0}
        ],
        "vertices": corners.iter().map(|[x, y]| json!({
            "POSITIONT0": [x, y, 0.5, 1.0], "TEXCOORD0": texcoord
        })).collect::<Vec<_>>()
    })
}

#[test]
fn multiple_render_targets() {
    // ps_3_0: def c0, 0, 1, 0, 0; def c1, 0, 0, 1, 0; mov oC0, c0; mov oC1, c1.
    let ps = "d3d9/wine/d3d9_visual_multiple_rendertargets_test_pshader_code2.d3d9";
    let rt = |slot: u32, value: &str| {
        json!({
            "slot": slot, "format": "D3DFMT_A8R8G8B8", "width": 64, "height": 64,
            "clear": "0xffffffff",
            "expect": {"type": "d3dcolor", "mask": "0xffffffff",
                       "entries": [{"x": 5, "y": 60, "value": value}]}
        })
    };
    run(json!({
        "name": "mrt", "shader": ps, "format": "d3d9", "model": "3_0", "stage": "ps",
        "draw": window_quad([0.0, 0.0, 0.0, 1.0]),
        "render_targets": [rt(0, "0x0000ff00"), rt(1, "0x000000ff")]
    }));
}

#[test]
fn vertex_textures_and_cube_maps() {
    // vs_3_0: dcl_2d s0; texldl o1 (dcl_color), c0.x (= 0), s0; mov o0, v0 — with the
    // ps_3_0 passing COLOR0 through: the vertex texture's texel everywhere.
    run(json!({
        "name": "vertex_texture", "shader": "d3d9/wine/d3d9_visual_test_vertex_texture_vs_code.d3d9",
        "format": "d3d9", "model": "3_0", "stage": "vs",
        "pixel_shader": "d3d9/wine/d3d9_visual_pretransformed_varying_test_color_code.d3d9",
        "textures": [{
            "sampler": 0, "stage": "vs", "type": "2d", "format": "D3DFMT_A8R8G8B8",
            "width": 1, "height": 1, "levels": 1, "data": {"type": "u32", "data": [4281558681u32]}
        }],
        "draw": quad("0xffffffff", 0.5),
        "render_targets": target("0xff000000", "0x00ffffff",
            json!([{"x": 32, "y": 32, "value": "0x00336699"}]))
    }));
    // ps_2_0: dcl_cube s0; texld r0, t0, s0: faces +X, -X, +Y, -Y, +Z, -Z in order.
    let faces = [
        0xffff_0000u32,
        0xff00_ff00,
        0xff00_00ff,
        0xffff_ff00,
        0xff00_ffff,
        0xffff_00ff,
    ];
    for (direction, expected) in [
        ([1.0, 0.0, 0.0], "0xffff0000"),
        ([0.0, -1.0, 0.0], "0xffffff00"),
        ([0.0, 0.0, -1.0], "0xffff00ff"),
    ] {
        let ran = run(json!({
            "name": "cube", "shader": "d3d9/wine/d3d9_visual_unbound_sampler_test_ps_code_cube.d3d9",
            "format": "d3d9", "model": "2_0", "stage": "ps",
            "textures": [{
                "sampler": 0, "type": "cube", "format": "D3DFMT_A8R8G8B8", "width": 1,
                "height": 1, "levels": 1, "data": {"type": "u32", "data": faces}
            }],
            "draw": window_quad([direction[0], direction[1], direction[2], 1.0]),
            "render_targets": target("0x00000000", "0xffffffff",
                json!([{"x": 32, "y": 32, "value": expected}]))
        }));
        if !ran {
            return;
        }
    }
}

#[test]
fn projected_texture_coordinates() {
    // ps_1_3: tex t0; mov r0, t0 over a 4x1 texture. Texture coordinate (1.5, 0, 0, 4):
    // with D3DTTFF_PROJECTED on stage 0 it samples u = 0.375 (texel 1), without it u = 1.5
    // clamps to texel 3.
    let texture = json!([{
        "sampler": 0, "type": "2d", "format": "D3DFMT_A8R8G8B8", "width": 4, "height": 1,
        "levels": 1,
        "data": {"type": "u32", "data": [4278190335u32, 4278255360u32, 4294901760u32, 4294967295u32]},
        "sampler_states": {"D3DSAMP_ADDRESSU": "D3DTADDRESS_CLAMP", "D3DSAMP_ADDRESSV": "D3DTADDRESS_CLAMP"}
    }]);
    for (flags, expected) in [
        ("D3DTTFF_COUNT4 | D3DTTFF_PROJECTED", "0xff00ff00"),
        ("D3DTTFF_COUNT4", "0xffffffff"),
    ] {
        let ran = run(json!({
            "name": "projected", "shader": "d3d9/wine/d3d9_visual_projected_textures_test_pixel_shader.d3d9",
            "format": "d3d9", "model": "1_3", "stage": "ps",
            "texture_stage_states": {"0": {"D3DTSS_TEXTURETRANSFORMFLAGS": flags}},
            "textures": texture,
            "draw": window_quad([1.5, 0.0, 0.0, 4.0]),
            "render_targets": target("0x00000000", "0xffffffff",
                json!([{"x": 32, "y": 32, "value": expected}]))
        }));
        if !ran {
            return;
        }
    }
}
