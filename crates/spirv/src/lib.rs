//! SPIR-V backend: lowered dxspv IR in, SPIR-V words for a target environment out (by
//! default `vulkan1.3`: SPIR-V 1.6 with the Vulkan memory model).
//!
//! # Design
//!
//! The IR at [`dxspv_ir::Level::Lowered`] is already in SSA form with SPIR-V-like structured
//! control flow, so emission is a single walk over the op layout. Every IR `SsaDef` keeps its
//! number as its SPIR-V result id; ids the backend needs on top (types, constants, access chains,
//! helper values) are allocated past [`dxspv_ir::Builder::id_bound`]. An IR op whose SPIR-V
//! value is some other id (a deduplicated constant, a buffer descriptor that is just a pointer)
//! is redirected through one id map, so forward references (`EntryPoint`, branches, phis) need
//! no patching.
//!
//! Words go into one buffer per section that fills while walking (`words::Sections`):
//! annotations, types/constants/globals and function bodies. The sections before them
//! (capabilities, extensions, the `GLSL.std.450` import, memory model, entry point with its
//! interface, execution modes, debug names) are only known at the end and are written then,
//! followed by the three buffers. Instructions are written in place (header word patched with
//! the final length), so emitting an op allocates nothing beyond those buffers. Types and
//! constants are deduplicated through small maps; capabilities and extensions are recorded
//! as the ops that need them are emitted, never declared in bulk.
//!
//! # Code layout
//!
//! The translator (`emit::Emitter`) is split by concept into the modules of `emit/`, after
//! naga's SPIR-V backend, which keeps the module being written (its `Writer`) apart from the
//! function being written (its `BlockContext`): `emit::module::Module` is the SPIR-V module
//! being built (sections, id allocation, capabilities, types in `types.rs`, constants in
//! `constants.rs`, execution modes) and knows nothing of the IR;
//! `emit::control_flow::FunctionState` is the state of the function being emitted (the
//! merge its current header declared, its open constructs); the `Emitter` itself maps IR
//! defs to SPIR-V ids and keeps what the declarations set up. One `match` over every IR
//! opcode (`emit/dispatch.rs`, without a fallback arm, so a new opcode does not compile
//! until the backend handles it) sends each op to its concept: `interface.rs` (inputs,
//! outputs, built-ins, push data, spec constants), `resources.rs` (descriptors, bindings),
//! `memory.rs` (access chains, loads and stores), `images.rs`, `atomics.rs` (atomics,
//! barriers, interlock), `alu.rs` (arithmetic, conversions, comparisons, bit operations,
//! composites), `control_flow.rs` and `modes.rs`; `hull.rs` writes the hull shader entry
//! point, `vertex.rs` the vertex shader's point size, and `finish.rs` assembles the module. `tests/golden/` holds the backend's SPIR-V
//! goldens: IR inputs and their `spirv-dis` text, each checked with `spirv-val`.
//!
//! Declarations become global variables: shader I/O as `Input`/`Output` variables with
//! `Location`/`Component` or `BuiltIn` decorations, resources as descriptor variables placed by
//! the [`BindingModel`] (`register(xN, spaceM)` → set `M`, binding `N + shift(x)`), LDS as
//! `Workgroup` and scratch/constant arrays as `Private` variables. Memory accesses build
//! `OpAccessChain`s from the IR `%address` operands; a vector access whose target is a scalar
//! becomes one access per component. Memory that does not change while the shader runs
//! (inputs, constant buffers) is read a whole vector at a time where that is no longer, and
//! the scalars a block stores to one output vector's components become one store of the
//! vector where it stores them all. Ops whose D3D semantics SPIR-V leaves undefined (shift
//! counts, bitfield ranges, float-to-int conversion, division by zero, NaN-aware min/max) are
//! expanded here.
//!
//! Hull shaders are joined into one `TessellationControl` entry point: the control-point
//! function runs, a workgroup barrier orders its outputs, and invocation 0 runs the patch
//! constant function. Vertex shaders write `PointSize` 1.0 (Direct3D's point size, which Vulkan
//! wants written when points are drawn) at the start of their entry function.
//!
//! # Target environments
//!
//! [`SpirvOptions::target_env`] picks a [`TargetEnv`]: `vulkan1.0` to `vulkan1.3` (SPIR-V
//! 1.0, 1.3, 1.5, 1.6) or `spirv1.0` to `spirv1.6`. The emitter is written once, in the
//! newest forms; the module being built knows the target and answers the questions whose
//! answer depends on it (which memory model, the global scope, the storage class of
//! buffers, whether a capability needs an extension), and the few instructions with no
//! older form (`OpCopyLogical`, `OpSelect` of composites) are expanded where they are
//! emitted. [`TargetEnv`] documents every difference and the memory model chosen per target.
//! The header's generator word is [`SpirvOptions::generator`] (0 by default: dxspv has no
//! registered id).
//!
//! [`emit_with_reflection`] additionally returns a [`Reflection`] (`reflection.rs`), filled
//! as the declarations are emitted: the stage, entry point and workgroup size, every
//! resource with its D3D register and its Vulkan set/binding/descriptor type and shape, the
//! push data, spec constants and the shader interface with types and D3D semantics.

