//! What an LLVM value is once converted, and the constants of the module.
//!
//! DXIL values are SSA already, so each becomes one IR def ([`Val::Def`]) — except the few
//! kinds the IR has no value for: resource handles (a loaded descriptor and what it
//! describes), pointers into local, groupshared or constant memory (a variable and an
//! address), and the structs DXIL operations return (`%dx.types.ResRet.f32` and kin), which
//! the converter keeps as the IR value the operation produced and reads lazily at each
//! `extractvalue`. Each function keeps its values in one flat vector indexed by the local
//! value number, reused from function to function.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, ScalarType, SsaDef, Type};

use super::{Converter, R};
use crate::module::{ConstExpr, Constant, Type as LlType, TypeId, ValueId, ValueKind};

/// How to read member `k` of a struct a DXIL operation returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AggKind {
    /// The def is a vector of `n` components (a scalar for `n == 1`): member `k < n` is its
    /// component `k`; member 4 is `feedback`, the sparse feedback value (`u32`), if any.
    Texel {
        /// Components in the def.
        n: u8,
        /// The feedback value (member 4).
        feedback: Option<SsaDef>,
    },
    /// The def is a `vec4<u32>` of one constant buffer row read as 64-bit elements: member
    /// `k` is words `2k` and `2k + 1` cast to `elem`.
    Wide64 {
        /// The element type (`u64` or `f64`).
        elem: ScalarType,
    },
    /// The def is a `vec4<u32>` of one constant buffer row read as 16-bit elements: member
    /// `k` is half `k % 2` of word `k / 2`, as `elem`.
    Narrow16 {
        /// The element type (`u16`, `f16` or a min-precision type).
        elem: ScalarType,
    },
}

/// A pointer's memory: a variable of the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemBase {
    /// Function-local memory (`alloca`, static globals): a `DclScratch`.
    Scratch(SsaDef),
    /// Groupshared memory: a `DclLds`.
    Lds(SsaDef),
    /// A constant global (an immediate constant buffer): its `Constant`.
    Constant(SsaDef),
    /// The mesh payload (a `DclMeshPayload` of 32-bit words): the address is one word
    /// offset (see `mesh.rs`).
    Payload(SsaDef),
}

/// A pointer: a variable, the IR type of the variable, and the address into it built so far
/// (one index per array level reached; none for the whole variable).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PtrInfo {
    /// The variable.
    pub base: MemBase,
    /// The variable's IR type.
    pub var_ty: Type,
    /// Address indices (`u32` defs), outermost first.
    pub index: [Option<SsaDef>; 4],
    /// How many indices are set.
    pub len: u8,
    /// The LLVM type the pointer points to (a `bitcast` may change it).
    pub pointee: TypeId,
}

/// What an LLVM value became.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Val {
    /// Not converted yet (a value defined later, or a constant not needed so far).
    Pending,
    /// An IR value.
    Def(SsaDef),
    /// A struct returned by a DXIL operation, read by `extractvalue`.
    Agg(SsaDef, AggKind),
    /// A struct whose members are defs `parts[start..start + len]` of the function.
    Parts(u32, u8),
    /// A resource handle: index into the function's handles.
    Handle(u32),
    /// A handle from the descriptor heap (`CreateHandleFromHeap`) before
    /// `AnnotateHandle` says what it is: index into the function's heap handles.
    HeapHandle(u32),
    /// A pointer: index into the function's pointers.
    Ptr(u32),
    /// A global variable of the module (a pointer to it): its index.
    Global(u32),
    /// A function of the module: its index.
    Function(u32),
}

/// A resource handle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Handle {
    /// The loaded descriptor.
    pub desc: SsaDef,
    /// The declaration (index into the converter's resource table).
    pub res: u32,
    /// The index into the descriptor array (for the UAV counter).
    pub index: SsaDef,
    /// The index may differ between invocations.
    pub non_uniform: bool,
    /// Structure stride of a structured buffer declared as raw (0 otherwise).
    pub stride: u32,
}

