//! Type resolution: gives every `Unknown` type a real scalar type and lowers `ConsumeAs`.
//!
//! Runs on SSA IR. DXBC registers are untyped, so after SSA construction phis, undefs,
//! immediates, selects, composites and loads from untyped scratch, LDS or raw buffers may
//! still have `Unknown` (scalar or member) types, and typed code consumes them through
//! `ConsumeAs <type>`.
//!
//! ## Algorithm (linear: one scan, union-find, one fix-up scan)
//! [`run_with_scratch`] is these steps in order, each one function: `assign_type_variables`,
//! `record_edges` (1), `choose_types` (2), `fix_up` and `reinterpret_fixed_operands` (3).
//! 1. Every op whose type contains `Unknown` gets a *type variable*. Scanning the program once,
//!    each data-flow edge where a value must keep its scalar type — phi input to phi, select
//!    operands to result, composite members to composite, scratch/LDS/temp store to declaration
//!    to load, typed resource or I/O declaration to load, stored value to typed destination,
//!    return value to function, argument to parameter — either joins two variables
//!    (union-find) or records the typed end as a *hint* on the variable: a *definition hint*
//!    when the typed value flows into the variable, a *use hint* when the variable flows into a
//!    typed place (`ConsumeAs T`, a store to a typed declaration, an operand of typed
//!    arithmetic).
//! 2. Each class takes its single definition type if there is one, else its single use type,
//!    else — ambiguous or unconstrained — the unsigned integer of the common bit size (`u32`
//!    in practice), per the spec's "promoted to `u32` in case the type is ambiguous".
//! 3. A fix-up scan makes every edge consistent: a typed phi input, select operand, stored
//!    value or argument whose type differs from its class is converted (`Cast` for equal bit
//!    sizes, `Convert*` otherwise; constants are re-encoded instead); a load from a typed
//!    source keeps the source's type and is followed by a conversion to its class type.
//!    `ConsumeAs T x` is removed if `x` already has type `T`, else it becomes that conversion.
//!    `bool` to number gives all bits set for `true` (D3D's convention), number to `bool`
//!    tests the bits against zero.

use crate::op::{Op, Operand, SsaDef};
use crate::opcode::{Like, OpCode, ResultRule, TypeRule};
use crate::passes::error::PassError;
use crate::passes::util::{
    coerce, conversion_opcode, insertion_point_after, lit_mask, phi_value, replace_and_remove,
    PhiValue,
};
use crate::types::{ScalarType, Type};
use crate::Builder;
use crate::ResourceKind;

const PASS: &str = "resolve_types";
const NONE: u32 = u32::MAX;

#[derive(Default)]
struct Classes {
    parent: Vec<u32>,
    def_mask: Vec<u32>,
    use_mask: Vec<u32>,
}

impl Classes {
    fn clear(&mut self) {
        self.parent.clear();
        self.def_mask.clear();
        self.use_mask.clear();
    }

    fn add(&mut self) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.def_mask.push(0);
        self.use_mask.push(0);
        id
    }

    fn find(&mut self, mut x: u32) -> u32 {
        let mut root = x;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        while self.parent[x as usize] != root {
            let next = self.parent[x as usize];
            self.parent[x as usize] = root;
            x = next;
        }
        root
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[rb as usize] = ra;
            self.def_mask[ra as usize] |= self.def_mask[rb as usize];
            self.use_mask[ra as usize] |= self.use_mask[rb as usize];
        }
    }

    fn choose(&mut self, x: u32) -> ScalarType {
        let r = self.find(x) as usize;
        let mask = if self.def_mask[r] != 0 {
            self.def_mask[r]
        } else {
            self.use_mask[r]
        };
        if mask.count_ones() == 1 {
            if let Some(t) = ScalarType::from_code(mask.trailing_zeros() as u8) {
                return t;
            }
        }
        let mut size = None;
        for t in ScalarType::ALL {
            if mask & (1 << t as u32) != 0 {
                let s = t.bit_size();
                if size.is_none() {
                    size = s;
                } else if size != s {
                    size = Some(32);
                }
            }
        }
        match size {
            Some(8) => ScalarType::U8,
            Some(16) => ScalarType::U16,
            Some(64) => ScalarType::U64,
            _ => ScalarType::U32,
        }
    }
}

/// The single scalar type of all members of `ty`, if there is one and it is known.
fn uniform_base(ty: &Type) -> Option<ScalarType> {
    let mut members = ty.members().iter();
    let first = members.next()?.base();
    if first == ScalarType::Unknown || members.any(|m| m.base() != first) {
        return None;
    }
    Some(first)
}

/// The type reached by indexing `ty` with the constant address `addr` (null: `ty` itself).
fn indexed_type(b: &Builder, ty: Type, addr: Option<SsaDef>) -> Option<Type> {
    let Some(addr) = addr else { return Some(ty) };
    let op = b.get(addr)?;
    let mut t = ty;
    let count = op.ty.as_basic()?.vec_size() as usize;
    for i in 0..count {
        if t.is_array() {
            t = t.element_type();
        } else if t.is_struct() {
            let idx = if op.opcode == OpCode::Constant {
                op.operands.get(i)?.0 as usize
            } else {
                return None;
            };
            t = Type::basic(*t.members().get(idx)?);
        } else if t.is_vector() {
            t = Type::scalar(t.base_type()?);
        } else {
            return None;
        }
    }
    Some(t)
}

/// The declaration behind a descriptor operand (`DescriptorLoad %dcl %index`).
fn descriptor_dcl(b: &Builder, desc: Option<SsaDef>) -> Option<SsaDef> {
    let op = b.get(desc?)?;
    (op.opcode == OpCode::DescriptorLoad)
        .then(|| op.arg(0))
        .flatten()
}

/// True if the resource declaration `dcl` is typed (typed buffer or image): loads and stores
/// use its scalar type.
fn is_typed_resource(b: &Builder, dcl: SsaDef) -> bool {
    let Some(op) = b.get(dcl) else { return false };
    match op.opcode {
        OpCode::DclSrv | OpCode::DclUav => op
            .lit(3)
            .and_then(ResourceKind::from_literal)
            .is_some_and(|k| {
                !matches!(k, ResourceKind::BufferRaw | ResourceKind::BufferStructured)
            }),
        _ => false,
    }
}

/// True if every reference operand of `opcode` has its result's type: the opcode table's
/// [`TypeRule::Result`], or [`TypeRule::IntLikeResult`] (type resolution gives such an operand
/// the result's very type). Step 1 joins these operands to the result, step 3 converts them.
#[inline]
const fn same_type_operands(opcode: OpCode) -> bool {
    SAME_TYPE_OPERANDS[opcode as usize]
}

/// [`same_type_operands`] per opcode, from the table.
const SAME_TYPE_OPERANDS: [bool; OpCode::ALL.len()] = {
    let mut table = [false; OpCode::ALL.len()];
    let mut k = 0;
    while k < OpCode::ALL.len() {
        let info = OpCode::ALL[k].info();
        let mut same = !info.refs.is_empty() && info.ref_tail.is_empty();
        let mut i = 0;
        while i < info.refs.len() {
            let r = &info.refs[i];
            same &= matches!(r.ty, TypeRule::Result | TypeRule::IntLikeResult)
                && matches!(r.like, Like::Free);
            i += 1;
        }
        table[k] = same;
        k += 1;
    }
    table
};

/// A value-flow edge: the value `src` flows into the place `dst`, which has the same scalar
/// type. Either end may be typed; `dst_ty` overrides the type of `dst` when only part of it is
/// reached (an indexed load or store).
struct Scan<'b, 's> {
    b: &'b Builder,
    var: &'s mut Vec<u32>,
    classes: &'s mut Classes,
}

impl Scan<'_, '_> {
    fn var_of(&self, d: SsaDef) -> Option<u32> {
        self.var.get(d.index()).copied().filter(|&v| v != NONE)
    }

    fn base_of(&self, d: SsaDef) -> Option<ScalarType> {
        self.b.get(d).and_then(|op| uniform_base(&op.ty))
    }

    fn hint(&mut self, v: u32, t: ScalarType, def: bool) {
        if t == ScalarType::Unknown || t == ScalarType::Void {
            return;
        }
        let r = self.classes.find(v) as usize;
        let mask = if def {
            &mut self.classes.def_mask
        } else {
            &mut self.classes.use_mask
        };
        mask[r] |= 1 << t as u32;
    }

