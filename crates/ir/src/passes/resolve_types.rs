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
//!    arithmetic). When every variable is a constant that only `ConsumeAs` reads (DXBC's untyped
//!    immediate moves, the common case), those reads are the only such edges: they are found
//!    through the constants' uses, without the edges of every op.
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

use crate::census::Counted;
use crate::op::{Op, Operand, SsaDef};
use crate::opcode::{Like, OpCode, OpInfo, ResultRule, TypeRule};
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
    /// The op each variable was made for, in program order.
    defs: Vec<SsaDef>,
}

impl Classes {
    fn clear(&mut self) {
        self.parent.clear();
        self.def_mask.clear();
        self.use_mask.clear();
        self.defs.clear();
    }

    fn add(&mut self, def: SsaDef) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.def_mask.push(0);
        self.use_mask.push(0);
        self.defs.push(def);
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
        let info = OpCode::ALL[k].const_info();
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
    /// The ops the fix-up scan has a rule for, in program order, listed by step 1 (the scan
    /// inserts ops as it goes).
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
    record_edges(b, var, classes, needs, ops);
    choose_types(b, var, classes);
    fix_up(b, var, ops)?;
    reinterpret_fixed_operands(b, var, needs)?;
    Ok(true)
}

/// Before step 1: a type variable (a class of its own) for every op whose type contains
/// `Unknown`. Returns whether there is anything to do: a variable or a `ConsumeAs` to lower.
fn assign_type_variables(b: &Builder, var: &mut Vec<u32>, classes: &mut Classes) -> bool {
    let census = b.census();
    if !census.has(Counted::UnknownType) && !census.has(Counted::ConsumeAs) {
        return false;
    }
    var.clear();
    var.resize(b.id_bound(), NONE);
    classes.clear();
    // The census counts the ops with an `Unknown` type: the walk ends at the last of them.
    let mut left = census.count(Counted::UnknownType);
    let mut ops = b.iter();
    while left > 0 {
        let Some((def, op)) = ops.next() else {
            break;
        };
        if op.ty.has_unknown() {
            var[def.index()] = classes.add(def);
            left -= 1;
        }
    }
    census.has(Counted::ConsumeAs) || !classes.parent.is_empty()
}

/// Step 1: every value-flow edge joins two type variables or hints a typed end to one; ops
/// with an untyped operand of a fixed kind are collected in `needs` for
/// [`reinterpret_fixed_operands`], and the ops the fix-up scan has a rule for
/// ([`fix_up_kind`]) in `ops`, in program order.
fn record_edges(
    b: &Builder,
    var: &mut Vec<u32>,
    classes: &mut Classes,
    needs: &mut Vec<SsaDef>,
    ops: &mut Vec<SsaDef>,
) {
    needs.clear();
    ops.clear();
    if only_consumed_constants(b, classes) {
        // Every variable is a constant that only `ConsumeAs` reads (DXBC's untyped immediate
        // moves): those reads are the only edges that touch a variable, each a use hint, found
        // through the constants' uses instead of the edges of every op. No op has an untyped
        // operand of a fixed kind (a `ConsumeAs` operand is none).
        let mut scan = Scan { b, var, classes };
        for k in 0..scan.classes.defs.len() {
            let Some(&c) = scan.classes.defs.get(k) else {
                continue;
            };
            let Some(v) = scan.var_of(c) else {
                continue;
            };
            for u in b.uses(c) {
                if let Some(t) = b.get(u.user).and_then(|o| uniform_base(&o.ty)) {
                    scan.hint(v, t, false);
                }
            }
        }
        ops.extend(
            b.iter()
                .filter(|(_, op)| fix_up_kind(op.opcode))
                .map(|(d, _)| d),
        );
        return;
    }
    let mut scan = Scan { b, var, classes };
    let mut function: Option<SsaDef> = None;
    for (def, op) in b.iter() {
        // An untyped operand of a fixed kind: it is reinterpreted if its class took another
        // kind.
        let mut fixed = OPERANDS_OF_FIXED_KIND[op.opcode as usize];
        let mut untyped_fixed = false;
        if fixed != 0 {
            let refs = &op.operands[..op.ref_count()];
            while fixed != 0 && !untyped_fixed {
                untyped_fixed = refs
                    .get(fixed.trailing_zeros() as usize)
                    .and_then(|r| r.def())
                    .is_some_and(|x| scan.var_of(x).is_some());
                fixed &= fixed - 1;
            }
        }
        if untyped_fixed {
            needs.push(def);
        }
        if fix_up_kind(op.opcode) {
            ops.push(def);
        }
        scan.op_edges(def, op, &mut function, untyped_fixed);
    }
}

