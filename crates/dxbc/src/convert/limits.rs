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

/// Deepest nesting of `if`/`loop`/`switch` (D3D11 allows 64 levels per construct kind). A
/// level becomes at most two SPIR-V constructs (a `breakc` or `continuec` adds a selection),
/// so the SPIR-V stays inside its universal limit of 1023 levels.
pub const MAX_NESTING_DEPTH: usize = 256;

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

/// Largest thread group per dimension (`D3D11_CS_THREAD_GROUP_MAX_X`, `_Y`, `_Z`): Direct3D's
/// own limits, which a Vulkan device's `maxComputeWorkGroupSize` is compared with.
pub const MAX_THREAD_GROUP: [u32; 3] = [1024, 1024, 64];

/// Most threads in one thread group (`D3D11_CS_THREAD_GROUP_MAX_THREADS_PER_GROUP`).
pub const MAX_THREADS_PER_GROUP: u64 = 1024;

/// Most vertices one geometry shader invocation emits (`dcl_maxout`: 1 to 1024).
pub const MAX_GS_OUTPUT_VERTICES: u32 = 1024;

/// Most geometry shader instances (`dcl_gsinstances`: 1 to 32, `D3D11_GS_MAX_INSTANCE_COUNT`).
pub const MAX_GS_INSTANCES: u32 = 32;

/// Most control points of a patch (`D3D11_IA_PATCH_MAX_CONTROL_POINT_COUNT`), input or output.
pub const MAX_CONTROL_POINTS: u32 = 32;
