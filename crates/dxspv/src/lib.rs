//! # dxspv: Direct3D shader bytecode to SPIR-V
//!
//! This crate is the library facade over the workspace. It detects what kind of bytes it was
//! given, hands them to the frontend for that format, runs the IR pass pipeline and the SPIR-V
//! backend, and returns the SPIR-V with its reflection, the time spent in each stage and any
//! warnings.
//!
//! ## Data flow
//!
//! ```text
//! bytes ─detect_format─▶ Format ─frontend_for─▶ Frontend ─to_raw_ir─▶ raw IR (+ warnings)
//!       raw IR ─passes::pipeline─▶ lowered IR ─spirv::emit_with_reflection─▶ Output
//! IR text ─ir::text::parse + validate─▶ IR ─pipeline─▶ … (compile_ir_text)
//! ```
//!
//! * [`detect_format`] tells DXBC (SM 4–5), DXIL (SM 6) and D3D9 (SM 1–3) apart from the first
//!   bytes and, for containers, the part table.
//! * The frontend seam (`frontend` module) maps each [`Format`] to the one frontend that reads
//!   it; [`compile`], [`to_ir`] and [`disassemble`] go through it and nowhere else, so a new
//!   frontend is one module and one match arm there (its errors join [`Error`]). The module
//!   doc says why it is a trait.
//! * Frontends emit the raw IR the contract describes (`../shared/spec/dxbc-ir.md`): scoped
//!   control flow, temporaries, untyped values. The pipeline (`dxspv_ir::passes`) makes it
//!   structured, SSA, typed and lowered; the backend (`dxspv_spirv`) writes SPIR-V for the
//!   target environment of the options (`vulkan1.3` by default: SPIR-V 1.6 with the Vulkan
//!   memory model; `vulkan1.0` to `vulkan1.2` and `spirv1.0` to `spirv1.6` too) and reports
//!   every resource's D3D register and Vulkan binding.
//! * [`Options`] gathers the pipeline's and the backend's options and what frontends read;
//!   [`Output`] carries the words, the [`spirv::Reflection`], [`StageTimes`] and [`Warning`]s.
//!
//! Every entry point returns `Ok` or an [`Error`] that says where and what; none panics on any
//! input. An error of the passes or the backend names the op at fault by the D3D names the IR
//! keeps (registers, resources, inputs and outputs: [`Error::at`]), worked out only once the
//! error has happened (the `d3d_names` module); IR text keeps its own ids. The `dxspv` command-line tool (crate `dxspv-cli`) is a thin layer over these
//! functions.

pub use dxspv_dxbc as dxbc;
pub use dxspv_dxil as dxil;
pub use dxspv_ir as ir;
pub use dxspv_sm3 as sm3;
pub use dxspv_spirv as spirv;

mod d3d_names;
mod error;
mod frontend;
mod reflection_json;
pub use error::{Error, Warning};
pub use reflection_json::reflection_json;

use frontend::frontend_for;
use std::fmt;
use std::time::Instant;

/// The kind of shader bytes, detected from their content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A DXBC container with SM 4.0–5.1 code (SHDR/SHEX).
    Dxbc,
    /// A DXBC-style container holding DXIL (SM 6.x) LLVM bitcode.
    Dxil,
    /// A Direct3D 9 (SM 1.x–3.0) token stream.
    D3d9,
    /// Unrecognised bytes.
    Unknown,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Dxbc => "DXBC",
            Format::Dxil => "DXIL",
            Format::D3d9 => "D3D9",
            Format::Unknown => "unknown",
        })
    }
}

