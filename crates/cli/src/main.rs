//! The `dxspv` command-line tool: compiles Direct3D shaders (DXBC, DXIL, D3D9) and IR to
//! SPIR-V, one file or a whole tree; prints and stores IR; disassembles; times translations.
//!
//! Conventions, as in spirv-tools, glslang and dxc: `-` is standard input for an input and
//! standard output for `-o` and `--reflect`; a directory input is walked recursively and its
//! tree mirrored under `-o`; diagnostics are `file: error: what` (see `diag`); `-q` keeps only
//! errors, `-v` adds notes and per-file lines. Exit status: 0 success, 1 bad input (a file
//! that does not compile, is missing or is no shader), 2 bad usage. It never exits through a
//! panic.

// The tool talks on standard output and error: printing is its job (the library never prints).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod batch;
mod bench;
mod diag;
mod dot;
mod input;
mod quick_args;
mod state_args;

use clap::{Parser, Subcommand, ValueEnum};
use diag::{Reporter, Verbosity};
use dxspv::ir::{self, validate::Level};
use input::Source;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "dxspv", version, about = "Direct3D shader bytecode to SPIR-V")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Print only errors.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Also print notes (skipped files, renamed outputs) and a line per file.
    #[arg(short, long, global = true)]
    verbose: bool,
}

/// How HLSL min-precision types are compiled.
#[derive(Clone, Copy, ValueEnum)]
enum MinPrecision {
    /// As 32-bit types (always valid, like Direct3D on most hardware).
    Promote32,
    /// As native 16-bit types where the arithmetic allows (needs 16-bit device support).
    Native16,
}

/// Translation options, shared by `compile` and `ir`.
#[derive(clap::Args)]
struct TranslateArgs {
    /// Binding shift for constant buffers (`b` registers), like DXC's `-fvk-b-shift`.
    #[arg(long, value_name = "N")]
    b_shift: Option<u32>,
    /// Binding shift for shader resource views (`t` registers).
    #[arg(long, value_name = "N")]
    t_shift: Option<u32>,
    /// Binding shift for unordered access views (`u` registers).
    #[arg(long, value_name = "N")]
    u_shift: Option<u32>,
    /// Binding shift for samplers (`s` registers).
    #[arg(long, value_name = "N")]
    s_shift: Option<u32>,
    /// Binding shift for UAV counters.
    #[arg(long, value_name = "N")]
    counter_shift: Option<u32>,
    /// Added to the register space to give the descriptor set.
    #[arg(long, value_name = "N")]
    set_offset: Option<u32>,
    /// Name of the SPIR-V entry point.
    #[arg(long, value_name = "NAME", default_value = "main")]
    entry_point: String,
    /// Leave out `OpName` debug names.
    #[arg(long)]
    no_debug_names: bool,
    /// Leave out float-controls execution modes (rounding, denormals), for devices without
    /// the matching float-controls properties.
    #[arg(long)]
    no_float_controls: bool,
    /// How min-precision types are compiled.
    #[arg(long, value_enum, default_value = "promote32")]
    min_precision: MinPrecision,
    /// Do not make vertex shaders write `PointSize = 1.0` (for devices with `maintenance5`,
    /// where Vulkan needs no point size for point lists).
    #[arg(long)]
    no_vertex_point_size: bool,
    /// Mark descriptor loads whose index differs between invocations non-uniform where the
    /// shader forgot `NonUniformResourceIndex` (a per-game workaround; off by default).
    #[arg(long)]
    infer_non_uniform: bool,
    /// Do not verify the container checksum (no checksum warnings).
    #[arg(long)]
    no_checksum: bool,
    /// Target environment, as spirv-val and glslang name them: vulkan1.0, vulkan1.1,
    /// vulkan1.2, vulkan1.3 (SPIR-V 1.0, 1.3, 1.5, 1.6) or spirv1.0 to spirv1.6. The Vulkan
    /// memory model is used for vulkan1.3, spirv1.5 and spirv1.6, GLSL450 for the others.
    #[arg(long, value_name = "ENV", default_value = "vulkan1.3", value_parser = parse_target_env)]
    target_env: dxspv::spirv::TargetEnv,
    /// The SPIR-V header's generator word (tool id in the high 16 bits, version in the low
    /// 16; decimal or 0x hex). Default 0: dxspv has no id in Khronos' registry.
    #[arg(long, value_name = "N", default_value = "0", value_parser = parse_u32)]
    generator_id: u32,
    /// Run only the mandatory lowerings: no constant folding, simplification, CSE, DCE, CFG
    /// cleanup or removal of unused declarations.
    #[arg(long)]
    no_optimisations: bool,
    /// Compute legacy multiplies (`mul`/`mad`/`dp`/`pow` of D3D9 and SM4 `*_legacy`) as
    /// plain IEEE products, without Direct3D 9's `0 * x = 0`.
    #[arg(long)]
    no_legacy_mul_zero: bool,
    /// Run the IR validator after every pass (for debugging dxspv).
    #[arg(long)]
    validate_each_pass: bool,
    #[command(flatten)]
    d3d9: state_args::D3d9Args,
    #[command(flatten)]
    pipeline: state_args::PipelineArgs,
}

