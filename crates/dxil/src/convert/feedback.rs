//! Sampler feedback (Shader Model 6.5): `FeedbackTexture2D`/`FeedbackTexture2DArray` maps and
//! `WriteSamplerFeedback`, `…Bias`, `…Level` and `…Grad`, emulated with storage image atomics,
//! since Vulkan has no sampler feedback.
//!
//! A feedback map is a `u32` UAV (`FeedbackImage2D*`, `FixedFormat`; `MipRegionUsed` for a
//! `SAMPLER_FEEDBACK_MIP_REGION_USED` map) with one texel per mip region of mip 0 of the paired
//! texture: the host sizes it `ceil(width / region width) x ceil(height / region height)` (x
//! the array size) and clears it, a `MIN_MIP` map to `0xffffffff` (nothing sampled), a
//! `MIP_REGION_USED` map to 0. A feedback write computes the level of detail the sample would
//! use, clamps it to the texture's mips, and records it in the texel of the region holding the
//! coordinate: `UMin` of the level for `MIN_MIP`, `Or` of the bits of the levels touched
//! (two where the level has a fraction) for `MIP_REGION_USED`. The contract, and what it
//! leaves approximate, is `docs/sampler_feedback.md`.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{
    AtomicOp, BasicType, Op, OpCode, ResourceKind, RoundMode, ScalarType, SsaDef, Type, UavFlags,
};

use super::dx_op::code as C;
use super::resources::ResDecl;
use super::{Args, Converter, R};
use crate::dx::{Resource, ResourceClass};

/// `SAMPLER_FEEDBACK_MIN_MIP` (tag 2 of a feedback texture's metadata).
const MIN_MIP: u32 = 0;
/// `SAMPLER_FEEDBACK_MIP_REGION_USED`.
const MIP_REGION_USED: u32 = 1;

/// `vec2<f32>`: a coordinate, a size in texels.
const F32X2: Type = Type::vector(ScalarType::F32, 2);
/// `vec2<u32>`: an image size, a texel.
const U32X2: Type = Type::vector(ScalarType::U32, 2);

/// The result type of a 2D (array) image's `ImageQuerySize`: `{vec2<u32> size, u32 layers}`.
fn size_query_type(c: &Converter<'_>) -> R<Type> {
    Type::structure(&[
        BasicType::vector(ScalarType::U32, 2),
        BasicType::scalar(ScalarType::U32),
    ])
    .map_err(|e| c.type_error(e))
}

/// How a feedback write finds its level of detail.
#[derive(Clone, Copy)]
enum Lod {
    /// The implicit level (`WriteSamplerFeedback`), clamped to argument `clamp`.
    Implicit { clamp: usize },
    /// The implicit level plus argument `bias`, clamped to argument `clamp`.
    Bias { bias: usize, clamp: usize },
    /// Argument `lod`.
    Level { lod: usize },
    /// From the gradients at arguments `ddx..ddx + 2` and `ddx + 3..ddx + 5`, clamped.
    Grad { ddx: usize, clamp: usize },
}

impl<'s> Converter<'s> {
    /// The UAV flags of feedback texture `r` (a UAV): `FixedFormat` (its texels take atomics),
    /// and `MipRegionUsed` for a `SAMPLER_FEEDBACK_MIP_REGION_USED` map.
    pub(crate) fn feedback_flags(&self, r: &Resource) -> R<UavFlags> {
        if r.class != ResourceClass::Uav {
            return Err(self.invalid(format!("feedback texture {} is not a UAV", r.id)));
        }
        match r.sampler_feedback_kind {
            Some(MIN_MIP) => Ok(UavFlags::FixedFormat),
            Some(MIP_REGION_USED) => Ok(UavFlags::FixedFormat | UavFlags::MipRegionUsed),
            Some(k) => Err(self.invalid(format!(
                "feedback texture {} has sampler feedback kind {k} (0: MinMip, 1: MipRegionUsed)",
                r.id
            ))),
            None => Err(self.invalid(format!(
                "feedback texture {} has no sampler feedback kind (metadata tag 2)",
                r.id
            ))),
        }
    }

