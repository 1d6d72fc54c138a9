//! Shader I/O: signatures and `dcl_input*` / `dcl_output*` become `DclInput`, `DclOutput`,
//! `DclInputBuiltIn` and `DclOutputBuiltIn` declarations with `Semantic` names.
//!
//! One declaration is made per signature element, typed by the element's component type as a
//! scalar or vector spanning its mask; per-vertex inputs (GS, HS, DS) and HS control point
//! outputs are arrays of those. System values become built-ins: clip and cull distances are
//! one `f32[n]` array each (elements packed in semantic-index order), tessellation factors
//! index `TessFactorOuter` / `TessFactorInner` arrays. Each register component maps to an
//! [`IoSlot`] saying which declaration and which address serve it.
//!
//! Dynamically indexed registers (`v[r0.x + 1]`, `o[r1.x]` within a `dcl_indexrange`) are
//! resolved with a scoped switch over the registers of the range, each case doing the static
//! access, so packed ranges mixing elements and built-ins need no special layout.

use dxspv_ir::frontend::{builtin_of_d3d_name, builtin_shape, FrontendBuilder};
use dxspv_ir::{BuiltIn, InterpolationModes, Op, OpCode, PrimitiveType, ScalarType, SsaDef, Type};

pub(crate) use super::io_slots::{IoFile, IoMap, IoSlot};
use super::limits::MAX_IO_REGISTERS;
use super::registers::{dst_mask, Ix, Lanes};
use super::{lanes, Converter, NamePart, R};
use crate::decode::Stage;
use crate::enums::{Interpolation, Primitive, PrimitiveTopology, SystemValue};
use crate::operand::{Operand, OperandType};
use crate::Payload;
use dxspv_container::{ComponentType, SignatureElement};

/// Most registers a dynamically indexed I/O access may span.
const MAX_DYNAMIC_RANGE: u32 = 64;

/// A destination resolved by [`Converter::lane_target`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum LaneTarget {
    /// Anything but a plain output register: stored through the operand each time.
    Operand,
    /// Output register `reg` of `file`, with a constant index and no vertex index.
    Output {
        /// The register file.
        file: IoFile,
        /// The register.
        reg: u32,
    },
}

/// GS input primitive as the IR names it.
pub(crate) fn gs_primitive(p: Primitive) -> Option<PrimitiveType> {
    Some(match p {
        Primitive::Point => PrimitiveType::Point,
        Primitive::Line => PrimitiveType::Line,
        Primitive::Triangle => PrimitiveType::Triangle,
        Primitive::LineAdj => PrimitiveType::LineAdj,
        Primitive::TriangleAdj => PrimitiveType::TriangleAdj,
        Primitive::Patch(n) => PrimitiveType::Patch(n.clamp(1, 32)),
        Primitive::Undefined => return None,
    })
}

/// GS output topology as the IR names it.
pub(crate) fn gs_topology(t: PrimitiveTopology) -> Option<PrimitiveType> {
    use PrimitiveTopology as T;
    Some(match t {
        T::PointList => PrimitiveType::Point,
        T::LineList | T::LineStrip => PrimitiveType::Line,
        T::TriangleList | T::TriangleStrip => PrimitiveType::Triangle,
        T::LineListAdj | T::LineStripAdj => PrimitiveType::LineAdj,
        T::TriangleListAdj | T::TriangleStripAdj => PrimitiveType::TriangleAdj,
        T::Undefined => return None,
    })
}

/// The built-in (and fixed array index) of a token-format system value.
fn builtin_of_token(sv: SystemValue) -> Option<(BuiltIn, Option<u32>)> {
    use SystemValue as S;
    Some(match sv {
        S::Undefined => return None,
        S::Position => (BuiltIn::Position, None),
        S::ClipDistance => (BuiltIn::ClipDistance, None),
        S::CullDistance => (BuiltIn::CullDistance, None),
        S::RenderTargetArrayIndex => (BuiltIn::LayerIndex, None),
        S::ViewportArrayIndex => (BuiltIn::ViewportIndex, None),
        S::VertexId => (BuiltIn::VertexId, None),
        S::PrimitiveId => (BuiltIn::PrimitiveId, None),
        S::InstanceId => (BuiltIn::InstanceId, None),
        S::IsFrontFace => (BuiltIn::IsFrontFace, None),
        S::SampleIndex => (BuiltIn::SampleId, None),
        S::FinalQuadUEq0EdgeTessFactor | S::FinalTriUEq0EdgeTessFactor => {
            (BuiltIn::TessFactorOuter, Some(0))
        }
        S::FinalQuadVEq0EdgeTessFactor | S::FinalTriVEq0EdgeTessFactor => {
            (BuiltIn::TessFactorOuter, Some(1))
        }
        S::FinalQuadUEq1EdgeTessFactor | S::FinalTriWEq0EdgeTessFactor => {
            (BuiltIn::TessFactorOuter, Some(2))
        }
        S::FinalQuadVEq1EdgeTessFactor => (BuiltIn::TessFactorOuter, Some(3)),
        S::FinalQuadUInsideTessFactor | S::FinalTriInsideTessFactor => {
            (BuiltIn::TessFactorInner, Some(0))
        }
        S::FinalQuadVInsideTessFactor => (BuiltIn::TessFactorInner, Some(1)),
        S::FinalLineDetailTessFactor => (BuiltIn::TessFactorOuter, Some(1)),
        S::FinalLineDensityTessFactor => (BuiltIn::TessFactorOuter, Some(0)),
        S::Barycentrics => (BuiltIn::Barycentrics, None),
        S::ShadingRate => (BuiltIn::ShadingRate, None),
        S::CullPrimitive => (BuiltIn::CullPrimitive, None),
    })
}

/// What a system value is in one stage and direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BuiltinRole {
    /// Made or consumed by the system: a built-in variable.
    BuiltIn,
    /// Passed between stages like any other value: a varying matched by register.
    Varying,
    /// Meaningless here (D3D's runtime refuses such a shader).
    Invalid,
}

/// How many values one register element holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ElementLayout {
    /// One value (and special registers).
    Single,
    /// One per vertex or control point (an arrayed input or hull-shader output).
    PerVertex,
    /// One per patch (patch constants).
    PerPatch,
}

/// The role of built-in `b` in an element laid out as `layout`: as [`builtin_role`], except
/// that per-patch values other than the tessellation factors, and a per-vertex primitive id,
/// are varyings (those built-ins have no per-patch or per-vertex form; the stages read the
/// primitive id from `vPrim`).
fn element_role(b: BuiltIn, stage: Stage, output: bool, layout: ElementLayout) -> BuiltinRole {
    let tess_factor = matches!(b, BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner);
    match builtin_role(b, stage, output) {
        BuiltinRole::BuiltIn
            if (layout == ElementLayout::PerPatch && !tess_factor)
                || (layout == ElementLayout::PerVertex && b == BuiltIn::PrimitiveId) =>
        {
            BuiltinRole::Varying
        }
        role => role,
    }
}