    /// `src` flows into `dst`; `src_base`/`dst_base` override the typed ends' scalar types.
    fn flow_with(
        &mut self,
        src: Option<SsaDef>,
        dst: Option<SsaDef>,
        src_base: Option<ScalarType>,
        dst_base: Option<ScalarType>,
    ) {
        let (Some(src), Some(dst)) = (src, dst) else {
            return;
        };
        match (self.var_of(src), self.var_of(dst)) {
            (Some(a), Some(c)) => self.classes.union(a, c),
            (None, Some(c)) => {
                if let Some(t) = src_base.or_else(|| self.base_of(src)) {
                    self.hint(c, t, true);
                }
            }
            (Some(a), None) => {
                if let Some(t) = dst_base.or_else(|| self.base_of(dst)) {
                    self.hint(a, t, false);
                }
            }
            (None, None) => {}
        }
    }

    fn flow(&mut self, src: Option<SsaDef>, dst: Option<SsaDef>) {
        self.flow_with(src, dst, None, None);
    }
}

/// Runs type resolution; returns whether anything changed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    run_with_scratch(b, &mut Scratch::default())
}

/// The buffers of a run, kept by callers that compile many programs (the pipeline's
/// workspace) so that later runs allocate nothing.
#[derive(Default)]
pub struct Scratch {
    /// Per def id: its type variable, or `NONE`.
    var: Vec<u32>,
    classes: Classes,
    /// The ops in program order, for the fix-up scan (which inserts ops as it goes).
    ops: Vec<SsaDef>,
    /// Ops with an untyped operand of a fixed kind (see [`operand_need`]), found by step 1.
    needs: Vec<SsaDef>,
}

/// [`run`] with caller-kept buffers: the steps of the module documentation, in order.
pub fn run_with_scratch(b: &mut Builder, scratch: &mut Scratch) -> Result<bool, PassError> {
    let Scratch {
        var,
        classes,
        ops,
        needs,
    } = scratch;
    if !assign_type_variables(b, var, classes) {
        return Ok(false);
    }
    record_edges(b, var, classes, needs);
    choose_types(b, var, classes);
    fix_up(b, var, ops)?;
    reinterpret_fixed_operands(b, var, needs)?;
    Ok(true)
}

/// Before step 1: a type variable (a class of its own) for every op whose type contains
/// `Unknown`. Returns whether there is anything to do: a variable or a `ConsumeAs` to lower.
fn assign_type_variables(b: &Builder, var: &mut Vec<u32>, classes: &mut Classes) -> bool {
    var.clear();
    var.resize(b.id_bound(), NONE);
    classes.clear();
    let mut consume = false;
    for (def, op) in b.iter() {
        if op.ty.has_unknown() {
            var[def.index()] = classes.add();
        }
        consume |= op.opcode == OpCode::ConsumeAs;
    }
    consume || !classes.parent.is_empty()
}

/// Step 1: every value-flow edge joins two type variables or hints a typed end to one; ops
/// with an untyped operand of a fixed kind are collected in `needs` for
/// [`reinterpret_fixed_operands`].
fn record_edges(b: &Builder, var: &mut Vec<u32>, classes: &mut Classes, needs: &mut Vec<SsaDef>) {
    needs.clear();
    let mut scan = Scan { b, var, classes };
    let mut function: Option<SsaDef> = None;
    for (def, op) in b.iter() {
        // An untyped operand of a fixed kind: it is reinterpreted if its class took another
        // kind.
        let mut fixed = OPERANDS_OF_FIXED_KIND[op.opcode as usize];
        let mut untyped_fixed = false;
        while fixed != 0 && !untyped_fixed {
            untyped_fixed = op
                .arg(fixed.trailing_zeros() as usize)
                .is_some_and(|x| scan.var_of(x).is_some());
            fixed &= fixed - 1;
        }
        if untyped_fixed {
            needs.push(def);
        }
        scan.op_edges(def, op, &mut function, untyped_fixed);
    }
}

impl Scan<'_, '_> {
    /// The edges of one op (step 1); `function` is the function it is in (set here when the
    /// op starts one).
    #[inline]
    fn op_edges(
        &mut self,
        def: SsaDef,
        op: &Op,
        function: &mut Option<SsaDef>,
        untyped_fixed: bool,
    ) {
        let b = self.b;
        let d = Some(def);
        let a = |i| op.arg(i);
        match op.opcode {
            OpCode::Function => *function = d,
            OpCode::Phi => {
                for i in (1..op.ref_count()).step_by(2) {
                    self.flow(a(i), d);
                }
            }
            OpCode::Select => {
                self.flow(a(1), d);
                self.flow(a(2), d);
            }
            OpCode::CompositeConstruct if !op.ty.is_struct() => {
                for i in 0..op.ref_count() {
                    self.flow(a(i), d);
                }
            }
            OpCode::CompositeExtract => {
                let base = b
                    .get(op.arg(0).unwrap_or(def))
                    .and_then(|c| indexed_type(b, c.ty, a(1)))
                    .and_then(|t| uniform_base(&t));
                self.flow_with(a(0), d, base, None);
            }
            OpCode::CompositeInsert => {
                self.flow(a(0), d);
                if !op.ty.is_struct() {
                    self.flow(a(2), d);
                }
            }
            OpCode::Drain => self.flow(a(0), d),
            OpCode::TmpLoad
            | OpCode::ScratchLoad
            | OpCode::LdsLoad
            | OpCode::InputLoad
            | OpCode::OutputLoad
            | OpCode::PushDataLoad
            | OpCode::ConstantLoad => self.flow(a(0), d),
            OpCode::ParamLoad => self.flow(a(1), d),
            OpCode::TmpStore => self.flow(a(1), a(0)),
            OpCode::ScratchStore | OpCode::LdsStore | OpCode::OutputStore => self.flow(a(2), a(0)),
            OpCode::BufferLoad | OpCode::ImageLoad | OpCode::ImageSample | OpCode::ImageGather => {
                if let Some(dcl) = descriptor_dcl(b, a(0)).filter(|&x| is_typed_resource(b, x)) {
                    self.flow(Some(dcl), d);
                }
            }
            OpCode::BufferStore => {
                if let Some(dcl) = descriptor_dcl(b, a(0)).filter(|&x| is_typed_resource(b, x)) {
                    self.flow(a(2), Some(dcl));
                }
            }
            OpCode::ImageStore => {
                if let Some(dcl) = descriptor_dcl(b, a(0)).filter(|&x| is_typed_resource(b, x)) {
                    self.flow(a(3), Some(dcl));
                }
            }
            OpCode::LdsAtomic
            | OpCode::BufferAtomic
            | OpCode::MemoryAtomic
            | OpCode::ImageAtomic => {
                let operand = if op.opcode == OpCode::ImageAtomic {
                    a(3)
                } else {
                    a(2)
                };
                self.flow(operand, d);
                let dcl = match op.opcode {
                    OpCode::LdsAtomic => a(0),
                    _ => descriptor_dcl(b, a(0)).filter(|&x| is_typed_resource(b, x)),
                };
                self.flow(dcl, d);
            }
            OpCode::Return => self.flow(a(0), *function),
            OpCode::FunctionCall => {
                self.flow(a(0), d);
                if let Some(f) = a(0).and_then(|f| b.get(f)) {
                    for i in 1..op.ref_count() {
                        self.flow(a(i), f.arg(i - 1));
                    }
                }
            }
            OpCode::ConsumeAs => {
                if let (Some(x), Some(t)) = (a(0), uniform_base(&op.ty)) {
                    if let Some(v) = self.var_of(x) {
                        self.hint(v, t, false);
                    }
                }
            }
            // The selector has the case values' type.
            OpCode::Switch => self.flow(a(2), a(0)),
            code if same_type_operands(code) => {
                for i in 0..op.ref_count() {
                    self.flow(a(i), d);
                }
            }
            code if untyped_fixed && is_compare(code) => {
                // Compared values have one type.
                self.flow(a(0), a(1));
                self.flow(a(1), a(0));
            }
            _ => {}
        }
    }
}

