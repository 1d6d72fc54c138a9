//! Counts the IR ops the converter creates, the ones still live at its end, and the live
//! pure ops nothing uses (what the passes delete), over the D3D9 corpus: what conversion
//! makes only to throw away.
//!
//! Run: `cargo run --release -p dxspv-sm3 --example op_churn [-- v]` (`v`: a line per
//! shader: ops made, ops live, unused pure ops, path).
#![allow(clippy::unwrap_used, clippy::print_stdout)]
use std::collections::BTreeMap;
fn main() {
    let Some(corpus) = dxspv_testkit::corpus::Corpus::open() else {
        return;
    };
    let opts = dxspv_sm3::Options::default();
    let (mut made, mut live, mut n) = (0usize, 0usize, 0usize);
    let mut dead: BTreeMap<String, usize> = BTreeMap::new();
    let verbose = std::env::args().nth(1).is_some();
    for e in corpus.of_format("d3d9") {
        let bytes = corpus.read(e);
        let Ok(shader) = dxspv_sm3::Shader::parse(&bytes) else {
            continue;
        };
        let Ok(ir) = dxspv_sm3::convert(&shader, &opts) else {
            continue;
        };
        let m = ir.id_bound() - 1;
        let l = ir.len();
        let mut nd = 0;
        for (d, op) in ir.iter() {
            use dxspv_ir::OpCode as O;
            if matches!(
                op.opcode,
                O::Constant
                    | O::CompositeExtract
                    | O::CompositeConstruct
                    | O::InputLoad
                    | O::BufferLoad
                    | O::FClamp
                    | O::DescriptorLoad
            ) && !ir.has_uses(d)
            {
                *dead.entry(format!("{:?}", op.opcode)).or_default() += 1;
                nd += 1;
            }
        }
        if verbose {
            println!("{m:5} {l:5} {nd:3} {:?}", corpus.path(e));
        }
        made += m;
        live += l;
        n += 1;
    }
    println!(
        "{n} shaders: made {:.1}/shader, live {:.1}/shader",
        made as f64 / n as f64,
        live as f64 / n as f64
    );
    for (k, v) in dead {
        println!("  unused {k}: {:.2}/shader", v as f64 / n as f64);
    }
}
