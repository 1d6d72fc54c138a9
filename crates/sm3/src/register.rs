//! Register files (`D3DSHADER_PARAM_REGISTER_TYPE`) and register naming.
//!
//! A parameter token stores its register type in two fields: bits 28-30 hold the low three
//! bits and bits 11-12 the high two (`D3DSP_REGTYPE_MASK` / `D3DSP_REGTYPE_MASK2`). Some
//! numbers mean different files per stage or model: 3 is the address register `a0` in vertex
//! shaders and the texture register `t#` in pixel shaders; 6 is `oT#` before `vs_3_0` and
//! `o#` from it. The decoder resolves those into one [`RegisterType`] per file, and folds
//! the high constant banks (`D3DSPR_CONST2..4`, constants 2048-8191 of the software
//! profiles) into [`RegisterType::Const`] with the bank offset added to the index.

use crate::version::{Stage, Version};

/// A register file, resolved for the shader's stage and model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RegisterType {
    /// `r#`: temporary registers (`D3DSPR_TEMP`, 0).
    #[default]
    Temp,
    /// `v#`: vertex inputs, or pixel shader color (1.x, 2.x) and general (3.0) inputs
    /// (`D3DSPR_INPUT`, 1).
    Input,
    /// `c#`: float constants (`D3DSPR_CONST`, 2, and `D3DSPR_CONST2..4`, 11-13, whose
    /// indices are offset by 2048, 4096 and 6144).
    Const,
    /// `a0`: the vertex shader address register (`D3DSPR_ADDR`, 3).
    Address,
    /// `t#`: pixel shader texture coordinate / texture registers (`D3DSPR_TEXTURE`, 3).
    Texture,
    /// `oPos` (0), `oFog` (1), `oPts` (2): rasterizer outputs before `vs_3_0`
    /// (`D3DSPR_RASTOUT`, 4).
    RastOut,
    /// `oD#`: color outputs before `vs_3_0` (`D3DSPR_ATTROUT`, 5).
    AttrOut,
    /// `oT#`: texture coordinate outputs before `vs_3_0` (`D3DSPR_TEXCRDOUT`, 6).
    TexCrdOut,
    /// `o#`: `vs_3_0` outputs (`D3DSPR_OUTPUT`, 6).
    Output,
    /// `i#`: integer constants (`D3DSPR_CONSTINT`, 7).
    ConstInt,
    /// `oC#`: pixel shader color outputs, 2.0 and later (`D3DSPR_COLOROUT`, 8).
    ColorOut,
    /// `oDepth`: pixel shader depth output (`D3DSPR_DEPTHOUT`, 9).
    DepthOut,
    /// `s#`: samplers (`D3DSPR_SAMPLER`, 10).
    Sampler,
    /// `b#`: boolean constants (`D3DSPR_CONSTBOOL`, 14).
    ConstBool,
    /// `aL`: the loop counter (`D3DSPR_LOOP`, 15).
    Loop,
    /// `vPos` (0) and `vFace` (1): `ps_3_0` system inputs (`D3DSPR_MISCTYPE`, 17).
    MiscType,
    /// `l#`: subroutine labels (`D3DSPR_LABEL`, 18).
    Label,
    /// `p0`: the predicate register (`D3DSPR_PREDICATE`, 19).
    Predicate,
}

/// Register numbers of [`RegisterType::RastOut`].
pub mod rastout {
    /// `oPos`.
    pub const POSITION: u32 = 0;
    /// `oFog`.
    pub const FOG: u32 = 1;
    /// `oPts` (point size).
    pub const POINT_SIZE: u32 = 2;
}

/// Register numbers of [`RegisterType::MiscType`].
pub mod misctype {
    /// `vPos`.
    pub const POSITION: u32 = 0;
    /// `vFace`.
    pub const FACE: u32 = 1;
}

/// Why a raw register type could not be resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegisterTypeError {
    /// Not a `D3DSHADER_PARAM_REGISTER_TYPE` value.
    Unknown(u32),
    /// Defined but never implemented by Direct3D 9 (`D3DSPR_TEMPFLOAT16`).
    Unsupported(&'static str),
    /// A register number a single-register file does not have (`oPos`/`oFog`/`oPts` are
    /// 0-2, `vPos`/`vFace` 0-1, `oDepth` and `aL` only 0).
    NumberOutOfRange {
        /// The file.
        file: &'static str,
        /// The number found.
        number: u32,
    },
}

