//! # dxspv: Direct3D shader bytecode to SPIR-V
//!
//! This crate is the facade over the workspace: it detects what kind of bytes it was given
//! (DXBC container, DXIL container, D3D9 token stream, dxspv IR) and routes them to the right
//! frontend, the IR passes and the SPIR-V backend. The `dxspv` binary in `main.rs` is a thin
//! command-line layer over the functions here.
//!
//! Today the DXBC reader (container, signatures, RDEF, SM 4.0–5.1 decoder, disassembler) and
//! the IR (builder, text form, binary form, validator) are in place; conversion to IR and the
//! SPIR-V backend follow.

use std::fmt;

pub use dxspv_dxbc as dxbc;
pub use dxspv_ir as ir;
pub use dxspv_spirv as spirv;

mod reflection_json;
pub use reflection_json::reflection_json;

/// The kind of shader bytes, detected from their content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A DXBC container with SM 4.0–5.1 code (SHDR/SHEX).
    Dxbc,
    /// A DXBC-style container holding DXIL (SM 6.x) LLVM bitcode.
    Dxil,
    /// A Direct3D 9 (SM 1.x–3.0) token stream.
    D3d9,
    /// Unrecognised bytes.
    Unknown,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Dxbc => "DXBC",
            Format::Dxil => "DXIL",
            Format::D3d9 => "D3D9",
            Format::Unknown => "unknown",
        })
    }
}

/// Everything that can go wrong turning shader bytes into IR or text.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The DXBC container or program is malformed.
    #[error("DXBC: {0}")]
    Dxbc(#[from] dxbc::Error),
    /// The format was recognised but has no frontend yet.
    #[error("{0}: not supported yet")]
    Unsupported(Format),
    /// DXBC → IR conversion failed or met an unsupported feature.
    #[error("DXBC -> IR: {0}")]
    Convert(#[from] dxbc::ConvertError),
    /// An IR pass rejected the program (names the pass).
    #[error("IR passes: {0}")]
    Pass(#[from] ir::passes::error::PassError),
    /// The SPIR-V backend could not emit the program.
    #[error("SPIR-V: {0}")]
    Spirv(#[from] spirv::SpirvError),
    /// IR text given to [`compile_ir_text`] does not parse.
    #[error("IR text: {0}")]
    IrText(#[from] ir::text::ParseError),
    /// The bytes are not a format dxspv knows.
    #[error("unrecognised input: not a DXBC or DXIL container nor a D3D9 token stream")]
    UnknownFormat,
}

impl Error {
    /// A short, stable category name for reports (mutation and corpus tests count by it).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Dxbc(e) => match e {
                dxbc::Error::Container { .. } => "dxbc-container",
                dxbc::Error::Part { .. } => "dxbc-part",
                dxbc::Error::Dxil { .. } => "dxil-unsupported",
                dxbc::Error::NoProgram => "dxbc-no-program",
                dxbc::Error::ProgramHeader { .. } => "dxbc-program-header",
                dxbc::Error::Decode { .. } => "dxbc-decode",
            },
            Error::Convert(e) => match e {
                dxbc::ConvertError::Decode(_) => "dxbc-decode",
                dxbc::ConvertError::Unsupported { .. } => "convert-unsupported",
                dxbc::ConvertError::Invalid { .. } => "convert-invalid",
            },
            Error::Pass(_) => "pass",
            Error::Spirv(e) => match e {
                spirv::SpirvError::Unsupported { .. } => "spirv-unsupported",
                _ => "spirv-malformed",
            },
            Error::IrText(_) => "ir-text",
            Error::Unsupported(_) => "unsupported-format",
            Error::UnknownFormat => "unknown-format",
        }
    }
}

/// Options for turning shader bytes into IR (and, later, SPIR-V).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The IR pass pipeline's options (min precision, optimisations, validation after each pass).
    pub passes: ir::passes::options::Options,
    /// The SPIR-V backend's options (binding model, debug names, entry point name).
    pub spirv: spirv::SpirvOptions,
}

/// A compiled shader: SPIR-V words and what a program needs to bind its resources.
#[derive(Clone, Debug)]
pub struct Output {
    /// The SPIR-V 1.6 module.
    pub spirv: Vec<u32>,
    /// Resource bindings (D3D register → Vulkan set/binding), push data and interface variables.
    pub reflection: spirv::Reflection,
    /// Time per stage.
    pub times: StageTimes,
}