    /// `WriteSamplerFeedback`, `WriteSamplerFeedbackBias`, `WriteSamplerFeedbackLevel`,
    /// `WriteSamplerFeedbackGrad`: feedback map, paired texture, sampler, `c0..c3`, then the
    /// variant's operands.
    pub(crate) fn sampler_feedback_op(&mut self, code: u32, args: &Args) -> R<()> {
        let lod = match code {
            C::WRITE_SAMPLER_FEEDBACK => Lod::Implicit { clamp: 8 },
            C::WRITE_SAMPLER_FEEDBACK_BIAS => Lod::Bias { bias: 8, clamp: 9 },
            C::WRITE_SAMPLER_FEEDBACK_LEVEL => Lod::Level { lod: 8 },
            C::WRITE_SAMPLER_FEEDBACK_GRAD => Lod::Grad { ddx: 8, clamp: 14 },
            _ => return Err(self.invalid("not a sampler feedback operation")),
        };
        let (fb, fd) = self.handle(self.arg(args, 1)?)?;
        let (tex, td) = self.handle(self.arg(args, 2)?)?;
        let (smp, sd) = self.handle(self.arg(args, 3)?)?;
        let region_used = self.feedback_map_kind(&fd)?;
        let paired = match fd.kind {
            ResourceKind::FeedbackImage2D => ResourceKind::Image2D,
            _ => ResourceKind::Image2DArray,
        };
        if td.class != ResourceClass::Srv || sd.class != ResourceClass::Sampler {
            return Err(self.invalid(
                "sampler feedback whose paired resource is not a texture SRV or whose sampler is \
                 not a sampler",
            ));
        }
        if td.kind != paired {
            return Err(self.unsupported(
                "sampler feedback paired with a texture other than Texture2D (FeedbackTexture2D) \
                 or Texture2DArray (FeedbackTexture2DArray)",
            ));
        }
        let u = self.f32_def(args, 4)?;
        let v = self.f32_def(args, 5)?;
        let coord = self.vector(ScalarType::F32, &[u, v]);
        let mip0 = self.c_u32(0);
        let tex_q = self.code(
            Op::new(OpCode::ImageQuerySize, size_query_type(self)?)
                .with_ref(tex.desc)
                .with_ref(mip0),
        );
        let tex_size = self.extract(U32X2, tex_q, 0);
        let tex_size_f = self.op1(OpCode::ConvertItoF, F32X2, tex_size);
        let lod = self.feedback_lod(lod, args, tex.desc, smp.desc, coord, tex_size_f)?;

        // The level sampled (rounded down; negative and NaN levels saturate to 0), within the
        // texture's mips.
        let mips = self.op1(OpCode::ImageQueryMips, ScalarType::U32, tex.desc);
        let one = self.c_u32(1);
        let last = self.op2(OpCode::ISub, ScalarType::U32, mips, one);
        let level = self.op1(OpCode::ConvertFtoI, ScalarType::U32, lod);
        let level = self.op2(OpCode::UMin, ScalarType::U32, level, last);

        let layered = fd.kind == ResourceKind::FeedbackImage2DArray;
        let (region, layer) =
            self.feedback_texel(args, fb.desc, layered, coord, tex_size, tex_size_f)?;
        let (value, op) = if region_used {
            // Bit `level`, and with a fraction (a trilinear sample) the next level's bit.
            let bit = self.op2(OpCode::IShl, ScalarType::U32, one, level);
            let level_f = self.op1(OpCode::ConvertItoF, ScalarType::F32, level);
            let between = self.op2(OpCode::FGt, ScalarType::Bool, lod, level_f);
            let next = self.op2(OpCode::IAdd, ScalarType::U32, level, one);
            let next = self.op2(OpCode::UMin, ScalarType::U32, next, last);
            let next_bit = self.op2(OpCode::IShl, ScalarType::U32, one, next);
            let zero = self.c_u32(0);
            let next_bit = self.op3(OpCode::Select, ScalarType::U32, between, next_bit, zero);
            (
                self.op2(OpCode::IOr, ScalarType::U32, bit, next_bit),
                AtomicOp::Or,
            )
        } else {
            (level, AtomicOp::UMin)
        };
        self.code(
            Op::new(OpCode::ImageAtomic, Type::VOID)
                .with_ref(fb.desc)
                .with_opt_ref(layer)
                .with_ref(region)
                .with_ref(value)
                .with_lit(op.to_literal()),
        );
        Ok(())
    }

    /// The level of detail a feedback write's sample would use (`f32`, before clamping to
    /// the mips), raised to the write's clamp operand where it has one; `tex_size_f` is the
    /// texture's mip 0 size as `vec2<f32>`.
    fn feedback_lod(
        &mut self,
        lod: Lod,
        args: &Args,
        tex: SsaDef,
        smp: SsaDef,
        coord: SsaDef,
        tex_size_f: SsaDef,
    ) -> R<SsaDef> {
        let (lod, clamp) = match lod {
            Lod::Implicit { clamp } => {
                let lods = self.op3(OpCode::ImageComputeLod, F32X2, tex, smp, coord);
                (self.extract(ScalarType::F32, lods, 0), Some(clamp))
            }
            Lod::Bias { bias, clamp } => {
                let lods = self.op3(OpCode::ImageComputeLod, F32X2, tex, smp, coord);
                let unclamped = self.extract(ScalarType::F32, lods, 1);
                let b = self.f32_def(args, bias)?;
                (
                    self.op2(OpCode::FAdd, ScalarType::F32, unclamped, b),
                    Some(clamp),
                )
            }
            Lod::Level { lod } => (self.f32_def(args, lod)?, None),
            Lod::Grad { ddx, clamp } => {
                // log2 of the longer of the two gradients in mip 0's texels.
                let mut side = [coord; 2];
                for (k, s) in side.iter_mut().enumerate() {
                    let x = self.f32_def(args, ddx + 3 * k)?;
                    let y = self.f32_def(args, ddx + 3 * k + 1)?;
                    let g = self.vector(ScalarType::F32, &[x, y]);
                    let texels = self.op2(OpCode::FMul, F32X2, g, tex_size_f);
                    *s = self.op2(OpCode::FDot, ScalarType::F32, texels, texels);
                }
                let longest = self.op2(OpCode::FMax, ScalarType::F32, side[0], side[1]);
                let log = self.op1(OpCode::FLog2, ScalarType::F32, longest);
                let half = self.c_f32(0.5);
                (
                    self.op2(OpCode::FMul, ScalarType::F32, log, half),
                    Some(clamp),
                )
            }
        };
        Ok(match clamp {
            Some(i) => match self.arg_opt(args, i)? {
                Some(c) if self.const_of(c) != Some(0) => {
                    let c = self.f32_of(c);
                    self.op2(OpCode::FMax, ScalarType::F32, lod, c)
                }
                _ => lod,
            },
            None => lod,
        })
    }

