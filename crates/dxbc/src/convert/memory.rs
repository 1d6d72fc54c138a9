//! Memory: raw and structured buffer loads and stores on SRVs, UAVs and thread group shared
//! memory (`DclLds`), atomics and immediate atomics, UAV counters, `bufinfo` and `sync`.
//!
//! Raw addresses are byte offsets; the IR addresses dwords, so they are shifted right by two.
//! Structured addresses become `(structure, dword)` pairs. Each component of a load or store is
//! one dword access at `base + swizzle component` (loads) or `base + written component`
//! (stores), so swizzled and partial accesses need no shuffles.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{
    AtomicOp, MemoryTypeMask, Op, OpCode, OpFlags, ResourceKind, ScalarType, Scope, SsaDef, Type,
};

use super::registers::{dst_mask, swizzle_of, Ix, Lanes};
use super::resources::{Binding, Class};
use super::{lanes, Converter, R};
use crate::decode::Stage;
use crate::operand::{Operand, OperandType};
use crate::{Instruction, Opcode};

/// What a memory operand names.
#[derive(Clone, Copy)]
pub(crate) enum Target {
    /// A buffer descriptor and its binding.
    Buffer(SsaDef, Binding),
    /// Thread group shared memory: declaration and structure stride in dwords (0: raw).
    Lds(SsaDef, u32),
}

impl Converter<'_, '_> {
    /// Resolves the resource operand of a memory instruction.
    pub(crate) fn mem_target(&mut self, op: &Operand) -> R<Target> {
        match op.ty {
            OperandType::Resource => {
                let (d, b) = self.descriptor(Class::Srv, op)?;
                Ok(Target::Buffer(d, b))
            }
            OperandType::UnorderedAccessView => {
                let (d, b) = self.descriptor(Class::Uav, op)?;
                Ok(Target::Buffer(d, b))
            }
            OperandType::ThreadGroupSharedMemory => {
                let id = self.imm_index(op, 0)? as u32;
                let Some(&(d, s)) = self.lds.get(&id) else {
                    return Err(self.invalid(format!("g{id} is not declared")));
                };
                Ok(Target::Lds(d, s))
            }
            other => Err(self.invalid(format!("{} is not a memory resource", other.prefix()))),
        }
    }

    /// [`Self::mem_target`] for raw (`structured == false`) and structured loads and stores:
    /// the buffer or thread group shared memory must have that layout (a typed resource has an
    /// element format these ops ignore, and the addressing differs between the two layouts).
    fn untyped_target(
        &mut self,
        inst: &Instruction<'_>,
        op: &Operand,
        structured: bool,
    ) -> R<Target> {
        let t = self.mem_target(op)?;
        let ok = match &t {
            Target::Buffer(_, b) => {
                b.kind
                    == if structured {
                        ResourceKind::BufferStructured
                    } else {
                        ResourceKind::BufferRaw
                    }
            }
            Target::Lds(_, stride) => (*stride > 0) == structured,
        };
        if !ok {
            return Err(self.invalid(format!(
                "`{}` needs a {} buffer or thread group shared memory",
                inst.opcode.mnemonic(),
                if structured { "structured" } else { "raw" }
            )));
        }
        Ok(t)
    }

    /// The dword index of a byte offset (a constant for a constant offset, as constant
    /// folding would make it).
    fn dword(&mut self, bytes: SsaDef) -> SsaDef {
        if let Some(b) = self.u32_constant(bytes) {
            return self.c_u32(b >> 2);
        }
        let two = self.c_u32(2);
        self.op2(OpCode::UShr, ScalarType::U32, bytes, two)
    }

    /// `base + c` (a constant for a constant base, as constant folding would make it).
    fn plus(&mut self, base: SsaDef, c: u32) -> SsaDef {
        if c == 0 {
            return base;
        }
        if let Some(b) = self.u32_constant(base) {
            return self.c_u32(b.wrapping_add(c));
        }
        let k = self.c_u32(c);
        self.op2(OpCode::IAdd, ScalarType::U32, base, k)
    }

    /// Address of dword `c` past `(structure, dword)` or `dword`.
    fn mem_address(&mut self, structure: Option<SsaDef>, dword: SsaDef, c: u32) -> Option<SsaDef> {
        let dw = self.plus(dword, c);
        match structure {
            Some(s) => self.address(&[Ix::D(s), Ix::D(dw)]),
            None => Some(dw),
        }
    }

    fn mem_load(&mut self, t: Target, addr: Option<SsaDef>, ty: Type, flags: OpFlags) -> SsaDef {
        match t {
            Target::Buffer(d, _) => self.code(
                Op::new(OpCode::BufferLoad, ty)
                    .with_ref(d)
                    .with_opt_ref(addr)
                    .with_lit(4)
                    .with_flags(flags),
            ),
            Target::Lds(d, _) => {
                self.code(Op::new(OpCode::LdsLoad, ty).with_ref(d).with_opt_ref(addr))
            }
        }
    }

