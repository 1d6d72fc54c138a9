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
//! [`BuiltIn::exists_in`]), which image ops each image kind allows ([`image_op_misfit`]),
//! image coordinate and offset shapes, and no recursion
//! ([`recursive_call`](crate::analysis::recursive_call)).

use crate::builder::Builder;
use crate::enums::{
    AtomicOp, BuiltIn, Construct, DenormMode, DerivativeMode, InterpolationModes, MemoryTypeMask,
    PrimitiveType, ResourceKind, RoundMode, RovScope, Scope, ShaderStage, ShaderStageMask,
    TessPartitioning, TessWindingOrder, UavFlags,
};
use crate::op::{Op, OpFlags, SsaDef};
use crate::opcode::{LitKind, OpClass, OpCode, RefKind, ResultRule};
use crate::types::{ScalarType, Type};
use std::fmt;

mod cfg_rules;
mod image_rules;

pub use image_rules::image_op_misfit;

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
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScopeKind {
    If,
    Loop,
    Switch,
}

/// One open scoped construct.
#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: ScopeKind,
    opener: SsaDef,
    else_seen: bool,
    /// Selector type of a switch.
    selector: Option<Type>,
    /// Stack index of the innermost loop at or below this frame.
    loop_idx: Option<usize>,
    /// The region of the arm being walked.
    scope: u32,
    /// Stack index of the innermost loop or switch at or below this frame.
    breakable_idx: Option<usize>,
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
}

/// Outcome of matching a literal against its kind.
fn literal_valid(kind: LitKind, v: u64) -> bool {
    match kind {
        LitKind::Int | LitKind::Str | LitKind::Data | LitKind::CaseValue => true,
        LitKind::ShaderStage => ShaderStage::from_literal(v).is_some(),
        LitKind::ShaderStageMask => ShaderStageMask::from_literal(v).is_some(),
        LitKind::BuiltIn => BuiltIn::from_literal(v).is_some(),
        LitKind::ResourceKind => ResourceKind::from_literal(v).is_some(),
        LitKind::PrimitiveType => PrimitiveType::from_literal(v).is_some(),
        LitKind::InterpolationModes => InterpolationModes::from_literal(v).is_some(),
        LitKind::AtomicOp => AtomicOp::from_literal(v).is_some(),
        LitKind::RoundMode => RoundMode::from_literal(v).is_some(),
        LitKind::DenormMode => DenormMode::from_literal(v).is_some(),
        LitKind::Scope => Scope::from_literal(v).is_some(),
        LitKind::MemoryTypeMask => MemoryTypeMask::from_literal(v).is_some(),
        LitKind::UavFlags => UavFlags::from_literal(v).is_some(),
        LitKind::Construct => Construct::from_literal(v).is_some(),
        LitKind::DerivativeMode => DerivativeMode::from_literal(v).is_some(),
        LitKind::RovScope => RovScope::from_literal(v).is_some(),
        LitKind::TessWindingOrder => TessWindingOrder::from_literal(v).is_some(),
        LitKind::TessPartitioning => TessPartitioning::from_literal(v).is_some(),
    }
}

/// True if reference operand `i` of an op with opcode `op` may name a later op.
fn forward_allowed(op: OpCode, i: usize) -> bool {
    use OpCode::*;
    match op {
        DebugName | DebugMemberName | Phi | Label | EntryPoint => true,
        Branch => i == 0,
        BranchConditional => i >= 1,
        Switch => i == 1 || (i >= 3 && i % 2 == 1),
        FunctionCall | ScopedIf | ScopedLoop | ScopedSwitch => i == 0,
        _ => false,
    }
}

/// True if reference operand `i` of `user` may name a `Dcl*` op of opcode `dcl`.
fn dcl_use_allowed(user: OpCode, i: usize, dcl: OpCode) -> bool {
    use OpCode::*;
    // The spec has no load op for specialization constants, so they are read directly.
    if dcl == DclSpecConstant {
        return true;
    }
    match user {
        DebugName | DebugMemberName | Drain | Function => true,
        Semantic
        | DclXfb
        | TmpLoad
        | TmpStore
        | ScratchLoad
        | ScratchStore
        | LdsLoad
        | LdsStore
        | LdsAtomic
        | PushDataLoad
        | InputLoad
        | OutputLoad
        | OutputStore
        | DescriptorLoad
        | InterpolateAtCentroid
        | InterpolateAtSample
        | InterpolateAtOffset => i == 0,
        DclUavCounter | ParamLoad => i == 1,
        _ => false,
    }
}

const IO_DCLS: &[OpCode] = &[
    OpCode::DclInput,
    OpCode::DclInputBuiltIn,
    OpCode::DclOutput,
    OpCode::DclOutputBuiltIn,
];
const INPUT_DCLS: &[OpCode] = &[OpCode::DclInput, OpCode::DclInputBuiltIn];
const OUTPUT_DCLS: &[OpCode] = &[OpCode::DclOutput, OpCode::DclOutputBuiltIn];
const DESCRIPTOR_DCLS: &[OpCode] = &[
    OpCode::DclSampler,
    OpCode::DclCbv,
    OpCode::DclSrv,
    OpCode::DclUav,
    OpCode::DclUavCounter,
];

/// The opcodes reference operand `i` of `op` must name (checked as [`Rule::OperandOpcode`]),
/// for operands not covered by a more specific rule.
fn expected_opcodes(op: OpCode, i: usize) -> Option<&'static [OpCode]> {
    use OpCode::*;
    Some(match (op, i) {
        (
            SetCsWorkgroupSize
            | SetGsInstances
            | SetGsInputPrimitive
            | SetGsOutputVertices
            | SetGsOutputPrimitive
            | SetPsEarlyFragmentTest
            | SetPsDepthGreaterEqual
            | SetPsDepthLessEqual
            | SetTessPrimitive
            | SetTessDomain
            | SetTessControlPoints
            | SetFpMode
            | DclInput
            | DclInputBuiltIn
            | DclOutput
            | DclOutputBuiltIn
            | DclSpecConstant
            | DclPushData
            | DclSampler
            | DclCbv
            | DclSrv
            | DclUav
            | DclUavCounter
            | DclLds
            | DclScratch
            | DclTmp,
            0,
        ) => &[EntryPoint],
        (DclUavCounter, 1) => &[DclUav],
        (DclXfb, 0) => OUTPUT_DCLS,
        (Semantic, 0) => IO_DCLS,
        (ParamLoad, 1) | (Function, _) => &[DclParam],
        (TmpLoad | TmpStore, 0) => &[DclTmp],
        (ScratchLoad | ScratchStore, 0) => &[DclScratch],
        (LdsLoad | LdsStore | LdsAtomic, 0) => &[DclLds],
        (PushDataLoad, 0) => &[DclPushData],
        (InputLoad | InterpolateAtCentroid | InterpolateAtSample | InterpolateAtOffset, 0) => {
            INPUT_DCLS
        }
        (OutputLoad | OutputStore, 0) => OUTPUT_DCLS,
        (DescriptorLoad, 0) => DESCRIPTOR_DCLS,
        (
            BufferLoad | BufferStore | BufferQuerySize | BufferAtomic | ImageAtomic | CounterAtomic
            | ImageLoad | ImageStore | ImageQuerySize | ImageQueryMips | ImageQuerySamples
            | ImageSample | ImageGather | ImageComputeLod,
            0,
        )
        | (ImageSample | ImageGather | ImageComputeLod, 1) => &[DescriptorLoad],
        (MemoryLoad | MemoryStore | MemoryAtomic, 0) => &[Pointer],
        (ConstantLoad, 0) => &[Constant],
        (FunctionCall, 0) => &[Function],
        _ => return None,
    })
}

/// Why an operand of `user` may not name an op `target` of type `ty`, if it may not: debug
/// ops do not name each other; scoped ops name their constructs; the entry point, functions
/// and labels are named only where the operand asks for one (or by a debug op); every other
/// operand needs a value or a declaration, which void ops (stores, debug names, mode
/// settings, terminators) are not.
fn valueless_target(user: OpCode, i: usize, target: OpCode, ty: &Type) -> Option<&'static str> {
    use OpCode::*;
    let debug = |o: OpCode| matches!(o, DebugName | Semantic);
    if debug(user) && debug(target) {
        return Some("a debug op, not something to name");
    }
    // Entry points, functions and labels are named where an operand asks for one (block
    // operands are checked before this), and by debug ops; they are not values to store,
    // select or compute with.
    if matches!(target, Function | Label | EntryPoint) {
        if debug(user) || expected_opcodes(user, i).is_some_and(|w| w.contains(&target)) {
            return None;
        }
        return Some("which is not a value");
    }
    // Declarations are referenced (a sampler is void-typed); mode settings are not (the
    // type of `SetFpMode` names the float type it sets, not a value).
    if target.name().starts_with("Set") {
        return Some("a mode setting, which has no value");
    }
    if !ty.is_void() || target.is_dcl() || (user.is_scoped() && target.is_scoped()) {
        return None;
    }
    Some("which has no value")
}

/// True if reference operand `i` of `op` names a block (checked as [`Rule::BranchTarget`]).
fn is_block_operand(op: OpCode, i: usize) -> bool {
    match op {
        OpCode::Branch => i == 0,
        OpCode::BranchConditional => i >= 1,
        OpCode::Switch => i == 1 || (i >= 3 && i % 2 == 1),
        OpCode::Phi => i & 1 == 0,
        _ => false,
    }
}

/// True for ops that must be gone before the target IR.
fn must_be_lowered(op: OpCode) -> bool {
    use OpCode::*;
    op.is_scoped()
        || matches!(
            op,
            ConsumeAs
                | TmpLoad
                | TmpStore
                | DclTmp
                | FDot
                | FDotLegacy
                | FMulLegacy
                | FMadLegacy
                | FPowLegacy
                | MinValue
                | MaxValue
        )
}

/// True if `v` is a valid literal of an integer type of `bits` bits (zero- or sign-extended).
fn fits_bits(v: u64, bits: u32) -> bool {
    if bits >= 64 {
        return true;
    }
    v >> bits == 0 || (v as i64) >> (bits - 1) == -1
}

/// How an integer operand must relate to the result type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IntMatch {
    /// Any integer scalar or vector.
    Any,
    /// Same vector size as the result.
    VecSize,
    /// Same vector size and bit size as the result.
    Shape,
}

impl<'a> Validator<'a> {
    fn new(b: &'a Builder, level: Level) -> Self {
        Validator {
            b,
            level,
            pos: Vec::new(),
            funcs: Vec::new(),
            param_owner: Vec::new(),
            errors: Vec::new(),
            stack: Vec::new(),
            scope_parent: vec![0],
            scope_depth: vec![0],
            scope_chain: vec![0],
            cur_scope: 0,
            func_scope: 0,
            def_scope: Vec::new(),
            func: None,
            next_func: 0,
            seen_code: false,
            entry_points: 0,
            stage: None,
        }
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
        self.target(op, i).map(|(_, o)| o.ty)
    }

    fn unknown_ok(&self) -> bool {
        self.level != Level::Lowered
    }

    /// True if `s` satisfies `pred`, or is `Unknown` where that is allowed.
    fn kind_ok(&self, s: ScalarType, pred: impl Fn(ScalarType) -> bool) -> bool {
        pred(s) || (s == ScalarType::Unknown && self.unknown_ok())
    }

    /// True if `t` is a scalar or vector whose scalar type satisfies `pred`.
    fn basic_of(&self, t: &Type, pred: impl Fn(ScalarType) -> bool) -> bool {
        t.base_type().is_some_and(|s| self.kind_ok(s, pred))
    }

    /// True if `t` is a plain scalar whose type satisfies `pred`.
    fn scalar_of(&self, t: &Type, pred: impl Fn(ScalarType) -> bool) -> bool {
        t.is_scalar() && self.basic_of(t, pred)
    }