    /// The feedback map texel a sample at `coord` records in: the mip region of mip 0 holding
    /// it, clamped to the map `map`, and for arrays the layer argument rounded to nearest even
    /// and clamped to the map's layers. The region size is the power of two the host divided
    /// the texture's size by (the smallest power of two at least `ceil(size / map size)`), so
    /// the region is the coordinate's texel of mip 0 shifted right by its log2.
    fn feedback_texel(
        &mut self,
        args: &Args,
        map: SsaDef,
        layered: bool,
        coord: SsaDef,
        tex_size: SsaDef,
        tex_size_f: SsaDef,
    ) -> R<(SsaDef, Option<SsaDef>)> {
        let map_q = self.code(
            Op::new(OpCode::ImageQuerySize, size_query_type(self)?)
                .with_ref(map)
                .with_opt_ref(None),
        );
        let map_size = self.extract(U32X2, map_q, 0);
        let one2 = self.b.add_constant(U32X2, &[1, 1]);
        let map_last = self.op2(OpCode::ISub, U32X2, map_size, one2);
        let round_up = self.op2(OpCode::IAdd, U32X2, tex_size, map_last);
        let per_texel = self.op2(OpCode::UDiv, U32X2, round_up, map_size);
        let below = self.op2(OpCode::ISub, U32X2, per_texel, one2);
        let msb = self.op1(OpCode::UFindMsb, U32X2, below);
        let shift = self.op2(OpCode::IAdd, U32X2, msb, one2);
        let texel_f = self.op2(OpCode::FMul, F32X2, coord, tex_size_f);
        let texel = self.op1(OpCode::ConvertFtoI, U32X2, texel_f);
        let region = self.op2(OpCode::UShr, U32X2, texel, shift);
        let region = self.op2(OpCode::UMin, U32X2, region, map_last);
        if !layered {
            return Ok((region, None));
        }
        let c2 = self.f32_def(args, 6)?;
        let nearest = self.code(
            Op::new(OpCode::FRound, ScalarType::F32)
                .with_ref(c2)
                .with_lit(RoundMode::NearestEven.to_literal()),
        );
        let layer = self.op1(OpCode::ConvertFtoI, ScalarType::U32, nearest);
        let layers = self.extract(ScalarType::U32, map_q, 1);
        let one = self.c_u32(1);
        let last_layer = self.op2(OpCode::ISub, ScalarType::U32, layers, one);
        Ok((
            region,
            Some(self.op2(OpCode::UMin, ScalarType::U32, layer, last_layer)),
        ))
    }

    /// Whether declaration `d` is a `MIP_REGION_USED` feedback map (`false`: `MIN_MIP`); an
    /// error when it is no feedback map.
    fn feedback_map_kind(&self, d: &ResDecl) -> R<bool> {
        if d.class != ResourceClass::Uav
            || !matches!(
                d.kind,
                ResourceKind::FeedbackImage2D | ResourceKind::FeedbackImage2DArray
            )
        {
            return Err(self
                .invalid("sampler feedback written to a resource that is not a feedback texture"));
        }
        let flags = self
            .b
            .get(d.dcl)
            .and_then(|op| op.lit(4))
            .and_then(UavFlags::from_literal)
            .unwrap_or_default();
        Ok(flags.contains(UavFlags::MipRegionUsed))
    }

    /// Argument `i` as an `f32` value.
    fn f32_def(&mut self, args: &Args, i: usize) -> R<SsaDef> {
        let v = self.arg_def(args, i)?;
        Ok(self.f32_of(v))
    }

    /// `v` as `f32` (min-precision values widen).
    fn f32_of(&mut self, v: SsaDef) -> SsaDef {
        match self.b.op(v).ty.base_type() {
            Some(ScalarType::F32) | None => v,
            Some(s) => self.convert_scalar(v, s, ScalarType::F32),
        }
    }
}
