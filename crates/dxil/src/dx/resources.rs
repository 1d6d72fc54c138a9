//! Resource records (`dx.resources`, and an entry's own list): SRVs, UAVs, CBVs, samplers.
//!
//! Every record starts `!{i32 id, T* symbol, !"name", i32 space, i32 lower bound, i32 range
//! size, ...}`; SRVs add `i32 shape, i32 sample count, !tags`, UAVs `i32 shape, i1 globally
//! coherent, i1 has counter, i1 rasterizer ordered, !tags`, CBVs `i32 size, !tags`,
//! samplers `i32 kind, !tags`. Tag 0 gives a typed resource's element type, tag 1 a
//! structured buffer's stride, tag 2 a feedback texture's kind, tag 3 whether 64-bit
//! atomics are used.

use crate::dx::enums::{ComponentType, ResourceKind, SamplerKind};
use crate::dx::{md_error, Ctx, Ops, Reader};
use crate::error::Error;
use crate::module::{MetadataRef, ValueId};

/// Which list a resource is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceClass {
    /// Shader resource view (`t` registers).
    Srv,
    /// Unordered access view (`u` registers).
    Uav,
    /// Constant buffer view (`b` registers).
    Cbv,
    /// Sampler (`s` registers).
    Sampler,
}

impl ResourceClass {
    /// The resource class number `createHandle` takes (0 SRV, 1 UAV, 2 CBV, 3 sampler).
    pub fn to_u32(self) -> u32 {
        match self {
            ResourceClass::Srv => 0,
            ResourceClass::Uav => 1,
            ResourceClass::Cbv => 2,
            ResourceClass::Sampler => 3,
        }
    }
}

/// One resource record.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    /// Its class.
    pub class: ResourceClass,
    /// The id `createHandle` refers to (unique per class).
    pub id: u32,
    /// The global symbol (a pointer to the resource's type, possibly `undef`).
    pub symbol: Option<ValueId>,
    /// The HLSL name (empty when reflection was stripped).
    pub name: String,
    /// Register space.
    pub space: u32,
    /// First register.
    pub lower_bound: u32,
    /// Number of registers (`u32::MAX` for an unbounded range).
    pub range_size: u32,
    /// Shape (textures, buffers; `CBuffer` for CBVs, `Sampler` for samplers).
    pub kind: ResourceKind,
    /// Sample count of a multisampled SRV.
    pub sample_count: u32,
    /// Element type of a typed buffer or texture (tag 0).
    pub element_type: Option<ComponentType>,
    /// Stride of a structured buffer in bytes (tag 1).
    pub structured_stride: Option<u32>,
    /// Sampler feedback kind of a feedback texture (tag 2).
    pub sampler_feedback_kind: Option<u32>,
    /// Whether 64-bit atomics are used on it (tag 3).
    pub atomic64: bool,
    /// UAV: `globallycoherent`.
    pub globally_coherent: bool,
    /// UAV: has a hidden counter.
    pub has_counter: bool,
    /// UAV: rasterizer ordered view.
    pub rasterizer_ordered: bool,
    /// CBV: size in bytes.
    pub cbv_size: u32,
    /// Sampler: kind.
    pub sampler_kind: SamplerKind,
    /// Every `(tag, value)` of the extension list, known or not.
    pub tags: Vec<(u32, MetadataRef)>,
}

/// The four resource lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resources {
    /// Shader resource views.
    pub srvs: Vec<Resource>,
    /// Unordered access views.
    pub uavs: Vec<Resource>,
    /// Constant buffer views.
    pub cbvs: Vec<Resource>,
    /// Samplers.
    pub samplers: Vec<Resource>,
}

impl Resources {
    /// Reads `!{srvs, uavs, cbvs, samplers}` (each a list or null).
    pub(crate) fn read(r: &Reader<'_>, ops: Ops<'_>, ctx: &Ctx<'_>) -> Result<Self, Error> {
        let mut out = Resources::default();
        let classes = [
            ResourceClass::Srv,
            ResourceClass::Uav,
            ResourceClass::Cbv,
            ResourceClass::Sampler,
        ];
        for (i, class) in classes.into_iter().enumerate() {
            let c = ctx.sub(["SRVs", "UAVs", "CBVs", "samplers"][i]);
            let Some(list) = r.optional_tuple(ops.get(i).flatten(), &c)? else {
                continue;
            };
            for (k, rec) in list.iter().enumerate() {
                let c = c.item("record", k as u64);
                let Some(id) = rec else {
                    return Err(md_error(&c, "is null"));
                };
                let resource = read_resource(r, class, r.tuple(id, &c)?, &c)?;
                match class {
                    ResourceClass::Srv => out.srvs.push(resource),
                    ResourceClass::Uav => out.uavs.push(resource),
                    ResourceClass::Cbv => out.cbvs.push(resource),
                    ResourceClass::Sampler => out.samplers.push(resource),
                }
            }
        }
        Ok(out)
    }

