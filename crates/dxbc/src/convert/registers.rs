//! Registers and operands: temporaries (`r#`), indexable temporaries (`x#[]`), immediates,
//! relative indices, source swizzles and modifiers, destination masks and saturation.
//!
//! Every load returns one scalar per component, typed as the instruction consumes it; every
//! store takes one scalar per written component. Register files with their own concerns
//! (I/O, constant buffers) are handled by [`super::io`] and [`super::resources`].

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, ScalarType, SsaDef, Type};

use super::{lanes, Converter, NamePart, R};
use crate::enums::{MinPrecision, OperandModifier};
use crate::operand::{Components, Index, Operand, OperandType, RelativeRegister};

/// One value per component (x, y, z, w); `None` where not loaded or not written.
pub(crate) type Lanes = [Option<SsaDef>; 4];

/// Most temporary registers a shader may declare.
use super::limits::{MAX_INDEXABLE_TEMP_ELEMENTS, MAX_TEMPS};

/// One `r#` component.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TempSlot {
    /// Its `DclTmp` (or `DclScratch`), made on first use.
    decl: Option<SsaDef>,
    /// The value it was last given in the current stretch of straight-line code, not yet
    /// written as a `TmpStore`: loads there take the value itself, and the stores are written
    /// only where control flow begins or ends (see [`Converter::flush_temps`]). Unused while
    /// the registers are shared by subroutines.
    value: Option<SsaDef>,
}

/// One part of an address: a constant or a dynamic `u32` value.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ix {
    /// A constant index.
    C(u32),
    /// A dynamic index (a `u32` value).
    D(SsaDef),
}

/// Entries of an [`AddressCache`] (a power of two).
const ADDRESS_SLOTS: usize = 32;

/// The constant `vecN<u32>` addresses made so far (`cb0[3].y` is `(3, 1)`), direct-mapped: the
/// builder would return the same constant, after hashing its whole type and literals. A slot
/// holds one address; a collision evicts, never returns a wrong def. Constants are never
/// removed during conversion, so a remembered def stays the builder's constant.
#[derive(Clone, Debug)]
pub(crate) struct AddressCache {
    slots: [Option<([u32; 4], u8, SsaDef)>; ADDRESS_SLOTS],
}

impl Default for AddressCache {
    fn default() -> Self {
        AddressCache {
            slots: [None; ADDRESS_SLOTS],
        }
    }
}

impl AddressCache {
    fn slot(key: [u32; 4], n: usize) -> usize {
        let folded = key.iter().fold(n as u64, |h, &k| {
            (h ^ u64::from(k)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        });
        (folded >> 59) as usize & (ADDRESS_SLOTS - 1)
    }

    /// The remembered constant for the first `n` words of `key`.
    fn get(&self, key: [u32; 4], n: usize) -> Option<SsaDef> {
        match self.slots.get(Self::slot(key, n)) {
            Some(&Some((k, m, d))) if k == key && m as usize == n => Some(d),
            _ => None,
        }
    }

    /// Remembers `d` as the constant for the first `n` words of `key`.
    fn put(&mut self, key: [u32; 4], n: usize, d: SsaDef) {
        if let Some(e) = self.slots.get_mut(Self::slot(key, n)) {
            *e = Some((key, n as u8, d));
        }
    }
}

/// The source component each destination lane reads.
pub(crate) fn swizzle_of(op: &Operand) -> [u8; 4] {
    match op.components {
        Components::Swizzle(s) => s,
        Components::Select1(c) => [c; 4],
        Components::Mask(_) => [0, 1, 2, 3],
        Components::One | Components::Zero => [0; 4],
    }
}

/// The write mask of a destination operand.
pub(crate) fn dst_mask(op: &Operand) -> u8 {
    match op.components {
        Components::Mask(m) => m & 0xf,
        Components::One => 1,
        Components::Zero => 0,
        Components::Swizzle(s) => s.iter().fold(0, |m, &c| m | (1 << c)),
        Components::Select1(c) => 1 << c,
    }
}

/// The instruction type adjusted for the destination's minimum precision.
pub(crate) fn min_ty(base: ScalarType, op: &Operand) -> ScalarType {
    use ScalarType as S;
    match (base, op.min_precision) {
        (S::F32, MinPrecision::Float16) => S::MinF16,
        (S::F32, MinPrecision::Float2_8) => S::MinF10,
        (S::I32, MinPrecision::Sint16) | (S::U32, MinPrecision::Sint16) => S::MinI16,
        (S::U32, MinPrecision::Uint16) | (S::I32, MinPrecision::Uint16) => S::MinU16,
        _ => base,
    }
}

/// The operand a relative index register stands for (one component, immediate indices).
pub(crate) fn relative_operand(r: &RelativeRegister) -> Operand {
    let mut op = Operand {
        ty: r.ty,
        components: Components::Select1(r.component()),
        index_count: r.index_count.min(3),
        ..Operand::default()
    };
    for (slot, &v) in op.indices.iter_mut().zip(r.indices()) {
        *slot = Index {
            imm: v as u64,
            relative: None,
        };
    }
    op
}

impl Converter<'_, '_> {
    // ---------------------------------------------------------------------------------------
    // Declarations
    // ---------------------------------------------------------------------------------------

