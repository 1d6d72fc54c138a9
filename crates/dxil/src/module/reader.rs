//! The module block: the order records and blocks are read in, and the checks that need the
//! whole module.

use crate::bitstream::names::{block, identification, module as code};
use crate::bitstream::{open, Cursor, Entry, Record};
use crate::error::{Error, Location};
use crate::module::constants::{self, ValueScope};
use crate::module::function::{read_function_block, ModuleContext};
use crate::module::globals;
use crate::module::metadata::{self, MetadataSink};
use crate::module::symtab::{self, Symbol};
use crate::module::{record_error, record_location, Comdat, Module, ValueKind, MAX_BITCODE_BYTES};

/// Reads the module of a bitcode stream.
pub(crate) fn read_module(bitcode: &[u8]) -> Result<Module, Error> {
    if bitcode.len() > MAX_BITCODE_BYTES {
        return Err(Error::Limit {
            location: Location::top(0),
            what: "bitcode size in bytes",
            limit: MAX_BITCODE_BYTES as u64,
        });
    }
    let mut cursor = open(bitcode)?;
    // Room for the longest records of a typical module (the data layout string, calls).
    let mut record = Record::with_capacity(128);
    let mut module = Module::default();
    // Sized from DXIL modules' typical proportions, so the tables rarely grow.
    module.strings.reserve_for_bitcode(bitcode.len());
    module.values.reserve(bitcode.len() / 48);
    module.metadata_kinds.reserve(32);
    module.named_metadata.reserve(16);
    // DXIL modules declare a handful of `dx.op.*` functions besides the entry point.
    module.functions.reserve(8);
    loop {
        match cursor.advance()? {
            Entry::SubBlock(block::IDENTIFICATION) => {
                cursor.enter_block(block::IDENTIFICATION)?;
                read_identification(&mut cursor, &mut record, &mut module)?;
            }
            Entry::SubBlock(block::MODULE) => {
                cursor.enter_block(block::MODULE)?;
                read_module_block(&mut cursor, &mut record, &mut module)?;
                return Ok(module);
            }
            Entry::SubBlock(_) => cursor.skip_block()?,
            Entry::Record(_) => {
                return Err(Error::malformed(
                    cursor.location(),
                    "record at the top level",
                ))
            }
            Entry::EndBlock => {}
            Entry::EndOfStream => {
                return Err(Error::malformed(
                    cursor.location(),
                    "no module block in the bitcode",
                ))
            }
        }
    }
}

fn read_identification<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    module: &mut Module,
) -> Result<(), Error> {
    let mut bytes = Vec::new();
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
        if record.code == identification::STRING {
            if !record.bytes_from(0, &mut bytes) {
                return Err(record_error(cursor, record, "producer is not bytes"));
            }
            module.producer = Some(module.strings.add(&bytes));
        }
    }
}

fn string_record(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    module: &mut Module,
) -> Result<crate::module::Str, Error> {
    module
        .strings
        .add_ops(&rec.ops)
        .ok_or_else(|| record_error(cursor, rec, "string operand is not a byte"))
}

