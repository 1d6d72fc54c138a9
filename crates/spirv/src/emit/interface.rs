//! The shader interface: `Input` and `Output` variables for the `DclInput*` and
//! `DclOutput*` declarations with their `Location`, `Component`, `BuiltIn`, interpolation
//! and `Patch` decorations, and their loads and stores; the `GLSL.std.450` interpolation
//! functions; geometry shader vertex and primitive emission; the push constant block; and
//! specialization constants.
//!
//! D3D registers become locations; hull shader patch constants and domain shader patch
//! inputs count down from [`crate::PATCH_LOCATION_TOP`] and geometry shader streams past the
//! first move up by [`crate::GS_STREAM_LOCATION_STRIDE`] per stream. Tessellation factors
//! are `Patch` built-ins. `DclXfb` puts `XfbBuffer`, `XfbStride` and `Offset` on the output
//! it names (with the `Xfb` execution mode). Vulkan's location rules are
//! checked (components 0 to 3, 64-bit values in component pairs, one location per array
//! element) and overlapping declarations refused. Integer and 64-bit pixel shader inputs
//! are `Flat`, as Vulkan requires. Built-ins must have the type Vulkan gives them; D3D
//! built-ins Vulkan lacks or defines differently are adapted: `SV_VertexID` and
//! `SV_InstanceID` count from the draw's first vertex and instance (`VertexIndex -
//! BaseVertex`), the pixel shader's `SV_Position.w` is `1 / FragCoord.w`, `SV_Coverage` is
//! `SampleMask[0]`, and the render target sample count is a spec constant
//! ([`crate::SAMPLE_COUNT_SPEC_ID`]). Push data is one `Block` struct in `PushConstant`
//! storage with a member per `DclPushData` at its byte offset (std430).
//!
//! A scalar stored to a constant component of an output vector waits, with the block's other
//! such stores, until an op that could see the outputs or leave the block (any op with an
//! effect besides its result, and `OutputLoad`): a vector whose components were all stored is
//! then written with one `OpStore`, others a component at a time. Nothing but the invocation
//! itself reads its outputs before then, so only the instruction count changes.
//!
//! Shader Model 6 adds: a mesh shader's outputs, arrays of one element per vertex or
//! primitive (the stream-1 ones `PerPrimitiveEXT`, see `mesh.rs`); pixel shader inputs read
//! per vertex (`PerVertexKHR` arrays of 3, `SPV_KHR_fragment_shader_barycentric`) or per
//! primitive (`PerPrimitiveEXT`); `SV_Barycentrics` as `BaryCoordKHR` or, without
//! perspective, `BaryCoordNoPerspKHR`, at the centroid or sample as its modes say;
//! `SV_ShadingRate` as `ShadingRateKHR` in and `PrimitiveShadingRateKHR` out (the two APIs
//! encode rates alike); `SV_CullPrimitive`, the primitive indices, and the wave lane index
//! and count (`SubgroupLocalInvocationId`, `SubgroupSize`).

use super::control_flow::{PendingOutput, VectorLoads};
use super::error::{malformed, unsupported, word_lit, R};
use super::types::{basic_bits, block_align, block_type_problem};
use super::types::{layout_size, scalar_bits};
use super::{constant_literals, Emitter, Info};
use crate::words::{begin, end, inst, inst_tail};
use crate::{InterfaceVariable, ScalarKind};
use dxspv_ir::{
    BasicType, BuiltIn, InterpolationModes, Op, OpCode, ScalarType, ShaderStage, SsaDef, Type,
};
use smallvec::SmallVec;
use spirv::GLOp;
use spirv::{Capability, Decoration, Op as S, StorageClass as SC};

/// How an interface variable differs from the IR's view of it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum IoWrap {
    /// The variable holds the IR's value.
    None,
    /// Declared as a one-element array (SampleMask).
    ArrayOfOne,
    /// Value is the builtin minus another builtin variable (VertexIndex - BaseVertex).
    SubBase(u32),
    /// Pixel shader `SV_Position`: Vulkan's `FragCoord.w` is `1 / w_clip`, D3D's is `w_clip`,
    /// so `w` is reciprocated on load.
    RcpW,
}

/// A variable an IR declaration stands for: interface, LDS, scratch or sample count.
#[derive(Clone, Copy)]
pub(super) struct VarInfo {
    /// The `OpVariable`.
    pub(super) var: u32,
    /// Its storage class.
    pub(super) sc: SC,
    /// The declaration, whose IR type is the type of its contents ([`VarInfo::ty`]).
    pub(super) dcl: SsaDef,
    /// How its contents differ from the IR's value.
    pub(super) wrap: IoWrap,
    /// 1 + index into the reflection's inputs (`Input`) or outputs (`Output`); 0 for none.
    pub(super) refl: u32,
}

impl VarInfo {
    /// The IR type of the variable's contents: its declaration's.
    pub(super) fn ty<'b>(&self, b: &'b dxspv_ir::Builder) -> &'b Type {
        b.get(self.dcl).map_or(&Type::VOID, |o| &o.ty)
    }
}

/// Where `InterpolateAt*` interpolates an input.
#[derive(Clone, Copy)]
pub(super) enum Interpolation {
    /// At the pixel's centroid (`InterpolateAtCentroid`).
    Centroid,
    /// At a sample (`InterpolateAtSample`).
    Sample,
    /// At an offset from the pixel's center (`InterpolateAtOffset`).
    Offset,
}

/// Output vectors whose component stores may wait at once (more are written first).
const MAX_PENDING_OUTPUTS: usize = 8;

/// Varying locations a module may use: Direct3D's 32 registers, moved up by 32 per geometry
/// stream, with room for arrays (patch constants count down from 31); far past what any Vulkan
/// device offers, so nothing real is refused, while the overlap check stays a table lookup.
pub(super) const MAX_LOCATIONS: usize = 256;

/// Entries the reflection's lists of inputs, outputs and resources get on their first one.
const REFLECTION_CAPACITY: usize = 8;

/// Gives the empty reflection list `list` room for a typical signature before its first entry
/// (no count of the declarations is made), allocated as new (it holds nothing to keep).
pub(super) fn room_for_first<T>(list: &mut Vec<T>) {
    if list.capacity() == 0 {
        *list = Vec::with_capacity(REFLECTION_CAPACITY);
    }
}

