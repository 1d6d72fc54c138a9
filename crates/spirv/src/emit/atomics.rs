//! Atomics: on LDS, raw and structured buffers, typed buffers and images (through
//! `OpImageTexelPointer`) and UAV counters.
//!
//! D3D atomics order no other memory access, so they are relaxed (semantics 0), at
//! `Workgroup` scope for LDS and `QueueFamily` scope for UAVs. A compare-exchange takes its
//! comparator and value from one `vec2` operand. Texel atomics need a UAV of fixed `R32`
//! format; 64-bit atomics add `Int64Atomics`.

use super::error::{malformed, unsupported, R};
use super::resources::ResKind;
use super::types::scalar_bits;
use super::Emitter;
use crate::words::inst;
use dxspv_ir::validate::image_op_misfit;
use dxspv_ir::{AtomicOp, Op, OpCode, ScalarType, SsaDef, Type};
use spirv::{Capability, Op as S, StorageClass as SC};

impl<'a> Emitter<'a> {
    pub(super) fn atomic(&mut self, def: SsaDef, op: &Op) -> R<()> {
        use OpCode as O;
        let id = def.id();
        let aop_lit = op.literals().first().map(|l| l.0).unwrap_or(u64::MAX);
        let Some(aop) = AtomicOp::from_literal(aop_lit) else {
            return malformed(def, op, "bad atomic op");
        };
        // Pointer, scope and the operand SSA index.
        let (ptr, scope, operand_idx, elem) = match op.opcode {
            O::LdsAtomic => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an LDS declaration");
                };
                let ix = self.indices(def, op, op.arg(1))?;
                let ty = vi.ty;
                let (p, t) = self.chain(def, op, vi.var, vi.sc, &ty, &[], &ix, false)?;
                (p, spirv::Scope::Workgroup, 2, t)
            }
            O::BufferAtomic => {
                let d = self.desc_of(def, op, 0)?;
                match d.res.kind {
                    ResKind::Ssbo => {
                        let ix = self.indices(def, op, op.arg(1))?;
                        let c0 = self.module.const_u32(0);
                        let data = d.res.data;
                        let (p, t) =
                            self.chain(def, op, d.ptr, SC::StorageBuffer, &data, &[c0], &ix, true)?;
                        (p, spirv::Scope::QueueFamily, 2, t)
                    }
                    ResKind::TexelBuffer => {
                        if !d.res.fixed_format {
                            return malformed(def, op, "texel atomic without FixedFormat");
                        }
                        let Some(st) = d.res.data.base_type() else {
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
                        (p, spirv::Scope::QueueFamily, 2, Type::scalar(st))
                    }
                    _ => return unsupported(def, op, "atomic on this descriptor"),
                }
            }
            O::ImageAtomic => {
                let d = self.desc_of(def, op, 0)?;
                if !d.res.fixed_format {
                    return malformed(def, op, "texel atomic without FixedFormat");
                }
                let Some(st) = d.res.data.base_type() else {
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
                (p, spirv::Scope::QueueFamily, 3, Type::scalar(st))
            }
            _ => {
                let d = self.desc_of(def, op, 0)?;
                let u = self.module.u32_ty();
                let pt = self.module.ptr(SC::StorageBuffer, u);
                let c0 = self.module.const_u32(0);
                let p = self.module.un(S::AccessChain, pt, &[d.ptr, c0]);
                (
                    p,
                    spirv::Scope::QueueFamily,
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
        let one = |e: &mut Self| {
            e.module
                .const_scalar(elem.base_type().unwrap_or(ScalarType::U32), 1)
        };
        let need = |e: &Self| -> R<u32> {
            match opv {
                Some(v) => Ok(v),
                None => {
                    let _ = e;
                    malformed(def, op, "atomic operand missing")
                }
            }
        };
        match aop {
            AtomicOp::Load => self.module.emit_to(S::AtomicLoad, et, res, &[ptr, sc, sem]),
            AtomicOp::Store => {
                let v = need(self)?;
                inst(self.module.body(), S::AtomicStore, &[ptr, sc, sem, v]);
            }
            AtomicOp::CompareExchange => {
                let v = need(self)?;
                let cmp = self.module.un(S::CompositeExtract, et, &[v, 0]);
                let new = self.module.un(S::CompositeExtract, et, &[v, 1]);
                self.module.emit_to(
                    S::AtomicCompareExchange,
                    et,
                    res,
                    &[ptr, sc, sem, sem, new, cmp],
                );
            }
            AtomicOp::Inc | AtomicOp::Dec => {
                let o = if aop == AtomicOp::Inc {
                    S::AtomicIIncrement
                } else {
                    S::AtomicIDecrement
                };
                let _ = one;
                self.module.emit_to(o, et, res, &[ptr, sc, sem]);
            }
            _ => {
                let o = match aop {
                    AtomicOp::Exchange => S::AtomicExchange,
                    AtomicOp::Add => S::AtomicIAdd,
                    AtomicOp::Sub => S::AtomicISub,
                    AtomicOp::SMin => S::AtomicSMin,
                    AtomicOp::SMax => S::AtomicSMax,
                    AtomicOp::UMin => S::AtomicUMin,
                    AtomicOp::UMax => S::AtomicUMax,
                    AtomicOp::And => S::AtomicAnd,
                    AtomicOp::Or => S::AtomicOr,
                    _ => S::AtomicXor,
                };
                let v = need(self)?;
                self.module.emit_to(o, et, res, &[ptr, sc, sem, v]);
            }
        }
        Ok(())
    }
}