impl RegisterType {
    /// Resolves the raw register type of a parameter token and its 11-bit register number
    /// into a file and index, for a shader of `version`.
    #[inline]
    pub(crate) fn resolve(
        raw: u32,
        number: u32,
        version: Version,
    ) -> Result<(RegisterType, u32), RegisterTypeError> {
        use RegisterType as R;
        let ty = match raw {
            0 => R::Temp,
            1 => R::Input,
            2 => R::Const,
            3 => match version.stage {
                Stage::Vertex => R::Address,
                Stage::Pixel => R::Texture,
            },
            4 => R::RastOut,
            5 => R::AttrOut,
            6 => {
                if version.is_vertex() && version.major >= 3 {
                    R::Output
                } else {
                    R::TexCrdOut
                }
            }
            7 => R::ConstInt,
            8 => R::ColorOut,
            9 => R::DepthOut,
            10 => R::Sampler,
            11..=13 => return Ok((R::Const, number + 2048 * (raw - 10))),
            14 => R::ConstBool,
            15 => R::Loop,
            16 => {
                return Err(RegisterTypeError::Unsupported(
                    "D3DSPR_TEMPFLOAT16 registers",
                ))
            }
            17 => R::MiscType,
            18 => R::Label,
            19 => R::Predicate,
            _ => return Err(RegisterTypeError::Unknown(raw)),
        };
        let limit = match ty {
            R::RastOut => Some(("oPos/oFog/oPts (D3DSPR_RASTOUT)", 2)),
            R::MiscType => Some(("vPos/vFace (D3DSPR_MISCTYPE)", 1)),
            R::DepthOut => Some(("oDepth", 0)),
            R::Loop => Some(("aL", 0)),
            _ => None,
        };
        if let Some((file, max)) = limit {
            if number > max {
                return Err(RegisterTypeError::NumberOutOfRange { file, number });
            }
        }
        Ok((ty, number))
    }

    /// The raw `D3DSHADER_PARAM_REGISTER_TYPE` number (constants of the high banks report
    /// `D3DSPR_CONST`; see [`Register::raw`] for the exact encoding).
    pub fn raw(self) -> u32 {
        use RegisterType as R;
        match self {
            R::Temp => 0,
            R::Input => 1,
            R::Const => 2,
            R::Address | R::Texture => 3,
            R::RastOut => 4,
            R::AttrOut => 5,
            R::TexCrdOut | R::Output => 6,
            R::ConstInt => 7,
            R::ColorOut => 8,
            R::DepthOut => 9,
            R::Sampler => 10,
            R::ConstBool => 14,
            R::Loop => 15,
            R::MiscType => 17,
            R::Label => 18,
            R::Predicate => 19,
        }
    }
}

/// A register: file and index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Register {
    /// The register file.
    pub ty: RegisterType,
    /// The index in the file (for [`RegisterType::Const`] up to 8191, the bank offset of
    /// `D3DSPR_CONST2..4` included).
    pub index: u32,
}

impl Register {
    /// A register of `ty` with `index`.
    pub const fn new(ty: RegisterType, index: u32) -> Self {
        Register { ty, index }
    }

    /// The raw register type and 11-bit register number of the token encoding.
    pub fn raw(self) -> (u32, u32) {
        if self.ty == RegisterType::Const && self.index >= 2048 {
            (10 + self.index / 2048, self.index % 2048)
        } else {
            (self.ty.raw(), self.index)
        }
    }
}

impl core::fmt::Display for Register {
    /// The name fxc prints: `r0`, `c12`, `oPos`, `vFace`, `aL`, `p0`…
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use RegisterType as R;
        let i = self.index;
        match self.ty {
            R::Temp => write!(f, "r{i}"),
            R::Input => write!(f, "v{i}"),
            R::Const => write!(f, "c{i}"),
            R::Address => write!(f, "a{i}"),
            R::Texture => write!(f, "t{i}"),
            R::RastOut => match i {
                rastout::POSITION => f.write_str("oPos"),
                rastout::FOG => f.write_str("oFog"),
                rastout::POINT_SIZE => f.write_str("oPts"),
                _ => write!(f, "oRast{i}"),
            },
            R::AttrOut => write!(f, "oD{i}"),
            R::TexCrdOut => write!(f, "oT{i}"),
            R::Output => write!(f, "o{i}"),
            R::ConstInt => write!(f, "i{i}"),
            R::ColorOut => write!(f, "oC{i}"),
            R::DepthOut => {
                if i == 0 {
                    f.write_str("oDepth")
                } else {
                    write!(f, "oDepth{i}")
                }
            }
            R::Sampler => write!(f, "s{i}"),
            R::ConstBool => write!(f, "b{i}"),
            R::Loop => {
                if i == 0 {
                    f.write_str("aL")
                } else {
                    write!(f, "aL{i}")
                }
            }
            R::MiscType => match i {
                misctype::POSITION => f.write_str("vPos"),
                misctype::FACE => f.write_str("vFace"),
                _ => write!(f, "vMisc{i}"),
            },
            R::Label => write!(f, "l{i}"),
            R::Predicate => write!(f, "p{i}"),
        }
    }
}