/// True if `ty` is a type Vulkan accepts for the built-in `bi` (per vertex, an array, where
/// a stage reads or writes arrays of vertices: `arrayed`).
pub(super) fn builtin_type_ok(bi: BuiltIn, ty: &Type, arrayed: bool) -> bool {
    use ScalarType as S;
    // Basic types compare as their `BasicType`s (cheaper than whole types).
    let basic = ty.as_basic();
    let is = |want: BasicType| basic == Some(want);
    let per_vertex = |want: BasicType| {
        is(want)
            || (arrayed && {
                let dims = ty.dims();
                dims.len() == 1 && dims[0] != 0 && ty.element_type().as_basic() == Some(want)
            })
    };
    let scalar = BasicType::scalar;
    let vector = BasicType::vector;
    let int32 = is(scalar(S::U32)) || is(scalar(S::I32));
    match bi {
        BuiltIn::Position => per_vertex(vector(S::F32, 4)),
        BuiltIn::PointSize => per_vertex(scalar(S::F32)),
        BuiltIn::ClipDistance | BuiltIn::CullDistance => {
            ty.without_arrays() == Type::scalar(S::F32)
                && (1..=1 + arrayed as usize).contains(&ty.dims().len())
                && !ty.dims().contains(&0)
        }
        BuiltIn::TessCoord => is(vector(S::F32, 3)),
        BuiltIn::TessFactorInner => Type::scalar(S::F32).array_of(2) == Ok(*ty),
        BuiltIn::TessFactorOuter => Type::scalar(S::F32).array_of(4) == Ok(*ty),
        BuiltIn::SamplePosition => is(vector(S::F32, 2)),
        BuiltIn::IsFrontFace | BuiltIn::IsFullyCovered => is(scalar(S::Bool)),
        BuiltIn::Depth => is(scalar(S::F32)),
        BuiltIn::WorkgroupId | BuiltIn::GlobalThreadId | BuiltIn::LocalThreadId => {
            is(vector(S::U32, 3)) || is(vector(S::I32, 3))
        }
        BuiltIn::VertexId
        | BuiltIn::InstanceId
        | BuiltIn::StartVertexLocation
        | BuiltIn::StartInstanceLocation
        | BuiltIn::PrimitiveId
        | BuiltIn::LayerIndex
        | BuiltIn::ViewportIndex
        | BuiltIn::GsInstanceId
        | BuiltIn::TessControlPointId
        | BuiltIn::TessControlPointCountIn
        | BuiltIn::SampleId
        | BuiltIn::SampleMask
        | BuiltIn::SampleCount
        | BuiltIn::StencilRef
        | BuiltIn::LocalThreadIndex
        | BuiltIn::ViewId
        | BuiltIn::ShadingRate
        | BuiltIn::WaveLaneIndex
        | BuiltIn::WaveLaneCount => int32,
        BuiltIn::CullPrimitive => is(scalar(S::Bool)),
        BuiltIn::PrimitiveIndices => is(vector(S::U32, 3)) || is(vector(S::U32, 2)),
        BuiltIn::Barycentrics => is(vector(S::F32, 3)),
        _ => true,
    }
}

/// The component kind, component bits and vector size of `t` (of its members, for an
/// array): what the reflection tells of an interface variable.
pub(super) fn value_shape(t: &Type) -> (ScalarKind, u32, u32) {
    // The element of an array is its one member (no copy of the type without arrays).
    let &[b] = t.members() else {
        return (ScalarKind::Float, 32, 1);
    };
    let st = b.base();
    let kind = if st == ScalarType::Bool {
        ScalarKind::Bool
    } else if st.is_signed_int() {
        ScalarKind::Sint
    } else if st.is_unsigned_int() {
        ScalarKind::Uint
    } else {
        ScalarKind::Float
    };
    (kind, basic_bits(b), u32::from(b.vec_size()))
}

impl<'a> Emitter<'a> {
    /// Checks a varying's shape against Vulkan's location rules (components 0..=3, 64-bit
    /// values in pairs, sized arrays one location per element) and claims its components,
    /// refusing a declaration that overlaps an earlier one.
    pub(super) fn claim_io_slots(
        &mut self,
        def: SsaDef,
        op: &Op,
        input: bool,
        patch: bool,
        loc: u32,
        comp: u32,
    ) -> R<()> {
        let stage = self.stage;
        let per_vertex = !patch
            && match stage {
                ShaderStage::Hull => true,
                ShaderStage::Domain | ShaderStage::Geometry => input,
                // A mesh shader's outputs, per vertex or primitive.
                ShaderStage::Mesh => !input,
                // Inputs read per vertex (`PerVertex`: an array of 3).
                ShaderStage::Pixel => {
                    input
                        && op.lit(2).is_some_and(|m| {
                            InterpolationModes(m as u32).contains(InterpolationModes::PerVertex)
                        })
                }
                _ => false,
            };
        let ty = if per_vertex && !op.ty.dims().is_empty() {
            op.ty.element_type()
        } else {
            op.ty
        };
        let &[b] = ty.members() else {
            return unsupported(def, op, format!("varying type {}", op.ty));
        };
        if b.base() == ScalarType::Bool {
            // Vulkan passes numbers between stages; only built-ins are bools.
            return unsupported(def, op, format!("varying of type {}", op.ty));
        }
        let wide = basic_bits(b) == 64;
        let used = u32::from(b.vec_size()) * if wide { 2 } else { 1 };
        if ty.dims().contains(&0) || comp + used > 4 || (wide && comp % 2 != 0) {
            return unsupported(def, op, format!("varying {} at component {comp}", op.ty));
        }
        let count = ty
            .dims()
            .iter()
            .fold(1u64, |n, &d| n.saturating_mul(u64::from(d)));
        if count > 64 {
            return unsupported(
                def,
                op,
                format!("varying {} (more than 64 locations)", op.ty),
            );
        }
        let end = u64::from(loc) + count;
        if end > MAX_LOCATIONS as u64 {
            return unsupported(
                def,
                op,
                format!(
                    "varying {} at location {loc} (locations end at {MAX_LOCATIONS})",
                    op.ty
                ),
            );
        }
        let mask = (((1u32 << used) - 1) << comp) as u8;
        let first = if input { 0 } else { MAX_LOCATIONS };
        let slots = &mut self.io_slots[first..first + MAX_LOCATIONS];
        for (l, taken) in slots[loc as usize..end as usize].iter_mut().enumerate() {
            if *taken & mask != 0 {
                let l = loc as usize + l;
                return malformed(def, op, format!("location {l} overlaps an earlier varying"));
            }
            *taken |= mask;
        }
        Ok(())
    }

