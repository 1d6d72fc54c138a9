//! Resources: descriptor variables for `DclCbv`, `DclSrv`, `DclUav`, `DclSampler` and
//! `DclUavCounter`, placed by the [`crate::BindingModel`], and `DescriptorLoad`.
//!
//! CBVs are `Uniform` `Block` structs; raw and structured buffers and UAV counters are
//! `StorageBuffer` `Block` structs (an SRV's member `NonWritable`; before SPIR-V 1.3,
//! `Uniform` `BufferBlock` structs, which every Vulkan 1.0 device takes without an
//! extension); a globally coherent UAV is `Coherent` under the `GLSL450` memory model
//! (the Vulkan memory model makes its accesses available and visible instead); typed buffers and
//! textures are `OpTypeImage`s in `UniformConstant` storage, `Sampled` 1 for SRVs and 2 for
//! UAVs, of format `Unknown` unless a UAV's format is fixed (texel atomics need `R32`).
//! Read-only and write-only UAVs are `NonWritable` / `NonReadable`. Descriptor arrays are
//! `OpTypeArray`s, run-time ones `OpTypeRuntimeArray`s (`RuntimeDescriptorArray`); a
//! non-uniform index decorates the access chain and the loaded descriptor `NonUniform` and
//! adds the `*ArrayNonUniformIndexing` capability of the descriptor type. Two resources on
//! one descriptor set and binding are refused (Vulkan would alias them).

use super::error::{malformed, unsupported, word_lit, R};
use super::types::{block_type_problem, TyKey, L_BLOCK, L_BLOCK_RO};
use super::types::{layout_size, scalar_bits};
use super::types::{L_BUFFER_BLOCK, L_BUFFER_BLOCK_RO};
use super::{Emitter, Info};
use crate::SamplerFeedbackKind;
use crate::ScalarKind;
use crate::{DescriptorType, ImageDim, ImageFormat, ImageInfo, RegisterClass, ResourceBinding};
use dxspv_ir::{Op, OpFlags, ResourceKind, ScalarType, SsaDef, Type, UavFlags};
use spirv::{Capability, Decoration, Op as S, StorageClass as SC};

/// What kind of descriptor a resource declaration declared.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum ResKind {
    /// A constant buffer: a `Uniform` block.
    Cbv,
    /// A raw or structured buffer: a `StorageBuffer` block.
    Ssbo,
    /// A typed buffer: a `Buffer` image.
    TexelBuffer,
    /// A texture or storage image of the kind.
    Image(ResourceKind),
    /// A sampler.
    Sampler,
    /// A UAV counter: a `StorageBuffer` block of one `u32`.
    Counter,
}

/// A resource declaration: its descriptor variable and what it holds.
#[derive(Clone, Copy)]
pub(super) struct ResInfo {
    /// The descriptor variable (of one descriptor or an array of them).
    pub(super) var: u32,
    /// What the descriptors are.
    pub(super) kind: ResKind,
    /// Whether it is a UAV.
    pub(super) uav: bool,
    /// Descriptors in the array: 1 for one, 0 for a run-time array.
    pub(super) count: u32,
    /// Type of one descriptor (the struct for buffers, the image type, ...).
    pub(super) elem_ty: u32,
    /// The declaration, whose IR type is the type of the data (CBV / SSBO contents, texel
    /// scalar: [`ResInfo::data`]).
    pub(super) dcl: SsaDef,
    /// A globally coherent UAV (`UavFlags::Coherent`).
    pub(super) coherent: bool,
    /// A typed UAV declared with the format its data type names (`UavFlags::FixedFormat`),
    /// which texel atomics need: Vulkan has them on `R32`/`R64` formats only.
    pub(super) fixed_format: bool,
    /// Index of its entry in [`Reflection::resources`](crate::Reflection::resources).
    pub(super) refl: u32,
}

