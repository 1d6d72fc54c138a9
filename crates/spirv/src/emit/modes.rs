//! Execution modes: the execution model of each stage, the modes the `Set*` ops ask for,
//! and the ones a stage needs whatever the IR says.
//!
//! The modes are recorded in [`Module::modes`](super::module::Module::modes) and written by
//! [`super::finish`]. SPIR-V ties each mode to execution models; the dispatch refuses a
//! `Set*` op of another stage (`OpCode::stages`). A fragment shader is `OriginUpperLeft`, as
//! Vulkan requires and D3D's pixel coordinates are; a compute shader needs its `LocalSize`;
//! a geometry shader needs exactly one input primitive and gets an output primitive and
//! vertex count when the IR has none. D3D's tessellator winding is relative to its
//! upper-left origin, so a clockwise domain is `VertexOrderCcw`. `SetFpMode` becomes the
//! float-controls modes for its float width (core since SPIR-V 1.4), each with its
//! capability, when [`crate::SpirvOptions::float_controls`] is on.
//!
//! Derivatives outside pixel shaders (Shader Model 6.6): a compute shader that derives, or
//! samples with an implicit LOD, gets the derivative group its workgroup size forms
//! ([`DerivativeGroup`]): `DerivativeGroupQuadsNV` or `DerivativeGroupLinearNV` with its
//! capability and `SPV_NV_compute_shader_derivatives`. (`SPV_KHR_compute_shader_derivatives`
//! gives the same enumerants other names and adds mesh and task shaders; the SPIR-V tools
//! this project validates with know only the NV extension, which covers `GLCompute` alone,
//! so derivatives in mesh and amplification shaders are refused, naming the feature.)

use super::error::{malformed, unsupported, R};
use super::types::scalar_bits;
use super::Emitter;
use dxspv_ir::{
    DenormMode, DerivativeGroup, Op, OpFlags, PrimitiveType, RoundMode, ShaderStage, SsaDef,
    TessPartitioning, TessWindingOrder,
};
use spirv::{Capability, ExecutionMode as M};

/// The SPIR-V execution model of `stage`, if Vulkan has one the backend emits.
pub(super) fn exec_model(stage: ShaderStage) -> Option<spirv::ExecutionModel> {
    use spirv::ExecutionModel as E;
    Some(match stage {
        ShaderStage::Pixel => E::Fragment,
        ShaderStage::Vertex => E::Vertex,
        ShaderStage::Geometry => E::Geometry,
        ShaderStage::Hull => E::TessellationControl,
        ShaderStage::Domain => E::TessellationEvaluation,
        ShaderStage::Compute => E::GLCompute,
        ShaderStage::Mesh => E::MeshEXT,
        ShaderStage::Amplification => E::TaskEXT,
    })
}

impl<'a> Emitter<'a> {
    /// A `Set*` op that is the execution mode `mode`, without operands.
    pub(super) fn set_mode(&mut self, mode: M) -> R<()> {
        self.module.execution_mode(mode, &[]);
        Ok(())
    }

    /// Whether op `op` (a derivative, an LOD query or an implicit-LOD sample) derives over
    /// quads in this stage: always in pixel shaders; in a compute shader whose workgroup
    /// forms a [`DerivativeGroup`] (whose execution mode, capability and extension this
    /// records), else not (an implicit-LOD sample then uses LOD 0); never in the other
    /// stages. Mesh and amplification shaders are refused (see the module doc).
    pub(super) fn derives_over_quads(&mut self, def: SsaDef, op: &Op) -> R<bool> {
        match self.stage {
            ShaderStage::Pixel => Ok(true),
            ShaderStage::Compute => {
                let group = self
                    .refl
                    .workgroup_size
                    .and_then(DerivativeGroup::of_workgroup);
                let (mode, cap) = match group {
                    Some(DerivativeGroup::Quads) => (
                        M::DerivativeGroupQuadsNV,
                        Capability::ComputeDerivativeGroupQuadsNV,
                    ),
                    Some(DerivativeGroup::Linear) => (
                        M::DerivativeGroupLinearNV,
                        Capability::ComputeDerivativeGroupLinearNV,
                    ),
                    None => return Ok(false),
                };
                if !self.module.modes.iter().any(|m| m.0 == mode as u32) {
                    self.module.execution_mode(mode, &[]);
                    self.module.cap(cap);
                    self.module.ext("SPV_NV_compute_shader_derivatives");
                }
                Ok(true)
            }
            ShaderStage::Mesh | ShaderStage::Amplification => unsupported(
                def,
                op,
                "derivatives in mesh and amplification shaders \
                 (SPV_NV_compute_shader_derivatives covers compute shaders only)",
            ),
            _ => Ok(false),
        }
    }