/// The options of a compile without translation flags: what clap's defaults give (checked by
/// `quick_args::tests`).
fn default_translate_options() -> dxspv::Options {
    TranslateArgs {
        b_shift: None,
        t_shift: None,
        u_shift: None,
        s_shift: None,
        counter_shift: None,
        set_offset: None,
        entry_point: "main".into(),
        no_debug_names: false,
        no_float_controls: false,
        min_precision: MinPrecision::Promote32,
        no_vertex_point_size: false,
        infer_non_uniform: false,
        no_checksum: false,
        target_env: dxspv::spirv::TargetEnv::default(),
        generator_id: 0,
        no_optimisations: false,
        no_legacy_mul_zero: false,
        validate_each_pass: false,
        d3d9: state_args::D3d9Args::default(),
        pipeline: state_args::PipelineArgs::default(),
    }
    .options()
}

/// Parses a `--target-env` name.
fn parse_target_env(s: &str) -> Result<dxspv::spirv::TargetEnv, String> {
    s.parse()
        .map_err(|e: dxspv::spirv::UnknownTargetEnv| e.to_string())
}

/// Parses a 32-bit number, decimal or `0x` hexadecimal.
fn parse_u32(s: &str) -> Result<u32, String> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => s.parse(),
    };
    parsed.map_err(|_| format!("'{s}' is not a 32-bit number (decimal or 0x hex)"))
}

impl TranslateArgs {
    fn options(&self) -> dxspv::Options {
        let mut opts = dxspv::Options::default();
        opts.spirv.strip_debug_names = self.no_debug_names;
        opts.spirv.float_controls = !self.no_float_controls;
        opts.spirv.vertex_point_size = !self.no_vertex_point_size;
        opts.spirv.entry_point_name = self.entry_point.clone();
        opts.spirv.target_env = self.target_env;
        opts.spirv.generator = self.generator_id;
        opts.verify_checksum = !self.no_checksum;
        opts.passes.infer_non_uniform = self.infer_non_uniform;
        if self.no_optimisations {
            let p = &mut opts.passes;
            for switch in [
                &mut p.constant_fold,
                &mut p.simplify_arith,
                &mut p.cse,
                &mut p.dce,
                &mut p.cfg_cleanup,
                &mut p.remove_unused_declarations,
            ] {
                *switch = false;
            }
        }
        opts.passes.preserve_legacy_mul_zero &= !self.no_legacy_mul_zero;
        opts.passes.validate_each_pass |= self.validate_each_pass;
        self.d3d9.apply(&mut opts.d3d9);
        self.pipeline.apply(&mut opts);
        opts.passes.min_precision = match self.min_precision {
            MinPrecision::Promote32 => ir::passes::options::MinPrecisionMode::Promote32,
            MinPrecision::Native16 => ir::passes::options::MinPrecisionMode::Native16,
        };
        let m = &mut opts.spirv.bindings;
        for (slot, v) in [
            (&mut m.b_shift, self.b_shift),
            (&mut m.t_shift, self.t_shift),
            (&mut m.u_shift, self.u_shift),
            (&mut m.s_shift, self.s_shift),
            (&mut m.counter_shift, self.counter_shift),
            (&mut m.set_offset, self.set_offset),
        ] {
            if let Some(v) = v {
                *slot = v;
            }
        }
        opts
    }
}