mod emit;
mod reflection;
mod target;
mod words;

use dxspv_ir::Builder;

pub use emit::SpirvError;
pub use reflection::{
    d3d_system_value, DescriptorType, ImageDim, ImageFormat, ImageInfo, InterfaceVariable,
    PushDataRange, Reflection, RegisterClass, ResourceBinding, SamplerFeedbackKind, ScalarKind,
    SpecConstantInfo, SpecConstantKind, WaveSizeRange,
};
pub use target::{TargetEnv, UnknownTargetEnv};

/// Location of hull shader patch-constant output register 0 (and domain shader input `vpc0`);
/// patch constant register `N` is at location `PATCH_LOCATION_TOP - N`.
///
/// D3D keeps control-point data (`o#` in the hull shader control point phase, `vicp#` in the
/// domain shader) and patch constants (`o#` in the fork/join phases, `vpc#`) in separate
/// register files, matched between HS and DS by register. In Vulkan, per-vertex and `Patch`
/// variables of one stage must not overlap in location (spirv-val checks one location space),
/// and devices offer 32 locations of each kind (lavapipe: 128 components per vertex and per
/// patch; Mesa maps patch locations past 31 onto other varyings). So control-point register
/// `N` stays at location `N` and patch constants count down from location 31: both stages
/// compute the same locations from their own declarations, and the two ranges only meet when
/// a shader pair uses more than 32 registers of both kinds together (refused as an overlap).
pub const PATCH_LOCATION_TOP: u32 = 31;

/// Location stride between geometry shader output streams.
///
/// Only the rasterized stream (stream 0 in Vulkan unless the pipeline selects another) feeds
/// the next stage, and it keeps the D3D register as its location, so it matches the pixel
/// shader inputs. Outputs of stream `S > 0` exist for transform feedback only (captured by
/// `XfbBuffer`/`Offset`, not by location); they are placed at location
/// `register + S * GS_STREAM_LOCATION_STRIDE` so streams never share a location.
pub const GS_STREAM_LOCATION_STRIDE: u32 = 32;

/// Spec constant id of the render target sample count (`SampleCount` built-in,
/// `GetRenderTargetSampleCount()`).
///
/// Vulkan has no such built-in and `OpImageQuerySamples` cannot query render targets, so the
/// module reads it from a `u32` spec constant with this id (default 1); the host sets it to
/// the pipeline's `rasterizationSamples`. It is listed in [`Reflection::spec_constants`] as
/// [`SpecConstantKind::SampleCount`]. Ids from `0x4000_0000` up are reserved for such
/// backend-internal constants; shader-declared spec constants keep their own ids.
pub const SAMPLE_COUNT_SPEC_ID: u32 = 0x4000_0000;

/// Sparse feedback value returned by sparse-feedback loads from raw and structured buffers.
///
/// Vulkan has no residency query for buffer accesses, so such a load is emitted as a plain
/// load and its feedback is this constant; `CheckSparseAccess` on a feedback value taken
/// directly from such a load is emitted as constant `true` ("fully resident"). A feedback
/// value that is copied through memory and checked later goes through
/// `OpImageSparseTexelsResident`, whose result for this code is implementation-defined.
pub const SPARSE_BUFFER_FEEDBACK: u32 = 0;

