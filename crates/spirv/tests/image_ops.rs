//! Image ops with random operand types and shapes, over every image kind, SRVs and UAVs and
//! texel types: whatever the validator accepts at the lowered level must emit as SPIR-V that
//! `spirv-val` accepts, or be refused with an error. The companion of `op_types.rs` for the ops
//! with the most rules (coordinates, layers, offsets, gradients, depth compares, sparse
//! feedback, atomics and queries, each against the image's kind).

use dxspv_ir::validate::{validate, Level};
use dxspv_spirv::{emit, SpirvOptions};
use std::fmt::Write as _;
use std::process::Command;

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

/// SplitMix64: the same cases on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

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

/// One image op: the operand values it needs (declared before the function) and its line,
/// where `$k` stands for the k-th value, `%D` the image and `%S` the sampler.
struct Case {
    values: Vec<String>,
    line: String,
}

impl Case {
    fn new() -> Self {
        Case {
            values: Vec::new(),
            line: String::new(),
        }
    }

    /// Appends operand `choice` to the line (`null`, or a reference to a new value).
    fn operand(&mut self, choice: &str) {
        if choice == "-" {
            self.line.push_str(" null");
        } else {
            let _ = write!(self.line, " ${}", self.values.len());
            self.values.push(choice.to_string());
        }
    }
}