#[derive(Subcommand)]
enum Command {
    /// Compiles a shader (DXBC, DXIL, D3D9, or IR text) to SPIR-V; a directory compiles every
    /// shader under it, on all cores, into the same tree under `-o`.
    Compile {
        /// Input file, `-` for standard input, or a directory.
        input: PathBuf,
        /// Output `.spv` file (`-`: standard output), or a directory for a directory input.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Write the reflection (resource bindings, interface) as JSON to FILE (`-`: standard
        /// output); without FILE, beside each output as `<name>.json`.
        #[arg(long, value_name = "FILE", num_args = 0..=1)]
        reflect: Option<Option<PathBuf>>,
        /// Write the lowered IR's control-flow graph as Graphviz to FILE (single input only).
        #[arg(long, value_name = "FILE")]
        dot: Option<PathBuf>,
        /// Print the time spent in each stage (parse, convert, passes, SPIR-V).
        #[arg(long)]
        timings: bool,
        #[command(flatten)]
        translate: TranslateArgs,
    },
    /// Prints IR: of a shader (after the pass pipeline, or `--raw` before it), or of an IR file
    /// (text, or the binary form when it ends in `.dxir`), validated.
    Ir {
        /// Input file (`-`: standard input): a shader, IR text, or binary IR (`.dxir`).
        input: PathBuf,
        /// For shaders: print the frontend's output before the pass pipeline.
        #[arg(long)]
        raw: bool,
        /// Write the serialized binary form instead of text (needs `-o`).
        #[arg(long)]
        binary: bool,
        /// Print the control-flow graph as Graphviz instead of IR text.
        #[arg(long, conflicts_with = "binary")]
        dot: bool,
        /// Output file (default and `-`: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Validate at the lowered level (the backend's input) instead of the structural level.
        #[arg(long)]
        lowered: bool,
        /// Skip validation.
        #[arg(long)]
        no_validate: bool,
        #[command(flatten)]
        translate: TranslateArgs,
    },
    /// Disassembles a shader in its format's assembly syntax (fxc-like text for DXBC).
    Disasm {
        /// Input shader (`-`: standard input).
        input: PathBuf,
        /// Output file (default and `-`: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Times translations: warm (best of N passes over all inputs in one process) or cold
    /// (each input the first compile of a fresh process); medians per stage and format, or
    /// JSON per file (`--json`, the contract `../shared/peers/compare.sh` reads).
    Bench {
        /// Shader files, or directories to walk for them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Warm passes over all inputs.
        #[arg(long, default_value_t = 10)]
        rounds: usize,
        /// Cold mode: one fresh process per input.
        #[arg(long)]
        cold: bool,
        /// Print JSON (one entry per file) on standard output.
        #[arg(long)]
        json: bool,
    },
}

/// How a command failed: bad input (exit 1, already reported) or bad usage (exit 2).
pub enum Failure {
    /// Errors were reported for the inputs.
    Input,
    /// The command line or the file system is at fault.
    Usage(String),
}

fn main() -> ExitCode {
    // A cold-bench child does nothing before its one compile (see `bench`).
    if let Some(file) = std::env::var_os(bench::COLD_CHILD_ENV) {
        bench::cold_child(Path::new(&file));
        return ExitCode::SUCCESS;
    }
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match quick_args::recognise(args.get(1..).unwrap_or_default()) {
        Some(quick_args::Quick::Version) => {
            println!("dxspv {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some(quick_args::Quick::Compile { input, output }) => {
            let report = Reporter::new(Verbosity::Normal);
            let result = run_compile(
                &input,
                Some(&output),
                None,
                None,
                false,
                &default_translate_options(),
                &report,
            );
            return exit_code(result, &report);
        }
        None => {}
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let verbosity = if cli.quiet {
        Verbosity::Quiet
    } else if cli.verbose {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let report = Reporter::new(verbosity);
    let result = match cli.command {
        Command::Compile {
            input,
            output,
            reflect,
            dot,
            timings,
            translate,
        } => run_compile(
            &input,
            output.as_deref(),
            reflect.as_ref().map(|r| r.as_deref()),
            dot.as_deref(),
            timings,
            &translate.options(),
            &report,
        ),
        Command::Ir {
            input,
            raw,
            binary,
            dot,
            output,
            lowered,
            no_validate,
            translate,
        } => {
            let job = IrJob {
                raw,
                binary,
                dot,
                lowered,
                validate: !no_validate,
            };
            run_ir(
                &input,
                output.as_deref(),
                &job,
                &translate.options(),
                &report,
            )
        }
        Command::Disasm { input, output } => run_disasm(&input, output.as_deref(), &report),
        Command::Bench {
            inputs,
            rounds,
            cold,
            json,
        } => bench::run(&bench::BenchArgs {
            inputs,
            rounds,
            cold,
            json,
        })
        .map_err(Failure::Usage),
    };
    exit_code(result, &report)
}

/// The exit status of a command's result (printing a usage error).
fn exit_code(result: Result<(), Failure>, report: &Reporter) -> ExitCode {
    match result {
        Ok(()) if report.error_count() == 0 => ExitCode::SUCCESS,
        Ok(()) | Err(Failure::Input) => ExitCode::from(1),
        Err(Failure::Usage(msg)) => {
            eprintln!("dxspv: {msg}");
            ExitCode::from(2)
        }
    }
}

/// `dxspv compile`: one file, or a directory tree.
fn run_compile(
    input: &Path,
    output: Option<&Path>,
    reflect: Option<Option<&Path>>,
    dot: Option<&Path>,
    timings: bool,
    opts: &dxspv::Options,
    report: &Reporter,
) -> Result<(), Failure> {
    if input.is_dir() {
        if dot.is_some() {
            Err(Failure::Usage(
                "--dot takes a single input, not a directory".into(),
            ))
        } else {
            batch::compile_tree(input, output, reflect.is_some(), opts, report)
        }
    } else {
        let job = SingleCompile {
            input,
            output,
            reflect,
            dot,
            timings,
        };
        compile_single(&job, opts, report)
    }
}

/// Reads an input, reporting a missing or unreadable file as bad input.
fn read_input(path: &Path, report: &Reporter) -> Result<Vec<u8>, Failure> {
    input::read(path).map_err(|e| {
        report.error(&input::display_name(path), &e);
        Failure::Input
    })
}

/// Writes an output; a failure to write is a usage error (the file system's, not the input's).
fn write_output(path: &Path, bytes: &[u8], binary: bool) -> Result<(), Failure> {
    input::write(path, bytes, binary).map_err(Failure::Usage)
}

/// Compiles classified input to SPIR-V.
pub fn compile_source(source: Source, opts: &dxspv::Options) -> Result<dxspv::Output, String> {
    match source {
        Source::Shader(bytes) => dxspv::compile(&bytes, opts).map_err(|e| e.to_string()),
        Source::IrText(text) => dxspv::compile_ir_text(&text, opts).map_err(|e| e.to_string()),
        Source::IrBinary(_) => Err(
            "binary IR cannot be compiled yet: print it as text with `dxspv ir` and compile that"
                .into(),
        ),
        Source::Other(what) => Err(format!("not a shader: {what}")),
    }
}

/// One file to compile and where its results go.
struct SingleCompile<'a> {
    input: &'a Path,
    output: Option<&'a Path>,
    /// `Some(None)`: beside the output.
    reflect: Option<Option<&'a Path>>,
    dot: Option<&'a Path>,
    timings: bool,
}

fn compile_single(
    job: &SingleCompile<'_>,
    opts: &dxspv::Options,
    report: &Reporter,
) -> Result<(), Failure> {
    let name = input::display_name(job.input);
    let output = match job.output {
        Some(o) if o.is_dir() => {
            return Err(Failure::Usage(format!(
                "-o {} is a directory, but the input is a single file",
                o.display()
            )))
        }
        Some(o) => o.to_path_buf(),
        None => PathBuf::from("-"),
    };
    let reflect = match job.reflect {
        Some(None) if input::is_std(&output) => PathBuf::from("-"),
        Some(None) => output.with_extension("json"),
        Some(Some(r)) => r.to_path_buf(),
        None => PathBuf::new(),
    };
    if input::is_std(&output) && input::is_std(&reflect) {
        return Err(Failure::Usage(
            "SPIR-V and reflection cannot both go to standard output: give -o or --reflect a file"
                .into(),
        ));
    }
    let bytes = read_input(job.input, report)?;
    let source = input::classify(job.input, bytes);
    let out = match compile_source(source, opts) {
        Ok(out) => out,
        Err(e) => {
            report.error(&name, &e);
            return Err(Failure::Input);
        }
    };
    for w in &out.warnings {
        report.warning(&name, w);
    }
    if job.timings {
        print_timings(&name, &out.times);
    }
    if !reflect.as_os_str().is_empty() {
        write_output(
            &reflect,
            dxspv::reflection_json(&out.reflection).as_bytes(),
            false,
        )?;
    }
    if let Some(dot_path) = job.dot {
        // The CFG of what the backend compiled: the lowered IR, rebuilt from the input.
        let bytes = read_input(job.input, report)?;
        let builder = match input::classify(job.input, bytes) {
            Source::Shader(b) => {
                dxspv::to_ir(&b, dxspv::IrStage::Lowered, opts).map_err(|e| e.to_string())
            }
            Source::IrText(t) => {
                ir::text::parse(&t)
                    .map_err(|e| e.to_string())
                    .and_then(|mut b| {
                        ir::passes::pipeline::run_pipeline(&mut b, &opts.passes)
                            .map(|_| b)
                            .map_err(|e| e.to_string())
                    })
            }
            _ => Err("no IR to draw".into()),
        };
        match builder.and_then(|b| dot::cfg_dot(&b, &name)) {
            Ok(text) => write_output(dot_path, text.as_bytes(), false)?,
            Err(e) => {
                report.error(&name, &e);
                return Err(Failure::Input);
            }
        }
    }
    write_output(&output, &input::spirv_bytes(&out.spirv), true)
}

/// Prints per-stage times of one compile.
pub fn print_timings(name: &str, t: &dxspv::StageTimes) {
    let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
    eprintln!(
        "{name}: parse {:.1} us, convert {:.1} us, passes {:.1} us, spirv {:.1} us, total {:.1} us",
        us(t.parse),
        us(t.convert),
        us(t.passes),
        us(t.spirv),
        us(t.parse + t.convert + t.passes + t.spirv)
    );
}

/// What `dxspv ir` prints.
struct IrJob {
    raw: bool,
    binary: bool,
    dot: bool,
    lowered: bool,
    validate: bool,
}

fn run_ir(
    path: &Path,
    output: Option<&Path>,
    job: &IrJob,
    opts: &dxspv::Options,
    report: &Reporter,
) -> Result<(), Failure> {
    let name = input::display_name(path);
    if job.binary && output.is_none_or(input::is_std) {
        return Err(Failure::Usage("--binary needs -o <file>".into()));
    }
    let bytes = read_input(path, report)?;
    let mut level = if job.lowered {
        Level::Lowered
    } else {
        Level::Structural
    };
    let fail = |e: &dyn std::fmt::Display| {
        report.error(&name, e);
        Failure::Input
    };
    let builder = match input::classify(path, bytes) {
        Source::Shader(bytes) => {
            let stage = if job.raw {
                dxspv::IrStage::Raw
            } else {
                level = Level::Lowered;
                dxspv::IrStage::Lowered
            };
            let ir = dxspv::to_ir_timed(&bytes, stage, opts).map_err(|e| fail(&e))?;
            for w in &ir.warnings {
                report.warning(&name, w);
            }
            ir.builder
        }
        Source::IrBinary(bytes) => ir::serialize::deserialize(&bytes).map_err(|e| fail(&e))?,
        Source::IrText(text) => ir::text::parse(&text).map_err(|e| fail(&e))?,
        Source::Other(what) => return Err(fail(&format!("not IR text nor a shader: {what}"))),
    };
    if job.validate {
        if let Err(errors) = ir::validate::validate(&builder, level) {
            for e in &errors {
                report.error(&name, e);
            }
            return Err(Failure::Input);
        }
    }
    let out = output.unwrap_or(Path::new("-"));
    if job.binary {
        write_output(out, &ir::serialize::serialize(&builder), false)
    } else if job.dot {
        let text = dot::cfg_dot(&builder, &name).map_err(|e| fail(&e))?;
        write_output(out, text.as_bytes(), false)
    } else {
        write_output(out, ir::text::print(&builder).as_bytes(), false)
    }
}

fn run_disasm(path: &Path, output: Option<&Path>, report: &Reporter) -> Result<(), Failure> {
    let name = input::display_name(path);
    let bytes = read_input(path, report)?;
    match dxspv::disassemble(&bytes) {
        Ok(text) => write_output(output.unwrap_or(Path::new("-")), text.as_bytes(), false),
        Err(dxspv::Error::UnknownFormat) => {
            report.error(&name, &format!("not a shader: {}", input::describe(&bytes)));
            Err(Failure::Input)
        }
        Err(e) => {
            report.error(&name, &e);
            Err(Failure::Input)
        }
    }
}
