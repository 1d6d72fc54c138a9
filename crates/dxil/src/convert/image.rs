//! Textures and typed buffers: every sample, compare, gather, load and store operation,
//! size queries, LOD computation and sample positions.
//!
//! DXIL passes coordinates, offsets and gradients as separate scalars with `undef` for the
//! unused ones; the active ones for the resource's kind are gathered into IR vectors (the
//! array slice last, as the IR's separate layer operand). Results are the resource type's
//! `vec4` (a scalar for depth compares) converted to the operation's overload type, read
//! by `extractvalue`; sparse feedback is requested only when the status is read.

use dxspv_ir::frontend::{image_shape, FrontendBuilder, STANDARD_SAMPLE_POSITIONS};
use dxspv_ir::{
    BuiltIn, InterpolationModes, Op, OpCode, OpFlags, ResourceKind, ScalarType, SsaDef, Type,
};

use super::dx_op::code as C;
use super::values::{AggKind, Val};
use super::{Args, Converter, R};
use crate::dx::ResourceClass;
use crate::module::Instruction;

/// Operand positions of a sampling operation (after the coordinates and offsets).
#[derive(Default, Clone, Copy)]
struct SampleArgs {
    bias: Option<usize>,
    lod: Option<usize>,
    lod_zero: bool,
    grad: Option<usize>,
    cmp: Option<usize>,
    clamp: Option<usize>,
}

impl<'s> Converter<'s> {
    /// Texture operations.
    pub(crate) fn image_op(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let s = SampleArgs::default();
        match code {
            C::SAMPLE => self.sample(
                args,
                inst,
                SampleArgs {
                    clamp: Some(10),
                    ..s
                },
            ),
            C::SAMPLE_BIAS => self.sample(
                args,
                inst,
                SampleArgs {
                    bias: Some(10),
                    clamp: Some(11),
                    ..s
                },
            ),
            C::SAMPLE_LEVEL => self.sample(args, inst, SampleArgs { lod: Some(10), ..s }),
            C::SAMPLE_GRAD => self.sample(
                args,
                inst,
                SampleArgs {
                    grad: Some(10),
                    clamp: Some(16),
                    ..s
                },
            ),
            C::SAMPLE_CMP => self.sample(
                args,
                inst,
                SampleArgs {
                    cmp: Some(10),
                    clamp: Some(11),
                    ..s
                },
            ),
            C::SAMPLE_CMP_LEVEL_ZERO => self.sample(
                args,
                inst,
                SampleArgs {
                    cmp: Some(10),
                    lod_zero: true,
                    ..s
                },
            ),
            C::SAMPLE_CMP_LEVEL => self.sample(
                args,
                inst,
                SampleArgs {
                    cmp: Some(10),
                    lod: Some(11),
                    ..s
                },
            ),
            C::SAMPLE_CMP_GRAD => self.sample(
                args,
                inst,
                SampleArgs {
                    cmp: Some(10),
                    grad: Some(11),
                    clamp: Some(17),
                    ..s
                },
            ),
            C::SAMPLE_CMP_BIAS => self.sample(
                args,
                inst,
                SampleArgs {
                    cmp: Some(10),
                    bias: Some(11),
                    clamp: Some(12),
                    ..s
                },
            ),
            C::TEXTURE_GATHER | C::TEXTURE_GATHER_CMP | C::TEXTURE_GATHER_RAW => {
                self.gather(code, args, inst)
            }
            C::TEXTURE_LOAD => self.texture_load(args, inst),
            C::TEXTURE_STORE => self.texture_store(args, false),
            C::TEXTURE_STORE_SAMPLE => self.texture_store(args, true),
            C::GET_DIMENSIONS => self.dimensions(args, inst),
            C::CALCULATE_LOD => self.calculate_lod(args, inst),
            C::TEXTURE_2DMS_GET_SAMPLE_POSITION => {
                let (h, d) = self.handle(self.arg(args, 1)?)?;
                if !d.kind.is_multisampled() {
                    return Err(
                        self.invalid("sample position of a texture that is not multisampled")
                    );
                }
                let count = self.op1(OpCode::ImageQuerySamples, ScalarType::U32, h.desc);
                let index = self.arg_def(args, 2)?;
                let v = self.sample_position(count, index)?;
                self.set(inst.result(), v)
            }
            C::RENDER_TARGET_GET_SAMPLE_POSITION => {
                let count = self.sample_count()?;
                let index = self.arg_def(args, 1)?;
                let v = self.sample_position(count, index)?;
                self.set(inst.result(), v)
            }
            C::RENDER_TARGET_GET_SAMPLE_COUNT => {
                let v = self.sample_count()?;
                self.set(inst.result(), Val::Def(v))
            }
            _ => Err(self.invalid("not a texture operation")),
        }
    }

