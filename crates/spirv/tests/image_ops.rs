//! Image ops with random operand types and shapes, over every image kind, SRVs and UAVs and
//! texel types: whatever the validator accepts at the lowered level must emit as SPIR-V that
//! `spirv-val` accepts, or be refused with an error. The companion of `op_types.rs` for the ops
//! with the most rules (coordinates, layers, offsets, gradients, depth compares, sparse
//! feedback, atomics and queries, each against the image's kind).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
mod common;

use common::{lines, sweep, Case, Rng};

const KINDS: &[&str] = &[
    "Image1D",
    "Image1DArray",
    "Image2D",
    "Image2DArray",
    "Image2DMS",
    "Image2DMSArray",
    "ImageCube",
    "ImageCubeArray",
    "Image3D",
];
const TEXELS: &[&str] = &["f32", "i32", "u32"];

/// Operand choices by role; `-` is a null operand, `C ...` a constant, anything else an
/// undefined value of that type.
const SCALARS: &[&str] = &["-", "u32", "i32", "f32", "u16"];
const COORDS: &[&str] = &[
    "u32",
    "i32",
    "f32",
    "u16",
    "vec2<u32>",
    "vec2<i32>",
    "vec2<f32>",
    "vec3<u32>",
    "vec3<i32>",
    "vec3<f32>",
    "vec4<f32>",
    "vec2<f16>",
];
const OFFSETS: &[&str] = &[
    "-",
    "-",
    "C i32 1",
    "C vec2<i32> 1 -1",
    "C vec3<i32> 1 1 -1",
    "C vec2<u32> 1 1",
    "vec2<i32>",
];
const GRADIENTS: &[&str] = &["-", "-", "f32", "vec2<f32>", "vec3<f32>", "vec2<u32>"];
const DREFS: &[&str] = &["-", "-", "f32", "u32"];
const RESULTS: &[&str] = &[
    "vec4<f32>",
    "vec4<i32>",
    "vec4<u32>",
    "f32",
    "u32",
    "vec2<f32>",
    "[sparse] struct{u32, vec4<f32>}",
    "[sparse] struct{u32, vec4<u32>}",
    "[sparse] struct{u32, f32}",
];
const SIZES: &[&str] = &[
    "struct{u32, u32}",
    "struct{vec2<u32>, u32}",
    "struct{vec3<u32>, u32}",
    "struct{vec2<i32>, i32}",
    "struct{u32, i32}",
];
const ATOMICS: &[(&str, &str)] = &[
    ("Add", "u32"),
    ("Add", "i32"),
    ("UMin", "u32"),
    ("Exchange", "u32"),
    ("CompareExchange", "vec2<u32>"),
    ("CompareExchange", "u32"),
    ("Load", "-"),
    ("Store", "u32"),
    ("Inc", "-"),
    ("Add", "f32"),
];
/// The atomics tried on 64-bit texels (SM 6.6's 64-bit typed UAV atomics).
const ATOMICS64: &[(&str, &str)] = &[
    ("Add", "u64"),
    ("Add", "i64"),
    ("SMax", "i64"),
    ("Or", "u64"),
    ("Exchange", "u64"),
    ("CompareExchange", "vec2<u64>"),
    ("CompareExchange", "vec2<i64>"),
    ("Load", "-"),
    ("Store", "i64"),
    ("Add", "u32"),
];

/// A random image op for an image of `kind` (a UAV if `uav`) with texels of `texel`.
fn random_case(rng: &mut Rng, uav: bool, texel: &str) -> Case {
    random_case_with(rng, uav, texel, ATOMICS, RESULTS)
}