/// Step 2: every class takes its type ([`Classes::choose`]), which replaces the `Unknown`
/// scalars of its members' types. The ops made after this have ids past `var`, so `var`
/// still tells which operands were untyped before.
fn choose_types(b: &mut Builder, var: &[u32], classes: &mut Classes) {
    for (i, &v) in var.iter().enumerate() {
        if v == NONE {
            continue;
        }
        let Some(def) = SsaDef::new(i as u32) else {
            continue;
        };
        let Some(ty) = b.get(def).map(|op| op.ty) else {
            continue;
        };
        let t = classes.choose(v);
        b.set_type(def, replace_unknown(ty, t));
    }
}

/// Step 3: every edge made consistent, in one scan over the ops as they were before it (it
/// inserts conversions as it goes); `ConsumeAs` lowered.
fn fix_up(b: &mut Builder, var: &mut Vec<u32>, ops: &mut Vec<SsaDef>) -> Result<(), PassError> {
    ops.clear();
    ops.extend(b.iter().map(|(d, _)| d));
    let mut function: Option<SsaDef> = None;
    for &def in ops.iter() {
        let Some(op) = b.get(def) else {
            continue;
        };
        if same_type_operands(op.opcode) {
            let (ty, n) = (op.ty, op.ref_count());
            fix_same_type_operands(b, var, def, ty, n)?;
        } else if op.opcode == OpCode::Function {
            function = Some(def);
        } else if needs_fix_up(op.opcode) {
            let op = op.clone();
            fix_up_op(b, var, def, &op, function)?;
        }
    }
    Ok(())
}

/// Step 3 for an op whose `n` operands all have its result type `ty`: each formerly untyped
/// operand converted to it.
#[inline]
fn fix_same_type_operands(
    b: &mut Builder,
    var: &[u32],
    def: SsaDef,
    ty: Type,
    n: usize,
) -> Result<(), PassError> {
    // Operand `i` is read before fixing it; fixing changes only that operand.
    for i in 0..n {
        if b.get(def)
            .and_then(|o| o.arg(i))
            .is_some_and(|x| was_unknown(var, x))
        {
            fix_operand(b, def, i, ty)?;
        }
    }
    Ok(())
}

