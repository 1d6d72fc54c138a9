//! Memory: `alloca`, groupshared and static globals, constant globals (DXIL's immediate
//! constant buffers), `getelementptr`, `load`/`store` and the groupshared atomics.
//!
//! Local memory (`alloca` and non-constant globals of address space 0) becomes `DclScratch`,
//! groupshared memory (address space 3) `DclLds`, constant globals a `Constant` read by
//! value or with `ConstantLoad`. A pointer is a variable and the address built by
//! `getelementptr`s (one index per array level, a constant component for a vector); the
//! IR's loads and stores need an address, so a scalar variable is declared as an array of
//! one. Static globals with an initializer are initialized at the start of each entry
//! function.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{AtomicOp, MemoryTypeMask, Op, OpCode, ScalarType, Scope, SsaDef, Type};

use super::values::{MemBase, PtrInfo, Val};
use super::{limits, Converter, R};
use crate::module::{Instruction, Op as LlOp, RmwOp, Type as LlType, TypeId, ValueId};

/// A global variable as memory.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GlobalMem {
    /// The variable.
    pub base: MemBase,
    /// Its IR type.
    pub ty: Type,
    /// The LLVM type of the global's value.
    pub value_type: TypeId,
    /// Declared as an array of one around a scalar.
    pub wrapped: bool,
    /// The initializer of a static (non-constant) global.
    pub init: Option<ValueId>,
}

/// Memory state of the converter.
#[derive(Default)]
pub(crate) struct Memory {
    /// Each global of the module, if it is memory the converter declared.
    pub globals: Vec<Option<GlobalMem>>,
    /// Bytes of groupshared memory declared.
    pub groupshared_bytes: u64,
}

/// The IR type reached from `ty` by `n` array levels (vectors stay vectors).
fn type_at(ty: Type, n: usize) -> Option<Type> {
    let mut t = ty;
    for _ in 0..n {
        if t.is_array() {
            t = t.element_type();
        } else {
            let b = t.as_basic()?;
            if !b.is_vector() {
                return None;
            }
            t = Type::scalar(b.base());
        }
    }
    Some(t)
}

impl<'s> Converter<'s> {
    /// Declares the module's groupshared, static and constant globals.
    pub(crate) fn declare_globals(&mut self) -> R<()> {
        self.at.what = "global variables";
        let m = self.m;
        self.mem.globals = vec![None; m.globals.len()];
        for (gi, g) in m.globals.iter().enumerate() {
            let name = m.text(g.name);
            // The amplification shader's payload (the global `DispatchMesh` is given).
            if g.address_space == 3 && self.mesh.payload_global == Some(gi as u32) {
                let p = self.payload_pointer(g.value_type)?;
                self.mem.globals[gi] = Some(GlobalMem {
                    base: p.base,
                    ty: p.var_ty,
                    value_type: g.value_type,
                    wrapped: true,
                    init: None,
                });
                continue;
            }
            // Resource symbols (reflection only) and other types the IR cannot hold.
            let Ok(ty) = self.ir_type(g.value_type) else {
                continue;
            };
            let (wrapped, var_ty) = if ty.is_array() || ty.as_basic().is_some_and(|b| b.is_vector())
            {
                (false, ty)
            } else {
                (true, ty.array_of(1).map_err(|e| self.type_error(e))?)
            };
            let ep = self.ep;
            let entry = match (g.address_space, g.is_constant) {
                (3, _) => {
                    let bytes = self.type_bytes(g.value_type);
                    self.mem.groupshared_bytes = self.mem.groupshared_bytes.saturating_add(bytes);
                    if self.mem.groupshared_bytes > limits::MAX_GROUPSHARED_BYTES {
                        return Err(self
                            .limit("bytes of groupshared memory", limits::MAX_GROUPSHARED_BYTES));
                    }
                    if !matches!(
                        self.stage,
                        crate::dx::ShaderKind::Compute
                            | crate::dx::ShaderKind::Mesh
                            | crate::dx::ShaderKind::Amplification
                    ) {
                        return Err(self.invalid(format!(
                            "groupshared variable @{name} in a {} shader",
                            self.stage.name()
                        )));
                    }
                    let d = self.decl(Op::new(OpCode::DclLds, var_ty).with_ref(ep));
                    GlobalMem {
                        base: MemBase::Lds(d),
                        ty: var_ty,
                        value_type: g.value_type,
                        wrapped,
                        init: None,
                    }
                }
                (0, true) => {
                    let Some(init) = g.initializer else {
                        continue;
                    };
                    let c = match self.value(init)? {
                        Val::Def(d) => d,
                        _ => {
                            return Err(
                                self.invalid("constant global with a non-constant initializer")
                            )
                        }
                    };
                    GlobalMem {
                        base: MemBase::Constant(c),
                        ty,
                        value_type: g.value_type,
                        wrapped: false,
                        init: None,
                    }
                }
                (0, false) => {
                    let d = self.decl(Op::new(OpCode::DclScratch, var_ty).with_ref(ep));
                    GlobalMem {
                        base: MemBase::Scratch(d),
                        ty: var_ty,
                        value_type: g.value_type,
                        wrapped,
                        init: g.initializer,
                    }
                }
                _ => continue,
            };
            if let MemBase::Lds(d) | MemBase::Scratch(d) = entry.base {
                if !name.is_empty() {
                    let name = name.into_owned();
                    self.name(d, &name);
                }
            }
            self.mem.globals[gi] = Some(entry);
        }
        Ok(())
    }