/// Options for turning shader bytes into IR and SPIR-V.
///
/// Start from the defaults (correct D3D behaviour, every optimisation, the binding model of
/// [`spirv::BindingModel`]) and change the fields that matter:
///
/// ```
/// use dxspv::ir::passes::options::MinPrecisionMode;
///
/// let mut opts = dxspv::Options::default();
/// // Lower min16float and friends to real 16-bit arithmetic (needs shaderFloat16/Int16).
/// opts.passes.min_precision = MinPrecisionMode::Native16;
/// // Put register(tN, spaceM) at set M + 1, binding N + 16.
/// opts.spirv.bindings.t_shift = 16;
/// opts.spirv.bindings.set_offset = 1;
/// opts.spirv.entry_point_name = "cs_main".into();
/// opts.spirv.strip_debug_names = true;
/// // Skip the container checksum (a translation layer that never shows warnings).
/// opts.verify_checksum = false;
///
/// let text = "\
/// %1 = EntryPoint %3 Compute
/// %2 = SetCsWorkgroupSize %1 1 1 1
/// %3 = Function void
/// %4 = Label None
/// %5 = Return void null
/// %6 = FunctionEnd
/// ";
/// let out = dxspv::compile_ir_text(text, &opts)?;
/// // OpEntryPoint GLCompute %id "cs_main": the name is in the words.
/// let name: Vec<u8> = out.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
/// assert!(name.windows(8).any(|w| w == b"cs_main\0"));
/// # Ok::<(), dxspv::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// The IR pass pipeline's options (min precision, optimisations, validation after each pass).
    pub passes: ir::passes::options::Options,
    /// The SPIR-V backend's options (target environment, binding model, debug names, entry
    /// point name, generator word).
    pub spirv: spirv::SpirvOptions,
    /// Compute the container checksum and report a mismatch as a [`Warning`] (default: on).
    /// It is the costliest part of parsing a small container; a translation layer that never
    /// shows warnings may turn it off.
    pub verify_checksum: bool,
    /// The Direct3D 9 frontend's options: the application state a D3D9 translation is made
    /// for (sampler types, depth-compare samplers, flat shading, float emulation, which
    /// fixed-function states are emulated dynamically). See [`sm3::Options`], whose module
    /// also lists the specialization constants, the push constant layout and the state
    /// buffer of the state that needs no new translation.
    pub d3d9: sm3::Options,
    /// Direct3D's stream-output declaration for this shader (default: none).
    ///
    /// In Direct3D it is pipeline state (`D3D12_STREAM_OUTPUT_DESC`,
    /// `CreateGeometryShaderWithStreamOutput`), but Vulkan declares transform feedback in the
    /// shader, so a translation layer passes it here when compiling the last stage before the
    /// rasterizer (vertex, domain or geometry shader): the captured outputs get
    /// `XfbBuffer`/`XfbStride`/`Offset` (see [`ir::passes::stream_output`] for how entries map
    /// to outputs). The pipeline must then enable `VK_EXT_transform_feedback` and bind the
    /// buffers; the declaration's rasterized stream is the pipeline's
    /// `rasterizationStream` (`None`: rasterizer discard). Compiling any other stage with a
    /// declaration is an error.
    pub stream_output: Option<ir::passes::stream_output::StreamOutput>,
    /// The class instances bound to the interface slots of an SM 5.0 shader using class
    /// linkage (HLSL interfaces), one per slot in slot order (default: none).
    ///
    /// In Direct3D 11 they are draw-time state (`PSSetShader(shader, instances, count)`): each
    /// selects a slot's function table (the instance's class) and where its members live
    /// ([`dxbc::InstanceData`], what `this[slot]` holds). Vulkan has no such indirection, so
    /// a translation layer compiles the shader once per combination it draws with. A slot
    /// without an entry gets the first table its `dcl_interface` lists and zero instance data;
    /// more entries than the shader has slots is an error. See [`dxbc::convert_with`].
    pub class_linkage: Vec<dxbc::InterfaceBinding>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            passes: Default::default(),
            spirv: Default::default(),
            verify_checksum: true,
            d3d9: sm3::Options::default(),
            stream_output: None,
            class_linkage: Vec::new(),
        }
    }
}

/// A compiled shader: SPIR-V words and what a program needs to bind its resources.
#[derive(Clone, Debug)]
pub struct Output {
    /// The SPIR-V module (of the version the target environment names).
    pub spirv: Vec<u32>,
    /// Resource bindings (D3D register → Vulkan set/binding), push data and interface variables.
    pub reflection: spirv::Reflection,
    /// Time per stage.
    pub times: StageTimes,
    /// What is worth telling the user about the input (a checksum mismatch, ...).
    pub warnings: Vec<Warning>,
}

/// IR made from shader bytes by [`to_ir_timed`].
#[derive(Clone, Debug)]
pub struct IrOutput {
    /// The IR, raw or lowered as asked.
    pub builder: ir::Builder,
    /// Time per stage (SPIR-V time stays zero).
    pub times: StageTimes,
    /// What is worth telling the user about the input.
    pub warnings: Vec<Warning>,
}