/// Step 3 for one op of [`needs_fix_up`] (`op` is its copy from before the fix-up):
/// operands converted to what the op reads, results from typed sources converted to their
/// class type, `ConsumeAs` lowered. `function` is the function the op is in.
fn fix_up_op(
    b: &mut Builder,
    var: &mut Vec<u32>,
    def: SsaDef,
    op: &Op,
    function: Option<SsaDef>,
) -> Result<(), PassError> {
    match op.opcode {
        OpCode::Phi => {
            for i in (1..op.ref_count()).step_by(2) {
                fix_operand(b, def, i, op.ty)?;
            }
        }
        OpCode::Select => {
            fix_operand(b, def, 1, op.ty)?;
            fix_operand(b, def, 2, op.ty)?;
        }
        OpCode::CompositeConstruct => {
            for i in 0..op.ref_count() {
                let want = member_type(&op.ty, i, b.get(op.arg(i).unwrap_or(def)).map(|m| m.ty));
                if let Some(want) = want {
                    fix_operand(b, def, i, want)?;
                }
            }
        }
        OpCode::CompositeInsert => {
            fix_operand(b, def, 0, op.ty)?;
            if let Some(want) = indexed_type(b, op.ty, op.arg(1)) {
                fix_operand(b, def, 2, want)?;
            }
        }
        OpCode::CompositeExtract => {
            let want = op
                .arg(0)
                .and_then(|c| b.get(c))
                .and_then(|c| indexed_type(b, c.ty, op.arg(1)));
            if let Some(want) = want {
                fix_result(b, def, want)?;
            }
        }
        OpCode::TmpLoad
        | OpCode::ScratchLoad
        | OpCode::LdsLoad
        | OpCode::InputLoad
        | OpCode::OutputLoad
        | OpCode::PushDataLoad
        | OpCode::ConstantLoad
        | OpCode::ParamLoad => {
            let src = if op.opcode == OpCode::ParamLoad {
                op.arg(1)
            } else {
                op.arg(0)
            };
            if let Some(base) = src.and_then(|s| b.get(s)).and_then(|s| uniform_base(&s.ty)) {
                fix_result(b, def, op.ty.with_base(base))?;
            }
        }
        OpCode::BufferLoad | OpCode::ImageLoad | OpCode::ImageSample | OpCode::ImageGather
            if !op.ty.is_struct() =>
        {
            let base = descriptor_dcl(b, op.arg(0))
                .filter(|&x| is_typed_resource(b, x))
                .and_then(|x| b.get(x))
                .and_then(|x| uniform_base(&x.ty));
            if let Some(base) = base {
                fix_result(b, def, op.ty.with_base(base))?;
            }
        }
        OpCode::TmpStore | OpCode::ScratchStore | OpCode::LdsStore | OpCode::OutputStore => {
            let vi = if op.opcode == OpCode::TmpStore { 1 } else { 2 };
            fix_stored(b, def, vi, op.arg(0))?;
        }
        OpCode::BufferStore | OpCode::ImageStore => {
            let vi = if op.opcode == OpCode::BufferStore {
                2
            } else {
                3
            };
            if let Some(dcl) = descriptor_dcl(b, op.arg(0)).filter(|&x| is_typed_resource(b, x)) {
                fix_stored(b, def, vi, Some(dcl))?;
            }
        }
        OpCode::Return => {
            if let Some(fty) = function.and_then(|f| b.get(f)).map(|f| f.ty) {
                if op.arg(0).is_some() && !fty.is_void() {
                    fix_operand(b, def, 0, fty)?;
                }
            }
        }
        OpCode::FunctionCall => {
            let params: Vec<Option<Type>> = match op.arg(0).and_then(|f| b.get(f)) {
                Some(f) => (0..f.ref_count())
                    .map(|i| f.arg(i).and_then(|p| b.get(p)).map(|p| p.ty))
                    .collect(),
                None => Vec::new(),
            };
            for (i, p) in params.into_iter().enumerate() {
                if let Some(p) = p {
                    fix_operand(b, def, i + 1, p)?;
                }
            }
        }
        OpCode::ConsumeAs => {
            let replaced = lower_consume(b, def, op)?;
            // Removed in favour of a typed value, an untyped `ConsumeAs` leaves that value
            // where an untyped one was: its later users still get fixed up.
            if let Some(x) = replaced {
                if was_unknown(var, def) {
                    // `x` may be a constant folded just now, past the end of `var`.
                    if var.len() <= x.index() {
                        var.resize(x.index() + 1, NONE);
                    }
                    var[x.index()] = 0;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Step 3, last: operands of a fixed kind that were untyped, reinterpreted where their class
/// took another kind (the ops were found by step 1, so the fix-up scan pays nothing for
/// them).
fn reinterpret_fixed_operands(
    b: &mut Builder,
    var: &[u32],
    needs: &[SsaDef],
) -> Result<(), PassError> {
    for &def in needs {
        reinterpret_operands(b, def, var)?;
    }
    Ok(())
}

/// A formerly untyped operand (per `var`, the type variables of step 1) whose class took
/// another kind of scalar than `def` reads there (an untyped constant compared as an integer
/// and stored as a float): the bits are reinterpreted for this use. Loads and stores still get
/// their own fix-up after this. Out of line: it rarely does anything, and keeps the fix-up
/// loop small.
#[inline(never)]
fn reinterpret_operands(b: &mut Builder, def: SsaDef, var: &[u32]) -> Result<(), PassError> {
    let Some(op) = b.get(def) else {
        return Ok(());
    };
    let (opcode, result, n) = (op.opcode, op.ty, op.ref_count());
    for i in 0..n {
        let Some(need) = operand_need(opcode, i) else {
            continue;
        };
        let Some(x) = b
            .get(def)
            .and_then(|o| o.arg(i))
            .filter(|&x| was_unknown(var, x))
        else {
            continue;
        };
        let peer = match need {
            Need::Peer => b
                .get(def)
                .and_then(|o| o.arg(1 - i))
                .and_then(|p| b.get(p))
                .map(|p| p.ty),
            _ => None,
        };
        let cur = b.get(x).map(|x| x.ty);
        let want = cur.and_then(|cur| need.type_for(&cur, result, peer));
        if let Some(want) = want {
            reinterpret(b, def, i, x, want)?;
        }
        if let (Need::CastFrom, Some(from)) = (need, want.or(cur)) {
            if from.total_bits() != result.total_bits() {
                return Err(PassError::invalid(
                    PASS,
                    def,
                    format!("Cast of a {from} to {result}: the bit sizes differ"),
                ));
            }
        }
    }
    // Compared values have one type: a formerly untyped value of another bit size than the
    // value it is compared with (a 32-bit loop counter and an `f16`) cannot be reinterpreted.
    if is_compare(opcode) && n == 2 {
        let ty = |i: usize| {
            b.get(def)
                .and_then(|o| o.arg(i))
                .and_then(|x| b.get(x))
                .map(|x| x.ty)
        };
        if let (Some(l), Some(r)) = (ty(0), ty(1)) {
            // Integer compares take either signedness, at one bit size.
            let ints = |t: Type| t.base_type().filter(|s| s.is_int()).map(|s| s.bit_size());
            let same_ints =
                ints(l).is_some() && ints(l) == ints(r) && l.is_scalar() && r.is_scalar();
            if l != r && !same_ints {
                return Err(PassError::invalid(
                    PASS,
                    def,
                    format!("{opcode:?} compares a {l} with a {r}"),
                ));
            }
        }
    }
    Ok(())
}

/// True if `x` had an `Unknown` type before step 2 (per `var`, the type variables of step 1),
/// or stands where such a value stood.
fn was_unknown(var: &[u32], x: SsaDef) -> bool {
    var.get(x.index()).is_some_and(|&v| v != NONE)
}

/// Makes operand `i` of `user` (the value `x`) read as `want`: a `ConsumeAs` before `user`,
/// lowered at once (a cast, a conversion, a test against zero for `bool`, or a constant).
fn reinterpret(
    b: &mut Builder,
    user: SsaDef,
    i: usize,
    x: SsaDef,
    want: Type,
) -> Result<(), PassError> {
    let consume = Op::new(OpCode::ConsumeAs, want).with_ref(x);
    let c = b.add_before(user, consume.clone());
    b.set_operand(user, i, Operand::from_def(c));
    lower_consume(b, c, &consume)?;
    Ok(())
}

/// The kind of scalar an operand must be, whatever type resolution gave the value.
#[derive(Clone, Copy)]
enum Need {
    Float,
    Int,
    /// 32-bit integers (sparse feedback, image coordinates).
    Int32,
    /// 32-bit floats (sampling coordinates).
    Float32,
    Bool,
    /// The op's result type (the base of a shift or bit-field op).
    Result,
    /// The result's bit size, of another kind than the result (the operand of a `Cast`).
    CastFrom,
    /// The type of the other operand (integer compares: equal bit sizes).
    Peer,
}

impl Need {
    /// The type a value of type `cur` is reinterpreted as for this use (same shape and, but
    /// for `CastFrom` and `Peer`, bit size; `bool` reads as a 32-bit number), or `None` if it
    /// already fits. `peer` is the other operand's type, for `Peer`.
    fn type_for(self, cur: &Type, result: Type, peer: Option<Type>) -> Option<Type> {
        let b = cur.as_basic()?;
        let base = b.base();
        let bits = base.bit_size().unwrap_or(32);
        let pick = |s16, s32, s64| match bits {
            16 => s16,
            64 => s64,
            _ => s32,
        };
        match self {
            Need::Float if !base.is_float() => Some(Type::basic(b.with_base(pick(
                ScalarType::F16,
                ScalarType::F32,
                ScalarType::F64,
            )))),
            Need::Int if !base.is_int() => Some(Type::basic(b.with_base(pick(
                ScalarType::U16,
                ScalarType::U32,
                ScalarType::U64,
            )))),
            Need::Int32 if !(base.is_int() && base.bit_size() == Some(32)) => {
                Some(Type::basic(b.with_base(ScalarType::U32)))
            }
            Need::Float32 if base != ScalarType::F32 => {
                Some(Type::basic(b.with_base(ScalarType::F32)))
            }
            Need::Bool if base != ScalarType::Bool => {
                Some(Type::basic(b.with_base(ScalarType::Bool)))
            }
            Need::Result if *cur != result => Some(result),
            Need::CastFrom => {
                let r = result.as_basic()?;
                let rbits = r.base().bit_size()?;
                if r.vec_size() != b.vec_size() {
                    // A cast that regroups components (vec2<u32> to f64) keeps the value's
                    // type; the caller checks that the bit sizes agree.
                    return None;
                }
                if base.bit_size() == Some(rbits) && base != r.base() {
                    return None;
                }
                let to = match (r.base().is_float(), rbits) {
                    (true, 16) => ScalarType::U16,
                    (true, 64) => ScalarType::U64,
                    (true, _) => ScalarType::U32,
                    (false, 16) => ScalarType::F16,
                    (false, 64) => ScalarType::F64,
                    (false, _) => ScalarType::F32,
                };
                Some(Type::basic(b.with_base(to)))
            }
            Need::Peer => {
                let p = peer
                    .and_then(|p| p.as_basic())
                    .filter(|p| p.base().is_int() && p.vec_size() == b.vec_size());
                match p {
                    Some(p) if !(base.is_int() && base.bit_size() == p.base().bit_size()) => {
                        Some(Type::basic(p))
                    }
                    Some(_) => None,
                    None => Need::Int.type_for(cur, result, None),
                }
            }
            _ => None,
        }
    }
}

/// What operand `i` of `opcode` must be, where that is fixed: the kind of scalar the opcode
/// table's [`TypeRule`] for it states (floats, integers, 32-bit integers or floats, `bool`,
/// the other compared operand's bit size, the result type for a shifted or bit-field base),
/// and for a `Cast` the result's bit size (the table leaves a cast's operand to its own
/// rule). Operands that take the result's type in an op whose operands all do are not here:
/// steps 1 and 3 handle those.
#[inline]
const fn operand_need(opcode: OpCode, i: usize) -> Option<Need> {
    if matches!(opcode, OpCode::Cast) {
        return if i == 0 { Some(Need::CastFrom) } else { None };
    }
    let Some(r) = opcode.info().ref_info(i) else {
        return None;
    };
    Some(match r.ty {
        TypeRule::FloatScalar | TypeRule::FloatPerComponent | TypeRule::FloatVector => Need::Float,
        TypeRule::BoolScalar | TypeRule::BoolPerComponent => Need::Bool,
        TypeRule::IntScalar
        | TypeRule::IntPerComponent
        | TypeRule::Address
        | TypeRule::ResourceAddress => Need::Int,
        TypeRule::ComparedInt => Need::Peer,
        TypeRule::Int32Scalar
        | TypeRule::U32
        | TypeRule::TexelCoord
        | TypeRule::TexelLayer
        | TypeRule::Offset => Need::Int32,
        TypeRule::SampleCoord | TypeRule::SampleLayer | TypeRule::Gradient | TypeRule::Vec2F32 => {
            Need::Float32
        }
        TypeRule::IntLikeResult if !same_type_operands(opcode) => Need::Result,
        TypeRule::IntLikeResult | TypeRule::Result | TypeRule::U64 | TypeRule::Any => return None,
    })
}

/// Per opcode (indexed by code), a bit for each operand whose kind [`operand_need`] fixes, so
/// step 1 looks at those operands only. No opcode with such operands has more than eight.
const OPERANDS_OF_FIXED_KIND: [u8; OpCode::ALL.len()] = {
    let mut table = [0u8; OpCode::ALL.len()];
    let mut k = 0;
    while k < OpCode::ALL.len() {
        let opcode = OpCode::ALL[k];
        let mut i = 0;
        while i < 8 {
            if operand_need(opcode, i).is_some() {
                table[opcode as usize] |= 1 << i;
            }
            i += 1;
        }
        k += 1;
    }
    table
};

/// Comparisons of two values of one type: a `bool` from two operands, the second like the
/// first (the opcode table's [`Like`]).
fn is_compare(opcode: OpCode) -> bool {
    let info = opcode.info();
    info.result == ResultRule::Bool
        && info.refs.len() == 2
        && info.refs.get(1).is_some_and(|r| r.like != Like::Free)
}

/// Opcodes the fix-up scan handles besides [`same_type_operands`]: exactly those `fix_up_op`
/// has an arm for (a filter that saves cloning every other op; the arms are this pass's
/// algorithm, not facts about the opcodes).
fn needs_fix_up(opcode: OpCode) -> bool {
    use OpCode as O;
    matches!(
        opcode,
        O::Function
            | O::Phi
            | O::Select
            | O::CompositeConstruct
            | O::CompositeInsert
            | O::CompositeExtract
            | O::TmpLoad
            | O::ScratchLoad
            | O::LdsLoad
            | O::InputLoad
            | O::OutputLoad
            | O::PushDataLoad
            | O::ConstantLoad
            | O::ParamLoad
            | O::BufferLoad
            | O::ImageLoad
            | O::ImageSample
            | O::ImageGather
            | O::TmpStore
            | O::ScratchStore
            | O::LdsStore
            | O::OutputStore
            | O::BufferStore
            | O::ImageStore
            | O::Return
            | O::FunctionCall
            | O::ConsumeAs
    )
}

/// `ty` with every `Unknown` member base replaced by `t`.
fn replace_unknown(ty: Type, t: ScalarType) -> Type {
    if !ty.has_unknown() {
        return ty;
    }
    let members: Vec<_> = ty
        .members()
        .iter()
        .map(|m| {
            if m.base() == ScalarType::Unknown {
                m.with_base(t)
            } else {
                *m
            }
        })
        .collect();
    let Ok(mut out) = Type::structure(&members) else {
        return ty.with_base(t);
    };
    for &d in ty.dims() {
        match out.array_of(d) {
            Ok(o) => out = o,
            Err(_) => return ty.with_base(t),
        }
    }
    out
}

/// The type operand `i` of a `CompositeConstruct` of type `ty` must have.
fn member_type(ty: &Type, i: usize, operand: Option<Type>) -> Option<Type> {
    if ty.is_array() {
        return Some(ty.element_type());
    }
    if ty.is_struct() {
        return ty.members().get(i).map(|m| Type::basic(*m));
    }
    let base = ty.base_type()?;
    let n = operand?.as_basic()?.vec_size();
    Some(Type::vector(base, n))
}

/// Converts operand `i` of `user` to type `want` if its type differs.
fn fix_operand(b: &mut Builder, user: SsaDef, i: usize, want: Type) -> Result<(), PassError> {
    let Some(x) = b.get(user).and_then(|op| op.arg(i)) else {
        return Ok(());
    };
    let Some(xty) = b.get(x).map(|o| o.ty) else {
        return Err(PassError::invalid(
            PASS,
            user,
            format!("operand {i} refers to a missing op"),
        ));
    };
    if xty == want || xty.is_void() {
        return Ok(());
    }
    if xty.without_arrays() != xty || want.without_arrays() != want || xty.is_struct() {
        // Aggregates cannot be converted; their members were unified instead.
        return Ok(());
    }
    let c = coerce(b, PASS, x, want)?;
    b.set_operand(user, i, Operand::from_def(c));
    Ok(())
}

/// Converts the stored value (operand `vi`) to the scalar type of the destination `dst`.
fn fix_stored(
    b: &mut Builder,
    store: SsaDef,
    vi: usize,
    dst: Option<SsaDef>,
) -> Result<(), PassError> {
    let Some(base) = dst.and_then(|d| b.get(d)).and_then(|d| uniform_base(&d.ty)) else {
        return Ok(());
    };
    let Some(vty) = b
        .get(store)
        .and_then(|op| op.arg(vi))
        .and_then(|v| b.get(v))
        .map(|v| v.ty)
    else {
        return Ok(());
    };
    if vty.is_basic() {
        fix_operand(b, store, vi, vty.with_base(base))?;
    }
    Ok(())
}

/// Makes `def` produce `want` (the type its source dictates) and converts the result to the
/// type its class chose, for all existing uses.
fn fix_result(b: &mut Builder, def: SsaDef, want: Type) -> Result<(), PassError> {
    let Some(cur) = b.get(def).map(|op| op.ty) else {
        return Ok(());
    };
    if cur == want || !cur.is_basic() || !want.is_basic() {
        return Ok(());
    }
    let (Some(from), Some(to)) = (want.base_type(), cur.base_type()) else {
        return Ok(());
    };
    let Some(code) = conversion_opcode(from, to) else {
        return Err(PassError::invalid(
            PASS,
            def,
            format!("cannot convert {want} to {cur}"),
        ));
    };
    b.set_type(def, want);
    let pos = insertion_point_after(b, def);
    let c = b.add_after(pos, Op::new(code, cur).with_ref(def));
    b.replace_uses(def, c);
    b.set_operand(c, 0, Operand::from_def(def));
    Ok(())
}

/// `def`, a `ConsumeAs` of the phi `x` now of its own type, is an operand of `x`: the phi takes
/// its own value there, which the IR does not express (an op never names itself). Such a phi
/// is trivial if its other operands are one value, which then replaces both; otherwise this is
/// an error. If that value is a phi that took `x`'s value, it now names itself and is trivial
/// in turn, and so on. Returns the value left in their place.
fn remove_self_loop(b: &mut Builder, def: SsaDef, x: SsaDef) -> Result<SsaDef, PassError> {
    if b.get(x).is_none_or(|o| o.opcode != OpCode::Phi) {
        return Err(PassError::invalid(
            PASS,
            def,
            format!("{x} uses its own retyping"),
        ));
    }
    let mut v = other_phi_value(b, x, def)?;
    replace_and_remove(b, def, v);
    replace_and_remove(b, x, v);
    while b
        .get(v)
        .is_some_and(|o| o.opcode == OpCode::Phi && o.operands.iter().any(|p| p.def() == Some(v)))
    {
        let w = other_phi_value(b, v, v)?;
        replace_and_remove(b, v, w);
        v = w;
    }
    Ok(v)
}

/// The one value the phi `x` takes besides itself and `through` (its own value under another
/// name), or an error if it takes several or none.
fn other_phi_value(b: &Builder, x: SsaDef, through: SsaDef) -> Result<SsaDef, PassError> {
    let values = b
        .get(x)
        .map_or(PhiValue::Nothing, |phi| phi_value(phi, x, through));
    match values {
        PhiValue::Only(v) => Ok(v),
        PhiValue::Nothing => Err(PassError::invalid(PASS, x, "phi has no value but its own")),
        PhiValue::Several => Err(PassError::invalid(
            PASS,
            x,
            format!("phi takes its own value through {through} and other values"),
        )),
    }
}

/// Lowers `ConsumeAs T x` now that `x` is typed. Returns the value that replaced `def` where
/// `def` was removed rather than rewritten.
fn lower_consume(b: &mut Builder, def: SsaDef, op: &Op) -> Result<Option<SsaDef>, PassError> {
    let x = op
        .arg(0)
        .ok_or_else(|| PassError::invalid(PASS, def, "ConsumeAs without operand"))?;
    let xty = b
        .get(x)
        .map(|o| o.ty)
        .ok_or_else(|| PassError::invalid(PASS, def, "ConsumeAs of a missing op"))?;
    if xty == op.ty {
        if b.uses(def).any(|u| u.user == x) {
            return remove_self_loop(b, def, x).map(Some);
        }
        replace_and_remove(b, def, x);
        return Ok(Some(x));
    }
    let (Some(from), Some(to)) = (xty.as_basic(), op.ty.as_basic()) else {
        return Err(PassError::invalid(
            PASS,
            def,
            format!("ConsumeAs {} of {xty}", op.ty),
        ));
    };
    if from.vec_size() != to.vec_size() {
        return Err(PassError::invalid(
            PASS,
            def,
            format!("ConsumeAs {} of {xty}: vector sizes differ", op.ty),
        ));
    }
    let (fs, ts) = (from.base(), to.base());
    if let Some(code) = conversion_opcode(fs, ts) {
        // A constant operand folds to a constant of the new type right away.
        if let Some(c) = b
            .get(x)
            .filter(|o| o.opcode == OpCode::Constant)
            .and_then(|o| crate::passes::util::convert_literals(&o.operands, fs, ts))
            // An out-of-range address stays a run-time conversion.
            .filter(|c| !crate::passes::util::address_leaves_a_composite(b, def, c))
        {
            let c = b.add_constant(op.ty, &c);
            replace_and_remove(b, def, c);
            return Ok(Some(c));
        }
        b.rewrite(def, Op::new(code, op.ty).with_ref(x).with_flags(op.flags));
        return Ok(None);
    }
    if from.is_vector() {
        return Err(PassError::invalid(
            PASS,
            def,
            format!("ConsumeAs {} of {xty}", op.ty),
        ));
    }
    let bool_ty = Type::scalar(ScalarType::Bool);
    if fs == ScalarType::Bool && ts.is_numeric() {
        let ones = b.add_constant(op.ty, &[lit_mask(ts)]);
        let zero = b.add_constant(op.ty, &[0]);
        b.rewrite(
            def,
            Op::new(OpCode::Select, op.ty)
                .with_ref(x)
                .with_ref(ones)
                .with_ref(zero),
        );
        return Ok(None);
    }
    if ts == ScalarType::Bool && fs.is_numeric() {
        let mut v = x;
        if fs.is_float() {
            let uint = match fs.bit_size() {
                Some(16) => ScalarType::U16,
                Some(64) => ScalarType::U64,
                _ => ScalarType::U32,
            };
            v = b.add_before(def, Op::new(OpCode::Cast, Type::scalar(uint)).with_ref(x));
        }
        let vt = b.get(v).map(|o| o.ty).unwrap_or(bool_ty);
        let zero = b.add_constant(vt, &[0]);
        b.rewrite(
            def,
            Op::new(OpCode::INe, bool_ty).with_ref(v).with_ref(zero),
        );
        return Ok(None);
    }
    Err(PassError::invalid(
        PASS,
        def,
        format!("ConsumeAs {} of {xty}", op.ty),
    ))
}

#[cfg(test)]
mod tests {
    use super::run;
    use crate::passes::test_util::check;

    #[test]
    fn consume_as_is_removed_cast_or_converted() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput vec4<u32> %1 0 0 0
%10 = Function void
%11 = Label None
%12 = InputLoad f32 %2 null
%13 = ConsumeAs f32 %12
%14 = FAdd f32 %13 %13
%15 = ConsumeAs u32 %14
%16 = ConsumeAs f64 %14
%17 = ConsumeAs i32 %14
%18 = ConvertFtoI u32 %16
%19 = Cast u32 %17
%20 = CompositeConstruct vec4<u32> %15 %18 %19 %15
%21 = OutputStore %3 null %20
%22 = Return void null
%23 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput vec4<u32> %1 0 0 0
%10 = Function void
%11 = Label None
%12 = InputLoad f32 %2 null
%14 = FAdd f32 %12 %12
%15 = Cast u32 %14
%16 = ConvertFtoF f64 %14
%17 = Cast i32 %14
%18 = ConvertFtoI u32 %16
%19 = Cast u32 %17
%20 = CompositeConstruct vec4<u32> %15 %18 %19 %15
%21 = OutputStore %3 null %20
%22 = Return void null
%23 = FunctionEnd
"#,
            run,
        );
    }

    /// An `Unknown` phi (a register written in both branches) takes the type of its typed
    /// input; the untyped immediate on the other edge is re-encoded as a constant of that type.
    #[test]
    fn unknown_phi_takes_type_of_its_inputs() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput f32 %1 0 0 0
%4 = Constant unknown 0x3f800000
%5 = Constant f32 0.0
%10 = Function void
%11 = Label %14 StructuredSelection
%12 = InputLoad f32 %2 null
%13 = FLt bool %12 %5
%15 = BranchConditional %13 %16 %14
%16 = Label None
%17 = FAdd f32 %12 %12
%18 = Branch %14
%14 = Label None
%19 = Phi unknown %11 %4 %16 %17
%20 = ConsumeAs f32 %19
%21 = OutputStore %3 null %20
%22 = Return void null
%23 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput f32 %1 0 0 0
%4 = Constant f32 1.0
%5 = Constant f32 0.0
%10 = Function void
%11 = Label %14 StructuredSelection
%12 = InputLoad f32 %2 null
%13 = FLt bool %12 %5
%15 = BranchConditional %13 %16 %14
%16 = Label None
%17 = FAdd f32 %12 %12
%18 = Branch %14
%14 = Label None
%19 = Phi f32 %11 %4 %16 %17
%21 = OutputStore %3 null %19
%22 = Return void null
%23 = FunctionEnd
"#,
            run,
        );
    }

    /// A loop counter: the phi, its update and the untyped immediates all become `i32` from
    /// the `ConsumeAs` uses alone, transitively through the back edge.
    #[test]
    fn loop_phi_resolved_from_uses_transitively() {
        let input = "
%1 = EntryPoint %10 Compute
%2 = Constant unknown 0
%3 = Constant unknown 1
%4 = Constant i32 8
%10 = Function void
%11 = Label None
%12 = Branch %13
%13 = Label %17 %16 StructuredLoop
%14 = Phi unknown %11 %2 %16 %20
%15 = Branch %18
%18 = Label None
%19 = ConsumeAs i32 %14
%21 = ConsumeAs i32 %3
%22 = IAdd i32 %19 %21
%23 = SLt bool %22 %4
%20 = Select unknown %23 %22 %14
%24 = Branch %16
%16 = Label None
%25 = BranchConditional %23 %13 %17
%17 = Label None
%26 = Return void null
%27 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Compute
%2 = Constant i32 0
%3 = Constant i32 1
%4 = Constant i32 8
%10 = Function void
%11 = Label None
%12 = Branch %13
%13 = Label %17 %16 StructuredLoop
%14 = Phi i32 %11 %2 %16 %20
%15 = Branch %18
%18 = Label None
%22 = IAdd i32 %14 %3
%23 = SLt bool %22 %4
%20 = Select i32 %23 %22 %14
%24 = Branch %16
%16 = Label None
%25 = BranchConditional %23 %13 %17
%17 = Label None
%26 = Return void null
%27 = FunctionEnd
"#,
            run,
        );
    }

    /// Used as `f32` and as `i32`: ambiguous, so the value becomes `u32` and each use a `Cast`.
    #[test]
    fn untyped_value_compared_as_an_integer_and_stored_as_a_float() {
        // Found by the ir_compile fuzz target: the constant's class became f32 (it reaches a
        // float output through the select), and INe then read an f32.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput f32 %1 0 0 0
%3 = Constant unknown 0
%4 = Constant u32 0
%5 = Constant bool true
%10 = Function void
%11 = Label None
%12 = INe bool %3 %4
%13 = Select unknown %5 %3 %3
%14 = ConsumeAs f32 %13
%15 = OutputStore %2 null %14
%16 = Return void null
%17 = FunctionEnd
";
        let b = resolved(input);
        assert_eq!(operand_type(&b, crate::OpCode::INe, 0), "u32");
    }

    /// Runs the pass on `input` and returns the result, which must validate.
    fn resolved(input: &str) -> crate::Builder {
        let mut b = crate::text::parse(input).expect("parse");
        run(&mut b).unwrap_or_else(|e| panic!("{e}\n{}", crate::text::print(&b)));
        crate::validate::validate(&b, crate::validate::Level::Structural)
            .unwrap_or_else(|e| panic!("{e:?}\n{}", crate::text::print(&b)));
        b
    }

    /// The type of operand `i` of the first op with `opcode`.
    fn operand_type(b: &crate::Builder, opcode: crate::OpCode, i: usize) -> String {
        let (_, op) = b
            .iter()
            .find(|(_, o)| o.opcode == opcode)
            .unwrap_or_else(|| panic!("no {opcode:?}"));
        let x = op.arg(i).and_then(|x| b.get(x)).expect("operand");
        x.ty.to_string()
    }

    #[test]
    fn untyped_operands_of_a_fixed_kind_are_reinterpreted() {
        // From the ir_compile fuzz target: untyped values whose classes took f32 or u32 read
        // as a select condition, compared with a u64 and cast to a 16-bit float.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = Constant unknown 5
%4 = Constant u64 7
%5 = Constant u32 1
%6 = Constant unknown 6
%7 = Constant unknown 8
%8 = DclInput u32 %1 0 0 None
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %8 null
%9 = INe bool %12 %5
%13 = Select unknown %9 %3 %3
%14 = ConsumeAs f32 %13
%15 = Select u32 %3 %5 %5
%16 = INe bool %6 %4
%17 = Cast f16 %7
%18 = ConsumeAs f32 %7
%19 = Select u32 %16 %5 %15
%20 = OutputStore %2 null %19
%21 = Return void null
%22 = FunctionEnd
";
        let b = resolved(input);
        for (def, op) in b.iter() {
            if op.opcode == crate::OpCode::Select {
                let cond = op.arg(0).and_then(|x| b.get(x)).map(|x| x.ty.to_string());
                assert_eq!(cond.as_deref(), Some("bool"), "{def}");
            }
        }
        let (_, ine) = b
            .iter()
            .find(|(_, o)| o.opcode == crate::OpCode::INe && o.arg(1).is_some_and(|x| x.id() == 4))
            .expect("the u64 compare");
        let lhs = ine.arg(0).and_then(|x| b.get(x)).map(|x| x.ty.to_string());
        assert_eq!(lhs.as_deref(), Some("u64"));
        let (_, cast) = b
            .iter()
            .find(|(_, o)| o.opcode == crate::OpCode::Cast && o.ty.to_string() == "f16")
            .expect("the cast to f16");
        let from = cast.arg(0).and_then(|x| b.get(x)).map(|x| x.ty.to_string());
        assert_eq!(from.as_deref(), Some("u16"));
    }

    #[test]
    fn untyped_switch_selector_is_an_integer() {
        // From the ir_compile fuzz target: the selector's class took f32 from a select of
        // floats; a switch compares integers.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput u32 %1 0 0 Flat
%4 = Constant u32 1
%5 = Constant f32 2.0
%10 = Function void
%11 = Label %14 StructuredSelection
%6 = InputLoad u32 %2 null
%7 = INe bool %6 %4
%3 = Select unknown %7 %5 %5
%15 = Switch %3 %14 %4 %16
%16 = Label None
%17 = Branch %14
%14 = Label None
%18 = Return void null
%19 = FunctionEnd
";
        let b = resolved(input);
        let sel = operand_type(&b, crate::OpCode::Switch, 0);
        assert!(sel == "u32" || sel == "i32", "{sel}");
    }

    #[test]
    fn users_of_a_removed_untyped_consume_are_still_fixed_up() {
        // From the ir_compile fuzz target: `ConsumeAs unknown` of a u32 took u32 and was
        // removed; the f64 addition it fed then read the u32 itself.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = DclOutput f64 %1 1 0 0
%4 = Constant f64 2.0
%5 = Constant u32 1
%8 = DclInput u32 %1 0 0 None
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %8 null
%13 = ConsumeAs unknown %12
%14 = FAdd f64 %13 %4
%15 = IAdd u32 %13 %5
%16 = OutputStore %2 null %15
%17 = OutputStore %3 null %14
%18 = Return void null
%19 = FunctionEnd
";
        let b = resolved(input);
        assert_eq!(operand_type(&b, crate::OpCode::FAdd, 0), "f64");
    }

    #[test]
    fn loop_phi_retyped_to_itself_is_removed() {
        // From the ir_compile fuzz target: a loop phi whose back-edge value is a `ConsumeAs`
        // of the phi itself; once both are u32 the phi would name itself. It is trivial.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = Constant unknown 0
%4 = Constant bool true
%10 = Function void
%11 = Label None
%12 = Branch %13
%13 = Label %15 %14 StructuredLoop
%16 = Phi unknown %11 %3 %14 %17
%18 = Branch %14
%14 = Label None
%17 = ConsumeAs u32 %16
%19 = BranchConditional %4 %13 %15
%15 = Label None
%20 = OutputStore %2 null %16
%21 = Return void null
%22 = FunctionEnd
";
        let b = resolved(input);
        assert!(b.iter().all(|(_, o)| o.opcode != crate::OpCode::Phi));
        let (_, store) = b
            .iter()
            .find(|(_, o)| o.opcode == crate::OpCode::OutputStore)
            .expect("the store");
        let v = store.arg(2).and_then(|x| b.get(x)).expect("stored value");
        assert_eq!(
            (v.opcode, v.ty.to_string().as_str()),
            (crate::OpCode::Constant, "u32")
        );
    }

    #[test]
    fn phi_left_naming_itself_by_a_removed_loop_phi_is_removed_too() {
        // From the ir_compile fuzz target: the inner loop's phi takes the outer loop's phi and
        // its own retyping; once it is removed in favour of the outer phi, the outer phi names
        // itself on its back edge and is trivial as well.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = Constant unknown 0
%4 = Constant bool true
%10 = Function void
%11 = Label None
%12 = Branch %13
%13 = Label %15 %14 StructuredLoop
%16 = Phi unknown %11 %3 %14 %23
%18 = Branch %30
%30 = Label %32 %31 StructuredLoop
%23 = Phi unknown %13 %16 %31 %17
%24 = Branch %31
%31 = Label None
%17 = ConsumeAs u32 %23
%25 = BranchConditional %4 %30 %32
%32 = Label None
%26 = Branch %14
%14 = Label None
%19 = BranchConditional %4 %13 %15
%15 = Label None
%20 = OutputStore %2 null %16
%21 = Return void null
%22 = FunctionEnd
";
        let b = resolved(input);
        assert!(b.iter().all(|(_, o)| o.opcode != crate::OpCode::Phi));
        assert_eq!(operand_type(&b, crate::OpCode::OutputStore, 2), "u32");
    }

    #[test]
    fn untyped_value_stored_to_an_output_of_another_type_is_converted() {
        // The select's class is f32 (its inputs); the u32 output gets it through a cast.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput u32 %1 0 0 0
%4 = Constant bool true
%10 = Function void
%11 = Label None
%12 = InputLoad f32 %2 null
%13 = Select unknown %4 %12 %12
%14 = OutputStore %3 null %13
%15 = Return void null
%16 = FunctionEnd
";
        let mut b = crate::text::parse(input).expect("parse");
        run(&mut b).expect("resolve_types");
        let (_, store) = b
            .iter()
            .find(|(_, o)| o.opcode == crate::OpCode::OutputStore)
            .expect("the store");
        let value = store.arg(2).and_then(|x| b.get(x)).map(|x| x.ty);
        assert_eq!(
            value,
            Some(crate::types::Type::scalar(crate::ScalarType::U32)),
            "{}",
            crate::text::print(&b)
        );
    }

    #[test]
    fn ambiguous_value_is_promoted_to_u32() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput vec2<u32> %1 0 0 0
%3 = Constant unknown 5
%10 = Function void
%11 = Label None
%12 = ConsumeAs f32 %3
%13 = ConsumeAs i32 %3
%14 = FAdd f32 %12 %12
%15 = IAdd i32 %13 %13
%16 = Cast u32 %14
%17 = Cast u32 %15
%18 = CompositeConstruct vec2<u32> %16 %17
%19 = OutputStore %2 null %18
%20 = Return void null
%21 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclOutput vec2<u32> %1 0 0 0
%3 = Constant u32 5
%22 = Constant f32 7e-45
%23 = Constant i32 5
%10 = Function void
%11 = Label None
%14 = FAdd f32 %22 %22
%15 = IAdd i32 %23 %23
%16 = Cast u32 %14
%17 = Cast u32 %15
%18 = CompositeConstruct vec2<u32> %16 %17
%19 = OutputStore %2 null %18
%20 = Return void null
%21 = FunctionEnd
"#,
            run,
        );
    }

    /// Typed inputs of different types meet in one phi: the phi becomes `u32` and the inputs
    /// are cast right after their definitions.
    #[test]
    fn conflicting_phi_inputs_are_cast() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput u32 %1 0 0 0
