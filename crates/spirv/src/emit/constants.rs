//! Constants: scalar and composite `OpConstant*` declarations, deduplicated by type and
//! value, for the IR's `Constant` ops and for the constants the emitters need.
//!
//! A literal narrower than 32 bits is one word, zero-extended for floats and unsigned
//! integers and sign-extended for signed ones (SPIR-V 2.2.1); a 64-bit literal is two words,
//! low word first. Booleans are `OpConstantTrue` / `OpConstantFalse`. IR constant data is one
//! literal per flattened scalar; arrays, structs and vectors become `OpConstantComposite`s
//! of their parts.

use super::error::{unsupported, R};
use super::module::{Module, SMALL_U32};
use super::types::scalar_bits;
use super::{constant_literals, Emitter};
use crate::words::{begin, end, inst};
use dxspv_ir::{BasicType, Operand, ScalarType, Type};
use dxspv_ir::{Op, SsaDef};
use smallvec::SmallVec;
use spirv::Op as S;

impl Module {
    /// The scalar constant of type `st` with bit pattern `bits` (in its low bits).
    #[inline]
    pub(super) fn const_scalar(&mut self, st: ScalarType, bits: u64) -> u32 {
        // Small `u32`s (indices, scopes, semantics) are found without a search.
        let small = st == ScalarType::U32 && bits < SMALL_U32 as u64;
        if small {
            if let Some(&id) = self.small_u32.get(bits as usize).filter(|&&id| id != 0) {
                return id;
            }
        }
        let Some(t) = self.scalar_ty(st) else {
            return 0;
        };
        let id = match self.consts.get(&(t, bits)) {
            Some(id) => id,
            None => self.new_const_scalar(st, t, bits),
        };
        if small {
            if let Some(slot) = self.small_u32.get_mut(bits as usize) {
                *slot = id;
            }
        }
        id
    }

    /// Declares the scalar constant of [`Self::const_scalar`] (of SPIR-V type `t`), which
    /// is not declared yet.
    #[inline(never)]
    fn new_const_scalar(&mut self, st: ScalarType, t: u32, bits: u64) -> u32 {
        let id = self.id();
        self.consts.insert_new((t, bits), id);
        let g = &mut self.sections.globals;
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

    /// The `u32` constant `v`.
    pub(super) fn const_u32(&mut self, v: u32) -> u32 {
        self.const_scalar(ScalarType::U32, v as u64)
    }

    /// The `OpConstantComposite` of type `ty` with constituents `parts`.
    pub(super) fn const_composite(&mut self, ty: u32, parts: &[u32]) -> u32 {
        let id = if parts.len() <= 4 {
            // Up to four parts (vectors, small structs and arrays): a fixed-size key.
            let mut key = [ty, 0, 0, 0, 0];
            for (k, p) in key[1..].iter_mut().zip(parts) {
                *k = *p;
            }
            if let Some(id) = self.composites.get(&key) {
                return id;
            }
            let id = self.id();
            self.composites.insert_new(key, id);
            id
        } else {
            let mut key = SmallVec::<[u32; 8]>::with_capacity(parts.len() + 1);
            key.push(ty);
            key.extend_from_slice(parts);
            if let Some(id) = self.long_composites.get(&key) {
                return id;
            }
            let id = self.id();
            self.long_composites.insert_new(key, id);
            id
        };
        let g = &mut self.sections.globals;
        let st = begin(g, S::ConstantComposite);
        g.push(ty);
        g.push(id);
        g.extend_from_slice(parts);
        end(g, st);
        id
    }

    /// A constant of basic type `t` with every component `bits`.
    pub(super) fn const_splat(&mut self, t: BasicType, bits: u64) -> u32 {
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
    pub(super) fn const_of(&mut self, t: &Type, lits: &[Operand], pos: &mut usize) -> Option<u32> {
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
}

impl<'a> Emitter<'a> {
    /// `Constant`: the deduplicated constant becomes the def's value. A constant used only
    /// as a composite index (`CompositeExtract`/`CompositeInsert` take it as a literal) or as a
    /// memory access's address (whose emitter reads the literals and asks for the constants
    /// its access chain needs, if it needs one) gets no `OpConstant` of its own: nothing would
    /// refer to it.
    pub(super) fn constant(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let read_from_literals = self.only_taken_apart(def, true);
        if read_from_literals {
            return Ok(());
        }
        let mut pos = 0;
        match self
            .module
            .const_of(&op.ty, constant_literals(op), &mut pos)
        {
            Some(id) => {
                self.set_map(def, id);
                self.mark(def);
                Ok(())
            }
            None => unsupported(def, op, format!("constant of type {}", op.ty)),
        }
    }

    /// `Undef`: `OpUndef` among the globals.
    pub(super) fn undef(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let t = self.module.val_ty(def, op)?;
        inst(&mut self.module.sections.globals, S::Undef, &[t, def.id()]);
        self.mark(def);
        Ok(())
    }
}