    /// `dcl_temps n`: makes room for `n` registers; `DclTmp`s are created on first use.
    pub(crate) fn declare_temps(&mut self, n: u32) -> R<()> {
        if n > MAX_TEMPS {
            return Err(self.invalid(format!("{n} temporary registers is too many")));
        }
        let want = n as usize * 4;
        if self.temps.len() < want {
            self.temps.resize(want, TempSlot::default());
        }
        Ok(())
    }

    /// The index of component `c` of `r{reg}` in `temps` (an error if not declared).
    fn temp_index(&self, reg: u64, c: u8) -> R<usize> {
        reg.checked_mul(4)
            .and_then(|v| v.checked_add(c as u64))
            .and_then(|v| usize::try_from(v).ok())
            .filter(|&i| i < self.temps.len())
            .ok_or_else(|| self.invalid(format!("r{reg} is not declared by dcl_temps")))
    }

    /// Writes the register values of the current stretch of straight-line code as `TmpStore`s,
    /// before the op `next` (control flow, a call or a function boundary) is appended.
    ///
    /// Within straight-line code a register load takes the value last stored (what SSA
    /// construction would make of the `TmpLoad`), so only the last value of each component
    /// needs a `TmpStore`, and only where code in another block may read it. Before a `Return`
    /// or a function boundary none is needed: registers are local to their function, and
    /// nothing after a `Return` runs. The order of the stores among themselves does not
    /// matter (each writes another register), nor their place in the stretch: each value is
    /// defined before the stretch ends and no load between its definition and the end reads
    /// the register through memory.
    pub(crate) fn flush_temps(&mut self, next: OpCode) {
        let dirty = std::mem::take(&mut self.temp_dirty);
        let write = !matches!(
            next,
            OpCode::Return | OpCode::Function | OpCode::FunctionEnd
        );
        for &i in &dirty {
            let Some(v) = self.temps.get_mut(i as usize).and_then(|t| t.value.take()) else {
                continue;
            };
            if write {
                // The index was checked when the value was stored, so `temp` cannot fail.
                if let Ok(t) = self.temp(u64::from(i / 4), (i % 4) as u8) {
                    self.store_temp(t, v);
                }
            }
        }
        let mut dirty = dirty;
        dirty.clear();
        self.temp_dirty = dirty;
    }

    /// The `DclTmp` of component `c` of `r{reg}` (a `DclScratch unknown[1]` if the registers
    /// are shared by subroutines: see [`Self::load_temp`] and [`Self::store_temp`]).
    pub(crate) fn temp(&mut self, reg: u64, c: u8) -> R<SsaDef> {
        let i = self.temp_index(reg, c)?;
        if let Some(d) = self.temps[i].decl {
            return Ok(d);
        }
        let ep = self.ep;
        let d = if self.shared_temps {
            let ty = Type::scalar(ScalarType::Unknown)
                .array_of(1)
                .map_err(|e| self.invalid(e.to_string()))?;
            self.decl(Op::new(OpCode::DclScratch, ty).with_ref(ep))
        } else {
            self.decl(Op::new(OpCode::DclTmp, ScalarType::Unknown).with_ref(ep))
        };
        let comp = [".x", ".y", ".z", ".w"][c as usize & 3];
        self.name_parts(d, &[NamePart::S("r"), NamePart::N(reg), NamePart::S(comp)]);
        self.temps[i].decl = Some(d);
        Ok(d)
    }