/// The role of built-in `b` as an input (`output == false`) or output of a `stage` shader,
/// following where Direct3D generates or consumes each system value (and where Vulkan allows
/// the matching built-in).
fn builtin_role(b: BuiltIn, stage: Stage, output: bool) -> BuiltinRole {
    // System values a stage that does not use them passes on, as plain varyings.
    let passthrough = b.passes_through_as_varying();
    if b.exists_in(stage.ir(), output) {
        BuiltinRole::BuiltIn
    } else if passthrough && !(stage == Stage::Pixel && output) && stage != Stage::Compute {
        BuiltinRole::Varying
    } else {
        BuiltinRole::Invalid
    }
}

/// The component type of a signature element as an IR scalar.
fn component_type(t: ComponentType) -> ScalarType {
    match t {
        ComponentType::Uint32 => ScalarType::U32,
        ComponentType::Sint32 => ScalarType::I32,
        _ => ScalarType::F32,
    }
}

/// Pixel shader interpolation modes of a `dcl_input_ps` mode.
fn interpolation_modes(i: Interpolation) -> InterpolationModes {
    use Interpolation as I;
    match i {
        I::Undefined | I::Linear => InterpolationModes::empty(),
        I::Constant => InterpolationModes::Flat,
        I::LinearCentroid => InterpolationModes::Centroid,
        I::LinearNoPerspective => InterpolationModes::NoPerspective,
        I::LinearNoPerspectiveCentroid => {
            InterpolationModes::NoPerspective | InterpolationModes::Centroid
        }
        I::LinearSample => InterpolationModes::Sample,
        I::LinearNoPerspectiveSample => {
            InterpolationModes::NoPerspective | InterpolationModes::Sample
        }
    }
}

/// The component span (first, count) of a mask.
fn span(mask: u8) -> (u8, u8) {
    let mask = mask & 0xf;
    if mask == 0 {
        return (0, 1);
    }
    let first = mask.trailing_zeros() as u8;
    let last = 7 - mask.leading_zeros() as u8;
    (first, last - first + 1)
}

impl<'a, 's> Converter<'a, 's> {
    /// The register file an operand type reads or writes.
    pub(crate) fn io_file_of(&self, ty: OperandType) -> R<IoFile> {
        if self.is_stage(Stage::Compute) {
            return Err(self.invalid(format!(
                "{} registers do not exist in compute shaders (only thread id system values)",
                ty.prefix()
            )));
        }
        Ok(match ty {
            OperandType::Input | OperandType::InputControlPoint => IoFile::Input,
            OperandType::Output => {
                if self.is_stage(Stage::Hull) && self.hs.in_patch_phase {
                    IoFile::PatchOutput
                } else {
                    IoFile::Output
                }
            }
            OperandType::OutputControlPoint => IoFile::Output,
            OperandType::InputPatchConstant => {
                if self.is_stage(Stage::Hull) {
                    IoFile::PatchOutput
                } else {
                    IoFile::PatchInput
                }
            }
            other => {
                return Err(self.invalid(format!(
                    "{} is not an input or output register",
                    other.prefix()
                )))
            }
        })
    }