    /// The size of an LLVM type in bytes, as DXIL lays out memory (for limits).
    fn type_bytes(&self, t: TypeId) -> u64 {
        match self.m.types.ty(t) {
            LlType::Array { len, element } => len.saturating_mul(self.type_bytes(element)),
            LlType::Vector { len, element } => {
                u64::from(len).saturating_mul(self.type_bytes(element))
            }
            LlType::Integer { width } => u64::from(width.div_ceil(8)),
            LlType::Half => 2,
            LlType::Double => 8,
            _ => 4,
        }
    }

    /// Stores the initializers of static globals (at the start of an entry function).
    pub(crate) fn function_prologue(&mut self, f: u32) -> R<()> {
        if !self.entry_fns.contains(&f) {
            return Ok(());
        }
        for gi in 0..self.mem.globals.len() {
            let Some(g) = self.mem.globals[gi] else {
                continue;
            };
            let (MemBase::Scratch(d), Some(init)) = (g.base, g.init) else {
                continue;
            };
            let value = match self.value(init)? {
                Val::Def(v) => v,
                _ => return Err(self.invalid("static global with a non-constant initializer")),
            };
            if g.wrapped {
                let zero = self.c_u32(0);
                self.code(
                    Op::new(OpCode::ScratchStore, Type::VOID)
                        .with_ref(d)
                        .with_ref(zero)
                        .with_ref(value),
                );
                continue;
            }
            // Element by element (the IR stores need an address).
            let n = g.ty.dims().last().copied().unwrap_or(1);
            let et = g.ty.element_type();
            for i in 0..n {
                let idx = self.c_u32(i);
                let v = self.op2(OpCode::CompositeExtract, et, value, idx);
                self.code(
                    Op::new(OpCode::ScratchStore, Type::VOID)
                        .with_ref(d)
                        .with_ref(idx)
                        .with_ref(v),
                );
            }
        }
        Ok(())
    }

    /// Appends a pointer to the function's pointers.
    pub(crate) fn push_ptr(&mut self, p: PtrInfo) -> u32 {
        self.f.ptrs.push(p);
        (self.f.ptrs.len() - 1) as u32
    }

    /// The pointer value `id` is.
    pub(crate) fn pointer(&mut self, id: ValueId) -> R<PtrInfo> {
        match self.value(id)? {
            Val::Ptr(i) => self
                .f
                .ptrs
                .get(i as usize)
                .copied()
                .ok_or_else(|| self.invalid("pointer out of range")),
            Val::Global(g) => {
                let Some(gm) = self.mem.globals.get(g as usize).copied().flatten() else {
                    let name = self
                        .m
                        .globals
                        .get(g as usize)
                        .map(|g| self.m.text(g.name).into_owned())
                        .unwrap_or_default();
                    return Err(self.invalid(format!(
                        "global @{name} is not memory the shader can access"
                    )));
                };
                let mut p = PtrInfo {
                    base: gm.base,
                    var_ty: gm.ty,
                    index: [None; 4],
                    len: 0,
                    pointee: gm.value_type,
                };
                if gm.wrapped {
                    p.index[0] = Some(self.c_u32(0));
                    p.len = 1;
                }
                Ok(p)
            }
            other => Err(self.invalid(format!(
                "%{} is {} where a pointer is needed",
                id.0,
                super::values::kind_name(&other)
            ))),
        }
    }

