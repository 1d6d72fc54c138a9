//! Atomics and synchronization: atomics on LDS, raw and structured buffers, typed buffers
//! and images (through `OpImageTexelPointer`) and UAV counters; barriers; and the fragment
//! shader interlock of rasterizer-ordered views.
//!
//! D3D atomics order no other memory access, so they are relaxed (semantics 0), at
//! `Workgroup` scope for LDS and `QueueFamily` scope for UAVs (`Device` under the `GLSL450`
//! memory model, which has no `QueueFamily`). A compare-exchange takes its comparator and
//! value from one `vec2` operand. Texel atomics need a UAV of fixed `R32` format; 64-bit
//! atomics add `Int64Atomics`. Barriers have acquire-release semantics on the storage
//! classes the IR's memory mask names, with availability and visibility made explicit under
//! the Vulkan memory model. A rasterizer-ordered critical section is an
//! invocation interlock (`SPV_EXT_fragment_shader_interlock`), ordered per pixel or sample.

use super::error::{malformed, unsupported, R};
use super::resources::ResKind;
use super::types::{basic_bits, scalar_bits};
use super::Emitter;
use crate::words::inst;
use dxspv_ir::validate::image_op_misfit;
use dxspv_ir::{AtomicOp, BasicType, Op, ScalarType, SsaDef, Type};
use dxspv_ir::{MemoryTypeMask, RovScope, Scope};
use spirv::{Capability, Op as S, StorageClass as SC};

/// What an atomic op works on.
#[derive(Clone, Copy)]
pub(super) enum AtomicTarget {
    /// An LDS variable (`LdsAtomic`).
    Lds,
    /// A raw or structured buffer, or a typed buffer (`BufferAtomic`).
    Buffer,
    /// A storage image (`ImageAtomic`).
    Image,
    /// A UAV counter (`CounterAtomic`).
    Counter,
}