impl ResInfo {
    /// The IR type of the data (CBV / SSBO contents, texel scalar): its declaration's.
    pub(super) fn data<'b>(&self, b: &'b dxspv_ir::Builder) -> &'b Type {
        b.get(self.dcl).map_or(&Type::VOID, |o| &o.ty)
    }
}

/// A `DescriptorLoad`: the descriptor (one element of an array) and its loaded value.
#[derive(Clone, Copy)]
pub(super) struct DescInfo {
    /// The declaration.
    pub(super) res: ResInfo,
    /// Pointer to the descriptor (or buffer block).
    pub(super) ptr: u32,
    /// Loaded image / sampler (0 for buffers).
    pub(super) value: u32,
    /// Whether the index into the array is non-uniform.
    pub(super) nonuniform: bool,
}

/// The first two resources that share a Vulkan descriptor set and binding, if any (two
/// registers of different classes whose shifts land on one binding): Vulkan would alias
/// them. Small lists are compared pairwise, longer ones sorted, so the check stays
/// `O(n log n)` without allocating for the usual handful.
pub(super) fn shared_binding(resources: &[ResourceBinding]) -> Option<(usize, usize)> {
    let key = |r: &ResourceBinding| (r.set, r.binding);
    if resources.len() <= 32 {
        return (0..resources.len()).find_map(|j| {
            (0..j)
                .find(|&i| key(&resources[i]) == key(&resources[j]))
                .map(|i| (i, j))
        });
    }
    let mut order: Vec<usize> = (0..resources.len()).collect();
    order.sort_unstable_by_key(|&i| (key(&resources[i]), i));
    order
        .windows(2)
        .find(|w| key(&resources[w[0]]) == key(&resources[w[1]]))
        .map(|w| (w[0], w[1]))
}

