//! The container parts as comments above the module.

use std::fmt::Write;

use dxspv_container::psv::{PsvSignatureElement, StageInfo};
use dxspv_container::root_signature::RootParameterKind;
use dxspv_container::{DxilProgram, FourCC, ParseOptions, Parts, Signature};

use crate::disasm::module_to_string;
use crate::error::Error;
use crate::module::Module;

/// Disassembles a DXIL container: its parts as `;` comments (header, checksum, feature
/// flags, signatures, pipeline state validation data, root signature, hash, program
/// header), then the module of its `DXIL` part as LLVM assembly (see
/// [the module documentation](crate::disasm)).
pub fn disassemble(container: &[u8]) -> Result<String, Error> {
    let parts = Parts::parse_with(container, &ParseOptions::default())?;
    let c = &parts.container;
    let part = c.part(FourCC::DXIL).ok_or(Error::NoDxilPart)?;
    let program = DxilProgram::parse(part.fourcc, part.data)?;
    let module = Module::read(program.bitcode)?;
    let mut out = String::new();
    let checksum = match c.checksum_ok() {
        Some(true) => "valid",
        Some(false) if c.stored_checksum == [0; 4] => "unsigned",
        Some(false) => "MISMATCH",
        None => "not checked",
    };
    let _ = writeln!(
        out,
        "; DXIL container: {} bytes, {} parts, checksum {checksum}",
        c.bytes.len(),
        c.parts.len()
    );
    for w in &parts.warnings {
        let _ = writeln!(out, "; warning: {w}");
    }
    for p in &c.parts {
        let _ = write!(out, ";   {} ({} bytes)", p.fourcc, p.data.len());
        match &p.fourcc.0 {
            b"DXIL" => {
                let (major, minor) = program.shader_model();
                let (dm, dn) = program.dxil_version();
                let _ = write!(
                    out,
                    ": {}_{major}_{minor}, DXIL {dm}.{dn}, bitcode of {} bytes at offset {}",
                    program.shader_kind().profile_prefix(),
                    program.bitcode.len(),
                    program.bitcode_offset
                );
            }
            b"SFI0" => {
                if let Some(f) = parts.features {
                    let _ = write!(out, ": feature flags 0x{:x}", f.0);
                    let names = f.names();
                    if !names.is_empty() {
                        let _ = write!(out, " ({})", names.join(", "));
                    }
                }
            }
            b"HASH" => {
                if let Some(h) = parts.hash {
                    out.push_str(": digest ");
                    for b in h.digest {
                        let _ = write!(out, "{b:02x}");
                    }
                    if h.includes_source() {
                        out.push_str(" (includes source)");
                    }
                }
            }
            b"ILDB" | b"ILDN" | b"SPDB" => out.push_str(": debug information (not read)"),
            b"RDAT" | b"VERS" => out.push_str(": not read"),
            _ => {}
        }
        out.push('\n');
    }
    for (title, sig) in [
        ("input signature", &parts.input_signature),
        ("output signature", &parts.output_signature),
        ("patch constant signature", &parts.patch_constant_signature),
    ] {
        if let Some(sig) = sig {
            signature(&mut out, title, sig);
        }
    }
    if let Some(psv) = &parts.pipeline_state {
        let _ = write!(out, "; PSV0 version {}", psv.version);
        let stage = psv
            .shader_stage
            .map(u32::from)
            .unwrap_or(program.program_version >> 16);
        match psv.stage_info(stage) {
            StageInfo::None => {}
            info => {
                let _ = write!(out, ": {info:?}");
            }
        }
        if let Some(t) = psv.num_threads {
            let _ = write!(out, ", threads {}x{}x{}", t[0], t[1], t[2]);
        }
        if let Some(n) = &psv.entry_function_name {
            let _ = write!(out, ", entry {n}");
        }
        out.push('\n');
        for b in &psv.resources {
            let _ = writeln!(
                out,
                ";   resource type {} space {} registers {}..={}{}",
                b.resource_type,
                b.space,
                b.lower_bound,
                b.upper_bound,
                b.kind.map(|k| format!(" kind {k}")).unwrap_or_default()
            );
        }
        for (which, list) in [
            ("input", &psv.input_elements),
            ("output", &psv.output_elements),
            ("patch constant", &psv.patch_constant_elements),
        ] {
            for e in list {
                psv_element(&mut out, which, e);
            }
        }
    }
    if let Some(rs) = &parts.root_signature {
        let _ = writeln!(
            out,
            "; RTS0 root signature version {}, flags 0x{:x}, {} parameters, {} static samplers",
            rs.version,
            rs.flags,
            rs.parameters.len(),
            rs.static_samplers.len()
        );
        for (i, p) in rs.parameters.iter().enumerate() {
            let _ = write!(out, ";   parameter {i} (visibility {}): ", p.visibility);
            match &p.kind {
                RootParameterKind::DescriptorTable(ranges) => {
                    out.push_str("table");
                    for r in ranges {
                        let _ = write!(
                            out,
                            " [type {} x{} at {} space {}]",
                            r.range_type, r.count, r.base_register, r.space
                        );
                    }
                }
                RootParameterKind::Constants {
                    register,
                    space,
                    count,
                } => {
                    let _ = write!(out, "{count} constants at b{register} space {space}");
                }
                RootParameterKind::Cbv(d) => {
                    let _ = write!(out, "CBV b{} space {}", d.register, d.space);
                }
                RootParameterKind::Srv(d) => {
                    let _ = write!(out, "SRV t{} space {}", d.register, d.space);
                }
                RootParameterKind::Uav(d) => {
                    let _ = write!(out, "UAV u{} space {}", d.register, d.space);
                }
            }
            out.push('\n');
        }
    }
    out.push('\n');
    out.push_str(&module_to_string(&module));
    Ok(out)
}

