//! Parameter tokens: destinations, sources, and relative addresses.
//!
//! Both kinds of parameter token have bit 31 set and name a register in bits 0-10 (number)
//! and 28-30 / 11-12 (type, see [`crate::register`]); bit 13 marks relative addressing.
//!
//! * A destination token holds the write mask in bits 16-19, the result modifiers
//!   (saturate, partial precision, centroid) in bits 20-23 and a signed result shift in
//!   bits 24-27 (pixel shader 1.x `_x2`, `_d4`…).
//! * A source token holds the swizzle in bits 16-23 (two bits per component, x lowest) and
//!   the source modifier in bits 24-27.
//!
//! A relatively addressed parameter of `vs_2_0`+ and `ps_3_0`+ is followed by one extra
//! source-like token naming `a0` or `aL` and the component used (its swizzle's first
//! lane). In `vs_1_x` no token follows: the address is `a0.x`.

use crate::decode::{Cursor, Fail};
use crate::error::DecodeErrorKind;
use crate::register::{Register, RegisterType, RegisterTypeError};
use crate::version::Version;

/// Bit 31: set in every parameter token.
pub(crate) const PARAMETER_BIT: u32 = 0x8000_0000;
/// Bit 13: relative addressing (`D3DSHADER_ADDRMODE_RELATIVE`).
const RELATIVE_BIT: u32 = 1 << 13;

/// A source swizzle: for each of the four result lanes, the source component read
/// (0 = x … 3 = w), two bits per lane with lane x in bits 0-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Default for Swizzle {
    fn default() -> Self {
        Swizzle::IDENTITY
    }
}

impl Swizzle {
    /// `.xyzw`.
    pub const IDENTITY: Swizzle = Swizzle(0xE4);

    /// The swizzle reading component `c` in every lane (`.x`, `.y`…).
    pub const fn replicate(c: u8) -> Swizzle {
        let c = c & 3;
        Swizzle(c | c << 2 | c << 4 | c << 6)
    }

    /// The swizzle `[x, y, z, w]` (each 0-3).
    pub const fn new(lanes: [u8; 4]) -> Swizzle {
        Swizzle((lanes[0] & 3) | (lanes[1] & 3) << 2 | (lanes[2] & 3) << 4 | (lanes[3] & 3) << 6)
    }

    /// The component read by lane `lane` (0-3).
    #[inline]
    pub fn lane(self, lane: usize) -> u8 {
        (self.0 >> ((lane & 3) * 2)) & 3
    }

    /// The four lanes.
    pub fn lanes(self) -> [u8; 4] {
        [self.lane(0), self.lane(1), self.lane(2), self.lane(3)]
    }

    /// Whether this is `.xyzw`.
    pub fn is_identity(self) -> bool {
        self == Self::IDENTITY
    }

    /// The component, if every lane reads the same one.
    pub fn replicated(self) -> Option<u8> {
        let c = self.lane(0);
        (self == Self::replicate(c)).then_some(c)
    }

    /// The components read by the lanes in `mask` (bit 0 = x), as a mask.
    pub fn read_mask(self, mask: WriteMask) -> u8 {
        (0..4)
            .filter(|&l| mask.0 & (1 << l) != 0)
            .fold(0, |m, l| m | 1 << self.lane(l))
    }
}

/// A destination write mask (bit 0 = x … bit 3 = w).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteMask(pub u8);

impl Default for WriteMask {
    fn default() -> Self {
        WriteMask::ALL
    }
}

impl WriteMask {
    /// `.xyzw`.
    pub const ALL: WriteMask = WriteMask(0xF);

    /// Whether component `c` (0-3) is written.
    #[inline]
    pub fn contains(self, c: usize) -> bool {
        self.0 & (1 << (c & 3)) != 0
    }

    /// Whether all four components are written.
    pub fn is_full(self) -> bool {
        self.0 & 0xF == 0xF
    }
}