    fn mem_store(&mut self, t: Target, addr: Option<SsaDef>, v: SsaDef) {
        match t {
            Target::Buffer(d, _) => self.code(
                Op::new(OpCode::BufferStore, Type::VOID)
                    .with_ref(d)
                    .with_opt_ref(addr)
                    .with_ref(v)
                    .with_lit(4),
            ),
            Target::Lds(d, _) => self.code(
                Op::new(OpCode::LdsStore, Type::VOID)
                    .with_ref(d)
                    .with_opt_ref(addr)
                    .with_ref(v),
            ),
        };
    }

    /// Converts a memory instruction.
    pub(crate) fn memory(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        match inst.opcode {
            O::LdRaw | O::LdRawFeedback | O::LdStructured | O::LdStructuredFeedback => {
                self.mem_ld(inst)
            }
            O::StoreRaw | O::StoreStructured => self.mem_st(inst),
            O::ImmAtomicAlloc | O::ImmAtomicConsume => self.counter(inst),
            O::BufInfo => self.bufinfo(inst),
            _ => self.atomic(inst),
        }
    }

    /// `ld_raw`, `ld_structured` and their `_s` forms.
    fn mem_ld(&mut self, inst: &Instruction<'_>) -> R<()> {
        let feedback = matches!(
            inst.opcode,
            Opcode::LdRawFeedback | Opcode::LdStructuredFeedback
        );
        let structured = matches!(
            inst.opcode,
            Opcode::LdStructured | Opcode::LdStructuredFeedback
        );
        let first = if feedback { 2 } else { 1 };
        let dst = self.operand(inst, 0)?;
        let idx_op = self.operand(inst, first)?;
        let (s, off_op, res_op) = if structured {
            let s = self.load_scalar(idx_op, ScalarType::U32)?;
            (
                Some(s),
                self.operand(inst, first + 1)?,
                self.operand(inst, first + 2)?,
            )
        } else {
            (None, idx_op, self.operand(inst, first + 1)?)
        };
        let off = self.load_scalar(off_op, ScalarType::U32)?;
        let dw = self.dword(off);
        let t = self.untyped_target(inst, res_op, structured)?;
        let sw = swizzle_of(res_op);
        let mask = dst_mask(dst);
        let mut out: Lanes = [None; 4];
        let status = if feedback {
            Some(self.operand(inst, 1)?)
        } else {
            None
        };
        if let (Some(st), Target::Buffer(..)) = (status.filter(|o| o.ty != OperandType::Null), t) {
            // One sparse vector load covering every read dword.
            let n = lanes(mask).map(|l| sw[l] + 1).max().unwrap_or(1);
            let addr = self.mem_address(s, dw, 0);
            let vty = Type::vector(ScalarType::U32, n);
            let sty = Type::structure(&[
                dxspv_ir::BasicType::scalar(ScalarType::U32),
                dxspv_ir::BasicType::vector(ScalarType::U32, n),
            ])
            .map_err(|e| self.invalid(e.to_string()))?;
            let v = self.mem_load(t, addr, sty, OpFlags::SPARSE_FEEDBACK);
            let fb = self.extract(ScalarType::U32, v, 0);
            let data = self.extract(vty, v, 1);
            for l in lanes(mask) {
                out[l] = Some(if n > 1 {
                    self.extract(ScalarType::U32, data, sw[l] as u32)
                } else {
                    data
                });
            }
            let mut f: Lanes = [None; 4];
            for l in lanes(dst_mask(st)) {
                f[l] = Some(fb);
            }
            self.store_dst(st, &f, ScalarType::U32)?;
        } else {
            for l in lanes(mask) {
                let addr = self.mem_address(s, dw, sw[l] as u32);
                out[l] =
                    Some(self.mem_load(t, addr, Type::scalar(ScalarType::U32), OpFlags::empty()));
            }
        }
        self.store_dst(dst, &out, ScalarType::U32)
    }

    /// `store_raw`, `store_structured`.
    fn mem_st(&mut self, inst: &Instruction<'_>) -> R<()> {
        let structured = inst.opcode == Opcode::StoreStructured;
        let res_op = self.operand(inst, 0)?;
        let (s, off_op, val_op) = if structured {
            let s = self.load_scalar(self.operand(inst, 1)?, ScalarType::U32)?;
            (Some(s), self.operand(inst, 2)?, self.operand(inst, 3)?)
        } else {
            (None, self.operand(inst, 1)?, self.operand(inst, 2)?)
        };
        let off = self.load_scalar(off_op, ScalarType::U32)?;
        let dw = self.dword(off);
        let mask = dst_mask(res_op);
        let vals = self.load_src(val_op, ScalarType::U32, mask)?;
        let t = self.untyped_target(inst, res_op, structured)?;
        for (k, l) in lanes(mask).enumerate() {
            let Some(v) = vals[l] else { continue };
            let _ = k;
            let addr = self.mem_address(s, dw, l as u32);
            self.mem_store(t, addr, v);
        }
        Ok(())
    }