%4 = Constant i32 7
%10 = Function void
%11 = Label %14 StructuredSelection
%12 = InputLoad f32 %2 null
%13 = FIsNan bool %12
%15 = BranchConditional %13 %16 %14
%16 = Label None
%17 = IAdd i32 %4 %4
%18 = Branch %14
%14 = Label None
%19 = Phi unknown %11 %12 %16 %17
%20 = OutputStore %3 null %19
%22 = Return void null
%23 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput u32 %1 0 0 0
%4 = Constant i32 7
%10 = Function void
%11 = Label %14 StructuredSelection
%12 = InputLoad f32 %2 null
%24 = Cast u32 %12
%13 = FIsNan bool %12
%15 = BranchConditional %13 %16 %14
%16 = Label None
%17 = IAdd i32 %4 %4
%25 = Cast u32 %17
%18 = Branch %14
%14 = Label None
%19 = Phi u32 %11 %24 %16 %25
%20 = OutputStore %3 null %19
%22 = Return void null
%23 = FunctionEnd
"#,
            run,
        );
    }

    /// Loads from typed resources and declarations take the declared scalar type; untyped
    /// scratch takes the type of what is stored into it.
    #[test]
    fn resource_and_scratch_types_propagate() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclSrv f32 %1 0 0 1 BufferTyped
