//! Types: IR types to SPIR-V type declarations, the block layout rules, and the helpers
//! that tell the width, size and alignment of IR types.
//!
//! SPIR-V forbids two declarations of one non-aggregate type (`OpTypeInt 32 0` twice), so
//! scalars, vectors and pointers are declared once each (scalars and vectors through a table
//! indexed by the IR basic type, which most lookups hit); structs and arrays are deduplicated
//! too, keyed by their layout flavour, since Vulkan allows explicit layout (`Offset`,
//! `ArrayStride`) only on types of buffer, push-constant and physical memory. Minimum
//! precision types are 32-bit. A type of another width adds its capability (`Int8`,
//! `Int16`, `Int64`, `Float16`, `Float64`). Explicit layouts put members at their base
//! alignment and stride arrays by the packed element size; [`block_type_problem`] refuses
//! contents Vulkan's default block layouts (std140 for uniform blocks, std430 otherwise)
//! would lay out differently.

use super::error::{unsupported, R};
use super::module::Module;
use crate::words::{begin, end, inst};
use dxspv_ir::{BasicType, Op, ScalarType, SsaDef, Type};
use smallvec::SmallVec;
use spirv::{Capability, Decoration, Op as S, StorageClass as SC};

/// A SPIR-V type, for deduplication. Scalars and vectors are also cached per IR
/// [`BasicType`] in [`Module::basic`], which most lookups hit.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) enum TyKey {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`: width, signedness.
    Int(u32, bool),
    /// `OpTypeFloat`: width.
    Float(u32),
    /// `OpTypeVector`: component type, count.
    Vector(u32, u32),
    /// `OpTypeArray`: element type, length constant, `ArrayStride` (0 for none).
    Array(u32, u32, u32),
    /// `OpTypeRuntimeArray`: element type, `ArrayStride` (0 for none).
    RtArray(u32, u32),
    /// `OpTypeStruct`: member types, layout flavour (`L_*`).
    Struct(SmallVec<[u32; 4]>, u8),
    /// `OpTypePointer`: storage class, pointee.
    Ptr(u32, u32),
    /// `OpTypeFunction`: return type, then parameter types.
    Func(SmallVec<[u32; 4]>),
    /// `OpTypeImage`: its operands after the result id.
    Image([u32; 7]),
    /// `OpTypeSampledImage`: image type.
    SampledImage(u32),
    /// `OpTypeSampler`.
    Sampler,
}

/// Struct layout flavours (the second field of [`TyKey::Struct`]): no explicit layout.
pub(super) const L_NONE: u8 = 0;

/// Explicit layout (`Offset` members), for buffer contents.
pub(super) const L_EXPLICIT: u8 = 1;

/// A `Block` wrapping buffer or push contents.
pub(super) const L_BLOCK: u8 = 2;

/// A `Block` whose member is `NonWritable` (an SRV's).
pub(super) const L_BLOCK_RO: u8 = 3;

/// A `BufferBlock` wrapping buffer contents (`Uniform` storage, before SPIR-V 1.3).
pub(super) const L_BUFFER_BLOCK: u8 = 4;

/// A `BufferBlock` whose member is `NonWritable`.
pub(super) const L_BUFFER_BLOCK_RO: u8 = 5;

/// Index of a basic type in [`Module::basic`].
#[inline]
pub(super) fn basic_index(t: BasicType) -> usize {
    (t.bits() & 0x7f) as usize
}

/// The width of `t` in bits (32 for minimum-precision types and bools).
pub(super) const fn scalar_bits(t: ScalarType) -> u32 {
    match t {
        ScalarType::I8 | ScalarType::U8 => 8,
        ScalarType::I16 | ScalarType::U16 | ScalarType::F16 => 16,
        ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 64,
        _ => 32,
    }
}

/// [`scalar_bits`] of each 5-bit scalar code ([`BasicType::bits`]' low bits; 32 for the
/// codes of no scalar type, which `BasicType::base` reads as `Unknown`).
static SCALAR_CODE_BITS: [u8; 32] = {
    let mut t = [32u8; 32];
    let mut i = 0;
    while i < ScalarType::ALL.len() && i < t.len() {
        t[i] = scalar_bits(ScalarType::ALL[i]) as u8;
        i += 1;
    }
    t
};

