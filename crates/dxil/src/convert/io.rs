//! Shader I/O: signature elements, their loads and stores (`LoadInput`, `StoreOutput`,
//! patch constants, output control points, attribute evaluation) and the system values DXIL
//! reads through operations (`ThreadId`, `PrimitiveID`, `DomainLocation`, …).
//!
//! Each element becomes one declaration: a user varying at location = start row and
//! component = start column, typed `vec<cols>` of the element's component type (32-bit:
//! 16-bit elements are converted at the access, as both stages of a link do), an array of
//! its rows when it has several, wrapped in the per-vertex array of GS, HS and DS inputs,
//! HS control point outputs, mesh shader outputs (per vertex, and per primitive in stream 1
//! at locations after the vertex signature's rows) and pixel inputs read with
//! `AttributeAtVertex` (`PerVertex`, 3); or, where the stage makes or consumes the system value, the
//! matching built-in (clip and cull distances: one `f32` array each, elements in semantic
//! order; tessellation factors: the factor arrays). User outputs are declared up front
//! (stream output may name them even if unwritten); inputs and built-ins on first use, so
//! a built-in the code never reads (a shadowed `SV_SampleIndex`) changes nothing.

use dxspv_ir::frontend::{builtin_shape, FrontendBuilder, NamePart};
use dxspv_ir::small_map::SmallMap;
use dxspv_ir::{BuiltIn, InterpolationModes, Op, OpCode, ScalarType, ShaderStage, SsaDef, Type};

use super::dx_op::code as C;
use super::values::Val;
use super::{limits, Args, Converter, R};
use crate::dx::{ComponentType, InterpolationMode, SemanticKind, ShaderKind, SignatureElement};
use crate::module::Instruction;

/// Which signature an element is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Sig {
    /// Inputs (per vertex or control point in GS, HS and DS).
    Input,
    /// Outputs (per control point in HS).
    Output,
    /// Patch constants (HS outputs, DS inputs) or mesh primitive outputs.
    Patch,
}

/// How an element's components are addressed in its declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A user varying: `[row if rows > 1][col if cols > 1]`.
    User,
    /// A vector built-in: `[col]`.
    Vector,
    /// A scalar built-in.
    Scalar,
    /// A built-in array indexed `base + row * cols + col` (clip, cull, tess factors).
    Array(u32),
}

/// A declared element.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IoElem {
    decl: SsaDef,
    /// The declaration's scalar type.
    scalar: ScalarType,
    rows: u32,
    cols: u8,
    /// Has an outer per-vertex (control point) array.
    arrayed: bool,
    shape: Shape,
    output: bool,
}

/// I/O state.
#[derive(Default)]
pub(crate) struct Io {
    /// Declared elements by `(signature, element id)`.
    elems: SmallMap<(Sig, u32), IoElem, 16>,
    /// Built-in declarations by `(output, built-in, stream)`.
    builtins: SmallMap<(bool, u32, u32), SsaDef, 8>,
}

/// The built-in of a system value.
fn builtin_of(k: SemanticKind) -> Option<BuiltIn> {
    use SemanticKind as S;
    Some(match k {
        S::VertexId => BuiltIn::VertexId,
        S::InstanceId => BuiltIn::InstanceId,
        S::Position => BuiltIn::Position,
        S::RenderTargetArrayIndex => BuiltIn::LayerIndex,
        S::ViewportArrayIndex => BuiltIn::ViewportIndex,
        S::ClipDistance => BuiltIn::ClipDistance,
        S::CullDistance => BuiltIn::CullDistance,
        S::PrimitiveId => BuiltIn::PrimitiveId,
        S::IsFrontFace => BuiltIn::IsFrontFace,
        S::SampleIndex => BuiltIn::SampleId,
        S::Coverage => BuiltIn::SampleMask,
        S::InnerCoverage => BuiltIn::IsFullyCovered,
        S::Depth | S::DepthLessEqual | S::DepthGreaterEqual => BuiltIn::Depth,
        S::StencilRef => BuiltIn::StencilRef,
        S::TessFactor => BuiltIn::TessFactorOuter,
        S::InsideTessFactor => BuiltIn::TessFactorInner,
        S::Barycentrics => BuiltIn::Barycentrics,
        S::ShadingRate => BuiltIn::ShadingRate,
        S::CullPrimitive => BuiltIn::CullPrimitive,
        S::ViewId => BuiltIn::ViewId,
        S::StartVertexLocation => BuiltIn::StartVertexLocation,
        S::StartInstanceLocation => BuiltIn::StartInstanceLocation,
        _ => return None,
    })
}