%3 = DclScratch unknown[4] %1
%4 = DclOutput vec4<f32> %1 0 0 0
%5 = Constant u32 0
%6 = Constant u32 2
%10 = Function void
%11 = Label None
%12 = DescriptorLoad srv %2 %5
%13 = BufferLoad vec4<unknown> %12 %6 4
%14 = CompositeExtract unknown %13 %5
%15 = ScratchStore %3 %6 %14
%16 = ScratchLoad unknown %3 %5
%17 = ConsumeAs f32 %16
%18 = CompositeInsert vec4<f32> %13 %5 %17
%19 = OutputStore %4 null %18
%20 = Return void null
%21 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclSrv f32 %1 0 0 1 BufferTyped
%3 = DclScratch f32[4] %1
%4 = DclOutput vec4<f32> %1 0 0 0
%5 = Constant u32 0
%6 = Constant u32 2
%10 = Function void
%11 = Label None
%12 = DescriptorLoad srv %2 %5
%13 = BufferLoad vec4<f32> %12 %6 4
%14 = CompositeExtract f32 %13 %5
%15 = ScratchStore %3 %6 %14
%16 = ScratchLoad f32 %3 %5
%18 = CompositeInsert vec4<f32> %13 %5 %16
%19 = OutputStore %4 null %18
%20 = Return void null
%21 = FunctionEnd
"#,
            run,
        );
    }

    /// Booleans: consumed as an integer they become all bits set; numbers consumed as `bool`
    /// test their bits against zero.
    #[test]
    fn bool_consumption() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput u32 %1 0 0 0
