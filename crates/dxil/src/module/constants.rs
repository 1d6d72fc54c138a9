//! Constants and constant expressions (`CONSTANTS_BLOCK`).
//!
//! A constants block defines a run of consecutive values: module-level constants after the
//! globals and functions, function-level ones after the arguments. Each record makes one
//! constant of the current type (set by `SETTYPE`, `i32` before the first). Operands are
//! absolute value ids and may point forward within the block, so they are checked when the
//! block ends: every operand must name a constant, global or function of the expected type,
//! and the operand graph must be acyclic and at most [`MAX_CONSTANT_DEPTH`] deep (a printer
//! or evaluator can recurse through it safely).

use crate::bitstream::names::constants as code;
use crate::bitstream::{Cursor, Entry, Record};
use crate::error::{Error, Location};
use crate::module::instructions::{BinaryOp, CastOp, Operands, Predicate};
use crate::module::types::{Type, TypeId, TypeTable};
use crate::module::{record_error, record_location, BlockId, ValueId, ValueInfo, ValueKind};

/// Deepest nesting of constants (an aggregate of aggregates, an expression of expressions).
pub const MAX_CONSTANT_DEPTH: u16 = 64;

/// A range of [`Constants`]' word buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Words {
    start: u32,
    len: u32,
}

impl Words {
    /// Number of words.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the range is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// A constant expression (`ConstantExpr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstExpr {
    /// A conversion to the constant's type.
    Cast {
        /// Operation.
        op: CastOp,
        /// Operand.
        value: ValueId,
    },
    /// A binary operation.
    Binary {
        /// Operation.
        op: BinaryOp,
        /// Flags (see [`crate::module::instructions::flags`]).
        flags: u8,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
    /// `getelementptr`: base pointer, then indices.
    GetElementPtr {
        /// `inbounds`.
        inbounds: bool,
        /// The type the base points to.
        source_type: TypeId,
        /// Base, then indices.
        operands: Operands,
    },
    /// `select`.
    Select {
        /// Condition.
        condition: ValueId,
        /// Value when true.
        if_true: ValueId,
        /// Value when false.
        if_false: ValueId,
    },
    /// `extractelement`.
    ExtractElement {
        /// Vector.
        vector: ValueId,
        /// Index.
        index: ValueId,
    },
    /// `insertelement`.
    InsertElement {
        /// Vector.
        vector: ValueId,
        /// New element.
        element: ValueId,
        /// Index.
        index: ValueId,
    },
    /// `shufflevector`.
    ShuffleVector {
        /// First vector.
        first: ValueId,
        /// Second vector.
        second: ValueId,
        /// Mask.
        mask: ValueId,
    },
    /// `icmp`/`fcmp`.
    Compare {
        /// Predicate.
        predicate: Predicate,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
}

/// One constant; its type is in the value table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constant {
    /// `zeroinitializer`, `null`, `0`, `0.0`: the type's zero.
    Null,
    /// `undef`.
    Undef,
    /// An integer up to 64 bits, sign-extended from its width (`i1 true` is -1).
    Integer(i64),
    /// A wider integer: little-endian 64-bit words.
    WideInteger(Words),
    /// A `half`, `float` or `double` as its IEEE bits (in the low 16, 32 or 64 bits).
    Float(u64),
    /// An `x86_fp80`, `fp128` or `ppc_fp128`: the two record words as stored.
    WideFloat(Words),
    /// A struct, array or vector of element value ids.
    Aggregate(Operands),
    /// An array or vector of integers or floats (element bits, one word each), including
    /// the `STRING`/`CSTRING` forms of `i8` arrays.
    Data(Words),
    /// A constant expression.
    Expression(ConstExpr),
    /// `blockaddress(@function, %block)`.
    BlockAddress {
        /// The function.
        function: ValueId,
        /// The block.
        block: BlockId,
    },
}

/// The constants of one scope (the module, or one function body).
#[derive(Clone, Debug, Default)]
pub struct Constants {
    items: Vec<Constant>,
    operands: Vec<ValueId>,
    words: Vec<u64>,
    /// Nesting depth of each constant (1 for leaves).
    depth: Vec<u16>,
}

impl Constants {
    /// Reserves room for the constants of a block of `bits` bits (an abbreviated integer
    /// constant takes under 20 bits), so the buffers rarely grow.
    /// Returns the number of constants reserved for.
    pub(crate) fn reserve_for_bits(&mut self, bits: u64) -> usize {
        let n = usize::try_from(bits / 16).unwrap_or(0);
        self.items.reserve(n);
        self.depth.reserve(n);
        self.words.reserve(n);
        self.operands.reserve(n);
        n
    }

