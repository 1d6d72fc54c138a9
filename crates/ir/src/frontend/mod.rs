//! What every frontend needs to write IR, kept once for DXBC, D3D9 and DXIL.
//!
//! A frontend walks its program and appends ops to a [`Builder`]. Most of what it writes is
//! small: scalar constants (the same few, over and over), one- to three-operand code ops,
//! component extracts, vectors built from scalars, `bool → mask` selects, debug names built
//! from a prefix and a register number. [`FrontendBuilder`] gives all of that to any converter
//! that can lend its [`Builder`] and a [`FrontendState`]; a converter overrides
//! [`FrontendBuilder::code`] when it tracks something about every op it appends.
//!
//! [`system_values`] maps Direct3D's system-value names (`D3D_NAME`, as signatures store them)
//! to IR built-ins, with each built-in's shape; [`lanes`] walks a write mask; [`Words`] reads the
//! little-endian token stream both bytecode formats are made of, straight from the input bytes, and
//! [`InstructionSite`] is where in it an error happened. [`image_shape`] and
//! [`STANDARD_SAMPLE_POSITIONS`] are the image facts the converters share.

mod builder_ext;
mod constant_cache;
mod images;
mod site;
pub mod system_values;
mod words;

pub use builder_ext::{FrontendBuilder, FrontendState, NamePart};
pub use constant_cache::ConstantCache;
pub use images::{image_shape, STANDARD_SAMPLE_POSITIONS};
pub use site::InstructionSite;
pub use system_values::{builtin_of_d3d_name, builtin_shape};
pub use words::Words;

/// The set lanes (0–3) of a four-bit write mask, in order.
#[inline]
pub fn lanes(mask: u8) -> impl Iterator<Item = usize> {
    Lanes(mask & 0xf)
}

/// The iterator [`lanes`] returns: the set bits of a mask, lowest first, each found with one
/// count of trailing zeros rather than a test of every lane.
#[derive(Clone, Copy, Debug)]
struct Lanes(u8);

impl Iterator for Lanes {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let lane = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(lane)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests;
