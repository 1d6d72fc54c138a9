//! Resource definitions (RDEF): constant buffers, their variables and
//! types, and the bound resources.
//!
//! The part starts with counts and offsets of the constant-buffer and binding
//! tables, the target version, compile flags and the creator string offset.
//! SM 5.0+ parts follow this with a magic word and the record sizes, which is
//! how the SM 5.1 binding layout (40 bytes, adding register space and range
//! id) is told apart from the SM 5.0 one (32 bytes). All offsets are from
//! the part start.

use crate::error::Error;
use crate::partread::PartReader;
use crate::FourCC;

const MAX_TYPE_DEPTH: u32 = 32;
/// Upper bound on type records visited per part, so shared or cyclic type
/// references cannot blow up parsing time.
const MAX_TYPE_NODES: u32 = 65536;

/// The type of a constant-buffer variable or struct member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableType {
    /// `D3D_SHADER_VARIABLE_CLASS` (scalar, vector, matrix rows/columns, struct…).
    pub class: u16,
    /// `D3D_SHADER_VARIABLE_TYPE` (float, int, uint, bool, double…).
    pub base: u16,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array element count (0 if not an array).
    pub elements: u16,
    /// Struct members.
    pub members: Vec<Member>,
    /// Type name (SM 5.0+ parts only).
    pub name: Option<String>,
}

impl VariableType {
    /// An HLSL-like spelling of the type (`float4`, `row_major float4x4`, `struct`).
    pub fn hlsl_name(&self) -> String {
        if let Some(n) = &self.name {
            if !n.is_empty() {
                return n.clone();
            }
        }
        let base = match self.base {
            0 => "void",
            1 => "bool",
            2 => "int",
            3 => "float",
            19 => "uint",
            20 => "uint8",
            39 => "double",
            _ => "unknown",
        };
        match self.class {
            0 => base.to_string(),
            1 => format!("{base}{}", self.columns),
            2 => format!("row_major {base}{}x{}", self.rows, self.columns),
            3 => format!("{base}{}x{}", self.rows, self.columns),
            5 => "struct".to_string(),
            _ => base.to_string(),
        }
    }
}

/// A member of a struct type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Member name.
    pub name: String,
    /// Member type.
    pub ty: VariableType,
    /// Byte offset within the struct.
    pub offset: u32,
}

/// A variable of a constant buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Name.
    pub name: String,
    /// Byte offset in the buffer.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_VARIABLE_FLAGS` (bit 1: used).
    pub flags: u32,
    /// Type.
    pub ty: VariableType,
}

