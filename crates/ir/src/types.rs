//! IR types: scalar types, vector sizes, structs of those and arrays of up to three dimensions.
//!
//! A [`Type`] is a small `Copy` value (32 bytes) so ops can carry it inline and compare or hash it
//! without touching a type table. Its shape follows the spec's serialization: an array header
//! (0–3 dimensions, innermost first, outermost may be `0` = unbounded), then up to
//! [`MAX_STRUCT_MEMBERS`] members, each a [`BasicType`] (scalar type plus vector size 1–4).
//! A type with no members is `void`.

use std::fmt;

/// Scalar types of the IR. The discriminant is the 5-bit code used by the serialized form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ScalarType {
    /// No value; only meaningful as the scalar of an empty type.
    Void = 0,
    /// Not known yet at recording time; resolved by the type passes (promoted to `u32` if ambiguous).
    Unknown = 1,
    /// Boolean, the result of comparisons.
    Bool = 2,
    /// Signed 8-bit integer.
    I8 = 3,
    /// Signed 16-bit integer.
    I16 = 4,
    /// Signed 32-bit integer.
    I32 = 5,
    /// Signed 64-bit integer.
    I64 = 6,
    /// Unsigned 8-bit integer.
    U8 = 7,
    /// Unsigned 16-bit integer.
    U16 = 8,
    /// Unsigned 32-bit integer.
    U32 = 9,
    /// Unsigned 64-bit integer.
    U64 = 10,
    /// IEEE binary16 float.
    F16 = 11,
    /// IEEE binary32 float.
    F32 = 12,
    /// IEEE binary64 float.
    F64 = 13,
    /// HLSL `min16float`: at least 16-bit float precision, stored as 32 bits.
    MinF16 = 14,
    /// HLSL `min10float`: at least 2.8 fixed-point precision, stored as 32 bits.
    MinF10 = 15,
    /// HLSL `min16int`: at least 16-bit signed integer, stored as 32 bits.
    MinI16 = 16,
    /// HLSL `min16uint`: at least 16-bit unsigned integer, stored as 32 bits.
    MinU16 = 17,
    /// A sampler descriptor, returned by `DescriptorLoad` of a `DclSampler`.
    Sampler = 18,
    /// A constant buffer descriptor.
    Cbv = 19,
    /// A shader resource view descriptor.
    Srv = 20,
    /// An unordered access view descriptor.
    Uav = 21,
    /// A UAV counter descriptor.
    UavCounter = 22,
}

impl ScalarType {
    /// Every scalar type, in code order.
    pub const ALL: [ScalarType; 23] = [
        Self::Void,
        Self::Unknown,
        Self::Bool,
        Self::I8,
        Self::I16,
        Self::I32,
        Self::I64,
        Self::U8,
        Self::U16,
        Self::U32,
        Self::U64,
        Self::F16,
        Self::F32,
        Self::F64,
        Self::MinF16,
        Self::MinF10,
        Self::MinI16,
        Self::MinU16,
        Self::Sampler,
        Self::Cbv,
        Self::Srv,
        Self::Uav,
        Self::UavCounter,
    ];

    /// The scalar type with the given 5-bit code.
    #[inline]
    pub fn from_code(code: u8) -> Option<Self> {
        Self::ALL.get(code as usize).copied()
    }

