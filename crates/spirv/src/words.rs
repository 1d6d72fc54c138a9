//! The word emitter: one buffer per logical SPIR-V module section, concatenated once.

use spirv::Op;

/// Section buffers in module order (capabilities and extensions are kept as sets by the
/// emitter and written at the end).
#[derive(Default)]
pub(crate) struct Sections {
    pub capabilities: Vec<u32>,
    pub extensions: Vec<u32>,
    pub ext_inst: Vec<u32>,
    pub memory_model: Vec<u32>,
    pub entry_points: Vec<u32>,
    pub exec_modes: Vec<u32>,
    pub debug: Vec<u32>,
    pub annotations: Vec<u32>,
    pub globals: Vec<u32>,
    pub functions: Vec<u32>,
}

impl Sections {
    /// Concatenates the header and every section.
    pub fn finish(self, bound: u32) -> Vec<u32> {
        let parts = [
            &self.capabilities,
            &self.extensions,
            &self.ext_inst,
            &self.memory_model,
            &self.entry_points,
            &self.exec_modes,
            &self.debug,
            &self.annotations,
            &self.globals,
            &self.functions,
        ];
        let total: usize = 5 + parts.iter().map(|p| p.len()).sum::<usize>();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(&[spirv::MAGIC_NUMBER, 0x0001_0600, 0, bound, 0]);
        for p in parts {
            out.extend_from_slice(p);
        }
        out
    }
}

/// Appends one instruction with fixed operands.
#[inline]
pub(crate) fn inst(buf: &mut Vec<u32>, op: Op, operands: &[u32]) {
    buf.push(((operands.len() as u32 + 1) << 16) | op as u32);
    buf.extend_from_slice(operands);
}

/// Starts an instruction whose operands are pushed afterwards; close it with [`end`].
#[inline]
pub(crate) fn begin(buf: &mut Vec<u32>, op: Op) -> usize {
    buf.push(op as u32);
    buf.len() - 1
}

/// Patches the word count of an instruction opened with [`begin`].
#[inline]
pub(crate) fn end(buf: &mut [u32], start: usize) {
    let len = (buf.len() - start) as u32;
    if let Some(w) = buf.get_mut(start) {
        *w |= len << 16;
    }
}

/// Appends a nul-terminated, word-padded literal string.
pub(crate) fn push_str(buf: &mut Vec<u32>, s: &str) {
    let bytes = s.as_bytes();
    for chunk in bytes.chunks(4) {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        buf.push(u32::from_le_bytes(w));
    }
    if bytes.len().is_multiple_of(4) {
        buf.push(0);
    }
}