    /// `DclInput`, `DclOutput` (`builtin` false) and their `BuiltIn` forms: a variable of
    /// storage class `sc` (`Input` or `Output`) with its decorations and reflection entry.
    pub(super) fn dcl_io(&mut self, def: SsaDef, op: &Op, sc: SC, builtin: bool) -> R<()> {
        let input = sc == SC::Input;
        let ty = &op.ty;
        // The literals, worked out once.
        let lits = op.literals();
        let lit = |i: usize| match lits.get(i) {
            Some(o) => Ok(o.0),
            None => super::lit_missing(def, op, i),
        };
        // The declared type, where it is not the IR's (`SampleMask`'s array of one).
        let mut array_of_one = None;
        let mut wrap = IoWrap::None;
        let var = def.id();
        let stage = self.stage;
        let mut location = None;
        let mut component = 0;
        let mut builtin_name = None;
        let mut is_patch = false;
        if builtin {
            let Some(bi) = BuiltIn::from_literal(lit(0)?) else {
                return malformed(def, op, "unknown builtin");
            };
            if !bi.exists_in(stage, !input) {
                let dir = if input { "an input" } else { "an output" };
                return malformed(
                    def,
                    op,
                    format!("built-in {bi} as {dir} of a {stage} shader"),
                );
            }
            if bi == BuiltIn::SampleCount && input {
                return self.dcl_sample_count(def, op);
            }
            builtin_name = Some(bi.name());
            // Stages that see several vertices read (and hull shaders write) per-vertex
            // built-ins as arrays.
            let arrayed = match stage {
                ShaderStage::Hull => true,
                ShaderStage::Geometry | ShaderStage::Domain => input,
                _ => false,
            };
            // A mesh shader writes arrays of them, one element per vertex or primitive.
            let mesh_output = stage == ShaderStage::Mesh && !input;
            let type_ok = if mesh_output {
                !op.ty.dims().is_empty() && builtin_type_ok(bi, &op.ty.element_type(), false)
            } else {
                builtin_type_ok(bi, &op.ty, arrayed)
            };
            if !type_ok {
                return malformed(def, op, format!("built-in {bi} of type {}", op.ty));
            }
            use spirv::BuiltIn as B;
            let sbi = match bi {
                BuiltIn::Position if stage == ShaderStage::Pixel && input => {
                    if op.ty.as_basic().is_some_and(|b| b.vec_size() == 4) {
                        wrap = IoWrap::RcpW;
                    }
                    B::FragCoord
                }
                BuiltIn::Position => B::Position,
                BuiltIn::ClipDistance => {
                    self.module.cap(Capability::ClipDistance);
                    B::ClipDistance
                }
                BuiltIn::CullDistance => {
                    self.module.cap(Capability::CullDistance);
                    B::CullDistance
                }
                BuiltIn::VertexId | BuiltIn::InstanceId => {
                    self.module.cap(Capability::DrawParameters);
                    let (main, base) = if bi == BuiltIn::VertexId {
                        (B::VertexIndex, B::BaseVertex)
                    } else {
                        (B::InstanceIndex, B::BaseInstance)
                    };
                    let bvar = self.module.id();
                    let u = self.module.u32_ty();
                    let p = self.module.ptr(SC::Input, u);
                    self.module.global_var(p, SC::Input, bvar, None);
                    self.module
                        .decorate(bvar, Decoration::BuiltIn, &[base as u32]);
                    wrap = IoWrap::SubBase(bvar);
                    main
                }
                BuiltIn::StartVertexLocation => {
                    self.module.cap(Capability::DrawParameters);
                    B::BaseVertex
                }
                BuiltIn::StartInstanceLocation => {
                    self.module.cap(Capability::DrawParameters);
                    B::BaseInstance
                }
                BuiltIn::PrimitiveId => {
                    if stage == ShaderStage::Pixel {
                        self.module.cap(Capability::Geometry);
                    }
                    B::PrimitiveId
                }
                BuiltIn::LayerIndex => {
                    match stage {
                        ShaderStage::Pixel | ShaderStage::Geometry => {
                            self.module.cap(Capability::Geometry)
                        }
                        // `MeshShadingEXT` enables it.
                        ShaderStage::Mesh => {}
                        _ => self.module.cap(Capability::ShaderLayer),
                    }
                    B::Layer
                }
                BuiltIn::ViewportIndex => {
                    match stage {
                        ShaderStage::Pixel | ShaderStage::Geometry => {
                            self.module.cap(Capability::MultiViewport)
                        }
                        ShaderStage::Mesh => {}
                        _ => self.module.cap(Capability::ShaderViewportIndex),
                    }
                    B::ViewportIndex
                }
                BuiltIn::GsInstanceId | BuiltIn::TessControlPointId => {
                    let scalar = op.ty.base_type().and_then(|b| self.module.scalar_ty(b));
                    self.invocation_id_var =
                        Some((var, scalar.unwrap_or_else(|| self.module.u32_ty())));
                    B::InvocationId
                }
                BuiltIn::TessControlPointCountIn => B::PatchVertices,
                BuiltIn::TessCoord => B::TessCoord,
                BuiltIn::TessFactorInner => B::TessLevelInner,
                BuiltIn::TessFactorOuter => B::TessLevelOuter,
                BuiltIn::SampleId => {
                    self.module.cap(Capability::SampleRateShading);
                    B::SampleId
                }
                BuiltIn::SamplePosition => {
                    self.module.cap(Capability::SampleRateShading);
                    B::SamplePosition
                }
                BuiltIn::SampleMask => {
                    wrap = IoWrap::ArrayOfOne;
                    B::SampleMask
                }
                BuiltIn::IsFrontFace => B::FrontFacing,
                BuiltIn::Depth => {
                    self.module
                        .execution_mode(spirv::ExecutionMode::DepthReplacing, &[]);
                    B::FragDepth
                }
                BuiltIn::StencilRef => {
                    self.module.cap(Capability::StencilExportEXT);
                    self.module.ext("SPV_EXT_shader_stencil_export");
                    self.module
                        .execution_mode(spirv::ExecutionMode::StencilRefReplacingEXT, &[]);
                    B::FragStencilRefEXT
                }
                BuiltIn::IsFullyCovered => {
                    self.module.cap(Capability::FragmentFullyCoveredEXT);
                    self.module.ext("SPV_EXT_fragment_fully_covered");
                    B::FullyCoveredEXT
                }
                BuiltIn::WorkgroupId => B::WorkgroupId,
                BuiltIn::GlobalThreadId => B::GlobalInvocationId,
                BuiltIn::LocalThreadId => B::LocalInvocationId,
                BuiltIn::LocalThreadIndex => B::LocalInvocationIndex,
                BuiltIn::PointSize => B::PointSize,
                BuiltIn::ViewId => {
                    self.module.cap(Capability::MultiView);
                    B::ViewIndex
                }
                BuiltIn::CullPrimitive => B::CullPrimitiveEXT,
                BuiltIn::Barycentrics => {
                    self.module.cap(Capability::FragmentBarycentricKHR);
                    self.module.ext("SPV_KHR_fragment_shader_barycentric");
                    let m = InterpolationModes(lit(1)? as u32);
                    if m.contains(InterpolationModes::NoPerspective) {
                        B::BaryCoordNoPerspKHR
                    } else {
                        B::BaryCoordKHR
                    }
                }
                BuiltIn::PrimitiveIndices => {
                    // The topology is the indices' vector size (checked against the mode
                    // when the module is finished).
                    if op.ty.element_type().as_basic().map(|b| b.vec_size()) == Some(3) {
                        B::PrimitiveTriangleIndicesEXT
                    } else {
                        B::PrimitiveLineIndicesEXT
                    }
                }
                BuiltIn::ShadingRate => {
                    if stage == ShaderStage::Domain {
                        return unsupported(
                            def,
                            op,
                            "SV_ShadingRate from a domain shader (Vulkan's \
                             PrimitiveShadingRateKHR is for vertex, geometry and mesh shaders)",
                        );
                    }
                    self.module.cap(Capability::FragmentShadingRateKHR);
                    self.module.ext("SPV_KHR_fragment_shading_rate");
                    // D3D12_SHADING_RATE and Vulkan's shading rate flags encode the rate
                    // alike: log2 of the width in bits 2-3, of the height in bits 0-1.
                    if input {
                        B::ShadingRateKHR
                    } else {
                        B::PrimitiveShadingRateKHR
                    }
                }
                BuiltIn::WaveLaneIndex | BuiltIn::WaveLaneCount => {
                    if !self.module.target.at_least(1, 3) {
                        let target = self.module.target;
                        return unsupported(
                            def,
                            op,
                            format!("{bi} on {target} (waves need SPIR-V 1.3, vulkan1.1)"),
                        );
                    }
                    self.module.cap(Capability::GroupNonUniform);
                    if bi == BuiltIn::WaveLaneIndex {
                        if op.ty == Type::scalar(ScalarType::U32) {
                            self.note_lane_index_var(var);
                        }
                        B::SubgroupLocalInvocationId
                    } else {
                        B::SubgroupSize
                    }
                }
                _ => return unsupported(def, op, format!("builtin {bi}")),
            };
            if wrap == IoWrap::ArrayOfOne {
                array_of_one = match ty.array_of(1) {
                    Ok(t) => Some(t),
                    Err(_) => return unsupported(def, op, "SampleMask array"),
                };
            }
            self.module
                .decorate(var, Decoration::BuiltIn, &[sbi as u32]);
            if mesh_output {
                let stream = lit(1)? as u32;
                self.mesh_output(def, op, var, stream)?;
            }
            // Tessellation factors are per patch; Mesa's drivers drop them (and so every
            // patch) without `Patch`, as GLSL always declares it.
            if matches!(bi, BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner) {
                is_patch = true;
                self.module.decorate(var, Decoration::Patch, &[]);
            }
            if input && stage == ShaderStage::Pixel && op.ty.base_type().is_some_and(|t| t.is_int())
            {
                self.module.decorate(var, Decoration::Flat, &[]);
            }
            if bi == BuiltIn::Barycentrics {
                // The weights at the centroid or a sample where the input says so.
                let m = InterpolationModes(lit(1)? as u32);
                if m.contains(InterpolationModes::Centroid) {
                    self.module.decorate(var, Decoration::Centroid, &[]);
                }
                if m.contains(InterpolationModes::Sample) {
                    self.module.cap(Capability::SampleRateShading);
                    self.module.decorate(var, Decoration::Sample, &[]);
                }
            }
        } else {
            let reg = lit(0)? as u32;
            let comp = lit(1)? as u32;
            let patch = op.ty.dims().is_empty()
                && ((stage == ShaderStage::Hull && !input)
                    || (stage == ShaderStage::Domain && input));
            // Patch constants share the location space with control points in TCS outputs /
            // TES inputs: they count down from `crate::PATCH_LOCATION_TOP` while control
            // points count up from 0. Non-rasterized GS streams would collide with stream 0:
            // they are moved past the D3D register range (see
            // `crate::GS_STREAM_LOCATION_STRIDE`).
            let stream = if !input && stage == ShaderStage::Geometry {
                lits.get(2).map(|o| o.0).unwrap_or(0) as u32
            } else {
                0
            };
            let loc = if patch {
                match crate::PATCH_LOCATION_TOP.checked_sub(reg) {
                    Some(l) => l,
                    None => return unsupported(def, op, format!("patch constant register {reg}")),
                }
            } else {
                reg.saturating_add(stream.saturating_mul(crate::GS_STREAM_LOCATION_STRIDE))
            };
            self.claim_io_slots(def, op, input, patch, loc, comp)?;
            location = Some(loc);
            component = comp;
            self.module.decorate(var, Decoration::Location, &[loc]);
            if comp != 0 {
                self.module.decorate(var, Decoration::Component, &[comp]);
            }
            if patch {
                is_patch = true;
                self.module.decorate(var, Decoration::Patch, &[]);
            }
            let pixel_modes = if input && stage == ShaderStage::Pixel {
                Some(InterpolationModes(lit(2)? as u32))
            } else {
                None
            };
            if pixel_modes.is_some_and(|m| m.contains(InterpolationModes::PerVertex)) {
                // Not interpolated: an array with the value at each vertex of the primitive.
                self.module.cap(Capability::FragmentBarycentricKHR);
                self.module.ext("SPV_KHR_fragment_shader_barycentric");
                self.module.decorate(var, Decoration::PerVertexKHR, &[]);
            } else if let Some(m) = pixel_modes {
                let int = op
                    .ty
                    .base_type()
                    .is_some_and(|t| t.is_int() || scalar_bits(t) == 64);
                if m.contains(InterpolationModes::Flat) || int {
                    self.module.decorate(var, Decoration::Flat, &[]);
                }
                if m.contains(InterpolationModes::NoPerspective) {
                    self.module.decorate(var, Decoration::NoPerspective, &[]);
                }
                if m.contains(InterpolationModes::Centroid) {
                    self.module.decorate(var, Decoration::Centroid, &[]);
                }
                if m.contains(InterpolationModes::Sample) {
                    self.module.cap(Capability::SampleRateShading);
                    self.module.decorate(var, Decoration::Sample, &[]);
                }
                if m.contains(InterpolationModes::PerPrimitive) {
                    self.need_mesh_shading(def, op, "per-primitive inputs")?;
                    self.module.decorate(var, Decoration::PerPrimitiveEXT, &[]);
                }
            }
            if !input && stage == ShaderStage::Mesh {
                let stream = lit(2)? as u32;
                self.mesh_output(def, op, var, stream)?;
            }
            if !input && stage == ShaderStage::Geometry {
                let stream = lits.get(2).map(|o| o.0).unwrap_or(0) as u32;
                if stream != 0 || self.multi_stream {
                    self.module.cap(Capability::GeometryStreams);
                    self.module.decorate(var, Decoration::Stream, &[stream]);
                }
            }
        }
        if builtin && !input && stage == ShaderStage::Geometry {
            let stream = lits.get(1).map(|o| o.0).unwrap_or(0) as u32;
            if stream != 0 {
                self.module.cap(Capability::GeometryStreams);
                self.module.decorate(var, Decoration::Stream, &[stream]);
            }
        }
        let decl_ty = array_of_one.as_ref().unwrap_or(ty);
        let Some(t) = self.module.ty(decl_ty, false) else {
            return unsupported(def, op, format!("I/O type {}", op.ty));
        };
        let p = self.module.ptr(sc, t);
        self.module.global_var(p, sc, var, None);
        self.mark(def);
        let (scalar, bits, components) = value_shape(decl_ty);
        let dims = decl_ty.dims();
        let array = if dims.is_empty() {
            Vec::new()
        } else {
            dims.iter().rev().copied().collect()
        };
        let list = if input {
            &mut self.refl.inputs
        } else {
            &mut self.refl.outputs
        };
        room_for_first(list);
        list.push(InterfaceVariable {
            location,
            component,
            builtin: builtin_name,
            semantic: None,
            patch: is_patch,
            scalar,
            bits,
            components,
            array,
        });
        let refl = list.len() as u32;
        self.set_info(
            def,
            Info::Var(VarInfo {
                var,
                sc,
                dcl: def,
                wrap,
                refl,
            }),
        );
        Ok(())
    }

