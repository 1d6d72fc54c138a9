//! Operands: temporaries (`r#`, `ps_1_x` `t#`), the address and predicate registers,
//! constants (`c#`, `i#`, `b#` and their `def`s), source swizzles and modifiers, and
//! destination writes with write masks, result shifts, saturation, predication and
//! co-issue.
//!
//! Sources are loaded one scalar per component. A destination write applies, in order,
//! the `ps_1_x` result shift, `_sat`, the predicate (`(p0.x) add …` keeps the old value of
//! each component whose predicate is false) and the write mask.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, ScalarType, SsaDef, Type};

use super::{Converter, Lanes, Tmp, R};
use crate::decode::Instruction;
use crate::operand::{Destination, RelativeAddress, Source, SourceModifier};
use crate::register::{Register, RegisterType};

/// The temporaries behind the register files, created on first use.
#[derive(Debug)]
pub(crate) struct RegisterFiles {
    /// `r0`-`r31`, four components each.
    temps: [Option<Tmp>; 128],
    /// `ps_1_1`-`ps_1_3` texture registers `t0`-`t7`.
    texregs: [Option<Tmp>; 32],
    /// `a0`, `i32`.
    addr: [Option<Tmp>; 4],
    /// `p0`, `bool`.
    pred: [Option<Tmp>; 4],
    /// Stores of the instruction a co-issued instruction pairs with, held back until the
    /// co-issued one has read its sources.
    pending: [(Option<Tmp>, Option<SsaDef>); 8],
    /// Entries of `pending` in use.
    pending_len: usize,
    /// Whether stores are being held back.
    pub hold: bool,
}

impl Default for RegisterFiles {
    #[inline]
    fn default() -> Self {
        RegisterFiles {
            temps: [None; 128],
            texregs: [None; 32],
            addr: [None; 4],
            pred: [None; 4],
            pending: [(None, None); 8],
            pending_len: 0,
            hold: false,
        }
    }
}

/// The constant files: descriptors and the size each buffer must have.
#[derive(Debug, Default)]
pub(crate) struct ConstantFiles {
    /// `DclCbv` and its descriptor, for `c#`, `i#`, `b#`.
    float: Option<(SsaDef, SsaDef)>,
    int: Option<(SsaDef, SsaDef)>,
    boolean: Option<(SsaDef, SsaDef)>,
    /// One past the highest `c#` read from the buffer.
    float_end: u32,
    /// A `c#` is read with a run-time index.
    float_relative: bool,
    /// `def`'d registers reachable by relative addressing: the constant arrays of their
    /// values and of which registers are defined, their first register and their span.
    defs: Option<(SsaDef, SsaDef, u32, u32)>,
    /// The index of the last relative read (address, base register, instruction count
    /// when computed, index, in range, clamped index): the components of one source share
    /// it.
    rel_cache: Option<RelCache>,
    /// `c#` rows read so far (register, its `vec4` loaded at the entry of `main`, the
    /// components extracted from it there), up to [`MAX_CACHED_ROWS`]; rows past those are
    /// loaded where they are read.
    rows: smallvec::SmallVec<[super::EntryVec4<u32>; 16]>,
}

impl ConstantFiles {
    /// The `c#` rows loaded at the entry of `main`.
    pub(crate) fn entry_rows(&self) -> &[super::EntryVec4<u32>] {
        &self.rows
    }
}

/// How many `c#` rows are loaded once at the entry (a bound on the search for them).
const MAX_CACHED_ROWS: usize = 64;

/// See `ConstantFiles::rel_cache`.
type RelCache = (RelativeAddress, u32, u32, SsaDef, SsaDef, SsaDef);

/// `1 << i` for a scale shift of `s` (`_x2` is 1, `_d2` is -1).
fn shift_factor(s: i8) -> f32 {
    match s {
        1 => 2.0,
        2 => 4.0,
        3 => 8.0,
        -1 => 0.5,
        -2 => 0.25,
        -3 => 0.125,
        _ => 1.0,
    }
}

impl Converter<'_, '_> {
    // -------------------------------------------------------------------------------------
    // Register temporaries
    // -------------------------------------------------------------------------------------

