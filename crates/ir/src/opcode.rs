//! The instruction set, declared once as data: every fact about an opcode is in its row.
//!
//! Every opcode of the spec has one row in the `opcodes!` table below:
//!
//! ```text
//! FAdd = 139 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE.and(COMMUTATIVE);
//! ```
//!
//! - its serialized code;
//! - its reference operands, each named, with its [`Role`] (a value, a block, a declaration of
//!   given kinds, a descriptor, a function, ...), its [`TypeRule`] (and [`Like`], a relation
//!   to an earlier operand) and whether it may be null ([`RefKind`]); `..( ... )` is a group
//!   repeated any number of times after them (a switch's cases, a phi's incoming values);
//! - its literal operands, named, with their [`LitKind`] (always after the references);
//!   `..[ ... ]` is a variadic literal tail such as a string;
//! - the rule its result type follows ([`ResultRule`]), where it may appear ([`OpClass`]);
//! - its [`Traits`]: removable when unused, pure (may be merged with an equal op), commutative,
//!   terminator, block-form control flow, scoped control flow, must be lowered before the
//!   backend, declaration, mode setting, annotation, conversion, not a value.
//!
//! The stages an op is bound to are [`OpCode::stages`]. The printer, the parser, the
//! serializer, the validator and the passes all read [`OpCode::info`] and these facts; adding
//! an opcode is adding one row, and the test at the end checks every row for facts that
//! contradict each other.
//!
//! Each opcode's documentation states the semantics the IR promises, which are Direct3D's
//! (where SPIR-V differs, the backend emits the extra code: masked shift counts, division by
//! zero, saturating float-to-integer conversions, bit-field ranges), so that a frontend author
//! knows what to emit.
//!
//! ## Shader Model 6
//! The ops Shader Model 6 adds follow the same design: small ops with literal enums, not one
//! op per `dx.op`. Waves (`Wave*`: a reduction or scan takes a [`crate::WaveOp`], votes and
//! bit operations are reductions of `bool`s and integers), quads (`Quad*`), the helper-lane
//! query, the wave size mode, mesh and amplification shaders (`SetMsOutputs`,
//! `DclMeshPayload`, `MeshSetOutputCounts`, `DispatchMesh`) and packed dot products have ops;
//! the rest is expressed with what the IR had:
//! - `WaveGetLaneIndex`, `WaveGetLaneCount`, `ViewID`, `SV_Barycentrics`, `SV_ShadingRate`,
//!   `SV_CullPrimitive`: built-in inputs and outputs ([`crate::BuiltIn`]; barycentrics
//!   interpolated without perspective when `NoPerspective` is set, at the centroid or sample
//!   with `Centroid`, `Sample`).
//! - `WaveActiveAllTrue`/`AnyTrue`/`BitAnd`/`BitOr`/`BitXor`: `WaveActiveOp` with `And`, `Or`,
//!   `Xor`. `WaveActiveCountBits(c)` is `WaveBallotBitCount(WaveBallot(c))`,
//!   `WavePrefixCountBits(c)` is `WaveBallotPrefixBitCount(WaveBallot(c))` and
//!   `WaveMultiPrefixCountBits(c, m)` is `WaveBallotPrefixBitCount(IAnd(WaveBallot(c), m))`.
//! - `GetAttributeAtVertex(a, v)`: `InputLoad` of an input declared `PerVertex` (an array of
//!   3) at index `v`; a `nointerpolation` read of the same attribute reads element 0.
//! - Mesh shader outputs (`StoreVertexOutput`, `StorePrimitiveOutput`, `EmitIndices`):
//!   `OutputStore` to array outputs of stream 0 (vertices) or 1 (primitives, the
//!   `PrimitiveIndices` built-in among them); `GetMeshPayload`: `LdsLoad` of the
//!   `DclMeshPayload`. Pixel shader inputs a mesh shader wrote per primitive are `PerPrimitive`.
//! - `Dot2AddHalf(acc, a, b)`: `ConvertFtoF` of the two `vec2<f16>` to `vec2<f32>`, then
//!   `FMad(a.y, b.y, FMad(a.x, b.x, acc))` (Direct3D leaves the rounding of the steps open);
//!   `Dot4AddI8Packed(acc, a, b)` is `IAdd(acc, SDot4x8Packed(a, b))`.
//! - `Pack4x8`/`Unpack4x8` (SM 6.6): `UBitExtract`/`SBitExtract` of each byte and
//!   `CompositeConstruct` to unpack; `SClamp`/`UClamp` for the clamping variants, then
//!   `IBitInsert` (or `IAnd`, `IShl`, `IOr`) to pack.
//! - `SampleCmpLevel`, `SampleCmpGrad`, `SampleCmpBias` (SM 6.7): `ImageSample` with a depth
//!   comparison and `lod`, `dx`/`dy` or `lod_bias`. `TextureGatherRaw`: `ImageGather` of an
//!   SRV declared with the raw integer type (component 0; the view's format gives the bits).
//!   `CalculateLevelOfDetail(Unclamped)`: `ImageComputeLod`.
//! - 64-bit atomics on shared memory, buffers and images (SM 6.6): the `*Atomic` ops on
//!   `u64`/`i64`; `InterlockedCompareExchangeFloatBitwise`: a `CompareExchange` of the bits.
//! - Handles (`CreateHandle*`, `AnnotateHandle`) are `DescriptorLoad`s of declarations.
//! - `WriteSamplerFeedback*`: emulated on `FeedbackImage2D*` maps (`u32`, `FixedFormat`): the
//!   LOD clamped to `ImageQueryMips`, then `ImageAtomic` `UMin`/`Or` (docs/sampler_feedback.md).

use crate::enums::ShaderStageMask;
use std::fmt;

/// Whether a reference operand may be null.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefKind {
    /// Must reference an op.
    Required,
    /// May be null (`0`), e.g. an absent address or optional image operand.
    Optional,
}

/// What a reference operand names, which decides the ops it may reference, whether it may
/// reference a later op and whether it may name a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A value computed earlier in program order.
    Value,
    /// A phi's incoming value: computed in the predecessor block, so it may come later in
    /// program order.
    Incoming,
    /// A block (a `Label` of the same function) branched to or come from; may come later.
    Block,
    /// The merge block or continue target a `Label` declares (a `Label` of the same
    /// function); may come later.
    Merge,
    /// Any op, given a debug name; may come later.
    Named,
    /// A value or declaration whose struct member is given a name; may come later.
    MemberNamed,
    /// A value or declaration, passed through unchanged (`Drain`).
    Drained,
    /// The entry point (the one mode settings and declarations belong to).
    EntryPoint,
    /// A function the entry point runs: no parameters, no result; may come later.
    StageFunction,
    /// The function a call calls; may come later.
    Callee,
    /// The function the op is in (`ParamLoad`).
    EnclosingFunction,
    /// A `DclParam` the enclosing function lists (`ParamLoad`).
    Param,
    /// A declaration of one of these opcodes.
    Decl(&'static [OpCode]),
    /// A descriptor: the result of a `DescriptorLoad`.
    Descriptor,
    /// A raw pointer: the result of a `Pointer`.
    Pointer,
    /// A `Constant` (one indexed at run time, or an offset that must be known when compiling).
    Constant,
    /// A switch case value: a `Constant` of the selector's type.
    CaseValue,
    /// The end op of the scoped construct this op opens; may come later.
    ScopeEnd,
    /// The opener of the scoped construct this op belongs to.
    ScopeOpener,
}

impl Role {
    /// True if the operand may reference an op that comes later in program order (the spec's
    /// exceptions to "no forward references").
    #[inline]
    pub const fn may_be_later(self) -> bool {
        matches!(
            self,
            Role::Incoming
                | Role::Block
                | Role::Merge
                | Role::Named
                | Role::MemberNamed
                | Role::StageFunction
                | Role::Callee
                | Role::ScopeEnd
        )
    }

    /// True if the operand may name a declaration ([`OpCode::is_dcl`]): annotations, `Drain`,
    /// and the operands that ask for one.
    #[inline]
    pub const fn takes_declaration(self) -> bool {
        matches!(
            self,
            Role::Named | Role::MemberNamed | Role::Drained | Role::Decl(_) | Role::Param
        )
    }

    /// The opcodes the operand must reference, where the role fixes them.
    #[inline]
    pub const fn opcodes(self) -> Option<&'static [OpCode]> {
        Some(match self {
            Role::Block | Role::Merge => &[OpCode::Label],
            Role::EntryPoint => &[OpCode::EntryPoint],
            Role::StageFunction | Role::Callee | Role::EnclosingFunction => &[OpCode::Function],
            Role::Param => &[OpCode::DclParam],
            Role::Decl(dcls) => dcls,
            Role::Descriptor => &[OpCode::DescriptorLoad],
            Role::Pointer => &[OpCode::Pointer],
            Role::Constant | Role::CaseValue => &[OpCode::Constant],
            _ => return None,
        })
    }
}

