//! Inputs the fuzzers found crashing or miscompiling, kept as regression tests. Each must
//! compile to an error or to SPIR-V that `spirv-val` accepts (checked when installed).

use std::process::Command;

/// `compile` fuzz target: a geometry-shader program whose header was mutated into another
/// stage kept its `emit`; the backend emitted `OpEmitVertex` without the Geometry capability.
/// The converter now refuses stage-specific instructions in the wrong stage.
const EMIT_OUTSIDE_GEOMETRY: &[&str] = &[
    "4458424318ee9a03530463fd0fcf84b8440710100100000010030000030000002c00000060000000940000004953474e",
    "2c000000010000000800000020000000000000000100000003000000000000000f03000053565f504f534954494f4e00",
    "4f53474e2c000000010000000800000020000000000000000000000003000000000000000f00000053565f5461726765",
    "7400abab5348445274020000400000009d00000059000004468e200000000000010000005a0000030060100000000000",
    "583000040070100000000000555500006420000432101000000000000100000065000003f22010000000000068000002",
    "010000004c0000040a802000000000000000000006000003014000000000000036000005120010000000000001400000",
    "0000803f3800000a620010000000000006111000000000000240000000000000cdcccc3a8988083b0000000002000001",
    "06000003014000000100000036000005120010000000000001400000000080bf3800000a620010000000000006111000",
    "000000000240000000000000cdcccc3a8988083b00000000020000010600000301400000020000003800000a52001000",
    "00000000061110000000000002400000cdcccc3a000000008988083b0000000036000005220010000000000001400000",
    "0000803f020000010600000301400000030000003800000a5200100000000000061110000000000002400000cdcccc3a",
    "000000008988083b0000000036000005220010000000000001400000000080bf02000001060000030140000004000000",
    "3800000a3200100000000000461010000000000002400000cdcccc3a8988083b00000000000000003600000542001000",
    "00000000014000000000803f020000010a0000013800000a3200100000000000461010000000000002400000cdcccc3a",
    "8988083b000000000000000036000005420010000000000001400000000080bf02000001170000011300000682001000",
    "000000001a80200000000000000000004800000bf2201000000000004602100000000000467e10000000000000601000",
    "000000003a001000000000003e000001",
];

fn bytes(hex: &[&str]) -> Vec<u8> {
    let s: String = hex.concat();
    (0..s.len() / 2)
        .filter_map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

fn check(name: &str, input: &[u8]) {
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let Ok(out) = dxspv::compile(input, &opts) else {
        return;
    };
    let path = std::env::temp_dir().join(format!(
        "dxspv-regression-{}-{name}.spv",
        std::process::id()
    ));
    let words: Vec<u8> = out.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    if std::fs::write(&path, words).is_err() {
        return;
    }
    if let Ok(v) = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.3"])
        .arg(&path)
        .output()
    {
        assert!(
            v.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&v.stderr)
        );
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn emit_outside_a_geometry_shader_is_an_error() {
    let input = bytes(EMIT_OUTSIDE_GEOMETRY);
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("only allowed in"), "{e}"),
    }
    check("emit", &input);
}