    /// Texel coordinates (`u32`) from arguments `first..` for `kind`: `(coord, layer)`.
    pub(crate) fn texel_coord(
        &mut self,
        args: &Args,
        first: usize,
        kind: ResourceKind,
    ) -> R<(SsaDef, Option<SsaDef>)> {
        let (n, layered, _, _) = image_shape(kind);
        let mut parts = smallvec::SmallVec::<[SsaDef; 3]>::new();
        for i in 0..n {
            parts.push(self.arg_def(args, first + i)?);
        }
        let coord = self.vector(ScalarType::U32, &parts);
        let layer = if layered {
            Some(self.arg_def(args, first + n)?)
        } else {
            None
        };
        Ok((coord, layer))
    }

    /// Sampling coordinates (`f32`) from arguments `first..` for `kind`.
    fn sample_coord(
        &mut self,
        args: &Args,
        first: usize,
        kind: ResourceKind,
    ) -> R<(SsaDef, Option<SsaDef>)> {
        let (n, layered, _, _) = image_shape(kind);
        let mut parts = smallvec::SmallVec::<[SsaDef; 3]>::new();
        for i in 0..n {
            let v = self.arg_def(args, first + i)?;
            parts.push(self.f32_arg(v));
        }
        let coord = self.vector(ScalarType::F32, &parts);
        let layer = if layered {
            let v = self.arg_def(args, first + n)?;
            Some(self.f32_arg(v))
        } else {
            None
        };
        Ok((coord, layer))
    }

    /// A float argument as `f32` (DXIL passes `float`; min-precision values widen).
    fn f32_arg(&mut self, v: SsaDef) -> SsaDef {
        match self.b.op(v).ty.base_type() {
            Some(ScalarType::F32) | None => v,
            Some(s) => self.convert_scalar(v, s, ScalarType::F32),
        }
    }

    /// Constant texel offsets from arguments `first..first + n`: `None` when all are zero or
    /// `undef`; an error when one is not a constant and `dynamic` is false.
    fn offsets(&mut self, args: &Args, first: usize, n: usize, dynamic: bool) -> R<Option<SsaDef>> {
        if n == 0 {
            return Ok(None);
        }
        let mut lits = [0u64; 3];
        let mut all_const = true;
        let mut parts = smallvec::SmallVec::<[SsaDef; 3]>::new();
        for (i, lit) in lits.iter_mut().enumerate().take(n) {
            let a = self.arg(args, first + i)?;
            if self.is_undef(a) {
                parts.push(self.c_i32(0));
                continue;
            }
            match self.const_int(a) {
                Some(v) => {
                    *lit = v as i32 as u32 as u64;
                    parts.push(self.c_i32(v as i32));
                }
                None => {
                    all_const = false;
                    let d = self.def(a)?;
                    parts.push(self.op1(OpCode::Cast, ScalarType::I32, d));
                }
            }
        }
        if all_const {
            if lits[..n].iter().all(|&l| l == 0) {
                return Ok(None);
            }
            return Ok(Some(if n == 1 {
                self.c_i32(lits[0] as u32 as i32)
            } else {
                self.b
                    .add_constant(Type::vector(ScalarType::I32, n as u8), &lits[..n])
            }));
        }
        if !dynamic {
            return Err(self.invalid("texel offset is not a constant"));
        }
        Ok(Some(self.vector(ScalarType::I32, &parts)))
    }

