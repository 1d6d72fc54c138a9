//! Metadata: strings, nodes, values, named metadata, kinds and attachments.
//!
//! Metadata ids are one sequence per module: the module's metadata blocks number their
//! strings and nodes from 0; a function's own metadata block (function-local values, as
//! `llvm.dbg.value` uses) continues after the module's last id. Node operands may point
//! forward (nodes can be cyclic, like `!0 = distinct !{!0}` for `llvm.loop`), so they are
//! checked once the scope is read. Debug-information nodes (`DILocation`, `DISubprogram`,
//! …, which a DXIL part does not carry) are kept as raw records.

use crate::bitstream::names::metadata as code;
use crate::bitstream::{Cursor, Entry, Record};
use crate::error::{Error, Location};
use crate::module::instructions::METADATA_OPERAND;
use crate::module::strings::{Str, Strings};
use crate::module::types::{Type, TypeId, TypeTable};
use crate::module::{record_error, record_location, ValueId};

/// A metadata node or string, by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MetadataId(pub u32);

/// A range of a [`Metadata`] scope's operand buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MetadataOperands {
    start: u32,
    len: u32,
}

impl MetadataOperands {
    /// Number of operands.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// One metadata entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataNode {
    /// `!"text"`.
    String(Str),
    /// A value as metadata (`i32 5`, `void ()* @main`).
    Value {
        /// The value's type.
        ty: TypeId,
        /// The value.
        value: ValueId,
    },
    /// A tuple `!{...}` (operands may be null); `distinct !{...}` when `distinct`.
    Tuple {
        /// `distinct`.
        distinct: bool,
        /// The operands (see [`Metadata::operands`]).
        operands: MetadataOperands,
    },
    /// `!DILocation(line, column, scope, inlinedAt)`.
    Location {
        /// `distinct`.
        distinct: bool,
        /// Line.
        line: u32,
        /// Column.
        column: u32,
        /// Scope node.
        scope: MetadataId,
        /// Inlined-at location.
        inlined_at: Option<MetadataId>,
    },
    /// Another debug-information node, as its record: `code` (LLVM's `METADATA_*` record
    /// code, 12 to 32) and the raw operands (the first holds the `distinct` bit).
    Debug {
        /// The record code.
        code: u32,
        /// The raw operands.
        operands: MetadataOperands,
    },
}

/// A named metadata (`!dx.entryPoints = !{!5}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedMetadata {
    /// The name.
    pub name: Str,
    /// The nodes (see [`Metadata::named_operands`]).
    pub operands: MetadataOperands,
}

/// A metadata kind (`!dx.precise`, `!tbaa`, …) for attachments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetadataKind {
    /// The id attachments use.
    pub id: u32,
    /// The name.
    pub name: Str,
}

/// A metadata reference as a node operand: `None` for null.
pub type MetadataRef = Option<MetadataId>;

/// Metadata entries of one scope: the module's, or one function's local ones.
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    /// Id of `nodes[0]`.
    base: u32,
    nodes: Vec<MetadataNode>,
    /// Tuple operands (0 = null, n = id n - 1), raw debug operands, named-node ids.
    operands: Vec<u64>,
    /// Pending type checks of `Value` entries: (node index, bit).
    value_checks: Vec<(u32, u64)>,
    /// Bit offsets of the records of tuples, for error locations.
    node_bits: Vec<(u32, u64)>,
    /// Operands of named metadata and their records' bits.
    named_bits: Vec<(MetadataOperands, u64)>,
}

impl Metadata {
    /// A scope whose first id is `base`.
    pub(crate) fn with_base(base: u32) -> Self {
        Metadata {
            base,
            ..Default::default()
        }
    }

    /// Reserves room for the entries of a scope whose records take `bits` bits (DXIL
    /// modules' first metadata block averages one entry per 50 to 100 bits; the kind names
    /// come in a later block), so the buffers rarely grow.
    pub(crate) fn reserve_for_bits(&mut self, bits: u64) {
        let n = usize::try_from(bits / 48).unwrap_or(0);
        self.nodes.reserve(n);
        self.operands.reserve(4 * n);
        self.node_bits.reserve(n);
        self.value_checks.reserve(n / 2);
    }

    /// Id of the first entry.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the scope has no entries.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// One past the last id of this scope.
    pub fn end(&self) -> u32 {
        self.base + self.nodes.len() as u32
    }

    /// The entry with id `id`, if it is in this scope.
    #[inline]
    pub fn get(&self, id: MetadataId) -> Option<&MetadataNode> {
        self.nodes.get(id.0.checked_sub(self.base)? as usize)
    }

