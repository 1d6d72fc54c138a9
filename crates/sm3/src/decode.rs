//! The token stream reader: [`Shader`], [`Instructions`] and [`Instruction`].
//!
//! A Direct3D 9 shader is a run of 32-bit tokens: the version token, then instructions and
//! comments, then the end token `0x0000FFFF`. An instruction token holds the opcode in bits
//! 0-15, opcode-specific controls in bits 16-23 (the comparison of `ifc`/`breakc`/`setp`,
//! the project/bias flags of `texld`), the parameter count in bits 24-27 (models 2 and 3
//! only), the predicated flag in bit 28 and the co-issue flag in bit 30 (pixel shader 1.x).
//! Model 1 instructions have no length: their parameters are the following tokens with bit
//! 31 set, except for `def` whose four values are raw floats. A comment token (`0xFFFE`)
//! holds its length in words in bits 16-30.
//!
//! [`Shader::parse`] walks the stream once by lengths only, to find the end token, the
//! comments and the constant table; [`Shader::instructions`] then decodes lazily, one
//! [`Instruction`] per step, with its parameters in fixed inline storage.

use crate::ctab::ConstantTable;
use crate::error::{DecodeErrorKind, Error, Warning};
use crate::opcode::Opcode;
use crate::operand::{decode_destination, decode_source, Destination, Source, PARAMETER_BIT};
use crate::register::RegisterType;
use crate::version::Version;
use crate::Words;

/// Most source parameters an instruction has (`texldd`: coordinate, sampler, two
/// gradients).
pub const MAX_SOURCES: usize = 4;

/// The end token.
pub const END_TOKEN: u32 = 0x0000_FFFF;
/// The fourcc of the constant table comment, `CTAB`, as a little-endian word.
pub const CTAB_FOURCC: u32 = u32::from_le_bytes(*b"CTAB");

const COISSUE_BIT: u32 = 1 << 30;
const PREDICATED_BIT: u32 = 1 << 28;

/// The comparison of `if_comp`, `break_comp` and `setp_comp` (`D3DSHADER_COMPARISON`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `_gt` (1).
    Gt,
    /// `_eq` (2).
    Eq,
    /// `_ge` (3).
    Ge,
    /// `_lt` (4).
    Lt,
    /// `_ne` (5).
    Ne,
    /// `_le` (6).
    Le,
}

impl Comparison {
    /// The comparison with raw value `v` (1-6).
    pub fn from_raw(v: u32) -> Option<Self> {
        Some(match v {
            1 => Self::Gt,
            2 => Self::Eq,
            3 => Self::Ge,
            4 => Self::Lt,
            5 => Self::Ne,
            6 => Self::Le,
            _ => return None,
        })
    }

    /// The suffix fxc prints (`gt`, `eq`…).
    pub fn suffix(self) -> &'static str {
        match self {
            Self::Gt => "gt",
            Self::Eq => "eq",
            Self::Ge => "ge",
            Self::Lt => "lt",
            Self::Ne => "ne",
            Self::Le => "le",
        }
    }
}

/// The flavour of a `texld` (`D3DSI_TEXLD_PROJECT`, `D3DSI_TEXLD_BIAS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TexLoad {
    /// `texld`.
    #[default]
    Plain,
    /// `texldp`: divide the coordinate by its w before sampling.
    Project,
    /// `texldb`: bias the level of detail by the coordinate's w.
    Bias,
}

/// A `dcl` usage (`D3DDECLUSAGE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Usage {
    /// `position` (0).
    Position,
    /// `blendweight` (1).
    BlendWeight,
    /// `blendindices` (2).
    BlendIndices,
    /// `normal` (3).
    Normal,
    /// `psize` (4).
    PointSize,
    /// `texcoord` (5).
    TexCoord,
    /// `tangent` (6).
    Tangent,
    /// `binormal` (7).
    Binormal,
    /// `tessfactor` (8).
    TessFactor,
    /// `positiont` (9).
    PositionT,
    /// `color` (10).
    Color,
    /// `fog` (11).
    Fog,
    /// `depth` (12).
    Depth,
    /// `sample` (13).
    Sample,
}