/// [`random_case`] with the atomics and results to choose from.
fn random_case_with(
    rng: &mut Rng,
    uav: bool,
    texel: &str,
    atomics: &[(&str, &str)],
    results: &[&str],
) -> Case {
    let mut c = Case::new("");
    let result = rng.choose(results);
    let which = rng.next_u64() % if uav { 5 } else { 7 };
    match which {
        0 => {
            c.line = format!("ImageLoad {result} %D");
            c.operand(rng.choose(SCALARS)); // mip
            c.operand(rng.choose(SCALARS)); // layer
            c.operand(rng.choose(COORDS));
            c.operand(rng.choose(SCALARS)); // sample
            c.operand(rng.choose(OFFSETS));
        }
        1 => {
            c.line = "ImageQuerySize ".to_string() + rng.choose(SIZES) + " %D";
            c.operand(rng.choose(SCALARS));
        }
        2 => {
            c.line = rng
                .choose(&["ImageQueryMips u32 %D", "ImageQuerySamples u32 %D"])
                .into()
        }
        3 if uav => {
            c.line = "ImageStore void %D".into();
            c.operand(rng.choose(SCALARS)); // layer
            c.operand(rng.choose(COORDS));
            let value = format!("vec4<{texel}>");
            c.operand(rng.choose(&[&value, "vec4<f32>", "u32", "vec2<u32>"]));
            c.operand(rng.choose(SCALARS)); // sample
        }
        4 if uav => {
            let (op, operand) = atomics[(rng.next_u64() % atomics.len() as u64) as usize];
            let rt = rng.choose(&["void", texel, "u32", "i32"]);
            c.line = format!("ImageAtomic {rt} %D");
            c.operand(rng.choose(SCALARS)); // layer
            c.operand(rng.choose(COORDS));
            c.operand(operand);
            c.literal(op);
        }
        3 | 5 => {
            c.line = format!("ImageSample {result} %D %S");
            c.operand(rng.choose(SCALARS)); // layer
            c.operand(rng.choose(COORDS));
            c.operand(rng.choose(OFFSETS));
            c.operand(rng.choose(&["-", "-", "f32", "u32"])); // lod
            c.operand(rng.choose(&["-", "-", "f32"])); // bias
            c.operand(rng.choose(&["-", "-", "f32"])); // clamp
            c.operand(rng.choose(GRADIENTS));
            c.operand(rng.choose(GRADIENTS));
            c.operand(rng.choose(DREFS));
        }
        4 | 6 => {
            c.line = format!("ImageGather {result} %D %S");
            c.operand(rng.choose(SCALARS)); // layer
            c.operand(rng.choose(COORDS));
            c.operand(rng.choose(OFFSETS));
            c.operand(rng.choose(DREFS));
            c.literal(rng.next_u64() % 5);
        }
        _ => {
            c.line = "ImageComputeLod vec2<f32> %D %S".into();
            c.operand(rng.choose(COORDS));
        }
    }
    c
}

/// A pixel shader declaring an image of `kind` and a sampler and running `cases`.
fn program(kind: &str, uav: bool, texel: &str, cases: &[&Case]) -> String {
    let dcl = if uav {
        format!("DclUav {texel} %1 0 0 1 {kind} FixedFormat")
    } else {
        format!("DclSrv {texel} %1 0 0 1 {kind}")
    };
    let class = if uav { "uav" } else { "srv" };
    let (decls, body, next) = lines(cases, 100);
    let body = body.replace("%D", "%20").replace("%S", "%21");
    format!(
        "%1 = EntryPoint %3 Pixel\n%6 = {dcl}\n%7 = DclSampler %1 0 0 1\n%8 = Constant u32 0\n\
         {decls}%3 = Function void\n%5 = Label None\n%20 = DescriptorLoad {class} %6 %8\n\
         %21 = DescriptorLoad sampler %7 %8\n{body}%{next} = Return void null\n\
         %{} = FunctionEnd\n",
        next + 1
    )
}

#[test]
fn every_image_op_the_validator_accepts_emits_valid_spirv() {
    let mut rng = Rng(0x1a2b_3c4d);
    let (mut tried, mut accepted, mut emitted) = (0, 0, 0);
    for kind in KINDS {
        for uav in [false, true] {
            for texel in TEXELS {
                let cases: Vec<Case> = (0..1_500)
                    .map(|_| random_case(&mut rng, uav, texel))
                    .collect();
                tried += cases.len();
                let Some((a, e)) = sweep(&cases, &|c| program(kind, uav, texel, c)) else {
                    return println!("spirv-val not installed: nothing checked");
                };
                accepted += a;
                emitted += e;
            }
        }
    }
    println!("image ops: {tried} tried, {accepted} valid IR, {emitted} emitted");
    assert!(
        accepted > 500,
        "{accepted} cases accepted: the sweep lost its reach"
    );
}

#[test]
fn sixty_four_bit_texels_the_validator_accepts_emit_valid_spirv() {
    let mut rng = Rng(0x64b1_7e15);
    let results: &[&str] = &[
        "vec4<u64>",
        "vec4<i64>",
        "u64",
        "vec4<u32>",
        "[sparse] struct{u32, vec4<u64>}",
    ];
    let (mut accepted, mut emitted) = (0, 0);
    for kind in ["Image1D", "Image2D", "Image2DArray", "Image3D", "Image2DMS"] {
        for uav in [false, true] {
            for texel in ["u64", "i64"] {
                let cases: Vec<Case> = (0..400)
                    .map(|_| random_case_with(&mut rng, uav, texel, ATOMICS64, results))
                    .collect();
                let Some((a, e)) = sweep(&cases, &|c| program(kind, uav, texel, c)) else {
                    return println!("spirv-val not installed: nothing checked");
                };
                accepted += a;
                emitted += e;
            }
        }
    }
    println!("64-bit image ops: {accepted} valid IR, {emitted} emitted");
    assert!(
        accepted > 50,
        "{accepted} cases accepted: the sweep lost its reach"
    );
}