/// A source modifier (`D3DSHADER_PARAM_SRCMOD_TYPE`, bits 24-27 of a source token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SourceModifier {
    /// No modifier.
    #[default]
    None,
    /// `-r0`.
    Negate,
    /// `r0_bias`: x − 0.5 (pixel shader 1.x).
    Bias,
    /// `-r0_bias`.
    BiasNegate,
    /// `r0_bx2`: 2x − 1, the signed scale (pixel shader 1.x).
    Sign,
    /// `-r0_bx2`.
    SignNegate,
    /// `1 - r0`: the complement (pixel shader 1.x).
    Complement,
    /// `r0_x2` (pixel shader 1.4).
    X2,
    /// `-r0_x2`.
    X2Negate,
    /// `r0_dz`: divide by z (`ps_1_4` `texld` / `texcrd`).
    Dz,
    /// `r0_dw`: divide by w (`ps_1_4` `texld` / `texcrd`).
    Dw,
    /// `r0_abs` (model 3, and `ps_2_x`).
    Abs,
    /// `-r0_abs`.
    AbsNegate,
    /// `!b0`, `!p0`: logical not of a boolean or predicate.
    Not,
}

impl SourceModifier {
    /// The modifier with raw value `v` (0-13).
    pub fn from_raw(v: u32) -> Option<Self> {
        use SourceModifier as M;
        Some(match v {
            0 => M::None,
            1 => M::Negate,
            2 => M::Bias,
            3 => M::BiasNegate,
            4 => M::Sign,
            5 => M::SignNegate,
            6 => M::Complement,
            7 => M::X2,
            8 => M::X2Negate,
            9 => M::Dz,
            10 => M::Dw,
            11 => M::Abs,
            12 => M::AbsNegate,
            13 => M::Not,
            _ => return None,
        })
    }

    /// The raw value.
    pub fn raw(self) -> u32 {
        self as u32
    }

    /// Whether the value is negated after the other modifiers apply.
    pub fn negates(self) -> bool {
        use SourceModifier as M;
        matches!(
            self,
            M::Negate | M::BiasNegate | M::SignNegate | M::X2Negate | M::AbsNegate
        )
    }
}

/// The register and component a relative address reads: `a0.x` in `c3[a0.x]`, or `aL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RelativeAddress {
    /// The address register: [`RegisterType::Address`] (`a0`) or [`RegisterType::Loop`]
    /// (`aL`).
    pub register: Register,
    /// The swizzle of the relative-address token; lane x is the component used.
    pub swizzle: Swizzle,
    /// Whether the address was implied (`vs_1_x`: always `a0.x`, no token in the stream).
    pub implicit: bool,
}

impl RelativeAddress {
    /// The `vs_1_x` address: `a0.x`, implied.
    pub const A0X_IMPLICIT: RelativeAddress = RelativeAddress {
        register: Register::new(RegisterType::Address, 0),
        swizzle: Swizzle::replicate(0),
        implicit: true,
    };

    /// The component of the address register used (0 = x).
    pub fn component(&self) -> u8 {
        self.swizzle.lane(0)
    }
}

/// A destination parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Destination {
    /// The register written (for `texkill`, the register tested).
    pub register: Register,
    /// Components written.
    pub write_mask: WriteMask,
    /// `_sat`: clamp the result to [0, 1].
    pub saturate: bool,
    /// `_pp`: partial precision is enough.
    pub partial_precision: bool,
    /// `_centroid`: centroid interpolation (`dcl` of pixel shader inputs).
    pub centroid: bool,
    /// Result shift, pixel shader 1.x: 1 = `_x2`, 2 = `_x4`, 3 = `_x8`, −1 = `_d2`,
    /// −2 = `_d4`, −3 = `_d8`; 0 for none.
    pub shift: i8,
    /// Relative address (`o[a0.x + 12]` in `vs_3_0`).
    pub relative: Option<RelativeAddress>,
}

/// A source parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Source {
    /// The register read (for relative addressing, the base: `c3` of `c3[a0.x]`).
    pub register: Register,
    /// Component selection.
    pub swizzle: Swizzle,
    /// Modifier.
    pub modifier: SourceModifier,
    /// Relative address, if any.
    pub relative: Option<RelativeAddress>,
}

