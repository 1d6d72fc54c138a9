//! Stage state and stage operations: execution modes from the entry point's properties
//! (thread group size, geometry and tessellation state, early depth test, float modes),
//! the hull shader's patch constant function, barriers, `discard`, and geometry shader
//! emission.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{
    DenormMode, MemoryTypeMask, Op, OpCode, OpFlags, PrimitiveType, RoundMode, ScalarType, Scope,
    ShaderStage, TessPartitioning, TessWindingOrder, Type,
};

use super::dx_op::code as C;
use super::{Args, Converter, R};
use crate::dx::{
    EntryProperties, InputPrimitive, MeshOutputTopology, PrimitiveTopology, ShaderKind,
    TessellatorDomain, TessellatorOutputPrimitive, TessellatorPartitioning,
};
use crate::module::attributes::{Attribute, FUNCTION_SLOT};
use crate::module::Instruction;

/// Hull shader state.
#[derive(Default)]
pub(crate) struct HullState {
    /// Streams a geometry shader emits to.
    pub stream_mask: u32,
}

/// The IR stage of a DXIL shader kind (graphics, compute, mesh and amplification).
pub(crate) fn ir_stage(k: ShaderKind) -> ShaderStage {
    match k {
        ShaderKind::Pixel => ShaderStage::Pixel,
        ShaderKind::Vertex => ShaderStage::Vertex,
        ShaderKind::Geometry => ShaderStage::Geometry,
        ShaderKind::Hull => ShaderStage::Hull,
        ShaderKind::Domain => ShaderStage::Domain,
        ShaderKind::Mesh => ShaderStage::Mesh,
        ShaderKind::Amplification => ShaderStage::Amplification,
        _ => ShaderStage::Compute,
    }
}

/// The IR primitive of a geometry shader input primitive.
fn gs_input(p: InputPrimitive) -> Option<PrimitiveType> {
    Some(match p {
        InputPrimitive::Point => PrimitiveType::Point,
        InputPrimitive::Line => PrimitiveType::Line,
        InputPrimitive::Triangle => PrimitiveType::Triangle,
        InputPrimitive::LineWithAdjacency => PrimitiveType::LineAdj,
        InputPrimitive::TriangleWithAdjacency => PrimitiveType::TriangleAdj,
        InputPrimitive::Unknown(n @ 8..=39) => PrimitiveType::Patch((n - 7) as u8),
        _ => return None,
    })
}

/// The vertex count of a geometry shader's input primitive (1 if unknown).
pub(crate) fn gs_input_vertices(p: &EntryProperties) -> u32 {
    p.geometry
        .and_then(|g| gs_input(g.input_primitive))
        .map_or(1, PrimitiveType::vertex_count)
}

/// The IR primitive of a geometry shader output topology.
fn gs_output(t: PrimitiveTopology) -> Option<PrimitiveType> {
    Some(match t {
        PrimitiveTopology::PointList => PrimitiveType::Point,
        PrimitiveTopology::LineList | PrimitiveTopology::LineStrip => PrimitiveType::Line,
        PrimitiveTopology::TriangleList | PrimitiveTopology::TriangleStrip => {
            PrimitiveType::Triangle
        }
        _ => return None,
    })
}

impl<'s> Converter<'s> {
    /// The patch constant function of a hull shader.
    pub(crate) fn patch_constant_function(&self) -> R<u32> {
        let v = self
            .entry
            .properties
            .hull
            .and_then(|h| h.patch_constant_function)
            .ok_or_else(|| self.invalid("hull shader without a patch constant function"))?;
        self.function_index(v)
    }