/// The type a reference operand must have, as the validator checks it and type resolution
/// reads it (`Unknown` scalars stand for any number or bool before types are resolved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeRule {
    /// Nothing the table states (the op's own rule checks it, if anything does).
    Any,
    /// The op's result type.
    Result,
    /// An integer scalar or vector of the result's vector size and bit size (signedness may
    /// differ).
    IntLikeResult,
    /// An integer scalar or vector of the result's vector size, any bit size (shift amounts,
    /// bit-field offsets and counts, the operand of a bit count or an integer conversion).
    IntPerComponent,
    /// A float scalar or vector of the result's vector size (the operand of a float
    /// conversion).
    FloatPerComponent,
    /// `bool`, or a `bool` vector of the result's vector size (a select's condition).
    BoolPerComponent,
    /// A `bool` scalar.
    BoolScalar,
    /// An integer scalar.
    IntScalar,
    /// An integer scalar compared with the other operand (whose bit size it has).
    ComparedInt,
    /// A 32-bit integer scalar.
    Int32Scalar,
    /// A float scalar.
    FloatScalar,
    /// A float vector.
    FloatVector,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `vec2<f32>`.
    Vec2F32,
    /// `vec4<u32>` (a wave's lane mask: bit `i % 32` of component `i / 32` for lane `i`).
    Vec4U32,
    /// An address into the type of operand 0 (a variable, a constant, a composite): an
    /// integer scalar or vector, one index per level; a constant one stays inside the type.
    Address,
    /// An address into the resource or memory operand 0 gives access to: an integer scalar
    /// or vector.
    ResourceAddress,
    /// Image texel coordinates: 32-bit integers, one per coordinate component of the image's
    /// kind.
    TexelCoord,
    /// Image sampling coordinates: `f32`, one per coordinate component of the image's kind.
    SampleCoord,
    /// The array layer of a texel access: present exactly for layered images, a scalar of the
    /// coordinates' type.
    TexelLayer,
    /// The array layer of a sampling op: as [`TypeRule::TexelLayer`].
    SampleLayer,
    /// A texel offset: 32-bit integers, one per offset component of the image's kind.
    Offset,
    /// A sampling gradient: the coordinates' type.
    Gradient,
}

impl TypeRule {
    /// True for the image operand rules, which need the image's kind to check.
    #[inline]
    pub const fn is_image_operand(self) -> bool {
        matches!(
            self,
            TypeRule::TexelCoord
                | TypeRule::SampleCoord
                | TypeRule::TexelLayer
                | TypeRule::SampleLayer
                | TypeRule::Offset
                | TypeRule::Gradient
        )
    }
}

/// How a reference operand's type relates to an earlier operand's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Like {
    /// No relation.
    Free,
    /// The type of operand `n`.
    TypeOf(u8),
    /// The vector size and bit size of operand `n` (integers of either signedness).
    BitsOf(u8),
}

/// What the table says about one reference operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefInfo {
    /// The operand's name (as in the spec's tables).
    pub name: &'static str,
    /// What it names.
    pub role: Role,
    /// The type it must have.
    pub ty: TypeRule,
    /// Its type's relation to an earlier operand.
    pub like: Like,
    /// Whether it may be null.
    pub kind: RefKind,
}

/// Effect and category flags of an opcode (a set; combine with [`Traits::and`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Traits(u16);

impl Traits {
    /// No flag.
    pub const NONE: Traits = Traits(0);
    /// No effect besides its result: an op whose result nothing uses may be removed (loads
    /// included; stores, atomics, barriers, calls and control flow are not). Declarations with
    /// this flag are the ones that are not the shader's interface.
    pub const REMOVABLE: Traits = Traits(1);
    /// Removable, and two ops with equal type, flags and operands give the same value
    /// wherever both are available, so one may replace the other: no memory reads that a
    /// store may change, no derivatives or helper-lane dependence, no phis.
    pub const PURE: Traits = Traits(1 | 2);
    /// Swapping its two operands never changes its result.
    pub const COMMUTATIVE: Traits = Traits(4);
    /// Ends a block.
    pub const TERMINATOR: Traits = Traits(8);
    /// Block-form control flow: labels, branches and phis, which a function with scoped
    /// control flow must not have.
    pub const CONTROL_FLOW: Traits = Traits(16);
    /// Scoped control flow (`Scoped*`).
    pub const SCOPED: Traits = Traits(32);
    /// Must be lowered before the backend: gone in [`crate::Level::Lowered`] IR.
    pub const LOWER: Traits = Traits(64);
    /// A `Dcl*` declaration that the ops accessing it name (loads, stores, descriptor loads,
    /// queries), never used as a value (a specialization constant is a value, read directly).
    pub const DCL: Traits = Traits(128);
    /// A mode setting of the entry point (`Set*`); it has no value (the type of `SetFpMode`
    /// names the float type it sets).
    pub const MODE: Traits = Traits(256);
    /// Attaches a name to another op (a debug name, a member name, a semantic): no use of the
    /// op's value, and it goes when the op goes.
    pub const ANNOTATION: Traits = Traits(512);
    /// Converts its one operand to the result type; a no-op when the two types are equal.
    pub const CONVERSION: Traits = Traits(1024);
    /// A function, block or entry point: named by the operands that ask for one, never a
    /// value.
    pub const NOT_A_VALUE: Traits = Traits(2048);

    /// Both sets.
    #[inline]
    pub const fn and(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }

    /// True if every flag of `other` is set.
    #[inline]
    pub const fn contains(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
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
    /// [`crate::WaveOp`].
    WaveOp,
    /// [`crate::QuadDirection`].
    QuadDirection,
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
    /// `vec4<u32>` (a wave's lane mask).
    Vec4U32,
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
    pub refs: &'static [RefInfo],
    /// A group of reference operands repeated any number of times after the fixed ones
    /// (empty: none). An op may end in the middle of a group; the validator checks the shape.
    pub ref_tail: &'static [RefInfo],
    /// Fixed literal operands, after all references.
    pub lits: &'static [LitKind],
    /// The names of the fixed literal operands.
    pub lit_names: &'static [&'static str],
    /// A variadic literal tail after the fixed literals, if any.
    pub var_lits: Option<LitKind>,
    /// The name of the variadic literal tail.
    pub var_lit_name: Option<&'static str>,
    /// The result type rule.
    pub result: ResultRule,
    /// Where the op may appear.
    pub class: OpClass,
    /// Effect and category flags.
    pub traits: Traits,
}

impl OpInfo {
    /// True if any number of further references follow the fixed ones.
    #[inline]
    pub const fn var_refs(&self) -> bool {
        !self.ref_tail.is_empty()
    }

    /// Number of reference operands of an op of this opcode with `count` operands in total,
    /// or `None` if `count` does not fit the opcode's shape.
    #[inline]
    pub fn ref_count(&self, count: usize) -> Option<usize> {
        let fixed = self.refs.len() + self.lits.len();
        if count < fixed {
            return None;
        }
        let extra = count - fixed;
        match (self.var_refs(), self.var_lits.is_some()) {
            (false, false) => (extra == 0).then_some(self.refs.len()),
            (true, false) => Some(self.refs.len() + extra),
            (false, true) => Some(self.refs.len()),
            // The table never declares both; treat extra operands as literals.
            (true, true) => Some(self.refs.len()),
        }
    }

    /// What the table says about reference operand `i` (a fixed one or one of the repeated
    /// group), or `None` past the references the shape allows.
    #[inline]
    pub const fn ref_info(&self, i: usize) -> Option<&'static RefInfo> {
        let fixed = self.refs.len();
        if i < fixed {
            return Some(&self.refs[i]);
        }
        let tail = self.ref_tail.len();
        if tail == 0 {
            return None;
        }
        Some(&self.ref_tail[(i - fixed) % tail])
    }

    /// The kind of literal at literal position `i` (0 = first literal), if any.
    #[inline]
    pub fn lit_kind(&self, i: usize) -> Option<LitKind> {
        self.lits.get(i).copied().or(self.var_lits)
    }
}

/// Short constructors of the table's operands (only the table uses them).
mod row {
    use super::{Like, OpCode, RefInfo, RefKind, Role, Traits, TypeRule};

    /// A required operand of `role` and type `ty`, unnamed (the table names it).
    const fn op(role: Role, ty: TypeRule, kind: RefKind) -> RefInfo {
        RefInfo {
            name: "",
            role,
            ty,
            like: Like::Free,
            kind,
        }
    }
    /// A required value of type `ty`.
    pub const fn v(ty: TypeRule) -> RefInfo {
        op(Role::Value, ty, RefKind::Required)
    }
    /// An optional value of type `ty`.
    pub const fn ov(ty: TypeRule) -> RefInfo {
        op(Role::Value, ty, RefKind::Optional)
    }
    /// A required value of type `ty` and of the type of operand `n`.
    pub const fn v_like(ty: TypeRule, n: u8) -> RefInfo {
        RefInfo {
            like: Like::TypeOf(n),
            ..v(ty)
        }
    }
    /// A required value of type `ty` and of the bit size of operand `n`.
    pub const fn v_bits(ty: TypeRule, n: u8) -> RefInfo {
        RefInfo {
            like: Like::BitsOf(n),
            ..v(ty)
        }
    }
    /// A required operand of `role`.
    pub const fn r(role: Role) -> RefInfo {
        op(role, TypeRule::Any, RefKind::Required)
    }
    /// A required declaration of one of `dcls`.
    pub const fn decl(dcls: &'static [OpCode]) -> RefInfo {
        r(Role::Decl(dcls))
    }
    /// The entry point.
    pub const fn entry() -> RefInfo {
        r(Role::EntryPoint)
    }
    /// A descriptor.
    pub const fn desc() -> RefInfo {
        r(Role::Descriptor)
    }
    /// A block.
    pub const fn block() -> RefInfo {
        r(Role::Block)
    }
    /// A scoped construct's opener.
    pub const fn opener() -> RefInfo {
        r(Role::ScopeOpener)
    }
    /// A scoped construct's end op.
    pub const fn end() -> RefInfo {
        r(Role::ScopeEnd)
    }
    /// A `Constant` offset of type `ty`, or null.
    pub const fn oconst(ty: TypeRule) -> RefInfo {
        op(Role::Constant, ty, RefKind::Optional)
    }

