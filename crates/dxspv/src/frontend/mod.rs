//! The frontend seam: one place maps a [`Format`] to the frontend that reads it.
//!
//! Each frontend is a zero-sized type implementing [`Frontend`] in its own module: it reads
//! the bytes, converts them to raw IR (scoped control flow, temporaries, untyped values, the
//! contract of `dxbc-ir.md`), reports warnings and times its stages, and disassembles. The
//! facade's entry points ([`crate::compile`], [`crate::to_ir`], [`crate::disassemble`]) only
//! ever call [`frontend_for`], so adding a frontend is one module and one arm in its `match`.
//!
//! Why a trait object rather than a `match` over [`Format`] in each entry point: the glue of
//! a frontend (its options, its parse → convert order, which warnings it reports) stays in
//! one module instead of being spread over every entry point, and the exhaustive `match` in
//! [`frontend_for`] is the one place a new format must be added. The cost is one indirect call
//! per shader, nothing next to a translation.

mod d3d9;
mod dxbc;
mod dxil;

use crate::{Error, Format, Laps, Options, Warning};
use dxspv_ir::Builder;

/// A shader frontend: bytes of one format to raw IR, or to text.
pub(crate) trait Frontend: Sync {
    /// Reads `bytes` and converts them to raw IR. Parse and convert times go to `laps` (each
    /// stage ended with one [`Laps::lap`], the parsed input released before conversion's),
    /// non-fatal findings to `warnings`.
    fn to_raw_ir(
        &self,
        bytes: &[u8],
        opts: &Options,
        laps: &mut Laps,
        warnings: &mut Vec<Warning>,
    ) -> Result<Builder, Error>;

    /// Disassembles `bytes` into the format's own assembly syntax.
    fn disassemble(&self, bytes: &[u8]) -> Result<String, Error>;
}

/// The frontend for `format`, or the error saying why there is none.
pub(crate) fn frontend_for(format: Format) -> Result<&'static dyn Frontend, Error> {
    match format {
        Format::Dxbc => Ok(&dxbc::Dxbc),
        Format::D3d9 => Ok(&d3d9::D3d9),
        Format::Dxil => Ok(&dxil::Dxil),
        Format::Unknown => Err(Error::UnknownFormat),
    }
}
