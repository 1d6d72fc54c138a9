//! Images: texel fetches, reads and writes of textures, storage images and texel buffers,
//! sampling, gathers, size, level and sample queries, and sparse residency checks.
//!
//! Vulkan's image operand rules are followed: implicit LODs and `Bias` only in fragment
//! shaders and compute shaders that derive over quads (see `modes`; elsewhere an implicit
//! LOD becomes explicit LOD 0); `MinLod` only with implicit LODs and gradients (an explicit LOD is raised to the clamp instead); `ConstOffset` for constant offsets and
//! `Offset` (`ImageGatherExtended`) for run-time ones, on gathers only; storage image reads
//! take no offset, so it is added to the coordinate. Under the Vulkan memory model storage
//! image accesses are `NonPrivateTexel`, and `MakeTexelAvailable` / `MakeTexelVisible` at
//! `QueueFamily` scope for coherent UAVs (under `GLSL450` they take no such operands: the
//! UAV is decorated `Coherent`). Texels travel as a `vec4` of the image's sampled type, narrowed,
//! widened or bit-cast to the IR's type. An array layer joins the coordinate; sparse
//! accesses return `struct{u32 code, vec4 texels}`.

use super::error::{malformed, unsupported, R};
use super::resources::{DescInfo, ResKind};
use super::types::{basic_bits, scalar_bits, TyKey, L_NONE};
use super::Emitter;
use crate::words::{begin, end, inst};
use dxspv_ir::validate::image_op_misfit;
use dxspv_ir::{
    BasicType, Op, OpCode, OpFlags, ResourceKind, ScalarType, ShaderStage, SsaDef, Type,
};
use spirv::{Capability, Decoration, GLOp, Op as S};

impl<'a> Emitter<'a> {
    /// `OpImageFetch`/`OpImageRead` (sparse variants included) of `coord`.
    pub(super) fn texel_read(
        &mut self,
        def: SsaDef,
        op: &Op,
        d: DescInfo,
        coord: u32,
        mask: u32,
        extra: Option<&[u32]>,
    ) -> R<()> {
        let id = def.id();
        let sparse = op.flags.contains(OpFlags::SPARSE_FEEDBACK);
        let want = self.module.val_ty(def, op)?;
        let texel = if sparse {
            self.module.cap(Capability::SparseResidency);
            match op.ty.members().get(1) {
                Some(m) => *m,
                None => return malformed(def, op, "sparse result is not a struct"),
            }
        } else {
            match op.ty.as_basic() {
                Some(b) => b,
                None => return malformed(def, op, "texel type"),
            }
        };
        let Some(st) = d.res.data(self.b).base_type() else {
            return malformed(def, op, "resource texel type");
        };
        // Texels are read as numbers of the texel's bit size (as they are written).
        if !texel.base().is_numeric() || basic_bits(texel) != scalar_bits(st) {
            return unsupported(def, op, format!("reading {} as {st} texels", op.ty));
        }
        let v4 = BasicType::vector(st, 4);
        let Some(v4t) = self.module.basic_ty(v4) else {
            return unsupported(def, op, "texel type");
        };
        let mut mask = mask;
        let mut scope = None;
        if d.res.uav {
            self.module.cap(Capability::StorageImageReadWithoutFormat);
        }
        if d.res.uav && self.module.vulkan_memory_model() {
            mask |= 0x400;
            if d.res.coherent {
                // MakeTexelVisible at QueueFamily scope.
                mask |= 0x200;
                scope = Some(self.module.const_u32(spirv::Scope::QueueFamily as u32));
            }
        }
        let o = match (d.res.uav, sparse) {
            (false, false) => S::ImageFetch,
            (false, true) => S::ImageSparseFetch,
            (true, false) => S::ImageRead,
            (true, true) => S::ImageSparseRead,
        };
        let rt = if sparse {
            let u = self.module.u32_ty();
            self.module
                .ty_key(TyKey::Struct(smallvec::smallvec![u, v4t], L_NONE))
        } else {
            v4t
        };
        // A whole texel of the resource's type is the def's value itself.
        let direct = !sparse && texel.vec_size() == 4 && texel.base() == st;
        let raw = if direct { id } else { self.module.id() };
        {
            let f = &mut self.module.sections.functions;
            let s = begin(f, o);
            f.extend_from_slice(&[rt, raw, d.value, coord]);
            if mask != 0 {
                f.push(mask);
                f.extend_from_slice(extra.unwrap_or(&[]));
                f.extend(scope);
            }
            end(f, s);
        }
        if d.nonuniform {
            self.module.decorate(raw, Decoration::NonUniform, &[]);
        }
        // Adapt to the requested texel vector.
        let n = texel.vec_size() as u32;
        let Some(tt) = self.module.basic_ty(texel) else {
            return unsupported(def, op, "texel type");
        };
        let adapt = |e: &mut Self, v: u32| -> u32 {
            let sub = if n == 4 {
                v
            } else {
                let Some(t) = e.module.basic_ty(v4.with_vec_size(n as u8)) else {
                    return v;
                };
                if n == 1 {
                    e.module.un(S::CompositeExtract, t, &[v, 0])
                } else {
                    let args = [v, v, 0, 1, 2];
                    e.module.un(S::VectorShuffle, t, &args[..2 + n as usize])
                }
            };
            if texel.base() != st {
                e.module.un(S::Bitcast, tt, &[sub])
            } else {
                sub
            }
        };
        if direct {
            return Ok(());
        }
        if sparse {
            let u = self.module.u32_ty();
            let code = self.module.un(S::CompositeExtract, u, &[raw, 0]);
            let val = self.module.un(S::CompositeExtract, v4t, &[raw, 1]);
            let val = adapt(self, val);
            self.module
                .emit_to(S::CompositeConstruct, want, id, &[code, val]);
        } else {
            let val = adapt(self, raw);
            inst(self.module.body(), S::CopyObject, &[want, id, val]);
        }
        Ok(())
    }

