//! `scoped_to_structured`: lowers `Scoped*` control flow to `Label` blocks with SPIR-V style
//! structured constructs (spec: "Structured control flow instructions").
//!
//! # Algorithm
//! One walk over the program in order, with a stack of the open scopes and the *current block*
//! (the last `Label` seen, or none after a terminator). The walk rewrites in place:
//!
//! - Every `Label` met while a block is open gets a fall-through `Branch` to it first. Every
//!   other code op met while no block is open (code after a `Return`, a break or a continue)
//!   gets a fresh `Label None` first: that block is unreachable, and unreachable blocks are
//!   removed at the end of the pass (see `cfg_cleanup`), as SPIR-V's rules for back edges
//!   count a dead block branching into a loop.
//! - `ScopedIf %end %cond`: the current block becomes the selection header
//!   `Label StructuredSelection %merge` (a new block is split off if it already heads a
//!   construct), ending in `BranchConditional %cond %then %merge`; `%then` starts right after.
//!   The merge label is inserted right before the `ScopedEndIf` (found through the `%end`
//!   operand), so the walk meets it later like any label. `ScopedElse` ends the then-part with a
//!   branch to the merge, starts the else block and points the conditional's false edge at it.
//! - `ScopedLoop %end`: a header `Label StructuredLoop %merge %continue` holding only a branch to
//!   a fresh body block. Before `ScopedEndLoop` go the continue block (`Branch %header`, the one
//!   back edge) and the merge block. `ScopedLoopBreak`/`ScopedLoopContinue` branch to the merge /
//!   continue target of the innermost loop (SPIR-V allows no other loop exits).
//! - `ScopedSwitch %end %value`: the current block becomes the selection header ending in
//!   `Switch %value %default (%case_value %case_label)...`, with case values as `Constant`s of
//!   the selector type (`u32` if still `Unknown`). Each `ScopedSwitchCase`/`ScopedSwitchDefault`
//!   starts a case block; consecutive case labels with no code between them share one block; a
//!   case that falls through branches to the next case block (SPIR-V's fall-through, the target
//!   listed right after it); a missing default is the merge block. `ScopedSwitchBreak` branches
//!   to the merge of the innermost switch, which must be the innermost breakable construct.
//! - An open block at `FunctionEnd` gets `Return` in a `void` function.
//!
//! Finally the `Scoped*` ops (and debug names of them) are removed. Merge blocks of constructs
//! that never exit stay (possibly unreachable): `cfg_cleanup` reduces them to `Unreachable`.
//! Unbalanced or mismatched scopes are a [`PassError`]. The pass is linear in program size.

use crate::fxhash::FxHashSet;

use crate::builder::Builder;
use crate::enums::Construct;
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::lit_mask;
use crate::types::{ScalarType, Type};

const PASS: &str = "scoped_to_structured";

/// One open scope.
enum Scope {
    If {
        op: SsaDef,
        branch: SsaDef,
        merge: SsaDef,
        has_else: bool,
    },
    Loop {
        op: SsaDef,
        merge: SsaDef,
        cont: SsaDef,
    },
    Switch {
        op: SsaDef,
        switch: SsaDef,
        merge: SsaDef,
        selector: SsaDef,
        sel_ty: Type,
        default: Option<SsaDef>,
        cases: Vec<(SsaDef, SsaDef)>,
        values: FxHashSet<u64>,
        last_label: Option<SsaDef>,
    },
}

#[derive(Default)]
struct State {
    function: Option<SsaDef>,
    block: Option<SsaDef>,
    block_empty: bool,
    stack: Vec<Scope>,
    scoped: Vec<SsaDef>,
    changed: bool,
    /// A block was opened for code no branch reaches.
    dead_code: bool,
    /// Labels met in the current function, and whether a scoped op came before the second.
    labels: u32,
    scoped_seen: bool,
    /// A function in block form was met (a second label before any scoped op).
    block_form: bool,
}

/// Lowers all `Scoped*` control flow of `b` to structured blocks. Returns whether anything
/// changed (also true when only unreachable code got its own block).
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    run_finding_block_form(b).map(|(changed, _)| changed)
}