    /// Reads a register component declared by [`Self::temp`].
    fn load_temp(&mut self, t: SsaDef) -> SsaDef {
        if self.shared_temps {
            let zero = self.c_u32(0);
            self.op2(OpCode::ScratchLoad, ScalarType::Unknown, t, zero)
        } else {
            self.op1(OpCode::TmpLoad, ScalarType::Unknown, t)
        }
    }

    /// Writes a register component declared by [`Self::temp`].
    fn store_temp(&mut self, t: SsaDef, v: SsaDef) {
        let op = if self.shared_temps {
            let zero = self.c_u32(0);
            Op::new(OpCode::ScratchStore, Type::VOID)
                .with_ref(t)
                .with_ref(zero)
                .with_ref(v)
        } else {
            Op::new(OpCode::TmpStore, Type::VOID)
                .with_ref(t)
                .with_ref(v)
        };
        self.code(op);
    }

    /// A fresh scalar temporary of `Unknown` type (for values merged across switch cases).
    pub(crate) fn fresh_temp(&mut self) -> SsaDef {
        let ep = self.ep;
        self.decl(Op::new(OpCode::DclTmp, ScalarType::Unknown).with_ref(ep))
    }

    /// `dcl_indexableTemp x#[size], components` → `DclScratch vecN<unknown>[size]`.
    pub(crate) fn declare_indexable_temp(&mut self, inst: &crate::Instruction<'_>) -> R<()> {
        let crate::Payload::IndexableTemp {
            register,
            size,
            components,
        } = inst.payload
        else {
            return Err(self.invalid("indexable temp declaration without payload"));
        };
        if size > MAX_INDEXABLE_TEMP_ELEMENTS {
            return Err(self.invalid(format!(
                "x{register}[{size}] exceeds the limit of {MAX_INDEXABLE_TEMP_ELEMENTS} elements"
            )));
        }
        if size == 0 || !(1..=4).contains(&components) {
            return Err(self.invalid(format!(
                "x{register}[{size}] with {components} components is malformed"
            )));
        }
        let ty = Type::vector(ScalarType::Unknown, components as u8)
            .array_of(size)
            .map_err(|e| self.invalid(e.to_string()))?;
        let ep = self.ep;
        let d = self.decl(Op::new(OpCode::DclScratch, ty).with_ref(ep));
        self.name_parts(d, &[NamePart::S("x"), NamePart::N(register as u64)]);
        self.itemps.insert(register, (d, size, components));
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // Values
    // ---------------------------------------------------------------------------------------

    /// Converts `v` of type `from` to `to` as D3D's untyped registers do: bit casts between
    /// equal sizes, `ConsumeAs` for untyped values, `~0`/`0` for booleans.
    pub(crate) fn coerce(&mut self, v: SsaDef, from: ScalarType, to: ScalarType) -> SsaDef {
        use ScalarType as S;
        // A value recorded as untyped may have a type after all (cb loads, inputs, ...).
        let from = if from == S::Unknown {
            self.b
                .get(v)
                .and_then(|op| op.ty.base_type())
                .filter(|t| t.bit_size().is_some() || *t == S::Bool)
                .unwrap_or(S::Unknown)
        } else {
            from
        };
        if from == to || to == S::Unknown {
            return v;
        }
        if from == S::Unknown {
            // An untyped immediate read as a 32-bit type is that type's constant of the same
            // bits: what type resolution makes of `ConsumeAs` of it, made here at no cost.
            if matches!(to, S::U32 | S::I32 | S::F32) {
                if let Some(bits) = self.b.get(v).and_then(|op| {
                    (op.opcode == OpCode::Constant && op.ty == Type::scalar(S::Unknown))
                        .then(|| op.lit(0))
                        .flatten()
                }) {
                    return self.constant(to, bits);
                }
            }
            return self.op1(OpCode::ConsumeAs, to, v);
        }
        if from == S::Bool {
            let m = self.bool_to_mask(v);
            return self.coerce(m, S::U32, to);
        }
        if to == S::Bool {
            let u = self.coerce(v, from, S::U32);
            let z = self.c_u32(0);
            return self.op2(OpCode::INe, S::Bool, u, z);
        }
        if from.bit_size() == to.bit_size() {
            return self.op1(OpCode::Cast, to, v);
        }
        if from.is_float() && to.is_float() {
            return self.op1(OpCode::ConvertFtoF, to, v);
        }
        self.op1(OpCode::ConsumeAs, to, v)
    }

    /// The scalar type of a def (`Unknown` if it has none).
    pub(crate) fn value_type(&self, d: SsaDef) -> ScalarType {
        self.b
            .get(d)
            .and_then(|op| op.ty.base_type())
            .unwrap_or(ScalarType::Unknown)
    }

    /// `v`, a register's value, read as `ty`: what SSA construction makes of
    /// `ConsumeAs ty (TmpLoad r)` once the load is replaced by the stored value, and what type
    /// resolution then removes when `v` already has type `ty` (or `ty` is `Unknown`).
    fn consume_as(&mut self, v: SsaDef, ty: ScalarType) -> SsaDef {
        if ty == ScalarType::Unknown || self.b.get(v).is_some_and(|op| op.ty == Type::scalar(ty)) {
            return v;
        }
        self.op1(OpCode::ConsumeAs, ty, v)
    }

    /// Builds an address from constant and dynamic parts: `None` for no parts, a scalar for
    /// one, a `vecN<u32>` for more.
    pub(crate) fn address(&mut self, parts: &[Ix]) -> Option<SsaDef> {
        match parts {
            [] => None,
            [Ix::C(c)] => Some(self.c_u32(*c)),
            [Ix::D(d)] => Some(*d),
            _ => {
                // A part that is a `u32` constant counts as constant: a vector of constants
                // is what constant folding makes of their `CompositeConstruct`.
                let mut key = [0u32; 4];
                let mut all_constant = true;
                for (l, p) in key.iter_mut().zip(parts) {
                    match *p {
                        Ix::C(c) => *l = c,
                        Ix::D(d) => match self.u32_constant(d) {
                            Some(c) => *l = c,
                            None => all_constant = false,
                        },
                    }
                }
                if all_constant {
                    let n = parts.len().min(4);
                    if let Some(d) = self.addresses.get(key, n) {
                        return Some(d);
                    }
                    let lits = key.map(u64::from);
                    let d = self
                        .b
                        .add_constant(Type::vector(ScalarType::U32, n as u8), &lits[..n]);
                    self.addresses.put(key, n, d);
                    return Some(d);
                }
                let mut defs = [None; 4];
                for (slot, p) in defs.iter_mut().zip(parts) {
                    *slot = Some(match *p {
                        Ix::C(c) => self.c_u32(c),
                        Ix::D(d) => d,
                    });
                }
                let defs: smallvec::SmallVec<[SsaDef; 4]> =
                    defs.iter().flatten().copied().collect();
                Some(self.vector(ScalarType::U32, &defs))
            }
        }
    }

    /// The value of `d` if it is a `u32` scalar constant.
    pub(crate) fn u32_constant(&self, d: SsaDef) -> Option<u32> {
        let op = self.b.get(d)?;
        if op.opcode != OpCode::Constant || op.ty != Type::scalar(ScalarType::U32) {
            return None;
        }
        op.lit(0).map(|v| v as u32)
    }

    /// The value of one operand index: its immediate plus its relative register, if any.
    pub(crate) fn index_value(&mut self, idx: &Index) -> R<Ix> {
        let imm = u32::try_from(idx.imm).map_err(|_| self.invalid("64-bit register index"))?;
        let Some(rel) = idx.relative else {
            return Ok(Ix::C(imm));
        };
        let op = relative_operand(&rel);
        let v = self.load_scalar(&op, ScalarType::U32)?;
        if imm == 0 {
            return Ok(Ix::D(v));
        }
        let c = self.c_u32(imm);
        Ok(Ix::D(self.op2(OpCode::IAdd, ScalarType::U32, v, c)))
    }

    /// Index `i` of an operand as a value.
    pub(crate) fn operand_index(&mut self, op: &Operand, i: usize) -> R<Ix> {
        let Some(idx) = op.indices().get(i).copied() else {
            return Err(self.invalid(format!("{} operand lacks index {i}", op.ty.prefix())));
        };
        self.index_value(&idx)
    }

    /// Immediate index `i` of an operand (register numbers of non-indexable files).
    pub(crate) fn imm_index(&self, op: &Operand, i: usize) -> R<u64> {
        match op.indices().get(i) {
            Some(idx) if idx.relative.is_none() => Ok(idx.imm),
            Some(_) => Err(self.invalid(format!(
                "{} register cannot be indexed dynamically",
                op.ty.prefix()
            ))),
            None => Err(self.invalid(format!("{} operand lacks index {i}", op.ty.prefix()))),
        }
    }

    /// An index value as a `u32` def.
    pub(crate) fn ix_value(&mut self, ix: Ix) -> SsaDef {
        match ix {
            Ix::C(c) => self.c_u32(c),
            Ix::D(d) => d,
        }
    }

    // ---------------------------------------------------------------------------------------
    // Loads
    // ---------------------------------------------------------------------------------------

    /// Loads the components in `comps` (bit 0 = x) of a source operand, typed `ty`, without
    /// swizzle or modifiers. The result is indexed by source component.
    pub(crate) fn load_comps(&mut self, op: &Operand, ty: ScalarType, comps: u8) -> R<Lanes> {
        let mut out: Lanes = [None; 4];
        match op.ty {
            OperandType::Temp => {
                let reg = self.imm_index(op, 0)?;
                for c in lanes(comps) {
                    if !self.shared_temps {
                        let i = self.temp_index(reg, c as u8)?;
                        if let Some(v) = self.temps[i].value {
                            out[c] = Some(self.consume_as(v, ty));
                            continue;
                        }
                    }
                    let t = self.temp(reg, c as u8)?;
                    let v = self.load_temp(t);
                    out[c] = Some(self.coerce(v, ScalarType::Unknown, ty));
                }
            }
            OperandType::IndexableTemp => {
                let reg = self.imm_index(op, 0)?;
                let Some(&(scratch, _, ncomp)) = self.itemps.get(&(reg as u32)) else {
                    return Err(self.invalid(format!("x{reg} is not declared")));
                };
                let elem = self.operand_index(op, 1)?;
                for c in lanes(comps) {
                    let addr = if ncomp > 1 {
                        self.address(&[elem, Ix::C(c as u32)])
                    } else {
                        self.address(&[elem])
                    };
                    let v = self.code(
                        Op::new(OpCode::ScratchLoad, ScalarType::Unknown)
                            .with_ref(scratch)
                            .with_opt_ref(addr),
                    );
                    out[c] = Some(self.coerce(v, ScalarType::Unknown, ty));
                }
            }
            OperandType::Immediate32 => {
                let one = op.components == Components::One;
                for c in lanes(comps) {
                    let bits = op.imm[if one { 0 } else { c }];
                    out[c] = Some(self.imm_constant(ty, bits));
                }
            }
            OperandType::Immediate64 => {
                return Err(self.invalid("64-bit immediate in a 32-bit operation"));
            }
            OperandType::ConstantBuffer => return self.load_cb_comps(op, ty, comps),
            OperandType::ThisPointer => return self.load_this_comps(op, ty, comps),
            OperandType::ImmediateConstantBuffer => return self.load_icb_comps(op, ty, comps),
            _ => return self.load_io_comps(op, ty, comps),
        }
        Ok(out)
    }

    /// A 32-bit immediate as a constant of `ty` (`Unknown` keeps the bits untyped).
    pub(crate) fn imm_constant(&mut self, ty: ScalarType, bits: u32) -> SsaDef {
        use ScalarType as S;
        match ty {
            S::F64 => self.constant(S::F64, (f32::from_bits(bits) as f64).to_bits()),
            S::Bool => self.constant(S::Bool, (bits != 0) as u64),
            _ => self.constant(ty, bits as u64),
        }
    }

    /// Loads the lanes in `mask` of a source operand as `ty`, applying the swizzle and the
    /// neg/abs modifier. Lanes outside `mask` are `None`.
    pub(crate) fn load_src(&mut self, op: &Operand, ty: ScalarType, mask: u8) -> R<Lanes> {
        let sw = swizzle_of(op);
        let mut needed = 0u8;
        for l in lanes(mask) {
            needed |= 1 << sw[l];
        }
        let ty = if op.modifier != OperandModifier::None && ty == ScalarType::Unknown {
            ScalarType::F32
        } else {
            ty
        };
        let mut comps = self.load_comps(op, ty, needed)?;
        for v in comps.iter_mut().flatten() {
            *v = self.apply_modifier(*v, ty, op.modifier);
        }
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            out[l] = comps[sw[l] as usize];
        }
        Ok(out)
    }

