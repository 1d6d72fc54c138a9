//! The instruction set, declared once as data.
//!
//! Every opcode of the spec has one row in [`opcodes!`]: its code, its SSA operands (required or
//! nullable, optionally followed by any number of further references), its literal operands
//! (always last, optionally a variadic tail such as a string) and the rule its result type
//! follows. The printer, the parser, the serializer and the validator all read [`OpCode::info`];
//! adding an opcode is adding one row.

use crate::enums::ShaderStageMask;
use std::fmt;

/// How an SSA reference operand may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefKind {
    /// Must reference an op.
    Required,
    /// May be null (`0`), e.g. an absent address or optional image operand.
    Optional,
}

/// What a literal operand holds; decides how it is printed, parsed and validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitKind {
    /// A plain integer (location, count, register, stream, ...).
    Int,
    /// A null-terminated string packed 8 bytes per literal, little-endian.
    Str,
    /// Constant data, one literal per flattened scalar of the result type.
    Data,
    /// A switch case value, of the type of the switch's selector.
    CaseValue,
    /// [`crate::ShaderStage`].
    ShaderStage,
    /// [`crate::ShaderStageMask`].
    ShaderStageMask,
    /// [`crate::BuiltIn`].
    BuiltIn,
    /// [`crate::ResourceKind`].
    ResourceKind,
    /// [`crate::PrimitiveType`].
    PrimitiveType,
    /// [`crate::InterpolationModes`].
    InterpolationModes,
    /// [`crate::AtomicOp`].
    AtomicOp,
    /// [`crate::RoundMode`].
    RoundMode,
    /// [`crate::DenormMode`].
    DenormMode,
    /// [`crate::Scope`].
    Scope,
    /// [`crate::MemoryTypeMask`].
    MemoryTypeMask,
    /// [`crate::UavFlags`].
    UavFlags,
    /// [`crate::Construct`].
    Construct,
    /// [`crate::DerivativeMode`].
    DerivativeMode,
    /// [`crate::RovScope`].
    RovScope,
    /// [`crate::TessWindingOrder`].
    TessWindingOrder,
    /// [`crate::TessPartitioning`].
    TessPartitioning,
}

/// The rule an op's result type must follow (checked by the validator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultRule {
    /// Always `void`.
    Void,
    /// Any type including `void`.
    Any,
    /// Any non-void type.
    Value,
    /// Scalar `bool`.
    Bool,
    /// Scalar or vector float.
    Float,
    /// Scalar or vector `f32`.
    F32,
    /// Scalar or vector integer.
    Int,
    /// Scalar `u32`.
    U32,
    /// `vec2<u32>`.
    Vec2U32,
    /// `vec2<i32>`.
    Vec2I32,
    /// `vec2<f32>`.
    Vec2F32,
    /// Scalar of any numeric type.
    Scalar,
    /// Scalar or vector of any numeric type or bool.
    Basic,
    /// A descriptor scalar (`sampler`, `cbv`, `srv`, `uav`, `uav_counter`).
    Descriptor,
    /// `void` or a scalar integer (atomics).
    AtomicResult,
    /// A struct or an array (composites built by `CompositeConstruct`).
    Composite,
}

/// Where in the program an op may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    /// Declarative: before any code (`EntryPoint`, `Constant*`, `Set*`, `Dcl*`, `Debug*`, `Semantic`).
    Declaration,
    /// Allowed both among declarations and in code (`MinValue`, `MaxValue`, `Drain`).
    Anywhere,
    /// Code: inside a function.
    Code,
}

/// Everything the table says about one opcode.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// The opcode's name as in the spec and the text form.
    pub name: &'static str,
    /// Fixed leading reference operands.
    pub refs: &'static [RefKind],
    /// True if any number of further (required) references follow the fixed ones.
    pub var_refs: bool,
    /// Fixed literal operands, after all references.
    pub lits: &'static [LitKind],
    /// A variadic literal tail after the fixed literals, if any.
    pub var_lits: Option<LitKind>,
    /// The result type rule.
    pub result: ResultRule,
    /// Where the op may appear.
    pub class: OpClass,
}

impl OpInfo {
    /// Number of reference operands of an op of this opcode with `count` operands in total,
    /// or `None` if `count` does not fit the opcode's shape.
    pub fn ref_count(&self, count: usize) -> Option<usize> {
        let fixed = self.refs.len() + self.lits.len();
        if count < fixed {
            return None;
        }
        let extra = count - fixed;
        match (self.var_refs, self.var_lits.is_some()) {
            (false, false) => (extra == 0).then_some(self.refs.len()),
            (true, false) => Some(self.refs.len() + extra),
            (false, true) => Some(self.refs.len()),
            // The table never declares both; treat extra operands as literals.
            (true, true) => Some(self.refs.len()),
        }
    }

