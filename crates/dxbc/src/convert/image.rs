//! Images and typed buffers: sampling and gathering in every variant (bias, level, gradients,
//! depth compare, immediate and programmable offsets, LOD clamp, sparse feedback), texel loads
//! and stores, size, level, sample count and sample position queries, LOD computation and
//! `check_access_fully_mapped`.
//!
//! Results are `vec4` of the resource's sampled type (a scalar for depth compares), wrapped in a
//! `struct{u32, T}` for sparse feedback; the resource operand's swizzle selects the components
//! written to the destination.

use dxspv_ir::frontend::{image_shape, FrontendBuilder, STANDARD_SAMPLE_POSITIONS};
use dxspv_ir::{
    BasicType, BuiltIn, InterpolationModes, Op, OpCode, OpFlags, ResourceKind, ScalarType, SsaDef,
    Type,
};

use super::registers::{dst_mask, swizzle_of, Lanes};
use super::resources::{Binding, Class};
use super::{lanes, Converter, R};
use crate::enums::ResInfoReturnType;
use crate::operand::{Components, Operand, OperandType};
use crate::{Instruction, Opcode};

/// Operand positions of a sampling or gather instruction.
#[derive(Default)]
struct SampleArgs {
    status: Option<usize>,
    coord: usize,
    offset: Option<usize>,
    res: usize,
    samp: usize,
    bias: Option<usize>,
    lod: Option<usize>,
    lod_zero: bool,
    grad: Option<usize>,
    dref: Option<usize>,
    clamp: Option<usize>,
}

impl Converter<'_, '_> {
    /// Loads image coordinates of `kind` as `ty`: `(coord, layer)`.
    pub(crate) fn image_coord(
        &mut self,
        op: &Operand,
        kind: ResourceKind,
        ty: ScalarType,
    ) -> R<(SsaDef, Option<SsaDef>)> {
        let (n, layered, _, _) = image_shape(kind);
        let mut mask = ((1u32 << n) - 1) as u8;
        if layered {
            mask |= 1 << n;
        }
        let l = self.load_src(op, ty, mask)?;
        let mut parts = smallvec::SmallVec::<[SsaDef; 4]>::new();
        for (i, v) in l.iter().enumerate().take(n) {
            parts.push(v.ok_or_else(|| self.invalid(format!("missing coordinate {i}")))?);
        }
        let coord = self.vector(ty, &parts);
        let layer = if layered { l[n] } else { None };
        Ok((coord, layer))
    }

    /// An immediate texel offset (`_aoffimmi`) as a constant, if non-zero.
    fn imm_offset(&mut self, inst: &Instruction<'_>, n: usize) -> Option<SsaDef> {
        let o = inst.modifiers.sample_offset?;
        if n == 0 || o.iter().take(n).all(|&v| v == 0) {
            return None;
        }
        let lits: smallvec::SmallVec<[u64; 3]> =
            o.iter().take(n).map(|&v| v as i32 as u32 as u64).collect();
        Some(
            self.b
                .add_constant(Type::vector(ScalarType::I32, n as u8), &lits),
        )
    }

