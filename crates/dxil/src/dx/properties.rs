//! Entry point properties: the `(i32 tag, value)` list closing an entry point record.
//!
//! Tags: 0 shader flags (`i64`), 1 geometry shader state, 2 domain shader state, 3 hull
//! shader state, 4 thread counts, 5 auto-binding space, 6/7 ray payload and attribute
//! sizes, 8 shader kind (libraries), 9 mesh shader state, 10 amplification shader state,
//! 11 wave size, 12 entry root signature, 23 wave size range (SM 6.8: minimum, maximum,
//! preferred); 13 to 22 describe work graph nodes and are kept raw.

use crate::dx::enums::{
    InputPrimitive, MeshOutputTopology, PrimitiveTopology, ShaderKind, TessellatorDomain,
    TessellatorOutputPrimitive, TessellatorPartitioning,
};
use crate::dx::{md_error, Ctx, Ops, Reader};
use crate::error::Error;
use crate::module::{MetadataRef, ValueId};

/// Geometry shader state (tag 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryState {
    /// Input primitive.
    pub input_primitive: InputPrimitive,
    /// `maxvertexcount`.
    pub max_vertex_count: u32,
    /// Mask of the streams written.
    pub active_stream_mask: u32,
    /// Output topology.
    pub output_topology: PrimitiveTopology,
    /// `instance` count.
    pub instance_count: u32,
}

/// Domain shader state (tag 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomainState {
    /// Tessellator domain.
    pub domain: TessellatorDomain,
    /// Input control point count.
    pub input_control_points: u32,
}

/// Hull shader state (tag 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullState {
    /// The patch constant function.
    pub patch_constant_function: Option<ValueId>,
    /// Input control point count.
    pub input_control_points: u32,
    /// Output control point count.
    pub output_control_points: u32,
    /// Tessellator domain.
    pub domain: TessellatorDomain,
    /// Partitioning.
    pub partitioning: TessellatorPartitioning,
    /// Output primitive.
    pub output_primitive: TessellatorOutputPrimitive,
    /// `maxtessfactor`.
    pub max_tess_factor: f64,
}

/// Mesh shader state (tag 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshState {
    /// Thread group size.
    pub num_threads: [u32; 3],
    /// Maximum output vertices.
    pub max_vertex_count: u32,
    /// Maximum output primitives.
    pub max_primitive_count: u32,
    /// Output topology.
    pub output_topology: MeshOutputTopology,
    /// Payload size in bytes.
    pub payload_size: u32,
}

/// Amplification shader state (tag 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmplificationState {
    /// Thread group size.
    pub num_threads: [u32; 3],
    /// Payload size in bytes.
    pub payload_size: u32,
}

/// The properties of an entry point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntryProperties {
    /// Shader flags (tag 0): the `kDxilShaderFlags` bits (doubles, raw buffers, UAVs at every
    /// stage, wave ops, 64-bit integers, …).
    pub shader_flags: u64,
    /// Geometry shader state.
    pub geometry: Option<GeometryState>,
    /// Domain shader state.
    pub domain: Option<DomainState>,
    /// Hull shader state.
    pub hull: Option<HullState>,
    /// Thread group size (compute, and node shaders).
    pub num_threads: Option<[u32; 3]>,
    /// Auto-binding space.
    pub auto_binding_space: Option<u32>,
    /// Ray payload size in bytes.
    pub ray_payload_size: Option<u32>,
    /// Ray attribute size in bytes.
    pub ray_attribute_size: Option<u32>,
    /// Shader kind (library entries).
    pub shader_kind: Option<ShaderKind>,
    /// Mesh shader state.
    pub mesh: Option<MeshState>,
    /// Amplification shader state.
    pub amplification: Option<AmplificationState>,
    /// Required wave size (the first value of the wave size list).
    pub wave_size: Option<u32>,
    /// Wave size range (SM 6.8): minimum, maximum and preferred (0 for none).
    pub wave_size_range: Option<[u32; 3]>,
    /// Every `(tag, value)` pair as stored, the ones read above included.
    pub tags: Vec<(u32, MetadataRef)>,
}