/// A descriptor heap handle before its annotation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeapHandle {
    /// The heap index.
    pub index: SsaDef,
    /// From the sampler heap.
    pub sampler: bool,
    /// The index may differ between invocations.
    pub non_uniform: bool,
}

/// Converts IEEE half bits to the bits of the equal `f32` (exact).
pub(crate) fn f16_bits_to_f32(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    match exp {
        0 if man == 0 => sign,
        0 => {
            // Subnormal: normalize.
            let shift = man.leading_zeros() - 21;
            let man = (man << shift) & 0x3ff;
            let exp = 127 - 15 + 1 - shift;
            sign | (exp << 23) | (man << 13)
        }
        0x1f => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    }
}

impl<'s> Converter<'s> {
    /// The IR scalar type of an LLVM scalar type.
    pub(crate) fn scalar_of(&self, t: TypeId) -> R<ScalarType> {
        Ok(match self.m.types.ty(t) {
            LlType::Integer { width: 1 } => ScalarType::Bool,
            LlType::Integer { width: 8 } => ScalarType::U8,
            LlType::Integer { width: 16 } if self.native16 => ScalarType::U16,
            LlType::Integer { width: 16 } => ScalarType::MinU16,
            LlType::Integer { width: 32 } => ScalarType::U32,
            LlType::Integer { width: 64 } => ScalarType::U64,
            LlType::Half if self.native16 => ScalarType::F16,
            LlType::Half => ScalarType::MinF16,
            LlType::Float => ScalarType::F32,
            LlType::Double => ScalarType::F64,
            other => {
                return Err(self.invalid(format!(
                    "type {} where a number or bool is needed",
                    type_name(&other)
                )))
            }
        })
    }

    /// The IR type of an LLVM first-class type: scalars, vectors of up to four, arrays of
    /// those up to three levels deep.
    pub(crate) fn ir_type(&self, t: TypeId) -> R<Type> {
        match self.m.types.ty(t) {
            LlType::Vector { len, element } => {
                if !(1..=4).contains(&len) {
                    return Err(self.unsupported("vectors of more than four elements"));
                }
                Ok(Type::vector(self.scalar_of(element)?, len as u8))
            }
            LlType::Array { len, element } => {
                let inner = self.ir_type(element)?;
                let len = u32::try_from(len)
                    .ok()
                    .filter(|&l| l > 0)
                    .ok_or_else(|| self.invalid(format!("array of {len} elements")))?;
                inner
                    .array_of(len)
                    .map_err(|e| self.invalid(format!("array type: {e}")))
            }
            LlType::Struct { .. } => Err(self.unsupported("structs in memory or values")),
            _ => Ok(Type::scalar(self.scalar_of(t)?)),
        }
    }

    /// The converted value `id`: constants are made on first use; anything else must be
    /// converted already (dominance puts definitions first in reverse post-order).
    #[inline]
    pub(crate) fn value(&mut self, id: ValueId) -> R<Val> {
        // The common cases (a value converted already) stay small enough to inline; the
        // first use of a constant takes the out-of-line paths.
        let module_len = self.m.values.len();
        if id.index() < module_len {
            if let Some(Some(v)) = self.module_vals.get(id.index()) {
                return Ok(*v);
            }
            return self.module_value(id);
        }
        let local = id.index() - module_len;
        match self.f.vals.get(local) {
            Some(Val::Pending) => self.local_constant(id, local),
            Some(&v) => Ok(v),
            None => Err(self.invalid(format!("value %{} does not exist", id.0))),
        }
    }

    /// The first use of function-local value `id` (index `local` in the function's
    /// table): a constant is made and kept; anything else is used before its definition.
    #[inline(never)]
    fn local_constant(&mut self, id: ValueId, local: usize) -> R<Val> {
        let body = self.body()?;
        let info = body
            .value(id)
            .copied()
            .ok_or_else(|| self.invalid(format!("value %{} does not exist", id.0)))?;
        match info.kind {
            ValueKind::Constant(c) => {
                let c =
                    body.constants.get(c).copied().ok_or_else(|| {
                        self.invalid(format!("constant %{} does not exist", id.0))
                    })?;
                let v = self.constant_val(&c, info.ty, Some(body))?;
                if let Some(slot) = self.f.vals.get_mut(local) {
                    *slot = v;
                }
                Ok(v)
            }
            _ => Err(self.invalid(format!(
                "value %{} is used before it is defined (or in an unreachable block)",
                id.0
            ))),
        }
    }