    /// A float argument, `None` if `undef`.
    fn float_arg(&mut self, args: &Args, i: usize) -> R<Option<SsaDef>> {
        Ok(self.arg_opt(args, i)?.map(|v| self.f32_arg(v)))
    }

    /// The sparse flag for a result whose status is read.
    fn sparse_flags(&self, inst: &Instruction) -> OpFlags {
        if self.members_used(inst) & 0x10 != 0 {
            OpFlags::SPARSE_FEEDBACK
        } else {
            OpFlags::empty()
        }
    }

    /// `Sample*` operations.
    fn sample(&mut self, args: &Args, inst: &'s Instruction, a: SampleArgs) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        let (s, _) = self.handle(self.arg(args, 2)?)?;
        if d.kind.is_buffer() || d.kind.is_multisampled() {
            return Err(self.invalid("sampling a buffer or a multisampled texture"));
        }
        let (n, _, _, on) = image_shape(d.kind);
        let (coord, layer) = self.sample_coord(args, 3, d.kind)?;
        let offset = self.offsets(args, 7, on, false)?;
        let lod = match (a.lod, a.lod_zero) {
            (Some(i), _) => self.float_arg(args, i)?,
            (None, true) => Some(self.c_f32(0.0)),
            _ => None,
        };
        let bias = match a.bias {
            Some(i) => self.float_arg(args, i)?,
            None => None,
        };
        let clamp = match a.clamp {
            Some(i) => self
                .float_arg(args, i)?
                .filter(|&c| self.const_of(c) != Some(0)),
            None => None,
        };
        let (dx, dy) = match a.grad {
            Some(i) => {
                let mut gx = smallvec::SmallVec::<[SsaDef; 3]>::new();
                let mut gy = smallvec::SmallVec::<[SsaDef; 3]>::new();
                for k in 0..n {
                    let x = self.arg_def(args, i + k)?;
                    gx.push(self.f32_arg(x));
                    let y = self.arg_def(args, i + 3 + k)?;
                    gy.push(self.f32_arg(y));
                }
                (
                    Some(self.vector(ScalarType::F32, &gx)),
                    Some(self.vector(ScalarType::F32, &gy)),
                )
            }
            None => (None, None),
        };
        let cmp = match a.cmp {
            Some(i) => {
                if d.kind == ResourceKind::Image3D {
                    return Err(self.invalid("depth compare on a 3D texture"));
                }
                Some(self.arg_def(args, i).map(|v| self.f32_arg(v))?)
            }
            None => None,
        };
        let flags = self.sparse_flags(inst);
        let want = self.overload(inst)?;
        let v = if cmp.is_some() {
            self.compare_read(flags, |me, ty, fl| {
                me.code(
                    sample_op(
                        ty, h.desc, s.desc, layer, coord, offset, lod, bias, clamp, dx, dy, cmp,
                    )
                    .with_flags(fl),
                )
            })?
        } else {
            self.typed_read(h.desc, d.elem, want, flags, |me, ty, fl| {
                me.code(
                    sample_op(
                        ty, h.desc, s.desc, layer, coord, offset, lod, bias, clamp, dx, dy, None,
                    )
                    .with_flags(fl),
                )
            })?
        };
        self.set(inst.result(), v)
    }

    /// A depth-compare read: a scalar `f32` result (in member 0), with feedback if asked.
    fn compare_read(
        &mut self,
        flags: OpFlags,
        make: impl FnOnce(&mut Self, Type, OpFlags) -> SsaDef,
    ) -> R<Val> {
        let sparse = flags.contains(OpFlags::SPARSE_FEEDBACK);
        let ty = if sparse {
            Type::structure(&[
                dxspv_ir::BasicType::scalar(ScalarType::U32),
                dxspv_ir::BasicType::scalar(ScalarType::F32),
            ])
            .map_err(|e| self.type_error(e))?
        } else {
            Type::scalar(ScalarType::F32)
        };
        let v = make(self, ty, flags);
        let (data, feedback) = if sparse {
            let fb = self.extract(ScalarType::U32, v, 0);
            (self.extract(ScalarType::F32, v, 1), Some(fb))
        } else {
            (v, None)
        };
        Ok(Val::Agg(data, AggKind::Texel { n: 1, feedback }))
    }

