//! The IR validator: checks a [`Builder`] against the contract of `shared/spec/dxbc-ir.md`.
//!
//! Three levels:
//! - [`Level::Structural`]: what every program must satisfy at any stage, including frontend
//!   output with scoped control flow, temporaries and `Unknown` types.
//! - [`Level::Unstructured`]: structural rules, except that a block-form function none of
//!   whose labels declares a construct is *unstructured block form* (frontend output from an
//!   arbitrary CFG, such as DXIL's, before `structurize`): its blocks may come in any order
//!   after the entry block and reference values of other blocks before their definition in
//!   program order; SSA dominance, phi predecessors and phi dominance are checked as usual,
//!   block order and SPIR-V's structured control flow rules are not.
//! - [`Level::Lowered`]: structural rules plus everything the spec says must be gone before the
//!   target IR (scoped control flow, temporaries, `ConsumeAs`, dot products, legacy float ops,
//!   `MinValue`/`MaxValue`, `Unknown` types, no-op conversions), with every function in
//!   structured block form.
//!
//! Validation is linear in program size: one walk builds a per-def position table (and the
//! extent of each function), a second walk checks every op. If that finds nothing, the rules
//! that need the control flow graph of the block-form functions run last (SSA dominance, phi
//! predecessors, SPIR-V structured control flow; module `cfg_rules`). Errors are collected up to
//! [`MAX_ERRORS`]; the validator never panics, whatever the builder holds.
//!
//! Beyond the spec's wording, the rules also hold what Direct3D and Vulkan share, so that valid
//! IR always has valid SPIR-V: ops and built-ins bound to stages ([`OpCode::stages`],
//! [`BuiltIn::exists_in`](crate::BuiltIn::exists_in)), which image ops each image kind allows
//! ([`image_op_misfit`]), image coordinate and offset shapes, and no recursion
//! ([`recursive_call`](crate::analysis::recursive_call)).
//!
//! ## Modules, one per concept
//! This file holds the driver (the two walks, and in `check_op` the order of the checks) and
//! the error types. The rules live beside their concept:
//! - `operands`: references (null, dangling, forward, scope visibility, the opcode each
//!   operand names, declarations used as values);
//! - `literals`: enum codes, flags, strings, constant data, construct operands, case values;
//! - `types`: result type rules and the type predicates every other module uses;
//! - `arithmetic`: comparisons, logic, float and integer arithmetic, bit ops, conversions;
//! - `composites`, `memory` (addresses, variables, descriptors, sparse feedback, pointers),
//!   `image_rules`, `stages`, `subgroups` (wave and quad ops), `mesh` (mesh and
//!   amplification shaders);
//! - `functions` (layout, entry point, calls, returns), `blocks` (block-form control flow),
//!   `scopes` (scoped control flow and value visibility), `cfg_rules` (the CFG rules).

use crate::builder::Builder;
use crate::enums::{Construct, ShaderStage};
use crate::op::{Op, OpFlags, SsaDef};
use crate::opcode::{OpCode, Role};
use crate::types::Type;
use std::fmt;

mod arithmetic;
mod blocks;
mod cfg_rules;
mod composites;
mod functions;
mod image_rules;
mod literals;
mod memory;
mod mesh;
mod operands;
mod scopes;
mod stages;
mod subgroups;
mod types;

#[cfg(test)]
mod tests;

pub use image_rules::image_op_misfit;
use scopes::Frame;

/// Most errors [`validate`] reports; it stops checking once this many were found.
pub const MAX_ERRORS: usize = 100;

/// How strict [`validate`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Rules every program satisfies at every stage, frontend output included: scoped control
    /// flow, temporaries and `Unknown` types are allowed.
    Structural,
    /// Structural rules plus the target-IR rules: nothing the spec says must be lowered remains,
    /// no `Unknown` types, and every function is in structured block form.
    Lowered,
    /// Structural rules, with unstructured block form allowed: a function in block form whose
    /// labels all declare `Construct::None` may have any control flow graph, blocks in any
    /// order after the entry block and references to values of other blocks that come later in
    /// program order. SSA dominance, phis and the entry block (no branch targets it) are
    /// checked; block order and SPIR-V's structure rules are not. The input form of
    /// `passes::structurize`.
    Unstructured,
}