    /// `OpImageWrite` of `value` at `coord` to the storage image or texel buffer `d`, widened
    /// to a `vec4` of the texel type.
    pub(super) fn texel_write(
        &mut self,
        def: SsaDef,
        op: &Op,
        d: DescInfo,
        coord: u32,
        value: SsaDef,
        sample: Option<u32>,
    ) -> R<()> {
        if !d.res.uav {
            return unsupported(def, op, "texel write to a read-only resource (not a UAV)");
        }
        self.module.cap(Capability::StorageImageWriteWithoutFormat);
        let Some(vop) = self.op_of(value) else {
            return malformed(def, op, "value missing");
        };
        let (Some(vb), Some(st)) = (vop.ty.as_basic(), d.res.data(self.b).base_type()) else {
            return malformed(def, op, "texel type");
        };
        // Texels are numbers of the texel's bit size (bools, descriptors are not).
        if !vb.base().is_numeric() || basic_bits(vb) != scalar_bits(st) {
            return unsupported(def, op, format!("writing {} as {st} texels", vop.ty));
        }
        let mut v = self.v(value);
        if vb.base() != st {
            let Some(t) = self.module.basic_ty(vb.with_base(st)) else {
                return unsupported(def, op, "texel type");
            };
            v = self.module.un(S::Bitcast, t, &[v]);
        }
        if vb.vec_size() != 4 {
            let Some(t) = self.module.basic_ty(BasicType::vector(st, 4)) else {
                return unsupported(def, op, "texel type");
            };
            let n = vb.vec_size() as u32;
            if n == 1 {
                v = self.module.un(S::CompositeConstruct, t, &[v, v, v, v]);
            } else {
                let args = [
                    v,
                    v,
                    0,
                    1,
                    if n > 2 { 2 } else { 0 },
                    if n > 3 { 3 } else { 0 },
                ];
                v = self.module.un(S::VectorShuffle, t, &args);
            }
        }
        // Image operands in the order of their mask bits: `Sample` (0x40) of a multisampled
        // image, then `MakeTexelAvailable` (0x100, with its scope) and `NonPrivateTexel`
        // (0x400) under the Vulkan memory model (under GLSL450 a coherent UAV is decorated
        // `Coherent` instead).
        let mut words = [d.value, coord, v, 0, 0, 0];
        let mut n = 4;
        let mut mask = 0u32;
        if let Some(s) = sample {
            mask |= 0x40;
            words[n] = s;
            n += 1;
        }
        if self.module.vulkan_memory_model() {
            mask |= 0x400;
            if d.res.coherent {
                mask |= 0x100;
                words[n] = self.module.const_u32(spirv::Scope::QueueFamily as u32);
                n += 1;
            }
        }
        words[3] = mask;
        let used = if mask == 0 { 3 } else { n };
        inst(self.module.body(), S::ImageWrite, &words[..used]);
        Ok(())
    }