    /// `TextureGather`, `TextureGatherCmp`, `TextureGatherRaw`.
    fn gather(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        let (s, _) = self.handle(self.arg(args, 2)?)?;
        if !matches!(
            d.kind,
            ResourceKind::Image2D
                | ResourceKind::Image2DArray
                | ResourceKind::ImageCube
                | ResourceKind::ImageCubeArray
        ) {
            return Err(
                self.invalid("gather from a texture that is not 2D, 2D array, cube or cube array")
            );
        }
        let (_, _, _, on) = image_shape(d.kind);
        let (coord, layer) = self.sample_coord(args, 3, d.kind)?;
        let offset = self.offsets(args, 7, on.min(2), true)?;
        let (component, cmp) = match code {
            C::TEXTURE_GATHER => (self.arg_const(args, 9, "gather channel")? as u64, None),
            C::TEXTURE_GATHER_CMP => {
                let c = self.arg_def(args, 10)?;
                (
                    self.arg_const(args, 9, "gather channel")? as u64,
                    Some(self.f32_arg(c)),
                )
            }
            _ => (0, None),
        };
        if component > 3 {
            return Err(self.invalid(format!("gather channel {component}")));
        }
        let flags = self.sparse_flags(inst);
        let want = self.overload(inst)?;
        let res_elem = if cmp.is_some() {
            ScalarType::F32
        } else {
            d.elem
        };
        // A raw gather of 16-bit texels reads them zero-extended from the 32-bit view.
        if code == C::TEXTURE_GATHER_RAW && want.bit_size() == Some(64) {
            return Err(self.unsupported("raw gathers of 64-bit texels"));
        }
        let v = self.typed_read(h.desc, res_elem, want, flags, |me, ty, fl| {
            me.code(
                Op::new(OpCode::ImageGather, ty)
                    .with_ref(h.desc)
                    .with_ref(s.desc)
                    .with_opt_ref(layer)
                    .with_ref(coord)
                    .with_opt_ref(offset)
                    .with_opt_ref(cmp)
                    .with_lit(component)
                    .with_flags(fl),
            )
        })?;
        self.set(inst.result(), v)
    }

    /// `TextureLoad`.
    fn texture_load(&mut self, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        let flags = self.sparse_flags(inst);
        let want = self.overload(inst)?;
        if d.kind.is_buffer() {
            return Err(self.invalid("TextureLoad of a buffer"));
        }
        if matches!(
            d.kind,
            ResourceKind::ImageCube | ResourceKind::ImageCubeArray
        ) {
            return Err(self.invalid("TextureLoad of a cube texture"));
        }
        let (coord, layer) = self.texel_coord(args, 3, d.kind)?;
        let uav = d.class == ResourceClass::Uav;
        let (mip, sample) = if d.kind.is_multisampled() {
            (None, Some(self.arg_def(args, 2)?))
        } else if uav {
            (None, None)
        } else {
            (
                Some(self.arg_opt(args, 2)?.unwrap_or_else(|| self.c_u32(0))),
                None,
            )
        };
        let (_, _, _, on) = image_shape(d.kind);
        let offset = if uav || d.kind.is_multisampled() {
            None
        } else {
            self.offsets(args, 6, on, false)?
        };
        let v = self.typed_read(h.desc, d.elem, want, flags, |me, ty, fl| {
            me.code(
                Op::new(OpCode::ImageLoad, ty)
                    .with_ref(h.desc)
                    .with_opt_ref(mip)
                    .with_opt_ref(layer)
                    .with_ref(coord)
                    .with_opt_ref(sample)
                    .with_opt_ref(offset)
                    .with_flags(fl),
            )
        })?;
        self.set(inst.result(), v)
    }