/// Defines [`Rule`] with its stable short descriptions in one list.
macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident => $text:literal,)+) => {
        /// One validation rule. Each error names exactly one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $($(#[$doc])* $name,)+
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &'static [Rule] = &[$(Rule::$name),+];

            /// A stable short description of the rule.
            pub fn description(self) -> &'static str {
                match self {
                    $(Rule::$name => $text,)+
                }
            }
        }
    };
}

rules! {
    // Operands
    /// The operand count does not fit the opcode's shape.
    OperandCount => "operand count does not fit the opcode",
    /// A required reference operand is null.
    NullOperand => "required operand is null",
    /// A reference names no live op (removed or never existing).
    DanglingReference => "reference to a removed or nonexistent op",
    /// A reference to the op itself or to a later op where the spec allows none.
    ForwardReference => "forward reference not allowed here",
    /// A value used outside the scoped construct (branch, case, loop body) that defines it,
    /// where its definition need not have run.
    ScopeDominance => "value used outside the scope that defines it",
    /// An operand references an op of an opcode the operand does not accept.
    OperandOpcode => "operand references an op of the wrong opcode",
    /// A `Dcl*` op is used by an op that may not use declarations.
    DclMisuse => "declaration used as a plain value",
    // Layout
    /// A declarative op after the first code op.
    DeclarationAfterCode => "declarative op after code",
    /// A code op outside `Function` ... `FunctionEnd`.
    CodeOutsideFunction => "code op outside a function",
    /// `Function` inside a function, `FunctionEnd` outside one, or a function never ended.
    FunctionNesting => "function nesting",
    /// Not exactly one `EntryPoint`.
    EntryPointCount => "program needs exactly one EntryPoint",
    /// An `EntryPoint` without functions, or with a reference that is not a `Function` without
    /// parameters and result.
    EntryPointOperand => "EntryPoint operand must be a Function without parameters or result",
    /// `ParamLoad` of another function or of a parameter its function does not declare.
    ParamLoadTarget => "ParamLoad must load a parameter of its own function",
    // Literals and flags
    /// A literal is invalid for its kind (unknown enum code, undefined flag bits, bad string).
    LiteralValue => "invalid literal",
    /// A `Label`'s reference count does not match its construct, or a reference is not a `Label`.
    ConstructOperands => "Label construct operands",
    /// `SetFpMode` with a rounding mode other than `Zero` or `NearestEven`.
    FpRoundMode => "SetFpMode round mode must be Zero or NearestEven",
    /// A function calls itself, directly or through others (SPIR-V and Direct3D have no
    /// recursion).
    Recursion => "recursive function call",
    /// An op bound to stages (a mode setting, a derivative, vertex emission, shared memory,
    /// an output, ...) in a program of another stage.
    OpStage => "op not allowed in the entry point's stage",
    /// More than one `DclMeshPayload`.
    MeshPayloadCount => "program has more than one DclMeshPayload",
    /// `Constant` literal count differs from the flattened scalar count, or unbounded type.
    ConstantLiterals => "Constant literals do not match its type",
    /// Undefined op flag bits.
    OpFlags => "undefined op flag bits",
    // Blocks
    /// A code op inside a function but outside any block (before the first `Label`, or after a
    /// terminator), or a function without blocks.
    CodeOutsideBlock => "code outside a block",
    /// A block not ended by a terminator before the next `Label` or `FunctionEnd`.
    MissingTerminator => "block does not end with a terminator",
    /// `Phi` after a non-`Phi` op of its block.
    PhiPlacement => "Phi not at the start of its block",
    /// A branch, switch or phi block operand that is not a `Label` of the same function.
    BranchTarget => "block operand must be a Label of the same function",
    /// A `Switch` whose operands are not selector, default, then (constant, label) pairs.
    SwitchShape => "Switch operands must be selector, default, (constant, label) pairs",
    /// A `Phi` whose operands are not (label, value) pairs.
    PhiShape => "Phi operands must be (label, value) pairs",
    /// Block-form control flow (`Label`, `Branch*`, `Switch`, `Phi`) in a scoped function.
    MixedControlFlow => "block-form control flow in a scoped function",
    // Control flow graph of block-form functions (checked once everything above holds)
    /// A use, in a reachable block, of a value whose definition does not dominate it (a value
    /// of an unreachable block dominates no reachable use).
    SsaDominance => "definition does not dominate its use",
    /// A `Phi` whose labels are not its block's predecessors, each exactly once.
    PhiPredecessors => "Phi must name every predecessor exactly once",
    /// A `Phi` value whose definition does not dominate the (reachable) predecessor it comes
    /// from.
    PhiDominance => "Phi value does not dominate its predecessor",
    /// A branch to its function's entry block.
    EntryBlockTarget => "entry block must not be a branch target",
    /// A reachable block placed before its immediate dominator.
    BlockOrder => "block placed before its dominator",
    /// A `BranchConditional` whose two targets are the same block (SPIR-V 1.6 forbids it).
    SameTargets => "BranchConditional targets must differ",
    /// A block named as merge block by more than one construct header.
    DuplicateMerge => "block is the merge block of several headers",
    /// A `StructuredLoop` header ending in anything but `Branch` or `BranchConditional`
    /// (SPIR-V's `OpLoopMerge` must precede a branch).
    LoopHeaderTerminator => "loop header must end in Branch or BranchConditional",
    /// A reachable `BranchConditional` outside a selection or loop header with no target that
    /// is a merge block, continue target or earlier branch target, or a `Switch` outside a
    /// selection header (SPIR-V: "Selection must be structured").
    UnstructuredBranch => "conditional branch or switch outside a construct header",
    /// A back edge (a branch to a block on the current depth-first path, on reducible graphs a
    /// branch to a dominator) whose target is not a loop header.
    BackEdgeTarget => "back edge to a block that is not a loop header",
    /// A reachable loop header without exactly one back-edge block, or with one that its
    /// continue target does not dominate; or an unreachable loop header whose continue target
    /// is reachable.
    LoopBackEdge => "loop header needs exactly one back-edge block, in its continue construct",
    /// A reachable header that does not strictly dominate its merge block or continue target
    /// (dominance in SPIR-V's structural graph, with the header-to-merge edges).
    HeaderDominance => "header must strictly dominate its merge block and continue target",
    /// A branch into a selection, loop or continue construct from outside it, other than to
    /// its header.
    ConstructEntry => "branch into a construct past its header",
    /// A branch to a loop's continue target from outside that loop's construct.
    ContinueEntry => "branch to a continue target from outside its loop",
    /// A branch out of a construct to a block that is none of its structured exits (its merge
    /// block; an enclosing switch's merge block or loop's merge block or continue target).
    ConstructExit => "branch out of a construct, not to a structured exit",
    /// A continue construct left other than by its back-edge block (which must post-dominate
    /// the continue target): another block branches out of it or returns.
    ContinueExit => "continue construct left other than by its back-edge block",
    /// A switch case construct that branches into another case construct other than to its
    /// case target, falls through to more than one case, to a case another case construct
    /// also falls through to, or to one that does not directly follow it among the targets.
    SwitchCase => "switch case fall-through breaks SPIR-V's rules",
    // Scoped control flow
    /// A scoped op does not refer to the innermost open construct of its kind.
    ScopeMismatch => "scoped op does not match the innermost open construct",
    /// A scoped opener's first operand is not its matching end op, or vice versa.
    ScopeEnd => "scoped construct and its end op do not refer to each other",
    /// A scoped construct still open at `FunctionEnd`.
    ScopeUnclosed => "scoped construct not closed",
    /// A second `ScopedElse` for one `ScopedIf`.
    DuplicateElse => "ScopedIf has more than one ScopedElse",
    /// A break or continue outside a construct it can leave.
    BreakOutsideConstruct => "break or continue outside its construct",
    /// A case or default not directly inside its `ScopedSwitch`.
    CaseOutsideSwitch => "case not directly inside its ScopedSwitch",
    /// A `ScopedSwitchCase` value that does not fit the selector type.
    CaseValue => "case value does not fit the selector type",
    // Types
    /// The result type violates the opcode's result rule.
    ResultType => "invalid result type",
    /// An operand's type is invalid for the opcode.
    OperandType => "invalid operand type",
    /// A `Cast` between types of different bit size.
    CastBitSize => "Cast between types of different bit size",
    /// A `Return` value that does not match the function's result type.
    ReturnType => "Return value does not match the function's result type",
    /// A `DescriptorLoad` result that does not match its declaration.
    DescriptorType => "DescriptorLoad result does not match its declaration",
    // Lowered level
    /// An op the spec requires to be lowered before the target IR.
    NotLowered => "op must be lowered before the target IR",
    /// An `Unknown` scalar type in lowered IR.
    UnknownType => "Unknown type in lowered IR",
    /// A conversion or cast whose result type equals its operand type, in lowered IR.
    NoOpConversion => "same-type conversion in lowered IR",
    // Pass pipeline
    /// Reported by the pass pipeline when it validates, never by [`validate`]: a pass between
    /// SSA construction and the optimisations changed the blocks of the control flow graph
    /// that the later passes reuse.
    StaleCfg => "blocks changed after ssa_construction built the CFG",
    /// Reported by the pass pipeline when it validates, never by [`validate`]: the builder's
    /// [`crate::Census`] differs from a fresh count of its ops (a builder bug).
    StaleCensus => "the builder's op counts differ from its ops",
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// One violation found by [`validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The offending op, if the error is about one.
    pub def: Option<SsaDef>,
    /// The offending op's opcode, if the error is about one.
    pub opcode: Option<OpCode>,
    /// The violated rule.
    pub rule: Rule,
    /// The offending operand index (counting all operands), if the error is about one.
    pub operand: Option<usize>,
    /// What exactly is wrong.
    pub detail: String,
}

