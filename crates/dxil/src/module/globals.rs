//! Global values: the `GLOBALVAR`, `FUNCTION` and `ALIAS` records of the module block, and
//! their linkage, visibility and storage enums.

use crate::bitstream::Cursor;
use crate::bitstream::Record;
use crate::error::Error;
use crate::module::types::{Type, TypeId};
use crate::module::{
    record_error, Alias, Function, GlobalVariable, Module, Str, ValueId, ValueInfo, ValueKind,
};

/// Linkage of a global value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// `external` (printed as nothing, or `external` for declarations of variables).
    External,
    /// `weak`.
    WeakAny,
    /// `appending`.
    Appending,
    /// `internal`.
    Internal,
    /// `linkonce`.
    LinkOnceAny,
    /// `extern_weak`.
    ExternalWeak,
    /// `common`.
    Common,
    /// `private`.
    Private,
    /// `weak_odr`.
    WeakOdr,
    /// `linkonce_odr`.
    LinkOnceOdr,
    /// `available_externally`.
    AvailableExternally,
}

impl Linkage {
    /// The linkage for bitcode value `v` (unknown values are external, as in LLVM).
    pub fn from_code(v: u64) -> Self {
        use Linkage::*;
        match v {
            1 | 16 => WeakAny,
            2 => Appending,
            3 => Internal,
            4 | 18 => LinkOnceAny,
            7 => ExternalWeak,
            8 => Common,
            9 | 13 | 14 => Private,
            10 | 17 => WeakOdr,
            11 | 15 | 19 => LinkOnceOdr,
            12 => AvailableExternally,
            _ => External,
        }
    }

    /// The LLVM assembly keyword (empty for `external`).
    pub fn name(self) -> &'static str {
        use Linkage::*;
        match self {
            External => "",
            WeakAny => "weak",
            Appending => "appending",
            Internal => "internal",
            LinkOnceAny => "linkonce",
            ExternalWeak => "extern_weak",
            Common => "common",
            Private => "private",
            WeakOdr => "weak_odr",
            LinkOnceOdr => "linkonce_odr",
            AvailableExternally => "available_externally",
        }
    }

    /// Whether the linkage is local (`internal`, `private`).
    pub fn is_local(self) -> bool {
        matches!(self, Linkage::Internal | Linkage::Private)
    }
}

/// Visibility of a global value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// `default`.
    Default,
    /// `hidden`.
    Hidden,
    /// `protected`.
    Protected,
}

impl Visibility {
    fn from_code(v: u64) -> Option<Self> {
        match v {
            0 => Some(Visibility::Default),
            1 => Some(Visibility::Hidden),
            2 => Some(Visibility::Protected),
            _ => None,
        }
    }
}

/// DLL storage class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DllStorage {
    /// None.
    Default,
    /// `dllimport`.
    Import,
    /// `dllexport`.
    Export,
}

impl DllStorage {
    fn from_code(v: u64) -> Option<Self> {
        match v {
            0 => Some(DllStorage::Default),
            1 => Some(DllStorage::Import),
            2 => Some(DllStorage::Export),
            _ => None,
        }
    }

    /// The storage implied by the old dllimport/dllexport linkages (5, 6).
    fn from_linkage(v: u64) -> Self {
        match v {
            5 => DllStorage::Import,
            6 => DllStorage::Export,
            _ => DllStorage::Default,
        }
    }
}

/// Thread-local storage mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreadLocal {
    /// Not thread-local.
    None,
    /// `thread_local`.
    GeneralDynamic,
    /// `thread_local(localdynamic)`.
    LocalDynamic,
    /// `thread_local(initialexec)`.
    InitialExec,
    /// `thread_local(localexec)`.
    LocalExec,
}

impl ThreadLocal {
    fn from_code(v: u64) -> Self {
        match v {
            0 => ThreadLocal::None,
            2 => ThreadLocal::LocalDynamic,
            3 => ThreadLocal::InitialExec,
            4 => ThreadLocal::LocalExec,
            _ => ThreadLocal::GeneralDynamic,
        }
    }
}

/// `(1 << v) >> 1`, the alignment encoding of LLVM (`v` = log2 + 1, 0 = none).
fn alignment(cursor: &Cursor<'_>, rec: &Record<'_>, v: u64) -> Result<u32, Error> {
    if v > 30 {
        return Err(record_error(cursor, rec, format!("alignment exponent {v}")));
    }
    Ok((1u32 << v) >> 1)
}

/// A 1-based index into a list of `len` names (0 = none).
fn optional_index(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    v: u64,
    len: usize,
    what: &str,
) -> Result<Option<u32>, Error> {
    match v {
        0 => Ok(None),
        v if v <= len as u64 => Ok(Some((v - 1) as u32)),
        v => Err(record_error(
            cursor,
            rec,
            format!("{what} {v} is not defined"),
        )),
    }
}

