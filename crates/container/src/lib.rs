//! # dxspv-container: the DXBC container shared by the SM 4–5 and DXIL frontends
//!
//! Direct3D 10–12 shaders travel in a *DXBC container*: a `DXBC` magic, an MD5-style
//! checksum, a size and a table of tagged parts (`SHEX`, `ISGN`, `RDEF`, `DXIL`, `PSV0`…).
//! Both the SM 4.0–5.1 frontend (`dxspv-dxbc`) and the SM 6 frontend (`dxspv-dxil`) read the
//! container and the parts they share through this crate; each reads its own program part.
//!
//! ## Data flow
//!
//! ```text
//! &[u8] ──Container::parse_with──▶ header, stored/computed checksum, parts (borrowed slices)
//!        ──Parts::parse_with─────▶ + signatures (ISGN/OSGN/OSG5/PCSG/ISG1/OSG1/PSG1),
//!                                    RDEF, SFI0, STAT, the program part unread, warnings
//! ```
//!
//! Nothing is copied out of the input except small metadata (names in signatures and RDEF).
//! Every read is bounds-checked through [`PartReader`], and every table's size is checked
//! against its part before anything is allocated for it, so a malformed container is an
//! [`Error`] naming the part and byte offset, never a panic.
//!
//! A checksum that does not match is not an error: it is a [`Warning`] the caller can show
//! (Direct3D's runtime refuses such a container, tools and translation layers need not).
//! Computing it is the costliest part of parsing a small shader, so
//! [`ParseOptions::verify_checksum`] can turn it off.
//!
//! The format facts come from Microsoft's `d3d12TokenizedProgramFormat.hpp`, `d3d11shader.h`
//! and the container description in LLVM's `DXContainer.rst`.

pub mod checksum;
pub mod container;
pub mod dxil;
pub mod error;
pub mod hash;
pub mod partread;
pub mod parts;
pub mod psv;
pub mod rdef;
pub mod root_signature;
pub mod signature;
pub mod stat;

pub use checksum::dxbc_checksum;
pub use container::{Container, FourCC, ParseOptions, Part, Warning};
pub use dxil::{DxilProgram, ShaderKind};
pub use error::Error;
pub use hash::ShaderHash;
pub use partread::PartReader;
pub use parts::Parts;
pub use psv::PipelineStateValidation;
pub use rdef::{
    ConstantBuffer, Member, ResourceBinding, ResourceDefinitions, Variable, VariableType,
};
pub use root_signature::RootSignature;
pub use signature::{ComponentType, Signature, SignatureElement};
pub use stat::{FeatureFlags, Statistics};