    /// `DclXfb`: the output it names is captured by transform feedback into `XfbBuffer`
    /// (literal 0) with `XfbStride` (literal 1) at byte `Offset` (literal 2); the entry point
    /// gets the `Xfb` execution mode.
    pub(super) fn dcl_xfb(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let target = self.arg(def, op, 0)?;
        let Some(vi) = self.var_info(target).filter(|vi| vi.sc == SC::Output) else {
            return malformed(def, op, "DclXfb of something that is not a declared output");
        };
        let buffer = word_lit(def, op, self.lit(def, op, 0)?)?;
        let stride = word_lit(def, op, self.lit(def, op, 1)?)?;
        let offset = word_lit(def, op, self.lit(def, op, 2)?)?;
        if !self
            .module
            .modes
            .iter()
            .any(|m| m.0 == spirv::ExecutionMode::Xfb as u32)
        {
            self.module.execution_mode(spirv::ExecutionMode::Xfb, &[]);
        }
        self.module.cap(Capability::TransformFeedback);
        self.module
            .decorate(vi.var, Decoration::XfbBuffer, &[buffer]);
        self.module
            .decorate(vi.var, Decoration::XfbStride, &[stride]);
        self.module.decorate(vi.var, Decoration::Offset, &[offset]);
        Ok(())
    }