    /// The `f32` temporary of component `c` of `r{n}` (zero at entry).
    pub(crate) fn temp(&mut self, n: u32, c: u8) -> R<Tmp> {
        let i = (n as usize) * 4 + (c as usize & 3);
        match self.regs.temps.get(i) {
            Some(Some(t)) => Ok(*t),
            Some(None) => {
                let zero = self.c_f32(0.0);
                let t = self.init_tmp(ScalarType::F32, zero);
                self.regs.temps[i] = Some(t);
                Ok(t)
            }
            None => Err(self.invalid(format!("r{n} is out of range"))),
        }
    }

    /// The `f32` temporary of component `c` of `r{n}` for a write that replaces it before
    /// anything reads it: a temporary first met here starts without a value (no zero).
    fn temp_for_write(&mut self, n: u32, c: u8) -> R<Tmp> {
        let i = (n as usize) * 4 + (c as usize & 3);
        match self.regs.temps.get(i) {
            Some(Some(t)) => Ok(*t),
            Some(None) => {
                let t = self.tmp(ScalarType::F32);
                self.regs.temps[i] = Some(t);
                Ok(t)
            }
            None => Err(self.invalid(format!("r{n} is out of range"))),
        }
    }

    /// The `f32` temporary of component `c` of the `ps_1_1`-`ps_1_3` texture register
    /// `t{n}`: it starts as texture coordinate set `n` (so reading a `t#` no texture
    /// instruction wrote gives its coordinate).
    pub(crate) fn texreg(&mut self, n: u32, c: u8) -> R<Tmp> {
        let i = (n as usize) * 4 + (c as usize & 3);
        match self.regs.texregs.get(i) {
            Some(Some(t)) => Ok(*t),
            Some(None) => {
                let v = self.entry_texcoord(n, c)?;
                let t = self.init_tmp(ScalarType::F32, v);
                self.regs.texregs[i] = Some(t);
                Ok(t)
            }
            None => Err(self.invalid(format!("t{n} is out of range"))),
        }
    }

    /// The `i32` temporary of component `c` of `a0`.
    pub(crate) fn addr(&mut self, c: u8) -> Tmp {
        if let Some(t) = self.regs.addr[c as usize & 3] {
            return t;
        }
        let zero = self.c_i32(0);
        let t = self.init_tmp(ScalarType::I32, zero);
        self.regs.addr[c as usize & 3] = Some(t);
        t
    }

    /// The `bool` temporary of component `c` of `p0`.
    pub(crate) fn pred(&mut self, c: u8) -> Tmp {
        if let Some(t) = self.regs.pred[c as usize & 3] {
            return t;
        }
        let f = self.c_bool(false);
        let t = self.init_tmp(ScalarType::Bool, f);
        self.regs.pred[c as usize & 3] = Some(t);
        t
    }

    // -------------------------------------------------------------------------------------
    // Sources
    // -------------------------------------------------------------------------------------

    /// The run-time value of a relative address: `a0.<c>` or the innermost `aL`, as `i32`.
    pub(crate) fn relative_value(&mut self, rel: &RelativeAddress) -> R<SsaDef> {
        match rel.register.ty {
            RegisterType::Address => {
                let t = self.addr(rel.component());
                Ok(self.load_tmp(t, ScalarType::I32))
            }
            RegisterType::Loop => self.loop_counter_value(),
            _ => Err(self.invalid("relative address is neither a0 nor aL")),
        }
    }

    /// Component `c` of source register `s` (relative address included), as `f32`,
    /// before the source modifier.
    pub(crate) fn read_component(&mut self, s: &Source, c: u8) -> R<SsaDef> {
        use RegisterType as T;
        let r = s.register;
        match r.ty {
            T::Temp => {
                let t = self.temp(r.index, c)?;
                Ok(self.load_tmp(t, ScalarType::F32))
            }
            T::Texture if self.version.major == 1 && self.version.minor < 4 => {
                let t = self.texreg(r.index, c)?;
                Ok(self.load_tmp(t, ScalarType::F32))
            }
            T::Texture => self.texcoord(r.index, c),
            T::Const => self.float_constant(r.index, s.relative.as_ref(), c),
            T::Input => self.input(r.index, s.relative.as_ref(), c),
            T::MiscType => self.misc_input(r.index, c),
            _ => Err(self.invalid(format!("{r} cannot be read as a float"))),
        }
    }