/// A constant buffer (cbuffer, tbuffer, interface pointers or resource-bind info).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantBuffer {
    /// Name.
    pub name: String,
    /// Variables.
    pub variables: Vec<Variable>,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_CBUFFER_FLAGS`.
    pub flags: u32,
    /// `D3D_CBUFFER_TYPE` (0 cbuffer, 1 tbuffer, 2 interface pointers, 3 resource bind info).
    pub kind: u32,
}

/// A bound resource (sampler, texture, UAV, cbuffer…).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceBinding {
    /// Name.
    pub name: String,
    /// `D3D_SHADER_INPUT_TYPE`.
    pub input_type: u32,
    /// `D3D_RESOURCE_RETURN_TYPE` (textures and typed UAVs).
    pub return_type: u32,
    /// `D3D_SRV_DIMENSION`.
    pub dimension: u32,
    /// Sample count (multisampled textures) or structure stride.
    pub samples: u32,
    /// First register.
    pub bind_point: u32,
    /// Register count.
    pub bind_count: u32,
    /// `D3D_SHADER_INPUT_FLAGS`.
    pub flags: u32,
    /// Register space (SM 5.1 layout; 0 otherwise).
    pub space: u32,
    /// Range id used by SM 5.1 instructions (SM 5.1 layout; 0 otherwise).
    pub id: u32,
}

impl ResourceBinding {
    /// fxc's "Type" column (`sampler`, `texture`, `cbuffer`, `UAV`…).
    pub fn type_name(&self) -> &'static str {
        match self.input_type {
            0 => "cbuffer",
            1 => "tbuffer",
            2 | 5 | 7 => "texture",
            3 => "sampler",
            4 | 6 | 8 | 11 | 13 => "UAV",
            9 => "UAV",
            10 => "UAV",
            12 => "rtaccel",
            _ => "?",
        }
    }

    /// fxc's "Format" column (`float4`, `struct`, `byte`, `NA`).
    pub fn format_name(&self) -> String {
        match self.input_type {
            0 | 1 | 3 | 12 => "NA".to_string(),
            5 | 6 | 9 | 10 | 11 => "struct".to_string(),
            7 | 8 => "byte".to_string(),
            _ => {
                let base = match self.return_type {
                    1 => "unorm",
                    2 => "snorm",
                    3 => "sint",
                    4 => "uint",
                    5 => "float",
                    6 => "mixed",
                    7 => "double",
                    8 => "cont",
                    _ => "?",
                };
                let comps = ((self.flags >> 2) & 3) + 1;
                if comps == 1 {
                    base.to_string()
                } else {
                    format!("{base}{comps}")
                }
            }
        }
    }

    /// fxc's "Dim" column (`2d`, `buf`, `r/o`, `r/w`, `NA`…).
    pub fn dimension_name(&self) -> &'static str {
        match self.input_type {
            0 | 1 | 3 | 12 => "NA",
            5 | 7 => "r/o",
            6 | 8 => "r/w",
            9 => "append",
            10 => "consume",
            11 => "r/w+cnt",
            _ => match self.dimension {
                1 => "buf",
                2 => "1d",
                3 => "1darray",
                4 => "2d",
                5 => "2darray",
                6 => "2dMS",
                7 => "2darrayMS",
                8 => "3d",
                9 => "cube",
                10 => "cubearray",
                11 => "bufex",
                _ => "NA",
            },
        }
    }

    /// Register prefix (`t`, `s`, `u`, `cb`).
    pub fn register_prefix(&self) -> &'static str {
        match self.input_type {
            0 => "cb",
            3 => "s",
            4 | 6 | 8 | 9 | 10 | 11 | 13 => "u",
            _ => "t",
        }
    }
}

/// The parsed RDEF part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceDefinitions {
    /// Target major version.
    pub major: u8,
    /// Target minor version.
    pub minor: u8,
    /// Target program type (`0xFFFF` pixel, `0xFFFE` vertex, …).
    pub program_type: u16,
    /// Compile flags.
    pub flags: u32,
    /// Creator string (compiler name and version).
    pub creator: String,
    /// Constant buffers.
    pub constant_buffers: Vec<ConstantBuffer>,
    /// Bound resources.
    pub bindings: Vec<ResourceBinding>,
    /// Whether the SM 5.1 binding layout (with space and id) was used.
    pub sm51_layout: bool,
}

struct Layout {
    binding: usize,
    variable: usize,
    ty: usize,
}

impl ResourceDefinitions {
    /// Parses an RDEF part.
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        let r = PartReader {
            fourcc: FourCC::RDEF,
            data,
        };
        let cb_count = r.u32(0)? as usize;
        let cb_offset = r.u32(4)? as usize;
        let rb_count = r.u32(8)? as usize;
        let rb_offset = r.u32(12)? as usize;
        let minor = r.u8(16)?;
        let major = r.u8(17)?;
        let program_type = r.u16(18)?;
        let flags = r.u32(20)?;
        let creator_offset = r.u32(24)? as usize;
        let creator = r.cstr(creator_offset).unwrap_or_default();
        let mut layout = Layout {
            binding: 32,
            variable: 24,
            ty: 16,
        };
        if major >= 5 && data.len() >= 60 {
            let binding = r.u32(40)? as usize;
            let variable = r.u32(44)? as usize;
            let ty = r.u32(48)? as usize;
            if !(32..=256).contains(&binding)
                || !(24..=256).contains(&variable)
                || !(16..=256).contains(&ty)
            {
                return Err(r.err(40, "implausible record sizes"));
            }
            layout = Layout {
                binding,
                variable,
                ty,
            };
        }
        r.check_table(cb_offset, cb_count, 24)?;
        r.check_table(rb_offset, rb_count, layout.binding)?;
        let mut bindings = Vec::with_capacity(rb_count);
        for i in 0..rb_count {
            let at = rb_offset + i * layout.binding;
            let wide = layout.binding >= 40;
            bindings.push(ResourceBinding {
                name: r.cstr(r.u32(at)? as usize)?,
                input_type: r.u32(at + 4)?,
                return_type: r.u32(at + 8)?,
                dimension: r.u32(at + 12)?,
                samples: r.u32(at + 16)?,
                bind_point: r.u32(at + 20)?,
                bind_count: r.u32(at + 24)?,
                flags: r.u32(at + 28)?,
                space: if wide { r.u32(at + 32)? } else { 0 },
                id: if wide { r.u32(at + 36)? } else { 0 },
            });
        }
        let mut constant_buffers = Vec::with_capacity(cb_count);
        let mut budget = MAX_TYPE_NODES;
        for i in 0..cb_count {
            let at = cb_offset + i * 24;
            let var_count = r.u32(at + 4)? as usize;
            let var_offset = r.u32(at + 8)? as usize;
            r.check_table(var_offset, var_count, layout.variable)?;
            let mut variables = Vec::with_capacity(var_count);
            for v in 0..var_count {
                let vat = var_offset + v * layout.variable;
                variables.push(Variable {
                    name: r.cstr(r.u32(vat)? as usize)?,
                    offset: r.u32(vat + 4)?,
                    size: r.u32(vat + 8)?,
                    flags: r.u32(vat + 12)?,
                    ty: parse_type(&r, &layout, r.u32(vat + 16)? as usize, 0, &mut budget)?,
                });
            }
            constant_buffers.push(ConstantBuffer {
                name: r.cstr(r.u32(at)? as usize)?,
                variables,
                size: r.u32(at + 12)?,
                flags: r.u32(at + 16)?,
                kind: r.u32(at + 20)?,
            });
        }
        Ok(ResourceDefinitions {
            major,
            minor,
            program_type,
            flags,
            creator,
            constant_buffers,
            bindings,
            sm51_layout: layout.binding >= 40,
        })
    }
}

fn parse_type(
    r: &PartReader<'_>,
    layout: &Layout,
    at: usize,
    depth: u32,
    budget: &mut u32,
) -> Result<VariableType, Error> {
    if depth > MAX_TYPE_DEPTH {
        return Err(r.err(at, "type nesting too deep"));
    }
    *budget = budget
        .checked_sub(1)
        .ok_or_else(|| r.err(at, "too many type records"))?;
    r.check_table(at, 1, layout.ty)?;
    let member_count = r.u16(at + 10)? as usize;
    let member_offset = r.u32(at + 12)? as usize;
    let name = if layout.ty >= 36 {
        let off = r.u32(at + 32)? as usize;
        if off == 0 {
            None
        } else {
            Some(r.cstr(off)?)
        }
    } else {
        None
    };
    let mut members = Vec::new();
    if member_count > 0 {
        r.check_table(member_offset, member_count, 12)?;
        members.reserve(member_count);
        for m in 0..member_count {
            let mat = member_offset + m * 12;
            members.push(Member {
                name: r.cstr(r.u32(mat)? as usize)?,
                ty: parse_type(r, layout, r.u32(mat + 4)? as usize, depth + 1, budget)?,
                offset: r.u32(mat + 8)?,
            });
        }
    }
    Ok(VariableType {
        class: r.u16(at)?,
        base: r.u16(at + 2)?,
        rows: r.u16(at + 4)?,
        columns: r.u16(at + 6)?,
        elements: r.u16(at + 8)?,
        members,
        name,
    })
}
