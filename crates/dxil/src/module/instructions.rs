//! Instructions: the operation enums of LLVM 3.7 and the [`Instruction`] record a function
//! body stores for each.
//!
//! Operands are absolute [`ValueId`]s; variable-length operand lists ([`Operands`]) are
//! ranges of the function's shared operand buffer, so an instruction is a fixed-size value
//! and a function body is a handful of flat vectors. Opcodes whose meaning depends on the
//! operand type in bitcode (`add`/`fadd`, `icmp`/`fcmp`) are resolved when reading, so a
//! consumer matches on the operation it means.

use crate::module::types::TypeId;
use crate::module::{BlockId, ValueId};

/// A range of a function body's operand buffer (see [`crate::module::FunctionBody::operands`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Operands {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Operands {
    /// Number of operand slots.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the range is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// Binary operations, integer and floating-point kinds told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `add`.
    Add,
    /// `fadd`.
    FAdd,
    /// `sub`.
    Sub,
    /// `fsub` (also DXIL's negation, `fsub -0.0, x`).
    FSub,
    /// `mul`.
    Mul,
    /// `fmul`.
    FMul,
    /// `udiv`.
    UDiv,
    /// `sdiv`.
    SDiv,
    /// `fdiv`.
    FDiv,
    /// `urem`.
    URem,
    /// `srem`.
    SRem,
    /// `frem`.
    FRem,
    /// `shl`.
    Shl,
    /// `lshr`.
    LShr,
    /// `ashr`.
    AShr,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
}

impl BinaryOp {
    /// The operation for bitcode opcode `code` on an integer (`float == false`) or
    /// floating-point operand type.
    pub fn from_code(code: u64, float: bool) -> Option<Self> {
        use BinaryOp::*;
        Some(match (code, float) {
            (0, false) => Add,
            (0, true) => FAdd,
            (1, false) => Sub,
            (1, true) => FSub,
            (2, false) => Mul,
            (2, true) => FMul,
            (3, false) => UDiv,
            (4, false) => SDiv,
            (4, true) => FDiv,
            (5, false) => URem,
            (6, false) => SRem,
            (6, true) => FRem,
            (7, false) => Shl,
            (8, false) => LShr,
            (9, false) => AShr,
            (10, false) => And,
            (11, false) => Or,
            (12, false) => Xor,
            _ => return None,
        })
    }

    /// The LLVM assembly name.
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            FAdd => "fadd",
            Sub => "sub",
            FSub => "fsub",
            Mul => "mul",
            FMul => "fmul",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
        }
    }

    /// Whether the operation works on floating-point values.
    pub fn is_float(self) -> bool {
        use BinaryOp::*;
        matches!(self, FAdd | FSub | FMul | FDiv | FRem)
    }

    /// Whether `nuw`/`nsw` flags apply.
    pub fn has_wrap_flags(self) -> bool {
        matches!(
            self,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Shl
        )
    }

    /// Whether the `exact` flag applies.
    pub fn has_exact_flag(self) -> bool {
        matches!(
            self,
            BinaryOp::UDiv | BinaryOp::SDiv | BinaryOp::LShr | BinaryOp::AShr
        )
    }
}

/// Flags of binary operations and comparisons, as the bitcode stores them.
pub mod flags {
    /// `nuw` (integer `add`/`sub`/`mul`/`shl`).
    pub const NO_UNSIGNED_WRAP: u8 = 1 << 0;
    /// `nsw`.
    pub const NO_SIGNED_WRAP: u8 = 1 << 1;
    /// `exact` (`udiv`/`sdiv`/`lshr`/`ashr`).
    pub const EXACT: u8 = 1 << 0;
    /// Fast-math `fast` (LLVM 3.7's "unsafe algebra": every other flag implied). DXIL marks
    /// non-`precise` float operations with it.
    pub const FAST: u8 = 1 << 0;
    /// Fast-math `nnan`.
    pub const NO_NANS: u8 = 1 << 1;
    /// Fast-math `ninf`.
    pub const NO_INFS: u8 = 1 << 2;
    /// Fast-math `nsz`.
    pub const NO_SIGNED_ZEROS: u8 = 1 << 3;
    /// Fast-math `arcp`.
    pub const ALLOW_RECIPROCAL: u8 = 1 << 4;
}

/// Conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// `trunc`.
    Trunc,
    /// `zext`.
    ZExt,
    /// `sext`.
    SExt,
    /// `fptoui`.
    FpToUi,
    /// `fptosi`.
    FpToSi,
    /// `uitofp`.
    UiToFp,
    /// `sitofp`.
    SiToFp,
    /// `fptrunc`.
    FpTrunc,
    /// `fpext`.
    FpExt,
    /// `ptrtoint`.
    PtrToInt,
    /// `inttoptr`.
    IntToPtr,
    /// `bitcast`.
    BitCast,
    /// `addrspacecast`.
    AddrSpaceCast,
}

impl CastOp {
    /// The operation for bitcode cast opcode `code`.
    pub fn from_code(code: u64) -> Option<Self> {
        use CastOp::*;
        Some(match code {
            0 => Trunc,
            1 => ZExt,
            2 => SExt,
            3 => FpToUi,
            4 => FpToSi,
            5 => UiToFp,
            6 => SiToFp,
            7 => FpTrunc,
            8 => FpExt,
            9 => PtrToInt,
            10 => IntToPtr,
            11 => BitCast,
            12 => AddrSpaceCast,
            _ => return None,
        })
    }

    /// The LLVM assembly name.
    pub fn name(self) -> &'static str {
        use CastOp::*;
        match self {
            Trunc => "trunc",
            ZExt => "zext",
            SExt => "sext",
            FpToUi => "fptoui",
            FpToSi => "fptosi",
            UiToFp => "uitofp",
            SiToFp => "sitofp",
            FpTrunc => "fptrunc",
            FpExt => "fpext",
            PtrToInt => "ptrtoint",
            IntToPtr => "inttoptr",
            BitCast => "bitcast",
            AddrSpaceCast => "addrspacecast",
        }
    }
}

/// Comparison predicates, with LLVM's numbering (0–15 `fcmp`, 32–41 `icmp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Predicate(pub u8);

impl Predicate {
    /// The predicate for bitcode value `v`, if it is one.
    pub fn from_code(v: u64) -> Option<Self> {
        matches!(v, 0..=15 | 32..=41).then_some(Predicate(v as u8))
    }

    /// Whether this is a floating-point predicate (`fcmp`).
    pub fn is_float(self) -> bool {
        self.0 <= 15
    }

    /// The predicate's name in LLVM assembly (`oeq`, `slt`, …).
    pub fn name(self) -> &'static str {
        const FLOAT: [&str; 16] = [
            "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge",
            "ult", "ule", "une", "true",
        ];
        const INT: [&str; 10] = [
            "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
        ];
        match self.0 {
            p @ 0..=15 => FLOAT[p as usize],
            p @ 32..=41 => INT[(p - 32) as usize],
            _ => "?",
        }
    }
}

/// Memory ordering of atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOrdering {
    /// Not atomic.
    NotAtomic,
    /// `unordered`.
    Unordered,
    /// `monotonic`.
    Monotonic,
    /// `acquire`.
    Acquire,
    /// `release`.
    Release,
    /// `acq_rel`.
    AcquireRelease,
    /// `seq_cst`.
    SequentiallyConsistent,
}

impl AtomicOrdering {
    /// The ordering for bitcode value `v`.
    pub fn from_code(v: u64) -> Option<Self> {
        use AtomicOrdering::*;
        Some(match v {
            0 => NotAtomic,
            1 => Unordered,
            2 => Monotonic,
            3 => Acquire,
            4 => Release,
            5 => AcquireRelease,
            6 => SequentiallyConsistent,
            _ => return None,
        })
    }

