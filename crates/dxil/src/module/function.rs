//! Function bodies (`FUNCTION_BLOCK`): basic blocks, instructions, local constants,
//! metadata, names and attachments.
//!
//! Instruction records name their operands relative to the value the instruction defines
//! (module `VERSION` 1): operand `n` means value `next - n`, so a forward reference (a `phi`
//! of a later value, a use in a block laid out before its definition) wraps around; such
//! operands carry their type in the record when the instruction needs it. `phi` operands
//! are signed instead. Every forward reference is remembered with the type the instruction
//! expects and checked when the body is complete, so a body that reads is well typed.

use crate::bitstream::names::{block, function as code};
use crate::bitstream::{Cursor, Entry, Record};
use crate::error::{Error, Location};
use crate::module::attributes::Attributes;
use crate::module::constants::{self, Constants, ValueScope};
use crate::module::instructions::{
    Atomic, AtomicOrdering, BinaryOp, CastOp, Instruction, Op, Operands, Predicate, RmwOp,
    SyncScope, TailKind, METADATA_OPERAND,
};
use crate::module::metadata::{self, Metadata, MetadataId, MetadataKind, MetadataSink};
use crate::module::strings::Strings;
use crate::module::symtab::{self, Symbol};
use crate::module::types::{Type, TypeId, TypeTable};
use crate::module::{
    record_error, record_location, Block, BlockId, Constant, DebugLoc, FunctionBody, ValueId,
    ValueInfo, ValueKind,
};

/// What a function body needs from the module.
pub(crate) struct ModuleContext<'m> {
    pub types: &'m mut TypeTable,
    pub values: &'m [ValueInfo],
    pub constants: &'m Constants,
    pub attributes: &'m Attributes,
    pub metadata_kinds: &'m [MetadataKind],
    pub metadata_end: u32,
    pub strings: &'m mut Strings,
    /// Module `VERSION` >= 1: operands are relative.
    pub relative: bool,
}

/// A forward reference to check when the body is complete.
struct Forward {
    id: u32,
    ty: TypeId,
    bit: u64,
}

/// State while reading one body.
struct Builder<'c, 'm> {
    ctx: &'c mut ModuleContext<'m>,
    body: FunctionBody,
    /// The function's return type.
    ret: TypeId,
    /// Absolute id of the next value.
    next: u32,
    /// `DECLAREBLOCKS` count, once seen.
    declared: Option<u32>,
    /// Start of the block being filled.
    block_start: u32,
    forward: Vec<Forward>,
    /// Metadata ids used by calls and attachments, with their bits, checked at the end.
    metadata_uses: Vec<(u32, u64)>,
    scratch: Vec<u32>,
    last_loc: Option<DebugLoc>,
}

/// Reads a function block (just entered) for a function of type `fn_type`.
pub(crate) fn read_function_block<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    ctx: &mut ModuleContext<'_>,
    fn_type: TypeId,
) -> Result<FunctionBody, Error> {
    let Some((ret, params, _)) = ctx.types.function(fn_type) else {
        return Err(Error::malformed(
            cursor.location(),
            "function body of a non-function type",
        ));
    };
    let params = params.to_vec();
    let first = ctx.values.len() as u32;
    let mut body = FunctionBody {
        first_value: first,
        argument_count: params.len() as u32,
        metadata: Metadata::with_base(ctx.metadata_end),
        ..Default::default()
    };
    for (i, &ty) in params.iter().enumerate() {
        body.values.push(ValueInfo {
            ty,
            kind: ValueKind::Argument(i as u32),
        });
    }
    let mut b = Builder {
        ctx,
        next: first + params.len() as u32,
        body,
        ret,
        declared: None,
        block_start: 0,
        forward: Vec::new(),
        metadata_uses: Vec::new(),
        scratch: Vec::new(),
        last_loc: None,
    };
    loop {
        let abbrev = match cursor.advance()? {
            Entry::EndBlock => break,
            Entry::EndOfStream => {
                return Err(Error::malformed(
                    cursor.location(),
                    "function block not closed",
                ))
            }
            Entry::SubBlock(id) => {
                b.sub_block(cursor, record, id)?;
                continue;
            }
            Entry::Record(a) => a,
        };
        cursor.read_record(abbrev, record)?;
        b.record(cursor, record)?;
    }
    b.finish(cursor)
}

