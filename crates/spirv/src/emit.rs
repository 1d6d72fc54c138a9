//! The translator from lowered IR ops to SPIR-V instructions.

use crate::words::{
    begin, decode_packed_str, end, first_oversized_instruction, inst, packed_str_len,
    packed_str_words, push_packed_str, push_str, str_words, Sections,
};
use crate::{
    DescriptorType, InterfaceVariable, Reflection, RegisterClass, ResourceBinding, SpirvModule,
    SpirvOptions,
};
use dxspv_ir::small_map::SmallMap;
use dxspv_ir::validate::image_op_misfit;
use dxspv_ir::{
    AtomicOp, BasicType, Builder, BuiltIn, Construct, DenormMode, DerivativeMode,
    InterpolationModes, MemoryTypeMask, Op, OpCode, OpFlags, Operand, PrimitiveType, ResourceKind,
    RoundMode, ScalarType, Scope, ShaderStage, ShaderStageMask, SsaDef, TessPartitioning,
    TessWindingOrder, Type, UavFlags,
};
use smallvec::SmallVec;
use spirv::{Capability, Decoration, GLOp, Op as S, StorageClass as SC};
use std::cell::Cell;

/// Why a module could not be emitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpirvError {
    /// The op (or its operands) uses something the backend does not support.
    #[error("{def} {opcode:?}: unsupported: {feature}")]
    Unsupported {
        /// The offending op.
        def: SsaDef,
        /// Its opcode.
        opcode: OpCode,
        /// What is not supported.
        feature: String,
    },
    /// The op violates the lowered-IR contract the backend relies on.
    #[error("{def} {opcode:?}: malformed IR: {reason}")]
    Malformed {
        /// The offending op.
        def: SsaDef,
        /// Its opcode.
        opcode: OpCode,
        /// What is wrong.
        reason: String,
    },
    /// No `EntryPoint` op.
    #[error("module has no EntryPoint")]
    NoEntryPoint,
}

type R<T> = Result<T, SpirvError>;

/// A SPIR-V type, for deduplication. Scalars and vectors are also cached per IR
/// [`BasicType`] in [`Emitter::basic`], which most lookups hit.
#[derive(Clone, PartialEq, Eq, Hash)]
enum TyKey {
    Void,
    Bool,
    Int(u32, bool),
    Float(u32),
    Vector(u32, u32),
    Array(u32, u32, u32),
    RtArray(u32, u32),
    Struct(SmallVec<[u32; 4]>, u8),
    Ptr(u32, u32),
    Func(SmallVec<[u32; 4]>),
    Image([u32; 7]),
    SampledImage(u32),
    Sampler,
}

/// Struct layout flavours.
const L_NONE: u8 = 0;
const L_EXPLICIT: u8 = 1;
const L_BLOCK: u8 = 2;
const L_BLOCK_RO: u8 = 3;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ResKind {
    Cbv,
    Ssbo,
    TexelBuffer,
    Image(ResourceKind),
    Sampler,
    Counter,
}

#[derive(Clone, Copy)]
struct ResInfo {
    var: u32,
    kind: ResKind,
    uav: bool,
    count: u32,
    /// Type of one descriptor (the struct for buffers, the image type, ...).
    elem_ty: u32,
    /// IR type of the data (CBV / SSBO contents, texel scalar).
    data: Type,
    coherent: bool,
    /// A typed UAV declared with the format its data type names (`UavFlags::FixedFormat`),
    /// which texel atomics need: Vulkan has them on `R32`/`R64` formats only.
    fixed_format: bool,
}

#[derive(Clone, Copy)]
struct DescInfo {
    res: ResInfo,
    /// Pointer to the descriptor (or buffer block).
    ptr: u32,
    /// Loaded image / sampler (0 for buffers).
    value: u32,
    nonuniform: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum IoWrap {
    None,
    /// Declared as a one-element array (SampleMask).
    ArrayOfOne,
    /// Value is the builtin minus another builtin variable (VertexIndex - BaseVertex).
    SubBase(u32),
    /// Pixel shader `SV_Position`: Vulkan's `FragCoord.w` is `1 / w_clip`, D3D's is `w_clip`,
    /// so `w` is reciprocated on load.
    RcpW,
}

#[derive(Clone, Copy)]
struct VarInfo {
    var: u32,
    sc: SC,
    ty: Type,
    wrap: IoWrap,
    /// 1 + index into the reflection's inputs (`Input`) or outputs (`Output`); 0 for none.
    refl: u32,
}

/// Up to six access-chain indices with their constant values where known.
#[derive(Clone, Copy)]
struct Indices {
    ids: [u32; 6],
    vals: [Option<u64>; 6],
    len: usize,
    /// Type of dynamic indices (for `+k` adjustments), and its scalar type.
    idx_ty: u32,
    idx_base: ScalarType,
}

impl Indices {
    fn push(&mut self, id: u32, val: Option<u64>) -> bool {
        if self.len >= 6 {
            return false;
        }
        self.ids[self.len] = id;
        self.vals[self.len] = val;
        self.len += 1;
        true
    }
}

/// What an IR def stands for beyond its SPIR-V id (see [`Slot::info`]).
#[derive(Clone, Copy)]
enum Info {
    /// An I/O, LDS, scratch or sample-count variable.
    Var(VarInfo),
    /// A resource declaration.
    Res(ResInfo),
    /// A `DescriptorLoad`.
    Desc(DescInfo),
    /// A constant read through `ConstantLoad`: its `Private` copy.
    ConstVar(u32),
    /// A `DclPushData`: its member index in the push constant block.
    PushMember(u32),
}

/// Per-IR-def state, indexed by [`SsaDef::index`].
#[derive(Clone, Copy)]
struct Slot {
    /// The SPIR-V id of the def's value.
    id: u32,
    /// 1 + index into [`Emitter::infos`]; 0 when the def has no [`Info`].
    info: u32,
    /// Whether the def has a SPIR-V definition (for `OpName`).
    defined: bool,
    /// Whether the def is a label that a header named as its merge block and that has not
    /// been reached yet (see [`Emitter::open_merges`]).
    merge_pending: bool,
}

/// Capabilities recorded so far: a small sorted set.
#[derive(Default)]
struct CapSet(SmallVec<[u32; 16]>);

impl CapSet {
    fn insert(&mut self, c: u32) {
        if let Err(at) = self.0.binary_search(&c) {
            self.0.insert(at, c);
        }
    }
}

/// Buffers an [`Emitter`] leaves to the next one on the same thread (see
/// [`Emitter::recycle`]): a warm compile allocates little beyond its output.
#[derive(Default)]
struct Scratch {
    slots: Vec<Slot>,
    infos: Vec<Info>,
    sections: Sections,
    io_slots: Vec<u8>,
}

/// Largest buffers (in words) kept for reuse, so one huge shader does not pin its memory.
const SCRATCH_LIMIT: usize = 1 << 16;

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// Counts from a first walk over the IR, for sizing buffers.
#[derive(Default)]
struct Census {
    ops: usize,
    infos: usize,
    inputs: usize,
    outputs: usize,
    resources: usize,
    calls: usize,
}

pub(crate) struct Emitter<'a> {
    b: &'a Builder,
    opts: &'a SpirvOptions,
    s: Sections,
    caps: CapSet,
    /// Extensions, sorted.
    exts: SmallVec<[&'static str; 2]>,
    next_id: u32,
    slots: Vec<Slot>,
    infos: Vec<Info>,
    /// SPIR-V type id per IR basic type ([`basic_index`]); 0 until declared.
    basic: [u32; 128],
    /// Types other than scalars, vectors and pointers.
    types: SmallMap<TyKey, u32, 8>,
    /// Pointer types by `(storage class, pointee)`.
    ptrs: SmallMap<(u32, u32), u32, 16>,
    /// Scalar constants by `(type, bits)`.
    consts: SmallMap<(u32, u64), u32, 16>,
    /// Composite constants by type and constituents.
    composites: SmallMap<SmallVec<[u32; 5]>, u32, 8>,
    glsl: u32,
    stage: ShaderStage,
    entry: Option<SsaDef>,
    entry_fns: SmallVec<[SsaDef; 2]>,
    /// `(function, DclParam, OpFunctionParameter id)`.
    params: Vec<(SsaDef, SsaDef, u32)>,
    cur_fn: Option<SsaDef>,
    merge: Option<(u32, Option<u32>, SsaDef)>,
    /// How many merge blocks the current function's headers declared that are not reached
    /// yet, in program order: SPIR-V's control-flow nesting depth, which may not pass
    /// [`MAX_NESTING_DEPTH`]. Each such label is marked in its slot, so reaching one is O(1).
    open_merges: usize,
    /// `Private` variables declared so far (SPIR-V allows [`MAX_PRIVATE_VARIABLES`]).
    private_vars: usize,
    /// Upper bound of the words of the `OpName`s (written at the end from the IR).
    names_words: usize,
    /// `DebugName` (unless stripped) and `Semantic` ops, applied at the end.
    late: SmallVec<[SsaDef; 16]>,
    modes: SmallVec<[(u32, [u32; 3], usize); 4]>,
    multi_stream: bool,
    /// Sparse-feedback buffer loads whose feedback is the constant "fully resident" code.
    resident_feedback: Vec<SsaDef>,
    /// Set while emitting an access to a `Coherent` UAV.
    coherent_access: bool,
    /// The push constant block variable (0 until a `DclPushData` is seen).
    push_var: u32,
    /// Push constant block members: offset and IR type, in declaration order.
    push: Vec<(u32, Type)>,
    /// The `InvocationId` built-in's variable and the SPIR-V type it holds (`i32` or `u32`).
    invocation_id_var: Option<(u32, u32)>,
    /// Components taken per location by the interface variables so far, so that two
    /// declarations cannot share one: inputs at `0..MAX_LOCATIONS`, outputs after them.
    io_slots: Vec<u8>,
    refl: Reflection,
}

/// Index of a basic type in [`Emitter::basic`].
#[inline]
fn basic_index(t: BasicType) -> usize {
    (t.bits() & 0x7f) as usize
}

#[cold]
#[inline(never)]
fn unsupported<T>(def: SsaDef, op: &Op, feature: impl Into<String>) -> R<T> {
    Err(SpirvError::Unsupported {
        def,
        opcode: op.opcode,
        feature: feature.into(),
    })
}

/// Varying locations a module may use: Direct3D's 32 registers, moved up by 32 per geometry
/// stream, with room for arrays (patch constants count down from 31); far past what any Vulkan
/// device offers, so nothing real is refused, while the overlap check stays a table lookup.
const MAX_LOCATIONS: usize = 256;

/// SPIR-V's universal limits (section 2.17) that spirv-val checks, besides nesting: the id
/// bound, `(literal, label)` pairs of one `OpSwitch`, parameters of one function, `Private`
/// variables of a module, and characters of a literal string.
const MAX_ID_BOUND: u32 = 4_194_303;
const MAX_SWITCH_CASES: usize = 16_383;
const MAX_FUNCTION_PARAMS: usize = 255;
const MAX_PRIVATE_VARIABLES: usize = 65_535;
const MAX_STRING_BYTES: usize = 65_535;

/// SPIR-V's universal limit on control-flow nesting (headers whose merge block is not yet
/// reached, in program order).
const MAX_NESTING_DEPTH: usize = 1023;

/// A literal that SPIR-V writes as one word (a register, space or count).
fn word_lit(def: SsaDef, op: &Op, v: u64) -> R<u32> {
    match u32::try_from(v) {
        Ok(w) => Ok(w),
        Err(_) => malformed(def, op, format!("literal {v} does not fit 32 bits")),
    }
}

/// The first two resources that share a Vulkan descriptor set and binding, if any (two
/// registers of different classes whose shifts land on one binding): Vulkan would alias
/// them. Small lists are compared pairwise, longer ones sorted, so the check stays
/// `O(n log n)` without allocating for the usual handful.
fn shared_binding(resources: &[ResourceBinding]) -> Option<(usize, usize)> {
    let key = |r: &ResourceBinding| (r.set, r.binding);
    if resources.len() <= 32 {
        return (0..resources.len()).find_map(|j| {
            (0..j)
                .find(|&i| key(&resources[i]) == key(&resources[j]))
                .map(|i| (i, j))
        });
    }
    let mut order: Vec<usize> = (0..resources.len()).collect();
    order.sort_unstable_by_key(|&i| (key(&resources[i]), i));
    order
        .windows(2)
        .find(|w| key(&resources[w[0]]) == key(&resources[w[1]]))
        .map(|w| (w[0], w[1]))
}

#[cold]
#[inline(never)]
fn malformed<T>(def: SsaDef, op: &Op, reason: impl Into<String>) -> R<T> {
    Err(SpirvError::Malformed {
        def,
        opcode: op.opcode,
        reason: reason.into(),
    })
}

/// Checks that a value of type `value` can be loaded from or stored to a location of type
/// `at` (what the address reached): aggregates must match exactly; basic types must have
/// scalars of one bit size (the access bit-casts between them and splits vectors over
/// consecutive scalars). Other shapes are malformed IR, or not supported yet (64-bit values
/// over 32-bit words).
fn access_fits(def: SsaDef, op: &Op, value: &Type, at: &Type, what: &str) -> R<()> {
    match (value.as_basic(), at.as_basic()) {
        (Some(v), Some(a)) => {
            let (vb, ab) = (v.base(), a.base());
            // Numbers of one bit size are cast; bools, descriptors and the like only meet
            // their own type.
            if vb == ab
                || (vb.is_numeric() && ab.is_numeric() && scalar_bits(vb) == scalar_bits(ab))
            {
                Ok(())
            } else {
                unsupported(def, op, format!("{what} {value} at {at}"))
            }
        }
        _ if value == at => Ok(()),
        _ => malformed(
            def,
            op,
            format!("{what} {value} at {at}: the address must reach a location of that type"),
        ),
    }
}

fn scalar_bits(t: ScalarType) -> u32 {
    match t {
        ScalarType::I8 | ScalarType::U8 => 8,
        ScalarType::I16 | ScalarType::U16 | ScalarType::F16 => 16,
        ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 64,
        _ => 32,
    }
}

/// The integer type of `t`'s width (32 bits for min-precision types) and the given
/// signedness: what SPIR-V ops that take one exact integer type are computed in.
fn int_of_width(t: ScalarType, signed: bool) -> ScalarType {
    match (scalar_bits(t), signed) {
        (8, false) => ScalarType::U8,
        (8, true) => ScalarType::I8,
        (16, false) => ScalarType::U16,
        (16, true) => ScalarType::I16,
        (64, false) => ScalarType::U64,
        (64, true) => ScalarType::I64,
        (_, false) => ScalarType::U32,
        (_, true) => ScalarType::I32,
    }
}

fn basic_size(t: BasicType) -> u32 {
    let s = scalar_bits(t.base()) / 8;
    s * t.vec_size() as u32
}

fn basic_align(t: BasicType) -> u32 {
    let s = scalar_bits(t.base()) / 8;
    match t.vec_size() {
        1 => s,
        2 => 2 * s,
        _ => 4 * s,
    }
}

/// Base alignment of `t` in a block (std430; at least 16 for arrays in a uniform block,
/// as std140 rounds array elements up to a 16-byte row).
fn block_align(t: &Type, uniform: bool) -> u32 {
    let a = t
        .members()
        .iter()
        .map(|m| basic_align(*m))
        .max()
        .unwrap_or(1);
    if uniform && !t.dims().is_empty() {
        a.max(16)
    } else {
        a
    }
}

/// True if `t`, laid out as this emitter lays it out (members at their base alignment,
/// arrays strided by the packed element size), follows the block layout Vulkan uses by
/// default: std140 for uniform blocks, std430 for storage and push blocks. Members always
/// do; an array stride must be a multiple of its element's base alignment (16 in a uniform
/// block), which `vec3<f32>[n]` (stride 12) is not.
fn block_layout_ok(t: &Type, uniform: bool) -> bool {
    t.dims().is_empty()
        || Emitter::layout_size(&t.without_arrays()).is_multiple_of(block_align(t, uniform))
}

/// Why `t` cannot be the contents of a Vulkan block (a buffer, a CBV or push data), if it
/// cannot: Vulkan has no bools in memory the host sees, and see [`block_layout_ok`].
fn block_type_problem(t: &Type, uniform: bool) -> Option<&'static str> {
    if t.members().iter().any(|m| m.base() == ScalarType::Bool) {
        Some("a bool, which host-visible memory cannot hold")
    } else if !block_layout_ok(t, uniform) {
        Some(if uniform {
            "an array stride not a multiple of 16"
        } else {
            "an array stride that breaks std430 alignment"
        })
    } else {
        None
    }
}

/// True if `ty` is a type Vulkan accepts for the built-in `bi` (per vertex, an array, where
/// a stage reads or writes arrays of vertices: `arrayed`).
fn builtin_type_ok(bi: BuiltIn, ty: &Type, arrayed: bool) -> bool {
    use ScalarType as S;
    let per_vertex = |want: Type| {
        *ty == want
            || (arrayed && ty.dims().len() == 1 && ty.dims()[0] != 0 && ty.element_type() == want)
    };
    let int32 = *ty == Type::scalar(S::U32) || *ty == Type::scalar(S::I32);
    match bi {
        BuiltIn::Position => per_vertex(Type::vector(S::F32, 4)),
        BuiltIn::PointSize => per_vertex(Type::scalar(S::F32)),
        BuiltIn::ClipDistance | BuiltIn::CullDistance => {
            ty.without_arrays() == Type::scalar(S::F32)
                && (1..=1 + arrayed as usize).contains(&ty.dims().len())
                && !ty.dims().contains(&0)
        }
        BuiltIn::TessCoord => *ty == Type::vector(S::F32, 3),
        BuiltIn::TessFactorInner => Type::scalar(S::F32).array_of(2) == Ok(*ty),
        BuiltIn::TessFactorOuter => Type::scalar(S::F32).array_of(4) == Ok(*ty),
        BuiltIn::SamplePosition => *ty == Type::vector(S::F32, 2),
        BuiltIn::IsFrontFace | BuiltIn::IsFullyCovered => *ty == Type::scalar(S::Bool),
        BuiltIn::Depth => *ty == Type::scalar(S::F32),
        BuiltIn::WorkgroupId | BuiltIn::GlobalThreadId | BuiltIn::LocalThreadId => {
            *ty == Type::vector(S::U32, 3) || *ty == Type::vector(S::I32, 3)
        }
        BuiltIn::VertexId
        | BuiltIn::InstanceId
        | BuiltIn::StartVertexLocation
        | BuiltIn::StartInstanceLocation
        | BuiltIn::PrimitiveId
        | BuiltIn::LayerIndex
        | BuiltIn::ViewportIndex
        | BuiltIn::GsInstanceId
        | BuiltIn::TessControlPointId
        | BuiltIn::TessControlPointCountIn
        | BuiltIn::SampleId
        | BuiltIn::SampleMask
        | BuiltIn::SampleCount
        | BuiltIn::StencilRef
        | BuiltIn::LocalThreadIndex
        | BuiltIn::ViewId => int32,
        _ => true,
    }
}

fn exec_model(stage: ShaderStage) -> Option<spirv::ExecutionModel> {
    use spirv::ExecutionModel as E;
    Some(match stage {
        ShaderStage::Pixel => E::Fragment,
        ShaderStage::Vertex => E::Vertex,
        ShaderStage::Geometry => E::Geometry,
        ShaderStage::Hull => E::TessellationControl,
        ShaderStage::Domain => E::TessellationEvaluation,
        ShaderStage::Compute => E::GLCompute,
        _ => return None,
    })
}

impl<'a> Emitter<'a> {
    pub(crate) fn new(b: &'a Builder, opts: &'a SpirvOptions) -> Self {
        let bound = b.id_bound().max(1);
        Self {
            b,
            opts,
            s: Sections::default(),
            caps: CapSet::default(),
            exts: SmallVec::new(),
            next_id: bound as u32,
            slots: Vec::new(),
            infos: Vec::new(),
            basic: [0; 128],
            types: SmallMap::default(),
            ptrs: SmallMap::default(),
            consts: SmallMap::default(),
            composites: SmallMap::default(),
            glsl: 0,
            stage: ShaderStage::Compute,
            entry: None,
            entry_fns: SmallVec::new(),
            params: Vec::new(),
            cur_fn: None,
            merge: None,
            open_merges: 0,
            private_vars: 0,
            names_words: 0,
            late: SmallVec::new(),
            modes: SmallVec::new(),
            multi_stream: false,
            resident_feedback: Vec::new(),
            coherent_access: false,
            push_var: 0,
            push: Vec::new(),
            invocation_id_var: None,
            io_slots: Vec::new(),
            refl: Reflection::default(),
        }
    }

    /// Sizes the buffers and tables for the module from the first walk's [`Census`], reusing
    /// the ones the thread's previous module left behind.
    fn reserve(&mut self, c: &Census) {
        let scratch = SCRATCH.try_with(Cell::take).unwrap_or_default();
        self.slots = scratch.slots;
        self.infos = scratch.infos;
        self.s = scratch.sections;
        self.io_slots = scratch.io_slots;
        self.io_slots.clear();
        self.io_slots.resize(2 * MAX_LOCATIONS, 0);
        let bound = self.next_id;
        self.slots.clear();
        self.slots.extend((0..bound).map(|id| Slot {
            id,
            info: 0,
            defined: false,
            merge_pending: false,
        }));
        self.infos.clear();
        self.infos.reserve(c.infos);
        self.s.reset(c.ops);
        self.refl.inputs = Vec::with_capacity(c.inputs);
        self.refl.outputs = Vec::with_capacity(c.outputs);
        self.refl.resources = Vec::with_capacity(c.resources);
    }

    /// Leaves the reusable buffers to the next emitter on this thread.
    pub(crate) fn recycle(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        let words = slots.capacity() * (size_of::<Slot>() / 4)
            + self.infos.capacity() * (size_of::<Info>() / 4)
            + self.s.capacity();
        if words > SCRATCH_LIMIT {
            return;
        }
        let scratch = Scratch {
            slots,
            infos: std::mem::take(&mut self.infos),
            sections: std::mem::take(&mut self.s),
            io_slots: std::mem::take(&mut self.io_slots),
        };
        // Fails only while the thread is being torn down; the buffers are then just dropped.
        let _ = SCRATCH.try_with(|c| c.set(scratch));
    }

    fn id(&mut self) -> u32 {
        let i = self.next_id;
        self.next_id += 1;
        i
    }

    fn cap(&mut self, c: Capability) {
        self.caps.insert(c as u32);
    }

    fn ext(&mut self, e: &'static str) {
        if let Err(at) = self.exts.binary_search(&e) {
            self.exts.insert(at, e);
        }
    }

    /// SPIR-V id of an IR value.
    #[inline]
    fn v(&self, def: SsaDef) -> u32 {
        self.slots.get(def.index()).map_or(def.id(), |s| s.id)
    }

