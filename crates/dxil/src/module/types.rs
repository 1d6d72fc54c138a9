//! The type table: every type of the module, by id.
//!
//! Types are read from the `TYPE_BLOCK_ID` block; a type's id is its position in the block.
//! Structural types (everything but named structs) are *uniqued* as in LLVM: two records
//! describing the same type get the same [`TypeId`], so comparing ids compares types. The
//! reader also adds the few derived types an instruction's result may need that the table
//! lacks (a pointer to an `alloca`'s type, `{ T, i1 }` for `cmpxchg`), appended after the
//! module's own types.
//!
//! Only named structs may be referenced before they are defined (LLVM's rule), so every
//! type can be printed by walking its elements, and the walk ends at named structs. The depth
//! of that walk is bounded by [`MAX_TYPE_DEPTH`].

use smallvec::SmallVec;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::bitstream::names::ty as code;
use crate::bitstream::{Cursor, Entry, Record};
use crate::error::Error;
use crate::module::strings::{Str, Strings};
use crate::module::{record_error, record_location};

/// Deepest nesting of anonymous types (`[2 x [3 x <4 x float>]]` has depth 3).
pub const MAX_TYPE_DEPTH: u32 = 64;

/// A type, by its position in the type table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

impl TypeId {
    /// The id as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A range of the type table's element buffer: a struct's fields or a function's parameters
/// (see [`TypeTable::list`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TypeList {
    start: u32,
    len: u32,
}

impl TypeList {
    /// Number of types in the list.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// One LLVM type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`.
    Void,
    /// `half`.
    Half,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `x86_fp80`.
    X86Fp80,
    /// `fp128`.
    Fp128,
    /// `ppc_fp128`.
    PpcFp128,
    /// `label`: the type of basic blocks.
    Label,
    /// `metadata`.
    Metadata,
    /// `x86_mmx`.
    X86Mmx,
    /// `iN`.
    Integer {
        /// Bit width (1 to 2^23).
        width: u32,
    },
    /// `T addrspace(n)*`.
    Pointer {
        /// The pointed-to type.
        pointee: TypeId,
        /// The address space (DXIL: 0 local, 1 device, 2 constant buffer, 3 groupshared).
        address_space: u32,
    },
    /// `[n x T]`.
    Array {
        /// Number of elements.
        len: u64,
        /// Element type.
        element: TypeId,
    },
    /// `<n x T>`.
    Vector {
        /// Number of elements.
        len: u32,
        /// Element type.
        element: TypeId,
    },
    /// A struct: named (`%name = type {...}`, identified by its id) or anonymous
    /// (`{ ... }`, uniqued by its fields).
    Struct {
        /// The name, for named structs.
        name: Option<Str>,
        /// Whether the struct is identified (named or numbered) rather than a literal.
        identified: bool,
        /// Packed (`<{ ... }>`).
        packed: bool,
        /// Opaque (no body).
        opaque: bool,
        /// The fields.
        elements: TypeList,
    },
    /// A function type.
    Function {
        /// Takes variable arguments.
        vararg: bool,
        /// Return type.
        ret: TypeId,
        /// Parameter types.
        params: TypeList,
    },
}

/// A multiply-rotate hasher for the small integer keys of the type table (type ids and
/// widths): much cheaper than SipHash, and the keys are not attacker-chosen hash-flooding
/// material beyond the size of the input.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The hash map the type table uses.
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// All types of a module.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    types: Vec<Type>,
    /// Struct fields and function parameters.
    elements: Vec<TypeId>,
    /// For each bitcode type id, the canonical id (the first identical type).
    canonical: Vec<TypeId>,
    /// Printing depth of each type (named structs count 1).
    depth: Vec<u32>,
    /// Number of types the bitcode defines (the rest were added by the reader).
    defined: usize,
    /// Structural types by [`TypeTable::shape_hash`] (one id per hash but for collisions).
    uniqued: IdMap<u64, SmallVec<[TypeId; 1]>>,
}