    /// Applies `getelementptr` indices to a pointer; `result` is the result pointer type.
    pub(crate) fn gep_indices(
        &mut self,
        mut p: PtrInfo,
        indices: impl Iterator<Item = ValueId>,
        result: TypeId,
    ) -> R<PtrInfo> {
        if matches!(p.base, MemBase::Payload(_)) {
            return self.payload_gep(p, indices, result);
        }
        let mut cur = p.pointee;
        for (k, i) in indices.enumerate() {
            let idx = self.index_u32(i)?;
            if k == 0 {
                // Pointer arithmetic on the base: only meaningful inside an array.
                if self.const_int(i) == Some(0) {
                    continue;
                }
                if p.len == 0 {
                    return Err(self.unsupported("pointer arithmetic past a variable"));
                }
                let last = (p.len - 1) as usize;
                let prev = p.index[last].ok_or_else(|| self.invalid("address index missing"))?;
                p.index[last] = Some(self.op2(OpCode::IAdd, ScalarType::U32, prev, idx));
                continue;
            }
            match self.m.types.ty(cur) {
                LlType::Array { element, .. } | LlType::Vector { element, .. } => {
                    if p.len as usize >= p.index.len() {
                        return Err(self.limit("array levels of an address", 4));
                    }
                    p.index[p.len as usize] = Some(idx);
                    p.len += 1;
                    cur = element;
                }
                LlType::Struct { .. } => return Err(self.unsupported("structs in memory")),
                _ => return Err(self.invalid("getelementptr indexes into a scalar")),
            }
        }
        p.pointee = self.m.types.pointer(result).map(|(t, _)| t).unwrap_or(cur);
        Ok(p)
    }

    /// An index value as `u32`.
    fn index_u32(&mut self, i: ValueId) -> R<SsaDef> {
        let d = self.def(i)?;
        Ok(match self.b.op(d).ty.base_type() {
            Some(ScalarType::U32) => d,
            Some(s) if s.is_int() => self.op1(OpCode::ConvertItoI, ScalarType::U32, d),
            _ => return Err(self.invalid("address index is not an integer")),
        })
    }

    /// The address of a pointer (`None` for the whole variable).
    fn ptr_address(&mut self, p: &PtrInfo) -> Option<SsaDef> {
        let mut defs = smallvec::SmallVec::<[SsaDef; 4]>::new();
        defs.extend(p.index.iter().take(p.len as usize).flatten().copied());
        self.address(&defs)
    }

