//! Memory access: LDS (`Workgroup`) and scratch (`Private`) variables, access chains built
//! from IR addresses, and loads and stores through them — of interface variables, LDS,
//! scratch and constant arrays (copied to `Private` variables), push data and buffers — and
//! buffer size queries.
//!
//! Under the Vulkan memory model, accesses to memory other invocations see (`Workgroup`,
//! `StorageBuffer`, `Uniform`) are `NonPrivatePointer`, and accesses to a globally coherent
//! UAV also `MakePointerAvailable` (stores) or `MakePointerVisible` (loads) at `QueueFamily`
//! scope. A value is bit-cast between numeric types of one width; a vector access to
//! consecutive scalars (a raw buffer's words, a scalar array) is split into one access per
//! component; an aggregate read from or written to explicitly laid-out memory is copied
//! between the laid-out and the plain type with `OpCopyLogical` (member by member before
//! SPIR-V 1.4). Under the `GLSL450` memory model accesses take no memory operands, and
//! buffers before SPIR-V 1.3 are in `Uniform` storage ([`Module::buffer_class`]).
//!
//! Memory that does not change while the shader runs (inputs, constant buffers, constant
//! arrays) is read a vector at a time: a scalar load of one component of a vector loads the
//! whole vector and extracts the component, and later loads of the block take their
//! components from that vector ([`VectorLoads`]). For an input this is never longer than an
//! access chain and a load; for a constant buffer it is done when the block reads the vector
//! again within a few ops. A construct of all of a vector's components in order is then the
//! vector itself (`alu.rs`).
//!
//! [`Module::buffer_class`]: super::module::Module::buffer_class

use super::control_flow::{Component, VectorKey, VectorLoads};
use super::error::{malformed, unsupported, R};
use super::interface::{IoWrap, VarInfo};
use super::resources::{DescInfo, ResKind};
use super::types::scalar_bits;
use super::Info;
use super::{constant_literals, Emitter};
use crate::words::{begin, end, inst, inst_tail};
use dxspv_ir::{BasicType, Op, OpCode, OpFlags, ScalarType, SsaDef, Type};
use smallvec::SmallVec;
use spirv::Capability;
use spirv::{Op as S, StorageClass as SC};

/// Up to six access-chain indices with their constant values where known.
#[derive(Clone, Copy)]
pub(super) struct Indices {
    /// The index ids; 0 for a constant (of the value in `vals`) not declared yet.
    pub(super) ids: [u32; 6],
    /// Their constant values, where known ([`Indices::val`]: bit `k` of `known` says
    /// whether `vals[k]` is one; kept apart so that the struct copies cheaply).
    vals: [u64; 6],
    /// Which of `vals` are known.
    known: u8,
    /// How many there are.
    pub(super) len: usize,
    /// Type of dynamic indices (for `+k` adjustments); 0 for a constant address.
    pub(super) idx_ty: u32,
    /// The scalar type of dynamic indices.
    pub(super) idx_base: ScalarType,
}

/// Checks that a value of type `value` can be loaded from or stored to a location of type
/// `at` (what the address reached): aggregates must match exactly; basic types must have
/// scalars of one bit size (the access bit-casts between them and splits vectors over
/// consecutive scalars). Other shapes are malformed IR, or not supported yet (64-bit values
/// over 32-bit words).
#[inline]
pub(super) fn access_fits(def: SsaDef, op: &Op, value: &Type, at: &Type, what: &str) -> R<()> {
    let fits = match (value.as_basic(), at.as_basic()) {
        (Some(v), Some(a)) => {
            let (vb, ab) = (v.base(), a.base());
            // Numbers of one bit size are cast; bools, descriptors and the like only meet
            // their own type.
            vb == ab || (vb.is_numeric() && ab.is_numeric() && scalar_bits(vb) == scalar_bits(ab))
        }
        _ => value == at,
    };
    if fits {
        Ok(())
    } else {
        access_misfit(def, op, value, at, what)
    }
}

/// The error of [`access_fits`]: a basic type that cannot be cast to the location's is not
/// supported; any other mismatch is malformed IR.
#[cold]
#[inline(never)]
fn access_misfit(def: SsaDef, op: &Op, value: &Type, at: &Type, what: &str) -> R<()> {
    if value.as_basic().is_some() && at.as_basic().is_some() {
        unsupported(def, op, format!("{what} {value} at {at}"))
    } else {
        malformed(
            def,
            op,
            format!("{what} {value} at {at}: the address must reach a location of that type"),
        )
    }
}

/// Whole vectors a block keeps for later loads of their components (the oldest is
/// forgotten first).
const LOADED_VECTORS: usize = 8;