impl<'a> Emitter<'a> {
    /// `DclCbv`, `DclSrv`, `DclUav`, `DclSampler` and `DclUavCounter` (`class`): the
    /// descriptor variable, its set and binding, and its reflection entry.
    pub(super) fn dcl_resource(&mut self, def: SsaDef, op: &Op, class: RegisterClass) -> R<()> {
        let bm = &self.opts.bindings;
        let (space, reg, count) = match class {
            // A counter is placed by the register of its UAV.
            RegisterClass::UavCounter => {
                let uav = self.arg(def, op, 1)?;
                let Some(uop) = self.op_of(uav) else {
                    return malformed(def, op, "missing UAV");
                };
                (
                    word_lit(def, op, uop.lit(0).unwrap_or(0))?,
                    word_lit(def, op, uop.lit(1).unwrap_or(0))?,
                    word_lit(def, op, uop.lit(2).unwrap_or(1))?,
                )
            }
            RegisterClass::Cbv
            | RegisterClass::Srv
            | RegisterClass::Uav
            | RegisterClass::Sampler => (
                word_lit(def, op, self.lit(def, op, 0)?)?,
                word_lit(def, op, self.lit(def, op, 1)?)?,
                word_lit(def, op, self.lit(def, op, 2)?)?,
            ),
        };
        let shift = match class {
            RegisterClass::Cbv => bm.b_shift,
            RegisterClass::Srv => bm.t_shift,
            RegisterClass::Uav => bm.u_shift,
            RegisterClass::Sampler => bm.s_shift,
            RegisterClass::UavCounter => bm.counter_shift,
        };
        let (Some(set), Some(binding)) = (space.checked_add(bm.set_offset), reg.checked_add(shift))
        else {
            return unsupported(
                def,
                op,
                format!("space {space}, register {reg}: its set or binding is past 2^32 - 1"),
            );
        };
        let uav = class == RegisterClass::Uav;
        let flags = if uav {
            UavFlags(op.lit(4).unwrap_or(0) as u32)
        } else {
            UavFlags::empty()
        };
        let rk = if matches!(class, RegisterClass::Srv | RegisterClass::Uav) {
            match ResourceKind::from_literal(self.lit(def, op, 3)?) {
                Some(k) => Some(k),
                None => return malformed(def, op, "bad resource kind"),
            }
        } else {
            None
        };
        let mut image = None;
        let mut feedback = None;
        let (kind, sc, elem_ty, dtype) = match (class, rk) {
            (RegisterClass::Cbv, _) => {
                let why = block_type_problem(&op.ty, true)
                    .or_else(|| op.ty.dims().contains(&0).then_some("unsized"));
                if let Some(why) = why {
                    return unsupported(def, op, format!("CBV type {} ({why})", op.ty));
                }
                let Some(inner) = self.module.ty(&op.ty, true) else {
                    return unsupported(def, op, format!("CBV type {}", op.ty));
                };
                let st = self.module.block(inner, L_BLOCK);
                (ResKind::Cbv, SC::Uniform, st, DescriptorType::UniformBuffer)
            }
            (RegisterClass::UavCounter, _) => {
                let u = self.module.u32_ty();
                let (sc, flavour) = self.buffer_block(true);
                let st = self.module.block(u, flavour);
                (ResKind::Counter, sc, st, DescriptorType::StorageBuffer)
            }
            (RegisterClass::Sampler, _) => {
                let t = self.module.ty_key(TyKey::Sampler);
                (
                    ResKind::Sampler,
                    SC::UniformConstant,
                    t,
                    DescriptorType::Sampler,
                )
            }
            (_, Some(ResourceKind::BufferRaw | ResourceKind::BufferStructured)) => {
                if let Some(why) = block_type_problem(&op.ty, false) {
                    return unsupported(def, op, format!("buffer type {} ({why})", op.ty));
                }
                let Some(inner) = self.module.ty(&op.ty, true) else {
                    return unsupported(def, op, format!("buffer type {}", op.ty));
                };
                let (sc, flavour) = self.buffer_block(uav);
                let st = self.module.block(inner, flavour);
                (ResKind::Ssbo, sc, st, DescriptorType::StorageBuffer)
            }
            (_, Some(k @ (ResourceKind::FeedbackImage2D | ResourceKind::FeedbackImage2DArray))) => {
                // A sampler feedback map (emulated: docs/sampler_feedback.md): an `R32ui`
                // storage image, a texel per mip region, written by texel atomics.
                if !uav
                    || op.ty != Type::scalar(ScalarType::U32)
                    || !flags.contains(UavFlags::FixedFormat)
                {
                    return malformed(
                        def,
                        op,
                        format!("sampler feedback map ({k}) that is not a FixedFormat u32 UAV"),
                    );
                }
                feedback = Some(if flags.contains(UavFlags::MipRegionUsed) {
                    SamplerFeedbackKind::MipRegionUsed
                } else {
                    SamplerFeedbackKind::MinMip
                });
                let arrayed = k == ResourceKind::FeedbackImage2DArray;
                image = Some(ImageInfo {
                    dim: ImageDim::Dim2D,
                    arrayed,
                    multisampled: false,
                    format: ImageFormat::R32ui,
                    sampled_type: ScalarKind::Uint,
                });
                let u = self.module.u32_ty();
                let t = self.module.ty_key(TyKey::Image([
                    u,
                    spirv::Dim::Dim2D as u32,
                    0,
                    arrayed as u32,
                    0,
                    2,
                    spirv::ImageFormat::R32ui as u32,
                ]));
                (
                    ResKind::Image(k),
                    SC::UniformConstant,
                    t,
                    DescriptorType::StorageImage,
                )
            }
            (_, Some(k)) => {
                // Vulkan images and texel buffers hold 32-bit scalars, and 64-bit integers
                // (SM 6.6's R64_UINT/R64_SINT resources, for 64-bit atomics) with
                // `SPV_EXT_shader_image_int64`.
                let st = match op.ty.as_basic() {
                    Some(b)
                        if !b.is_vector()
                            && matches!(
                                b.base(),
                                ScalarType::F32
                                    | ScalarType::U32
                                    | ScalarType::I32
                                    | ScalarType::U64
                                    | ScalarType::I64
                            ) =>
                    {
                        b.base()
                    }
                    _ => return unsupported(def, op, format!("texel type {}", op.ty)),
                };
                if scalar_bits(st) == 64 {
                    self.module.cap(Capability::Int64ImageEXT);
                    self.module.ext("SPV_EXT_shader_image_int64");
                }
                let Some(sampled) = self.module.scalar_ty(st) else {
                    return unsupported(def, op, format!("texel type {}", op.ty));
                };
                use spirv::Dim as D;
                let (dim, arrayed, ms) = match k {
                    ResourceKind::BufferTyped => (D::DimBuffer, 0, 0),
                    ResourceKind::Image1D => (D::Dim1D, 0, 0),
                    ResourceKind::Image1DArray => (D::Dim1D, 1, 0),
                    ResourceKind::Image2D => (D::Dim2D, 0, 0),
                    ResourceKind::Image2DArray => (D::Dim2D, 1, 0),
                    ResourceKind::Image2DMS => (D::Dim2D, 0, 1),
                    ResourceKind::Image2DMSArray => (D::Dim2D, 1, 1),
                    ResourceKind::ImageCube => (D::DimCube, 0, 0),
                    ResourceKind::ImageCubeArray => (D::DimCube, 1, 0),
                    ResourceKind::Image3D => (D::Dim3D, 0, 0),
                    _ => return unsupported(def, op, format!("resource kind {k}")),
                };
                match (dim, uav) {
                    (D::DimBuffer, false) => self.module.cap(Capability::SampledBuffer),
                    (D::DimBuffer, true) => self.module.cap(Capability::ImageBuffer),
                    (D::Dim1D, false) => self.module.cap(Capability::Sampled1D),
                    (D::Dim1D, true) => self.module.cap(Capability::Image1D),
                    (D::DimCube, false) if arrayed == 1 => {
                        self.module.cap(Capability::SampledCubeArray)
                    }
                    (D::DimCube, true) if arrayed == 1 => {
                        self.module.cap(Capability::ImageCubeArray)
                    }
                    _ => {}
                }
                if uav && ms == 1 {
                    self.module.cap(Capability::StorageImageMultisample);
                    if arrayed == 1 {
                        self.module.cap(Capability::ImageMSArray);
                    }
                }
                let fmt = if uav && flags.contains(UavFlags::FixedFormat) {
                    match st {
                        ScalarType::U32 => spirv::ImageFormat::R32ui,
                        ScalarType::I32 => spirv::ImageFormat::R32i,
                        ScalarType::F32 => spirv::ImageFormat::R32f,
                        ScalarType::U64 => spirv::ImageFormat::R64ui,
                        ScalarType::I64 => spirv::ImageFormat::R64i,
                        _ => spirv::ImageFormat::Unknown,
                    }
                } else {
                    spirv::ImageFormat::Unknown
                };
                image = Some(ImageInfo {
                    dim: match dim {
                        D::DimBuffer => ImageDim::Buffer,
                        D::Dim1D => ImageDim::Dim1D,
                        D::Dim3D => ImageDim::Dim3D,
                        D::DimCube => ImageDim::Cube,
                        _ => ImageDim::Dim2D,
                    },
                    arrayed: arrayed == 1,
                    multisampled: ms == 1,
                    format: match fmt {
                        spirv::ImageFormat::R32f => ImageFormat::R32f,
                        spirv::ImageFormat::R32i => ImageFormat::R32i,
                        spirv::ImageFormat::R32ui => ImageFormat::R32ui,
                        spirv::ImageFormat::R64i => ImageFormat::R64i,
                        spirv::ImageFormat::R64ui => ImageFormat::R64ui,
                        _ => ImageFormat::Unknown,
                    },
                    sampled_type: match st {
                        ScalarType::I32 | ScalarType::I64 => ScalarKind::Sint,
                        ScalarType::U32 | ScalarType::U64 => ScalarKind::Uint,
                        _ => ScalarKind::Float,
                    },
                });
                let t = self.module.ty_key(TyKey::Image([
                    sampled,
                    dim as u32,
                    0,
                    arrayed,
                    ms,
                    if uav { 2 } else { 1 },
                    fmt as u32,
                ]));
                let dt = match (k == ResourceKind::BufferTyped, uav) {
                    (true, false) => DescriptorType::UniformTexelBuffer,
                    (true, true) => DescriptorType::StorageTexelBuffer,
                    (false, false) => DescriptorType::SampledImage,
                    (false, true) => DescriptorType::StorageImage,
                };
                let rkind = if k == ResourceKind::BufferTyped {
                    ResKind::TexelBuffer
                } else {
                    ResKind::Image(k)
                };
                (rkind, SC::UniformConstant, t, dt)
            }
            _ => return malformed(def, op, "resource kind"),
        };
        let var_ty = match count {
            1 => elem_ty,
            0 => {
                self.module.cap(Capability::RuntimeDescriptorArray);
                self.module.ty_key(TyKey::RtArray(elem_ty, 0))
            }
            n => {
                let len = self.module.const_u32(n);
                self.module.ty_key(TyKey::Array(elem_ty, len, 0))
            }
        };
        let p = self.module.ptr(sc, var_ty);
        let var = def.id();
        self.module.global_var(p, sc, var, None);
        self.mark(def);
        self.module.decorate(var, Decoration::DescriptorSet, &[set]);
        self.module.decorate(var, Decoration::Binding, &[binding]);
        if uav && flags.contains(UavFlags::Coherent) && !self.module.vulkan_memory_model() {
            // GLSL450: coherence is a decoration (the Vulkan memory model makes each access
            // available or visible instead, and forbids the decoration).
            self.module.decorate(var, Decoration::Coherent, &[]);
        }
        if uav && kind != ResKind::Ssbo {
            if flags.contains(UavFlags::ReadOnly) {
                self.module.decorate(var, Decoration::NonWritable, &[]);
            }
            if flags.contains(UavFlags::WriteOnly) {
                self.module.decorate(var, Decoration::NonReadable, &[]);
            }
        }
        self.set_info(
            def,
            Info::Res(ResInfo {
                var,
                kind,
                uav,
                count,
                elem_ty,
                dcl: def,
                coherent: flags.contains(UavFlags::Coherent),
                fixed_format: uav && flags.contains(UavFlags::FixedFormat),
                refl: self.refl.resources.len() as u32,
            }),
        );
        // Sizes as laid out in the block: a CBV's whole contents, a buffer's array element.
        let (size, stride) = match kind {
            ResKind::Cbv => (Some(layout_size(&op.ty)), None),
            ResKind::Ssbo => {
                let element = if op.ty.is_array() {
                    op.ty.element_type()
                } else {
                    op.ty
                };
                (None, Some(layout_size(&element)))
            }
            _ => (None, None),
        };
        super::interface::room_for_first(&mut self.refl.resources);
        self.refl.resources.push(ResourceBinding {
            class,
            space,
            register: reg,
            count,
            set,
            binding,
            descriptor_type: dtype,
            name: self.debug_name(def),
            image,
            comparison: false,
            size,
            stride,
            sampler_feedback: feedback,
        });
        Ok(())
    }