    /// The name used by the text form (`f32`, `min16f`, `uav_counter`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Self::Void => "void",
            Self::Unknown => "unknown",
            Self::Bool => "bool",
            Self::I8 => "i8",
            Self::I16 => "i16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::U8 => "u8",
            Self::U16 => "u16",
            Self::U32 => "u32",
            Self::U64 => "u64",
            Self::F16 => "f16",
            Self::F32 => "f32",
            Self::F64 => "f64",
            Self::MinF16 => "min16f",
            Self::MinF10 => "min10f",
            Self::MinI16 => "min16i",
            Self::MinU16 => "min16u",
            Self::Sampler => "sampler",
            Self::Cbv => "cbv",
            Self::Srv => "srv",
            Self::Uav => "uav",
            Self::UavCounter => "uav_counter",
        }
    }

    /// Parses a name produced by [`ScalarType::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// True for signed and unsigned integers, including min-precision integers.
    #[inline]
    pub fn is_int(self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }

    /// True for signed integers, including `min16i`.
    #[inline]
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            Self::I8 | Self::I16 | Self::I32 | Self::I64 | Self::MinI16
        )
    }

    /// True for unsigned integers, including `min16u`.
    #[inline]
    pub fn is_unsigned_int(self) -> bool {
        matches!(
            self,
            Self::U8 | Self::U16 | Self::U32 | Self::U64 | Self::MinU16
        )
    }

    /// True for floats, including min-precision floats.
    #[inline]
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Self::F16 | Self::F32 | Self::F64 | Self::MinF16 | Self::MinF10
        )
    }

    /// True for the min-precision types that passes lower to 16 or 32 bits.
    #[inline]
    pub fn is_min_precision(self) -> bool {
        matches!(
            self,
            Self::MinF16 | Self::MinF10 | Self::MinI16 | Self::MinU16
        )
    }

    /// True for descriptor types (`sampler`, `cbv`, `srv`, `uav`, `uav_counter`).
    #[inline]
    pub fn is_descriptor(self) -> bool {
        matches!(
            self,
            Self::Sampler | Self::Cbv | Self::Srv | Self::Uav | Self::UavCounter
        )
    }

    /// True for numeric types (ints and floats of any precision).
    #[inline]
    pub fn is_numeric(self) -> bool {
        self.is_int() || self.is_float()
    }

    /// Storage size in bits; min-precision types are stored as 32 bits. `None` for
    /// void, unknown, bool and descriptors, which have no defined bit size.
    #[inline]
    pub fn bit_size(self) -> Option<u32> {
        match self {
            Self::I8 | Self::U8 => Some(8),
            Self::I16 | Self::U16 | Self::F16 => Some(16),
            Self::I32 | Self::U32 | Self::F32 => Some(32),
            Self::MinF16 | Self::MinF10 | Self::MinI16 | Self::MinU16 => Some(32),
            Self::I64 | Self::U64 | Self::F64 => Some(64),
            _ => None,
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scalar type with a vector size of 1 (scalar) to 4, packed in one byte:
/// bits 0–4 the [`ScalarType`] code, bits 5–6 the vector size minus one (as in the serialization).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct BasicType(u8);

impl BasicType {
    /// A scalar of the given type.
    #[inline]
    pub const fn scalar(t: ScalarType) -> Self {
        Self(t as u8)
    }

    /// A vector of `size` (1–4, clamped into that range) components of `t`.
    #[inline]
    pub const fn vector(t: ScalarType, size: u8) -> Self {
        let size = if size == 0 {
            1
        } else if size > 4 {
            4
        } else {
            size
        };
        Self(t as u8 | ((size - 1) << 5))
    }

    /// The packed byte: scalar code in bits 0–4, vector size minus one in bits 5–6.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Unpacks a byte made by [`BasicType::bits`]; `None` for an unknown scalar code or bit 7 set.
    #[inline]
    pub fn from_bits(bits: u8) -> Option<Self> {
        if bits & 0x80 != 0 {
            return None;
        }
        ScalarType::from_code(bits & 0x1f)?;
        Some(Self(bits))
    }

    /// The scalar type.
    #[inline]
    pub fn base(self) -> ScalarType {
        // Constructors only accept valid codes.
        ScalarType::from_code(self.0 & 0x1f).unwrap_or(ScalarType::Unknown)
    }

    /// The vector size, 1 for a scalar.
    #[inline]
    pub const fn vec_size(self) -> u8 {
        ((self.0 >> 5) & 3) + 1
    }

    /// True if this is a vector of two or more components.
    #[inline]
    pub const fn is_vector(self) -> bool {
        self.vec_size() > 1
    }

    /// The same scalar type with another vector size.
    #[inline]
    pub fn with_vec_size(self, size: u8) -> Self {
        Self::vector(self.base(), size)
    }

    /// The same vector size with another scalar type.
    #[inline]
    pub fn with_base(self, base: ScalarType) -> Self {
        Self::vector(base, self.vec_size())
    }
}

impl From<ScalarType> for BasicType {
    fn from(t: ScalarType) -> Self {
        Self::scalar(t)
    }
}

impl fmt::Debug for BasicType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for BasicType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_vector() {
            write!(f, "vec{}<{}>", self.vec_size(), self.base())
        } else {
            write!(f, "{}", self.base())
        }
    }
}

/// Most struct members a [`Type`] can hold. Real shaders need two (sparse feedback, image size
/// queries); push data with more members is split into several declarations.
pub const MAX_STRUCT_MEMBERS: usize = 16;

/// Most array dimensions a [`Type`] can hold (the serialized header has two bits for it).
pub const MAX_ARRAY_DIMS: usize = 3;