    /// `TextureStore`, and `TextureStoreSample` (`with_sample`, Shader Model 6.7), which
    /// names the sample of a multisampled UAV after the write mask.
    fn texture_store(&mut self, args: &Args, with_sample: bool) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        if d.class != ResourceClass::Uav || d.kind.is_buffer() {
            return Err(self.invalid("TextureStore to a resource that is not a texture UAV"));
        }
        if d.kind.is_multisampled() != with_sample {
            return Err(self.invalid(if with_sample {
                "TextureStoreSample to a single-sampled texture"
            } else {
                "TextureStore to a multisampled texture (TextureStoreSample names the sample)"
            }));
        }
        let sample = if with_sample {
            Some(self.arg_def(args, 10)?)
        } else {
            None
        };
        let (coord, layer) = self.texel_coord(args, 2, d.kind)?;
        let elem = {
            let a = self.arg(args, 5)?;
            let t = self.type_of(a)?;
            self.scalar_of(t)?
        };
        let value = self.texel_value(args, 5, elem, d.elem)?;
        self.code(
            Op::new(OpCode::ImageStore, Type::VOID)
                .with_ref(h.desc)
                .with_opt_ref(layer)
                .with_ref(coord)
                .with_ref(value)
                .with_opt_ref(sample),
        );
        Ok(())
    }

    /// `GetDimensions`: `{width, height, depth or layers, mips or samples}`.
    fn dimensions(&mut self, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        let undef = self.undef(Type::scalar(ScalarType::U32));
        if d.kind.is_buffer() {
            let mut n = self.op1(OpCode::BufferQuerySize, ScalarType::U32, h.desc);
            if d.kind == ResourceKind::BufferRaw {
                if h.stride > 0 {
                    let four = self.c_u32(4);
                    let bytes = self.op2(OpCode::IMul, ScalarType::U32, n, four);
                    let stride = self.c_u32(h.stride);
                    n = self.op2(OpCode::UDiv, ScalarType::U32, bytes, stride);
                } else {
                    let two = self.c_u32(2);
                    n = self.op2(OpCode::IShl, ScalarType::U32, n, two);
                }
            }
            let v = self.parts(&[n, undef, undef, undef]);
            return self.set(inst.result(), v);
        }
        let uav = d.class == ResourceClass::Uav;
        let ms = d.kind.is_multisampled();
        let mip = if uav || ms {
            None
        } else {
            Some(self.arg_opt(args, 2)?.unwrap_or_else(|| self.c_u32(0)))
        };
        let (_, layered, sn, _) = image_shape(d.kind);
        let sty = Type::structure(&[
            dxspv_ir::BasicType::vector(ScalarType::U32, sn as u8),
            dxspv_ir::BasicType::scalar(ScalarType::U32),
        ])
        .map_err(|e| self.type_error(e))?;
        let q = self.code(
            Op::new(OpCode::ImageQuerySize, sty)
                .with_ref(h.desc)
                .with_opt_ref(mip),
        );
        let size = self.extract(Type::vector(ScalarType::U32, sn as u8), q, 0);
        let mut out = [undef; 4];
        for (k, o) in out.iter_mut().enumerate().take(sn) {
            *o = if sn > 1 {
                self.extract(ScalarType::U32, size, k as u32)
            } else {
                size
            };
        }
        if layered {
            out[sn] = self.extract(ScalarType::U32, q, 1);
        }
        out[3] = if ms {
            self.op1(OpCode::ImageQuerySamples, ScalarType::U32, h.desc)
        } else if uav {
            undef
        } else {
            self.op1(OpCode::ImageQueryMips, ScalarType::U32, h.desc)
        };
        let v = self.parts(&out);
        self.set(inst.result(), v)
    }

    /// `CalculateLOD`.
    fn calculate_lod(&mut self, args: &Args, inst: &'s Instruction) -> R<()> {
        let (h, d) = self.handle(self.arg(args, 1)?)?;
        let (s, _) = self.handle(self.arg(args, 2)?)?;
        if d.kind.is_buffer() || d.kind.is_multisampled() {
            return Err(self.invalid("LOD of a buffer or a multisampled texture"));
        }
        let (n, _, _, _) = image_shape(d.kind);
        let mut parts = smallvec::SmallVec::<[SsaDef; 3]>::new();
        for i in 0..n {
            let v = self.arg_def(args, 3 + i)?;
            parts.push(self.f32_arg(v));
        }
        let coord = self.vector(ScalarType::F32, &parts);
        let lods = self.op3(
            OpCode::ImageComputeLod,
            Type::vector(ScalarType::F32, 2),
            h.desc,
            s.desc,
            coord,
        );
        let clamped = self.arg(args, 6)?;
        let v = match self.const_int(clamped) {
            Some(c) => self.extract(ScalarType::F32, lods, u32::from(c == 0)),
            None => {
                let c = self.def(clamped)?;
                let a = self.extract(ScalarType::F32, lods, 0);
                let b = self.extract(ScalarType::F32, lods, 1);
                self.op3(OpCode::Select, ScalarType::F32, c, a, b)
            }
        };
        self.set(inst.result(), Val::Def(v))
    }

    /// The render target's sample count (the `SampleCount` built-in).
    fn sample_count(&mut self) -> R<SsaDef> {
        let d = self.builtin_input(BuiltIn::SampleCount, InterpolationModes::empty())?;
        Ok(self.code(
            Op::new(OpCode::InputLoad, ScalarType::U32)
                .with_ref(d)
                .with_opt_ref(None),
        ))
    }

    /// Standard sample position `index` of `count` samples: `{x, y}` (zero out of range).
    fn sample_position(&mut self, count: SsaDef, index: SsaDef) -> R<Val> {
        let mut lits = [0u64; 62];
        for (i, &(x, y)) in STANDARD_SAMPLE_POSITIONS.iter().enumerate() {
            lits[2 * i] = u64::from((f32::from(x) / 16.0).to_bits());
            lits[2 * i + 1] = u64::from((f32::from(y) / 16.0).to_bits());
        }
        let table_ty = Type::vector(ScalarType::F32, 2)
            .array_of(STANDARD_SAMPLE_POSITIONS.len() as u32)
            .map_err(|e| self.type_error(e))?;
        let table = self.b.add_constant(table_ty, &lits);
        let one = self.c_u32(1);
        let base = self.op2(OpCode::ISub, ScalarType::U32, count, one);
        let at = self.op2(OpCode::IAdd, ScalarType::U32, base, index);
        let in_range = self.op2(OpCode::ULt, ScalarType::Bool, index, count);
        let last = self.c_u32(STANDARD_SAMPLE_POSITIONS.len() as u32);
        let in_table = self.op2(OpCode::ULt, ScalarType::Bool, at, last);
        let ok = self.op2(OpCode::BAnd, ScalarType::Bool, in_range, in_table);
        let zero = self.c_u32(0);
        let at = self.op3(OpCode::Select, ScalarType::U32, ok, at, zero);
        let fzero = self.c_f32(0.0);
        let mut out = [fzero; 2];
        for (c, o) in out.iter_mut().enumerate() {
            let cc = self.c_u32(c as u32);
            let addr = self.address(&[at, cc]);
            let v = self.code(
                Op::new(OpCode::ConstantLoad, ScalarType::F32)
                    .with_ref(table)
                    .with_opt_ref(addr),
            );
            *o = self.op3(OpCode::Select, ScalarType::F32, ok, v, fzero);
        }
        Ok(self.parts(&out))
    }
}

/// An `ImageSample` op.
#[allow(clippy::too_many_arguments)]
fn sample_op(
    ty: Type,
    desc: SsaDef,
    sampler: SsaDef,
    layer: Option<SsaDef>,
    coord: SsaDef,
    offset: Option<SsaDef>,
    lod: Option<SsaDef>,
    bias: Option<SsaDef>,
    clamp: Option<SsaDef>,
    dx: Option<SsaDef>,
    dy: Option<SsaDef>,
    cmp: Option<SsaDef>,
) -> Op {
    Op::new(OpCode::ImageSample, ty)
        .with_ref(desc)
        .with_ref(sampler)
        .with_opt_ref(layer)
        .with_ref(coord)
        .with_opt_ref(offset)
        .with_opt_ref(lod)
        .with_opt_ref(bias)
        .with_opt_ref(clamp)
        .with_opt_ref(dx)
        .with_opt_ref(dy)
        .with_opt_ref(cmp)
}