impl TypeTable {
    /// Reserves room for `count` types (the type block's `NUMENTRY`) and those the reader
    /// adds, so the tables rarely grow.
    pub(crate) fn reserve(&mut self, count: usize) {
        let n = count.saturating_add(8);
        self.types.reserve(n);
        self.canonical.reserve(n);
        self.depth.reserve(n);
        self.elements.reserve(2 * n);
        self.uniqued.reserve(n);
    }

    /// Number of types, those the reader added included.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// Number of types the bitcode's type table defines.
    pub fn defined_len(&self) -> usize {
        self.defined
    }

    /// The type with id `id`.
    #[inline]
    pub fn get(&self, id: TypeId) -> Option<&Type> {
        self.types.get(id.index())
    }

    /// The type with id `id`, `void` for an id out of range (ids the reader hands out are
    /// always in range).
    #[inline]
    pub fn ty(&self, id: TypeId) -> Type {
        self.types.get(id.index()).copied().unwrap_or(Type::Void)
    }

    /// The types of a list.
    #[inline]
    pub fn list(&self, list: TypeList) -> &[TypeId] {
        let start = list.start as usize;
        self.elements
            .get(start..start + list.len as usize)
            .unwrap_or_default()
    }

    /// Every type with its id, in table order.
    pub fn iter(&self) -> impl Iterator<Item = (TypeId, &Type)> {
        self.types
            .iter()
            .enumerate()
            .map(|(i, t)| (TypeId(i as u32), t))
    }

    /// The canonical id of bitcode type id `raw`, if it is defined.
    #[inline]
    pub fn resolve(&self, raw: u64) -> Option<TypeId> {
        self.canonical.get(usize::try_from(raw).ok()?).copied()
    }

    /// The integer width, for integer types.
    pub fn int_width(&self, id: TypeId) -> Option<u32> {
        match self.ty(id) {
            Type::Integer { width } => Some(width),
            _ => None,
        }
    }

    /// Whether `id` is `half`, `float`, `double` or another floating-point type.
    pub fn is_float(&self, id: TypeId) -> bool {
        matches!(
            self.ty(id),
            Type::Half | Type::Float | Type::Double | Type::X86Fp80 | Type::Fp128 | Type::PpcFp128
        )
    }

    /// The element type of a vector, else `id` itself (LLVM's `getScalarType`).
    pub fn scalar(&self, id: TypeId) -> TypeId {
        match self.ty(id) {
            Type::Vector { element, .. } => element,
            _ => id,
        }
    }

    /// The pointee and address space of a pointer type.
    pub fn pointer(&self, id: TypeId) -> Option<(TypeId, u32)> {
        match self.ty(id) {
            Type::Pointer {
                pointee,
                address_space,
            } => Some((pointee, address_space)),
            _ => None,
        }
    }

    /// Return type, parameter types and varargs flag of a function type.
    pub fn function(&self, id: TypeId) -> Option<(TypeId, &[TypeId], bool)> {
        match self.ty(id) {
            Type::Function {
                vararg,
                ret,
                params,
            } => Some((ret, self.list(params), vararg)),
            _ => None,
        }
    }

    /// The fields of a struct type.
    pub fn struct_elements(&self, id: TypeId) -> Option<&[TypeId]> {
        match self.ty(id) {
            Type::Struct { elements, .. } => Some(self.list(elements)),
            _ => None,
        }
    }

    /// Whether values of this type are first-class (can be an instruction's result or operand).
    pub fn is_first_class(&self, id: TypeId) -> bool {
        !matches!(self.ty(id), Type::Void | Type::Function { .. })
    }

    /// Whether `id` is an aggregate (struct or array).
    pub fn is_aggregate(&self, id: TypeId) -> bool {
        matches!(self.ty(id), Type::Struct { .. } | Type::Array { .. })
    }

    /// The type at field or element `index` of an aggregate or vector (`None` when out of
    /// range or not indexable).
    pub fn element_at(&self, id: TypeId, index: u64) -> Option<TypeId> {
        match self.ty(id) {
            Type::Struct { elements, .. } => self
                .list(elements)
                .get(usize::try_from(index).ok()?)
                .copied(),
            Type::Array { len, element } => (index < len).then_some(element),
            Type::Vector { len, element } => (index < u64::from(len)).then_some(element),
            _ => None,
        }
    }

