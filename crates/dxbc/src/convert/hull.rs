//! Hull and domain shaders: phases, instance counts and tessellator state.
//!
//! The hull shader's control point phase becomes the entry point's first function (a
//! pass-through copying every output signature element from the matching input is generated
//! when the shader has no control point phase). Each fork or join phase becomes a function
//! taking its instance id (`vForkInstanceID` / `vJoinInstanceID`) as a parameter; the patch
//! constant function calls every phase once per instance, in program order, which is what
//! the IR contract asks for. The maximum tessellation factor clamps every tess factor store.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, PrimitiveType, ScalarType, SsaDef, TessWindingOrder, Type};

use super::io::IoFile;
use super::registers::Ix;
use super::{limits, partitioning, Converter, R};
use crate::decode::Stage;
use crate::enums::{TessDomain, TessOutputPrimitive, TessPartitioning};
use crate::{Instruction, Opcode, Payload};

/// Most phase instances the patch constant function calls.
const MAX_PHASE_CALLS: u32 = 4096;

/// Hull and domain shader state.
#[derive(Default)]
pub(crate) struct HullState {
    /// The program has a control point phase.
    pub has_cp_phase: bool,
    /// The current phase is a fork or join phase (`o#` are patch constants).
    pub in_patch_phase: bool,
    /// Fork and join phases: function, instance id parameter, instance count.
    pub phases: Vec<(SsaDef, SsaDef, u32)>,
    /// The control point phase function.
    pub cp_fn: Option<SsaDef>,
    /// `dcl_hs_max_tessfactor`.
    pub max_tess_factor: Option<f32>,
    /// `dcl_tessellator_domain`.
    pub domain: Option<TessDomain>,
    /// `dcl_tessellator_partitioning`.
    pub partitioning: Option<TessPartitioning>,
    /// `dcl_tessellator_output_primitive`.
    pub output: Option<TessOutputPrimitive>,
}

impl Converter<'_, '_> {
    /// Hull and domain shader declarations.
    pub(crate) fn hull_declaration(&mut self, inst: &Instruction<'_>) -> R<()> {
        match inst.payload {
            Payload::TessDomain(d) => self.hs.domain = Some(d),
            Payload::TessPartitioning(p) => self.hs.partitioning = Some(p),
            Payload::TessOutputPrimitive(p) => self.hs.output = Some(p),
            Payload::HsMaxTessFactor(f) if f.is_finite() && f < 64.0 => {
                self.hs.max_tess_factor = Some(f.max(1.0));
            }
            // An output patch has at least one control point (Vulkan's patch size too).
            Payload::ControlPointCount(n)
                if n > limits::MAX_CONTROL_POINTS
                    || (n == 0 && inst.opcode == Opcode::DclOutputControlPointCount) =>
            {
                return Err(self.invalid(format!(
                    "control point count {n} is outside {} to {}",
                    u32::from(inst.opcode == Opcode::DclOutputControlPointCount),
                    limits::MAX_CONTROL_POINTS
                )));
            }
            Payload::HsPhaseInstanceCount(n) => {
                let Some(last) = self.hs.phases.last_mut() else {
                    return Err(self.invalid("phase instance count outside a fork or join phase"));
                };
                last.2 = n;
            }
            _ => {}
        }
        Ok(())
    }

    /// `hs_control_point_phase`, `hs_fork_phase`, `hs_join_phase`: starts the phase function.
    pub(crate) fn begin_hs_phase(&mut self, opcode: Opcode) -> R<()> {
        if self.stage != Stage::Hull {
            return Err(self.invalid("hull shader phase outside a hull shader"));
        }
        self.end_function()?;
        self.itemps.clear();
        if opcode == Opcode::HsControlPointPhase {
            if self.hs.cp_fn.is_some() {
                return Err(self.invalid("second control point phase"));
            }
            self.hs.in_patch_phase = false;
            let f = self.begin_function(&[], "hs_control_point_phase")?;
            self.hs.cp_fn = Some(f);
            return Ok(());
        }
        self.hs.in_patch_phase = true;
        let param = self.decl(Op::new(OpCode::DclParam, ScalarType::U32));
        let (kind, id) = if opcode == Opcode::HsForkPhase {
            ("fork", "vForkInstanceID")
        } else {
            ("join", "vJoinInstanceID")
        };
        self.name(param, id);
        let name = format!("hs_{kind}_phase{}", self.hs.phases.len());
        let f = self.begin_function(&[param], &name)?;
        self.hs.phases.push((f, param, 1));
        Ok(())
    }