/// `%12 FAdd: operand 1: <rule text>: <detail>`, leaving out the parts that are absent.
impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.def, self.opcode) {
            (Some(d), Some(o)) => write!(f, "{d} {o}: ")?,
            (Some(d), None) => write!(f, "{d}: ")?,
            (None, Some(o)) => write!(f, "{o}: ")?,
            (None, None) => {}
        }
        if let Some(i) = self.operand {
            write!(f, "operand {i}: ")?;
        }
        f.write_str(self.rule.description())?;
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationError {}

/// Validates `b` at `level`. Returns every violation found (at most [`MAX_ERRORS`]), in
/// program order as far as possible. Never panics, whatever `b` holds.
pub fn validate(b: &Builder, level: Level) -> Result<(), Vec<ValidationError>> {
    let mut v = Validator::new(b, level);
    v.run();
    let errors = v.finish();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The per-id and per-function buffers of a validation, kept on the thread for the next one
/// (the pipeline validates after every pass, the DXIL converter every output): a validation
/// then allocates nothing for them once the thread has seen a program as large.
#[derive(Default)]
struct Spare {
    pos: Vec<u32>,
    def_scope: Vec<u32>,
    funcs: Vec<FuncInfo>,
    param_owner: Vec<u32>,
    stack: Vec<Frame>,
    scope_parent: Vec<u32>,
    scope_depth: Vec<u32>,
    scope_chain: Vec<u32>,
}

thread_local! {
    /// The buffers of the last validation finished on this thread (see [`Spare`]).
    static SPARE: std::cell::Cell<Option<Spare>> = const { std::cell::Cell::new(None) };
}

/// Extent and form of one function, found by the first walk.
#[derive(Clone, Copy, Debug)]
struct FuncInfo {
    /// Position of the `Function` op.
    start: u32,
    /// Position of its `FunctionEnd` (or of the next `Function`); `u32::MAX` if never ended.
    end: u32,
    /// True if the body contains `Scoped*` ops.
    has_scoped: bool,
    /// Number of `Label`s in the body.
    labels: u32,
    /// Number of those that declare a construct (not `Construct::None`).
    constructs: u32,
}

impl FuncInfo {
    /// True if the function is checked as blocks: always in lowered IR, otherwise when it has
    /// no scoped control flow and more than one block.
    fn block_form(&self, level: Level) -> bool {
        level == Level::Lowered || (!self.has_scoped && self.labels > 1)
    }

    /// True if the function is checked as unstructured block form: at
    /// [`Level::Unstructured`], in block form with no label declaring a construct.
    fn unstructured(&self, level: Level) -> bool {
        level == Level::Unstructured && self.block_form(level) && self.constructs == 0
    }
}

/// Per-function state of the second walk.
#[derive(Debug, Default)]
struct FuncState {
    /// Index into `funcs`.
    index: usize,
    /// The `Function` op.
    def: Option<SsaDef>,
    /// Its result type.
    ty: Type,
    block_form: bool,
    has_scoped: bool,
    /// No op of the body seen yet.
    first: bool,
    seen_label: bool,
    in_block: bool,
    phi_ok: bool,
    block: Option<SsaDef>,
}

struct Validator<'a> {
    b: &'a Builder,
    level: Level,
    /// 1-based program-order position per def id; 0 for ids not in the program.
    pos: Vec<u32>,
    funcs: Vec<FuncInfo>,
    /// Per def id: id of the last `Function` that listed it as a parameter (lazily allocated).
    param_owner: Vec<u32>,
    errors: Vec<ValidationError>,
    stack: Vec<Frame>,
    /// Parent of each scope region (index 0: outside functions); a region is a function body
    /// or one arm of a scoped construct.
    scope_parent: Vec<u32>,
    /// Nesting depth of each region (0 outside functions, 1 a function body).
    scope_depth: Vec<u32>,
    /// The current region's ancestors by depth (`scope_chain[scope_depth[r]] == r` for each
    /// region `r` the current one is nested in; entries past the current depth are stale), so
    /// that a visibility check is one lookup, whatever the nesting.
    scope_chain: Vec<u32>,
    /// The region the walk is in, and the current function's body region.
    cur_scope: u32,
    func_scope: u32,
    /// Per def: the region it was defined in.
    def_scope: Vec<u32>,
    func: Option<FuncState>,
    next_func: usize,
    seen_code: bool,
    entry_points: usize,
    /// The stage of the (first) entry point, which ops bound to stages must suit.
    stage: Option<ShaderStage>,
    /// `DclMeshPayload`s seen so far (a program has at most one).
    mesh_payloads: u32,
    /// The workgroup size of the (first) `SetCsWorkgroupSize`, which derivatives in compute,
    /// mesh and amplification shaders must be able to form quads of.
    workgroup_size: Option<[u32; 3]>,
}