fn read_module_block<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    module: &mut Module,
) -> Result<(), Error> {
    // Indices of the functions with bodies, in record order: the n-th function block is the
    // body of the n-th of them.
    let mut pending_bodies: Option<std::vec::IntoIter<usize>> = None;
    loop {
        let abbrev = match cursor.advance()? {
            Entry::EndBlock => break,
            Entry::EndOfStream => {
                return Err(Error::malformed(
                    cursor.location(),
                    "module block not closed",
                ))
            }
            Entry::SubBlock(id) => {
                read_sub_block(cursor, record, module, id, &mut pending_bodies)?;
                continue;
            }
            Entry::Record(a) => a,
        };
        cursor.read_record(abbrev, record)?;
        let rec = &*record;
        match rec.code {
            code::VERSION => {
                let v = rec
                    .op(0)
                    .ok_or_else(|| record_error(cursor, rec, "no version"))?;
                if v > 1 {
                    return Err(Error::Unsupported {
                        location: record_location(cursor, rec),
                        feature: "module version 2 (a string table, LLVM 5+)",
                    });
                }
                module.version = v;
            }
            code::TRIPLE => module.triple = string_record(cursor, rec, module)?,
            code::DATALAYOUT => module.datalayout = string_record(cursor, rec, module)?,
            code::ASM => module.module_asm = string_record(cursor, rec, module)?,
            code::SECTIONNAME => {
                let s = string_record(cursor, rec, module)?;
                module.section_names.push(s);
            }
            code::GCNAME => {
                let s = string_record(cursor, rec, module)?;
                module.gc_names.push(s);
            }
            code::DEPLIB => {}
            code::COMDAT => {
                // [selection_kind, name size, name chars...]
                let (Some(selection), Some(size)) = (rec.op(0), rec.op(1)) else {
                    return Err(record_error(
                        cursor,
                        rec,
                        "COMDAT needs a selection and a name",
                    ));
                };
                let mut bytes = Vec::new();
                if !rec.bytes_from(2, &mut bytes) || bytes.len() as u64 != size {
                    return Err(record_error(
                        cursor,
                        rec,
                        "COMDAT name does not match its size",
                    ));
                }
                let name = module.strings.add(&bytes);
                let selection = u32::try_from(selection)
                    .map_err(|_| record_error(cursor, rec, "bad selection kind"))?;
                module.comdats.push(Comdat { name, selection });
            }
            code::GLOBALVAR => {
                check_not_after_bodies(cursor, rec, &pending_bodies)?;
                globals::read_global_var(cursor, rec, module)?
            }
            code::FUNCTION => {
                check_not_after_bodies(cursor, rec, &pending_bodies)?;
                globals::read_function(cursor, rec, module)?
            }
            code::ALIAS_OLD => {
                check_not_after_bodies(cursor, rec, &pending_bodies)?;
                globals::read_alias(cursor, rec, module)?
            }
            code::ALIAS
            | code::VSTOFFSET
            | code::METADATA_VALUES_UNUSED
            | code::SOURCE_FILENAME
            | code::HASH
            | code::IFUNC
            | code::PURGEVALS => {
                return Err(Error::Unsupported {
                    location: record_location(cursor, rec),
                    feature: match rec.code {
                        code::ALIAS => "an alias with an address space (LLVM 3.8+)",
                        code::VSTOFFSET => "a symbol table offset (LLVM 3.8+)",
                        code::SOURCE_FILENAME => "a source file name record (LLVM 3.9+)",
                        code::HASH => "a module hash (LLVM 3.9+)",
                        code::IFUNC => "an ifunc (LLVM 3.9+)",
                        code::PURGEVALS => "PURGEVALS (pre-LLVM 3.0)",
                        _ => "METADATA_VALUES_UNUSED (LLVM 3.8+)",
                    },
                })
            }
            _ => {}
        }
    }
    if let Some(mut rest) = pending_bodies.take() {
        if let Some(f) = rest.next() {
            return Err(Error::malformed(
                cursor.location(),
                format!(
                    "function {} is defined but has no body",
                    module.functions[f].value.0
                ),
            ));
        }
    } else if let Some(f) = module.functions.iter().find(|f| !f.is_declaration) {
        return Err(Error::malformed(
            cursor.location(),
            format!("function {} is defined but has no body", f.value.0),
        ));
    }
    check_module(cursor, module)
}

fn check_not_after_bodies(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    pending: &Option<std::vec::IntoIter<usize>>,
) -> Result<(), Error> {
    if pending.is_some() {
        return Err(record_error(
            cursor,
            rec,
            "global value record after the first function body",
        ));
    }
    Ok(())
}

