//! The constant table (`CTAB` comment) the HLSL compiler embeds in a shader.
//!
//! The table describes the named constants of the HLSL source and the registers they were
//! given: the D3DX structures `D3DXSHADER_CONSTANTTABLE` (header), `D3DXSHADER_CONSTANTINFO`
//! (one per top-level constant), `D3DXSHADER_TYPEINFO` and `D3DXSHADER_STRUCTMEMBERINFO`.
//! Every offset in them counts bytes from the start of the header, the word after the
//! `CTAB` fourcc. Default values, when present, are whole registers: four 32-bit values per
//! register the constant occupies.
//!
//! The table is advisory (the shader runs without it), so a malformed table is never an
//! error: parsing keeps what reads and reports the rest as [`Warning`]s. Type descriptions
//! are read once per offset and stored flat ([`ConstantTable::types`] and
//! [`ConstantTable::members`]), so shared or cyclic references cannot blow up.

use std::collections::HashMap;

use crate::error::Warning;

/// Size of `D3DXSHADER_CONSTANTTABLE` in bytes.
const HEADER_SIZE: usize = 28;
/// Size of `D3DXSHADER_CONSTANTINFO`.
const CONSTANT_INFO_SIZE: usize = 20;
/// Size of `D3DXSHADER_STRUCTMEMBERINFO`.
const MEMBER_INFO_SIZE: usize = 8;
/// Deepest struct nesting followed.
const MAX_DEPTH: u32 = 32;
/// Longest string read (names, creator, target); a longer or unterminated one is a
/// warning. Bounds the work a table crafted with overlapping strings can cause.
const MAX_STRING: usize = 1024;

/// The register file a constant lives in (`D3DXREGISTER_SET`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterSet {
    /// `b#` (0).
    Bool,
    /// `i#` (1).
    Int4,
    /// `c#` (2).
    Float4,
    /// `s#` (3).
    Sampler,
}

impl RegisterSet {
    /// The set with raw value `v`.
    pub fn from_raw(v: u16) -> Option<Self> {
        Some(match v {
            0 => Self::Bool,
            1 => Self::Int4,
            2 => Self::Float4,
            3 => Self::Sampler,
            _ => return None,
        })
    }

    /// The register prefix (`b`, `i`, `c`, `s`).
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Bool => "b",
            Self::Int4 => "i",
            Self::Float4 => "c",
            Self::Sampler => "s",
        }
    }
}

/// The class of a type (`D3DXPARAMETER_CLASS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterClass {
    /// Scalar (0).
    Scalar,
    /// Vector (1).
    Vector,
    /// Row-major matrix (2).
    MatrixRows,
    /// Column-major matrix (3).
    MatrixColumns,
    /// Object: sampler, texture, shader… (4).
    Object,
    /// Structure (5).
    Struct,
}

impl ParameterClass {
    /// The class with raw value `v`.
    pub fn from_raw(v: u16) -> Option<Self> {
        Some(match v {
            0 => Self::Scalar,
            1 => Self::Vector,
            2 => Self::MatrixRows,
            3 => Self::MatrixColumns,
            4 => Self::Object,
            5 => Self::Struct,
            _ => return None,
        })
    }
}

/// The element type of a type (`D3DXPARAMETER_TYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterType {
    /// `void` (0).
    Void,
    /// `bool` (1).
    Bool,
    /// `int` (2).
    Int,
    /// `float` (3).
    Float,
    /// `string` (4).
    String,
    /// `texture` (5).
    Texture,
    /// `texture1D` (6).
    Texture1D,
    /// `texture2D` (7).
    Texture2D,
    /// `texture3D` (8).
    Texture3D,
    /// `textureCUBE` (9).
    TextureCube,
    /// `sampler` (10).
    Sampler,
    /// `sampler1D` (11).
    Sampler1D,
    /// `sampler2D` (12).
    Sampler2D,
    /// `sampler3D` (13).
    Sampler3D,
    /// `samplerCUBE` (14).
    SamplerCube,
    /// `pixelshader` (15).
    PixelShader,
    /// `vertexshader` (16).
    VertexShader,
    /// `pixelfragment` (17).
    PixelFragment,
    /// `vertexfragment` (18).
    VertexFragment,
    /// Unsupported (19).
    Unsupported,
}

