//! The SM 6 frontend: `dxspv-dxil` behind the [`Frontend`] seam: the reader, then the
//! converter to unstructured block-form IR (the pipeline's structurizer does the rest).

use super::Frontend;
use crate::dxbc::dxbc_container::ParseOptions;
use crate::{Error, Laps, Options, Warning};
use dxspv_ir::Builder;

/// DXBC-style containers holding a `DXIL` part (LLVM 3.7 bitcode).
pub(crate) struct Dxil;

impl Frontend for Dxil {
    fn to_raw_ir(
        &self,
        bytes: &[u8],
        opts: &Options,
        laps: &mut Laps,
        warnings: &mut Vec<Warning>,
    ) -> Result<Builder, Error> {
        let parse_opts = ParseOptions {
            verify_checksum: opts.verify_checksum,
        };
        let shader = dxspv_dxil::Shader::parse_with(bytes, &parse_opts)?;
        warnings.extend(
            shader
                .parts
                .warnings
                .iter()
                .cloned()
                .map(Warning::Container),
        );
        laps.times.parse = laps.lap();
        let builder = dxspv_dxil::convert(&shader)?;
        drop(shader);
        laps.times.convert = laps.lap();
        Ok(builder)
    }

    fn disassemble(&self, bytes: &[u8]) -> Result<String, Error> {
        Ok(dxspv_dxil::disassemble(bytes)?)
    }
}
