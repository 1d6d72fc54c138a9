//! Scoped control flow: the stack of open constructs, matching openers and end ops, breaks,
//! continues and cases, and the regions (function bodies, construct arms) that values are
//! visible in.

use super::{Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::{OpCode, Role};
use crate::types::Type;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScopeKind {
    If,
    Loop,
    Switch,
}

/// One open scoped construct.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) kind: ScopeKind,
    pub(super) opener: SsaDef,
    pub(super) else_seen: bool,
    /// Selector type of a switch.
    pub(super) selector: Option<Type>,
    /// Stack index of the innermost loop at or below this frame.
    pub(super) loop_idx: Option<usize>,
    /// The region of the arm being walked.
    pub(super) scope: u32,
    /// Stack index of the innermost loop or switch at or below this frame.
    pub(super) breakable_idx: Option<usize>,
}

impl Validator<'_> {
    /// The scoped construct stack.
    pub(super) fn update_scopes(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        let Some(r0) = op.arg(0) else { return };
        let opener = op.opcode.info().refs.first().map(|r| r.role) == Some(Role::ScopeEnd);
        if !opener && self.b.get(r0).is_none() {
            // Already reported as a dangling reference.
            return;
        }
        match op.opcode {
            ScopedIf | ScopedLoop | ScopedSwitch => {
                let (kind, end_op) = match op.opcode {
                    ScopedIf => (ScopeKind::If, ScopedEndIf),
                    ScopedLoop => (ScopeKind::Loop, ScopedEndLoop),
                    _ => (ScopeKind::Switch, ScopedEndSwitch),
                };
                match self.b.get(r0) {
                    Some(e) if e.opcode == end_op && e.arg(0) == Some(def) => {}
                    Some(e) => self.err_at(
                        def,
                        op,
                        0,
                        Rule::ScopeEnd,
                        format!("{r0} is {} {}", e.opcode, describe_ref(e)),
                    ),
                    None => {}
                }
                // (The condition's and selector's types are the opcode table's.)
                let selector = if kind == ScopeKind::Switch {
                    self.operand_type(op, 1)
                } else {
                    None
                };
                let idx = self.stack.len();
                let below = self.stack.last();
                let loop_idx = if kind == ScopeKind::Loop {
                    Some(idx)
                } else {
                    below.and_then(|f| f.loop_idx)
                };
                let breakable_idx = if kind == ScopeKind::If {
                    below.and_then(|f| f.breakable_idx)
                } else {
                    Some(idx)
                };
                let scope = self.new_scope(self.cur_scope);
                self.set_scope(scope);
                self.stack.push(Frame {
                    kind,
                    opener: def,
                    else_seen: false,
                    selector,
                    scope,
                    loop_idx,
                    breakable_idx,
                });
            }
            ScopedElse => match self.stack.last_mut() {
                Some(top) if top.kind == ScopeKind::If && top.opener == r0 => {
                    if top.else_seen {
                        self.err(def, op, Rule::DuplicateElse, format!("for {r0}"));
                    } else {
                        top.else_seen = true;
                    }
                    self.next_arm();
                }
                _ => self.scope_mismatch(def, op, r0, "ScopedIf"),
            },
            ScopedEndIf | ScopedEndLoop | ScopedEndSwitch => {
                let kind = match op.opcode {
                    ScopedEndIf => ScopeKind::If,
                    ScopedEndLoop => ScopeKind::Loop,
                    _ => ScopeKind::Switch,
                };
                match self.stack.last() {
                    Some(top) if top.kind == kind && top.opener == r0 => {
                        self.stack.pop();
                        self.set_scope(self.stack.last().map_or(self.func_scope, |f| f.scope));
                        if self.b.get(r0).and_then(|o| o.arg(0)) != Some(def) {
                            self.err_at(
                                def,
                                op,
                                0,
                                Rule::ScopeEnd,
                                format!("{r0} does not name {def} as its end"),
                            );
                        }
                    }
                    _ => {
                        self.scope_mismatch(def, op, r0, "opener");
                        // Resynchronise if the opener is open further down.
                        if let Some(k) = self
                            .stack
                            .iter()
                            .rposition(|f| f.opener == r0 && f.kind == kind)
                        {
                            self.stack.truncate(k);
                            self.set_scope(self.stack.last().map_or(self.func_scope, |f| f.scope));
                        }
                    }
                }
            }
            ScopedLoopBreak | ScopedLoopContinue => {
                let target = self
                    .stack
                    .last()
                    .and_then(|f| f.loop_idx)
                    .and_then(|i| self.stack.get(i));
                if target.map(|f| f.opener) != Some(r0) {
                    self.err_at(
                        def,
                        op,
                        0,
                        Rule::BreakOutsideConstruct,
                        format!("{r0} is not the innermost open ScopedLoop"),
                    );
                }
            }
            ScopedSwitchBreak => {
                let target = self
                    .stack
                    .last()
                    .and_then(|f| f.breakable_idx)
                    .and_then(|i| self.stack.get(i));
                let ok = target.is_some_and(|f| f.kind == ScopeKind::Switch && f.opener == r0);
                if !ok {
                    self.err_at(
                        def,
                        op,
                        0,
                        Rule::BreakOutsideConstruct,
                        format!("{r0} is not the innermost open ScopedLoop or ScopedSwitch"),
                    );
                }
            }
            ScopedSwitchCase | ScopedSwitchDefault => {
                let top = self.stack.last().copied();
                match top {
                    Some(f) if f.kind == ScopeKind::Switch && f.opener == r0 => {
                        if op.opcode == ScopedSwitchCase {
                            self.check_case_value(def, op, f.selector);
                        }
                        self.next_arm();
                    }
                    _ => self.err_at(
                        def,
                        op,
                        0,
                        Rule::CaseOutsideSwitch,
                        format!("{r0} is not the innermost open construct"),
                    ),
                }
            }
            _ => {}
        }
    }
    /// A new region inside `parent`.
    pub(super) fn new_scope(&mut self, parent: u32) -> u32 {
        let depth = self.scope_depth.get(parent as usize).map_or(0, |d| d + 1);
        self.scope_parent.push(parent);
        self.scope_depth.push(depth);
        (self.scope_parent.len() - 1) as u32
    }
    /// Makes `scope` the current region (a new child, a sibling arm, or an ancestor).
    pub(super) fn set_scope(&mut self, scope: u32) {
        self.cur_scope = scope;
        let depth = self.scope_depth.get(scope as usize).copied().unwrap_or(0) as usize;
        if self.scope_chain.len() <= depth {
            self.scope_chain.resize(depth + 1, 0);
        }
        self.scope_chain[depth] = scope;
    }
    /// The innermost construct moves to its next arm (`else`, a switch case): a new region
    /// beside the previous arm's, so values of one arm are not used in another.
    pub(super) fn next_arm(&mut self) {
        let Some(top) = self.stack.last().map(|f| f.scope) else {
            return;
        };
        let parent = self.scope_parent.get(top as usize).copied().unwrap_or(0);
        let arm = self.new_scope(parent);
        if let Some(f) = self.stack.last_mut() {
            f.scope = arm;
        }
        self.set_scope(arm);
    }
    /// True if a value defined in region `def` may be used in the current region: `def` is
    /// the current region or one it is nested in.
    pub(super) fn scope_visible(&self, def: u32) -> bool {
        let depth = |s: u32| self.scope_depth.get(s as usize).copied().unwrap_or(0);
        let d = depth(def);
        d <= depth(self.cur_scope) && self.scope_chain.get(d as usize) == Some(&def)
    }
    pub(super) fn scope_mismatch(&mut self, def: SsaDef, op: &Op, r0: SsaDef, what: &str) {
        let top = self.stack.last().map_or_else(
            || "nothing is open".to_string(),
            |f| format!("{} is open", f.opener),
        );
        self.err_at(
            def,
            op,
            0,
            Rule::ScopeMismatch,
            format!("{r0} is not the innermost {what}; {top}"),
        );
    }
}

/// Short description of what a scoped op's first operand names, for error details.
fn describe_ref(op: &Op) -> String {
    match op.arg(0) {
        Some(d) => format!("naming {d}"),
        None => "naming nothing".into(),
    }
}
