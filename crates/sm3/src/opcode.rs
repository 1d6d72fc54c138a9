//! The instruction set (`D3DSHADER_INSTRUCTION_OPCODE_TYPE`), declared once as data.
//!
//! Each opcode lists its number, its assembly name and the parameters it takes in models 2
//! and 3: whether it writes a destination and how many source parameters it reads. The few
//! opcodes whose shape changed between models (`tex`, `texcoord`, `sincos`, `sgn`) say so in
//! [`Opcode::shape`].

use crate::version::Version;

/// The parameters an instruction takes (besides a predicate token).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Whether the first parameter is a destination.
    pub dst: bool,
    /// Number of source parameters.
    pub src: u8,
}

macro_rules! opcodes {
    ($($var:ident = $val:literal => $name:literal, $dst:literal, $src:literal;)*) => {
        /// An instruction opcode (`D3DSIO_*`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $name, "` (`D3DSIO_*` ", stringify!($val), ")")]
                $var = $val,
            )*
        }

        impl Opcode {
            /// The opcode with number `value` (bits 0-15 of the instruction token).
            #[inline]
            pub fn from_raw(value: u32) -> Option<Self> {
                match value {
                    $($val => Some(Self::$var),)*
                    _ => None,
                }
            }

            /// The base assembly name (`mov`, `texld`…; see [`Opcode::name_for`] for the
            /// names that depend on the model).
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$var => $name,)*
                }
            }

            /// Destination and source counts in models 2 and 3.
            fn base_shape(self) -> Shape {
                match self {
                    $(Self::$var => Shape { dst: $dst != 0, src: $src },)*
                }
            }

            /// Every opcode, in number order.
            pub const ALL: &'static [Opcode] = &[$(Self::$var,)*];
        }
    };
}

opcodes! {
    Nop = 0 => "nop", 0, 0;
    Mov = 1 => "mov", 1, 1;
    Add = 2 => "add", 1, 2;
    Sub = 3 => "sub", 1, 2;
    Mad = 4 => "mad", 1, 3;
    Mul = 5 => "mul", 1, 2;
    Rcp = 6 => "rcp", 1, 1;
    Rsq = 7 => "rsq", 1, 1;
    Dp3 = 8 => "dp3", 1, 2;
    Dp4 = 9 => "dp4", 1, 2;
    Min = 10 => "min", 1, 2;
    Max = 11 => "max", 1, 2;
    Slt = 12 => "slt", 1, 2;
    Sge = 13 => "sge", 1, 2;
    Exp = 14 => "exp", 1, 1;
    Log = 15 => "log", 1, 1;
    Lit = 16 => "lit", 1, 1;
    Dst = 17 => "dst", 1, 2;
    Lrp = 18 => "lrp", 1, 3;
    Frc = 19 => "frc", 1, 1;
    M4x4 = 20 => "m4x4", 1, 2;
    M4x3 = 21 => "m4x3", 1, 2;
    M3x4 = 22 => "m3x4", 1, 2;
    M3x3 = 23 => "m3x3", 1, 2;
    M3x2 = 24 => "m3x2", 1, 2;
    Call = 25 => "call", 0, 1;
    CallNz = 26 => "callnz", 0, 2;
    Loop = 27 => "loop", 0, 2;
    Ret = 28 => "ret", 0, 0;
    EndLoop = 29 => "endloop", 0, 0;
    Label = 30 => "label", 0, 1;
    Dcl = 31 => "dcl", 1, 0;
    Pow = 32 => "pow", 1, 2;
    Crs = 33 => "crs", 1, 2;
    Sgn = 34 => "sgn", 1, 3;
    Abs = 35 => "abs", 1, 1;
    Nrm = 36 => "nrm", 1, 1;
    SinCos = 37 => "sincos", 1, 3;
    Rep = 38 => "rep", 0, 1;
    EndRep = 39 => "endrep", 0, 0;
    If = 40 => "if", 0, 1;
    IfC = 41 => "if", 0, 2;
    Else = 42 => "else", 0, 0;
    EndIf = 43 => "endif", 0, 0;
    Break = 44 => "break", 0, 0;
    BreakC = 45 => "break", 0, 2;
    MovA = 46 => "mova", 1, 1;
    DefB = 47 => "defb", 1, 0;
    DefI = 48 => "defi", 1, 0;
    TexCoord = 64 => "texcoord", 1, 0;
    TexKill = 65 => "texkill", 1, 0;
    Tex = 66 => "texld", 1, 2;
    TexBem = 67 => "texbem", 1, 1;
    TexBemL = 68 => "texbeml", 1, 1;
    TexReg2Ar = 69 => "texreg2ar", 1, 1;
    TexReg2Gb = 70 => "texreg2gb", 1, 1;
    TexM3x2Pad = 71 => "texm3x2pad", 1, 1;
    TexM3x2Tex = 72 => "texm3x2tex", 1, 1;
    TexM3x3Pad = 73 => "texm3x3pad", 1, 1;
    TexM3x3Tex = 74 => "texm3x3tex", 1, 1;
    TexM3x3Spec = 76 => "texm3x3spec", 1, 2;
    TexM3x3VSpec = 77 => "texm3x3vspec", 1, 1;
    ExpP = 78 => "expp", 1, 1;
    LogP = 79 => "logp", 1, 1;
    Cnd = 80 => "cnd", 1, 3;
    Def = 81 => "def", 1, 0;
    TexReg2Rgb = 82 => "texreg2rgb", 1, 1;
    TexDp3Tex = 83 => "texdp3tex", 1, 1;
    TexM3x2Depth = 84 => "texm3x2depth", 1, 1;
    TexDp3 = 85 => "texdp3", 1, 1;
    TexM3x3 = 86 => "texm3x3", 1, 1;
    TexDepth = 87 => "texdepth", 1, 0;
    Cmp = 88 => "cmp", 1, 3;
    Bem = 89 => "bem", 1, 2;
    Dp2Add = 90 => "dp2add", 1, 3;
    Dsx = 91 => "dsx", 1, 1;
    Dsy = 92 => "dsy", 1, 1;
    TexLdd = 93 => "texldd", 1, 4;
    SetP = 94 => "setp", 1, 2;
    TexLdl = 95 => "texldl", 1, 2;
    BreakP = 96 => "breakp", 0, 1;
    Phase = 0xFFFD => "phase", 0, 0;
    Comment = 0xFFFE => "comment", 0, 0;
    End = 0xFFFF => "end", 0, 0;
}