    /// Applies a source modifier to one component.
    pub(crate) fn modify(&mut self, v: SsaDef, m: SourceModifier) -> R<SsaDef> {
        use SourceModifier as M;
        let f = ScalarType::F32;
        Ok(match m {
            M::None | M::Dz | M::Dw => v,
            M::Negate => self.op1(OpCode::FNeg, f, v),
            M::Bias | M::BiasNegate => {
                let h = self.c_f32(0.5);
                let b = self.op2(OpCode::FSub, f, v, h);
                if m == M::BiasNegate {
                    self.op1(OpCode::FNeg, f, b)
                } else {
                    b
                }
            }
            M::Sign | M::SignNegate => {
                let two = self.c_f32(2.0);
                let one = self.c_f32(-1.0);
                let s = self.op3(OpCode::FMad, f, v, two, one);
                if m == M::SignNegate {
                    self.op1(OpCode::FNeg, f, s)
                } else {
                    s
                }
            }
            M::Complement => {
                let one = self.c_f32(1.0);
                self.op2(OpCode::FSub, f, one, v)
            }
            M::X2 | M::X2Negate => {
                let s = self.op2(OpCode::FAdd, f, v, v);
                if m == M::X2Negate {
                    self.op1(OpCode::FNeg, f, s)
                } else {
                    s
                }
            }
            M::Abs => self.op1(OpCode::FAbs, f, v),
            M::AbsNegate => {
                let a = self.op1(OpCode::FAbs, f, v);
                self.op1(OpCode::FNeg, f, a)
            }
            M::Not => return Err(self.invalid("! applied to a float register")),
        })
    }

    /// Loads the lanes of `mask` (bit 0 = x) of source `s`: lane `l` is component
    /// `swizzle[l]` with the modifier applied. `_dz`/`_dw` divide x and y by z or w.
    pub(crate) fn src(&mut self, s: &Source, mask: u8) -> R<Lanes> {
        let mut comps: Lanes = [None; 4];
        let mut out: Lanes = [None; 4];
        let project = matches!(s.modifier, SourceModifier::Dz | SourceModifier::Dw);
        for (l, o) in out.iter_mut().enumerate() {
            if mask & (1 << l) == 0 {
                continue;
            }
            let c = s.swizzle.lane(l) as usize;
            let v = match comps[c] {
                Some(v) => v,
                None => {
                    let raw = self.read_component(s, c as u8)?;
                    let v = self.modify(raw, s.modifier)?;
                    comps[c] = Some(v);
                    v
                }
            };
            *o = Some(v);
        }
        if project {
            let d = if s.modifier == SourceModifier::Dz {
                2
            } else {
                3
            };
            let dc = s.swizzle.lane(d) as usize;
            let div = match comps[dc] {
                Some(v) => v,
                None => self.read_component(s, dc as u8)?,
            };
            for l in out.iter_mut().take(2).flatten() {
                *l = self.op2(OpCode::FDiv, ScalarType::F32, *l, div);
            }
        }
        Ok(out)
    }

    /// All four lanes of `s`.
    pub(crate) fn src4(&mut self, s: &Source) -> R<[SsaDef; 4]> {
        let l = self.src(s, 0xF)?;
        self.all4(l)
    }

    /// The four values of fully loaded lanes.
    pub(crate) fn all4(&self, l: Lanes) -> R<[SsaDef; 4]> {
        match l {
            [Some(x), Some(y), Some(z), Some(w)] => Ok([x, y, z, w]),
            _ => Err(self.invalid("missing source component")),
        }
    }

    /// The scalar of a replicate-swizzle source: Direct3D 9 reads the component in the
    /// `w` lane (`.x` for `r0.x`, `.w` for `r0` without a swizzle).
    pub(crate) fn src_scalar(&mut self, s: &Source) -> R<SsaDef> {
        let l = self.src(s, 0x8)?;
        l[3].ok_or_else(|| self.invalid("missing source component"))
    }

