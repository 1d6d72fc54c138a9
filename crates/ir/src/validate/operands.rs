//! Reference operands: null and dangling references, forward references, the scope a value
//! is visible in, declarations used as values, and the opcode each operand must name.

use super::{Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::{OpCode, RefKind};
use crate::types::Type;

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

impl Validator<'_> {
    /// Reference operands: null, dangling, forward, referenced opcodes, declaration use.
    pub(super) fn check_refs(&mut self, def: SsaDef, op: &Op, p: u32, nref: usize) {
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
            if tp == p {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ForwardReference,
                    "references itself".into(),
                );
            } else if tp > p && !forward_allowed(op.opcode, i) {
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
}