    /// Number of constants.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Constant `index` (as in [`ValueKind::Constant`]).
    #[inline]
    pub fn get(&self, index: u32) -> Option<&Constant> {
        self.items.get(index as usize)
    }

    /// The value ids of an operand range.
    #[inline]
    pub fn operands(&self, range: Operands) -> &[ValueId] {
        let start = range.start as usize;
        self.operands
            .get(start..start + range.len as usize)
            .unwrap_or_default()
    }

    /// The words of a word range.
    #[inline]
    pub fn words(&self, range: Words) -> &[u64] {
        let start = range.start as usize;
        self.words
            .get(start..start + range.len as usize)
            .unwrap_or_default()
    }

    /// The nesting depth of constant `index`.
    pub(crate) fn depth(&self, index: u32) -> u16 {
        self.depth.get(index as usize).copied().unwrap_or(1)
    }

    fn push_operands(&mut self, ids: impl IntoIterator<Item = ValueId>) -> Operands {
        let start = self.operands.len() as u32;
        self.operands.extend(ids);
        Operands {
            start,
            len: self.operands.len() as u32 - start,
        }
    }

    fn push_words(&mut self, words: impl IntoIterator<Item = u64>) -> Words {
        let start = self.words.len() as u32;
        self.words.extend(words);
        Words {
            start,
            len: self.words.len() as u32 - start,
        }
    }

    /// The value ids a constant refers to (elements and expression operands).
    pub fn references(&self, c: &Constant) -> impl Iterator<Item = ValueId> + '_ {
        let (fixed, list): ([Option<ValueId>; 3], Option<Operands>) = match *c {
            Constant::Aggregate(ops) => ([None; 3], Some(ops)),
            Constant::Expression(e) => match e {
                ConstExpr::Cast { value, .. } => ([Some(value), None, None], None),
                ConstExpr::Binary { lhs, rhs, .. } | ConstExpr::Compare { lhs, rhs, .. } => {
                    ([Some(lhs), Some(rhs), None], None)
                }
                ConstExpr::GetElementPtr { operands, .. } => ([None; 3], Some(operands)),
                ConstExpr::Select {
                    condition,
                    if_true,
                    if_false,
                } => ([Some(condition), Some(if_true), Some(if_false)], None),
                ConstExpr::ExtractElement { vector, index } => {
                    ([Some(vector), Some(index), None], None)
                }
                ConstExpr::InsertElement {
                    vector,
                    element,
                    index,
                } => ([Some(vector), Some(element), Some(index)], None),
                ConstExpr::ShuffleVector {
                    first,
                    second,
                    mask,
                } => ([Some(first), Some(second), Some(mask)], None),
            },
            Constant::BlockAddress { function, .. } => ([Some(function), None, None], None),
            _ => ([None; 3], None),
        };
        fixed.into_iter().flatten().chain(
            list.map(|l| self.operands(l))
                .unwrap_or_default()
                .iter()
                .copied(),
        )
    }
}

/// Decodes LLVM's sign-rotated VBR value (sign in bit 0).
pub(crate) fn decode_signed(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

/// Sign-extends the low `width` bits of `v` (widths of 64 and more keep `v`).
pub(crate) fn sign_extend(v: i64, width: u32) -> i64 {
    if width >= 64 || width == 0 {
        v
    } else {
        let shift = 64 - width;
        (v << shift) >> shift
    }
}

/// The value table a constants block appends to: module values, and the function's own
/// values when reading a function-level block.
pub(crate) struct ValueScope<'v> {
    /// Module-level values (all of them, when reading a function).
    pub module: &'v [ValueInfo],
    /// Values of the scope being extended (the module's own, or the function's); ids from
    /// `local_base` on.
    pub local: &'v mut Vec<ValueInfo>,
    /// Absolute id of `local[0]`.
    pub local_base: u32,
}