/// Compiles shader bytes (format detected from the bytes) to SPIR-V.
///
/// The result carries the SPIR-V words, the [`spirv::Reflection`] a program binds resources
/// with, the time per stage and any [`Warning`]s; bad or unsupported input is an [`Error`]
/// saying where and what.
///
/// ```
/// use dxspv::spirv::{DescriptorType, RegisterClass};
///
/// // A cs_5_0 program, assembled by hand:
/// //   dcl_uav_raw u0
/// //   dcl_thread_group 1, 1, 1
/// //   store_raw u0.x, l(0), l(42)
/// //   ret
/// let program: [u32; 17] = [
///     0x0005_0050, 17,                   // cs_5_0, length in tokens
///     0x0300_009d, 0x0011_e000, 0,       // dcl_uav_raw u0
///     0x0400_009b, 1, 1, 1,              // dcl_thread_group 1, 1, 1
///     0x0700_00a6, 0x0011_e012, 0,       // store_raw u0.x,
///     0x0000_4001, 0, 0x0000_4001, 42,   //   l(0), l(42)
///     0x0100_003e,                       // ret
/// ];
/// // In a DXBC container with one SHEX part (an all-zero checksum means "unsigned").
/// let mut bytes = b"DXBC".to_vec();
/// bytes.extend_from_slice(&[0; 16]);
/// let total = 32 + 4 + 8 + program.len() * 4;
/// for word in [1, total as u32, 1, 36] {
///     bytes.extend_from_slice(&u32::to_le_bytes(word)); // version, size, part count, offset
/// }
/// bytes.extend_from_slice(b"SHEX");
/// bytes.extend_from_slice(&u32::to_le_bytes(program.len() as u32 * 4));
/// bytes.extend(program.iter().flat_map(|w| w.to_le_bytes()));
///
/// let mut opts = dxspv::Options::default();
/// opts.spirv.bindings.u_shift = 100; // u registers go to binding 100 + N
/// let out = dxspv::compile(&bytes, &opts)?;
///
/// assert_eq!(out.spirv[0], 0x0723_0203); // the SPIR-V magic number
/// assert!(out.warnings.is_empty());
/// let uav = &out.reflection.resources[0];
/// assert_eq!((uav.class, uav.space, uav.register), (RegisterClass::Uav, 0, 0));
/// assert_eq!((uav.set, uav.binding), (0, 100));
/// assert_eq!(uav.descriptor_type, DescriptorType::StorageBuffer);
///
/// // Bytes that are no shader are an error, never a panic.
/// let err = dxspv::compile(b"not a shader", &opts).unwrap_err();
/// assert_eq!(err.kind(), "unknown-format");
/// # Ok::<(), dxspv::Error>(())
/// ```
pub fn compile(bytes: &[u8], opts: &Options) -> Result<Output, Error> {
    let mut laps = Laps::start();
    let ir = to_ir_laps(bytes, IrStage::Lowered, opts, &mut laps)?;
    emit(ir.builder, laps, ir.warnings, opts, Naming::D3d)
}

/// Stage timing from one chain of clock readings: each stage ends where the next begins, so
/// a translation reads the clock once per stage and its stages add up to the whole of it
/// (what happens between two stages, such as releasing a stage's input, counts in the stage
/// before).
pub(crate) struct Laps {
    /// The stage times so far.
    pub(crate) times: StageTimes,
    /// The last reading.
    last: Instant,
}

impl Laps {
    /// Starts the chain.
    pub(crate) fn start() -> Self {
        Laps {
            times: StageTimes::default(),
            last: Instant::now(),
        }
    }

    /// The time since the last reading (or the start); reads the clock once.
    pub(crate) fn lap(&mut self) -> std::time::Duration {
        let now = Instant::now();
        let d = now.saturating_duration_since(self.last);
        self.last = now;
        d
    }
}

/// How errors after the frontend name the op at fault.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Naming {
    /// By the D3D names the IR keeps (registers, resources, inputs and outputs), with the
    /// IR id as a hint: the input was shader bytecode, or IR made from it.
    D3d,
    /// By IR id alone: the input was IR text, whose ids are the user's own names.
    IrIds,
}