    /// Every entry with its id.
    pub fn iter(&self) -> impl Iterator<Item = (MetadataId, &MetadataNode)> {
        let base = self.base;
        self.nodes
            .iter()
            .enumerate()
            .map(move |(i, n)| (MetadataId(base + i as u32), n))
    }

    /// The operands of a tuple.
    pub fn operands(
        &self,
        range: MetadataOperands,
    ) -> impl ExactSizeIterator<Item = MetadataRef> + '_ {
        self.raw(range)
            .iter()
            .map(|&v| v.checked_sub(1).map(|id| MetadataId(id as u32)))
    }

    /// The nodes of a named metadata.
    pub fn named_operands(
        &self,
        range: MetadataOperands,
    ) -> impl ExactSizeIterator<Item = MetadataId> + '_ {
        self.raw(range).iter().map(|&v| MetadataId(v as u32))
    }

    /// The raw operands of a range (for [`MetadataNode::Debug`]).
    pub fn raw(&self, range: MetadataOperands) -> &[u64] {
        let start = range.start as usize;
        self.operands
            .get(start..start + range.len as usize)
            .unwrap_or_default()
    }

    fn push_operands(&mut self, ops: impl IntoIterator<Item = u64>) -> MetadataOperands {
        let start = self.operands.len() as u32;
        self.operands.extend(ops);
        MetadataOperands {
            start,
            len: self.operands.len() as u32 - start,
        }
    }

    /// Checks, once every id of the module (and function) exists, that node operands name
    /// existing entries (ids below `limit`) and that values have their stated types.
    pub(crate) fn check(
        &self,
        block: u32,
        limit: u32,
        value_type: impl Fn(ValueId) -> Option<TypeId>,
    ) -> Result<(), Error> {
        for &(index, bit) in &self.node_bits {
            let here = Location {
                block: Some(block),
                record: None,
                bit,
            };
            let bad =
                |id: u64| Error::malformed(here, format!("metadata operand !{id} is not defined"));
            match self.nodes.get(index as usize) {
                Some(MetadataNode::Tuple { operands, .. }) => {
                    for &v in self.raw(*operands) {
                        if v > u64::from(limit) {
                            return Err(bad(v - 1));
                        }
                    }
                }
                Some(MetadataNode::Location {
                    scope, inlined_at, ..
                }) => {
                    for id in std::iter::once(*scope).chain(*inlined_at) {
                        if id.0 >= limit {
                            return Err(bad(u64::from(id.0)));
                        }
                    }
                }
                _ => {}
            }
        }
        for &(operands, bit) in &self.named_bits {
            for &id in self.raw(operands) {
                let node = u32::try_from(id).ok().and_then(|i| self.get(MetadataId(i)));
                if !matches!(
                    node,
                    Some(
                        MetadataNode::Tuple { .. }
                            | MetadataNode::Location { .. }
                            | MetadataNode::Debug { .. }
                    )
                ) {
                    return Err(Error::malformed(
                        Location {
                            block: Some(block),
                            record: Some(code::NAMED_NODE),
                            bit,
                        },
                        format!("named metadata operand !{id} is not a metadata node"),
                    ));
                }
            }
        }
        for &(index, bit) in &self.value_checks {
            if let Some(MetadataNode::Value { ty, value }) = self.nodes.get(index as usize) {
                if value_type(*value) != Some(*ty) {
                    return Err(Error::malformed(
                        Location {
                            block: Some(block),
                            record: Some(code::VALUE),
                            bit,
                        },
                        format!(
                            "metadata value %{} is undefined or not of the stated type",
                            value.0
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Where the metadata read from a block goes.
pub(crate) struct MetadataSink<'s> {
    /// The scope's entries.
    pub metadata: &'s mut Metadata,
    /// Named metadata (module level only).
    pub named: Option<&'s mut Vec<NamedMetadata>>,
    /// Metadata kinds (module level only).
    pub kinds: Option<&'s mut Vec<MetadataKind>>,
    /// Named-metadata operand ids, kept in the module scope's operand buffer.
    pub strings: &'s mut Strings,
}

/// Reads a metadata block (just entered).
pub(crate) fn read_block<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    types: &TypeTable,
    sink: &mut MetadataSink<'_>,
) -> Result<(), Error> {
    let mut name: Option<Str> = None;
    // Only a scope's first block is sized: the module's later ones (its kinds) add few
    // entries, and reserving again would move what the first one read.
    if sink.metadata.nodes.is_empty() {
        sink.metadata.reserve_for_bits(cursor.bits_left_in_block());
        if sink.named.is_some() {
            sink.metadata.named_bits.reserve(16);
        }
    }
    loop {
        let abbrev = match cursor.advance()? {
            Entry::EndBlock => break,
            Entry::EndOfStream => {
                return Err(Error::malformed(
                    cursor.location(),
                    "metadata block not closed",
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
        if name.is_some() && rec.code != code::NAMED_NODE {
            return Err(record_error(cursor, rec, "NAME not followed by NAMED_NODE"));
        }
        let md = &mut *sink.metadata;
        let index = md.nodes.len() as u32;
        match rec.code {
            code::STRING_OLD => {
                let Some(s) = sink.strings.add_ops(&rec.ops) else {
                    return Err(record_error(cursor, rec, "metadata string is not bytes"));
                };
                md.nodes.push(MetadataNode::String(s));
            }
            code::STRINGS => read_strings(cursor, rec, md, sink.strings)?,
            code::VALUE => {
                let (Some(t), Some(v)) = (rec.op(0), rec.op(1)) else {
                    return Err(record_error(cursor, rec, "missing type or value"));
                };
                let ty = types
                    .resolve(t)
                    .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {t}")))?;
                if matches!(types.ty(ty), Type::Void | Type::Metadata | Type::Label) {
                    return Err(record_error(
                        cursor,
                        rec,
                        "metadata value of void, label or metadata type",
                    ));
                }
                let value = u32::try_from(v)
                    .ok()
                    .filter(|&v| v < METADATA_OPERAND)
                    .ok_or_else(|| record_error(cursor, rec, format!("value id {v}")))?;
                md.value_checks.push((index, rec.bit));
                md.nodes.push(MetadataNode::Value {
                    ty,
                    value: ValueId(value),
                });
            }
            code::NODE | code::DISTINCT_NODE => {
                // One OR over the operands (it vectorizes) instead of a search.
                if rec.ops.iter().fold(0, |acc, &v| acc | v) > u64::from(u32::MAX) {
                    return Err(record_error(cursor, rec, "metadata operand out of range"));
                }
                let operands = md.push_operands(rec.ops.iter().copied());
                md.node_bits.push((index, rec.bit));
                md.nodes.push(MetadataNode::Tuple {
                    distinct: rec.code == code::DISTINCT_NODE,
                    operands,
                });
            }
            code::LOCATION => {
                if rec.ops.len() != 5 {
                    return Err(record_error(cursor, rec, "DILocation needs 5 operands"));
                }
                let small = |v: u64| {
                    u32::try_from(v).map_err(|_| record_error(cursor, rec, "operand out of range"))
                };
                let inlined = small(rec.ops[4])?;
                md.node_bits.push((index, rec.bit));
                md.nodes.push(MetadataNode::Location {
                    distinct: rec.ops[0] != 0,
                    line: small(rec.ops[1])?,
                    column: small(rec.ops[2])?,
                    scope: MetadataId(small(rec.ops[3])?),
                    inlined_at: inlined.checked_sub(1).map(MetadataId),
                });
            }
            code::GENERIC_DEBUG..=code::MODULE => {
                let operands = md.push_operands(rec.ops.iter().copied());
                md.nodes.push(MetadataNode::Debug {
                    code: rec.code,
                    operands,
                });
            }
            code::NAME => {
                if sink.named.is_none() {
                    return Err(record_error(
                        cursor,
                        rec,
                        "named metadata inside a function",
                    ));
                }
                let Some(s) = sink.strings.add_ops(&rec.ops) else {
                    return Err(record_error(cursor, rec, "metadata name is not bytes"));
                };
                name = Some(s);
            }
            code::NAMED_NODE => {
                let Some(n) = name.take() else {
                    return Err(record_error(cursor, rec, "NAMED_NODE without a NAME"));
                };
                if rec.ops.iter().any(|&v| v >= u64::from(u32::MAX)) {
                    return Err(record_error(cursor, rec, "metadata id out of range"));
                }
                let operands = md.push_operands(rec.ops.iter().copied());
                md.named_bits.push((operands, rec.bit));
                if let Some(named) = sink.named.as_deref_mut() {
                    named.push(NamedMetadata { name: n, operands });
                }
            }
            code::KIND => {
                let id = rec
                    .op(0)
                    .ok_or_else(|| record_error(cursor, rec, "missing kind id"))?;
                let id = u32::try_from(id)
                    .map_err(|_| record_error(cursor, rec, format!("kind id {id}")))?;
                let ops = rec.ops.get(1..).unwrap_or_default();
                let Some(name) = sink.strings.add_ops(ops) else {
                    return Err(record_error(cursor, rec, "kind name is not bytes"));
                };
                match sink.kinds.as_deref_mut() {
                    Some(kinds) => kinds.push(MetadataKind { id, name }),
                    None => {
                        return Err(record_error(cursor, rec, "metadata kind inside a function"))
                    }
                }
            }
            code::INDEX_OFFSET | code::INDEX => {
                // Lazy-loading indices of newer writers: they define nothing.
            }
            code::OLD_NODE | code::OLD_FN_NODE => {
                return Err(Error::Unsupported {
                    location: record_location(cursor, rec),
                    feature: "the pre-LLVM 3.6 metadata node encoding",
                })
            }
            code::MACRO
            | code::MACRO_FILE
            | code::GLOBAL_DECL_ATTACHMENT
            | code::GLOBAL_VAR_EXPR => {
                return Err(Error::Unsupported {
                    location: record_location(cursor, rec),
                    feature: match rec.code {
                        code::MACRO | code::MACRO_FILE => "DIMacro debug information",
                        code::GLOBAL_DECL_ATTACHMENT => "metadata attached to a global",
                        _ => "DIGlobalVariableExpression debug information",
                    },
                })
            }
            other => {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("unknown metadata code {other}"),
                ))
            }
        }
    }
    if name.is_some() {
        return Err(Error::malformed(
            cursor.location(),
            "NAME at the end of a metadata block",
        ));
    }
    Ok(())
}

/// `METADATA_STRINGS: [count, offset] blob`: the blob holds `count` VBR6 lengths (as a
/// bitstream), then at `offset` the characters of every string, back to back.
fn read_strings(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    md: &mut Metadata,
    strings: &mut Strings,
) -> Result<(), Error> {
    let (Some(count), Some(offset)) = (rec.op(0), rec.op(1)) else {
        return Err(record_error(
            cursor,
            rec,
            "STRINGS needs a count and an offset",
        ));
    };
    let blob = rec.blob;
    let Some(chars) = usize::try_from(offset).ok().and_then(|o| blob.get(o..)) else {
        return Err(record_error(cursor, rec, "STRINGS offset past the blob"));
    };
    // Each length takes at least 6 bits of the blob.
    if count > (offset.saturating_mul(8)) / 6 {
        return Err(record_error(
            cursor,
            rec,
            format!("{count} strings cannot fit in the blob"),
        ));
    }
    let mut lengths =
        crate::bitstream::bits::BitReader::new(blob.get(..offset as usize).unwrap_or_default());
    let mut at = 0usize;
    for _ in 0..count {
        let len = lengths
            .read_vbr(6)
            .map_err(|e| record_error(cursor, rec, format!("STRINGS lengths: {}", e.message())))?;
        let s = usize::try_from(len)
            .ok()
            .and_then(|l| chars.get(at..at.checked_add(l)?))
            .ok_or_else(|| record_error(cursor, rec, "STRINGS characters past the blob"))?;
        at += s.len();
        let s = strings.add(s);
        md.nodes.push(MetadataNode::String(s));
    }
    Ok(())
}

/// An instruction's metadata attachment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// Index of the instruction in its function.
    pub instruction: u32,
    /// Metadata kind id.
    pub kind: u32,
    /// The attached node.
    pub node: MetadataId,
}

/// Reads a `METADATA_ATTACHMENT` block: instruction attachments (sorted by instruction) and
/// the function's own attachments. `kinds` are the module's kinds, sorted by id;
/// `instructions` is the function's instruction count.
pub(crate) fn read_attachments<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    kinds: &[MetadataKind],
    instructions: u32,
    attachments: &mut Vec<Attachment>,
    function: &mut Vec<(u32, MetadataId)>,
) -> Result<(), Error> {
    loop {
        let abbrev = match cursor.advance()? {
            Entry::EndBlock => break,
            Entry::EndOfStream => {
                return Err(Error::malformed(
                    cursor.location(),
                    "attachment block not closed",
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
        if rec.code != code::ATTACHMENT {
            continue;
        }
        let (instruction, pairs) = if rec.ops.len() % 2 == 1 {
            let i = rec.ops[0];
            if i >= u64::from(instructions) {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("instruction {i} does not exist"),
                ));
            }
            (Some(i as u32), &rec.ops[1..])
        } else {
            (None, &rec.ops[..])
        };
        for pair in pairs.chunks_exact(2) {
            let kind = u32::try_from(pair[0])
                .ok()
                .filter(|k| kinds.binary_search_by_key(k, |m| m.id).is_ok())
                .ok_or_else(|| {
                    record_error(cursor, rec, format!("undefined metadata kind {}", pair[0]))
                })?;
            let node = u32::try_from(pair[1])
                .map(MetadataId)
                .map_err(|_| record_error(cursor, rec, "metadata id out of range"))?;
            match instruction {
                Some(instruction) => attachments.push(Attachment {
                    instruction,
                    kind,
                    node,
                }),
                None => function.push((kind, node)),
            }
        }
    }
    attachments.sort_by_key(|a| a.instruction);
    Ok(())
}