    /// A derivative or LOD query, which needs quads ([`Self::derives_over_quads`]).
    pub(super) fn need_quads(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if self.derives_over_quads(def, op)? {
            return Ok(());
        }
        let stage = self.stage;
        malformed(
            def,
            op,
            format!("a derivative in a {stage} shader whose workgroup forms no quads"),
        )
    }

    /// `SetCsWorkgroupSize`: `LocalSize`.
    pub(super) fn set_cs_workgroup_size(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let x = self.count_lit(def, op, 0)?;
        let y = self.count_lit(def, op, 1)?;
        let z = self.count_lit(def, op, 2)?;
        self.module.execution_mode(M::LocalSize, &[x, y, z]);
        self.refl.workgroup_size = Some([x, y, z]);
        Ok(())
    }

    /// `SetGsInstances`: `Invocations`.
    pub(super) fn set_gs_instances(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let n = self.count_lit(def, op, 0)?;
        self.module.execution_mode(M::Invocations, &[n]);
        Ok(())
    }

    /// `SetGsInputPrimitive`: the input primitive mode.
    pub(super) fn set_gs_input_primitive(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
            Some(PrimitiveType::Point) => M::InputPoints,
            Some(PrimitiveType::Line) => M::InputLines,
            Some(PrimitiveType::LineAdj) => M::InputLinesAdjacency,
            Some(PrimitiveType::Triangle) => M::Triangles,
            Some(PrimitiveType::TriangleAdj) => M::InputTrianglesAdjacency,
            _ => return unsupported(def, op, "GS input primitive"),
        };
        self.module.execution_mode(m, &[]);
        Ok(())
    }

    /// `SetGsOutputVertices`: `OutputVertices`.
    pub(super) fn set_gs_output_vertices(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let n = self.count_lit(def, op, 0)?;
        self.module.execution_mode(M::OutputVertices, &[n]);
        Ok(())
    }

    /// `SetGsOutputPrimitive`: the output primitive mode; a stream mask past stream 0 makes
    /// the shader write several streams (`GeometryStreams`).
    pub(super) fn set_gs_output_primitive(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
            Some(PrimitiveType::Point) => M::OutputPoints,
            Some(PrimitiveType::Line) => M::OutputLineStrip,
            Some(PrimitiveType::Triangle) => M::OutputTriangleStrip,
            _ => return unsupported(def, op, "GS output primitive"),
        };
        let mask = op.lit(1).unwrap_or(1);
        if mask & !1 != 0 {
            self.multi_stream = true;
            self.module.cap(Capability::GeometryStreams);
        }
        self.module.execution_mode(m, &[]);
        Ok(())
    }

    /// `SetTessPrimitive`: point mode, the winding of triangles (flipped, see the module
    /// doc) and the spacing.
    pub(super) fn set_tess_primitive(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let prim = PrimitiveType::from_literal(self.lit(def, op, 0)?);
        if prim == Some(PrimitiveType::Point) {
            self.module.execution_mode(M::PointMode, &[]);
        }
        if prim == Some(PrimitiveType::Triangle) {
            // D3D's winding is relative to an upper-left origin: flip it.
            let m = match TessWindingOrder::from_literal(self.lit(def, op, 1)?) {
                Some(TessWindingOrder::Cw) => M::VertexOrderCcw,
                _ => M::VertexOrderCw,
            };
            self.module.execution_mode(m, &[]);
        }
        let m = match TessPartitioning::from_literal(self.lit(def, op, 2)?) {
            Some(TessPartitioning::FractOdd) => M::SpacingFractionalOdd,
            Some(TessPartitioning::FractEven) => M::SpacingFractionalEven,
            _ => M::SpacingEqual,
        };
        self.module.execution_mode(m, &[]);
        Ok(())
    }

    /// `SetTessDomain`: `Triangles`, `Quads` or `Isolines`.
    pub(super) fn set_tess_domain(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
            Some(PrimitiveType::Triangle) => M::Triangles,
            Some(PrimitiveType::Quad) => M::Quads,
            Some(PrimitiveType::Line) => M::Isolines,
            _ => return unsupported(def, op, "tessellation domain"),
        };
        self.module.execution_mode(m, &[]);
        Ok(())
    }

    /// `SetTessControlPoints`: a hull shader's output patch size (`OutputVertices`); a
    /// domain shader's input patch needs no mode.
    pub(super) fn set_tess_control_points(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if self.stage == ShaderStage::Hull {
            let n = self.count_lit(def, op, 1)?;
            self.module.execution_mode(M::OutputVertices, &[n]);
        }
        Ok(())
    }

    /// `SetFpMode` → float-controls execution modes for the declared width.
    pub(super) fn set_fp_mode(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if !self.opts.float_controls {
            return Ok(());
        }
        let Some(st) = op.ty.base_type().filter(|t| t.is_float()) else {
            return malformed(def, op, "SetFpMode on a non-float type");
        };
        let width = scalar_bits(st);
        let round = RoundMode::from_literal(self.lit(def, op, 0)?);
        let denorm = DenormMode::from_literal(self.lit(def, op, 1)?);
        let add = |e: &mut Self, c: Capability, m: M| {
            e.module.cap(c);
            e.module.execution_mode(m, &[width]);
        };
        match round {
            Some(RoundMode::NearestEven) => {
                add(self, Capability::RoundingModeRTE, M::RoundingModeRTE)
            }
            Some(RoundMode::Zero) => add(self, Capability::RoundingModeRTZ, M::RoundingModeRTZ),
            _ => {}
        }
        match denorm {
            Some(DenormMode::Preserve) => add(self, Capability::DenormPreserve, M::DenormPreserve),
            Some(DenormMode::Flush) => {
                add(self, Capability::DenormFlushToZero, M::DenormFlushToZero)
            }
            None => {}
        }
        if op.flags.contains(OpFlags::PRECISE) {
            add(
                self,
                Capability::SignedZeroInfNanPreserve,
                M::SignedZeroInfNanPreserve,
            );
        }
        Ok(())
    }

    /// The modes the stage needs whatever the IR said (see the module doc), once every op
    /// was emitted.
    pub(super) fn complete_execution_modes(&mut self, entry: SsaDef) -> R<()> {
        let has = |e: &Self, m: M| e.module.modes.iter().any(|x| x.0 == m as u32);
        if self.stage.has_workgroups()
            && self.stage != ShaderStage::Hull
            && !has(self, M::LocalSize)
        {
            let op = self.b.op(entry);
            let stage = self.stage;
            return malformed(
                entry,
                op,
                format!("a {stage} shader needs a SetCsWorkgroupSize"),
            );
        }
        self.complete_mesh_modes(entry)?;
        if self.stage == ShaderStage::Geometry {
            let ins = [
                M::InputPoints as u32,
                M::InputLines as u32,
                M::InputLinesAdjacency as u32,
                M::Triangles as u32,
                M::InputTrianglesAdjacency as u32,
            ];
            if self
                .module
                .modes
                .iter()
                .filter(|m| ins.contains(&m.0))
                .count()
                != 1
            {
                let op = self.b.op(entry);
                return malformed(
                    entry,
                    op,
                    "a geometry shader needs exactly one SetGsInputPrimitive",
                );
            }
            let outs = [
                M::OutputPoints as u32,
                M::OutputLineStrip as u32,
                M::OutputTriangleStrip as u32,
            ];
            if !self.module.modes.iter().any(|m| outs.contains(&m.0)) {
                self.module.execution_mode(M::OutputPoints, &[]);
            }
            if !has(self, M::OutputVertices) {
                self.module.execution_mode(M::OutputVertices, &[1]);
            }
            // Vulkan wants the invocation count declared, also for one instance.
            if !has(self, M::Invocations) {
                self.module.execution_mode(M::Invocations, &[1]);
            }
        }
        if self.stage == ShaderStage::Pixel {
            self.module
                .modes
                .insert(0, (M::OriginUpperLeft as u32, [0; 3], 0));
        }
        Ok(())
    }
}