    /// The kind of literal at literal position `i` (0 = first literal), if any.
    pub fn lit_kind(&self, i: usize) -> Option<LitKind> {
        self.lits.get(i).copied().or(self.var_lits)
    }
}

use LitKind as L;
use OpClass::{Anywhere as A, Code as C, Declaration as D};
use RefKind::{Optional as O, Required as R};
use ResultRule as T;

/// Declares the opcode enum and its info table from one list of rows:
/// `Name = code: [fixed refs] var_refs?, [fixed lits] var_lit?, result, class;`
macro_rules! opcodes {
    ($($(#[$doc:meta])* $name:ident = $code:literal : [$($r:expr),*] $vr:literal, [$($l:expr),*] $vl:expr, $res:expr, $class:expr;)+) => {
        /// An IR opcode. The discriminant is the 10-bit code of the serialized form.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum OpCode {
            $($(#[$doc])* $name = $code),+
        }

        impl OpCode {
            /// Every opcode, in code order.
            pub const ALL: &'static [OpCode] = &[$(OpCode::$name),+];

            /// The opcode's row of the table (an index into a static array: codes are dense).
            pub fn info(self) -> &'static OpInfo {
                const INFOS: &[OpInfo] = &[$(OpInfo {
                    name: stringify!($name),
                    refs: &[$($r),*],
                    var_refs: $vr,
                    lits: &[$($l),*],
                    var_lits: $vl,
                    result: $res,
                    class: $class,
                }),+];
                &INFOS[self as usize]
            }

            /// The opcode with the given serialized code.
            pub fn from_code(code: u16) -> Option<OpCode> {
                match code {
                    $($code => Some(OpCode::$name),)+
                    _ => None,
                }
            }

            /// The opcode with the given name.
            pub fn from_name(name: &str) -> Option<OpCode> {
                match name {
                    $(stringify!($name) => Some(OpCode::$name),)+
                    _ => None,
                }
            }
        }
    };
}

opcodes! {
    // Debug
    /// Attaches a debug name (string literal) to any op.
    DebugName = 0: [R] false, [] Some(L::Str), T::Void, D;
    /// Attaches a debug name to a struct member of a declaration.
    DebugMemberName = 1: [R] false, [L::Int] Some(L::Str), T::Void, D;
    /// Debugging pseudo-op returning its operand unchanged; never optimised.
    Drain = 2: [R] false, [] None, T::Any, A;
    // Constants
    /// A constant; one literal per flattened scalar.
    Constant = 3: [] false, [] Some(L::Data), T::Value, D;
    /// An undefined value.
    Undef = 4: [] false, [] None, T::Value, D;
    /// Lowest finite value of a scalar type.
    MinValue = 5: [] false, [] None, T::Scalar, A;
    /// Highest finite value of a scalar type.
    MaxValue = 6: [] false, [] None, T::Scalar, A;
    // Mode setting
    /// Compute workgroup size.
    SetCsWorkgroupSize = 7: [R] false, [L::Int, L::Int, L::Int] None, T::Void, D;
    /// Geometry shader instance count.
    SetGsInstances = 8: [R] false, [L::Int] None, T::Void, D;
    /// Geometry shader input primitive.
    SetGsInputPrimitive = 9: [R] false, [L::PrimitiveType] None, T::Void, D;
    /// Geometry shader maximum output vertex count.
    SetGsOutputVertices = 10: [R] false, [L::Int] None, T::Void, D;
    /// Geometry shader output primitive and stream mask.
    SetGsOutputPrimitive = 11: [R] false, [L::PrimitiveType, L::Int] None, T::Void, D;
    /// Force early depth/stencil tests.
    SetPsEarlyFragmentTest = 12: [R] false, [] None, T::Void, D;
    /// Conservative depth: greater or equal.
    SetPsDepthGreaterEqual = 13: [R] false, [] None, T::Void, D;
    /// Conservative depth: less or equal.
    SetPsDepthLessEqual = 14: [R] false, [] None, T::Void, D;
    /// Tessellator output primitive, winding and partitioning.
    SetTessPrimitive = 15: [R] false, [L::PrimitiveType, L::TessWindingOrder, L::TessPartitioning] None, T::Void, D;
    /// Tessellation domain.
    SetTessDomain = 16: [R] false, [L::PrimitiveType] None, T::Void, D;
    /// Input and output control point counts.
    SetTessControlPoints = 17: [R] false, [L::Int, L::Int] None, T::Void, D;
    /// Default float mode for the result float type.
    SetFpMode = 18: [R] false, [L::RoundMode, L::DenormMode] None, T::Float, D;
    // Conversions
    /// Float to float of another width.
    ConvertFtoF = 19: [R] false, [] None, T::Value, C;
    /// Float to integer, round toward zero.
    ConvertFtoI = 20: [R] false, [] None, T::Value, C;
    /// Integer to float, round to nearest even.
    ConvertItoF = 21: [R] false, [] None, T::Value, C;
    /// Integer to integer of another width.
    ConvertItoI = 22: [R] false, [] None, T::Value, C;
    /// Packs `vec2<f32>` into two halves of a `u32` (round toward zero).
    ConvertF32toPackedF16 = 23: [R] false, [] None, T::U32, C;
    /// Unpacks two halves of a `u32` into `vec2<f32>`.
    ConvertPackedF16toF32 = 24: [R] false, [] None, T::Vec2F32, C;
    /// Bit-preserving cast between types of equal size.
    Cast = 25: [R] false, [] None, T::Value, C;
    /// Type hint for untyped values; lowered to casts and conversions.
    ConsumeAs = 26: [R] false, [] None, T::Value, C;
    // Declarations
    /// A user input: location, component, interpolation.
    DclInput = 27: [R] false, [L::Int, L::Int, L::InterpolationModes] None, T::Value, D;
    /// A built-in input and its interpolation.
    DclInputBuiltIn = 28: [R] false, [L::BuiltIn, L::InterpolationModes] None, T::Value, D;
    /// A user output: location, component, stream.
    DclOutput = 29: [R] false, [L::Int, L::Int, L::Int] None, T::Value, D;
    /// A built-in output and its stream.
    DclOutputBuiltIn = 30: [R] false, [L::BuiltIn, L::Int] None, T::Value, D;
    /// A specialization constant: spec id, default value.
    DclSpecConstant = 31: [R] false, [L::Int, L::Int] None, T::Value, D;
    /// Push data: byte offset and stage mask.
    DclPushData = 32: [R] false, [L::Int, L::ShaderStageMask] None, T::Value, D;
    /// Samplers: space, register, count.
    DclSampler = 33: [R] false, [L::Int, L::Int, L::Int] None, T::Void, D;
    /// Constant buffers: space, register, count.
    DclCbv = 34: [R] false, [L::Int, L::Int, L::Int] None, T::Value, D;
    /// Shader resource views: space, register, count, kind.
    DclSrv = 35: [R] false, [L::Int, L::Int, L::Int, L::ResourceKind] None, T::Value, D;
    /// Unordered access views: space, register, count, kind, flags.
    DclUav = 36: [R] false, [L::Int, L::Int, L::Int, L::ResourceKind, L::UavFlags] None, T::Value, D;
    /// The counter of a UAV.
    DclUavCounter = 37: [R, R] false, [] None, T::U32, D;
    /// Workgroup shared memory (TGSM).
    DclLds = 38: [R] false, [] None, T::Value, D;
    /// Function-local array (indexable temporaries).
    DclScratch = 39: [R] false, [] None, T::Value, D;
    /// A temporary register, eliminated by SSA construction.
    DclTmp = 40: [R] false, [] None, T::Value, D;
    /// Transform feedback for an output: buffer, stride, offset.
    DclXfb = 41: [R] false, [L::Int, L::Int, L::Int] None, T::Void, D;
    /// A function parameter.
    DclParam = 42: [] false, [] None, T::Value, D;
    /// Semantic name and index of an I/O declaration.
    Semantic = 43: [R] false, [L::Int] Some(L::Str), T::Void, D;
    // Composites
    /// Inserts a value into a composite at a constant address.
    CompositeInsert = 44: [R, R, R] false, [] None, T::Value, C;
    /// Extracts a value from a composite at a constant address.
    CompositeExtract = 45: [R, R] false, [] None, T::Value, C;
    /// Builds a composite from its members.
    CompositeConstruct = 46: [] true, [] None, T::Value, C;
    // Sparse feedback
    /// True if a sparse feedback value says all accessed data was resident.
    CheckSparseAccess = 47: [R] false, [] None, T::Bool, C;
    // Load / store
    /// Loads a function parameter.
    ParamLoad = 48: [R, R] false, [] None, T::Value, C;
    /// Loads a temporary.
    TmpLoad = 49: [R] false, [] None, T::Value, C;
    /// Stores a temporary.
    TmpStore = 50: [R, R] false, [] None, T::Void, C;
    /// Loads from scratch memory.
    ScratchLoad = 51: [R, R] false, [] None, T::Value, C;
    /// Stores to scratch memory.
    ScratchStore = 52: [R, R, R] false, [] None, T::Void, C;
    /// Loads from LDS.
    LdsLoad = 53: [R, R] false, [] None, T::Value, C;
    /// Stores to LDS.
    LdsStore = 54: [R, R, R] false, [] None, T::Void, C;
    /// Loads push data.
    PushDataLoad = 55: [R, O] false, [] None, T::Value, C;
    /// Loads an input.
    InputLoad = 56: [R, O] false, [] None, T::Value, C;
    /// Loads an output.
    OutputLoad = 57: [R, O] false, [] None, T::Value, C;
    /// Stores an output.
    OutputStore = 58: [R, O, R] false, [] None, T::Void, C;
    /// Loads a descriptor from a declaration's descriptor array.
    DescriptorLoad = 59: [R, R] false, [] None, T::Descriptor, C;
    /// Loads from a buffer descriptor; literal alignment.
    BufferLoad = 60: [R, R] false, [L::Int] None, T::Value, C;
    /// Stores to a UAV buffer descriptor; literal alignment.
    BufferStore = 61: [R, R, R] false, [L::Int] None, T::Void, C;
    /// Element or structure count of a buffer.
    BufferQuerySize = 62: [R] false, [] None, T::U32, C;
    /// Loads through a raw pointer; literal alignment.
    MemoryLoad = 63: [R, O] false, [L::Int] None, T::Value, C;
    /// Stores through a raw pointer; literal alignment.
    MemoryStore = 64: [R, O, R] false, [L::Int] None, T::Void, C;
    /// Dynamically indexes a constant array.
    ConstantLoad = 65: [R, R] false, [] None, T::Value, C;
    // Atomics
    /// Atomic on LDS.
    LdsAtomic = 66: [R, O, O] false, [L::AtomicOp] None, T::AtomicResult, C;
    /// Atomic on a UAV buffer.
    BufferAtomic = 67: [R, O, O] false, [L::AtomicOp] None, T::AtomicResult, C;
    /// Atomic on a UAV image.
    ImageAtomic = 68: [R, O, R, O] false, [L::AtomicOp] None, T::AtomicResult, C;
    /// Increment or decrement of a UAV counter.
    CounterAtomic = 69: [R] false, [L::AtomicOp] None, T::AtomicResult, C;
    /// Atomic through a raw pointer.
    MemoryAtomic = 70: [R, O, O] false, [L::AtomicOp] None, T::AtomicResult, C;
    // Images
    /// Texel fetch: descriptor, mip, layer, coord, sample, offset.
    ImageLoad = 71: [R, O, O, R, O, O] false, [] None, T::Value, C;
    /// Texel store: descriptor, layer, coord, value.
    ImageStore = 72: [R, O, R, R] false, [] None, T::Void, C;
    /// Size of a mip level and layer count.
    ImageQuerySize = 73: [R, O] false, [] None, T::Value, C;
    /// Mip level count.
    ImageQueryMips = 74: [R] false, [] None, T::U32, C;
    /// Sample count.
    ImageQuerySamples = 75: [R] false, [] None, T::U32, C;
    /// Sampling: descriptor, sampler, layer, coord, offset, lod, bias, clamp, dx, dy, depth compare.
    ImageSample = 76: [R, R, O, R, O, O, O, O, O, O, O] false, [] None, T::Value, C;
    /// Gather: descriptor, sampler, layer, coord, offset, depth compare; literal component.
    ImageGather = 77: [R, R, O, R, O, O] false, [L::Int] None, T::Value, C;
    /// Level of detail of a sample operation.
    ImageComputeLod = 78: [R, R, R] false, [] None, T::Vec2F32, C;
    // Pointers
    /// A raw pointer from a `u64` address; result type is the pointee.
    Pointer = 79: [R] false, [L::UavFlags] None, T::Value, C;
    // Functions
    /// Starts a function; operands are its `DclParam`s.
    Function = 80: [] true, [] None, T::Any, C;
    /// Ends a function.
    FunctionEnd = 81: [] false, [] None, T::Void, C;
    /// Calls a function with parameters.
    FunctionCall = 82: [R] true, [] None, T::Any, C;
    /// The shader entry point: its functions and stage.
    EntryPoint = 83: [] true, [L::ShaderStage] None, T::Void, D;
    /// Returns from the function, with a value or null.
    Return = 84: [O] false, [] None, T::Any, C;
    // Structured control flow
    /// Starts a block; references merge (and continue) blocks per construct.
    Label = 85: [] true, [L::Construct] None, T::Void, C;
    /// Unconditional branch.
    Branch = 86: [R] false, [] None, T::Void, C;
    /// Two-way branch.
    BranchConditional = 87: [R, R, R] false, [] None, T::Void, C;
    /// Multi-way branch: selector, default, then (value, block) pairs.
    Switch = 88: [R, R] true, [] None, T::Void, C;
    /// Marks a block end that is never reached.
    Unreachable = 89: [] false, [] None, T::Void, C;
    /// SSA phi: (block, value) pairs.
    Phi = 90: [] true, [] None, T::Value, C;
    // Scoped control flow
    /// Opens an if scope: its end, condition.
    ScopedIf = 91: [R, R] false, [] None, T::Void, C;
    /// Else of an if scope.
    ScopedElse = 92: [R] false, [] None, T::Void, C;
    /// Closes an if scope.
    ScopedEndIf = 93: [R] false, [] None, T::Void, C;
    /// Opens a loop scope: its end.
    ScopedLoop = 94: [R] false, [] None, T::Void, C;
    /// Breaks out of a loop scope.
    ScopedLoopBreak = 95: [R] false, [] None, T::Void, C;
    /// Continues a loop scope.
    ScopedLoopContinue = 96: [R] false, [] None, T::Void, C;
    /// Closes a loop scope.
    ScopedEndLoop = 97: [R] false, [] None, T::Void, C;
    /// Opens a switch scope: its end, selector.
    ScopedSwitch = 98: [R, R] false, [] None, T::Void, C;
    /// A case label with a literal value.
    ScopedSwitchCase = 99: [R] false, [L::CaseValue] None, T::Void, C;
    /// The default label.
    ScopedSwitchDefault = 100: [R] false, [] None, T::Void, C;
    /// Breaks out of a switch scope.
    ScopedSwitchBreak = 101: [R] false, [] None, T::Void, C;
    /// Closes a switch scope.
    ScopedEndSwitch = 102: [R] false, [] None, T::Void, C;
    // Barriers
    /// Execution and memory barrier.
    Barrier = 103: [] false, [L::Scope, L::Scope, L::MemoryTypeMask] None, T::Void, C;
    // Geometry shader
    /// Emits a vertex to a stream.
    EmitVertex = 104: [] false, [L::Int] None, T::Void, C;
    /// Ends a primitive on a stream.
    EmitPrimitive = 105: [] false, [L::Int] None, T::Void, C;
    // Pixel shader
    /// Demotes the invocation to a helper (`discard`).
    Demote = 106: [] false, [] None, T::Void, C;
    /// Interpolates an input at the centroid.
    InterpolateAtCentroid = 107: [R, O] false, [] None, T::Value, C;
    /// Interpolates an input at a sample.
    InterpolateAtSample = 108: [R, O, R] false, [] None, T::Value, C;
    /// Interpolates an input at an offset.
    InterpolateAtOffset = 109: [R, O, R] false, [] None, T::Value, C;
    /// Screen-space x derivative.
    DerivX = 110: [R] false, [L::DerivativeMode] None, T::Float, C;
    /// Screen-space y derivative.
    DerivY = 111: [R] false, [L::DerivativeMode] None, T::Float, C;
    /// Begins a rasterizer-ordered critical section.
    RovScopedLockBegin = 112: [] false, [L::MemoryTypeMask, L::RovScope] None, T::Void, C;
    /// Ends a rasterizer-ordered critical section.
    RovScopedLockEnd = 113: [] false, [L::MemoryTypeMask] None, T::Void, C;
    // Comparisons
    /// Ordered float equal.
    FEq = 114: [R, R] false, [] None, T::Bool, C;
    /// Unordered float not-equal.
    FNe = 115: [R, R] false, [] None, T::Bool, C;
    /// Ordered float less-than.
    FLt = 116: [R, R] false, [] None, T::Bool, C;
    /// Ordered float less-or-equal.
    FLe = 117: [R, R] false, [] None, T::Bool, C;
    /// Ordered float greater-than.
    FGt = 118: [R, R] false, [] None, T::Bool, C;
    /// Ordered float greater-or-equal.
    FGe = 119: [R, R] false, [] None, T::Bool, C;
    /// Float is NaN.
    FIsNan = 120: [R] false, [] None, T::Bool, C;
    /// Integer equal.
    IEq = 121: [R, R] false, [] None, T::Bool, C;
    /// Integer not-equal.
    INe = 122: [R, R] false, [] None, T::Bool, C;
    /// Signed less-than.
    SLt = 123: [R, R] false, [] None, T::Bool, C;
    /// Signed less-or-equal.
    SLe = 124: [R, R] false, [] None, T::Bool, C;
    /// Signed greater-than.
    SGt = 125: [R, R] false, [] None, T::Bool, C;
    /// Signed greater-or-equal.
    SGe = 126: [R, R] false, [] None, T::Bool, C;
    /// Unsigned less-than.
    ULt = 127: [R, R] false, [] None, T::Bool, C;
    /// Unsigned less-or-equal.
    ULe = 128: [R, R] false, [] None, T::Bool, C;
    /// Unsigned greater-than.
    UGt = 129: [R, R] false, [] None, T::Bool, C;
    /// Unsigned greater-or-equal.
    UGe = 130: [R, R] false, [] None, T::Bool, C;
    // Logical
    /// Boolean and.
    BAnd = 131: [R, R] false, [] None, T::Bool, C;
    /// Boolean or.
    BOr = 132: [R, R] false, [] None, T::Bool, C;
    /// Boolean equal.
    BEq = 133: [R, R] false, [] None, T::Bool, C;
    /// Boolean not-equal.
    BNe = 134: [R, R] false, [] None, T::Bool, C;
    /// Boolean not.
    BNot = 135: [R] false, [] None, T::Bool, C;
    // Select
    /// Chooses between two values by a boolean.
    Select = 136: [R, R, R] false, [] None, T::Value, C;
    // Float arithmetic
    /// Absolute value.
    FAbs = 137: [R] false, [] None, T::Float, C;
    /// Negation.
    FNeg = 138: [R] false, [] None, T::Float, C;
    /// Addition.
    FAdd = 139: [R, R] false, [] None, T::Float, C;
    /// Subtraction.
    FSub = 140: [R, R] false, [] None, T::Float, C;
    /// Multiplication.
    FMul = 141: [R, R] false, [] None, T::Float, C;
    /// D3D9 multiplication where `0 * x = 0`.
    FMulLegacy = 142: [R, R] false, [] None, T::Float, C;
    /// Multiply-add.
    FMad = 143: [R, R, R] false, [] None, T::Float, C;
    /// D3D9 multiply-add where `0 * x = 0`.
    FMadLegacy = 144: [R, R, R] false, [] None, T::Float, C;
    /// Division.
    FDiv = 145: [R, R] false, [] None, T::Float, C;
    /// Reciprocal.
    FRcp = 146: [R] false, [] None, T::Float, C;
    /// Square root.
    FSqrt = 147: [R] false, [] None, T::Float, C;
    /// Reciprocal square root.
    FRsq = 148: [R] false, [] None, T::Float, C;
    /// Base-2 exponential.
    FExp2 = 149: [R] false, [] None, T::F32, C;
    /// Base-2 logarithm.
    FLog2 = 150: [R] false, [] None, T::F32, C;
    /// Fractional part.
    FFract = 151: [R] false, [] None, T::Float, C;
    /// Rounding with a literal mode.
    FRound = 152: [R] false, [L::RoundMode] None, T::Float, C;
    /// Minimum.
    FMin = 153: [R, R] false, [] None, T::Float, C;
    /// Maximum.
    FMax = 154: [R, R] false, [] None, T::Float, C;
    /// Dot product of vectors; lowered before the target IR.
    FDot = 155: [R, R] false, [] None, T::Float, C;
    /// D3D9 dot product where `0 * x = 0`.
    FDotLegacy = 156: [R, R] false, [] None, T::Float, C;
    /// Clamp to a range.
    FClamp = 157: [R, R, R] false, [] None, T::Float, C;
    /// Sine.
    FSin = 158: [R] false, [] None, T::F32, C;
    /// Cosine.
    FCos = 159: [R] false, [] None, T::F32, C;
    /// Power.
    FPow = 160: [R, R] false, [] None, T::F32, C;
    /// D3D9 power where `pow(x, 0) = 1` and `0 * x = 0`.
    FPowLegacy = 161: [R, R] false, [] None, T::F32, C;
    // Bitwise
    /// Bitwise and.
    IAnd = 162: [R, R] false, [] None, T::Int, C;
    /// Bitwise or.
    IOr = 163: [R, R] false, [] None, T::Int, C;
    /// Bitwise xor.
    IXor = 164: [R, R] false, [] None, T::Int, C;
    /// Bitwise not.
    INot = 165: [R] false, [] None, T::Int, C;
    /// Inserts a bit field.
    IBitInsert = 166: [R, R, R, R] false, [] None, T::Int, C;
    /// Extracts an unsigned bit field.
    UBitExtract = 167: [R, R, R] false, [] None, T::Int, C;
    /// Extracts a signed bit field.
    SBitExtract = 168: [R, R, R] false, [] None, T::Int, C;
    /// Shift left.
    IShl = 169: [R, R] false, [] None, T::Int, C;
    /// Arithmetic shift right.
    SShr = 170: [R, R] false, [] None, T::Int, C;
    /// Logical shift right.
    UShr = 171: [R, R] false, [] None, T::Int, C;
    /// Population count.
    IBitCount = 172: [R] false, [] None, T::Int, C;
    /// Bit reversal.
    IBitReverse = 173: [R] false, [] None, T::Int, C;
    /// Lowest set bit (SPIR-V semantics).
    IFindLsb = 174: [R] false, [] None, T::Int, C;
    /// Highest bit differing from the sign (SPIR-V semantics).
    SFindMsb = 175: [R] false, [] None, T::Int, C;
    /// Highest set bit (SPIR-V semantics).
    UFindMsb = 176: [R] false, [] None, T::Int, C;
    // Integer arithmetic
    /// Addition.
    IAdd = 177: [R, R] false, [] None, T::Int, C;
    /// Addition with carry: `vec2<u32>` (low, carry).
    IAddCarry = 178: [R, R] false, [] None, T::Vec2U32, C;
    /// Subtraction.
    ISub = 179: [R, R] false, [] None, T::Int, C;
    /// Subtraction with borrow: `vec2<u32>` (low, borrow).
    ISubBorrow = 180: [R, R] false, [] None, T::Vec2U32, C;
    /// Absolute value.
    IAbs = 181: [R] false, [] None, T::Int, C;
    /// Negation.
    INeg = 182: [R] false, [] None, T::Int, C;
    /// Multiplication (low bits).
    IMul = 183: [R, R] false, [] None, T::Int, C;
    /// Unsigned division.
    UDiv = 184: [R, R] false, [] None, T::Int, C;
    /// Unsigned remainder.
    UMod = 185: [R, R] false, [] None, T::Int, C;
    /// Signed minimum.
    SMin = 186: [R, R] false, [] None, T::Int, C;
    /// Signed maximum.
    SMax = 187: [R, R] false, [] None, T::Int, C;
    /// Signed clamp.
    SClamp = 188: [R, R, R] false, [] None, T::Int, C;
    /// Unsigned minimum.
    UMin = 189: [R, R] false, [] None, T::Int, C;
    /// Unsigned maximum.
    UMax = 190: [R, R] false, [] None, T::Int, C;
    /// Unsigned clamp.
    UClamp = 191: [R, R, R] false, [] None, T::Int, C;
    /// Masked sum of absolute differences (`msad4` per component).
    UMsad = 192: [R, R, R] false, [] None, T::Int, C;
    /// Signed full multiplication: `vec2<i32>` (low, high).
    SMulExtended = 193: [R, R] false, [] None, T::Vec2I32, C;
    /// Unsigned full multiplication: `vec2<u32>` (low, high).
    UMulExtended = 194: [R, R] false, [] None, T::Vec2U32, C;
}

impl OpCode {
    /// The opcode's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The serialized 10-bit code.
    pub fn code(self) -> u16 {
        self as u16
    }

    /// True for ops that end a block.
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Self::Branch
                | Self::BranchConditional
                | Self::Switch
                | Self::Return
                | Self::Unreachable
        )
    }

    /// True for the declarative ops that must precede code.
    pub fn is_declarative(self) -> bool {
        self.info().class == OpClass::Declaration
    }

    /// True for `Scoped*` control flow.
    pub fn is_scoped(self) -> bool {
        (Self::ScopedIf as u16..=Self::ScopedEndSwitch as u16).contains(&(self as u16))
    }

    /// True for the `Dcl*` declarations.
    pub fn is_dcl(self) -> bool {
        (Self::DclInput as u16..=Self::DclParam as u16).contains(&(self as u16))
    }

    /// True for the ops whose operand 1 is an address into the type of operand 0, a value or
    /// variable whose type the op names: composite extracts and inserts, and the loads, stores,
    /// atomics and interpolations of inputs, outputs, scratch, LDS, push data and constants
    /// (buffers and memory are typed by their descriptor or pointer instead). A constant such
    /// address must stay inside that type.
    pub fn addresses_operand_type(self) -> bool {
        matches!(
            self,
            Self::CompositeExtract
                | Self::CompositeInsert
                | Self::InputLoad
                | Self::OutputLoad
                | Self::OutputStore
                | Self::ScratchLoad
                | Self::ScratchStore
                | Self::LdsLoad
                | Self::LdsStore
                | Self::LdsAtomic
                | Self::PushDataLoad
                | Self::ConstantLoad
                | Self::InterpolateAtCentroid
                | Self::InterpolateAtSample
                | Self::InterpolateAtOffset
        )
    }

    /// The stages whose programs may hold this op, for the ops bound to stages: mode
    /// settings (SPIR-V ties each execution mode to its execution models) and code or
    /// declarations that only some stages have (derivatives and their kin need a pixel
    /// shader's quads, vertex emission a geometry shader, shared memory a workgroup, outputs
    /// a stage that has them); `None` for ops every stage may hold, `SetFpMode` included.
    #[inline]
    pub fn stages(self) -> Option<ShaderStageMask> {
        // One table lookup: the backend asks for every op it emits.
        let bits = STAGES[self as usize];
        (bits != 0).then_some(ShaderStageMask(bits as u32))
    }
}