    /// The resource of `class` with id `id`.
    pub fn get(&self, class: ResourceClass, id: u32) -> Option<&Resource> {
        let list = match class {
            ResourceClass::Srv => &self.srvs,
            ResourceClass::Uav => &self.uavs,
            ResourceClass::Cbv => &self.cbvs,
            ResourceClass::Sampler => &self.samplers,
        };
        list.iter().find(|r| r.id == id)
    }

    /// Every resource, SRVs first.
    pub fn iter(&self) -> impl Iterator<Item = &Resource> {
        self.srvs
            .iter()
            .chain(&self.uavs)
            .chain(&self.cbvs)
            .chain(&self.samplers)
    }
}

fn read_resource(
    r: &Reader<'_>,
    class: ResourceClass,
    ops: Ops<'_>,
    ctx: &Ctx<'_>,
) -> Result<Resource, Error> {
    let needed = match class {
        ResourceClass::Srv => 9,
        ResourceClass::Uav => 11,
        ResourceClass::Cbv | ResourceClass::Sampler => 8,
    };
    if ops.len() < needed - 1 {
        return Err(md_error(
            ctx,
            format!("has {} operands, expected {needed}", ops.len()),
        ));
    }
    let f = |what| ctx.sub(what);
    let symbol = match ops.op(1) {
        None => None,
        Some(_) => Some(r.value(ops.op(1), &f("symbol"))?.1),
    };
    let mut res = Resource {
        class,
        id: r.u32(ops.op(0), &f("id"))?,
        symbol,
        name: r.string(ops.op(2), &f("name"))?,
        space: r.u32(ops.op(3), &f("space"))?,
        lower_bound: r.u32(ops.op(4), &f("lower bound"))?,
        range_size: r.u32(ops.op(5), &f("range size"))?,
        kind: match class {
            ResourceClass::Cbv => ResourceKind::CBuffer,
            ResourceClass::Sampler => ResourceKind::Sampler,
            _ => ResourceKind::from_u32(r.u32(ops.op(6), &f("shape"))?),
        },
        sample_count: 0,
        element_type: None,
        structured_stride: None,
        sampler_feedback_kind: None,
        atomic64: false,
        globally_coherent: false,
        has_counter: false,
        rasterizer_ordered: false,
        cbv_size: 0,
        sampler_kind: SamplerKind::Default,
        tags: Vec::new(),
    };
    let tags_at = match class {
        ResourceClass::Srv => {
            res.sample_count = r.u32(ops.op(7), &f("sample count"))?;
            8
        }
        ResourceClass::Uav => {
            res.globally_coherent = r.bool(ops.op(7), &f("globally coherent"))?;
            res.has_counter = r.bool(ops.op(8), &f("has counter"))?;
            res.rasterizer_ordered = r.bool(ops.op(9), &f("rasterizer ordered"))?;
            10
        }
        ResourceClass::Cbv => {
            res.cbv_size = r.u32(ops.op(6), &f("size"))?;
            7
        }
        ResourceClass::Sampler => {
            res.sampler_kind = SamplerKind::from_u32(r.u32(ops.op(6), &f("sampler kind"))?);
            7
        }
    };
    if let Some(tags) = r.optional_tuple(ops.get(tags_at).flatten(), &f("tags"))? {
        if tags.len() % 2 != 0 {
            return Err(md_error(&f("tags"), "has an odd number of operands"));
        }
        for (key, val) in tags.pairs() {
            let tag = r.u32(key, &f("tag"))?;
            match tag {
                0 => {
                    res.element_type =
                        Some(ComponentType::from_u32(r.u32(val, &f("element type"))?))
                }
                1 => res.structured_stride = Some(r.u32(val, &f("structured stride"))?),
                2 => res.sampler_feedback_kind = Some(r.u32(val, &f("sampler feedback kind"))?),
                3 => res.atomic64 = r.bool(val, &f("atomic64 use"))?,
                _ => {}
            }
            res.tags.push((tag, val));
        }
    }
    Ok(res)
}