impl<'a> Validator<'a> {
    fn new(b: &'a Builder, level: Level) -> Self {
        let mut spare = SPARE.take().unwrap_or_default();
        spare.pos.clear();
        spare.def_scope.clear();
        spare.funcs.clear();
        // Empty until a function with parameters allocates it (see `check_function_ops`).
        spare.param_owner.clear();
        spare.stack.clear();
        for region in [
            &mut spare.scope_parent,
            &mut spare.scope_depth,
            &mut spare.scope_chain,
        ] {
            region.clear();
            region.push(0);
        }
        Validator {
            b,
            level,
            pos: spare.pos,
            funcs: spare.funcs,
            param_owner: spare.param_owner,
            errors: Vec::new(),
            stack: spare.stack,
            scope_parent: spare.scope_parent,
            scope_depth: spare.scope_depth,
            scope_chain: spare.scope_chain,
            cur_scope: 0,
            func_scope: 0,
            def_scope: spare.def_scope,
            func: None,
            next_func: 0,
            seen_code: false,
            entry_points: 0,
            stage: None,
            mesh_payloads: 0,
            workgroup_size: None,
        }
    }

    /// The errors found; the buffers go back to the thread for the next validation.
    fn finish(self) -> Vec<ValidationError> {
        SPARE.set(Some(Spare {
            pos: self.pos,
            def_scope: self.def_scope,
            funcs: self.funcs,
            param_owner: self.param_owner,
            stack: self.stack,
            scope_parent: self.scope_parent,
            scope_depth: self.scope_depth,
            scope_chain: self.scope_chain,
        }));
        self.errors
    }