    /// The element type of an array or vector (any index).
    pub fn sequential_element(&self, id: TypeId) -> Option<TypeId> {
        match self.ty(id) {
            Type::Array { element, .. } | Type::Vector { element, .. } => Some(element),
            _ => None,
        }
    }

    fn depth_of(&self, t: &Type, elements: &[TypeId]) -> u32 {
        let d = |id: TypeId| self.depth.get(id.index()).copied().unwrap_or(1);
        match *t {
            Type::Pointer { pointee, .. } => 1 + d(pointee),
            Type::Array { element, .. } | Type::Vector { element, .. } => 1 + d(element),
            Type::Struct {
                identified: true, ..
            } => 1,
            Type::Struct { .. } => 1 + elements.iter().map(|&e| d(e)).max().unwrap_or(0),
            Type::Function { ret, .. } => {
                1 + elements
                    .iter()
                    .map(|&e| d(e))
                    .max()
                    .unwrap_or(0)
                    .max(d(ret))
            }
            _ => 1,
        }
    }

    /// The hash under which a structural type is uniqued (`None` for identified structs,
    /// which are never merged): its kind and fields, with the field or parameter list taken
    /// from `elements`.
    fn shape_hash(t: &Type, elements: &[TypeId]) -> Option<u64> {
        let mut h = IdHasher::default();
        match *t {
            Type::Struct {
                identified: true, ..
            } => return None,
            Type::Struct { packed, .. } => {
                h.write_u8(1);
                h.write_u8(u8::from(packed));
            }
            Type::Function { vararg, ret, .. } => {
                h.write_u8(2);
                h.write_u8(u8::from(vararg));
                h.write_u32(ret.0);
            }
            ref simple => {
                h.write_u8(0);
                simple.hash(&mut h);
            }
        }
        for e in elements {
            h.write_u32(e.0);
        }
        Some(h.finish())
    }

    /// Whether type `id` is the structural type `t` with fields or parameters `elements`.
    fn same_shape(&self, id: TypeId, t: &Type, elements: &[TypeId]) -> bool {
        let Some(u) = self.types.get(id.0 as usize) else {
            return false;
        };
        match (*u, *t) {
            (
                Type::Struct {
                    identified: false,
                    packed: p1,
                    elements: l1,
                    ..
                },
                Type::Struct {
                    identified: false,
                    packed: p2,
                    ..
                },
            ) => p1 == p2 && self.list(l1) == elements,
            (
                Type::Function {
                    vararg: v1,
                    ret: r1,
                    params: l1,
                },
                Type::Function {
                    vararg: v2,
                    ret: r2,
                    ..
                },
            ) => v1 == v2 && r1 == r2 && self.list(l1) == elements,
            (Type::Struct { .. } | Type::Function { .. }, _)
            | (_, Type::Struct { .. } | Type::Function { .. }) => false,
            (u, t) => u == t,
        }
    }

    /// Adds a type (with its field or parameter list), or finds the identical one.
    fn add(&mut self, mut t: Type, elements: &[TypeId]) -> TypeId {
        let key = Self::shape_hash(&t, elements);
        if let Some(ids) = key.and_then(|k| self.uniqued.get(&k)) {
            if let Some(&id) = ids.iter().find(|&&id| self.same_shape(id, &t, elements)) {
                return id;
            }
        }
        let list = TypeList {
            start: self.elements.len() as u32,
            len: elements.len() as u32,
        };
        match &mut t {
            Type::Struct { elements, .. } => *elements = list,
            Type::Function { params, .. } => *params = list,
            _ => {}
        }
        let depth = self.depth_of(&t, elements);
        self.elements.extend_from_slice(elements);
        let id = TypeId(self.types.len() as u32);
        self.types.push(t);
        self.depth.push(depth);
        if let Some(k) = key {
            self.uniqued.entry(k).or_default().push(id);
        }
        id
    }

    /// The pointer type to `pointee` in `address_space`, added when missing.
    pub(crate) fn pointer_to(&mut self, pointee: TypeId, address_space: u32) -> TypeId {
        self.add(
            Type::Pointer {
                pointee,
                address_space,
            },
            &[],
        )
    }