    /// True if `a` and `b` are equal, treating `Unknown` scalars as wildcards for numbers and
    /// bools where allowed.
    fn same_type(&self, a: &Type, b: &Type) -> bool {
        if a == b {
            return true;
        }
        if !self.unknown_ok() || a.dims() != b.dims() || a.members().len() != b.members().len() {
            return false;
        }
        // An untyped scalar stands for a number or a bool, never a descriptor.
        let stands_for =
            |u: ScalarType, t: ScalarType| u == ScalarType::Unknown && !t.is_descriptor();
        a.members().iter().zip(b.members()).all(|(x, y)| {
            x.vec_size() == y.vec_size()
                && (x.base() == y.base()
                    || stands_for(x.base(), y.base())
                    || stands_for(y.base(), x.base()))
        })
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
        if let Some(call) = crate::analysis::recursive_call(b) {
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
        self.pos = vec![0; bound];
        self.def_scope = vec![0; bound];
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
        if op.opcode == OpCode::Function {
            self.func_scope = 0;
            self.set_scope(0);
        }
        if let Some(slot) = self.def_scope.get_mut(def.index()) {
            *slot = self.cur_scope;
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
            if must_be_lowered(op.opcode) {
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
        self.check_literals(def, op, nref);
        self.check_result(def, op);
        self.check_specific(def, op, nref);
        self.update_control_flow(def, op);
    }

    /// Declarations before code, code inside functions, function nesting, entry point count.
    fn check_layout(&mut self, def: SsaDef, op: &Op) {
        if op.opcode == OpCode::EntryPoint {
            self.entry_points += 1;
            if self.entry_points > 1 {
                self.err(def, op, Rule::EntryPointCount, "second EntryPoint".into());
            }
        }
        match op.opcode.info().class {
            OpClass::Declaration => {
                if self.seen_code {
                    self.err(def, op, Rule::DeclarationAfterCode, String::new());
                }
            }
            OpClass::Anywhere => {}
            OpClass::Code => {
                self.seen_code = true;
                match op.opcode {
                    OpCode::Function => {}
                    OpCode::FunctionEnd => {
                        if self.func.is_none() {
                            self.err(
                                def,
                                op,
                                Rule::FunctionNesting,
                                "FunctionEnd outside a function".into(),
                            );
                        }
                    }
                    _ => {
                        if self.func.is_none() {
                            self.err(def, op, Rule::CodeOutsideFunction, String::new());
                        }
                    }
                }
            }
        }
    }

    /// Reference operands: null, dangling, forward, referenced opcodes, declaration use.
    fn check_refs(&mut self, def: SsaDef, op: &Op, p: u32, nref: usize) {
        let info = op.opcode.info();
        for i in 0..nref {
            let raw = op.operands[i].0;
            let kind = info.refs.get(i).copied().unwrap_or(RefKind::Required);
            if raw == 0 {
                if kind == RefKind::Required {
                    self.err_at(def, op, i, Rule::NullOperand, String::new());
                }
                continue;
            }
            let target = op.operands[i].def().filter(|&t| self.pos_of(t) != 0);
            let Some(t) = target else {
                self.err_at(def, op, i, Rule::DanglingReference, format!("%{raw}"));
                continue;
            };
            let tp = self.pos_of(t);
            // A phi's value may be the phi itself: a value a loop carries unchanged on that
            // edge (SPIR-V and LLVM allow it).
            let own_value = op.opcode == OpCode::Phi && i % 2 == 1;
            if tp == p && !own_value {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ForwardReference,
                    "references itself".into(),
                );
            } else if tp > p && !forward_allowed(op.opcode, i) && !self.unstructured_code(tp) {
                self.err_at(def, op, i, Rule::ForwardReference, format!("{t} is later"));
            }
            let Some(top) = self.b.get(t) else { continue };
            let ts = self.def_scope.get(t.index()).copied().unwrap_or(0);
            if ts != 0
                && tp < p
                // Scoped ops name their constructs freely, but an if's condition or a switch's
                // selector is a value like any other.
                && !top.opcode.is_scoped()
                && !matches!(op.opcode, OpCode::DebugName | OpCode::Semantic)
                && !is_block_operand(op.opcode, i)
                && !self.scope_visible(ts)
            {
                self.err_at(def, op, i, Rule::ScopeDominance, format!("{t}"));
            }
            if top.opcode.is_dcl() && !dcl_use_allowed(op.opcode, i, top.opcode) {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::DclMisuse,
                    format!("{t} is {}", top.opcode),
                );
            }
            self.check_ref_opcode(def, op, i, t, top);
        }
    }

    /// True if the op at position `tp` is in the current function and that function is in
    /// unstructured block form, where values of other blocks may come later in program order
    /// (SSA dominance is checked on the control flow graph instead).
    fn unstructured_code(&self, tp: u32) -> bool {
        self.func
            .as_ref()
            .and_then(|f| self.funcs.get(f.index))
            .is_some_and(|f| f.unstructured(self.level) && f.start < tp && tp < f.end)
    }

    /// The opcode a reference operand must name, per operand role.
    fn check_ref_opcode(&mut self, def: SsaDef, op: &Op, i: usize, t: SsaDef, top: &Op) {
        if op.opcode == OpCode::EntryPoint {
            if top.opcode != OpCode::Function {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::EntryPointOperand,
                    format!("{t} is {}", top.opcode),
                );
            } else if top.ref_count() > 0 || !top.ty.is_void() {
                // Stage functions are called by the pipeline, with nothing and for nothing.
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::EntryPointOperand,
                    format!("{t} takes parameters or returns a value"),
                );
            }
            return;
        }
        if op.opcode == OpCode::Label {
            if top.opcode != OpCode::Label {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ConstructOperands,
                    format!("{t} is {}, not a Label", top.opcode),
                );
            } else if !self.in_current_function(t) {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ConstructOperands,
                    format!("{t} is in another function"),
                );
            }
            return;
        }
        if is_block_operand(op.opcode, i) {
            if top.opcode != OpCode::Label {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::BranchTarget,
                    format!("{t} is {}", top.opcode),
                );
            } else if !self.in_current_function(t) {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::BranchTarget,
                    format!("{t} is in another function"),
                );
            }
            return;
        }
        if op.opcode == OpCode::Switch && i >= 2 {
            // Case value (even operand from 2 on).
            if top.opcode != OpCode::Constant {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::SwitchShape,
                    format!("case value {t} is {}, not a Constant", top.opcode),
                );
            }
            return;
        }
        if op.opcode == OpCode::ParamLoad && i == 0 {
            let cur = self.func.as_ref().and_then(|f| f.def);
            if cur != Some(t) {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ParamLoadTarget,
                    format!("{t} is not the enclosing function"),
                );
            }
            return;
        }
        if let Some(reason) = valueless_target(op.opcode, i, top.opcode, &top.ty) {
            self.err_at(
                def,
                op,
                i,
                Rule::OperandOpcode,
                format!("{t} is {}, {reason}", top.opcode),
            );
            return;
        }
        if let Some(want) = expected_opcodes(op.opcode, i) {
            if !want.contains(&top.opcode) {
                let names: Vec<&str> = want.iter().map(|o| o.name()).collect();
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::OperandOpcode,
                    format!("{t} is {}, expected {}", top.opcode, names.join(" or ")),
                );
            } else if op.opcode == OpCode::ParamLoad {
                let fid = self.func.as_ref().and_then(|f| f.def).map_or(0, |d| d.id());
                if self.param_owner.get(t.index()).copied().unwrap_or(0) != fid || fid == 0 {
                    self.err_at(
                        def,
                        op,
                        i,
                        Rule::ParamLoadTarget,
                        format!("{t} is not a parameter of the enclosing function"),
                    );
                }
            }
        }
    }

    /// True if `label` lies inside the current function.
    fn in_current_function(&self, label: SsaDef) -> bool {
        let Some(f) = self.func.as_ref().and_then(|f| self.funcs.get(f.index)) else {
            return false;
        };
        let lp = self.pos_of(label);
        lp > f.start && lp < f.end
    }

    /// Literal operands: enum codes, flag bits, strings, construct and constant shapes.
    fn check_literals(&mut self, def: SsaDef, op: &Op, nref: usize) {
        let info = op.opcode.info();
        let lits = &op.operands[nref..];
        for (j, lit) in lits.iter().enumerate() {
            let Some(kind) = info.lit_kind(j) else {
                continue;
            };
            if !literal_valid(kind, lit.0) {
                self.err_at(
                    def,
                    op,
                    nref + j,
                    Rule::LiteralValue,
                    format!("{:#x} is not a valid {kind:?}", lit.0),
                );
            }
        }
        if info.var_lits == Some(LitKind::Str) {
            let words = lits.get(info.lits.len()..).unwrap_or(&[]);
            let terminated = words.iter().any(|w| w.0.to_le_bytes().contains(&0));
            if !terminated {
                self.err_at(
                    def,
                    op,
                    nref + info.lits.len(),
                    Rule::LiteralValue,
                    "string is not null-terminated".into(),
                );
            }
        }
        match op.opcode {
            OpCode::Label => {
                let Some(c) = op.construct() else {
                    return;
                };
                let want = match c {
                    Construct::None => 0,
                    Construct::StructuredSelection => 1,
                    Construct::StructuredLoop => 2,
                };
                if nref != want {
                    self.err_at(
                        def,
                        op,
                        nref,
                        Rule::ConstructOperands,
                        format!("{c} takes {want} labels, found {nref}"),
                    );
                } else if want == 2 && op.arg(0) == op.arg(1) {
                    self.err_at(
                        def,
                        op,
                        1,
                        Rule::ConstructOperands,
                        "the loop's merge block is also its continue target".into(),
                    );
                }
            }
            OpCode::ImageGather => {
                // The component a gather reads: x, y, z or w.
                if let Some(c) = op.lit(0).filter(|&c| c > 3) {
                    let detail = format!("gather of component {c}");
                    self.err_at(def, op, nref, Rule::LiteralValue, detail);
                }
            }
            OpCode::SetFpMode => {
                if let Some(m) = op.lit(0).and_then(RoundMode::from_literal) {
                    if !matches!(m, RoundMode::Zero | RoundMode::NearestEven) {
                        self.err_at(def, op, nref, Rule::FpRoundMode, format!("{m}"));
                    }
                }
            }
            OpCode::CounterAtomic => {
                if let Some(a) = op.lit(0).and_then(AtomicOp::from_literal) {
                    if !matches!(a, AtomicOp::Inc | AtomicOp::Dec) {
                        self.err_at(
                            def,
                            op,
                            nref,
                            Rule::LiteralValue,
                            format!("counter atomic must be Inc or Dec, found {a}"),
                        );
                    }
                }
            }
            OpCode::Constant => match op.ty.flattened_scalar_count() {
                None => self.err(
                    def,
                    op,
                    Rule::ConstantLiterals,
                    format!("unbounded type {}", op.ty),
                ),
                Some(n) if n != lits.len() as u64 => self.err(
                    def,
                    op,
                    Rule::ConstantLiterals,
                    format!("{} needs {n} literals, found {}", op.ty, lits.len()),
                ),
                Some(_) => {}
            },
            _ => {}
        }
    }

    /// The opcode's result rule.
    fn check_result(&mut self, def: SsaDef, op: &Op) {
        use ScalarType as S;
        let t = &op.ty;
        let vec2 = |s: ScalarType| {
            t.as_basic().is_some_and(|b| b.vec_size() == 2) && self.basic_of(t, |x| x == s)
        };
        let ok = match op.opcode.info().result {
            ResultRule::Void => t.is_void(),
            ResultRule::Any => true,
            ResultRule::Value => !t.is_void(),
            ResultRule::Bool => self.scalar_of(t, |s| s == S::Bool),
            ResultRule::Float => self.basic_of(t, S::is_float),
            ResultRule::F32 => self.basic_of(t, |s| s == S::F32),
            ResultRule::Int => self.basic_of(t, S::is_int),
            ResultRule::U32 => self.scalar_of(t, |s| s == S::U32),
            ResultRule::Vec2U32 => vec2(S::U32),
            ResultRule::Vec2I32 => vec2(S::I32),
            ResultRule::Vec2F32 => vec2(S::F32),
            ResultRule::Scalar => self.scalar_of(t, S::is_numeric),
            ResultRule::Basic => self.basic_of(t, |s| s.is_numeric() || s == S::Bool),
            // A descriptor's type comes from its declaration, never left to type resolution.
            ResultRule::Descriptor => t.is_scalar() && t.base_type().is_some_and(S::is_descriptor),
            ResultRule::AtomicResult => t.is_void() || self.scalar_of(t, S::is_int),
            ResultRule::Composite => t.is_struct() || t.is_array(),
        };
        if !ok {
            self.err(
                def,
                op,
                Rule::ResultType,
                format!("{} is not {:?}", t, op.opcode.info().result),
            );
        }
    }

    /// Reports [`Rule::OperandType`] for operand `i` unless `ok` holds for its type.
    fn want(&mut self, def: SsaDef, op: &Op, i: usize, ok: bool, what: impl fmt::Display) {
        if !ok {
            let found = self
                .operand_type(op, i)
                .map_or_else(|| "nothing".to_string(), |t| t.to_string());
            self.err_at(
                def,
                op,
                i,
                Rule::OperandType,
                format!("expected {what}, found {found}"),
            );
        }
    }

    /// Checks operand `i` (if it references a live op) with `pred` on its type.
    fn want_type(
        &mut self,
        def: SsaDef,
        op: &Op,
        i: usize,
        what: impl fmt::Display,
        pred: impl Fn(&Self, &Type) -> bool,
    ) {
        if let Some(t) = self.operand_type(op, i) {
            let ok = pred(self, &t);
            self.want(def, op, i, ok, what);
        }
    }

    /// Operand `i` must have the result type of `op`.
    fn want_result_type(&mut self, def: SsaDef, op: &Op, i: usize) {
        let rt = op.ty;
        self.want_type(def, op, i, rt, |v, t| v.same_type(t, &rt));
    }

    /// Integer operand `i`, related to the result type as `m` says.
    fn want_int(&mut self, def: SsaDef, op: &Op, i: usize, m: IntMatch) {
        let rt = op.ty;
        self.want_type(def, op, i, "an integer matching the result", |v, t| {
            if !v.basic_of(t, ScalarType::is_int) {
                return false;
            }
            let (Some(a), Some(r)) = (t.as_basic(), rt.as_basic()) else {
                return m == IntMatch::Any;
            };
            match m {
                IntMatch::Any => true,
                IntMatch::VecSize => a.vec_size() == r.vec_size(),
                IntMatch::Shape => {
                    a.vec_size() == r.vec_size()
                        && match (a.base().bit_size(), r.base().bit_size()) {
                            (Some(x), Some(y)) => x == y,
                            _ => true,
                        }
                }
            }
        });
    }

    /// Opcode-specific operand and result type rules.
    fn check_specific(&mut self, def: SsaDef, op: &Op, nref: usize) {
        use OpCode::*;
        use ScalarType as S;
        let rt = op.ty;
        if op.flags.contains(OpFlags::SPARSE_FEEDBACK) {
            // The feedback (what `CheckSparseAccess` reads), then the data.
            let feedback_ok = !rt.is_array()
                && rt.members().len() == 2
                && rt.members()[0].vec_size() == 1
                && self.kind_ok(rt.members()[0].base(), |s| {
                    s.is_int() && s.bit_size() == Some(32)
                });
            if !feedback_ok {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt}: a sparse access gives a 32-bit integer feedback and its data"),
                );
            }
        }
        if let (Some(stages), Some(stage)) = (op.opcode.stages(), self.stage) {
            if !stages.contains(ShaderStageMask::from_stage(stage)) {
                self.err(def, op, Rule::OpStage, format!("in a {stage} shader"));
            }
        }
        // Constant addresses stay inside what they address (extracts check theirs below,
        // with the type they reach).
        if op.opcode.addresses_operand_type()
            && !matches!(op.opcode, CompositeExtract | CompositeInsert)
        {
            self.check_variable_address(def, op);
        }
        match op.opcode {
            FEq | FNe | FLt | FLe | FGt | FGe | FIsNan => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a float scalar", |v, t| {
                        v.scalar_of(t, S::is_float)
                    });
                }
                self.want_same_operands(def, op, nref);
            }
            IEq | INe | SLt | SLe | SGt | SGe | ULt | ULe | UGt | UGe => {
                for i in 0..nref {
                    self.want_type(def, op, i, "an integer scalar", |v, t| {
                        v.scalar_of(t, S::is_int)
                    });
                }
                self.want_same_bits(def, op, nref);
            }
            BAnd | BOr | BEq | BNe | BNot => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a bool scalar", |v, t| {
                        v.scalar_of(t, |s| s == S::Bool)
                    });
                }
            }
            Select => {
                // One condition for the whole value, or one per component.
                let n = rt.as_basic().map_or(0, |b| b.vec_size());
                self.want_type(def, op, 0, format_args!("bool or vec{n}<bool>"), |v, t| {
                    v.basic_of(t, |s| s == S::Bool)
                        && t.as_basic()
                            .is_some_and(|b| b.vec_size() == 1 || b.vec_size() == n)
                });
                self.want_result_type(def, op, 1);
                self.want_result_type(def, op, 2);
            }
            FAbs | FNeg | FAdd | FSub | FMul | FMulLegacy | FMad | FMadLegacy | FDiv | FRcp
            | FSqrt | FRsq | FExp2 | FLog2 | FFract | FRound | FMin | FMax | FClamp | FSin
            | FCos | FPow | FPowLegacy => {
                for i in 0..nref {
                    self.want_result_type(def, op, i);
                }
            }
            FDot | FDotLegacy => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a float vector", |v, t| {
                        t.is_vector() && v.basic_of(t, S::is_float)
                    });
                }
                self.want_same_operands(def, op, nref);
                if let Some(a) = self.operand_type(op, 0).and_then(|t| t.base_type()) {
                    let ok = rt.is_scalar() && self.same_type(&rt, &Type::scalar(a));
                    if !ok {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("expected {a}, found {rt}"),
                        );
                    }
                }
            }
            IAnd | IOr | IXor | INot | IAdd | ISub | IAbs | INeg | IMul | UDiv | UMod | SMin
            | SMax | SClamp | UMin | UMax | UClamp => {
                for i in 0..nref {
                    self.want_int(def, op, i, IntMatch::Shape);
                }
            }
            // Offsets, counts and shift amounts may have another bit size, but one of them
            // per component (SPIR-V needs the result's vector size).
            IBitInsert => {
                for i in 0..nref {
                    let m = if i < 2 {
                        IntMatch::Shape
                    } else {
                        IntMatch::VecSize
                    };
                    self.want_int(def, op, i, m);
                }
                self.want_same_offset_and_count(def, op, 2);
            }
            UBitExtract | SBitExtract | IShl | SShr | UShr => {
                for i in 0..nref {
                    let m = if i == 0 {
                        IntMatch::Shape
                    } else {
                        IntMatch::VecSize
                    };
                    self.want_int(def, op, i, m);
                }
                if matches!(op.opcode, UBitExtract | SBitExtract) {
                    self.want_same_offset_and_count(def, op, 1);
                }
            }
            IBitCount | IBitReverse | IFindLsb | SFindMsb | UFindMsb => {
                self.want_int(def, op, 0, IntMatch::VecSize);
            }
            UMsad => {
                // Sums of byte differences of 32-bit words (`msad4` per component).
                if !self.basic_of(&rt, |s| {
                    s.is_int() && s.bit_size() != Some(16) && s.bit_size() != Some(64)
                }) {
                    self.err(
                        def,
                        op,
                        Rule::ResultType,
                        format!("{rt} is not a 32-bit integer"),
                    );
                }
                for i in 0..nref {
                    self.want_int(def, op, i, IntMatch::Shape);
                }
            }
            IAddCarry | ISubBorrow | SMulExtended | UMulExtended => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a 32-bit integer scalar", |v, t| {
                        v.scalar_of(t, |s| s.is_int() && s.bit_size() == Some(32))
                    });
                }
            }
            ConvertFtoF | ConvertFtoI | ConvertItoF | ConvertItoI => {
                let (src_float, dst_float) = match op.opcode {
                    ConvertFtoF => (true, true),
                    ConvertFtoI => (true, false),
                    ConvertItoF => (false, true),
                    _ => (false, false),
                };
                let kind = |f: bool| if f { "float" } else { "integer" };
                let pred = |f: bool| move |s: ScalarType| if f { s.is_float() } else { s.is_int() };
                if !self.basic_of(&rt, pred(dst_float)) {
                    self.err(
                        def,
                        op,
                        Rule::ResultType,
                        format!("expected {}, found {rt}", kind(dst_float)),
                    );
                }
                let rsize = rt.as_basic().map(|b| b.vec_size());
                self.want_type(def, op, 0, kind(src_float), |v, t| {
                    v.basic_of(t, pred(src_float))
                        && (rsize.is_none() || t.as_basic().map(|b| b.vec_size()) == rsize)
                });
                self.check_no_op_conversion(def, op);
            }
            ConvertF32toPackedF16 => {
                let want = Type::vector(S::F32, 2);
                self.want_type(def, op, 0, "vec2<f32>", |v, t| v.same_type(t, &want));
            }
            ConvertPackedF16toF32 => {
                self.want_type(def, op, 0, "u32", |v, t| v.scalar_of(t, |s| s == S::U32));
            }
            Cast => {
                // Bits of one number reread as another (bools have no bits to reread).
                if !self.basic_of(&rt, S::is_numeric) {
                    self.err(def, op, Rule::ResultType, format!("{rt} is not a number"));
                }
                if let Some(st) = self.operand_type(op, 0) {
                    if !self.basic_of(&st, S::is_numeric) {
                        self.want(def, op, 0, false, "a number");
                    } else if let (Some(a), Some(b)) = (st.total_bits(), rt.total_bits()) {
                        if a != b {
                            self.err(
                                def,
                                op,
                                Rule::CastBitSize,
                                format!("{st} ({a} bits) to {rt} ({b} bits)"),
                            );
                        }
                    }
                }
                self.check_no_op_conversion(def, op);
            }
            BranchConditional => {
                self.want_type(def, op, 0, "a bool scalar", |v, t| {
                    v.scalar_of(t, |s| s == S::Bool)
                });
            }
            Switch => {
                if nref & 1 != 0 {
                    self.err(
                        def,
                        op,
                        Rule::SwitchShape,
                        format!("{nref} operands: a case value has no label"),
                    );
                }
                self.want_type(def, op, 0, "an integer scalar", |v, t| {
                    v.scalar_of(t, S::is_int)
                });
                if let Some(sel) = self.operand_type(op, 0) {
                    let mut i = 2;
                    while i < nref {
                        if let Some(ct) = self.operand_type(op, i) {
                            if !self.same_type(&ct, &sel) {
                                self.err_at(
                                    def,
                                    op,
                                    i,
                                    Rule::SwitchShape,
                                    format!("case value of type {ct}, selector is {sel}"),
                                );
                            }
                        }
                        i += 2;
                    }
                }
            }
            Phi => {
                if nref & 1 != 0 {
                    self.err(
                        def,
                        op,
                        Rule::PhiShape,
                        format!("{nref} operands: a block has no value"),
                    );
                }
                let mut i = 1;
                while i < nref {
                    self.want_result_type(def, op, i);
                    i += 2;
                }
            }
            Return => self.check_return(def, op),
            FunctionCall => {
                // Arguments match the callee's parameters, in number and type; the result is
                // what the callee returns.
                if let Some((_, f)) = self.target(op, 0) {
                    if !self.same_type(&rt, &f.ty) {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("{rt} from a function returning {}", f.ty),
                        );
                    }
                    let params: Vec<SsaDef> = f.refs().flatten().collect();
                    if params.len() + 1 != nref {
                        self.err(
                            def,
                            op,
                            Rule::OperandCount,
                            format!("{} arguments for {} parameters", nref - 1, params.len()),
                        );
                    } else {
                        for (k, p) in params.iter().enumerate() {
                            let (Some(pt), Some(at)) =
                                (self.b.get(*p).map(|o| o.ty), self.operand_type(op, k + 1))
                            else {
                                continue;
                            };
                            let ok = self.same_type(&at, &pt);
                            self.want(def, op, k + 1, ok, pt);
                        }
                    }
                }
            }
            DerivX | DerivY => self.want_result_type(def, op, 0),
            ParamLoad => {
                if let Some(pt) = self.operand_type(op, 1) {
                    if !self.same_type(&pt, &rt) {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("the parameter is {pt}, not {rt}"),
                        );
                    }
                }
            }
            DescriptorLoad => {
                if let Some((_, dcl)) = self.target(op, 0) {
                    let want = match dcl.opcode {
                        DclSampler => Some(S::Sampler),
                        DclCbv => Some(S::Cbv),
                        DclSrv => Some(S::Srv),
                        DclUav => Some(S::Uav),
                        DclUavCounter => Some(S::UavCounter),
                        _ => None,
                    };
                    if let Some(want) = want {
                        if !self.scalar_of(&rt, |s| s == want) {
                            self.err(
                                def,
                                op,
                                Rule::DescriptorType,
                                format!("{} needs {want}, found {rt}", dcl.opcode),
                            );
                        }
                    }
                }
                self.want_type(def, op, 1, "an integer scalar", |v, t| {
                    v.scalar_of(t, S::is_int)
                });
            }
            EntryPoint if nref == 0 => {
                self.err(def, op, Rule::EntryPointOperand, "no functions".into());
            }
            Function => self.enter_function(def, op, nref),
            CompositeInsert | CompositeExtract => {
                self.want_type(def, op, 1, "an integer address", |v, t| {
                    v.basic_of(t, S::is_int)
                });
                self.check_extract_or_insert(def, op, &rt);
            }
            CompositeConstruct => self.check_construct(def, op, &rt, nref),
            InputLoad
            | OutputLoad
            | OutputStore
            | ScratchLoad
            | ScratchStore
            | LdsLoad
            | LdsStore
            | LdsAtomic
            | PushDataLoad
            | BufferLoad
            | BufferStore
            | BufferAtomic
            | MemoryLoad
            | MemoryStore
            | MemoryAtomic
            | ConstantLoad
            | InterpolateAtCentroid
            | InterpolateAtSample
                if op.arg(1).is_some() =>
            {
                self.want_type(def, op, 1, "an integer address", |v, t| {
                    v.basic_of(t, S::is_int)
                });
            }
            // A temporary holds values of its declared type (`Unknown` scalars match any
            // scalar of the same shape); lowered IR has no temporaries to check.
            TmpLoad | TmpStore if self.unknown_ok() => {
                if let Some(tmp) = self.operand_type(op, 0) {
                    if op.opcode == TmpStore {
                        self.want_type(def, op, 1, tmp, |v, t| v.same_type(t, &tmp));
                    } else if !self.same_type(&rt, &tmp) {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("{rt} loaded from a temporary of type {tmp}"),
                        );
                    }
                }
            }
            DclInput | DclInputBuiltIn | DclOutput | DclOutputBuiltIn | DclLds | DclScratch
            | DclTmp | DclParam
                if rt.dims().contains(&0) =>
            {
                // Only resources (structured and raw buffers) have a run-time length.
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt}: an unbounded array has no size here"),
                );
            }
            ImageQuerySize => {
                // struct{size, layers}: the size a 32-bit integer scalar or vector, the layer
                // count a scalar of the same integer type.
                let fits = match rt.members() {
                    [size, layers] if rt.is_struct() && !rt.is_array() => {
                        let s = size.base();
                        s.is_int()
                            && s.bit_size() == Some(32)
                            && layers.vec_size() == 1
                            && layers.base() == s
                    }
                    _ => false,
                };
                if !fits {
                    self.err(
                        def,
                        op,
                        Rule::ResultType,
                        format!("{rt} is not struct{{size, layers}} of one 32-bit integer type"),
                    );
                }
            }
            ImageLoad | ImageStore | ImageAtomic | ImageSample | ImageGather | ImageComputeLod
            | ImageQueryMips => self.check_image_operands(def, op),
            DclInputBuiltIn | DclOutputBuiltIn => {
                let output = op.opcode == DclOutputBuiltIn;
                let bi = op.lit(0).and_then(BuiltIn::from_literal);
                if let (Some(bi), Some(stage)) = (bi, self.stage) {
                    if !bi.exists_in(stage, output) {
                        let dir = if output { "an output" } else { "an input" };
                        let detail = format!("built-in {bi} as {dir} of a {stage} shader");
                        self.err(def, op, Rule::OpStage, detail);
                    }
                }
            }
            Barrier => {
                // A workgroup-wide barrier needs a stage with workgroups.
                let workgroup = [0, 1]
                    .iter()
                    .any(|&i| op.lit(i).and_then(Scope::from_literal) == Some(Scope::Workgroup));
                if let Some(stage) = self.stage.filter(|s| workgroup && !s.has_workgroups()) {
                    let detail = format!("a workgroup barrier in a {stage} shader");
                    self.err(def, op, Rule::OpStage, detail);
                }
            }
            CheckSparseAccess => {
                // The feedback member of a sparse access's result.
                self.want_type(def, op, 0, "a 32-bit integer scalar", |v, t| {
                    v.scalar_of(t, |s| s.is_int() && s.bit_size() == Some(32))
                });
            }
            Pointer => {
                self.want_type(def, op, 0, "u64", |v, t| v.scalar_of(t, |s| s == S::U64));
            }
            InterpolateAtOffset => {
                if op.arg(1).is_some() {
                    self.want_type(def, op, 1, "an integer address", |v, t| {
                        v.basic_of(t, S::is_int)
                    });
                }
                let want = Type::vector(S::F32, 2);
                self.want_type(def, op, 2, "vec2<f32>", |v, t| v.same_type(t, &want));
            }
            _ => {}
        }
    }

    /// The image kind `op`'s descriptor (operand 0) was declared with, if it is an image,
    /// and whether it is a UAV.
    fn image_kind(&self, op: &Op) -> Option<(ResourceKind, bool)> {
        let (_, load) = self.target(op, 0)?;
        let (_, dcl) = self.target(load, 0)?;
        if load.opcode != OpCode::DescriptorLoad
            || !matches!(dcl.opcode, OpCode::DclSrv | OpCode::DclUav)
        {
            return None;
        }
        let kind = ResourceKind::from_literal(dcl.lit(3)?)?;
        let image = !kind.is_buffer() && kind != ResourceKind::AccelerationStructure;
        image.then_some((kind, dcl.opcode == OpCode::DclUav))
    }

    /// Image coordinates, layers, gradients and offsets fit the image's kind: a coordinate
    /// of its components (floats to sample, 32-bit integers to address texels), a layer of
    /// the coordinate's scalar type exactly where the kind is layered, gradients of the
    /// coordinate's type, and offsets of 32-bit integers, one per coordinate component
    /// (none on cube maps), constant on a sample.
    fn check_image_operands(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        let Some((kind, uav)) = self.image_kind(op) else {
            return;
        };
        if let Some(what) = image_op_misfit(op, kind, uav) {
            self.err_at(
                def,
                op,
                0,
                Rule::OperandType,
                format!("{} of {what}", op.opcode),
            );
        }
        let (coord, layer, offset) = match op.opcode {
            ImageQueryMips => return,
            ImageLoad => (3, Some(2), Some(5)),
            ImageStore | ImageAtomic => (2, Some(1), None),
            ImageSample | ImageGather => (3, Some(2), Some(4)),
            _ => (2, None, None),
        };
        let float = matches!(op.opcode, ImageSample | ImageGather | ImageComputeLod);
        let scalar_ok = |s: ScalarType| {
            if float {
                s == ScalarType::F32
            } else {
                matches!(s, ScalarType::I32 | ScalarType::U32)
            }
        };
        let n = kind.coord_components();
        let what = format!(
            "{n} {} for {kind}",
            if float { "f32" } else { "32-bit integers" }
        );
        self.want_type(def, op, coord, &what, |v, t| {
            v.basic_of(t, scalar_ok) && t.as_basic().is_some_and(|b| b.vec_size() == n)
        });
        if let Some(l) = layer {
            if op.arg(l).is_some() != kind.is_layered() {
                let what = if kind.is_layered() {
                    "a layer"
                } else {
                    "no layer"
                };
                self.want(def, op, l, false, format_args!("{what} for {kind}"));
            } else if let Some(c) = self.operand_type(op, coord) {
                let want = Type::scalar(c.base_type().unwrap_or(ScalarType::Unknown));
                self.want_type(def, op, l, want, |v, t| v.same_type(t, &want));
            }
        }
        if op.opcode == ImageSample {
            if let Some(c) = self.operand_type(op, coord) {
                for g in [8, 9] {
                    self.want_type(def, op, g, c, |v, t| v.same_type(t, &c));
                }
            }
        }
        let Some(o) = offset.filter(|&o| op.arg(o).is_some()) else {
            return;
        };
        let n = kind.offset_components();
        self.want_type(def, op, o, format_args!("{n} 32-bit integers"), |v, t| {
            v.basic_of(t, |s| matches!(s, ScalarType::I32 | ScalarType::U32))
                && t.as_basic().is_some_and(|b| b.vec_size() == n)
        });
        if op.opcode == ImageSample {
            if let Some((t, top)) = self.target(op, o) {
                if top.opcode != Constant {
                    let detail = format!("offset {t} is {}, not a Constant", top.opcode);
                    self.err_at(def, op, o, Rule::OperandOpcode, detail);
                }
            }
        }
    }

    /// `CompositeConstruct`: a vector from scalars and vectors of its scalar type whose
    /// components add up to its size (at least two operands); a struct or sized array from
    /// one operand per member or element, of that type.
    fn check_construct(&mut self, def: SsaDef, op: &Op, rt: &Type, nref: usize) {
        if let Some(b) = rt.as_basic() {
            if !b.is_vector() {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("expected a composite, found {rt}"),
                );
                return;
            }
            let want = Type::scalar(b.base());
            let mut n = 0u32;
            for i in 0..nref {
                let Some(t) = self.operand_type(op, i) else {
                    continue;
                };
                match t.as_basic() {
                    Some(c) if self.same_type(&Type::scalar(c.base()), &want) => {
                        n += u32::from(c.vec_size());
                    }
                    _ => {
                        self.want(def, op, i, false, format_args!("{want} or a vector of it"));
                        return;
                    }
                }
            }
            if nref < 2 || n != u32::from(b.vec_size()) {
                self.err(
                    def,
                    op,
                    Rule::OperandCount,
                    format!("{nref} operands with {n} components for {rt}"),
                );
            }
            return;
        }
        let arrays = rt.dims();
        let len = match arrays.last() {
            Some(0) => {
                self.err(def, op, Rule::ResultType, format!("{rt} has no size"));
                return;
            }
            Some(&n) => n as usize,
            None => rt.members().len(),
        };
        if nref != len {
            self.err(
                def,
                op,
                Rule::OperandCount,
                format!("{nref} operands for {rt}, which has {len} parts"),
            );
            return;
        }
        for i in 0..nref {
            let want = if arrays.is_empty() {
                Type::basic(rt.members()[i])
            } else {
                rt.element_type()
            };
            if let Some(t) = self.operand_type(op, i) {
                let ok = self.same_type(&t, &want);
                self.want(def, op, i, ok, want);
            }
        }
    }

    /// `CompositeExtract` with a constant address: every index must stay inside the
    /// composite (a struct member needs a constant index anyway), and the result must be the
    /// part the address reaches.
    /// `CompositeExtract` gives, and `CompositeInsert` writes, the type its address reaches in
    /// the composite (run-time indices pick any element); an insert gives the composite's type.
    fn check_extract_or_insert(&mut self, def: SsaDef, op: &Op, rt: &Type) {
        let (Some(ct), Some((_, addr))) = (self.operand_type(op, 0), self.target(op, 1)) else {
            return;
        };
        // Shapes are checked with `Unknown` scalars too (a scalar has no members to extract).
        let n = addr.ty.as_basic().map_or(0, |b| b.vec_size() as usize);
        let constant = addr.opcode == OpCode::Constant;
        let t = match ct.at_address((0..n).map(|k| if constant { addr.lit(k) } else { None })) {
            Ok(t) => t,
            Err(k) => {
                self.err_at(
                    def,
                    op,
                    1,
                    Rule::OperandType,
                    format!("index {k} of the address leaves {ct}"),
                );
                return;
            }
        };
        if op.opcode == OpCode::CompositeInsert {
            if !self.same_type(&ct, rt) {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt} is not the composite's {ct}"),
                );
            }
            self.want_type(def, op, 2, t, |v, vt| v.same_type(vt, &t));
        } else if !self.same_type(&t, rt) {
            self.err(
                def,
                op,
                Rule::ResultType,
                format!("the address reaches {t}, not {rt}"),
            );
        }
    }

    /// The address (operand 1) of an access to a variable or composite (operand 0: an input,
    /// output, scratch array, LDS, push data, constant, or the composite an insert writes)
    /// stays inside its type: one index per component, each constant one in range.
    fn check_variable_address(&mut self, def: SsaDef, op: &Op) {
        let (Some(vt), Some((_, addr))) = (self.operand_type(op, 0), self.target(op, 1)) else {
            return;
        };
        let n = addr.ty.as_basic().map_or(0, |b| b.vec_size() as usize);
        let constant = addr.opcode == OpCode::Constant;
        let indices = (0..n).map(|k| if constant { addr.lit(k) } else { None });
        if let Err(k) = vt.at_address(indices) {
            self.err_at(
                def,
                op,
                1,
                Rule::OperandType,
                format!("index {k} of the address leaves {vt}"),
            );
        }
    }

    /// A bit-field op's offset (operand `oi`) and count (the next) have one type: they are
    /// masked and clamped together.
    fn want_same_offset_and_count(&mut self, def: SsaDef, op: &Op, oi: usize) {
        if let Some(ot) = self.operand_type(op, oi) {
            self.want_type(
                def,
                op,
                oi + 1,
                format!("the offset's type {ot}"),
                |v, t| v.same_type(t, &ot),
            );
        }
    }

    /// Two operands of one type (comparisons, dot products).
    fn want_same_operands(&mut self, def: SsaDef, op: &Op, nref: usize) {
        if nref < 2 {
            return;
        }
        if let (Some(a), Some(b)) = (self.operand_type(op, 0), self.operand_type(op, 1)) {
            let ok = self.same_type(&a, &b);
            self.want(def, op, 1, ok, format_args!("{a} like operand 0"));
        }
    }

    /// Two integer operands of one bit size and vector size.
    fn want_same_bits(&mut self, def: SsaDef, op: &Op, nref: usize) {
        if nref < 2 {
            return;
        }
        if let (Some(a), Some(b)) = (self.operand_type(op, 0), self.operand_type(op, 1)) {
            let ok = match (a.as_basic(), b.as_basic()) {
                (Some(x), Some(y)) => {
                    x.vec_size() == y.vec_size()
                        && match (x.base().bit_size(), y.base().bit_size()) {
                            (Some(p), Some(q)) => p == q,
                            _ => true,
                        }
                }
                _ => true,
            };
            self.want(def, op, 1, ok, format_args!("the bit size of {a}"));
        }
    }

    fn check_no_op_conversion(&mut self, def: SsaDef, op: &Op) {
        if self.level != Level::Lowered {
            return;
        }
        if let Some(st) = self.operand_type(op, 0) {
            if st == op.ty {
                self.err(def, op, Rule::NoOpConversion, format!("{st} to {st}"));
            }
        }
    }

    fn check_return(&mut self, def: SsaDef, op: &Op) {
        let Some(fty) = self.func.as_ref().map(|f| f.ty) else {
            return;
        };
        match op.operands.first().map(|o| o.0) {
            None | Some(0) => {
                if !fty.is_void() {
                    self.err(
                        def,
                        op,
                        Rule::ReturnType,
                        format!("no value, function returns {fty}"),
                    );
                }
            }
            Some(_) => {
                let Some(vt) = self.operand_type(op, 0) else {
                    return;
                };
                if !self.same_type(&vt, &fty) {
                    self.err_at(
                        def,
                        op,
                        0,
                        Rule::ReturnType,
                        format!("{vt}, function returns {fty}"),
                    );
                }
            }
        }
    }

    /// Starts the state of a new function (reporting nesting) and records its parameters.
    fn enter_function(&mut self, def: SsaDef, op: &Op, nref: usize) {
        // The parameters are recorded for ParamLoad; the table is only built if needed.
        if nref > 0 && self.param_owner.is_empty() {
            self.param_owner = vec![0; self.b.id_bound()];
        }
        for i in 0..nref {
            if let Some(slot) = op.arg(i).and_then(|p| self.param_owner.get_mut(p.index())) {
                *slot = def.id();
            }
        }
    }

    /// Function, block and scope state after the op's own checks.
    fn update_control_flow(&mut self, def: SsaDef, op: &Op) {
        match op.opcode {
            OpCode::Function => {
                if self.func.is_some() {
                    self.err(
                        def,
                        op,
                        Rule::FunctionNesting,
                        "Function inside a function".into(),
                    );
                    self.finish_function(None);
                }
                let index = self.next_func;
                self.next_func += 1;
                let info = self.funcs.get(index).copied();
                let has_scoped = info.is_some_and(|f| f.has_scoped);
                let block_form =
                    self.level == Level::Lowered || info.is_some_and(|f| f.block_form(self.level));
                self.stack.clear();
                self.func = Some(FuncState {
                    index,
                    def: Some(def),
                    ty: op.ty,
                    block_form,
                    has_scoped,
                    first: true,
                    ..FuncState::default()
                });
                return;
            }
            OpCode::FunctionEnd => {
                if self.func.is_some() {
                    self.finish_function(Some((def, op)));
                }
                return;
            }
            _ => {}
        }
        if op.opcode.info().class == OpClass::Declaration {
            return;
        }
        let Some(f) = self.func.as_ref() else { return };
        let first = f.first;
        let block_form = f.block_form;
        let has_scoped = f.has_scoped;
        if let Some(f) = self.func.as_mut() {
            f.first = false;
        }
        if block_form {
            self.update_blocks(def, op);
        } else {
            self.update_scoped_body(def, op, first);
        }
        if has_scoped && op.opcode.is_scoped() {
            self.update_scopes(def, op);
        }
    }

    /// Block-form rules: every op in a block, blocks end with terminators, phis first.
    fn update_blocks(&mut self, def: SsaDef, op: &Op) {
        let Some(f) = self.func.as_mut() else { return };
        let mut report: Option<(Rule, String)> = None;
        if op.opcode == OpCode::Label {
            if f.in_block {
                let b = f.block.map_or_else(String::new, |b| format!("block {b} "));
                report = Some((
                    Rule::MissingTerminator,
                    format!("{b}falls through into {def}"),
                ));
            }
            f.in_block = true;
            f.seen_label = true;
            f.phi_ok = true;
            f.block = Some(def);
        } else {
            if !f.in_block {
                report = Some((
                    Rule::CodeOutsideBlock,
                    if f.seen_label {
                        "after a terminator".into()
                    } else {
                        "before the first Label".into()
                    },
                ));
                // Report a gap once: treat the rest as one (unlabelled) block.
                f.in_block = true;
                f.phi_ok = false;
                f.block = None;
            }
            if op.opcode == OpCode::Phi {
                if !f.phi_ok && report.is_none() {
                    report = Some((Rule::PhiPlacement, String::new()));
                }
            } else {
                f.phi_ok = false;
            }
            if op.opcode.is_terminator() {
                f.in_block = false;
            }
        }
        if let Some((rule, detail)) = report {
            self.err(def, op, rule, detail);
        }
    }

    /// Scoped-form rules: a leading Label, no block-form control flow.
    fn update_scoped_body(&mut self, def: SsaDef, op: &Op, first: bool) {
        if first {
            if op.opcode == OpCode::Label {
                if let Some(f) = self.func.as_mut() {
                    f.seen_label = true;
                }
            } else {
                self.err(
                    def,
                    op,
                    Rule::CodeOutsideBlock,
                    "function body must start with a Label".into(),
                );
            }
            return;
        }
        if matches!(
            op.opcode,
            OpCode::Label
                | OpCode::Branch
                | OpCode::BranchConditional
                | OpCode::Switch
                | OpCode::Phi
        ) {
            self.err(def, op, Rule::MixedControlFlow, String::new());
        }
    }

    /// Ends the current function: unterminated blocks, unclosed scopes, empty bodies.
    fn finish_function(&mut self, end: Option<(SsaDef, &Op)>) {
        let Some(f) = self.func.take() else { return };
        if let Some((def, op)) = end {
            if f.block_form && f.in_block {
                let b = f.block.map_or_else(String::new, |b| format!("block {b} "));
                self.err(
                    def,
                    op,
                    Rule::MissingTerminator,
                    format!("{b}reaches FunctionEnd"),
                );
            }
            if f.first {
                self.err(
                    def,
                    op,
                    Rule::CodeOutsideBlock,
                    "function has no blocks".into(),
                );
            }
        }
        while let Some(fr) = self.stack.pop() {
            let opcode = self.b.get(fr.opener).map(|o| o.opcode);
            self.push(
                Some(fr.opener),
                opcode,
                Rule::ScopeUnclosed,
                None,
                String::new(),
            );
        }
    }

    /// The scoped construct stack.
    fn update_scopes(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        let Some(r0) = op.arg(0) else { return };
        let opener = matches!(op.opcode, ScopedIf | ScopedLoop | ScopedSwitch);
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
                let mut selector = None;
                match kind {
                    ScopeKind::If => self.want_type(def, op, 1, "a bool scalar", |v, t| {
                        v.scalar_of(t, |s| s == ScalarType::Bool)
                    }),
                    ScopeKind::Switch => {
                        self.want_type(def, op, 1, "an integer scalar", |v, t| {
                            v.scalar_of(t, ScalarType::is_int)
                        });
                        selector = self.operand_type(op, 1);
                    }
                    ScopeKind::Loop => {}
                }
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
    fn new_scope(&mut self, parent: u32) -> u32 {
        let depth = self.scope_depth.get(parent as usize).map_or(0, |d| d + 1);
        self.scope_parent.push(parent);
        self.scope_depth.push(depth);
        (self.scope_parent.len() - 1) as u32
    }

    /// Makes `scope` the current region (a new child, a sibling arm, or an ancestor).
    fn set_scope(&mut self, scope: u32) {
        self.cur_scope = scope;
        let depth = self.scope_depth.get(scope as usize).copied().unwrap_or(0) as usize;
        if self.scope_chain.len() <= depth {
            self.scope_chain.resize(depth + 1, 0);
        }
        self.scope_chain[depth] = scope;
    }

    /// The innermost construct moves to its next arm (`else`, a switch case): a new region
    /// beside the previous arm's, so values of one arm are not used in another.
    fn next_arm(&mut self) {
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
    fn scope_visible(&self, def: u32) -> bool {
        let depth = |s: u32| self.scope_depth.get(s as usize).copied().unwrap_or(0);
        let d = depth(def);
        d <= depth(self.cur_scope) && self.scope_chain.get(d as usize) == Some(&def)
    }

    fn scope_mismatch(&mut self, def: SsaDef, op: &Op, r0: SsaDef, what: &str) {
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

    fn check_case_value(&mut self, def: SsaDef, op: &Op, selector: Option<Type>) {
        let (Some(v), Some(sel)) = (op.lit(0), selector) else {
            return;
        };
        let Some(bits) = sel.base_type().and_then(ScalarType::bit_size) else {
            return;
        };
        if !fits_bits(v, bits) {
            self.err_at(
                def,
                op,
                op.ref_count(),
                Rule::CaseValue,
                format!("{v:#x} does not fit {sel}"),
            );
        }
    }
}

/// Short description of what a scoped op's first operand names, for error details.
fn describe_ref(op: &Op) -> String {
    match op.arg(0) {
        Some(d) => format!("naming {d}"),
        None => "naming nothing".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::op::Operand;
    use crate::types::BasicType;
    use OpCode as O;
    use ScalarType as S;

    /// Builds a program in order; ids can be reserved ahead for forward references.
    struct P {
        b: Builder,
        next: u32,
    }

    impl P {
        fn new() -> Self {
            P {
                b: Builder::new(),
                next: 1,
            }
        }

        fn reserve(&mut self) -> SsaDef {
            let d = SsaDef::new(self.next).expect("ids start at 1");
            self.next += 1;
            d
        }

        fn put(&mut self, d: SsaDef, op: Op) -> SsaDef {
            self.b.add_with_id(d, op).expect("id is free");
            d
        }

        fn add(&mut self, op: Op) -> SsaDef {
            let d = self.reserve();
            self.put(d, op)
        }
    }

    /// Declarations shared by the test programs.
    #[allow(dead_code)]
    struct Ctx {
        ep: SsaDef,
        func: SsaDef,
        entry: SsaDef,
        f0: SsaDef,
        f1: SsaDef,
        i0: SsaDef,
        i1: SsaDef,
        i4: SsaDef,
        u0: SsaDef,
        t: SsaDef,
        inp: SsaDef,
        out: SsaDef,
        tmp: Option<SsaDef>,
        param: SsaDef,
        uav: SsaDef,
        sampler: SsaDef,
    }

    fn op(code: OpCode, ty: impl Into<Type>) -> Op {
        Op::new(code, ty)
    }

    fn void(code: OpCode) -> Op {
        Op::new(code, Type::VOID)
    }

    fn label(c: Construct) -> Op {
        void(O::Label).with_lit(c.to_literal())
    }

    fn ret() -> Op {
        void(O::Return).with_opt_ref(None)
    }

    fn f32c(v: f32) -> Op {
        op(O::Constant, S::F32).with_lit(u64::from(v.to_bits()))
    }

    /// Entry point, constants and declarations (a `DclTmp` if `tmp`); `func` is reserved but
    /// not placed.
    fn header_with(p: &mut P, tmp: bool) -> Ctx {
        let ep = p.reserve();
        let func = p.reserve();
        p.put(
            ep,
            void(O::EntryPoint)
                .with_ref(func)
                .with_lit(ShaderStage::Pixel.to_literal()),
        );
        let f0 = p.add(f32c(0.0));
        let f1 = p.add(f32c(1.0));
        let i0 = p.add(op(O::Constant, S::I32).with_lit(0));
        let i1 = p.add(op(O::Constant, S::I32).with_lit(1));
        let i4 = p.add(op(O::Constant, S::I32).with_lit(4));
        let u0 = p.add(op(O::Constant, S::U32).with_lit(0));
        let t = p.add(op(O::Constant, S::Bool).with_lit(1));
        let inp = p.add(
            op(O::DclInput, S::F32)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(0)
                .with_lit(0),
        );
        let out = p.add(
            op(O::DclOutput, S::F32)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(0)
                .with_lit(0),
        );
        let tmp = tmp.then(|| p.add(op(O::DclTmp, S::F32).with_ref(ep)));
        let param = p.add(op(O::DclParam, S::F32));
        let uav = p.add(
            op(O::DclUav, S::U32)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(0)
                .with_lit(1)
                .with_lit(ResourceKind::BufferTyped.to_literal())
                .with_lit(0),
        );
        let sampler = p.add(
            void(O::DclSampler)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(0)
                .with_lit(1),
        );
        Ctx {
            ep,
            func,
            entry: func,
            f0,
            f1,
            i0,
            i1,
            i4,
            u0,
            t,
            inp,
            out,
            tmp,
            param,
            uav,
            sampler,
        }
    }

    fn header(p: &mut P) -> Ctx {
        header_with(p, false)
    }

    /// `header`, then `Function`, an entry `Label`, `body`, `Return` and `FunctionEnd`.
    fn build(body: impl FnOnce(&mut P, &Ctx)) -> Builder {
        build_with(false, body)
    }

    fn build_with(tmp: bool, body: impl FnOnce(&mut P, &Ctx)) -> Builder {
        let mut p = P::new();
        let mut c = header_with(&mut p, tmp);
        p.put(c.func, void(O::Function));
        c.entry = p.add(label(Construct::None));
        body(&mut p, &c);
        p.add(ret());
        p.add(void(O::FunctionEnd));
        p.b
    }

    fn errors(b: &Builder, level: Level) -> Vec<ValidationError> {
        validate(b, level).err().unwrap_or_default()
    }

    fn dump(errs: &[ValidationError]) -> String {
        errs.iter().map(|e| format!("  {e}\n")).collect::<String>()
    }

    /// Asserts an error of `rule` for `def` (and `operand`, if given) at `level`.
    #[track_caller]
    fn expect(b: &Builder, level: Level, rule: Rule, def: Option<SsaDef>, operand: Option<usize>) {
        let errs = errors(b, level);
        let hit = errs
            .iter()
            .any(|e| e.rule == rule && e.def == def && (operand.is_none() || e.operand == operand));
        assert!(
            hit,
            "expected {rule:?} at {def:?} operand {operand:?}, got:\n{}",
            dump(&errs)
        );
    }

    #[track_caller]
    fn expect_ok(b: &Builder, level: Level) {
        let errs = errors(b, level);
        assert!(errs.is_empty(), "expected no errors, got:\n{}", dump(&errs));
    }

    fn fadd(a: SsaDef, b: SsaDef) -> Op {
        op(O::FAdd, S::F32).with_ref(a).with_ref(b)
    }

    // ---- positive programs ----

    #[test]
    fn minimal_program_is_valid_at_both_levels() {
        let b = build(|p, c| {
            let x = p.add(fadd(c.f0, c.f1));
            p.add(
                void(O::OutputStore)
                    .with_ref(c.out)
                    .with_opt_ref(None)
                    .with_ref(x),
            );
        });
        expect_ok(&b, Level::Structural);
        expect_ok(&b, Level::Lowered);
    }

    /// A frontend-style program: scoped control flow, temporaries, untyped values.
    fn scoped_program() -> Builder {
        build_with(true, |p, c| {
            let tmp = c.tmp.expect("tmp");
            let v = p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_opt_ref(None));
            p.add(void(O::TmpStore).with_ref(tmp).with_ref(v));
            let x = p.add(op(O::TmpLoad, S::Unknown).with_ref(tmp));
            let y = p.add(op(O::ConsumeAs, S::F32).with_ref(x));
            let cond = p.add(op(O::FLt, S::Bool).with_ref(y).with_ref(c.f0));
            let endif = p.reserve();
            let if1 = p.add(void(O::ScopedIf).with_ref(endif).with_ref(cond));
            p.add(void(O::TmpStore).with_ref(tmp).with_ref(c.f1));
            p.add(void(O::ScopedElse).with_ref(if1));
            p.add(void(O::TmpStore).with_ref(tmp).with_ref(c.f0));
            p.put(endif, void(O::ScopedEndIf).with_ref(if1));
            let endloop = p.reserve();
            let lp = p.add(void(O::ScopedLoop).with_ref(endloop));
            let endif2 = p.reserve();
            let if2 = p.add(void(O::ScopedIf).with_ref(endif2).with_ref(cond));
            p.add(void(O::ScopedLoopBreak).with_ref(lp));
            p.put(endif2, void(O::ScopedEndIf).with_ref(if2));
            let endsw = p.reserve();
            let sw = p.add(void(O::ScopedSwitch).with_ref(endsw).with_ref(c.i0));
            p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(1));
            p.add(void(O::ScopedLoopContinue).with_ref(lp));
            p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(u64::MAX)); // -1
            let endif3 = p.reserve();
            let if3 = p.add(void(O::ScopedIf).with_ref(endif3).with_ref(cond));
            p.add(void(O::ScopedSwitchBreak).with_ref(sw));
            p.put(endif3, void(O::ScopedEndIf).with_ref(if3));
            p.add(void(O::ScopedSwitchDefault).with_ref(sw));
            p.add(void(O::ScopedSwitchBreak).with_ref(sw));
            p.put(endsw, void(O::ScopedEndSwitch).with_ref(sw));
            p.add(ret()); // early return inside scoped code
            p.put(endloop, void(O::ScopedEndLoop).with_ref(lp));
            let z = p.add(op(O::TmpLoad, S::F32).with_ref(tmp));
            p.add(
                void(O::OutputStore)
                    .with_ref(c.out)
                    .with_opt_ref(None)
                    .with_ref(z),
            );
        })
    }

    #[test]
    fn scoped_program_is_structural_but_not_lowered() {
        let b = scoped_program();
        expect_ok(&b, Level::Structural);
        let errs = errors(&b, Level::Lowered);
        let mut rules: Vec<Rule> = errs.iter().map(|e| e.rule).collect();
        rules.sort();
        rules.dedup();
        assert_eq!(
            rules,
            vec![Rule::CodeOutsideBlock, Rule::NotLowered, Rule::UnknownType],
            "{}",
            dump(&errs)
        );
        // Every scoped op, temporary and ConsumeAs is named.
        let not_lowered = errs.iter().filter(|e| e.rule == Rule::NotLowered).count();
        let expected = b.iter().filter(|(_, o)| must_be_lowered(o.opcode)).count();
        assert_eq!(not_lowered, expected);
    }

    /// Structured SSA: if/else with merge, a loop with continue/merge and phis, a switch.
    fn structured_program() -> Builder {
        let mut p = P::new();
        let c = header(&mut p);
        p.put(c.func, void(O::Function));
        let [lthen, lelse, lmerge, lhead, lbody, lcase, ldef, lsm, lcont, lexit, inext] =
            std::array::from_fn(|_| p.reserve());
        p.add(
            void(O::Label)
                .with_ref(lmerge)
                .with_lit(Construct::StructuredSelection.to_literal()),
        );
        let v = p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_opt_ref(None));
        let cond = p.add(op(O::FLt, S::Bool).with_ref(v).with_ref(c.f0));
        p.add(
            void(O::BranchConditional)
                .with_ref(cond)
                .with_ref(lthen)
                .with_ref(lelse),
        );
        p.put(lthen, label(Construct::None));
        let a = p.add(fadd(v, c.f1));
        p.add(void(O::Branch).with_ref(lmerge));
        p.put(lelse, label(Construct::None));
        let m = p.add(op(O::FMul, S::F32).with_ref(v).with_ref(c.f1));
        p.add(void(O::Branch).with_ref(lmerge));
        p.put(lmerge, label(Construct::None));
        let ph = p.add(
            op(O::Phi, S::F32)
                .with_ref(lthen)
                .with_ref(a)
                .with_ref(lelse)
                .with_ref(m),
        );
        p.add(void(O::Branch).with_ref(lhead));
        p.put(
            lhead,
            void(O::Label)
                .with_ref(lexit)
                .with_ref(lcont)
                .with_lit(Construct::StructuredLoop.to_literal()),
        );
        let i = p.add(
            op(O::Phi, S::I32)
                .with_ref(lmerge)
                .with_ref(c.i0)
                .with_ref(lcont)
                .with_ref(inext),
        );
        let cmp = p.add(op(O::SLt, S::Bool).with_ref(i).with_ref(c.i4));
        p.add(
            void(O::BranchConditional)
                .with_ref(cmp)
                .with_ref(lbody)
                .with_ref(lexit),
        );
        p.put(
            lbody,
            void(O::Label)
                .with_ref(lsm)
                .with_lit(Construct::StructuredSelection.to_literal()),
        );
        p.add(
            void(O::Switch)
                .with_ref(i)
                .with_ref(ldef)
                .with_ref(c.i1)
                .with_ref(lcase),
        );
        p.put(lcase, label(Construct::None));
        p.add(void(O::Branch).with_ref(lsm));
        p.put(ldef, label(Construct::None));
        p.add(void(O::Branch).with_ref(lsm));
        p.put(lsm, label(Construct::None));
        p.add(void(O::Branch).with_ref(lcont));
        p.put(lcont, label(Construct::None));
        p.put(inext, op(O::IAdd, S::I32).with_ref(i).with_ref(c.i1));
        p.add(void(O::Branch).with_ref(lhead));
        p.put(lexit, label(Construct::None));
        p.add(
            void(O::OutputStore)
                .with_ref(c.out)
                .with_opt_ref(None)
                .with_ref(ph),
        );
        p.add(ret());
        p.add(void(O::FunctionEnd));
        p.b
    }

    #[test]
    fn structured_program_is_lowered() {
        let b = structured_program();
        expect_ok(&b, Level::Structural);
        expect_ok(&b, Level::Lowered);
    }

    #[test]
    fn large_straight_line_function_validates() {
        let n = 200_000;
        let mut p = P::new();
        let c = header(&mut p);
        p.put(c.func, void(O::Function));
        p.add(label(Construct::None));
        let mut x = c.f0;
        for _ in 0..n {
            x = p.add(fadd(x, c.f1));
        }
        p.add(
            void(O::OutputStore)
                .with_ref(c.out)
                .with_opt_ref(None)
                .with_ref(x),
        );
        p.add(ret());
        p.add(void(O::FunctionEnd));
        assert!(p.b.len() > n);
        expect_ok(&p.b, Level::Structural);
        expect_ok(&p.b, Level::Lowered);
    }

    #[test]
    fn break_and_continue_nesting() {
        // Continue from inside a switch nested in a loop, break from nested ifs: valid.
        let b = scoped_program();
        expect_ok(&b, Level::Structural);
        // Switch break from inside a loop nested in the switch: invalid.
        let mut bad = None;
        let b = build(|p, c| {
            let endsw = p.reserve();
            let sw = p.add(void(O::ScopedSwitch).with_ref(endsw).with_ref(c.i0));
            p.add(void(O::ScopedSwitchDefault).with_ref(sw));
            let endloop = p.reserve();
            let lp = p.add(void(O::ScopedLoop).with_ref(endloop));
            bad = Some(p.add(void(O::ScopedSwitchBreak).with_ref(sw)));
            p.put(endloop, void(O::ScopedEndLoop).with_ref(lp));
            p.put(endsw, void(O::ScopedEndSwitch).with_ref(sw));
        });
        expect(
            &b,
            Level::Structural,
            Rule::BreakOutsideConstruct,
            bad,
            Some(0),
        );
    }

    // ---- one test per rule ----

    #[test]
    fn rule_operand_count() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(fadd(c.f0, c.f1).with_ref(c.f1)));
        });
        expect(&b, Level::Structural, Rule::OperandCount, bad, None);
    }

    #[test]
    fn rule_null_operand() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::FAdd, S::F32).with_ref(c.f0).with_opt_ref(None)));
        });
        expect(&b, Level::Structural, Rule::NullOperand, bad, Some(1));
    }

    #[test]
    fn rule_dangling_reference() {
        let mut bad = None;
        let mut removed = None;
        let mut user = None;
        let mut b = build(|p, c| {
            bad = Some(p.add(op(O::FAdd, S::F32).with_ref(c.f0).with_lit(9999)));
            let big = op(O::FNeg, S::F32).with_lit(u64::MAX);
            p.add(big);
            let r = p.add(fadd(c.f0, c.f1));
            removed = Some(r);
            user = Some(p.add(fadd(c.f0, r)));
        });
        b.remove(removed.expect("set"));
        expect(&b, Level::Structural, Rule::DanglingReference, bad, Some(1));
        expect(
            &b,
            Level::Structural,
            Rule::DanglingReference,
            user,
            Some(1),
        );
    }

    #[test]
    fn rule_forward_reference() {
        let mut bad = None;
        let mut selfref = None;
        let b = build(|p, c| {
            let later = p.reserve();
            bad = Some(p.add(fadd(c.f0, later)));
            p.put(later, fadd(c.f0, c.f1));
            let s = p.reserve();
            selfref = Some(p.put(s, fadd(c.f0, s)));
        });
        expect(&b, Level::Structural, Rule::ForwardReference, bad, Some(1));
        expect(
            &b,
            Level::Structural,
            Rule::ForwardReference,
            selfref,
            Some(1),
        );
    }

    #[test]
    fn rule_operand_opcode() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::TmpLoad, S::F32).with_ref(c.inp)));
        });
        expect(&b, Level::Structural, Rule::OperandOpcode, bad, Some(0));
    }

    #[test]
    fn rule_dcl_misuse() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(fadd(c.inp, c.f0)));
        });
        expect(&b, Level::Structural, Rule::DclMisuse, bad, Some(0));
    }

    #[test]
    fn rule_declaration_after_code() {
        let mut b = build(|_, _| {});
        let bad = b.add(f32c(2.0));
        expect(
            &b,
            Level::Structural,
            Rule::DeclarationAfterCode,
            Some(bad),
            None,
        );
    }

    #[test]
    fn rule_code_outside_function() {
        let mut b = build(|_, _| {});
        let bad = b.add(void(O::Demote));
        expect(
            &b,
            Level::Structural,
            Rule::CodeOutsideFunction,
            Some(bad),
            None,
        );
    }

    #[test]
    fn rule_function_nesting() {
        let mut b = build(|_, _| {});
        let stray = b.add(void(O::FunctionEnd));
        expect(
            &b,
            Level::Structural,
            Rule::FunctionNesting,
            Some(stray),
            None,
        );

        let mut p = P::new();
        let c = header(&mut p);
        p.put(c.func, void(O::Function));
        p.add(label(Construct::None));
        p.add(ret());
        expect(
            &p.b,
            Level::Structural,
            Rule::FunctionNesting,
            Some(c.func),
            None,
        );
    }

    #[test]
    fn rule_entry_point_count() {
        let mut b = build(|_, _| {});
        let f = b
            .iter()
            .find(|(_, o)| o.opcode == O::Function)
            .map(|(d, _)| d);
        let second = b.add_decl(
            void(O::EntryPoint)
                .with_opt_ref(f)
                .with_lit(ShaderStage::Pixel.to_literal()),
        );
        expect(
            &b,
            Level::Structural,
            Rule::EntryPointCount,
            Some(second),
            None,
        );

        let mut none = Builder::new();
        let f = none.add(void(O::Function));
        let _ = f;
        none.add(label(Construct::None));
        none.add(ret());
        none.add(void(O::FunctionEnd));
        expect(&none, Level::Structural, Rule::EntryPointCount, None, None);
    }

    #[test]
    fn rule_entry_point_operand() {
        let mut b = build(|_, _| {});
        let ep = SsaDef::new(1).expect("nonzero");
        let f0 = SsaDef::new(3).expect("nonzero");
        b.set_operand(ep, 0, Operand::from_def(f0));
        expect(
            &b,
            Level::Structural,
            Rule::EntryPointOperand,
            Some(ep),
            Some(0),
        );
    }

    #[test]
    fn rule_entry_point_functions_take_and_give_nothing() {
        // From the ir_compile fuzz target: a hull shader's patch-constant function was a fork
        // phase taking the instance id; the pipeline calls it with no arguments.
        let program = |func: &str| {
            format!(
                "%1 = EntryPoint %3 Pixel
%2 = DclParam u32
%3 = {func}
%4 = Label None
%5 = Return void null
%6 = FunctionEnd
"
            )
        };
        assert!(text_errors(&program("Function void"), Level::Structural).is_empty());
        for func in ["Function void %2", "Function u32"] {
            let errs = text_errors(&program(func), Level::Structural);
            assert!(
                errs.contains(&(Rule::EntryPointOperand, 1)),
                "{func}: {errs:?}"
            );
        }
    }

    #[test]
    fn rule_param_load_target() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::ParamLoad, S::F32).with_ref(c.func).with_ref(c.param)));
        });
        expect(&b, Level::Structural, Rule::ParamLoadTarget, bad, Some(1));

        // A function with the parameter loads it fine; another function may not name it.
        let mut p = P::new();
        let c = header(&mut p);
        p.put(c.func, void(O::Function));
        p.add(label(Construct::None));
        p.add(ret());
        p.add(void(O::FunctionEnd));
        let f = p.add(void(O::Function).with_ref(c.param));
        p.add(label(Construct::None));
        p.add(op(O::ParamLoad, S::F32).with_ref(f).with_ref(c.param));
        p.add(ret());
        p.add(void(O::FunctionEnd));
        p.add(void(O::Function).with_ref(c.param));
        p.add(label(Construct::None));
        let bad = p.add(op(O::ParamLoad, S::F32).with_ref(f).with_ref(c.param));
        p.add(ret());
        p.add(void(O::FunctionEnd));
        let errs = errors(&p.b, Level::Lowered);
        assert_eq!(errs.len(), 1, "{}", dump(&errs));
        assert_eq!(errs[0].rule, Rule::ParamLoadTarget);
        assert_eq!((errs[0].def, errs[0].operand), (Some(bad), Some(0)));
    }

    #[test]
    fn rule_literal_value() {
        let mut bad = None;
        let b = build(|p, _| {
            bad = Some(
                p.add(
                    void(O::Barrier)
                        .with_lit(99)
                        .with_lit(0)
                        .with_lit(MemoryTypeMask::Lds.to_literal()),
                ),
            );
        });
        expect(&b, Level::Structural, Rule::LiteralValue, bad, Some(0));

        let mut b = build(|_, _| {});
        let ep = SsaDef::new(1).expect("nonzero");
        let name = b.add_decl(void(O::DebugName).with_ref(ep).with_lit(u64::MAX));
        expect(
            &b,
            Level::Structural,
            Rule::LiteralValue,
            Some(name),
            Some(1),
        );
        let flags = b.add_decl(
            op(O::DclUav, S::U32)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(1)
                .with_lit(1)
                .with_lit(ResourceKind::BufferRaw.to_literal())
                .with_lit(1 << 20),
        );
        expect(
            &b,
            Level::Structural,
            Rule::LiteralValue,
            Some(flags),
            Some(5),
        );
    }

    #[test]
    fn rule_construct_operands() {
        let mut count = None;
        let mut kind = None;
        let b = build(|p, c| {
            p.add(void(O::Branch).with_ref(SsaDef::new(p.next).expect("nonzero")));
            count = Some(p.add(label(Construct::StructuredSelection)));
            let l = p.reserve();
            p.add(void(O::Branch).with_ref(l));
            kind = Some(
                p.put(
                    l,
                    void(O::Label)
                        .with_ref(c.f0)
                        .with_ref(c.f1)
                        .with_lit(Construct::StructuredLoop.to_literal()),
                ),
            );
        });
        expect(
            &b,
            Level::Structural,
            Rule::ConstructOperands,
            count,
            Some(0),
        );
        expect(
            &b,
            Level::Structural,
            Rule::ConstructOperands,
            kind,
            Some(0),
        );
    }

    #[test]
    fn rule_fp_round_mode() {
        let mut b = build(|_, _| {});
        let ep = SsaDef::new(1).expect("nonzero");
        let ok = b.add_decl(
            void(O::SetFpMode)
                .with_ref(ep)
                .with_lit(RoundMode::NearestEven.to_literal())
                .with_lit(DenormMode::Preserve.to_literal()),
        );
        b.set_type(ok, Type::scalar(S::F32));
        expect_ok(&b, Level::Lowered);
        let bad = b.add_decl(
            op(O::SetFpMode, S::F16)
                .with_ref(ep)
                .with_lit(RoundMode::PositiveInf.to_literal())
                .with_lit(DenormMode::Flush.to_literal()),
        );
        expect(&b, Level::Structural, Rule::FpRoundMode, Some(bad), Some(1));
    }

    #[test]
    fn rule_constant_literals() {
        let mut b = build(|_, _| {});
        let short = b.add_decl(op(O::Constant, Type::vector(S::F32, 2)).with_lit(0));
        let unbounded = b.add_decl(op(
            O::Constant,
            Type::scalar(S::U32).array_of(0).expect("valid"),
        ));
        expect(
            &b,
            Level::Structural,
            Rule::ConstantLiterals,
            Some(short),
            None,
        );
        expect(
            &b,
            Level::Structural,
            Rule::ConstantLiterals,
            Some(unbounded),
            None,
        );
    }

    #[test]
    fn rule_op_flags() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(fadd(c.f0, c.f1).with_flags(OpFlags(0x80) | OpFlags::PRECISE)));
        });
        expect(&b, Level::Structural, Rule::OpFlags, bad, None);
    }

    #[test]
    fn rule_code_outside_block() {
        let mut bad = None;
        let b = build(|p, c| {
            let l = p.reserve();
            p.add(void(O::Branch).with_ref(l));
            bad = Some(p.add(fadd(c.f0, c.f1)));
            p.put(l, label(Construct::None));
        });
        expect(&b, Level::Structural, Rule::CodeOutsideBlock, bad, None);

        // A scoped function must still start with a Label.
        let mut p = P::new();
        let c = header(&mut p);
        p.put(c.func, void(O::Function));
        let first = p.add(fadd(c.f0, c.f1));
        p.add(ret());
        p.add(void(O::FunctionEnd));
        expect(
            &p.b,
            Level::Structural,
            Rule::CodeOutsideBlock,
            Some(first),
            None,
        );
    }

    #[test]
    fn rule_missing_terminator() {
        let mut bad = None;
        let b = build(|p, c| {
            p.add(fadd(c.f0, c.f1));
            bad = Some(p.add(label(Construct::None)));
        });
        expect(&b, Level::Structural, Rule::MissingTerminator, bad, None);

        let mut p = P::new();
        let c = header(&mut p);
        p.put(c.func, void(O::Function));
        p.add(label(Construct::None));
        let end = p.add(void(O::FunctionEnd));
        expect(
            &p.b,
            Level::Lowered,
            Rule::MissingTerminator,
            Some(end),
            None,
        );
    }

    #[test]
    fn rule_phi_placement() {
        let mut bad = None;
        let b = build(|p, c| {
            let l = p.reserve();
            p.add(void(O::Branch).with_ref(l));
            p.put(l, label(Construct::None));
            p.add(fadd(c.f0, c.f1));
            bad = Some(p.add(op(O::Phi, S::F32).with_ref(c.entry).with_ref(c.f0)));
        });
        expect(&b, Level::Structural, Rule::PhiPlacement, bad, None);
    }

    #[test]
    fn rule_branch_target() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(void(O::Branch).with_ref(c.f0)));
            p.add(label(Construct::None));
        });
        expect(&b, Level::Structural, Rule::BranchTarget, bad, Some(0));
    }

    #[test]
    fn rule_switch_shape() {
        let mut odd = None;
        let mut nonconst = None;
        let b = build(|p, c| {
            let l = p.reserve();
            odd = Some(p.add(void(O::Switch).with_ref(c.i0).with_ref(l).with_ref(c.i1)));
            p.put(l, label(Construct::None));
            let x = p.add(op(O::IAdd, S::I32).with_ref(c.i0).with_ref(c.i1));
            let l2 = p.reserve();
            nonconst = Some(
                p.add(
                    void(O::Switch)
                        .with_ref(c.i0)
                        .with_ref(l2)
                        .with_ref(x)
                        .with_ref(l2),
                ),
            );
            p.put(l2, label(Construct::None));
        });
        expect(&b, Level::Structural, Rule::SwitchShape, odd, None);
        expect(&b, Level::Structural, Rule::SwitchShape, nonconst, Some(2));
    }

    #[test]
    fn rule_phi_shape() {
        let mut bad = None;
        let b = build(|p, c| {
            let l = p.reserve();
            p.add(void(O::Branch).with_ref(l));
            p.put(l, label(Construct::None));
            bad = Some(p.add(op(O::Phi, S::F32).with_ref(c.entry)));
        });
        expect(&b, Level::Structural, Rule::PhiShape, bad, None);
    }

    #[test]
    fn rule_mixed_control_flow() {
        let mut bad = None;
        let b = build(|p, c| {
            let end = p.reserve();
            let lp = p.add(void(O::ScopedLoop).with_ref(end));
            bad = Some(p.add(void(O::Branch).with_ref(c.entry)));
            p.put(end, void(O::ScopedEndLoop).with_ref(lp));
        });
        expect(&b, Level::Structural, Rule::MixedControlFlow, bad, None);
    }

    #[test]
    fn rule_scope_mismatch() {
        let mut bad = None;
        let b = build(|p, c| {
            let endif = p.reserve();
            let if1 = p.add(void(O::ScopedIf).with_ref(endif).with_ref(c.t));
            let endloop = p.reserve();
            let lp = p.add(void(O::ScopedLoop).with_ref(endloop));
            bad = Some(p.put(endif, void(O::ScopedEndIf).with_ref(if1)));
            p.put(endloop, void(O::ScopedEndLoop).with_ref(lp));
        });
        expect(&b, Level::Structural, Rule::ScopeMismatch, bad, Some(0));
    }

    #[test]
    fn rule_scope_end() {
        let mut opener = None;
        let mut end = None;
        let b = build(|p, c| {
            let if1 = p.add(void(O::ScopedIf).with_ref(c.f0).with_ref(c.t));
            opener = Some(if1);
            end = Some(p.add(void(O::ScopedEndIf).with_ref(if1)));
        });
        expect(&b, Level::Structural, Rule::ScopeEnd, opener, Some(0));
        expect(&b, Level::Structural, Rule::ScopeEnd, end, Some(0));
    }

    #[test]
    fn rule_scope_unclosed() {
        let mut lp = None;
        let b = build(|p, _| {
            let end = p.reserve();
            lp = Some(p.add(void(O::ScopedLoop).with_ref(end)));
            // The end op never appears.
        });
        expect(&b, Level::Structural, Rule::DanglingReference, lp, Some(0));
        expect(&b, Level::Structural, Rule::ScopeUnclosed, lp, None);
    }

    #[test]
    fn rule_duplicate_else() {
        let mut bad = None;
        let b = build(|p, c| {
            let endif = p.reserve();
            let if1 = p.add(void(O::ScopedIf).with_ref(endif).with_ref(c.t));
            p.add(void(O::ScopedElse).with_ref(if1));
            bad = Some(p.add(void(O::ScopedElse).with_ref(if1)));
            p.put(endif, void(O::ScopedEndIf).with_ref(if1));
        });
        expect(&b, Level::Structural, Rule::DuplicateElse, bad, None);
    }

    #[test]
    fn rule_break_outside_construct() {
        let mut bad = None;
        let b = build(|p, _| {
            let end = p.reserve();
            let lp = p.add(void(O::ScopedLoop).with_ref(end));
            p.put(end, void(O::ScopedEndLoop).with_ref(lp));
            bad = Some(p.add(void(O::ScopedLoopBreak).with_ref(lp)));
        });
        expect(
            &b,
            Level::Structural,
            Rule::BreakOutsideConstruct,
            bad,
            Some(0),
        );
    }

    #[test]
    fn rule_composite_shapes() {
        let (mut three, mut mixed, mut oob, mut wrong) = (None, None, None, None);
        let (mut insert_result, mut insert_value) = (None, None);
        let vec2 = Type::vector(S::F32, 2);
        let b = build(|p, c| {
            let construct = || op(O::CompositeConstruct, vec2);
            three = Some(p.add(construct().with_ref(c.f0).with_ref(c.f1).with_ref(c.f0)));
            mixed = Some(p.add(construct().with_ref(c.f0).with_ref(c.i0)));
            let v = p.add(construct().with_ref(c.f0).with_ref(c.f1));
            oob = Some(p.add(op(O::CompositeExtract, S::F32).with_ref(v).with_ref(c.i4)));
            wrong = Some(p.add(op(O::CompositeExtract, S::I32).with_ref(v).with_ref(c.i1)));
            p.add(op(O::CompositeExtract, S::F32).with_ref(v).with_ref(c.i1));
            // Inserts give the composite's type and write what the address reaches (the
            // composite sweep test found neither checked).
            let insert = |ty: Type, value: SsaDef| {
                op(O::CompositeInsert, ty)
                    .with_ref(v)
                    .with_ref(c.i1)
                    .with_ref(value)
            };
            p.add(insert(vec2, c.f1));
            insert_result = Some(p.add(insert(Type::scalar(S::F32), c.f1)));
            insert_value = Some(p.add(insert(vec2, c.i1)));
        });
        let errs = errors(&b, Level::Structural);
        assert_eq!(errs.len(), 6, "{}", dump(&errs));
        expect(&b, Level::Structural, Rule::ResultType, insert_result, None);
        expect(
            &b,
            Level::Structural,
            Rule::OperandType,
            insert_value,
            Some(2),
        );
        expect(&b, Level::Structural, Rule::OperandCount, three, None);
        expect(&b, Level::Structural, Rule::OperandType, mixed, Some(1));
        expect(&b, Level::Structural, Rule::OperandType, oob, Some(1));
        expect(&b, Level::Structural, Rule::ResultType, wrong, None);
    }

    #[test]
    fn rule_addresses_and_values() {
        let (mut float_addr, mut no_value, mut name_of_name) = (None, None, None);
        let (mut past_scalar, mut past_vector, mut float_interpolant) = (None, None, None);
        let b = build(|p, c| {
            float_addr = Some(p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_ref(c.f0)));
            // The input is one f32: no component to pick, whether the index is constant or not.
            past_scalar = Some(p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_ref(c.i0)));
            let runtime = p.add(op(O::InputLoad, S::I32).with_ref(c.inp).with_opt_ref(None));
            let pair = p.add(
                op(O::CompositeConstruct, BasicType::vector(S::I32, 2))
                    .with_ref(runtime)
                    .with_ref(runtime),
            );
            past_vector = Some(p.add(op(O::OutputLoad, S::F32).with_ref(c.out).with_ref(pair)));
            float_interpolant = Some(
                p.add(
                    op(O::InterpolateAtCentroid, S::F32)
                        .with_ref(c.inp)
                        .with_ref(c.f0),
                ),
            );
            let store = p.add(
                void(O::OutputStore)
                    .with_ref(c.out)
                    .with_opt_ref(None)
                    .with_ref(c.f1),
            );
            no_value = Some(p.add(fadd(store, c.f0)));
            let name = p.add(void(O::DebugName).with_ref(store).with_str("a"));
            name_of_name = Some(p.add(void(O::DebugName).with_ref(name).with_str("b")));
        });
        expect(
            &b,
            Level::Structural,
            Rule::OperandType,
            float_addr,
            Some(1),
        );
        for def in [past_scalar, past_vector, float_interpolant] {
            expect(&b, Level::Structural, Rule::OperandType, def, Some(1));
        }
        expect(
            &b,
            Level::Structural,
            Rule::OperandOpcode,
            no_value,
            Some(0),
        );
        expect(
            &b,
            Level::Structural,
            Rule::OperandOpcode,
            name_of_name,
            Some(0),
        );
    }

    #[test]
    fn rule_modes_params_and_shift_counts() {
        let (mut mode, mut param, mut shift) = (None, None, None);
        let b = build(|p, c| {
            let fp = p.add(
                op(O::SetFpMode, S::F32)
                    .with_ref(c.ep)
                    .with_lit(0)
                    .with_lit(0),
            );
            mode = Some(p.add(fadd(fp, c.f0)));
            param = Some(p.add(op(O::ParamLoad, S::U32).with_ref(c.func).with_ref(c.param)));
            let v = p.add(
                op(O::CompositeConstruct, Type::vector(S::U32, 2))
                    .with_ref(c.u0)
                    .with_ref(c.u0),
            );
            let counts = p.add(
                op(O::CompositeConstruct, Type::vector(S::U32, 3))
                    .with_ref(c.u0)
                    .with_ref(c.u0)
                    .with_ref(c.u0),
            );
            shift = Some(
                p.add(
                    op(O::IShl, Type::vector(S::U32, 2))
                        .with_ref(v)
                        .with_ref(counts),
                ),
            );
        });
        expect(&b, Level::Structural, Rule::OperandOpcode, mode, Some(0));
        expect(&b, Level::Structural, Rule::ResultType, param, None);
        expect(&b, Level::Structural, Rule::OperandType, shift, Some(1));
    }

    #[test]
    fn rule_scope_dominance() {
        let (mut after, mut other_arm, mut if_after) = (None, None, None);
        let b = build(|p, c| {
            let outer = p.add(fadd(c.f0, c.f1));
            let endif = p.reserve();
            let if1 = p.add(void(O::ScopedIf).with_ref(endif).with_ref(c.t));
            let inner = p.add(fadd(outer, c.f1));
            let cond = p.add(op(O::FLt, S::Bool).with_ref(inner).with_ref(outer));
            p.add(fadd(inner, outer));
            p.add(void(O::ScopedElse).with_ref(if1));
            other_arm = Some(p.add(fadd(inner, c.f0)));
            p.put(endif, void(O::ScopedEndIf).with_ref(if1));
            after = Some(p.add(fadd(inner, outer)));
            // From the ir_compile fuzz target: the condition of a later if, defined in the
            // arm (a scoped op's value operand is a use like any other).
            let endif2 = p.reserve();
            if_after = Some(p.add(void(O::ScopedIf).with_ref(endif2).with_ref(cond)));
            p.put(endif2, void(O::ScopedEndIf).with_opt_ref(if_after));
        });
        let errs = errors(&b, Level::Structural);
        assert_eq!(errs.len(), 3, "{}", dump(&errs));
        expect(
            &b,
            Level::Structural,
            Rule::ScopeDominance,
            if_after,
            Some(1),
        );
        expect(
            &b,
            Level::Structural,
            Rule::ScopeDominance,
            other_arm,
            Some(0),
        );
        expect(&b, Level::Structural, Rule::ScopeDominance, after, Some(0));
    }

    /// Validation errors of IR text, as `(rule, op id)`.
    fn text_errors(text: &str, level: Level) -> Vec<(Rule, u32)> {
        let b = crate::text::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        errors(&b, level)
            .iter()
            .map(|e| (e.rule, e.def.map_or(0, |d| d.id())))
            .collect()
    }

    /// Scoped IR text: `depth` nested loops, each body reading a value defined before them all.
    fn nested_scoped_loops(depth: usize) -> String {
        let mut t = String::from(
            "%1 = EntryPoint %3 Pixel
%6 = DclInput u32 %1 0 0 Flat
%7 = DclOutput u32 %1 0 0 0
%3 = Function void
%5 = Label None
%8 = InputLoad u32 %6 null
",
        );
        let open = |k: usize| 10 + 3 * k;
        for k in 0..depth {
            let (lp, end, add) = (open(k), open(k) + 1, open(k) + 2);
            t.push_str(&format!(
                "%{lp} = ScopedLoop %{end}\n%{add} = IAdd u32 %8 %8\n"
            ));
        }
        for k in (0..depth).rev() {
            t.push_str(&format!("%{} = ScopedEndLoop %{}\n", open(k) + 1, open(k)));
        }
        let last = open(depth);
        t.push_str(&format!(
            "%{last} = OutputStore %7 null %8\n%{} = Return void null\n%{} = FunctionEnd\n",
            last + 1,
            last + 2
        ));
        t
    }

    #[test]
    fn deep_scoped_nesting_validates_in_linear_time() {
        // A use checks that its definition's region encloses the current one in one lookup
        // (it walked up every enclosing region: 4x the nesting took 14x as long).
        let time = |depth: usize| {
            let b =
                crate::text::parse(&nested_scoped_loops(depth)).unwrap_or_else(|e| panic!("{e}"));
            (0..3)
                .map(|_| {
                    let start = std::time::Instant::now();
                    expect_ok(&b, Level::Structural);
                    start.elapsed().as_secs_f64()
                })
                .fold(f64::MAX, f64::min)
        };
        // Times this short are noisy (caches, a busy machine): a quarter of a second for 40k
        // levels is linear whatever the ratio says (the quadratic walk took 3.4 s here).
        let (small, big) = (time(10_000), time(40_000));
        let ratio = big / small.max(1e-6);
        assert!(
            ratio < 8.0 || big < 0.25,
            "10k: {small:.4}s, 40k: {big:.4}s, ratio {ratio:.1}"
        );
        // A value of one loop's body is not visible after that loop.
        let mut leaked = nested_scoped_loops(3);
        leaked = leaked.replace("OutputStore %7 null %8", "OutputStore %7 null %18");
        let b = crate::text::parse(&leaked).unwrap_or_else(|e| panic!("{e}"));
        expect(
            &b,
            Level::Structural,
            Rule::ScopeDominance,
            SsaDef::new(19),
            Some(2),
        );
    }

    #[test]
    fn rule_image_operands() {
        // Coordinates, layers, gradients and offsets fit the image's kind (the backend
        // refused these only at the end, after every pass had run on them).
        let text = |kind: &str, code: &str| {
            format!(
                "%1 = EntryPoint %3 Pixel
%6 = DclSrv f32 %1 0 0 1 {kind}
%7 = DclSampler %1 0 0 1
%9 = DclInput vec2<i32> %1 0 0 Flat
%10 = Constant u32 0
%11 = Constant f32 0.5
%12 = Constant vec2<f32> 0.5 0.5
%13 = Constant vec3<f32> 0.5 0.5 0.5
%14 = Constant vec2<i32> 1 -1
%15 = Constant vec3<i32> 1 -1 0
%16 = Constant i32 1
%3 = Function void
%5 = Label None
%20 = InputLoad vec2<i32> %9 null
%21 = DescriptorLoad srv %6 %10
%22 = DescriptorLoad sampler %7 %10
%23 = {code}
%24 = Return void null
%25 = FunctionEnd
"
            )
        };
        let sample = "ImageSample vec4<f32> %21 %22";
        let ty = Rule::OperandType;
        // (image kind, op, the error: its rule and operand)
        type Case<'a> = (&'a str, String, Option<(Rule, usize)>);
        let cases: [Case; 19] = [
            (
                "Image2D",
                format!("{sample} null %12 %14 null null null %12 %12 null"),
                None,
            ),
            (
                "Image2D",
                format!("{sample} null %11 null null null null null null null"),
                Some((ty, 3)),
            ),
            (
                "Image2D",
                format!("{sample} %11 %12 null null null null null null null"),
                Some((ty, 2)),
            ),
            (
                "Image2DArray",
                format!("{sample} null %12 null null null null null null null"),
                Some((ty, 2)),
            ),
            (
                "Image2DArray",
                format!("{sample} %16 %12 null null null null null null null"),
                Some((ty, 2)),
            ),
            (
                "Image2D",
                format!("{sample} null %12 null null null null %13 %12 null"),
                Some((ty, 8)),
            ),
            (
                "Image2D",
                format!("{sample} null %12 %20 null null null null null null"),
                Some((Rule::OperandOpcode, 4)),
            ),
            (
                "Image2D",
                format!("{sample} null %12 %15 null null null null null null"),
                Some((ty, 4)),
            ),
            (
                "ImageCube",
                format!("{sample} null %13 %15 null null null null null null"),
                Some((ty, 4)),
            ),
            (
                "Image2D",
                "ImageGather vec4<f32> %21 %22 null %12 %20 null 0".into(),
                None,
            ),
            (
                "Image2D",
                "ImageGather vec4<f32> %21 %22 null %12 null null 4".into(),
                Some((Rule::LiteralValue, 6)),
            ),
            (
                "Image2DMS",
                format!("{sample} null %12 null null null null null null null"),
                Some((ty, 0)),
            ),
            ("Image2DMS", "ImageQueryMips u32 %21".into(), Some((ty, 0))),
            (
                "Image2DMS",
                "ImageLoad vec4<f32> %21 null null %20 null null".into(),
                Some((ty, 0)),
            ),
            (
                "Image2DMS",
                "ImageLoad vec4<f32> %21 null null %20 %10 null".into(),
                None,
            ),
            (
                "Image2D",
                "ImageLoad vec4<f32> %21 %10 null %20 null %14".into(),
                None,
            ),
            (
                "Image2D",
                "ImageLoad vec4<f32> %21 %10 null %12 null null".into(),
                Some((ty, 3)),
            ),
            (
                "Image2D",
                "ImageComputeLod vec2<f32> %21 %22 %12".into(),
                None,
            ),
            (
                "Image2D",
                "ImageComputeLod vec2<f32> %21 %22 %13".into(),
                Some((ty, 2)),
            ),
        ];
        for (kind, code, want) in cases {
            let b = crate::text::parse(&text(kind, &code)).expect("parse");
            let got: Vec<_> = errors(&b, Level::Structural)
                .iter()
                .map(|e| (e.rule, e.operand.unwrap_or(usize::MAX)))
                .collect();
            assert_eq!(got, Vec::from_iter(want), "{kind} {code}");
        }
    }

    #[test]
    fn rule_recursion() {
        // A function reaching itself through another: the call closing the cycle is named.
        let text = "%1 = EntryPoint %3 Pixel
%3 = Function void
%5 = Label None
%6 = FunctionCall void %7
%25 = Return void null
%26 = FunctionEnd
%7 = Function void
%8 = Label None
%9 = FunctionCall void %12
%10 = Return void null
%11 = FunctionEnd
%12 = Function void
%13 = Label None
%14 = FunctionCall void %7
%15 = Return void null
%16 = FunctionEnd
";
        assert_eq!(
            text_errors(text, Level::Structural),
            [(Rule::Recursion, 14)]
        );
        let chain = text.replace("%14 = FunctionCall void %7\n", "");
        assert_eq!(text_errors(&chain, Level::Structural), []);
    }

    #[test]
    fn rule_op_stage() {
        // Mode settings, and the code and declarations only some stages have, suit the
        // entry point's stage; the float mode suits every stage.
        let text = |stage: &str, op: &str| {
            let (dcl, code) = if op.starts_with("Set") || op.starts_with("Dcl") {
                (op, "FAdd f32 %4 %4")
            } else {
                ("SetFpMode f32 %1 NearestEven Flush", op)
            };
            format!(
                "%1 = EntryPoint %3 {stage}
%2 = {dcl}
%4 = Constant f32 1.0
%3 = Function void
%5 = Label None
%8 = {code}
%6 = Return void null
%7 = FunctionEnd
"
            )
        };
        let bad = |stage: &str, op: &str, at: u32| {
            let errs = text_errors(&text(stage, op), Level::Structural);
            assert_eq!(errs, [(Rule::OpStage, at)], "{op} in a {stage} shader");
        };
        for (stage, mode) in [
            ("Pixel", "SetTessDomain %1 Quad"),
            ("Vertex", "SetGsInstances %1 2"),
            ("Compute", "SetPsEarlyFragmentTest %1"),
            ("Hull", "SetCsWorkgroupSize %1 1 1 1"),
            ("Pixel", "DclLds u32[16] %1"),
            ("Compute", "DclOutput vec4<f32> %1 0 0 0"),
            ("Vertex", "DclInputBuiltIn u32 %1 SampleId None"),
            ("Vertex", "DclOutputBuiltIn f32 %1 Depth 0"),
            ("Pixel", "DclOutputBuiltIn vec4<f32> %1 Position 0"),
            ("Pixel", "DclInputBuiltIn vec3<u32> %1 GlobalThreadId None"),
            ("Domain", "DclOutputBuiltIn f32[4] %1 TessFactorOuter 0"),
        ] {
            bad(stage, mode, 2);
        }
        for (stage, code) in [
            ("Vertex", "Demote"),
            ("Pixel", "EmitVertex 0"),
            ("Compute", "DerivX f32 %4 Coarse"),
            ("Geometry", "DerivY f32 %4 Fine"),
            ("Pixel", "Barrier Thread Workgroup Lds"),
            ("Vertex", "Barrier Workgroup Global UavBuffer"),
        ] {
            bad(stage, code, 8);
        }
        for (stage, op) in [
            ("Domain", "SetTessDomain %1 Quad"),
            ("Geometry", "SetGsInstances %1 2"),
            ("Pixel", "SetPsEarlyFragmentTest %1"),
            ("Compute", "SetCsWorkgroupSize %1 1 1 1"),
            ("Vertex", "SetFpMode f32 %1 NearestEven Flush"),
            ("Compute", "DclLds u32[16] %1"),
            ("Pixel", "DclInputBuiltIn u32 %1 SampleId None"),
            ("Pixel", "DclOutputBuiltIn f32 %1 Depth 0"),
            ("Vertex", "DclOutputBuiltIn vec4<f32> %1 Position 0"),
            (
                "Compute",
                "DclInputBuiltIn vec3<u32> %1 GlobalThreadId None",
            ),
            ("Hull", "DclOutputBuiltIn f32[4] %1 TessFactorOuter 0"),
            ("Pixel", "Demote"),
            ("Geometry", "EmitVertex 0"),
            ("Pixel", "DerivX f32 %4 Coarse"),
            ("Compute", "Barrier Workgroup Workgroup Lds"),
            ("Hull", "Barrier Workgroup Workgroup UavBuffer"),
            ("Pixel", "Barrier Thread Global UavBuffer"),
        ] {
            let errs = text_errors(&text(stage, op), Level::Structural);
            assert!(errs.is_empty(), "{op} in a {stage} shader: {errs:?}");
        }
    }

    #[test]
    fn rule_calls_derivatives_and_loop_targets() {
        // From the ir_compile fuzz target: a u32 argument for an f32 parameter, a bool result
        // of a void function, a derivative of another type than its result, a loop whose
        // merge block is its continue target.
        let text = "%1 = EntryPoint %4 Pixel
%2 = DclParam f32
%3 = Constant u32 0
%10 = Constant f32 1.0
%5 = Function void %2
%6 = Label None
%7 = Return void null
%8 = FunctionEnd
%4 = Function void
%9 = Label None
%11 = FunctionCall void %5 %3
%19 = FunctionCall bool %5 %10
%12 = DerivX f16 %10 Coarse
%13 = Branch %14
%14 = Label %15 %15 StructuredLoop
%16 = Branch %15
%15 = Label None
%17 = Return void null
%18 = FunctionEnd
";
        let errs = text_errors(text, Level::Structural);
        for want in [
            (Rule::OperandType, 11),
            (Rule::ResultType, 19),
            (Rule::OperandType, 12),
            (Rule::ConstructOperands, 14),
        ] {
            assert!(errs.contains(&want), "{want:?} not in {errs:?}");
        }
    }

    #[test]
    fn rule_values_temporaries_sparse_msad_casts_and_sizes() {
        // From the ir_compile fuzz target: the entry point stored to a temporary, a vector
        // stored to a scalar temporary, an untyped descriptor, a member extracted from an
        // untyped scalar, a float as sparse feedback, mixed-size msad, a cast of a bool, a
        // bit-field count of another type than its offset, 64-bit sparse feedback, an input
        // of unbounded size, a size query whose layer count is 64-bit or missing, an untyped
        // value stored to a sampler temporary.
        let text = "%1 = EntryPoint %3 Pixel
%2 = DclTmp unknown %1
%35 = DclSrv f32 %1 0 0 1 Image2DArray
%40 = DclTmp sampler %1
%4 = DclSampler %1 0 0 1
%31 = DclUav u32 %1 0 1 1 BufferTyped None
%5 = DclInput vec4<f32>[0] %1 0 0 None
%6 = Constant u32 0
%7 = Constant vec2<u32> 0 1
%8 = Constant f32 1.0
%9 = Constant u16 1
%10 = Constant unknown 7
%3 = Function void
%11 = Label None
%12 = TmpStore %2 %1
%13 = TmpStore %2 %7
%14 = DescriptorLoad unknown %4 %6
%15 = CompositeExtract f32 %10 %6
%16 = CheckSparseAccess bool %8
%17 = UMsad u32 %6 %9 %6
%18 = UMsad u64 %6 %6 %6
%19 = IEq bool %6 %6
%20 = Cast u32 %19
%30 = IBitInsert u32 %6 %6 %6 %9
%32 = DescriptorLoad uav %31 %6
%33 = BufferLoad [sparse] struct{u64, u32} %32 %6 4
%34 = BufferLoad [sparse] struct{u32, u32} %32 %6 4
%36 = DescriptorLoad srv %35 %6
%41 = TmpStore %40 %10
%37 = ImageQuerySize struct{vec2<u32>, i64} %36 %6
%38 = ImageQuerySize vec2<u32> %36 %6
%39 = ImageQuerySize struct{vec2<u32>, u32} %36 %6
%21 = Branch %22
%22 = Label %24 %23 StructuredLoop
%25 = Phi u32 %11 %6 %23 %20
%26 = Branch %23
%23 = Label None
%27 = BranchConditional %19 %22 %24
%24 = Label None
%28 = Return void null
%29 = FunctionEnd
";
        let errs = text_errors(text, Level::Structural);
        for want in [
            (Rule::OperandOpcode, 12),
            (Rule::OperandType, 13),
            (Rule::ResultType, 14),
            (Rule::OperandType, 15),
            (Rule::OperandType, 16),
            (Rule::OperandType, 17),
            (Rule::ResultType, 18),
            (Rule::OperandType, 20),
            (Rule::OperandType, 30),
            (Rule::ResultType, 33),
            (Rule::ResultType, 5),
            (Rule::ResultType, 37),
            (Rule::ResultType, 38),
            (Rule::OperandType, 41),
        ] {
            assert!(errs.contains(&want), "{want:?} not in {errs:?}");
        }
        let valid: Vec<_> = [
            6, 7, 8, 9, 10, 11, 19, 21, 22, 23, 24, 25, 26, 27, 28, 32, 34, 35, 36, 39,
        ]
        .iter()
        .filter(|&&d| errs.iter().any(|e| e.1 == d))
        .collect();
        assert!(valid.is_empty(), "errors for valid ops {valid:?}: {errs:?}");
    }

    #[test]
    fn rule_case_outside_switch() {
        let mut bad = None;
        let b = build(|p, c| {
            let endsw = p.reserve();
            let sw = p.add(void(O::ScopedSwitch).with_ref(endsw).with_ref(c.i0));
            p.add(void(O::ScopedSwitchDefault).with_ref(sw));
            let endif = p.reserve();
            let if1 = p.add(void(O::ScopedIf).with_ref(endif).with_ref(c.t));
            bad = Some(p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(3)));
            p.put(endif, void(O::ScopedEndIf).with_ref(if1));
            p.put(endsw, void(O::ScopedEndSwitch).with_ref(sw));
        });
        expect(&b, Level::Structural, Rule::CaseOutsideSwitch, bad, Some(0));
    }

    #[test]
    fn rule_case_value() {
        let mut bad = None;
        let b = build(|p, c| {
            let endsw = p.reserve();
            let sw = p.add(void(O::ScopedSwitch).with_ref(endsw).with_ref(c.u0));
            p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(0xffff_ffff));
            bad = Some(p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(1 << 40)));
            p.put(endsw, void(O::ScopedEndSwitch).with_ref(sw));
        });
        let errs = errors(&b, Level::Structural);
        assert_eq!(errs.len(), 1, "{}", dump(&errs));
        expect(&b, Level::Structural, Rule::CaseValue, bad, Some(1));
    }

    #[test]
    fn rule_result_type() {
        let mut bad = None;
        let mut carry = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::FLt, S::F32).with_ref(c.f0).with_ref(c.f1)));
            carry = Some(p.add(op(O::IAddCarry, S::U32).with_ref(c.u0).with_ref(c.u0)));
        });
        expect(&b, Level::Structural, Rule::ResultType, bad, None);
        expect(&b, Level::Structural, Rule::ResultType, carry, None);
    }

    #[test]
    fn rule_operand_type() {
        let mut add = None;
        let mut cmp = None;
        let mut sel = None;
        let mut dot = None;
        let mut pack = None;
        let b = build(|p, c| {
            add = Some(p.add(fadd(c.f0, c.i0)));
            cmp = Some(p.add(op(O::SLt, S::Bool).with_ref(c.i0).with_ref(c.f0)));
            sel = Some(
                p.add(
                    op(O::Select, S::F32)
                        .with_ref(c.f0)
                        .with_ref(c.f0)
                        .with_ref(c.f1),
                ),
            );
            dot = Some(p.add(op(O::FDot, S::F32).with_ref(c.f0).with_ref(c.f1)));
            pack = Some(p.add(op(O::ConvertF32toPackedF16, S::U32).with_ref(c.f0)));
        });
        expect(&b, Level::Structural, Rule::OperandType, add, Some(1));
        expect(&b, Level::Structural, Rule::OperandType, cmp, Some(1));
        expect(&b, Level::Structural, Rule::OperandType, sel, Some(0));
        expect(&b, Level::Structural, Rule::OperandType, dot, Some(0));
        expect(&b, Level::Structural, Rule::OperandType, pack, Some(0));
    }

    #[test]
    fn rule_cast_bit_size() {
        let mut bad = None;
        let mut good = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::Cast, S::U64).with_ref(c.f0)));
            good = Some(p.add(op(O::Cast, S::U32).with_ref(c.f0)));
        });
        let errs = errors(&b, Level::Lowered);
        assert_eq!(errs.len(), 1, "{}", dump(&errs));
        expect(&b, Level::Structural, Rule::CastBitSize, bad, None);
    }

    #[test]
    fn rule_return_type() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(void(O::Return).with_ref(c.f0)));
        });
        expect(&b, Level::Structural, Rule::ReturnType, bad, Some(0));

        let mut p = P::new();
        let c = header(&mut p);
        p.put(c.func, op(O::Function, S::F32));
        p.add(label(Construct::None));
        let bad = p.add(ret());
        p.add(void(O::FunctionEnd));
        expect(&p.b, Level::Structural, Rule::ReturnType, Some(bad), None);
    }

    #[test]
    fn rule_descriptor_type() {
        let mut bad = None;
        let mut good = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::DescriptorLoad, S::Srv).with_ref(c.uav).with_ref(c.u0)));
            good = Some(
                p.add(
                    op(O::DescriptorLoad, S::Sampler)
                        .with_ref(c.sampler)
                        .with_ref(c.u0),
                ),
            );
        });
        let errs = errors(&b, Level::Lowered);
        assert_eq!(errs.len(), 1, "{}", dump(&errs));
        expect(&b, Level::Structural, Rule::DescriptorType, bad, None);
    }

    #[test]
    fn rule_not_lowered() {
        let mut dot = None;
        let mut tmp = None;
        let b = build_with(true, |p, c| {
            let v = p.add(
                op(O::CompositeConstruct, Type::vector(S::F32, 2))
                    .with_ref(c.f0)
                    .with_ref(c.f1),
            );
            dot = Some(p.add(op(O::FDot, S::F32).with_ref(v).with_ref(v)));
            tmp = Some(p.add(op(O::TmpLoad, S::F32).with_opt_ref(c.tmp)));
        });
        expect_ok(&b, Level::Structural);
        expect(&b, Level::Lowered, Rule::NotLowered, dot, None);
        expect(&b, Level::Lowered, Rule::NotLowered, tmp, None);
        expect(&b, Level::Lowered, Rule::NotLowered, c_tmp(&b), None);
    }

    #[test]
    fn rule_unknown_type() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::FAdd, S::Unknown).with_ref(c.f0).with_ref(c.f1)));
        });
        expect_ok(&b, Level::Structural);
        expect(&b, Level::Lowered, Rule::UnknownType, bad, None);
    }

    #[test]
    fn rule_no_op_conversion() {
        let mut bad = None;
        let b = build(|p, c| {
            bad = Some(p.add(op(O::ConvertFtoF, S::F32).with_ref(c.f0)));
        });
        expect_ok(&b, Level::Structural);
        expect(&b, Level::Lowered, Rule::NoOpConversion, bad, None);
    }

    /// The `DclTmp` of a program.
    fn c_tmp(b: &Builder) -> Option<SsaDef> {
        b.iter()
            .find(|(_, o)| o.opcode == O::DclTmp)
            .map(|(d, _)| d)
    }

    // ---- robustness and formatting ----

    #[test]
    fn every_rule_has_a_description() {
        for r in Rule::ALL {
            assert!(!r.description().is_empty());
        }
    }

    #[test]
    fn error_display_format() {
        let e = ValidationError {
            def: SsaDef::new(12),
            opcode: Some(O::FAdd),
            rule: Rule::OperandType,
            operand: Some(1),
            detail: "expected f32, found i32".into(),
        };
        assert_eq!(
            e.to_string(),
            "%12 FAdd: operand 1: invalid operand type: expected f32, found i32"
        );
        let e = ValidationError {
            def: None,
            opcode: None,
            rule: Rule::EntryPointCount,
            operand: None,
            detail: String::new(),
        };
        assert_eq!(e.to_string(), "program needs exactly one EntryPoint");
    }

    #[test]
    fn errors_are_capped() {
        let b = build(|p, c| {
            for _ in 0..500 {
                p.add(fadd(c.f0, c.i0));
            }
        });
        assert_eq!(errors(&b, Level::Structural).len(), MAX_ERRORS);
    }

    #[test]
    fn garbage_never_panics() {
        // Every opcode with every small operand count, operands drawn from live ids, null,
        // out-of-range ids and huge literals, with assorted types, in code and in declarations.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let types = [
            Type::VOID,
            Type::scalar(S::Unknown),
            Type::scalar(S::Bool),
            Type::scalar(S::F32),
            Type::vector(S::I32, 3),
            Type::scalar(S::Uav),
            Type::structure(&[BasicType::scalar(S::U32), BasicType::vector(S::F32, 4)])
                .expect("valid"),
            Type::scalar(S::U32).array_of(0).expect("valid"),
        ];
        for round in 0..4 {
            let b = build_with(true, |p, c| {
                let live = [
                    c.ep, c.func, c.entry, c.f0, c.i0, c.t, c.inp, c.param, c.uav,
                ];
                for &code in OpCode::ALL {
                    for n in 0..6 {
                        let mut o = op(code, types[(rnd() % types.len() as u64) as usize]);
                        o.flags = OpFlags((rnd() & 0xff) as u8);
                        for _ in 0..n {
                            let v = match rnd() % 5 {
                                0 => 0,
                                1 => u64::from(live[(rnd() % live.len() as u64) as usize].id()),
                                2 => rnd(),
                                3 => rnd() % 64,
                                _ => u64::from(p.next.saturating_sub(1)),
                            };
                            o.operands.push(Operand(v));
                        }
                        if round % 2 == 0 {
                            p.add(o);
                        } else {
                            let d = p.reserve();
                            p.put(d, o);
                        }
                    }
                }
            });
            let _ = validate(&b, Level::Structural);
            let _ = validate(&b, Level::Lowered);
        }
    }
}