/// How D3D registers map to Vulkan descriptor sets and bindings.
///
/// A resource declared as `register(xN, spaceM)` is placed in descriptor set `M + set_offset`
/// at binding `N + shift(x)`, where `shift` is the per-class shift below (like DXC's
/// `-fvk-{b,t,u,s}-shift`). A UAV counter for `u N` goes to binding `N + counter_shift`.
/// The defaults keep the five classes apart so one space never yields clashing bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingModel {
    /// Shift for constant buffers (`b` registers).
    pub b_shift: u32,
    /// Shift for shader resource views (`t` registers).
    pub t_shift: u32,
    /// Shift for unordered access views (`u` registers).
    pub u_shift: u32,
    /// Shift for samplers (`s` registers).
    pub s_shift: u32,
    /// Shift for UAV counters (keyed by the `u` register of their UAV).
    pub counter_shift: u32,
    /// Added to every register space to form the descriptor set.
    pub set_offset: u32,
}

impl Default for BindingModel {
    fn default() -> Self {
        Self {
            b_shift: 0,
            t_shift: 1000,
            u_shift: 2000,
            s_shift: 3000,
            counter_shift: 4000,
            set_offset: 0,
        }
    }
}

/// Options for [`emit()`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpirvOptions {
    /// Name of the SPIR-V entry point.
    pub entry_point_name: String,
    /// Omit `OpName` debug names.
    pub strip_debug_names: bool,
    /// Descriptor set / binding assignment.
    pub bindings: BindingModel,
    /// Translate `SetFpMode` into float-controls execution modes (core since SPIR-V 1.4, no
    /// extension): `RoundingModeRTE`/`RoundingModeRTZ`, `DenormPreserve`/`DenormFlushToZero`
    /// and, when the default flags are `Precise`, `SignedZeroInfNanPreserve`, each for the
    /// declared float width. Each mode needs the matching `VkPhysicalDeviceFloatControlsProperties`
    /// bit on the device; turn this off for devices that lack them (the modes are then
    /// implementation-defined, which D3D tolerates for the FP32 defaults).
    pub float_controls: bool,
    /// Make vertex shaders that do not write a point size write `PointSize = 1.0`, as Direct3D
    /// 10+ draws points one pixel wide. Vulkan requires a point size from the vertex shader
    /// when it feeds points to the rasterizer, unless the device has `maintenance5`
    /// (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722); a host whose devices all have it
    /// may turn this off for a smaller module. Default: on.
    pub vertex_point_size: bool,
    /// The environment the module is written for: its SPIR-V version, memory model and the
    /// extensions or other forms older versions need (see [`TargetEnv`]). Default
    /// `vulkan1.3`: SPIR-V 1.6 with the Vulkan memory model.
    pub target_env: TargetEnv,
    /// The generator word of the SPIR-V header: the registered tool id in the high 16 bits,
    /// the tool's version in the low 16.
    ///
    /// Default 0. Khronos' registry of generator ids (SPIRV-Headers' `spir-v.xml`) has no
    /// entry for dxspv, and the SPIR-V specification allows 0 for an unregistered tool; an
    /// unregistered number could collide with a tool registered later and mislead consumers
    /// that key workarounds on the generator. A program that registers an id, or wants to
    /// tag its modules, sets it here (`dxspv compile --generator-id N`).
    pub generator: u32,
}

impl Default for SpirvOptions {
    fn default() -> Self {
        Self {
            entry_point_name: "main".to_string(),
            strip_debug_names: false,
            bindings: BindingModel::default(),
            float_controls: true,
            vertex_point_size: true,
            target_env: TargetEnv::default(),
            generator: 0,
        }
    }
}

/// A finished module: SPIR-V words plus reflection.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpirvModule {
    /// SPIR-V binary words, header included.
    pub words: Vec<u32>,
    /// Resource and interface reflection.
    pub reflection: Reflection,
}

/// Emits lowered IR as a SPIR-V module for [`SpirvOptions::target_env`] (SPIR-V 1.6 by
/// default).
///
/// The builder must pass [`dxspv_ir::validate()`] at [`dxspv_ir::Level::Lowered`]; IR the backend
/// cannot express yields a [`SpirvError`] naming the op and the feature.
pub fn emit(b: &Builder, opts: &SpirvOptions) -> Result<Vec<u32>, SpirvError> {
    emit_with_reflection(b, opts).map(|m| m.words)
}

/// Like [`emit()`], also returning the [`Reflection`] of the module.
pub fn emit_with_reflection(b: &Builder, opts: &SpirvOptions) -> Result<SpirvModule, SpirvError> {
    let mut e = emit::Emitter::new(b, opts);
    let words = e.run();
    let reflection = e.recycle();
    match words {
        Ok(words) => Ok(SpirvModule { words, reflection }),
        Err(err) => Err(*err),
    }
}