    /// Modes known from the properties, declared before any code.
    pub(crate) fn declare_modes(&mut self) -> R<()> {
        self.at.what = "entry point properties";
        let ep = self.ep;
        let p = &self.entry.properties;
        match self.stage {
            ShaderKind::Compute | ShaderKind::Mesh | ShaderKind::Amplification => {
                let [x, y, z] = p
                    .thread_group_size()
                    .ok_or_else(|| self.invalid("compute shader without a thread group size"))?;
                if x == 0 || y == 0 || z == 0 || x > 1024 || y > 1024 || z > 64 || x * y * z > 1024
                {
                    return Err(self.invalid(format!(
                        "thread group size {x}x{y}x{z} is past Direct3D's limits"
                    )));
                }
                self.decl(
                    Op::new(OpCode::SetCsWorkgroupSize, Type::VOID)
                        .with_ref(ep)
                        .with_lit(u64::from(x))
                        .with_lit(u64::from(y))
                        .with_lit(u64::from(z)),
                );
            }
            ShaderKind::Geometry => {
                let g = p
                    .geometry
                    .ok_or_else(|| self.invalid("geometry shader without its state"))?;
                let input = gs_input(g.input_primitive)
                    .ok_or_else(|| self.invalid("geometry shader input primitive undefined"))?;
                self.decl(
                    Op::new(OpCode::SetGsInputPrimitive, Type::VOID)
                        .with_ref(ep)
                        .with_lit(input.to_literal()),
                );
                if !(1..=1024).contains(&g.max_vertex_count) {
                    return Err(self.invalid(format!(
                        "geometry shader maximum vertex count {}",
                        g.max_vertex_count
                    )));
                }
                self.decl(
                    Op::new(OpCode::SetGsOutputVertices, Type::VOID)
                        .with_ref(ep)
                        .with_lit(u64::from(g.max_vertex_count)),
                );
                if let Some(out) = gs_output(g.output_topology) {
                    let mask = if g.active_stream_mask == 0 {
                        1
                    } else {
                        g.active_stream_mask & 0xf
                    };
                    self.decl(
                        Op::new(OpCode::SetGsOutputPrimitive, Type::VOID)
                            .with_ref(ep)
                            .with_lit(out.to_literal())
                            .with_lit(u64::from(mask)),
                    );
                }
                let n = g.instance_count.max(1);
                if n > 32 {
                    return Err(self.invalid(format!("{n} geometry shader instances")));
                }
                self.decl(
                    Op::new(OpCode::SetGsInstances, Type::VOID)
                        .with_ref(ep)
                        .with_lit(u64::from(n)),
                );
            }
            ShaderKind::Hull => {
                let h = p
                    .hull
                    .ok_or_else(|| self.invalid("hull shader without its state"))?;
                if h.input_control_points > 32 || !(1..=32).contains(&h.output_control_points) {
                    return Err(self.invalid("hull shader control point counts past 32"));
                }
                self.tess_domain(h.domain)?;
                let (prim, winding) = match h.output_primitive {
                    TessellatorOutputPrimitive::Point => {
                        (PrimitiveType::Point, TessWindingOrder::Cw)
                    }
                    TessellatorOutputPrimitive::Line => (PrimitiveType::Line, TessWindingOrder::Cw),
                    TessellatorOutputPrimitive::TriangleCw => {
                        (PrimitiveType::Triangle, TessWindingOrder::Cw)
                    }
                    TessellatorOutputPrimitive::TriangleCcw => {
                        (PrimitiveType::Triangle, TessWindingOrder::Ccw)
                    }
                    _ => return Err(self.invalid("hull shader output primitive undefined")),
                };
                let part = match h.partitioning {
                    TessellatorPartitioning::Pow2 => TessPartitioning::Pow2,
                    TessellatorPartitioning::FractionalOdd => TessPartitioning::FractOdd,
                    TessellatorPartitioning::FractionalEven => TessPartitioning::FractEven,
                    _ => TessPartitioning::Integer,
                };
                self.decl(
                    Op::new(OpCode::SetTessPrimitive, Type::VOID)
                        .with_ref(ep)
                        .with_lit(prim.to_literal())
                        .with_lit(winding.to_literal())
                        .with_lit(part.to_literal()),
                );
                self.decl(
                    Op::new(OpCode::SetTessControlPoints, Type::VOID)
                        .with_ref(ep)
                        .with_lit(u64::from(h.input_control_points))
                        .with_lit(u64::from(h.output_control_points)),
                );
            }
            ShaderKind::Domain => {
                let d = p
                    .domain
                    .ok_or_else(|| self.invalid("domain shader without its state"))?;
                if d.input_control_points > 32 {
                    return Err(self.invalid("domain shader control point count past 32"));
                }
                self.tess_domain(d.domain)?;
                self.decl(
                    Op::new(OpCode::SetTessControlPoints, Type::VOID)
                        .with_ref(ep)
                        .with_lit(u64::from(d.input_control_points))
                        .with_lit(u64::from(d.input_control_points)),
                );
            }
            ShaderKind::Pixel if p.shader_flags & (1 << 3) != 0 => {
                self.decl(Op::new(OpCode::SetPsEarlyFragmentTest, Type::VOID).with_ref(ep));
            }
            _ => {}
        }
        if let Some(m) = p.mesh.filter(|_| self.is(ShaderKind::Mesh)) {
            let topology = match m.output_topology {
                MeshOutputTopology::Line => PrimitiveType::Line,
                MeshOutputTopology::Triangle => PrimitiveType::Triangle,
                _ => return Err(self.invalid("mesh shader output topology undefined")),
            };
            if m.max_vertex_count > 256 || m.max_primitive_count > 256 {
                return Err(self.invalid(format!(
                    "mesh shader output counts {} vertices, {} primitives (at most 256)",
                    m.max_vertex_count, m.max_primitive_count
                )));
            }
            self.decl(
                Op::new(OpCode::SetMsOutputs, Type::VOID)
                    .with_ref(ep)
                    .with_lit(u64::from(m.max_vertex_count))
                    .with_lit(u64::from(m.max_primitive_count))
                    .with_lit(topology.to_literal()),
            );
        }
        let waves = match (p.wave_size_range, p.wave_size) {
            // `[WaveSize(n)]` at SM 6.8 is the range `n 0 0`.
            (Some([min, 0, 0]), _) => Some([min, min, 0]),
            (Some(r), _) => Some(r),
            (None, Some(n)) => Some([n, n, 0]),
            (None, None) => None,
        };
        if let Some([min, max, preferred]) = waves {
            let ok = |n: u32| n.is_power_of_two() && (4..=128).contains(&n);
            if !ok(min)
                || !ok(max)
                || min > max
                || (preferred != 0 && (!ok(preferred) || preferred < min || preferred > max))
            {
                return Err(self.invalid(format!(
                    "wave size {min}..{max} (preferred {preferred}) is not powers of two from 4 to 128"
                )));
            }
            if matches!(
                self.stage,
                ShaderKind::Compute | ShaderKind::Mesh | ShaderKind::Amplification
            ) {
                self.decl(
                    Op::new(OpCode::SetWaveSize, Type::VOID)
                        .with_ref(ep)
                        .with_lit(u64::from(min))
                        .with_lit(u64::from(max))
                        .with_lit(u64::from(preferred)),
                );
            }
        }
        Ok(())
    }