    /// A module-level value: a global, a function, or a module constant.
    #[inline(never)]
    fn module_value(&mut self, id: ValueId) -> R<Val> {
        if let Some(Some(v)) = self.module_vals.get(id.index()) {
            return Ok(*v);
        }
        let info = self.m.values[id.index()];
        let v = match info.kind {
            ValueKind::GlobalVariable(g) => Val::Global(g),
            ValueKind::Function(f) => Val::Function(f),
            ValueKind::Alias(_) => return Err(self.unsupported("aliases")),
            ValueKind::Constant(c) => {
                let c =
                    self.m.constants.get(c).copied().ok_or_else(|| {
                        self.invalid(format!("constant %{} does not exist", id.0))
                    })?;
                self.constant_val(&c, info.ty, None)?
            }
            ValueKind::Argument(_) | ValueKind::Instruction(_) => {
                return Err(self.invalid(format!("value %{} is not module-level", id.0)))
            }
        };
        // Only what every function may share is kept: a pointer lives in one function's
        // pointer table and a constant expression may have made ops in its code.
        let shared = match v {
            Val::Global(_) | Val::Function(_) => true,
            Val::Def(d) => matches!(self.b.op(d).opcode, OpCode::Constant | OpCode::Undef),
            _ => false,
        };
        if !shared {
            return Ok(v);
        }
        if self.module_vals.len() < self.m.values.len() {
            self.module_vals.resize(self.m.values.len(), None);
        }
        self.module_vals[id.index()] = Some(v);
        Ok(v)
    }

    /// `id` as an IR value (not a handle, pointer or struct).
    pub(crate) fn def(&mut self, id: ValueId) -> R<SsaDef> {
        match self.value(id)? {
            Val::Def(d) => Ok(d),
            other => Err(self.invalid(format!(
                "%{} is {} where a number is needed",
                id.0,
                kind_name(&other)
            ))),
        }
    }

    /// `id` as an IR value, `None` if it is `undef`.
    pub(crate) fn def_or_undef(&mut self, id: ValueId) -> R<Option<SsaDef>> {
        if self.is_undef(id) {
            return Ok(None);
        }
        self.def(id).map(Some)
    }

    /// Whether `id` is the constant `undef`.
    pub(crate) fn is_undef(&self, id: ValueId) -> bool {
        matches!(
            self.m.constant(self.f.body.map(|i| self.body_of(i)), id),
            Some(Constant::Undef)
        )
    }

    /// The integer value of constant `id`, if it is one.
    pub(crate) fn const_int(&self, id: ValueId) -> Option<i64> {
        self.m
            .constant_int(self.f.body.map(|i| self.body_of(i)), id)
    }

    /// The LLVM type of value `id`.
    pub(crate) fn type_of(&self, id: ValueId) -> R<TypeId> {
        self.m
            .value_info(self.f.body.map(|i| self.body_of(i)), id)
            .map(|v| v.ty)
            .ok_or_else(|| self.invalid(format!("value %{} does not exist", id.0)))
    }

    /// A scalar constant of IR type `ty` holding `bits` (as the IR stores it).
    pub(crate) fn scalar_const(&mut self, ty: ScalarType, bits: u64) -> SsaDef {
        self.constant(ty, bits)
    }