    /// Source `i` of `inst`.
    pub(crate) fn source<'i>(&self, inst: &'i Instruction<'_>, i: usize) -> R<&'i Source> {
        inst.src(i)
            .ok_or_else(|| self.invalid(format!("missing source {i}")))
    }

    /// The destination of `inst`.
    pub(crate) fn destination<'i>(&self, inst: &'i Instruction<'_>) -> R<&'i Destination> {
        inst.dst
            .as_ref()
            .ok_or_else(|| self.invalid("missing destination"))
    }

    // -------------------------------------------------------------------------------------
    // Constants
    // -------------------------------------------------------------------------------------

    /// Component `c` of `c{index}` (or `c[index + rel]`).
    fn float_constant(&mut self, index: u32, rel: Option<&RelativeAddress>, c: u8) -> R<SsaDef> {
        let clamp = self.version.is_pixel() && self.version.major == 1;
        let Some(rel) = rel else {
            if let Some(vals) = self.pre.def_f(index) {
                let mut v = f32::from_bits(vals[c as usize & 3]);
                if clamp {
                    v = v.clamp(-1.0, 1.0);
                }
                return Ok(self.c_f32(v));
            }
            self.consts.float_end = self.consts.float_end.max(index + 1);
            return Ok(self.float_row_component(index, c, clamp));
        };
        // c[index + rel]: the buffer read at a clamped index, zero past the file, and the
        // def'd registers' literals where the index names one. The index is computed once
        // per source operand.
        self.consts.float_relative = true;
        let (idx, in_range, clamped) = match self.consts.rel_cache {
            Some((r, i, k, a, b, c)) if r == *rel && i == index && k == self.converted => (a, b, c),
            _ => {
                let count = self.limits.float_const.max;
                let r = self.relative_value(rel)?;
                let base = self.c_i32(index as i32);
                let idx = self.op2(OpCode::IAdd, ScalarType::I32, r, base);
                let idx = self.op1(OpCode::Cast, ScalarType::U32, idx);
                let last = self.c_u32(count.saturating_sub(1));
                let in_range = self.op2(OpCode::ULe, ScalarType::Bool, idx, last);
                let clamped = self.op2(OpCode::UMin, ScalarType::U32, idx, last);
                self.consts.rel_cache = Some((*rel, index, self.converted, idx, in_range, clamped));
                (idx, in_range, clamped)
            }
        };
        let desc = self.float_buffer();
        let loaded = self.buffer_load_f32(desc, clamped, c);
        let zero = self.c_f32(0.0);
        let mut v = self.select_f(in_range, loaded, zero);
        if let Some((vals, flags, first, span)) = self.def_arrays() {
            let f = self.c_u32(first);
            let off = self.op2(OpCode::ISub, ScalarType::U32, idx, f);
            let last = self.c_u32(span - 1);
            let inside = self.op2(OpCode::ULe, ScalarType::Bool, off, last);
            let off = self.op2(OpCode::UMin, ScalarType::U32, off, last);
            let flag = self.op2(OpCode::ConstantLoad, ScalarType::U32, flags, off);
            let zero = self.c_u32(0);
            let defined = self.op2(OpCode::INe, ScalarType::Bool, flag, zero);
            let defined = self.op2(OpCode::BAnd, ScalarType::Bool, defined, inside);
            let addr = self.addr2(off, u32::from(c & 3));
            let lit = self.op2(OpCode::ConstantLoad, ScalarType::F32, vals, addr);
            v = self.select_f(defined, lit, v);
        }
        Ok(if clamp { self.clamp_unit(v) } else { v })
    }

    /// `ps_1_x` constants read clamped to [-1, 1].
    fn clamp_unit(&mut self, v: SsaDef) -> SsaDef {
        let lo = self.c_f32(-1.0);
        let hi = self.c_f32(1.0);
        self.op3(OpCode::FClamp, ScalarType::F32, v, lo, hi)
    }