/// A random image op for an image of `kind` (a UAV if `uav`).
fn random_case(rng: &mut Rng, uav: bool, texel: &str) -> Case {
    let mut c = Case::new();
    let result = rng.pick(RESULTS);
    let which = rng.next() % if uav { 5 } else { 7 };
    match which {
        0 => {
            c.line = format!("ImageLoad {result} %D");
            c.operand(rng.pick(SCALARS)); // mip
            c.operand(rng.pick(SCALARS)); // layer
            c.operand(rng.pick(COORDS));
            c.operand(rng.pick(SCALARS)); // sample
            c.operand(rng.pick(OFFSETS));
        }
        1 => {
            c.line = "ImageQuerySize ".to_string() + rng.pick(SIZES) + " %D";
            c.operand(rng.pick(SCALARS));
        }
        2 => {
            c.line = rng
                .pick(&["ImageQueryMips u32 %D", "ImageQuerySamples u32 %D"])
                .into()
        }
        3 if uav => {
            c.line = "ImageStore void %D".into();
            c.operand(rng.pick(SCALARS)); // layer
            c.operand(rng.pick(COORDS));
            let value = format!("vec4<{texel}>");
            c.operand(rng.pick(&[&value, "vec4<f32>", "u32", "vec2<u32>"]));
        }
        4 if uav => {
            let (op, operand) = ATOMICS[(rng.next() % ATOMICS.len() as u64) as usize];
            let rt = rng.pick(&["void", texel, "u32", "i32"]);
            c.line = format!("ImageAtomic {rt} %D");
            c.operand(rng.pick(SCALARS)); // layer
            c.operand(rng.pick(COORDS));
            c.operand(operand);
            let _ = write!(c.line, " {op}");
        }
        3 | 5 => {
            c.line = format!("ImageSample {result} %D %S");
            c.operand(rng.pick(SCALARS)); // layer
            c.operand(rng.pick(COORDS));
            c.operand(rng.pick(OFFSETS));
            c.operand(rng.pick(&["-", "-", "f32", "u32"])); // lod
            c.operand(rng.pick(&["-", "-", "f32"])); // bias
            c.operand(rng.pick(&["-", "-", "f32"])); // clamp
            c.operand(rng.pick(GRADIENTS));
            c.operand(rng.pick(GRADIENTS));
            c.operand(rng.pick(DREFS));
        }
        4 | 6 => {
            c.line = format!("ImageGather {result} %D %S");
            c.operand(rng.pick(SCALARS)); // layer
            c.operand(rng.pick(COORDS));
            c.operand(rng.pick(OFFSETS));
            c.operand(rng.pick(DREFS));
            let _ = write!(c.line, " {}", rng.next() % 5);
        }
        _ => {
            c.line = "ImageComputeLod vec2<f32> %D %S".into();
            c.operand(rng.pick(COORDS));
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
    let mut t = format!(
        "%1 = EntryPoint %3 Pixel\n%6 = {dcl}\n%7 = DclSampler %1 0 0 1\n%8 = Constant u32 0\n"
    );
    let mut body =
        format!("%20 = DescriptorLoad {class} %6 %8\n%21 = DescriptorLoad sampler %7 %8\n");
    let mut next = 100;
    for case in cases {
        let mut line = case.line.replace("%D", "%20").replace("%S", "%21");
        for (k, value) in case.values.iter().enumerate().rev() {
            match value.strip_prefix("C ") {
                Some(constant) => {
                    let _ = writeln!(t, "%{next} = Constant {constant}");
                }
                None => {
                    let _ = writeln!(t, "%{next} = Undef {value}");
                }
            }
            line = line.replace(&format!("${k}"), &format!("%{next}"));
            next += 1;
        }
        let _ = writeln!(body, "%{next} = {line}");
        next += 1;
    }
    let _ = write!(
        t,
        "%3 = Function void\n%5 = Label None\n{body}%{} = Return void null\n%{} = FunctionEnd\n",
        next,
        next + 1
    );
    t
}

/// `spirv-val`'s verdict on `words` (its first line when it refuses); `None` when it is not
/// installed.
fn spirv_val(words: &[u32]) -> Option<Result<(), String>> {
    Command::new("spirv-val").arg("--version").output().ok()?;
    let path = std::env::temp_dir().join(format!("dxspv-image-ops-{}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).ok()?;
    let out = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.3"])
        .arg(&path)
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&path);
    Some(if out.status.success() {
        Ok(())
    } else {
        let msg = String::from_utf8_lossy(&out.stderr);
        Err(msg.lines().next().unwrap_or("").to_string())
    })
}

#[test]
fn every_image_op_the_validator_accepts_emits_valid_spirv() {
    let opts = SpirvOptions::default();
    let mut rng = Rng(0x1a2b_3c4d);
    let (mut tried, mut accepted, mut emitted) = (0, 0, 0);
    let mut invalid = Vec::new();
    for kind in KINDS {
        for uav in [false, true] {
            for texel in TEXELS {
                // Random cases one at a time through the validator and the backend; those that
                // emit go to spirv-val together (one by one if it refuses them together).
                let mut emitting = Vec::new();
                for _ in 0..1_500 {
                    tried += 1;
                    let case = random_case(&mut rng, uav, texel);
                    let text = program(kind, uav, texel, &[&case]);
                    let b = dxspv_ir::text::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    if validate(&b, Level::Lowered).is_err() {
                        continue;
                    }
                    accepted += 1;
                    if emit(&b, &opts).is_ok() {
                        emitted += 1;
                        emitting.push(case);
                    }
                }
                if emitting.is_empty() {
                    continue;
                }
                let all: Vec<&Case> = emitting.iter().collect();
                let b = dxspv_ir::text::parse(&program(kind, uav, texel, &all)).expect("parses");
                let words = emit(&b, &opts).expect("ops that emit alone emit together");
                match spirv_val(&words) {
                    None => return println!("spirv-val not installed: nothing checked"),
                    Some(Ok(())) => {}
                    Some(Err(_)) => {
                        for case in &emitting {
                            let text = program(kind, uav, texel, &[case]);
                            let b = dxspv_ir::text::parse(&text).expect("parses");
                            let words = emit(&b, &opts).expect("emits");
                            if let Some(Err(msg)) = spirv_val(&words) {
                                invalid.push(format!("{msg}\n{text}"));
                            }
                        }
                    }
                }
            }
        }
    }
    println!("image ops: {tried} tried, {accepted} valid IR, {emitted} emitted");
    assert!(
        accepted > 500,
        "{accepted} cases accepted: the probe lost its reach"
    );
    assert!(
        invalid.is_empty(),
        "{} invalid modules, the first:\n{}",
        invalid.len(),
        invalid[0]
    );
}
