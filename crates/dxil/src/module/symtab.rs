//! Value symbol tables (`VALUE_SYMTAB`): the names of globals (module level) and of
//! arguments, instructions and basic blocks (function level).

use crate::bitstream::names::symtab as code;
use crate::bitstream::{Cursor, Entry, Record};
use crate::error::{Error, Location};
use crate::module::strings::{Str, Strings};
use crate::module::{record_error, record_location};

/// A name from a symbol table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Symbol {
    /// `ENTRY`: a value id.
    Value(u64),
    /// `BBENTRY`: a basic block id.
    Block(u64),
}

/// Reads a symbol table block (just entered), calling `name` for each entry with the
/// entry, its name and the record's location.
pub(crate) fn read_block<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    strings: &mut Strings,
    mut name: impl FnMut(Symbol, Str, Location) -> Result<(), Error>,
) -> Result<(), Error> {
    loop {
        let abbrev = match cursor.advance()? {
            Entry::EndBlock => return Ok(()),
            Entry::EndOfStream => {
                return Err(Error::malformed(
                    cursor.location(),
                    "symbol table not closed",
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
        let symbol = match rec.code {
            code::ENTRY => Symbol::Value(rec.op(0).unwrap_or(u64::MAX)),
            code::BBENTRY => Symbol::Block(rec.op(0).unwrap_or(u64::MAX)),
            code::FNENTRY | code::COMBINED_ENTRY => {
                return Err(Error::Unsupported {
                    location: record_location(cursor, rec),
                    feature: "a function-offset or combined symbol table entry (LLVM 3.8+)",
                })
            }
            _ => continue,
        };
        let s = match rec.ops.get(1..) {
            Some(ops) => strings.add_ops(ops),
            None => None,
        };
        let Some(s) = s else {
            return Err(record_error(
                cursor,
                rec,
                "symbol table entry without a byte name",
            ));
        };
        name(symbol, s, record_location(cursor, rec))?;
    }
}