impl ValueScope<'_> {
    /// The value with absolute id `id`.
    pub fn get(&self, id: ValueId) -> Option<&ValueInfo> {
        match id.0.checked_sub(self.local_base) {
            Some(i) => self.local.get(i as usize),
            None => self.module.get(id.index()),
        }
    }
}

/// An operand the record gives an explicit type for, checked when the block ends.
struct Expected {
    value: ValueId,
    ty: TypeId,
    bit: u64,
    code: u32,
}

/// A constant whose operands are checked when the block ends.
struct Pending {
    constant: u32,
    ty: TypeId,
    bit: u64,
    code: u32,
}

/// Reads a constants block (just entered) into `constants`, appending one value per
/// constant to `scope`. `outer` holds the module's constants when reading a function's.
pub(crate) fn read_block<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    types: &TypeTable,
    constants: &mut Constants,
    scope: &mut ValueScope<'_>,
    outer: Option<&Constants>,
) -> Result<(), Error> {
    let first = constants.items.len();
    let hint = constants.reserve_for_bits(cursor.bits_left_in_block());
    scope.local.reserve(hint);
    // Aggregates and forward references are rare in DXIL: these grow only when used.
    let mut pending: Vec<Pending> = Vec::new();
    let mut expected: Vec<Expected> = Vec::new();
    let mut current = types
        .iter()
        .find(|(_, t)| matches!(t, Type::Integer { width: 32 }))
        .map(|(id, _)| id);
    loop {
        let abbrev = match cursor.advance()? {
            Entry::EndBlock => break,
            Entry::EndOfStream => {
                return Err(Error::malformed(
                    cursor.location(),
                    "constants block not closed",
                ))
            }
            Entry::SubBlock(_) => {
                cursor.skip_block()?;
                continue;
            }
            Entry::Record(a) => a,
        };
        cursor.read_record(abbrev, record)?;
        let rec = &*record;
        if rec.code == code::SETTYPE {
            let raw = rec
                .op(0)
                .ok_or_else(|| record_error(cursor, rec, "no type"))?;
            let ty = types
                .resolve(raw)
                .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {raw}")))?;
            if matches!(
                types.ty(ty),
                Type::Void | Type::Label | Type::Metadata | Type::Function { .. }
            ) {
                return Err(record_error(
                    cursor,
                    rec,
                    "constants of void, label, metadata or function type",
                ));
            }
            current = Some(ty);
            continue;
        }
        let ty = current.ok_or_else(|| record_error(cursor, rec, "constant before SETTYPE"))?;
        let c = read_constant(cursor, rec, types, constants, ty, &mut expected)?;
        if !matches!(
            c,
            Constant::Null | Constant::Undef | Constant::Integer(_) | Constant::Float(_)
        ) {
            pending.push(Pending {
                constant: constants.items.len() as u32,
                ty,
                bit: rec.bit,
                code: rec.code,
            });
        }
        let index = constants.items.len() as u32;
        constants.items.push(c);
        constants.depth.push(1);
        scope.local.push(ValueInfo {
            ty,
            kind: ValueKind::Constant(index),
        });
    }
    check_block(cursor, types, constants, scope, outer, first, &pending)?;
    for e in &expected {
        let actual = scope.get(e.value).map(|v| v.ty);
        if actual != Some(e.ty) {
            return Err(Error::malformed(
                Location {
                    block: cursor.block_id(),
                    record: Some(e.code),
                    bit: e.bit,
                },
                format!(
                    "constant operand {} is not of the type the record gives",
                    e.value.0
                ),
            ));
        }
    }
    Ok(())
}