    /// The constant arrays of the `def`'d float registers (made once).
    fn def_arrays(&mut self) -> Option<(SsaDef, SsaDef, u32, u32)> {
        if let Some(d) = self.consts.defs {
            return Some(d);
        }
        let first = self.pre.defs_f.first()?.0;
        let last = self.pre.defs_f.last()?.0;
        let span = last - first + 1;
        let mut vals = Vec::with_capacity(span as usize * 4);
        let mut flags = Vec::with_capacity(span as usize);
        let clamp = self.version.is_pixel() && self.version.major == 1;
        for i in first..=last {
            match self.pre.def_f(i) {
                Some(v) => {
                    for x in v {
                        let x = if clamp {
                            f32::from_bits(x).clamp(-1.0, 1.0).to_bits()
                        } else {
                            x
                        };
                        vals.push(u64::from(x));
                    }
                    flags.push(1);
                }
                None => {
                    vals.extend_from_slice(&[0; 4]);
                    flags.push(0);
                }
            }
        }
        let vty = Type::vector(ScalarType::F32, 4).array_of(span).ok()?;
        let fty = Type::scalar(ScalarType::U32).array_of(span).ok()?;
        let v = self.b.add_constant(vty, &vals);
        let f = self.b.add_constant(fty, &flags);
        self.consts.defs = Some((v, f, first, span));
        self.consts.defs
    }

    /// The address (`row`, `c`) of a component of a `vec4` array: a constant when `row` is.
    pub(crate) fn addr2(&mut self, row: SsaDef, c: u32) -> SsaDef {
        let known = self
            .b
            .get(row)
            .filter(|op| op.opcode == OpCode::Constant && op.ty == Type::scalar(ScalarType::U32))
            .and_then(|op| op.lit(0));
        match known {
            Some(r) => self
                .b
                .add_constant(Type::vector(ScalarType::U32, 2), &[r, u64::from(c)]),
            None => {
                let cc = self.c_u32(c);
                self.vector(ScalarType::U32, &[row, cc])
            }
        }
    }

    /// Component `c` of `c{index}` read from the buffer: the row is loaded whole, once, at
    /// the entry of `main` (the buffer is read-only), and each component extracted there
    /// once. With `clamp` (`ps_1_x`) the row is clamped to [-1, 1] there: as one vector, or
    /// where the shader names one component of it only, that component as a scalar.
    fn float_row_component(&mut self, index: u32, c: u8, clamp: bool) -> SsaDef {
        let c = usize::from(c & 3);
        let lanes = self
            .pre
            .const_lanes
            .get(index as usize)
            .copied()
            .unwrap_or(0xF);
        let scalar_clamp = clamp && lanes.count_ones() < 2;
        let clamp = clamp && !scalar_clamp;
        let desc = self.float_buffer();
        let at = match self.consts.rows.iter().position(|(r, ..)| *r == index) {
            Some(i) => i,
            None if self.consts.rows.len() < MAX_CACHED_ROWS => {
                let row = self.c_u32(index);
                let vec4 = Type::vector(ScalarType::F32, 4);
                let mut v = self.entry(
                    Op::new(OpCode::BufferLoad, vec4)
                        .with_ref(desc)
                        .with_ref(row)
                        .with_lit(16),
                );
                if clamp {
                    let lo = u64::from((-1.0f32).to_bits());
                    let lo = self.vec4_constant([lo; 4]);
                    let hi = u64::from(1.0f32.to_bits());
                    let hi = self.vec4_constant([hi; 4]);
                    v = self.entry(
                        Op::new(OpCode::FClamp, vec4)
                            .with_ref(v)
                            .with_ref(lo)
                            .with_ref(hi),
                    );
                }
                self.consts.rows.push((index, v, [None; 4]));
                self.consts.rows.len() - 1
            }
            None => {
                let row = self.c_u32(index);
                let v = self.buffer_load_f32(desc, row, c as u8);
                return if clamp || scalar_clamp {
                    self.clamp_unit(v)
                } else {
                    v
                };
            }
        };
        let (_, v, comps) = self.consts.rows[at];
        if let Some(x) = comps[c] {
            return x;
        }
        let idx = self.c_u32(c as u32);
        let mut x = self.entry(
            Op::new(OpCode::CompositeExtract, ScalarType::F32)
                .with_ref(v)
                .with_ref(idx),
        );
        if scalar_clamp {
            let lo = self.c_f32(-1.0);
            let hi = self.c_f32(1.0);
            x = self.entry(
                Op::new(OpCode::FClamp, ScalarType::F32)
                    .with_ref(x)
                    .with_ref(lo)
                    .with_ref(hi),
            );
        }
        self.consts.rows[at].2[c] = Some(x);
        x
    }

