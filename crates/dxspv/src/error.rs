//! What can go wrong, and what is worth saying without failing.

use crate::{dxbc, ir, sm3, spirv, Format};
use std::fmt;

/// Everything that can go wrong turning shader bytes into IR, text or SPIR-V.
///
/// Each frontend contributes its read and conversion errors (adding a frontend adds its
/// variants here and their names in [`Error::kind`]); the rest belong to the shared stages.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The DXBC container or its SM 4–5 program is malformed.
    #[error("DXBC: {0}")]
    Dxbc(#[from] dxbc::Error),
    /// DXBC → IR conversion failed or met an unsupported feature.
    #[error("DXBC -> IR: {0}")]
    Convert(#[from] dxbc::ConvertError),
    /// The Direct3D 9 token stream is malformed.
    #[error("D3D9: {0}")]
    D3d9(#[from] sm3::Error),
    /// Direct3D 9 → IR conversion failed: a limit of the shader model passed (no device
    /// runs the shader), an unsupported feature, or a malformed program.
    #[error("D3D9 -> IR: {0}")]
    D3d9Convert(#[from] sm3::ConvertError),
    /// The DXIL container, its bitcode or its DXIL metadata is malformed.
    #[error("DXIL: {0}")]
    Dxil(#[from] dxspv_dxil::Error),
    /// DXIL → IR conversion failed or met a refused feature.
    #[error("DXIL -> IR: {0}")]
    DxilConvert(#[from] dxspv_dxil::ConvertError),
    /// The format was recognised but has no frontend yet.
    #[error("{0}: not supported yet")]
    Unsupported(Format),
    /// An IR pass rejected the program (names the pass).
    ///
    /// The second field names the op at fault in the input's terms (its D3D register,
    /// resource or I/O names, see [`Error::at`]); `None` for IR text, whose ids are the
    /// user's own names, and for errors about no single op.
    #[error("IR passes: {}", pass_message(.0, .1.as_deref()))]
    Pass(#[source] ir::passes::error::PassError, Option<String>),
    /// The SPIR-V backend could not emit the program.
    ///
    /// The second field names the op at fault in the input's terms, as for [`Error::Pass`].
    #[error("SPIR-V: {}", spirv_message(.0, .1.as_deref()))]
    Spirv(#[source] spirv::SpirvError, Option<String>),
    /// IR text given to [`crate::compile_ir_text`] does not parse.
    #[error("IR text: {0}")]
    IrText(#[from] ir::text::ParseError),
    /// The bytes are not a format dxspv knows.
    #[error("unrecognised input: not a DXBC or DXIL container nor a D3D9 token stream")]
    UnknownFormat,
}

impl Error {
    /// A short, stable category name for reports (the mutation and corpus tests count by it).
    pub fn kind(&self) -> &'static str {
        use dxbc::dxbc_container::Error as ContainerError;
        match self {
            Error::Dxbc(e) => match e {
                dxbc::Error::Container(ContainerError::Container { .. }) => "dxbc-container",
                dxbc::Error::Container(ContainerError::Part { .. }) => "dxbc-part",
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
            Error::D3d9(_) => "d3d9-decode",
            Error::D3d9Convert(e) => match e {
                sm3::ConvertError::Decode(_) => "d3d9-decode",
                sm3::ConvertError::Limit { .. } => "d3d9-limit",
                sm3::ConvertError::Unsupported { .. } => "d3d9-unsupported",
                sm3::ConvertError::Invalid { .. } => "d3d9-invalid",
            },
            Error::Dxil(e) => match e {
                dxspv_dxil::Error::Container(_) | dxspv_dxil::Error::NoDxilPart => "dxil-container",
                dxspv_dxil::Error::Malformed { .. } => "dxil-bitcode",
                dxspv_dxil::Error::Unsupported { .. } => "dxil-unsupported-construct",
                dxspv_dxil::Error::Limit { .. } => "dxil-limit",
                dxspv_dxil::Error::Metadata { .. } => "dxil-metadata",
            },
            Error::DxilConvert(e) => match e {
                dxspv_dxil::ConvertError::Read(_) => "dxil-bitcode",
                dxspv_dxil::ConvertError::Unsupported { .. } => "dxil-convert-unsupported",
                dxspv_dxil::ConvertError::Invalid { .. } => "dxil-convert-invalid",
                dxspv_dxil::ConvertError::Limit { .. } => "dxil-convert-limit",
            },
            Error::Pass(..) => "pass",
            Error::Spirv(e, _) => match e {
                spirv::SpirvError::Unsupported { .. } => "spirv-unsupported",
                _ => "spirv-malformed",
            },
            Error::IrText(_) => "ir-text",
            Error::Unsupported(_) => "unsupported-format",
            Error::UnknownFormat => "unknown-format",
        }
    }

    /// The unsupported feature this error names, if it is a refusal of a feature rather than
    /// malformed input (the corpus tests count refusals by feature).
    pub fn unsupported_feature(&self) -> Option<&'static str> {
        match self {
            Error::Convert(e) => e.unsupported_feature(),
            Error::D3d9Convert(e) => e.unsupported_feature(),
            Error::DxilConvert(e) => e.unsupported_feature(),
            _ => None,
        }
    }
}

impl From<ir::passes::error::PassError> for Error {
    /// The error without a name for the op at fault (the message keeps its IR id).
    fn from(e: ir::passes::error::PassError) -> Self {
        Error::Pass(e, None)
    }
}

impl From<spirv::SpirvError> for Error {
    /// The error without a name for the op at fault (the message keeps its IR id).
    fn from(e: spirv::SpirvError) -> Self {
        Error::Spirv(e, None)
    }
}

impl Error {
    /// The op a pass or backend error is about, named in the input's terms (for example
    /// ``ImageSample of `t0`, `s0` (%45)``), if the error has such a name.
    pub fn at(&self) -> Option<&str> {
        match self {
            Error::Pass(_, at) | Error::Spirv(_, at) => at.as_deref(),
            _ => None,
        }
    }

    /// This error with the op at fault named in `b`'s D3D names: a pass or backend error
    /// about one op gets [`Error::at`]; any other error is returned as it is. Runs only once
    /// an error has happened (see the `d3d_names` module).
    #[cold]
    #[inline(never)]
    pub(crate) fn named_in(self, b: &ir::Builder) -> Self {
        use ir::passes::error::PassError;
        match self {
            Error::Pass(e @ PassError::InvalidIr { def: Some(def), .. }, None) => {
                let at = crate::d3d_names::describe(b, def);
                Error::Pass(e, Some(at))
            }
            Error::Spirv(
                e @ (spirv::SpirvError::Unsupported { def, .. }
                | spirv::SpirvError::Malformed { def, .. }),
                None,
            ) => {
                let at = crate::d3d_names::describe(b, def);
                Error::Spirv(e, Some(at))
            }
            other => other,
        }
    }
}

/// A pass error's message, with the op at fault named by `at` in place of its id.
fn pass_message(e: &ir::passes::error::PassError, at: Option<&str>) -> String {
    match (e, at) {
        (ir::passes::error::PassError::InvalidIr { pass, message, .. }, Some(at)) => {
            format!("{pass}: {at}: {message}")
        }
        _ => e.to_string(),
    }
}

/// A backend error's message, with the op at fault named by `at` in place of its id and
/// opcode.
fn spirv_message(e: &spirv::SpirvError, at: Option<&str>) -> String {
    match (e, at) {
        (spirv::SpirvError::Unsupported { feature, .. }, Some(at)) => {
            format!("{at}: unsupported: {feature}")
        }
        (spirv::SpirvError::Malformed { reason, .. }, Some(at)) => {
            format!("{at}: malformed IR: {reason}")
        }
        _ => e.to_string(),
    }
}

/// Something worth telling the user about an input that still translated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// A container problem that does not stop reading (checksum mismatch, duplicate part).
    Container(dxbc::dxbc_container::Warning),
    /// A Direct3D 9 shader problem that does not stop translation (a malformed constant
    /// table: the table is a comment the shader runs without).
    D3d9(sm3::Warning),
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Container(w) => w.fmt(f),
            Warning::D3d9(w) => w.fmt(f),
        }
    }
}