/// [`run`]; also says whether a function was already in block form (the pipeline then runs
/// `structurize`, which structures those in unstructured block form). Finding out costs
/// nothing extra: the walk meets every label anyway.
pub fn run_finding_block_form(b: &mut Builder) -> Result<(bool, bool), PassError> {
    let mut st = State::default();
    // Declarations are no step's business: the walk starts at the first code op.
    let mut cur = b.first_code();
    while let Some(p) = cur {
        step(b, &mut st, p)?;
        cur = b.next(p);
    }
    if let Some(f) = st.function {
        return Err(PassError::invalid(PASS, f, "function has no FunctionEnd"));
    }
    remove_scoped(b, &st.scoped)?;
    if st.dead_code {
        // A dead block (code after a return, break or continue) branching into a loop from
        // outside breaks SPIR-V's back-edge rules (which walk unreachable blocks too): such
        // blocks go now rather than in `cfg_cleanup`. Real shaders rarely have dead code.
        crate::passes::cfg_cleanup::remove_unreachable_blocks(b)?;
    }
    Ok((st.changed, st.block_form))
}

fn get(b: &Builder, def: SsaDef) -> Result<&Op, PassError> {
    b.get(def)
        .ok_or_else(|| PassError::invalid(PASS, def, "reference to a missing op"))
}

fn label(construct: Construct, refs: &[SsaDef]) -> Op {
    let mut op = Op::new(OpCode::Label, Type::VOID);
    for &r in refs {
        op = op.with_ref(r);
    }
    op.with_lit(construct.to_literal())
}

fn branch(target: SsaDef) -> Op {
    Op::new(OpCode::Branch, Type::VOID).with_ref(target)
}

fn step(b: &mut Builder, st: &mut State, p: SsaDef) -> Result<(), PassError> {
    let op = get(b, p)?;
    let opcode = op.opcode;
    if opcode.is_scoped() {
        if st.function.is_none() {
            return Err(PassError::invalid(
                PASS,
                p,
                "scoped control flow outside a function",
            ));
        }
        st.scoped.push(p);
        st.changed = true;
        st.scoped_seen = true;
        return scoped(b, st, p);
    }
    match opcode {
        OpCode::Function => {
            if let Some(f) = st.function {
                return Err(PassError::invalid(PASS, f, "function has no FunctionEnd"));
            }
            st.function = Some(p);
            st.block = None;
            st.labels = 0;
            st.scoped_seen = false;
        }
        OpCode::FunctionEnd => {
            let Some(f) = st.function.take() else {
                return Err(PassError::invalid(
                    PASS,
                    p,
                    "FunctionEnd outside a function",
                ));
            };
            if let Some(scope) = st.stack.last() {
                return Err(PassError::invalid(
                    PASS,
                    scope_op(scope),
                    "scope is never closed",
                ));
            }
            if st.block.take().is_some() {
                if !get(b, f)?.ty.is_void() {
                    return Err(PassError::invalid(
                        PASS,
                        p,
                        "function with a return value ends without Return",
                    ));
                }
                b.add_before(p, Op::new(OpCode::Return, Type::VOID).with_opt_ref(None));
                st.changed = true;
            }
        }
        OpCode::Label if st.function.is_some() => {
            st.labels += 1;
            st.block_form |= st.labels == 2 && !st.scoped_seen;
            if st.block.is_some() {
                b.add_before(p, branch(p));
                st.changed = true;
            }
            st.block = Some(p);
            st.block_empty = true;
        }
        _ if st.function.is_some() && !opcode.is_declarative() => {
            ensure_block(b, st, p);
            st.block_empty = false;
            if opcode.is_terminator() {
                st.block = None;
            }
        }
        _ => {}
    }
    Ok(())
}

fn scope_op(scope: &Scope) -> SsaDef {
    match scope {
        Scope::If { op, .. } | Scope::Loop { op, .. } | Scope::Switch { op, .. } => *op,
    }
}

/// Opens a fresh (unreachable) block before `p` if no block is open.
fn ensure_block(b: &mut Builder, st: &mut State, p: SsaDef) -> SsaDef {
    match st.block {
        Some(l) => l,
        None => {
            let l = b.add_before(p, label(Construct::None, &[]));
            st.block = Some(l);
            st.block_empty = true;
            st.changed = true;
            st.dead_code = true;
            l
        }
    }
}

/// Makes the current block (or a new one split off before `p`) a selection header with `merge`.
fn selection_header(b: &mut Builder, st: &mut State, p: SsaDef, merge: SsaDef) {
    let cur = ensure_block(b, st, p);
    let plain = b
        .get(cur)
        .is_some_and(|op| op.operands.len() == 1 && op.lit(0) == Some(0));
    if plain {
        b.rewrite(cur, label(Construct::StructuredSelection, &[merge]));
    } else {
        let h = b.add_before(p, label(Construct::StructuredSelection, &[merge]));
        b.add_before(h, branch(h));
        st.block = Some(h);
    }
}

