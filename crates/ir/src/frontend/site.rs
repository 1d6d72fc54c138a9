//! Where in a bytecode program a frontend is, for its error messages.

/// One instruction of a token-stream program (DXBC or Direct3D 9): its zero-based index, the
/// token offset it starts at and its mnemonic. Displayed as ``instruction 12 (`mad` at token
/// 87)``, the prefix every instruction-level error of those frontends starts with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstructionSite {
    /// Zero-based instruction index.
    pub index: u32,
    /// Token (32-bit word) offset of the instruction in the program.
    pub offset: u32,
    /// The instruction's mnemonic, as the disassembler prints it.
    pub opcode: &'static str,
}

impl core::fmt::Display for InstructionSite {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "instruction {} (`{}` at token {})",
            self.index, self.opcode, self.offset
        )
    }
}