/// Compiles shader bytes (format detected from the bytes) to SPIR-V.
pub fn compile(bytes: &[u8], opts: &Options) -> Result<Output, Error> {
    let (builder, times) = to_ir_timed(bytes, IrStage::Lowered, opts)?;
    emit(&builder, times, opts)
}

/// The last stage of [`compile`] and [`compile_ir_text`]: lowered IR to SPIR-V, timed.
fn emit(builder: &ir::Builder, mut times: StageTimes, opts: &Options) -> Result<Output, Error> {
    let t = std::time::Instant::now();
    let module = spirv::emit_with_reflection(builder, &opts.spirv)?;
    times.spirv = t.elapsed();
    Ok(Output {
        spirv: module.words,
        reflection: module.reflection,
        times,
    })
}

/// Compiles IR text (frontend-style or already lowered) through the pass pipeline to SPIR-V.
pub fn compile_ir_text(text: &str, opts: &Options) -> Result<Output, Error> {
    let mut times = StageTimes::default();
    let t = std::time::Instant::now();
    let mut builder = ir::text::parse(text)?;
    // Text is not trusted like a frontend's output: the passes need structurally valid IR.
    if let Err(errors) = ir::validate(&builder, ir::Level::Structural) {
        return Err(Error::Pass(ir::passes::error::PassError::Validation {
            pass: "input",
            errors,
        }));
    }
    times.parse = t.elapsed();
    let t = std::time::Instant::now();
    ir::passes::pipeline::run_pipeline(&mut builder, &opts.passes)?;
    times.passes = t.elapsed();
    emit(&builder, times, opts)
}

/// Which IR [`to_ir`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrStage {
    /// The frontend's output: scoped control flow, temporaries, `Unknown` types.
    Raw,
    /// After the legalization pipeline: structured, SSA, typed, lowered.
    Lowered,
}

/// Time spent in each stage of a translation.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTimes {
    /// Container and program parsing.
    pub parse: std::time::Duration,
    /// Frontend conversion to IR.
    pub convert: std::time::Duration,
    /// The IR pass pipeline.
    pub passes: std::time::Duration,
    /// SPIR-V emission.
    pub spirv: std::time::Duration,
}

/// Translates shader bytes to IR: the frontend's raw output or the lowered result of the pass
/// pipeline. The format is detected from the bytes.
pub fn to_ir(bytes: &[u8], stage: IrStage, opts: &Options) -> Result<ir::Builder, Error> {
    to_ir_timed(bytes, stage, opts).map(|(b, _)| b)
}

/// [`to_ir`], also reporting the time spent per stage.
pub fn to_ir_timed(
    bytes: &[u8],
    stage: IrStage,
    opts: &Options,
) -> Result<(ir::Builder, StageTimes), Error> {
    use std::time::Instant;
    let mut times = StageTimes::default();
    match detect_format(bytes) {
        Format::Dxbc => {}
        Format::Unknown => return Err(Error::UnknownFormat),
        f => return Err(Error::Unsupported(f)),
    }
    let t = Instant::now();
    // The container checksum only ever yields a warning, which translation does not report;
    // computing it would be the most expensive part of parsing a small shader.
    let parse_opts = dxbc::ParseOptions {
        verify_checksum: false,
    };
    let shader = dxbc::Shader::parse_with(bytes, &parse_opts)?;
    times.parse = t.elapsed();
    let t = Instant::now();
    let mut builder = dxbc::convert(&shader)?;
    times.convert = t.elapsed();
    if stage == IrStage::Lowered {
        let t = Instant::now();
        ir::passes::pipeline::run_pipeline(&mut builder, &opts.passes)?;
        times.passes = t.elapsed();
    }
    Ok((builder, times))
}

/// Disassembles shader bytes: fxc-like text for DXBC. Other formats are refused by name.
pub fn disassemble(bytes: &[u8]) -> Result<String, Error> {
    match detect_format(bytes) {
        Format::Dxbc => Ok(dxbc::disassemble(bytes)?),
        Format::Unknown => Err(Error::UnknownFormat),
        f => Err(Error::Unsupported(f)),
    }
}