/// Ops after a constant buffer load searched for another load of the same vector.
const LOOKAHEAD_OPS: usize = 24;

/// Marks a constant index by value in a [`VectorKey`].
const CONSTANT_KEY_TAG: u32 = 0x8000_0000;

/// The key of the vector `base` + `prefix` + the first `len` indices of `ix` reach, or
/// `None` when they are too many to key.
fn vector_key(base: u32, prefix: &[u32], ix: &Indices, len: usize) -> Option<VectorKey> {
    let mut key = [0; 5];
    key[0] = base;
    if prefix.len() + len > 4 {
        return None;
    }
    // An index is its id, or a constant not declared yet its value, tagged (ids stay below
    // SPIR-V's id bound, far under the tag).
    let indices = ix
        .ids
        .iter()
        .enumerate()
        .take(len)
        .map(|(k, &id)| match ix.val(k) {
            _ if id != 0 => Some(id),
            Some(v) if v < u64::from(CONSTANT_KEY_TAG) => Some(CONSTANT_KEY_TAG | v as u32),
            _ => None,
        });
    for (k, id) in key[1..]
        .iter_mut()
        .zip(prefix.iter().map(|&p| Some(p)).chain(indices))
    {
        *k = id?;
    }
    Some(key)
}

impl Indices {
    /// No indices (an access of the whole variable).
    pub(super) const NONE: Indices = Indices {
        ids: [0; 6],
        vals: [0; 6],
        known: 0,
        len: 0,
        idx_ty: 0,
        idx_base: ScalarType::U32,
    };

    /// Appends index `id` (of constant value `val`, if known); false when all six are taken.
    pub(super) fn push(&mut self, id: u32, val: Option<u64>) -> bool {
        let k = self.len;
        let (Some(i), Some(v)) = (self.ids.get_mut(k), self.vals.get_mut(k)) else {
            return false;
        };
        *i = id;
        *v = val.unwrap_or(0);
        // Branch-free: the bit of `k` cleared, then set for a known value.
        self.known = (self.known & !(1 << k)) | (u8::from(val.is_some()) << k);
        self.len += 1;
        true
    }

    /// The constant value of index `k`, if known.
    #[inline]
    pub(super) fn val(&self, k: usize) -> Option<u64> {
        let v = *self.vals.get(k)?;
        (self.known & (1 << k) != 0).then_some(v)
    }

    /// Sets the constant value of index `k` (`k < 6`).
    #[inline]
    fn set_val(&mut self, k: usize, val: Option<u64>) {
        if let Some(slot) = self.vals.get_mut(k) {
            *slot = val.unwrap_or(0);
            let bit = 1u8 << k;
            self.known = if val.is_some() {
                self.known | bit
            } else {
                self.known & !bit
            };
        }
    }
}

impl<'a> Emitter<'a> {
    /// The access-chain indices of the IR address `addr` (a scalar or vector of integers):
    /// constants where it is constant, its components extracted where it is a run-time vector.
    pub(super) fn indices(&mut self, def: SsaDef, op: &Op, addr: Option<SsaDef>) -> R<Indices> {
        let mut ix = Indices::NONE;
        self.fill_indices(def, op, addr, &mut ix)?;
        Ok(ix)
    }

    /// [`Self::indices`] written into `ix`, which must be [`Indices::NONE`] (the loads and
    /// stores keep theirs in place rather than copy them out of a result).
    pub(super) fn fill_indices(
        &mut self,
        def: SsaDef,
        op: &Op,
        addr: Option<SsaDef>,
        ix: &mut Indices,
    ) -> R<()> {
        let Some(a) = addr else {
            return Ok(());
        };
        let Some(aop) = self.op_of(a) else {
            return malformed(def, op, "address operand missing");
        };
        let Some(bt) = aop.ty.as_basic().filter(|b| b.base().is_int()) else {
            return malformed(def, op, format!("address of type {}", aop.ty));
        };
        if aop.opcode == OpCode::Constant {
            // Its type is declared with the constants, if an access chain needs them.
            ix.idx_base = bt.base();
        } else if let Some(t) = self.module.scalar_ty(bt.base()) {
            ix.idx_ty = t;
            ix.idx_base = bt.base();
        } else {
            ix.idx_ty = self.module.u32_ty();
        }
        let n = bt.vec_size() as usize;
        let ok = match aop.opcode {
            OpCode::Constant => {
                // The index constants are declared when an access chain needs them
                // ([`Self::chain`]): an access that reads a whole vector needs none.
                let mut ok = true;
                for k in 0..n {
                    let v = constant_literals(aop).get(k).map_or(0, |l| l.0);
                    ok &= ix.push(0, Some(v));
                }
                ok
            }
            OpCode::CompositeConstruct if n > 1 => {
                let mut ok = true;
                for c in aop.refs().flatten() {
                    let val = self
                        .op_of(c)
                        .filter(|o| o.opcode == OpCode::Constant)
                        .and_then(|o| constant_literals(o).first().map(|l| l.0));
                    let id = self.v(c);
                    ok &= ix.push(id, val);
                }
                ok
            }
            // An address any other op computes is a run-time index (or vector of them).
            _ if n == 1 => ix.push(self.v(a), None),
            _ => {
                let mut ok = true;
                let st = ix.idx_ty;
                let av = self.v(a);
                for k in 0..n {
                    let id = self.module.un(S::CompositeExtract, st, &[av, k as u32]);
                    ok &= ix.push(id, None);
                }
                ok
            }
        };
        if !ok {
            return unsupported(def, op, "address with more than six indices");
        }
        Ok(())
    }

