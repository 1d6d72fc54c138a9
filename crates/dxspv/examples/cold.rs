//! Times the first compile in a fresh process (cold): `cold <shader>`.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: cold <shader>");
        return;
    };
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("cannot read {path}");
        return;
    };
    let opts = dxspv::Options::default();
    let faults0 = minor_faults();
    let start = std::time::Instant::now();
    let r = dxspv::compile(&bytes, &opts);
    let total = start.elapsed();
    let faults1 = minor_faults();
    let start2 = std::time::Instant::now();
    let r2 = dxspv::compile(&bytes, &opts);
    let second = start2.elapsed();
    match (r, r2) {
        (Ok(o), Ok(_)) => println!(
            "cold {:.1} us faults {} (parse {:.1} convert {:.1} passes {:.1} spirv {:.1}); second {:.1} us",
            total.as_secs_f64() * 1e6,
            faults1 - faults0,
            o.times.parse.as_secs_f64() * 1e6,
            o.times.convert.as_secs_f64() * 1e6,
            o.times.passes.as_secs_f64() * 1e6,
            o.times.spirv.as_secs_f64() * 1e6,
            second.as_secs_f64() * 1e6
        ),
        (Err(e), _) | (_, Err(e)) => println!("error: {e}"),
    }
}

/// Minor page faults of this process so far (Linux `/proc/self/stat`, field 10), 0 elsewhere.
fn minor_faults() -> u64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1.to_owned();
            rest.split_whitespace().nth(7)?.parse().ok()
        })
        .unwrap_or(0)
}