/// True if every type variable is a `Constant` whose only uses are the operand of a
/// `ConsumeAs` (an untyped immediate a typed op reads): then no edge of step 1 but those
/// reads' hints touches a variable (a constant has no operands, and no other op refers to
/// these).
fn only_consumed_constants(b: &Builder, classes: &Classes) -> bool {
    classes.defs.iter().all(|&c| {
        b.get(c).is_some_and(|op| op.opcode == OpCode::Constant)
            && b.uses(c).all(|u| {
                u.operand == 0 && b.get(u.user).is_some_and(|o| o.opcode == OpCode::ConsumeAs)
            })
    })
}

// The shortcut of [`record_edges`] collects no `needs`: a `ConsumeAs` operand is of no fixed
// kind.
const _: () = assert!(OPERANDS_OF_FIXED_KIND[OpCode::ConsumeAs as usize] == 0);

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
        // `op.arg`, with the reference count looked up once.
        let nrefs = op.ref_count();
        let refs = &op.operands[..nrefs];
        let a = |i: usize| refs.get(i).and_then(|r| r.def());
        match op.opcode {
            OpCode::Function => *function = d,
            OpCode::Phi => {
                for i in (1..nrefs).step_by(2) {
                    self.flow(a(i), d);
                }
            }
            OpCode::Select => {
                self.flow(a(1), d);
                self.flow(a(2), d);
            }
            OpCode::CompositeConstruct if !op.ty.is_struct() => {
                for i in 0..nrefs {
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
                    for i in 1..nrefs {
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
                for i in 0..nrefs {
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
    for k in 0..classes.defs.len() {
        let Some(&def) = classes.defs.get(k) else {
            continue;
        };
        let Some(&v) = var.get(def.index()) else {
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
/// inserts conversions as it goes); `ConsumeAs` lowered. `ops` are the ops of
/// [`fix_up_kind`] in program order, from step 1 (step 2 adds and removes none).
fn fix_up(b: &mut Builder, var: &mut Vec<u32>, ops: &[SsaDef]) -> Result<(), PassError> {
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
            // A copy (the fix-up changes the program): the operands are `Copy` words.
            let op = Op {
                opcode: op.opcode,
                flags: op.flags,
                ty: op.ty,
                operands: crate::op::Operands::from_slice(&op.operands),
            };
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
    // Operand `i` is read before fixing it; fixing changes only that operand. `n` is the
    // op's reference count, so operand `i` is its `arg(i)`.
    for i in 0..n {
        if b.get(def)
            .and_then(|o| o.operands.get(i))
            .and_then(|r| r.def())
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
        let Some(need) = operand_need(opcode, opcode.info(), i) else {
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
const fn operand_need(opcode: OpCode, info: &OpInfo, i: usize) -> Option<Need> {
    if matches!(opcode, OpCode::Cast) {
        return if i == 0 { Some(Need::CastFrom) } else { None };
    }
    let Some(r) = info.ref_info(i) else {
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
        | TypeRule::Vec4U32
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
            if operand_need(opcode, opcode.const_info(), i).is_some() {
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

/// True for the opcodes the fix-up scan does anything for: [`same_type_operands`], `Function`
/// (which it tracks) and [`needs_fix_up`]. Step 1 lists only these ops for it.
#[inline]
fn fix_up_kind(opcode: OpCode) -> bool {
    FIX_UP_KIND[opcode as usize]
}

/// [`fix_up_kind`] per opcode.
const FIX_UP_KIND: [bool; OpCode::ALL.len()] = {
    let mut table = [false; OpCode::ALL.len()];
    let mut k = 0;
    while k < OpCode::ALL.len() {
        let op = OpCode::ALL[k];
        table[k] = SAME_TYPE_OPERANDS[k] || needs_fix_up(op);
        k += 1;
    }
    table
};

/// Opcodes the fix-up scan handles besides [`same_type_operands`]: exactly those `fix_up_op`
/// has an arm for (a filter that saves cloning every other op; the arms are this pass's
/// algorithm, not facts about the opcodes).
const fn needs_fix_up(opcode: OpCode) -> bool {
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
        let want = vty.with_base(base);
        // Already of the destination's type (most stores): what `fix_operand` finds first.
        if want != vty {
            fix_operand(b, store, vi, want)?;
        }
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
mod tests;
