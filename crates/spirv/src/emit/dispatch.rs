//! The op dispatch: the walk over the IR's ops sends each op to the emitter of its concept.

use super::control_flow::PendingMerge;
use super::error::{malformed, unsupported, R};
use super::interface::{IoWrap, VarInfo};
use super::resources::ResKind;
use super::types::{block_align, block_type_problem, scalar_bits};
use super::{Emitter, Info};
use crate::words::{begin, end, inst, packed_str_words};
use dxspv_ir::{
    Construct, DerivativeMode, MemoryTypeMask, Op, OpCode, PrimitiveType, ScalarType, Scope,
    ShaderStage, ShaderStageMask, SsaDef, TessPartitioning, TessWindingOrder,
};
use spirv::{Capability, GLOp, Op as S, StorageClass as SC};

/// True if a program of `stage` may hold `opcode` (see `OpCode::stages`; the validator
/// checks the same rule).
pub(super) fn op_fits_stage(opcode: OpCode, stage: ShaderStage) -> bool {
    opcode
        .stages()
        .is_none_or(|m| m.contains(ShaderStageMask::from_stage(stage)))
}

impl<'a> Emitter<'a> {
    pub(super) fn op(&mut self, def: SsaDef, op: &'a Op) -> R<()> {
        use OpCode as O;
        match op.opcode {
            _ if !op_fits_stage(op.opcode, self.stage) => malformed(
                def,
                op,
                format!("{:?} in a {:?} shader", op.opcode, self.stage),
            ),
            O::EntryPoint | O::DclParam | O::Drain => Ok(()),
            O::SetFpMode => self.set_fp_mode(def, op),
            O::DebugName => {
                // Written at the end, straight from the IR.
                if op.arg(0).is_some() && !self.opts.strip_debug_names {
                    self.names_words += 2 + packed_str_words(op.literals().len());
                    self.late.push(def);
                }
                Ok(())
            }
            O::DebugMemberName | O::DclXfb => Ok(()),
            O::Semantic => {
                self.late.push(def);
                Ok(())
            }
            O::Constant => {
                let mut pos = 0;
                match self.module.const_of(&op.ty, op.literals(), &mut pos) {
                    Some(id) => {
                        self.set_map(def, id);
                        self.mark(def);
                        Ok(())
                    }
                    None => unsupported(def, op, format!("constant of type {}", op.ty)),
                }
            }
            O::Undef => {
                let t = self.module.val_ty(def, op)?;
                inst(&mut self.module.sections.globals, S::Undef, &[t, def.id()]);
                self.mark(def);
                Ok(())
            }
            O::SetCsWorkgroupSize => {
                let x = self.count_lit(def, op, 0)?;
                let y = self.count_lit(def, op, 1)?;
                let z = self.count_lit(def, op, 2)?;
                self.module
                    .modes
                    .push((spirv::ExecutionMode::LocalSize as u32, [x, y, z], 3));
                Ok(())
            }
            O::SetGsInstances => {
                let n = self.count_lit(def, op, 0)?;
                self.module
                    .modes
                    .push((spirv::ExecutionMode::Invocations as u32, [n, 0, 0], 1));
                Ok(())
            }
            O::SetGsInputPrimitive => {
                use spirv::ExecutionMode as M;
                let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
                    Some(PrimitiveType::Point) => M::InputPoints,
                    Some(PrimitiveType::Line) => M::InputLines,
                    Some(PrimitiveType::LineAdj) => M::InputLinesAdjacency,
                    Some(PrimitiveType::Triangle) => M::Triangles,
                    Some(PrimitiveType::TriangleAdj) => M::InputTrianglesAdjacency,
                    _ => return unsupported(def, op, "GS input primitive"),
                };
                self.module.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetGsOutputVertices => {
                let n = self.count_lit(def, op, 0)?;
                self.module
                    .modes
                    .push((spirv::ExecutionMode::OutputVertices as u32, [n, 0, 0], 1));
                Ok(())
            }
            O::SetGsOutputPrimitive => {
                use spirv::ExecutionMode as M;
                let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
                    Some(PrimitiveType::Point) => M::OutputPoints,
                    Some(PrimitiveType::Line) => M::OutputLineStrip,
                    Some(PrimitiveType::Triangle) => M::OutputTriangleStrip,
                    _ => return unsupported(def, op, "GS output primitive"),
                };
                let mask = op.lit(1).unwrap_or(1);
                if mask & !1 != 0 {
                    self.multi_stream = true;
                    self.module.cap(Capability::GeometryStreams);
                }
                self.module.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetPsEarlyFragmentTest => {
                self.module.modes.push((
                    spirv::ExecutionMode::EarlyFragmentTests as u32,
                    [0; 3],
                    0,
                ));
                Ok(())
            }
            O::SetPsDepthGreaterEqual => {
                self.module
                    .modes
                    .push((spirv::ExecutionMode::DepthGreater as u32, [0; 3], 0));
                Ok(())
            }
            O::SetPsDepthLessEqual => {
                self.module
                    .modes
                    .push((spirv::ExecutionMode::DepthLess as u32, [0; 3], 0));
                Ok(())
            }
            O::SetTessPrimitive => {
                use spirv::ExecutionMode as M;
                let prim = PrimitiveType::from_literal(self.lit(def, op, 0)?);
                if prim == Some(PrimitiveType::Point) {
                    self.module.modes.push((M::PointMode as u32, [0; 3], 0));
                }
                if prim == Some(PrimitiveType::Triangle) {
                    // D3D's winding is relative to an upper-left origin: flip it.
                    let m = match TessWindingOrder::from_literal(self.lit(def, op, 1)?) {
                        Some(TessWindingOrder::Cw) => M::VertexOrderCcw,
                        _ => M::VertexOrderCw,
                    };
                    self.module.modes.push((m as u32, [0; 3], 0));
                }
                let m = match TessPartitioning::from_literal(self.lit(def, op, 2)?) {
                    Some(TessPartitioning::FractOdd) => M::SpacingFractionalOdd,
                    Some(TessPartitioning::FractEven) => M::SpacingFractionalEven,
                    _ => M::SpacingEqual,
                };
                self.module.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetTessDomain => {
                use spirv::ExecutionMode as M;
                let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
                    Some(PrimitiveType::Triangle) => M::Triangles,
                    Some(PrimitiveType::Quad) => M::Quads,
                    Some(PrimitiveType::Line) => M::Isolines,
                    _ => return unsupported(def, op, "tessellation domain"),
                };
                self.module.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetTessControlPoints => {
                // A hull shader's output patch size; a domain shader's input patch needs none.
                if self.stage == ShaderStage::Hull {
                    let n = self.count_lit(def, op, 1)?;
                    self.module.modes.push((
                        spirv::ExecutionMode::OutputVertices as u32,
                        [n, 0, 0],
                        1,
                    ));
                }
                Ok(())
            }
            O::DclInput | O::DclOutput | O::DclInputBuiltIn | O::DclOutputBuiltIn => {
                self.dcl_io(def, op)
            }
            O::DclCbv | O::DclSrv | O::DclUav | O::DclSampler | O::DclUavCounter => {
                self.dcl_resource(def, op)
            }
            O::DclLds | O::DclScratch => {
                let sc = if op.opcode == O::DclLds {
                    SC::Workgroup
                } else {
                    SC::Private
                };
                let Some(t) = self.module.ty(&op.ty, false) else {
                    return unsupported(def, op, format!("type {}", op.ty));
                };
                let p = self.module.ptr(sc, t);
                self.module.global_var(p, sc, def.id(), None);
                self.mark(def);
                self.set_info(
                    def,
                    Info::Var(VarInfo {
                        var: def.id(),
                        sc,
                        ty: op.ty,
                        wrap: IoWrap::None,
                        refl: 0,
                    }),
                );
                Ok(())
            }
            O::DclSpecConstant => self.dcl_spec_constant(def, op),
            O::DclPushData => {
                let offset = self.lit(def, op, 0)? as u32;
                let why = block_type_problem(&op.ty, false).or_else(|| {
                    (!offset.is_multiple_of(block_align(&op.ty, false)))
                        .then_some("an offset that breaks std430 alignment")
                });
                if let Some(why) = why {
                    return unsupported(
                        def,
                        op,
                        format!("push data type {} at offset {offset} ({why})", op.ty),
                    );
                }
                if self.module.ty(&op.ty, true).is_none() {
                    return unsupported(def, op, format!("push data type {}", op.ty));
                }
                if self.push_var == 0 {
                    self.push_var = self.module.id();
                }
                self.set_info(def, Info::PushMember(self.push.len() as u32));
                self.push.push((offset, op.ty));
                self.mark(def);
                Ok(())
            }
            O::Pointer | O::MemoryLoad | O::MemoryStore | O::MemoryAtomic => {
                unsupported(def, op, "raw pointers")
            }
            O::Function => {
                self.function_state.open_merges = 0;
                self.function(def, op)
            }
            O::FunctionEnd => {
                inst(self.module.body(), S::FunctionEnd, &[]);
                Ok(())
            }
            O::Label => {
                inst(self.module.body(), S::Label, &[def.id()]);
                self.mark(def);
                // Reaching a merge block closes its construct.
                if let Some(s) = self.slots.get_mut(def.index()).filter(|s| s.merge_pending) {
                    s.merge_pending = false;
                    self.function_state.open_merges -= 1;
                }
                let c = op.construct();
                self.function_state.merge = match c {
                    Some(Construct::StructuredSelection) => {
                        let label = self.arg(def, op, 0)?;
                        Some(PendingMerge {
                            merge: self.v(label),
                            continue_target: None,
                            label,
                        })
                    }
                    Some(Construct::StructuredLoop) => {
                        let label = self.arg(def, op, 0)?;
                        Some(PendingMerge {
                            merge: self.v(label),
                            continue_target: Some(self.v(self.arg(def, op, 1)?)),
                            label,
                        })
                    }
                    _ => None,
                };
                Ok(())
            }
            O::Branch | O::BranchConditional | O::Switch => self.terminator(def, op),
            O::Unreachable => {
                inst(self.module.body(), S::Unreachable, &[]);
                Ok(())
            }
            O::Return => {
                match op.arg(0) {
                    Some(v) => {
                        let v = self.v(v);
                        inst(self.module.body(), S::ReturnValue, &[v]);
                    }
                    None => inst(self.module.body(), S::Return, &[]),
                }
                Ok(())
            }
            _ => {
                self.mark(def);
                self.code(def, op)
            }
        }
    }

    pub(super) fn code(&mut self, def: SsaDef, op: &'a Op) -> R<()> {
        use OpCode as O;
        let id = def.id();
        match op.opcode {
            O::Phi => {
                let t = self.module.val_ty(def, op)?;
                let refs = op.operands.get(..op.ref_count()).unwrap_or(&[]);
                let f = &mut self.module.sections.functions;
                let start = begin(f, S::Phi);
                f.extend_from_slice(&[t, id]);
                for pair in refs.chunks(2) {
                    let (Some(l), Some(v)) = (
                        pair.first().and_then(|o| o.def()),
                        pair.get(1).and_then(|o| o.def()),
                    ) else {
                        return malformed(def, op, "phi operand pair");
                    };
                    let slots = &self.slots;
                    let v = slots.get(v.index()).map_or(v.id(), |s| s.id);
                    let l = slots.get(l.index()).map_or(l.id(), |s| s.id);
                    f.extend_from_slice(&[v, l]);
                }
                end(f, start);
                Ok(())
            }
            O::FunctionCall => {
                let t = self.module.val_ty(def, op)?;
                let f = &mut self.module.sections.functions;
                let start = begin(f, S::FunctionCall);
                f.extend_from_slice(&[t, id]);
                for a in op.refs() {
                    match a {
                        Some(a) => f.push(self.slots.get(a.index()).map_or(a.id(), |s| s.id)),
                        None => return malformed(def, op, "null call operand"),
                    }
                }
                end(f, start);
                Ok(())
            }
            O::PushDataLoad => {
                let dcl = self.arg(def, op, 0)?;
                let Some(&Info::PushMember(m)) = self.info(dcl) else {
                    return malformed(def, op, "not a push data declaration");
                };
                let Some(&(_, mty)) = self.push.get(m as usize) else {
                    return malformed(def, op, "not a push data declaration");
                };
                let Some(t) = self.module.ty(&mty, true) else {
                    return unsupported(def, op, format!("push data type {mty}"));
                };
                let pt = self.module.ptr(SC::PushConstant, t);
                let mc = self.module.const_u32(m);
                let base = self.module.un(S::AccessChain, pt, &[self.push_var, mc]);
                self.load_via(
                    def,
                    op,
                    base,
                    SC::PushConstant,
                    &mty,
                    &[],
                    op.arg(1),
                    &op.ty,
                    true,
                    id,
                )
            }
            O::ParamLoad => {
                let func = self.arg(def, op, 0)?;
                let p = self.arg(def, op, 1)?;
                let Some(&(_, _, pid)) = self.params.iter().find(|x| x.0 == func && x.1 == p)
                else {
                    return malformed(def, op, "parameter of another function");
                };
                self.set_map(def, pid);
                Ok(())
            }
            O::InputLoad | O::OutputLoad => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an I/O declaration");
                };
                let c0 = self.module.const_u32(0);
                let prefix: &[u32] = if vi.wrap == IoWrap::ArrayOfOne {
                    &[c0]
                } else {
                    &[]
                };
                let ty = vi.ty;
                if vi.wrap == IoWrap::RcpW {
                    return self.load_frag_coord(def, op, vi);
                }
                if let IoWrap::SubBase(bvar) = vi.wrap {
                    let u = self.module.u32_ty();
                    let raw = self.module.id();
                    self.load_via(
                        def,
                        op,
                        vi.var,
                        vi.sc,
                        &ty,
                        prefix,
                        op.arg(1),
                        &op.ty,
                        false,
                        raw,
                    )?;
                    let base = self.module.un(S::Load, u, &[bvar]);
                    let t = self.module.val_ty(def, op)?;
                    self.module.emit_to(S::ISub, t, id, &[raw, base]);
                    return Ok(());
                }
                self.load_via(
                    def,
                    op,
                    vi.var,
                    vi.sc,
                    &ty,
                    prefix,
                    op.arg(1),
                    &op.ty,
                    false,
                    id,
                )
            }
            O::OutputStore => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an output declaration");
                };
                let c0 = self.module.const_u32(0);
                let prefix: &[u32] = if vi.wrap == IoWrap::ArrayOfOne {
                    &[c0]
                } else {
                    &[]
                };
                let value = self.arg(def, op, 2)?;
                let ty = vi.ty;
                self.store_via(def, op, vi.var, vi.sc, &ty, prefix, op.arg(1), value, false)
            }
            O::LdsLoad | O::ScratchLoad => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not a variable");
                };
                let ty = vi.ty;
                self.load_via(
                    def,
                    op,
                    vi.var,
                    vi.sc,
                    &ty,
                    &[],
                    op.arg(1),
                    &op.ty,
                    false,
                    id,
                )
            }
            O::LdsStore | O::ScratchStore => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not a variable");
                };
                let value = self.arg(def, op, 2)?;
                let ty = vi.ty;
                self.store_via(def, op, vi.var, vi.sc, &ty, &[], op.arg(1), value, false)
            }
            O::ConstantLoad => {
                let c = self.arg(def, op, 0)?;
                let Some(cop) = self.op_of(c) else {
                    return malformed(def, op, "constant missing");
                };
                let var = match self.info(c) {
                    Some(&Info::ConstVar(v)) => v,
                    _ => {
                        let Some(t) = self.module.ty(&cop.ty, false) else {
                            return unsupported(def, op, "constant type");
                        };
                        let p = self.module.ptr(SC::Private, t);
                        let var = self.module.id();
                        let init = self.v(c);
                        self.module.global_var(p, SC::Private, var, Some(init));
                        self.set_info(c, Info::ConstVar(var));
                        var
                    }
                };
                let ty = cop.ty;
                self.load_via(
                    def,
                    op,
                    var,
                    SC::Private,
                    &ty,
                    &[],
                    op.arg(1),
                    &op.ty,
                    false,
                    id,
                )
            }
            O::DescriptorLoad => self.descriptor_load(def, op),
            O::BufferLoad | O::BufferStore => {
                self.function_state.coherent_access = self
                    .desc_of(def, op, 0)
                    .is_ok_and(|d| d.res.uav && d.res.coherent);
                let r = if op.opcode == O::BufferLoad {
                    self.buffer_load(def, op)
                } else {
                    self.buffer_store(def, op)
                };
                self.function_state.coherent_access = false;
                r
            }
            O::BufferQuerySize => {
                let d = self.desc_of(def, op, 0)?;
                let u = self.module.u32_ty();
                match d.res.kind {
                    ResKind::Ssbo => {
                        // Only a run-time array has a length to ask for.
                        if !d.res.data.is_unbounded() {
                            return malformed(
                                def,
                                op,
                                format!(
                                    "size query of a {} buffer, not a run-time array",
                                    d.res.data
                                ),
                            );
                        }
                        inst(self.module.body(), S::ArrayLength, &[u, id, d.ptr, 0]);
                    }
                    ResKind::TexelBuffer => {
                        self.module.cap(Capability::ImageQuery);
                        self.module.emit_to(S::ImageQuerySize, u, id, &[d.value]);
                    }
                    _ => return unsupported(def, op, "size query on this descriptor"),
                }
                Ok(())
            }
            O::BufferAtomic | O::LdsAtomic | O::ImageAtomic | O::CounterAtomic => {
                self.atomic(def, op)
            }
            O::ImageLoad
            | O::ImageStore
            | O::ImageSample
            | O::ImageGather
            | O::ImageComputeLod
            | O::ImageQuerySize
            | O::ImageQueryMips
            | O::ImageQuerySamples => self.image(def, op),
            O::CheckSparseAccess => {
                let t = self.module.val_ty(def, op)?;
                let fb = self.arg(def, op, 0)?;
                // Feedback taken from a buffer load (no Vulkan residency query): resident.
                let from_buffer = self.op_of(fb).is_some_and(|o| {
                    o.opcode == O::CompositeExtract
                        && o.arg(0)
                            .is_some_and(|src| self.resident_feedback.contains(&src))
                });
                if from_buffer {
                    let c = self.module.const_scalar(ScalarType::Bool, 1);
                    inst(self.module.body(), S::CopyObject, &[t, id, c]);
                    return Ok(());
                }
                self.module.cap(Capability::SparseResidency);
                let a = self.v(fb);
                self.module
                    .emit_to(S::ImageSparseTexelsResident, t, id, &[a]);
                Ok(())
            }
            O::Barrier => {
                let exec = Scope::from_literal(self.lit(def, op, 0)?);
                let mem = Scope::from_literal(self.lit(def, op, 1)?);
                let mask = MemoryTypeMask(self.lit(def, op, 2)? as u32);
                let workgroup = exec == Some(Scope::Workgroup) || mem == Some(Scope::Workgroup);
                if workgroup && !self.stage.has_workgroups() {
                    return malformed(
                        def,
                        op,
                        format!("a workgroup barrier in a {} shader", self.stage),
                    );
                }
                let mut sem = 0u32;
                if mask.contains(MemoryTypeMask::Lds) {
                    sem |= 0x100;
                }
                if mask.contains(MemoryTypeMask::UavBuffer) {
                    sem |= 0x40;
                }
                if mask.contains(MemoryTypeMask::UavImage) {
                    sem |= 0x800;
                }
                if sem != 0 {
                    sem |= 0x8 | 0x2000 | 0x4000;
                }
                let scope = |s: Option<Scope>| match s {
                    Some(Scope::Thread) | None => spirv::Scope::Invocation,
                    Some(Scope::Quad) | Some(Scope::Subgroup) => spirv::Scope::Subgroup,
                    Some(Scope::Workgroup) => spirv::Scope::Workgroup,
                    Some(Scope::Global) => spirv::Scope::QueueFamily,
                };
                let ms = self.module.const_u32(scope(mem) as u32);
                let ss = self.module.const_u32(sem);
                if exec.is_some_and(|s| s != Scope::Thread) {
                    let es = self.module.const_u32(scope(exec) as u32);
                    inst(self.module.body(), S::ControlBarrier, &[es, ms, ss]);
                } else if sem != 0 {
                    inst(self.module.body(), S::MemoryBarrier, &[ms, ss]);
                }
                Ok(())
            }
            O::EmitVertex | O::EmitPrimitive => {
                let stream = self.lit(def, op, 0)? as u32;
                let vertex = op.opcode == O::EmitVertex;
                if self.multi_stream {
                    let c = self.module.const_u32(stream);
                    let o = if vertex {
                        S::EmitStreamVertex
                    } else {
                        S::EndStreamPrimitive
                    };
                    inst(self.module.body(), o, &[c]);
                } else {
                    inst(
                        self.module.body(),
                        if vertex {
                            S::EmitVertex
                        } else {
                            S::EndPrimitive
                        },
                        &[],
                    );
                }
                Ok(())
            }
            O::Demote => {
                self.module.cap(Capability::DemoteToHelperInvocation);
                inst(self.module.body(), S::DemoteToHelperInvocation, &[]);
                Ok(())
            }
            O::InterpolateAtCentroid | O::InterpolateAtSample | O::InterpolateAtOffset => {
                self.module.cap(Capability::InterpolationFunction);
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an input");
                };
                let ix = self.indices(def, op, op.arg(1))?;
                let ty = vi.ty;
                let (ptr, pt) = self.chain(def, op, vi.var, vi.sc, &ty, &[], &ix, false)?;
                if pt != op.ty {
                    return unsupported(def, op, "interpolating a partial vector");
                }
                // GLSL.std.450's interpolation functions take 32-bit floats only.
                if op.ty.base_type() != Some(ScalarType::F32) {
                    return unsupported(def, op, format!("interpolating a {} input", op.ty));
                }
                let t = self.module.val_ty(def, op)?;
                match op.opcode {
                    O::InterpolateAtCentroid => {
                        self.module
                            .ext_to(GLOp::InterpolateAtCentroid, t, id, &[ptr])
                    }
                    O::InterpolateAtSample => {
                        let sample = self.arg(def, op, 2)?;
                        let int32 = self
                            .op_of(sample)
                            .and_then(|o| o.ty.as_basic())
                            .is_some_and(|b| {
                                b.vec_size() == 1
                                    && b.base().is_int()
                                    && scalar_bits(b.base()) == 32
                            });
                        if !int32 {
                            return malformed(def, op, "the sample index is not a 32-bit integer");
                        }
                        let s = self.v(sample);
                        self.module
                            .ext_to(GLOp::InterpolateAtSample, t, id, &[ptr, s])
                    }
                    _ => {
                        let s = self.v(self.arg(def, op, 2)?);
                        self.module
                            .ext_to(GLOp::InterpolateAtOffset, t, id, &[ptr, s])
                    }
                }
                Ok(())
            }
            O::DerivX | O::DerivY => {
                let t = self.module.val_ty(def, op)?;
                let mut a = self.v(self.arg(def, op, 0)?);
                // Vulkan derives 32-bit floats only: a half is derived as a float.
                let Some(b) = op.ty.as_basic() else {
                    return malformed(def, op, "derivative of a composite");
                };
                let half = match scalar_bits(b.base()) {
                    32 => None,
                    16 => {
                        let Some(ft) = self.module.basic_ty(b.with_base(ScalarType::F32)) else {
                            return unsupported(def, op, "derivative type");
                        };
                        a = self.module.un(S::FConvert, ft, &[a]);
                        Some(ft)
                    }
                    _ => return unsupported(def, op, format!("derivative of {}", op.ty)),
                };
                let mode = DerivativeMode::from_literal(self.lit(def, op, 0)?);
                let x = op.opcode == O::DerivX;
                let o = match mode {
                    Some(DerivativeMode::Coarse) => {
                        self.module.cap(Capability::DerivativeControl);
                        if x {
                            S::DPdxCoarse
                        } else {
                            S::DPdyCoarse
                        }
                    }
                    Some(DerivativeMode::Fine) => {
                        self.module.cap(Capability::DerivativeControl);
                        if x {
                            S::DPdxFine
                        } else {
                            S::DPdyFine
                        }
                    }
                    _ => {
                        if x {
                            S::DPdx
                        } else {
                            S::DPdy
                        }
                    }
                };
                match half {
                    None => self.module.emit_to(o, t, id, &[a]),
                    Some(ft) => {
                        let d = self.module.un(o, ft, &[a]);
                        self.module.emit_to(S::FConvert, t, id, &[d]);
                    }
                }
                Ok(())
            }
            O::RovScopedLockBegin | O::RovScopedLockEnd => {
                self.module.cap(Capability::FragmentShaderPixelInterlockEXT);
                self.module.ext("SPV_EXT_fragment_shader_interlock");
                if op.opcode == O::RovScopedLockBegin {
                    let m = match op.lit(1).and_then(dxspv_ir::RovScope::from_literal) {
                        Some(dxspv_ir::RovScope::Sample) => {
                            self.module
                                .cap(Capability::FragmentShaderSampleInterlockEXT);
                            spirv::ExecutionMode::SampleInterlockOrderedEXT
                        }
                        _ => spirv::ExecutionMode::PixelInterlockOrderedEXT,
                    };
                    if !self.module.modes.iter().any(|x| x.0 == m as u32) {
                        self.module.modes.push((m as u32, [0; 3], 0));
                    }
                    inst(self.module.body(), S::BeginInvocationInterlockEXT, &[]);
                } else {
                    inst(self.module.body(), S::EndInvocationInterlockEXT, &[]);
                }
                Ok(())
            }
            _ => self.alu(def, op),
        }
    }
}