impl Usage {
    /// The usage with raw value `v` (0-13).
    pub fn from_raw(v: u32) -> Option<Self> {
        use Usage as U;
        Some(match v {
            0 => U::Position,
            1 => U::BlendWeight,
            2 => U::BlendIndices,
            3 => U::Normal,
            4 => U::PointSize,
            5 => U::TexCoord,
            6 => U::Tangent,
            7 => U::Binormal,
            8 => U::TessFactor,
            9 => U::PositionT,
            10 => U::Color,
            11 => U::Fog,
            12 => U::Depth,
            13 => U::Sample,
            _ => return None,
        })
    }

    /// The name in `dcl_<name>`.
    pub fn name(self) -> &'static str {
        use Usage as U;
        match self {
            U::Position => "position",
            U::BlendWeight => "blendweight",
            U::BlendIndices => "blendindices",
            U::Normal => "normal",
            U::PointSize => "psize",
            U::TexCoord => "texcoord",
            U::Tangent => "tangent",
            U::Binormal => "binormal",
            U::TessFactor => "tessfactor",
            U::PositionT => "positiont",
            U::Color => "color",
            U::Fog => "fog",
            U::Depth => "depth",
            U::Sample => "sample",
        }
    }
}

/// The texture type of a sampler declaration (`D3DSAMPLER_TEXTURE_TYPE`, bits 27-30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureType {
    /// Not given (0): `dcl s0`.
    Unknown,
    /// `dcl_1d` (1).
    Texture1D,
    /// `dcl_2d` (2).
    Texture2D,
    /// `dcl_cube` (3).
    Cube,
    /// `dcl_volume` (4).
    Volume,
}

impl TextureType {
    /// The type with raw value `v` (0-4).
    pub fn from_raw(v: u32) -> Option<Self> {
        Some(match v {
            0 => Self::Unknown,
            1 => Self::Texture1D,
            2 => Self::Texture2D,
            3 => Self::Cube,
            4 => Self::Volume,
            _ => return None,
        })
    }

    /// The suffix in `dcl_<suffix> s0` (empty for [`TextureType::Unknown`]).
    pub fn name(self) -> &'static str {
        match self {
            Self::Unknown => "",
            Self::Texture1D => "1d",
            Self::Texture2D => "2d",
            Self::Cube => "cube",
            Self::Volume => "volume",
        }
    }
}

/// What a `dcl` declares about its register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declaration {
    /// An input or output register's semantic (`dcl_texcoord1 v2`). Pixel shaders before
    /// 3.0 declare `t#` / `v#` without a meaningful usage (`dcl t0.xy`); the field holds
    /// what the token says (fxc writes `position`, 0).
    Semantic {
        /// Usage.
        usage: Usage,
        /// Usage index (0-15).
        index: u8,
    },
    /// A sampler's texture type (`dcl_2d s0`).
    Sampler(TextureType),
}

/// A comment block: the words after the comment token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// Token offset of the comment token.
    pub offset: u32,
    /// The comment's words (fxc's blocks start with a fourcc: `CTAB`, `DBUG`, `PRES`…).
    pub data: Words<'a>,
}

impl Comment<'_> {
    /// The first word as a fourcc, if the comment has one.
    pub fn fourcc(&self) -> Option<[u8; 4]> {
        self.data.get(0).map(u32::to_le_bytes)
    }
}

/// Data an instruction carries besides its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Payload<'a> {
    /// Nothing.
    #[default]
    None,
    /// `def c#, x, y, z, w`: the four values as raw bits (use [`f32::from_bits`]).
    Def([u32; 4]),
    /// `defi i#, x, y, z, w`.
    DefI([i32; 4]),
    /// `defb b#, true|false`.
    DefB(bool),
    /// `dcl`.
    Dcl(Declaration),
    /// A comment block.
    Comment(Comment<'a>),
}