    /// The coordinate operand `ci` with the array layer `li` appended, checked against the
    /// image `kind`: as many components as the image has dimensions, integers for texel
    /// access (`float` false) or floats for sampling, a layer exactly for layered images.
    pub(super) fn coord_with_layer(
        &mut self,
        def: SsaDef,
        op: &Op,
        ci: usize,
        li: usize,
        kind: ResourceKind,
        float: bool,
    ) -> R<u32> {
        let c = self.arg(def, op, ci)?;
        let cv = self.v(c);
        let Some(cb) = self.op_of(c).and_then(|o| o.ty.as_basic()) else {
            return malformed(def, op, "coordinate type");
        };
        let dims = kind.coord_components();
        let base_ok = if float {
            cb.base() == ScalarType::F32
        } else {
            matches!(cb.base(), ScalarType::U32 | ScalarType::I32)
        };
        if cb.vec_size() != dims || !base_ok || op.arg(li).is_some() != kind.is_layered() {
            return malformed(
                def,
                op,
                format!(
                    "coordinate {} (layer {}) for a {kind:?} image",
                    Type::basic(cb),
                    op.arg(li).is_some()
                ),
            );
        }
        let Some(layer) = op.arg(li) else {
            return Ok(cv);
        };
        if self.op_of(layer).map(|o| o.ty) != Some(Type::scalar(cb.base())) {
            return malformed(def, op, "array layer of another type than the coordinate");
        }
        let lv = self.v(layer);
        let n = cb.vec_size();
        let Some(t) = self.module.basic_ty(cb.with_vec_size(n + 1)) else {
            return unsupported(def, op, "coordinate type");
        };
        Ok(self.module.un(S::CompositeConstruct, t, &[cv, lv]))
    }

    /// The integer texel coordinate `coord` (with the layer, if `kind` has one) moved by
    /// the texel offset `off`, which has the coordinate's components without the layer.
    pub(super) fn offset_coordinate(
        &mut self,
        def: SsaDef,
        op: &Op,
        coord: u32,
        off: SsaDef,
        kind: ResourceKind,
    ) -> R<u32> {
        let (Some(c), Some(o)) = (
            op.arg(3)
                .and_then(|c| self.op_of(c))
                .and_then(|c| c.ty.as_basic()),
            self.op_of(off).and_then(|o| o.ty.as_basic()),
        ) else {
            return malformed(def, op, "offset or coordinate type");
        };
        let total = c.vec_size() + kind.is_layered() as u8;
        let (Some(ct), Some(ot)) = (
            self.module.basic_ty(c.with_vec_size(total)),
            self.module.basic_ty(o.with_vec_size(total)),
        ) else {
            return unsupported(def, op, "coordinate type");
        };
        let mut ov = self.v(off);
        if kind.is_layered() {
            let zero = self.module.const_scalar(o.base(), 0);
            ov = self.module.un(S::CompositeConstruct, ot, &[ov, zero]);
        }
        Ok(self.module.un(S::IAdd, ct, &[coord, ov]))
    }

    /// The explicit LOD `lod` raised to the LOD clamp `clamp`, if there is one (SPIR-V's
    /// `MinLod` operand does not go with an explicit LOD).
    pub(super) fn clamped_lod(&mut self, lod: u32, clamp: Option<SsaDef>) -> u32 {
        let Some(c) = clamp else {
            return lod;
        };
        let cv = self.v(c);
        let f32t = self.module.scalar_ty(ScalarType::F32).unwrap_or_default();
        let id = self.module.id();
        self.module.ext_to(GLOp::FMax, f32t, id, &[lod, cv]);
        id
    }

    /// Checks that optional operand `i`, if present, is a scalar of a type `ok` accepts.
    pub(super) fn scalar_operand(
        &self,
        def: SsaDef,
        op: &Op,
        i: usize,
        what: &str,
        ok: impl Fn(ScalarType) -> bool,
    ) -> R<()> {
        self.sized_operand(def, op, i, what, 1, ok)
    }