/// One constant record.
fn read_constant(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    types: &TypeTable,
    constants: &mut Constants,
    ty: TypeId,
    expected: &mut Vec<Expected>,
) -> Result<Constant, Error> {
    let missing = || record_error(cursor, rec, "missing operand");
    let mut expect = |value: ValueId, ty: TypeId| {
        expected.push(Expected {
            value,
            ty,
            bit: rec.bit,
            code: rec.code,
        })
    };
    let id = |v: u64| -> Result<ValueId, Error> {
        u32::try_from(v)
            .ok()
            .filter(|&v| v < crate::module::instructions::METADATA_OPERAND)
            .map(ValueId)
            .ok_or_else(|| record_error(cursor, rec, format!("value id {v}")))
    };
    let type_of = |raw: u64| -> Result<TypeId, Error> {
        types
            .resolve(raw)
            .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {raw}")))
    };
    let scalar = types.scalar(ty);
    Ok(match rec.code {
        code::NULL => Constant::Null,
        code::UNDEF => Constant::Undef,
        code::INTEGER => {
            let width = types.int_width(ty).ok_or_else(|| {
                record_error(cursor, rec, "integer constant of a non-integer type")
            })?;
            let v = decode_signed(rec.op(0).ok_or_else(missing)?);
            Constant::Integer(sign_extend(v, width))
        }
        code::WIDE_INTEGER => {
            if types.int_width(ty).is_none() || rec.ops.is_empty() {
                return Err(record_error(
                    cursor,
                    rec,
                    "wide integer of a non-integer type",
                ));
            }
            let words = rec.ops.iter().map(|&w| decode_signed(w) as u64);
            Constant::WideInteger(constants.push_words(words))
        }
        code::FLOAT => {
            let w = rec.op(0).ok_or_else(missing)?;
            match types.ty(ty) {
                Type::Half => Constant::Float(w & 0xFFFF),
                Type::Float => Constant::Float(w & 0xFFFF_FFFF),
                Type::Double => Constant::Float(w),
                Type::X86Fp80 | Type::Fp128 | Type::PpcFp128 => {
                    let hi = rec.op(1).ok_or_else(missing)?;
                    Constant::WideFloat(constants.push_words([w, hi]))
                }
                _ => {
                    return Err(record_error(
                        cursor,
                        rec,
                        "float constant of a non-float type",
                    ))
                }
            }
        }
        code::AGGREGATE => {
            let count = match types.ty(ty) {
                Type::Struct { elements, .. } => elements.len() as u64,
                Type::Array { len, .. } => len,
                Type::Vector { len, .. } => u64::from(len),
                _ => {
                    return Err(record_error(
                        cursor,
                        rec,
                        "aggregate of a non-aggregate type",
                    ))
                }
            };
            if rec.ops.len() as u64 != count {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("{} elements for a type of {count}", rec.ops.len()),
                ));
            }
            // Checked first, then stored straight into the operand buffer.
            for &v in &rec.ops {
                id(v)?;
            }
            Constant::Aggregate(constants.push_operands(rec.ops.iter().map(|&v| ValueId(v as u32))))
        }
        code::STRING | code::CSTRING => {
            let n = rec.ops.len() as u64 + u64::from(rec.code == code::CSTRING);
            let is_i8_array = matches!(types.ty(ty), Type::Array { len, element }
                if len == n && types.int_width(element) == Some(8));
            if !is_i8_array {
                return Err(record_error(
                    cursor,
                    rec,
                    "string constant whose type is not [N x i8]",
                ));
            }
            let nul = (rec.code == code::CSTRING).then_some(0);
            Constant::Data(constants.push_words(rec.ops.iter().map(|&c| c & 0xFF).chain(nul)))
        }
        code::DATA => {
            let (len, element) = match types.ty(ty) {
                Type::Array { len, element } => (len, element),
                Type::Vector { len, element } => (u64::from(len), element),
                _ => {
                    return Err(record_error(
                        cursor,
                        rec,
                        "data constant of a non-sequential type",
                    ))
                }
            };
            let mask = match types.ty(element) {
                Type::Integer { width: 8 } => 0xFF,
                Type::Integer { width: 16 } | Type::Half => 0xFFFF,
                Type::Integer { width: 32 } | Type::Float => 0xFFFF_FFFF,
                Type::Integer { width: 64 } | Type::Double => u64::MAX,
                _ => {
                    return Err(record_error(
                        cursor,
                        rec,
                        "data constant of an unsupported element type",
                    ))
                }
            };
            if rec.ops.len() as u64 != len {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("{} elements for a type of {len}", rec.ops.len()),
                ));
            }
            Constant::Data(constants.push_words(rec.ops.iter().map(|&w| w & mask)))
        }
        code::CE_BINOP => {
            let opcode = rec.op(0).ok_or_else(missing)?;
            let op = BinaryOp::from_code(opcode, types.is_float(scalar))
                .ok_or_else(|| record_error(cursor, rec, format!("binary opcode {opcode}")))?;
            let lhs = id(rec.op(1).ok_or_else(missing)?)?;
            let rhs = id(rec.op(2).ok_or_else(missing)?)?;
            let flags = rec.op(3).unwrap_or(0) as u8;
            Constant::Expression(ConstExpr::Binary {
                op,
                flags,
                lhs,
                rhs,
            })
        }
        code::CE_CAST => {
            let opcode = rec.op(0).ok_or_else(missing)?;
            let op = CastOp::from_code(opcode)
                .ok_or_else(|| record_error(cursor, rec, format!("cast opcode {opcode}")))?;
            let from = type_of(rec.op(1).ok_or_else(missing)?)?;
            let value = id(rec.op(2).ok_or_else(missing)?)?;
            expect(value, from);
            Constant::Expression(ConstExpr::Cast { op, value })
        }
        code::CE_GEP | code::CE_INBOUNDS_GEP => {
            let mut i = 0;
            let explicit = if rec.ops.len() % 2 == 1 {
                i = 1;
                Some(type_of(rec.op(0).ok_or_else(missing)?)?)
            } else {
                None
            };
            if rec.ops.len() < i + 2 {
                return Err(record_error(cursor, rec, "getelementptr without a base"));
            }
            let base_ty = type_of(rec.ops[i])?;
            let source_type = match (explicit, types.pointer(types.scalar(base_ty))) {
                (Some(t), Some((pointee, _))) if t == pointee => t,
                (Some(_), Some(_)) => {
                    return Err(record_error(
                        cursor,
                        rec,
                        "explicit getelementptr type is not the pointee",
                    ))
                }
                (None, Some((pointee, _))) => pointee,
                (_, None) => {
                    return Err(record_error(
                        cursor,
                        rec,
                        "getelementptr base is not a pointer",
                    ))
                }
            };
            let mut ids = Vec::with_capacity(rec.ops.len() / 2);
            while i + 1 < rec.ops.len() {
                let t = type_of(rec.ops[i])?;
                let v = id(rec.ops[i + 1])?;
                expect(v, t);
                ids.push(v);
                i += 2;
            }
            Constant::Expression(ConstExpr::GetElementPtr {
                inbounds: rec.code == code::CE_INBOUNDS_GEP,
                source_type,
                operands: constants.push_operands(ids),
            })
        }
        code::CE_SELECT => Constant::Expression(ConstExpr::Select {
            condition: id(rec.op(0).ok_or_else(missing)?)?,
            if_true: id(rec.op(1).ok_or_else(missing)?)?,
            if_false: id(rec.op(2).ok_or_else(missing)?)?,
        }),
        code::CE_EXTRACTELT => {
            // [opty, opval, idxty, idxval] (LLVM 3.7) or [opty, opval, idxval] (older).
            let vty = type_of(rec.op(0).ok_or_else(missing)?)?;
            let vector = id(rec.op(1).ok_or_else(missing)?)?;
            expect(vector, vty);
            let index = match rec.ops.len() {
                4 => {
                    let ity = type_of(rec.ops[2])?;
                    let index = id(rec.ops[3])?;
                    expect(index, ity);
                    index
                }
                3 => id(rec.ops[2])?,
                _ => return Err(record_error(cursor, rec, "malformed extractelement")),
            };
            Constant::Expression(ConstExpr::ExtractElement { vector, index })
        }
        code::CE_INSERTELT => {
            let vector = id(rec.op(0).ok_or_else(missing)?)?;
            let element = id(rec.op(1).ok_or_else(missing)?)?;
            expect(vector, ty);
            let index = match rec.ops.len() {
                4 => {
                    let ity = type_of(rec.ops[2])?;
                    let index = id(rec.ops[3])?;
                    expect(index, ity);
                    index
                }
                3 => id(rec.ops[2])?,
                _ => return Err(record_error(cursor, rec, "malformed insertelement")),
            };
            Constant::Expression(ConstExpr::InsertElement {
                vector,
                element,
                index,
            })
        }
        code::CE_SHUFFLEVEC | code::CE_SHUFVEC_EX => {
            let at = usize::from(rec.code == code::CE_SHUFVEC_EX);
            let operand_type = if at == 1 {
                type_of(rec.op(0).ok_or_else(missing)?)?
            } else {
                ty
            };
            let first = id(rec.op(at).ok_or_else(missing)?)?;
            let second = id(rec.op(at + 1).ok_or_else(missing)?)?;
            expect(first, operand_type);
            expect(second, operand_type);
            Constant::Expression(ConstExpr::ShuffleVector {
                first,
                second,
                mask: id(rec.op(at + 2).ok_or_else(missing)?)?,
            })
        }
        code::CE_CMP => {
            let operand_type = type_of(rec.op(0).ok_or_else(missing)?)?;
            let lhs = id(rec.op(1).ok_or_else(missing)?)?;
            let rhs = id(rec.op(2).ok_or_else(missing)?)?;
            expect(lhs, operand_type);
            expect(rhs, operand_type);
            let p = rec.op(3).ok_or_else(missing)?;
            let predicate = Predicate::from_code(p)
                .ok_or_else(|| record_error(cursor, rec, format!("predicate {p}")))?;
            Constant::Expression(ConstExpr::Compare {
                predicate,
                lhs,
                rhs,
            })
        }
        code::BLOCKADDRESS => {
            let fn_type = type_of(rec.op(0).ok_or_else(missing)?)?;
            let function = id(rec.op(1).ok_or_else(missing)?)?;
            expect(function, fn_type);
            let block = rec.op(2).ok_or_else(missing)?;
            let block = u32::try_from(block)
                .map_err(|_| record_error(cursor, rec, format!("block {block}")))?;
            Constant::BlockAddress {
                function,
                block: BlockId(block),
            }
        }
        code::INLINEASM | code::INLINEASM_OLD => {
            return Err(Error::Unsupported {
                location: record_location(cursor, rec),
                feature: "inline assembly",
            })
        }
        code::CE_GEP_WITH_INRANGE_INDEX | code::CE_UNOP | code::POISON => {
            return Err(Error::Unsupported {
                location: record_location(cursor, rec),
                feature: match rec.code {
                    code::CE_UNOP => "a unary constant expression (fneg)",
                    code::POISON => "poison",
                    _ => "getelementptr with an inrange index",
                },
            })
        }
        other => {
            return Err(record_error(
                cursor,
                rec,
                format!("unknown constant code {other}"),
            ))
        }
    })
}

