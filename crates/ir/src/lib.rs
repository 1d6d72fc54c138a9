//! # dxspv-ir: the typed SSA IR of dxspv
//!
//! Every frontend (DXBC, D3D9, DXIL) lowers its input to this IR and the SPIR-V backend reads
//! it; the passes in [`passes`] sit in between. The contract is `shared/spec/dxbc-ir.md`.
//!
//! ## Main types
//! - [`Type`]: a small `Copy` value: void, scalar or vector ([`BasicType`]), structs of those,
//!   arrays of up to three dimensions (the outermost may be unbounded).
//! - [`OpCode`] and [`OpInfo`]: the instruction set, declared once as a table in [`opcode`], the
//!   one place that states facts about an opcode. Each row gives its reference operands (each
//!   with a [`Role`], a [`TypeRule`] and whether it may be null), its literal operands (always
//!   last), the rule for its result type and its [`Traits`] (removable, pure, terminator, must
//!   be lowered, ...); its documentation states the Direct3D semantics the backend implements.
//!   Printer, parser, serializer, validator and passes all read that table.
//! - [`Op`]: opcode, [`OpFlags`], result type and inline operands ([`Operand`]: a reference to an
//!   [`SsaDef`], `0` meaning null, or a 64-bit literal).
//! - [`Builder`]: owns the ops in a flat `Vec` indexed by [`SsaDef`], with program order as a
//!   separate linked list and intrusive use lists, so every edit and every traversal step is O(1).
//!   It also keeps a [`Census`]: counts of the few kinds of op the passes ask about (scoped
//!   control flow, temporaries, `Unknown` types, ...), so a pass with nothing to do sees so
//!   without a walk.
//!
//! ## Data flow
//! A frontend appends ops to a [`Builder`]: declarations (`EntryPoint`, `Dcl*`, constants)
//! before code, code in scoped control flow with temporaries and `Unknown` types (DXBC, D3D9),
//! or blocks of an arbitrary control flow graph with SSA values and phis (DXIL; checked at
//! [`Level::Unstructured`], structured by [`passes::structurize`]). The passes turn that into
//! structured, SSA, fully typed IR that the *lowered* validator accepts. The
//! [`serialize`] module stores a program compactly; [`text`] prints and parses the readable form
//! used by tests and the `dxspv ir` command. The passes are tested by file tests:
//! `tests/filetests/<pass>/*.ir` hold IR text, the pass to run and `; check:` lines on the
//! printed result (`tests/filetests.rs` documents the format).

pub mod analysis;
pub mod builder;
pub mod census;
pub mod enums;
pub mod frontend;
pub mod fxhash;
pub mod op;
pub mod opcode;
pub mod passes;
pub mod serialize;
pub mod small_map;
#[cfg(any(test, feature = "testgen"))]
pub mod testgen;
pub mod text;
pub mod types;
pub mod validate;

pub use builder::{Builder, OpIter, Use, UseIter};
pub use census::{Census, Counted};
pub use enums::*;
pub use op::{Op, OpFlags, Operand, Operands, SsaDef};
pub use opcode::{
    Like, LitKind, OpClass, OpCode, OpInfo, RefInfo, RefKind, ResultRule, Role, Traits, TypeRule,
};
pub use serialize::{DeserializeError, DeserializeErrorKind};
pub use text::{ParseError, ParseErrorKind};
pub use types::{BasicType, ScalarType, Type, TypeError, MAX_ARRAY_DIMS, MAX_STRUCT_MEMBERS};
pub use validate::{validate, Level, Rule, ValidationError};