/// One decoded instruction (or comment).
#[derive(Clone, Debug)]
pub struct Instruction<'a> {
    /// Opcode ([`Opcode::Comment`] for comment blocks).
    pub opcode: Opcode,
    /// Token offset of the instruction token (the version token is 0).
    pub offset: u32,
    /// Length in tokens, the instruction token included.
    pub len: u32,
    /// Zero-based index among the shader's instructions (comments are not counted; a
    /// comment carries the index of the instruction after it).
    pub index: u32,
    /// The comparison of `ifc`, `breakc` and `setp`.
    pub comparison: Option<Comparison>,
    /// The flavour of `tex` (`texld`, `texldp`, `texldb`).
    pub texld: TexLoad,
    /// Co-issued with the previous instruction (pixel shader 1.x, `+` in assembly).
    pub coissue: bool,
    /// The predicate of a predicated instruction (`(p0.x)`, `(!p0)`): a
    /// [`RegisterType::Predicate`] source whose modifier is none or
    /// [`crate::SourceModifier::Not`].
    pub predicate: Option<Source>,
    /// The destination parameter.
    pub dst: Option<Destination>,
    src_count: u8,
    src_storage: [Source; MAX_SOURCES],
    /// `def`/`defi`/`defb` values, `dcl` semantics, comment words.
    pub payload: Payload<'a>,
}

impl Default for Instruction<'_> {
    /// A `nop`: a buffer for [`Instructions::next_into`].
    fn default() -> Self {
        Instruction {
            opcode: Opcode::Nop,
            offset: 0,
            len: 0,
            index: 0,
            comparison: None,
            texld: TexLoad::Plain,
            coissue: false,
            predicate: None,
            dst: None,
            src_count: 0,
            src_storage: [Source::default(); MAX_SOURCES],
            payload: Payload::None,
        }
    }
}

impl<'a> Instruction<'a> {
    /// The source parameters in token order.
    #[inline]
    pub fn sources(&self) -> &[Source] {
        self.src_storage
            .get(..self.src_count as usize)
            .unwrap_or_default()
    }

    /// Source parameter `i`.
    #[inline]
    pub fn src(&self, i: usize) -> Option<&Source> {
        self.sources().get(i)
    }

    /// Whether this is a comment block rather than an instruction.
    pub fn is_comment(&self) -> bool {
        self.opcode == Opcode::Comment
    }
}

/// A parsed Direct3D 9 shader.
#[derive(Clone, Debug)]
pub struct Shader<'a> {
    /// Stage and model.
    pub version: Version,
    /// The tokens from the version token to the end token, both included; token offsets
    /// in errors and instructions index this. Data after the end token is ignored.
    pub tokens: Words<'a>,
    /// Number of instructions (comments and the end token not counted).
    pub instruction_count: u32,
    /// Every comment block, in order.
    pub comments: Vec<Comment<'a>>,
    /// The constant table from the first `CTAB` comment, when there is one that parses.
    pub constant_table: Option<ConstantTable>,
    /// Problems that did not stop the shader from reading (a malformed constant table).
    pub warnings: Vec<Warning>,
}

