//! Waves and quads (Shader Model 6): the operation a reduction or scan applies against the
//! type it applies to, the values lanes compare, and the wave sizes a shader asks for. The
//! operand types are the opcode table's; these are the rules it does not state.

use super::{Rule, Validator};
use crate::enums::WaveOp;
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::types::ScalarType;

/// True if `n` is a wave size Direct3D allows: a power of two from 4 to 128.
fn is_wave_size(n: u64) -> bool {
    n.is_power_of_two() && (4..=128).contains(&n)
}

/// True if [`Validator::check_subgroup_ops`] has a rule for `op`.
pub(super) const fn has_subgroup_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(
        op,
        WaveActiveOp | WavePrefixOp | WaveMultiPrefixOp | WaveAllEqual | WaveMatch | SetWaveSize
    )
}

impl Validator<'_> {
    /// Wave and quad ops: reductions and scans on types their operation takes, compared
    /// values that are numbers or `bool`s, wave sizes in Direct3D's range.
    pub(super) fn check_subgroup_ops(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        use ScalarType as S;
        let rt = &op.ty;
        match op.opcode {
            WaveActiveOp | WavePrefixOp | WaveMultiPrefixOp => {
                let Some(wop) = op.lit(0).and_then(WaveOp::from_literal) else {
                    return;
                };
                let ok = if wop.is_float() {
                    self.basic_of(rt, S::is_float)
                } else if wop.is_bitwise() {
                    self.basic_of(rt, |s| s.is_int() || s == S::Bool)
                } else {
                    self.basic_of(rt, S::is_int)
                };
                if !ok {
                    let what = if wop.is_float() {
                        "floats"
                    } else if wop.is_bitwise() {
                        "integers or bools"
                    } else {
                        "integers"
                    };
                    let detail = format!("{wop} takes {what}, found {rt}");
                    self.err(def, op, Rule::ResultType, detail);
                }
            }
            WaveAllEqual | WaveMatch => {
                self.want_type(def, op, 0, "a scalar or vector", |v, t| {
                    v.basic_of(t, |s| s.is_numeric() || s == S::Bool)
                });
            }
            SetWaveSize => {
                let (Some(min), Some(max), Some(preferred)) = (op.lit(0), op.lit(1), op.lit(2))
                else {
                    return;
                };
                let nref = op.ref_count();
                for (k, n) in [(0, min), (1, max)] {
                    if !is_wave_size(n) {
                        let detail = format!("wave size {n} (a power of two from 4 to 128)");
                        self.err_at(def, op, nref + k, Rule::LiteralValue, detail);
                    }
                }
                if min > max {
                    let detail = format!("wave sizes {min} to {max}");
                    self.err_at(def, op, nref + 1, Rule::LiteralValue, detail);
                }
                if preferred != 0 && (!is_wave_size(preferred) || !(min..=max).contains(&preferred))
                {
                    let detail = format!("preferred wave size {preferred} outside {min} to {max}");
                    self.err_at(def, op, nref + 2, Rule::LiteralValue, detail);
                }
            }
            _ => {}
        }
    }
}