    /// The literal the IR stores for a scalar constant of LLVM type `t` and IR type `ty`.
    fn literal(&self, c: &Constant, t: TypeId, ty: ScalarType) -> R<u64> {
        let bits = match c {
            Constant::Null => 0,
            Constant::Integer(v) => *v as u64,
            Constant::Float(b) => *b,
            Constant::Undef => 0,
            _ => return Err(self.unsupported("this kind of constant as a number")),
        };
        Ok(match (self.m.types.ty(t), ty) {
            (_, ScalarType::Bool) => u64::from(bits & 1 != 0),
            (LlType::Half, ScalarType::MinF16) => u64::from(f16_bits_to_f32(bits as u16)),
            (LlType::Half, _) => bits & 0xffff,
            (LlType::Float, _) => bits & 0xffff_ffff,
            (LlType::Integer { width }, _) if width < 64 => {
                let w = if ty == ScalarType::MinU16 { 32 } else { width };
                let v = if ty == ScalarType::MinU16 {
                    bits & 0xffff
                } else {
                    bits
                };
                v & ((1u64 << w) - 1)
            }
            _ => bits,
        })
    }

    /// Converts a constant of LLVM type `t`.
    pub(crate) fn constant_val(
        &mut self,
        c: &Constant,
        t: TypeId,
        body: Option<&'s crate::module::FunctionBody>,
    ) -> R<Val> {
        match c {
            Constant::Expression(e) => return self.constant_expression(e, t, body),
            Constant::Undef => {
                let ty = self.ir_type(t)?;
                return Ok(Val::Def(self.undef(ty)));
            }
            _ => {}
        }
        let ty = self.ir_type(t)?;
        if let Some(b) = ty.as_basic() {
            if !b.is_vector() {
                let bits = self.literal(c, t, b.base())?;
                return Ok(Val::Def(self.scalar_const(b.base(), bits)));
            }
        }
        let mut lits = std::mem::take(&mut self.lit_buf);
        lits.clear();
        let r = self.flatten_constant(c, t, body, &mut lits, 0);
        let out = r.map(|()| Val::Def(self.b.add_constant(ty, &lits)));
        self.lit_buf = lits;
        out
    }

    /// Appends the flattened literals of constant `c` of LLVM type `t` to `out`.
    fn flatten_constant(
        &self,
        c: &Constant,
        t: TypeId,
        body: Option<&'s crate::module::FunctionBody>,
        out: &mut Vec<u64>,
        depth: u32,
    ) -> R<()> {
        if depth > 8 {
            return Err(self.unsupported("constants nested deeper than eight levels"));
        }
        let (len, element) = match self.m.types.ty(t) {
            LlType::Vector { len, element } => (u64::from(len), element),
            LlType::Array { len, element } => (len, element),
            _ => {
                let s = self.scalar_of(t)?;
                out.push(self.literal(c, t, s)?);
                return Ok(());
            }
        };
        if out.len() as u64 + len > super::limits::MAX_CONSTANT_SCALARS {
            return Err(self.limit(
                "scalars in one constant",
                super::limits::MAX_CONSTANT_SCALARS,
            ));
        }
        let consts = match body {
            Some(b) => &b.constants,
            None => &self.m.constants,
        };
        match c {
            Constant::Null | Constant::Undef => {
                for _ in 0..len {
                    self.flatten_constant(&Constant::Null, element, body, out, depth + 1)?;
                }
            }
            Constant::Data(words) => {
                let s = self.scalar_of(element)?;
                for &w in consts.words(*words) {
                    let lit = self.literal(&Constant::Integer(w as i64), element, s);
                    let lit = match self.m.types.ty(element) {
                        LlType::Half | LlType::Float | LlType::Double => {
                            self.literal(&Constant::Float(w), element, s)
                        }
                        _ => lit,
                    }?;
                    out.push(lit);
                }
            }
            Constant::Aggregate(ops) => {
                for &e in consts.operands(*ops) {
                    let ec = self
                        .m
                        .constant(body, e)
                        .copied()
                        .ok_or_else(|| self.unsupported("non-constant aggregate elements"))?;
                    self.flatten_constant(&ec, element, body, out, depth + 1)?;
                }
            }
            _ => return Err(self.unsupported("this kind of aggregate constant")),
        }
        Ok(())
    }

