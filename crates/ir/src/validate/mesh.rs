//! Mesh and amplification shaders (Shader Model 6.5): output limits and topology, the two
//! output streams of a mesh shader (per vertex and per primitive, each an array), and the
//! payload, which only the amplification shader writes.

use super::{Rule, Validator};
use crate::enums::{BuiltIn, PrimitiveType, ShaderStage};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;

/// Direct3D's largest output vertex and primitive counts of a mesh shader.
pub const MAX_MESH_OUTPUTS: u64 = 256;

/// True if [`Validator::check_mesh_rules`] has a rule for `op`.
pub(super) const fn has_mesh_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(
        op,
        SetMsOutputs | DclOutput | DclOutputBuiltIn | LdsStore | LdsAtomic | DclMeshPayload
    )
}

impl Validator<'_> {
    /// Mesh output limits, output streams and shapes, payload writes and count.
    pub(super) fn check_mesh_rules(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        let mesh = self.stage == Some(ShaderStage::Mesh);
        match op.opcode {
            SetMsOutputs => {
                let nref = op.ref_count();
                for k in 0..2 {
                    if let Some(n) = op.lit(k).filter(|&n| n > MAX_MESH_OUTPUTS) {
                        let detail = format!("{n} outputs (at most {MAX_MESH_OUTPUTS})");
                        self.err_at(def, op, nref + k, Rule::LiteralValue, detail);
                    }
                }
                let topology = op.lit(2).and_then(PrimitiveType::from_literal);
                if let Some(t) =
                    topology.filter(|t| !matches!(t, PrimitiveType::Line | PrimitiveType::Triangle))
                {
                    let detail = format!("mesh topology {t} (Line or Triangle)");
                    self.err_at(def, op, nref + 2, Rule::LiteralValue, detail);
                }
            }
            DclOutput | DclOutputBuiltIn if mesh => {
                let builtin = op.opcode == DclOutputBuiltIn;
                let stream_at = if builtin { 1 } else { 2 };
                let Some(stream) = op.lit(stream_at) else {
                    return;
                };
                let nref = op.ref_count();
                if stream > 1 {
                    let detail =
                        format!("mesh output stream {stream} (0: vertices, 1: primitives)");
                    self.err_at(def, op, nref + stream_at, Rule::LiteralValue, detail);
                } else if let Some(bi) = op
                    .lit(0)
                    .filter(|_| builtin)
                    .and_then(BuiltIn::from_literal)
                {
                    if bi.is_per_primitive() != (stream == 1) {
                        let want = if bi.is_per_primitive() { 1 } else { 0 };
                        let detail = format!("built-in {bi} in stream {stream}, not {want}");
                        self.err_at(def, op, nref + stream_at, Rule::LiteralValue, detail);
                    }
                }
                if op.ty.dims().last().is_none_or(|&n| n == 0) {
                    let detail = format!(
                        "{}: a mesh shader output is a sized array, an element per vertex or \
                         primitive",
                        op.ty
                    );
                    self.err(def, op, Rule::ResultType, detail);
                }
            }
            LdsStore | LdsAtomic
                if mesh
                    && self
                        .target(op, 0)
                        .is_some_and(|(_, d)| d.opcode == DclMeshPayload) =>
            {
                let detail = "a mesh shader may not write its payload".to_string();
                self.err_at(def, op, 0, Rule::OpStage, detail);
            }
            DclMeshPayload => {
                self.mesh_payloads += 1;
                if self.mesh_payloads > 1 {
                    let detail = "a program has at most one mesh payload".to_string();
                    self.err(def, op, Rule::MeshPayloadCount, detail);
                }
            }
            _ => {}
        }
    }
}