impl<'a> Emitter<'a> {
    /// `LdsAtomic`, `BufferAtomic`, `ImageAtomic` and `CounterAtomic` (which `target` says):
    /// the pointer to the location, then the atomic instruction of the literal's operation.
    pub(super) fn atomic(&mut self, def: SsaDef, op: &Op, target: AtomicTarget) -> R<()> {
        let id = def.id();
        let aop_lit = op.literals().first().map(|l| l.0).unwrap_or(u64::MAX);
        let Some(aop) = AtomicOp::from_literal(aop_lit) else {
            return malformed(def, op, "bad atomic op");
        };
        // Pointer, scope and the operand SSA index.
        let (ptr, scope, operand_idx, elem) = match target {
            AtomicTarget::Lds => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an LDS declaration");
                };
                let ix = self.indices(def, op, op.arg(1))?;
                let ty = vi.ty(self.b);
                let (p, t) = self.chain(def, op, vi.var, vi.sc, ty, &[], &ix, false)?;
                (p, spirv::Scope::Workgroup, 2, t)
            }
            AtomicTarget::Buffer => {
                let d = self.desc_of(def, op, 0)?;
                match d.res.kind {
                    ResKind::Ssbo if self.wide_atomic(op, d.res.data(self.b)).is_some() => {
                        let Some(st) = self.wide_atomic(op, d.res.data(self.b)) else {
                            return malformed(def, op, "64-bit atomic");
                        };
                        let index = self.word_index(def, op, d.res.data(self.b))?;
                        let p = self.wide_buffer_element(def, op, &d, st, index)?;
                        (p, self.module.global_scope(), 2, Type::scalar(st))
                    }
                    ResKind::Ssbo => {
                        let ix = self.indices(def, op, op.arg(1))?;
                        let c0 = self.module.const_u32(0);
                        let data = d.res.data(self.b);
                        let sc = self.module.buffer_class();
                        let (p, t) = self.chain(def, op, d.ptr, sc, data, &[c0], &ix, true)?;
                        (p, self.module.global_scope(), 2, t)
                    }
                    ResKind::TexelBuffer => {
                        if !d.res.fixed_format {
                            return malformed(def, op, "texel atomic without FixedFormat");
                        }
                        let Some(st) = d.res.data(self.b).base_type() else {
                            return malformed(def, op, "texel type");
                        };
                        let Some(stt) = self.module.scalar_ty(st) else {
                            return unsupported(def, op, "texel type");
                        };
                        let pt = self.module.ptr(SC::Image, stt);
                        let c = self.arg(def, op, 1)?;
                        let int_scalar = self.op_of(c).is_some_and(|o| {
                            o.ty == Type::scalar(ScalarType::U32)
                                || o.ty == Type::scalar(ScalarType::I32)
                        });
                        if !int_scalar {
                            return malformed(
                                def,
                                op,
                                "typed buffer element index is not an integer scalar",
                            );
                        }
                        let coord = self.v(c);
                        let zero = self.module.const_u32(0);
                        let p = self
                            .module
                            .un(S::ImageTexelPointer, pt, &[d.ptr, coord, zero]);
                        (p, self.module.global_scope(), 2, Type::scalar(st))
                    }
                    _ => return unsupported(def, op, "atomic on this descriptor"),
                }
            }
            AtomicTarget::Image => {
                let d = self.desc_of(def, op, 0)?;
                if !d.res.fixed_format {
                    return malformed(def, op, "texel atomic without FixedFormat");
                }
                let Some(st) = d.res.data(self.b).base_type() else {
                    return malformed(def, op, "texel type");
                };
                if !st.is_int() {
                    return malformed(def, op, "atomic on an image of non-integer texels");
                }
                let Some(stt) = self.module.scalar_ty(st) else {
                    return unsupported(def, op, "texel type");
                };
                let pt = self.module.ptr(SC::Image, stt);
                let ResKind::Image(kind) = d.res.kind else {
                    return unsupported(def, op, "image atomic on a non-image descriptor");
                };
                if let Some(what) = image_op_misfit(op, kind, d.res.uav) {
                    return malformed(def, op, format!("{} of {what}", op.opcode));
                }
                let coord = self.coord_with_layer(def, op, 2, 1, kind, false)?;
                let zero = self.module.const_u32(0);
                let p = self
                    .module
                    .un(S::ImageTexelPointer, pt, &[d.ptr, coord, zero]);
                (p, self.module.global_scope(), 3, Type::scalar(st))
            }
            AtomicTarget::Counter => {
                let d = self.desc_of(def, op, 0)?;
                let u = self.module.u32_ty();
                let sc = self.module.buffer_class();
                let pt = self.module.ptr(sc, u);
                let c0 = self.module.const_u32(0);
                let p = self.module.un(S::AccessChain, pt, &[d.ptr, c0]);
                (
                    p,
                    self.module.global_scope(),
                    usize::MAX,
                    Type::scalar(ScalarType::U32),
                )
            }
        };
        match elem.base_type() {
            Some(t) if t.is_int() && elem.as_basic().is_some_and(|b| b.vec_size() == 1) => {}
            _ => return unsupported(def, op, format!("atomic on {elem}")),
        }
        if !op.ty.members().is_empty() && op.ty != elem {
            return malformed(def, op, format!("atomic result {} on {elem}", op.ty));
        }
        if operand_idx != usize::MAX {
            if let Some(t) = op
                .arg(operand_idx)
                .and_then(|o| self.op_of(o))
                .map(|o| o.ty)
            {
                let want = match (aop, elem.base_type()) {
                    (AtomicOp::CompareExchange, Some(b)) => Type::vector(b, 2),
                    _ => elem,
                };
                if t != want {
                    return malformed(
                        def,
                        op,
                        format!("atomic operand {t} on {elem}, needs {want}"),
                    );
                }
            }
        }
        let Some(et) = self.module.ty(&elem, false) else {
            return unsupported(def, op, "atomic type");
        };
        if elem.base_type().is_some_and(|t| scalar_bits(t) == 64) {
            self.module.cap(Capability::Int64Atomics);
        }
        let sc = self.module.const_u32(scope as u32);
        let sem = self.module.const_u32(0);
        let operand = if operand_idx == usize::MAX {
            None
        } else {
            op.arg(operand_idx)
        };
        let opv = operand.map(|o| self.v(o));
        let res = if op.ty.members().is_empty() {
            self.module.id()
        } else {
            id
        };
        let need = || -> R<u32> {
            match opv {
                Some(v) => Ok(v),
                None => malformed(def, op, "atomic operand missing"),
            }
        };
        // Read-modify-write with one operand.
        let rmw = |e: &mut Self, o: S| -> R<()> {
            let v = need()?;
            e.module.emit_to(o, et, res, &[ptr, sc, sem, v]);
            Ok(())
        };
        match aop {
            AtomicOp::Load => self.module.emit_to(S::AtomicLoad, et, res, &[ptr, sc, sem]),
            AtomicOp::Store => {
                let v = need()?;
                inst(self.module.body(), S::AtomicStore, &[ptr, sc, sem, v]);
            }
            AtomicOp::CompareExchange => {
                let v = need()?;
                let cmp = self.module.un(S::CompositeExtract, et, &[v, 0]);
                let new = self.module.un(S::CompositeExtract, et, &[v, 1]);
                self.module.emit_to(
                    S::AtomicCompareExchange,
                    et,
                    res,
                    &[ptr, sc, sem, sem, new, cmp],
                );
            }
            AtomicOp::Inc => self
                .module
                .emit_to(S::AtomicIIncrement, et, res, &[ptr, sc, sem]),
            AtomicOp::Dec => self
                .module
                .emit_to(S::AtomicIDecrement, et, res, &[ptr, sc, sem]),
            AtomicOp::Exchange => rmw(self, S::AtomicExchange)?,
            AtomicOp::Add => rmw(self, S::AtomicIAdd)?,
            AtomicOp::Sub => rmw(self, S::AtomicISub)?,
            AtomicOp::SMin => rmw(self, S::AtomicSMin)?,
            AtomicOp::SMax => rmw(self, S::AtomicSMax)?,
            AtomicOp::UMin => rmw(self, S::AtomicUMin)?,
            AtomicOp::UMax => rmw(self, S::AtomicUMax)?,
            AtomicOp::And => rmw(self, S::AtomicAnd)?,
            AtomicOp::Or => rmw(self, S::AtomicOr)?,
            AtomicOp::Xor => rmw(self, S::AtomicXor)?,
        }
        Ok(())
    }

    /// `Barrier`: `OpControlBarrier` when threads wait, else `OpMemoryBarrier` when memory is
    /// ordered; the semantics are acquire-release on the storage classes of the memory mask,
    /// with `MakeAvailable` and `MakeVisible` under the Vulkan memory model (which makes
    /// availability explicit). D3D's global scope is `QueueFamily` (`Device` under
    /// `GLSL450`), its quad scope `Subgroup` (refused where the target has no subgroups).
    pub(super) fn barrier(&mut self, def: SsaDef, op: &Op) -> R<()> {
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
            // AcquireRelease, and under the Vulkan memory model MakeAvailable | MakeVisible.
            sem |= 0x8;
            if self.module.vulkan_memory_model() {
                sem |= 0x2000 | 0x4000;
            }
        }
        let quad = |s: Option<Scope>| matches!(s, Some(Scope::Quad | Scope::Subgroup));
        if (quad(exec) || quad(mem)) && !self.module.target.subgroup_scope() {
            return unsupported(
                def,
                op,
                format!(
                    "a subgroup-scope barrier for {} (Vulkan has subgroups from 1.1)",
                    self.module.target
                ),
            );
        }
        let global = self.module.global_scope();
        let scope = |s: Option<Scope>| match s {
            Some(Scope::Thread) | None => spirv::Scope::Invocation,
            Some(Scope::Quad) | Some(Scope::Subgroup) => spirv::Scope::Subgroup,
            Some(Scope::Workgroup) => spirv::Scope::Workgroup,
            Some(Scope::Global) => global,
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

    /// `RovScopedLockBegin`: `OpBeginInvocationInterlockEXT`, and the pixel- or
    /// sample-ordered interlock mode (once).
    pub(super) fn interlock_begin(&mut self, op: &Op) -> R<()> {
        self.interlock_extension();
        let m = match op.lit(1).and_then(RovScope::from_literal) {
            Some(RovScope::Sample) => {
                self.module
                    .cap(Capability::FragmentShaderSampleInterlockEXT);
                spirv::ExecutionMode::SampleInterlockOrderedEXT
            }
            _ => spirv::ExecutionMode::PixelInterlockOrderedEXT,
        };
        if !self.module.modes.iter().any(|x| x.0 == m as u32) {
            self.module.execution_mode(m, &[]);
        }
        inst(self.module.body(), S::BeginInvocationInterlockEXT, &[]);
        Ok(())
    }

    /// `RovScopedLockEnd`: `OpEndInvocationInterlockEXT`.
    pub(super) fn interlock_end(&mut self) -> R<()> {
        self.interlock_extension();
        inst(self.module.body(), S::EndInvocationInterlockEXT, &[]);
        Ok(())
    }

    /// `SPV_EXT_fragment_shader_interlock` and its pixel-interlock capability.
    fn interlock_extension(&mut self) {
        self.module.cap(Capability::FragmentShaderPixelInterlockEXT);
        self.module.ext("SPV_EXT_fragment_shader_interlock");
    }

    /// The 64-bit integer type of a buffer atomic on a buffer of 32-bit words (raw `u32[]` or
    /// structured `u32[n][]`), which goes through a 64-bit view of the buffer: the result's
    /// type, or the operand's for an atomic whose result is unused.
    fn wide_atomic(&self, op: &Op, data: &Type) -> Option<ScalarType> {
        let words = data
            .without_arrays()
            .base_type()
            .is_some_and(|t| t.is_int() && scalar_bits(t) == 32)
            && matches!(data.dims(), [0] | [_, 0]);
        let wide = |t: Type| {
            t.base_type()
                .filter(|b| b.is_int() && scalar_bits(*b) == 64)
        };
        let from_operand = op.arg(2).and_then(|o| self.op_of(o)).map(|o| o.ty);
        let st = wide(op.ty).or_else(|| from_operand.and_then(wide))?;
        words.then_some(st)
    }

    /// The 32-bit word index the address of buffer op `op` names in `data` (`u32[]`: the
    /// index; `u32[n][]`: `element * n + word`), as a `u32`.
    fn word_index(&mut self, def: SsaDef, op: &Op, data: &Type) -> R<u32> {
        let a = self.arg(def, op, 1)?;
        let Some(at) = self.op_of(a).and_then(|o| o.ty.as_basic()) else {
            return malformed(def, op, "buffer address");
        };
        let u = self.module.u32_ty();
        let uvec = |e: &mut Self, n: u8| {
            e.module
                .basic_ty(BasicType::vector(ScalarType::U32, n))
                .unwrap_or_default()
        };
        let mut v = self.v(a);
        let n = at.vec_size();
        let wt = if at.is_vector() { uvec(self, n) } else { u };
        if !at.base().is_int() {
            return malformed(def, op, format!("buffer address of type {at}"));
        }
        if basic_bits(at) != 32 {
            // Widen or narrow to 32 bits first, keeping the sign of a signed index.
            let (conv, to) = if at.base().is_signed_int() {
                (S::SConvert, ScalarType::I32)
            } else {
                (S::UConvert, ScalarType::U32)
            };
            let Some(t) = self.module.basic_ty(at.with_base(to)) else {
                return unsupported(def, op, "address type");
            };
            v = self.module.un(conv, t, &[v]);
            if to == ScalarType::I32 {
                v = self.module.un(S::Bitcast, wt, &[v]);
            }
        } else {
            v = self.operand_as(op, 1, v, at.with_base(ScalarType::U32), wt);
        }
        match (data.dims(), at.vec_size()) {
            ([0], 1) => Ok(v),
            ([n, 0], 2) => {
                let element = self.module.un(S::CompositeExtract, u, &[v, 0]);
                let word = self.module.un(S::CompositeExtract, u, &[v, 1]);
                let stride = self.module.const_u32(*n);
                let start = self.module.un(S::IMul, u, &[element, stride]);
                Ok(self.module.un(S::IAdd, u, &[start, word]))
            }
            _ => unsupported(
                def,
                op,
                format!("a 64-bit atomic at a {at} address of {data}"),
            ),
        }
    }
}