/// Error building a [`Type`] that does not fit the IR's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TypeError {
    /// More than [`MAX_STRUCT_MEMBERS`] members.
    #[error("struct has {0} members, at most {MAX_STRUCT_MEMBERS} are supported")]
    TooManyMembers(usize),
    /// More than [`MAX_ARRAY_DIMS`] array dimensions.
    #[error("array has {0} dimensions, at most {MAX_ARRAY_DIMS} are supported")]
    TooManyDims(usize),
    /// An array of `void`.
    #[error("array of void")]
    ArrayOfVoid,
    /// An inner (not outermost) array dimension of size 0.
    #[error("only the outermost array dimension may be unbounded")]
    UnboundedInner,
}

/// A full IR type: `void`, a scalar or vector, a struct of those, or an array (up to
/// [`MAX_ARRAY_DIMS`] dimensions) of any of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Type {
    /// Array sizes, innermost first; entries past `ndims` are 0.
    dims: [u32; MAX_ARRAY_DIMS],
    ndims: u8,
    nmembers: u8,
    members: [BasicType; MAX_STRUCT_MEMBERS],
}

impl Default for Type {
    fn default() -> Self {
        Self::VOID
    }
}

impl Type {
    /// The `void` type.
    pub const VOID: Type = Type {
        dims: [0; MAX_ARRAY_DIMS],
        ndims: 0,
        nmembers: 0,
        members: [BasicType(0); MAX_STRUCT_MEMBERS],
    };

    /// A scalar type (`void` for [`ScalarType::Void`]).
    #[inline]
    pub const fn scalar(t: ScalarType) -> Self {
        Self::basic(BasicType::scalar(t))
    }

    /// A vector of 1–4 components.
    #[inline]
    pub const fn vector(t: ScalarType, size: u8) -> Self {
        Self::basic(BasicType::vector(t, size))
    }

    /// A scalar or vector type (`void` if its scalar is void).
    #[inline]
    pub const fn basic(t: BasicType) -> Self {
        if t.0 & 0x1f == ScalarType::Void as u8 {
            return Self::VOID;
        }
        let mut ty = Self::VOID;
        ty.nmembers = 1;
        ty.members[0] = t;
        ty
    }

    /// A struct of the given members. A single member gives the plain scalar or vector type.
    pub fn structure(members: &[BasicType]) -> Result<Self, TypeError> {
        if members.len() > MAX_STRUCT_MEMBERS {
            return Err(TypeError::TooManyMembers(members.len()));
        }
        let mut ty = Self::VOID;
        for (slot, m) in ty.members.iter_mut().zip(members) {
            *slot = *m;
        }
        ty.nmembers = members.len() as u8;
        Ok(ty)
    }

    /// This type wrapped in one more (outer) array dimension of `size` elements; 0 is unbounded.
    pub fn array_of(self, size: u32) -> Result<Self, TypeError> {
        if self.is_void() {
            return Err(TypeError::ArrayOfVoid);
        }
        let n = self.ndims as usize;
        if n >= MAX_ARRAY_DIMS {
            return Err(TypeError::TooManyDims(n + 1));
        }
        if n > 0 && self.dims[n - 1] == 0 {
            return Err(TypeError::UnboundedInner);
        }
        let mut ty = self;
        ty.dims[n] = size;
        ty.ndims += 1;
        Ok(ty)
    }

    /// Assembles a type from raw parts (as read from the serialized form), checking limits.
    pub fn from_parts(dims: &[u32], members: &[BasicType]) -> Result<Self, TypeError> {
        let mut ty = Self::structure(members)?;
        if dims.len() > MAX_ARRAY_DIMS {
            return Err(TypeError::TooManyDims(dims.len()));
        }
        for &d in dims {
            ty = ty.array_of(d)?;
        }
        Ok(ty)
    }

    /// True for `void` (no members).
    #[inline]
    pub const fn is_void(&self) -> bool {
        self.nmembers == 0
    }

    /// True if the type is an array.
    #[inline]
    pub const fn is_array(&self) -> bool {
        self.ndims > 0
    }

    /// True if the type is a struct of two or more members (or an array of one).
    #[inline]
    pub const fn is_struct(&self) -> bool {
        self.nmembers > 1
    }

    /// True for a plain scalar or vector.
    #[inline]
    pub const fn is_basic(&self) -> bool {
        self.nmembers == 1 && self.ndims == 0
    }

    /// True for a plain scalar.
    #[inline]
    pub fn is_scalar(&self) -> bool {
        self.is_basic() && !self.members[0].is_vector()
    }

    /// True for a plain vector of two or more components.
    #[inline]
    pub fn is_vector(&self) -> bool {
        self.is_basic() && self.members[0].is_vector()
    }