impl Naming {
    /// `e`, its op named as this naming says.
    #[cold]
    #[inline(never)]
    fn name(self, e: impl Into<Error>, b: &ir::Builder) -> Error {
        match self {
            Naming::D3d => e.into().named_in(b),
            Naming::IrIds => e.into(),
        }
    }
}

/// The last stage of [`compile`] and [`compile_ir_text`]: lowered IR to SPIR-V, timed (with
/// the release of the IR, which is no longer needed).
fn emit(
    builder: ir::Builder,
    mut laps: Laps,
    warnings: Vec<Warning>,
    opts: &Options,
    naming: Naming,
) -> Result<Output, Error> {
    let module =
        spirv::emit_with_reflection(&builder, &opts.spirv).map_err(|e| naming.name(e, &builder))?;
    drop(builder);
    laps.times.spirv = laps.lap();
    Ok(Output {
        spirv: module.words,
        reflection: module.reflection,
        times: laps.times,
        warnings,
    })
}

/// Compiles IR text (frontend-style or already lowered) through the pass pipeline to SPIR-V.
///
/// The text is checked by the validator before any pass runs; text that does not parse or
/// breaks a structural rule is an [`Error`] saying which line or op.
///
/// ```
/// let text = "\
/// %1 = EntryPoint %6 Compute
/// %2 = DebugName %1 \"main\"
/// %3 = SetCsWorkgroupSize %1 8 1 1
/// %4 = Constant f32 1.5
/// %5 = Constant f32 2.25
/// %6 = Function void
/// %7 = Label None
/// %8 = FAdd f32 %4 %5
/// %9 = Return void null
/// %10 = FunctionEnd
/// ";
/// let out = dxspv::compile_ir_text(text, &dxspv::Options::default())?;
/// assert_eq!(out.spirv[0], 0x0723_0203); // the SPIR-V magic number
///
/// // Text that does not parse is an error naming the line.
/// let err = dxspv::compile_ir_text("%1 = NoSuchOp", &dxspv::Options::default()).unwrap_err();
/// assert_eq!(err.kind(), "ir-text");
/// # Ok::<(), dxspv::Error>(())
/// ```
pub fn compile_ir_text(text: &str, opts: &Options) -> Result<Output, Error> {
    let laps = Laps::start();
    let builder = ir::text::parse(text)?;
    compile_ir_laps(builder, IrStage::Raw, opts, Naming::IrIds, laps)
}

/// Compiles IR held in a [`ir::Builder`] to SPIR-V: the second half of [`compile`], for IR
/// that was made earlier and kept, typically as bytes ([`ir::serialize::serialize`] of
/// [`to_ir`]'s output, read back with [`ir::serialize::deserialize`]) in a shader cache.
///
/// `stage` says what the IR is. [`IrStage::Raw`] IR (a frontend's output) is checked at the
/// validator's structural level and runs through the pass pipeline; [`IrStage::Lowered`] IR
/// (the pipeline's output) is checked at the lowered level and goes straight to the backend,
/// which is what makes a cache of lowered IR worth keeping. The IR is not trusted: IR the
/// validator rejects is an [`Error::Pass`] from the pass named `input`, listing each problem.
/// Warnings and frontend times are the frontend's and do not survive in IR, so
/// [`Output::warnings`] is empty; the validation time counts as parse time.
///
/// ```
/// use dxspv::{ir, IrStage, Options};
///
/// let text = "\
/// %1 = EntryPoint %4 Compute
/// %2 = SetCsWorkgroupSize %1 1 1 1
/// %3 = Constant f32 2.0
/// %4 = Function void
/// %5 = Label None
/// %6 = FMul f32 %3 %3
/// %7 = Return void null
/// %8 = FunctionEnd
/// ";
/// let opts = Options::default();
/// // Lower once and keep the IR as bytes ...
/// let mut lowered = ir::text::parse(text)?;
/// ir::passes::pipeline::run_pipeline(&mut lowered, &opts.passes)?;
/// let cached: Vec<u8> = ir::serialize::serialize(&lowered);
///
/// // ... and later turn the bytes into SPIR-V without running the passes again.
/// let builder = ir::serialize::deserialize(&cached)?;
/// let out = dxspv::compile_ir(builder, IrStage::Lowered, &opts)?;
/// assert_eq!(out.spirv[0], 0x0723_0203);
///
/// // Damaged bytes are an error saying where, never a crash.
/// assert!(ir::serialize::deserialize(&cached[..cached.len() - 1]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compile_ir(builder: ir::Builder, stage: IrStage, opts: &Options) -> Result<Output, Error> {
    compile_ir_laps(builder, stage, opts, Naming::D3d, Laps::start())
}

