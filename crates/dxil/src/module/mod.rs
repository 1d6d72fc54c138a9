//! The LLVM 3.7 module a DXIL part carries, read from its bitcode.
//!
//! [`Module::read`] walks the module block once: type table, attributes, globals and
//! function records, module constants, metadata, the value symbol table and the function
//! bodies. Everything lands in flat vectors indexed by typed ids:
//!
//! * values ([`ValueId`]) are numbered as LLVM numbers them: globals, functions and aliases
//!   in record order, then module constants; inside a function body the arguments, the
//!   function's constants and the instruction results continue the sequence. The module
//!   keeps the module-level values, each [`FunctionBody`] its own, and
//!   [`Module::value`] resolves any absolute id in either;
//! * types ([`TypeId`]) index the [`TypeTable`];
//! * metadata ([`MetadataId`]) index the module's [`Metadata`] (and a body's local scope).
//!
//! Names, struct names and metadata strings live in one [`Strings`] buffer. Reading does
//! not allocate per record or per instruction: records go through one reused buffer, and
//! instructions store their variable-length operand lists as ranges of one buffer per body.

pub mod attributes;
pub mod constants;
mod function;
mod globals;
pub mod instructions;
pub mod metadata;
mod reader;
pub mod strings;
mod symtab;
#[cfg(test)]
mod tests;
pub mod types;

pub use attributes::{Attribute, AttributeGroup, Attributes};
pub use constants::{ConstExpr, Constant, Constants, Words};
pub use globals::{DllStorage, Linkage, ThreadLocal, Visibility};
pub use instructions::{
    Atomic, AtomicOrdering, BinaryOp, CastOp, Instruction, Op, Operands, Predicate, RmwOp,
    SyncScope, TailKind,
};
pub use metadata::{
    Attachment, Metadata, MetadataId, MetadataKind, MetadataNode, MetadataOperands, MetadataRef,
    NamedMetadata,
};
pub use strings::{Str, Strings};
pub use types::{Type, TypeId, TypeList, TypeTable};

use crate::bitstream::{Cursor, Record};
use crate::error::{Error, Location};

/// Largest bitcode accepted (256 MiB): every count and offset then fits in `u32` with room
/// to spare. Real DXIL modules are kilobytes to a few megabytes.
pub const MAX_BITCODE_BYTES: usize = 256 << 20;

/// A value, by its absolute number (LLVM's value id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

impl ValueId {
    /// The id as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A basic block of a function body, by its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl BlockId {
    /// The id as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// A global variable: index into [`Module::globals`].
    GlobalVariable(u32),
    /// A function: index into [`Module::functions`].
    Function(u32),
    /// An alias: index into [`Module::aliases`].
    Alias(u32),
    /// A constant: index into the scope's [`Constants`] (the module's for module-level
    /// values, the body's for values of a function).
    Constant(u32),
    /// A function argument: its position.
    Argument(u32),
    /// An instruction result: index into [`FunctionBody::instructions`].
    Instruction(u32),
}

/// A value's type and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueInfo {
    /// The value's type (for globals and functions: the pointer type).
    pub ty: TypeId,
    /// What it is.
    pub kind: ValueKind,
}

/// A global variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalVariable {
    /// Its name (from the value symbol table).
    pub name: Str,
    /// Its value id (a pointer).
    pub value: ValueId,
    /// The type of the variable (what the pointer points to).
    pub value_type: TypeId,
    /// The address space (DXIL: 0 for constant tables and resource symbols, 3 for
    /// `groupshared`).
    pub address_space: u32,
    /// `constant` rather than `global`.
    pub is_constant: bool,
    /// The initializer, if any (a module constant).
    pub initializer: Option<ValueId>,
    /// Linkage.
    pub linkage: Linkage,
    /// Alignment in bytes (0 = unspecified).
    pub alignment: u32,
    /// Section (index into [`Module::section_names`]).
    pub section: Option<u32>,
    /// Visibility.
    pub visibility: Visibility,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
    /// `unnamed_addr`.
    pub unnamed_addr: bool,
    /// `externally_initialized`.
    pub externally_initialized: bool,
    /// DLL storage class.
    pub dll_storage: DllStorage,
    /// Comdat (index into [`Module::comdats`]).
    pub comdat: Option<u32>,
}

