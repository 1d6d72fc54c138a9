//! The SM 4.0–5.1 frontend: `dxspv-dxbc` behind the [`Frontend`] seam.

use super::Frontend;
use crate::{dxbc, Error, Laps, Options, Warning};
use dxspv_ir::Builder;

/// DXBC containers holding `SHDR`/`SHEX` programs.
pub(crate) struct Dxbc;

impl Frontend for Dxbc {
    fn to_raw_ir(
        &self,
        bytes: &[u8],
        opts: &Options,
        laps: &mut Laps,
        warnings: &mut Vec<Warning>,
    ) -> Result<Builder, Error> {
        let parse_opts = dxbc::ParseOptions {
            verify_checksum: opts.verify_checksum,
        };
        let shader = dxbc::Shader::parse_with(bytes, &parse_opts)?;
        warnings.extend(shader.warnings.iter().cloned().map(Warning::Container));
        laps.times.parse = laps.lap();
        let convert_opts = dxbc::ConvertOptions {
            class_linkage: &opts.class_linkage,
        };
        let builder = dxbc::convert_with(&shader, &convert_opts)?;
        drop(shader);
        laps.times.convert = laps.lap();
        Ok(builder)
    }

    fn disassemble(&self, bytes: &[u8]) -> Result<String, Error> {
        Ok(dxbc::disassemble(bytes)?)
    }
}
