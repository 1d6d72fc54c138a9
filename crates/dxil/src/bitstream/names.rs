//! Block and record ids of LLVM IR bitcode, with the names `llvm-bcanalyzer` prints.
//!
//! The numbers are LLVM's (`LLVMBitCodes.h`); they never change once assigned. The names are
//! used in error messages and by the disassembler; the module reader matches on the
//! constants.

/// Block ids.
pub mod block {
    /// `BLOCKINFO_BLOCK`: abbreviations shared by every block of an id.
    pub const BLOCKINFO: u32 = 0;
    /// `MODULE_BLOCK`.
    pub const MODULE: u32 = 8;
    /// `PARAMATTR_BLOCK`: attribute lists.
    pub const PARAMATTR: u32 = 9;
    /// `PARAMATTR_GROUP_BLOCK_ID`: attribute groups.
    pub const PARAMATTR_GROUP: u32 = 10;
    /// `CONSTANTS_BLOCK`.
    pub const CONSTANTS: u32 = 11;
    /// `FUNCTION_BLOCK`: one function body.
    pub const FUNCTION: u32 = 12;
    /// `IDENTIFICATION_BLOCK_ID` (LLVM 3.8+): producer string and epoch.
    pub const IDENTIFICATION: u32 = 13;
    /// `VALUE_SYMTAB`: value and basic block names.
    pub const VALUE_SYMTAB: u32 = 14;
    /// `METADATA_BLOCK`.
    pub const METADATA: u32 = 15;
    /// `METADATA_ATTACHMENT`: metadata attached to instructions and functions.
    pub const METADATA_ATTACHMENT: u32 = 16;
    /// `TYPE_BLOCK_ID` (the "new" type table).
    pub const TYPE: u32 = 17;
    /// `USELIST_BLOCK`: use-list orders (ignored).
    pub const USELIST: u32 = 18;
    /// `MODULE_STRTAB_BLOCK` (LLVM 3.8+).
    pub const MODULE_STRTAB: u32 = 19;
    /// `GLOBALVAL_SUMMARY_BLOCK` (LLVM 3.8+).
    pub const GLOBALVAL_SUMMARY: u32 = 20;
    /// `OPERAND_BUNDLE_TAGS_BLOCK` (LLVM 3.9+).
    pub const OPERAND_BUNDLE_TAGS: u32 = 21;
    /// `METADATA_KIND_BLOCK` (LLVM 3.9+; LLVM 3.7 puts kinds in the metadata block).
    pub const METADATA_KIND: u32 = 22;
    /// `STRTAB_BLOCK` (LLVM 5+).
    pub const STRTAB: u32 = 23;
    /// `FULL_LTO_GLOBALVAL_SUMMARY_BLOCK` (LLVM 5+).
    pub const FULL_LTO_GLOBALVAL_SUMMARY: u32 = 24;
    /// `SYMTAB_BLOCK` (LLVM 5+).
    pub const SYMTAB: u32 = 25;
    /// `SYNC_SCOPE_NAMES_BLOCK` (LLVM 5+).
    pub const SYNC_SCOPE_NAMES: u32 = 26;
}

/// The name of a block id, as `llvm-bcanalyzer` prints it.
pub fn block_name(id: u32) -> &'static str {
    match id {
        block::BLOCKINFO => "BLOCKINFO_BLOCK",
        block::MODULE => "MODULE_BLOCK",
        block::PARAMATTR => "PARAMATTR_BLOCK",
        block::PARAMATTR_GROUP => "PARAMATTR_GROUP_BLOCK_ID",
        block::CONSTANTS => "CONSTANTS_BLOCK",
        block::FUNCTION => "FUNCTION_BLOCK",
        block::IDENTIFICATION => "IDENTIFICATION_BLOCK_ID",
        block::VALUE_SYMTAB => "VALUE_SYMTAB",
        block::METADATA => "METADATA_BLOCK",
        block::METADATA_ATTACHMENT => "METADATA_ATTACHMENT",
        block::TYPE => "TYPE_BLOCK_ID",
        block::USELIST => "USELIST_BLOCK",
        block::MODULE_STRTAB => "MODULE_STRTAB_BLOCK",
        block::GLOBALVAL_SUMMARY => "GLOBALVAL_SUMMARY_BLOCK",
        block::OPERAND_BUNDLE_TAGS => "OPERAND_BUNDLE_TAGS_BLOCK",
        block::METADATA_KIND => "METADATA_KIND_BLOCK",
        block::STRTAB => "STRTAB_BLOCK",
        block::FULL_LTO_GLOBALVAL_SUMMARY => "FULL_LTO_GLOBALVAL_SUMMARY_BLOCK",
        block::SYMTAB => "SYMTAB_BLOCK",
        block::SYNC_SCOPE_NAMES => "SYNC_SCOPE_NAMES_BLOCK",
        _ => "unknown block",
    }
}