    /// A constant expression: a `getelementptr` into a global (a pointer), or a cast.
    fn constant_expression(
        &mut self,
        e: &ConstExpr,
        t: TypeId,
        body: Option<&'s crate::module::FunctionBody>,
    ) -> R<Val> {
        match *e {
            ConstExpr::GetElementPtr { operands, .. } => {
                let consts = match body {
                    Some(b) => &b.constants,
                    None => &self.m.constants,
                };
                let ops = consts.operands(operands);
                let Some((&base, indices)) = ops.split_first() else {
                    return Err(self.invalid("getelementptr without a base"));
                };
                let p = self.pointer(base)?;
                let p = self.gep_indices(p, indices.iter().copied(), t)?;
                Ok(Val::Ptr(self.push_ptr(p)))
            }
            ConstExpr::Cast {
                op: crate::module::CastOp::BitCast,
                value,
            } => {
                let p = self.pointer(value)?;
                let pointee =
                    self.m.types.pointer(t).map(|(p, _)| p).ok_or_else(|| {
                        self.unsupported("bitcast constant expressions of numbers")
                    })?;
                Ok(Val::Ptr(self.push_ptr(PtrInfo { pointee, ..p })))
            }
            _ => Err(self.unsupported("constant expressions other than getelementptr")),
        }
    }

    /// An `Undef` of type `ty`, made once per type.
    pub(crate) fn undef(&mut self, ty: Type) -> SsaDef {
        if let Some(&d) = self.undefs.get(&ty) {
            return d;
        }
        let d = self.decl(Op::new(OpCode::Undef, ty));
        self.undefs.insert(ty, d);
        d
    }

    /// Member `k` of struct value `v`, of LLVM type `t`.
    pub(crate) fn member(&mut self, v: Val, k: u32, t: TypeId) -> R<SsaDef> {
        match v {
            Val::Agg(base, AggKind::Texel { n, feedback }) => {
                if k == 4 {
                    return feedback
                        .ok_or_else(|| self.invalid("status read from an operation without one"));
                }
                if k >= u32::from(n) {
                    return Err(self.invalid(format!(
                        "member {k} of a result with {n} components is undefined"
                    )));
                }
                if n == 1 {
                    return Ok(base);
                }
                let s = self.scalar_of(t)?;
                Ok(self.extract(s, base, k))
            }
            Val::Agg(base, AggKind::Wide64 { elem }) => {
                if k > 1 {
                    return Err(self.invalid(format!("member {k} of a two-element row")));
                }
                let lo = self.extract(ScalarType::U32, base, 2 * k);
                let hi = self.extract(ScalarType::U32, base, 2 * k + 1);
                let pair = self.vector(ScalarType::U32, &[lo, hi]);
                Ok(self.op1(OpCode::Cast, elem, pair))
            }
            Val::Agg(base, AggKind::Narrow16 { elem }) => {
                if k > 7 {
                    return Err(self.invalid(format!("member {k} of an eight-element row")));
                }
                let word = self.extract(ScalarType::U32, base, k / 2);
                let half = if k % 2 == 1 {
                    let s = self.c_u32(16);
                    self.op2(OpCode::UShr, ScalarType::U32, word, s)
                } else {
                    word
                };
                Ok(self.narrow_word(half, elem))
            }
            Val::Parts(start, len) => {
                if k >= u32::from(len) {
                    return Err(self.invalid(format!("member {k} of a {len}-member result")));
                }
                self.f
                    .parts
                    .get((start + k) as usize)
                    .copied()
                    .ok_or_else(|| self.invalid("result member missing"))
            }
            Val::Def(d) => {
                let ty = self.b.op(d).ty;
                if ty.is_basic() && !ty.as_basic().is_some_and(|b| b.is_vector()) {
                    return Err(self.invalid("extractvalue from a number"));
                }
                let rt = self.ir_type(t)?;
                Ok(self.extract(rt, d, k))
            }
            other => Err(self.invalid(format!(
                "extractvalue from {} (a struct is needed)",
                kind_name(&other)
            ))),
        }
    }

