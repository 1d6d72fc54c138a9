//! The SM 6 frontend: `dxspv-dxil` behind the [`Frontend`] seam. The reader and the
//! disassembler are in place; conversion to the IR is refused by name until it lands.

use super::Frontend;
use crate::{Error, Format, Options, StageTimes, Warning};
use dxspv_ir::Builder;

/// DXBC-style containers holding a `DXIL` part (LLVM 3.7 bitcode).
pub(crate) struct Dxil;

impl Frontend for Dxil {
    fn to_raw_ir(
        &self,
        bytes: &[u8],
        _opts: &Options,
        _times: &mut StageTimes,
        _warnings: &mut Vec<Warning>,
    ) -> Result<Builder, Error> {
        // Read it, so malformed input is reported as such rather than as unsupported.
        dxspv_dxil::Shader::parse(bytes)?;
        Err(Error::Unsupported(Format::Dxil))
    }

    fn disassemble(&self, bytes: &[u8]) -> Result<String, Error> {
        Ok(dxspv_dxil::disassemble(bytes)?)
    }
}
