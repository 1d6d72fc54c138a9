//! The SM 6 frontend: `dxspv-dxil` behind the [`Frontend`] seam: the reader, then the
//! converter to unstructured block-form IR (the pipeline's structurizer does the rest).

use super::Frontend;
use crate::dxbc::dxbc_container::ParseOptions;
use crate::{Error, Options, StageTimes, Warning};
use dxspv_ir::Builder;
use std::time::Instant;

/// DXBC-style containers holding a `DXIL` part (LLVM 3.7 bitcode).
pub(crate) struct Dxil;

impl Frontend for Dxil {
    fn to_raw_ir(
        &self,
        bytes: &[u8],
        opts: &Options,
        times: &mut StageTimes,
        warnings: &mut Vec<Warning>,
    ) -> Result<Builder, Error> {
        let t = Instant::now();
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
        times.parse = t.elapsed();
        let t = Instant::now();
        let builder = dxspv_dxil::convert(&shader)?;
        times.convert = t.elapsed();
        Ok(builder)
    }

    fn disassemble(&self, bytes: &[u8]) -> Result<String, Error> {
        Ok(dxspv_dxil::disassemble(bytes)?)
    }
}