/// Record codes of the module block.
pub mod module {
    /// `VERSION: [version#]`; 1 means relative value ids in function blocks.
    pub const VERSION: u32 = 1;
    /// `TRIPLE: [strchr x N]`.
    pub const TRIPLE: u32 = 2;
    /// `DATALAYOUT: [strchr x N]`.
    pub const DATALAYOUT: u32 = 3;
    /// `ASM: [strchr x N]`: module-level inline assembly.
    pub const ASM: u32 = 4;
    /// `SECTIONNAME: [strchr x N]`.
    pub const SECTIONNAME: u32 = 5;
    /// `DEPLIB: [strchr x N]` (obsolete).
    pub const DEPLIB: u32 = 6;
    /// `GLOBALVAR`.
    pub const GLOBALVAR: u32 = 7;
    /// `FUNCTION`.
    pub const FUNCTION: u32 = 8;
    /// `ALIAS` of LLVM 3.7 (`ALIAS_OLD` in later LLVM).
    pub const ALIAS_OLD: u32 = 9;
    /// `PURGEVALS` (obsolete).
    pub const PURGEVALS: u32 = 10;
    /// `GCNAME: [strchr x N]`.
    pub const GCNAME: u32 = 11;
    /// `COMDAT: [selection_kind, name]`.
    pub const COMDAT: u32 = 12;
    /// `VSTOFFSET` (LLVM 3.8+).
    pub const VSTOFFSET: u32 = 13;
    /// `ALIAS` with address space (LLVM 3.8+).
    pub const ALIAS: u32 = 14;
    /// `METADATA_VALUES_UNUSED` (LLVM 3.8+).
    pub const METADATA_VALUES_UNUSED: u32 = 15;
    /// `SOURCE_FILENAME` (LLVM 3.9+).
    pub const SOURCE_FILENAME: u32 = 16;
    /// `HASH` (LLVM 3.9+).
    pub const HASH: u32 = 17;
    /// `IFUNC` (LLVM 3.9+).
    pub const IFUNC: u32 = 18;
}