    /// Access chain from `base` (a pointer to IR type `ty` in `sc`), with `prefix` indices
    /// first. Returns the pointer (base itself when no indices) and the pointee IR type.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chain(
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
            match t.index_into(ix.val(k)) {
                Some(n) => t = n,
                None => return malformed(def, op, format!("address does not fit type {ty}")),
            }
        }
        if prefix.is_empty() && ix.len == 0 {
            return Ok((base, t));
        }
        let Some(pt) = self.module.ty(&t, layout) else {
            return unsupported(def, op, format!("type {t}"));
        };
        let mut ids = ix.ids;
        for (k, id) in ids.iter_mut().enumerate().take(ix.len) {
            if *id == 0 {
                *id = self
                    .module
                    .const_scalar(ix.idx_base, ix.val(k).unwrap_or(0));
            }
        }
        let ptr = self.module.ptr(sc, pt);
        let id = self.module.id();
        let f = &mut self.module.sections.functions;
        let st = begin(f, S::AccessChain);
        f.extend_from_slice(&[ptr, id, base]);
        f.extend_from_slice(prefix);
        f.extend_from_slice(&ids[..ix.len]);
        end(f, st);
        Ok((id, t))
    }

    /// Memory operands of a load (`store == false`) or store through a pointer into `sc`:
    /// `NonPrivatePointer` for shared memory and storage buffers (not constant buffers), plus `MakePointerVisible` /
    /// `MakePointerAvailable` at `QueueFamily` scope while a globally coherent UAV is
    /// accessed
    /// ([`FunctionState::coherent_access`](super::control_flow::FunctionState::coherent_access)).
    /// Under the `GLSL450` memory model there are none: shared memory is not private there,
    /// and a coherent UAV is decorated `Coherent` instead.
    pub(super) fn mem_access(&mut self, sc: SC, store: bool) -> ([u32; 2], usize) {
        if !self.module.vulkan_memory_model() {
            return ([0, 0], 0);
        }
        match sc {
            SC::StorageBuffer if self.function_state.coherent_access => {
                let scope = self.module.const_u32(spirv::Scope::QueueFamily as u32);
                let bit = if store { 0x8 } else { 0x10 };
                ([0x20 | bit, scope], 2)
            }
            SC::Workgroup | SC::StorageBuffer => ([0x20, 0], 1),
            // A constant buffer (`Uniform`, when storage buffers have their own class) is read
            // only while the shader runs: nothing in it needs ordering against other
            // invocations, so its loads stay private.
            SC::Uniform if self.module.buffer_class() == SC::Uniform => ([0x20, 0], 1),
            _ => ([0, 0], 0),
        }
    }

    /// `out` = `value`, an aggregate of IR type `t` in its laid-out SPIR-V type (`from_layout`)
    /// or its plain one, copied to the other: `OpCopyLogical` from SPIR-V 1.4, member by
    /// member (`OpCompositeExtract`, `OpCompositeConstruct`) before.
    pub(super) fn copy_logical(
        &mut self,
        def: SsaDef,
        op: &Op,
        value: u32,
        t: &Type,
        from_layout: bool,
        out: u32,
    ) -> R<()> {
        if self.module.target.composite_copy_and_select() {
            let Some(to) = self.module.ty(t, !from_layout) else {
                return unsupported(def, op, format!("type {t}"));
            };
            inst(self.module.body(), S::CopyLogical, &[to, out, value]);
            return Ok(());
        }
        self.copy_members(def, op, value, t, from_layout, Some(out))
            .map(|_| ())
    }

    /// [`Self::copy_logical`] before SPIR-V 1.4: each array element or struct member
    /// extracted, copied and the whole constructed again (into `out`, or a fresh id). Scalars
    /// and vectors have one type in both layouts and are taken as they are.
    fn copy_members(
        &mut self,
        def: SsaDef,
        op: &Op,
        value: u32,
        t: &Type,
        from_layout: bool,
        out: Option<u32>,
    ) -> R<u32> {
        let Some(to) = self.module.ty(t, !from_layout) else {
            return unsupported(def, op, format!("type {t}"));
        };
        if t.as_basic().is_some() {
            return Ok(match out {
                Some(id) => {
                    inst(self.module.body(), S::CopyObject, &[to, id, value]);
                    id
                }
                None => value,
            });
        }
        let mut parts = SmallVec::<[u32; 8]>::new();
        if let Some(&len) = t.dims().last() {
            if len == 0 {
                return unsupported(def, op, format!("copying a run-time array {t}"));
            }
            let elem = t.element_type();
            let Some(from) = self.module.ty(&elem, from_layout) else {
                return unsupported(def, op, format!("type {elem}"));
            };
            parts.reserve(len as usize);
            for i in 0..len {
                let e = self.module.un(S::CompositeExtract, from, &[value, i]);
                parts.push(self.copy_members(def, op, e, &elem, from_layout, None)?);
            }
        } else {
            for (i, m) in t.members().iter().enumerate() {
                let Some(mt) = self.module.basic_ty(*m) else {
                    return unsupported(def, op, format!("type {t}"));
                };
                parts.push(self.module.un(S::CompositeExtract, mt, &[value, i as u32]));
            }
        }
        let id = out.unwrap_or_else(|| self.module.id());
        let f = self.module.body();
        let st = begin(f, S::CompositeConstruct);
        f.extend_from_slice(&[to, id]);
        f.extend_from_slice(&parts);
        end(f, st);
        Ok(id)
    }

    /// `ix` moved `k` scalars on (its last index plus `k`, in the index's own type): the `k`-th
    /// scalar of a vector access split over consecutive scalars.
    pub(super) fn next_scalar(&mut self, ix: &Indices, k: u64) -> Indices {
        let mut jx = *ix;
        let Some(last) = ix.len.checked_sub(1).filter(|_| k > 0) else {
            return jx;
        };
        match ix.val(last) {
            Some(v) => {
                jx.ids[last] = 0;
                jx.set_val(last, Some(v + k));
            }
            None => {
                let kc = self.module.const_scalar(ix.idx_base, k);
                jx.ids[last] = self.module.un(S::IAdd, ix.idx_ty, &[ix.ids[last], kc]);
            }
        }
        jx
    }

    /// Loads the value of IR type `want` through `base` + address, splitting vector accesses
    /// of scalar targets and bit-casting when the stored scalar type differs.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn load_via(
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
        let mut ix = Indices::NONE;
        self.fill_indices(def, op, addr, &mut ix)?;
        if self.function_state.vector_loads != VectorLoads::Never
            && self.load_component(def, op, base, sc, ty, prefix, &ix, want, layout, out)?
        {
            return Ok(());
        }
        let (ptr, pt) = self.chain(def, op, base, sc, ty, prefix, &ix, layout)?;
        let Some(want_ty) = self.module.ty(want, false) else {
            return unsupported(def, op, format!("type {want}"));
        };
        let ma = self.mem_access(sc, false);
        access_fits(def, op, want, &pt, "loading")?;
        let (Some(wb), Some(pb)) = (want.as_basic(), pt.as_basic()) else {
            // Aggregate: load as is; one laid out for a buffer is copied to the plain type.
            let Some(at) = self.module.ty(&pt, layout) else {
                return unsupported(def, op, format!("type {pt}"));
            };
            let loaded = if at == want_ty { out } else { self.module.id() };
            self.emit_load(at, loaded, ptr, ma);
            if loaded != out {
                self.copy_logical(def, op, loaded, &pt, layout, out)?;
            }
            return Ok(());
        };
        let n = wb.vec_size() as u32;
        let m = pb.vec_size() as u32;
        let Some(pty) = self.module.basic_ty(pb) else {
            return unsupported(def, op, format!("type {pt}"));
        };
        let mut parts = [0u32; 4];
        // The last instruction defines `out` itself when the loaded scalar type is the one
        // wanted; otherwise a fresh id, bit-cast into `out`.
        let same = wb.base() == pb.base();
        let raw = if same { out } else { self.module.id() };
        if n == m {
            self.emit_load(pty, raw, ptr, ma);
            if m > 1 && self.function_state.vector_loads != VectorLoads::Never {
                // A whole vector of memory that does not change: later loads of its
                // components in the block take them from this one.
                if let Some(key) = vector_key(base, prefix, &ix, ix.len) {
                    self.remember_vector(key, raw);
                }
            }
        } else if m > n {
            let id = self.module.id();
            self.emit_load(pty, id, ptr, ma);
            let Some(sub) = self.module.basic_ty(pb.with_vec_size(n as u8)) else {
                return unsupported(def, op, "vector type");
            };
            if n == 1 {
                self.module.emit_to(S::CompositeExtract, sub, raw, &[id, 0]);
            } else {
                let args = [id, id, 0, 1, 2, 3];
                self.module
                    .emit_to(S::VectorShuffle, sub, raw, &args[..2 + n as usize]);
            }
        } else if m == 1 && ix.len > 0 {
            // Consecutive scalars: bump the last index.
            for (k, part) in parts.iter_mut().enumerate().take(n as usize) {
                let jx = self.next_scalar(&ix, k as u64);
                let (p, _) = self.chain(def, op, base, sc, ty, prefix, &jx, layout)?;
                let id = self.module.id();
                self.emit_load(pty, id, p, ma);
                *part = id;
            }
            let Some(vt) = self.module.basic_ty(pb.with_vec_size(n as u8)) else {
                return unsupported(def, op, "vector type");
            };
            self.module
                .emit_to(S::CompositeConstruct, vt, raw, &parts[..n as usize]);
        } else {
            return unsupported(def, op, format!("loading {want} from {pt}"));
        }
        if !same {
            self.module.emit_to(S::Bitcast, want_ty, out, &[raw]);
        }
        Ok(())
    }

    /// Loads one scalar component of a vector in memory that does not change while the shader
    /// runs (see [`VectorLoads`]) as a component of the whole vector: taken from a vector the
    /// block loaded already, or from a new whole-vector load when that is no longer than an
    /// access chain to the component (inputs) or the block reads the vector again soon
    /// (constant buffers). The address must be constant. Returns false, having emitted
    /// nothing, when the access is not such a load.
    #[allow(clippy::too_many_arguments)]
    fn load_component(
        &mut self,
        def: SsaDef,
        op: &Op,
        base: u32,
        sc: SC,
        ty: &Type,
        prefix: &[u32],
        ix: &Indices,
        want: &Type,
        layout: bool,
        out: u32,
    ) -> R<bool> {
        let Some(last) = ix.len.checked_sub(1) else {
            return Ok(false);
        };
        let Some(k) = ix.val(last) else {
            return Ok(false);
        };
        let Some(want_b) = want.as_basic().filter(|b| b.vec_size() == 1) else {
            return Ok(false);
        };
        // The vector the last index selects a component of.
        let mut vt = *ty;
        for j in 0..last {
            match vt.index_into(ix.val(j)) {
                Some(n) => vt = n,
                None => return Ok(false),
            }
        }
        let Some(vb) = vt.as_basic().filter(|b| b.vec_size() > 1) else {
            return Ok(false);
        };
        let (vbase, wbase) = (vb.base(), want_b.base());
        if k >= u64::from(vb.vec_size())
            || !(vbase == wbase
                || (vbase.is_numeric()
                    && wbase.is_numeric()
                    && scalar_bits(vbase) == scalar_bits(wbase)))
        {
            return Ok(false);
        }
        let Some(key) = vector_key(base, prefix, ix, last) else {
            return Ok(false);
        };
        let vec = match self.loaded_vector(key) {
            Some(v) => v,
            None => {
                if self.function_state.vector_loads == VectorLoads::WhenReused
                    && !self.vector_read_again(def, op, last)
                {
                    return Ok(false);
                }
                let mut jx = *ix;
                jx.len = last;
                let (ptr, _) = self.chain(def, op, base, sc, ty, prefix, &jx, layout)?;
                let Some(vty) = self.module.basic_ty(vb) else {
                    return Ok(false);
                };
                let ma = self.mem_access(sc, false);
                let v = self.module.id();
                self.emit_load(vty, v, ptr, ma);
                self.remember_vector(key, v);
                v
            }
        };
        let Some(sty) = self.module.scalar_ty(vbase) else {
            return Ok(false);
        };
        let k = k as u32;
        if vbase == wbase {
            let at = self.module.sections.functions.len();
            self.module
                .emit_to(S::CompositeExtract, sty, out, &[vec, k]);
            self.remember_component(Component {
                value: out,
                vector: vec,
                index: k as u8,
                size: vb.vec_size(),
                def: (out == def.id()).then_some(def),
                at,
            });
        } else {
            let Some(want_ty) = self.module.scalar_ty(wbase) else {
                return Ok(false);
            };
            let c = self.module.un(S::CompositeExtract, sty, &[vec, k]);
            self.module.emit_to(S::Bitcast, want_ty, out, &[c]);
        }
        Ok(true)
    }

    /// `OpLoad` of `id`, of SPIR-V type `ty`, through `ptr`, with the memory operands `ma`
    /// ([`Emitter::mem_access`]).
    fn emit_load(&mut self, ty: u32, id: u32, ptr: u32, ma: ([u32; 2], usize)) {
        let f = &mut self.module.sections.functions;
        inst_tail(f, S::Load, [ty, id, ptr], ma.0.get(..ma.1).unwrap_or(&ma.0));
    }

    /// The vector this block already loaded under `key`, if it is still remembered.
    pub(super) fn loaded_vector(&self, key: VectorKey) -> Option<u32> {
        self.function_state
            .loaded_vectors
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
    }

    /// Keeps `vec`, loaded from `key`, for the loads of the rest of the block.
    pub(super) fn remember_vector(&mut self, key: VectorKey, vec: u32) {
        let list = &mut self.function_state.loaded_vectors;
        if list.len() >= LOADED_VECTORS {
            list.remove(0);
        }
        list.push((key, vec));
    }

    /// Records that a value is a component of a vector.
    pub(super) fn remember_component(&mut self, c: Component) {
        self.function_state.components.push(c);
    }

    /// True if one of the next few ops of the block loads from the same constant buffer
    /// vector as `op`, a `BufferLoad` whose address's first `len` values lead to the vector.
    fn vector_read_again(&self, def: SsaDef, op: &Op, len: usize) -> bool {
        let (Some(desc), Some(addr)) = (op.arg(0), op.arg(1).and_then(|a| self.op_of(a))) else {
            return false;
        };
        if op.opcode != OpCode::BufferLoad {
            return false;
        }
        let desc_op = self.op_of(desc);
        let same_desc = |d: SsaDef| {
            d == desc
                || match (self.op_of(d), desc_op) {
                    (Some(a), Some(b)) => {
                        a.opcode == OpCode::DescriptorLoad
                            && b.opcode == OpCode::DescriptorLoad
                            && a.operands == b.operands
                    }
                    _ => false,
                }
        };
        // Two addresses lead to one vector when both are constants or both constructs
        // whose first `len` values are equal.
        let same_vector = |other: &Op| {
            other.opcode == addr.opcode
                && match addr.opcode {
                    OpCode::Constant => {
                        constant_literals(other).get(..len) == constant_literals(addr).get(..len)
                    }
                    OpCode::CompositeConstruct => {
                        other.operands.get(..len) == addr.operands.get(..len)
                    }
                    _ => false,
                }
        };
        let mut next = self.b.next(def);
        for _ in 0..LOOKAHEAD_OPS {
            let Some(n) = next else { break };
            let Some(nop) = self.op_of(n) else { break };
            if nop.opcode == OpCode::Label || nop.opcode.is_terminator() {
                break;
            }
            if nop.opcode == OpCode::BufferLoad
                && nop.arg(0).is_some_and(same_desc)
                && nop
                    .arg(1)
                    .and_then(|a| self.op_of(a))
                    .is_some_and(same_vector)
            {
                return true;
            }
            next = self.b.next(n);
        }
        false
    }

    /// Stores `value` through `base` + address, like [`Self::load_via`] in reverse.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_via(
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
        let mut ix = Indices::NONE;
        self.fill_indices(def, op, addr, &mut ix)?;
        let (ptr, pt) = self.chain(def, op, base, sc, ty, prefix, &ix, layout)?;
        let Some(vop) = self.op_of(value) else {
            return malformed(def, op, "value missing");
        };
        let val = self.v(value);
        let ma = self.mem_access(sc, true);
        access_fits(def, op, &vop.ty, &pt, "storing")?;
        let (Some(vb), Some(pb)) = (vop.ty.as_basic(), pt.as_basic()) else {
            // Aggregate: stored as is, or copied to the buffer's laid-out type first.
            let (Some(at), Some(vt)) =
                (self.module.ty(&pt, layout), self.module.ty(&vop.ty, false))
            else {
                return unsupported(def, op, format!("type {pt}"));
            };
            let val = if at == vt {
                val
            } else {
                let copy = self.module.id();
                self.copy_logical(def, op, val, &pt, false, copy)?;
                copy
            };
            let f = &mut self.module.sections.functions;
            inst_tail(f, S::Store, [ptr, val], ma.0.get(..ma.1).unwrap_or(&ma.0));
            return Ok(());
        };
        let n = vb.vec_size() as u32;
        let m = pb.vec_size() as u32;
        let conv = |e: &mut Self, v: u32, from: BasicType, to: BasicType| -> R<u32> {
            if from.base() == to.base() {
                return Ok(v);
            }
            match e.module.basic_ty(to) {
                Some(t) => Ok(e.module.un(S::Bitcast, t, &[v])),
                None => unsupported(def, op, "store type"),
            }
        };
        if n == m {
            let v = if vb.base() == pb.base() {
                val
            } else {
                conv(self, val, vb, pb)?
            };
            let f = &mut self.module.sections.functions;
            inst_tail(f, S::Store, [ptr, v], ma.0.get(..ma.1).unwrap_or(&ma.0));
            return Ok(());
        }
        if m != 1 || ix.len == 0 {
            return unsupported(def, op, format!("storing {} to {pt}", vop.ty));
        }
        let Some(sty) = self.module.scalar_ty(vb.base()) else {
            return unsupported(def, op, "store type");
        };
        for k in 0..n {
            let jx = self.next_scalar(&ix, u64::from(k));
            let (p, _) = self.chain(def, op, base, sc, ty, prefix, &jx, layout)?;
            let c = self.module.un(S::CompositeExtract, sty, &[val, k]);
            let c = conv(self, c, BasicType::scalar(vb.base()), pb)?;
            let f = &mut self.module.sections.functions;
            inst_tail(f, S::Store, [p, c], ma.0.get(..ma.1).unwrap_or(&ma.0));
        }
        Ok(())
    }

    /// `BufferLoad`: a load from a CBV or storage buffer block, or a texel fetch of a typed
    /// buffer; a sparse one gets the "fully resident" code (see [`crate::SPARSE_BUFFER_FEEDBACK`]).
    pub(super) fn buffer_load(&mut self, def: SsaDef, op: &Op, d: DescInfo) -> R<()> {
        let id = def.id();
        match d.res.kind {
            ResKind::Cbv | ResKind::Ssbo => {
                let sc = if d.res.kind == ResKind::Cbv {
                    SC::Uniform
                } else {
                    self.module.buffer_class()
                };
                let c0 = self.module.const_u32(0);
                let data = d.res.data(self.b);
                if op.flags.contains(OpFlags::SPARSE_FEEDBACK) {
                    // Vulkan has no residency query for buffers: the load is plain and the
                    // feedback is `SPARSE_BUFFER_FEEDBACK` ("fully resident", see
                    // `CheckSparseAccess`).
                    let Some(&texel) = op.ty.members().get(1) else {
                        return malformed(def, op, "sparse result is not a struct");
                    };
                    let texel_ty = Type::from(texel);
                    let val = self.module.id();
                    self.load_via(
                        def,
                        op,
                        d.ptr,
                        sc,
                        data,
                        &[c0],
                        op.arg(1),
                        &texel_ty,
                        true,
                        val,
                    )?;
                    let want = self.module.val_ty(def, op)?;
                    let code = self.module.const_u32(crate::SPARSE_BUFFER_FEEDBACK);
                    self.module
                        .emit_to(S::CompositeConstruct, want, id, &[code, val]);
                    self.resident_feedback.push(def);
                    return Ok(());
                }
                let mode = if d.res.kind == ResKind::Cbv {
                    VectorLoads::WhenReused
                } else {
                    VectorLoads::Never
                };
                self.with_vector_loads(mode, |e| {
                    e.load_via(def, op, d.ptr, sc, data, &[c0], op.arg(1), &op.ty, true, id)
                })
            }
            ResKind::TexelBuffer => {
                let addr = self.v(self.arg(def, op, 1)?);
                self.texel_read(def, op, d, addr, 0, None)
            }
            _ => unsupported(def, op, "buffer load from this descriptor"),
        }
    }

    /// `BufferStore`: a store to a storage buffer block, or a texel write to a typed buffer.
    pub(super) fn buffer_store(&mut self, def: SsaDef, op: &Op, d: DescInfo) -> R<()> {
        let value = self.arg(def, op, 2)?;
        match d.res.kind {
            ResKind::Ssbo => {
                let c0 = self.module.const_u32(0);
                let data = d.res.data(self.b);
                let sc = self.module.buffer_class();
                self.store_via(def, op, d.ptr, sc, data, &[c0], op.arg(1), value, true)
            }
            ResKind::TexelBuffer => {
                let coord = self.v(self.arg(def, op, 1)?);
                self.texel_write(def, op, d, coord, value, None)
            }
            _ => unsupported(def, op, "buffer store to this descriptor"),
        }
    }

    /// `DclLds` (`sc` `Workgroup`) and `DclScratch` (`Private`): a module-scope variable.
    pub(super) fn dcl_variable(&mut self, def: SsaDef, op: &Op, sc: SC) -> R<()> {
        let Some(t) = self.module.ty(&op.ty, false) else {
            return unsupported(def, op, format!("type {}", op.ty));
        };
        let p = self.module.ptr(sc, t);
        self.module.global_var(p, sc, def.id(), None);
        self.mark(def);
        self.set_info(
            def,
            Info::Var(VarInfo {
                var: def.id(),
                sc,
                dcl: def,
                wrap: IoWrap::None,
                refl: 0,
            }),
        );
        Ok(())
    }

    /// `LdsLoad` and `ScratchLoad`.
    pub(super) fn variable_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let dcl = self.arg(def, op, 0)?;
        let Some(vi) = self.var_info(dcl) else {
            return malformed(def, op, "not a variable");
        };
        let ty = vi.ty(self.b);
        self.load_via(
            def,
            op,
            vi.var,
            vi.sc,
            ty,
            &[],
            op.arg(1),
            &op.ty,
            false,
            def.id(),
        )
    }

    /// `LdsStore` and `ScratchStore`.
    pub(super) fn variable_store(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let dcl = self.arg(def, op, 0)?;
        let Some(vi) = self.var_info(dcl) else {
            return malformed(def, op, "not a variable");
        };
        let value = self.arg(def, op, 2)?;
        let ty = vi.ty(self.b);
        self.store_via(def, op, vi.var, vi.sc, ty, &[], op.arg(1), value, false)
    }

    /// `ConstantLoad`: a load from a `Private` copy of the constant (made on its first
    /// load), since SPIR-V indexes composites at run time only through pointers.
    pub(super) fn constant_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let c = self.arg(def, op, 0)?;
        let Some(cop) = self.op_of(c) else {
            return malformed(def, op, "constant missing");
        };
        let var = match self.info(c) {
            Some(&Info::ConstVar(v)) => v,
            _ => {
                let Some(t) = self.module.ty(&cop.ty, false) else {
                    return unsupported(def, op, "constant type");
                };
                let p = self.module.ptr(SC::Private, t);
                let var = self.module.id();
                let init = self.v(c);
                self.module.global_var(p, SC::Private, var, Some(init));
                self.set_info(c, Info::ConstVar(var));
                var
            }
        };
        let ty = cop.ty;
        self.with_vector_loads(VectorLoads::Always, |e| {
            e.load_via(
                def,
                op,
                var,
                SC::Private,
                &ty,
                &[],
                op.arg(1),
                &op.ty,
                false,
                def.id(),
            )
        })
    }

    /// Runs `load` with [`FunctionState::vector_loads`] set to `mode`.
    ///
    /// [`FunctionState::vector_loads`]: super::control_flow::FunctionState::vector_loads
    pub(super) fn with_vector_loads(
        &mut self,
        mode: VectorLoads,
        load: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        self.function_state.vector_loads = mode;
        let r = load(self);
        self.function_state.vector_loads = VectorLoads::Never;
        r
    }

    /// Runs `access`, a `BufferLoad` or `BufferStore`, with its descriptor and with
    /// [`FunctionState::coherent_access`](super::control_flow::FunctionState::coherent_access)
    /// set when that is a globally coherent UAV.
    pub(super) fn buffer_access(
        &mut self,
        def: SsaDef,
        op: &Op,
        access: impl FnOnce(&mut Self, DescInfo) -> R<()>,
    ) -> R<()> {
        let d = self.desc_of(def, op, 0)?;
        self.function_state.coherent_access = d.res.uav && d.res.coherent;
        let r = access(self, d);
        self.function_state.coherent_access = false;
        r
    }

    /// `BufferQuerySize`: `OpArrayLength` of a raw or structured buffer's run-time array,
    /// `OpImageQuerySize` of a typed buffer.
    pub(super) fn buffer_query_size(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let id = def.id();
        let d = self.desc_of(def, op, 0)?;
        let u = self.module.u32_ty();
        match d.res.kind {
            ResKind::Ssbo => {
                // Only a run-time array has a length to ask for.
                if !d.res.data(self.b).is_unbounded() {
                    return malformed(
                        def,
                        op,
                        format!(
                            "size query of a {} buffer, not a run-time array",
                            d.res.data(self.b)
                        ),
                    );
                }
                inst(self.module.body(), S::ArrayLength, &[u, id, d.ptr, 0]);
            }
            ResKind::TexelBuffer => {
                self.module.cap(Capability::ImageQuery);
                self.module.emit_to(S::ImageQuerySize, u, id, &[d.value]);
            }
            _ => return unsupported(def, op, "size query on this descriptor"),
        }
        Ok(())
    }
}