/// [`compile_ir`], naming the op at fault in errors as `naming` says, its validation counted
/// as parse time from the start of `laps`.
fn compile_ir_laps(
    mut builder: ir::Builder,
    stage: IrStage,
    opts: &Options,
    naming: Naming,
    mut laps: Laps,
) -> Result<Output, Error> {
    let level = match stage {
        // Raw IR may be scoped, structured or unstructured block form (`structurize` takes it).
        IrStage::Raw => ir::Level::Unstructured,
        IrStage::Lowered => ir::Level::Lowered,
    };
    // IR from outside is not trusted like a frontend's output: the passes need structurally
    // valid IR and the backend lowered IR.
    if let Err(errors) = ir::validate(&builder, level) {
        return Err(Error::from(ir::passes::error::PassError::Validation {
            pass: "input",
            errors,
        }));
    }
    laps.times.parse = laps.lap();
    if stage == IrStage::Raw {
        ir::passes::pipeline::run_pipeline(&mut builder, &opts.passes)
            .map_err(|e| naming.name(e, &builder))?;
    }
    apply_stream_output(&mut builder, opts).map_err(|e| naming.name(e, &builder))?;
    laps.times.passes = laps.lap();
    emit(builder, laps, Vec::new(), opts, naming)
}

/// Which IR [`to_ir`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrStage {
    /// The frontend's output: scoped control flow, temporaries, `Unknown` types.
    Raw,
    /// After the legalization pipeline: structured, SSA, typed, lowered.
    Lowered,
}

/// Time spent in each stage of a translation.
///
/// The stages are timed end to end, each from where the one before ended, so they add up to
/// the whole translation: format detection counts as parsing, releasing the parsed shader as
/// conversion and releasing the IR as SPIR-V emission.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTimes {
    /// Container and program parsing.
    pub parse: std::time::Duration,
    /// Frontend conversion to IR.
    pub convert: std::time::Duration,
    /// The IR pass pipeline.
    pub passes: std::time::Duration,
    /// SPIR-V emission.
    pub spirv: std::time::Duration,
}

/// Translates shader bytes to IR: the frontend's raw output or the lowered result of the pass
/// pipeline. The format is detected from the bytes.
pub fn to_ir(bytes: &[u8], stage: IrStage, opts: &Options) -> Result<ir::Builder, Error> {
    to_ir_timed(bytes, stage, opts).map(|ir| ir.builder)
}

/// [`to_ir`], also reporting the time spent per stage and the warnings.
pub fn to_ir_timed(bytes: &[u8], stage: IrStage, opts: &Options) -> Result<IrOutput, Error> {
    let mut laps = Laps::start();
    to_ir_laps(bytes, stage, opts, &mut laps)
}

/// [`to_ir_timed`], timing its stages in the chain of `laps`.
fn to_ir_laps(
    bytes: &[u8],
    stage: IrStage,
    opts: &Options,
    laps: &mut Laps,
) -> Result<IrOutput, Error> {
    let frontend = frontend_for(detect_format(bytes))?;
    let mut warnings = Vec::new();
    let mut builder = frontend.to_raw_ir(bytes, opts, laps, &mut warnings)?;
    if stage == IrStage::Lowered {
        ir::passes::pipeline::run_pipeline(&mut builder, &opts.passes)
            .map_err(|e| Error::from(e).named_in(&builder))?;
        apply_stream_output(&mut builder, opts).map_err(|e| e.named_in(&builder))?;
        laps.times.passes = laps.lap();
    }
    Ok(IrOutput {
        builder,
        times: laps.times,
        warnings,
    })
}

/// Applies [`Options::stream_output`] to lowered IR (validated afterwards when the options
/// validate after each pass).
fn apply_stream_output(builder: &mut ir::Builder, opts: &Options) -> Result<(), Error> {
    let Some(so) = &opts.stream_output else {
        return Ok(());
    };
    ir::passes::stream_output::run(builder, so)?;
    if opts.passes.validate_each_pass {
        if let Err(errors) = ir::validate(builder, ir::Level::Lowered) {
            return Err(Error::from(ir::passes::error::PassError::Validation {
                pass: "stream_output",
                errors,
            }));
        }
    }
    Ok(())
}