/// Detects the format of shader bytes from their first bytes (and, for containers, their part
/// table): `DXBC` magic with a `DXIL` part is DXIL, otherwise DXBC; a first word whose high 16
/// bits are `0xFFFE` (vertex) or `0xFFFF` (pixel) with a major version 1–3 is D3D9.
pub fn detect_format(bytes: &[u8]) -> Format {
    if bytes.len() >= 4 && &bytes[..4] == b"DXBC" {
        return if container_has_part(bytes, b"DXIL") {
            Format::Dxil
        } else {
            Format::Dxbc
        };
    }
    if bytes.len() >= 4 {
        let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let kind = word >> 16;
        let major = (word >> 8) & 0xff;
        if (kind == 0xfffe || kind == 0xffff) && (1..=3).contains(&major) {
            return Format::D3d9;
        }
    }
    Format::Unknown
}

/// True if a DXBC container's part table (read with bounds checks) names `fourcc`.
fn container_has_part(bytes: &[u8], fourcc: &[u8; 4]) -> bool {
    let read_u32 = |off: usize| -> Option<u32> {
        let b = bytes.get(off..off.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let Some(count) = read_u32(28) else {
        return false;
    };
    // Each part offset takes 4 bytes: a count beyond the input is not a real table.
    if count as usize > bytes.len() / 4 {
        return false;
    }
    (0..count as usize).any(|i| {
        read_u32(32 + i * 4)
            .and_then(|off| bytes.get(off as usize..(off as usize).checked_add(4)?))
            .is_some_and(|tag| tag == fourcc)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container(parts: &[&[u8; 4]]) -> Vec<u8> {
        let mut v = b"DXBC".to_vec();
        v.extend_from_slice(&[0; 16]);
        v.extend_from_slice(&1u32.to_le_bytes());
        let header = 32 + parts.len() * 4;
        let total = header + parts.len() * 8;
        v.extend_from_slice(&(total as u32).to_le_bytes());
        v.extend_from_slice(&(parts.len() as u32).to_le_bytes());
        for i in 0..parts.len() {
            v.extend_from_slice(&((header + i * 8) as u32).to_le_bytes());
        }
        for p in parts {
            v.extend_from_slice(*p);
            v.extend_from_slice(&0u32.to_le_bytes());
        }
        v
    }

    #[test]
    fn detects_formats() {
        assert_eq!(detect_format(&container(&[b"RDEF", b"SHEX"])), Format::Dxbc);
        assert_eq!(detect_format(&container(&[b"PSV0", b"DXIL"])), Format::Dxil);
        assert_eq!(detect_format(&0xfffe_0300u32.to_le_bytes()), Format::D3d9);
        assert_eq!(detect_format(&0xffff_0104u32.to_le_bytes()), Format::D3d9);
        assert_eq!(detect_format(b"hello"), Format::Unknown);
        assert_eq!(detect_format(b""), Format::Unknown);
    }

    #[test]
    fn hostile_part_tables_do_not_panic() {
        let mut c = container(&[b"SHEX"]);
        c[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(detect_format(&c), Format::Dxbc);
        let mut c = container(&[b"SHEX"]);
        c[32..36].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(detect_format(&c), Format::Dxbc);
        assert_eq!(detect_format(b"DXBC"), Format::Dxbc);
    }

    #[test]
    fn ir_text_is_validated_before_the_passes() {
        // Parses, but loads a temporary through a function: the validator must stop it
        // before the passes, in every build (release builds do not validate between passes).
        let text = "%1 = EntryPoint %2 Compute\n%5 = SetCsWorkgroupSize %1 1 1 1\n\
                    %2 = Function void\n%3 = Label None\n%4 = TmpLoad f32 %2\n\
                    %6 = Return void null\n%7 = FunctionEnd\n";
        let mut opts = Options::default();
        opts.passes.validate_each_pass = false;
        match compile_ir_text(text, &opts) {
            Err(Error::Pass(ir::passes::error::PassError::Validation { pass, errors })) => {
                assert_eq!(pass, "input");
                assert!(!errors.is_empty());
            }
            other => panic!("expected an input validation error, got {other:?}"),
        }
    }
}
