//! Attribute groups and attribute lists (`PARAMATTR_GROUP_BLOCK_ID`, `PARAMATTR_BLOCK`).
//!
//! A group is a set of attributes for one slot of a function (the function itself, its
//! return value, or one parameter). An attribute list is a set of groups; functions and
//! calls name a list by its 1-based position (0 = none). DXIL uses few: `nounwind`,
//! `readnone`, `readonly`, `noduplicate` on `dx.op` declarations, and the string attributes
//! `fp32-denorm-mode` and `waveops-include-helper-lanes` on entry points.

use std::collections::HashMap;

use crate::bitstream::names::paramattr as code;
use crate::bitstream::{Cursor, Entry, Record};
use crate::error::Error;
use crate::module::strings::{Str, Strings};
use crate::module::{record_error, record_location};

/// The slot index of function attributes in [`AttributeGroup::slot`].
pub const FUNCTION_SLOT: u32 = u32::MAX;

/// One attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    /// A keyword attribute (`nounwind`), by its bitcode kind number.
    Enum(u32),
    /// An attribute with an integer (`align 4`, `dereferenceable(8)`).
    Int(u32, u64),
    /// A string attribute, with its value if it has one (`"fp32-denorm-mode"="ftz"`).
    String {
        /// The key.
        key: Str,
        /// The value.
        value: Option<Str>,
    },
}

/// The name LLVM gives bitcode attribute kind `kind` (LLVM 3.7 defines 1 to 45).
pub fn attribute_kind_name(kind: u32) -> Option<&'static str> {
    const NAMES: [&str; 46] = [
        "",
        "align",
        "alwaysinline",
        "byval",
        "inlinehint",
        "inreg",
        "minsize",
        "naked",
        "nest",
        "noalias",
        "nobuiltin",
        "nocapture",
        "noduplicate",
        "noimplicitfloat",
        "noinline",
        "nonlazybind",
        "noredzone",
        "noreturn",
        "nounwind",
        "optsize",
        "readnone",
        "readonly",
        "returned",
        "returns_twice",
        "signext",
        "alignstack",
        "ssp",
        "sspreq",
        "sspstrong",
        "sret",
        "sanitize_address",
        "sanitize_thread",
        "sanitize_memory",
        "uwtable",
        "zeroext",
        "builtin",
        "cold",
        "optnone",
        "inalloca",
        "nonnull",
        "jumptable",
        "dereferenceable",
        "dereferenceable_or_null",
        "convergent",
        "safestack",
        "argmemonly",
    ];
    NAMES.get(kind as usize).copied().filter(|n| !n.is_empty())
}

/// Bitcode attribute kinds (the ones a reader is likely to test for).
pub mod kind {
    /// `align`.
    pub const ALIGN: u32 = 1;
    /// `noduplicate`.
    pub const NO_DUPLICATE: u32 = 12;
    /// `noreturn`.
    pub const NO_RETURN: u32 = 17;
    /// `nounwind`.
    pub const NO_UNWIND: u32 = 18;
    /// `readnone`.
    pub const READ_NONE: u32 = 20;
    /// `readonly`.
    pub const READ_ONLY: u32 = 21;
    /// `alignstack`.
    pub const ALIGN_STACK: u32 = 25;
    /// `dereferenceable`.
    pub const DEREFERENCEABLE: u32 = 41;
    /// `dereferenceable_or_null`.
    pub const DEREFERENCEABLE_OR_NULL: u32 = 42;
    /// `convergent`.
    pub const CONVERGENT: u32 = 43;
    /// `argmemonly`.
    pub const ARG_MEM_ONLY: u32 = 45;
}

/// An attribute group: the attributes of one slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttributeGroup {
    /// The group id the bitcode gives it.
    pub id: u32,
    /// The slot: [`FUNCTION_SLOT`], 0 for the return value, `n` for parameter `n - 1`.
    pub slot: u32,
    start: u32,
    len: u32,
}

/// An attribute list: a range of group indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct List {
    start: u32,
    len: u32,
}

/// The module's attribute groups and lists.
#[derive(Clone, Debug, Default)]
pub struct Attributes {
    groups: Vec<AttributeGroup>,
    attributes: Vec<Attribute>,
    lists: Vec<List>,
    /// Indices into `groups`, by list.
    list_groups: Vec<u32>,
    /// Group id to index into `groups` (a later group of the same id replaces the earlier).
    by_id: HashMap<u32, u32>,
}

impl Attributes {
    /// Every group, in the order the bitcode defines them.
    pub fn groups(&self) -> &[AttributeGroup] {
        &self.groups
    }

    /// The attributes of a group.
    pub fn group_attributes(&self, group: &AttributeGroup) -> &[Attribute] {
        let start = group.start as usize;
        self.attributes
            .get(start..start + group.len as usize)
            .unwrap_or_default()
    }

    /// Number of attribute lists.
    pub fn list_count(&self) -> usize {
        self.lists.len()
    }

