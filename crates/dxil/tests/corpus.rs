//! Every DXIL shader of the shared corpus reads completely (container, program header,
//! bitstream, module, DXIL metadata), and what the metadata says agrees with what the
//! container's other parts (written by the same compiler) say: the program header's shader
//! model and the manifest's stage, and every element of the ISG1/OSG1/PSG1 signatures.

use dxspv_dxil::dx::{ShaderKind, SignatureElement};
use dxspv_dxil::Shader;
use dxspv_testkit::Corpus;

fn stage_name(kind: ShaderKind) -> &'static str {
    match kind {
        ShaderKind::Pixel => "ps",
        ShaderKind::Vertex => "vs",
        ShaderKind::Geometry => "gs",
        ShaderKind::Hull => "hs",
        ShaderKind::Domain => "ds",
        ShaderKind::Compute => "cs",
        ShaderKind::Mesh => "ms",
        ShaderKind::Amplification => "as",
        ShaderKind::Library => "lib",
        _ => "?",
    }
}

/// Finds the DXIL element (same name, stream and semantic index) of a container signature
/// entry and checks its packing.
fn check_entry(
    path: &str,
    which: &str,
    dxil: &[SignatureElement],
    e: &dxspv_container::SignatureElement,
) {
    let found = dxil.iter().find_map(|d| {
        let row = d
            .semantic_indices
            .iter()
            .position(|&i| i == e.semantic_index)?;
        (d.name.eq_ignore_ascii_case(&e.semantic_name) && d.output_stream == e.stream)
            .then_some((d, row))
    });
    let Some((d, row)) = found else {
        panic!(
            "{path}: {which} {}{} is not in the DXIL signature",
            e.semantic_name, e.semantic_index
        );
    };
    if d.start_row >= 0 {
        // Row k of an element carries its k-th semantic index; dxc lists more indices than
        // rows for some mesh shader outputs (SV_Position with indices 0, 1, 2 in one row),
        // and the container then puts them all in that row.
        let row = if (row as u32) < d.rows { row as u32 } else { 0 };
        assert_eq!(
            e.register,
            d.start_row as u32 + row,
            "{path}: {which} {} register",
            e.semantic_name
        );
        let mask = ((1u32 << d.cols) - 1) << d.start_col;
        assert_eq!(
            u32::from(e.mask),
            mask,
            "{path}: {which} {} mask",
            e.semantic_name
        );
    }
}

#[test]
fn every_corpus_shader_reads_and_agrees_with_its_container() {
    let Some(corpus) = Corpus::open() else {
        return;
    };
    let entries = corpus.of_format("dxil");
    let (mut records, mut instructions, mut elements, mut resources) = (0, 0, 0, 0);
    for e in &entries {
        let bytes = corpus.read(e);
        let shader = Shader::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.path));
        records += dxspv_dxil::bitstream::walk(shader.program.bitcode)
            .unwrap_or_else(|err| panic!("{}: {err}", e.path))
            .records;
        instructions += shader
            .module
            .definitions()
            .map(|(_, b)| b.instructions.len())
            .sum::<usize>();
        let md = &shader.metadata;
        let sm = md
            .shader_model
            .unwrap_or_else(|| panic!("{}: no dx.shaderModel", e.path));
        assert_eq!(stage_name(sm.kind), e.stage, "{}: stage", e.path);
        assert_eq!(
            format!("{}_{}", sm.major, sm.minor),
            e.model,
            "{}: model",
            e.path
        );
        assert_eq!(
            (sm.major, sm.minor),
            shader.program.shader_model(),
            "{}: program header",
            e.path
        );
        assert!(
            md.dxil_version.is_some() && md.validator_version.is_some(),
            "{}",
            e.path
        );
        resources += md.resources.iter().count();
        if sm.kind == ShaderKind::Library {
            continue;
        }
        assert_eq!(md.entry_points.len(), 1, "{}: entry points", e.path);
        let entry = &md.entry_points[0];
        assert!(entry.function.is_some(), "{}: entry function", e.path);
        if sm.kind == ShaderKind::Compute {
            assert!(
                entry.properties.num_threads.is_some(),
                "{}: numthreads",
                e.path
            );
        }
        let sigs = &entry.signatures;
        let pairs = [
            ("input", &shader.parts.input_signature, &sigs.input),
            ("output", &shader.parts.output_signature, &sigs.output),
            (
                "patch constant",
                &shader.parts.patch_constant_signature,
                &sigs.patch_constant,
            ),
        ];
        for (which, container, dxil) in pairs {
            let Some(container) = container else {
                continue;
            };
            for c in &container.elements {
                check_entry(&e.path, which, dxil, c);
                elements += 1;
            }
        }
    }
    println!(
        "{} shaders: {records} records, {instructions} instructions, {elements} signature entries checked, {resources} resources",
        entries.len()
    );
}