impl<'a> Shader<'a> {
    /// Reads the version token and walks the stream to the end token, collecting the
    /// comments and parsing the constant table. Instructions are decoded by
    /// [`Shader::instructions`].
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let words = Words::new(bytes);
        let token = words.get(0).ok_or(Error::TooShort { len: bytes.len() })?;
        let version = Version::from_token(token)?;
        let mut pos = 1usize;
        let mut index = 0u32;
        let mut comments = Vec::new();
        let fail = |f: Fail, index: u32| Error::Decode {
            offset: f.pos as u32,
            instruction: index,
            kind: f.kind,
        };
        loop {
            let Some(tok) = words.get(pos) else {
                return Err(fail(Fail::at(pos, DecodeErrorKind::MissingEndToken), index));
            };
            if tok & 0xFFFF == 0xFFFF {
                if tok != END_TOKEN {
                    return Err(fail(
                        Fail::at(pos, DecodeErrorKind::BadEndToken(tok)),
                        index,
                    ));
                }
                break;
            }
            let end = instruction_end(words, pos, tok, version).map_err(|f| fail(f, index))?;
            if tok & 0xFFFF == Opcode::Comment as u32 {
                comments.push(Comment {
                    offset: pos as u32,
                    data: words.slice(pos + 1, end),
                });
            } else {
                index += 1;
            }
            pos = end;
        }
        let mut warnings = Vec::new();
        let constant_table = comments
            .iter()
            .find(|c| c.data.get(0) == Some(CTAB_FOURCC))
            .and_then(|c| {
                let data = c.data.slice(1, c.data.len());
                ConstantTable::parse(data.as_bytes(), c.offset, &mut warnings)
            });
        Ok(Shader {
            version,
            tokens: words.slice(0, pos + 1),
            instruction_count: index,
            comments,
            constant_table,
            warnings,
        })
    }

    /// Iterates over the instructions and comments, decoding lazily; the end token ends
    /// the iteration. After the first error the iterator ends.
    pub fn instructions(&self) -> Instructions<'a> {
        Instructions::new(self.tokens, self.version)
    }

    /// Iterates from the instruction at token `offset`, whose index among the shader's
    /// instructions is `index` (an [`Instruction`]'s `offset` and `index`): a converter
    /// walks a subroutine again from its `label`. An offset that is not an instruction's
    /// yields a decode error, never a panic.
    pub fn instructions_at(&self, offset: u32, index: u32) -> Instructions<'a> {
        Instructions {
            tokens: self.tokens,
            version: self.version,
            pos: offset as usize,
            index,
            done: false,
        }
    }
}

/// Iterator over the instructions (and comments) of a token stream.
#[derive(Clone, Debug)]
pub struct Instructions<'a> {
    tokens: Words<'a>,
    version: Version,
    pos: usize,
    index: u32,
    done: bool,
}

impl<'a> Instructions<'a> {
    /// Decodes `tokens` (version token first) as a shader of `version`, from token 1.
    pub fn new(tokens: Words<'a>, version: Version) -> Self {
        Instructions {
            tokens,
            version,
            pos: 1,
            index: 0,
            done: false,
        }
    }

    /// Decodes the next instruction into `inst`, overwriting it (what [`Iterator::next`]
    /// returns, without moving an [`Instruction`] around: a converter walking a shader
    /// keeps one buffer). `None` at the end token and after an error.
    #[inline]
    pub fn next_into(&mut self, inst: &mut Instruction<'a>) -> Option<Result<(), Error>> {
        if self.done {
            return None;
        }
        match decode_instruction(inst, self.tokens, self.pos, self.index, self.version) {
            Ok(()) => {
                if inst.opcode == Opcode::End {
                    self.done = true;
                    return None;
                }
                self.pos += inst.len as usize;
                if inst.opcode != Opcode::Comment {
                    self.index += 1;
                }
                Some(Ok(()))
            }
            Err(f) => {
                self.done = true;
                Some(Err(Error::Decode {
                    offset: f.pos as u32,
                    instruction: self.index,
                    kind: f.kind,
                }))
            }
        }
    }
}

impl<'a> Iterator for Instructions<'a> {
    type Item = Result<Instruction<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let mut inst = Instruction::default();
        match self.next_into(&mut inst)? {
            Ok(()) => Some(Ok(inst)),
            Err(e) => Some(Err(e)),
        }
    }
}

/// An internal decode failure: token position and reason.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fail {
    pub pos: usize,
    pub kind: DecodeErrorKind,
}

impl Fail {
    pub fn at(pos: usize, kind: DecodeErrorKind) -> Self {
        Fail { pos, kind }
    }
}