    /// A `BufferLoad` of component `c` of row `row` (a `u32` def) of a `vec4` buffer.
    fn buffer_load_f32(&mut self, desc: SsaDef, row: SsaDef, c: u8) -> SsaDef {
        let addr = self.addr2(row, u32::from(c & 3));
        self.code(
            Op::new(OpCode::BufferLoad, ScalarType::F32)
                .with_ref(desc)
                .with_ref(addr)
                .with_lit(4),
        )
    }

    /// Declares a constant buffer of `ty` at `b{register}` with its descriptor loaded at
    /// the entry of `main`.
    pub(crate) fn constant_buffer(
        &mut self,
        ty: Type,
        register: u32,
        name: &str,
    ) -> (SsaDef, SsaDef) {
        let ep = self.ep;
        let d = self.decl(
            Op::new(OpCode::DclCbv, ty)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(u64::from(register))
                .with_lit(1),
        );
        self.name(d, name);
        let zero = self.c_u32(0);
        let desc = self.entry(
            Op::new(OpCode::DescriptorLoad, ScalarType::Cbv)
                .with_ref(d)
                .with_ref(zero),
        );
        (d, desc)
    }

    /// The descriptor of the float constant buffer.
    fn float_buffer(&mut self) -> SsaDef {
        if let Some((_, d)) = self.consts.float {
            return d;
        }
        // Sized at the end, once the highest register read is known.
        let ty = Type::vector(ScalarType::F32, 4);
        let r = self.constant_buffer(ty, 0, "d3d9_float_constants");
        self.consts.float = Some(r);
        r.1
    }

    /// Component `c` of integer constant `i{index}`.
    pub(crate) fn int_constant(&mut self, index: u32, c: u8) -> R<SsaDef> {
        if let Some(v) = self.pre.def_i(index) {
            return Ok(self.c_i32(v[c as usize & 3]));
        }
        let desc = match self.consts.int {
            Some((_, d)) => d,
            None => {
                let n = self.int_count();
                let ty = Type::vector(ScalarType::I32, 4)
                    .array_of(n)
                    .map_err(|e| self.invalid(e.to_string()))?;
                let r = self.constant_buffer(ty, 1, "d3d9_int_constants");
                self.consts.int = Some(r);
                r.1
            }
        };
        let row = self.c_u32(index);
        let addr = self.addr2(row, u32::from(c & 3));
        Ok(self.code(
            Op::new(OpCode::BufferLoad, ScalarType::I32)
                .with_ref(desc)
                .with_ref(addr)
                .with_lit(4),
        ))
    }

    fn int_count(&self) -> u32 {
        self.limits.int_const.max.max(1)
    }

    /// Boolean constant `b{index}` as a `bool`.
    pub(crate) fn bool_constant(&mut self, index: u32) -> R<SsaDef> {
        if let Some(v) = self.pre.def_b(index) {
            return Ok(self.c_bool(v));
        }
        let desc = match self.consts.boolean {
            Some((_, d)) => d,
            None => {
                // Bit `#` of the buffer's words: 128 booleans per vec4<u32> row.
                let n = self.bool_rows();
                let ty = Type::vector(ScalarType::U32, 4)
                    .array_of(n)
                    .map_err(|e| self.invalid(e.to_string()))?;
                let r = self.constant_buffer(ty, 2, "d3d9_bool_constants");
                self.consts.boolean = Some(r);
                r.1
            }
        };
        let word = index / 32;
        let row = self.c_u32(word / 4);
        let addr = self.addr2(row, word % 4);
        let w = self.code(
            Op::new(OpCode::BufferLoad, ScalarType::U32)
                .with_ref(desc)
                .with_ref(addr)
                .with_lit(4),
        );
        let bit = self.c_u32(1 << (index % 32));
        let masked = self.op2(OpCode::IAnd, ScalarType::U32, w, bit);
        let zero = self.c_u32(0);
        Ok(self.op2(OpCode::INe, ScalarType::Bool, masked, zero))
    }