impl EntryProperties {
    /// Reads the tag/value list.
    pub(crate) fn read(r: &Reader<'_>, ops: Ops<'_>, ctx: &Ctx<'_>) -> Result<Self, Error> {
        if ops.len() % 2 != 0 {
            return Err(md_error(ctx, "has an odd number of operands"));
        }
        let mut p = EntryProperties::default();
        for (key, val) in ops.pairs() {
            let tag = r.u32(key, &ctx.sub("tag"))?;
            let v = val;
            let c = ctx.item("tag", u64::from(tag));
            match tag {
                0 => p.shader_flags = r.int(v, &c)? as u64,
                1 => {
                    let s = list(r, v, &c, 5)?;
                    p.geometry = Some(GeometryState {
                        input_primitive: InputPrimitive::from_u32(r.u32(s.op(0), &c)?),
                        max_vertex_count: r.u32(s.op(1), &c)?,
                        active_stream_mask: r.u32(s.op(2), &c)?,
                        output_topology: PrimitiveTopology::from_u32(r.u32(s.op(3), &c)?),
                        instance_count: r.u32(s.op(4), &c)?,
                    });
                }
                2 => {
                    let s = list(r, v, &c, 2)?;
                    p.domain = Some(DomainState {
                        domain: TessellatorDomain::from_u32(r.u32(s.op(0), &c)?),
                        input_control_points: r.u32(s.op(1), &c)?,
                    });
                }
                3 => {
                    let s = list(r, v, &c, 7)?;
                    p.hull = Some(HullState {
                        patch_constant_function: match s.op(0) {
                            None => None,
                            Some(_) => Some(r.value(s.op(0), &c)?.1),
                        },
                        input_control_points: r.u32(s.op(1), &c)?,
                        output_control_points: r.u32(s.op(2), &c)?,
                        domain: TessellatorDomain::from_u32(r.u32(s.op(3), &c)?),
                        partitioning: TessellatorPartitioning::from_u32(r.u32(s.op(4), &c)?),
                        output_primitive: TessellatorOutputPrimitive::from_u32(r.u32(s.op(5), &c)?),
                        max_tess_factor: r.float(s.op(6), &c)?,
                    });
                }
                4 => p.num_threads = Some(threads(r, v, &c)?),
                // DXC writes the space as a one-element tuple.
                5 => {
                    p.auto_binding_space = Some(match v.and_then(|id| r.tuple(id, &c).ok()) {
                        Some(ops) => r.u32(r.at(ops, 0, &c)?, &c)?,
                        None => r.u32(v, &c)?,
                    })
                }
                6 => p.ray_payload_size = Some(r.u32(v, &c)?),
                7 => p.ray_attribute_size = Some(r.u32(v, &c)?),
                8 => p.shader_kind = Some(ShaderKind::from_u32(r.u32(v, &c)?)),
                9 => {
                    let s = list(r, v, &c, 5)?;
                    p.mesh = Some(MeshState {
                        num_threads: threads(r, s.op(0), &c)?,
                        max_vertex_count: r.u32(s.op(1), &c)?,
                        max_primitive_count: r.u32(s.op(2), &c)?,
                        output_topology: MeshOutputTopology::from_u32(r.u32(s.op(3), &c)?),
                        payload_size: r.u32(s.op(4), &c)?,
                    });
                }
                10 => {
                    let s = list(r, v, &c, 2)?;
                    p.amplification = Some(AmplificationState {
                        num_threads: threads(r, s.op(0), &c)?,
                        payload_size: r.u32(s.op(1), &c)?,
                    });
                }
                11 => {
                    let s = list(r, v, &c, 1)?;
                    p.wave_size = Some(r.u32(s.op(0), &c)?);
                }
                23 => {
                    let s = list(r, v, &c, 3)?;
                    p.wave_size_range = Some([
                        r.u32(s.op(0), &c)?,
                        r.u32(s.op(1), &c)?,
                        r.u32(s.op(2), &c)?,
                    ]);
                }
                _ => {}
            }
            p.tags.push((tag, v));
        }
        Ok(p)
    }

    /// The thread group size from the compute, mesh or amplification state.
    pub fn thread_group_size(&self) -> Option<[u32; 3]> {
        self.num_threads
            .or(self.mesh.map(|m| m.num_threads))
            .or(self.amplification.map(|a| a.num_threads))
    }
}

/// A tuple value with at least `n` operands.
fn list<'r>(r: &Reader<'r>, v: MetadataRef, ctx: &Ctx<'_>, n: usize) -> Result<Ops<'r>, Error> {
    let Some(id) = v else {
        return Err(md_error(ctx, "is null"));
    };
    let ops = r.tuple(id, ctx)?;
    if ops.len() < n {
        return Err(md_error(
            ctx,
            format!("has {} operands, expected {n}", ops.len()),
        ));
    }
    Ok(ops)
}

/// `!{i32 x, i32 y, i32 z}`.
fn threads(r: &Reader<'_>, v: MetadataRef, ctx: &Ctx<'_>) -> Result<[u32; 3], Error> {
    let s = list(r, v, ctx, 3)?;
    Ok([
        r.u32(s.op(0), ctx)?,
        r.u32(s.op(1), ctx)?,
        r.u32(s.op(2), ctx)?,
    ])
}