#[inline]
fn register_of(token: u32, version: Version, at: usize) -> Result<Register, Fail> {
    let raw = (token >> 28) & 7 | (token >> 8) & 0x18;
    let number = token & 0x7FF;
    match RegisterType::resolve(raw, number, version) {
        Ok((ty, index)) => Ok(Register { ty, index }),
        Err(e) => Err(Fail::at(
            at,
            match e {
                RegisterTypeError::Unknown(v) => DecodeErrorKind::UnknownRegisterType(v),
                RegisterTypeError::Unsupported(what) => {
                    DecodeErrorKind::UnsupportedRegisterType(what)
                }
                RegisterTypeError::NumberOutOfRange { file, number } => {
                    DecodeErrorKind::RegisterNumberOutOfRange { file, number }
                }
            },
        )),
    }
}

#[inline]
fn parameter_token(c: &mut Cursor<'_>) -> Result<(usize, u32), Fail> {
    let at = c.pos;
    let token = c.next()?;
    if token & PARAMETER_BIT == 0 {
        return Err(Fail::at(at, DecodeErrorKind::NotAParameterToken(token)));
    }
    Ok((at, token))
}

/// Reads the relative-address token that follows a relatively addressed parameter.
fn decode_relative(c: &mut Cursor<'_>, version: Version) -> Result<RelativeAddress, Fail> {
    let (at, token) = parameter_token(c)?;
    let raw = (token >> 28) & 7 | (token >> 8) & 0x18;
    let ty = match raw {
        3 => RegisterType::Address,
        15 => RegisterType::Loop,
        _ => return Err(Fail::at(at, DecodeErrorKind::BadRelativeAddressing)),
    };
    let index = token & 0x7FF;
    // Checked like any other register (aL has only number 0).
    if ty == RegisterType::Loop {
        register_of(token, version, at)?;
    }
    Ok(RelativeAddress {
        register: Register { ty, index },
        swizzle: Swizzle(((token >> 16) & 0xFF) as u8),
        implicit: false,
    })
}

/// Decodes a destination parameter (and its relative-address token, if any).
#[inline(always)]
pub(crate) fn decode_destination(
    c: &mut Cursor<'_>,
    version: Version,
) -> Result<Destination, Fail> {
    let (at, token) = parameter_token(c)?;
    let register = register_of(token, version, at)?;
    let modifiers = (token >> 20) & 0xF;
    if modifiers & 0x8 != 0 {
        return Err(Fail::at(at, DecodeErrorKind::BadResultModifier(modifiers)));
    }
    let raw_shift = (token >> 24) & 0xF;
    let shift = match raw_shift {
        0..=3 => raw_shift as i8,
        13..=15 => raw_shift as i8 - 16,
        _ => return Err(Fail::at(at, DecodeErrorKind::BadResultShift(raw_shift))),
    };
    let relative = if token & RELATIVE_BIT != 0 {
        if !version.has_relative_address_token() {
            return Err(Fail::at(at, DecodeErrorKind::BadRelativeAddressing));
        }
        Some(decode_relative(c, version)?)
    } else {
        None
    };
    Ok(Destination {
        register,
        write_mask: WriteMask(((token >> 16) & 0xF) as u8),
        saturate: modifiers & 1 != 0,
        partial_precision: modifiers & 2 != 0,
        centroid: modifiers & 4 != 0,
        shift,
        relative,
    })
}

/// Decodes a source parameter (and its relative-address token, if any).
#[inline(always)]
pub(crate) fn decode_source(c: &mut Cursor<'_>, version: Version) -> Result<Source, Fail> {
    let (at, token) = parameter_token(c)?;
    let register = register_of(token, version, at)?;
    let raw_modifier = (token >> 24) & 0xF;
    let modifier = SourceModifier::from_raw(raw_modifier).ok_or(Fail::at(
        at,
        DecodeErrorKind::BadSourceModifier(raw_modifier),
    ))?;
    let relative = if token & RELATIVE_BIT != 0 {
        if version.has_relative_address_token() {
            Some(decode_relative(c, version)?)
        } else if version.is_vertex() {
            Some(RelativeAddress::A0X_IMPLICIT)
        } else {
            return Err(Fail::at(at, DecodeErrorKind::BadRelativeAddressing));
        }
    } else {
        None
    };
    Ok(Source {
        register,
        swizzle: Swizzle(((token >> 16) & 0xFF) as u8),
        modifier,
        relative,
    })
}
