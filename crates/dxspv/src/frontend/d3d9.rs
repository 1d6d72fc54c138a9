//! The SM 1.x–3.0 frontend: `dxspv-sm3` behind the [`Frontend`] seam.

use super::Frontend;
use crate::{sm3, Error, Laps, Options, Warning};
use dxspv_ir::Builder;

/// Direct3D 9 token streams (`vs_1_1` … `ps_3_0`).
pub(crate) struct D3d9;

impl Frontend for D3d9 {
    fn to_raw_ir(
        &self,
        bytes: &[u8],
        opts: &Options,
        laps: &mut Laps,
        warnings: &mut Vec<Warning>,
    ) -> Result<Builder, Error> {
        let shader = sm3::Shader::parse(bytes)?;
        warnings.extend(shader.warnings.iter().cloned().map(Warning::D3d9));
        laps.times.parse = laps.lap();
        let builder = sm3::convert(&shader, &opts.d3d9)?;
        drop(shader);
        laps.times.convert = laps.lap();
        Ok(builder)
    }

    fn disassemble(&self, bytes: &[u8]) -> Result<String, Error> {
        Ok(sm3::disassemble(bytes)?)
    }
}