    /// Loads from pixel shader `SV_Position` (`FragCoord`, `vec4<f32>`) with `w` replaced by
    /// `1 / FragCoord.w`, the D3D value.
    pub(super) fn load_frag_coord(&mut self, def: SsaDef, op: &Op, vi: VarInfo) -> R<()> {
        let id = def.id();
        let want = self.module.val_ty(def, op)?;
        let f32t = BasicType::scalar(ScalarType::F32);
        let (Some(ft), Some(v4)) = (
            self.module.basic_ty(f32t),
            self.module.basic_ty(f32t.with_vec_size(4)),
        ) else {
            return unsupported(def, op, "FragCoord type");
        };
        let one = self
            .module
            .const_scalar(ScalarType::F32, 1.0f32.to_bits() as u64);
        let rcp = |e: &mut Self, w: u32| e.module.un(S::FDiv, ft, &[one, w]);
        let addr = op.arg(1);
        let addr_op = addr.and_then(|a| self.op_of(a));
        // The whole position, or one component of it, as 32-bit numbers (computed as floats,
        // bit-cast at the end).
        let size = if addr.is_some() { 1 } else { 4 };
        let shape_ok = op
            .ty
            .as_basic()
            .is_some_and(|b| b.vec_size() == size && b.base().is_numeric() && basic_bits(b) == 32);
        if !shape_ok {
            return unsupported(
                def,
                op,
                format!("loading {} from the pixel position", op.ty),
            );
        }
        let const_idx = addr_op
            .filter(|o| {
                o.opcode == OpCode::Constant && o.ty.as_basic().is_some_and(|b| b.vec_size() == 1)
            })
            .and_then(|o| constant_literals(o).first().map(|l| l.0));
        if addr.is_some() && const_idx.is_some() {
            // x, y or z as a float: loaded straight into the def's value.
            let direct = const_idx != Some(3) && want == ft;
            let raw = if direct { id } else { self.module.id() };
            self.load_via(
                def,
                op,
                vi.var,
                vi.sc,
                vi.ty(self.b),
                &[],
                addr,
                &Type::scalar(ScalarType::F32),
                false,
                raw,
            )?;
            if direct {
                return Ok(());
            }
            let v = if const_idx == Some(3) {
                rcp(self, raw)
            } else {
                raw
            };
            if want == ft {
                inst(self.module.body(), S::CopyObject, &[want, id, v]);
            } else {
                self.module.emit_to(S::Bitcast, want, id, &[v]);
            }
            return Ok(());
        }
        // Whole vector (or dynamic component): fix the vector, then pick.
        let full = self.module.un(S::Load, v4, &[vi.var]);
        let w = self.module.un(S::CompositeExtract, ft, &[full, 3]);
        let w = rcp(self, w);
        let fixed = self.module.un(S::CompositeInsert, v4, &[w, full, 3]);
        let picked = match addr {
            None => fixed,
            Some(a) => {
                // One run-time component index (a vector address would go past the vector).
                if !addr_op.is_some_and(|o| {
                    o.ty.is_scalar() && o.ty.base_type().is_some_and(|s| s.is_int())
                }) {
                    return malformed(def, op, "address does not fit type vec4<f32>");
                }
                let a = self.v(a);
                self.module.un(S::VectorExtractDynamic, ft, &[fixed, a])
            }
        };
        let pt = if addr.is_none() { v4 } else { ft };
        if pt == want {
            inst(self.module.body(), S::CopyObject, &[want, id, picked]);
        } else {
            self.module.emit_to(S::Bitcast, want, id, &[picked]);
        }
        Ok(())
    }