impl ParameterType {
    /// The type with raw value `v`.
    pub fn from_raw(v: u16) -> Option<Self> {
        use ParameterType as T;
        Some(match v {
            0 => T::Void,
            1 => T::Bool,
            2 => T::Int,
            3 => T::Float,
            4 => T::String,
            5 => T::Texture,
            6 => T::Texture1D,
            7 => T::Texture2D,
            8 => T::Texture3D,
            9 => T::TextureCube,
            10 => T::Sampler,
            11 => T::Sampler1D,
            12 => T::Sampler2D,
            13 => T::Sampler3D,
            14 => T::SamplerCube,
            15 => T::PixelShader,
            16 => T::VertexShader,
            17 => T::PixelFragment,
            18 => T::VertexFragment,
            19 => T::Unsupported,
            _ => return None,
        })
    }

    /// The HLSL spelling (`float`, `sampler2D`…).
    pub fn hlsl_name(self) -> &'static str {
        use ParameterType as T;
        match self {
            T::Void => "void",
            T::Bool => "bool",
            T::Int => "int",
            T::Float => "float",
            T::String => "string",
            T::Texture => "texture",
            T::Texture1D => "texture1D",
            T::Texture2D => "texture2D",
            T::Texture3D => "texture3D",
            T::TextureCube => "textureCUBE",
            T::Sampler => "sampler",
            T::Sampler1D => "sampler1D",
            T::Sampler2D => "sampler2D",
            T::Sampler3D => "sampler3D",
            T::SamplerCube => "samplerCUBE",
            T::PixelShader => "pixelshader",
            T::VertexShader => "vertexshader",
            T::PixelFragment => "pixelfragment",
            T::VertexFragment => "vertexfragment",
            T::Unsupported => "unsupported",
        }
    }
}

/// A type description (`D3DXSHADER_TYPEINFO`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeInfo {
    /// Class.
    pub class: ParameterClass,
    /// Element type.
    pub ty: ParameterType,
    /// Rows (1 for scalars and vectors).
    pub rows: u16,
    /// Columns (vector length for vectors).
    pub columns: u16,
    /// Array elements (1 when not an array).
    pub elements: u16,
    /// The struct members: a range of [`ConstantTable::members`].
    pub members: core::ops::Range<u32>,
}

/// A struct member (`D3DXSHADER_STRUCTMEMBERINFO`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Name.
    pub name: String,
    /// Index in [`ConstantTable::types`]; `None` when the description was unreadable
    /// (see the table's warnings).
    pub ty: Option<u32>,
}

/// A top-level constant (`D3DXSHADER_CONSTANTINFO`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constant {
    /// Name.
    pub name: String,
    /// Register file.
    pub register_set: RegisterSet,
    /// First register.
    pub register_index: u16,
    /// Number of registers.
    pub register_count: u16,
    /// Index in [`ConstantTable::types`]; `None` when the description was unreadable.
    pub ty: Option<u32>,
    /// Default value: four 32-bit words per register, `register_count` registers (float
    /// bits for [`RegisterSet::Float4`], integers for the others).
    pub default_value: Option<Vec<u32>>,
}

/// A parsed constant table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstantTable {
    /// The compiler that wrote the table (`Microsoft (R) HLSL Shader Compiler 9.29.952.3111`).
    pub creator: String,
    /// The target profile string (`vs_3_0`).
    pub target: String,
    /// The version token the table was made for.
    pub version: u32,
    /// The compile flags (`D3DXSHADER_*`).
    pub flags: u32,
    /// The top-level constants, in table order.
    pub constants: Vec<Constant>,
    /// Every type description, referenced by index.
    pub types: Vec<TypeInfo>,
    /// Every struct member, referenced by [`TypeInfo::members`] ranges.
    pub members: Vec<Member>,
}

impl ConstantTable {
    /// The type with index `i`.
    pub fn type_info(&self, i: u32) -> Option<&TypeInfo> {
        self.types.get(i as usize)
    }

    /// The members of a struct type.
    pub fn members_of(&self, ty: &TypeInfo) -> &[Member] {
        self.members
            .get(ty.members.start as usize..ty.members.end as usize)
            .unwrap_or_default()
    }