/// Checks that the end op `end` of the scope `p` is of kind `end_opcode` and points back at `p`.
fn check_end(
    b: &Builder,
    p: SsaDef,
    end: Option<SsaDef>,
    end_opcode: OpCode,
) -> Result<SsaDef, PassError> {
    let end = end.ok_or_else(|| PassError::invalid(PASS, p, "missing end of scope"))?;
    let op = get(b, end)?;
    if op.opcode != end_opcode || op.arg(0) != Some(p) {
        return Err(PassError::invalid(
            PASS,
            p,
            format!("{end} is not the {end_opcode} of this scope"),
        ));
    }
    Ok(end)
}

fn mismatch(p: SsaDef, what: &str) -> PassError {
    PassError::invalid(
        PASS,
        p,
        format!("{what} does not match the innermost open scope"),
    )
}

/// Starts a case block of the switch on top of the stack, reusing the current block if it is
/// this switch's last case block and still empty.
fn case_label(b: &mut Builder, st: &mut State, p: SsaDef) -> SsaDef {
    let reuse = match st.stack.last() {
        Some(Scope::Switch { last_label, .. }) => {
            st.block.is_some() && st.block == *last_label && st.block_empty
        }
        _ => false,
    };
    if let (true, Some(l)) = (reuse, st.block) {
        return l;
    }
    let l = b.add_before(p, label(Construct::None, &[]));
    if st.block.is_some() {
        b.add_before(l, branch(l));
    }
    st.block = Some(l);
    st.block_empty = true;
    if let Some(Scope::Switch { last_label, .. }) = st.stack.last_mut() {
        *last_label = Some(l);
    }
    l
}

/// Ends the current block with a branch to `target` (nothing if no block is open: dead code).
fn jump(b: &mut Builder, st: &mut State, p: SsaDef, target: SsaDef) {
    if st.block.take().is_some() {
        b.add_before(p, branch(target));
    }
}

