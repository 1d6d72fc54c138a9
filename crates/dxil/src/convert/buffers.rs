//! Buffers: constant buffer loads (legacy rows and byte offsets), typed, raw and structured
//! buffer loads and stores, UAV counters, buffer and texture atomics, and the sparse
//! residency check.
//!
//! Constant buffers are `vec4<f32>` rows; raw buffers `u32` words and structured buffers
//! `u32[stride / 4]` structures (byte offsets become word indices). 16-bit values are read
//! from their word and shifted; a 16-bit store that does not fill a whole word writes its
//! half with two atomics (clear, then set), so the other half of the word, which another
//! invocation may be writing, is untouched. 64-bit values are two words. A load reads only
//! the components some `extractvalue` uses, and asks for sparse feedback only when the
//! status is read.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{AtomicOp, BasicType, Op, OpCode, OpFlags, ResourceKind, ScalarType, SsaDef, Type};

use super::dx_op::code as C;
use super::resources::ResDecl;
use super::values::{AggKind, Handle, Val};
use super::{Args, Converter, R};
use crate::dx::ResourceClass;
use crate::module::{Instruction, Type as LlType, ValueId};

/// Where a raw or structured access starts.
#[derive(Clone, Copy)]
enum BufAddr {
    /// A raw buffer (or a structured one declared raw): the byte address.
    Raw(SsaDef),
    /// A structured buffer: the structure index, the byte offset in it, and the stride in
    /// bytes.
    Structured(SsaDef, SsaDef, u32),
}

impl<'s> Converter<'s> {
    /// Buffer operations.
    pub(crate) fn buffer_op(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        match code {
            C::CBUFFER_LOAD_LEGACY => self.cbuffer_load_legacy(args, inst),
            C::CBUFFER_LOAD => self.cbuffer_load(args, inst),
            C::BUFFER_LOAD | C::RAW_BUFFER_LOAD => self.buffer_load(code, args, inst),
            C::BUFFER_STORE | C::RAW_BUFFER_STORE => self.buffer_store(code, args),
            C::BUFFER_UPDATE_COUNTER => {
                let (h, _) = self.handle(self.arg(args, 1)?)?;
                let inc = self.arg_const(args, 2, "counter direction")?;
                let c = self.counter_descriptor(&h)?;
                let op = if inc < 0 {
                    AtomicOp::Dec
                } else {
                    AtomicOp::Inc
                };
                let mut v = self.code(
                    Op::new(OpCode::CounterAtomic, ScalarType::U32)
                        .with_ref(c)
                        .with_lit(op.to_literal()),
                );
                if inc < 0 {
                    // Direct3D returns the value after the decrement.
                    let one = self.c_u32(1);
                    v = self.op2(OpCode::ISub, ScalarType::U32, v, one);
                }
                self.set(inst.result(), Val::Def(v))
            }
            C::ATOMIC_BIN_OP | C::ATOMIC_COMPARE_EXCHANGE => self.resource_atomic(code, args, inst),
            C::CHECK_ACCESS_FULLY_MAPPED => {
                let status = self.arg_def(args, 1)?;
                let v = self.op1(OpCode::CheckSparseAccess, ScalarType::Bool, status);
                self.set(inst.result(), Val::Def(v))
            }
            _ => Err(self.invalid("not a buffer operation")),
        }
    }

    /// The value of constant def `d`, if it is a scalar constant.
    pub(crate) fn const_of(&self, d: SsaDef) -> Option<u64> {
        let op = self.b.get(d)?;
        (op.opcode == OpCode::Constant && op.ty.is_basic() && op.operands.len() == 1)
            .then(|| op.lit(0))
            .flatten()
    }

    /// `a + k` in `u32`, folded for constants.
    pub(crate) fn add_u32(&mut self, a: SsaDef, k: u32) -> SsaDef {
        if k == 0 {
            return a;
        }
        if let Some(c) = self.const_of(a) {
            return self.c_u32((c as u32).wrapping_add(k));
        }
        let kd = self.c_u32(k);
        self.op2(OpCode::IAdd, ScalarType::U32, a, kd)
    }