    /// Memory instructions.
    pub(crate) fn memory(&mut self, index: u32, inst: &'s Instruction) -> R<()> {
        let _ = index;
        match inst.op {
            LlOp::Alloca {
                allocated_type,
                size,
                ..
            } => {
                if self.const_int(size) != Some(1) {
                    return Err(self.unsupported("alloca of a run-time or multiple count"));
                }
                let ty = self.ir_type(allocated_type)?;
                let (wrapped, var_ty) =
                    if ty.is_array() || ty.as_basic().is_some_and(|b| b.is_vector()) {
                        (false, ty)
                    } else {
                        (true, ty.array_of(1).map_err(|e| self.type_error(e))?)
                    };
                let ep = self.ep;
                let d = self.decl(Op::new(OpCode::DclScratch, var_ty).with_ref(ep));
                let mut p = PtrInfo {
                    base: MemBase::Scratch(d),
                    var_ty,
                    index: [None; 4],
                    len: 0,
                    pointee: allocated_type,
                };
                if wrapped {
                    p.index[0] = Some(self.c_u32(0));
                    p.len = 1;
                }
                let id = self.push_ptr(p);
                self.set(inst.result(), Val::Ptr(id))
            }
            LlOp::GetElementPtr { operands, .. } => {
                let body = self.body()?;
                let mut ops = body.value_operands(operands);
                let base = ops
                    .next()
                    .ok_or_else(|| self.invalid("getelementptr without a base"))?;
                let p = self.pointer(base)?;
                let p = self.gep_indices(p, ops, inst.ty)?;
                let id = self.push_ptr(p);
                self.set(inst.result(), Val::Ptr(id))
            }
            LlOp::Load { pointer, .. } => {
                let p = self.pointer(pointer)?;
                let v = self.load(&p, inst.ty)?;
                self.set(inst.result(), Val::Def(v))
            }
            LlOp::Store { pointer, value, .. } => {
                let p = self.pointer(pointer)?;
                let v = self.def(value)?;
                self.store(&p, v)
            }
            LlOp::AtomicRmw {
                op, pointer, value, ..
            } => {
                let aop = match op {
                    RmwOp::Xchg => AtomicOp::Exchange,
                    RmwOp::Add => AtomicOp::Add,
                    RmwOp::Sub => AtomicOp::Sub,
                    RmwOp::And => AtomicOp::And,
                    RmwOp::Or => AtomicOp::Or,
                    RmwOp::Xor => AtomicOp::Xor,
                    RmwOp::Max => AtomicOp::SMax,
                    RmwOp::Min => AtomicOp::SMin,
                    RmwOp::UMax => AtomicOp::UMax,
                    RmwOp::UMin => AtomicOp::UMin,
                    RmwOp::Nand => return Err(self.unsupported("atomicrmw nand")),
                };
                let p = self.pointer(pointer)?;
                let v = self.def(value)?;
                let r = self.lds_atomic(&p, v, aop, inst.ty)?;
                self.set(inst.result(), Val::Def(r))
            }
            LlOp::CmpXchg {
                pointer,
                compare,
                new,
                ..
            } => {
                let p = self.pointer(pointer)?;
                let c = self.def(compare)?;
                let n = self.def(new)?;
                let ty = self.b.op(c).ty;
                let s = ty.base_type().unwrap_or(ScalarType::U32);
                let pair = self.vector(s, &[c, n]);
                let old = self.lds_atomic_typed(&p, pair, AtomicOp::CompareExchange, s)?;
                let ok = self.op2(OpCode::IEq, ScalarType::Bool, old, c);
                let v = self.parts(&[old, ok]);
                self.set(inst.result(), v)
            }
            LlOp::Fence { .. } => {
                self.code(
                    Op::new(OpCode::Barrier, Type::VOID)
                        .with_lit(Scope::Thread.to_literal())
                        .with_lit(Scope::Workgroup.to_literal())
                        .with_lit(
                            (MemoryTypeMask::Lds
                                | MemoryTypeMask::UavBuffer
                                | MemoryTypeMask::UavImage)
                                .to_literal(),
                        ),
                );
                Ok(())
            }
            _ => Err(self.invalid("not a memory instruction")),
        }
    }

    /// The IR type at a pointer, and the scalar type a value of LLVM type `t` needs there.
    fn access_types(&self, p: &PtrInfo) -> R<Type> {
        type_at(p.var_ty, p.len as usize)
            .ok_or_else(|| self.invalid("address deeper than the variable"))
    }

    /// `load` through a pointer.
    pub(crate) fn load(&mut self, p: &PtrInfo, t: TypeId) -> R<SsaDef> {
        if matches!(p.base, MemBase::Payload(_)) {
            return self.payload_load(p, t);
        }
        let want = self.ir_type(t)?;
        if !want.is_basic() {
            return Err(self.unsupported("loads of whole arrays"));
        }
        let at = self.access_types(p)?;
        let load_ty = self.memory_view(at, want)?;
        let addr = self.ptr_address(p);
        let v = match p.base {
            MemBase::Scratch(d) | MemBase::Lds(d) | MemBase::Payload(d) => {
                let opc = if !matches!(p.base, MemBase::Scratch(_)) {
                    OpCode::LdsLoad
                } else {
                    OpCode::ScratchLoad
                };
                let Some(addr) = addr else {
                    return Err(self.invalid("load of a whole variable"));
                };
                self.code(Op::new(opc, load_ty).with_ref(d).with_ref(addr))
            }
            MemBase::Constant(c) => match addr {
                None => c,
                Some(a) => {
                    if let Some(v) = self.constant_at(c, p, load_ty) {
                        v
                    } else {
                        self.op2(OpCode::ConstantLoad, load_ty, c, a)
                    }
                }
            },
        };
        Ok(if load_ty == want {
            v
        } else {
            self.op1(OpCode::Cast, want, v)
        })
    }