    /// `SetTessDomain`.
    fn tess_domain(&mut self, d: TessellatorDomain) -> R<()> {
        let p = match d {
            TessellatorDomain::IsoLine => PrimitiveType::Line,
            TessellatorDomain::Tri => PrimitiveType::Triangle,
            TessellatorDomain::Quad => PrimitiveType::Quad,
            _ => return Err(self.invalid("tessellator domain undefined")),
        };
        let ep = self.ep;
        self.decl(
            Op::new(OpCode::SetTessDomain, Type::VOID)
                .with_ref(ep)
                .with_lit(p.to_literal()),
        );
        Ok(())
    }

    /// Float modes, from the entry function's `fp32-denorm-mode`.
    pub(crate) fn finish_modes(&mut self) -> R<()> {
        let ep = self.ep;
        let mut denorm = DenormMode::Flush;
        if let Some(&f) = self.entry_fns.first() {
            let func = &self.m.functions[f as usize];
            for a in self.m.attributes.slot(func.attributes, FUNCTION_SLOT) {
                if let Attribute::String {
                    key,
                    value: Some(v),
                } = *a
                {
                    if self.m.str(key) == b"fp32-denorm-mode" && self.m.str(v) == b"preserve" {
                        denorm = DenormMode::Preserve;
                    }
                }
            }
        }
        let flags = self.entry.properties.shader_flags;
        let mut types = smallvec::SmallVec::<[(ScalarType, DenormMode); 3]>::new();
        types.push((ScalarType::F32, denorm));
        if flags & (1 << 2) != 0 {
            types.push((ScalarType::F64, DenormMode::Preserve));
        }
        if self.native16 {
            types.push((ScalarType::F16, DenormMode::Preserve));
        }
        for (ty, dm) in types {
            self.decl(
                Op::new(OpCode::SetFpMode, ty)
                    .with_ref(ep)
                    .with_lit(RoundMode::NearestEven.to_literal())
                    .with_lit(dm.to_literal())
                    .with_flags(OpFlags::empty()),
            );
        }
        Ok(())
    }