/// [`OpCode::stages`] per opcode, as `ShaderStageMask` bits (0: every stage).
const STAGES: [u8; OpCode::ALL.len()] = {
    const fn bits(op: OpCode) -> u32 {
        use ShaderStageMask as M;
        let workgroup = M::Compute.0 | M::Mesh.0 | M::Amplification.0;
        match op {
            OpCode::SetCsWorkgroupSize
            | OpCode::DclLds
            | OpCode::LdsLoad
            | OpCode::LdsStore
            | OpCode::LdsAtomic => workgroup,
            OpCode::SetGsInstances
            | OpCode::SetGsInputPrimitive
            | OpCode::SetGsOutputVertices
            | OpCode::SetGsOutputPrimitive
            | OpCode::EmitVertex
            | OpCode::EmitPrimitive => M::Geometry.0,
            OpCode::SetPsEarlyFragmentTest
            | OpCode::SetPsDepthGreaterEqual
            | OpCode::SetPsDepthLessEqual
            | OpCode::Demote
            | OpCode::InterpolateAtCentroid
            | OpCode::InterpolateAtSample
            | OpCode::InterpolateAtOffset
            | OpCode::DerivX
            | OpCode::DerivY
            | OpCode::ImageComputeLod
            | OpCode::RovScopedLockBegin
            | OpCode::RovScopedLockEnd => M::Pixel.0,
            OpCode::SetTessPrimitive | OpCode::SetTessDomain | OpCode::SetTessControlPoints => {
                M::Hull.0 | M::Domain.0
            }
            OpCode::DclOutput
            | OpCode::DclOutputBuiltIn
            | OpCode::OutputLoad
            | OpCode::OutputStore => {
                M::Pixel.0 | M::Vertex.0 | M::Geometry.0 | M::Hull.0 | M::Domain.0 | M::Mesh.0
            }
            OpCode::DclXfb => M::Vertex.0 | M::Geometry.0 | M::Domain.0,
            _ => 0,
        }
    }
    let mut table = [0u8; OpCode::ALL.len()];
    let mut k = 0;
    while k < OpCode::ALL.len() {
        table[k] = bits(OpCode::ALL[k]) as u8;
        k += 1;
    }
    table
};

impl fmt::Display for OpCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_dense_and_names_round_trip() {
        for (i, op) in OpCode::ALL.iter().enumerate() {
            assert_eq!(op.code() as usize, i, "{op} is out of order");
            assert_eq!(OpCode::from_code(op.code()), Some(*op));
            assert_eq!(OpCode::from_name(op.name()), Some(*op));
            assert!(op.code() < 1024, "codes must fit 10 bits");
        }
    }

    #[test]
    fn no_opcode_is_doubly_variadic() {
        for op in OpCode::ALL {
            let info = op.info();
            assert!(!(info.var_refs && info.var_lits.is_some()), "{op}");
        }
    }

    #[test]
    fn ref_counts_follow_the_shape() {
        let i = OpCode::EntryPoint.info();
        assert_eq!(i.ref_count(3), Some(2));
        assert_eq!(i.ref_count(0), None);
        let d = OpCode::DebugName.info();
        assert_eq!(d.ref_count(4), Some(1));
        let f = OpCode::FAdd.info();
        assert_eq!(f.ref_count(2), Some(2));
        assert_eq!(f.ref_count(3), None);
    }
}