    fn bool_rows(&self) -> u32 {
        self.limits.bool_const.max.div_ceil(128).max(1)
    }

    /// Sizes the float constant buffer: the model's count when it is indexed at run time,
    /// else up to the highest register read.
    pub(crate) fn finish_constants(&mut self) -> R<()> {
        let Some((dcl, _)) = self.consts.float else {
            return Ok(());
        };
        let n = if self.consts.float_relative {
            self.limits.float_const.max
        } else {
            self.consts.float_end
        };
        let ty = Type::vector(ScalarType::F32, 4)
            .array_of(n.max(1))
            .map_err(|e| self.invalid(e.to_string()))?;
        self.b.set_type(dcl, ty);
        Ok(())
    }

    // -------------------------------------------------------------------------------------
    // Conditions
    // -------------------------------------------------------------------------------------

    /// A boolean source of `if`, `callnz` and `breakp`: `b#`, `!b#`, `p0.c`, `!p0.c`.
    pub(crate) fn condition(&mut self, s: &Source) -> R<SsaDef> {
        let v = match s.register.ty {
            RegisterType::ConstBool => self.bool_constant(s.register.index)?,
            RegisterType::Predicate => {
                let t = self.pred(s.swizzle.lane(0));
                self.load_tmp(t, ScalarType::Bool)
            }
            _ => return Err(self.invalid(format!("{} is not a boolean", s.register))),
        };
        Ok(match s.modifier {
            SourceModifier::Not => self.op1(OpCode::BNot, ScalarType::Bool, v),
            SourceModifier::None => v,
            _ => return Err(self.invalid("modifier on a boolean condition")),
        })
    }

    // -------------------------------------------------------------------------------------
    // Destinations
    // -------------------------------------------------------------------------------------

    /// Writes the lanes of `vals` to the destination of `inst`: shift, saturate, predicate,
    /// write mask.
    pub(crate) fn write(&mut self, inst: &Instruction<'_>, vals: Lanes) -> R<()> {
        let d = *self.destination(inst)?;
        let mut vals = vals;
        let mask = d.write_mask.0 & 0xF;
        let f = ScalarType::F32;
        if d.shift != 0 {
            let k = self.c_f32(shift_factor(d.shift));
            for (l, slot) in vals.iter_mut().enumerate() {
                if let (true, Some(v)) = (mask & (1 << l) != 0, *slot) {
                    *slot = Some(self.op2(OpCode::FMul, f, v, k));
                }
            }
        }
        if d.saturate {
            let zero = self.c_f32(0.0);
            let one = self.c_f32(1.0);
            for (l, slot) in vals.iter_mut().enumerate() {
                if let (true, Some(v)) = (mask & (1 << l) != 0, *slot) {
                    *slot = Some(self.op3(OpCode::FClamp, f, v, zero, one));
                }
            }
        }
        let pred = inst.predicate;
        // An unpredicated write in the entry block replaces what the register held, and
        // nothing can have read it yet (a co-issued partner may: not while one is held).
        let overwrite = pred.is_none() && !self.regs.hold && !self.tmp_values.left_entry;
        if pred.is_none() && !self.regs.hold && d.register.ty == RegisterType::Temp {
            // The common write: each lane straight into its register's temporary.
            for l in 0..4u8 {
                if let (true, Some(v)) = (mask & (1 << l) != 0, vals[l as usize]) {
                    let t = if overwrite {
                        self.temp_for_write(d.register.index, l)?
                    } else {
                        self.temp(d.register.index, l)?
                    };
                    self.store_tmp(t, v);
                }
            }
            return Ok(());
        }
        for l in 0..4u8 {
            if mask & (1 << l) == 0 {
                continue;
            }
            let Some(mut v) = vals[l as usize] else {
                continue;
            };
            let target = self.dst_target(&d, l, overwrite)?;
            if let Some(p) = &pred {
                let pt = self.pred(p.swizzle.lane(l as usize));
                let mut cond = self.load_tmp(pt, ScalarType::Bool);
                if p.modifier == SourceModifier::Not {
                    cond = self.op1(OpCode::BNot, ScalarType::Bool, cond);
                }
                let old = self.read_target(&target)?;
                v = self.op3(OpCode::Select, f, cond, v, old);
            }
            self.store_target(target, v)?;
        }
        Ok(())
    }