    /// Checks that operand `i`, if present, has `size` components (1: a scalar) of a scalar
    /// type `ok` accepts.
    pub(super) fn sized_operand(
        &self,
        def: SsaDef,
        op: &Op,
        i: usize,
        what: &str,
        size: u8,
        ok: impl Fn(ScalarType) -> bool,
    ) -> R<()> {
        let Some(x) = op.arg(i) else {
            return Ok(());
        };
        match self.op_of(x).and_then(|o| o.ty.as_basic()) {
            Some(b) if b.vec_size() == size && ok(b.base()) => Ok(()),
            _ => malformed(def, op, format!("{what} (operand {i}) of the wrong type")),
        }
    }

    /// The image descriptor operand 0 of an image op, and its kind, checked against the op.
    fn image_descriptor(&self, def: SsaDef, op: &Op) -> R<(DescInfo, ResourceKind)> {
        let d = self.desc_of(def, op, 0)?;
        let ResKind::Image(kind) = d.res.kind else {
            if op.opcode == OpCode::ImageQuerySize && d.res.kind == ResKind::TexelBuffer {
                return unsupported(def, op, "image query on a buffer");
            }
            return unsupported(def, op, "image op on a non-image descriptor");
        };
        if let Some(what) = image_op_misfit(op, kind, d.res.uav) {
            return malformed(def, op, format!("{} of {what}", op.opcode));
        }
        Ok((d, kind))
    }