fn scoped(b: &mut Builder, st: &mut State, p: SsaDef) -> Result<(), PassError> {
    let op = get(b, p)?.clone();
    let target = op.arg(0);
    match op.opcode {
        OpCode::ScopedIf => {
            let end = check_end(b, p, target, OpCode::ScopedEndIf)?;
            let cond = op
                .arg(1)
                .ok_or_else(|| PassError::invalid(PASS, p, "ScopedIf without a condition"))?;
            let merge = b.add_before(end, label(Construct::None, &[]));
            selection_header(b, st, p, merge);
            let then = b.add_before(p, label(Construct::None, &[]));
            let br = b.add_before(
                then,
                Op::new(OpCode::BranchConditional, Type::VOID)
                    .with_ref(cond)
                    .with_ref(then)
                    .with_ref(merge),
            );
            st.stack.push(Scope::If {
                op: p,
                branch: br,
                merge,
                has_else: false,
            });
            st.block = Some(then);
            st.block_empty = true;
        }
        OpCode::ScopedElse => {
            let Some(Scope::If {
                op: if_op,
                branch: br,
                merge,
                has_else,
            }) = st.stack.last_mut()
            else {
                return Err(mismatch(p, "ScopedElse"));
            };
            if Some(*if_op) != target || *has_else {
                return Err(mismatch(p, "ScopedElse"));
            }
            *has_else = true;
            let (br, merge) = (*br, *merge);
            let els = b.add_before(p, label(Construct::None, &[]));
            if st.block.is_some() {
                b.add_before(els, branch(merge));
            }
            b.set_operand(br, 2, crate::op::Operand::from_def(els));
            st.block = Some(els);
            st.block_empty = true;
        }
        OpCode::ScopedEndIf => match st.stack.last() {
            Some(Scope::If { op: if_op, .. }) if Some(*if_op) == target => {
                st.stack.pop();
            }
            _ => return Err(mismatch(p, "ScopedEndIf")),
        },
        OpCode::ScopedLoop => {
            let end = check_end(b, p, target, OpCode::ScopedEndLoop)?;
            let cont = b.add_before(end, label(Construct::None, &[]));
            let merge = b.add_before(end, label(Construct::None, &[]));
            let header = b.add_before(p, label(Construct::StructuredLoop, &[merge, cont]));
            if st.block.is_some() {
                b.add_before(header, branch(header));
            }
            b.add_before(merge, branch(header));
            let body = b.add_before(p, label(Construct::None, &[]));
            b.add_before(body, branch(body));
            st.stack.push(Scope::Loop { op: p, merge, cont });
            st.block = Some(body);
            st.block_empty = true;
        }
        OpCode::ScopedLoopBreak | OpCode::ScopedLoopContinue => {
            let innermost = st.stack.iter().rev().find_map(|s| match s {
                Scope::Loop { op, merge, cont } => Some((*op, *merge, *cont)),
                _ => None,
            });
            let Some((_, merge, cont)) = innermost.filter(|l| Some(l.0) == target) else {
                return Err(PassError::invalid(
                    PASS,
                    p,
                    "break or continue does not target the innermost loop",
                ));
            };
            let dest = if op.opcode == OpCode::ScopedLoopBreak {
                merge
            } else {
                cont
            };
            jump(b, st, p, dest);
        }
        OpCode::ScopedEndLoop => match st.stack.last() {
            Some(Scope::Loop { op: loop_op, .. }) if Some(*loop_op) == target => {
                st.stack.pop();
            }
            _ => return Err(mismatch(p, "ScopedEndLoop")),
        },
        OpCode::ScopedSwitch => {
            let end = check_end(b, p, target, OpCode::ScopedEndSwitch)?;
            let selector = op
                .arg(1)
                .ok_or_else(|| PassError::invalid(PASS, p, "ScopedSwitch without a selector"))?;
            let sel_ty = get(b, selector)?.ty;
            let sel_ty = if sel_ty.has_unknown() {
                Type::scalar(ScalarType::U32)
            } else if sel_ty.is_scalar() && sel_ty.base_type().is_some_and(|t| t.is_int()) {
                sel_ty
            } else {
                return Err(PassError::invalid(
                    PASS,
                    p,
                    format!("switch selector has type {sel_ty:?}, not a scalar integer"),
                ));
            };
            let merge = b.add_before(end, label(Construct::None, &[]));
            selection_header(b, st, p, merge);
            let switch = b.add_before(
                p,
                Op::new(OpCode::Switch, Type::VOID)
                    .with_ref(selector)
                    .with_ref(merge),
            );
            st.stack.push(Scope::Switch {
                op: p,
                switch,
                merge,
                selector,
                sel_ty,
                default: None,
                cases: Vec::new(),
                values: FxHashSet::default(),
                last_label: None,
            });
            st.block = None;
        }
        OpCode::ScopedSwitchCase | OpCode::ScopedSwitchDefault => {
            match st.stack.last() {
                Some(Scope::Switch { op: sw, .. }) if Some(*sw) == target => {}
                _ => return Err(mismatch(p, op.opcode.name())),
            }
            let l = case_label(b, st, p);
            let sel_ty = match st.stack.last() {
                Some(Scope::Switch { sel_ty, .. }) => *sel_ty,
                _ => return Err(mismatch(p, op.opcode.name())),
            };
            let value = op
                .lit(0)
                .map(|v| v & sel_ty.base_type().map_or(u64::MAX, lit_mask));
            let constant = match value {
                Some(v) if op.opcode == OpCode::ScopedSwitchCase => {
                    Some(b.add_constant(sel_ty, &[v]))
                }
                _ => None,
            };
            let Some(Scope::Switch {
                default,
                cases,
                values,
                ..
            }) = st.stack.last_mut()
            else {
                return Err(mismatch(p, op.opcode.name()));
            };
            match (op.opcode, value, constant) {
                (OpCode::ScopedSwitchCase, Some(v), Some(c)) => {
                    if !values.insert(v) {
                        return Err(PassError::invalid(
                            PASS,
                            p,
                            format!("duplicate case value {v}"),
                        ));
                    }
                    cases.push((c, l));
                }
                (OpCode::ScopedSwitchDefault, _, _) => {
                    if default.replace(l).is_some() {
                        return Err(PassError::invalid(PASS, p, "second default case"));
                    }
                }
                _ => return Err(PassError::invalid(PASS, p, "case without a value")),
            }
        }
        OpCode::ScopedSwitchBreak => {
            let innermost = st.stack.iter().rev().find_map(|s| match s {
                Scope::If { .. } => None,
                Scope::Loop { op, .. } => Some((*op, None)),
                Scope::Switch { op, merge, .. } => Some((*op, Some(*merge))),
            });
            match innermost {
                Some((sw, Some(merge))) if Some(sw) == target => jump(b, st, p, merge),
                _ => {
                    return Err(PassError::invalid(
                        PASS,
                        p,
                        "switch break does not target the innermost loop or switch",
                    ))
                }
            }
        }
        OpCode::ScopedEndSwitch => match st.stack.last() {
            Some(Scope::Switch { op: sw, .. }) if Some(*sw) == target => {
                if let Some(Scope::Switch {
                    switch,
                    merge,
                    selector,
                    default,
                    cases,
                    ..
                }) = st.stack.pop()
                {
                    let mut op = Op::new(OpCode::Switch, Type::VOID)
                        .with_ref(selector)
                        .with_ref(default.unwrap_or(merge));
                    for (c, l) in cases {
                        op = op.with_ref(c).with_ref(l);
                    }
                    b.rewrite(switch, op);
                }
            }
            _ => return Err(mismatch(p, "ScopedEndSwitch")),
        },
        _ => return Err(PassError::invalid(PASS, p, "unexpected scoped op")),
    }
    Ok(())
}