    /// `a >> k` in `u32`, folded for constants.
    pub(crate) fn shr_u32(&mut self, a: SsaDef, k: u32) -> SsaDef {
        if let Some(c) = self.const_of(a) {
            return self.c_u32((c as u32) >> k);
        }
        let kd = self.c_u32(k);
        self.op2(OpCode::UShr, ScalarType::U32, a, kd)
    }

    /// `a * k + b` in `u32`, folded for constants.
    fn mul_add_u32(&mut self, a: SsaDef, k: u32, b: SsaDef) -> SsaDef {
        if let (Some(x), Some(y)) = (self.const_of(a), self.const_of(b)) {
            return self.c_u32((x as u32).wrapping_mul(k).wrapping_add(y as u32));
        }
        let kd = self.c_u32(k);
        let m = self.op2(OpCode::IMul, ScalarType::U32, a, kd);
        self.op2(OpCode::IAdd, ScalarType::U32, m, b)
    }

    /// The element type of a DXIL operation's result: the first member of a result struct,
    /// or the result itself.
    pub(crate) fn overload(&self, inst: &Instruction) -> R<ScalarType> {
        let t = match self.m.types.ty(inst.ty) {
            LlType::Struct { .. } => self
                .m
                .types
                .struct_elements(inst.ty)
                .and_then(|e| e.first().copied())
                .ok_or_else(|| self.invalid("result struct without members"))?,
            _ => inst.ty,
        };
        self.scalar_of(t)
    }

    /// The overload type of a store: the type of its first value argument.
    fn value_type(&self, args: &Args, i: usize) -> R<ScalarType> {
        let a = self.arg(args, i)?;
        let t = self.type_of(a)?;
        self.scalar_of(t)
    }