    fn full(&self) -> bool {
        self.errors.len() >= MAX_ERRORS
    }

    fn push(
        &mut self,
        def: Option<SsaDef>,
        opcode: Option<OpCode>,
        rule: Rule,
        operand: Option<usize>,
        detail: String,
    ) {
        if self.full() {
            return;
        }
        self.errors.push(ValidationError {
            def,
            opcode,
            rule,
            operand,
            detail,
        });
    }

    /// Reports `rule` for op `def`.
    fn err(&mut self, def: SsaDef, op: &Op, rule: Rule, detail: String) {
        self.push(Some(def), Some(op.opcode), rule, None, detail);
    }

    /// Reports `rule` for operand `i` of op `def`.
    fn err_at(&mut self, def: SsaDef, op: &Op, i: usize, rule: Rule, detail: String) {
        self.push(Some(def), Some(op.opcode), rule, Some(i), detail);
    }

    fn pos_of(&self, def: SsaDef) -> u32 {
        self.pos.get(def.index()).copied().unwrap_or(0)
    }

    /// The live op referenced by operand `i` of `op`.
    fn target(&self, op: &Op, i: usize) -> Option<(SsaDef, &'a Op)> {
        let d = op.arg(i)?;
        self.b.get(d).map(|o| (d, o))
    }