    /// Loads the first selected component of a source operand.
    pub(crate) fn load_scalar(&mut self, op: &Operand, ty: ScalarType) -> R<SsaDef> {
        let l = self.load_src(op, ty, 1)?;
        l[0].ok_or_else(|| self.invalid("missing source component"))
    }

    /// Loads lanes `0..n` of a source operand as a scalar (`n == 1`) or a vector.
    pub(crate) fn load_vec(&mut self, op: &Operand, ty: ScalarType, n: usize) -> R<SsaDef> {
        let n = n.clamp(1, 4);
        let l = self.load_src(op, ty, ((1u32 << n) - 1) as u8)?;
        let mut parts = [None; 4];
        parts[..n].copy_from_slice(&l[..n]);
        let parts: smallvec::SmallVec<[SsaDef; 4]> = parts.iter().flatten().copied().collect();
        if parts.len() != n {
            return Err(self.invalid("missing source component"));
        }
        Ok(self.vector(ty, &parts))
    }

    /// Applies a source modifier.
    fn apply_modifier(&mut self, v: SsaDef, ty: ScalarType, m: OperandModifier) -> SsaDef {
        let (abs, neg) = if ty.is_float() {
            (OpCode::FAbs, OpCode::FNeg)
        } else {
            (OpCode::IAbs, OpCode::INeg)
        };
        match m {
            OperandModifier::None => v,
            OperandModifier::Neg => self.op1(neg, ty, v),
            OperandModifier::Abs => self.op1(abs, ty, v),
            OperandModifier::AbsNeg => {
                let a = self.op1(abs, ty, v);
                self.op1(neg, ty, a)
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Stores
    // ---------------------------------------------------------------------------------------

    /// Clamps float lanes to [0, 1] (`_sat`).
    pub(crate) fn saturate(&mut self, vals: &mut Lanes, ty: ScalarType) {
        if !ty.is_float() {
            return;
        }
        let (zero, one) = if ty == ScalarType::F64 {
            (
                self.constant(ty, 0f64.to_bits()),
                self.constant(ty, 1f64.to_bits()),
            )
        } else {
            (
                self.constant(ty, 0f32.to_bits() as u64),
                self.constant(ty, 1f32.to_bits() as u64),
            )
        };
        for v in vals.iter_mut().flatten() {
            *v = self.op3(OpCode::FClamp, ty, *v, zero, one);
        }
    }

    /// Writes the lanes of `vals` selected by the destination's mask, saturating first if the
    /// instruction says so.
    pub(crate) fn write(
        &mut self,
        sat: bool,
        dst: &Operand,
        mut vals: Lanes,
        ty: ScalarType,
    ) -> R<()> {
        if sat {
            self.saturate(&mut vals, ty);
        }
        self.store_dst(dst, &vals, ty)
    }

    /// Stores the lanes of `vals` selected by the destination's write mask.
    pub(crate) fn store_dst(&mut self, dst: &Operand, vals: &Lanes, ty: ScalarType) -> R<()> {
        let mask = dst_mask(dst);
        match dst.ty {
            OperandType::Null => Ok(()),
            OperandType::Temp => {
                let reg = self.imm_index(dst, 0)?;
                for l in lanes(mask) {
                    let Some(v) = vals[l] else { continue };
                    if self.shared_temps {
                        let t = self.temp(reg, l as u8)?;
                        self.store_temp(t, v);
                        continue;
                    }
                    // Kept until the stretch of straight-line code ends (`flush_temps`).
                    let i = self.temp_index(reg, l as u8)?;
                    if self.temps[i].value.replace(v).is_none() {
                        self.temp_dirty.push(i as u32);
                    }
                }
                Ok(())
            }
            OperandType::IndexableTemp => {
                let reg = self.imm_index(dst, 0)?;
                let Some(&(scratch, _, ncomp)) = self.itemps.get(&(reg as u32)) else {
                    return Err(self.invalid(format!("x{reg} is not declared")));
                };
                let elem = self.operand_index(dst, 1)?;
                for l in lanes(mask) {
                    let Some(v) = vals[l] else { continue };
                    if l as u32 >= ncomp {
                        continue;
                    }
                    let addr = if ncomp > 1 {
                        self.address(&[elem, Ix::C(l as u32)])
                    } else {
                        self.address(&[elem])
                    };
                    self.code(
                        Op::new(OpCode::ScratchStore, Type::VOID)
                            .with_ref(scratch)
                            .with_opt_ref(addr)
                            .with_ref(v),
                    );
                }
                Ok(())
            }
            _ => self.store_io(dst, vals, ty),
        }
    }
}
