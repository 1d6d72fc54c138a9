//! Limits the converter enforces on what a module may ask of it, each reported as
//! [`super::ConvertError::Limit`].

/// Most instructions in one function (a bound on the work per function; real DXIL has tens
/// of thousands at most).
pub const MAX_INSTRUCTIONS: usize = 1 << 22;

/// Most basic blocks in one function.
pub const MAX_BLOCKS: usize = 1 << 20;

/// Most flattened scalars in one constant (a constant array of an immediate constant
/// buffer: D3D allows 4096 rows of four).
pub const MAX_CONSTANT_SCALARS: u64 = 1 << 16;

/// Most bytes of groupshared memory (D3D12's limit is 32 KiB; meshes and amplification
/// shaders share it with their payload).
pub const MAX_GROUPSHARED_BYTES: u64 = 64 << 10;

/// Most functions a shader may define and call.
pub const MAX_FUNCTIONS: usize = 4096;

/// Most rows of a signature element (D3D has 32 registers per signature).
pub const MAX_SIGNATURE_ROWS: u32 = 32;
