//! The SM 4.0–5.1 frontend: `dxspv-dxbc` behind the [`Frontend`] seam.

use super::Frontend;
use crate::{dxbc, Error, Options, StageTimes, Warning};
use dxspv_ir::Builder;
use std::time::Instant;

/// DXBC containers holding `SHDR`/`SHEX` programs.
pub(crate) struct Dxbc;

impl Frontend for Dxbc {
    fn to_raw_ir(
        &self,
        bytes: &[u8],
        opts: &Options,
        times: &mut StageTimes,
        warnings: &mut Vec<Warning>,
    ) -> Result<Builder, Error> {
        let t = Instant::now();
        let parse_opts = dxbc::ParseOptions {
            verify_checksum: opts.verify_checksum,
        };
        let shader = dxbc::Shader::parse_with(bytes, &parse_opts)?;
        warnings.extend(shader.warnings.iter().cloned().map(Warning::Container));
        times.parse = t.elapsed();
        let t = Instant::now();
        let convert_opts = dxbc::ConvertOptions {
            class_linkage: &opts.class_linkage,
        };
        let builder = dxbc::convert_with(&shader, &convert_opts)?;
        times.convert = t.elapsed();
        Ok(builder)
    }

    fn disassemble(&self, bytes: &[u8]) -> Result<String, Error> {
        Ok(dxbc::disassemble(bytes)?)
    }
}
