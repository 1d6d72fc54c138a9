//! Scale check: one generated DXBC compute shader of 100,000 ALU instructions, compiled five
//! times; prints the best time per stage and per instruction, next to the same figures for the
//! median shader of the DXBC corpus (when `../shared/corpus` is present). Translation should
//! cost about as much per instruction in a huge shader as in a small one: nothing in the
//! pipeline may grow faster than the shader.
//!
//! `cargo run --release -p dxspv --example large_shader [-- INSTRUCTIONS]`; with
//! `DXSPV_LARGE_SHADER_OUT=FILE` it also writes the generated shader there.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used)]

use std::time::Duration;

/// Tokens of `cs_5_0`: `dcl_uav_raw u0; dcl_input vThreadID.xyz; dcl_temps 1;
/// dcl_thread_group 1, 1, 1; utof r0.xyzw, vThreadID.xyzx`, then `n` instructions cycling
/// through `mad r0, r0, l(0.5), l(1.0)`, `add r0, r0, l(0.25)` and `mul r0, r0, r0.wzyx`, then
/// `store_raw u0.xyzw, l(0), r0.xyzw; ret`. The chain starts from the thread id, so no pass can
/// fold it away.
fn program(n: usize) -> Vec<u32> {
    const R0_XYZW: u32 = 0x0010_00f2; // r0, mask xyzw
    const R0_SWZ_XYZW: u32 = 0x0010_0e46; // r0, swizzle xyzw
    const R0_SWZ_WZYX: u32 = 0x0010_01b6; // r0, swizzle wzyx
    const IMM4: u32 = 0x0000_4002; // four 32-bit immediates
    let half = 0.5f32.to_bits();
    let one = 1.0f32.to_bits();
    let quarter = 0.25f32.to_bits();
    let mut p = vec![
        0x0005_0050,
        0, // cs_5_0, length (set below)
        0x0300_009d,
        0x0011_e000,
        0, // dcl_uav_raw u0
        0x0200_005f,
        0x0002_0072, // dcl_input vThreadID.xyz
        0x0200_0068,
        1, // dcl_temps 1
        0x0400_009b,
        1,
        1,
        1, // dcl_thread_group 1, 1, 1
        0x0400_0056,
        R0_XYZW,
        0,
        0x0002_0246, // utof r0.xyzw, vThreadID.xyzx
    ];
    for i in 0..n {
        match i % 3 {
            0 => p.extend_from_slice(&[
                0x0f00_0032,
                R0_XYZW,
                0,
                R0_SWZ_XYZW,
                0,
                IMM4,
                half,
                half,
                half,
                half,
                IMM4,
                one,
                one,
                one,
                one,
            ]),
            1 => p.extend_from_slice(&[
                0x0a00_0000,
                R0_XYZW,
                0,
                R0_SWZ_XYZW,
                0,
                IMM4,
                quarter,
                quarter,
                quarter,
                quarter,
            ]),
            _ => p.extend_from_slice(&[0x0700_0038, R0_XYZW, 0, R0_SWZ_XYZW, 0, R0_SWZ_WZYX, 0]),
        }
    }
    p.extend_from_slice(&[
        0x0700_00a6,
        0x0011_e0f2,
        0,
        0x0000_4001,
        0,
        R0_SWZ_XYZW,
        0,           // store_raw u0.xyzw, l(0), r0.xyzw
        0x0100_003e, // ret
    ]);
    p[1] = p.len() as u32;
    p
}

/// Best of `rounds` compiles, per stage: parse, convert, passes, SPIR-V, total.
fn best_times(bytes: &[u8], rounds: usize) -> Option<[Duration; 5]> {
    let opts = dxspv::Options::default();
    let mut best: Option<[Duration; 5]> = None;
    for _ in 0..rounds {
        let start = std::time::Instant::now();
        let out = dxspv::compile(bytes, &opts).ok()?;
        let total = start.elapsed();
        let t = &out.times;
        let now = [t.parse, t.convert, t.passes, t.spirv, total];
        best = Some(match best {
            None => now,
            Some(b) => std::array::from_fn(|i| b[i].min(now[i])),
        });
    }
    best
}

/// Executable (non-declaration) instructions of a DXBC shader.
fn instruction_count(bytes: &[u8]) -> Option<usize> {
    let shader = dxspv_dxbc::Shader::parse(bytes).ok()?;
    let mut n = 0;
    for inst in shader.program.instructions() {
        if !inst.ok()?.is_declaration() {
            n += 1;
        }
    }
    Some(n)
}

fn print_row(name: &str, instructions: usize, t: &[Duration; 5]) {
    let per = |d: Duration| d.as_secs_f64() * 1e9 / instructions.max(1) as f64;
    println!(
        "{name:<28} {instructions:>8} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
        per(t[0]),
        per(t[1]),
        per(t[2]),
        per(t[3]),
        per(t[4])
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let bytes = dxspv_testkit::dxbc::shex_container(&program(n));
    if let Some(path) = std::env::var_os("DXSPV_LARGE_SHADER_OUT") {
        // Kept for `dxspv bench`, `dxspv disasm` and profilers.
        std::fs::write(path, &bytes).unwrap();
    }
    let count = instruction_count(&bytes).unwrap();
    let Some(t) = best_times(&bytes, 5) else {
        eprintln!("the generated shader did not compile");
        std::process::exit(1);
    };
    println!(
        "ns per instruction, best of 5 (warm); total compile of the large shader {:.1} ms",
        t[4].as_secs_f64() * 1e3
    );
    println!(
        "{:<28} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "shader", "instrs", "parse", "convert", "passes", "spirv", "total"
    );
    print_row("generated cs_5_0", count, &t);

    let Some(corpus) = dxspv_testkit::corpus::Corpus::open() else {
        println!("(no corpus: the corpus median is skipped)");
        return;
    };
    // Per-instruction figures of every corpus shader; the row shows each stage's median.
    let mut per: [Vec<f64>; 5] = Default::default();
    let mut counts = Vec::new();
    for entry in corpus.of_format("dxbc") {
        let bytes = corpus.read(entry);
        let (Some(c), Some(t)) = (instruction_count(&bytes), best_times(&bytes, 10)) else {
            continue;
        };
        let c = c.max(1);
        counts.push(c as f64);
        for (i, d) in t.iter().enumerate() {
            per[i].push(d.as_secs_f64() * 1e9 / c as f64);
        }
    }
    let med: [f64; 5] = std::array::from_fn(|i| median(per[i].clone()));
    println!(
        "{:<28} {:>8} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
        "corpus median (DXBC)",
        median(counts) as usize,
        med[0],
        med[1],
        med[2],
        med[3],
        med[4]
    );
}
