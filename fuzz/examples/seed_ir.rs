//! Seeding helper for the IR fuzz targets: converts each DXBC file given on the command
//! line and writes `<text_dir>/<n>.ir` (IR text) and `<bin_dir>/<n>.bin` (serialized IR);
//! with `--lowered <dir>`, also `<dir>/<n>_lowered.ir` (the IR after the pass pipeline).
//!
//! usage: seed_ir [--lowered <dir>] <text_dir> <bin_dir> <file.dxbc>...

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut lowered_dir = None;
    if args.first().map(String::as_str) == Some("--lowered") && args.len() > 1 {
        lowered_dir = Some(args[1].clone());
        args.drain(..2);
    }
    if args.len() < 3 {
        eprintln!("usage: seed_ir [--lowered <dir>] <text_dir> <bin_dir> <file.dxbc>...");
        std::process::exit(2);
    }
    let (text_dir, bin_dir) = (&args[0], &args[1]);
    let mut n = 0usize;
    for path in &args[2..] {
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        let Ok(shader) = dxspv_dxbc::Shader::parse(&data) else {
            continue;
        };
        let Ok(mut b) = dxspv_dxbc::convert(&shader) else {
            continue;
        };
        let text = dxspv_ir::text::print(&b);
        let bin = dxspv_ir::serialize::serialize(&b);
        std::fs::write(format!("{text_dir}/{n:04}.ir"), text).expect("write text seed");
        std::fs::write(format!("{bin_dir}/{n:04}.bin"), bin).expect("write bin seed");
        if let Some(dir) = &lowered_dir {
            let opts = dxspv_ir::passes::options::Options::default();
            if dxspv_ir::passes::pipeline::run_pipeline(&mut b, &opts).is_ok() {
                let text = dxspv_ir::text::print(&b);
                std::fs::write(format!("{dir}/{n:04}_lowered.ir"), text)
                    .expect("write lowered seed");
            }
        }
        n += 1;
    }
    eprintln!("wrote {n} IR seeds");
}