fn read_sub_block<'a>(
    cursor: &mut Cursor<'a>,
    record: &mut Record<'a>,
    module: &mut Module,
    id: u32,
    pending_bodies: &mut Option<std::vec::IntoIter<usize>>,
) -> Result<(), Error> {
    match id {
        block::PARAMATTR_GROUP => {
            cursor.enter_block(id)?;
            module
                .attributes
                .read_group_block(cursor, record, &mut module.strings)
        }
        block::PARAMATTR => {
            cursor.enter_block(id)?;
            module.attributes.read_list_block(cursor, record)
        }
        block::TYPE => {
            cursor.enter_block(id)?;
            module.types.read_block(cursor, record, &mut module.strings)
        }
        block::CONSTANTS => {
            if pending_bodies.is_some() {
                return Err(Error::malformed(
                    cursor.location(),
                    "module constants after the first function body",
                ));
            }
            cursor.enter_block(id)?;
            let mut scope = ValueScope {
                module: &[],
                local: &mut module.values,
                local_base: 0,
            };
            constants::read_block(
                cursor,
                record,
                &module.types,
                &mut module.constants,
                &mut scope,
                None,
            )
        }
        block::METADATA | block::METADATA_KIND => {
            if pending_bodies.is_some() {
                return Err(Error::malformed(
                    cursor.location(),
                    "module metadata after the first function body",
                ));
            }
            cursor.enter_block(id)?;
            let mut sink = MetadataSink {
                metadata: &mut module.metadata,
                named: Some(&mut module.named_metadata),
                kinds: Some(&mut module.metadata_kinds),
                strings: &mut module.strings,
            };
            metadata::read_block(cursor, record, &module.types, &mut sink)?;
            module.metadata_kinds.sort_by_key(|k| k.id);
            if module.metadata_kinds.windows(2).any(|w| w[0].id == w[1].id) {
                return Err(Error::malformed(
                    cursor.location(),
                    "a metadata kind id defined twice",
                ));
            }
            Ok(())
        }
        block::VALUE_SYMTAB => {
            cursor.enter_block(id)?;
            let Module {
                strings,
                values,
                globals,
                functions,
                aliases,
                ..
            } = module;
            symtab::read_block(cursor, record, strings, |symbol, name, at| {
                let Symbol::Value(v) = symbol else {
                    return Err(Error::malformed(
                        at,
                        "basic block name in the module symbol table",
                    ));
                };
                let kind = usize::try_from(v)
                    .ok()
                    .and_then(|i| values.get(i))
                    .map(|v| v.kind);
                let slot = match kind {
                    Some(ValueKind::GlobalVariable(i)) => {
                        globals.get_mut(i as usize).map(|g| &mut g.name)
                    }
                    Some(ValueKind::Function(i)) => {
                        functions.get_mut(i as usize).map(|f| &mut f.name)
                    }
                    Some(ValueKind::Alias(i)) => aliases.get_mut(i as usize).map(|a| &mut a.name),
                    _ => None,
                };
                match slot {
                    Some(slot) => {
                        *slot = name;
                        Ok(())
                    }
                    None => Err(Error::malformed(
                        at,
                        format!("symbol table names value {v}, which is not a global value"),
                    )),
                }
            })
        }
        block::FUNCTION => {
            let bodies = pending_bodies.get_or_insert_with(|| {
                module
                    .functions
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| !f.is_declaration)
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>()
                    .into_iter()
            });
            let Some(index) = bodies.next() else {
                return Err(Error::malformed(
                    cursor.location(),
                    "more function bodies than defined functions",
                ));
            };
            cursor.enter_block(id)?;
            let fn_type = module.functions[index].ty;
            let mut ctx = ModuleContext {
                types: &mut module.types,
                values: &module.values,
                constants: &module.constants,
                attributes: &module.attributes,
                metadata_kinds: &module.metadata_kinds,
                metadata_end: module.metadata.end(),
                strings: &mut module.strings,
                relative: module.version >= 1,
            };
            let body = read_function_block(cursor, record, &mut ctx, fn_type)?;
            // LLVM 3.6's landingpad names the personality; from 3.7 on the function does, and
            // LLVM moves it there when reading (one personality per function).
            for inst in &body.instructions {
                if let crate::module::Op::LandingPad {
                    personality: Some(p),
                    ..
                } = inst.op
                {
                    let f = &mut module.functions[index];
                    match f.personality {
                        None => f.personality = Some(p),
                        Some(q) if q == p => {}
                        Some(_) => {
                            return Err(Error::malformed(
                                cursor.location(),
                                "landingpads of one function name different personalities",
                            ))
                        }
                    }
                }
            }
            module.functions[index].body = Some(body);
            Ok(())
        }
        _ => cursor.skip_block(),
    }
}

/// Checks that need every module-level value and metadata entry.
fn check_module(cursor: &Cursor<'_>, module: &Module) -> Result<(), Error> {
    let at = cursor.location();
    globals::check(module).map_err(|m| Error::malformed(at, m))?;
    let limit = module.metadata.end();
    module.metadata.check(block::METADATA, limit, |v| {
        module.values.get(v.index()).map(|x| x.ty)
    })?;
    for named in &module.named_metadata {
        if let Some(bad) = module
            .metadata
            .named_operands(named.operands)
            .find(|id| id.0 >= limit)
        {
            return Err(Error::malformed(
                at,
                format!(
                    "named metadata {} names !{}, which is not defined",
                    module.text(named.name),
                    bad.0
                ),
            ));
        }
    }
    Ok(())
}