    pub const NONE: Traits = Traits::NONE;
    pub const REMOVABLE: Traits = Traits::REMOVABLE;
    pub const PURE: Traits = Traits::PURE;
    pub const COMMUTATIVE: Traits = Traits::COMMUTATIVE;
    pub const TERMINATOR: Traits = Traits::TERMINATOR;
    pub const CONTROL_FLOW: Traits = Traits::CONTROL_FLOW;
    pub const SCOPED: Traits = Traits::SCOPED.and(Traits::LOWER);
    pub const LOWER: Traits = Traits::LOWER;
    pub const DCL: Traits = Traits::DCL;
    pub const MODE: Traits = Traits::MODE;
    pub const ANNOTATION: Traits = Traits::ANNOTATION;
    pub const CONVERSION: Traits = Traits::CONVERSION;
    pub const NOT_A_VALUE: Traits = Traits::NOT_A_VALUE;
}

use row::*;
use OpClass::{Anywhere as A, Code as C, Declaration as D};
use OpCode as O;
use Role as K;
use TypeRule as Ty;

const INPUTS: &[OpCode] = &[O::DclInput, O::DclInputBuiltIn];
const OUTPUTS: &[OpCode] = &[O::DclOutput, O::DclOutputBuiltIn];
const IO: &[OpCode] = &[
    O::DclInput,
    O::DclInputBuiltIn,
    O::DclOutput,
    O::DclOutputBuiltIn,
];
/// What LDS ops access: workgroup shared memory, and the mesh payload (which is shared memory
/// of the amplification shader's workgroup that the mesh shaders it launches read).
const LDS: &[OpCode] = &[O::DclLds, O::DclMeshPayload];
const DESCRIPTORS: &[OpCode] = &[
    O::DclSampler,
    O::DclCbv,
    O::DclSrv,
    O::DclUav,
    O::DclUavCounter,
];

/// A table indexed by opcode discriminant, built at compile time: `opcode_table!(LEN, DEFAULT,
/// f)` holds `f(op)` (a `const fn(OpCode) -> T`) at `op as usize` for every opcode and
/// `DEFAULT` elsewhere. Passes read one entry per op instead of asking several queries.
macro_rules! opcode_table {
    ($len:expr, $default:expr, $f:path) => {{
        let mut table = [$default; $len];
        let mut i = 0;
        while i < $crate::opcode::OpCode::ALL.len() {
            let op = $crate::opcode::OpCode::ALL[i];
            table[op as usize] = $f(op);
            i += 1;
        }
        table
    }};
}
pub(crate) use opcode_table;

/// `None`, or the one optional expression given.
macro_rules! opt {
    () => {
        None
    };
    ($e:expr) => {
        $e
    };
}