    /// The constant named `name`.
    pub fn constant(&self, name: &str) -> Option<&Constant> {
        self.constants.iter().find(|c| c.name == name)
    }

    /// Parses a table from its bytes (the comment's words after the `CTAB` fourcc).
    /// Problems become warnings naming `comment_offset` (the comment token's offset);
    /// `None` when not even the header reads.
    pub fn parse(
        table: &[u8],
        comment_offset: u32,
        warnings: &mut Vec<Warning>,
    ) -> Option<ConstantTable> {
        let mut p = Parser {
            table,
            comment_offset,
            warnings,
            out: ConstantTable::default(),
            memo: HashMap::new(),
            reserved_members: 0,
        };
        p.parse_table()?;
        Some(p.out)
    }
}

/// Where a type description stands while it is being read.
#[derive(Clone, Copy)]
enum TypeSlot {
    /// Being read (a reference back to it is a cycle).
    InProgress,
    /// Read, at this index.
    Done(u32),
    /// Unreadable.
    Failed,
}

struct Parser<'t, 'w> {
    table: &'t [u8],
    comment_offset: u32,
    warnings: &'w mut Vec<Warning>,
    out: ConstantTable,
    memo: HashMap<u32, TypeSlot>,
    reserved_members: usize,
}

impl Parser<'_, '_> {
    fn warn(&mut self, byte: usize, what: &'static str) {
        self.warnings.push(Warning::ConstantTable {
            comment_offset: self.comment_offset,
            byte: u32::try_from(byte).unwrap_or(u32::MAX),
            what,
        });
    }

    /// The u16 at byte `base + k` (offsets come from the input: the sum is checked).
    fn u16_at(&self, base: usize, k: usize) -> Option<u16> {
        let b = self.table.get(base.checked_add(k)?..)?.first_chunk::<2>()?;
        Some(u16::from_le_bytes(*b))
    }

    /// The u32 at byte `base + k`.
    fn u32_at(&self, base: usize, k: usize) -> Option<u32> {
        let b = self.table.get(base.checked_add(k)?..)?.first_chunk::<4>()?;
        Some(u32::from_le_bytes(*b))
    }

    /// The NUL-terminated string at `off`; a warning and an empty string when it runs
    /// off the table.
    fn string_at(&mut self, off: u32, what: &'static str) -> String {
        let off = off as usize;
        let Some(rest) = self.table.get(off..) else {
            self.warn(off, what);
            return String::new();
        };
        let rest = rest.get(..MAX_STRING).unwrap_or(rest);
        match rest.iter().position(|&b| b == 0) {
            Some(n) => String::from_utf8_lossy(rest.get(..n).unwrap_or_default()).into_owned(),
            None => {
                self.warn(off, what);
                String::new()
            }
        }
    }

    fn parse_table(&mut self) -> Option<()> {
        let (
            Some(size),
            Some(creator),
            Some(version),
            Some(count),
            Some(info),
            Some(flags),
            Some(target),
        ) = (
            self.u32_at(0, 0),
            self.u32_at(4, 0),
            self.u32_at(8, 0),
            self.u32_at(12, 0),
            self.u32_at(16, 0),
            self.u32_at(20, 0),
            self.u32_at(24, 0),
        )
        else {
            self.warn(0, "table shorter than its 28-byte header");
            return None;
        };
        if size as usize != HEADER_SIZE {
            self.warn(0, "header size field is not 28");
            return None;
        }
        self.out.version = version;
        self.out.flags = flags;
        self.out.creator = self.string_at(
            creator,
            "creator string is not NUL-terminated within the table and 1 KiB",
        );
        self.out.target = self.string_at(
            target,
            "target string is not NUL-terminated within the table and 1 KiB",
        );
        let info = info as usize;
        let available = self
            .table
            .len()
            .saturating_sub(info)
            .checked_div(CONSTANT_INFO_SIZE)
            .unwrap_or(0);
        let count = count as usize;
        if count > available {
            self.warn(info, "constant descriptions run off the table");
        }
        for i in 0..count.min(available) {
            self.parse_constant(info + i * CONSTANT_INFO_SIZE);
        }
        Some(())
    }