/// A function: a declaration or a definition with a body.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name (from the value symbol table).
    pub name: Str,
    /// Its value id (a pointer to the function type).
    pub value: ValueId,
    /// The function type.
    pub ty: TypeId,
    /// Calling convention (0 = C).
    pub calling_conv: u32,
    /// Whether the record says it is a declaration (no body).
    pub is_declaration: bool,
    /// Linkage.
    pub linkage: Linkage,
    /// Attribute list (1-based, 0 = none): see [`Attributes::list`].
    pub attributes: u32,
    /// Alignment in bytes (0 = unspecified).
    pub alignment: u32,
    /// Section (index into [`Module::section_names`]).
    pub section: Option<u32>,
    /// Visibility.
    pub visibility: Visibility,
    /// Garbage collector (index into [`Module::gc_names`]).
    pub gc: Option<u32>,
    /// `unnamed_addr`.
    pub unnamed_addr: bool,
    /// Prologue data (a module constant).
    pub prologue: Option<ValueId>,
    /// Prefix data (a module constant).
    pub prefix: Option<ValueId>,
    /// Personality function.
    pub personality: Option<ValueId>,
    /// DLL storage class.
    pub dll_storage: DllStorage,
    /// Comdat (index into [`Module::comdats`]).
    pub comdat: Option<u32>,
    /// The body, for definitions.
    pub body: Option<FunctionBody>,
}

/// An alias (`@a = alias ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alias {
    /// Its name.
    pub name: Str,
    /// Its value id.
    pub value: ValueId,
    /// Its type (a pointer).
    pub ty: TypeId,
    /// The aliased constant.
    pub aliasee: ValueId,
    /// Linkage.
    pub linkage: Linkage,
    /// Visibility.
    pub visibility: Visibility,
    /// DLL storage class.
    pub dll_storage: DllStorage,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
    /// `unnamed_addr`.
    pub unnamed_addr: bool,
}

/// A comdat (`$name = comdat any`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comdat {
    /// Its name.
    pub name: Str,
    /// Selection kind (1 any, 2 exactmatch, 3 largest, 4 noduplicates, 5 samesize).
    pub selection: u32,
}

/// A basic block: a range of [`FunctionBody::instructions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// First instruction.
    pub start: u32,
    /// One past the last instruction (the terminator).
    pub end: u32,
    /// Its name from the function's symbol table (empty when unnamed).
    pub name: Str,
}

/// A debug location attached to an instruction (`!dbg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugLoc {
    /// Instruction index.
    pub instruction: u32,
    /// Line.
    pub line: u32,
    /// Column.
    pub column: u32,
    /// Scope.
    pub scope: Option<MetadataId>,
    /// Inlined-at location.
    pub inlined_at: Option<MetadataId>,
}

/// A function definition's body.
#[derive(Clone, Debug, Default)]
pub struct FunctionBody {
    /// Absolute id of the first local value (the first argument): the module's value count.
    pub first_value: u32,
    /// The local values: arguments, then constants, then instruction results.
    pub values: Vec<ValueInfo>,
    /// Number of arguments.
    pub argument_count: u32,
    /// The function's constants.
    pub constants: Constants,
    /// Basic blocks in layout order (block 0 is the entry).
    pub blocks: Vec<Block>,
    /// Instructions in layout order.
    pub instructions: Vec<Instruction>,
    /// Operand lists of instructions ([`Operands`] ranges).
    operands: Vec<u32>,
    /// Function-local metadata (ids continue after the module's).
    pub metadata: Metadata,
    /// Instruction attachments, sorted by instruction.
    pub attachments: Vec<Attachment>,
    /// The function's own attachments: (kind, node).
    pub function_attachments: Vec<(u32, MetadataId)>,
    /// Debug locations, in instruction order.
    pub debug_locs: Vec<DebugLoc>,
    /// Names of local values (arguments and instruction results), sorted by id.
    pub value_names: Vec<(ValueId, Str)>,
}

