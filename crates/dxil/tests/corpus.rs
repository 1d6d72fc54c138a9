//! Every DXIL shader of the shared corpus reads completely (container, program header,
//! bitstream, module, DXIL metadata), and what the metadata says agrees with what the
//! container's other parts (written by the same compiler) say: the program header's shader
//! model and the manifest's stage, every element of the ISG1/OSG1/PSG1 signatures, and the
//! PSV0 part's stage, resource bindings, packed signature elements, thread counts and entry
//! name.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_container::psv::PsvSignatureElement;
use dxspv_dxil::dx::{DxilMetadata, EntryPoint, ShaderKind, SignatureElement};
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

/// Checks a PSV0 part against the DXIL metadata.
fn check_psv(
    path: &str,
    psv: &dxspv_container::PipelineStateValidation,
    md: &DxilMetadata,
    entry: &EntryPoint,
    kind: u16,
) {
    assert_eq!(
        psv.shader_stage.map(u16::from),
        Some(kind),
        "{path}: PSV0 stage"
    );
    let resources: Vec<_> = md.resources.iter().collect();
    assert_eq!(
        psv.resources.len(),
        resources.len(),
        "{path}: PSV0 resource count"
    );
    for b in &psv.resources {
        let found = resources.iter().any(|r| {
            let upper = if r.range_size == u32::MAX {
                u32::MAX
            } else {
                r.lower_bound + r.range_size - 1
            };
            r.space == b.space && r.lower_bound == b.lower_bound && upper == b.upper_bound
        });
        assert!(found, "{path}: PSV0 binding {b:?} is not in dx.resources");
    }
    let sigs = [
        (&psv.input_elements, &entry.signatures.input),
        (&psv.output_elements, &entry.signatures.output),
        (
            &psv.patch_constant_elements,
            &entry.signatures.patch_constant,
        ),
    ];
    for (packed, dxil) in sigs {
        assert_eq!(packed.len(), dxil.len(), "{path}: PSV0 element count");
        for (p, d) in packed.iter().zip(dxil) {
            let same = |p: &PsvSignatureElement, d: &SignatureElement| {
                // PSV0 stores no name for system values (the kind names them).
                (p.name == d.name || (p.name.is_empty() && p.semantic_kind != 0))
                    // (PSV0 keeps one index per row, see the mesh shader case above.)
                    && d.semantic_indices.get(..p.semantic_indices.len()) == Some(&p.semantic_indices[..])
                    && u32::from(p.rows) == d.rows
                    && p.cols == d.cols
                    && u32::from(p.semantic_kind) == d.semantic_kind.to_u32()
                    && u32::from(p.interpolation_mode) == d.interpolation.to_u32()
                    && u32::from(p.output_stream) == d.output_stream
                    && (!p.allocated || (i32::from(p.start_row), p.start_col as i8) == (d.start_row, d.start_col))
            };
            assert!(same(p, d), "{path}: PSV0 element {p:?} differs from {d:?}");
        }
    }
    if let (Some(t), Some(m)) = (psv.num_threads, entry.properties.thread_group_size()) {
        assert_eq!(t, m, "{path}: PSV0 thread counts");
    }
    if let Some(name) = &psv.entry_function_name {
        assert_eq!(name, &entry.name, "{path}: PSV0 entry name");
    }
}

#[test]
fn every_corpus_shader_reads_and_agrees_with_its_container() {
    let Some(corpus) = Corpus::open() else {
        return;
    };
    let entries = corpus.of_format("dxil");
    let (mut records, mut instructions, mut elements, mut resources) = (0, 0, 0, 0);
    let mut psv_checked = 0;
    let mut dx_ops = 0;
    for e in &entries {
        let bytes = corpus.read(e);
        let shader = Shader::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.path));
        records += dxspv_dxil::bitstream::walk(shader.program.bitcode)
            .unwrap_or_else(|err| panic!("{}: {err}", e.path))
            .records;
        for (_, body) in shader.module.definitions() {
            instructions += body.instructions.len();
            for inst in &body.instructions {
                let callee = match inst.op {
                    dxspv_dxil::module::Op::Call { callee, .. } => {
                        shader.module.global_name(callee)
                    }
                    _ => continue,
                };
                if callee.starts_with(b"dx.op.") {
                    let (code, _) = shader.module.dx_op(body, &inst.op).unwrap_or_else(|| {
                        panic!("{}: dx.op call without a constant opcode", e.path)
                    });
                    assert!(code < 512, "{}: dx.op opcode {code}", e.path);
                    dx_ops += 1;
                }
            }
        }
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
        if let Some(psv) = &shader.parts.pipeline_state {
            let kind = (shader.program.program_version >> 16) as u16;
            check_psv(&e.path, psv, md, entry, kind);
            psv_checked += 1;
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
        "{} shaders: {records} records, {instructions} instructions, {elements} signature entries checked, {resources} resources, {psv_checked} PSV0 parts checked, {dx_ops} dx.op calls",
        entries.len()
    );
}