/// The 32-bit scalar type an element of component type `t` is declared with.
fn element_scalar(t: ComponentType) -> ScalarType {
    match t {
        ComponentType::I16 | ComponentType::I32 => ScalarType::I32,
        ComponentType::I1 | ComponentType::U16 | ComponentType::U32 => ScalarType::U32,
        ComponentType::I64 | ComponentType::U64 => ScalarType::U64,
        ComponentType::F64 | ComponentType::SNormF64 | ComponentType::UNormF64 => ScalarType::F64,
        _ => ScalarType::F32,
    }
}

/// Pixel shader interpolation modes.
fn interpolation(i: InterpolationMode) -> InterpolationModes {
    use InterpolationMode as I;
    match i {
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
        _ => InterpolationModes::empty(),
    }
}

impl<'s> Converter<'s> {
    /// The signature elements of `sig`.
    fn signature(&self, sig: Sig) -> &'s [SignatureElement] {
        let s = &self.entry.signatures;
        match sig {
            Sig::Input => &s.input,
            Sig::Output => &s.output,
            Sig::Patch => &s.patch_constant,
        }
    }

    /// Whether elements of `sig` are outputs of this stage.
    fn is_output(&self, sig: Sig) -> bool {
        match sig {
            Sig::Input => false,
            Sig::Output => true,
            Sig::Patch => !self.is(ShaderKind::Domain),
        }
    }

    /// The per-vertex array length of `sig`'s elements (0: not arrayed).
    fn vertex_count(&self, sig: Sig) -> u32 {
        let p = &self.entry.properties;
        match (self.stage, sig) {
            (ShaderKind::Geometry, Sig::Input) => super::stages::gs_input_vertices(p),
            (ShaderKind::Hull, Sig::Input) => p.hull.map_or(1, |h| h.input_control_points),
            (ShaderKind::Hull, Sig::Output) => p.hull.map_or(1, |h| h.output_control_points),
            (ShaderKind::Domain, Sig::Input) => p.domain.map_or(1, |d| d.input_control_points),
            (ShaderKind::Mesh, Sig::Output) => p.mesh.map_or(1, |m| m.max_vertex_count.max(1)),
            (ShaderKind::Mesh, Sig::Patch) => p.mesh.map_or(1, |m| m.max_primitive_count.max(1)),
            _ => 0,
        }
    }

    /// Declares the user outputs of every signature (built-ins and inputs come on use).
    pub(crate) fn declare_signatures(&mut self) -> R<()> {
        self.at.what = "signature";
        for sig in [Sig::Output, Sig::Patch] {
            if !self.is_output(sig) {
                continue;
            }
            for e in self.signature(sig) {
                if self.element_builtin(sig, e)?.is_none() {
                    self.element(sig, e.id)?;
                }
            }
        }
        Ok(())
    }

    /// The built-in an element is in this stage, if it is one.
    fn element_builtin(&self, sig: Sig, e: &SignatureElement) -> R<Option<BuiltIn>> {
        let Some(b) = builtin_of(e.semantic_kind) else {
            return Ok(None);
        };
        let output = self.is_output(sig);
        let stage = super::stages::ir_stage(self.stage);
        let tess_factor = matches!(b, BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner);
        // Per-patch values other than tessellation factors and per-vertex primitive ids are
        // varyings: those built-ins have no such form.
        if (sig == Sig::Patch && !tess_factor && !self.is(ShaderKind::Mesh))
            || (self.vertex_count(sig) > 0
                && b == BuiltIn::PrimitiveId
                && !self.is(ShaderKind::Mesh))
        {
            return Ok(None);
        }
        if self.is(ShaderKind::Mesh) && output {
            let per_primitive = matches!(
                b,
                BuiltIn::PrimitiveId
                    | BuiltIn::LayerIndex
                    | BuiltIn::ViewportIndex
                    | BuiltIn::CullPrimitive
                    | BuiltIn::ShadingRate
            );
            if per_primitive != (sig == Sig::Patch) {
                return Err(self.invalid(format!(
                    "system value {} in the mesh shader's {} signature",
                    e.semantic_kind.name(),
                    if sig == Sig::Patch {
                        "primitive"
                    } else {
                        "vertex"
                    }
                )));
            }
        }
        if b.exists_in(stage, output) {
            return Ok(Some(b));
        }
        let passthrough = b.passes_through_as_varying();
        if passthrough && !(stage == ShaderStage::Pixel && output) {
            return Ok(None);
        }
        Err(self.invalid(format!(
            "system value {} is not valid as a {} shader {}",
            e.semantic_kind.name(),
            self.stage.name(),
            if output { "output" } else { "input" }
        )))
    }

    /// The declaration of element `id` of `sig`, made on first use.
    fn element(&mut self, sig: Sig, id: u32) -> R<IoElem> {
        if let Some(e) = self.io.elems.get(&(sig, id)) {
            return Ok(*e);
        }
        let list = self.signature(sig);
        let e = list
            .iter()
            .find(|e| e.id == id)
            .ok_or_else(|| self.invalid(format!("signature element {id} does not exist")))?;
        if e.rows == 0 || e.rows > limits::MAX_SIGNATURE_ROWS || e.cols == 0 || e.cols > 4 {
            return Err(self.invalid(format!(
                "signature element {} has {} rows and {} columns",
                e.name, e.rows, e.cols
            )));
        }
        let output = self.is_output(sig);
        let pixel_input = self.is(ShaderKind::Pixel) && !output;
        // Pixel inputs read with `AttributeAtVertex` are arrays of the triangle's vertices.
        let per_vertex = pixel_input && self.mesh.per_vertex.contains(&id);
        let vertices = if per_vertex {
            3
        } else {
            self.vertex_count(sig)
        };
        let mut modes = if pixel_input {
            interpolation(e.interpolation)
        } else {
            InterpolationModes::empty()
        };
        let stream = if self.is(ShaderKind::Geometry) && output {
            e.output_stream
        } else if self.is(ShaderKind::Mesh) && sig == Sig::Patch {
            1
        } else {
            0
        };
        let elem = match self.element_builtin(sig, e)? {
            Some(b) => {
                let tess = matches!(b, BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner);
                let clip = matches!(b, BuiltIn::ClipDistance | BuiltIn::CullDistance);
                let (count, base) = if clip {
                    self.clip_layout(list, e, stream)
                } else {
                    (1, 0)
                };
                let arrayed = vertices > 0 && !tess;
                let fresh =
                    !self
                        .io
                        .builtins
                        .contains_key(&(output, b.to_literal() as u32, stream));
                let decl = self.builtin_decl(
                    b,
                    output,
                    stream,
                    count,
                    arrayed.then_some(vertices),
                    modes,
                )?;
                if fresh && !e.name.is_empty() {
                    let index = e.semantic_indices.first().copied().unwrap_or(0);
                    self.decl(
                        Op::new(OpCode::Semantic, Type::VOID)
                            .with_ref(decl)
                            .with_lit(u64::from(index))
                            .with_str(&e.name),
                    );
                }
                if matches!(
                    e.semantic_kind,
                    SemanticKind::DepthLessEqual | SemanticKind::DepthGreaterEqual
                ) {
                    let mode = if e.semantic_kind == SemanticKind::DepthLessEqual {
                        OpCode::SetPsDepthLessEqual
                    } else {
                        OpCode::SetPsDepthGreaterEqual
                    };
                    let ep = self.ep;
                    self.decl(Op::new(mode, Type::VOID).with_ref(ep));
                }
                let (scalar, vec, arr) = builtin_shape(b, count);
                let shape = if arr > 0 {
                    Shape::Array(base)
                } else if vec > 1 {
                    Shape::Vector
                } else {
                    Shape::Scalar
                };
                IoElem {
                    decl,
                    scalar,
                    rows: e.rows,
                    cols: e.cols,
                    arrayed,
                    shape,
                    output,
                }
            }
            None => {
                if e.start_row < 0 || e.start_col < 0 {
                    return Err(self.invalid(format!(
                        "signature element {} has no packed location",
                        e.name
                    )));
                }
                let scalar = element_scalar(e.component_type);
                if pixel_input && scalar != ScalarType::F32 {
                    modes = InterpolationModes::Flat;
                }
                if per_vertex {
                    modes = (modes & InterpolationModes::Flat) | InterpolationModes::PerVertex;
                }
                let mut ty = Type::vector(scalar, e.cols);
                if e.rows > 1 {
                    ty = ty.array_of(e.rows).map_err(|er| self.type_error(er))?;
                }
                if vertices > 0 {
                    ty = ty.array_of(vertices).map_err(|er| self.type_error(er))?;
                }
                let ep = self.ep;
                // A mesh shader's primitive outputs share the locations of its vertex
                // outputs: they follow them (the rows the vertex signature packs).
                let mut location = e.start_row as u64;
                if self.is(ShaderKind::Mesh) && sig == Sig::Patch {
                    location += self
                        .signature(Sig::Output)
                        .iter()
                        .filter(|v| v.start_row >= 0)
                        .map(|v| v.start_row as u64 + u64::from(v.rows))
                        .max()
                        .unwrap_or(0);
                }
                let op = if output {
                    Op::new(OpCode::DclOutput, ty)
                        .with_ref(ep)
                        .with_lit(location)
                        .with_lit(e.start_col as u64)
                        .with_lit(u64::from(stream))
                } else {
                    Op::new(OpCode::DclInput, ty)
                        .with_ref(ep)
                        .with_lit(e.start_row as u64)
                        .with_lit(e.start_col as u64)
                        .with_lit(modes.to_literal())
                };
                let decl = self.decl(op);
                let index = e.semantic_indices.first().copied().unwrap_or(0);
                if !e.name.is_empty() {
                    self.name_parts(
                        decl,
                        &[
                            NamePart::S(if output { "o_" } else { "v_" }),
                            NamePart::S(&e.name),
                            NamePart::N(u64::from(index)),
                        ],
                    );
                    self.decl(
                        Op::new(OpCode::Semantic, Type::VOID)
                            .with_ref(decl)
                            .with_lit(u64::from(index))
                            .with_str(&e.name),
                    );
                }
                IoElem {
                    decl,
                    scalar,
                    rows: e.rows,
                    cols: e.cols,
                    arrayed: vertices > 0,
                    shape: Shape::User,
                    output,
                }
            }
        };
        self.io.elems.insert((sig, id), elem);
        Ok(elem)
    }

    /// Total clip (or cull) distance components of a signature, and the first one of `e`:
    /// elements in order of their first semantic index.
    fn clip_layout(
        &self,
        list: &[SignatureElement],
        e: &SignatureElement,
        stream: u32,
    ) -> (u32, u32) {
        let first = |x: &SignatureElement| x.semantic_indices.first().copied().unwrap_or(0);
        let mut total = 0;
        let mut base = 0;
        for o in list {
            if o.semantic_kind != e.semantic_kind || o.output_stream != stream {
                continue;
            }
            let n = o.rows.saturating_mul(u32::from(o.cols));
            total += n;
            if first(o) < first(e) {
                base += n;
            }
        }
        (total.clamp(1, 8), base)
    }

    /// The declaration of a built-in, made once per direction and stream.
    pub(crate) fn builtin_decl(
        &mut self,
        b: BuiltIn,
        output: bool,
        stream: u32,
        count: u32,
        arrayed: Option<u32>,
        modes: InterpolationModes,
    ) -> R<SsaDef> {
        let key = (output, b.to_literal() as u32, stream);
        if let Some(&d) = self.io.builtins.get(&key) {
            return Ok(d);
        }
        let (sty, vec, arr) = builtin_shape(b, count);
        let mut ty = Type::vector(sty, vec);
        if arr > 0 {
            ty = ty.array_of(arr).map_err(|e| self.type_error(e))?;
        }
        if let Some(n) = arrayed {
            ty = ty.array_of(n).map_err(|e| self.type_error(e))?;
        }
        let mut modes = modes;
        if !self.is(ShaderKind::Pixel) || output {
            modes = InterpolationModes::empty();
        } else if sty != ScalarType::F32 {
            modes = InterpolationModes::Flat;
        }
        let ep = self.ep;
        let op = if output {
            Op::new(OpCode::DclOutputBuiltIn, ty)
                .with_ref(ep)
                .with_lit(b.to_literal())
                .with_lit(u64::from(stream))
        } else {
            Op::new(OpCode::DclInputBuiltIn, ty)
                .with_ref(ep)
                .with_lit(b.to_literal())
                .with_lit(modes.to_literal())
        };
        let d = self.decl(op);
        self.name(d, b.name());
        self.io.builtins.insert(key, d);
        Ok(d)
    }

    /// A built-in input read by an operation (not in a signature).
    pub(crate) fn builtin_input(&mut self, b: BuiltIn, modes: InterpolationModes) -> R<SsaDef> {
        let stage = super::stages::ir_stage(self.stage);
        if !b.exists_in(stage, false) {
            return Err(self.invalid(format!(
                "{} does not exist in {} shaders",
                b.name(),
                self.stage.name()
            )));
        }
        self.builtin_decl(b, false, 0, 1, None, modes)
    }

    /// Loads a whole scalar or one component of a vector built-in input.
    fn load_builtin(&mut self, b: BuiltIn, component: Option<SsaDef>) -> R<SsaDef> {
        let d = self.builtin_input(b, InterpolationModes::empty())?;
        let (sty, _, _) = builtin_shape(b, 1);
        Ok(self.code(
            Op::new(OpCode::InputLoad, sty)
                .with_ref(d)
                .with_opt_ref(component),
        ))
    }

    /// The address of component `(row, col)` of element `e` at `vertex`.
    fn element_address(
        &mut self,
        e: &IoElem,
        vertex: Option<SsaDef>,
        row: SsaDef,
        col: u32,
    ) -> R<Option<SsaDef>> {
        let mut parts = smallvec::SmallVec::<[SsaDef; 3]>::new();
        if e.arrayed {
            let v = match vertex {
                Some(v) => v,
                None if e.output && self.is(ShaderKind::Hull) => {
                    self.load_builtin(BuiltIn::TessControlPointId, None)?
                }
                // A per-vertex pixel input read without a vertex: the provoking vertex.
                None if !e.output && self.is(ShaderKind::Pixel) => self.c_u32(0),
                None => {
                    return Err(self.invalid("per-vertex element accessed without a vertex index"))
                }
            };
            let n = self.b.op(e.decl).ty.dims().last().copied().unwrap_or(0);
            if let Some(k) = self.const_of(v).filter(|&k| k >= u64::from(n)) {
                return Err(self.invalid(format!("vertex {k} of an array of {n}")));
            }
            parts.push(v);
        }
        if col >= u32::from(e.cols) {
            return Err(self.invalid(format!(
                "column {col} of an element with {} columns",
                e.cols
            )));
        }
        if let Some(r) = self.const_of(row) {
            if r >= u64::from(e.rows) {
                return Err(self.invalid(format!("row {r} of an element with {} rows", e.rows)));
            }
        }
        match e.shape {
            Shape::User => {
                if e.rows > 1 {
                    parts.push(row);
                }
                if e.cols > 1 {
                    parts.push(self.c_u32(col));
                }
            }
            Shape::Vector => parts.push(self.c_u32(col)),
            Shape::Scalar => {}
            Shape::Array(base) => {
                let cols = u32::from(e.cols);
                let i = match self.const_of(row) {
                    Some(r) => self.c_u32(base + r as u32 * cols + col),
                    None => {
                        let k = self.c_u32(cols);
                        let m = self.op2(OpCode::IMul, ScalarType::U32, row, k);
                        let off = self.c_u32(base + col);
                        self.op2(OpCode::IAdd, ScalarType::U32, m, off)
                    }
                };
                parts.push(i);
            }
        }
        Ok(self.address(&parts))
    }

    /// Signature operations.
    pub(crate) fn io_op(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let id = self.arg_const(args, 1, "signature element id")? as u32;
        let row = self.arg_opt(args, 2)?.unwrap_or_else(|| self.c_u32(0));
        let col = self.arg_const(args, 3, "column").unwrap_or(0) as u32;
        match code {
            C::LOAD_INPUT | C::LOAD_OUTPUT_CONTROL_POINT | C::LOAD_PATCH_CONSTANT => {
                let (sig, vertex) = match code {
                    C::LOAD_INPUT => (Sig::Input, self.arg_opt(args, 4)?),
                    C::LOAD_OUTPUT_CONTROL_POINT => (Sig::Output, Some(self.arg_def(args, 4)?)),
                    _ => (Sig::Patch, None),
                };
                let e = self.element(sig, id)?;
                let vertex = if e.arrayed { vertex } else { None };
                let addr = self.element_address(&e, vertex, row, col)?;
                let opc = if e.output {
                    OpCode::OutputLoad
                } else {
                    OpCode::InputLoad
                };
                let v = self.code(Op::new(opc, e.scalar).with_ref(e.decl).with_opt_ref(addr));
                let want = self.scalar_of(inst.ty)?;
                let v = self.convert_scalar(v, e.scalar, want);
                self.set(inst.result(), Val::Def(v))
            }
            C::STORE_OUTPUT | C::STORE_PATCH_CONSTANT => {
                let sig = if code == C::STORE_OUTPUT {
                    Sig::Output
                } else {
                    Sig::Patch
                };
                let e = self.element(sig, id)?;
                if !e.output {
                    return Err(self.invalid("store to an input"));
                }
                let Some(v) = self.arg_opt(args, 4)? else {
                    return Ok(());
                };
                let from = self.b.op(v).ty.base_type().unwrap_or(ScalarType::U32);
                let v = self.convert_scalar(v, from, e.scalar);
                let addr = self.element_address(&e, None, row, col)?;
                self.code(
                    Op::new(OpCode::OutputStore, Type::VOID)
                        .with_ref(e.decl)
                        .with_opt_ref(addr)
                        .with_ref(v),
                );
                Ok(())
            }
            C::EVAL_SNAPPED | C::EVAL_SAMPLE_INDEX | C::EVAL_CENTROID => {
                let e = self.element(Sig::Input, id)?;
                if e.shape != Shape::User || e.output {
                    return Err(self.invalid("attribute evaluation of a built-in"));
                }
                let addr = self.element_address(&e, None, row, col)?;
                let op = match code {
                    C::EVAL_CENTROID => Op::new(OpCode::InterpolateAtCentroid, e.scalar)
                        .with_ref(e.decl)
                        .with_opt_ref(addr),
                    C::EVAL_SAMPLE_INDEX => {
                        let s = self.arg_def(args, 4)?;
                        Op::new(OpCode::InterpolateAtSample, e.scalar)
                            .with_ref(e.decl)
                            .with_opt_ref(addr)
                            .with_ref(s)
                    }
                    _ => {
                        // Offsets in 1/16 pixel, as signed 4-bit values.
                        let mut xy = [self.c_f32(0.0); 2];
                        for (k, o) in xy.iter_mut().enumerate() {
                            let a = self.arg_def(args, 4 + k)?;
                            let s = self.op1(OpCode::Cast, ScalarType::I32, a);
                            let f = self.op1(OpCode::ConvertItoF, ScalarType::F32, s);
                            let sixteenth = self.c_f32(1.0 / 16.0);
                            *o = self.op2(OpCode::FMul, ScalarType::F32, f, sixteenth);
                        }
                        let off = self.vector(ScalarType::F32, &xy);
                        Op::new(OpCode::InterpolateAtOffset, e.scalar)
                            .with_ref(e.decl)
                            .with_opt_ref(addr)
                            .with_ref(off)
                    }
                };
                let v = self.code(op);
                let want = self.scalar_of(inst.ty)?;
                let v = self.convert_scalar(v, e.scalar, want);
                self.set(inst.result(), Val::Def(v))
            }
            _ => Err(self.invalid("not a signature operation")),
        }
    }

    /// A mesh shader's `StoreVertexOutput` or `StorePrimitiveOutput` (element, row, column,
    /// value) at vertex or primitive `index`.
    pub(crate) fn store_arrayed_output(&mut self, sig: Sig, args: &Args, index: SsaDef) -> R<()> {
        let id = self.arg_const(args, 1, "signature element id")? as u32;
        let row = self.arg_opt(args, 2)?.unwrap_or_else(|| self.c_u32(0));
        let col = self.arg_const(args, 3, "column")? as u32;
        let e = self.element(sig, id)?;
        if !e.output || !e.arrayed {
            return Err(self.invalid("store to an element that is not a mesh output"));
        }
        let Some(v) = self.arg_opt(args, 4)? else {
            return Ok(());
        };
        let from = self.b.op(v).ty.base_type().unwrap_or(ScalarType::U32);
        let v = if e.scalar == ScalarType::Bool && from != ScalarType::Bool {
            let zero = self.scalar_const(from, 0);
            self.op2(OpCode::INe, ScalarType::Bool, v, zero)
        } else {
            self.convert_scalar(v, from, e.scalar)
        };
        let addr = self.element_address(&e, Some(index), row, col)?;
        self.code(
            Op::new(OpCode::OutputStore, Type::VOID)
                .with_ref(e.decl)
                .with_opt_ref(addr)
                .with_ref(v),
        );
        Ok(())
    }

    /// `AttributeAtVertex` (element, row, column, vertex): a read of a per-vertex input.
    pub(crate) fn load_input_at_vertex(
        &mut self,
        args: &Args,
        vertex: SsaDef,
        inst: &'s Instruction,
    ) -> R<()> {
        let id = self.arg_const(args, 1, "signature element id")? as u32;
        let row = self.arg_opt(args, 2)?.unwrap_or_else(|| self.c_u32(0));
        let col = self.arg_const(args, 3, "column")? as u32;
        let e = self.element(Sig::Input, id)?;
        if e.shape != Shape::User || !e.arrayed {
            return Err(self.invalid("AttributeAtVertex of an input that is not per vertex"));
        }
        let addr = self.element_address(&e, Some(vertex), row, col)?;
        let v = self.code(
            Op::new(OpCode::InputLoad, e.scalar)
                .with_ref(e.decl)
                .with_opt_ref(addr),
        );
        let want = self.scalar_of(inst.ty)?;
        let v = self.convert_scalar(v, e.scalar, want);
        self.set(inst.result(), Val::Def(v))
    }

    /// System values read through operations.
    pub(crate) fn system_value_op(
        &mut self,
        code: u32,
        args: &Args,
        inst: &'s Instruction,
    ) -> R<()> {
        let component = |me: &mut Self| -> R<SsaDef> {
            let c = me.arg_const(args, 1, "component")? as u32;
            if c > 2 {
                return Err(me.invalid(format!("component {c} of a three-component value")));
            }
            Ok(me.c_u32(c))
        };
        let v = match code {
            C::THREAD_ID => {
                let c = component(self)?;
                self.load_builtin(BuiltIn::GlobalThreadId, Some(c))?
            }
            C::GROUP_ID => {
                let c = component(self)?;
                self.load_builtin(BuiltIn::WorkgroupId, Some(c))?
            }
            C::THREAD_ID_IN_GROUP => {
                let c = component(self)?;
                self.load_builtin(BuiltIn::LocalThreadId, Some(c))?
            }
            C::FLATTENED_THREAD_ID_IN_GROUP => {
                self.load_builtin(BuiltIn::LocalThreadIndex, None)?
            }
            C::DOMAIN_LOCATION => {
                let c = component(self)?;
                let v = self.load_builtin(BuiltIn::TessCoord, Some(c))?;
                let want = self.scalar_of(inst.ty)?;
                self.convert_scalar(v, ScalarType::F32, want)
            }
            C::SAMPLE_INDEX => self.load_builtin(BuiltIn::SampleId, None)?,
            C::COVERAGE => self.load_builtin(BuiltIn::SampleMask, None)?,
            C::INNER_COVERAGE => {
                let b = self.load_builtin(BuiltIn::IsFullyCovered, None)?;
                self.convert_scalar(b, ScalarType::Bool, ScalarType::U32)
            }
            C::GS_INSTANCE_ID => self.load_builtin(BuiltIn::GsInstanceId, None)?,
            C::OUTPUT_CONTROL_POINT_ID => self.load_builtin(BuiltIn::TessControlPointId, None)?,
            C::PRIMITIVE_ID => self.load_builtin(BuiltIn::PrimitiveId, None)?,
            C::VIEW_ID => self.load_builtin(BuiltIn::ViewId, None)?,
            C::START_VERTEX_LOCATION => self.load_builtin(BuiltIn::StartVertexLocation, None)?,
            C::START_INSTANCE_LOCATION => {
                self.load_builtin(BuiltIn::StartInstanceLocation, None)?
            }
            _ => return Err(self.invalid("not a system value operation")),
        };
        self.set(inst.result(), Val::Def(v))
    }
}