    fn signature_of(&self, file: IoFile) -> Option<&'a [SignatureElement<'s>]> {
        let s = match file {
            IoFile::Input => self.shader.input_signature.as_ref(),
            IoFile::Output => self.shader.output_signature.as_ref(),
            IoFile::PatchInput | IoFile::PatchOutput => {
                self.shader.patch_constant_signature.as_ref()
            }
        };
        s.map(|s| s.elements.as_slice())
    }

    /// The per-vertex array length of a file, 0 if it is not arrayed.
    fn array_len(&self, file: IoFile) -> u32 {
        match (self.stage, file) {
            (Stage::Geometry, IoFile::Input) => self.gs_vertices.max(1),
            (Stage::Hull, IoFile::Input) | (Stage::Domain, IoFile::Input) => {
                self.hs_in.clamp(1, 32)
            }
            (Stage::Hull, IoFile::Output) => self.hs_out.clamp(1, 32),
            _ => 0,
        }
    }

    /// `dcl_input*` / `dcl_output*`.
    pub(crate) fn declare_io(&mut self, inst: &crate::Instruction<'_>) -> R<()> {
        let Some(op) = inst.operands().first().copied() else {
            return Err(self.invalid("I/O declaration without a register"));
        };
        let (sv, interp) = match inst.payload {
            Payload::InputOutput {
                interpolation,
                system_value,
            } => (system_value, interpolation),
            _ => (None, None),
        };
        if self.special_builtin(op.ty).is_some() {
            self.special_decl(op.ty)?;
            return Ok(());
        }
        if matches!(
            op.ty,
            OperandType::InputForkInstanceId | OperandType::InputJoinInstanceId
        ) {
            return Ok(());
        }
        if op.ty == OperandType::CycleCounter {
            return Err(self.unsupported("the cycle counter (vCycleCounter)"));
        }
        let file = self.io_file_of(op.ty)?;
        let reg = match op.indices() {
            [r] => self.imm_index(&op, 0).map(|_| r.imm)?,
            [v, r] => {
                if self.is_stage(Stage::Geometry) && self.gs_vertices == 0 {
                    self.gs_vertices = (v.imm as u32).clamp(1, 32);
                }
                r.imm
            }
            _ => return Err(self.invalid("I/O declaration without a register index")),
        };
        let reg = u32::try_from(reg).map_err(|_| self.invalid("register index out of range"))?;
        self.declare_register(file, reg, dst_mask(&op), sv, interp)
    }

    /// Declares the elements of register `reg` covering `mask`, from the signature where it
    /// has them, else from the declaration alone.
    fn declare_register(
        &mut self,
        file: IoFile,
        reg: u32,
        mask: u8,
        sv: Option<SystemValue>,
        interp: Option<Interpolation>,
    ) -> R<()> {
        if reg >= MAX_IO_REGISTERS {
            return Err(self.invalid(format!(
                "I/O register {reg} is past Direct3D's {MAX_IO_REGISTERS} registers per file"
            )));
        }
        let stream = if file.is_output() { self.stream } else { 0 };
        let gs_out = self.is_stage(Stage::Geometry) && file == IoFile::Output;
        let shader = self.shader;
        let sig = match file {
            IoFile::Input => shader.input_signature.as_ref(),
            IoFile::Output => shader.output_signature.as_ref(),
            IoFile::PatchInput | IoFile::PatchOutput => shader.patch_constant_signature.as_ref(),
        };
        let mut covered = 0u8;
        if let Some(sig) = sig {
            for e in &sig.elements {
                if e.register != reg || e.mask & mask == 0 || (gs_out && e.stream != stream) {
                    continue;
                }
                covered |= e.mask;
                let (first, _) = span(e.mask);
                if self.lookup(file, stream, reg, first).is_some() {
                    continue;
                }
                self.declare_element(file, stream, e, sv, interp)?;
            }
        }
        // Components no signature element covers become plain varyings, one per run of
        // adjacent components.
        let mut rest = mask & !covered & 0xf;
        while rest != 0 {
            let first = rest.trailing_zeros();
            let run = (rest >> first).trailing_ones();
            let run_mask = (((1u32 << run) - 1) << first) as u8;
            rest &= !run_mask;
            let e = SignatureElement {
                semantic_name: std::borrow::Cow::Borrowed(""),
                semantic_index: 0,
                system_value: 0,
                component_type: ComponentType::Float32,
                register: reg,
                mask: run_mask,
                rw_mask: run_mask,
                stream,
                min_precision: 0,
            };
            let (first, _) = span(run_mask);
            if self.lookup(file, stream, reg, first).is_none() {
                self.declare_element(file, stream, &e, sv, interp)?;
            }
        }
        Ok(())
    }

    fn lookup(&self, file: IoFile, stream: u32, reg: u32, c: u8) -> Option<IoSlot> {
        self.io
            .get(file, stream, reg)
            .and_then(|s| s[c as usize & 3])
    }

    /// Declares one signature element.
    fn declare_element(
        &mut self,
        file: IoFile,
        stream: u32,
        e: &SignatureElement,
        sv: Option<SystemValue>,
        interp: Option<Interpolation>,
    ) -> R<()> {
        let output = file.is_output();
        // An element is one vector of adjacent components; a mask with a hole would make its
        // variable span a component that is not its own.
        let (first, n) = span(e.mask);
        if u32::from(e.mask & 0xf) != ((1u32 << n) - 1) << first && e.mask & 0xf != 0 {
            return Err(self.invalid(format!(
                "signature element {}{} in register {} has non-adjacent components (mask {:#x})",
                e.semantic_name,
                e.semantic_index,
                e.register,
                e.mask & 0xf
            )));
        }
        let builtin = sv
            .and_then(builtin_of_token)
            .or_else(|| builtin_of_d3d_name(e.system_value, e.semantic_index));
        // SV_Target and friends are plain outputs; a register file cannot hold depth.
        let builtin = builtin.filter(|(b, _)| {
            !matches!(
                b,
                BuiltIn::Depth | BuiltIn::SampleMask | BuiltIn::StencilRef
            )
        });
        // A system value is a built-in only where the system makes or consumes it; elsewhere
        // (a hull shader passing SV_RenderTargetArrayIndex on, a pixel shader reading
        // SV_InstanceID) it is an ordinary varying matched by register.
        let arr = self.array_len(file);
        let layout = if matches!(file, IoFile::PatchInput | IoFile::PatchOutput) {
            ElementLayout::PerPatch
        } else if arr > 0 {
            ElementLayout::PerVertex
        } else {
            ElementLayout::Single
        };
        let builtin = match builtin {
            Some((b, fixed)) => match element_role(b, self.stage, output, layout) {
                BuiltinRole::BuiltIn => Some((b, fixed)),
                BuiltinRole::Varying => None,
                BuiltinRole::Invalid => {
                    return Err(self.invalid(format!(
                        "system value {b:?} is not valid as a {:?} shader {}",
                        self.stage,
                        if output { "output" } else { "input" }
                    )))
                }
            },
            None => None,
        };
        let mut modes = InterpolationModes::empty();
        if self.is_stage(Stage::Pixel) && file == IoFile::Input {
            modes = interp.map_or(InterpolationModes::empty(), interpolation_modes);
        }
        let mut slots = self
            .io
            .get(file, stream, e.register)
            .copied()
            .unwrap_or([None; 4]);
        // Each component of a register belongs to one element: two variables covering the same
        // component would share a location and component.
        if (first..first + n).any(|c| slots.get(c as usize).is_some_and(Option::is_some)) {
            return Err(self.invalid(format!(
                "signature element {}{} overlaps another element in register {} (mask {:#x})",
                e.semantic_name,
                e.semantic_index,
                e.register,
                e.mask & 0xf
            )));
        }
        if let Some((b, fixed)) = builtin {
            let clip_count = self.clip_count(file, e.system_value, b, stream);
            let is_tf = matches!(b, BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner);
            let arrayed = arr > 0 && !is_tf;
            self.fresh_builtin = false;
            let (decl, ty) =
                self.builtin_decl(b, output, stream, clip_count, arrayed.then_some(arr), modes)?;
            let fresh = self.fresh_builtin;
            let (_, vec, _) = builtin_shape(b, clip_count);
            let base = if matches!(b, BuiltIn::ClipDistance | BuiltIn::CullDistance) {
                Some(self.clip_base(file, e, b, stream))
            } else {
                None
            };
            for c in lanes(e.mask) {
                let c = c as u8;
                let (index, comp) = if let Some(base) = base {
                    (Some(base + (c - first) as u32), None)
                } else if is_tf {
                    (fixed.or(Some(0)), None)
                } else if vec > 1 {
                    (None, Some(c))
                } else {
                    (None, None)
                };
                slots[c as usize] = Some(IoSlot {
                    decl,
                    ty,
                    output,
                    arrayed,
                    index,
                    comp,
                    builtin: Some(b),
                });
            }
            if fresh {
                self.semantic(decl, e);
            }
        } else {
            let sty = component_type(e.component_type);
            if self.is_stage(Stage::Pixel) && file == IoFile::Input && sty != ScalarType::F32 {
                modes = InterpolationModes::Flat;
            }
            let mut ty = Type::vector(sty, n);
            if arr > 0 {
                ty = ty
                    .array_of(arr)
                    .map_err(|er| self.invalid(er.to_string()))?;
            }
            let ep = self.ep;
            let op = if output {
                Op::new(OpCode::DclOutput, ty)
                    .with_ref(ep)
                    .with_lit(e.register as u64)
                    .with_lit(first as u64)
                    .with_lit(stream as u64)
            } else {
                Op::new(OpCode::DclInput, ty)
                    .with_ref(ep)
                    .with_lit(e.register as u64)
                    .with_lit(first as u64)
                    .with_lit(modes.to_literal())
            };
            let decl = self.decl(op);
            let prefix = match file {
                IoFile::Input => "v",
                IoFile::Output => "o",
                IoFile::PatchInput | IoFile::PatchOutput => "vpc",
            };
            let reg = NamePart::N(e.register as u64);
            if e.semantic_name.is_empty() {
                self.name_parts(decl, &[NamePart::S(prefix), reg]);
            } else {
                self.name_parts(
                    decl,
                    &[
                        NamePart::S(prefix),
                        reg,
                        NamePart::S("_"),
                        NamePart::S(&e.semantic_name),
                        NamePart::N(e.semantic_index as u64),
                    ],
                );
            }
            self.semantic(decl, e);
            for c in lanes(e.mask) {
                let c = c as u8;
                slots[c as usize] = Some(IoSlot {
                    decl,
                    ty: sty,
                    output,
                    arrayed: arr > 0,
                    index: None,
                    comp: (n > 1).then_some(c - first),
                    builtin: None,
                });
            }
        }
        self.io.insert(file, stream, e.register, slots);
        Ok(())
    }

    fn semantic(&mut self, decl: SsaDef, e: &SignatureElement) {
        if e.semantic_name.is_empty() {
            return;
        }
        self.decl(
            Op::new(OpCode::Semantic, Type::VOID)
                .with_ref(decl)
                .with_lit(e.semantic_index as u64)
                .with_str(&e.semantic_name),
        );
    }

    /// Total clip or cull distance components of a signature.
    fn clip_count(&self, file: IoFile, name: u32, b: BuiltIn, stream: u32) -> u32 {
        let want = if b == BuiltIn::ClipDistance { 2 } else { 3 };
        let _ = name;
        self.signature_of(file).map_or(4, |sig| {
            sig.iter()
                .filter(|e| e.system_value == want && e.stream == stream)
                .map(|e| (e.mask & 0xf).count_ones())
                .sum::<u32>()
                .max(1)
        })
    }

    /// Array offset of a clip or cull distance element: components of elements with lower
    /// semantic indices.
    fn clip_base(&self, file: IoFile, e: &SignatureElement, b: BuiltIn, stream: u32) -> u32 {
        let want = if b == BuiltIn::ClipDistance { 2 } else { 3 };
        self.signature_of(file).map_or(0, |sig| {
            sig.iter()
                .filter(|o| {
                    o.system_value == want
                        && o.stream == stream
                        && o.semantic_index < e.semantic_index
                })
                .map(|o| (o.mask & 0xf).count_ones())
                .sum()
        })
    }

    /// The declaration of a built-in, made on first use.
    pub(crate) fn builtin_decl(
        &mut self,
        b: BuiltIn,
        output: bool,
        stream: u32,
        clip_count: u32,
        arrayed: Option<u32>,
        modes: InterpolationModes,
    ) -> R<(SsaDef, ScalarType)> {
        let (sty, vec, arr) = builtin_shape(b, clip_count);
        if let Some(&(d, _)) = self.builtins.get(&(output, stream, b)) {
            return Ok((d, sty));
        }
        self.fresh_builtin = true;
        let mut ty = Type::vector(sty, vec);
        if arr > 0 {
            ty = ty.array_of(arr).map_err(|e| self.invalid(e.to_string()))?;
        }
        if let Some(n) = arrayed {
            ty = ty.array_of(n).map_err(|e| self.invalid(e.to_string()))?;
        }
        let mut modes = modes;
        if self.is_stage(Stage::Pixel) && !output && sty != ScalarType::F32 {
            modes = InterpolationModes::Flat;
        }
        if !self.is_stage(Stage::Pixel) || output {
            modes = InterpolationModes::empty();
        }
        let ep = self.ep;
        let op = if output {
            Op::new(OpCode::DclOutputBuiltIn, ty)
                .with_ref(ep)
                .with_lit(b.to_literal())
                .with_lit(stream as u64)
        } else {
            Op::new(OpCode::DclInputBuiltIn, ty)
                .with_ref(ep)
                .with_lit(b.to_literal())
                .with_lit(modes.to_literal())
        };
        let d = self.decl(op);
        self.name(d, b.name());
        self.builtins.insert((output, stream, b), (d, ty));
        Ok((d, sty))
    }

    /// The built-in behind a special register (`vThreadID`, `oDepth`, ...), and whether it
    /// is an output.
    pub(crate) fn special_builtin(&self, ty: OperandType) -> Option<(BuiltIn, bool)> {
        use OperandType as T;
        Some(match ty {
            T::InputPrimitiveId => (BuiltIn::PrimitiveId, false),
            T::InputThreadId => (BuiltIn::GlobalThreadId, false),
            T::InputThreadGroupId => (BuiltIn::WorkgroupId, false),
            T::InputThreadIdInGroup => (BuiltIn::LocalThreadId, false),
            T::InputThreadIdInGroupFlattened => (BuiltIn::LocalThreadIndex, false),
            T::InputCoverageMask => (BuiltIn::SampleMask, false),
            T::InnerCoverage => (BuiltIn::IsFullyCovered, false),
            T::InputGsInstanceId => (BuiltIn::GsInstanceId, false),
            T::OutputControlPointId => (BuiltIn::TessControlPointId, false),
            T::InputDomainPoint => (BuiltIn::TessCoord, false),
            T::OutputDepth | T::OutputDepthGreaterEqual | T::OutputDepthLessEqual => {
                (BuiltIn::Depth, true)
            }
            T::OutputCoverageMask => (BuiltIn::SampleMask, true),
            T::OutputStencilRef => (BuiltIn::StencilRef, true),
            _ => return None,
        })
    }

    /// Declares the built-in of a special register (and conservative depth modes).
    fn special_decl(&mut self, ty: OperandType) -> R<(SsaDef, ScalarType)> {
        let Some((b, output)) = self.special_builtin(ty) else {
            return Err(self.invalid(format!("{} is not a special register", ty.prefix())));
        };
        if builtin_role(b, self.stage, output) != BuiltinRole::BuiltIn {
            return Err(self.invalid(format!(
                "special register {} does not exist in {:?} shaders",
                ty.prefix(),
                self.stage
            )));
        }
        let mode = match ty {
            OperandType::OutputDepthGreaterEqual => Some(OpCode::SetPsDepthGreaterEqual),
            OperandType::OutputDepthLessEqual => Some(OpCode::SetPsDepthLessEqual),
            _ => None,
        };
        let fresh = !self.builtins.contains_key(&(output, 0, b));
        let r = self.builtin_decl(b, output, 0, 1, None, InterpolationModes::empty())?;
        if fresh {
            if let Some(m) = mode {
                let ep = self.ep;
                self.decl(Op::new(m, Type::VOID).with_ref(ep));
            }
        }
        Ok(r)
    }

    /// The IoSlot of component `c` of register `reg`, declaring it from the signature if the
    /// program did not.
    fn io_slot(&mut self, file: IoFile, stream: u32, reg: u32, c: u8) -> R<IoSlot> {
        if let Some(s) = self.lookup(file, stream, reg, c) {
            return Ok(s);
        }
        self.declare_register(file, reg, 1 << (c & 3), None, None)?;
        self.lookup(file, stream, reg, c)
            .ok_or_else(|| self.invalid(format!("register {reg}.{c} is not declared")))
    }

    /// The control point id, for per-control-point outputs of the HS control point phase.
    fn control_point_id(&mut self) -> R<SsaDef> {
        let (d, _) = self.builtin_decl(
            BuiltIn::TessControlPointId,
            false,
            0,
            1,
            None,
            InterpolationModes::empty(),
        )?;
        Ok(self.code(
            Op::new(OpCode::InputLoad, ScalarType::U32)
                .with_ref(d)
                .with_opt_ref(None),
        ))
    }

    /// The address of a slot, given the vertex index for arrayed declarations.
    fn slot_address(&mut self, slot: &IoSlot, vertex: Option<Ix>) -> R<Option<SsaDef>> {
        let mut parts = [Ix::C(0); 3];
        let mut n = 0;
        if slot.arrayed {
            let v = match vertex {
                Some(v) => v,
                None if slot.output && self.is_stage(Stage::Hull) => {
                    Ix::D(self.control_point_id()?)
                }
                None => {
                    return Err(self.invalid("per-vertex register accessed without a vertex index"))
                }
            };
            parts[n] = v;
            n += 1;
        }
        if let Some(i) = slot.index {
            parts[n] = Ix::C(i);
            n += 1;
        }
        if let Some(c) = slot.comp {
            parts[n] = Ix::C(c as u32);
            n += 1;
        }
        Ok(self.address(&parts[..n]))
    }

    /// Loads a slot as `ty`. An input component read again in the same block reuses its
    /// value (inputs do not change while a shader runs), as constant buffer reads do.
    fn slot_load(&mut self, slot: &IoSlot, vertex: Option<Ix>, ty: ScalarType) -> R<SsaDef> {
        let addr = self.slot_address(slot, vertex)?;
        if slot.output {
            let op = Op::new(OpCode::OutputLoad, slot.ty)
                .with_ref(slot.decl)
                .with_opt_ref(addr);
            let v = self.code_slot(slot, op);
            return Ok(self.coerce(v, slot.ty, ty));
        }
        // Read untyped, the value is the load itself: looked up under the declaration's type,
        // the one key it is remembered under.
        let ty = if ty == ScalarType::Unknown {
            slot.ty
        } else {
            ty
        };
        if let Some(v) = self.input_loads.get((slot.decl, addr, ty)) {
            return Ok(v);
        }
        let raw = if ty == slot.ty {
            None
        } else {
            self.input_loads.get((slot.decl, addr, slot.ty))
        };
        let v = match raw {
            Some(v) => v,
            None => {
                let op = Op::new(OpCode::InputLoad, slot.ty)
                    .with_ref(slot.decl)
                    .with_opt_ref(addr);
                let v = self.code_slot(slot, op);
                self.input_loads.put((slot.decl, addr, slot.ty), v);
                v
            }
        };
        let typed = self.coerce(v, slot.ty, ty);
        if typed != v {
            self.input_loads.put((slot.decl, addr, ty), typed);
        }
        Ok(typed)
    }

    fn slot_store(
        &mut self,
        slot: &IoSlot,
        vertex: Option<Ix>,
        v: SsaDef,
        ty: ScalarType,
    ) -> R<()> {
        if !slot.output {
            return Err(self.invalid("store to an input register"));
        }
        let addr = self.slot_address(slot, vertex)?;
        let mut v = self.coerce(v, ty, slot.ty);
        if let (Some(max), Some(BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner)) =
            (self.hs.max_tess_factor, slot.builtin)
        {
            let m = self.c_f32(max);
            v = self.op2(OpCode::FMin, ScalarType::F32, v, m);
        }
        let op = Op::new(OpCode::OutputStore, Type::VOID)
            .with_ref(slot.decl)
            .with_opt_ref(addr)
            .with_ref(v);
        self.code_slot(slot, op);
        Ok(())
    }

    /// Appends an access to `slot` addressed by [`Self::slot_address`]: only a per-vertex
    /// index comes from the program and is checked; the component and built-in array index
    /// come from the declaration, in range by construction.
    #[inline(always)]
    fn code_slot(&mut self, slot: &IoSlot, op: Op) -> SsaDef {
        if slot.arrayed {
            self.code(op)
        } else {
            self.code_in_range(op)
        }
    }

    /// The one type of the output components an untyped `mov` to `dst` writes, when that is
    /// a 32-bit type (`u32`, `i32`, `f32`) and every written component is declared: a `mov`
    /// of an immediate there may make the immediate of that type at once, which is what
    /// storing it untyped converts it to (the same bits). `None` otherwise, and in geometry
    /// shaders, whose streams may declare a register with different types.
    pub(crate) fn output_lanes_type(&self, dst: &Operand) -> Option<ScalarType> {
        use ScalarType as S;
        if dst.ty != OperandType::Output
            || self.is_stage(Stage::Geometry)
            || self.special_builtin(dst.ty).is_some()
        {
            return None;
        }
        let r = match dst.indices() {
            [i] if i.relative.is_none() => u32::try_from(i.imm).ok()?,
            _ => return None,
        };
        let file = self.io_file_of(dst.ty).ok()?;
        let mut ty = None;
        for l in lanes(dst_mask(dst)) {
            let slot = self.lookup(file, self.stream, r, l as u8)?;
            if !slot.output || ty.is_some_and(|t| t != slot.ty) {
                return None;
            }
            ty = Some(slot.ty);
        }
        ty.filter(|t| matches!(t, S::U32 | S::I32 | S::F32))
    }

    /// [`Self::store_whole`] for an untyped `mov` to an output register: each lane converted
    /// from its own value's type. False (nothing written) where it does not apply.
    pub(crate) fn store_output_untyped(&mut self, dst: &Operand, vals: &Lanes) -> R<bool> {
        if dst.ty != OperandType::Output || self.special_builtin(dst.ty).is_some() {
            return Ok(false);
        }
        // One immediate register index (no vertex index, nothing computed).
        let r = match dst.indices() {
            [i] if i.relative.is_none() => i.imm,
            _ => return Ok(false),
        };
        let (Ok(r), Ok(file)) = (u32::try_from(r), self.io_file_of(dst.ty)) else {
            return Ok(false);
        };
        self.store_whole(file, r, dst_mask(dst), vals, None)
    }

    /// Writes the lanes `mask` of output register `r` as one vector `OutputStore` when they are
    /// exactly the components of one plain vector declaration, in order (`mov o0.xyzw, ...`);
    /// false (nothing written) otherwise. `ty` is the type of the values (`None`: each its
    /// own def's type, as an untyped `mov` stores). Only outside hull and geometry shaders,
    /// whose outputs are arrayed per control point or per stream.
    fn store_whole(
        &mut self,
        file: IoFile,
        r: u32,
        mask: u8,
        vals: &Lanes,
        ty: Option<ScalarType>,
    ) -> R<bool> {
        if lanes(mask).any(|l| vals[l].is_none()) {
            return Ok(false);
        }
        let Some((decl, sty, n)) = self.whole_decl(file, r, mask) else {
            return Ok(false);
        };
        let mut parts = [None; 4];
        for (k, l) in lanes(mask).enumerate() {
            parts[k] = vals[l];
        }
        let vty = Type::vector(sty, n);
        if let Some(c) = self.constant_vector(&parts, n, ty, sty) {
            self.code(
                Op::new(OpCode::OutputStore, Type::VOID)
                    .with_ref(decl)
                    .with_opt_ref(None)
                    .with_ref(c),
            );
            return Ok(true);
        }
        let mut op = Op::new(OpCode::CompositeConstruct, vty);
        for &v in parts.iter().take(n as usize).flatten() {
            let from = ty.unwrap_or_else(|| self.value_type(v));
            let c = self.coerce(v, from, sty);
            op.operands.push(dxspv_ir::Operand::from_def(c));
        }
        let v = self.code(op);
        self.code(
            Op::new(OpCode::OutputStore, Type::VOID)
                .with_ref(decl)
                .with_opt_ref(None)
                .with_ref(v),
        );
        Ok(true)
    }

    /// The declaration, its scalar type and the component count when the lanes `mask` of
    /// output register `r` are exactly the components of one plain vector declaration, in
    /// order, outside hull and geometry shaders (see [`Self::store_whole`]).
    fn whole_decl(&self, file: IoFile, r: u32, mask: u8) -> Option<(SsaDef, ScalarType, u8)> {
        let n = mask.count_ones() as u8;
        if n < 2 || self.is_stage(Stage::Hull) || self.is_stage(Stage::Geometry) {
            return None;
        }
        let mut decl = None;
        for (k, l) in lanes(mask).enumerate() {
            let slot = self.lookup(file, self.stream, r, l as u8)?;
            let plain = slot.output
                && !slot.arrayed
                && slot.index.is_none()
                && slot.comp == Some(k as u8)
                && !matches!(
                    slot.builtin,
                    Some(BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner)
                );
            if !plain || decl.is_some_and(|(d, t)| d != slot.decl || t != slot.ty) {
                return None;
            }
            decl = Some((slot.decl, slot.ty));
        }
        let (decl, sty) = decl?;
        (self.b.get(decl).map(|op| op.ty) == Some(Type::vector(sty, n))).then_some((decl, sty, n))
    }

    /// [`Self::store_whole`] of the 32-bit immediate `bits` (lane `l` written with `bits[l]`)
    /// to the output register `dst` of type [`Self::output_lanes_type`]: the vector constant
    /// an untyped `mov` of the immediate would store, made at once. False (nothing written)
    /// where the store is not whole.
    pub(crate) fn store_output_bits(&mut self, dst: &Operand, bits: &[u32; 4]) -> R<bool> {
        let r = match dst.indices() {
            [i] if i.relative.is_none() => i.imm,
            _ => return Ok(false),
        };
        let (Ok(r), Ok(file)) = (u32::try_from(r), self.io_file_of(dst.ty)) else {
            return Ok(false);
        };
        let mask = dst_mask(dst);
        let Some((decl, sty, n)) = self.whole_decl(file, r, mask) else {
            return Ok(false);
        };
        let mut lits = [0u64; 4];
        for (lit, l) in lits.iter_mut().zip(lanes(mask)) {
            *lit = u64::from(bits[l]);
        }
        let c = self
            .b
            .add_constant(Type::vector(sty, n), &lits[..usize::from(n).min(4)]);
        self.code(
            Op::new(OpCode::OutputStore, Type::VOID)
                .with_ref(decl)
                .with_opt_ref(None)
                .with_ref(c),
        );
        Ok(true)
    }

    /// The `vecN<sty>` constant of `parts` (the first `n`, values of type `ty`, `None`: each
    /// its own def's type) when each is a 32-bit constant that [`Self::coerce`] would keep
    /// or give the same bits as `sty`: what constant folding makes of the `CompositeConstruct`,
    /// without the scalar constants it leaves behind. `None` where that does not hold.
    fn constant_vector(
        &mut self,
        parts: &Lanes,
        n: u8,
        ty: Option<ScalarType>,
        sty: ScalarType,
    ) -> Option<SsaDef> {
        use ScalarType as S;
        if !matches!(sty, S::U32 | S::I32 | S::F32) {
            return None;
        }
        let mut lits = [0u64; 4];
        for (lit, v) in lits.iter_mut().zip(parts.iter().take(n as usize)) {
            let op = self.b.get((*v)?)?;
            let own = if op.ty == Type::scalar(sty) {
                sty
            } else if op.ty == Type::scalar(S::Unknown) {
                S::Unknown
            } else {
                return None;
            };
            let from = ty.unwrap_or(own);
            if op.opcode != OpCode::Constant || !(from == S::Unknown || from == sty) {
                return None;
            }
            *lit = op.lit(0)?;
        }
        let n = usize::from(n).min(4);
        Some(self.b.add_constant(Type::vector(sty, n as u8), &lits[..n]))
    }

    /// The vertex index and register index of an I/O operand.
    fn io_indices(&mut self, op: &Operand) -> R<(Option<Ix>, Ix)> {
        match op.index_count {
            1 => Ok((None, self.operand_index(op, 0)?)),
            2 => {
                let v = self.operand_index(op, 0)?;
                Ok((Some(v), self.operand_index(op, 1)?))
            }
            _ => Err(self.invalid(format!("{} operand needs 1 or 2 indices", op.ty.prefix()))),
        }
    }

    /// The registers a dynamic index based at `base` may reach.
    fn dynamic_range(&self, file: IoFile, base: u32) -> R<(u32, u32)> {
        let r = self
            .index_ranges
            .iter()
            .find(|r| r.file == file && r.start <= base && base - r.start < r.count.max(1));
        let (start, count) = match r {
            Some(r) => (r.start, r.count),
            None => {
                let max = self
                    .io
                    .keys()
                    .filter(|(f, _, _)| *f == file)
                    .map(|(_, _, r)| *r)
                    .max()
                    .unwrap_or(base);
                (base, max.saturating_sub(base).saturating_add(1))
            }
        };
        // The callers walk `start..start + count`: that end must fit in a u32.
        if count == 0 || count > MAX_DYNAMIC_RANGE || start.checked_add(count).is_none() {
            return Err(self.invalid(format!("index range of {count} registers")));
        }
        Ok((start, count))
    }

    /// Loads components of an I/O or special register.
    pub(crate) fn load_io_comps(&mut self, op: &Operand, ty: ScalarType, comps: u8) -> R<Lanes> {
        let mut out: Lanes = [None; 4];
        if matches!(
            op.ty,
            OperandType::InputForkInstanceId | OperandType::InputJoinInstanceId
        ) {
            let v = self.phase_instance_id()?;
            for c in lanes(comps) {
                out[c] = Some(self.coerce(v, ScalarType::U32, ty));
            }
            return Ok(out);
        }
        if let Some((_, output)) = self.special_builtin(op.ty) {
            let (decl, sty) = self.special_decl(op.ty)?;
            let vec = self
                .builtins
                .values()
                .find(|(d, _)| *d == decl)
                .and_then(|(_, t)| t.as_basic())
                .map_or(1, |b| b.vec_size());
            let opc = if output {
                OpCode::OutputLoad
            } else {
                OpCode::InputLoad
            };
            for c in lanes(comps) {
                let v = if vec > 1 {
                    if c as u8 >= vec {
                        self.constant(sty, 0)
                    } else {
                        let a = self.c_u32(c as u32);
                        self.code(Op::new(opc, sty).with_ref(decl).with_ref(a))
                    }
                } else {
                    self.code(Op::new(opc, sty).with_ref(decl).with_opt_ref(None))
                };
                out[c] = Some(self.coerce(v, sty, ty));
            }
            return Ok(out);
        }
        match op.ty {
            OperandType::Input
            | OperandType::Output
            | OperandType::InputControlPoint
            | OperandType::OutputControlPoint
            | OperandType::InputPatchConstant => {}
            OperandType::CycleCounter => {
                return Err(self.unsupported("the cycle counter (vCycleCounter)"))
            }
            other => {
                return Err(self.invalid(format!("{} cannot be read as a value", other.prefix())))
            }
        }
        let file = self.io_file_of(op.ty)?;
        let (vertex, reg) = self.io_indices(op)?;
        match reg {
            Ix::C(r) => {
                for c in lanes(comps) {
                    let slot = self.io_slot(file, 0, r, c as u8)?;
                    out[c] = Some(self.slot_load(&slot, vertex, ty)?);
                }
            }
            Ix::D(idx) => {
                let base = op.indices().last().map_or(0, |i| i.imm as u32);
                let (start, count) = self.dynamic_range(file, base)?;
                let mut tmps = [None; 4];
                let zero = self.constant(ty, 0);
                for c in lanes(comps) {
                    let t = self.fresh_temp();
                    self.code(
                        Op::new(OpCode::TmpStore, Type::VOID)
                            .with_ref(t)
                            .with_ref(zero),
                    );
                    tmps[c] = Some(t);
                }
                let sw = self.code(
                    Op::new(OpCode::ScopedSwitch, Type::VOID)
                        .with_opt_ref(None)
                        .with_ref(idx),
                );
                for r in start..start + count {
                    self.code(
                        Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                            .with_ref(sw)
                            .with_lit(r as u64),
                    );
                    for c in lanes(comps) {
                        if self.lookup(file, 0, r, c as u8).is_none() {
                            let _ = self.declare_register(file, r, 1 << c, None, None);
                        }
                        let (Some(slot), Some(t)) = (self.lookup(file, 0, r, c as u8), tmps[c])
                        else {
                            continue;
                        };
                        let v = self.slot_load(&slot, vertex, ty)?;
                        self.code(
                            Op::new(OpCode::TmpStore, Type::VOID)
                                .with_ref(t)
                                .with_ref(v),
                        );
                    }
                    self.code(Op::new(OpCode::ScopedSwitchBreak, Type::VOID).with_ref(sw));
                }
                let end = self.code(Op::new(OpCode::ScopedEndSwitch, Type::VOID).with_ref(sw));
                self.b.set_operand(sw, 0, dxspv_ir::Operand::from_def(end));
                for c in lanes(comps) {
                    if let Some(t) = tmps[c] {
                        let v = self.op1(OpCode::TmpLoad, ScalarType::Unknown, t);
                        out[c] = Some(self.coerce(v, ScalarType::Unknown, ty));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Loads components of a static register of `file`, untyped where `ty` is `Unknown`.
    pub(crate) fn load_io_at(
        &mut self,
        file: IoFile,
        vertex: Option<Ix>,
        reg: u32,
        comps: u8,
        ty: ScalarType,
    ) -> R<Lanes> {
        let mut out: Lanes = [None; 4];
        for c in lanes(comps) {
            let slot = self.io_slot(file, 0, reg, c as u8)?;
            let t = if ty == ScalarType::Unknown {
                slot.ty
            } else {
                ty
            };
            out[c] = Some(self.slot_load(&slot, vertex, t)?);
        }
        Ok(out)
    }

    /// Resolves a destination once for an instruction that stores it lane by lane, each lane
    /// with its own value type (`movc`, untyped `mov`): a plain output register outside a
    /// geometry shader is looked up here rather than again for every lane.
    pub(crate) fn lane_target(&mut self, dst: &Operand) -> R<LaneTarget> {
        // Only a constant register index: a relative one is loaded again for every lane, as
        // `store_io` does.
        if let (OperandType::Output, [index]) = (dst.ty, dst.indices()) {
            if let (None, Ok(reg)) = (index.relative, u32::try_from(index.imm)) {
                if !self.is_stage(Stage::Geometry) {
                    let file = self.io_file_of(dst.ty)?;
                    return Ok(LaneTarget::Output { file, reg });
                }
            }
        }
        Ok(LaneTarget::Operand)
    }

    /// Writes lane `l` of `dst` (resolved by [`Self::lane_target`]), saturating first if
    /// `sat`: what [`Self::write`] does with a single lane.
    pub(crate) fn write_lane(
        &mut self,
        sat: bool,
        target: LaneTarget,
        dst: &Operand,
        l: usize,
        v: SsaDef,
        ty: ScalarType,
    ) -> R<()> {
        let mut one: Lanes = [None; 4];
        if let Some(slot) = one.get_mut(l) {
            *slot = Some(v);
        }
        let LaneTarget::Output { file, reg } = target else {
            return self.write(sat, dst, one, ty);
        };
        if sat {
            self.saturate(&mut one, ty);
        }
        // As `store_io` stores a lane of a plain output (one stream, no vertex index).
        let Some(v) = one.get(l).copied().flatten() else {
            return Ok(());
        };
        if dst_mask(dst) & (1 << l) == 0 {
            return Ok(());
        }
        let slot = match self.lookup(file, 0, reg, l as u8) {
            Some(slot) => slot,
            None => self.io_slot(file, self.stream, reg, l as u8)?,
        };
        self.slot_store(&slot, None, v, ty)
    }

    /// Stores lanes to an output or special output register.
    pub(crate) fn store_io(&mut self, dst: &Operand, vals: &Lanes, ty: ScalarType) -> R<()> {
        let mask = dst_mask(dst);
        if let Some((_, true)) = self.special_builtin(dst.ty) {
            let (decl, sty) = self.special_decl(dst.ty)?;
            if let Some(v) = lanes(mask).find_map(|l| vals[l]) {
                let v = self.coerce(v, ty, sty);
                self.code(
                    Op::new(OpCode::OutputStore, Type::VOID)
                        .with_ref(decl)
                        .with_opt_ref(None)
                        .with_ref(v),
                );
            }
            return Ok(());
        }
        if !matches!(dst.ty, OperandType::Output) {
            return Err(self.invalid(format!("{} cannot be written", dst.ty.prefix())));
        }
        let file = self.io_file_of(dst.ty)?;
        let (vertex, reg) = self.io_indices(dst)?;
        let streams: u32 = if self.is_stage(Stage::Geometry) {
            self.stream_mask.max(1)
        } else {
            1
        };
        match reg {
            Ix::C(r)
                if streams == 1
                    && vertex.is_none()
                    && self.store_whole(file, r, mask, vals, Some(ty))? => {}
            Ix::C(r) => {
                for l in lanes(mask) {
                    let Some(v) = vals[l] else { continue };
                    let mut done = false;
                    for s in (0..4).filter(|s| streams & (1 << s) != 0) {
                        if let Some(slot) = self.lookup(file, s, r, l as u8) {
                            self.slot_store(&slot, vertex, v, ty)?;
                            done = true;
                        }
                    }
                    if !done {
                        let slot = self.io_slot(file, self.stream, r, l as u8)?;
                        self.slot_store(&slot, vertex, v, ty)?;
                    }
                }
            }
            Ix::D(idx) => {
                let base = dst.indices().last().map_or(0, |i| i.imm as u32);
                let (start, count) = self.dynamic_range(file, base)?;
                let sw = self.code(
                    Op::new(OpCode::ScopedSwitch, Type::VOID)
                        .with_opt_ref(None)
                        .with_ref(idx),
                );
                for r in start..start + count {
                    self.code(
                        Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                            .with_ref(sw)
                            .with_lit(r as u64),
                    );
                    for l in lanes(mask) {
                        let Some(v) = vals[l] else { continue };
                        if self.lookup(file, self.stream, r, l as u8).is_none() {
                            let _ = self.declare_register(file, r, 1 << l, None, None);
                        }
                        if let Some(slot) = self.lookup(file, self.stream, r, l as u8) {
                            self.slot_store(&slot, vertex, v, ty)?;
                        }
                    }
                    self.code(Op::new(OpCode::ScopedSwitchBreak, Type::VOID).with_ref(sw));
                }
                let end = self.code(Op::new(OpCode::ScopedEndSwitch, Type::VOID).with_ref(sw));
                self.b.set_operand(sw, 0, dxspv_ir::Operand::from_def(end));
            }
        }
        Ok(())
    }

    /// `eval_centroid`, `eval_sample_index`, `eval_snapped`.
    pub(crate) fn eval(&mut self, inst: &crate::Instruction<'_>) -> R<()> {
        let ops = inst.operands();
        let (Some(dst), Some(src)) = (ops.first(), ops.get(1)) else {
            return Err(self.invalid("missing operands"));
        };
        if src.ty != OperandType::Input {
            return Err(self.invalid("eval_* source must be an input register"));
        }
        let extra = match inst.opcode {
            crate::Opcode::EvalSampleIndex => {
                let Some(s) = ops.get(2) else {
                    return Err(self.invalid("missing sample index"));
                };
                Some(self.load_scalar(s, ScalarType::U32)?)
            }
            crate::Opcode::EvalSnapped => {
                let Some(s) = ops.get(2) else {
                    return Err(self.invalid("missing offset"));
                };
                let l = self.load_src(s, ScalarType::I32, 3)?;
                let mut parts = [None; 2];
                for (i, p) in parts.iter_mut().enumerate() {
                    let Some(v) = l[i] else {
                        return Err(self.invalid("missing offset component"));
                    };
                    // Offsets are 4-bit signed values in 1/16 pixel.
                    let zero = self.c_u32(0);
                    let four = self.c_u32(4);
                    let bits = self.op3(OpCode::SBitExtract, ScalarType::I32, v, zero, four);
                    let f = self.op1(OpCode::ConvertItoF, ScalarType::F32, bits);
                    let scale = self.c_f32(1.0 / 16.0);
                    *p = Some(self.op2(OpCode::FMul, ScalarType::F32, f, scale));
                }
                let (Some(x), Some(y)) = (parts[0], parts[1]) else {
                    return Err(self.invalid("missing offset component"));
                };
                Some(self.vector(ScalarType::F32, &[x, y]))
            }
            _ => None,
        };
        let (vertex, reg) = self.io_indices(src)?;
        let Ix::C(reg) = reg else {
            return Err(self.unsupported("dynamically indexed eval_* input"));
        };
        if vertex.is_some() {
            return Err(self.invalid("eval_* on a per-vertex input"));
        }
        let mask = dst_mask(dst);
        let sw = super::registers::swizzle_of(src);
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let slot = self.io_slot(IoFile::Input, 0, reg, sw[l])?;
            if slot.builtin.is_some() || !slot.ty.is_float() {
                return Err(self.invalid(format!(
                    "`{}` needs an interpolated float input, v{reg} is not one",
                    inst.opcode.mnemonic()
                )));
            }
            let addr = self.slot_address(&slot, None)?;
            let op = match inst.opcode {
                crate::Opcode::EvalCentroid => Op::new(OpCode::InterpolateAtCentroid, slot.ty)
                    .with_ref(slot.decl)
                    .with_opt_ref(addr),
                crate::Opcode::EvalSampleIndex => Op::new(OpCode::InterpolateAtSample, slot.ty)
                    .with_ref(slot.decl)
                    .with_opt_ref(addr)
                    .with_opt_ref(extra),
                _ => Op::new(OpCode::InterpolateAtOffset, slot.ty)
                    .with_ref(slot.decl)
                    .with_opt_ref(addr)
                    .with_opt_ref(extra),
            };
            let v = self.code(op);
            out[l] = Some(self.coerce(v, slot.ty, ScalarType::F32));
        }
        self.write(inst.modifiers.saturate, dst, out, ScalarType::F32)
    }

    /// `emit*` / `cut*`.
    pub(crate) fn gs_emit(&mut self, inst: &crate::Instruction<'_>) -> R<()> {
        use crate::Opcode as O;
        let stream = match inst.opcode {
            O::EmitStream | O::CutStream | O::EmitThenCutStream => {
                let Some(op) = inst.operands().first() else {
                    return Err(self.invalid("missing stream operand"));
                };
                let s = self.imm_index(op, 0)?;
                if s > 3 {
                    return Err(self.invalid(format!("stream {s} is out of range")));
                }
                s
            }
            _ => 0,
        };
        if matches!(
            inst.opcode,
            O::Emit | O::EmitStream | O::EmitThenCut | O::EmitThenCutStream
        ) {
            self.code(Op::new(OpCode::EmitVertex, Type::VOID).with_lit(stream));
        }
        if matches!(
            inst.opcode,
            O::Cut | O::CutStream | O::EmitThenCut | O::EmitThenCutStream
        ) {
            self.code(Op::new(OpCode::EmitPrimitive, Type::VOID).with_lit(stream));
        }
        Ok(())
    }
}

#[cfg(test)]
mod builtin_role_tests {
    use super::{builtin_role, BuiltinRole::*};
    use crate::decode::Stage::*;
    use dxspv_ir::BuiltIn;

    #[test]
    fn system_values_are_builtins_only_where_the_system_uses_them() {
        let cases = [
            (BuiltIn::ViewportIndex, Vertex, true, BuiltIn),
            (BuiltIn::ViewportIndex, Hull, true, Varying),
            (BuiltIn::ViewportIndex, Domain, false, Varying),
            (BuiltIn::LayerIndex, Geometry, false, Varying),
            (BuiltIn::LayerIndex, Pixel, false, BuiltIn),
            (BuiltIn::Position, Vertex, false, Varying),
            (BuiltIn::Position, Pixel, false, BuiltIn),
            (BuiltIn::Position, Pixel, true, Invalid),
            (BuiltIn::PrimitiveId, Geometry, true, BuiltIn),
            (BuiltIn::PrimitiveId, Vertex, true, Varying),
            (BuiltIn::InstanceId, Vertex, false, BuiltIn),
            (BuiltIn::InstanceId, Pixel, false, Varying),
            (BuiltIn::InstanceId, Pixel, true, Invalid),
            (BuiltIn::IsFrontFace, Pixel, false, BuiltIn),
            (BuiltIn::IsFrontFace, Vertex, false, Invalid),
            (BuiltIn::TessFactorOuter, Hull, true, BuiltIn),
            (BuiltIn::TessFactorOuter, Domain, false, BuiltIn),
            (BuiltIn::TessFactorInner, Geometry, false, Invalid),
            (BuiltIn::ClipDistance, Compute, false, Invalid),
            (BuiltIn::PrimitiveId, Hull, false, BuiltIn),
            (BuiltIn::GlobalThreadId, Compute, false, BuiltIn),
            (BuiltIn::GlobalThreadId, Pixel, false, Invalid),
            (BuiltIn::Depth, Pixel, true, BuiltIn),
            (BuiltIn::Depth, Vertex, true, Invalid),
            (BuiltIn::SampleMask, Pixel, false, BuiltIn),
            (BuiltIn::GsInstanceId, Geometry, false, BuiltIn),
            (BuiltIn::TessCoord, Hull, false, Invalid),
        ];
        for (b, stage, output, want) in cases {
            assert_eq!(
                builtin_role(b, stage, output),
                want,
                "{b:?} {stage:?} {output}"
            );
        }
    }
}