/// Disassembles shader bytes in their format's own assembly syntax (fxc-like text for DXBC).
pub fn disassemble(bytes: &[u8]) -> Result<String, Error> {
    frontend_for(detect_format(bytes))?.disassemble(bytes)
}

/// Detects the format of shader bytes from their first bytes (and, for containers, their part
/// table): `DXBC` magic with a `DXIL` part is DXIL, otherwise DXBC; a first word whose high 16
/// bits are `0xFFFE` (vertex) or `0xFFFF` (pixel) with a major version 1–3 is D3D9.
pub fn detect_format(bytes: &[u8]) -> Format {
    if bytes.len() >= 4 && &bytes[..4] == b"DXBC" {
        return if container_has_part(bytes, b"DXIL") {
            Format::Dxil
        } else {
            Format::Dxbc
        };
    }
    if bytes.len() >= 4 {
        let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let kind = word >> 16;
        let major = (word >> 8) & 0xff;
        if (kind == 0xfffe || kind == 0xffff) && (1..=3).contains(&major) {
            return Format::D3d9;
        }
    }
    Format::Unknown
}

/// True if a DXBC container's part table (read with bounds checks) names `fourcc`.
fn container_has_part(bytes: &[u8], fourcc: &[u8; 4]) -> bool {
    let read_u32 = |off: usize| -> Option<u32> {
        let b = bytes.get(off..off.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let Some(count) = read_u32(28) else {
        return false;
    };
    // Each part offset takes 4 bytes: a count beyond the input is not a real table.
    if count as usize > bytes.len() / 4 {
        return false;
    }
    (0..count as usize).any(|i| {
        read_u32(32 + i * 4)
            .and_then(|off| bytes.get(off as usize..(off as usize).checked_add(4)?))
            .is_some_and(|tag| tag == fourcc)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unsigned container of empty parts named `fourccs`.
    fn container(fourccs: &[&[u8; 4]]) -> Vec<u8> {
        let parts: Vec<(&[u8; 4], &[u8])> = fourccs.iter().map(|cc| (*cc, &[][..])).collect();
        dxspv_testkit::dxbc::container(&parts)
    }

    #[test]
    fn detects_formats() {
        assert_eq!(detect_format(&container(&[b"RDEF", b"SHEX"])), Format::Dxbc);
        assert_eq!(detect_format(&container(&[b"PSV0", b"DXIL"])), Format::Dxil);
        assert_eq!(detect_format(&0xfffe_0300u32.to_le_bytes()), Format::D3d9);
        assert_eq!(detect_format(&0xffff_0104u32.to_le_bytes()), Format::D3d9);
        assert_eq!(detect_format(b"hello"), Format::Unknown);
        assert_eq!(detect_format(b""), Format::Unknown);
    }

    #[test]
    fn hostile_part_tables_do_not_panic() {
        let mut c = container(&[b"SHEX"]);
        c[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(detect_format(&c), Format::Dxbc);
        let mut c = container(&[b"SHEX"]);
        c[32..36].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(detect_format(&c), Format::Dxbc);
        assert_eq!(detect_format(b"DXBC"), Format::Dxbc);
    }

    use dxspv_testkit::dxbc::tiny_compute_shader;

    #[test]
    fn tiny_compute_shader_is_what_its_comment_says() {
        let text = disassemble(&tiny_compute_shader()).unwrap();
        assert_eq!(
            text,
            "//\ncs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n\
             mov r0.x, l(42)\nstore_raw u0.x, l(0), r0.x\nret \n"
        );
    }

    /// The opcode of every instruction of a SPIR-V module, in order.
    fn opcodes(words: &[u32]) -> Vec<u16> {
        let mut at = 5;
        let mut out = Vec::new();
        while let Some(&w) = words.get(at) {
            out.push(w as u16);
            at += (w >> 16).max(1) as usize;
        }
        out
    }

    #[test]
    fn compile_ir_of_kept_ir_gives_what_compile_gives() {
        let bytes = tiny_compute_shader();
        let opts = Options::default();
        let direct = compile(&bytes, &opts).unwrap();
        for stage in [IrStage::Raw, IrStage::Lowered] {
            let kept = ir::serialize::serialize(&to_ir(&bytes, stage, &opts).unwrap());
            let builder = ir::serialize::deserialize(&kept).unwrap();
            let out = compile_ir(builder, stage, &opts).unwrap();
            // Serialization renumbers the ops, so the ids differ; the instructions do not.
            assert_eq!(opcodes(&out.spirv), opcodes(&direct.spirv), "{stage:?}");
            assert_eq!(out.spirv.len(), direct.spirv.len(), "{stage:?}");
            dxspv_testkit::assert_spirv_valid(&format!("{stage:?}"), &out.spirv);
            assert_eq!(out.reflection, direct.reflection, "{stage:?}");
        }
    }

    #[test]
    fn stage_times_are_laps_of_one_chain_inside_the_call() {
        let bytes = tiny_compute_shader();
        let opts = Options::default();
        for _ in 0..3 {
            let start = Instant::now();
            let out = compile(&bytes, &opts).unwrap();
            let outside = start.elapsed();
            let t = out.times;
            // Every stage did work, and the laps never overlap: together they fit in the call.
            for (name, d) in [
                ("parse", t.parse),
                ("convert", t.convert),
                ("passes", t.passes),
                ("spirv", t.spirv),
            ] {
                assert!(d > std::time::Duration::ZERO, "{name}");
            }
            assert!(t.parse + t.convert + t.passes + t.spirv <= outside);
        }
    }

    #[test]
    fn compile_ir_refuses_raw_ir_given_as_lowered() {
        let raw = to_ir(&tiny_compute_shader(), IrStage::Raw, &Options::default()).unwrap();
        match compile_ir(raw, IrStage::Lowered, &Options::default()) {
            Err(Error::Pass(ir::passes::error::PassError::Validation { pass, errors }, None)) => {
                assert_eq!(pass, "input");
                assert!(!errors.is_empty());
            }
            other => panic!("expected an input validation error, got {other:?}"),
        }
    }

    #[test]
    fn ir_text_is_validated_before_the_passes() {
        // Parses, but loads a temporary through a function: the validator must stop it
        // before the passes, in every build (release builds do not validate between passes).
        let text = "%1 = EntryPoint %2 Compute\n%5 = SetCsWorkgroupSize %1 1 1 1\n\
                    %2 = Function void\n%3 = Label None\n%4 = TmpLoad f32 %2\n\
                    %6 = Return void null\n%7 = FunctionEnd\n";
        let mut opts = Options::default();
        opts.passes.validate_each_pass = false;
        match compile_ir_text(text, &opts) {
            Err(Error::Pass(ir::passes::error::PassError::Validation { pass, errors }, None)) => {
                assert_eq!(pass, "input");
                assert!(!errors.is_empty());
            }
            other => panic!("expected an input validation error, got {other:?}"),
        }
    }
    #[test]
    fn unstructured_ir_text_is_structured_by_the_pipeline() {
        // An if/else diamond as plain blocks, blocks out of order, joined by a phi: the form
        // the DXIL frontend emits, which `structurize` turns into structured control flow.
        let text = "%1 = EntryPoint %10 Pixel\n%2 = DclOutput f32 %1 0 0 0\n\
                    %3 = DclInput f32 %1 0 0 None\n%5 = Constant f32 1.0\n\
                    %6 = Constant f32 0.0\n%10 = Function void\n%11 = Label None\n\
                    %12 = InputLoad f32 %3 null\n%13 = FLt bool %12 %6\n\
                    %14 = BranchConditional %13 %20 %30\n%30 = Label None\n%31 = Branch %40\n\
                    %20 = Label None\n%21 = Branch %40\n%40 = Label None\n\
                    %41 = Phi f32 %20 %5 %30 %6\n%42 = OutputStore %2 null %41\n\
                    %43 = Return void null\n%44 = FunctionEnd\n";
        let out = compile_ir_text(text, &Options::default()).expect("compiles");
        assert_eq!(out.spirv.first(), Some(&0x0723_0203));
        // OpSelectionMerge (247) appears: the branch became a structured selection.
        let mut i = 5;
        let mut merges = 0;
        while let Some(&w) = out.spirv.get(i) {
            merges += usize::from(w & 0xffff == 247);
            i += (w >> 16).max(1) as usize;
        }
        assert_eq!(merges, 1);
    }
}