impl Opcode {
    /// The parameters the opcode takes in `version`.
    ///
    /// `tex` has no source in `ps_1_1`-`ps_1_3` (`tex t0`), one in `ps_1_4`
    /// (`texld r0, t0`) and two from 2.0 (`texld r0, t0, s0`); `texcoord` has one source
    /// only in `ps_1_4` (`texcrd`); `sincos` and `sgn` take two extra scratch registers
    /// before model 3.
    pub fn shape(self, version: Version) -> Shape {
        let base = self.base_shape();
        let src = match self {
            Opcode::Tex if version.major == 1 => u8::from(version.minor >= 4),
            Opcode::TexCoord => u8::from(version.major == 1 && version.minor >= 4),
            Opcode::SinCos | Opcode::Sgn if version.major >= 3 => 1,
            _ => base.src,
        };
        Shape { dst: base.dst, src }
    }

    /// The assembly name in `version` with `sources` source parameters: `tex` /
    /// `texcoord` in `ps_1_1`-`ps_1_3`, `texld` / `texcrd` from `ps_1_4` (the `p` / `b` of
    /// `texldp` / `texldb` and the comparison suffixes are added by the disassembler).
    pub fn name_for(self, sources: usize) -> &'static str {
        match self {
            Opcode::Tex if sources == 0 => "tex",
            Opcode::TexCoord if sources > 0 => "texcrd",
            _ => self.name(),
        }
    }

    /// Whether the instruction carries a comparison in bits 16-18 (`if_gt`, `break_eq`,
    /// `setp_lt`…).
    pub fn has_comparison(self) -> bool {
        matches!(self, Opcode::IfC | Opcode::BreakC | Opcode::SetP)
    }

    /// Whether the instruction is a declaration or constant definition (`dcl`, `def`,
    /// `defi`, `defb`) rather than executable code.
    pub fn is_declaration(self) -> bool {
        matches!(
            self,
            Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB
        )
    }

    /// Whether the instruction opens or closes a flow-control block, or branches.
    pub fn is_flow_control(self) -> bool {
        matches!(
            self,
            Opcode::Call
                | Opcode::CallNz
                | Opcode::Loop
                | Opcode::Ret
                | Opcode::EndLoop
                | Opcode::Label
                | Opcode::Rep
                | Opcode::EndRep
                | Opcode::If
                | Opcode::IfC
                | Opcode::Else
                | Opcode::EndIf
                | Opcode::Break
                | Opcode::BreakC
                | Opcode::BreakP
        )
    }
}
