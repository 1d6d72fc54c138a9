//! Where each I/O register component lives: [`IoFile`], [`IoSlot`], and [`IoMap`], the
//! declared registers by file, stream and register number (filled by the declarations of
//! `io.rs`, read by every I/O access).

use dxspv_ir::{BuiltIn, ScalarType, SsaDef};

use super::limits::MAX_IO_REGISTERS;

/// An I/O register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IoFile {
    /// `v#`, `vicp`: stage inputs (per vertex in GS, HS and DS).
    Input,
    /// `o#`, `vocp`: stage outputs (per control point in HS).
    Output,
    /// `vpc#` in a domain shader: patch constant inputs.
    PatchInput,
    /// `o#` in HS fork/join phases and `vpc#` in a hull shader: patch constant outputs.
    PatchOutput,
}

impl IoFile {
    pub(crate) fn is_output(self) -> bool {
        matches!(self, IoFile::Output | IoFile::PatchOutput)
    }
}

/// Where one register component lives.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IoSlot {
    /// The `Dcl*` op.
    pub decl: SsaDef,
    /// Its scalar type.
    pub ty: ScalarType,
    /// True for output declarations.
    pub output: bool,
    /// True if the declaration has an outer per-vertex array.
    pub arrayed: bool,
    /// Array index within a built-in array (clip distances, tess factors).
    pub index: Option<u32>,
    /// Vector component within the declaration, if it is a vector.
    pub comp: Option<u8>,
    /// The built-in, if any.
    pub builtin: Option<BuiltIn>,
}

/// Streams a geometry shader may write (`dcl_stream m0` to `m3`).
const STREAMS: usize = 4;

/// The declared I/O register components, by register file, stream and register: a direct
/// index (registers are below [`MAX_IO_REGISTERS`], streams below [`STREAMS`]) into the
/// registers declared so far, so that a lookup costs no search.
#[derive(Clone, Debug)]
pub(crate) struct IoMap {
    /// For each file, stream and register, 1 + the position of its entry (0: none).
    index: [u16; 4 * STREAMS * MAX_IO_REGISTERS as usize],
    /// The declared registers in declaration order, with their keys.
    entries: smallvec::SmallVec<[IoEntry; 8]>,
}

/// A declared register: its file, stream and number, and its components.
type IoEntry = ((IoFile, u32, u32), [Option<IoSlot>; 4]);

impl Default for IoMap {
    fn default() -> Self {
        IoMap {
            index: [0; 4 * STREAMS * MAX_IO_REGISTERS as usize],
            entries: smallvec::SmallVec::new(),
        }
    }
}

impl IoMap {
    /// The place of a key in `index`; `None` for a register or stream out of range (never
    /// declared).
    #[inline]
    fn slot(file: IoFile, stream: u32, reg: u32) -> Option<usize> {
        if reg >= MAX_IO_REGISTERS || stream as usize >= STREAMS {
            return None;
        }
        Some((file as usize * STREAMS + stream as usize) * MAX_IO_REGISTERS as usize + reg as usize)
    }

    /// The components of a register, if it is declared.
    #[inline]
    pub(crate) fn get(&self, file: IoFile, stream: u32, reg: u32) -> Option<&[Option<IoSlot>; 4]> {
        let at = *self.index.get(Self::slot(file, stream, reg)?)?;
        self.entries
            .get(usize::from(at).checked_sub(1)?)
            .map(|(_, s)| s)
    }

    /// Sets the components of a register (declared by `Converter::declare_register`, so in
    /// range: one out of range is dropped, and stays undeclared).
    pub(crate) fn insert(
        &mut self,
        file: IoFile,
        stream: u32,
        reg: u32,
        slots: [Option<IoSlot>; 4],
    ) {
        let Some(i) = Self::slot(file, stream, reg) else {
            return;
        };
        let Some(at) = self.index.get_mut(i) else {
            return;
        };
        match usize::from(*at).checked_sub(1) {
            Some(e) => {
                if let Some(entry) = self.entries.get_mut(e) {
                    entry.1 = slots;
                }
            }
            None => {
                self.entries.push(((file, stream, reg), slots));
                *at = self.entries.len() as u16;
            }
        }
    }

    /// The declared registers' keys, in declaration order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &(IoFile, u32, u32)> {
        self.entries.iter().map(|(k, _)| k)
    }
}