    /// `imm_atomic_alloc` / `imm_atomic_consume`: UAV counter increment and decrement.
    /// D3D's consume returns the decremented value.
    fn counter(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let uav = self.operand(inst, 1)?;
        let c = self.counter_descriptor(uav)?;
        let (op, consume) = if inst.opcode == Opcode::ImmAtomicAlloc {
            (AtomicOp::Inc, false)
        } else {
            (AtomicOp::Dec, true)
        };
        let mut v = self.code(
            Op::new(OpCode::CounterAtomic, ScalarType::U32)
                .with_ref(c)
                .with_lit(op.to_literal()),
        );
        if consume {
            let one = self.c_u32(1);
            v = self.op2(OpCode::ISub, ScalarType::U32, v, one);
        }
        let mut out: Lanes = [None; 4];
        for l in lanes(dst_mask(dst)) {
            out[l] = Some(v);
        }
        self.store_dst(dst, &out, ScalarType::U32)
    }

    /// `bufinfo`: element count (structures for structured, bytes for raw buffers).
    fn bufinfo(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let res = self.operand(inst, 1)?;
        let Target::Buffer(d, b) = self.mem_target(res)? else {
            return Err(self.invalid("bufinfo on thread group shared memory"));
        };
        let mut v = self.op1(OpCode::BufferQuerySize, ScalarType::U32, d);
        if b.kind == ResourceKind::BufferRaw {
            let two = self.c_u32(2);
            v = self.op2(OpCode::IShl, ScalarType::U32, v, two);
        }
        let mut out: Lanes = [None; 4];
        for l in lanes(dst_mask(dst)) {
            out[l] = Some(v);
        }
        self.store_dst(dst, &out, ScalarType::U32)
    }

    /// Atomics on UAVs and thread group shared memory, with or without a returned value.
    fn atomic(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        let (op, imm) = match inst.opcode {
            O::AtomicAnd => (AtomicOp::And, false),
            O::AtomicOr => (AtomicOp::Or, false),
            O::AtomicXor => (AtomicOp::Xor, false),
            O::AtomicCmpStore => (AtomicOp::CompareExchange, false),
            O::AtomicIadd => (AtomicOp::Add, false),
            O::AtomicImax => (AtomicOp::SMax, false),
            O::AtomicImin => (AtomicOp::SMin, false),
            O::AtomicUmax => (AtomicOp::UMax, false),
            O::AtomicUmin => (AtomicOp::UMin, false),
            O::ImmAtomicIadd => (AtomicOp::Add, true),
            O::ImmAtomicAnd => (AtomicOp::And, true),
            O::ImmAtomicOr => (AtomicOp::Or, true),
            O::ImmAtomicXor => (AtomicOp::Xor, true),
            O::ImmAtomicExch => (AtomicOp::Exchange, true),
            O::ImmAtomicCmpExch => (AtomicOp::CompareExchange, true),
            O::ImmAtomicImax => (AtomicOp::SMax, true),
            O::ImmAtomicImin => (AtomicOp::SMin, true),
            O::ImmAtomicUmax => (AtomicOp::UMax, true),
            O::ImmAtomicUmin => (AtomicOp::UMin, true),
            other => return Err(self.invalid(format!("{} is not an atomic", other.mnemonic()))),
        };
        let first = if imm { 1 } else { 0 };
        let dst = if imm {
            Some(self.operand(inst, 0)?)
        } else {
            None
        };
        let res_op = self.operand(inst, first)?;
        let addr_op = self.operand(inst, first + 1)?;
        let t = self.mem_target(res_op)?;
        let vty = match t {
            Target::Buffer(_, b)
                if !matches!(
                    b.kind,
                    ResourceKind::BufferRaw | ResourceKind::BufferStructured
                ) =>
            {
                // Direct3D allows atomics only on R32_UINT / R32_SINT typed UAVs.
                if !matches!(b.ty, ScalarType::U32 | ScalarType::I32) {
                    return Err(self.invalid(format!(
                        "atomic on a typed UAV of {:?} elements (atomics need 32-bit integers)",
                        b.ty
                    )));
                }
                b.ty
            }
            _ => ScalarType::U32,
        };
        let value = if op == AtomicOp::CompareExchange {
            let c = self.load_scalar(self.operand(inst, first + 2)?, vty)?;
            let v = self.load_scalar(self.operand(inst, first + 3)?, vty)?;
            self.vector(vty, &[c, v])
        } else {
            self.load_scalar(self.operand(inst, first + 2)?, vty)?
        };
        let rty = match dst {
            Some(d) if d.ty != OperandType::Null => Type::scalar(vty),
            _ => Type::VOID,
        };
        let result = match t {
            Target::Lds(d, stride) => {
                let addr = self.atomic_mem_address(addr_op, stride > 0)?;
                self.code(
                    Op::new(OpCode::LdsAtomic, rty)
                        .with_ref(d)
                        .with_opt_ref(addr)
                        .with_ref(value)
                        .with_lit(op.to_literal()),
                )
            }
            Target::Buffer(d, b) => match b.kind {
                ResourceKind::BufferRaw | ResourceKind::BufferStructured => {
                    let addr =
                        self.atomic_mem_address(addr_op, b.kind == ResourceKind::BufferStructured)?;
                    self.code(
                        Op::new(OpCode::BufferAtomic, rty)
                            .with_ref(d)
                            .with_opt_ref(addr)
                            .with_ref(value)
                            .with_lit(op.to_literal()),
                    )
                }
                ResourceKind::BufferTyped => {
                    self.mark_fixed_format(&b);
                    let a = self.load_scalar(addr_op, ScalarType::U32)?;
                    self.code(
                        Op::new(OpCode::BufferAtomic, rty)
                            .with_ref(d)
                            .with_ref(a)
                            .with_ref(value)
                            .with_lit(op.to_literal()),
                    )
                }
                kind => {
                    self.mark_fixed_format(&b);
                    let (coord, layer) = self.image_coord(addr_op, kind, ScalarType::U32)?;
                    self.code(
                        Op::new(OpCode::ImageAtomic, rty)
                            .with_ref(d)
                            .with_opt_ref(layer)
                            .with_ref(coord)
                            .with_ref(value)
                            .with_lit(op.to_literal()),
                    )
                }
            },
        };
        if let Some(dst) = dst.filter(|d| d.ty != OperandType::Null) {
            let mut out: Lanes = [None; 4];
            for l in lanes(dst_mask(dst)) {
                out[l] = Some(result);
            }
            self.store_dst(dst, &out, vty)?;
        }
        Ok(())
    }