    fn arg(&self, def: SsaDef, op: &Op, i: usize) -> R<SsaDef> {
        match op.arg(i) {
            Some(a) => Ok(a),
            None => malformed(def, op, format!("operand {i} missing")),
        }
    }

    fn lit(&self, def: SsaDef, op: &Op, i: usize) -> R<u64> {
        match op.lit(i) {
            Some(a) => Ok(a),
            None => malformed(def, op, format!("literal {i} missing")),
        }
    }

    /// Literal `i` as a count of at least one that fits a SPIR-V word: workgroup sizes,
    /// instance and vertex counts (Vulkan refuses zero for each).
    fn count_lit(&self, def: SsaDef, op: &Op, i: usize) -> R<u32> {
        match u32::try_from(self.lit(def, op, i)?) {
            Ok(n) if n > 0 => Ok(n),
            _ => unsupported(def, op, format!("count {}", op.lit(i).unwrap_or(0))),
        }
    }

    fn op_of(&self, def: SsaDef) -> Option<&'a Op> {
        self.b.get(def)
    }

    fn mark(&mut self, def: SsaDef) {
        if let Some(s) = self.slots.get_mut(def.index()) {
            s.defined = true;
        }
    }

    fn set_map(&mut self, def: SsaDef, id: u32) {
        if let Some(s) = self.slots.get_mut(def.index()) {
            s.id = id;
        }
    }

    /// Attaches `info` to `def`.
    fn set_info(&mut self, def: SsaDef, info: Info) {
        if let Some(s) = self.slots.get_mut(def.index()) {
            self.infos.push(info);
            s.info = self.infos.len() as u32;
        }
    }

    /// The first `DebugName` of `def` (like [`dxspv_ir::text::debug_name`]).
    fn debug_name(&self, def: SsaDef) -> Option<String> {
        self.b
            .uses(def)
            .filter(|u| u.operand == 0)
            .filter_map(|u| Some((u.user, self.b.get(u.user)?)))
            .filter(|(_, op)| op.opcode == OpCode::DebugName)
            .min_by_key(|(user, _)| *user)
            .map(|(_, op)| decode_packed_str(op.literals()))
    }

    fn info(&self, def: SsaDef) -> Option<&Info> {
        let i = self.slots.get(def.index())?.info;
        self.infos.get(i.checked_sub(1)? as usize)
    }

    fn var_info(&self, def: SsaDef) -> Option<VarInfo> {
        match self.info(def) {
            Some(Info::Var(v)) => Some(*v),
            _ => None,
        }
    }

    fn res_info(&self, def: SsaDef) -> Option<ResInfo> {
        match self.info(def) {
            Some(Info::Res(r)) => Some(*r),
            _ => None,
        }
    }

    // ---------------------------------------------------------------- types

    /// The type for `key`, declared on first use. Scalars and vectors go through
    /// [`Self::basic_ty`] only, pointers through [`Self::ptr`].
    fn ty_key(&mut self, key: TyKey) -> u32 {
        if let Some(&id) = self.types.get(&key) {
            return id;
        }
        let id = self.declare_ty(&key);
        self.types.insert(key, id);
        id
    }

    /// Declares the type `key` (no deduplication).
    fn declare_ty(&mut self, key: &TyKey) -> u32 {
        let id = self.id();
        let g = &mut self.s.globals;
        match key {
            TyKey::Void => inst(g, S::TypeVoid, &[id]),
            TyKey::Bool => inst(g, S::TypeBool, &[id]),
            TyKey::Int(w, s) => inst(g, S::TypeInt, &[id, *w, *s as u32]),
            TyKey::Float(w) => inst(g, S::TypeFloat, &[id, *w]),
            TyKey::Vector(e, n) => inst(g, S::TypeVector, &[id, *e, *n]),
            TyKey::Array(e, len, stride) => {
                inst(g, S::TypeArray, &[id, *e, *len]);
                if *stride != 0 {
                    let a = &mut self.s.annotations;
                    inst(
                        a,
                        S::Decorate,
                        &[id, Decoration::ArrayStride as u32, *stride],
                    );
                }
            }
            TyKey::RtArray(e, stride) => {
                inst(g, S::TypeRuntimeArray, &[id, *e]);
                if *stride != 0 {
                    let a = &mut self.s.annotations;
                    inst(
                        a,
                        S::Decorate,
                        &[id, Decoration::ArrayStride as u32, *stride],
                    );
                }
            }
            TyKey::Struct(m, _) => {
                let st = begin(g, S::TypeStruct);
                g.push(id);
                g.extend_from_slice(m);
                end(g, st);
            }
            TyKey::Ptr(sc, t) => inst(g, S::TypePointer, &[id, *sc, *t]),
            TyKey::Func(p) => {
                let st = begin(g, S::TypeFunction);
                g.push(id);
                g.extend_from_slice(p);
                end(g, st);
            }
            TyKey::Image(w) => inst(
                g,
                S::TypeImage,
                &[id, w[0], w[1], w[2], w[3], w[4], w[5], w[6]],
            ),
            TyKey::SampledImage(t) => inst(g, S::TypeSampledImage, &[id, *t]),
            TyKey::Sampler => inst(g, S::TypeSampler, &[id]),
        }
        id
    }

    #[inline]
    fn scalar_ty(&mut self, t: ScalarType) -> Option<u32> {
        self.basic_ty(BasicType::scalar(t))
    }

    /// Declares a scalar type (for [`Self::new_basic_ty`]).
    fn declare_scalar_ty(&mut self, t: ScalarType) -> Option<u32> {
        use ScalarType as T;
        let key = match t {
            T::Bool => TyKey::Bool,
            T::I8 | T::U8 => {
                self.cap(Capability::Int8);
                TyKey::Int(8, t == T::I8)
            }
            T::I16 | T::U16 => {
                self.cap(Capability::Int16);
                TyKey::Int(16, t == T::I16)
            }
            T::I32 | T::MinI16 => TyKey::Int(32, true),
            T::U32 | T::MinU16 => TyKey::Int(32, false),
            T::I64 | T::U64 => {
                self.cap(Capability::Int64);
                TyKey::Int(64, t == T::I64)
            }
            T::F16 => {
                self.cap(Capability::Float16);
                TyKey::Float(16)
            }
            T::F32 | T::MinF16 | T::MinF10 => TyKey::Float(32),
            T::F64 => {
                self.cap(Capability::Float64);
                TyKey::Float(64)
            }
            T::Void => TyKey::Void,
            _ => return None,
        };
        Some(self.declare_ty(&key))
    }

    /// SPIR-V type of a scalar or vector.
    #[inline]
    fn basic_ty(&mut self, t: BasicType) -> Option<u32> {
        match self.basic.get(basic_index(t)) {
            Some(&id) if id != 0 => Some(id),
            _ => self.new_basic_ty(t),
        }
    }

    /// The slow path of [`Self::basic_ty`]: reuses the type of the SPIR-V-equivalent basic
    /// type (minimum precision types are 32-bit) or declares it.
    fn new_basic_ty(&mut self, t: BasicType) -> Option<u32> {
        use ScalarType as T;
        let canonical = match t.base() {
            T::MinI16 => T::I32,
            T::MinU16 => T::U32,
            T::MinF16 | T::MinF10 => T::F32,
            b => b,
        };
        let id = if canonical != t.base() {
            self.basic_ty(t.with_base(canonical))?
        } else if t.is_vector() {
            let s = self.basic_ty(BasicType::scalar(canonical))?;
            self.declare_ty(&TyKey::Vector(s, t.vec_size() as u32))
        } else {
            self.declare_scalar_ty(canonical)?
        };
        if let Some(slot) = self.basic.get_mut(basic_index(t)) {
            *slot = id;
        }
        Some(id)
    }

    fn u32_ty(&mut self) -> u32 {
        self.scalar_ty(ScalarType::U32).unwrap_or_default()
    }

    fn void_ty(&mut self) -> u32 {
        self.scalar_ty(ScalarType::Void).unwrap_or_default()
    }

    /// Size of one element for explicit layouts.
    fn layout_size(t: &Type) -> u32 {
        let mut size: u32 = 0;
        let mut align = 1;
        for m in t.members() {
            let a = basic_align(*m);
            size = size.div_ceil(a) * a + basic_size(*m);
            align = align.max(a);
        }
        if t.members().len() > 1 {
            size = size.div_ceil(align) * align;
        }
        let mut n = size;
        for d in t.dims() {
            n *= (*d).max(1);
        }
        n
    }

    /// SPIR-V type of an IR type; `layout` adds explicit offsets and strides.
    #[inline]
    fn ty(&mut self, t: &Type, layout: bool) -> Option<u32> {
        match t.as_basic() {
            Some(b) => self.basic_ty(b),
            None => self.aggregate_ty(t, layout),
        }
    }

    /// [`Self::ty`] of anything but a scalar or vector.
    fn aggregate_ty(&mut self, t: &Type, layout: bool) -> Option<u32> {
        let members = t.members();
        let mut id = match members.len() {
            0 => self.void_ty(),
            1 => self.basic_ty(members[0])?,
            _ => {
                let mut ids = SmallVec::<[u32; 4]>::with_capacity(members.len());
                for m in members {
                    ids.push(self.basic_ty(*m)?);
                }
                let key = TyKey::Struct(ids, if layout { L_EXPLICIT } else { L_NONE });
                let fresh = self.types.get(&key).is_none();
                let sid = self.ty_key(key);
                if fresh && layout {
                    let mut off: u32 = 0;
                    for (i, m) in members.iter().enumerate() {
                        let a = basic_align(*m);
                        off = off.div_ceil(a) * a;
                        inst(
                            &mut self.s.annotations,
                            S::MemberDecorate,
                            &[sid, i as u32, Decoration::Offset as u32, off],
                        );
                        off += basic_size(*m);
                    }
                }
                sid
            }
        };
        let mut elem = t.without_arrays();
        for d in t.dims() {
            let stride = if layout { Self::layout_size(&elem) } else { 0 };
            id = if *d == 0 {
                self.ty_key(TyKey::RtArray(id, stride))
            } else {
                let len = self.const_u32(*d);
                self.ty_key(TyKey::Array(id, len, stride))
            };
            elem = match elem.array_of(*d) {
                Ok(e) => e,
                Err(_) => return None,
            };
        }
        Some(id)
    }

    fn ptr(&mut self, sc: SC, t: u32) -> u32 {
        let key = (sc as u32, t);
        if let Some(&id) = self.ptrs.get(&key) {
            return id;
        }
        let id = self.declare_ty(&TyKey::Ptr(key.0, key.1));
        self.ptrs.insert(key, id);
        id
    }

    fn val_ty(&mut self, def: SsaDef, op: &Op) -> R<u32> {
        match self.ty(&op.ty, false) {
            Some(t) => Ok(t),
            None => unsupported(def, op, format!("type {}", op.ty)),
        }
    }

    // ---------------------------------------------------------------- constants

    fn const_scalar(&mut self, st: ScalarType, bits: u64) -> u32 {
        let Some(t) = self.scalar_ty(st) else {
            return 0;
        };
        if let Some(&id) = self.consts.get(&(t, bits)) {
            return id;
        }
        let id = self.id();
        self.consts.insert((t, bits), id);
        let g = &mut self.s.globals;
        if st == ScalarType::Bool {
            inst(
                g,
                if bits != 0 {
                    S::ConstantTrue
                } else {
                    S::ConstantFalse
                },
                &[t, id],
            );
        } else if scalar_bits(st) == 64 {
            inst(g, S::Constant, &[t, id, bits as u32, (bits >> 32) as u32]);
        } else {
            let w = scalar_bits(st);
            let mut v = bits as u32;
            if w < 32 {
                v &= (1u32 << w) - 1;
                if st.is_signed_int() && v & (1 << (w - 1)) != 0 {
                    v |= !((1u32 << w) - 1);
                }
            }
            inst(g, S::Constant, &[t, id, v]);
        }
        id
    }

    fn const_u32(&mut self, v: u32) -> u32 {
        self.const_scalar(ScalarType::U32, v as u64)
    }

    fn const_composite(&mut self, ty: u32, parts: &[u32]) -> u32 {
        let mut key = SmallVec::<[u32; 5]>::with_capacity(parts.len() + 1);
        key.push(ty);
        key.extend_from_slice(parts);
        if let Some(&id) = self.composites.get(&key) {
            return id;
        }
        let id = self.id();
        self.composites.insert(key, id);
        let g = &mut self.s.globals;
        let st = begin(g, S::ConstantComposite);
        g.push(ty);
        g.push(id);
        g.extend_from_slice(parts);
        end(g, st);
        id
    }

    /// A constant of basic type `t` with every component `bits`.
    fn const_splat(&mut self, t: BasicType, bits: u64) -> u32 {
        let c = self.const_scalar(t.base(), bits);
        if !t.is_vector() {
            return c;
        }
        let Some(ty) = self.basic_ty(t) else {
            return c;
        };
        let parts = [c; 4];
        self.const_composite(ty, &parts[..t.vec_size() as usize])
    }

    /// A constant of IR type `t` from flattened literals.
    fn const_of(&mut self, t: &Type, lits: &[Operand], pos: &mut usize) -> Option<u32> {
        if let Some(&d) = t.dims().last() {
            let e = t.element_type();
            let mut parts = SmallVec::<[u32; 8]>::with_capacity(d as usize);
            for _ in 0..d {
                parts.push(self.const_of(&e, lits, pos)?);
            }
            let ty = self.ty(t, false)?;
            return Some(self.const_composite(ty, &parts));
        }
        let members = t.members();
        if let [m] = members {
            // Scalar or vector: no struct to build.
            let mut comps = [0u32; 4];
            for c in comps.iter_mut().take(m.vec_size() as usize) {
                let bits = lits.get(*pos)?.0;
                *pos += 1;
                *c = self.const_scalar(m.base(), bits);
            }
            if !m.is_vector() {
                return Some(comps[0]);
            }
            let ty = self.basic_ty(*m)?;
            return Some(self.const_composite(ty, &comps[..m.vec_size() as usize]));
        }
        let mut mids = SmallVec::<[u32; 4]>::with_capacity(members.len());
        for m in members {
            let mut comps = [0u32; 4];
            for c in comps.iter_mut().take(m.vec_size() as usize) {
                let bits = lits.get(*pos)?.0;
                *pos += 1;
                *c = self.const_scalar(m.base(), bits);
            }
            if m.is_vector() {
                let ty = self.basic_ty(*m)?;
                mids.push(self.const_composite(ty, &comps[..m.vec_size() as usize]));
            } else {
                mids.push(comps[0]);
            }
        }
        if mids.len() == 1 {
            return mids.first().copied();
        }
        let ty = self.ty(t, false)?;
        Some(self.const_composite(ty, &mids))
    }

    /// The `GLSL.std.450` import (declared at the end, see [`Self::finish`]).
    fn glsl(&mut self) -> u32 {
        if self.glsl == 0 {
            self.glsl = self.id();
        }
        self.glsl
    }

    // ---------------------------------------------------------------- function-body helpers

    fn f(&mut self) -> &mut Vec<u32> {
        &mut self.s.functions
    }

    /// Emits `result = op(args)` with a fresh id.
    fn un(&mut self, op: S, ty: u32, args: &[u32]) -> u32 {
        let id = self.id();
        self.emit_to(op, ty, id, args);
        id
    }

    fn emit_to(&mut self, op: S, ty: u32, id: u32, args: &[u32]) {
        let f = &mut self.s.functions;
        let st = begin(f, op);
        f.push(ty);
        f.push(id);
        f.extend_from_slice(args);
        end(f, st);
    }

    fn ext_to(&mut self, gl: GLOp, ty: u32, id: u32, args: &[u32]) {
        let set = self.glsl();
        let f = &mut self.s.functions;
        let st = begin(f, S::ExtInst);
        f.extend_from_slice(&[ty, id, set, gl as u32]);
        f.extend_from_slice(args);
        end(f, st);
    }

    fn decorate(&mut self, id: u32, d: Decoration, extra: &[u32]) {
        let a = &mut self.s.annotations;
        let st = begin(a, S::Decorate);
        a.push(id);
        a.push(d as u32);
        a.extend_from_slice(extra);
        end(a, st);
    }

    /// Declares a module-scope variable. Every `OpVariable` in the globals section is listed
    /// in the entry point's interface ([`Self::finish`] collects them).
    fn global_var(&mut self, ptr_ty: u32, sc: SC, id: u32, init: Option<u32>) {
        if sc == SC::Private {
            self.private_vars += 1;
        }
        let g = &mut self.s.globals;
        match init {
            Some(i) => inst(g, S::Variable, &[ptr_ty, id, sc as u32, i]),
            None => inst(g, S::Variable, &[ptr_ty, id, sc as u32]),
        }
    }

    // ---------------------------------------------------------------- driver

    pub(crate) fn run(&mut self) -> R<SpirvModule> {
        self.cap(Capability::Shader);
        self.cap(Capability::VulkanMemoryModel);
        // Find the entry point first (stage decides builtin mapping) and size the buffers.
        let mut census = Census::default();
        for (def, op) in self.b.iter() {
            census.ops += 1;
            match op.opcode {
                OpCode::EntryPoint => {
                    let lit = op.literals().first().map(|l| l.0).unwrap_or(u64::MAX);
                    let Some(stage) = ShaderStage::from_literal(lit) else {
                        return malformed(def, op, "bad shader stage");
                    };
                    self.stage = stage;
                    self.entry = Some(def);
                    self.entry_fns = op.refs().flatten().collect();
                }
                OpCode::DclInput | OpCode::DclInputBuiltIn => {
                    census.inputs += 1;
                    census.infos += 1;
                }
                OpCode::DclOutput | OpCode::DclOutputBuiltIn => {
                    census.outputs += 1;
                    census.infos += 1;
                }
                OpCode::DclCbv
                | OpCode::DclSrv
                | OpCode::DclUav
                | OpCode::DclSampler
                | OpCode::DclUavCounter => {
                    census.resources += 1;
                    census.infos += 1;
                }
                OpCode::DclLds
                | OpCode::DclScratch
                | OpCode::DclPushData
                | OpCode::DescriptorLoad
                | OpCode::ConstantLoad => census.infos += 1,
                OpCode::FunctionCall => census.calls += 1,
                _ => {}
            }
        }
        if census.calls > 0 {
            if let Some(call) = dxspv_ir::analysis::recursive_call(self.b) {
                return malformed(call, self.b.op(call), "recursion (Vulkan has none)");
            }
        }
        self.reserve(&census);
        let Some(entry) = self.entry else {
            return Err(SpirvError::NoEntryPoint);
        };
        let Some(model) = exec_model(self.stage) else {
            let op = self.b.op(entry);
            return unsupported(entry, op, format!("{} shaders", self.stage));
        };
        match self.stage {
            ShaderStage::Geometry => self.cap(Capability::Geometry),
            ShaderStage::Hull | ShaderStage::Domain => self.cap(Capability::Tessellation),
            _ => {}
        }
        for (def, op) in self.b.iter() {
            self.op(def, op)?;
        }
        self.finish(entry, model)
    }

    fn op(&mut self, def: SsaDef, op: &'a Op) -> R<()> {
        use OpCode as O;
        match op.opcode {
            _ if !op_fits_stage(op.opcode, self.stage) => malformed(
                def,
                op,
                format!("{:?} in a {:?} shader", op.opcode, self.stage),
            ),
            O::EntryPoint | O::DclParam | O::Drain => Ok(()),
            O::SetFpMode => self.set_fp_mode(def, op),
            O::DebugName => {
                // Written at the end, straight from the IR.
                if op.arg(0).is_some() && !self.opts.strip_debug_names {
                    self.names_words += 2 + packed_str_words(op.literals().len());
                    self.late.push(def);
                }
                Ok(())
            }
            O::DebugMemberName => Ok(()),
            O::DclXfb => self.dcl_xfb(def, op),
            O::Semantic => {
                self.late.push(def);
                Ok(())
            }
            O::Constant => {
                let mut pos = 0;
                match self.const_of(&op.ty, op.literals(), &mut pos) {
                    Some(id) => {
                        self.set_map(def, id);
                        self.mark(def);
                        Ok(())
                    }
                    None => unsupported(def, op, format!("constant of type {}", op.ty)),
                }
            }
            O::Undef => {
                let t = self.val_ty(def, op)?;
                inst(&mut self.s.globals, S::Undef, &[t, def.id()]);
                self.mark(def);
                Ok(())
            }
            O::SetCsWorkgroupSize => {
                let x = self.count_lit(def, op, 0)?;
                let y = self.count_lit(def, op, 1)?;
                let z = self.count_lit(def, op, 2)?;
                self.modes
                    .push((spirv::ExecutionMode::LocalSize as u32, [x, y, z], 3));
                Ok(())
            }
            O::SetGsInstances => {
                let n = self.count_lit(def, op, 0)?;
                self.modes
                    .push((spirv::ExecutionMode::Invocations as u32, [n, 0, 0], 1));
                Ok(())
            }
            O::SetGsInputPrimitive => {
                use spirv::ExecutionMode as M;
                let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
                    Some(PrimitiveType::Point) => M::InputPoints,
                    Some(PrimitiveType::Line) => M::InputLines,
                    Some(PrimitiveType::LineAdj) => M::InputLinesAdjacency,
                    Some(PrimitiveType::Triangle) => M::Triangles,
                    Some(PrimitiveType::TriangleAdj) => M::InputTrianglesAdjacency,
                    _ => return unsupported(def, op, "GS input primitive"),
                };
                self.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetGsOutputVertices => {
                let n = self.count_lit(def, op, 0)?;
                self.modes
                    .push((spirv::ExecutionMode::OutputVertices as u32, [n, 0, 0], 1));
                Ok(())
            }
            O::SetGsOutputPrimitive => {
                use spirv::ExecutionMode as M;
                let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
                    Some(PrimitiveType::Point) => M::OutputPoints,
                    Some(PrimitiveType::Line) => M::OutputLineStrip,
                    Some(PrimitiveType::Triangle) => M::OutputTriangleStrip,
                    _ => return unsupported(def, op, "GS output primitive"),
                };
                let mask = op.lit(1).unwrap_or(1);
                if mask & !1 != 0 {
                    self.multi_stream = true;
                    self.cap(Capability::GeometryStreams);
                }
                self.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetPsEarlyFragmentTest => {
                self.modes
                    .push((spirv::ExecutionMode::EarlyFragmentTests as u32, [0; 3], 0));
                Ok(())
            }
            O::SetPsDepthGreaterEqual => {
                self.modes
                    .push((spirv::ExecutionMode::DepthGreater as u32, [0; 3], 0));
                Ok(())
            }
            O::SetPsDepthLessEqual => {
                self.modes
                    .push((spirv::ExecutionMode::DepthLess as u32, [0; 3], 0));
                Ok(())
            }
            O::SetTessPrimitive => {
                use spirv::ExecutionMode as M;
                let prim = PrimitiveType::from_literal(self.lit(def, op, 0)?);
                if prim == Some(PrimitiveType::Point) {
                    self.modes.push((M::PointMode as u32, [0; 3], 0));
                }
                if prim == Some(PrimitiveType::Triangle) {
                    // D3D's winding is relative to an upper-left origin: flip it.
                    let m = match TessWindingOrder::from_literal(self.lit(def, op, 1)?) {
                        Some(TessWindingOrder::Cw) => M::VertexOrderCcw,
                        _ => M::VertexOrderCw,
                    };
                    self.modes.push((m as u32, [0; 3], 0));
                }
                let m = match TessPartitioning::from_literal(self.lit(def, op, 2)?) {
                    Some(TessPartitioning::FractOdd) => M::SpacingFractionalOdd,
                    Some(TessPartitioning::FractEven) => M::SpacingFractionalEven,
                    _ => M::SpacingEqual,
                };
                self.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetTessDomain => {
                use spirv::ExecutionMode as M;
                let m = match PrimitiveType::from_literal(self.lit(def, op, 0)?) {
                    Some(PrimitiveType::Triangle) => M::Triangles,
                    Some(PrimitiveType::Quad) => M::Quads,
                    Some(PrimitiveType::Line) => M::Isolines,
                    _ => return unsupported(def, op, "tessellation domain"),
                };
                self.modes.push((m as u32, [0; 3], 0));
                Ok(())
            }
            O::SetTessControlPoints => {
                // A hull shader's output patch size; a domain shader's input patch needs none.
                if self.stage == ShaderStage::Hull {
                    let n = self.count_lit(def, op, 1)?;
                    self.modes
                        .push((spirv::ExecutionMode::OutputVertices as u32, [n, 0, 0], 1));
                }
                Ok(())
            }
            O::DclInput | O::DclOutput | O::DclInputBuiltIn | O::DclOutputBuiltIn => {
                self.dcl_io(def, op)
            }
            O::DclCbv | O::DclSrv | O::DclUav | O::DclSampler | O::DclUavCounter => {
                self.dcl_resource(def, op)
            }
            O::DclLds | O::DclScratch => {
                let sc = if op.opcode == O::DclLds {
                    SC::Workgroup
                } else {
                    SC::Private
                };
                let Some(t) = self.ty(&op.ty, false) else {
                    return unsupported(def, op, format!("type {}", op.ty));
                };
                let p = self.ptr(sc, t);
                self.global_var(p, sc, def.id(), None);
                self.mark(def);
                self.set_info(
                    def,
                    Info::Var(VarInfo {
                        var: def.id(),
                        sc,
                        ty: op.ty,
                        wrap: IoWrap::None,
                        refl: 0,
                    }),
                );
                Ok(())
            }
            O::DclSpecConstant => self.dcl_spec_constant(def, op),
            O::DclPushData => {
                let offset = self.lit(def, op, 0)? as u32;
                let why = block_type_problem(&op.ty, false).or_else(|| {
                    (!offset.is_multiple_of(block_align(&op.ty, false)))
                        .then_some("an offset that breaks std430 alignment")
                });
                if let Some(why) = why {
                    return unsupported(
                        def,
                        op,
                        format!("push data type {} at offset {offset} ({why})", op.ty),
                    );
                }
                if self.ty(&op.ty, true).is_none() {
                    return unsupported(def, op, format!("push data type {}", op.ty));
                }
                if self.push_var == 0 {
                    self.push_var = self.id();
                }
                self.set_info(def, Info::PushMember(self.push.len() as u32));
                self.push.push((offset, op.ty));
                self.mark(def);
                Ok(())
            }
            O::Pointer | O::MemoryLoad | O::MemoryStore | O::MemoryAtomic => {
                unsupported(def, op, "raw pointers")
            }
            O::Function => {
                self.open_merges = 0;
                self.function(def, op)
            }
            O::FunctionEnd => {
                inst(self.f(), S::FunctionEnd, &[]);
                self.cur_fn = None;
                Ok(())
            }
            O::Label => {
                inst(self.f(), S::Label, &[def.id()]);
                self.mark(def);
                // Reaching a merge block closes its construct.
                if let Some(s) = self.slots.get_mut(def.index()).filter(|s| s.merge_pending) {
                    s.merge_pending = false;
                    self.open_merges -= 1;
                }
                let c = op.construct();
                self.merge = match c {
                    Some(Construct::StructuredSelection) => {
                        let m = self.arg(def, op, 0)?;
                        Some((self.v(m), None, m))
                    }
                    Some(Construct::StructuredLoop) => {
                        let m = self.arg(def, op, 0)?;
                        Some((self.v(m), Some(self.v(self.arg(def, op, 1)?)), m))
                    }
                    _ => None,
                };
                Ok(())
            }
            O::Branch | O::BranchConditional | O::Switch => self.terminator(def, op),
            O::Unreachable => {
                inst(self.f(), S::Unreachable, &[]);
                Ok(())
            }
            O::Return => {
                match op.arg(0) {
                    Some(v) => {
                        let v = self.v(v);
                        inst(self.f(), S::ReturnValue, &[v]);
                    }
                    None => inst(self.f(), S::Return, &[]),
                }
                Ok(())
            }
            _ => {
                self.mark(def);
                self.code(def, op)
            }
        }
    }

    fn function(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if op.refs().count() > MAX_FUNCTION_PARAMS {
            return unsupported(
                def,
                op,
                format!(
                    "a function of {} parameters (SPIR-V allows {MAX_FUNCTION_PARAMS})",
                    op.refs().count()
                ),
            );
        }
        let ret = self.val_ty(def, op)?;
        let mut sig = SmallVec::<[u32; 4]>::new();
        sig.push(ret);
        for p in op.refs().flatten() {
            let Some(pop) = self.op_of(p) else {
                return malformed(def, op, "missing parameter");
            };
            sig.push(self.val_ty(p, pop)?);
        }
        let fty = self.ty_key(TyKey::Func(sig.clone()));
        inst(self.f(), S::Function, &[ret, def.id(), 0, fty]);
        self.mark(def);
        for (p, &t) in op.refs().flatten().zip(sig.get(1..).unwrap_or(&[])) {
            let id = self.id();
            inst(self.f(), S::FunctionParameter, &[t, id]);
            self.params.push((def, p, id));
        }
        self.cur_fn = Some(def);
        Ok(())
    }

    fn terminator(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if let Some((m, cont, merge_def)) = self.merge.take() {
            match cont {
                Some(c) => inst(self.f(), S::LoopMerge, &[m, c, 0]),
                None => {
                    if op.opcode != OpCode::Branch {
                        inst(self.f(), S::SelectionMerge, &[m, 0]);
                    }
                }
            }
            let slot = self.slots.get_mut(merge_def.index());
            if let Some(s) = slot.filter(|_| cont.is_some() || op.opcode != OpCode::Branch) {
                if !s.merge_pending {
                    s.merge_pending = true;
                    self.open_merges += 1;
                }
                if self.open_merges > MAX_NESTING_DEPTH {
                    return unsupported(
                        def,
                        op,
                        format!("control flow nested deeper than SPIR-V's {MAX_NESTING_DEPTH}"),
                    );
                }
            }
        }
        match op.opcode {
            OpCode::Branch => {
                let t = self.v(self.arg(def, op, 0)?);
                inst(self.f(), S::Branch, &[t]);
            }
            OpCode::BranchConditional => {
                let c = self.v(self.arg(def, op, 0)?);
                let t = self.v(self.arg(def, op, 1)?);
                let e = self.v(self.arg(def, op, 2)?);
                inst(self.f(), S::BranchConditional, &[c, t, e]);
            }
            _ => {
                let sel = self.arg(def, op, 0)?;
                let wide = self
                    .op_of(sel)
                    .and_then(|o| o.ty.base_type())
                    .is_some_and(|t| scalar_bits(t) == 64);
                let selv = self.v(sel);
                let dflt = self.v(self.arg(def, op, 1)?);
                let refs = op.operands.get(2..op.ref_count()).unwrap_or(&[]);
                if refs.len() / 2 > MAX_SWITCH_CASES {
                    return unsupported(
                        def,
                        op,
                        format!(
                            "a switch of {} cases (SPIR-V allows {MAX_SWITCH_CASES})",
                            refs.len() / 2
                        ),
                    );
                }
                let start = begin(&mut self.s.functions, S::Switch);
                self.s.functions.extend_from_slice(&[selv, dflt]);
                for pair in refs.chunks(2) {
                    let (Some(cv), Some(lbl)) = (
                        pair.first().and_then(|o| o.def()),
                        pair.get(1).and_then(|o| o.def()),
                    ) else {
                        return malformed(def, op, "switch case pair");
                    };
                    let Some(val) = self.op_of(cv).and_then(|o| o.lit(0)) else {
                        return malformed(def, op, "switch case value is not a constant");
                    };
                    let lbl = self.v(lbl);
                    let f = &mut self.s.functions;
                    f.push(val as u32);
                    if wide {
                        f.push((val >> 32) as u32);
                    }
                    f.push(lbl);
                }
                end(&mut self.s.functions, start);
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------- declarations

    /// Checks a varying's shape against Vulkan's location rules (components 0..=3, 64-bit
    /// values in pairs, sized arrays one location per element) and claims its components,
    /// refusing a declaration that overlaps an earlier one.
    fn claim_io_slots(
        &mut self,
        def: SsaDef,
        op: &Op,
        input: bool,
        patch: bool,
        loc: u32,
        comp: u32,
    ) -> R<()> {
        let stage = self.stage;
        let per_vertex = !patch
            && match stage {
                ShaderStage::Hull => true,
                ShaderStage::Domain | ShaderStage::Geometry => input,
                _ => false,
            };
        let ty = if per_vertex && !op.ty.dims().is_empty() {
            op.ty.element_type()
        } else {
            op.ty
        };
        let Some(b) = ty.without_arrays().as_basic() else {
            return unsupported(def, op, format!("varying type {}", op.ty));
        };
        if b.base() == ScalarType::Bool {
            // Vulkan passes numbers between stages; only built-ins are bools.
            return unsupported(def, op, format!("varying of type {}", op.ty));
        }
        let wide = scalar_bits(b.base()) == 64;
        let used = u32::from(b.vec_size()) * if wide { 2 } else { 1 };
        if ty.dims().contains(&0) || comp + used > 4 || (wide && !comp.is_multiple_of(2)) {
            return unsupported(def, op, format!("varying {} at component {comp}", op.ty));
        }
        let count = ty
            .dims()
            .iter()
            .fold(1u64, |n, &d| n.saturating_mul(u64::from(d)));
        if count > 64 {
            return unsupported(
                def,
                op,
                format!("varying {} (more than 64 locations)", op.ty),
            );
        }
        let end = u64::from(loc) + count;
        if end > MAX_LOCATIONS as u64 {
            return unsupported(
                def,
                op,
                format!(
                    "varying {} at location {loc} (locations end at {MAX_LOCATIONS})",
                    op.ty
                ),
            );
        }
        let mask = (((1u32 << used) - 1) << comp) as u8;
        let first = if input { 0 } else { MAX_LOCATIONS };
        let slots = &mut self.io_slots[first..first + MAX_LOCATIONS];
        for (l, taken) in slots[loc as usize..end as usize].iter_mut().enumerate() {
            if *taken & mask != 0 {
                let l = loc as usize + l;
                return malformed(def, op, format!("location {l} overlaps an earlier varying"));
            }
            *taken |= mask;
        }
        Ok(())
    }

    fn dcl_io(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let input = matches!(op.opcode, OpCode::DclInput | OpCode::DclInputBuiltIn);
        let sc = if input { SC::Input } else { SC::Output };
        let builtin = matches!(
            op.opcode,
            OpCode::DclInputBuiltIn | OpCode::DclOutputBuiltIn
        );
        let ty = op.ty;
        let mut decl_ty = op.ty;
        let mut wrap = IoWrap::None;
        let var = def.id();
        let stage = self.stage;
        let mut info = InterfaceVariable {
            location: None,
            component: 0,
            builtin: None,
            semantic: None,
            patch: false,
        };
        if builtin {
            let Some(bi) = BuiltIn::from_literal(self.lit(def, op, 0)?) else {
                return malformed(def, op, "unknown builtin");
            };
            if !bi.exists_in(stage, !input) {
                let dir = if input { "an input" } else { "an output" };
                return malformed(
                    def,
                    op,
                    format!("built-in {bi} as {dir} of a {stage} shader"),
                );
            }
            if bi == BuiltIn::SampleCount && input {
                return self.dcl_sample_count(def, op);
            }
            info.builtin = Some(bi.name());
            // Stages that see several vertices read (and hull shaders write) per-vertex
            // built-ins as arrays.
            let arrayed = match stage {
                ShaderStage::Hull => true,
                ShaderStage::Geometry | ShaderStage::Domain => input,
                _ => false,
            };
            if !builtin_type_ok(bi, &op.ty, arrayed) {
                return malformed(def, op, format!("built-in {bi} of type {}", op.ty));
            }
            use spirv::BuiltIn as B;
            let sbi = match bi {
                BuiltIn::Position if stage == ShaderStage::Pixel && input => {
                    if op.ty.as_basic().is_some_and(|b| b.vec_size() == 4) {
                        wrap = IoWrap::RcpW;
                    }
                    B::FragCoord
                }
                BuiltIn::Position => B::Position,
                BuiltIn::ClipDistance => {
                    self.cap(Capability::ClipDistance);
                    B::ClipDistance
                }
                BuiltIn::CullDistance => {
                    self.cap(Capability::CullDistance);
                    B::CullDistance
                }
                BuiltIn::VertexId | BuiltIn::InstanceId => {
                    self.cap(Capability::DrawParameters);
                    let (main, base) = if bi == BuiltIn::VertexId {
                        (B::VertexIndex, B::BaseVertex)
                    } else {
                        (B::InstanceIndex, B::BaseInstance)
                    };
                    let bvar = self.id();
                    let u = self.u32_ty();
                    let p = self.ptr(SC::Input, u);
                    self.global_var(p, SC::Input, bvar, None);
                    self.decorate(bvar, Decoration::BuiltIn, &[base as u32]);
                    wrap = IoWrap::SubBase(bvar);
                    main
                }
                BuiltIn::StartVertexLocation => {
                    self.cap(Capability::DrawParameters);
                    B::BaseVertex
                }
                BuiltIn::StartInstanceLocation => {
                    self.cap(Capability::DrawParameters);
                    B::BaseInstance
                }
                BuiltIn::PrimitiveId => {
                    if stage == ShaderStage::Pixel {
                        self.cap(Capability::Geometry);
                    }
                    B::PrimitiveId
                }
                BuiltIn::LayerIndex => {
                    match stage {
                        ShaderStage::Pixel | ShaderStage::Geometry => {
                            self.cap(Capability::Geometry)
                        }
                        _ => self.cap(Capability::ShaderLayer),
                    }
                    B::Layer
                }
                BuiltIn::ViewportIndex => {
                    match stage {
                        ShaderStage::Pixel | ShaderStage::Geometry => {
                            self.cap(Capability::MultiViewport)
                        }
                        _ => self.cap(Capability::ShaderViewportIndex),
                    }
                    B::ViewportIndex
                }
                BuiltIn::GsInstanceId | BuiltIn::TessControlPointId => {
                    let scalar = op.ty.base_type().and_then(|b| self.scalar_ty(b));
                    self.invocation_id_var = Some((var, scalar.unwrap_or_else(|| self.u32_ty())));
                    B::InvocationId
                }
                BuiltIn::TessControlPointCountIn => B::PatchVertices,
                BuiltIn::TessCoord => B::TessCoord,
                BuiltIn::TessFactorInner => B::TessLevelInner,
                BuiltIn::TessFactorOuter => B::TessLevelOuter,
                BuiltIn::SampleId => {
                    self.cap(Capability::SampleRateShading);
                    B::SampleId
                }
                BuiltIn::SamplePosition => {
                    self.cap(Capability::SampleRateShading);
                    B::SamplePosition
                }
                BuiltIn::SampleMask => {
                    wrap = IoWrap::ArrayOfOne;
                    B::SampleMask
                }
                BuiltIn::IsFrontFace => B::FrontFacing,
                BuiltIn::Depth => {
                    self.modes
                        .push((spirv::ExecutionMode::DepthReplacing as u32, [0; 3], 0));
                    B::FragDepth
                }
                BuiltIn::StencilRef => {
                    self.cap(Capability::StencilExportEXT);
                    self.ext("SPV_EXT_shader_stencil_export");
                    self.modes.push((
                        spirv::ExecutionMode::StencilRefReplacingEXT as u32,
                        [0; 3],
                        0,
                    ));
                    B::FragStencilRefEXT
                }
                BuiltIn::IsFullyCovered => {
                    self.cap(Capability::FragmentFullyCoveredEXT);
                    self.ext("SPV_EXT_fragment_fully_covered");
                    B::FullyCoveredEXT
                }
                BuiltIn::WorkgroupId => B::WorkgroupId,
                BuiltIn::GlobalThreadId => B::GlobalInvocationId,
                BuiltIn::LocalThreadId => B::LocalInvocationId,
                BuiltIn::LocalThreadIndex => B::LocalInvocationIndex,
                BuiltIn::PointSize => B::PointSize,
                BuiltIn::ViewId => {
                    self.cap(Capability::MultiView);
                    B::ViewIndex
                }
                _ => return unsupported(def, op, format!("builtin {bi}")),
            };
            if wrap == IoWrap::ArrayOfOne {
                decl_ty = match ty.array_of(1) {
                    Ok(t) => t,
                    Err(_) => return unsupported(def, op, "SampleMask array"),
                };
            }
            self.decorate(var, Decoration::BuiltIn, &[sbi as u32]);
            // Tessellation factors are per patch; Mesa's drivers drop them (and so every
            // patch) without `Patch`, as GLSL always declares it.
            if matches!(bi, BuiltIn::TessFactorOuter | BuiltIn::TessFactorInner) {
                info.patch = true;
                self.decorate(var, Decoration::Patch, &[]);
            }
            if input && stage == ShaderStage::Pixel && op.ty.base_type().is_some_and(|t| t.is_int())
            {
                self.decorate(var, Decoration::Flat, &[]);
            }
        } else {
            let reg = self.lit(def, op, 0)? as u32;
            let comp = self.lit(def, op, 1)? as u32;
            let patch = op.ty.dims().is_empty()
                && ((stage == ShaderStage::Hull && !input)
                    || (stage == ShaderStage::Domain && input));
            // Patch constants share the location space with control points in TCS outputs /
            // TES inputs: they count down from `crate::PATCH_LOCATION_TOP` while control
            // points count up from 0. Non-rasterized GS streams would collide with stream 0:
            // they are moved past the D3D register range (see
            // `crate::GS_STREAM_LOCATION_STRIDE`).
            let stream = if !input && stage == ShaderStage::Geometry {
                op.lit(2).unwrap_or(0) as u32
            } else {
                0
            };
            let loc = if patch {
                match crate::PATCH_LOCATION_TOP.checked_sub(reg) {
                    Some(l) => l,
                    None => return unsupported(def, op, format!("patch constant register {reg}")),
                }
            } else {
                reg.saturating_add(stream.saturating_mul(crate::GS_STREAM_LOCATION_STRIDE))
            };
            self.claim_io_slots(def, op, input, patch, loc, comp)?;
            info.location = Some(loc);
            info.component = comp;
            self.decorate(var, Decoration::Location, &[loc]);
            if comp != 0 {
                self.decorate(var, Decoration::Component, &[comp]);
            }
            if patch {
                info.patch = true;
                self.decorate(var, Decoration::Patch, &[]);
            }
            if input && stage == ShaderStage::Pixel {
                let m = InterpolationModes(self.lit(def, op, 2)? as u32);
                let int = op
                    .ty
                    .base_type()
                    .is_some_and(|t| t.is_int() || scalar_bits(t) == 64);
                if m.contains(InterpolationModes::Flat) || int {
                    self.decorate(var, Decoration::Flat, &[]);
                }
                if m.contains(InterpolationModes::NoPerspective) {
                    self.decorate(var, Decoration::NoPerspective, &[]);
                }
                if m.contains(InterpolationModes::Centroid) {
                    self.decorate(var, Decoration::Centroid, &[]);
                }
                if m.contains(InterpolationModes::Sample) {
                    self.cap(Capability::SampleRateShading);
                    self.decorate(var, Decoration::Sample, &[]);
                }
            }
            if !input && stage == ShaderStage::Geometry {
                let stream = op.lit(2).unwrap_or(0) as u32;
                if stream != 0 || self.multi_stream {
                    self.cap(Capability::GeometryStreams);
                    self.decorate(var, Decoration::Stream, &[stream]);
                }
            }
        }
        if builtin && !input && stage == ShaderStage::Geometry {
            let stream = op.lit(1).unwrap_or(0) as u32;
            if stream != 0 {
                self.cap(Capability::GeometryStreams);
                self.decorate(var, Decoration::Stream, &[stream]);
            }
        }
        let Some(t) = self.ty(&decl_ty, false) else {
            return unsupported(def, op, format!("I/O type {}", op.ty));
        };
        let p = self.ptr(sc, t);
        self.global_var(p, sc, var, None);
        self.mark(def);
        let list = if input {
            &mut self.refl.inputs
        } else {
            &mut self.refl.outputs
        };
        list.push(info);
        let refl = list.len() as u32;
        self.set_info(
            def,
            Info::Var(VarInfo {
                var,
                sc,
                ty,
                wrap,
                refl,
            }),
        );
        Ok(())
    }

    /// `DclXfb`: the output it names is captured by transform feedback into `XfbBuffer`
    /// (literal 0) with `XfbStride` (literal 1) at byte `Offset` (literal 2); the entry point
    /// gets the `Xfb` execution mode.
    fn dcl_xfb(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let target = self.arg(def, op, 0)?;
        let Some(vi) = self.var_info(target).filter(|vi| vi.sc == SC::Output) else {
            return malformed(def, op, "DclXfb of something that is not a declared output");
        };
        let buffer = word_lit(def, op, self.lit(def, op, 0)?)?;
        let stride = word_lit(def, op, self.lit(def, op, 1)?)?;
        let offset = word_lit(def, op, self.lit(def, op, 2)?)?;
        let xfb = spirv::ExecutionMode::Xfb as u32;
        if !self.modes.iter().any(|m| m.0 == xfb) {
            self.modes.push((xfb, [0; 3], 0));
        }
        self.cap(Capability::TransformFeedback);
        self.decorate(vi.var, Decoration::XfbBuffer, &[buffer]);
        self.decorate(vi.var, Decoration::XfbStride, &[stride]);
        self.decorate(vi.var, Decoration::Offset, &[offset]);
        Ok(())
    }

    /// Loads from pixel shader `SV_Position` (`FragCoord`, `vec4<f32>`) with `w` replaced by
    /// `1 / FragCoord.w`, the D3D value.
    fn load_frag_coord(&mut self, def: SsaDef, op: &Op, vi: VarInfo) -> R<()> {
        let id = def.id();
        let want = self.val_ty(def, op)?;
        let f32t = BasicType::scalar(ScalarType::F32);
        let (Some(ft), Some(v4)) = (self.basic_ty(f32t), self.basic_ty(f32t.with_vec_size(4)))
        else {
            return unsupported(def, op, "FragCoord type");
        };
        let one = self.const_scalar(ScalarType::F32, 1.0f32.to_bits() as u64);
        let rcp = |e: &mut Self, w: u32| e.un(S::FDiv, ft, &[one, w]);
        let addr = op.arg(1);
        let addr_op = addr.and_then(|a| self.op_of(a));
        // The whole position, or one component of it, as 32-bit numbers (computed as floats,
        // bit-cast at the end).
        let size = if addr.is_some() { 1 } else { 4 };
        let shape_ok = op.ty.as_basic().is_some_and(|b| {
            b.vec_size() == size && b.base().is_numeric() && scalar_bits(b.base()) == 32
        });
        if !shape_ok {
            return unsupported(
                def,
                op,
                format!("loading {} from the pixel position", op.ty),
            );
        }
        let const_idx = addr_op
            .filter(|o| {
                o.opcode == OpCode::Constant && o.ty.as_basic().is_some_and(|b| b.vec_size() == 1)
            })
            .and_then(|o| o.lit(0));
        if addr.is_some() && const_idx.is_some() {
            let raw = self.id();
            self.load_via(
                def,
                op,
                vi.var,
                vi.sc,
                &vi.ty,
                &[],
                addr,
                &Type::scalar(ScalarType::F32),
                false,
                raw,
            )?;
            let v = if const_idx == Some(3) {
                rcp(self, raw)
            } else {
                raw
            };
            if want == ft {
                inst(self.f(), S::CopyObject, &[want, id, v]);
            } else {
                self.emit_to(S::Bitcast, want, id, &[v]);
            }
            return Ok(());
        }
        // Whole vector (or dynamic component): fix the vector, then pick.
        let full = self.un(S::Load, v4, &[vi.var]);
        let w = self.un(S::CompositeExtract, ft, &[full, 3]);
        let w = rcp(self, w);
        let fixed = self.un(S::CompositeInsert, v4, &[w, full, 3]);
        let picked = match addr {
            None => fixed,
            Some(a) => {
                // One run-time component index (a vector address would go past the vector).
                if !addr_op.is_some_and(|o| {
                    o.ty.is_scalar() && o.ty.base_type().is_some_and(|s| s.is_int())
                }) {
                    return malformed(def, op, "address does not fit type vec4<f32>");
                }
                let a = self.v(a);
                self.un(S::VectorExtractDynamic, ft, &[fixed, a])
            }
        };
        let pt = if addr.is_none() { v4 } else { ft };
        if pt == want {
            inst(self.f(), S::CopyObject, &[want, id, picked]);
        } else {
            self.emit_to(S::Bitcast, want, id, &[picked]);
        }
        Ok(())
    }

    /// `DclSpecConstant` → `OpSpecConstant*` decorated with its `SpecId`, used directly as a
    /// value. Only scalar 32-bit and boolean constants are supported.
    fn dcl_spec_constant(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let spec_id = self.lit(def, op, 0)? as u32;
        let default = self.lit(def, op, 1)?;
        let Some(st) = op
            .ty
            .as_basic()
            .filter(|b| b.vec_size() == 1)
            .map(|b| b.base())
        else {
            return unsupported(def, op, "aggregate spec constant");
        };
        if st != ScalarType::Bool && scalar_bits(st) != 32 {
            return unsupported(def, op, "spec constant type");
        }
        let Some(t) = self.scalar_ty(st) else {
            return unsupported(def, op, "spec constant type");
        };
        let id = def.id();
        let g = &mut self.s.globals;
        if st == ScalarType::Bool {
            let o = if default != 0 {
                S::SpecConstantTrue
            } else {
                S::SpecConstantFalse
            };
            inst(g, o, &[t, id]);
        } else {
            inst(g, S::SpecConstant, &[t, id, default as u32]);
        }
        self.decorate(id, Decoration::SpecId, &[spec_id]);
        self.refl.spec_constants.push(crate::SpecConstantInfo {
            spec_id,
            default: default as u32,
            kind: crate::SpecConstantKind::User,
        });
        self.mark(def);
        Ok(())
    }

    /// Declares the push constant block: one member per `DclPushData`, at its offset.
    fn finish_push_data(&mut self, entry: SsaDef) -> R<()> {
        if self.push_var == 0 {
            return Ok(());
        }
        let push = std::mem::take(&mut self.push);
        let mut members = SmallVec::<[u32; 8]>::with_capacity(push.len());
        self.refl.push_data.reserve_exact(push.len());
        for (offset, t) in &push {
            let Some(id) = self.ty(t, true) else {
                let op = self.b.op(entry);
                return unsupported(entry, op, format!("push data type {t}"));
            };
            members.push(id);
            self.refl.push_data.push(crate::PushDataRange {
                offset: *offset,
                size: Self::layout_size(t),
            });
        }
        let st = self.id();
        let g = &mut self.s.globals;
        let h = begin(g, S::TypeStruct);
        g.push(st);
        g.extend_from_slice(&members);
        end(g, h);
        self.decorate(st, Decoration::Block, &[]);
        for (i, (offset, _)) in push.iter().enumerate() {
            let a = &mut self.s.annotations;
            inst(
                a,
                S::MemberDecorate,
                &[st, i as u32, Decoration::Offset as u32, *offset],
            );
        }
        let p = self.ptr(SC::PushConstant, st);
        let var = self.push_var;
        inst(
            &mut self.s.globals,
            S::Variable,
            &[p, var, SC::PushConstant as u32],
        );
        Ok(())
    }

    /// `SetFpMode` → float-controls execution modes for the declared width.
    fn set_fp_mode(&mut self, def: SsaDef, op: &Op) -> R<()> {
        use spirv::ExecutionMode as M;
        if !self.opts.float_controls {
            return Ok(());
        }
        let Some(st) = op.ty.base_type().filter(|t| t.is_float()) else {
            return malformed(def, op, "SetFpMode on a non-float type");
        };
        let width = scalar_bits(st);
        let round = RoundMode::from_literal(self.lit(def, op, 0)?);
        let denorm = DenormMode::from_literal(self.lit(def, op, 1)?);
        let add = |e: &mut Self, c: Capability, m: M| {
            e.cap(c);
            e.modes.push((m as u32, [width, 0, 0], 1));
        };
        match round {
            Some(RoundMode::NearestEven) => {
                add(self, Capability::RoundingModeRTE, M::RoundingModeRTE)
            }
            Some(RoundMode::Zero) => add(self, Capability::RoundingModeRTZ, M::RoundingModeRTZ),
            _ => {}
        }
        match denorm {
            Some(DenormMode::Preserve) => add(self, Capability::DenormPreserve, M::DenormPreserve),
            Some(DenormMode::Flush) => {
                add(self, Capability::DenormFlushToZero, M::DenormFlushToZero)
            }
            None => {}
        }
        if op.flags.contains(OpFlags::PRECISE) {
            add(
                self,
                Capability::SignedZeroInfNanPreserve,
                M::SignedZeroInfNanPreserve,
            );
        }
        Ok(())
    }

    /// `SampleCount` has no Vulkan built-in: it becomes a `Private` variable initialized
    /// from a spec constant with id [`crate::SAMPLE_COUNT_SPEC_ID`] (default 1).
    fn dcl_sample_count(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let Some(st) = op
            .ty
            .as_basic()
            .filter(|b| b.vec_size() == 1)
            .map(|b| b.base())
        else {
            return unsupported(def, op, "SampleCount type");
        };
        if !st.is_int() || scalar_bits(st) != 32 {
            return unsupported(def, op, "SampleCount type");
        }
        let Some(t) = self.scalar_ty(st) else {
            return unsupported(def, op, "SampleCount type");
        };
        let spec = self.id();
        inst(&mut self.s.globals, S::SpecConstant, &[t, spec, 1]);
        self.decorate(spec, Decoration::SpecId, &[crate::SAMPLE_COUNT_SPEC_ID]);
        self.refl.spec_constants.push(crate::SpecConstantInfo {
            spec_id: crate::SAMPLE_COUNT_SPEC_ID,
            default: 1,
            kind: crate::SpecConstantKind::SampleCount,
        });
        let var = def.id();
        let p = self.ptr(SC::Private, t);
        self.global_var(p, SC::Private, var, Some(spec));
        self.mark(def);
        self.set_info(
            def,
            Info::Var(VarInfo {
                var,
                sc: SC::Private,
                ty: op.ty,
                wrap: IoWrap::None,
                refl: 0,
            }),
        );
        Ok(())
    }

    fn dcl_resource(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let bm = &self.opts.bindings;
        let (class, space, reg, count) = match op.opcode {
            OpCode::DclUavCounter => {
                let uav = self.arg(def, op, 1)?;
                let Some(uop) = self.op_of(uav) else {
                    return malformed(def, op, "missing UAV");
                };
                (
                    RegisterClass::UavCounter,
                    word_lit(def, op, uop.lit(0).unwrap_or(0))?,
                    word_lit(def, op, uop.lit(1).unwrap_or(0))?,
                    word_lit(def, op, uop.lit(2).unwrap_or(1))?,
                )
            }
            oc => (
                match oc {
                    OpCode::DclCbv => RegisterClass::Cbv,
                    OpCode::DclSrv => RegisterClass::Srv,
                    OpCode::DclUav => RegisterClass::Uav,
                    _ => RegisterClass::Sampler,
                },
                word_lit(def, op, self.lit(def, op, 0)?)?,
                word_lit(def, op, self.lit(def, op, 1)?)?,
                word_lit(def, op, self.lit(def, op, 2)?)?,
            ),
        };
        let shift = match class {
            RegisterClass::Cbv => bm.b_shift,
            RegisterClass::Srv => bm.t_shift,
            RegisterClass::Uav => bm.u_shift,
            RegisterClass::Sampler => bm.s_shift,
            RegisterClass::UavCounter => bm.counter_shift,
        };
        let (Some(set), Some(binding)) = (space.checked_add(bm.set_offset), reg.checked_add(shift))
        else {
            return unsupported(
                def,
                op,
                format!("space {space}, register {reg}: its set or binding is past 2^32 - 1"),
            );
        };
        let uav = class == RegisterClass::Uav;
        let flags = if uav {
            UavFlags(op.lit(4).unwrap_or(0) as u32)
        } else {
            UavFlags::empty()
        };
        let rk = if matches!(class, RegisterClass::Srv | RegisterClass::Uav) {
            match ResourceKind::from_literal(self.lit(def, op, 3)?) {
                Some(k) => Some(k),
                None => return malformed(def, op, "bad resource kind"),
            }
        } else {
            None
        };
        let (kind, sc, elem_ty, dtype) = match (class, rk) {
            (RegisterClass::Cbv, _) => {
                let why = block_type_problem(&op.ty, true)
                    .or_else(|| op.ty.dims().contains(&0).then_some("unsized"));
                if let Some(why) = why {
                    return unsupported(def, op, format!("CBV type {} ({why})", op.ty));
                }
                let Some(inner) = self.ty(&op.ty, true) else {
                    return unsupported(def, op, format!("CBV type {}", op.ty));
                };
                let st = self.block(inner, L_BLOCK);
                (ResKind::Cbv, SC::Uniform, st, DescriptorType::UniformBuffer)
            }
            (RegisterClass::UavCounter, _) => {
                let u = self.u32_ty();
                let st = self.block(u, L_BLOCK);
                (
                    ResKind::Counter,
                    SC::StorageBuffer,
                    st,
                    DescriptorType::StorageBuffer,
                )
            }
            (RegisterClass::Sampler, _) => {
                let t = self.ty_key(TyKey::Sampler);
                (
                    ResKind::Sampler,
                    SC::UniformConstant,
                    t,
                    DescriptorType::Sampler,
                )
            }
            (_, Some(ResourceKind::BufferRaw | ResourceKind::BufferStructured)) => {
                if let Some(why) = block_type_problem(&op.ty, false) {
                    return unsupported(def, op, format!("buffer type {} ({why})", op.ty));
                }
                let Some(inner) = self.ty(&op.ty, true) else {
                    return unsupported(def, op, format!("buffer type {}", op.ty));
                };
                let st = self.block(inner, if uav { L_BLOCK } else { L_BLOCK_RO });
                (
                    ResKind::Ssbo,
                    SC::StorageBuffer,
                    st,
                    DescriptorType::StorageBuffer,
                )
            }
            (_, Some(k)) => {
                // Vulkan images and texel buffers hold 32-bit scalars (64-bit integers need
                // an extension dxspv does not use).
                let st = match op.ty.as_basic() {
                    Some(b)
                        if !b.is_vector()
                            && matches!(
                                b.base(),
                                ScalarType::F32 | ScalarType::U32 | ScalarType::I32
                            ) =>
                    {
                        b.base()
                    }
                    _ => return unsupported(def, op, format!("texel type {}", op.ty)),
                };
                let Some(sampled) = self.scalar_ty(st) else {
                    return unsupported(def, op, format!("texel type {}", op.ty));
                };
                use spirv::Dim as D;
                let (dim, arrayed, ms) = match k {
                    ResourceKind::BufferTyped => (D::DimBuffer, 0, 0),
                    ResourceKind::Image1D => (D::Dim1D, 0, 0),
                    ResourceKind::Image1DArray => (D::Dim1D, 1, 0),
                    ResourceKind::Image2D => (D::Dim2D, 0, 0),
                    ResourceKind::Image2DArray => (D::Dim2D, 1, 0),
                    ResourceKind::Image2DMS => (D::Dim2D, 0, 1),
                    ResourceKind::Image2DMSArray => (D::Dim2D, 1, 1),
                    ResourceKind::ImageCube => (D::DimCube, 0, 0),
                    ResourceKind::ImageCubeArray => (D::DimCube, 1, 0),
                    ResourceKind::Image3D => (D::Dim3D, 0, 0),
                    _ => return unsupported(def, op, format!("resource kind {k}")),
                };
                match (dim, uav) {
                    (D::DimBuffer, false) => self.cap(Capability::SampledBuffer),
                    (D::DimBuffer, true) => self.cap(Capability::ImageBuffer),
                    (D::Dim1D, false) => self.cap(Capability::Sampled1D),
                    (D::Dim1D, true) => self.cap(Capability::Image1D),
                    (D::DimCube, false) if arrayed == 1 => self.cap(Capability::SampledCubeArray),
                    (D::DimCube, true) if arrayed == 1 => self.cap(Capability::ImageCubeArray),
                    _ => {}
                }
                if uav && ms == 1 {
                    self.cap(Capability::StorageImageMultisample);
                    if arrayed == 1 {
                        self.cap(Capability::ImageMSArray);
                    }
                }
                let fmt = if uav && flags.contains(UavFlags::FixedFormat) {
                    match st {
                        ScalarType::U32 => spirv::ImageFormat::R32ui,
                        ScalarType::I32 => spirv::ImageFormat::R32i,
                        ScalarType::F32 => spirv::ImageFormat::R32f,
                        _ => spirv::ImageFormat::Unknown,
                    }
                } else {
                    spirv::ImageFormat::Unknown
                };
                let t = self.ty_key(TyKey::Image([
                    sampled,
                    dim as u32,
                    0,
                    arrayed,
                    ms,
                    if uav { 2 } else { 1 },
                    fmt as u32,
                ]));
                let dt = match (k == ResourceKind::BufferTyped, uav) {
                    (true, false) => DescriptorType::UniformTexelBuffer,
                    (true, true) => DescriptorType::StorageTexelBuffer,
                    (false, false) => DescriptorType::SampledImage,
                    (false, true) => DescriptorType::StorageImage,
                };
                let rkind = if k == ResourceKind::BufferTyped {
                    ResKind::TexelBuffer
                } else {
                    ResKind::Image(k)
                };
                (rkind, SC::UniformConstant, t, dt)
            }
            _ => return malformed(def, op, "resource kind"),
        };
        let var_ty = match count {
            1 => elem_ty,
            0 => {
                self.cap(Capability::RuntimeDescriptorArray);
                self.ty_key(TyKey::RtArray(elem_ty, 0))
            }
            n => {
                let len = self.const_u32(n);
                self.ty_key(TyKey::Array(elem_ty, len, 0))
            }
        };
        let p = self.ptr(sc, var_ty);
        let var = def.id();
        self.global_var(p, sc, var, None);
        self.mark(def);
        self.decorate(var, Decoration::DescriptorSet, &[set]);
        self.decorate(var, Decoration::Binding, &[binding]);
        if uav && kind != ResKind::Ssbo {
            if flags.contains(UavFlags::ReadOnly) {
                self.decorate(var, Decoration::NonWritable, &[]);
            }
            if flags.contains(UavFlags::WriteOnly) {
                self.decorate(var, Decoration::NonReadable, &[]);
            }
        }
        self.set_info(
            def,
            Info::Res(ResInfo {
                var,
                kind,
                uav,
                count,
                elem_ty,
                data: op.ty,
                coherent: flags.contains(UavFlags::Coherent),
                fixed_format: uav && flags.contains(UavFlags::FixedFormat),
            }),
        );
        self.refl.resources.push(ResourceBinding {
            class,
            space,
            register: reg,
            count,
            set,
            binding,
            descriptor_type: dtype,
            name: self.debug_name(def),
        });
        Ok(())
    }

    /// A `Block` struct wrapping one member at offset 0.
    fn block(&mut self, inner: u32, flavour: u8) -> u32 {
        let key = TyKey::Struct(smallvec::smallvec![inner], flavour);
        let fresh = self.types.get(&key).is_none();
        let id = self.ty_key(key);
        if fresh {
            self.decorate(id, Decoration::Block, &[]);
            let a = &mut self.s.annotations;
            inst(a, S::MemberDecorate, &[id, 0, Decoration::Offset as u32, 0]);
            if flavour == L_BLOCK_RO {
                inst(
                    a,
                    S::MemberDecorate,
                    &[id, 0, Decoration::NonWritable as u32],
                );
            }
        }
        id
    }

    // ---------------------------------------------------------------- access chains

    fn indices(&mut self, def: SsaDef, op: &Op, addr: Option<SsaDef>) -> R<Indices> {
        let mut ix = Indices {
            ids: [0; 6],
            vals: [None; 6],
            len: 0,
            idx_ty: self.u32_ty(),
            idx_base: ScalarType::U32,
        };
        let Some(a) = addr else {
            return Ok(ix);
        };
        let Some(aop) = self.op_of(a) else {
            return malformed(def, op, "address operand missing");
        };
        let Some(bt) = aop.ty.as_basic().filter(|b| b.base().is_int()) else {
            return malformed(def, op, format!("address of type {}", aop.ty));
        };
        if let Some(t) = self.scalar_ty(bt.base()) {
            ix.idx_ty = t;
            ix.idx_base = bt.base();
        }
        let n = bt.vec_size() as usize;
        let ok = match aop.opcode {
            OpCode::Constant => {
                let mut ok = true;
                for k in 0..n {
                    let v = aop.lit(k).unwrap_or(0);
                    let id = self.const_scalar(bt.base(), v);
                    ok &= ix.push(id, Some(v));
                }
                ok
            }
            OpCode::CompositeConstruct if n > 1 => {
                let mut ok = true;
                for c in aop.refs().flatten() {
                    let val = self
                        .op_of(c)
                        .filter(|o| o.opcode == OpCode::Constant)
                        .and_then(|o| o.lit(0));
                    let id = self.v(c);
                    ok &= ix.push(id, val);
                }
                ok
            }
            _ if n == 1 => ix.push(self.v(a), None),
            _ => {
                let mut ok = true;
                let st = ix.idx_ty;
                let av = self.v(a);
                for k in 0..n {
                    let id = self.un(S::CompositeExtract, st, &[av, k as u32]);
                    ok &= ix.push(id, None);
                }
                ok
            }
        };
        if !ok {
            return unsupported(def, op, "address with more than six indices");
        }
        Ok(ix)
    }

    /// Access chain from `base` (a pointer to IR type `ty` in `sc`), with `prefix` indices
    /// first. Returns the pointer (base itself when no indices) and the pointee IR type.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        &mut self,
        def: SsaDef,
        op: &Op,
        base: u32,
        sc: SC,
        ty: &Type,
        prefix: &[u32],
        ix: &Indices,
        layout: bool,
    ) -> R<(u32, Type)> {
        let mut t = *ty;
        for k in 0..ix.len {
            match t.index_into(ix.vals[k]) {
                Some(n) => t = n,
                None => return malformed(def, op, format!("address does not fit type {ty}")),
            }
        }
        if prefix.is_empty() && ix.len == 0 {
            return Ok((base, t));
        }
        let Some(pt) = self.ty(&t, layout) else {
            return unsupported(def, op, format!("type {t}"));
        };
        let ptr = self.ptr(sc, pt);
        let id = self.id();
        let f = &mut self.s.functions;
        let st = begin(f, S::AccessChain);
        f.extend_from_slice(&[ptr, id, base]);
        f.extend_from_slice(prefix);
        f.extend_from_slice(&ix.ids[..ix.len]);
        end(f, st);
        Ok((id, t))
    }

    /// Memory access flags for loads and stores in `sc`.
    /// Memory operands of a load (`store == false`) or store through a pointer into `sc`:
    /// `NonPrivatePointer` for shared memory, plus `MakePointerVisible` /
    /// `MakePointerAvailable` at `QueueFamily` scope while a globally coherent UAV is
    /// accessed ([`Self::coherent_access`]).
    fn mem_access(&mut self, sc: SC, store: bool) -> ([u32; 2], usize) {
        match sc {
            SC::StorageBuffer if self.coherent_access => {
                let scope = self.const_u32(spirv::Scope::QueueFamily as u32);
                let bit = if store { 0x8 } else { 0x10 };
                ([0x20 | bit, scope], 2)
            }
            SC::Workgroup | SC::StorageBuffer | SC::Uniform => ([0x20, 0], 1),
            _ => ([0, 0], 0),
        }
    }

    /// `ix` moved `k` scalars on (its last index plus `k`, in the index's own type): the `k`-th
    /// scalar of a vector access split over consecutive scalars.
    fn next_scalar(&mut self, ix: &Indices, k: u64) -> Indices {
        let mut jx = *ix;
        let Some(last) = ix.len.checked_sub(1).filter(|_| k > 0) else {
            return jx;
        };
        match ix.vals[last] {
            Some(v) => {
                jx.ids[last] = self.const_scalar(ix.idx_base, v + k);
                jx.vals[last] = Some(v + k);
            }
            None => {
                let kc = self.const_scalar(ix.idx_base, k);
                jx.ids[last] = self.un(S::IAdd, ix.idx_ty, &[ix.ids[last], kc]);
            }
        }
        jx
    }

    /// Loads the value of IR type `want` through `base` + address, splitting vector accesses
    /// of scalar targets and bit-casting when the stored scalar type differs.
    #[allow(clippy::too_many_arguments)]
    fn load_via(
        &mut self,
        def: SsaDef,
        op: &Op,
        base: u32,
        sc: SC,
        ty: &Type,
        prefix: &[u32],
        addr: Option<SsaDef>,
        want: &Type,
        layout: bool,
        out: u32,
    ) -> R<()> {
        let ix = self.indices(def, op, addr)?;
        let (ptr, pt) = self.chain(def, op, base, sc, ty, prefix, &ix, layout)?;
        let Some(want_ty) = self.ty(want, false) else {
            return unsupported(def, op, format!("type {want}"));
        };
        let ma = self.mem_access(sc, false);
        access_fits(def, op, want, &pt, "loading")?;
        let (Some(wb), Some(pb)) = (want.as_basic(), pt.as_basic()) else {
            // Aggregate: load as is; one laid out for a buffer is copied to the plain type.
            let Some(at) = self.ty(&pt, layout) else {
                return unsupported(def, op, format!("type {pt}"));
            };
            let loaded = if at == want_ty { out } else { self.id() };
            let f = &mut self.s.functions;
            let st = begin(f, S::Load);
            f.extend_from_slice(&[at, loaded, ptr]);
            f.extend_from_slice(&ma.0[..ma.1]);
            end(f, st);
            if loaded != out {
                inst(f, S::CopyLogical, &[want_ty, out, loaded]);
            }
            return Ok(());
        };
        let n = wb.vec_size() as u32;
        let m = pb.vec_size() as u32;
        let Some(pty) = self.basic_ty(pb) else {
            return unsupported(def, op, format!("type {pt}"));
        };
        let mut parts = [0u32; 4];
        let raw = if n == m {
            let id = self.id();
            let f = &mut self.s.functions;
            let st = begin(f, S::Load);
            f.extend_from_slice(&[pty, id, ptr]);
            f.extend_from_slice(&ma.0[..ma.1]);
            end(f, st);
            id
        } else if m > n {
            let id = self.id();
            let f = &mut self.s.functions;
            let st = begin(f, S::Load);
            f.extend_from_slice(&[pty, id, ptr]);
            f.extend_from_slice(&ma.0[..ma.1]);
            end(f, st);
            let Some(sub) = self.basic_ty(pb.with_vec_size(n as u8)) else {
                return unsupported(def, op, "vector type");
            };
            if n == 1 {
                self.un(S::CompositeExtract, sub, &[id, 0])
            } else {
                let args = [id, id, 0, 1, 2, 3];
                self.un(S::VectorShuffle, sub, &args[..2 + n as usize])
            }
        } else if m == 1 && ix.len > 0 {
            // Consecutive scalars: bump the last index.
            for (k, part) in parts.iter_mut().enumerate().take(n as usize) {
                let jx = self.next_scalar(&ix, k as u64);
                let (p, _) = self.chain(def, op, base, sc, ty, prefix, &jx, layout)?;
                let id = self.id();
                let f = &mut self.s.functions;
                let st = begin(f, S::Load);
                f.extend_from_slice(&[pty, id, p]);
                f.extend_from_slice(&ma.0[..ma.1]);
                end(f, st);
                *part = id;
            }
            let Some(vt) = self.basic_ty(pb.with_vec_size(n as u8)) else {
                return unsupported(def, op, "vector type");
            };
            self.un(S::CompositeConstruct, vt, &parts[..n as usize])
        } else {
            return unsupported(def, op, format!("loading {want} from {pt}"));
        };
        if wb.base() == pb.base() {
            // Same type: copy through a no-op bitcast-free path.
            let f = &mut self.s.functions;
            inst(f, S::CopyObject, &[want_ty, out, raw]);
        } else {
            self.emit_to(S::Bitcast, want_ty, out, &[raw]);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn store_via(
        &mut self,
        def: SsaDef,
        op: &Op,
        base: u32,
        sc: SC,
        ty: &Type,
        prefix: &[u32],
        addr: Option<SsaDef>,
        value: SsaDef,
        layout: bool,
    ) -> R<()> {
        let ix = self.indices(def, op, addr)?;
        let (ptr, pt) = self.chain(def, op, base, sc, ty, prefix, &ix, layout)?;
        let Some(vop) = self.op_of(value) else {
            return malformed(def, op, "value missing");
        };
        let val = self.v(value);
        let ma = self.mem_access(sc, true);
        access_fits(def, op, &vop.ty, &pt, "storing")?;
        let (Some(vb), Some(pb)) = (vop.ty.as_basic(), pt.as_basic()) else {
            // Aggregate: stored as is, or copied to the buffer's laid-out type first.
            let (Some(at), Some(vt)) = (self.ty(&pt, layout), self.ty(&vop.ty, false)) else {
                return unsupported(def, op, format!("type {pt}"));
            };
            let val = if at == vt {
                val
            } else {
                self.un(S::CopyLogical, at, &[val])
            };
            let f = &mut self.s.functions;
            let st = begin(f, S::Store);
            f.extend_from_slice(&[ptr, val]);
            f.extend_from_slice(&ma.0[..ma.1]);
            end(f, st);
            return Ok(());
        };
        let n = vb.vec_size() as u32;
        let m = pb.vec_size() as u32;
        let conv = |e: &mut Self, v: u32, from: BasicType, to: BasicType| -> R<u32> {
            if from.base() == to.base() {
                return Ok(v);
            }
            match e.basic_ty(to) {
                Some(t) => Ok(e.un(S::Bitcast, t, &[v])),
                None => unsupported(def, op, "store type"),
            }
        };
        if n == m {
            let v = conv(self, val, vb, pb)?;
            let f = &mut self.s.functions;
            let st = begin(f, S::Store);
            f.extend_from_slice(&[ptr, v]);
            f.extend_from_slice(&ma.0[..ma.1]);
            end(f, st);
            return Ok(());
        }
        if m != 1 || ix.len == 0 {
            return unsupported(def, op, format!("storing {} to {pt}", vop.ty));
        }
        let Some(sty) = self.scalar_ty(vb.base()) else {
            return unsupported(def, op, "store type");
        };
        for k in 0..n {
            let jx = self.next_scalar(&ix, u64::from(k));
            let (p, _) = self.chain(def, op, base, sc, ty, prefix, &jx, layout)?;
            let c = self.un(S::CompositeExtract, sty, &[val, k]);
            let c = conv(self, c, BasicType::scalar(vb.base()), pb)?;
            let f = &mut self.s.functions;
            let st = begin(f, S::Store);
            f.extend_from_slice(&[p, c]);
            f.extend_from_slice(&ma.0[..ma.1]);
            end(f, st);
        }
        Ok(())
    }

    // ---------------------------------------------------------------- code

    fn code(&mut self, def: SsaDef, op: &'a Op) -> R<()> {
        use OpCode as O;
        let id = def.id();
        match op.opcode {
            O::Phi => {
                let t = self.val_ty(def, op)?;
                let refs = op.operands.get(..op.ref_count()).unwrap_or(&[]);
                let f = &mut self.s.functions;
                let start = begin(f, S::Phi);
                f.extend_from_slice(&[t, id]);
                for pair in refs.chunks(2) {
                    let (Some(l), Some(v)) = (
                        pair.first().and_then(|o| o.def()),
                        pair.get(1).and_then(|o| o.def()),
                    ) else {
                        return malformed(def, op, "phi operand pair");
                    };
                    let slots = &self.slots;
                    let v = slots.get(v.index()).map_or(v.id(), |s| s.id);
                    let l = slots.get(l.index()).map_or(l.id(), |s| s.id);
                    f.extend_from_slice(&[v, l]);
                }
                end(f, start);
                Ok(())
            }
            O::FunctionCall => {
                let t = self.val_ty(def, op)?;
                let f = &mut self.s.functions;
                let start = begin(f, S::FunctionCall);
                f.extend_from_slice(&[t, id]);
                for a in op.refs() {
                    match a {
                        Some(a) => f.push(self.slots.get(a.index()).map_or(a.id(), |s| s.id)),
                        None => return malformed(def, op, "null call operand"),
                    }
                }
                end(f, start);
                Ok(())
            }
            O::PushDataLoad => {
                let dcl = self.arg(def, op, 0)?;
                let Some(&Info::PushMember(m)) = self.info(dcl) else {
                    return malformed(def, op, "not a push data declaration");
                };
                let Some(&(_, mty)) = self.push.get(m as usize) else {
                    return malformed(def, op, "not a push data declaration");
                };
                let Some(t) = self.ty(&mty, true) else {
                    return unsupported(def, op, format!("push data type {mty}"));
                };
                let pt = self.ptr(SC::PushConstant, t);
                let mc = self.const_u32(m);
                let base = self.un(S::AccessChain, pt, &[self.push_var, mc]);
                self.load_via(
                    def,
                    op,
                    base,
                    SC::PushConstant,
                    &mty,
                    &[],
                    op.arg(1),
                    &op.ty,
                    true,
                    id,
                )
            }
            O::ParamLoad => {
                let func = self.arg(def, op, 0)?;
                let p = self.arg(def, op, 1)?;
                let Some(&(_, _, pid)) = self.params.iter().find(|x| x.0 == func && x.1 == p)
                else {
                    return malformed(def, op, "parameter of another function");
                };
                self.set_map(def, pid);
                Ok(())
            }
            O::InputLoad | O::OutputLoad => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an I/O declaration");
                };
                let c0 = self.const_u32(0);
                let prefix: &[u32] = if vi.wrap == IoWrap::ArrayOfOne {
                    &[c0]
                } else {
                    &[]
                };
                let ty = vi.ty;
                if vi.wrap == IoWrap::RcpW {
                    return self.load_frag_coord(def, op, vi);
                }
                if let IoWrap::SubBase(bvar) = vi.wrap {
                    let u = self.u32_ty();
                    let raw = self.id();
                    self.load_via(
                        def,
                        op,
                        vi.var,
                        vi.sc,
                        &ty,
                        prefix,
                        op.arg(1),
                        &op.ty,
                        false,
                        raw,
                    )?;
                    let base = self.un(S::Load, u, &[bvar]);
                    let t = self.val_ty(def, op)?;
                    self.emit_to(S::ISub, t, id, &[raw, base]);
                    return Ok(());
                }
                self.load_via(
                    def,
                    op,
                    vi.var,
                    vi.sc,
                    &ty,
                    prefix,
                    op.arg(1),
                    &op.ty,
                    false,
                    id,
                )
            }
            O::OutputStore => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an output declaration");
                };
                let c0 = self.const_u32(0);
                let prefix: &[u32] = if vi.wrap == IoWrap::ArrayOfOne {
                    &[c0]
                } else {
                    &[]
                };
                let value = self.arg(def, op, 2)?;
                let ty = vi.ty;
                self.store_via(def, op, vi.var, vi.sc, &ty, prefix, op.arg(1), value, false)
            }
            O::LdsLoad | O::ScratchLoad => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not a variable");
                };
                let ty = vi.ty;
                self.load_via(
                    def,
                    op,
                    vi.var,
                    vi.sc,
                    &ty,
                    &[],
                    op.arg(1),
                    &op.ty,
                    false,
                    id,
                )
            }
            O::LdsStore | O::ScratchStore => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not a variable");
                };
                let value = self.arg(def, op, 2)?;
                let ty = vi.ty;
                self.store_via(def, op, vi.var, vi.sc, &ty, &[], op.arg(1), value, false)
            }
            O::ConstantLoad => {
                let c = self.arg(def, op, 0)?;
                let Some(cop) = self.op_of(c) else {
                    return malformed(def, op, "constant missing");
                };
                let var = match self.info(c) {
                    Some(&Info::ConstVar(v)) => v,
                    _ => {
                        let Some(t) = self.ty(&cop.ty, false) else {
                            return unsupported(def, op, "constant type");
                        };
                        let p = self.ptr(SC::Private, t);
                        let var = self.id();
                        let init = self.v(c);
                        self.global_var(p, SC::Private, var, Some(init));
                        self.set_info(c, Info::ConstVar(var));
                        var
                    }
                };
                let ty = cop.ty;
                self.load_via(
                    def,
                    op,
                    var,
                    SC::Private,
                    &ty,
                    &[],
                    op.arg(1),
                    &op.ty,
                    false,
                    id,
                )
            }
            O::DescriptorLoad => self.descriptor_load(def, op),
            O::BufferLoad | O::BufferStore => {
                self.coherent_access = self
                    .desc_of(def, op, 0)
                    .is_ok_and(|d| d.res.uav && d.res.coherent);
                let r = if op.opcode == O::BufferLoad {
                    self.buffer_load(def, op)
                } else {
                    self.buffer_store(def, op)
                };
                self.coherent_access = false;
                r
            }
            O::BufferQuerySize => {
                let d = self.desc_of(def, op, 0)?;
                let u = self.u32_ty();
                match d.res.kind {
                    ResKind::Ssbo => {
                        // Only a run-time array has a length to ask for.
                        if !d.res.data.is_unbounded() {
                            return malformed(
                                def,
                                op,
                                format!(
                                    "size query of a {} buffer, not a run-time array",
                                    d.res.data
                                ),
                            );
                        }
                        inst(self.f(), S::ArrayLength, &[u, id, d.ptr, 0]);
                    }
                    ResKind::TexelBuffer => {
                        self.cap(Capability::ImageQuery);
                        self.emit_to(S::ImageQuerySize, u, id, &[d.value]);
                    }
                    _ => return unsupported(def, op, "size query on this descriptor"),
                }
                Ok(())
            }
            O::BufferAtomic | O::LdsAtomic | O::ImageAtomic | O::CounterAtomic => {
                self.atomic(def, op)
            }
            O::ImageLoad
            | O::ImageStore
            | O::ImageSample
            | O::ImageGather
            | O::ImageComputeLod
            | O::ImageQuerySize
            | O::ImageQueryMips
            | O::ImageQuerySamples => self.image(def, op),
            O::CheckSparseAccess => {
                let t = self.val_ty(def, op)?;
                let fb = self.arg(def, op, 0)?;
                // Feedback taken from a buffer load (no Vulkan residency query): resident.
                let from_buffer = self.op_of(fb).is_some_and(|o| {
                    o.opcode == O::CompositeExtract
                        && o.arg(0)
                            .is_some_and(|src| self.resident_feedback.contains(&src))
                });
                if from_buffer {
                    let c = self.const_scalar(ScalarType::Bool, 1);
                    inst(self.f(), S::CopyObject, &[t, id, c]);
                    return Ok(());
                }
                self.cap(Capability::SparseResidency);
                let a = self.v(fb);
                self.emit_to(S::ImageSparseTexelsResident, t, id, &[a]);
                Ok(())
            }
            O::Barrier => {
                let exec = Scope::from_literal(self.lit(def, op, 0)?);
                let mem = Scope::from_literal(self.lit(def, op, 1)?);
                let mask = MemoryTypeMask(self.lit(def, op, 2)? as u32);
                let workgroup = exec == Some(Scope::Workgroup) || mem == Some(Scope::Workgroup);
                if workgroup && !self.stage.has_workgroups() {
                    return malformed(
                        def,
                        op,
                        format!("a workgroup barrier in a {} shader", self.stage),
                    );
                }
                let mut sem = 0u32;
                if mask.contains(MemoryTypeMask::Lds) {
                    sem |= 0x100;
                }
                if mask.contains(MemoryTypeMask::UavBuffer) {
                    sem |= 0x40;
                }
                if mask.contains(MemoryTypeMask::UavImage) {
                    sem |= 0x800;
                }
                if sem != 0 {
                    sem |= 0x8 | 0x2000 | 0x4000;
                }
                let scope = |s: Option<Scope>| match s {
                    Some(Scope::Thread) | None => spirv::Scope::Invocation,
                    Some(Scope::Quad) | Some(Scope::Subgroup) => spirv::Scope::Subgroup,
                    Some(Scope::Workgroup) => spirv::Scope::Workgroup,
                    Some(Scope::Global) => spirv::Scope::QueueFamily,
                };
                let ms = self.const_u32(scope(mem) as u32);
                let ss = self.const_u32(sem);
                if exec.is_some_and(|s| s != Scope::Thread) {
                    let es = self.const_u32(scope(exec) as u32);
                    inst(self.f(), S::ControlBarrier, &[es, ms, ss]);
                } else if sem != 0 {
                    inst(self.f(), S::MemoryBarrier, &[ms, ss]);
                }
                Ok(())
            }
            O::EmitVertex | O::EmitPrimitive => {
                let stream = self.lit(def, op, 0)? as u32;
                let vertex = op.opcode == O::EmitVertex;
                if self.multi_stream {
                    let c = self.const_u32(stream);
                    let o = if vertex {
                        S::EmitStreamVertex
                    } else {
                        S::EndStreamPrimitive
                    };
                    inst(self.f(), o, &[c]);
                } else {
                    inst(
                        self.f(),
                        if vertex {
                            S::EmitVertex
                        } else {
                            S::EndPrimitive
                        },
                        &[],
                    );
                }
                Ok(())
            }
            O::Demote => {
                self.cap(Capability::DemoteToHelperInvocation);
                inst(self.f(), S::DemoteToHelperInvocation, &[]);
                Ok(())
            }
            O::InterpolateAtCentroid | O::InterpolateAtSample | O::InterpolateAtOffset => {
                self.cap(Capability::InterpolationFunction);
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an input");
                };
                let ix = self.indices(def, op, op.arg(1))?;
                let ty = vi.ty;
                let (ptr, pt) = self.chain(def, op, vi.var, vi.sc, &ty, &[], &ix, false)?;
                if pt != op.ty {
                    return unsupported(def, op, "interpolating a partial vector");
                }
                // GLSL.std.450's interpolation functions take 32-bit floats only.
                if op.ty.base_type() != Some(ScalarType::F32) {
                    return unsupported(def, op, format!("interpolating a {} input", op.ty));
                }
                let t = self.val_ty(def, op)?;
                match op.opcode {
                    O::InterpolateAtCentroid => {
                        self.ext_to(GLOp::InterpolateAtCentroid, t, id, &[ptr])
                    }
                    O::InterpolateAtSample => {
                        let sample = self.arg(def, op, 2)?;
                        let int32 = self
                            .op_of(sample)
                            .and_then(|o| o.ty.as_basic())
                            .is_some_and(|b| {
                                b.vec_size() == 1
                                    && b.base().is_int()
                                    && scalar_bits(b.base()) == 32
                            });
                        if !int32 {
                            return malformed(def, op, "the sample index is not a 32-bit integer");
                        }
                        let s = self.v(sample);
                        self.ext_to(GLOp::InterpolateAtSample, t, id, &[ptr, s])
                    }
                    _ => {
                        let s = self.v(self.arg(def, op, 2)?);
                        self.ext_to(GLOp::InterpolateAtOffset, t, id, &[ptr, s])
                    }
                }
                Ok(())
            }
            O::DerivX | O::DerivY => {
                let t = self.val_ty(def, op)?;
                let mut a = self.v(self.arg(def, op, 0)?);
                // Vulkan derives 32-bit floats only: a half is derived as a float.
                let Some(b) = op.ty.as_basic() else {
                    return malformed(def, op, "derivative of a composite");
                };
                let half = match scalar_bits(b.base()) {
                    32 => None,
                    16 => {
                        let Some(ft) = self.basic_ty(b.with_base(ScalarType::F32)) else {
                            return unsupported(def, op, "derivative type");
                        };
                        a = self.un(S::FConvert, ft, &[a]);
                        Some(ft)
                    }
                    _ => return unsupported(def, op, format!("derivative of {}", op.ty)),
                };
                let mode = DerivativeMode::from_literal(self.lit(def, op, 0)?);
                let x = op.opcode == O::DerivX;
                let o = match mode {
                    Some(DerivativeMode::Coarse) => {
                        self.cap(Capability::DerivativeControl);
                        if x {
                            S::DPdxCoarse
                        } else {
                            S::DPdyCoarse
                        }
                    }
                    Some(DerivativeMode::Fine) => {
                        self.cap(Capability::DerivativeControl);
                        if x {
                            S::DPdxFine
                        } else {
                            S::DPdyFine
                        }
                    }
                    _ => {
                        if x {
                            S::DPdx
                        } else {
                            S::DPdy
                        }
                    }
                };
                match half {
                    None => self.emit_to(o, t, id, &[a]),
                    Some(ft) => {
                        let d = self.un(o, ft, &[a]);
                        self.emit_to(S::FConvert, t, id, &[d]);
                    }
                }
                Ok(())
            }
            O::RovScopedLockBegin | O::RovScopedLockEnd => {
                self.cap(Capability::FragmentShaderPixelInterlockEXT);
                self.ext("SPV_EXT_fragment_shader_interlock");
                if op.opcode == O::RovScopedLockBegin {
                    let m = match op.lit(1).and_then(dxspv_ir::RovScope::from_literal) {
                        Some(dxspv_ir::RovScope::Sample) => {
                            self.cap(Capability::FragmentShaderSampleInterlockEXT);
                            spirv::ExecutionMode::SampleInterlockOrderedEXT
                        }
                        _ => spirv::ExecutionMode::PixelInterlockOrderedEXT,
                    };
                    if !self.modes.iter().any(|x| x.0 == m as u32) {
                        self.modes.push((m as u32, [0; 3], 0));
                    }
                    inst(self.f(), S::BeginInvocationInterlockEXT, &[]);
                } else {
                    inst(self.f(), S::EndInvocationInterlockEXT, &[]);
                }
                Ok(())
            }
            _ => self.alu(def, op),
        }
    }

    fn desc_of(&self, def: SsaDef, op: &Op, i: usize) -> R<DescInfo> {
        let d = self.arg(def, op, i)?;
        match self.info(d) {
            Some(Info::Desc(x)) => Ok(*x),
            _ => malformed(def, op, "descriptor operand is not a DescriptorLoad"),
        }
    }

    fn descriptor_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let dcl = self.arg(def, op, 0)?;
        let Some(res) = self.res_info(dcl) else {
            return malformed(def, op, "not a resource declaration");
        };
        let nonuniform = op.flags.contains(OpFlags::NON_UNIFORM);
        let sc = match res.kind {
            ResKind::Cbv => SC::Uniform,
            ResKind::Ssbo | ResKind::Counter => SC::StorageBuffer,
            _ => SC::UniformConstant,
        };
        let ptr = if res.count == 1 {
            res.var
        } else {
            let idx = self.v(self.arg(def, op, 1)?);
            let pt = self.ptr(sc, res.elem_ty);
            let p = self.un(S::AccessChain, pt, &[res.var, idx]);
            if nonuniform {
                self.cap(Capability::ShaderNonUniform);
                self.cap(match (res.kind, res.uav) {
                    (ResKind::Cbv, _) => Capability::UniformBufferArrayNonUniformIndexing,
                    (ResKind::Ssbo | ResKind::Counter, _) => {
                        Capability::StorageBufferArrayNonUniformIndexing
                    }
                    (ResKind::TexelBuffer, false) => {
                        Capability::UniformTexelBufferArrayNonUniformIndexing
                    }
                    (ResKind::TexelBuffer, true) => {
                        Capability::StorageTexelBufferArrayNonUniformIndexing
                    }
                    (ResKind::Image(_), true) => Capability::StorageImageArrayNonUniformIndexing,
                    (ResKind::Image(_), false) | (ResKind::Sampler, _) => {
                        Capability::SampledImageArrayNonUniformIndexing
                    }
                });
                self.decorate(p, Decoration::NonUniform, &[]);
            }
            p
        };
        let value = match res.kind {
            ResKind::Image(_) | ResKind::TexelBuffer | ResKind::Sampler => {
                let v = self.un(S::Load, res.elem_ty, &[ptr]);
                if nonuniform {
                    self.cap(Capability::ShaderNonUniform);
                    self.decorate(v, Decoration::NonUniform, &[]);
                }
                v
            }
            _ => 0,
        };
        self.set_map(def, if value != 0 { value } else { ptr });
        self.set_info(
            def,
            Info::Desc(DescInfo {
                res,
                ptr,
                value,
                nonuniform,
            }),
        );
        Ok(())
    }

    fn buffer_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let d = self.desc_of(def, op, 0)?;
        let id = def.id();
        match d.res.kind {
            ResKind::Cbv | ResKind::Ssbo => {
                let sc = if d.res.kind == ResKind::Cbv {
                    SC::Uniform
                } else {
                    SC::StorageBuffer
                };
                let c0 = self.const_u32(0);
                let data = d.res.data;
                if op.flags.contains(OpFlags::SPARSE_FEEDBACK) {
                    // Vulkan has no residency query for buffers: the load is plain and the
                    // feedback is `SPARSE_BUFFER_FEEDBACK` ("fully resident", see
                    // `CheckSparseAccess`).
                    let Some(&texel) = op.ty.members().get(1) else {
                        return malformed(def, op, "sparse result is not a struct");
                    };
                    let texel_ty = Type::from(texel);
                    let val = self.id();
                    self.load_via(
                        def,
                        op,
                        d.ptr,
                        sc,
                        &data,
                        &[c0],
                        op.arg(1),
                        &texel_ty,
                        true,
                        val,
                    )?;
                    let want = self.val_ty(def, op)?;
                    let code = self.const_u32(crate::SPARSE_BUFFER_FEEDBACK);
                    self.emit_to(S::CompositeConstruct, want, id, &[code, val]);
                    self.resident_feedback.push(def);
                    return Ok(());
                }
                self.load_via(
                    def,
                    op,
                    d.ptr,
                    sc,
                    &data,
                    &[c0],
                    op.arg(1),
                    &op.ty,
                    true,
                    id,
                )
            }
            ResKind::TexelBuffer => {
                let addr = self.v(self.arg(def, op, 1)?);
                self.texel_read(def, op, d, addr, 0, None)
            }
            _ => unsupported(def, op, "buffer load from this descriptor"),
        }
    }

    /// `OpImageFetch`/`OpImageRead` (sparse variants included) of `coord`.
    fn texel_read(
        &mut self,
        def: SsaDef,
        op: &Op,
        d: DescInfo,
        coord: u32,
        mask: u32,
        extra: Option<&[u32]>,
    ) -> R<()> {
        let id = def.id();
        let sparse = op.flags.contains(OpFlags::SPARSE_FEEDBACK);
        let want = self.val_ty(def, op)?;
        let texel = if sparse {
            self.cap(Capability::SparseResidency);
            match op.ty.members().get(1) {
                Some(m) => *m,
                None => return malformed(def, op, "sparse result is not a struct"),
            }
        } else {
            match op.ty.as_basic() {
                Some(b) => b,
                None => return malformed(def, op, "texel type"),
            }
        };
        let Some(st) = d.res.data.base_type() else {
            return malformed(def, op, "resource texel type");
        };
        // Texels are read as numbers of the texel's bit size (as they are written).
        if !texel.base().is_numeric() || scalar_bits(texel.base()) != scalar_bits(st) {
            return unsupported(def, op, format!("reading {} as {st} texels", op.ty));
        }
        let v4 = BasicType::vector(st, 4);
        let Some(v4t) = self.basic_ty(v4) else {
            return unsupported(def, op, "texel type");
        };
        let mut mask = mask;
        let mut scope = None;
        if d.res.uav {
            self.cap(Capability::StorageImageReadWithoutFormat);
            mask |= 0x400;
            if d.res.coherent {
                // MakeTexelVisible at QueueFamily scope.
                mask |= 0x200;
                scope = Some(self.const_u32(spirv::Scope::QueueFamily as u32));
            }
        }
        let o = match (d.res.uav, sparse) {
            (false, false) => S::ImageFetch,
            (false, true) => S::ImageSparseFetch,
            (true, false) => S::ImageRead,
            (true, true) => S::ImageSparseRead,
        };
        let rt = if sparse {
            let u = self.u32_ty();
            self.ty_key(TyKey::Struct(smallvec::smallvec![u, v4t], L_NONE))
        } else {
            v4t
        };
        let raw = self.id();
        {
            let f = &mut self.s.functions;
            let s = begin(f, o);
            f.extend_from_slice(&[rt, raw, d.value, coord]);
            if mask != 0 {
                f.push(mask);
                f.extend_from_slice(extra.unwrap_or(&[]));
                f.extend(scope);
            }
            end(f, s);
        }
        if d.nonuniform {
            self.decorate(raw, Decoration::NonUniform, &[]);
        }
        // Adapt to the requested texel vector.
        let n = texel.vec_size() as u32;
        let Some(tt) = self.basic_ty(texel) else {
            return unsupported(def, op, "texel type");
        };
        let adapt = |e: &mut Self, v: u32| -> u32 {
            let sub = if n == 4 {
                v
            } else {
                let Some(t) = e.basic_ty(v4.with_vec_size(n as u8)) else {
                    return v;
                };
                if n == 1 {
                    e.un(S::CompositeExtract, t, &[v, 0])
                } else {
                    let args = [v, v, 0, 1, 2];
                    e.un(S::VectorShuffle, t, &args[..2 + n as usize])
                }
            };
            if texel.base() != st {
                e.un(S::Bitcast, tt, &[sub])
            } else {
                sub
            }
        };
        if sparse {
            let u = self.u32_ty();
            let code = self.un(S::CompositeExtract, u, &[raw, 0]);
            let val = self.un(S::CompositeExtract, v4t, &[raw, 1]);
            let val = adapt(self, val);
            self.emit_to(S::CompositeConstruct, want, id, &[code, val]);
        } else {
            let val = adapt(self, raw);
            inst(self.f(), S::CopyObject, &[want, id, val]);
        }
        Ok(())
    }

    fn buffer_store(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let d = self.desc_of(def, op, 0)?;
        let value = self.arg(def, op, 2)?;
        match d.res.kind {
            ResKind::Ssbo => {
                let c0 = self.const_u32(0);
                let data = d.res.data;
                self.store_via(
                    def,
                    op,
                    d.ptr,
                    SC::StorageBuffer,
                    &data,
                    &[c0],
                    op.arg(1),
                    value,
                    true,
                )
            }
            ResKind::TexelBuffer => {
                let coord = self.v(self.arg(def, op, 1)?);
                self.texel_write(def, op, d, coord, value)
            }
            _ => unsupported(def, op, "buffer store to this descriptor"),
        }
    }

    fn texel_write(
        &mut self,
        def: SsaDef,
        op: &Op,
        d: DescInfo,
        coord: u32,
        value: SsaDef,
    ) -> R<()> {
        if !d.res.uav {
            return unsupported(def, op, "texel write to a read-only resource (not a UAV)");
        }
        self.cap(Capability::StorageImageWriteWithoutFormat);
        let Some(vop) = self.op_of(value) else {
            return malformed(def, op, "value missing");
        };
        let (Some(vb), Some(st)) = (vop.ty.as_basic(), d.res.data.base_type()) else {
            return malformed(def, op, "texel type");
        };
        // Texels are numbers of the texel's bit size (bools, descriptors are not).
        if !vb.base().is_numeric() || scalar_bits(vb.base()) != scalar_bits(st) {
            return unsupported(def, op, format!("writing {} as {st} texels", vop.ty));
        }
        let mut v = self.v(value);
        if vb.base() != st {
            let Some(t) = self.basic_ty(vb.with_base(st)) else {
                return unsupported(def, op, "texel type");
            };
            v = self.un(S::Bitcast, t, &[v]);
        }
        if vb.vec_size() != 4 {
            let Some(t) = self.basic_ty(BasicType::vector(st, 4)) else {
                return unsupported(def, op, "texel type");
            };
            let n = vb.vec_size() as u32;
            if n == 1 {
                v = self.un(S::CompositeConstruct, t, &[v, v, v, v]);
            } else {
                let args = [
                    v,
                    v,
                    0,
                    1,
                    if n > 2 { 2 } else { 0 },
                    if n > 3 { 3 } else { 0 },
                ];
                v = self.un(S::VectorShuffle, t, &args);
            }
        }
        if d.res.coherent {
            // MakeTexelAvailable at QueueFamily scope.
            let scope = self.const_u32(spirv::Scope::QueueFamily as u32);
            inst(self.f(), S::ImageWrite, &[d.value, coord, v, 0x500, scope]);
        } else {
            inst(self.f(), S::ImageWrite, &[d.value, coord, v, 0x400]);
        }
        Ok(())
    }

    /// Joins `coord` and `layer` into one coordinate vector.
    /// The coordinate operand `ci` with the array layer `li` appended, checked against the
    /// image `kind`: as many components as the image has dimensions, integers for texel
    /// access (`float` false) or floats for sampling, a layer exactly for layered images.
    fn coord_with_layer(
        &mut self,
        def: SsaDef,
        op: &Op,
        ci: usize,
        li: usize,
        kind: ResourceKind,
        float: bool,
    ) -> R<u32> {
        let c = self.arg(def, op, ci)?;
        let cv = self.v(c);
        let Some(cb) = self.op_of(c).and_then(|o| o.ty.as_basic()) else {
            return malformed(def, op, "coordinate type");
        };
        let dims = kind.coord_components();
        let base_ok = if float {
            cb.base() == ScalarType::F32
        } else {
            matches!(cb.base(), ScalarType::U32 | ScalarType::I32)
        };
        if cb.vec_size() != dims || !base_ok || op.arg(li).is_some() != kind.is_layered() {
            return malformed(
                def,
                op,
                format!(
                    "coordinate {} (layer {}) for a {kind:?} image",
                    Type::basic(cb),
                    op.arg(li).is_some()
                ),
            );
        }
        let Some(layer) = op.arg(li) else {
            return Ok(cv);
        };
        if self.op_of(layer).map(|o| o.ty) != Some(Type::scalar(cb.base())) {
            return malformed(def, op, "array layer of another type than the coordinate");
        }
        let lv = self.v(layer);
        let n = cb.vec_size();
        let Some(t) = self.basic_ty(cb.with_vec_size(n + 1)) else {
            return unsupported(def, op, "coordinate type");
        };
        Ok(self.un(S::CompositeConstruct, t, &[cv, lv]))
    }

    /// The integer texel coordinate `coord` (with the layer, if `kind` has one) moved by
    /// the texel offset `off`, which has the coordinate's components without the layer.
    fn offset_coordinate(
        &mut self,
        def: SsaDef,
        op: &Op,
        coord: u32,
        off: SsaDef,
        kind: ResourceKind,
    ) -> R<u32> {
        let (Some(c), Some(o)) = (
            op.arg(3)
                .and_then(|c| self.op_of(c))
                .and_then(|c| c.ty.as_basic()),
            self.op_of(off).and_then(|o| o.ty.as_basic()),
        ) else {
            return malformed(def, op, "offset or coordinate type");
        };
        let total = c.vec_size() + kind.is_layered() as u8;
        let (Some(ct), Some(ot)) = (
            self.basic_ty(c.with_vec_size(total)),
            self.basic_ty(o.with_vec_size(total)),
        ) else {
            return unsupported(def, op, "coordinate type");
        };
        let mut ov = self.v(off);
        if kind.is_layered() {
            let zero = self.const_scalar(o.base(), 0);
            ov = self.un(S::CompositeConstruct, ot, &[ov, zero]);
        }
        Ok(self.un(S::IAdd, ct, &[coord, ov]))
    }

    /// The explicit LOD `lod` raised to the LOD clamp `clamp`, if there is one (SPIR-V's
    /// `MinLod` operand does not go with an explicit LOD).
    fn clamped_lod(&mut self, lod: u32, clamp: Option<SsaDef>) -> u32 {
        let Some(c) = clamp else {
            return lod;
        };
        let cv = self.v(c);
        let f32t = self.scalar_ty(ScalarType::F32).unwrap_or_default();
        let id = self.id();
        self.ext_to(GLOp::FMax, f32t, id, &[lod, cv]);
        id
    }

    /// Checks that optional operand `i`, if present, is a scalar of a type `ok` accepts.
    fn scalar_operand(
        &self,
        def: SsaDef,
        op: &Op,
        i: usize,
        what: &str,
        ok: impl Fn(ScalarType) -> bool,
    ) -> R<()> {
        self.sized_operand(def, op, i, what, 1, ok)
    }

    /// Checks that operand `i`, if present, has `size` components (1: a scalar) of a scalar
    /// type `ok` accepts.
    fn sized_operand(
        &self,
        def: SsaDef,
        op: &Op,
        i: usize,
        what: &str,
        size: u8,
        ok: impl Fn(ScalarType) -> bool,
    ) -> R<()> {
        let Some(x) = op.arg(i) else {
            return Ok(());
        };
        match self.op_of(x).and_then(|o| o.ty.as_basic()) {
            Some(b) if b.vec_size() == size && ok(b.base()) => Ok(()),
            _ => malformed(def, op, format!("{what} (operand {i}) of the wrong type")),
        }
    }

    fn image(&mut self, def: SsaDef, op: &Op) -> R<()> {
        use OpCode as O;
        let id = def.id();
        let d = self.desc_of(def, op, 0)?;
        let ResKind::Image(kind) = d.res.kind else {
            if matches!(op.opcode, O::ImageQuerySize) && d.res.kind == ResKind::TexelBuffer {
                return unsupported(def, op, "image query on a buffer");
            }
            return unsupported(def, op, "image op on a non-image descriptor");
        };
        if let Some(what) = image_op_misfit(op, kind, d.res.uav) {
            return malformed(def, op, format!("{} of {what}", op.opcode));
        }
        match op.opcode {
            O::ImageLoad => {
                let int32 = |t: ScalarType| matches!(t, ScalarType::U32 | ScalarType::I32);
                self.scalar_operand(def, op, 1, "mip level", int32)?;
                self.scalar_operand(def, op, 4, "sample index", int32)?;
                self.sized_operand(def, op, 5, "offset", kind.offset_components(), int32)?;
                let mut coord = self.coord_with_layer(def, op, 3, 2, kind, false)?;
                let mut mask = 0u32;
                let mut extra = [0u32; 3];
                let mut n = 0;
                if let Some(mip) = op.arg(1) {
                    if !kind.is_multisampled() && !d.res.uav {
                        mask |= 0x2;
                        extra[n] = self.v(mip);
                        n += 1;
                    }
                }
                if let Some(off) = op.arg(5) {
                    let is_const = self.op_of(off).is_some_and(|o| o.opcode == O::Constant);
                    if is_const && !d.res.uav {
                        mask |= 0x8;
                        extra[n] = self.v(off);
                        n += 1;
                    } else {
                        // Vulkan takes `Offset` on gathers only, and a storage image read
                        // no offset at all: a load adds it to the texel coordinate instead.
                        coord = self.offset_coordinate(def, op, coord, off, kind)?;
                    }
                }
                if let Some(s) = op.arg(4) {
                    if kind.is_multisampled() {
                        mask |= 0x40;
                        extra[n] = self.v(s);
                        n += 1;
                    }
                }
                self.texel_read(def, op, d, coord, mask, Some(&extra[..n]))
            }
            O::ImageStore => {
                let coord = self.coord_with_layer(def, op, 2, 1, kind, false)?;
                let value = self.arg(def, op, 3)?;
                self.texel_write(def, op, d, coord, value)
            }
            O::ImageQueryMips => {
                self.cap(Capability::ImageQuery);
                let t = self.val_ty(def, op)?;
                self.emit_to(S::ImageQueryLevels, t, id, &[d.value]);
                Ok(())
            }
            O::ImageQuerySamples => {
                if !kind.is_multisampled() {
                    return malformed(def, op, "sample count of a single-sampled image");
                }
                self.cap(Capability::ImageQuery);
                let t = self.val_ty(def, op)?;
                self.emit_to(S::ImageQuerySamples, t, id, &[d.value]);
                Ok(())
            }
            O::ImageQuerySize => {
                self.cap(Capability::ImageQuery);
                let t = self.val_ty(def, op)?;
                let [sz, layers] = op.ty.members() else {
                    return malformed(def, op, "size query result is not a struct of two members");
                };
                if layers.vec_size() != 1 || layers.base() != sz.base() || op.ty.is_array() {
                    return malformed(def, op, "size query layers are not the size's scalar type");
                }
                let n = sz.vec_size() as u32;
                let dims = match kind {
                    ResourceKind::Image1D | ResourceKind::Image1DArray => 1,
                    ResourceKind::Image3D => 3,
                    _ => 2,
                };
                let int32 = |t: &Type| {
                    *t == Type::scalar(ScalarType::U32) || *t == Type::scalar(ScalarType::I32)
                };
                let mip_ok = op
                    .arg(1)
                    .is_none_or(|m| self.op_of(m).is_some_and(|o| int32(&o.ty)));
                if n != dims || !int32(&Type::scalar(sz.base())) || !mip_ok {
                    return malformed(def, op, format!("size query {} of a {kind:?} image", op.ty));
                }
                let layered = kind.is_layered();
                let total = n + layered as u32;
                let Some(qt) = self.basic_ty(sz.with_vec_size(total as u8)) else {
                    return unsupported(def, op, "size type");
                };
                let q = if !kind.is_multisampled() && !d.res.uav {
                    let mip = match op.arg(1) {
                        Some(m) => self.v(m),
                        None => self.const_u32(0),
                    };
                    self.un(S::ImageQuerySizeLod, qt, &[d.value, mip])
                } else {
                    self.un(S::ImageQuerySize, qt, &[d.value])
                };
                let Some(st) = self.basic_ty(*sz) else {
                    return unsupported(def, op, "size type");
                };
                let size = if !layered {
                    q
                } else if n == 1 {
                    self.un(S::CompositeExtract, st, &[q, 0])
                } else {
                    let args = [q, q, 0, 1];
                    self.un(S::VectorShuffle, st, &args[..2 + n as usize])
                };
                let Some(lt) = self.basic_ty(*layers) else {
                    return unsupported(def, op, "size type");
                };
                let layers = if layered {
                    self.un(S::CompositeExtract, lt, &[q, n])
                } else {
                    self.const_scalar(layers.base(), 1)
                };
                self.emit_to(S::CompositeConstruct, t, id, &[size, layers]);
                Ok(())
            }
            O::ImageSample | O::ImageGather | O::ImageComputeLod => {
                let sd = self.desc_of(def, op, 1)?;
                if sd.res.kind != ResKind::Sampler {
                    return malformed(def, op, "operand 1 is not a sampler");
                }
                let sit = self.ty_key(TyKey::SampledImage(d.res.elem_ty));
                let si = self.un(S::SampledImage, sit, &[d.value, sd.value]);
                if d.nonuniform || sd.nonuniform {
                    self.decorate(si, Decoration::NonUniform, &[]);
                }
                if op.opcode == O::ImageComputeLod {
                    self.cap(Capability::ImageQuery);
                    let t = self.val_ty(def, op)?;
                    let f32 = |t: ScalarType| t == ScalarType::F32;
                    let dims = kind.coord_components();
                    self.sized_operand(def, op, 2, "coordinate", dims, f32)?;
                    let c = self.v(self.arg(def, op, 2)?);
                    self.emit_to(S::ImageQueryLod, t, id, &[si, c]);
                    return Ok(());
                }
                let coord = self.coord_with_layer(def, op, 3, 2, kind, true)?;
                // Gradients and offsets have the coordinate's components (without the layer).
                let dims = kind.coord_components();
                let sparse = op.flags.contains(OpFlags::SPARSE_FEEDBACK);
                let is_sample = op.opcode == O::ImageSample;
                let dref = if is_sample { op.arg(10) } else { op.arg(5) };
                let f32 = |t: ScalarType| t == ScalarType::F32;
                self.scalar_operand(
                    def,
                    op,
                    if is_sample { 10 } else { 5 },
                    "depth reference",
                    f32,
                )?;
                if is_sample {
                    self.scalar_operand(def, op, 5, "LOD", f32)?;
                    self.scalar_operand(def, op, 6, "LOD bias", f32)?;
                    self.scalar_operand(def, op, 7, "LOD clamp", f32)?;
                    self.sized_operand(def, op, 8, "x gradient", dims, f32)?;
                    self.sized_operand(def, op, 9, "y gradient", dims, f32)?;
                }
                {
                    // The texels (after the feedback, for a sparse access) are what the
                    // image gives.
                    let st = d.res.data.base_type().unwrap_or(ScalarType::F32);
                    let want = if is_sample && dref.is_some() {
                        Type::scalar(st)
                    } else {
                        Type::vector(st, 4)
                    };
                    let texels = if sparse {
                        op.ty.members().get(1).map(|m| Type::basic(*m))
                    } else {
                        Some(op.ty)
                    };
                    if texels != Some(want) {
                        return malformed(
                            def,
                            op,
                            format!("result {} (the image gives {want})", op.ty),
                        );
                    }
                }
                let mut mask = 0u32;
                let mut extra = [0u32; 6];
                let mut n = 0;
                let mut explicit = false;
                if is_sample {
                    if let Some(b) = op.arg(6) {
                        if self.stage == ShaderStage::Pixel {
                            mask |= 0x1;
                            extra[n] = self.v(b);
                            n += 1;
                        }
                    }
                    if let Some(l) = op.arg(5) {
                        mask |= 0x2;
                        let lod = self.v(l);
                        extra[n] = self.clamped_lod(lod, op.arg(7));
                        n += 1;
                        explicit = true;
                    } else if let (Some(dx), Some(dy)) = (op.arg(8), op.arg(9)) {
                        mask |= 0x4;
                        extra[n] = self.v(dx);
                        extra[n + 1] = self.v(dy);
                        n += 2;
                        explicit = true;
                    } else if self.stage != ShaderStage::Pixel {
                        mask |= 0x2;
                        let lod = self.const_scalar(ScalarType::F32, 0);
                        extra[n] = self.clamped_lod(lod, op.arg(7));
                        n += 1;
                        explicit = true;
                    }
                }
                self.sized_operand(def, op, 4, "offset", kind.offset_components(), |t| {
                    matches!(t, ScalarType::I32 | ScalarType::U32)
                })?;
                let off = op.arg(4);
                if let Some(off) = off {
                    let is_const = self.op_of(off).is_some_and(|o| o.opcode == O::Constant);
                    if is_const {
                        mask |= 0x8;
                    } else if is_sample {
                        // Only gathers take a run-time offset (in D3D and in Vulkan).
                        return malformed(def, op, "run-time offset of a sample");
                    } else {
                        self.cap(Capability::ImageGatherExtended);
                        mask |= 0x10;
                    }
                    extra[n] = self.v(off);
                    n += 1;
                }
                // An explicit LOD was clamped above: `MinLod` goes with implicit LODs and
                // gradients only.
                if is_sample && mask & 0x2 == 0 {
                    if let Some(c) = op.arg(7) {
                        self.cap(Capability::MinLod);
                        mask |= 0x80;
                        extra[n] = self.v(c);
                        n += 1;
                    }
                }
                if explicit {
                    // Bias is only valid with implicit LOD.
                    if mask & 0x1 != 0 {
                        return unsupported(def, op, "LOD bias with explicit LOD");
                    }
                }
                let o = match (is_sample, dref.is_some(), explicit, sparse) {
                    (true, false, false, false) => S::ImageSampleImplicitLod,
                    (true, false, true, false) => S::ImageSampleExplicitLod,
                    (true, true, false, false) => S::ImageSampleDrefImplicitLod,
                    (true, true, true, false) => S::ImageSampleDrefExplicitLod,
                    (true, false, false, true) => S::ImageSparseSampleImplicitLod,
                    (true, false, true, true) => S::ImageSparseSampleExplicitLod,
                    (true, true, false, true) => S::ImageSparseSampleDrefImplicitLod,
                    (true, true, true, true) => S::ImageSparseSampleDrefExplicitLod,
                    (false, false, _, false) => S::ImageGather,
                    (false, true, _, false) => S::ImageDrefGather,
                    (false, false, _, true) => S::ImageSparseGather,
                    (false, true, _, true) => S::ImageSparseDrefGather,
                };
                if sparse {
                    self.cap(Capability::SparseResidency);
                }
                let t = self.val_ty(def, op)?;
                let f = &mut self.s.functions;
                let s = begin(f, o);
                f.extend_from_slice(&[t, id, si, coord]);
                let dv = dref.map(|x| self.v(x));
                let comp = if !is_sample && dv.is_none() {
                    let c = op.lit(0).unwrap_or(0);
                    if c > 3 {
                        return malformed(def, op, format!("gather of component {c}"));
                    }
                    Some(self.const_u32(c as u32))
                } else {
                    None
                };
                let f = &mut self.s.functions;
                if let Some(dv) = dv {
                    f.push(dv);
                }
                if let Some(c) = comp {
                    f.push(c);
                }
                if mask != 0 {
                    f.push(mask);
                    f.extend_from_slice(&extra[..n]);
                }
                end(f, s);
                Ok(())
            }
            _ => unsupported(def, op, "image op"),
        }
    }

    fn atomic(&mut self, def: SsaDef, op: &Op) -> R<()> {
        use OpCode as O;
        let id = def.id();
        let aop_lit = op.literals().first().map(|l| l.0).unwrap_or(u64::MAX);
        let Some(aop) = AtomicOp::from_literal(aop_lit) else {
            return malformed(def, op, "bad atomic op");
        };
        // Pointer, scope and the operand SSA index.
        let (ptr, scope, operand_idx, elem) = match op.opcode {
            O::LdsAtomic => {
                let dcl = self.arg(def, op, 0)?;
                let Some(vi) = self.var_info(dcl) else {
                    return malformed(def, op, "not an LDS declaration");
                };
                let ix = self.indices(def, op, op.arg(1))?;
                let ty = vi.ty;
                let (p, t) = self.chain(def, op, vi.var, vi.sc, &ty, &[], &ix, false)?;
                (p, spirv::Scope::Workgroup, 2, t)
            }
            O::BufferAtomic => {
                let d = self.desc_of(def, op, 0)?;
                match d.res.kind {
                    ResKind::Ssbo => {
                        let ix = self.indices(def, op, op.arg(1))?;
                        let c0 = self.const_u32(0);
                        let data = d.res.data;
                        let (p, t) =
                            self.chain(def, op, d.ptr, SC::StorageBuffer, &data, &[c0], &ix, true)?;
                        (p, spirv::Scope::QueueFamily, 2, t)
                    }
                    ResKind::TexelBuffer => {
                        if !d.res.fixed_format {
                            return malformed(def, op, "texel atomic without FixedFormat");
                        }
                        let Some(st) = d.res.data.base_type() else {
                            return malformed(def, op, "texel type");
                        };
                        let Some(stt) = self.scalar_ty(st) else {
                            return unsupported(def, op, "texel type");
                        };
                        let pt = self.ptr(SC::Image, stt);
                        let c = self.arg(def, op, 1)?;
                        let int_scalar = self.op_of(c).is_some_and(|o| {
                            o.ty == Type::scalar(ScalarType::U32)
                                || o.ty == Type::scalar(ScalarType::I32)
                        });
                        if !int_scalar {
                            return malformed(
                                def,
                                op,
                                "typed buffer element index is not an integer scalar",
                            );
                        }
                        let coord = self.v(c);
                        let zero = self.const_u32(0);
                        let p = self.un(S::ImageTexelPointer, pt, &[d.ptr, coord, zero]);
                        (p, spirv::Scope::QueueFamily, 2, Type::scalar(st))
                    }
                    _ => return unsupported(def, op, "atomic on this descriptor"),
                }
            }
            O::ImageAtomic => {
                let d = self.desc_of(def, op, 0)?;
                if !d.res.fixed_format {
                    return malformed(def, op, "texel atomic without FixedFormat");
                }
                let Some(st) = d.res.data.base_type() else {
                    return malformed(def, op, "texel type");
                };
                if !st.is_int() {
                    return malformed(def, op, "atomic on an image of non-integer texels");
                }
                let Some(stt) = self.scalar_ty(st) else {
                    return unsupported(def, op, "texel type");
                };
                let pt = self.ptr(SC::Image, stt);
                let ResKind::Image(kind) = d.res.kind else {
                    return unsupported(def, op, "image atomic on a non-image descriptor");
                };
                if let Some(what) = image_op_misfit(op, kind, d.res.uav) {
                    return malformed(def, op, format!("{} of {what}", op.opcode));
                }
                let coord = self.coord_with_layer(def, op, 2, 1, kind, false)?;
                let zero = self.const_u32(0);
                let p = self.un(S::ImageTexelPointer, pt, &[d.ptr, coord, zero]);
                (p, spirv::Scope::QueueFamily, 3, Type::scalar(st))
            }
            _ => {
                let d = self.desc_of(def, op, 0)?;
                let u = self.u32_ty();
                let pt = self.ptr(SC::StorageBuffer, u);
                let c0 = self.const_u32(0);
                let p = self.un(S::AccessChain, pt, &[d.ptr, c0]);
                (
                    p,
                    spirv::Scope::QueueFamily,
                    usize::MAX,
                    Type::scalar(ScalarType::U32),
                )
            }
        };
        match elem.base_type() {
            Some(t) if t.is_int() && elem.as_basic().is_some_and(|b| b.vec_size() == 1) => {}
            _ => return unsupported(def, op, format!("atomic on {elem}")),
        }
        if !op.ty.members().is_empty() && op.ty != elem {
            return malformed(def, op, format!("atomic result {} on {elem}", op.ty));
        }
        if operand_idx != usize::MAX {
            if let Some(t) = op
                .arg(operand_idx)
                .and_then(|o| self.op_of(o))
                .map(|o| o.ty)
            {
                let want = match (aop, elem.base_type()) {
                    (AtomicOp::CompareExchange, Some(b)) => Type::vector(b, 2),
                    _ => elem,
                };
                if t != want {
                    return malformed(
                        def,
                        op,
                        format!("atomic operand {t} on {elem}, needs {want}"),
                    );
                }
            }
        }
        let Some(et) = self.ty(&elem, false) else {
            return unsupported(def, op, "atomic type");
        };
        if elem.base_type().is_some_and(|t| scalar_bits(t) == 64) {
            self.cap(Capability::Int64Atomics);
        }
        let sc = self.const_u32(scope as u32);
        let sem = self.const_u32(0);
        let operand = if operand_idx == usize::MAX {
            None
        } else {
            op.arg(operand_idx)
        };
        let opv = operand.map(|o| self.v(o));
        let res = if op.ty.members().is_empty() {
            self.id()
        } else {
            id
        };
        let one = |e: &mut Self| e.const_scalar(elem.base_type().unwrap_or(ScalarType::U32), 1);
        let need = |e: &Self| -> R<u32> {
            match opv {
                Some(v) => Ok(v),
                None => {
                    let _ = e;
                    malformed(def, op, "atomic operand missing")
                }
            }
        };
        match aop {
            AtomicOp::Load => self.emit_to(S::AtomicLoad, et, res, &[ptr, sc, sem]),
            AtomicOp::Store => {
                let v = need(self)?;
                inst(self.f(), S::AtomicStore, &[ptr, sc, sem, v]);
            }
            AtomicOp::CompareExchange => {
                let v = need(self)?;
                let cmp = self.un(S::CompositeExtract, et, &[v, 0]);
                let new = self.un(S::CompositeExtract, et, &[v, 1]);
                self.emit_to(
                    S::AtomicCompareExchange,
                    et,
                    res,
                    &[ptr, sc, sem, sem, new, cmp],
                );
            }
            AtomicOp::Inc | AtomicOp::Dec => {
                let o = if aop == AtomicOp::Inc {
                    S::AtomicIIncrement
                } else {
                    S::AtomicIDecrement
                };
                let _ = one;
                self.emit_to(o, et, res, &[ptr, sc, sem]);
            }
            _ => {
                let o = match aop {
                    AtomicOp::Exchange => S::AtomicExchange,
                    AtomicOp::Add => S::AtomicIAdd,
                    AtomicOp::Sub => S::AtomicISub,
                    AtomicOp::SMin => S::AtomicSMin,
                    AtomicOp::SMax => S::AtomicSMax,
                    AtomicOp::UMin => S::AtomicUMin,
                    AtomicOp::UMax => S::AtomicUMax,
                    AtomicOp::And => S::AtomicAnd,
                    AtomicOp::Or => S::AtomicOr,
                    _ => S::AtomicXor,
                };
                let v = need(self)?;
                self.emit_to(o, et, res, &[ptr, sc, sem, v]);
            }
        }
        Ok(())
    }

    /// Operand `i` of `op` (SPIR-V value `value`) as a value of `want` (SPIR-V type `want_ty`):
    /// bit cast when its type differs, for the SPIR-V ops that take one exact integer type
    /// where the IR lets signedness differ.
    fn operand_as(&mut self, op: &Op, i: usize, value: u32, want: BasicType, want_ty: u32) -> u32 {
        let have = op
            .arg(i)
            .and_then(|x| self.op_of(x))
            .and_then(|o| o.ty.as_basic());
        if have == Some(want) {
            value
        } else {
            self.un(S::Bitcast, want_ty, &[value])
        }
    }

    fn alu(&mut self, def: SsaDef, op: &Op) -> R<()> {
        use OpCode as O;
        let id = def.id();
        let t = self.val_ty(def, op)?;
        let mut a = [0u32; 4];
        let refs = op.operands.get(..op.ref_count()).unwrap_or(&[]);
        for (slot, x) in a.iter_mut().zip(refs) {
            if let Some(x) = x.def() {
                *slot = self.v(x);
            }
        }
        let rb = op
            .ty
            .as_basic()
            .unwrap_or(BasicType::scalar(ScalarType::U32));
        let arg_basic = |e: &Self, i: usize| -> Option<BasicType> {
            op.arg(i)
                .and_then(|x| e.op_of(x))
                .and_then(|o| o.ty.as_basic())
        };
        if op.flags.contains(OpFlags::PRECISE) && rb.base().is_float() {
            self.decorate(id, Decoration::NoContraction, &[]);
        }
        let simple = |o: S, n: usize, e: &mut Self| {
            e.emit_to(o, t, id, &a[..n]);
            Ok(())
        };
        let gl = |g: GLOp, n: usize, e: &mut Self| {
            e.ext_to(g, t, id, &a[..n]);
            Ok(())
        };
        match op.opcode {
            O::FAbs => gl(GLOp::FAbs, 1, self),
            O::FNeg => simple(S::FNegate, 1, self),
            O::FAdd => simple(S::FAdd, 2, self),
            O::FSub => simple(S::FSub, 2, self),
            O::FMul => simple(S::FMul, 2, self),
            O::FDiv => simple(S::FDiv, 2, self),
            O::FMad => {
                if op.flags.contains(OpFlags::PRECISE) {
                    let m = self.un(S::FMul, t, &a[..2]);
                    self.decorate(m, Decoration::NoContraction, &[]);
                    self.emit_to(S::FAdd, t, id, &[m, a[2]]);
                    Ok(())
                } else {
                    gl(GLOp::Fma, 3, self)
                }
            }
            O::FRcp => {
                let one = match rb.base() {
                    ScalarType::F64 => 1.0f64.to_bits(),
                    ScalarType::F16 => 0x3c00,
                    _ => 1.0f32.to_bits() as u64,
                };
                let c = self.const_splat(rb, one);
                self.emit_to(S::FDiv, t, id, &[c, a[0]]);
                Ok(())
            }
            O::FSqrt => gl(GLOp::Sqrt, 1, self),
            O::FRsq => gl(GLOp::InverseSqrt, 1, self),
            O::FExp2 => gl(GLOp::Exp2, 1, self),
            O::FLog2 => gl(GLOp::Log2, 1, self),
            O::FFract => gl(GLOp::Fract, 1, self),
            O::FRound => {
                let g = match RoundMode::from_literal(self.lit(def, op, 0)?) {
                    Some(RoundMode::Zero) => GLOp::Trunc,
                    Some(RoundMode::NegativeInf) => GLOp::Floor,
                    Some(RoundMode::PositiveInf) => GLOp::Ceil,
                    _ => GLOp::RoundEven,
                };
                gl(g, 1, self)
            }
            O::FMin => gl(GLOp::NMin, 2, self),
            O::FMax => gl(GLOp::NMax, 2, self),
            O::FClamp => gl(GLOp::NClamp, 3, self),
            O::FSin => gl(GLOp::Sin, 1, self),
            O::FCos => gl(GLOp::Cos, 1, self),
            O::FPow => gl(GLOp::Pow, 2, self),
            O::FEq => simple(S::FOrdEqual, 2, self),
            O::FNe => simple(S::FUnordNotEqual, 2, self),
            O::FLt => simple(S::FOrdLessThan, 2, self),
            O::FLe => simple(S::FOrdLessThanEqual, 2, self),
            O::FGt => simple(S::FOrdGreaterThan, 2, self),
            O::FGe => simple(S::FOrdGreaterThanEqual, 2, self),
            O::FIsNan => simple(S::IsNan, 1, self),
            O::IEq => simple(S::IEqual, 2, self),
            O::INe => simple(S::INotEqual, 2, self),
            O::SLt => simple(S::SLessThan, 2, self),
            O::SLe => simple(S::SLessThanEqual, 2, self),
            O::SGt => simple(S::SGreaterThan, 2, self),
            O::SGe => simple(S::SGreaterThanEqual, 2, self),
            O::ULt => simple(S::ULessThan, 2, self),
            O::ULe => simple(S::ULessThanEqual, 2, self),
            O::UGt => simple(S::UGreaterThan, 2, self),
            O::UGe => simple(S::UGreaterThanEqual, 2, self),
            O::BAnd => simple(S::LogicalAnd, 2, self),
            O::BOr => simple(S::LogicalOr, 2, self),
            O::BEq => simple(S::LogicalEqual, 2, self),
            O::BNe => simple(S::LogicalNotEqual, 2, self),
            O::BNot => simple(S::LogicalNot, 1, self),
            O::Select
                if arg_basic(self, 0)
                    .is_some_and(|c| c.is_vector() && c.vec_size() != rb.vec_size()) =>
            {
                malformed(
                    def,
                    op,
                    "a select condition of another size than its values",
                )
            }
            O::Select => simple(S::Select, 3, self),
            O::IAnd => simple(S::BitwiseAnd, 2, self),
            O::IOr => simple(S::BitwiseOr, 2, self),
            O::IXor => simple(S::BitwiseXor, 2, self),
            O::INot => simple(S::Not, 1, self),
            O::IShl | O::SShr | O::UShr => {
                let Some(cb) = arg_basic(self, 1) else {
                    return malformed(def, op, "shift count type");
                };
                let bits = scalar_bits(rb.base()) as u64;
                let Some(ct) = self.basic_ty(cb) else {
                    return unsupported(def, op, "shift count type");
                };
                let m = self.const_splat(cb, bits - 1);
                let cnt = self.un(S::BitwiseAnd, ct, &[a[1], m]);
                let o = match op.opcode {
                    O::IShl => S::ShiftLeftLogical,
                    O::SShr => S::ShiftRightArithmetic,
                    _ => S::ShiftRightLogical,
                };
                self.emit_to(o, t, id, &[a[0], cnt]);
                Ok(())
            }
            O::IBitInsert | O::UBitExtract | O::SBitExtract if scalar_bits(rb.base()) != 32 => {
                unsupported(def, op, "bit field ops on other than 32-bit integers")
            }
            O::IBitInsert | O::UBitExtract | O::SBitExtract => {
                // D3D: offset and count are masked to 5 bits; offset + count is clamped.
                let (oi, ci) = if op.opcode == O::IBitInsert {
                    (2, 3)
                } else {
                    (1, 2)
                };
                let Some(ob) = arg_basic(self, oi) else {
                    return malformed(def, op, "offset type");
                };
                let Some(ot) = self.basic_ty(ob) else {
                    return unsupported(def, op, "offset type");
                };
                let bits = scalar_bits(rb.base()) as u64;
                let m = self.const_splat(ob, bits - 1);
                let w = self.const_splat(ob, bits);
                let off = self.un(S::BitwiseAnd, ot, &[a[oi], m]);
                let cnt = self.un(S::BitwiseAnd, ot, &[a[ci], m]);
                let room = self.un(S::ISub, ot, &[w, off]);
                let g = self.glsl();
                let cnt2 = self.id();
                let umin = GLOp::UMin as u32;
                inst(self.f(), S::ExtInst, &[ot, cnt2, g, umin, cnt, room]);
                // SPIR-V wants the base (and inserted bits) of the result's type exactly; the
                // IR lets their signedness differ.
                let mut a = a;
                for (i, x) in a.iter_mut().enumerate().take(oi) {
                    *x = self.operand_as(op, i, *x, rb, t);
                }
                let (o, n) = match op.opcode {
                    O::IBitInsert => (S::BitFieldInsert, 4),
                    O::UBitExtract => (S::BitFieldUExtract, 3),
                    _ => (S::BitFieldSExtract, 3),
                };
                let args = |base: u32, insert: u32, off: u32, cnt: u32| -> [u32; 4] {
                    if n == 4 {
                        [base, insert, off, cnt]
                    } else {
                        [base, off, cnt, 0]
                    }
                };
                if !ob.is_vector() {
                    self.emit_to(o, t, id, &args(a[0], a[1], off, cnt2)[..n]);
                    return Ok(());
                }
                // SPIR-V takes one offset and count for all components: per-component ones
                // (DXBC's `ubfe r0.xy, r1.xy, ...`) work one component at a time.
                let (Some(et), Some(st)) = (
                    self.basic_ty(BasicType::scalar(rb.base())),
                    self.basic_ty(BasicType::scalar(ob.base())),
                ) else {
                    return unsupported(def, op, "type");
                };
                let mut parts = SmallVec::<[u32; 4]>::new();
                for k in 0..u32::from(rb.vec_size()) {
                    let pick =
                        |e: &mut Self, ty: u32, v: u32| e.un(S::CompositeExtract, ty, &[v, k]);
                    let base = pick(self, et, a[0]);
                    let insert = if n == 4 { pick(self, et, a[1]) } else { 0 };
                    let (o_k, c_k) = (pick(self, st, off), pick(self, st, cnt2));
                    parts.push(self.un(o, et, &args(base, insert, o_k, c_k)[..n]));
                }
                self.emit_to(S::CompositeConstruct, t, id, &parts);
                Ok(())
            }
            O::IBitCount | O::IBitReverse | O::IFindLsb | O::SFindMsb | O::UFindMsb
                if arg_basic(self, 0).is_none_or(|b| scalar_bits(b.base()) != 32)
                    || scalar_bits(rb.base()) != 32 =>
            {
                unsupported(
                    def,
                    op,
                    "bit counting, reversal or search of other than 32-bit integers",
                )
            }
            O::IBitReverse if arg_basic(self, 0) != Some(rb) => {
                malformed(def, op, "bit reversal of another type than its result")
            }
            O::IBitCount => simple(S::BitCount, 1, self),
            O::IBitReverse => simple(S::BitReverse, 1, self),
            O::IFindLsb => gl(GLOp::FindILsb, 1, self),
            O::SFindMsb => gl(GLOp::FindSMsb, 1, self),
            O::UFindMsb => gl(GLOp::FindUMsb, 1, self),
            O::IAdd => simple(S::IAdd, 2, self),
            O::ISub => simple(S::ISub, 2, self),
            O::IMul => simple(S::IMul, 2, self),
            O::UDiv | O::UMod => {
                // SPIR-V divides unsigned integers of the result's type only: operands and
                // result of another signedness go through bit casts.
                let ub = rb.with_base(int_of_width(rb.base(), false));
                let Some(ut) = self.basic_ty(ub) else {
                    return unsupported(def, op, "type");
                };
                let ua = [
                    self.operand_as(op, 0, a[0], ub, ut),
                    self.operand_as(op, 1, a[1], ub, ut),
                ];
                let q = self.un(
                    if op.opcode == O::UDiv {
                        S::UDiv
                    } else {
                        S::UMod
                    },
                    ut,
                    &ua,
                );
                // D3D: division by zero yields all ones.
                let zero = self.const_splat(ub, 0);
                let ones = self.const_splat(ub, u64::MAX);
                let Some(bt) = self.basic_ty(rb.with_base(ScalarType::Bool)) else {
                    return unsupported(def, op, "bool vector");
                };
                let z = self.un(S::IEqual, bt, &[ua[1], zero]);
                if ut == t {
                    self.emit_to(S::Select, t, id, &[z, ones, q]);
                } else {
                    let r = self.un(S::Select, ut, &[z, ones, q]);
                    self.emit_to(S::Bitcast, t, id, &[r]);
                }
                Ok(())
            }
            O::IAbs => gl(GLOp::SAbs, 1, self),
            O::INeg => simple(S::SNegate, 1, self),
            O::SMin => gl(GLOp::SMin, 2, self),
            O::SMax => gl(GLOp::SMax, 2, self),
            O::SClamp => gl(GLOp::SClamp, 3, self),
            O::UMin => gl(GLOp::UMin, 2, self),
            O::UMax => gl(GLOp::UMax, 2, self),
            O::UClamp => gl(GLOp::UClamp, 3, self),
            O::IAddCarry | O::ISubBorrow | O::SMulExtended | O::UMulExtended => {
                let Some(et) = self.scalar_ty(rb.base()) else {
                    return unsupported(def, op, "type");
                };
                let st = self.ty_key(TyKey::Struct(smallvec::smallvec![et, et], L_NONE));
                let o = match op.opcode {
                    O::IAddCarry => S::IAddCarry,
                    O::ISubBorrow => S::ISubBorrow,
                    O::SMulExtended => S::SMulExtended,
                    _ => S::UMulExtended,
                };
                // The operands have the members' exact type.
                let eb = BasicType::scalar(rb.base());
                let x = [
                    self.operand_as(op, 0, a[0], eb, et),
                    self.operand_as(op, 1, a[1], eb, et),
                ];
                let r = self.un(o, st, &x);
                let lo = self.un(S::CompositeExtract, et, &[r, 0]);
                let hi = self.un(S::CompositeExtract, et, &[r, 1]);
                self.emit_to(S::CompositeConstruct, t, id, &[lo, hi]);
                Ok(())
            }
            // The same width in another signedness is the same bits.
            O::ConvertItoI
                if arg_basic(self, 0)
                    .is_some_and(|b| scalar_bits(b.base()) == scalar_bits(rb.base())) =>
            {
                simple(S::Bitcast, 1, self)
            }
            O::ConvertFtoF => simple(S::FConvert, 1, self),
            O::ConvertFtoI => {
                let Some(sb) = arg_basic(self, 0) else {
                    return malformed(def, op, "source type");
                };
                let signed = rb.base().is_signed_int();
                let o = if signed {
                    S::ConvertFToS
                } else {
                    S::ConvertFToU
                };
                if sb.base() == ScalarType::F32 && scalar_bits(rb.base()) == 32 {
                    // D3D: saturate to the integer range, NaN -> 0.
                    let (lo, hi) = if signed {
                        ((-2147483648.0f32).to_bits(), 2147483520.0f32.to_bits())
                    } else {
                        (0.0f32.to_bits(), 4294967040.0f32.to_bits())
                    };
                    let Some(ft) = self.basic_ty(sb) else {
                        return unsupported(def, op, "type");
                    };
                    let lo = self.const_splat(sb, lo as u64);
                    let hi = self.const_splat(sb, hi as u64);
                    let cl = self.id();
                    self.ext_to(GLOp::NClamp, ft, cl, &[a[0], lo, hi]);
                    let Some(bt) = self.basic_ty(rb.with_base(ScalarType::Bool)) else {
                        return unsupported(def, op, "bool vector");
                    };
                    let mut c = self.un(o, t, &[cl]);
                    if signed {
                        let nan = self.un(S::IsNan, bt, &[a[0]]);
                        let zero = self.const_splat(rb, 0);
                        c = self.un(S::Select, t, &[nan, zero, c]);
                    }
                    // The clamp bound is the largest float below 2^31 (2^32); inputs at or
                    // above 2^31 (2^32), +inf included, saturate to the integer maximum.
                    let (limit, max) = if signed {
                        (2147483648.0f32.to_bits(), i32::MAX as u32)
                    } else {
                        (4294967296.0f32.to_bits(), u32::MAX)
                    };
                    let limit = self.const_splat(sb, limit as u64);
                    let max = self.const_splat(rb, max as u64);
                    let big = self.un(S::FOrdGreaterThanEqual, bt, &[a[0], limit]);
                    self.emit_to(S::Select, t, id, &[big, max, c]);
                    Ok(())
                } else {
                    simple(o, 1, self)
                }
            }
            O::ConvertItoF => {
                let signed = arg_basic(self, 0).is_some_and(|b| b.base().is_signed_int());
                simple(
                    if signed {
                        S::ConvertSToF
                    } else {
                        S::ConvertUToF
                    },
                    1,
                    self,
                )
            }
            O::ConvertItoI => {
                let Some(sb) = arg_basic(self, 0) else {
                    return malformed(def, op, "source type");
                };
                let widen = scalar_bits(rb.base()) > scalar_bits(sb.base());
                if widen && sb.base().is_signed_int() {
                    let Some(st) = self.basic_ty(rb.with_base(int_of_width(rb.base(), true)))
                    else {
                        return unsupported(def, op, "type");
                    };
                    if st == t {
                        return simple(S::SConvert, 1, self);
                    }
                    let c = self.un(S::SConvert, st, &[a[0]]);
                    self.emit_to(S::Bitcast, t, id, &[c]);
                    Ok(())
                } else {
                    let Some(ut) = self.basic_ty(rb.with_base(int_of_width(rb.base(), false)))
                    else {
                        return unsupported(def, op, "type");
                    };
                    if ut == t {
                        return simple(S::UConvert, 1, self);
                    }
                    let c = self.un(S::UConvert, ut, &[a[0]]);
                    self.emit_to(S::Bitcast, t, id, &[c]);
                    Ok(())
                }
            }
            O::ConvertF32toPackedF16 => gl(GLOp::PackHalf2x16, 1, self),
            O::ConvertPackedF16toF32 => gl(GLOp::UnpackHalf2x16, 1, self),
            O::Cast => simple(S::Bitcast, 1, self),
            O::CompositeConstruct => {
                let f = &mut self.s.functions;
                let start = begin(f, S::CompositeConstruct);
                f.extend_from_slice(&[t, id]);
                for r in op.refs().flatten() {
                    f.push(self.slots.get(r.index()).map_or(r.id(), |s| s.id));
                }
                end(f, start);
                Ok(())
            }
            O::CompositeExtract | O::CompositeInsert => {
                let insert = op.opcode == O::CompositeInsert;
                let addr = self.arg(def, op, 1)?;
                let Some(aop) = self.op_of(addr) else {
                    return malformed(def, op, "address missing");
                };
                if aop.opcode == O::Constant {
                    let o = if insert {
                        S::CompositeInsert
                    } else {
                        S::CompositeExtract
                    };
                    let f = &mut self.s.functions;
                    let start = begin(f, o);
                    f.extend_from_slice(&[t, id]);
                    if insert {
                        f.push(a[2]);
                    }
                    f.push(a[0]);
                    f.extend(aop.literals().iter().map(|l| l.0 as u32));
                    end(f, start);
                    Ok(())
                } else if aop.ty.is_scalar() {
                    // A run-time index selects a component of a vector, nothing else.
                    let comp = op.arg(0).and_then(|c| self.op_of(c)).map(|c| c.ty);
                    let fits = comp.is_some_and(|c| {
                        c.is_vector()
                            && if insert {
                                c == op.ty
                            } else {
                                op.ty.is_scalar() && op.ty.base_type() == c.base_type()
                            }
                    });
                    if !fits {
                        let c = comp.map_or_else(|| "nothing".to_string(), |c| c.to_string());
                        return unsupported(def, op, format!("run-time index into {c}"));
                    }
                    if insert {
                        self.emit_to(S::VectorInsertDynamic, t, id, &[a[0], a[2], a[1]]);
                    } else {
                        self.emit_to(S::VectorExtractDynamic, t, id, &[a[0], a[1]]);
                    }
                    Ok(())
                } else {
                    unsupported(def, op, "dynamic multi-level composite address")
                }
            }
            O::UMsad => {
                // msad4 per component: for each byte i of the *reference* that is non-zero,
                // add |ref.byte[i] - src.byte[i]| to `accum` (a zero reference byte masks the
                // difference out, per the HLSL msad4 documentation).
                let zero = self.const_splat(rb, 0);
                let Some(bt) = self.basic_ty(rb.with_base(ScalarType::Bool)) else {
                    return unsupported(def, op, "bool vector");
                };
                let eight = self.const_u32(8);
                // Bit-field extracts take a base of the result's exact type.
                let (reference, source) = (
                    self.operand_as(op, 0, a[0], rb, t),
                    self.operand_as(op, 1, a[1], rb, t),
                );
                let mut acc = a[2];
                for i in 0..4u32 {
                    let off = self.const_u32(8 * i);
                    let r = self.un(S::BitFieldUExtract, t, &[reference, off, eight]);
                    let s = self.un(S::BitFieldUExtract, t, &[source, off, eight]);
                    let mx = self.id();
                    self.ext_to(GLOp::UMax, t, mx, &[r, s]);
                    let mn = self.id();
                    self.ext_to(GLOp::UMin, t, mn, &[r, s]);
                    let d = self.un(S::ISub, t, &[mx, mn]);
                    let nz = self.un(S::INotEqual, bt, &[r, zero]);
                    let sel = self.un(S::Select, t, &[nz, d, zero]);
                    if i == 3 {
                        self.emit_to(S::IAdd, t, id, &[acc, sel]);
                    } else {
                        acc = self.un(S::IAdd, t, &[acc, sel]);
                    }
                }
                Ok(())
            }
            _ => unsupported(def, op, "opcode"),
        }
    }

    // ---------------------------------------------------------------- finish

    fn finish(&mut self, entry: SsaDef, model: spirv::ExecutionModel) -> R<SpirvModule> {
        self.finish_push_data(entry)?;
        if let Some((a, b)) = shared_binding(&self.refl.resources) {
            let r = &self.refl.resources;
            let op = self.b.op(entry);
            return unsupported(
                entry,
                op,
                format!(
                    "{} and {} share descriptor set {}, binding {} (choose other register shifts)",
                    r[a].register_name(),
                    r[b].register_name(),
                    r[a].set,
                    r[a].binding
                ),
            );
        }
        let main = if self.stage == ShaderStage::Hull {
            self.hull_main(entry)?
        } else if self.stage == ShaderStage::Vertex
            && !self
                .refl
                .outputs
                .iter()
                .any(|o| o.builtin == Some(BuiltIn::PointSize.name()))
        {
            self.vertex_main(entry)?
        } else {
            match self.entry_fns.first() {
                Some(f) => self.v(*f),
                None => {
                    let op = self.b.op(entry);
                    return malformed(entry, op, "entry point without function");
                }
            }
        };
        if self.stage == ShaderStage::Compute
            && !self
                .modes
                .iter()
                .any(|m| m.0 == spirv::ExecutionMode::LocalSize as u32)
        {
            let op = self.b.op(entry);
            return malformed(entry, op, "a compute shader needs a SetCsWorkgroupSize");
        }
        if self.stage == ShaderStage::Geometry {
            use spirv::ExecutionMode as M;
            let ins = [
                M::InputPoints as u32,
                M::InputLines as u32,
                M::InputLinesAdjacency as u32,
                M::Triangles as u32,
                M::InputTrianglesAdjacency as u32,
            ];
            if self.modes.iter().filter(|m| ins.contains(&m.0)).count() != 1 {
                let op = self.b.op(entry);
                return malformed(
                    entry,
                    op,
                    "a geometry shader needs exactly one SetGsInputPrimitive",
                );
            }
            let outs = [
                M::OutputPoints as u32,
                M::OutputLineStrip as u32,
                M::OutputTriangleStrip as u32,
            ];
            if !self.modes.iter().any(|m| outs.contains(&m.0)) {
                self.modes.push((M::OutputPoints as u32, [0; 3], 0));
            }
            if !self.modes.iter().any(|m| m.0 == M::OutputVertices as u32) {
                self.modes.push((M::OutputVertices as u32, [1, 0, 0], 1));
            }
            // Vulkan wants the invocation count declared, also for one instance.
            if !self.modes.iter().any(|m| m.0 == M::Invocations as u32) {
                self.modes.push((M::Invocations as u32, [1, 0, 0], 1));
            }
        }
        if self.stage == ShaderStage::Pixel {
            self.modes
                .insert(0, (spirv::ExecutionMode::OriginUpperLeft as u32, [0; 3], 0));
        }
        // Everything before the annotations is only known now: write the module in one go.
        let name = self.opts.entry_point_name.as_str();
        let glsl_words = if self.glsl != 0 { 6 } else { 0 };
        let head = 5
            + 2 * self.caps.0.len()
            + self.exts.iter().map(|e| 1 + str_words(e)).sum::<usize>()
            + glsl_words
            + 3
            + 3
            + str_words(name)
            + self.s.globals.len() / 4
            + self.modes.iter().map(|m| 3 + m.2).sum::<usize>()
            + self.names_words;
        let mut out = Vec::with_capacity(head + self.s.len());
        out.extend_from_slice(&[spirv::MAGIC_NUMBER, 0x0001_0600, 0, 0, 0]);
        for c in &self.caps.0 {
            inst(&mut out, S::Capability, &[*c]);
        }
        for e in &self.exts {
            let st = begin(&mut out, S::Extension);
            push_str(&mut out, e);
            end(&mut out, st);
        }
        if self.glsl != 0 {
            let st = begin(&mut out, S::ExtInstImport);
            out.push(self.glsl);
            push_str(&mut out, "GLSL.std.450");
            end(&mut out, st);
        }
        inst(
            &mut out,
            S::MemoryModel,
            &[
                spirv::AddressingModel::Logical as u32,
                spirv::MemoryModel::Vulkan as u32,
            ],
        );
        {
            let st = begin(&mut out, S::EntryPoint);
            out.push(model as u32);
            out.push(main);
            push_str(&mut out, name);
            // The interface: every module-scope variable.
            let g = &self.s.globals;
            let mut i = 0;
            while let Some(&w) = g.get(i) {
                let len = (w >> 16) as usize;
                if w & 0xffff == S::Variable as u32 {
                    if let Some(&id) = g.get(i + 2) {
                        out.push(id);
                    }
                }
                i += len.max(1);
            }
            end(&mut out, st);
        }
        for (m, args, n) in &self.modes {
            let st = begin(&mut out, S::ExecutionMode);
            out.push(main);
            out.push(*m);
            out.extend_from_slice(&args[..*n]);
            end(&mut out, st);
        }
        // Debug names and semantics, straight from the IR.
        let mut refl = std::mem::take(&mut self.refl);
        {
            for op in self.late.iter().filter_map(|d| self.b.get(*d)) {
                match op.opcode {
                    OpCode::DebugName => {
                        let Some(t) = op.arg(0) else { continue };
                        let Some(slot) = self.slots.get(t.index()).filter(|s| s.defined) else {
                            continue;
                        };
                        // A name past SPIR-V's string limit is left out (names are optional).
                        if op.literals().len() * 8 > MAX_STRING_BYTES
                            && packed_str_len(op.literals()) > MAX_STRING_BYTES
                        {
                            continue;
                        }
                        let st = begin(&mut out, S::Name);
                        out.push(slot.id);
                        if !push_packed_str(&mut out, op.literals()) {
                            push_str(&mut out, &decode_packed_str(op.literals()));
                        }
                        end(&mut out, st);
                    }
                    OpCode::Semantic => {
                        let Some(Info::Var(vi)) = op.arg(0).and_then(|t| self.info(t)) else {
                            continue;
                        };
                        let list = if vi.sc == SC::Input {
                            &mut refl.inputs
                        } else {
                            &mut refl.outputs
                        };
                        let Some(info) = (vi.refl as usize)
                            .checked_sub(1)
                            .and_then(|i| list.get_mut(i))
                        else {
                            continue;
                        };
                        let idx = op.lit(0).unwrap_or(0) as u32;
                        let name = decode_packed_str(op.literals().get(1..).unwrap_or(&[]));
                        info.semantic = Some((name, idx));
                    }
                    _ => {}
                }
            }
        }
        self.s.append_to(&mut out);
        if let Some(b) = out.get_mut(3) {
            *b = self.next_id;
        }
        if self.next_id > MAX_ID_BOUND || self.private_vars > MAX_PRIVATE_VARIABLES {
            let op = self.b.op(entry);
            return unsupported(
                entry,
                op,
                format!(
                    "a module of {} ids and {} private variables (SPIR-V allows {MAX_ID_BOUND} \
                     and {MAX_PRIVATE_VARIABLES})",
                    self.next_id, self.private_vars
                ),
            );
        }
        if let Some(opcode) = first_oversized_instruction(&out) {
            let op = self.b.op(entry);
            let name =
                S::from_u32(opcode).map_or_else(|| format!("{opcode}"), |o| format!("Op{o:?}"));
            return unsupported(
                entry,
                op,
                format!("an {name} longer than SPIR-V's 65,535 words (too many operands)"),
            );
        }
        Ok(SpirvModule {
            words: out,
            reflection: refl,
        })
    }

    /// The joined hull shader entry: control point phase, barrier, patch constants on
    /// invocation 0.
    /// A vertex shader's entry point: writes `PointSize` 1.0 and calls the shader.
    ///
    /// Direct3D 10+ draws points one pixel wide and has no point size output, while Vulkan
    /// requires a vertex shader that feeds the rasterizer points to write `PointSize`. Writing
    /// it costs one store and is ignored for other primitives and when another stage follows.
    fn vertex_main(&mut self, entry: SsaDef) -> R<u32> {
        let Some(f) = self.entry_fns.first().copied() else {
            let op = self.b.op(entry);
            return malformed(entry, op, "entry point without function");
        };
        let void = self.void_ty();
        let fty = self.ty_key(TyKey::Func(smallvec::smallvec![void]));
        let f32_t = self.scalar_ty(ScalarType::F32).unwrap_or_default();
        let var = self.id();
        let p = self.ptr(SC::Output, f32_t);
        self.global_var(p, SC::Output, var, None);
        self.decorate(
            var,
            Decoration::BuiltIn,
            &[spirv::BuiltIn::PointSize as u32],
        );
        self.refl.outputs.push(InterfaceVariable {
            location: None,
            component: 0,
            builtin: Some(BuiltIn::PointSize.name()),
            semantic: None,
            patch: false,
        });
        let one = self.const_scalar(ScalarType::F32, u64::from(1.0f32.to_bits()));
        let main = self.id();
        let label = self.id();
        let fv = self.v(f);
        inst(self.f(), S::Function, &[void, main, 0, fty]);
        inst(self.f(), S::Label, &[label]);
        inst(self.f(), S::Store, &[var, one]);
        let r = self.id();
        inst(self.f(), S::FunctionCall, &[void, r, fv]);
        inst(self.f(), S::Return, &[]);
        inst(self.f(), S::FunctionEnd, &[]);
        Ok(main)
    }

    fn hull_main(&mut self, entry: SsaDef) -> R<u32> {
        let op = self.b.op(entry);
        let (Some(cp), Some(pc)) = (
            self.entry_fns.first().copied(),
            self.entry_fns.get(1).copied(),
        ) else {
            return malformed(entry, op, "hull shader needs two functions");
        };
        let void = self.void_ty();
        let fty = self.ty_key(TyKey::Func(smallvec::smallvec![void]));
        let u = self.u32_ty();
        let (inv, inv_ty) = match self.invocation_id_var {
            Some(v) => v,
            None => {
                let v = self.id();
                let p = self.ptr(SC::Input, u);
                self.global_var(p, SC::Input, v, None);
                self.decorate(
                    v,
                    Decoration::BuiltIn,
                    &[spirv::BuiltIn::InvocationId as u32],
                );
                (v, u)
            }
        };
        let main = self.id();
        let l0 = self.id();
        let l1 = self.id();
        let l2 = self.id();
        let c0 = self.const_u32(0);
        let wg = self.const_u32(spirv::Scope::Workgroup as u32);
        // AcquireRelease | OutputMemory | MakeAvailable | MakeVisible
        let sem = self.const_u32(0x8 | 0x1000 | 0x2000 | 0x4000);
        let bool_t = self.scalar_ty(ScalarType::Bool).unwrap_or_default();
        let cpv = self.v(cp);
        let pcv = self.v(pc);
        inst(self.f(), S::Function, &[void, main, 0, fty]);
        inst(self.f(), S::Label, &[l0]);
        let r = self.id();
        inst(self.f(), S::FunctionCall, &[void, r, cpv]);
        inst(self.f(), S::ControlBarrier, &[wg, wg, sem]);
        // (Loaded as declared; the compare takes either signedness.)
        let iv = self.un(S::Load, inv_ty, &[inv]);
        let is0 = self.un(S::IEqual, bool_t, &[iv, c0]);
        inst(self.f(), S::SelectionMerge, &[l2, 0]);
        inst(self.f(), S::BranchConditional, &[is0, l1, l2]);
        inst(self.f(), S::Label, &[l1]);
        let r2 = self.id();
        inst(self.f(), S::FunctionCall, &[void, r2, pcv]);
        inst(self.f(), S::Branch, &[l2]);
        inst(self.f(), S::Label, &[l2]);
        inst(self.f(), S::Return, &[]);
        inst(self.f(), S::FunctionEnd, &[]);
        Ok(main)
    }
}

/// True if a program of `stage` may hold `opcode` (see `OpCode::stages`; the validator
/// checks the same rule).
fn op_fits_stage(opcode: OpCode, stage: ShaderStage) -> bool {
    opcode
        .stages()
        .is_none_or(|m| m.contains(ShaderStageMask::from_stage(stage)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(class: RegisterClass, register: u32, binding: u32) -> ResourceBinding {
        ResourceBinding {
            class,
            space: 0,
            register,
            count: 1,
            set: 0,
            binding,
            descriptor_type: DescriptorType::SampledImage,
            name: None,
        }
    }

    #[test]
    fn shared_bindings_are_found_in_short_and_long_lists() {
        // Short lists are compared pairwise, long ones sorted: both find the first clash.
        for n in [3u32, 32, 33, 500] {
            let mut list: Vec<_> = (0..n)
                .map(|r| resource(RegisterClass::Srv, r, r + 1000))
                .collect();
            assert_eq!(shared_binding(&list), None, "{n}");
            list.push(resource(RegisterClass::Sampler, 1, 1001));
            assert_eq!(shared_binding(&list), Some((1, n as usize)), "{n}");
            list[n as usize].set = 1;
            assert_eq!(shared_binding(&list), None, "{n}");
        }
    }
}