    /// The literal struct `{ elements }`, added when missing.
    pub(crate) fn literal_struct(&mut self, elements: &[TypeId]) -> TypeId {
        self.add(
            Type::Struct {
                name: None,
                identified: false,
                packed: false,
                opaque: false,
                elements: TypeList::default(),
            },
            elements,
        )
    }

    /// `<len x element>`, added when missing.
    pub(crate) fn vector_of(&mut self, element: TypeId, len: u32) -> TypeId {
        self.add(Type::Vector { len, element }, &[])
    }

    /// `void`, added when missing.
    pub(crate) fn add_void(&mut self) -> TypeId {
        self.add(Type::Void, &[])
    }

    /// `iN`, added when missing.
    pub(crate) fn integer(&mut self, width: u32) -> TypeId {
        self.add(Type::Integer { width }, &[])
    }

    /// Reads the type block (the cursor has just entered it).
    pub(crate) fn read_block<'a>(
        &mut self,
        cursor: &mut Cursor<'a>,
        record: &mut Record<'a>,
        strings: &mut Strings,
    ) -> Result<(), Error> {
        if !self.types.is_empty() {
            return Err(Error::malformed(cursor.location(), "a second type table"));
        }
        let mut expected: Option<u64> = None;
        let mut pending_name: Option<Str> = None;
        // Bitcode ids referenced before their record: the placeholder (an opaque identified
        // struct) each got, to be filled by a named struct record, as in LLVM.
        let mut placeholders: HashMap<u64, TypeId> = HashMap::new();
        let mut scratch: Vec<TypeId> = Vec::with_capacity(16);
        loop {
            let abbrev = match cursor.advance()? {
                Entry::EndBlock => break,
                Entry::EndOfStream => {
                    return Err(Error::malformed(cursor.location(), "type block not closed"))
                }
                Entry::SubBlock(_) => {
                    cursor.skip_block()?;
                    continue;
                }
                Entry::Record(a) => a,
            };
            cursor.read_record(abbrev, record)?;
            let rec = &*record;
            if rec.code == code::NUMENTRY {
                let n = rec
                    .op(0)
                    .ok_or_else(|| record_error(cursor, rec, "no count"))?;
                // Each type record takes at least 3 bits (an abbreviation id of all-literal
                // operands): bound the count before reserving.
                if n > cursor.data().len() as u64 * 8 / 3 {
                    return Err(record_error(
                        cursor,
                        rec,
                        format!("{n} types cannot fit in the bitcode"),
                    ));
                }
                expected = Some(n);
                // Reserve what a real table needs; a larger count grows as records arrive.
                let hint = n.min(1 << 12) as usize;
                self.reserve(hint);
                continue;
            }
            let this = self.canonical.len() as u64;
            if rec.code != code::STRUCT_NAME && expected.is_some_and(|n| this >= n) {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("more types than the {} NUMENTRY announced", this),
                ));
            }
            let missing = || record_error(cursor, rec, "missing operand");
            let t = match rec.code {
                code::VOID => Type::Void,
                code::HALF => Type::Half,
                code::FLOAT => Type::Float,
                code::DOUBLE => Type::Double,
                code::X86_FP80 => Type::X86Fp80,
                code::FP128 => Type::Fp128,
                code::PPC_FP128 => Type::PpcFp128,
                code::LABEL => Type::Label,
                code::METADATA => Type::Metadata,
                code::X86_MMX => Type::X86Mmx,
                code::INTEGER => {
                    let width = rec.op(0).ok_or_else(missing)?;
                    if !(1..=(1 << 23)).contains(&width) {
                        return Err(record_error(cursor, rec, format!("integer width {width}")));
                    }
                    Type::Integer {
                        width: width as u32,
                    }
                }
                code::POINTER => {
                    let raw = rec.op(0).ok_or_else(missing)?;
                    let pointee = self.operand(raw, expected, &mut placeholders, cursor, rec)?;
                    let address_space = rec.op(1).unwrap_or(0);
                    let address_space = u32::try_from(address_space).map_err(|_| {
                        record_error(cursor, rec, format!("address space {address_space}"))
                    })?;
                    if matches!(self.ty(pointee), Type::Void | Type::Label | Type::Metadata) {
                        return Err(record_error(
                            cursor,
                            rec,
                            "pointer to void, label or metadata",
                        ));
                    }
                    Type::Pointer {
                        pointee,
                        address_space,
                    }
                }
                code::ARRAY | code::VECTOR => {
                    let len = rec.op(0).ok_or_else(missing)?;
                    let raw = rec.op(1).ok_or_else(missing)?;
                    let element = self.operand(raw, expected, &mut placeholders, cursor, rec)?;
                    if matches!(
                        self.ty(element),
                        Type::Void | Type::Label | Type::Metadata | Type::Function { .. }
                    ) {
                        return Err(record_error(cursor, rec, "invalid element type"));
                    }
                    if rec.code == code::ARRAY {
                        Type::Array { len, element }
                    } else {
                        let len = u32::try_from(len).ok().filter(|&l| l > 0).ok_or_else(|| {
                            record_error(cursor, rec, format!("vector length {len}"))
                        })?;
                        Type::Vector { len, element }
                    }
                }
                code::FUNCTION | code::FUNCTION_OLD => {
                    // FUNCTION: [vararg, retty, paramty...]; FUNCTION_OLD has an attribute id
                    // after vararg.
                    let first = if rec.code == code::FUNCTION { 1 } else { 2 };
                    let vararg = rec.op(0).ok_or_else(missing)? != 0;
                    let raw = rec.op(first).ok_or_else(missing)?;
                    let ret = self.operand(raw, expected, &mut placeholders, cursor, rec)?;
                    if matches!(
                        self.ty(ret),
                        Type::Label | Type::Metadata | Type::Function { .. }
                    ) {
                        return Err(record_error(cursor, rec, "invalid return type"));
                    }
                    scratch.clear();
                    for &raw in rec.ops.get(first + 1..).unwrap_or_default() {
                        let p = self.operand(raw, expected, &mut placeholders, cursor, rec)?;
                        if matches!(self.ty(p), Type::Void | Type::Function { .. }) {
                            return Err(record_error(cursor, rec, "invalid parameter type"));
                        }
                        scratch.push(p);
                    }
                    Type::Function {
                        vararg,
                        ret,
                        params: TypeList::default(),
                    }
                }
                code::STRUCT_ANON | code::STRUCT_NAMED => {
                    let packed = rec.op(0).ok_or_else(missing)? != 0;
                    scratch.clear();
                    for &raw in rec.ops.get(1..).unwrap_or_default() {
                        let e = self.operand(raw, expected, &mut placeholders, cursor, rec)?;
                        if matches!(
                            self.ty(e),
                            Type::Void | Type::Label | Type::Metadata | Type::Function { .. }
                        ) {
                            return Err(record_error(cursor, rec, "invalid struct field type"));
                        }
                        scratch.push(e);
                    }
                    let named = rec.code == code::STRUCT_NAMED;
                    Type::Struct {
                        name: if named { pending_name.take() } else { None },
                        identified: named,
                        packed,
                        opaque: false,
                        elements: TypeList::default(),
                    }
                }
                code::OPAQUE => {
                    scratch.clear();
                    Type::Struct {
                        name: pending_name.take(),
                        identified: true,
                        packed: false,
                        opaque: true,
                        elements: TypeList::default(),
                    }
                }
                code::STRUCT_NAME => {
                    let Some(name) = strings.add_ops(&rec.ops) else {
                        return Err(record_error(cursor, rec, "struct name is not bytes"));
                    };
                    pending_name = Some(name);
                    continue;
                }
                code::TOKEN
                | code::BFLOAT
                | code::X86_AMX
                | code::OPAQUE_POINTER
                | code::TARGET_TYPE => {
                    return Err(Error::Unsupported {
                        location: record_location(cursor, rec),
                        feature: match rec.code {
                            code::TOKEN => "the token type",
                            code::BFLOAT => "the bfloat type",
                            code::X86_AMX => "the x86_amx type",
                            code::OPAQUE_POINTER => "an opaque pointer type",
                            _ => "a target extension type",
                        },
                    })
                }
                other => {
                    return Err(record_error(
                        cursor,
                        rec,
                        format!("unknown type code {other}"),
                    ))
                }
            };
            let elements: &[TypeId] = match t {
                Type::Struct { .. } | Type::Function { .. } => &scratch,
                _ => &[],
            };
            let depth = self.depth_of(&t, elements);
            if depth > MAX_TYPE_DEPTH {
                return Err(Error::Limit {
                    location: record_location(cursor, rec),
                    what: "type nesting depth",
                    limit: u64::from(MAX_TYPE_DEPTH),
                });
            }
            let id = match placeholders.get(&this) {
                Some(&placeholder) => {
                    if !matches!(
                        t,
                        Type::Struct {
                            identified: true,
                            ..
                        }
                    ) {
                        return Err(record_error(
                            cursor,
                            rec,
                            "only named structs can be referenced before their definition",
                        ));
                    }
                    self.fill(placeholder, t, elements);
                    placeholder
                }
                None => self.add(t, elements),
            };
            self.canonical.push(id);
        }
        let count = self.canonical.len() as u64;
        if let Some(n) = expected {
            if count != n {
                return Err(Error::malformed(
                    cursor.location(),
                    format!("type table has {count} types, NUMENTRY announced {n}"),
                ));
            }
        }
        if placeholders.keys().any(|&raw| raw >= count) {
            return Err(Error::malformed(
                cursor.location(),
                "a type id referenced in the type table is never defined",
            ));
        }
        self.defined = self.types.len();
        Ok(())
    }

    /// A type operand inside the type table: an earlier type, or a placeholder for a later
    /// one (which must turn out to be a named struct).
    fn operand(
        &mut self,
        raw: u64,
        expected: Option<u64>,
        placeholders: &mut HashMap<u64, TypeId>,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
    ) -> Result<TypeId, Error> {
        if let Some(id) = self.resolve(raw) {
            return Ok(id);
        }
        if expected.is_none_or(|n| raw >= n) {
            return Err(record_error(
                cursor,
                rec,
                format!("undefined type id {raw}"),
            ));
        }
        if let Some(&id) = placeholders.get(&raw) {
            return Ok(id);
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(Type::Struct {
            name: None,
            identified: true,
            packed: false,
            opaque: true,
            elements: TypeList::default(),
        });
        self.depth.push(1);
        placeholders.insert(raw, id);
        Ok(id)
    }

    /// Gives a placeholder its named struct's name and body.
    fn fill(&mut self, id: TypeId, mut t: Type, elements: &[TypeId]) {
        if let Type::Struct { elements: list, .. } = &mut t {
            *list = TypeList {
                start: self.elements.len() as u32,
                len: elements.len() as u32,
            };
        }
        self.elements.extend_from_slice(elements);
        if let Some(slot) = self.types.get_mut(id.index()) {
            *slot = t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structural_types_are_uniqued_by_shape() {
        let mut t = TypeTable::default();
        let i32t = t.integer(32);
        let i8t = t.integer(8);
        assert_eq!(t.integer(32), i32t);
        let s = t.literal_struct(&[i32t, i8t]);
        assert_eq!(t.literal_struct(&[i32t, i8t]), s);
        assert_ne!(t.literal_struct(&[i8t, i32t]), s);
        assert_ne!(t.literal_struct(&[i32t]), s);
        let p = t.pointer_to(s, 0);
        assert_eq!(t.pointer_to(s, 0), p);
        assert_ne!(t.pointer_to(s, 3), p);
        assert_eq!(t.vector_of(i32t, 4), t.vector_of(i32t, 4));
        assert_ne!(t.vector_of(i32t, 4), t.vector_of(i32t, 2));
        // A packed struct of the same fields and a named struct are other types.
        let packed = t.add(
            Type::Struct {
                name: None,
                identified: false,
                packed: true,
                opaque: false,
                elements: TypeList::default(),
            },
            &[i32t, i8t],
        );
        assert_ne!(packed, s);
        let named = Type::Struct {
            name: None,
            identified: true,
            packed: false,
            opaque: false,
            elements: TypeList::default(),
        };
        let a = t.add(named, &[i32t, i8t]);
        let b = t.add(named, &[i32t, i8t]);
        assert_ne!(a, b);
        assert_eq!(t.struct_elements(a), Some(&[i32t, i8t][..]));
    }
}
