//! `Options::class_linkage` end to end, on the corpus's one class linkage shader (wine's
//! `reflection_constant_buffer` blob: `dcl_interface fp0[1][0] = {ft0}` and a member read
//! `cb[this[0].x][this[0].y].x`): it compiles to valid SPIR-V under the default and a chosen
//! binding, the binding reaches the member read, and a binding the shader cannot take is
//! refused.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::dxbc::{InstanceData, InterfaceBinding};
use dxspv::IrStage;
use dxspv_testkit::{installed, spirv_val, Corpus};

const SHADER: &str =
    "dxbc/wine/d3dcompiler_43_reflection_test_reflection_constant_buffer_blob.dxbc";

fn shader() -> Option<Vec<u8>> {
    let corpus = Corpus::open()?;
    let Some(entry) = corpus.entries.iter().find(|e| e.path == SHADER) else {
        println!("{SHADER} is not in the corpus: skipped");
        return None;
    };
    Some(corpus.read(entry))
}

fn with_binding(binding: InterfaceBinding) -> dxspv::Options {
    dxspv::Options {
        class_linkage: vec![binding],
        ..Default::default()
    }
}

/// The lowered IR's member read: the constant address of the `BufferLoad` in the switch case.
fn member_address(bytes: &[u8], opts: &dxspv::Options) -> String {
    let ir = dxspv::to_ir(bytes, IrStage::Lowered, opts).expect("converts");
    let text = dxspv::ir::text::print(&ir);
    // The member read is the BufferLoad whose result the switch merges into a phi; the other
    // one reads cb0[3].x (`Constant vec2<u32> 3 0`).
    let loads: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("= BufferLoad f32"))
        .collect();
    assert_eq!(loads.len(), 2, "{text}");
    let addr = loads[0].split(' ').nth(5).unwrap_or_default().to_string();
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{addr} = ")))
        .unwrap_or_else(|| panic!("no {addr} in:\n{text}"));
    line.split_once(" = ").map_or("", |(_, r)| r).to_string()
}

#[test]
fn bindings_reach_the_member_read_and_compile_to_valid_spirv() {
    let Some(bytes) = shader() else { return };
    let validate = installed("spirv-val");
    let chosen = with_binding(InterfaceBinding {
        function_table: Some(0),
        instance: InstanceData {
            constant_buffer: 0,
            constant_vector_offset: 2,
            ..Default::default()
        },
    });
    for opts in [dxspv::Options::default(), chosen.clone()] {
        let out = dxspv::compile(&bytes, &opts).expect("compiles");
        if validate {
            if let Some(Err(e)) = spirv_val(&out.spirv) {
                panic!("spirv-val: {e}");
            }
        }
    }
    // this[0] = (0, 0, 0, 0) by default: row 0 of cb0; the binding puts the members at row 2.
    assert_eq!(
        member_address(&bytes, &dxspv::Options::default()),
        "Constant vec2<u32> 0 0"
    );
    assert_eq!(member_address(&bytes, &chosen), "Constant vec2<u32> 2 0");
}

#[test]
fn bindings_the_shader_cannot_take_are_refused() {
    let Some(bytes) = shader() else { return };
    // fp0 takes only ft0.
    let e = dxspv::compile(
        &bytes,
        &with_binding(InterfaceBinding {
            function_table: Some(1),
            ..Default::default()
        }),
    )
    .expect_err("ft1 is not fp0's");
    assert!(e.to_string().contains("bound to ft1"), "{e}");
    // One slot only.
    let opts = dxspv::Options {
        class_linkage: vec![InterfaceBinding::default(); 2],
        ..Default::default()
    };
    let e = dxspv::compile(&bytes, &opts).expect_err("two bindings for one slot");
    assert!(e.to_string().contains("1 interface slots"), "{e}");
}