    /// `ImageLoad`: `OpImageFetch` of a texture, `OpImageRead` of a storage image.
    pub(super) fn image_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let (d, kind) = self.image_descriptor(def, op)?;
        let int32 = |t: ScalarType| matches!(t, ScalarType::U32 | ScalarType::I32);
        self.scalar_operand(def, op, 1, "mip level", int32)?;
        self.scalar_operand(def, op, 4, "sample index", int32)?;
        self.sized_operand(def, op, 5, "offset", kind.offset_components(), int32)?;
        let mut coord = self.coord_with_layer(def, op, 3, 2, kind, false)?;
        let mut mask = 0u32;
        let mut extra = [0u32; 3];
        let mut n = 0;
        if let Some(mip) = op.arg(1) {
            if !kind.is_multisampled() && !d.res.uav {
                mask |= 0x2;
                extra[n] = self.v(mip);
                n += 1;
            }
        }
        if let Some(off) = op.arg(5) {
            let is_const = self
                .op_of(off)
                .is_some_and(|o| o.opcode == OpCode::Constant);
            if is_const && !d.res.uav {
                mask |= 0x8;
                extra[n] = self.v(off);
                n += 1;
            } else {
                // Vulkan takes `Offset` on gathers only, and a storage image read
                // no offset at all: a load adds it to the texel coordinate instead.
                coord = self.offset_coordinate(def, op, coord, off, kind)?;
            }
        }
        if let Some(s) = op.arg(4) {
            if kind.is_multisampled() {
                mask |= 0x40;
                extra[n] = self.v(s);
                n += 1;
            }
        }
        self.texel_read(def, op, d, coord, mask, Some(&extra[..n]))
    }

    /// `ImageStore`: `OpImageWrite`, with the `Sample` operand for a multisampled UAV.
    pub(super) fn image_store(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let (d, kind) = self.image_descriptor(def, op)?;
        let int32 = |t: ScalarType| matches!(t, ScalarType::U32 | ScalarType::I32);
        self.scalar_operand(def, op, 4, "sample index", int32)?;
        let coord = self.coord_with_layer(def, op, 2, 1, kind, false)?;
        let value = self.arg(def, op, 3)?;
        // (`image_descriptor` checked that a multisampled image's store names its sample
        // and a single-sampled one's none.)
        let sample = op.arg(4).map(|s| self.v(s));
        self.texel_write(def, op, d, coord, value, sample)
    }

    /// `ImageQueryMips`: `OpImageQueryLevels`.
    pub(super) fn image_query_mips(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let id = def.id();
        let (d, _) = self.image_descriptor(def, op)?;
        self.module.cap(Capability::ImageQuery);
        let t = self.module.val_ty(def, op)?;
        self.module.emit_to(S::ImageQueryLevels, t, id, &[d.value]);
        Ok(())
    }

    /// `ImageQuerySamples`: `OpImageQuerySamples` of a multisampled image.
    pub(super) fn image_query_samples(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let id = def.id();
        let (d, kind) = self.image_descriptor(def, op)?;
        if !kind.is_multisampled() {
            return malformed(def, op, "sample count of a single-sampled image");
        }
        self.module.cap(Capability::ImageQuery);
        let t = self.module.val_ty(def, op)?;
        self.module.emit_to(S::ImageQuerySamples, t, id, &[d.value]);
        Ok(())
    }

    /// `ImageQuerySize`: the size of a mip level (`OpImageQuerySizeLod`; `OpImageQuerySize`
    /// of multisampled and storage images, which have one level) and the layer count, as a
    /// struct of the two.
    pub(super) fn image_query_size(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let id = def.id();
        let (d, kind) = self.image_descriptor(def, op)?;
        self.module.cap(Capability::ImageQuery);
        let t = self.module.val_ty(def, op)?;
        let [sz, layers] = op.ty.members() else {
            return malformed(def, op, "size query result is not a struct of two members");
        };
        if layers.vec_size() != 1 || layers.base() != sz.base() || op.ty.is_array() {
            return malformed(def, op, "size query layers are not the size's scalar type");
        }
        let n = sz.vec_size() as u32;
        let dims = match kind {
            ResourceKind::Image1D | ResourceKind::Image1DArray => 1,
            ResourceKind::Image3D => 3,
            _ => 2,
        };
        let int32 =
            |t: &Type| *t == Type::scalar(ScalarType::U32) || *t == Type::scalar(ScalarType::I32);
        let mip_ok = op
            .arg(1)
            .is_none_or(|m| self.op_of(m).is_some_and(|o| int32(&o.ty)));
        if n != dims || !int32(&Type::scalar(sz.base())) || !mip_ok {
            return malformed(def, op, format!("size query {} of a {kind:?} image", op.ty));
        }
        let layered = kind.is_layered();
        let total = n + layered as u32;
        let Some(qt) = self.module.basic_ty(sz.with_vec_size(total as u8)) else {
            return unsupported(def, op, "size type");
        };
        let q = if !kind.is_multisampled() && !d.res.uav {
            let mip = match op.arg(1) {
                Some(m) => self.v(m),
                None => self.module.const_u32(0),
            };
            self.module.un(S::ImageQuerySizeLod, qt, &[d.value, mip])
        } else {
            self.module.un(S::ImageQuerySize, qt, &[d.value])
        };
        let Some(st) = self.module.basic_ty(*sz) else {
            return unsupported(def, op, "size type");
        };
        let size = if !layered {
            q
        } else if n == 1 {
            self.module.un(S::CompositeExtract, st, &[q, 0])
        } else {
            let args = [q, q, 0, 1];
            self.module
                .un(S::VectorShuffle, st, &args[..2 + n as usize])
        };
        let Some(lt) = self.module.basic_ty(*layers) else {
            return unsupported(def, op, "size type");
        };
        let layers = if layered {
            self.module.un(S::CompositeExtract, lt, &[q, n])
        } else {
            self.module.const_scalar(layers.base(), 1)
        };
        self.module
            .emit_to(S::CompositeConstruct, t, id, &[size, layers]);
        Ok(())
    }

    /// `OpSampledImage` of the image `d` and the sampler operand 1 of `op` (one per block
    /// and pair).
    fn sampled_image(&mut self, def: SsaDef, op: &Op, d: &DescInfo) -> R<u32> {
        let sd = self.desc_of(def, op, 1)?;
        if sd.res.kind != ResKind::Sampler {
            return malformed(def, op, "operand 1 is not a sampler");
        }
        let key = [d.value, sd.value];
        let cached = self
            .function_state
            .sampled_images
            .iter()
            .find(|e| e.0 == key);
        if let Some(&(_, si)) = cached {
            return Ok(si);
        }
        let sit = self.module.ty_key(TyKey::SampledImage(d.res.elem_ty));
        let si = self.module.un(S::SampledImage, sit, &[d.value, sd.value]);
        if d.nonuniform || sd.nonuniform {
            self.module.decorate(si, Decoration::NonUniform, &[]);
        }
        let list = &mut self.function_state.sampled_images;
        if list.len() >= 8 {
            list.remove(0);
        }
        list.push((key, si));
        Ok(si)
    }

    /// `ImageComputeLod`: `OpImageQueryLod`.
    pub(super) fn image_compute_lod(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_quads(def, op)?;
        let id = def.id();
        let (d, kind) = self.image_descriptor(def, op)?;
        let si = self.sampled_image(def, op, &d)?;
        self.module.cap(Capability::ImageQuery);
        let t = self.module.val_ty(def, op)?;
        let f32 = |t: ScalarType| t == ScalarType::F32;
        let dims = kind.coord_components();
        self.sized_operand(def, op, 2, "coordinate", dims, f32)?;
        let c = self.v(self.arg(def, op, 2)?);
        self.module.emit_to(S::ImageQueryLod, t, id, &[si, c]);
        Ok(())
    }

    /// `ImageSample` (`is_sample`) and `ImageGather`: the `OpImageSample*`, `OpImage*Gather`
    /// and sparse instruction the operands ask for, with its image operands.
    pub(super) fn image_sample_or_gather(
        &mut self,
        def: SsaDef,
        op: &Op,
        is_sample: bool,
    ) -> R<()> {
        let id = def.id();
        let (d, kind) = self.image_descriptor(def, op)?;
        let si = self.sampled_image(def, op, &d)?;
        let coord = self.coord_with_layer(def, op, 3, 2, kind, true)?;
        // Gradients and offsets have the coordinate's components (without the layer).
        let dims = kind.coord_components();
        let sparse = op.flags.contains(OpFlags::SPARSE_FEEDBACK);
        let dref = if is_sample { op.arg(10) } else { op.arg(5) };
        if dref.is_some() {
            // Only a comparison sampler may compare (see `ResourceBinding::comparison`).
            let sampler = self.desc_of(def, op, 1)?.res.refl;
            if let Some(r) = self.refl.resources.get_mut(sampler as usize) {
                r.comparison = true;
            }
        }
        let f32 = |t: ScalarType| t == ScalarType::F32;
        self.scalar_operand(
            def,
            op,
            if is_sample { 10 } else { 5 },
            "depth reference",
            f32,
        )?;
        if is_sample {
            self.scalar_operand(def, op, 5, "LOD", f32)?;
            self.scalar_operand(def, op, 6, "LOD bias", f32)?;
            self.scalar_operand(def, op, 7, "LOD clamp", f32)?;
            self.sized_operand(def, op, 8, "x gradient", dims, f32)?;
            self.sized_operand(def, op, 9, "y gradient", dims, f32)?;
        }
        {
            // The texels (after the feedback, for a sparse access) are what the
            // image gives.
            let st = d.res.data(self.b).base_type().unwrap_or(ScalarType::F32);
            let want = if is_sample && dref.is_some() {
                Type::scalar(st)
            } else {
                Type::vector(st, 4)
            };
            let texels = if sparse {
                op.ty.members().get(1).map(|m| Type::basic(*m))
            } else {
                Some(op.ty)
            };
            if texels != Some(want) {
                return malformed(
                    def,
                    op,
                    format!("result {} (the image gives {want})", op.ty),
                );
            }
        }
        let mut mask = 0u32;
        let mut extra = [0u32; 6];
        let mut n = 0;
        let mut explicit = false;
        // Whether an implicit LOD derives over quads (else it is LOD 0).
        let derives = if self.stage == ShaderStage::Pixel {
            true
        } else if is_sample && op.arg(5).is_none() && (op.arg(8).is_none() || op.arg(9).is_none()) {
            self.derives_over_quads(def, op)?
        } else {
            false
        };
        if is_sample {
            if let Some(b) = op.arg(6) {
                if derives {
                    mask |= 0x1;
                    extra[n] = self.v(b);
                    n += 1;
                }
            }
            if let Some(l) = op.arg(5) {
                mask |= 0x2;
                let lod = self.v(l);
                extra[n] = self.clamped_lod(lod, op.arg(7));
                n += 1;
                explicit = true;
            } else if let (Some(dx), Some(dy)) = (op.arg(8), op.arg(9)) {
                mask |= 0x4;
                extra[n] = self.v(dx);
                extra[n + 1] = self.v(dy);
                n += 2;
                explicit = true;
            } else if !derives {
                mask |= 0x2;
                let lod = self.module.const_scalar(ScalarType::F32, 0);
                extra[n] = self.clamped_lod(lod, op.arg(7));
                n += 1;
                explicit = true;
            }
        }
        self.sized_operand(def, op, 4, "offset", kind.offset_components(), |t| {
            matches!(t, ScalarType::I32 | ScalarType::U32)
        })?;
        let off = op.arg(4);
        if let Some(off) = off {
            let is_const = self
                .op_of(off)
                .is_some_and(|o| o.opcode == OpCode::Constant);
            if is_const {
                mask |= 0x8;
            } else if is_sample {
                // Only gathers take a run-time offset (in D3D and in Vulkan).
                return malformed(def, op, "run-time offset of a sample");
            } else {
                self.module.cap(Capability::ImageGatherExtended);
                mask |= 0x10;
            }
            extra[n] = self.v(off);
            n += 1;
        }
        // An explicit LOD was clamped above: `MinLod` goes with implicit LODs and
        // gradients only.
        if is_sample && mask & 0x2 == 0 {
            if let Some(c) = op.arg(7) {
                self.module.cap(Capability::MinLod);
                mask |= 0x80;
                extra[n] = self.v(c);
                n += 1;
            }
        }
        if explicit {
            // Bias is only valid with implicit LOD.
            if mask & 0x1 != 0 {
                return unsupported(def, op, "LOD bias with explicit LOD");
            }
        }
        let o = match (is_sample, dref.is_some(), explicit, sparse) {
            (true, false, false, false) => S::ImageSampleImplicitLod,
            (true, false, true, false) => S::ImageSampleExplicitLod,
            (true, true, false, false) => S::ImageSampleDrefImplicitLod,
            (true, true, true, false) => S::ImageSampleDrefExplicitLod,
            (true, false, false, true) => S::ImageSparseSampleImplicitLod,
            (true, false, true, true) => S::ImageSparseSampleExplicitLod,
            (true, true, false, true) => S::ImageSparseSampleDrefImplicitLod,
            (true, true, true, true) => S::ImageSparseSampleDrefExplicitLod,
            (false, false, _, false) => S::ImageGather,
            (false, true, _, false) => S::ImageDrefGather,
            (false, false, _, true) => S::ImageSparseGather,
            (false, true, _, true) => S::ImageSparseDrefGather,
        };
        if sparse {
            self.module.cap(Capability::SparseResidency);
        }
        let t = self.module.val_ty(def, op)?;
        let f = &mut self.module.sections.functions;
        let s = begin(f, o);
        f.extend_from_slice(&[t, id, si, coord]);
        let dv = dref.map(|x| self.v(x));
        let comp = if !is_sample && dv.is_none() {
            let c = op.lit(0).unwrap_or(0);
            if c > 3 {
                return malformed(def, op, format!("gather of component {c}"));
            }
            Some(self.module.const_u32(c as u32))
        } else {
            None
        };
        let f = &mut self.module.sections.functions;
        if let Some(dv) = dv {
            f.push(dv);
        }
        if let Some(c) = comp {
            f.push(c);
        }
        if mask != 0 {
            f.push(mask);
            f.extend_from_slice(&extra[..n]);
        }
        end(f, s);
        Ok(())
    }

    /// `CheckSparseAccess`: `OpImageSparseTexelsResident`, or constant true for the feedback
    /// of a buffer load (see [`crate::SPARSE_BUFFER_FEEDBACK`]).
    pub(super) fn check_sparse_access(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let id = def.id();
        let t = self.module.val_ty(def, op)?;
        let fb = self.arg(def, op, 0)?;
        // Feedback taken from a buffer load (no Vulkan residency query): resident.
        let from_buffer = self.op_of(fb).is_some_and(|o| {
            o.opcode == OpCode::CompositeExtract
                && o.arg(0)
                    .is_some_and(|src| self.resident_feedback.contains(&src))
        });
        if from_buffer {
            let c = self.module.const_scalar(ScalarType::Bool, 1);
            inst(self.module.body(), S::CopyObject, &[t, id, c]);
            return Ok(());
        }
        self.module.cap(Capability::SparseResidency);
        let a = self.v(fb);
        self.module
            .emit_to(S::ImageSparseTexelsResident, t, id, &[a]);
        Ok(())
    }
}
