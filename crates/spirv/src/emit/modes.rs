//! Execution modes: the execution model of each stage and the modes the `Set*` ops ask for.
//!
//! `SetFpMode` becomes the float-controls modes for its float width (core since SPIR-V 1.4),
//! each with its capability, when [`crate::SpirvOptions::float_controls`] is on.

use super::error::{malformed, R};
use super::types::scalar_bits;
use super::Emitter;
use dxspv_ir::{DenormMode, Op, OpFlags, RoundMode, ShaderStage, SsaDef};
use spirv::Capability;

pub(super) fn exec_model(stage: ShaderStage) -> Option<spirv::ExecutionModel> {
    use spirv::ExecutionModel as E;
    Some(match stage {
        ShaderStage::Pixel => E::Fragment,
        ShaderStage::Vertex => E::Vertex,
        ShaderStage::Geometry => E::Geometry,
        ShaderStage::Hull => E::TessellationControl,
        ShaderStage::Domain => E::TessellationEvaluation,
        ShaderStage::Compute => E::GLCompute,
        _ => return None,
    })
}

impl<'a> Emitter<'a> {
    /// `SetFpMode` → float-controls execution modes for the declared width.
    pub(super) fn set_fp_mode(&mut self, def: SsaDef, op: &Op) -> R<()> {
        use spirv::ExecutionMode as M;
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
            e.module.modes.push((m as u32, [width, 0, 0], 1));
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
}
