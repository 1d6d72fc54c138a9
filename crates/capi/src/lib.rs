//! # dxspv-capi: the C API of dxspv
//!
//! This crate builds `libdxspv.so` and `libdxspv.a` for programs written in C and C++ —
//! translation layers, emulators, tools — and carries their header, `include/dxspv.h`,
//! generated from this source by cbindgen (`tests/header.rs` fails when the checked-in header
//! is stale), and `include/dxspv.hpp`, a header-only C++ wrapper. `scripts/install-lib.sh`
//! installs both libraries, the headers and a pkg-config file.
//!
//! ## The API
//!
//! ```c
//! dxspv_options *opts = dxspv_options_create();          /* defaults: correct D3D behaviour */
//! dxspv_options_set_binding_shift(opts, DXSPV_REGISTER_CLASS_SRV, 16);
//! dxspv_result *res;
//! if (dxspv_compile(opts, bytes, size, &res) == DXSPV_OK) {
//!     size_t n; const uint32_t *words = dxspv_result_spirv(res, &n);
//!     const dxspv_reflection *refl = dxspv_result_reflection(res);
//!     /* ... create the VkShaderModule, lay out descriptor sets from refl ... */
//! } else {
//!     fprintf(stderr, "%s\n", dxspv_result_error_message(res));
//! }
//! dxspv_result_free(res);
//! dxspv_options_free(opts);
//! ```
//!
//! * [`options`]: `dxspv_options`, opaque, one setter per option of [`dxspv::Options`]. An
//!   option added to the library is a new setter; no struct the caller sees grows.
//! * [`d3d9_options`]: the setters of the Direct3D 9 application state a D3D9 translation is
//!   made for (sampler types, depth compare, flat shading, float emulation, software vertex
//!   processing).
//! * [`pipeline_state`]: the setters of Direct3D state Vulkan puts in the shader, as arrays of
//!   C structs: class instances bound to interface slots, the stream-output declaration.
//! * [`operations`]: compile (shader bytes, IR text or IR binary to SPIR-V), IR text and IR
//!   binary of a shader (raw or lowered; the binary is what a shader cache keeps),
//!   disassembly, reflection as JSON, format detection. Each writes a `dxspv_result` to an
//!   out-parameter, also on failure, and returns its status.
//! * [`result`]: `dxspv_result` owns everything an operation made — SPIR-V words, text or
//!   bytes, reflection, warnings, times, or the error's status, category and message — until
//!   `dxspv_result_free`. Accessors return pointers into it.
//! * [`reflection`]: the reflection as plain C structs, arrays with counts: every field of
//!   [`dxspv::spirv::Reflection`].
//! * [`codes`]: the enumerations (status, format, IR stage, option values, reflection kinds)
//!   as `uint32_t` typedefs with `#define`d values, so no value from C is ever read as an
//!   invalid Rust enum.
//! * [`version`]: the semantic version and the ABI version (`DXSPV_ABI_VERSION`, also the
//!   Linux soname's number).
//! * `guard` (private): the boundary itself, below.
//!
//! ## The boundary
//!
//! No panic crosses into C: every entry point that could panic runs its body under
//! `catch_unwind` and turns a panic into `DXSPV_ERROR_INTERNAL` (or NULL / 0 for accessors).
//! No argument is trusted: NULL pointers, NULL buffers with a non-zero size, sizes past
//! `PTRDIFF_MAX`, misaligned object pointers, out-of-range enumeration values and strings
//! that are not UTF-8 are `DXSPV_ERROR_INVALID_ARGUMENT` naming the parameter; `free`
//! functions ignore NULL. What cannot be checked — that a pointer points to a live object of
//! its type, that a buffer is as long as its size says — is each function's `# Safety`
//! contract, repeated in the header.
//!
//! ## Threads
//!
//! The library keeps no state between calls. Options objects are set up by one thread, then
//! may be read by any number of operations on any threads at once; setters need exclusive
//! access. Results belong to the caller: any number of threads may read one result at once,
//! and it may be freed on any thread, but not while another reads it.
//!
//! ## Cost
//!
//! The entry points add one allocation for the result object and the conversion of the
//! reflection into C structs (one array per kind and one buffer for all its strings) to what
//! [`dxspv::compile`] does; the SPIR-V words and texts are moved into the result, not copied.

#![allow(non_camel_case_types)]

// The modules in the order their items appear in dxspv.h (cbindgen follows this order, so
// each stands in its own group, which rustfmt does not sort).
mod abi_version;
pub mod codes;

pub mod version;

pub mod options;

pub mod d3d9_options;

pub mod pipeline_state;

pub mod operations;

pub mod result;

pub mod reflection;

mod guard;
#[cfg(test)]
mod options_coverage;
#[cfg(test)]
mod test_shaders;

pub use abi_version::DXSPV_ABI_VERSION;