    /// Where component `l` of a destination goes. With `overwrite` (the write replaces the
    /// component before anything can read it), a register or output first met here gets no
    /// initial value: its default would never be read.
    fn dst_target(&mut self, d: &Destination, l: u8, overwrite: bool) -> R<Target> {
        use RegisterType as T;
        let r = d.register;
        Ok(match r.ty {
            T::Temp if overwrite => Target::Tmp(self.temp_for_write(r.index, l)?),
            T::Temp => Target::Tmp(self.temp(r.index, l)?),
            T::Texture if self.version.major == 1 && self.version.minor < 4 => {
                Target::Tmp(self.texreg(r.index, l)?)
            }
            T::RastOut | T::AttrOut | T::TexCrdOut | T::Output | T::ColorOut | T::DepthOut => {
                match &d.relative {
                    None => Target::Tmp(self.output_shadow(r.ty, r.index, l, overwrite)?),
                    Some(rel) => {
                        let idx = self.relative_value(rel)?;
                        Target::Indexed(r, idx, l)
                    }
                }
            }
            _ => return Err(self.invalid(format!("{r} cannot be written by this instruction"))),
        })
    }

    /// The current value of a target (for predicated writes).
    fn read_target(&mut self, t: &Target) -> R<SsaDef> {
        match *t {
            Target::Tmp(t) => Ok(self.load_tmp(t, ScalarType::F32)),
            // A predicated write through a relative output address keeps each output's
            // own old value: the select chain reads it.
            Target::Indexed(..) => {
                Err(self.unsupported("predicated write to a relatively addressed output"))
            }
        }
    }

    /// Stores one component, held back while a co-issued instruction may still read.
    fn store_target(&mut self, t: Target, v: SsaDef) -> R<()> {
        match t {
            Target::Tmp(t) => {
                if self.regs.hold {
                    if let Some(slot) = self.regs.pending.get_mut(self.regs.pending_len) {
                        *slot = (Some(t), Some(v));
                        self.regs.pending_len += 1;
                        return Ok(());
                    }
                }
                self.store_tmp(t, v);
                Ok(())
            }
            Target::Indexed(r, idx, l) => self.store_output_indexed(r, idx, l, v),
        }
    }

    /// Holds back the stores of the current instruction if the next one is co-issued with
    /// it (it must read the registers as they were).
    pub(crate) fn hold_if_coissued(&mut self, inst: &Instruction<'_>) {
        let next = inst.offset as usize + inst.len as usize;
        let coissued = self
            .shader
            .tokens
            .get(next)
            .is_some_and(|t| t & (1 << 30) != 0 && t & 0x8000_0000 == 0 && t & 0xFFFF < 0xFFFD);
        self.regs.hold = coissued && self.version.is_pixel() && self.version.major == 1;
    }

    /// Performs the held-back stores.
    pub(crate) fn flush_coissue(&mut self) {
        self.regs.hold = false;
        let n = std::mem::take(&mut self.regs.pending_len);
        for i in 0..n {
            if let Some((Some(t), Some(v))) = self.regs.pending.get(i).copied() {
                self.store_tmp(t, v);
            }
        }
    }
}

/// Where one component of a destination goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Target {
    /// A temporary (a register or an output's shadow).
    Tmp(Tmp),
    /// An output register addressed at run time: register, index value (`i32`, added to
    /// the register number), component.
    Indexed(Register, SsaDef, u8),
}