    /// A constant element read with constant indices, folded.
    fn constant_at(&mut self, c: SsaDef, p: &PtrInfo, ty: Type) -> Option<SsaDef> {
        let s = ty.as_basic().filter(|b| !b.is_vector())?.base();
        let op = self.b.op(c);
        let cty = op.ty;
        // Flattened index of the element.
        let mut flat = 0u64;
        let mut t = cty;
        for i in 0..p.len as usize {
            let idx = self.b.get(p.index[i]?)?;
            if idx.opcode != OpCode::Constant {
                return None;
            }
            let k = idx.lit(0)?;
            let count = t.flattened_scalar_count()?;
            if t.is_array() {
                let n = u64::from(*t.dims().last()?);
                if k >= n {
                    return None;
                }
                let per = count / n.max(1);
                flat += k * per;
                t = t.element_type();
            } else {
                flat += k;
                t = Type::scalar(s);
            }
        }
        let bits = op.lit(flat as usize)?;
        Some(self.scalar_const(s, bits))
    }

    /// The type to access memory of IR type `at` with for a value of type `want`: `want`
    /// itself when the scalars agree, else `at`'s scalar at `want`'s width (a cast follows).
    fn memory_view(&self, at: Type, want: Type) -> R<Type> {
        let (Some(a), Some(w)) = (at.as_basic(), want.as_basic()) else {
            return Err(self.unsupported("aggregate memory access"));
        };
        if a.base() == w.base() {
            return Ok(want);
        }
        if a.base().bit_size() != w.base().bit_size() || a.base() == ScalarType::Bool {
            return Err(self.unsupported("memory access reinterpreting a different width"));
        }
        Ok(Type::basic(w.with_base(a.base())))
    }

    /// `store` through a pointer.
    pub(crate) fn store(&mut self, p: &PtrInfo, v: SsaDef) -> R<()> {
        if matches!(p.base, MemBase::Payload(_)) {
            return self.payload_store(p, v);
        }
        let vt = self.b.op(v).ty;
        let at = self.access_types(p)?;
        let view = self.memory_view(at, vt)?;
        let v = if view == vt {
            v
        } else {
            self.op1(OpCode::Cast, view, v)
        };
        let Some(addr) = self.ptr_address(p) else {
            return Err(self.invalid("store to a whole variable"));
        };
        let (opc, d) = match p.base {
            MemBase::Scratch(d) => (OpCode::ScratchStore, d),
            MemBase::Lds(d) | MemBase::Payload(d) => (OpCode::LdsStore, d),
            MemBase::Constant(_) => return Err(self.invalid("store to constant memory")),
        };
        self.code(
            Op::new(opc, Type::VOID)
                .with_ref(d)
                .with_ref(addr)
                .with_ref(v),
        );
        Ok(())
    }

    /// An atomic on groupshared memory returning a value of LLVM type `t`.
    fn lds_atomic(&mut self, p: &PtrInfo, v: SsaDef, op: AtomicOp, t: TypeId) -> R<SsaDef> {
        let s = self.scalar_of(t)?;
        self.lds_atomic_typed(p, v, op, s)
    }

    fn lds_atomic_typed(
        &mut self,
        p: &PtrInfo,
        v: SsaDef,
        op: AtomicOp,
        s: ScalarType,
    ) -> R<SsaDef> {
        let (MemBase::Lds(d) | MemBase::Payload(d)) = p.base else {
            return Err(self.unsupported("atomics outside groupshared memory"));
        };
        if !matches!(s, ScalarType::U32 | ScalarType::U64) {
            return Err(self.unsupported("atomics on types other than 32- and 64-bit integers"));
        }
        let at = self.access_types(p)?;
        if at.base_type() != Some(s) {
            return Err(self.unsupported("atomics reinterpreting memory"));
        }
        let addr = self.ptr_address(p);
        Ok(self.code(
            Op::new(OpCode::LdsAtomic, s)
                .with_ref(d)
                .with_opt_ref(addr)
                .with_ref(v)
                .with_lit(op.to_literal()),
        ))
    }
}