    /// The low 16 bits of `word` (`u32`) as a 16-bit or min-precision scalar.
    pub(crate) fn narrow_word(&mut self, word: SsaDef, elem: ScalarType) -> SsaDef {
        match elem {
            ScalarType::U16 => self.op1(OpCode::ConvertItoI, ScalarType::U16, word),
            ScalarType::I16 => {
                let u = self.op1(OpCode::ConvertItoI, ScalarType::U16, word);
                self.op1(OpCode::Cast, ScalarType::I16, u)
            }
            ScalarType::F16 => {
                let u = self.op1(OpCode::ConvertItoI, ScalarType::U16, word);
                self.op1(OpCode::Cast, ScalarType::F16, u)
            }
            ScalarType::MinF16 | ScalarType::MinF10 => {
                let f = self.op1(
                    OpCode::ConvertPackedF16toF32,
                    Type::vector(ScalarType::F32, 2),
                    word,
                );
                let x = self.extract(ScalarType::F32, f, 0);
                self.op1(OpCode::ConvertFtoF, elem, x)
            }
            _ => {
                let mask = self.c_u32(0xffff);
                let m = self.op2(OpCode::IAnd, ScalarType::U32, word, mask);
                self.op1(OpCode::ConvertItoI, elem, m)
            }
        }
    }

    /// Appends defs to the function's part list: a [`Val::Parts`].
    pub(crate) fn parts(&mut self, defs: &[SsaDef]) -> Val {
        let start = self.f.parts.len() as u32;
        self.f.parts.extend_from_slice(defs);
        Val::Parts(start, defs.len() as u8)
    }

    /// Records the result of the current instruction.
    pub(crate) fn set(&mut self, id: Option<ValueId>, v: Val) -> R<()> {
        let Some(id) = id else { return Ok(()) };
        let local = id
            .index()
            .checked_sub(self.m.values.len())
            .ok_or_else(|| self.invalid("result is a module value"))?;
        match self.f.vals.get_mut(local) {
            Some(slot) => {
                *slot = v;
                Ok(())
            }
            None => Err(self.invalid("result id out of range")),
        }
    }
}

/// A short name of what a [`Val`] is, for messages.
pub(crate) fn kind_name(v: &Val) -> &'static str {
    match v {
        Val::Pending => "an undefined value",
        Val::Def(_) => "a number",
        Val::Agg(..) | Val::Parts(..) => "a struct",
        Val::Handle(_) | Val::HeapHandle(_) => "a resource handle",
        Val::Ptr(_) | Val::Global(_) => "a pointer",
        Val::Function(_) => "a function",
    }
}

/// The LLVM name of a type, for messages.
pub(crate) fn type_name(t: &LlType) -> &'static str {
    match t {
        LlType::Void => "void",
        LlType::Half => "half",
        LlType::Float => "float",
        LlType::Double => "double",
        LlType::Integer { .. } => "an integer of unusual width",
        LlType::Pointer { .. } => "a pointer",
        LlType::Array { .. } => "an array",
        LlType::Vector { .. } => "a vector",
        LlType::Struct { .. } => "a struct",
        LlType::Function { .. } => "a function",
        LlType::Label => "label",
        LlType::Metadata => "metadata",
        _ => "an exotic type",
    }
}

#[cfg(test)]
mod tests {
    use super::f16_bits_to_f32;

    #[test]
    fn half_bits_convert_exactly() {
        assert_eq!(f32::from_bits(f16_bits_to_f32(0x3c00)), 1.0);
        assert_eq!(f32::from_bits(f16_bits_to_f32(0xc000)), -2.0);
        assert_eq!(f32::from_bits(f16_bits_to_f32(0x7bff)), 65504.0);
        // The smallest subnormal half, 2^-24.
        assert_eq!(f32::from_bits(f16_bits_to_f32(0x0001)), 2f32.powi(-24));
        assert_eq!(
            f32::from_bits(f16_bits_to_f32(0x03ff)),
            1023.0 * 2f32.powi(-24)
        );
        assert!(f32::from_bits(f16_bits_to_f32(0x7e00)).is_nan());
        assert_eq!(f32::from_bits(f16_bits_to_f32(0xfc00)), f32::NEG_INFINITY);
        assert_eq!(f16_bits_to_f32(0x8000), 0x8000_0000);
    }
}