    /// `CBufferLoadLegacy`: one 16-byte row.
    fn cbuffer_load_legacy(&mut self, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, _) = self.handle(self.arg(args, 1)?)?;
        let row = self.arg_def(args, 2)?;
        let elem = self.overload(inst)?;
        let bits = elem.bit_size().unwrap_or(32);
        let v = if bits == 64 {
            let w = self.buf_load(h.desc, Some(row), Type::vector(ScalarType::U32, 4), 16);
            Val::Agg(w, AggKind::Wide64 { elem })
        } else if bits == 16 && self.native16 {
            let w = self.buf_load(h.desc, Some(row), Type::vector(ScalarType::U32, 4), 16);
            Val::Agg(w, AggKind::Narrow16 { elem })
        } else {
            let load = match elem {
                ScalarType::F32 | ScalarType::MinF16 | ScalarType::MinF10 => ScalarType::F32,
                _ => ScalarType::U32,
            };
            let mut w = self.buf_load(h.desc, Some(row), Type::vector(load, 4), 16);
            if load != elem {
                let opc = if elem.is_float() {
                    OpCode::ConvertFtoF
                } else {
                    OpCode::ConvertItoI
                };
                w = self.op1(opc, Type::vector(elem, 4), w);
            }
            Val::Agg(
                w,
                AggKind::Texel {
                    n: 4,
                    feedback: None,
                },
            )
        };
        self.set(inst.result(), v)
    }

    /// A `BufferLoad` op.
    fn buf_load(&mut self, desc: SsaDef, addr: Option<SsaDef>, ty: Type, align: u64) -> SsaDef {
        self.code(
            Op::new(OpCode::BufferLoad, ty)
                .with_ref(desc)
                .with_opt_ref(addr)
                .with_lit(align),
        )
    }

    /// `CBufferLoad`: one value at a byte offset.
    fn cbuffer_load(&mut self, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, _) = self.handle(self.arg(args, 1)?)?;
        let off = self.arg_def(args, 2)?;
        let elem = self.scalar_of(inst.ty)?;
        let bits = elem.bit_size().unwrap_or(32);
        let row = self.shr_u32(off, 4);
        let word = self.shr_u32(off, 2);
        let comp = self.and_u32(word, 3);
        let addr = self.address(&[row, comp]);
        let v = match bits {
            64 => {
                let w = self.buf_load(h.desc, addr, Type::vector(ScalarType::U32, 2), 8);
                self.op1(OpCode::Cast, elem, w)
            }
            16 if self.native16 => {
                let w = self.buf_load(h.desc, addr, Type::scalar(ScalarType::U32), 4);
                let w = self.half_of_word(w, off);
                self.narrow_word(w, elem)
            }
            _ => {
                let load = if elem.is_float() {
                    ScalarType::F32
                } else {
                    ScalarType::U32
                };
                let w = self.buf_load(h.desc, addr, Type::scalar(load), 4);
                self.convert_scalar(w, load, elem)
            }
        };
        self.set(inst.result(), Val::Def(v))
    }

    /// `a & k` in `u32`, folded for constants.
    pub(crate) fn and_u32(&mut self, a: SsaDef, k: u32) -> SsaDef {
        if let Some(c) = self.const_of(a) {
            return self.c_u32(c as u32 & k);
        }
        let kd = self.c_u32(k);
        self.op2(OpCode::IAnd, ScalarType::U32, a, kd)
    }

    /// The 16 bits of `word` at byte address `byte` (bit 1 picks the half), in the low bits.
    fn half_of_word(&mut self, word: SsaDef, byte: SsaDef) -> SsaDef {
        let two = self.and_u32(byte, 2);
        if self.const_of(two) == Some(0) {
            return word;
        }
        let shift = match self.const_of(two) {
            Some(_) => self.c_u32(16),
            None => {
                let three = self.c_u32(3);
                self.op2(OpCode::IShl, ScalarType::U32, two, three)
            }
        };
        self.op2(OpCode::UShr, ScalarType::U32, word, shift)
    }

    /// Converts a scalar between IR types of the same kind (float to float, int to int,
    /// number to bool by comparison with zero).
    pub(crate) fn convert_scalar(&mut self, v: SsaDef, from: ScalarType, to: ScalarType) -> SsaDef {
        if from == to {
            return v;
        }
        if to == ScalarType::Bool {
            let z = self.scalar_zero(from);
            let opc = if from.is_float() {
                OpCode::FNe
            } else {
                OpCode::INe
            };
            return self.op2(opc, ScalarType::Bool, v, z);
        }
        if from == ScalarType::Bool {
            let one = if to.is_float() {
                self.float_const(to, 1.0)
            } else {
                self.scalar_const(to, 1)
            };
            let zero = self.scalar_zero(to);
            return self.op3(OpCode::Select, to, v, one, zero);
        }
        match (from.is_float(), to.is_float()) {
            (true, true) => self.op1(OpCode::ConvertFtoF, to, v),
            (false, false) => {
                if from.bit_size() == to.bit_size()
                    && !from.is_min_precision()
                    && !to.is_min_precision()
                {
                    self.op1(OpCode::Cast, to, v)
                } else {
                    self.op1(OpCode::ConvertItoI, to, v)
                }
            }
            (true, false) if from.bit_size() == to.bit_size() => self.op1(OpCode::Cast, to, v),
            (false, true) if from.bit_size() == to.bit_size() => self.op1(OpCode::Cast, to, v),
            (true, false) => self.op1(OpCode::ConvertFtoI, to, v),
            (false, true) => self.op1(OpCode::ConvertItoF, to, v),
        }
    }

    /// The start of a raw or structured access.
    fn buf_addr(
        &mut self,
        h: &Handle,
        d: &ResDecl,
        index: ValueId,
        offset: Option<ValueId>,
    ) -> R<BufAddr> {
        let i = self.def(index)?;
        let off = match offset {
            Some(o) if !self.is_undef(o) => Some(self.def(o)?),
            _ => None,
        };
        Ok(match d.kind {
            ResourceKind::BufferStructured => {
                let off = off.unwrap_or_else(|| self.c_u32(0));
                BufAddr::Structured(i, off, d.stride)
            }
            _ if h.stride > 0 => {
                let off = off.unwrap_or_else(|| self.c_u32(0));
                BufAddr::Raw(self.mul_add_u32(i, h.stride, off))
            }
            _ => BufAddr::Raw(i),
        })
    }

    /// The IR address of word `k` after the start of an access, and the byte address there.
    fn word_address(&mut self, a: BufAddr, k: u32) -> (Option<SsaDef>, SsaDef) {
        match a {
            BufAddr::Raw(byte) => {
                let b = self.add_u32(byte, 4 * k);
                let w = self.shr_u32(b, 2);
                (Some(w), b)
            }
            BufAddr::Structured(s, byte, stride) => {
                let b = self.add_u32(byte, 4 * k);
                // A constant offset past the structure reaches into the next ones, as the
                // buffer's bytes lie (the IR's address must stay inside the structure).
                let (s, w) = match self.const_of(b) {
                    Some(c) if stride > 0 && c >= u64::from(stride) => {
                        let c = c as u32;
                        let s = self.add_u32(s, c / stride);
                        (s, self.c_u32((c % stride) / 4))
                    }
                    _ => (s, self.shr_u32(b, 2)),
                };
                (self.address(&[s, w]), b)
            }
        }
    }

    /// The address `bytes` further than the start.
    fn advance(&mut self, a: BufAddr, bytes: u32) -> BufAddr {
        match a {
            BufAddr::Raw(b) => BufAddr::Raw(self.add_u32(b, bytes)),
            BufAddr::Structured(s, b, stride) => {
                BufAddr::Structured(s, self.add_u32(b, bytes), stride)
            }
        }
    }

    /// `BufferLoad` and `RawBufferLoad`.
    fn buffer_load(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        let elem = self.overload(inst)?;
        let used = self.members_used(inst);
        let sparse = used & 0x10 != 0;
        let flags = if sparse {
            OpFlags::SPARSE_FEEDBACK
        } else {
            OpFlags::empty()
        };
        if d.kind == ResourceKind::BufferTyped {
            if code != C::BUFFER_LOAD {
                return Err(self.invalid("RawBufferLoad of a typed buffer"));
            }
            let index = self.arg_def(args, 2)?;
            let v = self.typed_read(h.desc, d.elem, elem, flags, |me, ty, fl| {
                me.code(
                    Op::new(OpCode::BufferLoad, ty)
                        .with_ref(h.desc)
                        .with_ref(index)
                        .with_lit(4)
                        .with_flags(fl),
                )
            })?;
            return self.set(inst.result(), v);
        }
        if !matches!(
            d.kind,
            ResourceKind::BufferRaw | ResourceKind::BufferStructured
        ) {
            return Err(self.invalid("buffer load of a texture"));
        }
        // Components: the mask of RawBufferLoad, else the members read.
        let mask = if code == C::RAW_BUFFER_LOAD {
            self.arg_const(args, 4, "component mask")? as u32 & 0xf
        } else {
            u32::from(used & 0xf)
        };
        let n = (32 - mask.leading_zeros()).max(1);
        let addr = self.buf_addr(&h, &d, self.arg(args, 2)?, args.get(3))?;
        let bits = elem.bit_size().unwrap_or(32);
        let (data, feedback) = if bits == 64 {
            let mut parts = [None; 4];
            let mut feedback = None;
            for (k, part) in parts.iter_mut().enumerate().take(n as usize) {
                let (a, _) = self.word_address(addr, 2 * k as u32);
                let (w, fb) = self.raw_load(h.desc, a, 2, sparse && k == 0, 8)?;
                feedback = feedback.or(fb);
                *part = Some(self.op1(OpCode::Cast, elem, w));
            }
            (self.gather_parts(elem, &parts[..n as usize])?, feedback)
        } else if bits == 16 && self.native16 {
            let mut parts = [None; 4];
            let mut feedback = None;
            for (k, part) in parts.iter_mut().enumerate().take(n as usize) {
                let at = self.advance(addr, 2 * k as u32);
                let (a, byte) = self.word_address(at, 0);
                let (w, fb) = self.raw_load(h.desc, a, 1, sparse && k == 0, 2)?;
                feedback = feedback.or(fb);
                let w = self.half_of_word(w, byte);
                *part = Some(self.narrow_word(w, elem));
            }
            (self.gather_parts(elem, &parts[..n as usize])?, feedback)
        } else {
            let (a, _) = self.word_address(addr, 0);
            let (w, fb) = self.raw_load(h.desc, a, n, sparse, 4)?;
            let load = if elem.is_float() && bits == 32 {
                ScalarType::F32
            } else {
                ScalarType::U32
            };
            let w = if load == ScalarType::F32 {
                self.op1(OpCode::Cast, Type::vector(ScalarType::F32, n as u8), w)
            } else {
                w
            };
            let w = if load != elem {
                let opc = if elem.is_float() {
                    OpCode::ConvertFtoF
                } else {
                    OpCode::ConvertItoI
                };
                self.op1(opc, Type::vector(elem, n as u8), w)
            } else {
                w
            };
            (w, fb)
        };
        self.set(
            inst.result(),
            Val::Agg(
                data,
                AggKind::Texel {
                    n: n as u8,
                    feedback,
                },
            ),
        )
    }

    /// A vector of `n` parts (a scalar for one).
    fn gather_parts(&mut self, elem: ScalarType, parts: &[Option<SsaDef>]) -> R<SsaDef> {
        let mut defs = smallvec::SmallVec::<[SsaDef; 4]>::new();
        for p in parts {
            defs.push(p.ok_or_else(|| self.invalid("component missing"))?);
        }
        Ok(self.vector(elem, &defs))
    }

    /// Loads `n` words (`u32` or `vecN<u32>`), with sparse feedback if asked.
    fn raw_load(
        &mut self,
        desc: SsaDef,
        addr: Option<SsaDef>,
        n: u32,
        sparse: bool,
        align: u64,
    ) -> R<(SsaDef, Option<SsaDef>)> {
        let ty = Type::vector(ScalarType::U32, n as u8);
        if !sparse {
            return Ok((self.buf_load(desc, addr, ty, align.max(4)), None));
        }
        let sty = Type::structure(&[
            BasicType::scalar(ScalarType::U32),
            BasicType::vector(ScalarType::U32, n as u8),
        ])
        .map_err(|e| self.type_error(e))?;
        let v = self.code(
            Op::new(OpCode::BufferLoad, sty)
                .with_ref(desc)
                .with_opt_ref(addr)
                .with_lit(align.max(4))
                .with_flags(OpFlags::SPARSE_FEEDBACK),
        );
        let fb = self.extract(ScalarType::U32, v, 0);
        let data = self.extract(ty, v, 1);
        Ok((data, Some(fb)))
    }

    /// A typed read (`BufferLoad` of a typed buffer, `TextureLoad`, …): `make` emits the op
    /// for a result type; the `vec4` of the resource's type is converted to the overload.
    pub(crate) fn typed_read(
        &mut self,
        _desc: SsaDef,
        res_elem: ScalarType,
        want: ScalarType,
        flags: OpFlags,
        make: impl FnOnce(&mut Self, Type, OpFlags) -> SsaDef,
    ) -> R<Val> {
        let vec = Type::vector(res_elem, 4);
        let sparse = flags.contains(OpFlags::SPARSE_FEEDBACK);
        let ty = if sparse {
            Type::structure(&[
                BasicType::scalar(ScalarType::U32),
                BasicType::vector(res_elem, 4),
            ])
            .map_err(|e| self.type_error(e))?
        } else {
            vec
        };
        let v = make(self, ty, flags);
        let (data, feedback) = if sparse {
            let fb = self.extract(ScalarType::U32, v, 0);
            (self.extract(vec, v, 1), Some(fb))
        } else {
            (v, None)
        };
        let data = self.convert_vec(data, res_elem, want, 4);
        Ok(Val::Agg(data, AggKind::Texel { n: 4, feedback }))
    }

    /// Converts a vector of `n` components between scalar types (a cast for equal widths).
    pub(crate) fn convert_vec(
        &mut self,
        v: SsaDef,
        from: ScalarType,
        to: ScalarType,
        n: u8,
    ) -> SsaDef {
        if from == to {
            return v;
        }
        let ty = Type::vector(to, n);
        let opc = match (from.is_float(), to.is_float()) {
            (true, true) => OpCode::ConvertFtoF,
            (false, false)
                if from.bit_size() == to.bit_size()
                    && !from.is_min_precision()
                    && !to.is_min_precision() =>
            {
                OpCode::Cast
            }
            (false, false) => OpCode::ConvertItoI,
            _ if from.bit_size() == to.bit_size() => OpCode::Cast,
            (true, false) => OpCode::ConvertFtoI,
            (false, true) => OpCode::ConvertItoF,
        };
        self.op1(opc, ty, v)
    }

    /// `BufferStore` and `RawBufferStore`.
    fn buffer_store(&mut self, code: u32, args: &Args) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        if d.class != ResourceClass::Uav {
            return Err(self.invalid("store to a resource that is not a UAV"));
        }
        let mask = self.arg_const(args, 8, "write mask")? as u32 & 0xf;
        let elem = self.value_type(args, 4)?;
        if d.kind == ResourceKind::BufferTyped {
            let index = self.arg_def(args, 2)?;
            let value = self.texel_value(args, 4, elem, d.elem)?;
            self.code(
                Op::new(OpCode::BufferStore, Type::VOID)
                    .with_ref(h.desc)
                    .with_ref(index)
                    .with_ref(value)
                    .with_lit(4),
            );
            return Ok(());
        }
        if !matches!(
            d.kind,
            ResourceKind::BufferRaw | ResourceKind::BufferStructured
        ) {
            return Err(self.invalid("buffer store to a texture"));
        }
        let align = if code == C::RAW_BUFFER_STORE {
            self.arg_const(args, 9, "alignment").unwrap_or(4) as u32
        } else {
            4
        };
        let addr = self.buf_addr(&h, &d, self.arg(args, 2)?, Some(self.arg(args, 3)?))?;
        let n = (32 - mask.leading_zeros()) as usize;
        let mut vals = [None; 4];
        for (k, v) in vals.iter_mut().enumerate().take(n) {
            if mask & (1 << k) != 0 {
                *v = self.arg_opt(args, 4 + k)?;
            }
        }
        let bits = elem.bit_size().unwrap_or(32);
        if bits == 64 {
            for (k, v) in vals.iter().enumerate().take(n) {
                let Some(v) = *v else { continue };
                let w = self.op1(OpCode::Cast, Type::vector(ScalarType::U32, 2), v);
                let (a, _) = self.word_address(addr, 2 * k as u32);
                self.buf_store(h.desc, a, w, 8);
            }
            return Ok(());
        }
        if bits == 16 && self.native16 {
            return self.store_halves(&h, addr, &vals[..n], align);
        }
        // 32-bit words: runs of written components in one vector store each.
        let mut k = 0;
        while k < n {
            if vals[k].is_none() {
                k += 1;
                continue;
            }
            let start = k;
            let mut run = smallvec::SmallVec::<[SsaDef; 4]>::new();
            while k < n {
                let Some(v) = vals[k] else { break };
                let v = self.as_word(v, elem);
                run.push(v);
                k += 1;
            }
            let value = self.vector(ScalarType::U32, &run);
            let (a, _) = self.word_address(addr, start as u32);
            self.buf_store(h.desc, a, value, 4);
        }
        Ok(())
    }

    /// A 32-bit value as `u32` (min-precision values widened).
    fn as_word(&mut self, v: SsaDef, elem: ScalarType) -> SsaDef {
        match elem {
            ScalarType::U32 => v,
            ScalarType::F32 => self.op1(OpCode::Cast, ScalarType::U32, v),
            ScalarType::MinF16 | ScalarType::MinF10 | ScalarType::F16 => {
                let f = self.op1(OpCode::ConvertFtoF, ScalarType::F32, v);
                self.op1(OpCode::Cast, ScalarType::U32, f)
            }
            ScalarType::Bool => self.convert_scalar(v, ScalarType::Bool, ScalarType::U32),
            _ => self.op1(OpCode::ConvertItoI, ScalarType::U32, v),
        }
    }

    /// A `BufferStore` op.
    fn buf_store(&mut self, desc: SsaDef, addr: Option<SsaDef>, value: SsaDef, align: u64) {
        self.code(
            Op::new(OpCode::BufferStore, Type::VOID)
                .with_ref(desc)
                .with_opt_ref(addr)
                .with_ref(value)
                .with_lit(align),
        );
    }

    /// Stores 16-bit values: whole words where two halves fill one (4-byte alignment),
    /// else each half with an atomic clear and set of its 16 bits.
    fn store_halves(
        &mut self,
        h: &Handle,
        addr: BufAddr,
        vals: &[Option<SsaDef>],
        align: u32,
    ) -> R<()> {
        let mut bits = smallvec::SmallVec::<[Option<SsaDef>; 4]>::new();
        for v in vals {
            bits.push(match *v {
                Some(v) => {
                    let t = self.b.op(v).ty.base_type().unwrap_or(ScalarType::U16);
                    let u = if t.is_float() {
                        self.op1(OpCode::Cast, ScalarType::U16, v)
                    } else if t == ScalarType::U16 {
                        v
                    } else {
                        self.op1(OpCode::Cast, ScalarType::U16, v)
                    };
                    Some(self.op1(OpCode::ConvertItoI, ScalarType::U32, u))
                }
                None => None,
            });
        }
        let aligned = align % 4 == 0;
        let mut k = 0;
        while k < bits.len() {
            if aligned && k % 2 == 0 && k + 1 < bits.len() {
                if let (Some(lo), Some(hi)) = (bits[k], bits[k + 1]) {
                    let sixteen = self.c_u32(16);
                    let hi = self.op2(OpCode::IShl, ScalarType::U32, hi, sixteen);
                    let w = self.op2(OpCode::IOr, ScalarType::U32, lo, hi);
                    let at = self.advance(addr, 2 * k as u32);
                    let (a, _) = self.word_address(at, 0);
                    self.buf_store(h.desc, a, w, 4);
                    k += 2;
                    continue;
                }
            }
            if let Some(v) = bits[k] {
                let at = self.advance(addr, 2 * k as u32);
                let (a, byte) = self.word_address(at, 0);
                let two = self.and_u32(byte, 2);
                let shift = match self.const_of(two) {
                    Some(c) => self.c_u32(c as u32 * 8),
                    None => {
                        let three = self.c_u32(3);
                        self.op2(OpCode::IShl, ScalarType::U32, two, three)
                    }
                };
                let ffff = self.c_u32(0xffff);
                let keep = self.op2(OpCode::IShl, ScalarType::U32, ffff, shift);
                let keep = self.op1(OpCode::INot, ScalarType::U32, keep);
                let set = self.op2(OpCode::IShl, ScalarType::U32, v, shift);
                for (val, op) in [(keep, AtomicOp::And), (set, AtomicOp::Or)] {
                    self.code(
                        Op::new(OpCode::BufferAtomic, Type::VOID)
                            .with_ref(h.desc)
                            .with_opt_ref(a)
                            .with_ref(val)
                            .with_lit(op.to_literal()),
                    );
                }
            }
            k += 1;
        }
        Ok(())
    }

    /// The `vec4` of a typed store's values (arguments `first..first + 4`, `undef` as
    /// undefined), converted from the overload type to the resource's.
    pub(crate) fn texel_value(
        &mut self,
        args: &Args,
        first: usize,
        elem: ScalarType,
        res: ScalarType,
    ) -> R<SsaDef> {
        let mut parts = [None; 4];
        for (k, p) in parts.iter_mut().enumerate() {
            *p = self.arg_opt(args, first + k)?;
        }
        let undef = self.undef(Type::scalar(elem));
        let defs: [SsaDef; 4] = parts.map(|p| p.unwrap_or(undef));
        let v = self.vector(elem, &defs);
        Ok(self.convert_vec(v, elem, res, 4))
    }

    /// `AtomicBinOp` and `AtomicCompareExchange` on buffers and textures.
    fn resource_atomic(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        if d.class != ResourceClass::Uav {
            return Err(self.invalid("atomic on a resource that is not a UAV"));
        }
        // 32-bit atomics, and SM 6.6's 64-bit ones (raw and structured buffers through their
        // 32-bit words, typed resources of 64-bit texels).
        let rs = self.scalar_of(inst.ty)?;
        if !matches!(rs, ScalarType::U32 | ScalarType::U64) {
            return Err(self.invalid("atomic on a type other than a 32- or 64-bit integer"));
        }
        let (op, coord0) = if code == C::ATOMIC_BIN_OP {
            let op = match self.arg_const(args, 2, "atomic operation")? {
                0 => AtomicOp::Add,
                1 => AtomicOp::And,
                2 => AtomicOp::Or,
                3 => AtomicOp::Xor,
                4 => AtomicOp::SMin,
                5 => AtomicOp::SMax,
                6 => AtomicOp::UMin,
                7 => AtomicOp::UMax,
                8 => AtomicOp::Exchange,
                other => return Err(self.invalid(format!("atomic operation {other}"))),
            };
            (op, 3)
        } else {
            (AtomicOp::CompareExchange, 2)
        };
        let vty = match d.kind {
            ResourceKind::BufferRaw | ResourceKind::BufferStructured => rs,
            _ => {
                let ok = if rs == ScalarType::U64 {
                    matches!(d.elem, ScalarType::U64 | ScalarType::I64)
                } else {
                    matches!(d.elem, ScalarType::U32 | ScalarType::I32)
                };
                if !ok {
                    return Err(self.invalid(format!(
                        "atomic of {rs} on a typed UAV of {} elements",
                        d.elem
                    )));
                }
                d.elem
            }
        };
        let value = if op == AtomicOp::CompareExchange {
            let c = self.arg_def(args, 5)?;
            let n = self.arg_def(args, 6)?;
            let c = self.convert_scalar(c, rs, vty);
            let n = self.convert_scalar(n, rs, vty);
            self.vector(vty, &[c, n])
        } else {
            let v = self.arg_def(args, 6)?;
            self.convert_scalar(v, rs, vty)
        };
        let r = match d.kind {
            ResourceKind::BufferRaw | ResourceKind::BufferStructured => {
                let a = self.buf_addr(
                    &h,
                    &d,
                    self.arg(args, coord0)?,
                    Some(self.arg(args, coord0 + 1)?),
                )?;
                let (addr, _) = self.word_address(a, 0);
                self.code(
                    Op::new(OpCode::BufferAtomic, vty)
                        .with_ref(h.desc)
                        .with_opt_ref(addr)
                        .with_ref(value)
                        .with_lit(op.to_literal()),
                )
            }
            ResourceKind::BufferTyped => {
                self.mark_fixed_format(&d);
                let i = self.arg_def(args, coord0)?;
                self.code(
                    Op::new(OpCode::BufferAtomic, vty)
                        .with_ref(h.desc)
                        .with_ref(i)
                        .with_ref(value)
                        .with_lit(op.to_literal()),
                )
            }
            kind => {
                self.mark_fixed_format(&d);
                let (coord, layer) = self.texel_coord(args, coord0, kind)?;
                self.code(
                    Op::new(OpCode::ImageAtomic, vty)
                        .with_ref(h.desc)
                        .with_opt_ref(layer)
                        .with_ref(coord)
                        .with_ref(value)
                        .with_lit(op.to_literal()),
                )
            }
        };
        let r = self.convert_scalar(r, vty, rs);
        self.set(inst.result(), Val::Def(r))
    }
}