    /// `DclSpecConstant` → `OpSpecConstant*` decorated with its `SpecId`, used directly as a
    /// value. Only scalar 32-bit and boolean constants are supported.
    pub(super) fn dcl_spec_constant(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let spec_id = self.lit(def, op, 0)? as u32;
        let default = self.lit(def, op, 1)?;
        let Some(st) = op
            .ty
            .as_basic()
            .filter(|b| b.vec_size() == 1)
            .map(|b| b.base())
        else {
            return unsupported(def, op, "aggregate spec constant");
        };
        if st != ScalarType::Bool && scalar_bits(st) != 32 {
            return unsupported(def, op, "spec constant type");
        }
        let Some(t) = self.module.scalar_ty(st) else {
            return unsupported(def, op, "spec constant type");
        };
        let id = def.id();
        let g = &mut self.module.sections.globals;
        if st == ScalarType::Bool {
            let o = if default != 0 {
                S::SpecConstantTrue
            } else {
                S::SpecConstantFalse
            };
            inst(g, o, &[t, id]);
        } else {
            inst(g, S::SpecConstant, &[t, id, default as u32]);
        }
        self.module.decorate(id, Decoration::SpecId, &[spec_id]);
        self.refl.spec_constants.push(crate::SpecConstantInfo {
            spec_id,
            default: default as u32,
            kind: crate::SpecConstantKind::User,
        });
        self.mark(def);
        Ok(())
    }

    /// Declares the push constant block: one member per `DclPushData`, at its offset.
    pub(super) fn finish_push_data(&mut self, entry: SsaDef) -> R<()> {
        if self.push_var == 0 {
            return Ok(());
        }
        let push = &self.push;
        let mut members = SmallVec::<[u32; 8]>::with_capacity(push.len());
        self.refl.push_data.reserve_exact(push.len());
        for (offset, t) in push {
            let Some(id) = self.module.ty(t, true) else {
                let op = self.b.op(entry);
                return unsupported(entry, op, format!("push data type {t}"));
            };
            members.push(id);
            self.refl.push_data.push(crate::PushDataRange {
                offset: *offset,
                size: layout_size(t),
            });
        }
        let st = self.push_struct;
        let g = &mut self.module.sections.globals;
        let h = begin(g, S::TypeStruct);
        g.push(st);
        g.extend_from_slice(&members);
        end(g, h);
        self.module.decorate(st, Decoration::Block, &[]);
        for (i, (offset, _)) in self.push.iter().enumerate() {
            let a = &mut self.module.sections.annotations;
            inst(
                a,
                S::MemberDecorate,
                &[st, i as u32, Decoration::Offset as u32, *offset],
            );
        }
        let p = self.module.ptr(SC::PushConstant, st);
        let var = self.push_var;
        self.module.global_var(p, SC::PushConstant, var, None);
        Ok(())
    }

    /// `SampleCount` has no Vulkan built-in: it becomes a `Private` variable initialized
    /// from a spec constant with id [`crate::SAMPLE_COUNT_SPEC_ID`] (default 1).
    pub(super) fn dcl_sample_count(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let Some(st) = op
            .ty
            .as_basic()
            .filter(|b| b.vec_size() == 1)
            .map(|b| b.base())
        else {
            return unsupported(def, op, "SampleCount type");
        };
        if !st.is_int() || scalar_bits(st) != 32 {
            return unsupported(def, op, "SampleCount type");
        }
        let Some(t) = self.module.scalar_ty(st) else {
            return unsupported(def, op, "SampleCount type");
        };
        let spec = self.module.id();
        inst(
            &mut self.module.sections.globals,
            S::SpecConstant,
            &[t, spec, 1],
        );
        self.module
            .decorate(spec, Decoration::SpecId, &[crate::SAMPLE_COUNT_SPEC_ID]);
        self.refl.spec_constants.push(crate::SpecConstantInfo {
            spec_id: crate::SAMPLE_COUNT_SPEC_ID,
            default: 1,
            kind: crate::SpecConstantKind::SampleCount,
        });
        let var = def.id();
        let p = self.module.ptr(SC::Private, t);
        self.module.global_var(p, SC::Private, var, Some(spec));
        self.mark(def);
        self.set_info(
            def,
            Info::Var(VarInfo {
                var,
                sc: SC::Private,
                dcl: def,
                wrap: IoWrap::None,
                refl: 0,
            }),
        );
        Ok(())
    }

    /// `DclPushData`: a member of the push constant block (declared at the end, see
    /// [`Self::finish_push_data`]).
    pub(super) fn dcl_push_data(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let offset = self.lit(def, op, 0)? as u32;
        let why = block_type_problem(&op.ty, false).or_else(|| {
            (offset % block_align(&op.ty, false) != 0)
                .then_some("an offset that breaks std430 alignment")
        });
        if let Some(why) = why {
            return unsupported(
                def,
                op,
                format!("push data type {} at offset {offset} ({why})", op.ty),
            );
        }
        if self.module.ty(&op.ty, true).is_none() {
            return unsupported(def, op, format!("push data type {}", op.ty));
        }
        if self.push_var == 0 {
            self.push_var = self.module.id();
            self.push_struct = self.module.id();
        }
        // A member has no id of its own: a `DebugName` on it names nothing.
        self.set_info(def, Info::PushMember(self.push.len() as u32));
        self.push.push((offset, op.ty));
        Ok(())
    }