    /// True if the outermost array dimension is unbounded.
    #[inline]
    pub fn is_unbounded(&self) -> bool {
        self.ndims > 0 && self.dims[self.ndims as usize - 1] == 0
    }

    /// Array sizes, innermost first.
    #[inline]
    pub fn dims(&self) -> &[u32] {
        &self.dims[..self.ndims as usize]
    }

    /// Struct members (one for a scalar or vector, none for void).
    #[inline]
    pub fn members(&self) -> &[BasicType] {
        &self.members[..self.nmembers as usize]
    }

    /// Total storage size in bits, or `None` if a scalar has no bit size (bool, unknown,
    /// descriptors) or an array is unbounded. A `Cast` keeps this size.
    #[inline]
    pub fn total_bits(&self) -> Option<u64> {
        let mut per: u64 = 0;
        for m in self.members() {
            per += u64::from(m.base().bit_size()?) * u64::from(m.vec_size());
        }
        let mut total = per;
        for &d in self.dims() {
            if d == 0 {
                return None;
            }
            total = total.checked_mul(u64::from(d))?;
        }
        Some(total)
    }

    /// The scalar or vector type if this is one, else `None`.
    #[inline]
    pub fn as_basic(&self) -> Option<BasicType> {
        self.is_basic().then_some(self.members[0])
    }

    /// The scalar type of a plain scalar or vector, else `None`.
    #[inline]
    pub fn base_type(&self) -> Option<ScalarType> {
        self.as_basic().map(BasicType::base)
    }

    /// The type of one element of the outermost array dimension; the type itself if not an array.
    #[inline]
    pub fn element_type(&self) -> Type {
        if self.ndims == 0 {
            return *self;
        }
        let mut ty = *self;
        ty.ndims -= 1;
        ty.dims[ty.ndims as usize] = 0;
        ty
    }

    /// The type one address index reaches from this one: the element of the outermost array,
    /// a struct member or a vector component. `index` is the index when it is a constant;
    /// struct members need one. `None` if the type has nothing to index or a constant index
    /// is out of range (of a sized array, the struct or the vector).
    #[inline]
    pub fn index_into(&self, index: Option<u64>) -> Option<Type> {
        if self.ndims != 0 {
            let len = self.dims[self.ndims as usize - 1];
            if index.is_some_and(|i| len != 0 && i >= u64::from(len)) {
                return None;
            }
            return Some(self.element_type());
        }
        let m = self.members();
        if m.len() > 1 {
            let k = usize::try_from(index?).ok()?;
            return m.get(k).map(|b| Type::basic(*b));
        }
        let b = self.as_basic()?;
        if !b.is_vector() || index.is_some_and(|i| i >= u64::from(b.vec_size())) {
            return None;
        }
        Some(Type::scalar(b.base()))
    }

    /// The type a whole address reaches from this one, one [`Type::index_into`] step per index;
    /// `Err(k)` if index `k` leaves the type.
    pub fn at_address(
        &self,
        indices: impl IntoIterator<Item = Option<u64>>,
    ) -> Result<Type, usize> {
        let mut t = *self;
        for (k, index) in indices.into_iter().enumerate() {
            t = t.index_into(index).ok_or(k)?;
        }
        Ok(t)
    }

    /// The type with array dimensions stripped (the struct, vector or scalar).
    #[inline]
    pub fn without_arrays(&self) -> Type {
        let mut ty = *self;
        ty.ndims = 0;
        ty.dims = [0; MAX_ARRAY_DIMS];
        ty
    }

    /// Replaces the scalar type of every member, keeping vector sizes and array shape.
    #[inline]
    pub fn with_base(&self, base: ScalarType) -> Type {
        let mut ty = *self;
        for m in &mut ty.members[..self.nmembers as usize] {
            *m = m.with_base(base);
        }
        ty
    }

    /// True if any member's scalar type is [`ScalarType::Unknown`].
    #[inline]
    pub fn has_unknown(&self) -> bool {
        self.members()
            .iter()
            .any(|m| m.base() == ScalarType::Unknown)
    }

    /// True if any member's scalar type is a min-precision type.
    #[inline]
    pub fn has_min_precision(&self) -> bool {
        self.members().iter().any(|m| m.base().is_min_precision())
    }

    /// Number of flattened scalars (array elements × components); `None` for unbounded arrays.
    #[inline]
    pub fn flattened_scalar_count(&self) -> Option<u64> {
        let per_struct: u64 = self.members().iter().map(|m| m.vec_size() as u64).sum();
        let mut count = per_struct;
        for &d in self.dims() {
            if d == 0 {
                return None;
            }
            count = count.checked_mul(d as u64)?;
        }
        Some(count)
    }