%4 = Constant f32 1.0
%10 = Function void
%11 = Label None
%12 = InputLoad f32 %2 null
%13 = FLt bool %12 %4
%14 = ConsumeAs u32 %13
%15 = ConsumeAs bool %12
%16 = Select u32 %15 %14 %14
%17 = OutputStore %3 null %16
%18 = Return void null
%19 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput u32 %1 0 0 0
%4 = Constant f32 1.0
%20 = Constant u32 4294967295
%21 = Constant u32 0
%10 = Function void
%11 = Label None
%12 = InputLoad f32 %2 null
%13 = FLt bool %12 %4
%14 = Select u32 %13 %20 %21
%22 = Cast u32 %12
%15 = INe bool %22 %21
%16 = Select u32 %15 %14 %14
%17 = OutputStore %3 null %16
%18 = Return void null
%19 = FunctionEnd
"#,
            run,
        );
    }

    #[test]
    fn nothing_to_do_reports_unchanged() {
        let input = "
%1 = EntryPoint %10 Pixel
%10 = Function void
%11 = Label None
%12 = Return void null
%13 = FunctionEnd
";
        let (_, changed) = crate::passes::test_util::run_text(input, run);
        assert!(!changed);
    }

    #[test]
    fn consume_as_of_mismatched_vector_size_is_an_error() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = Constant vec4<f32> 1.0 2.0 3.0 4.0
