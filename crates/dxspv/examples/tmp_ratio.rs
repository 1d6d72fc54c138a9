fn main() {
    let root = std::path::Path::new("/work/shared/corpus/dxbc");
    let mut r = Vec::new();
    for src in std::fs::read_dir(root).unwrap().flatten() {
        for f in std::fs::read_dir(src.path()).unwrap().flatten() {
            let bytes = std::fs::read(f.path()).unwrap();
            let Ok(shader) = dxspv_dxbc::Shader::parse(&bytes) else {
                continue;
            };
            let t = shader.program.tokens.len();
            let Ok(mut ir) = dxspv_dxbc::convert(&shader) else {
                continue;
            };
            let a = ir.id_bound();
            let _ = dxspv_ir::passes::run_pipeline(&mut ir, &Default::default());
            let b = ir.id_bound();
            r.push((a as f64 / t as f64, b as f64 / t as f64, t));
        }
    }
    let q = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let n = v.len();
        println!(
            "p10 {:.2} p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}",
            v[n / 10],
            v[n / 2],
            v[n * 9 / 10],
            v[n * 99 / 100],
            v[n - 1]
        );
    };
    let mut a: Vec<f64> = r.iter().map(|x| x.0).collect();
    let mut b: Vec<f64> = r.iter().map(|x| x.1).collect();
    q(&mut a);
    q(&mut b);
    let small: Vec<_> = r.iter().filter(|x| x.2 < 150).collect();
    let mut c: Vec<f64> = small.iter().map(|x| x.1).collect();
    q(&mut c);
}