impl FunctionBody {
    /// Reserves room for `n` more instruction operands.
    pub(crate) fn reserve_operands(&mut self, n: usize) {
        self.operands.reserve(n);
    }

    /// The local value with absolute id `id`.
    #[inline]
    pub fn value(&self, id: ValueId) -> Option<&ValueInfo> {
        self.values
            .get(id.0.checked_sub(self.first_value)? as usize)
    }

    /// The raw operand slots of a range: value ids, block ids or indices depending on the
    /// instruction (see [`Op`]).
    #[inline]
    pub fn operands(&self, range: Operands) -> &[u32] {
        let start = range.start as usize;
        self.operands
            .get(start..start + range.len as usize)
            .unwrap_or_default()
    }

    /// The operands of a range as value ids (`getelementptr` operands, call arguments).
    pub fn value_operands(&self, range: Operands) -> impl ExactSizeIterator<Item = ValueId> + '_ {
        self.operands(range).iter().map(|&v| ValueId(v))
    }

    /// The `(value, block)` pairs of a `phi`.
    pub fn phi_incoming(&self, range: Operands) -> impl Iterator<Item = (ValueId, BlockId)> + '_ {
        self.operands(range)
            .chunks_exact(2)
            .map(|p| (ValueId(p[0]), BlockId(p[1])))
    }

    /// The `(case value, block)` pairs of a `switch`.
    pub fn switch_cases(&self, range: Operands) -> impl Iterator<Item = (ValueId, BlockId)> + '_ {
        self.phi_incoming(range)
    }

    /// The instructions of a block.
    pub fn block_instructions(&self, block: BlockId) -> &[Instruction] {
        match self.blocks.get(block.index()) {
            Some(b) => self
                .instructions
                .get(b.start as usize..b.end as usize)
                .unwrap_or_default(),
            None => &[],
        }
    }

    /// The attachments of instruction `index`.
    pub fn instruction_attachments(&self, index: u32) -> &[Attachment] {
        let from = self.attachments.partition_point(|a| a.instruction < index);
        let to = self.attachments.partition_point(|a| a.instruction <= index);
        self.attachments.get(from..to).unwrap_or_default()
    }

    /// The name of local value `id`, if it has one.
    pub fn value_name(&self, id: ValueId) -> Option<Str> {
        self.value_names
            .binary_search_by_key(&id, |(v, _)| *v)
            .ok()
            .map(|i| self.value_names[i].1)
    }

    /// The successors of block `block` (from its terminator), in operand order.
    pub fn successors(&self, block: BlockId) -> Vec<BlockId> {
        let Some(term) = self.block_instructions(block).last() else {
            return Vec::new();
        };
        match term.op {
            Op::Br { target } => vec![target],
            Op::CondBr {
                if_true, if_false, ..
            } => vec![if_true, if_false],
            Op::Switch { default, cases, .. } => std::iter::once(default)
                .chain(self.switch_cases(cases).map(|(_, b)| b))
                .collect(),
            Op::IndirectBr { targets, .. } => {
                self.operands(targets).iter().map(|&b| BlockId(b)).collect()
            }
            Op::Invoke { normal, unwind, .. } => vec![normal, unwind],
            _ => Vec::new(),
        }
    }
}