    /// The LLVM assembly name.
    pub fn name(self) -> &'static str {
        use AtomicOrdering::*;
        match self {
            NotAtomic => "notatomic",
            Unordered => "unordered",
            Monotonic => "monotonic",
            Acquire => "acquire",
            Release => "release",
            AcquireRelease => "acq_rel",
            SequentiallyConsistent => "seq_cst",
        }
    }
}

/// Synchronization scope of atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncScope {
    /// `singlethread`.
    SingleThread,
    /// The whole system (the default, printed as nothing).
    System,
}

impl SyncScope {
    /// The scope for bitcode value `v`.
    pub fn from_code(v: u64) -> Option<Self> {
        match v {
            0 => Some(SyncScope::SingleThread),
            1 => Some(SyncScope::System),
            _ => None,
        }
    }
}

/// An atomic load's or store's ordering and scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    /// Memory ordering.
    pub ordering: AtomicOrdering,
    /// Synchronization scope.
    pub scope: SyncScope,
}

/// `atomicrmw` operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmwOp {
    /// `xchg`.
    Xchg,
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `and`.
    And,
    /// `nand`.
    Nand,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `max` (signed).
    Max,
    /// `min` (signed).
    Min,
    /// `umax`.
    UMax,
    /// `umin`.
    UMin,
}

impl RmwOp {
    /// The operation for bitcode value `v` (LLVM 3.7 defines 0 to 10).
    pub fn from_code(v: u64) -> Option<Self> {
        use RmwOp::*;
        Some(match v {
            0 => Xchg,
            1 => Add,
            2 => Sub,
            3 => And,
            4 => Nand,
            5 => Or,
            6 => Xor,
            7 => Max,
            8 => Min,
            9 => UMax,
            10 => UMin,
            _ => return None,
        })
    }

    /// The LLVM assembly name.
    pub fn name(self) -> &'static str {
        use RmwOp::*;
        match self {
            Xchg => "xchg",
            Add => "add",
            Sub => "sub",
            And => "and",
            Nand => "nand",
            Or => "or",
            Xor => "xor",
            Max => "max",
            Min => "min",
            UMax => "umax",
            UMin => "umin",
        }
    }
}

/// How a call is marked for tail calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TailKind {
    /// No marker.
    None,
    /// `tail`.
    Tail,
    /// `musttail`.
    MustTail,
}

/// Flag of a call operand in [`Operands`]: the operand is a metadata id (a `metadata`-typed
/// parameter, as `llvm.dbg.value` takes), not a value id.
pub const METADATA_OPERAND: u32 = 1 << 31;