/// Record codes of the type block.
pub mod ty {
    /// `NUMENTRY: [numentries]`.
    pub const NUMENTRY: u32 = 1;
    /// `VOID`.
    pub const VOID: u32 = 2;
    /// `FLOAT`.
    pub const FLOAT: u32 = 3;
    /// `DOUBLE`.
    pub const DOUBLE: u32 = 4;
    /// `LABEL`.
    pub const LABEL: u32 = 5;
    /// `OPAQUE`: an opaque named struct.
    pub const OPAQUE: u32 = 6;
    /// `INTEGER: [width]`.
    pub const INTEGER: u32 = 7;
    /// `POINTER: [pointee type, address space]`.
    pub const POINTER: u32 = 8;
    /// `FUNCTION_OLD: [vararg, attrid, retty, paramty x N]`.
    pub const FUNCTION_OLD: u32 = 9;
    /// `HALF`.
    pub const HALF: u32 = 10;
    /// `ARRAY: [numelts, eltty]`.
    pub const ARRAY: u32 = 11;
    /// `VECTOR: [numelts, eltty]`.
    pub const VECTOR: u32 = 12;
    /// `X86_FP80`.
    pub const X86_FP80: u32 = 13;
    /// `FP128`.
    pub const FP128: u32 = 14;
    /// `PPC_FP128`.
    pub const PPC_FP128: u32 = 15;
    /// `METADATA`.
    pub const METADATA: u32 = 16;
    /// `X86_MMX`.
    pub const X86_MMX: u32 = 17;
    /// `STRUCT_ANON: [ispacked, eltty x N]`.
    pub const STRUCT_ANON: u32 = 18;
    /// `STRUCT_NAME: [strchr x N]`: names the next named struct or opaque type.
    pub const STRUCT_NAME: u32 = 19;
    /// `STRUCT_NAMED: [ispacked, eltty x N]`.
    pub const STRUCT_NAMED: u32 = 20;
    /// `FUNCTION: [vararg, retty, paramty x N]`.
    pub const FUNCTION: u32 = 21;
    /// `TOKEN` (LLVM 3.8+).
    pub const TOKEN: u32 = 22;
    /// `BFLOAT` (LLVM 11+).
    pub const BFLOAT: u32 = 23;
    /// `X86_AMX` (LLVM 12+).
    pub const X86_AMX: u32 = 24;
    /// `OPAQUE_POINTER` (LLVM 13+).
    pub const OPAQUE_POINTER: u32 = 25;
    /// `TARGET_TYPE` (LLVM 16+).
    pub const TARGET_TYPE: u32 = 26;
}

/// Record codes of the attribute blocks.
pub mod paramattr {
    /// `ENTRY_OLD: [paramidx0, attr0, paramidx1, attr1...]` (LLVM 3.2 and older).
    pub const ENTRY_OLD: u32 = 1;
    /// `ENTRY: [attrgrp0, attrgrp1, ...]`.
    pub const ENTRY: u32 = 2;
    /// `GRP_CODE_ENTRY: [grpid, paramidx, attr0, attr1, ...]`.
    pub const GRP_ENTRY: u32 = 3;
}

/// Record codes of the constants block.
pub mod constants {
    /// `SETTYPE: [typeid]`.
    pub const SETTYPE: u32 = 1;
    /// `NULL`.
    pub const NULL: u32 = 2;
    /// `UNDEF`.
    pub const UNDEF: u32 = 3;
    /// `INTEGER: [signed vbr]`.
    pub const INTEGER: u32 = 4;
    /// `WIDE_INTEGER: [n x signed vbr]`.
    pub const WIDE_INTEGER: u32 = 5;
    /// `FLOAT: [bits]`.
    pub const FLOAT: u32 = 6;
    /// `AGGREGATE: [n x value]`.
    pub const AGGREGATE: u32 = 7;
    /// `STRING: [chars]`.
    pub const STRING: u32 = 8;
    /// `CSTRING: [chars]` (a NUL is appended).
    pub const CSTRING: u32 = 9;
    /// `CE_BINOP: [opcode, lhs, rhs, flags?]`.
    pub const CE_BINOP: u32 = 10;
    /// `CE_CAST: [opcode, opty, opval]`.
    pub const CE_CAST: u32 = 11;
    /// `CE_GEP: [pointee type?, n x (ty, val)]`.
    pub const CE_GEP: u32 = 12;
    /// `CE_SELECT: [cond, true, false]`.
    pub const CE_SELECT: u32 = 13;
    /// `CE_EXTRACTELT: [opty, opval, idxty?, idxval]`.
    pub const CE_EXTRACTELT: u32 = 14;
    /// `CE_INSERTELT: [opval, opval, idxty?, idxval]`.
    pub const CE_INSERTELT: u32 = 15;
    /// `CE_SHUFFLEVEC: [opval, opval, mask]`.
    pub const CE_SHUFFLEVEC: u32 = 16;
    /// `CE_CMP: [opty, lhs, rhs, pred]`.
    pub const CE_CMP: u32 = 17;
    /// `INLINEASM_OLD`.
    pub const INLINEASM_OLD: u32 = 18;
    /// `CE_SHUFVEC_EX: [opty, opval, opval, mask]`.
    pub const CE_SHUFVEC_EX: u32 = 19;
    /// `CE_INBOUNDS_GEP: [pointee type?, n x (ty, val)]`.
    pub const CE_INBOUNDS_GEP: u32 = 20;
    /// `BLOCKADDRESS: [fnty, fnval, bb#]`.
    pub const BLOCKADDRESS: u32 = 21;
    /// `DATA: [n x elements]`.
    pub const DATA: u32 = 22;
    /// `INLINEASM`.
    pub const INLINEASM: u32 = 23;
    /// `CE_GEP_WITH_INRANGE_INDEX` (LLVM 4+).
    pub const CE_GEP_WITH_INRANGE_INDEX: u32 = 24;
    /// `CE_UNOP` (LLVM 8+).
    pub const CE_UNOP: u32 = 25;
    /// `POISON` (LLVM 12+).
    pub const POISON: u32 = 26;
}