%10 = Function void
%11 = Label None
%12 = ConsumeAs vec2<u32> %2
%13 = Return void null
%14 = FunctionEnd
";
        let mut b = crate::text::parse(input).unwrap();
        let err = run(&mut b).unwrap_err();
        assert_eq!(err.pass(), "resolve_types");
        assert!(err.to_string().contains("%12"), "{err}");
    }

    #[test]
    fn cast_of_an_untyped_value_keeps_the_bit_size() {
        // From the ir_compile fuzz target: an untyped 32-bit value cast to vec2<u32> cannot
        // be fixed by reinterpreting it; a regrouping cast of 64 bits keeps its source.
        let cast = |from: &str, untyped: &str, to: &str| {
            format!(
                "
%1 = EntryPoint %10 Pixel
%2 = DclInput {from} %1 0 0 Flat
%10 = Function void
%11 = Label None
%12 = InputLoad {from} %2 null
%13 = ConsumeAs {untyped} %12
%14 = Cast {to} %13
%15 = Return void null
%16 = FunctionEnd
"
            )
        };
        let mut b = crate::text::parse(&cast("u32", "unknown", "vec2<u32>")).expect("parse");
        let err = run(&mut b).expect_err("32 bits cast to 64");
        assert!(err.to_string().contains("%14"), "{err}");
        assert!(err.to_string().contains("bit sizes differ"), "{err}");
        let b = resolved(&cast("vec2<f32>", "vec2<unknown>", "f64"));
        assert_eq!(operand_type(&b, crate::OpCode::Cast, 0), "vec2<f32>");
    }

    #[test]
    fn folded_constant_of_a_removed_consume_is_still_fixed_up() {
        // From the ir_compile fuzz target: `ConsumeAs unknown` of a u32 constant folds to a
        // new f32 constant (its class took f32); read as a select condition, that constant
        // must still become a bool.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput f32 %1 0 0 0
%3 = Constant u32 0
%4 = Constant unknown 1065353216
%10 = Function void
%11 = Label None
%12 = ConsumeAs unknown %3
%13 = Select unknown %12 %12 %4
%14 = ConsumeAs f32 %13
%15 = OutputStore %2 null %14
%16 = Return void null
%17 = FunctionEnd
";
        let b = resolved(input);
        assert_eq!(operand_type(&b, crate::OpCode::Select, 0), "bool");
    }

    #[test]
    fn untyped_logic_operands_read_as_bool() {
        // From the ir_compile fuzz target: an untyped constant read by a logic op and
        // consumed as a float took f32, and the logic op was left with a float operand.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput f32 %1 0 0 0
%3 = Constant f32 0.5
%4 = Constant unknown 0
%10 = Function void
%11 = Label None
%12 = FLt bool %3 %3
%13 = BAnd bool %12 %4
%14 = BNot bool %4
%15 = BOr bool %13 %14
%16 = Select f32 %15 %3 %3
%17 = ConsumeAs f32 %4
%18 = FAdd f32 %16 %17
%19 = OutputStore %2 null %18
%20 = Return void null
%21 = FunctionEnd
";
        let b = resolved(input);
        assert_eq!(operand_type(&b, crate::OpCode::BAnd, 1), "bool");
        assert_eq!(operand_type(&b, crate::OpCode::BNot, 0), "bool");
        assert_eq!(operand_type(&b, crate::OpCode::FAdd, 1), "f32");
    }

    #[test]
    fn untyped_sparse_feedback_is_a_32_bit_integer() {
        // From the ir_compile fuzz target: the feedback's untyped copy took u16 from a
        // `ConsumeAs u16`; CheckSparseAccess reads 32 bits.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput u32 %1 0 0 Flat
%3 = DclOutput u32 %1 0 0 0
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %2 null
%13 = ConsumeAs unknown %12
%14 = ConsumeAs u16 %13
%15 = CheckSparseAccess bool %13
%16 = Select u32 %15 %12 %12
%17 = OutputStore %3 null %16
%18 = Return void null
%19 = FunctionEnd
";
        let b = resolved(input);
        assert_eq!(operand_type(&b, crate::OpCode::CheckSparseAccess, 0), "u32");
    }

    #[test]
    fn untyped_constant_index_is_not_folded_out_of_range() {
        // From the ir_compile fuzz target: an untyped copy of the float 16.0 used as a vector
        // index read as the integer 0x41800000, a constant address past the end of a vec4.
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput vec4<f32> %1 0 0 Flat
%3 = DclOutput f32 %1 0 0 0
%4 = Constant f32 16.0
%10 = Function void
%11 = Label None
%12 = InputLoad vec4<f32> %2 null
%13 = ConsumeAs unknown %4
%14 = CompositeExtract f32 %12 %13
%15 = OutputStore %3 null %14
%16 = Return void null
%17 = FunctionEnd
";
        let b = resolved(input);
        let (_, extract) = b
            .iter()
            .find(|(_, o)| o.opcode == crate::OpCode::CompositeExtract)
            .expect("the extract");
        let index = extract.arg(1).and_then(|x| b.get(x)).expect("index");
        assert_ne!(index.opcode, crate::OpCode::Constant);
        assert_eq!(index.ty.to_string(), "u32");
    }
}