    fn operand_type(&self, op: &Op, i: usize) -> Option<Type> {
        self.operand_type_ref(op, i).copied()
    }

    /// The type of the live op referenced by operand `i` of `op`, borrowed.
    #[inline]
    fn operand_type_ref(&self, op: &Op, i: usize) -> Option<&'a Type> {
        self.target(op, i).map(|(_, o)| &o.ty)
    }

    fn run(&mut self) {
        self.build_positions();
        let b = self.b;
        let mut p = 0u32;
        for (def, op) in b.iter() {
            p += 1;
            if p as usize > self.pos.len() || self.full() {
                break;
            }
            self.check_op(def, op, p);
        }
        // Without calls nothing recurses (the census counts them; the search would find none).
        let recursion = if b.census().has(crate::Counted::FunctionCall) {
            crate::analysis::recursive_call(b)
        } else {
            None
        };
        if let Some(call) = recursion {
            self.push(
                Some(call),
                Some(OpCode::FunctionCall),
                Rule::Recursion,
                Some(0),
                "the callee reaches this call again".into(),
            );
        }
        if let Some(f) = self.func.take() {
            if let Some(fdef) = f.def {
                self.push(
                    Some(fdef),
                    Some(OpCode::Function),
                    Rule::FunctionNesting,
                    None,
                    "function is not ended by FunctionEnd".into(),
                );
            }
        }
        if self.entry_points == 0 {
            self.push(
                None,
                None,
                Rule::EntryPointCount,
                None,
                "no EntryPoint".into(),
            );
        }
        if self.errors.is_empty() {
            cfg_rules::check(b, self.level, &self.funcs, &mut self.errors);
        }
    }

    /// First walk: positions and function extents.
    fn build_positions(&mut self) {
        let bound = self.b.id_bound();
        self.pos.clear();
        self.pos.resize(bound, 0);
        self.def_scope.clear();
        self.def_scope.resize(bound, 0);
        let mut n = 0u32;
        let mut cur: Option<usize> = None;
        for (def, op) in self.b.iter() {
            n += 1;
            if n as usize > bound {
                // Cannot happen with a consistent builder; guards against a cyclic order.
                break;
            }
            if let Some(slot) = self.pos.get_mut(def.index()) {
                *slot = n;
            }
            match op.opcode {
                OpCode::Function => {
                    if let Some(f) = cur.and_then(|i| self.funcs.get_mut(i)) {
                        f.end = n;
                    }
                    cur = Some(self.funcs.len());
                    self.funcs.push(FuncInfo {
                        start: n,
                        end: u32::MAX,
                        has_scoped: false,
                        labels: 0,
                        constructs: 0,
                    });
                }
                OpCode::FunctionEnd => {
                    if let Some(f) = cur.take().and_then(|i| self.funcs.get_mut(i)) {
                        f.end = n;
                    }
                }
                OpCode::EntryPoint if self.stage.is_none() => {
                    self.stage = op.lit(0).and_then(ShaderStage::from_literal);
                }
                OpCode::SetCsWorkgroupSize if self.workgroup_size.is_none() => {
                    let n = |i| op.lit(i).and_then(|v| u32::try_from(v).ok());
                    if let (Some(x), Some(y), Some(z)) = (n(0), n(1), n(2)) {
                        self.workgroup_size = Some([x, y, z]);
                    }
                }
                code => {
                    if let Some(f) = cur.and_then(|i| self.funcs.get_mut(i)) {
                        if code.is_scoped() {
                            f.has_scoped = true;
                        } else if code == OpCode::Label {
                            f.labels += 1;
                            if op.construct() != Some(Construct::None) {
                                f.constructs += 1;
                            }
                        }
                    }
                }
            }
        }
    }

    fn check_op(&mut self, def: SsaDef, op: &Op, p: u32) {
        // A function belongs to no region (calls name it from anywhere); its body is one.
        let scope = if op.opcode == OpCode::Function {
            0
        } else {
            self.cur_scope
        };
        if let Some(slot) = self.def_scope.get_mut(def.index()) {
            *slot = scope;
        }
        match op.opcode {
            OpCode::Function => {
                self.func_scope = self.new_scope(0);
                self.set_scope(self.func_scope);
            }
            OpCode::FunctionEnd => {
                self.func_scope = 0;
                self.set_scope(0);
            }
            _ => {}
        }
        if op.flags.0 & !OpFlags::ALL_BITS != 0 {
            self.err(
                def,
                op,
                Rule::OpFlags,
                format!("flags {:#x}", op.flags.0 & !OpFlags::ALL_BITS),
            );
        }
        if self.level == Level::Lowered {
            if op.opcode.must_be_lowered() {
                self.err(def, op, Rule::NotLowered, String::new());
            }
            if op.ty.has_unknown() {
                self.err(def, op, Rule::UnknownType, format!("result type {}", op.ty));
            }
        }
        self.check_layout(def, op);

        let info = op.opcode.info();
        let Some(nref) = info.ref_count(op.operands.len()) else {
            self.err(
                def,
                op,
                Rule::OperandCount,
                format!("{} operands", op.operands.len()),
            );
            self.update_control_flow(def, op);
            return;
        };
        self.check_refs(def, op, p, nref);
        if RULE_GROUPS[op.opcode as usize] & group::LITERALS != 0 {
            self.check_literals(def, op, nref);
        }
        self.check_result(def, op);
        self.check_specific(def, op, nref);
        self.update_control_flow(def, op);
    }

    /// The opcode table's operand types, then the opcode-specific rules, each in the module
    /// of its concept. Every opcode has its specific rules in at most one of them. Only the
    /// rule groups that have a rule for the opcode run ([`RULE_GROUPS`]); constants and
    /// annotations, most of a small program's declarations, meet none of them (the tests
    /// `constants_meet_no_specific_rule` and `annotations_meet_no_specific_rule` hold the
    /// rules to that, and `rule_groups_skip_nothing` the table to the rules).
    fn check_specific(&mut self, def: SsaDef, op: &Op, nref: usize) {
        let groups = RULE_GROUPS[op.opcode as usize];
        self.check_rule_groups(def, op, nref, groups);
    }

    /// [`Validator::check_specific`] with every rule group, whatever the opcode.
    #[cfg(test)]
    fn check_specific_rules(&mut self, def: SsaDef, op: &Op, nref: usize) {
        // Addresses into a variable (not a value) are checked as such.
        let variable_address = op.opcode.addresses_operand_type()
            && op
                .opcode
                .info()
                .refs
                .first()
                .is_some_and(|r| !matches!(r.role, Role::Value));
        let groups = if variable_address {
            group::ALL
        } else {
            group::ALL & !group::VARIABLE_ADDRESS
        };
        self.check_rule_groups(def, op, nref, groups);
    }

    /// The rule groups in `groups` (bits of [`group`]), in their fixed order; sparse feedback
    /// and stages, which depend on more than the opcode, always.
    #[inline(always)]
    fn check_rule_groups(&mut self, def: SsaDef, op: &Op, nref: usize, groups: u16) {
        self.check_sparse_feedback(def, op);
        self.check_op_stage(def, op);
        // Constant addresses stay inside the variable they address (composites check theirs
        // with the part they reach).
        if groups & group::VARIABLE_ADDRESS != 0 {
            self.check_variable_address(def, op);
        }
        if groups & group::OPERAND_TYPES != 0 {
            self.check_operand_types(def, op, nref);
        }
        if groups & group::ARITHMETIC != 0 {
            self.check_arithmetic(def, op);
        }
        if groups & group::BRANCH != 0 {
            self.check_branch_operands(def, op, nref);
        }
        if groups & group::FUNCTION != 0 {
            self.check_function_ops(def, op, nref);
        }
        if groups & group::COMPOSITE != 0 {
            self.check_composite(def, op, nref);
        }
        if groups & group::MEMORY != 0 {
            self.check_memory_ops(def, op);
        }
        if groups & group::IMAGE != 0 {
            self.check_image_ops(def, op);
        }
        if groups & group::STAGE != 0 {
            self.check_stage_rules(def, op);
        }
        if groups & group::SUBGROUP != 0 {
            self.check_subgroup_ops(def, op);
        }
        if groups & group::MESH != 0 {
            self.check_mesh_rules(def, op);
        }
    }
}

