//! Caps on what one shader may declare or nest, enforced with errors.
//!
//! Hostile or corrupted bytes can declare absurd sizes (a 4 GiB thread group memory, an
//! indexable temp of 2^32 elements) or nest control flow millions deep. Nothing here allocates
//! in proportion to such a field, but the IR and SPIR-V we would produce describe it, and a
//! driver would then fail or hang on it. Each cap is far above Direct3D's own limits and far
//! above any shader in the corpus (largest there: 404 instructions, control flow nested 15
//! deep, 4 temps, `x#[10]`, 256 bytes of TGSM, 7-entry immediate constant buffer), so a real
//! shader never meets one; an input that does gets an error naming the limit.

/// Most instructions in one program (D3D has no fixed cap; real shaders stay below ~100k).
pub const MAX_INSTRUCTIONS: u32 = 1 << 20;

/// Deepest nesting of `if`/`loop`/`switch` (D3D11 allows 64 levels per construct kind).
pub const MAX_NESTING_DEPTH: usize = 1024;

/// Most temporary registers `r#` (D3D11's limit is 4096).
pub const MAX_TEMPS: u32 = 1 << 16;

/// Most elements of one indexable temp array `x#[n]` (D3D11's limit is 4096 in total).
pub const MAX_INDEXABLE_TEMP_ELEMENTS: u32 = 1 << 16;

/// Most bytes of one thread group shared memory declaration (D3D11 allows 32 KiB in total).
pub const MAX_TGSM_BYTES: u64 = 1 << 20;

/// Most 16-byte rows of the immediate constant buffer (D3D11's limit is 4096).
pub const MAX_ICB_ROWS: usize = 1 << 16;

/// Input/output registers per register file (`v#`, `o#`, `vpc#`): Direct3D's own limit, since
/// each register becomes a Vulkan location and larger indices would alias real ones.
pub const MAX_IO_REGISTERS: u32 = 32;