/// Record codes of the function block.
pub mod function {
    /// `DECLAREBLOCKS: [n]`.
    pub const DECLAREBLOCKS: u32 = 1;
    /// `INST_BINOP: [opval, ty?, opval, opcode, flags?]`.
    pub const INST_BINOP: u32 = 2;
    /// `INST_CAST: [opval, ty?, destty, castopc]`.
    pub const INST_CAST: u32 = 3;
    /// `INST_GEP_OLD: [n x operands]`.
    pub const INST_GEP_OLD: u32 = 4;
    /// `INST_SELECT: [opval, opval, opval]` (i1 condition only).
    pub const INST_SELECT: u32 = 5;
    /// `INST_EXTRACTELT: [opval, ty?, opval, ty?]`.
    pub const INST_EXTRACTELT: u32 = 6;
    /// `INST_INSERTELT`.
    pub const INST_INSERTELT: u32 = 7;
    /// `INST_SHUFFLEVEC`.
    pub const INST_SHUFFLEVEC: u32 = 8;
    /// `INST_CMP`.
    pub const INST_CMP: u32 = 9;
    /// `INST_RET: [opval<optional>]`.
    pub const INST_RET: u32 = 10;
    /// `INST_BR: [bb#, bb#, cond] or [bb#]`.
    pub const INST_BR: u32 = 11;
    /// `INST_SWITCH`.
    pub const INST_SWITCH: u32 = 12;
    /// `INST_INVOKE`.
    pub const INST_INVOKE: u32 = 13;
    /// `INST_UNREACHABLE`.
    pub const INST_UNREACHABLE: u32 = 15;
    /// `INST_PHI: [ty, val0, bb0, ...]`.
    pub const INST_PHI: u32 = 16;
    /// `INST_ALLOCA: [instty, opty, op, align]`.
    pub const INST_ALLOCA: u32 = 19;
    /// `INST_LOAD: [op, ty?, align, vol]`.
    pub const INST_LOAD: u32 = 20;
    /// `INST_VAARG: [valistty, valist, instty]`.
    pub const INST_VAARG: u32 = 23;
    /// `INST_STORE_OLD: [ptrty, ptr, val, align, vol]`.
    pub const INST_STORE_OLD: u32 = 24;
    /// `INST_EXTRACTVAL: [opval, ty?, idx...]`.
    pub const INST_EXTRACTVAL: u32 = 26;
    /// `INST_INSERTVAL: [opval, ty?, opval, ty?, idx...]`.
    pub const INST_INSERTVAL: u32 = 27;
    /// `INST_CMP2: [opval, ty?, opval, pred, flags?]`.
    pub const INST_CMP2: u32 = 28;
    /// `INST_VSELECT: [opval, ty?, opval, opval, ty?]`.
    pub const INST_VSELECT: u32 = 29;
    /// `INST_INBOUNDS_GEP_OLD: [n x operands]`.
    pub const INST_INBOUNDS_GEP_OLD: u32 = 30;
    /// `INST_INDIRECTBR: [opty, op0, bb...]`.
    pub const INST_INDIRECTBR: u32 = 31;
    /// `DEBUG_LOC_AGAIN`.
    pub const DEBUG_LOC_AGAIN: u32 = 33;
    /// `INST_CALL: [attr, cc, fmf?, fnty?, fnid, args...]`.
    pub const INST_CALL: u32 = 34;
    /// `DEBUG_LOC: [line, col, scope, inlined-at]`.
    pub const DEBUG_LOC: u32 = 35;
    /// `INST_FENCE: [ordering, synchscope]`.
    pub const INST_FENCE: u32 = 36;
    /// `INST_CMPXCHG_OLD: [ptr, ty?, cmp, new, vol, ordering, synchscope, ...]`.
    pub const INST_CMPXCHG_OLD: u32 = 37;
    /// `INST_ATOMICRMW: [ptr, ty?, val, op, vol, ordering, synchscope]`.
    pub const INST_ATOMICRMW: u32 = 38;
    /// `INST_RESUME: [opval]`.
    pub const INST_RESUME: u32 = 39;
    /// `INST_LANDINGPAD_OLD: [ty, persfn, iscleanup, n, ...]`.
    pub const INST_LANDINGPAD_OLD: u32 = 40;
    /// `INST_LOADATOMIC: [op, ty?, align, vol, ordering, synchscope]`.
    pub const INST_LOADATOMIC: u32 = 41;
    /// `INST_STOREATOMIC_OLD`.
    pub const INST_STOREATOMIC_OLD: u32 = 42;
    /// `INST_GEP: [inbounds, ty, n x operands]`.
    pub const INST_GEP: u32 = 43;
    /// `INST_STORE: [ptr, ty?, val, ty?, align, vol]`.
    pub const INST_STORE: u32 = 44;
    /// `INST_STOREATOMIC: [ptr, ty?, val, ty?, align, vol, ordering, synchscope]`.
    pub const INST_STOREATOMIC: u32 = 45;
    /// `INST_CMPXCHG: [ptr, ty?, cmp, ty?, new, vol, success, synchscope, failure, weak]`.
    pub const INST_CMPXCHG: u32 = 46;
    /// `INST_LANDINGPAD: [ty, iscleanup, n, ...]`.
    pub const INST_LANDINGPAD: u32 = 47;
    /// `INST_CLEANUPRET` (LLVM 3.8+).
    pub const INST_CLEANUPRET: u32 = 48;
    /// `INST_CATCHRET` (LLVM 3.8+).
    pub const INST_CATCHRET: u32 = 49;
    /// `INST_CATCHPAD` (LLVM 3.8+).
    pub const INST_CATCHPAD: u32 = 50;
    /// `INST_CLEANUPPAD` (LLVM 3.8+).
    pub const INST_CLEANUPPAD: u32 = 51;
    /// `INST_CATCHSWITCH` (LLVM 3.8+).
    pub const INST_CATCHSWITCH: u32 = 52;
    /// `OPERAND_BUNDLE` (LLVM 3.8+).
    pub const OPERAND_BUNDLE: u32 = 55;
    /// `INST_UNOP` (LLVM 8+).
    pub const INST_UNOP: u32 = 56;
    /// `INST_CALLBR` (LLVM 9+).
    pub const INST_CALLBR: u32 = 57;
    /// `INST_FREEZE` (LLVM 10+).
    pub const INST_FREEZE: u32 = 58;
    /// `INST_ATOMICRMW` with an explicit value type (LLVM 13+).
    pub const INST_ATOMICRMW_NEW: u32 = 59;
    /// `BLOCKADDR_USERS` (LLVM 16+).
    pub const BLOCKADDR_USERS: u32 = 60;
}