/// The rule groups of [`Validator::check_specific`], one bit each.
mod group {
    /// `check_variable_address`: a constant address stays inside its variable.
    pub const VARIABLE_ADDRESS: u16 = 1;
    /// `check_operand_types`: the table's operand type rules.
    pub const OPERAND_TYPES: u16 = 2;
    /// `check_arithmetic`.
    pub const ARITHMETIC: u16 = 4;
    /// `check_branch_operands`.
    pub const BRANCH: u16 = 8;
    /// `check_function_ops`.
    pub const FUNCTION: u16 = 16;
    /// `check_composite`.
    pub const COMPOSITE: u16 = 32;
    /// `check_memory_ops`.
    pub const MEMORY: u16 = 64;
    /// `check_image_ops`.
    pub const IMAGE: u16 = 128;
    /// `check_stage_rules`.
    pub const STAGE: u16 = 256;
    /// `check_subgroup_ops`.
    pub const SUBGROUP: u16 = 512;
    /// `check_mesh_rules`.
    pub const MESH: u16 = 1024;
    /// [`Validator::check_literals`] (run by `check_op`, not `check_specific`).
    pub const LITERALS: u16 = 2048;
    /// Every group of `check_specific`.
    #[cfg(test)]
    pub const ALL: u16 = 2047;
}