    /// Address of a raw (`x` = bytes) or structured (`x` = index, `y` = bytes) atomic.
    fn atomic_mem_address(&mut self, op: &Operand, structured: bool) -> R<Option<SsaDef>> {
        if structured {
            let l = self.load_src(op, ScalarType::U32, 3)?;
            let (Some(s), Some(b)) = (l[0], l[1]) else {
                return Err(self.invalid("missing address component"));
            };
            let dw = self.dword(b);
            Ok(self.address(&[Ix::D(s), Ix::D(dw)]))
        } else {
            let b = self.load_scalar(op, ScalarType::U32)?;
            Ok(Some(self.dword(b)))
        }
    }

    /// `sync`: execution and memory barriers.
    pub(crate) fn sync(&mut self, inst: &Instruction<'_>) -> R<()> {
        let s = inst.modifiers.sync;
        if self.stage != Stage::Compute && (s.threads_in_group || s.shared_memory || s.uav_group) {
            return Err(self.invalid(
                "`sync` with thread-group scope (_t, _g or _ugroup) is only allowed in Compute shaders",
            ));
        }
        let exec = if s.threads_in_group {
            Scope::Workgroup
        } else {
            Scope::Thread
        };
        let mut mask = MemoryTypeMask::empty();
        let mut mem = Scope::Thread;
        if s.shared_memory {
            mask |= MemoryTypeMask::Lds;
            mem = Scope::Workgroup;
        }
        if s.uav_group {
            mask |= MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage;
            mem = Scope::Workgroup;
        }
        if s.uav_global {
            mask |= MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage;
            mem = Scope::Global;
        }
        self.code(
            Op::new(OpCode::Barrier, Type::VOID)
                .with_lit(exec.to_literal())
                .with_lit(mem.to_literal())
                .with_lit(mask.to_literal()),
        );
        Ok(())
    }

    /// Opens the ROV critical section at the start of the entry function.
    pub(crate) fn rov_lock_begin(&mut self) {
        let scope = if self.sample_rate {
            dxspv_ir::RovScope::Sample
        } else {
            dxspv_ir::RovScope::Pixel
        };
        let mask = MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage;
        self.code(
            Op::new(OpCode::RovScopedLockBegin, Type::VOID)
                .with_lit(mask.to_literal())
                .with_lit(scope.to_literal()),
        );
    }

    /// Closes the ROV critical section before returning from the entry function.
    pub(crate) fn rov_lock_end(&mut self) {
        let mask = MemoryTypeMask::UavBuffer | MemoryTypeMask::UavImage;
        self.code(Op::new(OpCode::RovScopedLockEnd, Type::VOID).with_lit(mask.to_literal()));
    }
}
