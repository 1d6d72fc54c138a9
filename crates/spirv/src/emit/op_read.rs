//! Reading an IR op's operands, as [`Op::literals`], [`Op::lit`] and [`Op::arg`] read them,
//! through the operand list's slice: every emitter reads operands, and the slice is found
//! once, inline, where indexing the list itself goes through an out-of-line call.

use dxspv_ir::{Op, Operand, SsaDef};

/// The operand readers of the backend (see the module doc).
pub(super) trait OpRead {
    /// The literal operands ([`Op::literals`]).
    fn lits(&self) -> &[Operand];
    /// Literal operand `i` ([`Op::lit`]).
    fn lit_at(&self, i: usize) -> Option<u64>;
    /// Reference operand `i`, `None` if null or absent ([`Op::arg`]).
    fn arg_at(&self, i: usize) -> Option<SsaDef>;
}

impl OpRead for Op {
    #[inline(always)]
    fn lits(&self) -> &[Operand] {
        let all: &[Operand] = &self.operands;
        all.get(self.ref_count()..).unwrap_or(&[])
    }

    #[inline(always)]
    fn lit_at(&self, i: usize) -> Option<u64> {
        self.lits().get(i).map(|o| o.0)
    }

    #[inline(always)]
    fn arg_at(&self, i: usize) -> Option<SsaDef> {
        let all: &[Operand] = &self.operands;
        if i < self.ref_count() {
            all.get(i).and_then(|o| o.def())
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxspv_ir::{OpCode, Type};

    #[test]
    fn readers_match_the_op_accessors() {
        let mut ops = Vec::new();
        let a = SsaDef::new(3).unwrap_or_else(|| unreachable!());
        ops.push(
            Op::new(OpCode::Constant, Type::VOID)
                .with_lit(7)
                .with_lit(9),
        );
        ops.push(Op::new(OpCode::IAdd, Type::VOID).with_ref(a).with_ref(a));
        ops.push(
            Op::new(OpCode::Semantic, Type::VOID)
                .with_ref(a)
                .with_lit(1)
                .with_lit(2)
                .with_lit(3)
                .with_lit(4)
                .with_lit(5),
        );
        for op in &ops {
            assert_eq!(op.lits(), op.literals());
            for i in 0..8 {
                assert_eq!(op.lit_at(i), op.lit(i));
                assert_eq!(op.arg_at(i), op.arg(i));
            }
        }
    }
}