    /// `InputLoad` and `OutputLoad`, with the adaptations of D3D built-ins (see the module
    /// doc).
    pub(super) fn io_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        // Inputs do not change while the shader runs: a component is read from the whole
        // vector (see `memory.rs`).
        if op.opcode == OpCode::InputLoad {
            return self.with_vector_loads(VectorLoads::Always, |e| e.io_load_from(def, op));
        }
        self.io_load_from(def, op)
    }

    /// [`Self::io_load`] itself.
    fn io_load_from(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let id = def.id();
        let dcl = self.arg(def, op, 0)?;
        let Some(vi) = self.var_info(dcl) else {
            return malformed(def, op, "not an I/O declaration");
        };
        // The constant only where the variable needs it (a module without other u32 values
        // then declares no integer type).
        let c0 = [if vi.wrap == IoWrap::ArrayOfOne {
            self.module.const_u32(0)
        } else {
            0
        }];
        let prefix: &[u32] = if vi.wrap == IoWrap::ArrayOfOne {
            &c0
        } else {
            &[]
        };
        let ty = vi.ty(self.b);
        if vi.wrap == IoWrap::RcpW {
            return self.load_frag_coord(def, op, vi);
        }
        if let IoWrap::SubBase(bvar) = vi.wrap {
            let u = self.module.u32_ty();
            let raw = self.module.id();
            self.load_via(
                def,
                op,
                vi.var,
                vi.sc,
                ty,
                prefix,
                op.arg(1),
                &op.ty,
                false,
                raw,
            )?;
            let base = self.module.un(S::Load, u, &[bvar]);
            let t = self.module.val_ty(def, op)?;
            self.module.emit_to(S::ISub, t, id, &[raw, base]);
            return Ok(());
        }
        self.load_via(
            def,
            op,
            vi.var,
            vi.sc,
            ty,
            prefix,
            op.arg(1),
            &op.ty,
            false,
            id,
        )
    }

    /// `OutputStore`: a scalar stored to one component of an output vector waits with the
    /// block's other such stores (see [`Self::flush_outputs`]); any other store is written
    /// at once, after the waiting ones.
    pub(super) fn output_store(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let dcl = self.arg(def, op, 0)?;
        let Some(vi) = self.var_info(dcl) else {
            return malformed(def, op, "not an output declaration");
        };
        // The variable's basic type, asked once for both paths below.
        let var_basic = vi.ty(self.b).as_basic();
        if self.defer_output_store(def, op, &vi, var_basic)? {
            return Ok(());
        }
        self.flush_outputs()?;
        let value = self.arg(def, op, 2)?;
        // The common store, of the whole variable's value as declared: one `OpStore` (what
        // `store_via` writes for it, output variables taking no memory operands).
        if vi.wrap == IoWrap::None && vi.sc == SC::Output && op.arg(1).is_none() {
            // Basic types are equal as their `BasicType`s are (cheaper than comparing types).
            let vb = self.op_of(value).and_then(|v| v.ty.as_basic());
            if vb.is_some() && vb == var_basic {
                let val = self.v(value);
                inst_tail(
                    &mut self.module.sections.functions,
                    S::Store,
                    [vi.var, val],
                    &[],
                );
                return Ok(());
            }
        }
        // The constant only where the variable needs it (a module without other u32 values
        // then declares no integer type).
        let c0 = [if vi.wrap == IoWrap::ArrayOfOne {
            self.module.const_u32(0)
        } else {
            0
        }];
        let prefix: &[u32] = if vi.wrap == IoWrap::ArrayOfOne {
            &c0
        } else {
            &[]
        };
        let ty = vi.ty(self.b);
        self.store_via(def, op, vi.var, vi.sc, ty, prefix, op.arg(1), value, false)
    }

    /// Keeps the `OutputStore` `op` of a scalar to a constant component of the output vector
    /// `vi` (of basic type `var_basic`) with the block's pending stores; false, having done
    /// nothing, for any other store.
    fn defer_output_store(
        &mut self,
        def: SsaDef,
        op: &Op,
        vi: &VarInfo,
        var_basic: Option<BasicType>,
    ) -> R<bool> {
        let Some(vb) = var_basic.filter(|b| b.is_vector()) else {
            return Ok(false);
        };
        if vi.wrap != IoWrap::None || vi.sc != SC::Output {
            return Ok(false);
        }
        let k = op
            .arg(1)
            .and_then(|a| self.op_of(a))
            .filter(|a| a.opcode == OpCode::Constant && a.ty.is_scalar())
            .and_then(|a| constant_literals(a).first().map(|l| l.0));
        let Some(k) = k.filter(|&k| k < u64::from(vb.vec_size())) else {
            return Ok(false);
        };
        let Some(value) = op.arg(2) else {
            return Ok(false);
        };
        let Some(value_b) = self
            .op_of(value)
            .and_then(|v| v.ty.as_basic())
            .filter(|b| b.vec_size() == 1)
        else {
            return Ok(false);
        };
        let (vbase, sbase) = (vb.base(), value_b.base());
        let same = vbase == sbase;
        let castable =
            vbase.is_numeric() && sbase.is_numeric() && scalar_bits(vbase) == scalar_bits(sbase);
        if !same && !castable {
            return Ok(false);
        }
        let (Some(_), Some(sty)) = (self.module.basic_ty(vb), self.module.scalar_ty(vbase)) else {
            return Ok(false);
        };
        let mut v = self.v(value);
        if !same {
            v = self.module.un(S::Bitcast, sty, &[v]);
        }
        let pending = &mut self.function_state.pending_outputs;
        let at = match pending.iter().position(|p| p.var == vi.var) {
            Some(at) => at,
            None => {
                if pending.len() >= MAX_PENDING_OUTPUTS {
                    self.flush_outputs()?;
                }
                let pending = &mut self.function_state.pending_outputs;
                pending.push(PendingOutput {
                    var: vi.var,
                    ty: vb,
                    values: [0; 4],
                    stores: [None; 4],
                });
                pending.len() - 1
            }
        };
        if let Some(p) = self.function_state.pending_outputs.get_mut(at) {
            let k = (k as usize).min(3);
            p.values[k] = v;
            p.stores[k] = Some(def);
        }
        Ok(true)
    }

    /// Writes the pending output stores (see [`Self::output_store`]): a vector whose
    /// components were all stored in one `OpStore` (of the vector they were taken from, if
    /// they are one's components in order), others a component at a time through access
    /// chains. Called before any op that could see the outputs or leave the block: every
    /// op that has an effect besides its result, and `OutputLoad`.
    #[inline]
    pub(super) fn flush_outputs(&mut self) -> R<()> {
        if self.function_state.pending_outputs.is_empty() {
            return Ok(());
        }
        self.write_pending_outputs()
    }

    /// [`Self::flush_outputs`] once some store is pending (kept out of line: most callers
    /// find none).
    #[inline(never)]
    fn write_pending_outputs(&mut self) -> R<()> {
        let pending = std::mem::take(&mut self.function_state.pending_outputs);
        for p in &pending {
            let n = p.ty.vec_size() as usize;
            let values = &p.values[..n.min(4)];
            if values.iter().all(|&v| v != 0) {
                let whole = match self.vector_of_components(values, p.ty.vec_size()) {
                    Some(v) => {
                        self.drop_unused_components(values, &p.stores);
                        v
                    }
                    None => {
                        let Some(vt) = self.module.basic_ty(p.ty) else {
                            continue;
                        };
                        let id = self.module.id();
                        let f = self.module.body();
                        let st = begin(f, S::CompositeConstruct);
                        f.extend_from_slice(&[vt, id]);
                        f.extend_from_slice(values);
                        end(f, st);
                        id
                    }
                };
                inst(self.module.body(), S::Store, &[p.var, whole]);
                continue;
            }
            let Some(sty) = self.module.scalar_ty(p.ty.base()) else {
                continue;
            };
            let ptr = self.module.ptr(SC::Output, sty);
            for (k, &v) in values.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let kc = self.module.const_u32(k as u32);
                let chain = self.module.un(S::AccessChain, ptr, &[p.var, kc]);
                inst(self.module.body(), S::Store, &[chain, v]);
            }
        }
        let mut pending = pending;
        pending.clear();
        self.function_state.pending_outputs = pending;
        Ok(())
    }

    /// `PushDataLoad`: a load through an access chain to the member of the push constant
    /// block.
    pub(super) fn push_data_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let dcl = self.arg(def, op, 0)?;
        let Some(&Info::PushMember(m)) = self.info(dcl) else {
            return malformed(def, op, "not a push data declaration");
        };
        let Some(&(_, mty)) = self.push.get(m as usize) else {
            return malformed(def, op, "not a push data declaration");
        };
        let Some(t) = self.module.ty(&mty, true) else {
            return unsupported(def, op, format!("push data type {mty}"));
        };
        if self.push_member_from_block(def, op, m, &mty)? {
            return Ok(());
        }
        let pt = self.module.ptr(SC::PushConstant, t);
        let mc = self.module.const_u32(m);
        let base = self.module.un(S::AccessChain, pt, &[self.push_var, mc]);
        self.load_via(
            def,
            op,
            base,
            SC::PushConstant,
            &mty,
            &[],
            op.arg(1),
            &op.ty,
            true,
            def.id(),
        )
    }

    /// A push data load of a scalar or vector, at a constant address (or none) into member
    /// `m` (of IR type `mty`), read from the whole push constant block, which the block loads
    /// once: a load of the block and an extract are as long as an access chain and a load,
    /// and need no index constants. False, having done nothing, for other loads.
    fn push_member_from_block(&mut self, def: SsaDef, op: &Op, m: u32, mty: &Type) -> R<bool> {
        let mut path = [m, 0, 0, 0];
        let mut len = 1;
        let mut at = *mty;
        if let Some(a) = op.arg(1) {
            let Some(aop) = self.op_of(a).filter(|a| a.opcode == OpCode::Constant) else {
                return Ok(false);
            };
            for l in aop.literals() {
                let (Some(slot), Ok(i)) = (path.get_mut(len), u32::try_from(l.0)) else {
                    return Ok(false);
                };
                match at.index_into(Some(l.0)) {
                    Some(n) => at = n,
                    None => return Ok(false),
                }
                *slot = i;
                len += 1;
            }
        }
        let (Some(mb), Some(wb)) = (at.as_basic(), op.ty.as_basic()) else {
            return Ok(false);
        };
        let castable = mb.vec_size() == wb.vec_size()
            && (mb.base() == wb.base()
                || (mb.base().is_numeric()
                    && wb.base().is_numeric()
                    && basic_bits(mb) == basic_bits(wb)));
        let Some(t) = self.module.basic_ty(mb).filter(|_| castable) else {
            return Ok(false);
        };
        let key = [self.push_var, u32::MAX, 0, 0, 0];
        let block = match self.loaded_vector(key) {
            Some(v) => v,
            None => {
                let v = self.module.un(S::Load, self.push_struct, &[self.push_var]);
                self.remember_vector(key, v);
                v
            }
        };
        let mut args = [block, 0, 0, 0, 0];
        args[1..].copy_from_slice(&path);
        let args = &args[..1 + len];
        if mb == wb {
            self.module.emit_to(S::CompositeExtract, t, def.id(), args);
        } else {
            let want = self.module.val_ty(def, op)?;
            let raw = self.module.un(S::CompositeExtract, t, args);
            self.module.emit_to(S::Bitcast, want, def.id(), &[raw]);
        }
        Ok(true)
    }

    /// `InterpolateAt*`: the `GLSL.std.450` interpolation function, on a pointer to the
    /// input (which must be a 32-bit float).
    pub(super) fn interpolate(&mut self, def: SsaDef, op: &Op, at: Interpolation) -> R<()> {
        let id = def.id();
        self.module.cap(Capability::InterpolationFunction);
        let dcl = self.arg(def, op, 0)?;
        let Some(vi) = self.var_info(dcl) else {
            return malformed(def, op, "not an input");
        };
        let ix = self.indices(def, op, op.arg(1))?;
        let ty = vi.ty(self.b);
        let (ptr, pt) = self.chain(def, op, vi.var, vi.sc, ty, &[], &ix, false)?;
        if pt != op.ty {
            return unsupported(def, op, "interpolating a partial vector");
        }
        // GLSL.std.450's interpolation functions take 32-bit floats only.
        if op.ty.base_type() != Some(ScalarType::F32) {
            return unsupported(def, op, format!("interpolating a {} input", op.ty));
        }
        let t = self.module.val_ty(def, op)?;
        match at {
            Interpolation::Centroid => {
                self.module
                    .ext_to(GLOp::InterpolateAtCentroid, t, id, &[ptr])
            }
            Interpolation::Sample => {
                let sample = self.arg(def, op, 2)?;
                let int32 = self
                    .op_of(sample)
                    .and_then(|o| o.ty.as_basic())
                    .is_some_and(|b| b.vec_size() == 1 && b.base().is_int() && basic_bits(b) == 32);
                if !int32 {
                    return malformed(def, op, "the sample index is not a 32-bit integer");
                }
                let s = self.v(sample);
                self.module
                    .ext_to(GLOp::InterpolateAtSample, t, id, &[ptr, s])
            }
            Interpolation::Offset => {
                let s = self.v(self.arg(def, op, 2)?);
                self.module
                    .ext_to(GLOp::InterpolateAtOffset, t, id, &[ptr, s])
            }
        }
        Ok(())
    }

    /// `EmitVertex` / `EmitPrimitive` of a geometry shader: `stream_op` with the stream
    /// when the shader writes several streams, `op_one_stream` otherwise.
    pub(super) fn emit_stream_op(
        &mut self,
        def: SsaDef,
        op: &Op,
        stream_op: S,
        op_one_stream: S,
    ) -> R<()> {
        let stream = self.lit(def, op, 0)? as u32;
        if self.multi_stream {
            let c = self.module.const_u32(stream);
            inst(self.module.body(), stream_op, &[c]);
        } else {
            inst(self.module.body(), op_one_stream, &[]);
        }
        Ok(())
    }
}
