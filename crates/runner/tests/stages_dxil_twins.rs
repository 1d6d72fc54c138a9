//! DXIL twins of shared tessellation cases whose DXIL shaders are in the corpus but have no
//! case of their own: vkd3d-proton's tessellation tests run the same checks on the DXBC and
//! the DXIL build of each shader (one test function, a `use_dxil` switch), so a DXBC case's
//! expectations hold for the DXIL shaders of the same arrays. Each twin is the shared DXBC
//! case with its shader paths replaced (the table below), written to a temporary folder and
//! run on the Vulkan device (lavapipe); every run must pass.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]

use dxspv_runner::{default_corpus, exec::Outcome, run_case, vk::Gpu};
use serde_json::Value;
use std::path::Path;

/// Shared DXBC cases (under `exec-stages/vkd3d-proton`) with DXIL twins.
const CASES: &[&str] = &[
    "vkd3d-proton_line_tessellation_dxbc",
    "vkd3d-proton_quad_tessellation_dxbc",
    "vkd3d-proton_quad_tessellation_wrong_input_count_dxbc",
    "vkd3d-proton_tessellation_dcl_index_range_dxbc",
];

/// DXBC corpus file to its DXIL twin (both under `<format>/vkd3d-proton/`). The DXBC cases
/// name `command_draw_depth_no_ps` for the tessellation tests' vertex shader (byte-identical,
/// their notes say); its DXIL build is not in the corpus under that name, and
/// `tessellation_dcl_index_range_vs` (DXIL) is the same pass-through of `float4` position.
const TWINS: &[(&str, &str)] = &[
    (
        "command_draw_depth_no_ps_code_dxbc.dxbc",
        "tessellation_dcl_index_range_vs_code_dxil.dxil",
    ),
    (
        "d3d12_test_utils_init_pipeline_state_desc_ps_code.dxbc",
        "d3d12_test_utils_init_pipeline_state_desc_dxil_ps_code.dxil",
    ),
    (
        "tessellation_line_tessellation_vs_code_dxbc.dxbc",
        "tessellation_line_tessellation_vs_code_dxil.dxil",
    ),
    (
        "tessellation_line_tessellation_hs_code_dxbc.dxbc",
        "tessellation_line_tessellation_hs_code_dxil.dxil",
    ),
    (
        "tessellation_line_tessellation_ds_code_dxbc.dxbc",
        "tessellation_line_tessellation_ds_code_dxil.dxil",
    ),
    (
        "tessellation_quad_tess_hs_cw_code_dxbc.dxbc",
        "tessellation_quad_tess_hs_cw_code_dxil.dxil",
    ),
    (
        "tessellation_quad_tess_hs_ccw_code_dxbc.dxbc",
        "tessellation_quad_tess_hs_ccw_code_dxil.dxil",
    ),
    (
        "tessellation_quad_tess_hs_ccw_overcount_input_code_dxbc.dxbc",
        "tessellation_quad_tess_hs_ccw_overcount_input_code_dxil.dxil",
    ),
    (
        "tessellation_dcl_index_range_hs_code_dxbc.dxbc",
        "tessellation_dcl_index_range_hs_code_dxil.dxil",
    ),
    (
        "tessellation_dcl_index_range_ds_code_dxbc.dxbc",
        "tessellation_dcl_index_range_ds_code_dxil.dxil",
    ),
];

/// Replaces every DXBC shader path under a `shaders` map with its DXIL twin (panicking on a
/// path the table lacks) and the models with 6.0; returns how many paths it replaced.
fn twin(v: &mut Value) -> usize {
    let mut n = 0;
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                if k == "shaders" {
                    if let Value::Object(stages) = child {
                        for path in stages.values_mut() {
                            let p = path.as_str().unwrap();
                            let file = p.strip_prefix("dxbc/vkd3d-proton/").unwrap_or_else(|| {
                                panic!("{p}: not a vkd3d-proton DXBC shader");
                            });
                            let (_, dxil) = TWINS
                                .iter()
                                .find(|(d, _)| *d == file)
                                .unwrap_or_else(|| panic!("{p}: no DXIL twin listed"));
                            *path = Value::String(format!("dxil/vkd3d-proton/{dxil}"));
                            n += 1;
                        }
                    }
                } else if k == "models" {
                    if let Value::Object(models) = child {
                        for m in models.values_mut() {
                            *m = Value::String("6_0".into());
                        }
                    }
                } else {
                    n += twin(child);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                n += twin(item);
            }
        }
        _ => {}
    }
    n
}

#[test]
fn dxil_twins_of_tessellation_cases_match_direct3d() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/exec-stages");
    let corpus = default_corpus();
    if !shared.is_dir() || !corpus.is_dir() {
        println!("skipping: shared cases or corpus not found");
        return;
    }
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            println!("skipping: no Vulkan device (install mesa-vulkan-drivers): {e}");
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!("dxspv-dxil-twins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut passed = 0;
    let mut failed = Vec::new();
    for name in CASES {
        let file = shared.join("vkd3d-proton").join(format!("{name}.json"));
        let text = std::fs::read_to_string(&file).unwrap();
        let mut case: Value = serde_json::from_str(&text).unwrap();
        assert!(twin(&mut case) > 0, "{name}: no shaders replaced");
        case["format"] = Value::String("dxil".into());
        let twin_name = name.replace("_dxbc", "_dxil_twin");
        case["name"] = Value::String(twin_name.clone());
        let path = dir.join(format!("{twin_name}.json"));
        std::fs::write(&path, serde_json::to_string(&case).unwrap()).unwrap();
        for r in run_case(&gpu, &path, std::slice::from_ref(&corpus)) {
            println!("{r}");
            match r.outcome {
                Outcome::Ok => passed += 1,
                _ => failed.push(r.to_string()),
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(failed.is_empty(), "runs that did not pass: {failed:?}");
    assert_eq!(passed, 7, "every run of the four cases");
}