/// A 1-based value id (0 = none); checked when the module is complete.
fn optional_value(v: u64) -> Option<ValueId> {
    v.checked_sub(1)
        .and_then(|v| u32::try_from(v).ok())
        .map(ValueId)
}

/// `GLOBALVAR: [type, isconst|explicit<<1|addrspace<<2, initid, linkage, alignment,
/// section, visibility, threadlocal, unnamed_addr, externally_initialized, dllstorage,
/// comdat]`.
pub(crate) fn read_global_var(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    module: &mut Module,
) -> Result<(), Error> {
    if rec.ops.len() < 6 {
        return Err(record_error(
            cursor,
            rec,
            "GLOBALVAR needs at least 6 operands",
        ));
    }
    let op = |i: usize| rec.op(i).unwrap_or(0);
    let ty = module
        .types
        .resolve(op(0))
        .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {}", op(0))))?;
    let explicit = op(1) & 2 != 0;
    let (value_type, address_space) = if explicit {
        let space = u32::try_from(op(1) >> 2)
            .map_err(|_| record_error(cursor, rec, "address space out of range"))?;
        (ty, space)
    } else {
        module
            .types
            .pointer(ty)
            .ok_or_else(|| record_error(cursor, rec, "global variable type is not a pointer"))?
    };
    if matches!(
        module.types.ty(value_type),
        Type::Void | Type::Label | Type::Metadata | Type::Function { .. }
    ) {
        return Err(record_error(cursor, rec, "invalid global variable type"));
    }
    let raw_linkage = op(3);
    let linkage = Linkage::from_code(raw_linkage);
    let visibility = if rec.ops.len() > 6 && !linkage.is_local() {
        Visibility::from_code(op(6)).ok_or_else(|| record_error(cursor, rec, "bad visibility"))?
    } else {
        Visibility::Default
    };
    let dll_storage = if rec.ops.len() > 10 {
        DllStorage::from_code(op(10)).ok_or_else(|| record_error(cursor, rec, "bad DLL storage"))?
    } else {
        DllStorage::from_linkage(raw_linkage)
    };
    let comdat = if rec.ops.len() > 11 {
        optional_index(cursor, rec, op(11), module.comdats.len(), "comdat")?
    } else {
        None
    };
    let pointer = module.types.pointer_to(value_type, address_space);
    let value = ValueId(module.values.len() as u32);
    let index = module.globals.len() as u32;
    module.globals.push(GlobalVariable {
        name: Str::default(),
        value,
        value_type,
        address_space,
        is_constant: op(1) & 1 != 0,
        initializer: optional_value(op(2)),
        linkage,
        alignment: alignment(cursor, rec, op(4))?,
        section: optional_index(cursor, rec, op(5), module.section_names.len(), "section")?,
        visibility,
        thread_local: ThreadLocal::from_code(op(7)),
        unnamed_addr: op(8) != 0,
        externally_initialized: op(9) != 0,
        dll_storage,
        comdat,
    });
    module.values.push(ValueInfo {
        ty: pointer,
        kind: ValueKind::GlobalVariable(index),
    });
    Ok(())
}

/// `FUNCTION: [type, callingconv, isproto, linkage, paramattrs, alignment, section,
/// visibility, gc, unnamed_addr, prologuedata, dllstorageclass, comdat, prefixdata,
/// personalityfn]`.
pub(crate) fn read_function(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    module: &mut Module,
) -> Result<(), Error> {
    if rec.ops.len() < 8 {
        return Err(record_error(
            cursor,
            rec,
            "FUNCTION needs at least 8 operands",
        ));
    }
    let op = |i: usize| rec.op(i).unwrap_or(0);
    let raw = module
        .types
        .resolve(op(0))
        .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {}", op(0))))?;
    let ty: TypeId = match module.types.pointer(raw) {
        Some((pointee, _)) => pointee,
        None => raw,
    };
    if module.types.function(ty).is_none() {
        return Err(record_error(
            cursor,
            rec,
            "function type is not a function type",
        ));
    }
    let calling_conv = u32::try_from(op(1))
        .map_err(|_| record_error(cursor, rec, "calling convention out of range"))?;
    let attributes = op(4);
    if !module.attributes.is_valid_list(attributes) {
        return Err(record_error(
            cursor,
            rec,
            format!("attribute list {attributes} is not defined"),
        ));
    }
    let raw_linkage = op(3);
    let linkage = Linkage::from_code(raw_linkage);
    let visibility = if linkage.is_local() {
        Visibility::Default
    } else {
        Visibility::from_code(op(7)).ok_or_else(|| record_error(cursor, rec, "bad visibility"))?
    };
    let gc = if rec.ops.len() > 8 {
        optional_index(cursor, rec, op(8), module.gc_names.len(), "gc")?
    } else {
        None
    };
    let dll_storage = if rec.ops.len() > 11 {
        DllStorage::from_code(op(11)).ok_or_else(|| record_error(cursor, rec, "bad DLL storage"))?
    } else {
        DllStorage::from_linkage(raw_linkage)
    };
    let comdat = if rec.ops.len() > 12 {
        optional_index(cursor, rec, op(12), module.comdats.len(), "comdat")?
    } else {
        None
    };
    let pointer = module.types.pointer_to(ty, 0);
    let value = ValueId(module.values.len() as u32);
    let index = module.functions.len() as u32;
    module.functions.push(Function {
        name: Str::default(),
        value,
        ty,
        calling_conv,
        is_declaration: op(2) != 0,
        linkage,
        attributes: attributes as u32,
        alignment: alignment(cursor, rec, op(5))?,
        section: optional_index(cursor, rec, op(6), module.section_names.len(), "section")?,
        visibility,
        gc,
        unnamed_addr: op(9) != 0,
        prologue: optional_value(op(10)),
        prefix: optional_value(op(13)),
        personality: optional_value(op(14)),
        dll_storage,
        comdat,
        body: None,
    });
    module.values.push(ValueInfo {
        ty: pointer,
        kind: ValueKind::Function(index),
    });
    Ok(())
}

