//! Operands: register type, component selection, up to three indices
//! (immediate, relative or both), modifiers and immediate values.
//!
//! Operand token layout (`OperandToken0`): bits 0-1 component count
//! (0, 1, 4), bits 2-3 selection mode (mask, swizzle, select-1), bits 4-11
//! the mask / swizzle / component, bits 12-19 the register type, bits 20-21
//! the index dimension, then three 3-bit index representations, and bit 31
//! flags an extended operand token (modifier, min precision, non-uniform).

use crate::decode::{Cursor, Fail};
use crate::enums::{MinPrecision, OperandModifier};
use crate::error::DecodeErrorKind;

macro_rules! operand_types {
    ($($var:ident = $val:literal => $prefix:literal,)*) => {
        /// `D3D10_SB_OPERAND_TYPE`: which register file an operand refers to.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        #[repr(u8)]
        pub enum OperandType {
            #[default]
            $(
                #[doc = concat!("`", $prefix, "` (", stringify!($val), ")")]
                $var = $val,
            )*
        }

        impl OperandType {
            /// The type with number `value`, if defined.
            #[inline]
            pub fn from_raw(value: u32) -> Option<Self> {
                match value {
                    $($val => Some(Self::$var),)*
                    _ => None,
                }
            }

            /// The register name fxc prints (`r`, `v`, `cb`, `vThreadID`…).
            pub fn prefix(self) -> &'static str {
                match self {
                    $(Self::$var => $prefix,)*
                }
            }
        }
    };
}

operand_types! {
    Temp = 0 => "r",
    Input = 1 => "v",
    Output = 2 => "o",
    IndexableTemp = 3 => "x",
    Immediate32 = 4 => "l",
    Immediate64 = 5 => "d",
    Sampler = 6 => "s",
    Resource = 7 => "t",
    ConstantBuffer = 8 => "cb",
    ImmediateConstantBuffer = 9 => "icb",
    Label = 10 => "l",
    InputPrimitiveId = 11 => "vPrim",
    OutputDepth = 12 => "oDepth",
    Null = 13 => "null",
    Rasterizer = 14 => "rasterizer",
    OutputCoverageMask = 15 => "oMask",
    Stream = 16 => "m",
    FunctionBody = 17 => "fb",
    FunctionTable = 18 => "ft",
    Interface = 19 => "fp",
    FunctionInput = 20 => "fi",
    FunctionOutput = 21 => "fo",
    OutputControlPointId = 22 => "vOutputControlPointID",
    InputForkInstanceId = 23 => "vForkInstanceID",
    InputJoinInstanceId = 24 => "vJoinInstanceID",
    InputControlPoint = 25 => "vicp",
    OutputControlPoint = 26 => "vocp",
    InputPatchConstant = 27 => "vpc",
    InputDomainPoint = 28 => "vDomain",
    ThisPointer = 29 => "this",
    UnorderedAccessView = 30 => "u",
    ThreadGroupSharedMemory = 31 => "g",
    InputThreadId = 32 => "vThreadID",
    InputThreadGroupId = 33 => "vThreadGroupID",
    InputThreadIdInGroup = 34 => "vThreadIDInGroup",
    InputCoverageMask = 35 => "vCoverage",
    InputThreadIdInGroupFlattened = 36 => "vThreadIDInGroupFlattened",
    InputGsInstanceId = 37 => "vGSInstanceID",
    OutputDepthGreaterEqual = 38 => "oDepthGE",
    OutputDepthLessEqual = 39 => "oDepthLE",
    CycleCounter = 40 => "vCycleCounter",
    OutputStencilRef = 41 => "oStencilRef",
    InnerCoverage = 42 => "vInnerCoverage",
}

/// How an operand selects among the four components of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Components {
    /// No components (samplers, labels, `null` in some positions).
    #[default]
    Zero,
    /// A scalar register (`oDepth`, `vPrim`…).
    One,
    /// Write mask, bit 0 = x.
    Mask(u8),
    /// Source swizzle: for each destination lane, the source component (0-3).
    Swizzle([u8; 4]),
    /// A single component (0-3).
    Select1(u8),
}

impl Components {
    /// The components read or written, as a mask (bit 0 = x).
    pub fn mask(self) -> u8 {
        match self {
            Self::Zero => 0,
            Self::One => 1,
            Self::Mask(m) => m,
            Self::Swizzle(s) => s.iter().fold(0, |m, &c| m | (1 << c)),
            Self::Select1(c) => 1 << c,
        }
    }
}