    /// The operand at `i`, if `i` is given.
    fn opt_operand<'i>(
        &self,
        inst: &'i Instruction<'_>,
        i: Option<usize>,
    ) -> R<Option<&'i Operand>> {
        i.map(|i| self.operand(inst, i)).transpose()
    }

    /// Writes a texel result: sparse feedback to the status operand, then the components the
    /// resource swizzle selects.
    fn texel_result(
        &mut self,
        inst: &Instruction<'_>,
        res: &Operand,
        status: Option<&Operand>,
        v: SsaDef,
        rty: ScalarType,
        scalar: bool,
    ) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let data = if let Some(st) = status {
            let fb = self.extract(ScalarType::U32, v, 0);
            let dty = if scalar {
                Type::scalar(rty)
            } else {
                Type::vector(rty, 4)
            };
            let data = self.extract(dty, v, 1);
            let mut f: Lanes = [None; 4];
            for l in lanes(dst_mask(st)) {
                f[l] = Some(fb);
            }
            self.store_dst(st, &f, ScalarType::U32)?;
            data
        } else {
            v
        };
        let sw = swizzle_of(res);
        let mut out: Lanes = [None; 4];
        for l in lanes(dst_mask(dst)) {
            out[l] = Some(if scalar {
                data
            } else {
                self.extract(rty, data, sw[l] as u32)
            });
        }
        self.write(inst.modifiers.saturate, dst, out, rty)
    }

    /// The result type of a texel op, wrapped for sparse feedback.
    fn texel_type(&self, rty: ScalarType, scalar: bool, sparse: bool) -> R<Type> {
        let data = if scalar {
            BasicType::scalar(rty)
        } else {
            BasicType::vector(rty, 4)
        };
        if sparse {
            Type::structure(&[BasicType::scalar(ScalarType::U32), data])
                .map_err(|e| self.invalid(e.to_string()))
        } else {
            Ok(Type::basic(data))
        }
    }

    /// The status operand of a `_s` instruction, `None` if absent or `null`.
    fn status<'i>(&self, inst: &'i Instruction<'_>, i: Option<usize>) -> R<Option<&'i Operand>> {
        Ok(self
            .opt_operand(inst, i)?
            .filter(|o| o.ty != OperandType::Null))
    }

    /// Converts an image instruction.
    pub(crate) fn image(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        let s = |status: bool| -> (Option<usize>, usize) {
            if status {
                (Some(1), 2)
            } else {
                (None, 1)
            }
        };
        let sample = |status: bool| {
            let (st, c) = s(status);
            SampleArgs {
                status: st,
                coord: c,
                res: c + 1,
                samp: c + 2,
                ..SampleArgs::default()
            }
        };
        match inst.opcode {
            O::Sample => self.sample(inst, sample(false)),
            O::SampleB => self.sample(
                inst,
                SampleArgs {
                    bias: Some(4),
                    ..sample(false)
                },
            ),
            O::SampleL => self.sample(
                inst,
                SampleArgs {
                    lod: Some(4),
                    ..sample(false)
                },
            ),
            O::SampleD => self.sample(
                inst,
                SampleArgs {
                    grad: Some(4),
                    ..sample(false)
                },
            ),
            O::SampleC => self.sample(
                inst,
                SampleArgs {
                    dref: Some(4),
                    ..sample(false)
                },
            ),
            O::SampleCLz => self.sample(
                inst,
                SampleArgs {
                    dref: Some(4),
                    lod_zero: true,
                    ..sample(false)
                },
            ),
            O::SampleClampFeedback => self.sample(
                inst,
                SampleArgs {
                    clamp: Some(5),
                    ..sample(true)
                },
            ),
            O::SampleBClampFeedback => self.sample(
                inst,
                SampleArgs {
                    bias: Some(5),
                    clamp: Some(6),
                    ..sample(true)
                },
            ),
            O::SampleLFeedback => self.sample(
                inst,
                SampleArgs {
                    lod: Some(5),
                    ..sample(true)
                },
            ),
            O::SampleDClampFeedback => self.sample(
                inst,
                SampleArgs {
                    grad: Some(5),
                    clamp: Some(7),
                    ..sample(true)
                },
            ),
            O::SampleCClampFeedback => self.sample(
                inst,
                SampleArgs {
                    dref: Some(5),
                    clamp: Some(6),
                    ..sample(true)
                },
            ),
            O::SampleCLzFeedback => self.sample(
                inst,
                SampleArgs {
                    dref: Some(5),
                    lod_zero: true,
                    ..sample(true)
                },
            ),
            O::Gather4 | O::Gather4Feedback | O::Gather4C | O::Gather4CFeedback => {
                let fb = matches!(inst.opcode, O::Gather4Feedback | O::Gather4CFeedback);
                let c = matches!(inst.opcode, O::Gather4C | O::Gather4CFeedback);
                let a = sample(fb);
                let dref = c.then_some(a.samp + 1);
                self.gather(inst, SampleArgs { dref, ..a })
            }
            O::Gather4Po | O::Gather4PoFeedback | O::Gather4PoC | O::Gather4PoCFeedback => {
                let fb = matches!(inst.opcode, O::Gather4PoFeedback | O::Gather4PoCFeedback);
                let c = matches!(inst.opcode, O::Gather4PoC | O::Gather4PoCFeedback);
                let (st, co) = s(fb);
                let a = SampleArgs {
                    status: st,
                    coord: co,
                    offset: Some(co + 1),
                    res: co + 2,
                    samp: co + 3,
                    dref: c.then_some(co + 4),
                    ..SampleArgs::default()
                };
                self.gather(inst, a)
            }
            O::Ld
            | O::LdMs
            | O::LdFeedback
            | O::LdMsFeedback
            | O::LdUavTyped
            | O::LdUavTypedFeedback => self.load_texel(inst),
            O::StoreUavTyped => self.store_texel(inst),
            O::ResInfo => self.resinfo(inst),
            O::SampleInfo => self.sampleinfo(inst),
            O::SamplePos => self.samplepos(inst),
            O::Lod => self.lod(inst),
            O::CheckAccessFullyMapped => {
                let dst = self.operand(inst, 0)?;
                let mask = dst_mask(dst);
                let v = self.load_src(self.operand(inst, 1)?, ScalarType::U32, mask)?;
                let mut out: Lanes = [None; 4];
                for l in lanes(mask) {
                    let Some(x) = v[l] else { continue };
                    let b = self.op1(OpCode::CheckSparseAccess, ScalarType::Bool, x);
                    out[l] = Some(self.bool_to_mask(b));
                }
                self.store_dst(dst, &out, ScalarType::U32)
            }
            other => Err(self.invalid(format!("{} is not an image instruction", other.mnemonic()))),
        }
    }

    fn srv_or_uav(&mut self, op: &Operand) -> R<(SsaDef, Binding)> {
        match op.ty {
            OperandType::Resource => self.descriptor(Class::Srv, op),
            OperandType::UnorderedAccessView => self.descriptor(Class::Uav, op),
            other => Err(self.invalid(format!("{} is not a resource", other.prefix()))),
        }
    }

    /// `sample*`.
    fn sample(&mut self, inst: &Instruction<'_>, a: SampleArgs) -> R<()> {
        let res = self.operand(inst, a.res)?;
        let samp = self.operand(inst, a.samp)?;
        let status = self.status(inst, a.status)?;
        let (desc, b) = self.srv_or_uav(res)?;
        self.require_filterable(inst, b.kind)?;
        let (sdesc, _) = self.descriptor(Class::Sampler, samp)?;
        let (n, _, _, on) = image_shape(b.kind);
        let (coord, layer) =
            self.image_coord(self.operand(inst, a.coord)?, b.kind, ScalarType::F32)?;
        let offset = self.imm_offset(inst, on);
        let lod = match (a.lod, a.lod_zero) {
            (Some(i), _) => Some(self.load_scalar(self.operand(inst, i)?, ScalarType::F32)?),
            (None, true) => Some(self.c_f32(0.0)),
            _ => None,
        };
        let bias = match a.bias {
            Some(i) => Some(self.load_scalar(self.operand(inst, i)?, ScalarType::F32)?),
            None => None,
        };
        let clamp = match a.clamp {
            Some(i) => Some(self.load_scalar(self.operand(inst, i)?, ScalarType::F32)?),
            None => None,
        };
        let (dx, dy) = match a.grad {
            Some(i) => (
                Some(self.load_vec(self.operand(inst, i)?, ScalarType::F32, n)?),
                Some(self.load_vec(self.operand(inst, i + 1)?, ScalarType::F32, n)?),
            ),
            None => (None, None),
        };
        if a.dref.is_some() && b.kind == ResourceKind::Image3D {
            return Err(self.invalid(format!(
                "`{}` compares depth, which a 3D texture cannot do",
                inst.opcode.mnemonic()
            )));
        }
        let dref = match a.dref {
            Some(i) => Some(self.load_scalar(self.operand(inst, i)?, ScalarType::F32)?),
            None => None,
        };
        let scalar = dref.is_some();
        let rty = if scalar { ScalarType::F32 } else { b.ty };
        let ty = self.texel_type(rty, scalar, status.is_some())?;
        let mut op = Op::new(OpCode::ImageSample, ty)
            .with_ref(desc)
            .with_ref(sdesc)
            .with_opt_ref(layer)
            .with_ref(coord)
            .with_opt_ref(offset)
            .with_opt_ref(lod)
            .with_opt_ref(bias)
            .with_opt_ref(clamp)
            .with_opt_ref(dx)
            .with_opt_ref(dy)
            .with_opt_ref(dref);
        if status.is_some() {
            op = op.with_flags(OpFlags::SPARSE_FEEDBACK);
        }
        let v = self.code(op);
        self.texel_result(inst, res, status, v, rty, scalar)
    }

    /// `gather4*`.
    fn gather(&mut self, inst: &Instruction<'_>, a: SampleArgs) -> R<()> {
        let res = self.operand(inst, a.res)?;
        let samp = self.operand(inst, a.samp)?;
        let status = self.status(inst, a.status)?;
        let (desc, b) = self.srv_or_uav(res)?;
        if !matches!(
            b.kind,
            ResourceKind::Image2D
                | ResourceKind::Image2DArray
                | ResourceKind::ImageCube
                | ResourceKind::ImageCubeArray
        ) {
            return Err(self.invalid(format!(
                "gather from an image of kind {:?} (gather needs a 2D, 2D array, cube or cube array texture)",
                b.kind
            )));
        }
        let (sdesc, _) = self.descriptor(Class::Sampler, samp)?;
        let (_, _, _, on) = image_shape(b.kind);
        let (coord, layer) =
            self.image_coord(self.operand(inst, a.coord)?, b.kind, ScalarType::F32)?;
        let offset = match a.offset {
            Some(i) if on > 0 => {
                Some(self.load_vec(self.operand(inst, i)?, ScalarType::I32, on)?)
            }
            Some(_) => None,
            None => self.imm_offset(inst, on),
        };
        let dref = match a.dref {
            Some(i) => Some(self.load_scalar(self.operand(inst, i)?, ScalarType::F32)?),
            None => None,
        };
        let component = match samp.components {
            Components::Select1(c) => c,
            Components::Swizzle(s) => s[0],
            _ => 0,
        };
        let rty = if dref.is_some() {
            ScalarType::F32
        } else {
            b.ty
        };
        let ty = self.texel_type(rty, false, status.is_some())?;
        let mut op = Op::new(OpCode::ImageGather, ty)
            .with_ref(desc)
            .with_ref(sdesc)
            .with_opt_ref(layer)
            .with_ref(coord)
            .with_opt_ref(offset)
            .with_opt_ref(dref)
            .with_lit(component as u64);
        if status.is_some() {
            op = op.with_flags(OpFlags::SPARSE_FEEDBACK);
        }
        let v = self.code(op);
        self.texel_result(inst, res, status, v, rty, false)
    }

    /// `ld`, `ldms`, `ld_uav_typed` and their `_s` forms.
    fn load_texel(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        let fb = matches!(
            inst.opcode,
            O::LdFeedback | O::LdMsFeedback | O::LdUavTypedFeedback
        );
        let c = if fb { 2 } else { 1 };
        let status = self.status(inst, fb.then_some(1))?;
        let res = self.operand(inst, c + 1)?;
        let (desc, b) = self.srv_or_uav(res)?;
        self.require_typed(inst, b.kind)?;
        let coord_op = self.operand(inst, c)?;
        let ty = self.texel_type(b.ty, false, status.is_some())?;
        let flags = if status.is_some() {
            OpFlags::SPARSE_FEEDBACK
        } else {
            OpFlags::empty()
        };
        let v = if b.kind.is_buffer() {
            let a = self.load_scalar(coord_op, ScalarType::U32)?;
            self.code(
                Op::new(OpCode::BufferLoad, ty)
                    .with_ref(desc)
                    .with_ref(a)
                    .with_lit(4)
                    .with_flags(flags),
            )
        } else {
            let (coord, layer) = self.image_coord(coord_op, b.kind, ScalarType::U32)?;
            let is_uav = res.ty == OperandType::UnorderedAccessView;
            let mip = if is_uav || b.kind.is_multisampled() {
                None
            } else {
                let l = self.load_src(coord_op, ScalarType::U32, 1 << 3)?;
                l[3]
            };
            if matches!(
                b.kind,
                ResourceKind::ImageCube | ResourceKind::ImageCubeArray
            ) {
                return Err(self.invalid(format!(
                    "`{}` cannot load texels from a cube texture",
                    inst.opcode.mnemonic()
                )));
            }
            let is_ld_ms = matches!(inst.opcode, O::LdMs | O::LdMsFeedback);
            if is_ld_ms != b.kind.is_multisampled() {
                return Err(self.invalid(format!(
                    "`{}` on a {} texture",
                    inst.opcode.mnemonic(),
                    if b.kind.is_multisampled() {
                        "multisampled (needs ldms)"
                    } else {
                        "single-sampled"
                    }
                )));
            }
            let sample = if is_ld_ms {
                Some(self.load_scalar(self.operand(inst, c + 2)?, ScalarType::U32)?)
            } else {
                None
            };
            let (_, _, _, on) = image_shape(b.kind);
            let offset = if is_uav {
                None
            } else {
                self.imm_offset(inst, on)
            };
            self.code(
                Op::new(OpCode::ImageLoad, ty)
                    .with_ref(desc)
                    .with_opt_ref(mip)
                    .with_opt_ref(layer)
                    .with_ref(coord)
                    .with_opt_ref(sample)
                    .with_opt_ref(offset)
                    .with_flags(flags),
            )
        };
        self.texel_result(inst, res, status, v, b.ty, false)
    }

    /// `store_uav_typed`.
    fn store_texel(&mut self, inst: &Instruction<'_>) -> R<()> {
        let uav = self.operand(inst, 0)?;
        let (desc, b) = self.descriptor(Class::Uav, uav)?;
        self.require_typed(inst, b.kind)?;
        let coord_op = self.operand(inst, 1)?;
        let value = self.load_vec(self.operand(inst, 2)?, b.ty, 4)?;
        if b.kind.is_buffer() {
            let a = self.load_scalar(coord_op, ScalarType::U32)?;
            self.code(
                Op::new(OpCode::BufferStore, Type::VOID)
                    .with_ref(desc)
                    .with_ref(a)
                    .with_ref(value)
                    .with_lit(4),
            );
        } else {
            let (coord, layer) = self.image_coord(coord_op, b.kind, ScalarType::U32)?;
            self.code(
                Op::new(OpCode::ImageStore, Type::VOID)
                    .with_ref(desc)
                    .with_opt_ref(layer)
                    .with_ref(coord)
                    .with_ref(value)
                    .with_opt_ref(None),
            );
        }
        Ok(())
    }

    /// Refuses sampling (`sample*`, `lod`) from a buffer or a multisampled texture, which
    /// have no filtering (Vulkan forbids sampling such images).
    fn require_filterable(&self, inst: &Instruction<'_>, kind: ResourceKind) -> R<()> {
        if kind.is_buffer() || kind.is_multisampled() {
            return Err(self.invalid(format!(
                "`{}` cannot sample a {kind:?} resource",
                inst.opcode.mnemonic()
            )));
        }
        Ok(())
    }

    /// Refuses a typed access (`ld`, `ld_uav_typed`, `store_uav_typed`) to a raw or structured
    /// buffer, which has no element format.
    fn require_typed(&self, inst: &Instruction<'_>, kind: ResourceKind) -> R<()> {
        if matches!(
            kind,
            ResourceKind::BufferRaw | ResourceKind::BufferStructured
        ) {
            return Err(self.invalid(format!(
                "`{}` needs a typed buffer or texture, not a raw or structured buffer",
                inst.opcode.mnemonic()
            )));
        }
        Ok(())
    }

    /// `resinfo dst, mip, resource`.
    fn resinfo(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let res = self.operand(inst, 2)?;
        let (desc, b) = self.srv_or_uav(res)?;
        if b.kind.is_buffer() {
            return Err(self.invalid("resinfo on a buffer"));
        }
        let is_uav = res.ty == OperandType::UnorderedAccessView;
        let has_mips = !is_uav && !b.kind.is_multisampled();
        let mip = if has_mips {
            Some(self.load_scalar(self.operand(inst, 1)?, ScalarType::U32)?)
        } else {
            None
        };
        let (_, layered, sn, _) = image_shape(b.kind);
        let sty = Type::structure(&[
            BasicType::vector(ScalarType::U32, sn as u8),
            BasicType::scalar(ScalarType::U32),
        ])
        .map_err(|e| self.invalid(e.to_string()))?;
        let q = self.code(
            Op::new(OpCode::ImageQuerySize, sty)
                .with_ref(desc)
                .with_opt_ref(mip),
        );
        let size = self.extract(Type::vector(ScalarType::U32, sn as u8), q, 0);
        let layers = self.extract(ScalarType::U32, q, 1);
        let mips = if has_mips {
            self.op1(OpCode::ImageQueryMips, ScalarType::U32, desc)
        } else {
            self.c_u32(1)
        };
        let rt = inst
            .modifiers
            .resinfo_return
            .unwrap_or(ResInfoReturnType::Float);
        let sw = swizzle_of(res);
        let mut out: Lanes = [None; 4];
        let zero = self.c_u32(0);
        for l in lanes(dst_mask(dst)) {
            let c = sw[l] as usize;
            let (v, is_size) = if c < sn {
                (
                    if sn > 1 {
                        self.extract(ScalarType::U32, size, c as u32)
                    } else {
                        size
                    },
                    true,
                )
            } else if c == sn && layered {
                (layers, false)
            } else if c == 3 {
                (mips, false)
            } else {
                (zero, false)
            };
            out[l] = Some(match rt {
                ResInfoReturnType::Uint => v,
                ResInfoReturnType::Float => self.op1(OpCode::ConvertItoF, ScalarType::F32, v),
                ResInfoReturnType::RcpFloat => {
                    let f = self.op1(OpCode::ConvertItoF, ScalarType::F32, v);
                    if is_size {
                        self.op1(OpCode::FRcp, ScalarType::F32, f)
                    } else {
                        f
                    }
                }
            });
        }
        let ty = if rt == ResInfoReturnType::Uint {
            ScalarType::U32
        } else {
            ScalarType::F32
        };
        self.write(inst.modifiers.saturate, dst, out, ty)
    }

    /// The sample count of a resource or of the rasterizer.
    fn sample_count(&mut self, op: &Operand) -> R<SsaDef> {
        if op.ty == OperandType::Rasterizer {
            let (d, _) = self.builtin_decl(
                BuiltIn::SampleCount,
                false,
                0,
                1,
                None,
                InterpolationModes::empty(),
            )?;
            return Ok(self.code(
                Op::new(OpCode::InputLoad, ScalarType::U32)
                    .with_ref(d)
                    .with_opt_ref(None),
            ));
        }
        let (desc, b) = self.srv_or_uav(op)?;
        // Only resources `ldms` can read have a sample count to query (Direct3D's rule).
        if !b.kind.is_multisampled() {
            return Err(self.invalid(format!(
                "sample count of a {:?} resource (only multisampled textures have one)",
                b.kind
            )));
        }
        Ok(self.op1(OpCode::ImageQuerySamples, ScalarType::U32, desc))
    }

    /// `sampleinfo dst, resource`.
    fn sampleinfo(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let res = self.operand(inst, 1)?;
        let count = self.sample_count(res)?;
        let uint = inst.modifiers.uint_result;
        let sw = swizzle_of(res);
        let zero = self.c_u32(0);
        let mut out: Lanes = [None; 4];
        for l in lanes(dst_mask(dst)) {
            let v = if sw[l] == 0 { count } else { zero };
            out[l] = Some(if uint {
                v
            } else {
                self.op1(OpCode::ConvertItoF, ScalarType::F32, v)
            });
        }
        let ty = if uint {
            ScalarType::U32
        } else {
            ScalarType::F32
        };
        self.write(inst.modifiers.saturate, dst, out, ty)
    }

    /// `samplepos dst, resource, index`: standard sample pattern positions.
    fn samplepos(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let res = self.operand(inst, 1)?;
        let count = self.sample_count(res)?;
        let idx = self.load_scalar(self.operand(inst, 2)?, ScalarType::U32)?;
        let mut lits = [0u64; 62];
        for (i, &(x, y)) in STANDARD_SAMPLE_POSITIONS.iter().enumerate() {
            lits[2 * i] = (x as f32 / 16.0).to_bits() as u64;
            lits[2 * i + 1] = (y as f32 / 16.0).to_bits() as u64;
        }
        let table_ty = Type::vector(ScalarType::F32, 2)
            .array_of(STANDARD_SAMPLE_POSITIONS.len() as u32)
            .map_err(|e| self.invalid(e.to_string()))?;
        let table = self.b.add_constant(table_ty, &lits);
        let one = self.c_u32(1);
        let base = self.op2(OpCode::ISub, ScalarType::U32, count, one);
        let at = self.op2(OpCode::IAdd, ScalarType::U32, base, idx);
        let in_range = self.op2(OpCode::ULt, ScalarType::Bool, idx, count);
        let last = self.c_u32(STANDARD_SAMPLE_POSITIONS.len() as u32);
        let in_table = self.op2(OpCode::ULt, ScalarType::Bool, at, last);
        let ok = self.op2(OpCode::BAnd, ScalarType::Bool, in_range, in_table);
        let zero = self.c_u32(0);
        let at = self.op3(OpCode::Select, ScalarType::U32, ok, at, zero);
        let fzero = self.c_f32(0.0);
        let sw = swizzle_of(res);
        let mut out: Lanes = [None; 4];
        for l in lanes(dst_mask(dst)) {
            let c = sw[l] as u32;
            out[l] = Some(if c < 2 {
                let addr = self.address(&[super::registers::Ix::D(at), super::registers::Ix::C(c)]);
                let v = self.code(
                    Op::new(OpCode::ConstantLoad, ScalarType::F32)
                        .with_ref(table)
                        .with_opt_ref(addr),
                );
                self.op3(OpCode::Select, ScalarType::F32, ok, v, fzero)
            } else {
                fzero
            });
        }
        self.write(inst.modifiers.saturate, dst, out, ScalarType::F32)
    }

    /// `lod dst, coord, resource, sampler`.
    fn lod(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let res = self.operand(inst, 2)?;
        let samp = self.operand(inst, 3)?;
        let (desc, b) = self.srv_or_uav(res)?;
        self.require_filterable(inst, b.kind)?;
        let (sdesc, _) = self.descriptor(Class::Sampler, samp)?;
        let (n, _, _, _) = image_shape(b.kind);
        let coord = self.load_vec(self.operand(inst, 1)?, ScalarType::F32, n)?;
        let v = self.op3(
            OpCode::ImageComputeLod,
            Type::vector(ScalarType::F32, 2),
            desc,
            sdesc,
            coord,
        );
        let sw = swizzle_of(res);
        let zero = self.c_f32(0.0);
        let mut out: Lanes = [None; 4];
        for l in lanes(dst_mask(dst)) {
            let c = sw[l] as u32;
            out[l] = Some(if c < 2 {
                self.extract(ScalarType::F32, v, c)
            } else {
                zero
            });
        }
        self.write(inst.modifiers.saturate, dst, out, ScalarType::F32)
    }
}