/// The rule groups that have a rule for `op` (each module says which opcodes its group
/// covers, beside the match that checks them).
const fn rule_groups(op: OpCode) -> u16 {
    let refs = op.const_info().refs;
    // `OpCode::addresses_operand_type`, of a variable rather than a value.
    let variable_address = refs.len() > 1
        && matches!(refs[1].ty, crate::opcode::TypeRule::Address)
        && !matches!(refs[0].role, Role::Value);
    let mut g = 0;
    let groups = [
        (variable_address, group::VARIABLE_ADDRESS),
        (types::has_operand_type_rule(op), group::OPERAND_TYPES),
        (arithmetic::has_arithmetic_rule(op), group::ARITHMETIC),
        (blocks::has_branch_rule(op), group::BRANCH),
        (functions::has_function_rule(op), group::FUNCTION),
        (composites::has_composite_rule(op), group::COMPOSITE),
        (memory::has_memory_rule(op), group::MEMORY),
        (image_rules::has_image_rule(op), group::IMAGE),
        (stages::has_stage_rule(op), group::STAGE),
        (subgroups::has_subgroup_rule(op), group::SUBGROUP),
        (mesh::has_mesh_rule(op), group::MESH),
        (literals::has_literal_rule(op), group::LITERALS),
    ];
    let mut k = 0;
    while k < groups.len() {
        if groups[k].0 {
            g |= groups[k].1;
        }
        k += 1;
    }
    g
}

/// [`rule_groups`] per opcode.
static RULE_GROUPS: [u16; OpCode::ALL.len()] = {
    let mut table = [0u16; OpCode::ALL.len()];
    let mut k = 0;
    while k < OpCode::ALL.len() {
        table[OpCode::ALL[k] as usize] = rule_groups(OpCode::ALL[k]);
        k += 1;
    }
    table
};