/// The register used as a relative index (`r0.x` in `cb0[r0.x + 4]`).
///
/// Stored inline; a relative register must itself use immediate indices
/// (depth 1), which is all that compilers emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelativeRegister {
    /// Register type.
    pub ty: OperandType,
    /// Component selection (normally a single component).
    pub components: Components,
    /// Number of immediate indices used (0-3).
    pub index_count: u8,
    /// Immediate indices (`x1[2].y` has `[1, 2]`).
    pub indices: [u32; 3],
}

impl RelativeRegister {
    /// The single component read (first selected component).
    pub fn component(&self) -> u8 {
        match self.components {
            Components::Select1(c) => c,
            Components::Swizzle(s) => s[0],
            Components::Mask(m) => m.trailing_zeros().min(3) as u8,
            _ => 0,
        }
    }

    /// The used immediate indices.
    pub fn indices(&self) -> &[u32] {
        self.indices
            .get(..self.index_count as usize)
            .unwrap_or_default()
    }
}

/// One register index: an immediate, a relative register, or their sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Index {
    /// Immediate part (0 if purely relative).
    pub imm: u64,
    /// Relative part, if any.
    pub relative: Option<RelativeRegister>,
}

/// A decoded operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Operand {
    /// Register type.
    pub ty: OperandType,
    /// Component selection.
    pub components: Components,
    /// Number of indices (0-3).
    pub index_count: u8,
    /// Indices; only the first `index_count` are meaningful.
    pub indices: [Index; 3],
    /// Source modifier (neg / abs).
    pub modifier: OperandModifier,
    /// Minimum precision.
    pub min_precision: MinPrecision,
    /// SM 5.1 non-uniform resource index flag.
    pub non_uniform: bool,
    /// Immediate values: four 32-bit lanes for `Immediate32`; for
    /// `Immediate64`, lanes `2i` (low) and `2i + 1` (high) form value `i`.
    pub imm: [u32; 4],
}

// The enums come from a macro shared with enums that have no default.
#[allow(clippy::derivable_impls)]
impl Default for OperandModifier {
    fn default() -> Self {
        Self::None
    }
}

#[allow(clippy::derivable_impls)]
impl Default for MinPrecision {
    fn default() -> Self {
        Self::Default
    }
}

impl Operand {
    /// The used indices.
    pub fn indices(&self) -> &[Index] {
        self.indices
            .get(..self.index_count as usize)
            .unwrap_or_default()
    }

    /// Immediate index `i` if the index exists and is purely immediate.
    pub fn imm_index(&self, i: usize) -> Option<u64> {
        let idx = self.indices().get(i)?;
        idx.relative.is_none().then_some(idx.imm)
    }

    /// Number of immediate values (`Immediate32`: 1 or 4; `Immediate64`: 1 or 2).
    pub fn imm_count(&self) -> usize {
        match (self.ty, self.components) {
            (OperandType::Immediate32, Components::One) => 1,
            (OperandType::Immediate32, Components::Zero) => 0,
            (OperandType::Immediate32, _) => 4,
            (OperandType::Immediate64, Components::One) => 1,
            (OperandType::Immediate64, Components::Zero) => 0,
            (OperandType::Immediate64, _) => 2,
            _ => 0,
        }
    }

    /// 64-bit immediate value `i` (for `Immediate64` operands).
    pub fn imm64(&self, i: usize) -> u64 {
        let lo = self.imm.get(2 * i).copied().unwrap_or(0) as u64;
        let hi = self.imm.get(2 * i + 1).copied().unwrap_or(0) as u64;
        lo | (hi << 32)
    }
}

/// The component selection of operand token `tok`; `None` for an encoding that has none.
#[inline(always)]
fn components_of(tok: u32) -> Option<Components> {
    Some(match (tok & 3, (tok >> 2) & 3) {
        (0, _) => Components::Zero,
        (1, _) => Components::One,
        (2, 0) => Components::Mask(((tok >> 4) & 0xf) as u8),
        (2, 1) => Components::Swizzle([
            ((tok >> 4) & 3) as u8,
            ((tok >> 6) & 3) as u8,
            ((tok >> 8) & 3) as u8,
            ((tok >> 10) & 3) as u8,
        ]),
        (2, 2) => Components::Select1(((tok >> 4) & 3) as u8),
        _ => return None,
    })
}