    /// Barriers, `discard` and geometry shader emission.
    pub(crate) fn stage_op(&mut self, code: u32, args: &Args, _inst: &'s Instruction) -> R<()> {
        match code {
            C::BARRIER => {
                let mode = self.arg_const(args, 1, "barrier mode")? as u32;
                let workgroup = matches!(
                    self.stage,
                    ShaderKind::Compute | ShaderKind::Mesh | ShaderKind::Amplification
                );
                let exec = if mode & 1 != 0 {
                    if !workgroup {
                        return Err(self.invalid(
                            "group sync outside a compute, mesh or amplification shader",
                        ));
                    }
                    Scope::Workgroup
                } else {
                    Scope::Thread
                };
                let mut mem = Scope::Thread;
                let mut mask = MemoryTypeMask::empty();
                if mode & 8 != 0 {
                    mask |= MemoryTypeMask::Lds;
                    mem = Scope::Workgroup;
                }
                if mode & 4 != 0 {
                    mask |= MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage;
                    mem = Scope::Workgroup;
                }
                if mode & 2 != 0 {
                    mask |= MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage;
                    mem = Scope::Global;
                }
                self.barrier(exec, mem, mask);
                Ok(())
            }
            C::BARRIER_BY_MEMORY_TYPE | C::BARRIER_BY_MEMORY_HANDLE => {
                // SM 6.8 barriers: memory types (or one resource) and semantic flags
                // (group sync 1, group scope 2, device scope 4).
                let (mask, sem) = if code == C::BARRIER_BY_MEMORY_TYPE {
                    let t = self.arg_const(args, 1, "memory types")? as u32;
                    let mut m = MemoryTypeMask::empty();
                    if t & 1 != 0 {
                        m |= MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage;
                    }
                    if t & 2 != 0 {
                        m |= MemoryTypeMask::Lds;
                    }
                    if t & !3 != 0 {
                        return Err(self.unsupported("work graph operations"));
                    }
                    (m, self.arg_const(args, 2, "barrier semantics")? as u32)
                } else {
                    (
                        MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage,
                        self.arg_const(args, 2, "barrier semantics")? as u32,
                    )
                };
                let exec = if sem & 1 != 0 {
                    Scope::Workgroup
                } else {
                    Scope::Thread
                };
                let mem = if sem & 4 != 0 {
                    Scope::Global
                } else if mask.is_empty() {
                    Scope::Thread
                } else {
                    Scope::Workgroup
                };
                self.barrier(exec, mem, mask);
                Ok(())
            }
            C::DISCARD => {
                if !self.is(ShaderKind::Pixel) {
                    return Err(self.invalid("discard outside a pixel shader"));
                }
                let c = self.arg(args, 1)?;
                match self.const_int(c) {
                    Some(0) => {}
                    Some(_) => {
                        self.code(Op::new(OpCode::Demote, Type::VOID));
                    }
                    None => {
                        let cond = self.def(c)?;
                        let (br, _) = self.begin_split(cond);
                        self.code(Op::new(OpCode::Demote, Type::VOID));
                        self.end_split(br);
                    }
                }
                Ok(())
            }
            C::EMIT_STREAM | C::CUT_STREAM | C::EMIT_THEN_CUT_STREAM => {
                if !self.is(ShaderKind::Geometry) {
                    return Err(self.invalid("stream emission outside a geometry shader"));
                }
                let s = self.arg_const(args, 1, "stream")?;
                if !(0..4).contains(&s) {
                    return Err(self.invalid(format!("stream {s}")));
                }
                self.hs.stream_mask |= 1 << s;
                if code != C::CUT_STREAM {
                    self.code(Op::new(OpCode::EmitVertex, Type::VOID).with_lit(s as u64));
                }
                if code != C::EMIT_STREAM {
                    self.code(Op::new(OpCode::EmitPrimitive, Type::VOID).with_lit(s as u64));
                }
                Ok(())
            }
            _ => Err(self.invalid("not a stage operation")),
        }
    }

    /// A `Barrier` op.
    fn barrier(&mut self, exec: Scope, mem: Scope, mask: MemoryTypeMask) {
        self.code(
            Op::new(OpCode::Barrier, Type::VOID)
                .with_lit(exec.to_literal())
                .with_lit(mem.to_literal())
                .with_lit(mask.to_literal()),
        );
    }
}