/// Reads the parameter tokens of one instruction, never past its end.
pub(crate) struct Cursor<'a> {
    pub tokens: Words<'a>,
    pub pos: usize,
    pub end: usize,
}

impl Cursor<'_> {
    #[inline(always)]
    pub fn next(&mut self) -> Result<u32, Fail> {
        if self.pos >= self.end {
            return Err(Fail::at(self.pos, DecodeErrorKind::MissingParameter));
        }
        let v = self
            .tokens
            .get(self.pos)
            .ok_or(Fail::at(self.pos, DecodeErrorKind::Truncated))?;
        self.pos += 1;
        Ok(v)
    }
}

/// The token position after the instruction or comment whose token `tok` is at `start`.
#[inline]
fn instruction_end(
    tokens: Words<'_>,
    start: usize,
    tok: u32,
    version: Version,
) -> Result<usize, Fail> {
    let first = start + 1;
    if tok & 0xFFFF == Opcode::Comment as u32 {
        let n = (tok >> 16) & 0x7FFF;
        let end = first + n as usize;
        if tok & PARAMETER_BIT != 0 {
            return Err(Fail::at(start, DecodeErrorKind::NotAnInstructionToken(tok)));
        }
        if end > tokens.len() {
            return Err(Fail::at(start, DecodeErrorKind::CommentTooLong(n)));
        }
        return Ok(end);
    }
    if version.has_instruction_length() {
        let end = first + ((tok >> 24) & 0xF) as usize;
        if end > tokens.len() {
            return Err(Fail::at(start, DecodeErrorKind::Truncated));
        }
        Ok(end)
    } else if tok & 0xFFFF == Opcode::Def as u32 {
        // Model 1 `def`: a destination and four raw floats, whatever their bit 31.
        let end = first + 5;
        if end > tokens.len() {
            return Err(Fail::at(start, DecodeErrorKind::Truncated));
        }
        Ok(end)
    } else {
        let mut end = first;
        while tokens.get(end).is_some_and(|t| t & PARAMETER_BIT != 0) {
            end += 1;
        }
        Ok(end)
    }
}