/// Decodes one operand at the cursor. `nested` is true while decoding a
/// relative-index register, which may not itself be relatively indexed.
///
/// The usual operand (a register with immediate indices, no extended token) is decoded here;
/// any other by [`decode_operand_in_full`], which also reports every malformed one.
#[inline(always)]
pub(crate) fn decode_operand(
    c: &mut Cursor<'_>,
    nested: bool,
    out: &mut Operand,
) -> Result<(), Fail> {
    if let Some(tok) = c.peek() {
        // No extended operand token, every index representation a 32-bit immediate.
        if tok & 0xffc0_0000 == 0 {
            let components = components_of(tok);
            let ty = OperandType::from_raw((tok >> 12) & 0xff);
            if let (Some(components), Some(ty)) = (components, ty) {
                if !matches!(ty, OperandType::Immediate32 | OperandType::Immediate64) {
                    c.next()?;
                    let index_count = ((tok >> 20) & 3) as u8;
                    *out = Operand {
                        ty,
                        components,
                        index_count,
                        ..Operand::default()
                    };
                    for index in out.indices.iter_mut().take(index_count as usize) {
                        index.imm = c.next()? as u64;
                    }
                    return Ok(());
                }
            }
        }
    }
    decode_operand_in_full(c, nested, out)
}

/// [`decode_operand`] for any operand: extended tokens, immediates, relative indices and
/// every malformed encoding.
#[inline(never)]
fn decode_operand_in_full(c: &mut Cursor<'_>, nested: bool, out: &mut Operand) -> Result<(), Fail> {
    let at = c.pos;
    let tok = c.next()?;
    let components = components_of(tok)
        .ok_or_else(|| Fail::at(at, DecodeErrorKind::BadComponentSelection(tok)))?;
    let raw_ty = (tok >> 12) & 0xff;
    let ty = OperandType::from_raw(raw_ty)
        .ok_or_else(|| Fail::at(at, DecodeErrorKind::UnknownOperandType(raw_ty)))?;
    let index_count = ((tok >> 20) & 3) as u8;
    *out = Operand {
        ty,
        components,
        index_count,
        ..Operand::default()
    };
    let op = out;
    if tok & 0x8000_0000 != 0 {
        let ext_at = c.pos;
        let ext = c.next()?;
        if ext & 0x8000_0000 != 0 {
            return Err(Fail::at(
                ext_at,
                DecodeErrorKind::UnknownExtendedOperand(ext),
            ));
        }
        match ext & 0x3f {
            0 => {}
            1 => {
                op.modifier = OperandModifier::from_raw((ext >> 6) & 0xff).ok_or_else(|| {
                    Fail::at(ext_at, DecodeErrorKind::UnknownExtendedOperand(ext))
                })?;
                op.min_precision = MinPrecision::from_raw((ext >> 14) & 7).ok_or_else(|| {
                    Fail::at(ext_at, DecodeErrorKind::UnknownExtendedOperand(ext))
                })?;
                op.non_uniform = (ext >> 17) & 1 != 0;
            }
            _ => {
                return Err(Fail::at(
                    ext_at,
                    DecodeErrorKind::UnknownExtendedOperand(ext),
                ))
            }
        }
    }
    match ty {
        OperandType::Immediate32 => {
            let n = match components {
                Components::Zero => 0,
                Components::One => 1,
                _ => 4,
            };
            for slot in op.imm.iter_mut().take(n) {
                *slot = c.next()?;
            }
        }
        OperandType::Immediate64 => {
            let n = match components {
                Components::Zero => 0,
                Components::One => 2,
                _ => 4,
            };
            for slot in op.imm.iter_mut().take(n) {
                *slot = c.next()?;
            }
        }
        _ => {}
    }
    // Each index is written in place (`*out` above reset them all to immediate 0).
    if (tok >> 22) & 0x1ff == 0 {
        // Every index a 32-bit immediate (nearly all operands): no representation to look at.
        for index in op.indices.iter_mut().take(index_count as usize) {
            index.imm = c.next()? as u64;
        }
        return Ok(());
    }
    for (i, index) in op.indices.iter_mut().enumerate().take(index_count as usize) {
        let rep = (tok >> (22 + 3 * i as u32)) & 7;
        match rep {
            0 | 3 => index.imm = c.next()? as u64,
            1 | 4 => {
                let hi = c.next()? as u64;
                let lo = c.next()? as u64;
                index.imm = (hi << 32) | lo;
            }
            2 => {}
            _ => return Err(Fail::at(at, DecodeErrorKind::BadIndexRepresentation(rep))),
        }
        if rep >= 2 {
            if nested {
                return Err(Fail::at(c.pos, DecodeErrorKind::NestingTooDeep));
            }
            let mut rel = Operand::default();
            decode_operand_in_full(c, true, &mut rel)?;
            let mut indices = [0u32; 3];
            for (dst, src) in indices.iter_mut().zip(rel.indices()) {
                *dst = src.imm as u32;
            }
            index.relative = Some(RelativeRegister {
                ty: rel.ty,
                components: rel.components,
                index_count: rel.index_count,
                indices,
            });
        }
    }
    Ok(())
}