/// Record codes of the value symbol table.
pub mod symtab {
    /// `ENTRY: [valueid, namechar x N]`.
    pub const ENTRY: u32 = 1;
    /// `BBENTRY: [bbid, namechar x N]`.
    pub const BBENTRY: u32 = 2;
    /// `FNENTRY: [valueid, offset, namechar x N]` (LLVM 3.8+).
    pub const FNENTRY: u32 = 3;
    /// `COMBINED_ENTRY` (LLVM 3.8+).
    pub const COMBINED_ENTRY: u32 = 5;
}

/// Record codes of the metadata blocks.
pub mod metadata {
    /// `STRING_OLD: [chars]` (`METADATA_STRING` in LLVM 3.7).
    pub const STRING_OLD: u32 = 1;
    /// `VALUE: [ty, val]`.
    pub const VALUE: u32 = 2;
    /// `NODE: [n x (md id + 1)]`.
    pub const NODE: u32 = 3;
    /// `NAME: [chars]`: the name of the next `NAMED_NODE`.
    pub const NAME: u32 = 4;
    /// `DISTINCT_NODE: [n x (md id + 1)]`.
    pub const DISTINCT_NODE: u32 = 5;
    /// `KIND: [id, name chars]`.
    pub const KIND: u32 = 6;
    /// `LOCATION: [distinct, line, col, scope, inlined-at?]`.
    pub const LOCATION: u32 = 7;
    /// `OLD_NODE` (LLVM 3.5 and older).
    pub const OLD_NODE: u32 = 8;
    /// `OLD_FN_NODE` (LLVM 3.5 and older).
    pub const OLD_FN_NODE: u32 = 9;
    /// `NAMED_NODE: [n x md id]`.
    pub const NAMED_NODE: u32 = 10;
    /// `ATTACHMENT: [inst?, (kind, md)...]`.
    pub const ATTACHMENT: u32 = 11;
    /// `GENERIC_DEBUG`.
    pub const GENERIC_DEBUG: u32 = 12;
    /// `SUBRANGE`.
    pub const SUBRANGE: u32 = 13;
    /// `ENUMERATOR`.
    pub const ENUMERATOR: u32 = 14;
    /// `BASIC_TYPE`.
    pub const BASIC_TYPE: u32 = 15;
    /// `FILE`.
    pub const FILE: u32 = 16;
    /// `DERIVED_TYPE`.
    pub const DERIVED_TYPE: u32 = 17;
    /// `COMPOSITE_TYPE`.
    pub const COMPOSITE_TYPE: u32 = 18;
    /// `SUBROUTINE_TYPE`.
    pub const SUBROUTINE_TYPE: u32 = 19;
    /// `COMPILE_UNIT`.
    pub const COMPILE_UNIT: u32 = 20;
    /// `SUBPROGRAM`.
    pub const SUBPROGRAM: u32 = 21;
    /// `LEXICAL_BLOCK`.
    pub const LEXICAL_BLOCK: u32 = 22;
    /// `LEXICAL_BLOCK_FILE`.
    pub const LEXICAL_BLOCK_FILE: u32 = 23;
    /// `NAMESPACE`.
    pub const NAMESPACE: u32 = 24;
    /// `TEMPLATE_TYPE`.
    pub const TEMPLATE_TYPE: u32 = 25;
    /// `TEMPLATE_VALUE`.
    pub const TEMPLATE_VALUE: u32 = 26;
    /// `GLOBAL_VAR`.
    pub const GLOBAL_VAR: u32 = 27;
    /// `LOCAL_VAR`.
    pub const LOCAL_VAR: u32 = 28;
    /// `EXPRESSION`.
    pub const EXPRESSION: u32 = 29;
    /// `OBJC_PROPERTY`.
    pub const OBJC_PROPERTY: u32 = 30;
    /// `IMPORTED_ENTITY`.
    pub const IMPORTED_ENTITY: u32 = 31;
    /// `MODULE`.
    pub const MODULE: u32 = 32;
    /// `MACRO` (LLVM 3.8+).
    pub const MACRO: u32 = 33;
    /// `MACRO_FILE` (LLVM 3.8+).
    pub const MACRO_FILE: u32 = 34;
    /// `STRINGS: [count, offset] blob` (LLVM 4+ bulk strings).
    pub const STRINGS: u32 = 35;
    /// `GLOBAL_DECL_ATTACHMENT` (LLVM 4+).
    pub const GLOBAL_DECL_ATTACHMENT: u32 = 36;
    /// `GLOBAL_VAR_EXPR` (LLVM 4+).
    pub const GLOBAL_VAR_EXPR: u32 = 37;
    /// `INDEX_OFFSET` (LLVM 4+).
    pub const INDEX_OFFSET: u32 = 38;
    /// `INDEX` (LLVM 4+).
    pub const INDEX: u32 = 39;
}