/// LLVM 3.7's `ALIAS: [alias type, aliasee val#, linkage, visibility, dllstorage,
/// threadlocal, unnamed_addr]`.
pub(crate) fn read_alias(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    module: &mut Module,
) -> Result<(), Error> {
    if rec.ops.len() < 3 {
        return Err(record_error(cursor, rec, "ALIAS needs at least 3 operands"));
    }
    let op = |i: usize| rec.op(i).unwrap_or(0);
    let ty = module
        .types
        .resolve(op(0))
        .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {}", op(0))))?;
    if module.types.pointer(ty).is_none() {
        return Err(record_error(cursor, rec, "alias type is not a pointer"));
    }
    let aliasee = u32::try_from(op(1))
        .map(ValueId)
        .map_err(|_| record_error(cursor, rec, "aliasee out of range"))?;
    let raw_linkage = op(2);
    let linkage = Linkage::from_code(raw_linkage);
    let visibility = if rec.ops.len() > 3 && !linkage.is_local() {
        Visibility::from_code(op(3)).ok_or_else(|| record_error(cursor, rec, "bad visibility"))?
    } else {
        Visibility::Default
    };
    let dll_storage = if rec.ops.len() > 4 {
        DllStorage::from_code(op(4)).ok_or_else(|| record_error(cursor, rec, "bad DLL storage"))?
    } else {
        DllStorage::from_linkage(raw_linkage)
    };
    let value = ValueId(module.values.len() as u32);
    let index = module.aliases.len() as u32;
    module.aliases.push(Alias {
        name: Str::default(),
        value,
        ty,
        aliasee,
        linkage,
        visibility,
        dll_storage,
        thread_local: ThreadLocal::from_code(op(5)),
        unnamed_addr: op(6) != 0,
    });
    module.values.push(ValueInfo {
        ty,
        kind: ValueKind::Alias(index),
    });
    Ok(())
}

/// Checks what global records refer to once every module value exists: initializers,
/// aliasees, prologue, prefix and personality data name module constants or globals of
/// the right type.
pub(crate) fn check(module: &Module) -> Result<(), String> {
    let is_constant_like = |id: ValueId| {
        module
            .values
            .get(id.index())
            .map(|v| (v.ty, v.kind))
            .filter(|(_, k)| {
                matches!(
                    k,
                    ValueKind::Constant(_)
                        | ValueKind::GlobalVariable(_)
                        | ValueKind::Function(_)
                        | ValueKind::Alias(_)
                )
            })
    };
    for g in &module.globals {
        if let Some(init) = g.initializer {
            match is_constant_like(init) {
                Some((ty, _)) if ty == g.value_type => {}
                Some(_) => {
                    return Err(format!(
                        "the initializer of global {} has the wrong type",
                        g.value.0
                    ))
                }
                None => {
                    return Err(format!(
                        "the initializer of global {} is not a constant",
                        g.value.0
                    ))
                }
            }
        }
    }
    for a in &module.aliases {
        match is_constant_like(a.aliasee) {
            Some((ty, _)) if ty == a.ty => {}
            _ => {
                return Err(format!(
                    "the aliasee of alias {} is not a constant of its type",
                    a.value.0
                ))
            }
        }
    }
    for f in &module.functions {
        for v in [f.prologue, f.prefix, f.personality].into_iter().flatten() {
            if is_constant_like(v).is_none() {
                return Err(format!(
                    "function {} names value {} as prologue, prefix or personality, which is not a constant",
                    f.value.0, v.0
                ));
            }
        }
    }
    Ok(())
}