    /// The groups of attribute list `list` as functions and calls name it (1-based; 0 or
    /// out of range gives no groups).
    pub fn list(&self, list: u32) -> impl Iterator<Item = &AttributeGroup> + '_ {
        let range = list
            .checked_sub(1)
            .and_then(|i| self.lists.get(i as usize))
            .copied()
            .unwrap_or_default();
        let start = range.start as usize;
        self.list_groups
            .get(start..start + range.len as usize)
            .unwrap_or_default()
            .iter()
            .filter_map(|&g| self.groups.get(g as usize))
    }

    /// The attributes of one slot of attribute list `list`.
    pub fn slot(&self, list: u32, slot: u32) -> impl Iterator<Item = &Attribute> + '_ {
        self.list(list)
            .filter(move |g| g.slot == slot)
            .flat_map(|g| self.group_attributes(g).iter())
    }

    /// Whether slot `slot` of list `list` has the keyword attribute `kind`.
    pub fn has(&self, list: u32, slot: u32, kind: u32) -> bool {
        self.slot(list, slot)
            .any(|a| matches!(*a, Attribute::Enum(k) | Attribute::Int(k, _) if k == kind))
    }

    /// Whether a list index is valid (0 = none is valid).
    pub fn is_valid_list(&self, list: u64) -> bool {
        list <= self.lists.len() as u64
    }

    /// Reads a `PARAMATTR_GROUP_BLOCK_ID` block.
    pub(crate) fn read_group_block<'a>(
        &mut self,
        cursor: &mut Cursor<'a>,
        record: &mut Record<'a>,
        strings: &mut Strings,
    ) -> Result<(), Error> {
        let mut bytes = Vec::new();
        // Room for the few groups a DXIL module has, so the tables do not grow.
        if self.groups.is_empty() {
            self.groups.reserve(8);
            self.attributes.reserve(16);
            self.by_id.reserve(8);
        }
        loop {
            let abbrev = match cursor.advance()? {
                Entry::EndBlock => return Ok(()),
                Entry::EndOfStream => {
                    return Err(Error::malformed(cursor.location(), "block not closed"))
                }
                Entry::SubBlock(_) => {
                    cursor.skip_block()?;
                    continue;
                }
                Entry::Record(a) => a,
            };
            cursor.read_record(abbrev, record)?;
            let rec = &*record;
            if rec.code != code::GRP_ENTRY {
                continue;
            }
            let (Some(id), Some(slot)) = (rec.op(0), rec.op(1)) else {
                return Err(record_error(cursor, rec, "missing group id or slot"));
            };
            let id = u32::try_from(id)
                .map_err(|_| record_error(cursor, rec, format!("group id {id}")))?;
            let slot = u32::try_from(slot)
                .map_err(|_| record_error(cursor, rec, format!("attribute slot {slot}")))?;
            let start = self.attributes.len() as u32;
            let mut i = 2;
            while let Some(kind) = rec.op(i) {
                let missing = || record_error(cursor, rec, "truncated attribute");
                match kind {
                    0 | 1 => {
                        let k = rec.op(i + 1).ok_or_else(missing)?;
                        let k = u32::try_from(k)
                            .ok()
                            .filter(|&k| attribute_kind_name(k).is_some())
                            .ok_or_else(|| {
                                record_error(cursor, rec, format!("unknown attribute kind {k}"))
                            })?;
                        if kind == 0 {
                            self.attributes.push(Attribute::Enum(k));
                            i += 2;
                        } else {
                            let v = rec.op(i + 2).ok_or_else(missing)?;
                            self.attributes.push(Attribute::Int(k, v));
                            i += 3;
                        }
                    }
                    3 | 4 => {
                        let mut read_string = |at: &mut usize| -> Result<Str, Error> {
                            bytes.clear();
                            loop {
                                let c = rec.op(*at).ok_or_else(missing)?;
                                *at += 1;
                                if c == 0 {
                                    return Ok(strings.add(&bytes));
                                }
                                bytes.push(u8::try_from(c).map_err(|_| {
                                    record_error(cursor, rec, "string attribute is not bytes")
                                })?);
                            }
                        };
                        let mut at = i + 1;
                        let key = read_string(&mut at)?;
                        let value = if kind == 4 {
                            Some(read_string(&mut at)?)
                        } else {
                            None
                        };
                        self.attributes.push(Attribute::String { key, value });
                        i = at;
                    }
                    5..=7 => {
                        return Err(Error::Unsupported {
                            location: record_location(cursor, rec),
                            feature: "a type or constant-range attribute",
                        })
                    }
                    other => {
                        return Err(record_error(
                            cursor,
                            rec,
                            format!("unknown attribute encoding {other}"),
                        ))
                    }
                }
            }
            self.by_id.insert(id, self.groups.len() as u32);
            self.groups.push(AttributeGroup {
                id,
                slot,
                start,
                len: self.attributes.len() as u32 - start,
            });
        }
    }

    /// Reads a `PARAMATTR_BLOCK` block (after the group block).
    pub(crate) fn read_list_block<'a>(
        &mut self,
        cursor: &mut Cursor<'a>,
        record: &mut Record<'a>,
    ) -> Result<(), Error> {
        if self.lists.is_empty() {
            self.lists.reserve(8);
            self.list_groups.reserve(16);
        }
        loop {
            let abbrev = match cursor.advance()? {
                Entry::EndBlock => return Ok(()),
                Entry::EndOfStream => {
                    return Err(Error::malformed(cursor.location(), "block not closed"))
                }
                Entry::SubBlock(_) => {
                    cursor.skip_block()?;
                    continue;
                }
                Entry::Record(a) => a,
            };
            cursor.read_record(abbrev, record)?;
            let rec = &*record;
            match rec.code {
                code::ENTRY => {
                    let start = self.list_groups.len() as u32;
                    for &gid in &rec.ops {
                        let g = u32::try_from(gid)
                            .ok()
                            .and_then(|id| self.by_id.get(&id))
                            .ok_or_else(|| {
                                record_error(
                                    cursor,
                                    rec,
                                    format!("undefined attribute group {gid}"),
                                )
                            })?;
                        self.list_groups.push(*g);
                    }
                    self.lists.push(List {
                        start,
                        len: self.list_groups.len() as u32 - start,
                    });
                }
                code::ENTRY_OLD => {
                    return Err(Error::Unsupported {
                        location: record_location(cursor, rec),
                        feature: "the pre-LLVM 3.3 attribute encoding (ENTRY_OLD)",
                    })
                }
                _ => {}
            }
        }
    }
}
