//! The container parts as comments above the module.

use std::fmt::Write;

use dxspv_container::{Container, DxilProgram, FourCC, ParseOptions};

use crate::disasm::module_to_string;
use crate::error::Error;
use crate::module::Module;

/// Disassembles a DXIL container: its parts as `;` comments, then the module of its
/// `DXIL` part as LLVM assembly (see the [module documentation](crate::disasm)).
pub fn disassemble(container: &[u8]) -> Result<String, Error> {
    let c = Container::parse_with(container, &ParseOptions::default())?;
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
    for p in &c.parts {
        let _ = writeln!(out, ";   {} {} bytes", p.fourcc, p.data.len());
    }
    let (major, minor) = program.shader_model();
    let (dxil_major, dxil_minor) = program.dxil_version();
    let _ = writeln!(
        out,
        "; program: {}_{major}_{minor}, DXIL {dxil_major}.{dxil_minor}, {} words; bitcode {} bytes at offset {}",
        program.shader_kind().profile_prefix(),
        program.size_in_words,
        program.bitcode.len(),
        program.bitcode_offset,
    );
    out.push('\n');
    out.push_str(&module_to_string(&module));
    Ok(out)
}