impl Builder<'_, '_> {
    fn sub_block<'a>(
        &mut self,
        cursor: &mut Cursor<'a>,
        record: &mut Record<'a>,
        id: u32,
    ) -> Result<(), Error> {
        match id {
            block::CONSTANTS => {
                cursor.enter_block(id)?;
                let mut scope = ValueScope {
                    module: self.ctx.values,
                    local: &mut self.body.values,
                    local_base: self.body.first_value,
                };
                constants::read_block(
                    cursor,
                    record,
                    self.ctx.types,
                    &mut self.body.constants,
                    &mut scope,
                    Some(self.ctx.constants),
                )?;
                self.next = self.body.first_value + self.body.values.len() as u32;
            }
            block::METADATA => {
                cursor.enter_block(id)?;
                let mut sink = MetadataSink {
                    metadata: &mut self.body.metadata,
                    named: None,
                    kinds: None,
                    strings: self.ctx.strings,
                };
                metadata::read_block(cursor, record, self.ctx.types, &mut sink)?;
            }
            block::METADATA_ATTACHMENT => {
                cursor.enter_block(id)?;
                let bit = cursor.position();
                let before = self.body.attachments.len();
                let before_fn = self.body.function_attachments.len();
                metadata::read_attachments(
                    cursor,
                    record,
                    self.ctx.metadata_kinds,
                    self.body.instructions.len() as u32,
                    &mut self.body.attachments,
                    &mut self.body.function_attachments,
                )?;
                let uses = self.body.attachments[before..]
                    .iter()
                    .map(|a| a.node.0)
                    .chain(
                        self.body.function_attachments[before_fn..]
                            .iter()
                            .map(|(_, n)| n.0),
                    );
                self.metadata_uses.extend(uses.map(|n| (n, bit)));
            }
            block::VALUE_SYMTAB => {
                cursor.enter_block(id)?;
                let body = &mut self.body;
                let next = self.next;
                symtab::read_block(
                    cursor,
                    record,
                    self.ctx.strings,
                    |symbol, name, at| match symbol {
                        Symbol::Value(v) => {
                            let local = v
                                .checked_sub(u64::from(body.first_value))
                                .filter(|&i| i < u64::from(next - body.first_value))
                                .and_then(|i| body.values.get(i as usize));
                            match local.map(|v| v.kind) {
                                Some(ValueKind::Argument(_) | ValueKind::Instruction(_)) => {
                                    body.value_names.push((ValueId(v as u32), name));
                                    Ok(())
                                }
                                _ => Err(Error::malformed(
                                    at,
                                    format!("symbol table names value {v}, not an argument or instruction of this function"),
                                )),
                            }
                        }
                        Symbol::Block(bb) => match body.blocks.get_mut(bb as usize) {
                            Some(block) => {
                                block.name = name;
                                Ok(())
                            }
                            None => Err(Error::malformed(
                                at,
                                format!("symbol table names block {bb}, which does not exist"),
                            )),
                        },
                    },
                )?;
            }
            _ => cursor.skip_block()?,
        }
        Ok(())
    }

    fn types(&self) -> &TypeTable {
        self.ctx.types
    }

    /// Type of a defined value.
    fn type_of(&self, id: u32) -> Option<TypeId> {
        match id.checked_sub(self.body.first_value) {
            Some(i) => self.body.values.get(i as usize).map(|v| v.ty),
            None => self.ctx.values.get(id as usize).map(|v| v.ty),
        }
    }

    /// The absolute id an operand names.
    fn absolute(&self, cursor: &Cursor<'_>, rec: &Record<'_>, raw: u64) -> Result<u32, Error> {
        let raw = u32::try_from(raw)
            .map_err(|_| record_error(cursor, rec, format!("operand {raw} out of range")))?;
        let id = if self.ctx.relative {
            self.next.wrapping_sub(raw)
        } else {
            raw
        };
        if id >= METADATA_OPERAND {
            return Err(record_error(
                cursor,
                rec,
                format!("operand {raw} names no value"),
            ));
        }
        Ok(id)
    }

    /// An operand with its type: earlier values have a known type, later ones carry it.
    fn value_and_type(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        i: &mut usize,
    ) -> Result<(ValueId, TypeId), Error> {
        let raw = rec
            .op(*i)
            .ok_or_else(|| record_error(cursor, rec, "missing operand"))?;
        *i += 1;
        let id = self.absolute(cursor, rec, raw)?;
        if id < self.next {
            let ty = self
                .type_of(id)
                .ok_or_else(|| record_error(cursor, rec, format!("value {id} does not exist")))?;
            return Ok((ValueId(id), ty));
        }
        let t = rec
            .op(*i)
            .ok_or_else(|| record_error(cursor, rec, "forward reference without a type"))?;
        *i += 1;
        let ty = self
            .types()
            .resolve(t)
            .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {t}")))?;
        self.forward.push(Forward {
            id,
            ty,
            bit: rec.bit,
        });
        Ok((ValueId(id), ty))
    }

    /// An operand whose type the instruction implies.
    fn value_of(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        i: &mut usize,
        ty: TypeId,
    ) -> Result<ValueId, Error> {
        let raw = rec
            .op(*i)
            .ok_or_else(|| record_error(cursor, rec, "missing operand"))?;
        *i += 1;
        let id = self.absolute(cursor, rec, raw)?;
        self.typed(cursor, rec, id, ty)
    }

    fn typed(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        id: u32,
        ty: TypeId,
    ) -> Result<ValueId, Error> {
        if id < self.next {
            if self.type_of(id) != Some(ty) {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("operand %{id} does not have the type the instruction needs"),
                ));
            }
        } else {
            self.forward.push(Forward {
                id,
                ty,
                bit: rec.bit,
            });
        }
        Ok(ValueId(id))
    }

    /// A block operand.
    fn block_of(
        &self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        raw: Option<u64>,
    ) -> Result<BlockId, Error> {
        let raw = raw.ok_or_else(|| record_error(cursor, rec, "missing block operand"))?;
        match self.declared {
            Some(n) if raw < u64::from(n) => Ok(BlockId(raw as u32)),
            _ => Err(record_error(
                cursor,
                rec,
                format!("block {raw} does not exist"),
            )),
        }
    }

    fn push_operands(&mut self, ops: &[u32]) -> Operands {
        let start = self.body.operands.len() as u32;
        self.body.operands.extend_from_slice(ops);
        Operands {
            start,
            len: ops.len() as u32,
        }
    }

    fn int1(&mut self) -> TypeId {
        self.ctx.types.integer(1)
    }

    /// The constant integer value of `id` (for struct indices).
    fn constant_int(&self, id: ValueId) -> Option<i64> {
        let (info, constants) = match id.0.checked_sub(self.body.first_value) {
            Some(i) => (self.body.values.get(i as usize)?, &self.body.constants),
            None => (self.ctx.values.get(id.index())?, self.ctx.constants),
        };
        match (info.kind, self.types().ty(info.ty)) {
            (ValueKind::Constant(c), Type::Integer { .. }) => match constants.get(c)? {
                Constant::Integer(v) => Some(*v),
                Constant::Null => Some(0),
                _ => None,
            },
            _ => None,
        }
    }

    fn record(&mut self, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<(), Error> {
        match rec.code {
            code::DECLAREBLOCKS => {
                let n = rec
                    .op(0)
                    .filter(|&n| n > 0)
                    .ok_or_else(|| record_error(cursor, rec, "no block count"))?;
                if self.declared.is_some() {
                    return Err(record_error(cursor, rec, "blocks declared twice"));
                }
                // Each block needs a terminator record of at least 4 bits.
                if n > cursor.data().len() as u64 * 2 {
                    return Err(record_error(
                        cursor,
                        rec,
                        format!("{n} blocks cannot fit in the bitcode"),
                    ));
                }
                self.declared = Some(n as u32);
                self.body.blocks.reserve(n as usize);
                return Ok(());
            }
            code::DEBUG_LOC => {
                let instruction = self.last_instruction(cursor, rec)?;
                if rec.ops.len() < 4 {
                    return Err(record_error(cursor, rec, "DEBUG_LOC needs 4 operands"));
                }
                let small = |v: u64| {
                    u32::try_from(v).map_err(|_| record_error(cursor, rec, "operand out of range"))
                };
                let scope = small(rec.ops[2])?.checked_sub(1).map(MetadataId);
                let inlined_at = small(rec.ops[3])?.checked_sub(1).map(MetadataId);
                for id in [scope, inlined_at].into_iter().flatten() {
                    self.metadata_uses.push((id.0, rec.bit));
                }
                let loc = DebugLoc {
                    instruction,
                    line: small(rec.ops[0])?,
                    column: small(rec.ops[1])?,
                    scope,
                    inlined_at,
                };
                self.last_loc = Some(loc);
                self.body.debug_locs.push(loc);
                return Ok(());
            }
            code::DEBUG_LOC_AGAIN => {
                let instruction = self.last_instruction(cursor, rec)?;
                let Some(loc) = self.last_loc else {
                    return Err(record_error(
                        cursor,
                        rec,
                        "DEBUG_LOC_AGAIN without an earlier location",
                    ));
                };
                self.body.debug_locs.push(DebugLoc { instruction, ..loc });
                return Ok(());
            }
            _ => {}
        }
        let (op, ty) = self.instruction(cursor, rec)?;
        self.push(cursor, rec, op, ty)
    }

    fn last_instruction(&self, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<u32, Error> {
        (self.body.instructions.len() as u32)
            .checked_sub(1)
            .ok_or_else(|| record_error(cursor, rec, "debug location before any instruction"))
    }

    fn push(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        op: Op,
        ty: TypeId,
    ) -> Result<(), Error> {
        let Some(declared) = self.declared else {
            return Err(record_error(
                cursor,
                rec,
                "instruction before DECLAREBLOCKS",
            ));
        };
        if self.body.blocks.len() as u32 >= declared {
            return Err(record_error(
                cursor,
                rec,
                "instruction after the last block",
            ));
        }
        let index = self.body.instructions.len() as u32;
        let result = if matches!(self.types().ty(ty), Type::Void) {
            u32::MAX
        } else {
            let id = self.next;
            self.body.values.push(ValueInfo {
                ty,
                kind: ValueKind::Instruction(index),
            });
            self.next += 1;
            id
        };
        let terminator = op.is_terminator();
        self.body.instructions.push(Instruction { op, ty, result });
        if terminator {
            self.body.blocks.push(Block {
                start: self.block_start,
                end: index + 1,
                name: Default::default(),
            });
            self.block_start = index + 1;
        }
        Ok(())
    }

    fn unsupported(cursor: &Cursor<'_>, rec: &Record<'_>, feature: &'static str) -> Error {
        Error::Unsupported {
            location: record_location(cursor, rec),
            feature,
        }
    }

    /// Decodes one instruction record into its operation and result type.
    fn instruction(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
    ) -> Result<(Op, TypeId), Error> {
        let void = self.ctx.types.add_void();
        let err = |m: &str| record_error(cursor, rec, m.to_string());
        let mut i = 0usize;
        let op = |i: usize| {
            rec.op(i)
                .ok_or_else(|| record_error(cursor, rec, "missing operand"))
        };
        Ok(match rec.code {
            code::INST_BINOP => {
                let (lhs, ty) = self.value_and_type(cursor, rec, &mut i)?;
                let rhs = self.value_of(cursor, rec, &mut i, ty)?;
                let opcode = op(i)?;
                let scalar = self.types().scalar(ty);
                let float = self.types().is_float(scalar);
                if !float && self.types().int_width(scalar).is_none() {
                    return Err(err("binary operation on a non-numeric type"));
                }
                let bop = BinaryOp::from_code(opcode, float).ok_or_else(|| {
                    record_error(cursor, rec, format!("binary opcode {opcode} for this type"))
                })?;
                let flags = rec.op(i + 1).unwrap_or(0) as u8;
                (
                    Op::Binary {
                        op: bop,
                        flags,
                        lhs,
                        rhs,
                    },
                    ty,
                )
            }
            code::INST_CAST => {
                let (value, from) = self.value_and_type(cursor, rec, &mut i)?;
                let to = self.type_operand(cursor, rec, op(i)?)?;
                let opcode = op(i + 1)?;
                let cop = CastOp::from_code(opcode)
                    .ok_or_else(|| record_error(cursor, rec, format!("cast opcode {opcode}")))?;
                if !cast_is_valid(self.types(), cop, from, to) {
                    return Err(record_error(cursor, rec, format!("invalid {}", cop.name())));
                }
                (Op::Cast { op: cop, value }, to)
            }
            code::INST_GEP | code::INST_GEP_OLD | code::INST_INBOUNDS_GEP_OLD => {
                let (inbounds, explicit) = if rec.code == code::INST_GEP {
                    i = 2;
                    (op(0)? != 0, Some(self.type_operand(cursor, rec, op(1)?)?))
                } else {
                    (rec.code == code::INST_INBOUNDS_GEP_OLD, None)
                };
                self.gep(cursor, rec, i, inbounds, explicit)?
            }
            code::INST_SELECT | code::INST_VSELECT => {
                let (if_true, ty) = self.value_and_type(cursor, rec, &mut i)?;
                let if_false = self.value_of(cursor, rec, &mut i, ty)?;
                let condition = if rec.code == code::INST_SELECT {
                    let i1 = self.int1();
                    self.value_of(cursor, rec, &mut i, i1)?
                } else {
                    let (c, cty) = self.value_and_type(cursor, rec, &mut i)?;
                    let ok = match (self.types().ty(cty), self.types().ty(ty)) {
                        (Type::Integer { width: 1 }, _) => true,
                        (Type::Vector { len, element }, Type::Vector { len: n, .. }) => {
                            len == n && self.types().int_width(element) == Some(1)
                        }
                        _ => false,
                    };
                    if !ok {
                        return Err(err("select condition is not i1 or a matching vector of i1"));
                    }
                    c
                };
                (
                    Op::Select {
                        condition,
                        if_true,
                        if_false,
                    },
                    ty,
                )
            }
            code::INST_EXTRACTELT => {
                let (vector, vty) = self.value_and_type(cursor, rec, &mut i)?;
                let (index, ity) = self.value_and_type(cursor, rec, &mut i)?;
                let Type::Vector { element, .. } = self.types().ty(vty) else {
                    return Err(err("extractelement of a non-vector"));
                };
                if self.types().int_width(ity).is_none() {
                    return Err(err("extractelement index is not an integer"));
                }
                (Op::ExtractElement { vector, index }, element)
            }
            code::INST_INSERTELT => {
                let (vector, vty) = self.value_and_type(cursor, rec, &mut i)?;
                let Type::Vector { element, .. } = self.types().ty(vty) else {
                    return Err(err("insertelement into a non-vector"));
                };
                let elt = self.value_of(cursor, rec, &mut i, element)?;
                let (index, ity) = self.value_and_type(cursor, rec, &mut i)?;
                if self.types().int_width(ity).is_none() {
                    return Err(err("insertelement index is not an integer"));
                }
                (
                    Op::InsertElement {
                        vector,
                        element: elt,
                        index,
                    },
                    vty,
                )
            }
            code::INST_SHUFFLEVEC => {
                let (first, vty) = self.value_and_type(cursor, rec, &mut i)?;
                let second = self.value_of(cursor, rec, &mut i, vty)?;
                let (mask, mty) = self.value_and_type(cursor, rec, &mut i)?;
                let (Type::Vector { element, .. }, Type::Vector { len, element: me }) =
                    (self.types().ty(vty), self.types().ty(mty))
                else {
                    return Err(err("shufflevector of non-vectors"));
                };
                if self.types().int_width(me) != Some(32) {
                    return Err(err("shufflevector mask is not a vector of i32"));
                }
                let ty = self.ctx.types.vector_of(element, len);
                (
                    Op::ShuffleVector {
                        first,
                        second,
                        mask,
                    },
                    ty,
                )
            }
            code::INST_CMP | code::INST_CMP2 => {
                let (lhs, ty) = self.value_and_type(cursor, rec, &mut i)?;
                let rhs = self.value_of(cursor, rec, &mut i, ty)?;
                let p = op(i)?;
                let predicate = Predicate::from_code(p)
                    .ok_or_else(|| record_error(cursor, rec, format!("predicate {p}")))?;
                let scalar = self.types().scalar(ty);
                let float = self.types().is_float(scalar);
                let int_like = self.types().int_width(scalar).is_some()
                    || self.types().pointer(scalar).is_some();
                if predicate.is_float() != float || (!float && !int_like) {
                    return Err(err("comparison predicate does not fit the operand type"));
                }
                let flags = rec.op(i + 1).unwrap_or(0) as u8;
                let i1 = self.int1();
                let result = match self.types().ty(ty) {
                    Type::Vector { len, .. } => self.ctx.types.vector_of(i1, len),
                    _ => i1,
                };
                (
                    Op::Compare {
                        predicate,
                        flags,
                        lhs,
                        rhs,
                    },
                    result,
                )
            }
            code::INST_RET => {
                if rec.ops.is_empty() {
                    if !matches!(self.types().ty(self.ret), Type::Void) {
                        return Err(err("ret void in a function that returns a value"));
                    }
                    (Op::Ret { value: None }, void)
                } else {
                    let (value, ty) = self.value_and_type(cursor, rec, &mut i)?;
                    if i != rec.ops.len() {
                        return Err(err("ret with more than one value"));
                    }
                    if ty != self.ret {
                        return Err(err(
                            "returned value does not have the function's return type",
                        ));
                    }
                    (Op::Ret { value: Some(value) }, void)
                }
            }
            code::INST_BR => match rec.ops.len() {
                1 => (
                    Op::Br {
                        target: self.block_of(cursor, rec, rec.op(0))?,
                    },
                    void,
                ),
                3 => {
                    let if_true = self.block_of(cursor, rec, rec.op(0))?;
                    let if_false = self.block_of(cursor, rec, rec.op(1))?;
                    let i1 = self.int1();
                    let mut at = 2;
                    let condition = self.value_of(cursor, rec, &mut at, i1)?;
                    (
                        Op::CondBr {
                            condition,
                            if_true,
                            if_false,
                        },
                        void,
                    )
                }
                _ => return Err(err("br needs 1 or 3 operands")),
            },
            code::INST_SWITCH => {
                if op(0)? >> 16 == 0x4B5 {
                    return Err(Self::unsupported(
                        cursor,
                        rec,
                        "the case-range switch encoding (LLVM 3.3)",
                    ));
                }
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                if self.types().int_width(ty).is_none() {
                    return Err(err("switch on a non-integer"));
                }
                let mut at = 1;
                let value = self.value_of(cursor, rec, &mut at, ty)?;
                let default = self.block_of(cursor, rec, rec.op(2))?;
                let cases = rec.ops.get(3..).unwrap_or_default();
                if cases.len() % 2 != 0 {
                    return Err(err("switch case without a block"));
                }
                self.scratch.clear();
                for pair in cases.chunks_exact(2) {
                    let case = u32::try_from(pair[0]).ok().map(ValueId).filter(|&c| {
                        self.constant_int(c).is_some() && self.type_of(c.0) == Some(ty)
                    });
                    let Some(case) = case else {
                        return Err(record_error(cursor, rec, format!("switch case value {} is not an integer constant of the switched type", pair[0])));
                    };
                    let target = self.block_of(cursor, rec, Some(pair[1]))?;
                    self.scratch.extend([case.0, target.0]);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let cases = self.push_operands(&scratch);
                self.scratch = scratch;
                (
                    Op::Switch {
                        value,
                        default,
                        cases,
                    },
                    void,
                )
            }
            code::INST_INDIRECTBR => {
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                let mut at = 1;
                let address = self.value_of(cursor, rec, &mut at, ty)?;
                self.scratch.clear();
                for &raw in rec.ops.get(2..).unwrap_or_default() {
                    let b = self.block_of(cursor, rec, Some(raw))?;
                    self.scratch.push(b.0);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let targets = self.push_operands(&scratch);
                self.scratch = scratch;
                (Op::IndirectBr { address, targets }, void)
            }
            code::INST_INVOKE => self.invoke(cursor, rec)?,
            code::INST_CALL => self.call(cursor, rec)?,
            code::INST_RESUME => {
                let (value, _) = self.value_and_type(cursor, rec, &mut i)?;
                (Op::Resume { value }, void)
            }
            code::INST_UNREACHABLE => (Op::Unreachable, void),
            code::INST_PHI => {
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                let pairs = rec.ops.get(1..).unwrap_or_default();
                if pairs.len() % 2 != 0 {
                    return Err(err("phi value without a block"));
                }
                self.scratch.clear();
                for pair in pairs.chunks_exact(2) {
                    let id = if self.ctx.relative {
                        let delta = constants::decode_signed(pair[0]);
                        i64::from(self.next)
                            .checked_sub(delta)
                            .and_then(|v| u32::try_from(v).ok())
                            .filter(|&v| v < METADATA_OPERAND)
                            .ok_or_else(|| {
                                record_error(
                                    cursor,
                                    rec,
                                    format!("phi operand {delta} names no value"),
                                )
                            })?
                    } else {
                        self.absolute(cursor, rec, pair[0])?
                    };
                    let value = self.typed(cursor, rec, id, ty)?;
                    let block = self.block_of(cursor, rec, Some(pair[1]))?;
                    self.scratch.extend([value.0, block.0]);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let incoming = self.push_operands(&scratch);
                self.scratch = scratch;
                (Op::Phi { incoming }, ty)
            }
            code::INST_LANDINGPAD | code::INST_LANDINGPAD_OLD => {
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                i = 1;
                let personality = if rec.code == code::INST_LANDINGPAD_OLD {
                    Some(self.value_and_type(cursor, rec, &mut i)?.0)
                } else {
                    None
                };
                let cleanup = op(i)? != 0;
                let count = op(i + 1)?;
                i += 2;
                self.scratch.clear();
                for _ in 0..count {
                    let kind = op(i)?;
                    if kind > 1 {
                        return Err(err("landingpad clause is neither catch nor filter"));
                    }
                    i += 1;
                    let (v, _) = self.value_and_type(cursor, rec, &mut i)?;
                    self.scratch.extend([kind as u32, v.0]);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let clauses = self.push_operands(&scratch);
                self.scratch = scratch;
                (
                    Op::LandingPad {
                        cleanup,
                        personality,
                        clauses,
                    },
                    ty,
                )
            }
            code::INST_ALLOCA => {
                if rec.ops.len() != 4 {
                    return Err(err("alloca needs 4 operands"));
                }
                let flags = rec.ops[3];
                let mut allocated = self.type_operand(cursor, rec, rec.ops[0])?;
                if flags & (1 << 6) == 0 {
                    allocated = self
                        .types()
                        .pointer(allocated)
                        .map(|(p, _)| p)
                        .ok_or_else(|| err("alloca type is not a pointer"))?;
                }
                let size_ty = self.type_operand(cursor, rec, rec.ops[1])?;
                let size =
                    u32::try_from(rec.ops[2]).map_err(|_| err("alloca size out of range"))?;
                if self.type_of(size) != Some(size_ty) || self.types().int_width(size_ty).is_none()
                {
                    return Err(err(
                        "alloca size is not an integer value of the stated type",
                    ));
                }
                let align = align_from(flags & !((1 << 5) | (1 << 6)), cursor, rec)?;
                let ty = self.ctx.types.pointer_to(allocated, 0);
                (
                    Op::Alloca {
                        allocated_type: allocated,
                        size: ValueId(size),
                        align,
                        inalloca: flags & (1 << 5) != 0,
                    },
                    ty,
                )
            }
            code::INST_LOAD | code::INST_LOADATOMIC => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let extra = if rec.code == code::INST_LOAD { 2 } else { 4 };
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("load from a non-pointer"))?;
                let ty = if i + extra + 1 == rec.ops.len() {
                    let t = self.type_operand(cursor, rec, op(i)?)?;
                    i += 1;
                    if t != pointee {
                        return Err(err("explicit load type is not the pointee type"));
                    }
                    t
                } else {
                    pointee
                };
                if i + extra != rec.ops.len() {
                    return Err(err("load has the wrong number of operands"));
                }
                let align = align_from(op(i)?, cursor, rec)?;
                let volatile = op(i + 1)? != 0;
                let atomic = if rec.code == code::INST_LOADATOMIC {
                    let a = self.atomic(cursor, rec, op(i + 2)?, op(i + 3)?)?;
                    if matches!(
                        a.ordering,
                        AtomicOrdering::NotAtomic
                            | AtomicOrdering::Release
                            | AtomicOrdering::AcquireRelease
                    ) {
                        return Err(err("invalid ordering for an atomic load"));
                    }
                    Some(a)
                } else {
                    None
                };
                (
                    Op::Load {
                        pointer,
                        align,
                        volatile,
                        atomic,
                    },
                    ty,
                )
            }
            code::INST_STORE
            | code::INST_STORE_OLD
            | code::INST_STOREATOMIC
            | code::INST_STOREATOMIC_OLD => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("store to a non-pointer"))?;
                let value = if matches!(rec.code, code::INST_STORE | code::INST_STOREATOMIC) {
                    let (v, vty) = self.value_and_type(cursor, rec, &mut i)?;
                    if vty != pointee {
                        return Err(err("stored value is not of the pointee type"));
                    }
                    v
                } else {
                    self.value_of(cursor, rec, &mut i, pointee)?
                };
                let atomic = matches!(
                    rec.code,
                    code::INST_STOREATOMIC | code::INST_STOREATOMIC_OLD
                );
                if i + if atomic { 4 } else { 2 } != rec.ops.len() {
                    return Err(err("store has the wrong number of operands"));
                }
                let align = align_from(op(i)?, cursor, rec)?;
                let volatile = op(i + 1)? != 0;
                let atomic = if atomic {
                    let a = self.atomic(cursor, rec, op(i + 2)?, op(i + 3)?)?;
                    if matches!(
                        a.ordering,
                        AtomicOrdering::NotAtomic
                            | AtomicOrdering::Acquire
                            | AtomicOrdering::AcquireRelease
                    ) {
                        return Err(err("invalid ordering for an atomic store"));
                    }
                    Some(a)
                } else {
                    None
                };
                (
                    Op::Store {
                        pointer,
                        value,
                        align,
                        volatile,
                        atomic,
                    },
                    void,
                )
            }
            code::INST_CMPXCHG_OLD | code::INST_CMPXCHG => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("cmpxchg on a non-pointer"))?;
                let (compare, cty) = if rec.code == code::INST_CMPXCHG {
                    self.value_and_type(cursor, rec, &mut i)?
                } else {
                    if rec.ops.len() < 8 {
                        return Err(Self::unsupported(
                            cursor,
                            rec,
                            "the pre-LLVM 3.5 cmpxchg that returns one value",
                        ));
                    }
                    (self.value_of(cursor, rec, &mut i, pointee)?, pointee)
                };
                if cty != pointee {
                    return Err(err("cmpxchg operand is not of the pointee type"));
                }
                let new = self.value_of(cursor, rec, &mut i, cty)?;
                let rest = rec.ops.get(i..).unwrap_or_default();
                if rest.len() < 3 || rest.len() > 5 {
                    return Err(err("cmpxchg has the wrong number of operands"));
                }
                let success = self.ordering(cursor, rec, rest[1])?;
                let scope = SyncScope::from_code(rest[2])
                    .ok_or_else(|| err("bad synchronization scope"))?;
                let failure = match rest.get(3) {
                    Some(&f) => self.ordering(cursor, rec, f)?,
                    None => match success {
                        AtomicOrdering::AcquireRelease => AtomicOrdering::Acquire,
                        AtomicOrdering::Release => AtomicOrdering::Monotonic,
                        o => o,
                    },
                };
                if matches!(
                    success,
                    AtomicOrdering::NotAtomic | AtomicOrdering::Unordered
                ) || matches!(
                    failure,
                    AtomicOrdering::NotAtomic
                        | AtomicOrdering::Unordered
                        | AtomicOrdering::Release
                        | AtomicOrdering::AcquireRelease
                ) {
                    return Err(err("invalid cmpxchg ordering"));
                }
                let i1 = self.int1();
                let ty = self.ctx.types.literal_struct(&[cty, i1]);
                (
                    Op::CmpXchg {
                        pointer,
                        compare,
                        new,
                        volatile: rest[0] != 0,
                        weak: rest.get(4).is_some_and(|&w| w != 0),
                        success,
                        failure,
                        scope,
                    },
                    ty,
                )
            }
            code::INST_ATOMICRMW => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("atomicrmw on a non-pointer"))?;
                let value = self.value_of(cursor, rec, &mut i, pointee)?;
                if i + 4 != rec.ops.len() {
                    return Err(err("atomicrmw has the wrong number of operands"));
                }
                let r = op(i)?;
                let rop = RmwOp::from_code(r)
                    .ok_or_else(|| record_error(cursor, rec, format!("atomicrmw operation {r}")))?;
                let a = self.atomic(cursor, rec, op(i + 2)?, op(i + 3)?)?;
                if matches!(
                    a.ordering,
                    AtomicOrdering::NotAtomic | AtomicOrdering::Unordered
                ) {
                    return Err(err("invalid atomicrmw ordering"));
                }
                (
                    Op::AtomicRmw {
                        op: rop,
                        pointer,
                        value,
                        volatile: op(i + 1)? != 0,
                        ordering: a.ordering,
                        scope: a.scope,
                    },
                    pointee,
                )
            }
            code::INST_FENCE => {
                if rec.ops.len() != 2 {
                    return Err(err("fence needs 2 operands"));
                }
                let a = self.atomic(cursor, rec, rec.ops[0], rec.ops[1])?;
                if matches!(
                    a.ordering,
                    AtomicOrdering::NotAtomic
                        | AtomicOrdering::Unordered
                        | AtomicOrdering::Monotonic
                ) {
                    return Err(err("invalid fence ordering"));
                }
                (
                    Op::Fence {
                        ordering: a.ordering,
                        scope: a.scope,
                    },
                    void,
                )
            }
            code::INST_VAARG => {
                let lty = self.type_operand(cursor, rec, op(0)?)?;
                let mut at = 1;
                let list = self.value_of(cursor, rec, &mut at, lty)?;
                let ty = self.type_operand(cursor, rec, op(2)?)?;
                (Op::VaArg { list }, ty)
            }
            code::INST_EXTRACTVAL | code::INST_INSERTVAL => {
                let (aggregate, aty) = self.value_and_type(cursor, rec, &mut i)?;
                let inserted = if rec.code == code::INST_INSERTVAL {
                    Some(self.value_and_type(cursor, rec, &mut i)?)
                } else {
                    None
                };
                let indices = rec.ops.get(i..).unwrap_or_default();
                if indices.is_empty() {
                    return Err(err("extractvalue or insertvalue without indices"));
                }
                let mut cur = aty;
                self.scratch.clear();
                for &idx in indices {
                    if !self.types().is_aggregate(cur) {
                        return Err(err(
                            "extractvalue or insertvalue index into a non-aggregate",
                        ));
                    }
                    let idx32 = u32::try_from(idx).map_err(|_| err("index out of range"))?;
                    cur = self
                        .types()
                        .element_at(cur, idx)
                        .ok_or_else(|| err("index out of range"))?;
                    self.scratch.push(idx32);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let indices = self.push_operands(&scratch);
                self.scratch = scratch;
                match inserted {
                    None => (Op::ExtractValue { aggregate, indices }, cur),
                    Some((value, vty)) => {
                        if vty != cur {
                            return Err(err("inserted value does not have the indexed type"));
                        }
                        (
                            Op::InsertValue {
                                aggregate,
                                value,
                                indices,
                            },
                            aty,
                        )
                    }
                }
            }
            code::INST_CLEANUPRET
            | code::INST_CATCHRET
            | code::INST_CATCHPAD
            | code::INST_CLEANUPPAD
            | code::INST_CATCHSWITCH => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "funclet exception handling (LLVM 3.8+)",
                ))
            }
            code::OPERAND_BUNDLE => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "an operand bundle (LLVM 3.8+)",
                ))
            }
            code::INST_UNOP => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "the fneg instruction (LLVM 8+)",
                ))
            }
            code::INST_CALLBR => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "the callbr instruction (LLVM 9+)",
                ))
            }
            code::INST_FREEZE => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "the freeze instruction (LLVM 10+)",
                ))
            }
            code::INST_ATOMICRMW_NEW => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "atomicrmw with an explicit type (LLVM 13+)",
                ))
            }
            code::BLOCKADDR_USERS => {
                return Err(Self::unsupported(cursor, rec, "BLOCKADDR_USERS (LLVM 16+)"))
            }
            other => {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("unknown instruction code {other}"),
                ))
            }
        })
    }

    fn type_operand(
        &self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        raw: u64,
    ) -> Result<TypeId, Error> {
        self.types()
            .resolve(raw)
            .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {raw}")))
    }

    fn ordering(
        &self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        v: u64,
    ) -> Result<AtomicOrdering, Error> {
        AtomicOrdering::from_code(v)
            .ok_or_else(|| record_error(cursor, rec, format!("atomic ordering {v}")))
    }

    fn atomic(
        &self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        ordering: u64,
        scope: u64,
    ) -> Result<Atomic, Error> {
        Ok(Atomic {
            ordering: self.ordering(cursor, rec, ordering)?,
            scope: SyncScope::from_code(scope).ok_or_else(|| {
                record_error(cursor, rec, format!("synchronization scope {scope}"))
            })?,
        })
    }

    /// `getelementptr` operands from `i` on: base, then indices.
    fn gep(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        mut i: usize,
        inbounds: bool,
        explicit: Option<TypeId>,
    ) -> Result<(Op, TypeId), Error> {
        let err = |m: &str| record_error(cursor, rec, m.to_string());
        let (base, bty) = self.value_and_type(cursor, rec, &mut i)?;
        let (base_len, pty) = match self.types().ty(bty) {
            Type::Vector { len, element } => (Some(len), element),
            _ => (None, bty),
        };
        let (pointee, space) = self
            .types()
            .pointer(pty)
            .ok_or_else(|| err("getelementptr base is not a pointer"))?;
        let source_type = match explicit {
            Some(t) if t != pointee => {
                return Err(err("explicit getelementptr type is not the pointee type"))
            }
            Some(t) => t,
            None => pointee,
        };
        self.scratch.clear();
        self.scratch.push(base.0);
        let mut cur = source_type;
        let mut vector_len = base_len;
        let mut first = true;
        while i < rec.ops.len() {
            let (index, ity) = self.value_and_type(cursor, rec, &mut i)?;
            let scalar = match self.types().ty(ity) {
                Type::Vector { len, element } => {
                    if vector_len.is_some_and(|l| l != len) {
                        return Err(err("getelementptr vector indices of different lengths"));
                    }
                    vector_len = Some(len);
                    element
                }
                _ => ity,
            };
            if self.types().int_width(scalar).is_none() {
                return Err(err("getelementptr index is not an integer"));
            }
            if !first {
                cur = match self.types().ty(cur) {
                    Type::Struct { .. } => {
                        let k = self
                            .constant_int(index)
                            .ok_or_else(|| err("struct index is not a constant integer"))?;
                        u64::try_from(k)
                            .ok()
                            .and_then(|k| self.types().element_at(cur, k))
                            .ok_or_else(|| err("struct index out of range"))?
                    }
                    Type::Array { element, .. } | Type::Vector { element, .. } => element,
                    _ => return Err(err("getelementptr indexes into a non-aggregate")),
                };
            }
            first = false;
            self.scratch.push(index.0);
        }
        let scratch = std::mem::take(&mut self.scratch);
        let operands = self.push_operands(&scratch);
        self.scratch = scratch;
        let mut ty = self.ctx.types.pointer_to(cur, space);
        if let Some(len) = vector_len {
            ty = self.ctx.types.vector_of(ty, len);
        }
        Ok((
            Op::GetElementPtr {
                inbounds,
                source_type,
                operands,
            },
            ty,
        ))
    }

    /// The arguments of a call or invoke to `fn_ty` from operand `i` on.
    fn arguments(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        mut i: usize,
        fn_ty: TypeId,
    ) -> Result<Operands, Error> {
        let Some((_, params, vararg)) = self.types().function(fn_ty) else {
            return Err(record_error(
                cursor,
                rec,
                "callee type is not a function type",
            ));
        };
        let params = params.to_vec();
        if rec.ops.len() < i + params.len() {
            return Err(record_error(cursor, rec, "too few call arguments"));
        }
        let mut args = std::mem::take(&mut self.scratch);
        args.clear();
        for &p in &params {
            match self.types().ty(p) {
                Type::Label => {
                    self.scratch = args;
                    return Err(Self::unsupported(
                        cursor,
                        rec,
                        "a call passing a basic block",
                    ));
                }
                Type::Metadata => {
                    let raw = rec.ops[i];
                    i += 1;
                    let id = u32::try_from(raw).ok().map(|r| {
                        if self.ctx.relative {
                            self.next.wrapping_sub(r)
                        } else {
                            r
                        }
                    });
                    let Some(id) = id.filter(|&id| id < METADATA_OPERAND) else {
                        self.scratch = args;
                        return Err(record_error(cursor, rec, "metadata argument out of range"));
                    };
                    self.metadata_uses.push((id, rec.bit));
                    args.push(id | METADATA_OPERAND);
                }
                _ => match self.value_of(cursor, rec, &mut i, p) {
                    Ok(v) => args.push(v.0),
                    Err(e) => {
                        self.scratch = args;
                        return Err(e);
                    }
                },
            }
        }
        if vararg {
            while i < rec.ops.len() {
                match self.value_and_type(cursor, rec, &mut i) {
                    Ok((v, _)) => args.push(v.0),
                    Err(e) => {
                        self.scratch = args;
                        return Err(e);
                    }
                }
            }
        } else if i != rec.ops.len() {
            self.scratch = args;
            return Err(record_error(cursor, rec, "too many call arguments"));
        }
        let range = self.push_operands(&args);
        self.scratch = args;
        Ok(range)
    }

    /// The callee at operand `i` and its function type (explicit, or the pointee).
    fn callee(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        i: &mut usize,
        explicit: Option<TypeId>,
    ) -> Result<(ValueId, TypeId), Error> {
        let (callee, cty) = self.value_and_type(cursor, rec, i)?;
        let pointee = self
            .types()
            .pointer(cty)
            .map(|(p, _)| p)
            .ok_or_else(|| record_error(cursor, rec, "callee is not a pointer"))?;
        let fn_ty = match explicit {
            Some(t) if t != pointee => {
                return Err(record_error(
                    cursor,
                    rec,
                    "explicit call type is not the callee's pointee type",
                ))
            }
            Some(t) => t,
            None => pointee,
        };
        if self.types().function(fn_ty).is_none() {
            return Err(record_error(cursor, rec, "callee is not a function"));
        }
        Ok((callee, fn_ty))
    }

    fn attribute_list(&self, cursor: &Cursor<'_>, rec: &Record<'_>, v: u64) -> Result<u32, Error> {
        if !self.ctx.attributes.is_valid_list(v) {
            return Err(record_error(
                cursor,
                rec,
                format!("attribute list {v} is not defined"),
            ));
        }
        Ok(v as u32)
    }

    /// `CALL: [paramattrs, cc, fmf?, fnty?, callee, args...]`.
    fn call(&mut self, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<(Op, TypeId), Error> {
        let missing = || record_error(cursor, rec, "missing operand");
        let attributes = self.attribute_list(cursor, rec, rec.op(0).ok_or_else(missing)?)?;
        let cc = rec.op(1).ok_or_else(missing)?;
        let mut i = 2;
        let flags = if cc >> 17 & 1 != 0 {
            i += 1;
            rec.op(2).ok_or_else(missing)? as u8
        } else {
            0
        };
        let explicit = if cc >> 15 & 1 != 0 {
            let t = self.type_operand(cursor, rec, rec.op(i).ok_or_else(missing)?)?;
            i += 1;
            Some(t)
        } else {
            None
        };
        let (callee, function_type) = self.callee(cursor, rec, &mut i, explicit)?;
        let args = self.arguments(cursor, rec, i, function_type)?;
        let ret = self
            .types()
            .function(function_type)
            .map(|f| f.0)
            .unwrap_or(function_type);
        let tail = if cc >> 14 & 1 != 0 {
            TailKind::MustTail
        } else if cc & 1 != 0 {
            TailKind::Tail
        } else {
            TailKind::None
        };
        Ok((
            Op::Call {
                callee,
                function_type,
                args,
                attributes,
                calling_conv: ((cc >> 1) & 0x3FF) as u32,
                tail,
                flags,
            },
            ret,
        ))
    }

    /// `INVOKE: [attrs, cc, normal, unwind, fnty?, callee, args...]`.
    fn invoke(&mut self, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<(Op, TypeId), Error> {
        let missing = || record_error(cursor, rec, "missing operand");
        let attributes = self.attribute_list(cursor, rec, rec.op(0).ok_or_else(missing)?)?;
        let cc = rec.op(1).ok_or_else(missing)?;
        let normal = self.block_of(cursor, rec, rec.op(2))?;
        let unwind = self.block_of(cursor, rec, rec.op(3))?;
        let mut i = 4;
        let explicit = if cc >> 13 & 1 != 0 {
            let t = self.type_operand(cursor, rec, rec.op(4).ok_or_else(missing)?)?;
            i += 1;
            Some(t)
        } else {
            None
        };
        let (callee, function_type) = self.callee(cursor, rec, &mut i, explicit)?;
        let args = self.arguments(cursor, rec, i, function_type)?;
        let ret = self
            .types()
            .function(function_type)
            .map(|f| f.0)
            .unwrap_or(function_type);
        let calling_conv = u32::try_from(cc & !(1 << 13)).map_err(|_| missing())?;
        Ok((
            Op::Invoke {
                callee,
                function_type,
                args,
                normal,
                unwind,
                attributes,
                calling_conv,
            },
            ret,
        ))
    }

    /// Checks what could only be checked at the end and returns the body.
    fn finish(mut self, cursor: &Cursor<'_>) -> Result<FunctionBody, Error> {
        let here = |bit| Location {
            block: Some(block::FUNCTION),
            record: None,
            bit,
        };
        let end_bit = cursor.position();
        let declared = self.declared.ok_or_else(|| {
            Error::malformed(here(end_bit), "function body without DECLAREBLOCKS")
        })?;
        if self.body.blocks.len() as u32 != declared
            || self.block_start as usize != self.body.instructions.len()
        {
            return Err(Error::malformed(
                here(end_bit),
                format!(
                    "{declared} blocks declared, {} ended by a terminator",
                    self.body.blocks.len()
                ),
            ));
        }
        for f in &self.forward {
            match self.type_of(f.id) {
                Some(t) if f.id < self.next && t == f.ty => {}
                Some(_) if f.id < self.next => {
                    return Err(Error::malformed(
                        here(f.bit),
                        format!("forward reference to %{} with the wrong type", f.id),
                    ))
                }
                _ => {
                    return Err(Error::malformed(
                        here(f.bit),
                        format!("reference to value {}, which is never defined", f.id),
                    ))
                }
            }
        }
        let md_end = self.body.metadata.end();
        for &(id, bit) in &self.metadata_uses {
            if id >= md_end {
                return Err(Error::malformed(
                    here(bit),
                    format!("metadata !{id} is not defined"),
                ));
            }
        }
        let module_values = self.ctx.values;
        let body = &self.body;
        let first = body.first_value;
        self.body
            .metadata
            .check(block::METADATA, md_end, |v| match v.0.checked_sub(first) {
                Some(i) if (i as usize) < body.values.len() => {
                    body.values.get(i as usize).map(|x| x.ty)
                }
                Some(_) => None,
                None => module_values.get(v.index()).map(|x| x.ty),
            })?;
        self.body.value_names.sort_by_key(|(v, _)| *v);
        Ok(self.body)
    }
}

/// `(1 << v) >> 1`: LLVM's alignment encoding (log2 + 1; 0 = none).
fn align_from(v: u64, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<u32, Error> {
    if v > 30 {
        return Err(record_error(cursor, rec, format!("alignment exponent {v}")));
    }
    Ok((1u32 << v) >> 1)
}

/// Size in bits of a scalar or vector of integers or floats.
fn bits(types: &TypeTable, ty: TypeId) -> Option<u64> {
    Some(match types.ty(ty) {
        Type::Integer { width } => u64::from(width),
        Type::Half => 16,
        Type::Float => 32,
        Type::Double | Type::X86Mmx => 64,
        Type::X86Fp80 => 80,
        Type::Fp128 | Type::PpcFp128 => 128,
        Type::Vector { len, element } => u64::from(len) * bits(types, element)?,
        _ => return None,
    })
}

/// LLVM's `CastInst::castIsValid`.
fn cast_is_valid(types: &TypeTable, op: CastOp, from: TypeId, to: TypeId) -> bool {
    let lanes = |t: TypeId| match types.ty(t) {
        Type::Vector { len, .. } => Some(len),
        _ => None,
    };
    let (sf, st) = (types.scalar(from), types.scalar(to));
    let same_shape = lanes(from) == lanes(to);
    let int = |t| types.int_width(t).is_some();
    let float = |t| types.is_float(t);
    let ptr = |t| types.pointer(t).is_some();
    let width = |t| bits(types, t).unwrap_or(0);
    match op {
        CastOp::Trunc => same_shape && int(sf) && int(st) && width(sf) > width(st),
        CastOp::ZExt | CastOp::SExt => same_shape && int(sf) && int(st) && width(sf) < width(st),
        CastOp::FpTrunc => same_shape && float(sf) && float(st) && width(sf) > width(st),
        CastOp::FpExt => same_shape && float(sf) && float(st) && width(sf) < width(st),
        CastOp::FpToUi | CastOp::FpToSi => same_shape && float(sf) && int(st),
        CastOp::UiToFp | CastOp::SiToFp => same_shape && int(sf) && float(st),
        CastOp::PtrToInt => same_shape && ptr(sf) && int(st),
        CastOp::IntToPtr => same_shape && int(sf) && ptr(st),
        CastOp::AddrSpaceCast => {
            same_shape
                && matches!((types.pointer(sf), types.pointer(st)), (Some((_, a)), Some((_, b))) if a != b)
        }
        CastOp::BitCast => match (types.pointer(sf), types.pointer(st)) {
            (Some((_, a)), Some((_, b))) => same_shape && a == b,
            (None, None) => {
                let (a, b) = (bits(types, from), bits(types, to));
                a.is_some() && a == b
            }
            _ => false,
        },
    }
}