/// Checks the operands of the constants of one block (from `first` on) once every constant
/// of the block exists: each names an existing constant, global or function of the type
/// the constant needs, and the nesting is acyclic and bounded.
fn check_block(
    cursor: &Cursor<'_>,
    types: &TypeTable,
    constants: &mut Constants,
    scope: &ValueScope<'_>,
    outer: Option<&Constants>,
    first: usize,
    pending: &[Pending],
) -> Result<(), Error> {
    let block = cursor.block_id();
    for p in pending {
        let here = Location {
            block,
            record: Some(p.code),
            bit: p.bit,
        };
        let err = |m: String| Error::malformed(here, m);
        let c = constants.items[p.constant as usize];
        let ty = p.ty;
        let ref_type = |id: ValueId| -> Result<TypeId, Error> {
            match scope.get(id) {
                Some(v)
                    if matches!(
                        v.kind,
                        ValueKind::Constant(_)
                            | ValueKind::GlobalVariable(_)
                            | ValueKind::Function(_)
                            | ValueKind::Alias(_)
                    ) =>
                {
                    Ok(v.ty)
                }
                Some(_) => Err(err(format!(
                    "constant operand %{} is not a constant or global",
                    id.0
                ))),
                None => Err(err(format!("constant operand {} is not defined", id.0))),
            }
        };
        let expect = |id: ValueId, want: TypeId, what: &str| -> Result<(), Error> {
            if ref_type(id)? != want {
                return Err(err(format!("{what} has the wrong type")));
            }
            Ok(())
        };
        for r in constants.references(&c) {
            ref_type(r)?;
        }
        match c {
            Constant::Aggregate(ops) => {
                for (i, &e) in constants.operands(ops).iter().enumerate() {
                    let want = types.element_at(ty, i as u64).unwrap_or(ty);
                    expect(e, want, "aggregate element")?;
                }
            }
            Constant::Expression(ConstExpr::Binary { lhs, rhs, .. }) => {
                expect(lhs, ty, "binary operand")?;
                expect(rhs, ty, "binary operand")?;
            }
            Constant::Expression(ConstExpr::Select {
                if_true, if_false, ..
            }) => {
                expect(if_true, ty, "select operand")?;
                expect(if_false, ty, "select operand")?;
            }
            Constant::Expression(ConstExpr::Compare { lhs, rhs, .. }) => {
                let l = ref_type(lhs)?;
                expect(rhs, l, "compare operand")?;
            }
            Constant::Expression(ConstExpr::GetElementPtr { operands, .. }) => {
                if let Some(&base) = constants.operands(operands).first() {
                    if types.pointer(types.scalar(ref_type(base)?)).is_none() {
                        return Err(err("getelementptr base is not a pointer".into()));
                    }
                }
            }
            _ => {}
        }
    }
    // Depths, in dependency order, with an explicit stack: 0 = unvisited, u16::MAX = on the
    // stack. Only the pending constants of this block can be unvisited: the others (null,
    // undef, integers, floats) refer to nothing and keep the depth 1 they were read with.
    let base = scope.local_base;
    for p in pending {
        constants.depth[p.constant as usize] = 0;
    }
    let const_index = |id: ValueId| -> Option<u32> {
        match scope.get(id)?.kind {
            ValueKind::Constant(i) if (i as usize) >= first && id.0 >= base => Some(i),
            _ => None,
        }
    };
    let mut stack: Vec<(u32, bool)> = Vec::new();
    for p in pending {
        let start = p.constant as usize;
        if constants.depth[start] != 0 {
            continue;
        }
        stack.push((start as u32, false));
        while let Some((i, expanded)) = stack.pop() {
            let c = constants.items[i as usize];
            if expanded {
                let mut d = 1u16;
                for r in constants.references(&c) {
                    let child = match (const_index(r), scope.get(r).map(|v| v.kind)) {
                        (Some(j), _) => constants.depth[j as usize],
                        (None, Some(ValueKind::Constant(j))) if r.0 >= base => constants.depth(j),
                        (None, Some(ValueKind::Constant(j))) => outer.map_or(1, |o| o.depth(j)),
                        _ => 1,
                    };
                    d = d.max(child.saturating_add(1));
                }
                if d > MAX_CONSTANT_DEPTH {
                    return Err(Error::Limit {
                        location: cursor.location(),
                        what: "constant nesting depth",
                        limit: u64::from(MAX_CONSTANT_DEPTH),
                    });
                }
                constants.depth[i as usize] = d;
                continue;
            }
            match constants.depth[i as usize] {
                0 => {}
                u16::MAX => {
                    return Err(Error::malformed(
                        cursor.location(),
                        format!("constant {} refers to itself", base as usize + i as usize),
                    ))
                }
                _ => continue,
            }
            constants.depth[i as usize] = u16::MAX;
            stack.push((i, true));
            for r in constants.references(&c) {
                if let Some(j) = const_index(r) {
                    match constants.depth[j as usize] {
                        0 => stack.push((j, false)),
                        u16::MAX => {
                            return Err(Error::malformed(
                                cursor.location(),
                                format!("constants refer to each other in a cycle (value {})", r.0),
                            ))
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    Ok(())
}