/// Record codes of the identification block.
pub mod identification {
    /// `STRING: [chars]`: the producer.
    pub const STRING: u32 = 1;
    /// `EPOCH: [epoch]`.
    pub const EPOCH: u32 = 2;
}

/// Record codes of the blockinfo block.
pub mod blockinfo {
    /// `SETBID: [blockid]`.
    pub const SETBID: u32 = 1;
    /// `BLOCKNAME: [chars]`.
    pub const BLOCKNAME: u32 = 2;
    /// `SETRECORDNAME: [id, chars]`.
    pub const SETRECORDNAME: u32 = 3;
}

/// The name of record `code` in block `block_id`, when LLVM defines one.
pub fn record_name(block_id: u32, code: u32) -> Option<&'static str> {
    let table: &[&str] = match block_id {
        block::BLOCKINFO => &["", "SETBID", "BLOCKNAME", "SETRECORDNAME"],
        block::MODULE => &[
            "",
            "VERSION",
            "TRIPLE",
            "DATALAYOUT",
            "ASM",
            "SECTIONNAME",
            "DEPLIB",
            "GLOBALVAR",
            "FUNCTION",
            "ALIAS_OLD",
            "PURGEVALS",
            "GCNAME",
            "COMDAT",
            "VSTOFFSET",
            "ALIAS",
            "METADATA_VALUES_UNUSED",
            "SOURCE_FILENAME",
            "HASH",
            "IFUNC",
        ],
        block::PARAMATTR | block::PARAMATTR_GROUP => &["", "ENTRY_OLD", "ENTRY", "GRP_CODE_ENTRY"],
        block::TYPE => &[
            "",
            "NUMENTRY",
            "VOID",
            "FLOAT",
            "DOUBLE",
            "LABEL",
            "OPAQUE",
            "INTEGER",
            "POINTER",
            "FUNCTION_OLD",
            "HALF",
            "ARRAY",
            "VECTOR",
            "X86_FP80",
            "FP128",
            "PPC_FP128",
            "METADATA",
            "X86_MMX",
            "STRUCT_ANON",
            "STRUCT_NAME",
            "STRUCT_NAMED",
            "FUNCTION",
            "TOKEN",
            "BFLOAT",
            "X86_AMX",
            "OPAQUE_POINTER",
            "TARGET_TYPE",
        ],
        block::CONSTANTS => &[
            "",
            "SETTYPE",
            "NULL",
            "UNDEF",
            "INTEGER",
            "WIDE_INTEGER",
            "FLOAT",
            "AGGREGATE",
            "STRING",
            "CSTRING",
            "CE_BINOP",
            "CE_CAST",
            "CE_GEP",
            "CE_SELECT",
            "CE_EXTRACTELT",
            "CE_INSERTELT",
            "CE_SHUFFLEVEC",
            "CE_CMP",
            "INLINEASM_OLD",
            "CE_SHUFVEC_EX",
            "CE_INBOUNDS_GEP",
            "BLOCKADDRESS",
            "DATA",
            "INLINEASM",
            "CE_GEP_WITH_INRANGE_INDEX",
            "CE_UNOP",
            "POISON",
        ],
        block::FUNCTION => &[
            "",
            "DECLAREBLOCKS",
            "INST_BINOP",
            "INST_CAST",
            "INST_GEP_OLD",
            "INST_SELECT",
            "INST_EXTRACTELT",
            "INST_INSERTELT",
            "INST_SHUFFLEVEC",
            "INST_CMP",
            "INST_RET",
            "INST_BR",
            "INST_SWITCH",
            "INST_INVOKE",
            "",
            "INST_UNREACHABLE",
            "INST_PHI",
            "",
            "",
            "INST_ALLOCA",
            "INST_LOAD",
            "",
            "",
            "INST_VAARG",
            "INST_STORE_OLD",
            "",
            "INST_EXTRACTVAL",
            "INST_INSERTVAL",
            "INST_CMP2",
            "INST_VSELECT",
            "INST_INBOUNDS_GEP_OLD",
            "INST_INDIRECTBR",
            "",
            "DEBUG_LOC_AGAIN",
            "INST_CALL",
            "DEBUG_LOC",
            "INST_FENCE",
            "INST_CMPXCHG_OLD",
            "INST_ATOMICRMW",
            "INST_RESUME",
            "INST_LANDINGPAD_OLD",
            "INST_LOADATOMIC",
            "INST_STOREATOMIC_OLD",
            "INST_GEP",
            "INST_STORE",
            "INST_STOREATOMIC",
            "INST_CMPXCHG",
            "INST_LANDINGPAD",
            "INST_CLEANUPRET",
            "INST_CATCHRET",
            "INST_CATCHPAD",
            "INST_CLEANUPPAD",
            "INST_CATCHSWITCH",
            "",
            "",
            "OPERAND_BUNDLE",
            "INST_UNOP",
            "INST_CALLBR",
            "INST_FREEZE",
            "INST_ATOMICRMW",
            "BLOCKADDR_USERS",
        ],
        block::VALUE_SYMTAB => &["", "ENTRY", "BBENTRY", "FNENTRY", "", "COMBINED_ENTRY"],
        block::METADATA | block::METADATA_ATTACHMENT | block::METADATA_KIND => &[
            "",
            "STRING_OLD",
            "VALUE",
            "NODE",
            "NAME",
            "DISTINCT_NODE",
            "KIND",
            "LOCATION",
            "OLD_NODE",
            "OLD_FN_NODE",
            "NAMED_NODE",
            "ATTACHMENT",
            "GENERIC_DEBUG",
            "SUBRANGE",
            "ENUMERATOR",
            "BASIC_TYPE",
            "FILE",
            "DERIVED_TYPE",
            "COMPOSITE_TYPE",
            "SUBROUTINE_TYPE",
            "COMPILE_UNIT",
            "SUBPROGRAM",
            "LEXICAL_BLOCK",
            "LEXICAL_BLOCK_FILE",
            "NAMESPACE",
            "TEMPLATE_TYPE",
            "TEMPLATE_VALUE",
            "GLOBAL_VAR",
            "LOCAL_VAR",
            "EXPRESSION",
            "OBJC_PROPERTY",
            "IMPORTED_ENTITY",
            "MODULE",
            "MACRO",
            "MACRO_FILE",
            "STRINGS",
            "GLOBAL_DECL_ATTACHMENT",
            "GLOBAL_VAR_EXPR",
            "INDEX_OFFSET",
            "INDEX",
        ],
        block::IDENTIFICATION => &["", "STRING", "EPOCH"],
        block::USELIST => &["", "USELIST_CODE_DEFAULT", "USELIST_CODE_BB"],
        _ => &[],
    };
    let name = *table.get(code as usize)?;
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_names_line_up_with_their_codes() {
        assert_eq!(
            record_name(block::FUNCTION, function::INST_CALL),
            Some("INST_CALL")
        );
        assert_eq!(
            record_name(block::FUNCTION, function::INST_GEP),
            Some("INST_GEP")
        );
        assert_eq!(
            record_name(block::FUNCTION, function::INST_LANDINGPAD),
            Some("INST_LANDINGPAD")
        );
        assert_eq!(
            record_name(block::FUNCTION, function::OPERAND_BUNDLE),
            Some("OPERAND_BUNDLE")
        );
        assert_eq!(record_name(block::FUNCTION, 14), None);
        assert_eq!(record_name(block::CONSTANTS, constants::DATA), Some("DATA"));
        assert_eq!(
            record_name(block::CONSTANTS, constants::POISON),
            Some("POISON")
        );
        assert_eq!(record_name(block::METADATA, metadata::KIND), Some("KIND"));
        assert_eq!(record_name(block::METADATA, metadata::INDEX), Some("INDEX"));
        assert_eq!(record_name(block::TYPE, ty::FUNCTION), Some("FUNCTION"));
        assert_eq!(record_name(block::MODULE, module::IFUNC), Some("IFUNC"));
        assert_eq!(
            record_name(block::VALUE_SYMTAB, symtab::COMBINED_ENTRY),
            Some("COMBINED_ENTRY")
        );
        assert_eq!(record_name(99, 1), None);
    }
}