/// Declares the opcode enum and its info table from one list of rows:
/// `Name = code (ref: info, ...) ..(repeated: info, ...) [lit: Kind, ...] ..[tail: Kind]
/// -> ResultRule, class, traits;`
macro_rules! opcodes {
    ($(
        $(#[$doc:meta])*
        $name:ident = $code:literal
            ( $($rn:ident : $r:expr),* ) $(.. ( $($tn:ident : $t:expr),+ ))?
            [ $($ln:ident : $l:ident),* ] $(.. [ $vn:ident : $vl:ident ])?
            -> $res:ident, $class:ident, $traits:expr;
    )+) => {
        /// An IR opcode. The discriminant is the 10-bit code of the serialized form.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum OpCode {
            $($(#[$doc])* $name = $code),+
        }

        /// Every opcode's row, indexed by code (codes are dense).
        const INFOS: &[OpInfo] = &[$(OpInfo {
            name: stringify!($name),
            refs: &[$(RefInfo { name: stringify!($rn), ..$r }),*],
            ref_tail: &[$($(RefInfo { name: stringify!($tn), ..$t }),+)?],
            lits: &[$(LitKind::$l),*],
            lit_names: &[$(stringify!($ln)),*],
            var_lits: opt!($(Some(LitKind::$vl))?),
            var_lit_name: opt!($(Some(stringify!($vn)))?),
            result: ResultRule::$res,
            class: $class,
            traits: $traits,
        }),+];

        /// The one copy of [`INFOS`] that lookups read at run time. A `const` is copied into
        /// every code-generation unit that indexes it (six 22 KB copies of this table, each
        /// first touched by a different pass, cost a cold compile a page fault apiece); a
        /// `static` is one object. An array, not a slice: indexed by an opcode, whose codes
        /// are dense, it needs no bounds check and no length load.
        static INFO_TABLE: [OpInfo; INFOS.len()] = {
            let mut table = [INFOS[0]; INFOS.len()];
            let mut i = 0;
            while i < INFOS.len() {
                table[i] = INFOS[i];
                i += 1;
            }
            table
        };

        impl OpCode {
            /// Every opcode, in code order.
            pub const ALL: &'static [OpCode] = &[$(OpCode::$name),+];

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
    /// Attaches a debug name (a string) to any op; the backend names the SPIR-V result (the
    /// module, for the entry point).
    DebugName = 0 (target: r(K::Named)) [] ..[name: Str] -> Void, D, ANNOTATION;
    /// Attaches a debug name to a struct member of a declaration.
    DebugMemberName = 1 (target: r(K::MemberNamed)) [member: Int] ..[name: Str]
        -> Void, D, ANNOTATION;
    /// Debugging pseudo-op returning its operand unchanged (or nothing); never optimised, not
    /// part of a valid shader program (the backend emits nothing for it).
    Drain = 2 (value: r(K::Drained)) [] -> Any, A, NONE;
    // Constants
    /// A constant; one literal per flattened scalar of its type.
    Constant = 3 () [] ..[value: Data] -> Value, D, PURE;
    /// An undefined value of any type (the backend emits `OpUndef`).
    Undef = 4 () [] -> Value, D, REMOVABLE;
    /// The lowest finite value of a scalar type (`-65504` for `f16`, `min16f` and `min10f`);
    /// lowered to a constant.
    MinValue = 5 () [] -> Scalar, A, PURE.and(LOWER);
    /// The highest finite value of a scalar type; lowered to a constant.
    MaxValue = 6 () [] -> Scalar, A, PURE.and(LOWER);
    // Mode setting
    /// Compute workgroup size (`dcl_thread_group`).
    SetCsWorkgroupSize = 7 (entry: entry()) [x: Int, y: Int, z: Int] -> Void, D, MODE;
    /// Geometry shader instance count.
    SetGsInstances = 8 (entry: entry()) [count: Int] -> Void, D, MODE;
    /// Geometry shader input primitive.
    SetGsInputPrimitive = 9 (entry: entry()) [primitive: PrimitiveType] -> Void, D, MODE;
    /// Geometry shader maximum output vertex count.
    SetGsOutputVertices = 10 (entry: entry()) [count: Int] -> Void, D, MODE;
    /// Geometry shader output primitive and the mask of the streams written.
    SetGsOutputPrimitive = 11 (entry: entry()) [primitive: PrimitiveType, stream_mask: Int]
        -> Void, D, MODE;
    /// Force early depth/stencil tests.
    SetPsEarlyFragmentTest = 12 (entry: entry()) [] -> Void, D, MODE;
    /// Conservative depth: the written depth is greater or equal to the rasterized one.
    SetPsDepthGreaterEqual = 13 (entry: entry()) [] -> Void, D, MODE;
    /// Conservative depth: the written depth is less or equal to the rasterized one.
    SetPsDepthLessEqual = 14 (entry: entry()) [] -> Void, D, MODE;
    /// Tessellator output primitive, winding and partitioning.
    SetTessPrimitive = 15 (entry: entry())
        [primitive: PrimitiveType, winding: TessWindingOrder, partitioning: TessPartitioning]
        -> Void, D, MODE;
    /// Tessellation domain.
    SetTessDomain = 16 (entry: entry()) [domain: PrimitiveType] -> Void, D, MODE;
    /// Input and output control point counts.
    SetTessControlPoints = 17 (entry: entry()) [inputs: Int, outputs: Int] -> Void, D, MODE;
    /// Default float flags (the op's own flags), rounding and denorm mode of the result float
    /// type; per-op flags add to these.
    SetFpMode = 18 (entry: entry()) [round: RoundMode, denorm: DenormMode] -> Float, D, MODE;
    // Conversions
    /// Float to float of another width; from `f64`, rounding to nearest even.
    ConvertFtoF = 19 (value: v(Ty::FloatPerComponent)) [] -> Value, C, PURE.and(CONVERSION);
    /// Float to signed or unsigned integer, rounding toward zero. From `f32` to a 32-bit
    /// integer it saturates as Direct3D does: out-of-range values (infinities included) clamp
    /// to the integer range and NaN gives 0; other widths follow SPIR-V (undefined out of
    /// range).
    ConvertFtoI = 20 (value: v(Ty::FloatPerComponent)) [] -> Value, C, PURE.and(CONVERSION);
    /// Integer to float, value-preserving where exact, else rounding to nearest even; the
    /// operand's signedness decides how it is read.
    ConvertItoF = 21 (value: v(Ty::IntPerComponent)) [] -> Value, C, PURE.and(CONVERSION);
    /// Integer to integer of another width: widening sign-extends a signed operand and
    /// zero-extends an unsigned one, narrowing drops the high bits; equal widths are a `Cast`.
    ConvertItoI = 22 (value: v(Ty::IntPerComponent)) [] -> Value, C, PURE.and(CONVERSION);
    /// Packs `vec2<f32>` into two halves of a `u32` (`f32tof16` twice): the first component
    /// in the low 16 bits.
    ConvertF32toPackedF16 = 23 (value: v(Ty::Vec2F32)) [] -> U32, C, PURE;
    /// Unpacks the two halves of a `u32` (low half first) into `vec2<f32>`.
    ConvertPackedF16toF32 = 24 (value: v(Ty::U32)) [] -> Vec2F32, C, PURE;
    /// Bit-preserving cast between numeric types of equal total size (vectors may regroup:
    /// `vec2<u32>` to `f64`).
    Cast = 25 (value: v(Ty::Any)) [] -> Value, C, PURE.and(CONVERSION);
    /// Type hint for an untyped value: the value read as the result type; lowered to casts
    /// and conversions by type resolution (`bool` to number gives all ones for `true`).
    ConsumeAs = 26 (value: v(Ty::Any)) [] -> Value, C, REMOVABLE.and(LOWER);
    // Declarations
    /// A user input: location, component, interpolation (`Flat` for integers in pixel
    /// shaders).
    DclInput = 27 (entry: entry())
        [location: Int, component: Int, interpolation: InterpolationModes] -> Value, D, DCL;
    /// A built-in input and its interpolation.
    DclInputBuiltIn = 28 (entry: entry()) [builtin: BuiltIn, interpolation: InterpolationModes]
        -> Value, D, DCL;
    /// A user output: location, component, stream (geometry shaders).
    DclOutput = 29 (entry: entry()) [location: Int, component: Int, stream: Int]
        -> Value, D, DCL;
    /// A built-in output and its stream.
    DclOutputBuiltIn = 30 (entry: entry()) [builtin: BuiltIn, stream: Int] -> Value, D, DCL;
    /// A specialization constant: spec id, default value; a value, read directly.
    DclSpecConstant = 31 (entry: entry()) [spec_id: Int, default: Int] -> Value, D, NONE;
    /// Push data: byte offset and the stages that read it.
    DclPushData = 32 (entry: entry()) [offset: Int, stages: ShaderStageMask] -> Value, D, DCL;
    /// Samplers: space, register, count (0: unbounded).
    DclSampler = 33 (entry: entry()) [space: Int, register: Int, count: Int] -> Void, D, DCL;
    /// Constant buffers: space, register, count.
    DclCbv = 34 (entry: entry()) [space: Int, register: Int, count: Int] -> Value, D, DCL;
    /// Shader resource views: space, register, count, kind.
    DclSrv = 35 (entry: entry()) [space: Int, register: Int, count: Int, kind: ResourceKind]
        -> Value, D, DCL;
    /// Unordered access views: space, register, count, kind, flags.
    DclUav = 36 (entry: entry())
        [space: Int, register: Int, count: Int, kind: ResourceKind, flags: UavFlags]
        -> Value, D, DCL;
    /// The counter of a UAV.
    DclUavCounter = 37 (entry: entry(), uav: decl(&[O::DclUav])) [] -> U32, D, DCL;
    /// Workgroup shared memory (TGSM).
    DclLds = 38 (entry: entry()) [] -> Value, D, DCL.and(REMOVABLE);
    /// A function-local array (indexable temporaries).
    DclScratch = 39 (entry: entry()) [] -> Value, D, DCL.and(REMOVABLE);
    /// A temporary register, eliminated by SSA construction.
    DclTmp = 40 (entry: entry()) [] -> Value, D, DCL.and(REMOVABLE).and(LOWER);
    /// Transform feedback for an output: buffer, stride, offset.
    DclXfb = 41 (output: decl(OUTPUTS)) [buffer: Int, stride: Int, offset: Int] -> Void, D, DCL;
    /// A function parameter (its type; `Function` lists it, `ParamLoad` reads it).
    DclParam = 42 () [] -> Value, D, DCL.and(REMOVABLE);
    /// Semantic name and index of an input or output declaration.
    Semantic = 43 (target: decl(IO)) [index: Int] ..[name: Str] -> Void, D, ANNOTATION;
    // Composites
    /// The composite with the part at `address` (constant indices, or one run-time index
    /// into a vector) replaced by `value`.
    CompositeInsert = 44 (composite: v(Ty::Any), address: v(Ty::Address), value: v(Ty::Any))
        [] -> Value, C, PURE;
    /// The part of a composite at `address` (constant indices, or one run-time index into a
    /// vector).
    CompositeExtract = 45 (composite: v(Ty::Any), address: v(Ty::Address)) [] -> Value, C, PURE;
    /// A composite from its members (a vector from scalars and vectors of its scalar type).
    CompositeConstruct = 46 () ..(member: v(Ty::Any)) [] -> Value, C, PURE;
    // Sparse feedback
    /// True if a sparse feedback value says all accessed data was resident (always true for
    /// feedback from a buffer load).
    CheckSparseAccess = 47 (feedback: v(Ty::Int32Scalar)) [] -> Bool, C, PURE;
    // Load / store
    /// Loads a parameter of the enclosing function, as a whole.
    ParamLoad = 48 (function: r(K::EnclosingFunction), param: r(K::Param)) [] -> Value, C, PURE;
    /// Loads a temporary.
    TmpLoad = 49 (tmp: decl(&[O::DclTmp])) [] -> Value, C, REMOVABLE.and(LOWER);
    /// Stores a temporary.
    TmpStore = 50 (tmp: decl(&[O::DclTmp]), value: v_like(Ty::Any, 0)) [] -> Void, C, LOWER;
    /// Loads from scratch memory.
    ScratchLoad = 51 (scratch: decl(&[O::DclScratch]), address: v(Ty::Address)) []
        -> Value, C, REMOVABLE;
    /// Stores to scratch memory.
    ScratchStore = 52 (scratch: decl(&[O::DclScratch]), address: v(Ty::Address),
        value: v(Ty::Any)) [] -> Void, C, NONE;
    /// Loads from LDS.
    LdsLoad = 53 (lds: decl(LDS), address: v(Ty::Address)) [] -> Value, C, REMOVABLE;
    /// Stores to LDS.
    LdsStore = 54 (lds: decl(LDS), address: v(Ty::Address), value: v(Ty::Any)) []
        -> Void, C, NONE;
    /// Loads push data.
    PushDataLoad = 55 (push_data: decl(&[O::DclPushData]), address: ov(Ty::Address)) []
        -> Value, C, PURE;
    /// Loads an input (null address: the whole input).
    InputLoad = 56 (input: decl(INPUTS), address: ov(Ty::Address)) [] -> Value, C, PURE;
    /// Loads an output.
    OutputLoad = 57 (output: decl(OUTPUTS), address: ov(Ty::Address)) [] -> Value, C, REMOVABLE;
    /// Stores an output.
    OutputStore = 58 (output: decl(OUTPUTS), address: ov(Ty::Address), value: v(Ty::Any)) []
        -> Void, C, NONE;
    /// Loads a descriptor from a declaration's descriptor array (index 0 for a single one).
    DescriptorLoad = 59 (dcl: decl(DESCRIPTORS), index: v(Ty::IntScalar)) []
        -> Descriptor, C, PURE;
    /// Loads from a buffer descriptor (CBV, SRV or UAV; typed buffers by element index); a
    /// vector result reads consecutive scalars. Literal: the guaranteed alignment in bytes.
    BufferLoad = 60 (descriptor: desc(), address: v(Ty::ResourceAddress)) [align: Int]
        -> Value, C, REMOVABLE;
    /// Stores to a UAV buffer descriptor; literal alignment.
    BufferStore = 61 (descriptor: desc(), address: v(Ty::ResourceAddress), value: v(Ty::Any))
        [align: Int] -> Void, C, NONE;
    /// The structure or element count of a buffer (not its byte size, unlike Direct3D).
    BufferQuerySize = 62 (descriptor: desc()) [] -> U32, C, REMOVABLE;
    /// Loads through a raw pointer; literal alignment (the SPIR-V backend refuses raw
    /// pointers).
    MemoryLoad = 63 (pointer: r(K::Pointer), address: ov(Ty::ResourceAddress)) [align: Int]
        -> Value, C, REMOVABLE;
    /// Stores through a raw pointer; literal alignment.
    MemoryStore = 64 (pointer: r(K::Pointer), address: ov(Ty::ResourceAddress),
        value: v(Ty::Any)) [align: Int] -> Void, C, NONE;
    /// Dynamically indexes a constant array (a vector's component index must be constant).
    ConstantLoad = 65 (constant: r(K::Constant), address: v(Ty::Address)) [] -> Value, C, PURE;
    // Atomics: each returns the value before the operation (`void` if unused).
    /// Atomic on LDS.
    LdsAtomic = 66 (lds: decl(LDS), address: ov(Ty::Address), operand: ov(Ty::Any))
        [op: AtomicOp] -> AtomicResult, C, NONE;
    /// Atomic on a UAV buffer.
    BufferAtomic = 67 (descriptor: desc(), address: ov(Ty::ResourceAddress),
        operand: ov(Ty::Any)) [op: AtomicOp] -> AtomicResult, C, NONE;
    /// Atomic on a UAV image texel.
    ImageAtomic = 68 (descriptor: desc(), layer: ov(Ty::TexelLayer), coord: v(Ty::TexelCoord),
        operand: ov(Ty::Any)) [op: AtomicOp] -> AtomicResult, C, NONE;
    /// Increment (`Inc`) or decrement (`Dec`) of a UAV counter, returning the value before
    /// it: `imm_atomic_alloc` is `Inc`; Direct3D's `imm_atomic_consume` returns the value
    /// after the decrement, one less.
    CounterAtomic = 69 (counter: desc()) [op: AtomicOp] -> AtomicResult, C, NONE;
    /// Atomic through a raw pointer.
    MemoryAtomic = 70 (pointer: r(K::Pointer), address: ov(Ty::ResourceAddress),
        operand: ov(Ty::Any)) [op: AtomicOp] -> AtomicResult, C, NONE;
    // Images
    /// Texel fetch (`ld`, `ld2dms`): descriptor, mip, layer, coord, sample, offset; a `vec4`
    /// of the image's scalar type.
    ImageLoad = 71 (descriptor: desc(), mip: ov(Ty::Any), layer: ov(Ty::TexelLayer),
        coord: v(Ty::TexelCoord), sample: ov(Ty::Any), offset: ov(Ty::Offset)) []
        -> Value, C, REMOVABLE;
    /// Texel store: descriptor, layer, coord, value, and the sample a multisampled UAV's
    /// store writes (`TextureStoreSample`, Shader Model 6.7; null for other images).
    ImageStore = 72 (descriptor: desc(), layer: ov(Ty::TexelLayer), coord: v(Ty::TexelCoord),
        value: v(Ty::Any), sample: ov(Ty::Any)) [] -> Void, C, NONE;
    /// `struct{size, layers}`: the size of a mip level (level 0 if null; the whole image for
    /// multisampled images and UAVs) and the layer count (1 for images without layers).
    ImageQuerySize = 73 (descriptor: desc(), mip: ov(Ty::Any)) [] -> Value, C, REMOVABLE;
    /// Mip level count.
    ImageQueryMips = 74 (descriptor: desc()) [] -> U32, C, PURE;
    /// Sample count of a multisampled image.
    ImageQuerySamples = 75 (descriptor: desc()) [] -> U32, C, PURE;
    /// Sampling: implicit LOD (with `lod_bias` if given) in pixel shaders and in compute, mesh
    /// and amplification shaders whose workgroup forms quads (`DerivativeGroup`), explicit
    /// `lod`, or gradients `dx`/`dy`; LOD 0 in other stages. A depth comparison gives a scalar, else a
    /// `vec4` of the image's scalar type. A non-null offset is a `Constant`.
    ImageSample = 76 (descriptor: desc(), sampler: desc(), layer: ov(Ty::SampleLayer),
        coord: v(Ty::SampleCoord), offset: oconst(Ty::Offset), lod: ov(Ty::Any),
        lod_bias: ov(Ty::Any), lod_clamp: ov(Ty::Any), dx: ov(Ty::Gradient),
        dy: ov(Ty::Gradient), depth_compare: ov(Ty::Any)) [] -> Value, C, REMOVABLE;
    /// Gather of one component (literal 0 to 3) of the four texels a bilinear sample reads;
    /// the offset may vary at run time.
    ImageGather = 77 (descriptor: desc(), sampler: desc(), layer: ov(Ty::SampleLayer),
        coord: v(Ty::SampleCoord), offset: ov(Ty::Offset), depth_compare: ov(Ty::Any))
        [component: Int] -> Value, C, REMOVABLE;
    /// Level of detail a sample would use: (clamped, unclamped).
    ImageComputeLod = 78 (descriptor: desc(), sampler: desc(), coord: v(Ty::SampleCoord)) []
        -> Vec2F32, C, REMOVABLE;
    // Pointers
    /// A raw pointer from a `u64` address; the result type is the pointee.
    Pointer = 79 (address: v(Ty::U64)) [flags: UavFlags] -> Value, C, REMOVABLE;
    // Functions
    /// Starts a function; operands are its `DclParam`s, the type its result.
    Function = 80 () ..(param: decl(&[O::DclParam])) [] -> Any, C, NOT_A_VALUE;
    /// Ends a function (outside any block).
    FunctionEnd = 81 () [] -> Void, C, NONE;
    /// Calls a function with arguments of its parameters' types.
    FunctionCall = 82 (function: r(K::Callee)) ..(argument: v(Ty::Any)) [] -> Any, C, NONE;
    /// The shader entry point: its functions (a hull shader's control point function, then
    /// its patch constant function) and stage.
    EntryPoint = 83 () ..(function: r(K::StageFunction)) [stage: ShaderStage]
        -> Void, D, NOT_A_VALUE;
    /// Returns from the function, with a value or null.
    Return = 84 (value: ov(Ty::Any)) [] -> Any, C, TERMINATOR;
    // Structured control flow
    /// Starts a block; names its merge block (selection), or merge block and continue target
    /// (loop), per its construct.
    Label = 85 () ..(target: r(K::Merge)) [construct: Construct]
        -> Void, C, CONTROL_FLOW.and(NOT_A_VALUE);
    /// Unconditional branch.
    Branch = 86 (target: block()) [] -> Void, C, TERMINATOR.and(CONTROL_FLOW);
    /// Two-way branch.
    BranchConditional = 87 (condition: v(Ty::BoolScalar), true_target: block(),
        false_target: block()) [] -> Void, C, TERMINATOR.and(CONTROL_FLOW);
    /// Multi-way branch: selector, default, then (value, block) pairs.
    Switch = 88 (selector: v(Ty::IntScalar), default: block())
        ..(value: r(K::CaseValue), target: block()) [] -> Void, C, TERMINATOR.and(CONTROL_FLOW);
    /// Marks a block end that is never reached.
    Unreachable = 89 () [] -> Void, C, TERMINATOR;
    /// SSA phi: (predecessor block, value) pairs.
    Phi = 90 () ..(predecessor: block(), value: RefInfo { role: K::Incoming, ..v(Ty::Result) })
        [] -> Value, C, REMOVABLE.and(CONTROL_FLOW);
    // Scoped control flow
    /// Opens an if scope: its end, condition.
    ScopedIf = 91 (end: end(), condition: v(Ty::BoolScalar)) [] -> Void, C, SCOPED;
    /// Else of an if scope.
    ScopedElse = 92 (construct: opener()) [] -> Void, C, SCOPED;
    /// Closes an if scope.
    ScopedEndIf = 93 (construct: opener()) [] -> Void, C, SCOPED;
    /// Opens a loop scope: its end.
    ScopedLoop = 94 (end: end()) [] -> Void, C, SCOPED;
    /// Breaks out of a loop scope.
    ScopedLoopBreak = 95 (construct: opener()) [] -> Void, C, SCOPED;
    /// Continues a loop scope.
    ScopedLoopContinue = 96 (construct: opener()) [] -> Void, C, SCOPED;
    /// Closes a loop scope.
    ScopedEndLoop = 97 (construct: opener()) [] -> Void, C, SCOPED;
    /// Opens a switch scope: its end, selector.
    ScopedSwitch = 98 (end: end(), selector: v(Ty::IntScalar)) [] -> Void, C, SCOPED;
    /// A case label with a literal value of the selector's type.
    ScopedSwitchCase = 99 (construct: opener()) [value: CaseValue] -> Void, C, SCOPED;
    /// The default label.
    ScopedSwitchDefault = 100 (construct: opener()) [] -> Void, C, SCOPED;
    /// Breaks out of a switch scope.
    ScopedSwitchBreak = 101 (construct: opener()) [] -> Void, C, SCOPED;
    /// Closes a switch scope.
    ScopedEndSwitch = 102 (construct: opener()) [] -> Void, C, SCOPED;
    // Barriers
    /// Execution and memory barrier; an execution scope of `Thread` makes it a memory
    /// barrier only.
    Barrier = 103 () [execution: Scope, memory: Scope, memory_types: MemoryTypeMask]
        -> Void, C, NONE;
    // Geometry shader
    /// Emits a vertex to a stream.
    EmitVertex = 104 () [stream: Int] -> Void, C, NONE;
    /// Ends a primitive on a stream.
    EmitPrimitive = 105 () [stream: Int] -> Void, C, NONE;
    // Pixel shader
    /// Demotes the invocation to a helper (`discard`): it stops writing, but its quad's
    /// derivatives stay defined.
    Demote = 106 () [] -> Void, C, NONE;
    /// Interpolates an input at the centroid.
    InterpolateAtCentroid = 107 (input: decl(INPUTS), address: ov(Ty::Address)) []
        -> Value, C, REMOVABLE;
    /// Interpolates an input at a sample.
    InterpolateAtSample = 108 (input: decl(INPUTS), address: ov(Ty::Address),
        sample: v(Ty::Any)) [] -> Value, C, REMOVABLE;
    /// Interpolates an input at an offset from the pixel center.
    InterpolateAtOffset = 109 (input: decl(INPUTS), address: ov(Ty::Address),
        offset: v(Ty::Vec2F32)) [] -> Value, C, REMOVABLE;
    /// Screen-space x derivative (coarse, fine or the device's choice) across a pixel
    /// shader's quad, or across the quad of a compute, mesh or amplification shader's
    /// workgroup (`DerivativeGroup`; the validator checks the workgroup forms one); a 16-bit
    /// float is derived as a 32-bit one.
    DerivX = 110 (value: v(Ty::Result)) [mode: DerivativeMode] -> Float, C, REMOVABLE;
    /// Screen-space y derivative (see `DerivX`).
    DerivY = 111 (value: v(Ty::Result)) [mode: DerivativeMode] -> Float, C, REMOVABLE;
    /// Begins a rasterizer-ordered critical section (fragment shader interlock).
    RovScopedLockBegin = 112 () [memory_types: MemoryTypeMask, scope: RovScope] -> Void, C, NONE;
    /// Ends a rasterizer-ordered critical section.
    RovScopedLockEnd = 113 () [memory_types: MemoryTypeMask] -> Void, C, NONE;
    // Comparisons: scalar operands of one type
    /// Ordered float equal (false if either is NaN).
    FEq = 114 (a: v(Ty::FloatScalar), b: v_like(Ty::FloatScalar, 0)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Unordered float not-equal (true if either is NaN).
    FNe = 115 (a: v(Ty::FloatScalar), b: v_like(Ty::FloatScalar, 0)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Ordered float less-than.
    FLt = 116 (a: v(Ty::FloatScalar), b: v_like(Ty::FloatScalar, 0)) [] -> Bool, C, PURE;
    /// Ordered float less-or-equal.
    FLe = 117 (a: v(Ty::FloatScalar), b: v_like(Ty::FloatScalar, 0)) [] -> Bool, C, PURE;
    /// Ordered float greater-than.
    FGt = 118 (a: v(Ty::FloatScalar), b: v_like(Ty::FloatScalar, 0)) [] -> Bool, C, PURE;
    /// Ordered float greater-or-equal.
    FGe = 119 (a: v(Ty::FloatScalar), b: v_like(Ty::FloatScalar, 0)) [] -> Bool, C, PURE;
    /// Float is NaN.
    FIsNan = 120 (a: v(Ty::FloatScalar)) [] -> Bool, C, PURE;
    /// Integer equal.
    IEq = 121 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Integer not-equal.
    INe = 122 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Signed less-than.
    SLt = 123 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    /// Signed less-or-equal.
    SLe = 124 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    /// Signed greater-than.
    SGt = 125 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    /// Signed greater-or-equal.
    SGe = 126 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    /// Unsigned less-than.
    ULt = 127 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    /// Unsigned less-or-equal.
    ULe = 128 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    /// Unsigned greater-than.
    UGt = 129 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    /// Unsigned greater-or-equal.
    UGe = 130 (a: v(Ty::ComparedInt), b: v_bits(Ty::ComparedInt, 0)) [] -> Bool, C, PURE;
    // Logical
    /// Boolean and.
    BAnd = 131 (a: v(Ty::BoolScalar), b: v(Ty::BoolScalar)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Boolean or.
    BOr = 132 (a: v(Ty::BoolScalar), b: v(Ty::BoolScalar)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Boolean equal.
    BEq = 133 (a: v(Ty::BoolScalar), b: v(Ty::BoolScalar)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Boolean not-equal.
    BNe = 134 (a: v(Ty::BoolScalar), b: v(Ty::BoolScalar)) [] -> Bool, C,
        PURE.and(COMMUTATIVE);
    /// Boolean not.
    BNot = 135 (a: v(Ty::BoolScalar)) [] -> Bool, C, PURE;
    // Select
    /// Chooses between two values by a boolean (per component for a vector condition).
    Select = 136 (condition: v(Ty::BoolPerComponent), if_true: v(Ty::Result),
        if_false: v(Ty::Result)) [] -> Value, C, PURE;
    // Float arithmetic: operands of the result type, per component
    /// Absolute value.
    FAbs = 137 (a: v(Ty::Result)) [] -> Float, C, PURE;
    /// Negation.
    FNeg = 138 (a: v(Ty::Result)) [] -> Float, C, PURE;
    /// Addition.
    FAdd = 139 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE.and(COMMUTATIVE);
    /// Subtraction.
    FSub = 140 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE;
    /// Multiplication (IEEE: `0 * inf` is NaN).
    FMul = 141 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE.and(COMMUTATIVE);
    /// D3D9 multiplication where `0 * x = +0` for every `x`, infinity and NaN included;
    /// lowered.
    FMulLegacy = 142 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE.and(LOWER);
    /// Multiply-add `a * b + c`, fused unless `Precise` (then a multiplication and an
    /// addition that are not contracted).
    FMad = 143 (a: v(Ty::Result), b: v(Ty::Result), c: v(Ty::Result)) [] -> Float, C, PURE;
    /// D3D9 multiply-add where a zero product gives `c`; lowered.
    FMadLegacy = 144 (a: v(Ty::Result), b: v(Ty::Result), c: v(Ty::Result)) [] -> Float, C,
        PURE.and(LOWER);
    /// Division.
    FDiv = 145 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE;
    /// Reciprocal `1 / a` (a division, not an approximation).
    FRcp = 146 (a: v(Ty::Result)) [] -> Float, C, PURE;
    /// Square root.
    FSqrt = 147 (a: v(Ty::Result)) [] -> Float, C, PURE;
    /// Reciprocal square root.
    FRsq = 148 (a: v(Ty::Result)) [] -> Float, C, PURE;
    /// Base-2 exponential.
    FExp2 = 149 (a: v(Ty::Result)) [] -> F32, C, PURE;
    /// Base-2 logarithm.
    FLog2 = 150 (a: v(Ty::Result)) [] -> F32, C, PURE;
    /// Fractional part `a - floor(a)`.
    FFract = 151 (a: v(Ty::Result)) [] -> Float, C, PURE;
    /// Rounding by a literal mode: toward zero, `-inf` (floor), `+inf` (ceil), or to nearest
    /// even.
    FRound = 152 (a: v(Ty::Result)) [mode: RoundMode] -> Float, C, PURE;
    /// Minimum; if one operand is NaN, the other (Direct3D's NaN-aware `min`).
    FMin = 153 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE;
    /// Maximum; if one operand is NaN, the other.
    FMax = 154 (a: v(Ty::Result), b: v(Ty::Result)) [] -> Float, C, PURE;
    /// Dot product of two float vectors, a scalar; lowered to `FMul` and `FMad` in D3D's
    /// order (`x` first).
    FDot = 155 (a: v(Ty::FloatVector), b: v_like(Ty::FloatVector, 0)) [] -> Float, C,
        PURE.and(LOWER);
    /// D3D9 dot product where `0 * x = 0`; lowered.
    FDotLegacy = 156 (a: v(Ty::FloatVector), b: v_like(Ty::FloatVector, 0)) [] -> Float, C,
        PURE.and(LOWER);
    /// Clamp to `[lo, hi]`, NaN-aware as `FMin` and `FMax`.
    FClamp = 157 (a: v(Ty::Result), lo: v(Ty::Result), hi: v(Ty::Result)) [] -> Float, C, PURE;
    /// Sine.
    FSin = 158 (a: v(Ty::Result)) [] -> F32, C, PURE;
    /// Cosine.
    FCos = 159 (a: v(Ty::Result)) [] -> F32, C, PURE;
    /// Power (undefined for a negative base, as in SPIR-V).
    FPow = 160 (base: v(Ty::Result), exponent: v(Ty::Result)) [] -> F32, C, PURE;
    /// D3D9 power `exp2(exponent * log2(base))` with the legacy product, so `pow(x, 0) = 1`
    /// for every `x`; lowered.
    FPowLegacy = 161 (base: v(Ty::Result), exponent: v(Ty::Result)) [] -> F32, C,
        PURE.and(LOWER);
    // Bitwise: the base has the result's size; counts and offsets may have another bit size
    /// Bitwise and.
    IAnd = 162 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Bitwise or.
    IOr = 163 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Bitwise xor.
    IXor = 164 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Bitwise not.
    INot = 165 (a: v(Ty::IntLikeResult)) [] -> Int, C, PURE;
    /// Inserts the low `count` bits of `insert` into `base` at `offset` (`bfi`): offset and
    /// count use their low 5 bits, and the field is clipped at bit 31 (`count = min(count,
    /// 32 - offset)`); 32-bit integers only.
    IBitInsert = 166 (base: v(Ty::IntLikeResult), insert: v(Ty::IntLikeResult),
        offset: v(Ty::IntPerComponent), count: v_like(Ty::IntPerComponent, 2)) [] -> Int, C,
        PURE;
    /// Extracts `count` bits at `offset`, zero-extended (`ubfe`), with `IBitInsert`'s masking
    /// and clipping.
    UBitExtract = 167 (value: v(Ty::IntLikeResult), offset: v(Ty::IntPerComponent),
        count: v_like(Ty::IntPerComponent, 1)) [] -> Int, C, PURE;
    /// Extracts `count` bits at `offset`, sign-extended (`ibfe`), masked and clipped alike.
    SBitExtract = 168 (value: v(Ty::IntLikeResult), offset: v(Ty::IntPerComponent),
        count: v_like(Ty::IntPerComponent, 1)) [] -> Int, C, PURE;
    /// Shift left; only the low bits of the count are used (5 for 32-bit values: `x << 33`
    /// is `x << 1`).
    IShl = 169 (value: v(Ty::IntLikeResult), count: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    /// Arithmetic shift right, with the count masked as for `IShl`.
    SShr = 170 (value: v(Ty::IntLikeResult), count: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    /// Logical shift right, with the count masked as for `IShl`.
    UShr = 171 (value: v(Ty::IntLikeResult), count: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    /// Population count; 32-bit integers only.
    IBitCount = 172 (value: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    /// Bit reversal; 32-bit integers only.
    IBitReverse = 173 (value: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    /// Index of the lowest set bit, all ones for 0 (SPIR-V `FindILsb`, as `firstbit_lo`);
    /// 32-bit integers only.
    IFindLsb = 174 (value: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    /// Index of the highest bit that differs from the sign bit, all ones for 0 and -1
    /// (SPIR-V `FindSMsb`, counted from bit 0: Direct3D's `firstbit_shi` counts from the top,
    /// `31 - x`); 32-bit integers only.
    SFindMsb = 175 (value: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    /// Index of the highest set bit, all ones for 0 (SPIR-V `FindUMsb`, counted from bit 0:
    /// `firstbit_hi` is `31 - x`); 32-bit integers only.
    UFindMsb = 176 (value: v(Ty::IntPerComponent)) [] -> Int, C, PURE;
    // Integer arithmetic: wrapping, operands of the result's size
    /// Addition.
    IAdd = 177 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Addition with carry: `vec2<u32>` (low, carry).
    IAddCarry = 178 (a: v(Ty::Int32Scalar), b: v(Ty::Int32Scalar)) [] -> Vec2U32, C, PURE;
    /// Subtraction.
    ISub = 179 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C, PURE;
    /// Subtraction with borrow: `vec2<u32>` (low, borrow).
    ISubBorrow = 180 (a: v(Ty::Int32Scalar), b: v(Ty::Int32Scalar)) [] -> Vec2U32, C, PURE;
    /// Absolute value (the most negative value stays itself).
    IAbs = 181 (a: v(Ty::IntLikeResult)) [] -> Int, C, PURE;
    /// Negation.
    INeg = 182 (a: v(Ty::IntLikeResult)) [] -> Int, C, PURE;
    /// Multiplication (low bits).
    IMul = 183 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Unsigned division; division by zero gives all ones (Direct3D's `udiv`).
    UDiv = 184 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C, PURE;
    /// Unsigned remainder; by zero, all ones.
    UMod = 185 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C, PURE;
    /// Signed minimum.
    SMin = 186 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Signed maximum.
    SMax = 187 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Signed clamp to `[lo, hi]`.
    SClamp = 188 (a: v(Ty::IntLikeResult), lo: v(Ty::IntLikeResult), hi: v(Ty::IntLikeResult))
        [] -> Int, C, PURE;
    /// Unsigned minimum.
    UMin = 189 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Unsigned maximum.
    UMax = 190 (a: v(Ty::IntLikeResult), b: v(Ty::IntLikeResult)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Unsigned clamp to `[lo, hi]`.
    UClamp = 191 (a: v(Ty::IntLikeResult), lo: v(Ty::IntLikeResult), hi: v(Ty::IntLikeResult))
        [] -> Int, C, PURE;
    /// Masked sum of absolute differences (`msad4` per component): for each byte of
    /// `reference` that is not zero, `|reference.byte - source.byte|` is added to
    /// `accumulator`; 32-bit integers.
    UMsad = 192 (reference: v(Ty::IntLikeResult), source: v(Ty::IntLikeResult),
        accumulator: v(Ty::IntLikeResult)) [] -> Int, C, PURE;
    /// Signed full multiplication: `vec2<i32>` (low, high).
    SMulExtended = 193 (a: v(Ty::Int32Scalar), b: v(Ty::Int32Scalar)) [] -> Vec2I32, C, PURE;
    /// Unsigned full multiplication: `vec2<u32>` (low, high).
    UMulExtended = 194 (a: v(Ty::Int32Scalar), b: v(Ty::Int32Scalar)) [] -> Vec2U32, C, PURE;
    // Waves (SM 6.0 and later). A wave op reads the values of the wave's *active* lanes: the
    // invocations of its wave that run the op together (not those that left the enclosing
    // control flow, nor pixel helper lanes); reading a lane that is not active gives an
    // undefined value. A wave op depends on where it runs, so it is removable but not pure.
    // Lane masks are `vec4<u32>`: lane `i` is bit `i % 32` of component `i / 32`.
    /// True in exactly one active lane of the wave: the one with the lowest index
    /// (`WaveIsFirstLane`).
    WaveIsFirstLane = 195 () [] -> Bool, C, REMOVABLE;
    /// True if the scalar or vector `value` is the same in every active lane, all components
    /// alike (`WaveActiveAllEqual`).
    WaveAllEqual = 196 (value: v(Ty::Any)) [] -> Bool, C, REMOVABLE;
    /// The mask of the active lanes whose `condition` is true (`WaveActiveBallot`); lanes that
    /// are not active and lanes past the wave's size are 0.
    WaveBallot = 197 (condition: v(Ty::BoolScalar)) [] -> Vec4U32, C, REMOVABLE;
    /// `value` as lane `lane` has it (`WaveReadLaneAt`); `lane` may differ between lanes (a
    /// shuffle); undefined if that lane is not active.
    WaveReadLaneAt = 198 (value: v(Ty::Result), lane: v(Ty::Int32Scalar)) [] -> Basic, C,
        REMOVABLE;
    /// `value` as the active lane with the lowest index has it (`WaveReadLaneFirst`).
    WaveReadLaneFirst = 199 (value: v(Ty::Result)) [] -> Basic, C, REMOVABLE;
    /// `value` combined over every active lane by the literal operation, the same in each
    /// (`WaveActiveSum`, `...Product`, `...Min`, `...Max`, `...BitAnd`, `...BitOr`,
    /// `...BitXor`; on `bool`s `And` is `WaveActiveAllTrue` and `Or` `WaveActiveAnyTrue`),
    /// per component for a vector. Float sums and products combine in an order the device
    /// chooses.
    WaveActiveOp = 200 (value: v(Ty::Result)) [op: WaveOp] -> Basic, C, REMOVABLE;
    /// `value` combined over the active lanes with a lower index than this one, the
    /// operation's identity in the first (`WavePrefixSum`, `WavePrefixProduct`): an
    /// exclusive scan.
    WavePrefixOp = 201 (value: v(Ty::Result)) [op: WaveOp] -> Basic, C, REMOVABLE;
    /// `WavePrefixOp` within a partition of the wave (`WaveMultiPrefix*`, SM 6.5): `mask` is
    /// the lanes of this lane's partition, every lane of a partition giving the same mask;
    /// the result combines `value` over the active lanes of the mask with a lower index.
    WaveMultiPrefixOp = 202 (value: v(Ty::Result), mask: v(Ty::Vec4U32)) [op: WaveOp]
        -> Basic, C, REMOVABLE;
    /// How many bits of a lane mask are set, among the lanes of the wave
    /// (`WaveActiveCountBits` is this of a `WaveBallot`).
    WaveBallotBitCount = 203 (ballot: v(Ty::Vec4U32)) [] -> U32, C, REMOVABLE;
    /// How many bits of a lane mask are set among the lanes with a lower index than this one
    /// (`WavePrefixCountBits` of a `WaveBallot`; `WaveMultiPrefixCountBits` of a ballot and
    /// the partition's mask).
    WaveBallotPrefixBitCount = 204 (ballot: v(Ty::Vec4U32)) [] -> U32, C, REMOVABLE;
    /// The mask of the active lanes whose scalar or vector `value` is bit for bit the one
    /// this lane has (`WaveMatch`, SM 6.5).
    WaveMatch = 205 (value: v(Ty::Any)) [] -> Vec4U32, C, REMOVABLE;
    /// True in a pixel shader's helper lanes, those that only run for their quad's
    /// derivatives, including lanes a `Demote` made helpers (`IsHelperLane`, SM 6.6); false
    /// in other stages.
    IsHelperLane = 206 () [] -> Bool, C, REMOVABLE;
    /// The wave sizes the shader works with (`[WaveSize(min, max, preferred)]`, SM 6.6 and
    /// 6.8): powers of two from 4 to 128, `min <= max`; `preferred` is 0 (none) or one in
    /// that range. SM 6.6's `[WaveSize(n)]` is `n n 0`. Vulkan's host chooses the subgroup
    /// size, so the SPIR-V backend reflects this for it.
    SetWaveSize = 207 (entry: entry()) [min: Int, max: Int, preferred: Int] -> Void, D, MODE;
    // Quads: the four lanes of a 2x2 pixel quad (lanes 0 1 on the top row, 2 3 below; in
    // compute, mesh and amplification shaders four consecutive lanes of a wave).
    /// `value` as lane `lane` (0 to 3, the same in the whole quad) of the quad has it
    /// (`QuadReadLaneAt`).
    QuadReadLaneAt = 208 (value: v(Ty::Result), lane: v(Ty::Int32Scalar)) [] -> Basic, C,
        REMOVABLE;
    /// `value` as the quad's lane across in the literal direction has it
    /// (`QuadReadAcrossX`, `...Y`, `...Diagonal`).
    QuadReadAcross = 209 (value: v(Ty::Result)) [direction: QuadDirection] -> Basic, C,
        REMOVABLE;
    /// True if `condition` is true in any active lane of the quad (`QuadAny`, SM 6.7).
    QuadAny = 210 (condition: v(Ty::BoolScalar)) [] -> Bool, C, REMOVABLE;
    /// True if `condition` is true in every active lane of the quad (`QuadAll`, SM 6.7).
    QuadAll = 211 (condition: v(Ty::BoolScalar)) [] -> Bool, C, REMOVABLE;
    // Mesh and amplification shaders (SM 6.5). A mesh shader's outputs are arrays: the
    // per-vertex ones (`DclOutput*` of stream 0) indexed by vertex, the per-primitive ones
    // (stream 1, the primitive stream: `PrimitiveIndices`, `PrimitiveId`, `LayerIndex`,
    // `ViewportIndex`, `ShadingRate`, `CullPrimitive` and user attributes) by primitive.
    /// A mesh shader's largest output vertex and primitive counts (`numverts`, `numprims`,
    /// at most 256 each) and its primitive topology (`outputtopology`: `Line` or `Triangle`).
    SetMsOutputs = 212 (entry: entry())
        [vertices: Int, primitives: Int, topology: PrimitiveType] -> Void, D, MODE;
    /// The payload an amplification shader passes to the mesh shaders it launches: shared
    /// memory of the amplification shader's workgroup (read and written with `LdsLoad`,
    /// `LdsStore`, `LdsAtomic`; at most one per program) that a mesh shader reads with
    /// `LdsLoad` (its `GetMeshPayload`) and may not write.
    DclMeshPayload = 213 (entry: entry()) [] -> Value, D, DCL;
    /// The vertex and primitive counts a mesh shader's workgroup writes
    /// (`SetMeshOutputCounts`): once, in uniform control flow, before any output store.
    MeshSetOutputCounts = 214 (vertices: v(Ty::Int32Scalar), primitives: v(Ty::Int32Scalar))
        [] -> Void, C, NONE;
    /// Launches `x * y * z` mesh shader workgroups with the amplification shader's payload
    /// (`DispatchMesh`), when the shader ends: Direct3D calls it exactly once, with values
    /// uniform in the workgroup. The mesh shaders see the payload as it is when every
    /// invocation of the workgroup has finished.
    DispatchMesh = 215 (x: v(Ty::Int32Scalar), y: v(Ty::Int32Scalar), z: v(Ty::Int32Scalar))
        [] -> Void, C, NONE;
    // Packed dot products (SM 6.4); the accumulation of `dot4add_*` is an `IAdd`.
    /// Dot product of the four signed bytes of `a` and of `b`, a 32-bit integer: the sum of
    /// `a.byte[i] * b.byte[i]`, each byte sign-extended (`Dot4AddI8Packed` without its
    /// accumulator).
    SDot4x8Packed = 216 (a: v(Ty::Int32Scalar), b: v(Ty::Int32Scalar)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
    /// Dot product of the four unsigned bytes of `a` and of `b`, a 32-bit integer
    /// (`Dot4AddU8Packed` without its accumulator).
    UDot4x8Packed = 217 (a: v(Ty::Int32Scalar), b: v(Ty::Int32Scalar)) [] -> Int, C,
        PURE.and(COMMUTATIVE);
}

impl OpCode {
    /// The opcode's row of the table (an index into a static array).
    #[inline]
    pub fn info(self) -> &'static OpInfo {
        &INFO_TABLE[self as usize]
    }

    /// [`OpCode::info`] for constant evaluation (tables computed at compile time), which
    /// cannot read a `static`; run-time code calls `info`.
    pub(crate) const fn const_info(self) -> &'static OpInfo {
        &INFOS[self as usize]
    }

    /// The opcode's name.
    #[inline]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The serialized 10-bit code.
    #[inline]
    pub fn code(self) -> u16 {
        self as u16
    }

    /// The opcode's effect and category flags.
    #[inline]
    pub fn traits(self) -> Traits {
        self.info().traits
    }

    /// [`Traits::REMOVABLE`]: no effect besides its result.
    #[inline]
    pub fn is_removable(self) -> bool {
        self.traits().contains(Traits::REMOVABLE)
    }

    /// [`Traits::PURE`]: equal ops give equal values, so one may replace another.
    #[inline]
    pub fn is_pure(self) -> bool {
        self.traits().contains(Traits::PURE)
    }

    /// [`Traits::COMMUTATIVE`]: swapping the two operands never changes the result.
    #[inline]
    pub fn is_commutative(self) -> bool {
        self.traits().contains(Traits::COMMUTATIVE)
    }

    /// [`Traits::TERMINATOR`]: ends a block.
    #[inline]
    pub fn is_terminator(self) -> bool {
        self.traits().contains(Traits::TERMINATOR)
    }

    /// [`Traits::CONTROL_FLOW`]: block-form control flow (labels, branches, phis).
    #[inline]
    pub fn is_control_flow(self) -> bool {
        self.traits().contains(Traits::CONTROL_FLOW)
    }

    /// [`Traits::SCOPED`]: `Scoped*` control flow.
    #[inline]
    pub fn is_scoped(self) -> bool {
        self.traits().contains(Traits::SCOPED)
    }

    /// [`Traits::LOWER`]: must be gone before the backend.
    #[inline]
    pub fn must_be_lowered(self) -> bool {
        self.traits().contains(Traits::LOWER)
    }

    /// [`Traits::DCL`]: a `Dcl*` declaration that the ops accessing it name, not a value.
    #[inline]
    pub fn is_dcl(self) -> bool {
        self.traits().contains(Traits::DCL)
    }

    /// [`Traits::MODE`]: a mode setting of the entry point.
    #[inline]
    pub fn is_mode(self) -> bool {
        self.traits().contains(Traits::MODE)
    }

    /// [`Traits::ANNOTATION`]: names another op (debug name, member name, semantic).
    #[inline]
    pub fn is_annotation(self) -> bool {
        self.traits().contains(Traits::ANNOTATION)
    }

    /// [`Traits::CONVERSION`]: converts its operand to the result type.
    #[inline]
    pub fn is_conversion(self) -> bool {
        self.traits().contains(Traits::CONVERSION)
    }

    /// [`Traits::NOT_A_VALUE`]: a function, block or entry point.
    #[inline]
    pub fn is_not_a_value(self) -> bool {
        self.traits().contains(Traits::NOT_A_VALUE)
    }

    /// True for the declarative ops that must precede code.
    #[inline]
    pub fn is_declarative(self) -> bool {
        self.info().class == OpClass::Declaration
    }

    /// True for the ops whose operand 1 is an address into the type of operand 0
    /// ([`TypeRule::Address`]), a value or variable whose type the op names: composite
    /// extracts and inserts, and the loads, stores, atomics and interpolations of inputs,
    /// outputs, scratch, LDS, push data and constants (buffers and memory are typed by their
    /// descriptor or pointer instead). A constant such address must stay inside that type.
    #[inline]
    pub fn addresses_operand_type(self) -> bool {
        matches!(self.info().refs.get(1), Some(r) if r.ty == TypeRule::Address)
    }

    /// The stages whose programs may hold this op, for the ops bound to stages: mode
    /// settings (SPIR-V ties each execution mode to its execution models) and code or
    /// declarations that only some stages have (derivatives and their kin need quads: a pixel
    /// shader's, or those a compute, mesh or amplification shader's workgroup forms; vertex
    /// emission a geometry shader, shared memory a workgroup, outputs a stage that has them);
    /// `None` for ops every stage may hold, `SetFpMode` included.
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
            | OpCode::SetWaveSize
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
            | OpCode::RovScopedLockBegin
            | OpCode::RovScopedLockEnd => M::Pixel.0,
            // Shader Model 6.6: compute, mesh and amplification shaders derive over the
            // quads their workgroup forms (`DerivativeGroup`).
            OpCode::DerivX | OpCode::DerivY | OpCode::ImageComputeLod => M::Pixel.0 | workgroup,
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
            OpCode::QuadReadLaneAt | OpCode::QuadReadAcross | OpCode::QuadAny | OpCode::QuadAll => {
                M::Pixel.0 | workgroup
            }
            OpCode::SetMsOutputs | OpCode::MeshSetOutputCounts => M::Mesh.0,
            OpCode::DclMeshPayload => M::Mesh.0 | M::Amplification.0,
            OpCode::DispatchMesh => M::Amplification.0,
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
mod tests;