    fn parse_constant(&mut self, at: usize) {
        let (Some(name), Some(set), Some(index), Some(count), Some(ty), Some(default)) = (
            self.u32_at(at, 0),
            self.u16_at(at, 4),
            self.u16_at(at, 6),
            self.u16_at(at, 8),
            self.u32_at(at, 12),
            self.u32_at(at, 16),
        ) else {
            self.warn(at, "constant description runs off the table");
            return;
        };
        let Some(register_set) = RegisterSet::from_raw(set) else {
            self.warn(at + 4, "unknown register set; constant skipped");
            return;
        };
        let name = self.string_at(
            name,
            "constant name is not NUL-terminated within the table and 1 KiB",
        );
        let ty = self.parse_type(ty, 0);
        let default_value = if default == 0 {
            None
        } else {
            let words = usize::from(count) * 4;
            let start = default as usize;
            let bytes = start
                .checked_add(words * 4)
                .and_then(|end| self.table.get(start..end));
            match bytes {
                Some(b) => Some(
                    b.chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect(),
                ),
                None => {
                    self.warn(start, "default value runs off the table");
                    None
                }
            }
        };
        self.out.constants.push(Constant {
            name,
            register_set,
            register_index: index,
            register_count: count,
            ty,
            default_value,
        });
    }

    /// Reads the type description at `off` (once per offset).
    fn parse_type(&mut self, off: u32, depth: u32) -> Option<u32> {
        match self.memo.get(&off) {
            Some(TypeSlot::Done(i)) => return Some(*i),
            Some(TypeSlot::Failed) => return None,
            Some(TypeSlot::InProgress) => {
                self.warn(off as usize, "type description refers to itself");
                return None;
            }
            None => {}
        }
        if depth > MAX_DEPTH {
            self.warn(off as usize, "structs nested deeper than 32 levels");
            return None;
        }
        let at = off as usize;
        let fields = (
            self.u16_at(at, 0),
            self.u16_at(at, 2),
            self.u16_at(at, 4),
            self.u16_at(at, 6),
            self.u16_at(at, 8),
            self.u16_at(at, 10),
            self.u32_at(at, 12),
        );
        let (Some(class), Some(ty), Some(rows), Some(columns), Some(elements), Some(n), Some(mi)) =
            fields
        else {
            self.warn(at, "type description runs off the table");
            self.memo.insert(off, TypeSlot::Failed);
            return None;
        };
        let (Some(class), Some(ty)) =
            (ParameterClass::from_raw(class), ParameterType::from_raw(ty))
        else {
            self.warn(at, "unknown parameter class or type");
            self.memo.insert(off, TypeSlot::Failed);
            return None;
        };
        self.memo.insert(off, TypeSlot::InProgress);
        let mut member_infos = Vec::new();
        // A real table stores each struct's members once; more members in all than the
        // table has room for means overlapping member arrays.
        let budget = self.table.len() / MEMBER_INFO_SIZE;
        if self.reserved_members + usize::from(n) > budget {
            self.warn(at, "more struct members than the table has room for");
        } else if n > 0 {
            self.reserved_members += usize::from(n);
            let mi = mi as usize;
            let end = mi.checked_add(usize::from(n) * MEMBER_INFO_SIZE);
            if !matches!(end, Some(e) if e <= self.table.len()) {
                self.warn(mi, "struct member descriptions run off the table");
            }
            for k in 0..usize::from(n) {
                let Some(m) = mi.checked_add(k * MEMBER_INFO_SIZE) else {
                    break;
                };
                let (Some(name), Some(ty)) = (self.u32_at(m, 0), self.u32_at(m, 4)) else {
                    break;
                };
                member_infos.push((name, ty));
            }
        }
        let mut members = Vec::with_capacity(member_infos.len());
        for (name, ty) in member_infos {
            let name = self.string_at(
                name,
                "member name is not NUL-terminated within the table and 1 KiB",
            );
            let ty = self.parse_type(ty, depth + 1);
            members.push(Member { name, ty });
        }
        let start = self.out.members.len() as u32;
        self.out.members.extend(members);
        let end = self.out.members.len() as u32;
        let index = self.out.types.len() as u32;
        self.out.types.push(TypeInfo {
            class,
            ty,
            rows,
            columns,
            elements,
            members: start..end,
        });
        self.memo.insert(off, TypeSlot::Done(index));
        Some(index)
    }
}
