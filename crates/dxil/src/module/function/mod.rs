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
use crate::module::instructions::{Instruction, Op, Operands, METADATA_OPERAND};
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

mod decode;

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
    /// `void` and `i1`, looked up once.
    void: TypeId,
    int1: TypeId,
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
    // Sized from DXIL functions' typical proportions (an instruction per 80 to 300 bits,
    // up to five operand slots each), so the buffers rarely grow.
    let hint = usize::try_from(cursor.bits_left_in_block() / 80).unwrap_or(0);
    body.values.reserve(params.len() + hint);
    body.instructions.reserve(hint);
    body.reserve_operands(5 * hint);
    for (i, &ty) in params.iter().enumerate() {
        body.values.push(ValueInfo {
            ty,
            kind: ValueKind::Argument(i as u32),
        });
    }
    let void = ctx.types.add_void();
    let int1 = ctx.types.integer(1);
    let mut b = Builder {
        void,
        int1,
        ctx,
        next: first + params.len() as u32,
        body,
        ret,
        declared: None,
        block_start: 0,
        forward: Vec::new(),
        metadata_uses: Vec::with_capacity(16),
        scratch: Vec::with_capacity(16),
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
        self.int1
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
                // Each block needs a terminator record of at least 3 bits.
                if n > cursor.data().len() as u64 * 8 / 3 {
                    return Err(record_error(
                        cursor,
                        rec,
                        format!("{n} blocks cannot fit in the bitcode"),
                    ));
                }
                self.declared = Some(n as u32);
                self.body.blocks.reserve(n.min(1 << 12) as usize);
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