    /// The instance id of the current fork or join phase.
    pub(crate) fn phase_instance_id(&mut self) -> R<SsaDef> {
        let Some(&(f, p, _)) = self.hs.phases.last() else {
            return Err(self.invalid("phase instance id outside a fork or join phase"));
        };
        if self.func != Some(f) {
            return Err(self.invalid("phase instance id outside its phase"));
        }
        Ok(self.code(
            Op::new(OpCode::ParamLoad, ScalarType::U32)
                .with_ref(f)
                .with_ref(p),
        ))
    }

    /// Builds the control point function (if the shader has none) and the patch constant
    /// function: `(control point, patch constant)`.
    pub(crate) fn finish_hull(&mut self) -> R<(SsaDef, SsaDef)> {
        let cp = match self.hs.cp_fn {
            Some(f) => f,
            None => self.passthrough_control_points()?,
        };
        self.hs.in_patch_phase = true;
        let pc = self.begin_function(&[], "hs_patch_constant")?;
        let phases = std::mem::take(&mut self.hs.phases);
        let mut calls = 0u32;
        for &(f, _, count) in &phases {
            calls = calls.saturating_add(count);
            if calls > MAX_PHASE_CALLS {
                return Err(self.invalid(format!("{calls} phase instances is too many")));
            }
            for i in 0..count {
                let id = self.c_u32(i);
                self.code(
                    Op::new(OpCode::FunctionCall, Type::VOID)
                        .with_ref(f)
                        .with_ref(id),
                );
            }
        }
        self.hs.phases = phases;
        self.end_function()?;
        Ok((cp, pc))
    }

    /// The implicit control point phase: copies each output control point element from the
    /// input control point with the same register.
    fn passthrough_control_points(&mut self) -> R<SsaDef> {
        self.hs.in_patch_phase = false;
        let f = self.begin_function(&[], "hs_control_point_passthrough")?;
        let shader = self.shader;
        if let Some(sig) = shader.output_signature.as_ref() {
            let (id, _) = self.builtin_decl(
                dxspv_ir::BuiltIn::TessControlPointId,
                false,
                0,
                1,
                None,
                dxspv_ir::InterpolationModes::empty(),
            )?;
            let cp = self.code(
                Op::new(OpCode::InputLoad, ScalarType::U32)
                    .with_ref(id)
                    .with_opt_ref(None),
            );
            for e in &sig.elements {
                let vals = self.load_io_at(
                    IoFile::Input,
                    Some(Ix::D(cp)),
                    e.register,
                    e.mask,
                    ScalarType::Unknown,
                )?;
                let mut dst = crate::Operand {
                    ty: crate::OperandType::Output,
                    components: crate::Components::Mask(e.mask & 0xf),
                    index_count: 1,
                    ..crate::Operand::default()
                };
                dst.indices[0].imm = e.register as u64;
                self.store_dst(&dst, &vals, ScalarType::Unknown)?;
            }
        }
        self.end_function()?;
        Ok(f)
    }

    /// Emits the tessellator mode ops.
    pub(crate) fn finish_tess_modes(&mut self) {
        let ep = self.ep;
        if let Some(d) = self.hs.domain {
            let p = match d {
                TessDomain::Isoline => Some(PrimitiveType::Line),
                TessDomain::Tri => Some(PrimitiveType::Triangle),
                TessDomain::Quad => Some(PrimitiveType::Quad),
                TessDomain::Undefined => None,
            };
            if let Some(p) = p {
                self.decl(
                    Op::new(OpCode::SetTessDomain, Type::VOID)
                        .with_ref(ep)
                        .with_lit(p.to_literal()),
                );
            }
        }
        if self.stage != Stage::Hull {
            return;
        }
        let (prim, winding) = match self.hs.output {
            Some(TessOutputPrimitive::Point) => (Some(PrimitiveType::Point), TessWindingOrder::Cw),
            Some(TessOutputPrimitive::Line) => (Some(PrimitiveType::Line), TessWindingOrder::Cw),
            Some(TessOutputPrimitive::TriangleCw) => {
                (Some(PrimitiveType::Triangle), TessWindingOrder::Cw)
            }
            Some(TessOutputPrimitive::TriangleCcw) => {
                (Some(PrimitiveType::Triangle), TessWindingOrder::Ccw)
            }
            _ => (None, TessWindingOrder::Cw),
        };
        if let Some(prim) = prim {
            let part = partitioning(self.hs.partitioning.unwrap_or(TessPartitioning::Integer));
            self.decl(
                Op::new(OpCode::SetTessPrimitive, Type::VOID)
                    .with_ref(ep)
                    .with_lit(prim.to_literal())
                    .with_lit(winding.to_literal())
                    .with_lit(part.to_literal()),
            );
        }
        let (n_in, n_out) = (self.hs_in as u64, self.hs_out as u64);
        self.decl(
            Op::new(OpCode::SetTessControlPoints, Type::VOID)
                .with_ref(ep)
                .with_lit(n_in)
                .with_lit(n_out),
        );
    }
}