    /// A pointer to the 64-bit integer element (of type `st`) that 32-bit index `index` of
    /// the raw or structured buffer `d` starts (`index / 2`), through a view of its binding
    /// as an array of 64-bit integers: SM 6.6's 64-bit atomics on buffers whose IR type is
    /// 32-bit words. The view is a second variable at the buffer's set and binding, declared
    /// once per buffer and type; both are `Aliased`, since they are one memory.
    pub(super) fn wide_buffer_element(
        &mut self,
        def: SsaDef,
        op: &Op,
        d: &DescInfo,
        st: ScalarType,
        index: u32,
    ) -> R<u32> {
        let res = d.res;
        let existing = self
            .wide_views
            .iter()
            .find(|v| v.0 == res.var && v.1 == st)
            .map(|v| (v.2, v.3));
        let (view, block) = match existing {
            Some(x) => x,
            None => {
                let Ok(arr) = Type::scalar(st).array_of(0) else {
                    return unsupported(def, op, "64-bit buffer view");
                };
                let Some(inner) = self.module.ty(&arr, true) else {
                    return unsupported(def, op, "64-bit buffer view");
                };
                let (sc, flavour) = self.buffer_block(true);
                let block = self.module.block(inner, flavour);
                let var_ty = match res.count {
                    1 => block,
                    0 => self.module.ty_key(TyKey::RtArray(block, 0)),
                    n => {
                        let len = self.module.const_u32(n);
                        self.module.ty_key(TyKey::Array(block, len, 0))
                    }
                };
                let Some(binding) = self.refl.resources.get(res.refl as usize) else {
                    return malformed(def, op, "buffer without a binding");
                };
                let (set, binding) = (binding.set, binding.binding);
                let p = self.module.ptr(sc, var_ty);
                let view = self.module.id();
                self.module.global_var(p, sc, view, None);
                self.module
                    .decorate(view, Decoration::DescriptorSet, &[set]);
                self.module.decorate(view, Decoration::Binding, &[binding]);
                self.module.decorate(view, Decoration::Aliased, &[]);
                if !self.wide_views.iter().any(|v| v.0 == res.var) {
                    self.module.decorate(res.var, Decoration::Aliased, &[]);
                }
                if res.coherent && !self.module.vulkan_memory_model() {
                    self.module.decorate(view, Decoration::Coherent, &[]);
                }
                self.wide_views.push((res.var, st, view, block));
                (view, block)
            }
        };
        let sc = self.module.buffer_class();
        let buffer = if res.count == 1 {
            view
        } else {
            // The same element of the array as the descriptor load took.
            let Some(load) = op.arg(0).and_then(|l| self.op_of(l)) else {
                return malformed(def, op, "descriptor missing");
            };
            let idx = self.v(self.arg(def, load, 1)?);
            let pt = self.module.ptr(sc, block);
            let p = self.module.un(S::AccessChain, pt, &[view, idx]);
            if d.nonuniform {
                self.module.decorate(p, Decoration::NonUniform, &[]);
            }
            p
        };
        let u = self.module.u32_ty();
        let one = self.module.const_u32(1);
        let wide_index = self.module.un(S::ShiftRightLogical, u, &[index, one]);
        let Some(et) = self.module.scalar_ty(st) else {
            return unsupported(def, op, "64-bit buffer view");
        };
        let pt = self.module.ptr(sc, et);
        let c0 = self.module.const_u32(0);
        Ok(self
            .module
            .un(S::AccessChain, pt, &[buffer, c0, wide_index]))
    }