    /// The scalar type of the `index`-th flattened scalar (arrays repeat the struct's scalars).
    pub fn flattened_scalar_type(&self, index: usize) -> Option<ScalarType> {
        let per_struct: usize = self.members().iter().map(|m| m.vec_size() as usize).sum();
        if per_struct == 0 {
            return None;
        }
        let mut i = index % per_struct;
        for m in self.members() {
            let n = m.vec_size() as usize;
            if i < n {
                return Some(m.base());
            }
            i -= n;
        }
        None
    }
}

impl From<ScalarType> for Type {
    fn from(t: ScalarType) -> Self {
        Type::scalar(t)
    }
}

impl From<BasicType> for Type {
    fn from(t: BasicType) -> Self {
        Type::basic(t)
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text form: `void`, `f32`, `vec4<u32>`, `struct{u32, vec4<f32>}`, `u32[4][]` (dimensions
/// innermost first, `[]` unbounded).
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.nmembers {
            0 => f.write_str("void")?,
            1 => write!(f, "{}", self.members[0])?,
            _ => {
                f.write_str("struct{")?;
                for (i, m) in self.members().iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{m}")?;
                }
                f.write_str("}")?;
            }
        }
        for &d in self.dims() {
            if d == 0 {
                f.write_str("[]")?;
            } else {
                write!(f, "[{d}]")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_is_compact_and_copy() {
        assert!(std::mem::size_of::<Type>() <= 32);
        let t = Type::vector(ScalarType::F32, 4);
        let u = t;
        assert_eq!(t, u);
    }

    #[test]
    fn display_shapes() {
        assert_eq!(Type::VOID.to_string(), "void");
        assert_eq!(Type::scalar(ScalarType::F32).to_string(), "f32");
        assert_eq!(Type::vector(ScalarType::U32, 4).to_string(), "vec4<u32>");
        let s = Type::structure(&[
            BasicType::scalar(ScalarType::U32),
            BasicType::vector(ScalarType::F32, 4),
        ])
        .unwrap();
        assert_eq!(s.to_string(), "struct{u32, vec4<f32>}");
        let a = Type::scalar(ScalarType::U32)
            .array_of(4)
            .unwrap()
            .array_of(0)
            .unwrap();
        assert_eq!(a.to_string(), "u32[4][]");
        assert!(a.is_unbounded());
        assert_eq!(a.element_type().to_string(), "u32[4]");
    }

    #[test]
    fn limits_are_enforced() {
        let m = [BasicType::scalar(ScalarType::U32); MAX_STRUCT_MEMBERS + 1];
        assert_eq!(
            Type::structure(&m),
            Err(TypeError::TooManyMembers(MAX_STRUCT_MEMBERS + 1))
        );
        let t = Type::scalar(ScalarType::U32);
        let t3 = t
            .array_of(1)
            .unwrap()
            .array_of(2)
            .unwrap()
            .array_of(3)
            .unwrap();
        assert_eq!(t3.array_of(4), Err(TypeError::TooManyDims(4)));
        assert_eq!(Type::VOID.array_of(4), Err(TypeError::ArrayOfVoid));
        let unbounded = t.array_of(0).unwrap();
        assert_eq!(unbounded.array_of(2), Err(TypeError::UnboundedInner));
    }

    #[test]
    fn void_scalar_is_void_type() {
        assert!(Type::scalar(ScalarType::Void).is_void());
    }

    #[test]
    fn basic_type_packing_round_trips() {
        for t in ScalarType::ALL {
            for n in 1..=4 {
                let b = BasicType::vector(t, n);
                assert_eq!(BasicType::from_bits(b.bits()), Some(b));
                assert_eq!(b.base(), t);
                assert_eq!(b.vec_size(), n);
            }
            assert_eq!(ScalarType::from_name(t.name()), Some(t));
        }
        assert_eq!(BasicType::from_bits(0x1f), None);
    }

    #[test]
    fn flattened_counts() {
        let s = Type::structure(&[
            BasicType::scalar(ScalarType::U32),
            BasicType::vector(ScalarType::F32, 3),
        ])
        .unwrap()
        .array_of(2)
        .unwrap();
        assert_eq!(s.flattened_scalar_count(), Some(8));
        assert_eq!(s.flattened_scalar_type(4), Some(ScalarType::U32));
        assert_eq!(s.flattened_scalar_type(6), Some(ScalarType::F32));
    }
}