/// Removes the scoped ops and the debug ops that name them. Any other use is an error.
fn remove_scoped(b: &mut Builder, scoped: &[SsaDef]) -> Result<(), PassError> {
    let mut debug = Vec::new();
    for &s in scoped {
        for u in b.uses(s) {
            let user = get(b, u.user)?.opcode;
            if user.is_annotation() {
                debug.push(u.user);
            } else if !user.is_scoped() {
                return Err(PassError::invalid(
                    PASS,
                    u.user,
                    format!("uses the scoped control flow op {s}"),
                ));
            }
        }
    }
    for d in debug {
        b.remove(d);
    }
    for &s in scoped {
        b.remove(s);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse;

    fn error(input: &str) -> PassError {
        let mut b = parse(input).unwrap_or_else(|e| panic!("{e}\n{input}"));
        match run(&mut b) {
            Ok(_) => panic!("expected an error for\n{input}"),
            Err(e) => e,
        }
    }

    #[test]
    fn unbalanced_and_mismatched_scopes_are_errors() {
        let cases = [
            // if never closed
            "%1 = Constant bool true\n%2 = Function void\n%3 = Label None\n%4 = ScopedIf %9 %1\n%5 = Return void null\n%6 = FunctionEnd\n%9 = ScopedEndIf %4\n",
            // end before its opener
            "%1 = Constant bool true\n%2 = Function void\n%3 = Label None\n%4 = ScopedEndIf %5\n%5 = ScopedIf %4 %1\n%6 = Return void null\n%7 = FunctionEnd\n",
            // else of an if that is not innermost
            "%1 = Constant bool true\n%2 = Function void\n%3 = Label None\n%4 = ScopedIf %8 %1\n%5 = ScopedLoop %7\n%6 = ScopedElse %4\n%7 = ScopedEndLoop %5\n%8 = ScopedEndIf %4\n%9 = Return void null\n%10 = FunctionEnd\n",
            // break outside a loop
            "%1 = Function void\n%2 = Label None\n%3 = ScopedLoopBreak %1\n%4 = Return void null\n%5 = FunctionEnd\n",
            // break of an outer loop from an inner one
            "%1 = Function void\n%2 = Label None\n%3 = ScopedLoop %7\n%4 = ScopedLoop %6\n%5 = ScopedLoopBreak %3\n%6 = ScopedEndLoop %4\n%7 = ScopedEndLoop %3\n%8 = Return void null\n%9 = FunctionEnd\n",
            // switch break from inside a loop in the switch
            "%1 = Constant u32 0\n%2 = Function void\n%3 = Label None\n%4 = ScopedSwitch %9 %1\n%5 = ScopedSwitchDefault %4\n%6 = ScopedLoop %8\n%7 = ScopedSwitchBreak %4\n%8 = ScopedEndLoop %6\n%9 = ScopedEndSwitch %4\n%10 = Return void null\n%11 = FunctionEnd\n",
            // duplicate case value
            "%1 = Constant u32 0\n%2 = Function void\n%3 = Label None\n%4 = ScopedSwitch %7 %1\n%5 = ScopedSwitchCase %4 1\n%6 = ScopedSwitchCase %4 1\n%7 = ScopedEndSwitch %4\n%8 = Return void null\n%9 = FunctionEnd\n",
            // scoped op outside a function
            "%1 = Constant bool true\n%2 = ScopedIf %3 %1\n%3 = ScopedEndIf %2\n",
            // non-void function falling off its end
            "%1 = Function u32\n%2 = Label None\n%3 = FunctionEnd\n",
        ];
        for text in cases {
            let e = error(text);
            assert_eq!(e.pass(), PASS, "{e}");
        }
    }
}