fn signature(out: &mut String, title: &str, sig: &Signature) {
    let _ = writeln!(out, "; {title} ({}):", sig.fourcc);
    for e in &sig.elements {
        let mask: String = (0..4)
            .map(|i| {
                if e.mask & (1 << i) != 0 {
                    b"xyzw"[i] as char
                } else {
                    ' '
                }
            })
            .collect();
        let _ = writeln!(
            out,
            ";   {}{} {} register {} {} {}{}",
            e.semantic_name,
            e.semantic_index,
            mask,
            e.register,
            e.system_value_name(),
            e.component_type.name(),
            if e.stream != 0 {
                format!(" stream {}", e.stream)
            } else {
                String::new()
            }
        );
    }
}

fn psv_element(out: &mut String, which: &str, e: &PsvSignatureElement) {
    let _ = write!(
        out,
        ";   {which} {:?} kind {} rows {} cols {}",
        e.name, e.semantic_kind, e.rows, e.cols
    );
    if e.allocated {
        let _ = write!(out, " at {}.{}", e.start_row, e.start_col);
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{blk, dxil_container, module, r, rs};

    #[test]
    fn lists_the_parts_then_the_module() {
        let bitcode = module(vec![
            blk(17, vec![r(1, &[2]), r(2, &[]), r(21, &[0, 0])]),
            r(8, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            blk(14, vec![rs(1, &[0], "main")]),
            blk(12, vec![r(1, &[1]), r(10, &[])]),
        ]);
        let text = disassemble(&dxil_container(&bitcode, 5, 6)).expect("disassembles");
        let header = format!(
            "; DXIL container: {} bytes, 1 parts, checksum unsigned\n",
            32 + 4 + 8 + 24 + bitcode.len()
        );
        assert!(text.starts_with(&header), "{text}");
        assert!(text.contains(&format!(
            ";   DXIL ({} bytes): cs_6_6, DXIL 1.0, bitcode of {} bytes at offset 16\n",
            24 + bitcode.len(),
            bitcode.len()
        )));
        assert!(
            text.ends_with("\ndefine void @main() {\n  ret void\n}\n"),
            "{text}"
        );
    }

    #[test]
    fn containers_without_dxil_or_with_bad_parts_are_errors() {
        let c = crate::testing::container(&[(*b"SFI0", vec![0; 8])]);
        assert_eq!(disassemble(&c), Err(Error::NoDxilPart));
        let c = crate::testing::container(&[(*b"DXIL", vec![0; 8])]);
        assert!(matches!(disassemble(&c), Err(Error::Container(_))));
        let c = crate::testing::container(&[(*b"PSV0", vec![1, 2]), (*b"DXIL", vec![0; 30])]);
        let e = disassemble(&c).unwrap_err().to_string();
        assert!(e.contains("PSV0"), "{e}");
    }
}