/// An instruction's operation and operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Two-operand arithmetic or logic; `flags` per [`flags`].
    Binary {
        /// Operation.
        op: BinaryOp,
        /// `nuw`/`nsw`, `exact` or fast-math flags.
        flags: u8,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
    /// A conversion to the instruction's type.
    Cast {
        /// Operation.
        op: CastOp,
        /// Operand.
        value: ValueId,
    },
    /// `getelementptr`: `operands` are the base pointer followed by the indices.
    GetElementPtr {
        /// `inbounds`.
        inbounds: bool,
        /// The type the base pointer points to.
        source_type: TypeId,
        /// Base pointer, then indices.
        operands: Operands,
    },
    /// `select`.
    Select {
        /// Condition (`i1` or a vector of `i1`).
        condition: ValueId,
        /// Value when true.
        if_true: ValueId,
        /// Value when false.
        if_false: ValueId,
    },
    /// `extractelement`.
    ExtractElement {
        /// The vector.
        vector: ValueId,
        /// The index.
        index: ValueId,
    },
    /// `insertelement`.
    InsertElement {
        /// The vector.
        vector: ValueId,
        /// The new element.
        element: ValueId,
        /// The index.
        index: ValueId,
    },
    /// `shufflevector`.
    ShuffleVector {
        /// First vector.
        first: ValueId,
        /// Second vector.
        second: ValueId,
        /// The mask (a constant vector of `i32`).
        mask: ValueId,
    },
    /// `icmp` or `fcmp` (by the predicate).
    Compare {
        /// Predicate.
        predicate: Predicate,
        /// Fast-math flags (`fcmp`).
        flags: u8,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
    /// `ret`.
    Ret {
        /// The returned value (`None` for `ret void`).
        value: Option<ValueId>,
    },
    /// Unconditional `br`.
    Br {
        /// Successor.
        target: BlockId,
    },
    /// Conditional `br`.
    CondBr {
        /// Condition.
        condition: ValueId,
        /// Successor when true.
        if_true: BlockId,
        /// Successor when false.
        if_false: BlockId,
    },
    /// `switch`: `cases` holds pairs (case value — a constant — and block id).
    Switch {
        /// The value switched on.
        value: ValueId,
        /// Default successor.
        default: BlockId,
        /// `[value, block]` pairs.
        cases: Operands,
    },
    /// `indirectbr`: `targets` are block ids.
    IndirectBr {
        /// The address.
        address: ValueId,
        /// Possible successors.
        targets: Operands,
    },
    /// `invoke`.
    Invoke {
        /// Callee.
        callee: ValueId,
        /// The callee's function type.
        function_type: TypeId,
        /// Arguments.
        args: Operands,
        /// Successor on return.
        normal: BlockId,
        /// Successor on unwind.
        unwind: BlockId,
        /// Attribute list (1-based, 0 = none).
        attributes: u32,
        /// Calling convention.
        calling_conv: u32,
    },
    /// `resume`.
    Resume {
        /// The exception value.
        value: ValueId,
    },
    /// `unreachable`.
    Unreachable,
    /// `phi`: `incoming` holds pairs (value, block id).
    Phi {
        /// `[value, block]` pairs.
        incoming: Operands,
    },
    /// `landingpad`: `clauses` holds pairs (0 = catch, 1 = filter; value).
    LandingPad {
        /// `cleanup`.
        cleanup: bool,
        /// The personality function (LLVM 3.6 form only; in 3.7 it is on the function).
        personality: Option<ValueId>,
        /// `[kind, value]` pairs.
        clauses: Operands,
    },
    /// `alloca`; the result is a pointer to `allocated_type`.
    Alloca {
        /// The allocated type.
        allocated_type: TypeId,
        /// Number of elements (a constant).
        size: ValueId,
        /// Alignment in bytes (0 = unspecified).
        align: u32,
        /// `inalloca`.
        inalloca: bool,
    },
    /// `load` (of the instruction's type).
    Load {
        /// Address.
        pointer: ValueId,
        /// Alignment in bytes (0 = unspecified).
        align: u32,
        /// `volatile`.
        volatile: bool,
        /// Ordering and scope of an atomic load.
        atomic: Option<Atomic>,
    },
    /// `store`.
    Store {
        /// Address.
        pointer: ValueId,
        /// Stored value.
        value: ValueId,
        /// Alignment in bytes (0 = unspecified).
        align: u32,
        /// `volatile`.
        volatile: bool,
        /// Ordering and scope of an atomic store.
        atomic: Option<Atomic>,
    },
    /// `cmpxchg`; the result is `{ T, i1 }`.
    CmpXchg {
        /// Address.
        pointer: ValueId,
        /// Expected value.
        compare: ValueId,
        /// New value.
        new: ValueId,
        /// `volatile`.
        volatile: bool,
        /// `weak`.
        weak: bool,
        /// Ordering on success.
        success: AtomicOrdering,
        /// Ordering on failure.
        failure: AtomicOrdering,
        /// Scope.
        scope: SyncScope,
    },
    /// `atomicrmw`.
    AtomicRmw {
        /// Operation.
        op: RmwOp,
        /// Address.
        pointer: ValueId,
        /// Operand.
        value: ValueId,
        /// `volatile`.
        volatile: bool,
        /// Ordering.
        ordering: AtomicOrdering,
        /// Scope.
        scope: SyncScope,
    },
    /// `fence`.
    Fence {
        /// Ordering.
        ordering: AtomicOrdering,
        /// Scope.
        scope: SyncScope,
    },
    /// `call`. Arguments of `metadata`-typed parameters carry [`METADATA_OPERAND`].
    Call {
        /// Callee (a function, or any pointer-to-function value).
        callee: ValueId,
        /// The callee's function type.
        function_type: TypeId,
        /// Arguments.
        args: Operands,
        /// Attribute list (1-based, 0 = none).
        attributes: u32,
        /// Calling convention.
        calling_conv: u32,
        /// Tail-call marker.
        tail: TailKind,
        /// Fast-math flags.
        flags: u8,
    },
    /// `va_arg`.
    VaArg {
        /// The `va_list` pointer.
        list: ValueId,
    },
    /// `extractvalue`: `indices` are constant indices (raw numbers, not value ids).
    ExtractValue {
        /// The aggregate.
        aggregate: ValueId,
        /// Indices.
        indices: Operands,
    },
    /// `insertvalue`: `indices` are constant indices.
    InsertValue {
        /// The aggregate.
        aggregate: ValueId,
        /// The inserted value.
        value: ValueId,
        /// Indices.
        indices: Operands,
    },
}

impl Op {
    /// The LLVM assembly opcode (`add`, `fcmp`, `getelementptr`, `br`, …).
    pub fn opcode_name(&self) -> &'static str {
        match self {
            Op::Binary { op, .. } => op.name(),
            Op::Cast { op, .. } => op.name(),
            Op::GetElementPtr { .. } => "getelementptr",
            Op::Select { .. } => "select",
            Op::ExtractElement { .. } => "extractelement",
            Op::InsertElement { .. } => "insertelement",
            Op::ShuffleVector { .. } => "shufflevector",
            Op::Compare { predicate, .. } => {
                if predicate.is_float() {
                    "fcmp"
                } else {
                    "icmp"
                }
            }
            Op::Ret { .. } => "ret",
            Op::Br { .. } | Op::CondBr { .. } => "br",
            Op::Switch { .. } => "switch",
            Op::IndirectBr { .. } => "indirectbr",
            Op::Invoke { .. } => "invoke",
            Op::Resume { .. } => "resume",
            Op::Unreachable => "unreachable",
            Op::Phi { .. } => "phi",
            Op::LandingPad { .. } => "landingpad",
            Op::Alloca { .. } => "alloca",
            Op::Load { .. } => "load",
            Op::Store { .. } => "store",
            Op::CmpXchg { .. } => "cmpxchg",
            Op::AtomicRmw { .. } => "atomicrmw",
            Op::Fence { .. } => "fence",
            Op::Call { .. } => "call",
            Op::VaArg { .. } => "va_arg",
            Op::ExtractValue { .. } => "extractvalue",
            Op::InsertValue { .. } => "insertvalue",
        }
    }

    /// Whether the instruction ends a basic block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Op::Ret { .. }
                | Op::Br { .. }
                | Op::CondBr { .. }
                | Op::Switch { .. }
                | Op::IndirectBr { .. }
                | Op::Invoke { .. }
                | Op::Resume { .. }
                | Op::Unreachable
        )
    }
}

/// One instruction of a function body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// Operation and operands.
    pub op: Op,
    /// The result type (`void` for instructions without a result).
    pub ty: TypeId,
    /// The value id of the result, `u32::MAX` for none (see [`Instruction::result`]).
    pub(crate) result: u32,
}

impl Instruction {
    /// The value the instruction defines, if it has a result.
    #[inline]
    pub fn result(&self) -> Option<ValueId> {
        (self.result != u32::MAX).then_some(ValueId(self.result))
    }
}