    /// The storage class and block flavour of a raw or structured buffer or a UAV counter
    /// (`writable` false: an SRV's, whose member is `NonWritable`): a `StorageBuffer`
    /// `Block`, or a `Uniform` `BufferBlock` before SPIR-V 1.3.
    fn buffer_block(&self, writable: bool) -> (SC, u8) {
        let sc = self.module.buffer_class();
        let flavour = match (sc == SC::StorageBuffer, writable) {
            (true, true) => L_BLOCK,
            (true, false) => L_BLOCK_RO,
            (false, true) => L_BUFFER_BLOCK,
            (false, false) => L_BUFFER_BLOCK_RO,
        };
        (sc, flavour)
    }

    /// The `DescriptorLoad` that is operand `i` of `op`.
    pub(super) fn desc_of(&self, def: SsaDef, op: &Op, i: usize) -> R<DescInfo> {
        let d = self.arg(def, op, i)?;
        match self.info(d) {
            Some(Info::Desc(x)) => Ok(*x),
            _ => malformed(def, op, "descriptor operand is not a DescriptorLoad"),
        }
    }

    /// `DescriptorLoad`: a pointer to the descriptor (an access chain into an array of them,
    /// `NonUniform` when the index is) and, for images, texel buffers and samplers, its value.
    pub(super) fn descriptor_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let dcl = self.arg(def, op, 0)?;
        let Some(res) = self.res_info(dcl) else {
            return malformed(def, op, "not a resource declaration");
        };
        let nonuniform = op.flags.contains(OpFlags::NON_UNIFORM);
        let sc = match res.kind {
            ResKind::Cbv => SC::Uniform,
            ResKind::Ssbo | ResKind::Counter => self.module.buffer_class(),
            _ => SC::UniformConstant,
        };
        let ptr = if res.count == 1 {
            res.var
        } else {
            let idx = self.v(self.arg(def, op, 1)?);
            let pt = self.module.ptr(sc, res.elem_ty);
            let p = self.module.un(S::AccessChain, pt, &[res.var, idx]);
            if nonuniform {
                self.module.cap(Capability::ShaderNonUniform);
                self.module.cap(match (res.kind, res.uav) {
                    (ResKind::Cbv, _) => Capability::UniformBufferArrayNonUniformIndexing,
                    (ResKind::Ssbo | ResKind::Counter, _) => {
                        Capability::StorageBufferArrayNonUniformIndexing
                    }
                    (ResKind::TexelBuffer, false) => {
                        Capability::UniformTexelBufferArrayNonUniformIndexing
                    }
                    (ResKind::TexelBuffer, true) => {
                        Capability::StorageTexelBufferArrayNonUniformIndexing
                    }
                    (ResKind::Image(_), true) => Capability::StorageImageArrayNonUniformIndexing,
                    (ResKind::Image(_), false) | (ResKind::Sampler, _) => {
                        Capability::SampledImageArrayNonUniformIndexing
                    }
                });
                self.module.decorate(p, Decoration::NonUniform, &[]);
            }
            p
        };
        let value = match res.kind {
            ResKind::Image(_) | ResKind::TexelBuffer | ResKind::Sampler => {
                let v = self.module.un(S::Load, res.elem_ty, &[ptr]);
                if nonuniform {
                    self.module.cap(Capability::ShaderNonUniform);
                    self.module.decorate(v, Decoration::NonUniform, &[]);
                }
                v
            }
            _ => 0,
        };
        self.set_map(def, if value != 0 { value } else { ptr });
        self.set_info(
            def,
            Info::Desc(DescInfo {
                res,
                ptr,
                value,
                nonuniform,
            }),
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(class: RegisterClass, register: u32, binding: u32) -> ResourceBinding {
        ResourceBinding {
            class,
            space: 0,
            register,
            count: 1,
            set: 0,
            binding,
            descriptor_type: DescriptorType::SampledImage,
            name: None,
            image: None,
            comparison: false,
            size: None,
            stride: None,
            sampler_feedback: None,
        }
    }

    #[test]
    fn shared_bindings_are_found_in_short_and_long_lists() {
        // Short lists are compared pairwise, long ones sorted: both find the first clash.
        for n in [3u32, 32, 33, 500] {
            let mut list: Vec<_> = (0..n)
                .map(|r| resource(RegisterClass::Srv, r, r + 1000))
                .collect();
            assert_eq!(shared_binding(&list), None, "{n}");
            list.push(resource(RegisterClass::Sampler, 1, 1001));
            assert_eq!(shared_binding(&list), Some((1, n as usize)), "{n}");
            list[n as usize].set = 1;
            assert_eq!(shared_binding(&list), None, "{n}");
        }
    }
}