/// A value resolved by [`Module::value`].
#[derive(Clone, Copy, Debug)]
pub enum Value<'m> {
    /// A global variable.
    Global(&'m GlobalVariable),
    /// A function.
    Function(&'m Function),
    /// An alias.
    Alias(&'m Alias),
    /// A constant (of the module or of the function).
    Constant(&'m Constant),
    /// Argument number `n`.
    Argument(u32),
    /// An instruction's result: its index and the instruction.
    Instruction(u32, &'m Instruction),
}

/// An LLVM 3.7 module read from DXIL bitcode.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The module's `VERSION` (1: relative value ids in function blocks).
    pub version: u64,
    /// The producer string of an `IDENTIFICATION` block (LLVM 3.8+ writers only).
    pub producer: Option<Str>,
    /// Target triple (`dxil-ms-dx`).
    pub triple: Str,
    /// Data layout string.
    pub datalayout: Str,
    /// Module-level inline assembly.
    pub module_asm: Str,
    /// Section names.
    pub section_names: Vec<Str>,
    /// Garbage collector names.
    pub gc_names: Vec<Str>,
    /// Comdats.
    pub comdats: Vec<Comdat>,
    /// Types.
    pub types: TypeTable,
    /// Attribute groups and lists.
    pub attributes: Attributes,
    /// Global variables, in record order.
    pub globals: Vec<GlobalVariable>,
    /// Functions (declarations and definitions), in record order.
    pub functions: Vec<Function>,
    /// Aliases, in record order.
    pub aliases: Vec<Alias>,
    /// Module-level values by [`ValueId`]: globals, functions and aliases in record order
    /// (interleaved as the records are), then the module constants.
    pub values: Vec<ValueInfo>,
    /// Module-level constants.
    pub constants: Constants,
    /// Module-level metadata.
    pub metadata: Metadata,
    /// Named metadata, in order.
    pub named_metadata: Vec<NamedMetadata>,
    /// Metadata kinds, sorted by id.
    pub metadata_kinds: Vec<MetadataKind>,
    /// Every name and string.
    pub strings: Strings,
}

impl Module {
    /// Reads a module from LLVM bitcode (the bitcode of a `DXIL` part).
    pub fn read(bitcode: &[u8]) -> Result<Module, Error> {
        reader::read_module(bitcode)
    }

    /// The bytes of a string.
    #[inline]
    pub fn str(&self, s: Str) -> &[u8] {
        self.strings.get(s)
    }

    /// A string as text (invalid UTF-8 replaced).
    pub fn text(&self, s: Str) -> std::borrow::Cow<'_, str> {
        self.strings.text(s)
    }

    /// Type and kind of value `id`; `body` resolves ids of a function's own values.
    #[inline]
    pub fn value_info(&self, body: Option<&FunctionBody>, id: ValueId) -> Option<ValueInfo> {
        if let Some(v) = self.values.get(id.index()) {
            return Some(*v);
        }
        body?.value(id).copied()
    }

    /// Value `id` resolved to what it is; `body` resolves ids of a function's own values.
    pub fn value<'m>(&'m self, body: Option<&'m FunctionBody>, id: ValueId) -> Option<Value<'m>> {
        let local = id.index() >= self.values.len();
        let info = self.value_info(body, id)?;
        Some(match info.kind {
            ValueKind::GlobalVariable(i) => Value::Global(self.globals.get(i as usize)?),
            ValueKind::Function(i) => Value::Function(self.functions.get(i as usize)?),
            ValueKind::Alias(i) => Value::Alias(self.aliases.get(i as usize)?),
            ValueKind::Constant(i) if local => Value::Constant(body?.constants.get(i)?),
            ValueKind::Constant(i) => Value::Constant(self.constants.get(i)?),
            ValueKind::Argument(n) => Value::Argument(n),
            ValueKind::Instruction(i) => Value::Instruction(i, body?.instructions.get(i as usize)?),
        })
    }

    /// The constant with value id `id`, if it is one.
    pub fn constant<'m>(
        &'m self,
        body: Option<&'m FunctionBody>,
        id: ValueId,
    ) -> Option<&'m Constant> {
        let info = self.value_info(body, id)?;
        self.constant_of(body, id, info)
    }

    /// [`Module::constant`] of a value whose [`ValueInfo`] is at hand.
    #[inline]
    fn constant_of<'m>(
        &'m self,
        body: Option<&'m FunctionBody>,
        id: ValueId,
        info: ValueInfo,
    ) -> Option<&'m Constant> {
        let ValueKind::Constant(i) = info.kind else {
            return None;
        };
        if id.index() >= self.values.len() {
            body?.constants.get(i)
        } else {
            self.constants.get(i)
        }
    }

    /// The integer value of constant `id` (sign-extended), if it is an integer constant or
    /// `null` of an integer type.
    pub fn constant_int(&self, body: Option<&FunctionBody>, id: ValueId) -> Option<i64> {
        let info = self.value_info(body, id)?;
        self.types.int_width(info.ty)?;
        match self.constant_of(body, id, info)? {
            Constant::Integer(v) => Some(*v),
            Constant::Null => Some(0),
            _ => None,
        }
    }

    /// For a call to a `dx.op.*` function (a DXIL operation): the opcode (the call's first
    /// argument, a constant) and the callee's name (`dx.op.sample.f32`). `None` for other
    /// instructions and calls.
    pub fn dx_op<'m>(&'m self, body: &FunctionBody, op: &Op) -> Option<(u32, &'m [u8])> {
        let Op::Call { callee, args, .. } = *op else {
            return None;
        };
        let name = self.global_name(callee);
        if !name.starts_with(b"dx.op.") {
            return None;
        }
        let first = *body.operands(args).first()?;
        let code = self.constant_int(Some(body), ValueId(first))?;
        Some((u32::try_from(code).ok()?, name))
    }

    /// The function a value id names (through no casts), if it names one.
    pub fn function_of(&self, id: ValueId) -> Option<&Function> {
        match self.values.get(id.index())?.kind {
            ValueKind::Function(i) => self.functions.get(i as usize),
            _ => None,
        }
    }

    /// The name of a global value (global, function or alias); empty for others.
    pub fn global_name(&self, id: ValueId) -> &[u8] {
        let name = match self.values.get(id.index()).map(|v| v.kind) {
            Some(ValueKind::GlobalVariable(i)) => self.globals.get(i as usize).map(|g| g.name),
            Some(ValueKind::Function(i)) => self.functions.get(i as usize).map(|f| f.name),
            Some(ValueKind::Alias(i)) => self.aliases.get(i as usize).map(|a| a.name),
            _ => None,
        };
        name.map(|n| self.str(n)).unwrap_or_default()
    }

    /// The first function named `name`.
    pub fn function_by_name(&self, name: &str) -> Option<&Function> {
        self.functions
            .iter()
            .find(|f| self.str(f.name) == name.as_bytes())
    }

    /// The metadata entry with id `id`, looked up in the module and then in `body`'s local
    /// scope.
    pub fn metadata_node<'m>(
        &'m self,
        body: Option<&'m FunctionBody>,
        id: MetadataId,
    ) -> Option<&'m MetadataNode> {
        self.metadata
            .get(id)
            .or_else(|| body.and_then(|b| b.metadata.get(id)))
    }

    /// The named metadata called `name`.
    pub fn named_metadata(&self, name: &str) -> Option<&NamedMetadata> {
        self.named_metadata
            .iter()
            .find(|n| self.str(n.name) == name.as_bytes())
    }

    /// The id of metadata kind `name` (`dx.precise`, `tbaa`, …).
    pub fn metadata_kind(&self, name: &str) -> Option<u32> {
        self.metadata_kinds
            .iter()
            .find(|k| self.str(k.name) == name.as_bytes())
            .map(|k| k.id)
    }

    /// The operand ranges of a metadata tuple, or `None` if `id` is not a tuple.
    pub fn metadata_tuple(
        &self,
        id: MetadataId,
    ) -> Option<impl ExactSizeIterator<Item = MetadataRef> + '_> {
        match self.metadata.get(id)? {
            MetadataNode::Tuple { operands, .. } => Some(self.metadata.operands(*operands)),
            _ => None,
        }
    }

    /// The functions with bodies.
    pub fn definitions(&self) -> impl Iterator<Item = (&Function, &FunctionBody)> {
        self.functions
            .iter()
            .filter_map(|f| f.body.as_ref().map(|b| (f, b)))
    }
}

/// The location of record `rec` in the cursor's current block.
pub(crate) fn record_location(cursor: &Cursor<'_>, rec: &Record<'_>) -> Location {
    Location {
        block: cursor.block_id(),
        record: Some(rec.code),
        bit: rec.bit,
    }
}

/// A [`Error::Malformed`] about record `rec`.
pub(crate) fn record_error(
    cursor: &Cursor<'_>,
    rec: &Record<'_>,
    message: impl Into<String>,
) -> Error {
    Error::malformed(record_location(cursor, rec), message)
}