/// The width of `t`'s components in bits: [`scalar_bits`] of its base, read from a table by
/// the scalar code.
#[inline]
pub(super) fn basic_bits(t: BasicType) -> u32 {
    u32::from(SCALAR_CODE_BITS[usize::from(t.bits() & 0x1f)])
}

/// The integer type of `t`'s width (32 bits for min-precision types) and the given
/// signedness: what SPIR-V ops that take one exact integer type are computed in.
pub(super) fn int_of_width(t: ScalarType, signed: bool) -> ScalarType {
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

/// The size of `t` in bytes.
pub(super) fn basic_size(t: BasicType) -> u32 {
    let s = basic_bits(t) / 8;
    s * t.vec_size() as u32
}

/// The base alignment of `t` in bytes (a three-component vector aligns as four).
pub(super) fn basic_align(t: BasicType) -> u32 {
    let s = basic_bits(t) / 8;
    match t.vec_size() {
        1 => s,
        2 => 2 * s,
        _ => 4 * s,
    }
}

/// Size of one element for explicit layouts.
#[inline]
pub(super) fn layout_size(t: &Type) -> u32 {
    // A scalar or vector (most push data and buffer elements): its own size.
    if let Some(b) = t.as_basic() {
        return basic_size(b);
    }
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

/// Base alignment of `t` in a block (std430; at least 16 for arrays in a uniform block,
/// as std140 rounds array elements up to a 16-byte row).
#[inline]
pub(super) fn block_align(t: &Type, uniform: bool) -> u32 {
    if let Some(b) = t.as_basic() {
        return basic_align(b);
    }
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
pub(super) fn block_layout_ok(t: &Type, uniform: bool) -> bool {
    t.dims().is_empty() || layout_size(&t.without_arrays()) % block_align(t, uniform) == 0
}

/// Why `t` cannot be the contents of a Vulkan block (a buffer, a CBV or push data), if it
/// cannot: Vulkan has no bools in memory the host sees, and see [`block_layout_ok`].
#[inline]
pub(super) fn block_type_problem(t: &Type, uniform: bool) -> Option<&'static str> {
    // A scalar or vector (push data, most buffer elements) has no array stride to check.
    if let Some(b) = t.as_basic() {
        return (b.base() == ScalarType::Bool)
            .then_some("a bool, which host-visible memory cannot hold");
    }
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

impl Module {
    /// The type for `key`, declared on first use. Scalars and vectors go through
    /// [`Self::basic_ty`] only, pointers through [`Self::ptr`].
    pub(super) fn ty_key(&mut self, key: TyKey) -> u32 {
        self.ty_key_fresh(key).0
    }

    /// [`Self::ty_key`], and whether the type was declared just now.
    pub(super) fn ty_key_fresh(&mut self, key: TyKey) -> (u32, bool) {
        if let Some(id) = self.types.get(&key) {
            return (id, false);
        }
        let id = self.declare_ty(&key);
        self.types.insert_new(key, id);
        (id, true)
    }

    /// Declares the type `key` (no deduplication).
    pub(super) fn declare_ty(&mut self, key: &TyKey) -> u32 {
        let id = self.id();
        let g = &mut self.sections.globals;
        match key {
            TyKey::Void => inst(g, S::TypeVoid, &[id]),
            TyKey::Bool => inst(g, S::TypeBool, &[id]),
            TyKey::Int(w, s) => inst(g, S::TypeInt, &[id, *w, *s as u32]),
            TyKey::Float(w) => inst(g, S::TypeFloat, &[id, *w]),
            TyKey::Vector(e, n) => inst(g, S::TypeVector, &[id, *e, *n]),
            TyKey::Array(e, len, stride) => {
                inst(g, S::TypeArray, &[id, *e, *len]);
                if *stride != 0 {
                    let a = &mut self.sections.annotations;
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
                    let a = &mut self.sections.annotations;
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

    /// SPIR-V type of a scalar.
    #[inline]
    pub(super) fn scalar_ty(&mut self, t: ScalarType) -> Option<u32> {
        self.basic_ty(BasicType::scalar(t))
    }

    /// Declares a scalar type (for [`Self::new_basic_ty`]).
    pub(super) fn declare_scalar_ty(&mut self, t: ScalarType) -> Option<u32> {
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
    pub(super) fn basic_ty(&mut self, t: BasicType) -> Option<u32> {
        match self.basic.get(basic_index(t)) {
            Some(&id) if id != 0 => Some(id),
            _ => self.new_basic_ty(t),
        }
    }

    /// The slow path of [`Self::basic_ty`]: reuses the type of the SPIR-V-equivalent basic
    /// type (minimum precision types are 32-bit) or declares it.
    pub(super) fn new_basic_ty(&mut self, t: BasicType) -> Option<u32> {
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

    /// The `u32` type.
    pub(super) fn u32_ty(&mut self) -> u32 {
        self.scalar_ty(ScalarType::U32).unwrap_or_default()
    }

    /// The `void` type.
    pub(super) fn void_ty(&mut self) -> u32 {
        self.scalar_ty(ScalarType::Void).unwrap_or_default()
    }

    /// SPIR-V type of an IR type; `layout` adds explicit offsets and strides.
    #[inline]
    pub(super) fn ty(&mut self, t: &Type, layout: bool) -> Option<u32> {
        match t.as_basic() {
            Some(b) => self.basic_ty(b),
            None => self.aggregate_ty(t, layout),
        }
    }

    /// [`Self::ty`] of anything but a scalar or vector.
    pub(super) fn aggregate_ty(&mut self, t: &Type, layout: bool) -> Option<u32> {
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
                let (sid, fresh) = self.ty_key_fresh(key);
                if fresh && layout {
                    let mut off: u32 = 0;
                    for (i, m) in members.iter().enumerate() {
                        let a = basic_align(*m);
                        off = off.div_ceil(a) * a;
                        inst(
                            &mut self.sections.annotations,
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
            let stride = if layout { layout_size(&elem) } else { 0 };
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

    /// The pointer type to `t` in storage class `sc`.
    #[inline]
    pub(super) fn ptr(&mut self, sc: SC, t: u32) -> u32 {
        let key = (sc as u32, t);
        match self.ptrs.get(&key) {
            Some(id) => id,
            None => self.new_ptr(key),
        }
    }

    /// Declares the pointer type of [`Self::ptr`] for `key`, which is not declared yet.
    #[inline(never)]
    fn new_ptr(&mut self, key: (u32, u32)) -> u32 {
        let id = self.declare_ty(&TyKey::Ptr(key.0, key.1));
        self.ptrs.insert_new(key, id);
        id
    }

    /// The SPIR-V type of `op`'s result.
    pub(super) fn val_ty(&mut self, def: SsaDef, op: &Op) -> R<u32> {
        match self.ty(&op.ty, false) {
            Some(t) => Ok(t),
            None => unsupported(def, op, format!("type {}", op.ty)),
        }
    }

    /// A `Block` (or `BufferBlock`, by `flavour`) struct wrapping one member at offset 0.
    pub(super) fn block(&mut self, inner: u32, flavour: u8) -> u32 {
        let key = TyKey::Struct(smallvec::smallvec![inner], flavour);
        let (id, fresh) = self.ty_key_fresh(key);
        if fresh {
            let d = if matches!(flavour, L_BUFFER_BLOCK | L_BUFFER_BLOCK_RO) {
                Decoration::BufferBlock
            } else {
                Decoration::Block
            };
            self.decorate(id, d, &[]);
            let a = &mut self.sections.annotations;
            inst(a, S::MemberDecorate, &[id, 0, Decoration::Offset as u32, 0]);
            if matches!(flavour, L_BLOCK_RO | L_BUFFER_BLOCK_RO) {
                inst(
                    a,
                    S::MemberDecorate,
                    &[id, 0, Decoration::NonWritable as u32],
                );
            }
        }
        id
    }
}