/// Decodes the instruction or comment at token `start` into `inst`, overwriting every
/// field (source slots past the new count keep stale values that
/// [`Instruction::sources`] hides).
pub(crate) fn decode_instruction<'a>(
    inst: &mut Instruction<'a>,
    tokens: Words<'a>,
    start: usize,
    index: u32,
    version: Version,
) -> Result<(), Fail> {
    let tok = tokens
        .get(start)
        .ok_or(Fail::at(start, DecodeErrorKind::MissingEndToken))?;
    inst.offset = start as u32;
    inst.index = index;
    inst.comparison = None;
    inst.texld = TexLoad::Plain;
    inst.coissue = false;
    inst.predicate = None;
    inst.dst = None;
    inst.src_count = 0;
    inst.payload = Payload::None;
    let raw_op = tok & 0xFFFF;
    if raw_op == Opcode::End as u32 {
        if tok != END_TOKEN {
            return Err(Fail::at(start, DecodeErrorKind::BadEndToken(tok)));
        }
        inst.opcode = Opcode::End;
        inst.len = 1;
        return Ok(());
    }
    let end = instruction_end(tokens, start, tok, version)?;
    inst.len = (end - start) as u32;
    if raw_op == Opcode::Comment as u32 {
        inst.opcode = Opcode::Comment;
        inst.payload = Payload::Comment(Comment {
            offset: start as u32,
            data: tokens.slice(start + 1, end),
        });
        return Ok(());
    }
    if tok & PARAMETER_BIT != 0 {
        return Err(Fail::at(start, DecodeErrorKind::NotAnInstructionToken(tok)));
    }
    let opcode =
        Opcode::from_raw(raw_op).ok_or(Fail::at(start, DecodeErrorKind::UnknownOpcode(raw_op)))?;
    inst.opcode = opcode;
    inst.coissue = tok & COISSUE_BIT != 0;
    let predicated = tok & PREDICATED_BIT != 0;
    if predicated && !version.has_instruction_length() {
        return Err(Fail::at(start, DecodeErrorKind::PredicationNotSupported));
    }
    let controls = (tok >> 16) & 0xFF;
    if opcode.has_comparison() {
        inst.comparison = Some(Comparison::from_raw(controls & 7).ok_or(Fail::at(
            start,
            DecodeErrorKind::BadComparison(controls & 7),
        ))?);
    } else if opcode == Opcode::Tex {
        inst.texld = match controls {
            0 => TexLoad::Plain,
            1 => TexLoad::Project,
            2 => TexLoad::Bias,
            _ => return Err(Fail::at(start, DecodeErrorKind::BadTexldControl(controls))),
        };
    }
    let mut c = Cursor {
        tokens,
        pos: start + 1,
        end,
    };
    match opcode {
        Opcode::Dcl => {
            let at = c.pos;
            let decl = c.next()?;
            if decl & PARAMETER_BIT == 0 {
                return Err(Fail::at(at, DecodeErrorKind::NotAParameterToken(decl)));
            }
            let dst = decode_destination(&mut c, version)?;
            let declaration = if dst.register.ty == RegisterType::Sampler {
                let raw = (decl >> 27) & 0xF;
                Declaration::Sampler(
                    TextureType::from_raw(raw)
                        .ok_or(Fail::at(at, DecodeErrorKind::BadTextureType(raw)))?,
                )
            } else {
                let raw = decl & 0xF;
                Declaration::Semantic {
                    usage: Usage::from_raw(raw)
                        .ok_or(Fail::at(at, DecodeErrorKind::BadUsage(raw)))?,
                    index: ((decl >> 16) & 0xF) as u8,
                }
            };
            inst.dst = Some(dst);
            inst.payload = Payload::Dcl(declaration);
        }
        Opcode::Def | Opcode::DefI => {
            inst.dst = Some(decode_destination(&mut c, version)?);
            let v = [c.next()?, c.next()?, c.next()?, c.next()?];
            inst.payload = if opcode == Opcode::Def {
                Payload::Def(v)
            } else {
                Payload::DefI(v.map(|x| x as i32))
            };
        }
        Opcode::DefB => {
            inst.dst = Some(decode_destination(&mut c, version)?);
            inst.payload = Payload::DefB(c.next()? != 0);
        }
        _ => {
            let shape = opcode.shape(version);
            if shape.dst {
                inst.dst = Some(decode_destination(&mut c, version)?);
            }
            if predicated {
                let at = c.pos;
                let p = decode_source(&mut c, version)?;
                let modifier_ok = matches!(
                    p.modifier,
                    crate::SourceModifier::None | crate::SourceModifier::Not
                );
                if p.register.ty != RegisterType::Predicate || !modifier_ok {
                    return Err(Fail::at(at, DecodeErrorKind::BadPredicate));
                }
                inst.predicate = Some(p);
            }
            while c.pos < c.end {
                let n = inst.src_count as usize;
                let Some(slot) = inst.src_storage.get_mut(n) else {
                    return Err(Fail::at(
                        c.pos,
                        DecodeErrorKind::OperandCount {
                            opcode,
                            found: n as u32 + 1,
                            expected: u32::from(shape.src),
                        },
                    ));
                };
                *slot = decode_source(&mut c, version)?;
                inst.src_count += 1;
            }
            if inst.src_count != shape.src {
                return Err(Fail::at(
                    start,
                    DecodeErrorKind::OperandCount {
                        opcode,
                        found: u32::from(inst.src_count),
                        expected: u32::from(shape.src),
                    },
                ));
            }
        }
    }
    if c.pos != c.end {
        return Err(Fail::at(
            c.pos,
            DecodeErrorKind::LengthMismatch {
                declared: (end - start - 1) as u32,
                used: (c.pos - start - 1) as u32,
            },
        ));
    }
    Ok(())
}
