//! The `dxspv` command-line tool: disassembles DXBC and reads, validates, prints and stores IR.
//!
//! Exit status: 0 on success, 1 when the input is bad (each error on its own line, prefixed with
//! the file name), 2 for bad usage (unknown flags, unreadable files). It never exits through a
//! panic.

use clap::{Parser, Subcommand};
use dxspv::ir::{self, validate::Level};
use dxspv::{detect_format, Format, IrStage, Output};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "dxspv", version, about = "Direct3D shader bytecode to SPIR-V")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where resources go in Vulkan: `register(xN, spaceM)` → set `M + set_offset`, binding `N + x_shift`.
#[derive(clap::Args)]
struct BindingArgs {
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
}

#[derive(Subcommand)]
enum Command {
    /// Compiles a shader (DXBC, or IR text `.ir`) to SPIR-V; a directory compiles every file in
    /// it on all cores.
    Compile {
        /// Input shader, or a directory of shaders.
        input: PathBuf,
        /// Output `.spv` file (a directory for a directory input).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Write the reflection (resource bindings, interface) as JSON to this file.
        #[arg(long, value_name = "FILE")]
        reflect: Option<PathBuf>,
        /// Leave out `OpName` debug names.
        #[arg(long)]
        no_debug_names: bool,
        /// Print the time spent in each stage (parse, convert, passes, SPIR-V).
        #[arg(long)]
        timings: bool,
        #[command(flatten)]
        bindings: BindingArgs,
    },
    /// Prints IR: of a DXBC shader (after the pass pipeline, or `--raw` before it), or of an IR
    /// file (text `.ir` or binary `.dxir`), validated.
    Ir {
        /// Input file: a DXBC shader, IR text, or the binary IR form when it ends in `.dxir`.
        input: PathBuf,
        /// For shaders: print the frontend's output before the pass pipeline.
        #[arg(long)]
        raw: bool,
        /// Write the serialized binary form instead of text (needs `-o`).
        #[arg(long)]
        binary: bool,
        /// Output file (default: standard output, text only).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Validate at the lowered level (the backend's input) instead of the structural level.
        #[arg(long)]
        lowered: bool,
        /// Skip validation.
        #[arg(long)]
        no_validate: bool,
    },
    /// Disassembles a DXBC shader (SM 4.0–5.1) into fxc-like text.
    Disasm {
        /// Input DXBC container.
        input: PathBuf,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

/// How a command failed: bad input (exit 1) or bad usage / I/O (exit 2).
enum Failure {
    Input(Vec<String>),
    Usage(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compile {
            input,
            output,
            reflect,
            no_debug_names,
            timings,
            bindings,
        } => {
            let opts = compile_options(no_debug_names, &bindings);
            if input.is_dir() {
                run_compile_dir(&input, output.as_deref(), &opts, timings)
            } else {
                run_compile(
                    &input,
                    output.as_deref(),
                    reflect.as_deref(),
                    &opts,
                    timings,
                )
            }
        }
        Command::Ir {
            input,
            raw,
            binary,
            output,
            lowered,
            no_validate,
        } => run_ir(&input, raw, binary, output.as_deref(), lowered, no_validate),
        Command::Disasm { input, output } => run_disasm(&input, output.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(lines)) => {
            for l in lines {
                eprintln!("{l}");
            }
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("dxspv: {msg}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))
}

fn write_out(output: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    match output {
        Some(p) => std::fs::write(p, bytes)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", p.display()))),
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|e| Failure::Usage(format!("cannot write to standard output: {e}"))),
    }
}

fn run_ir(
    input: &Path,
    raw: bool,
    binary: bool,
    output: Option<&Path>,
    lowered: bool,
    no_validate: bool,
) -> Result<(), Failure> {
    let name = input.display().to_string();
    let bytes = read(input)?;
    let mut lowered = lowered;
    let builder = if input.extension().is_some_and(|e| e == "dxir") {
        ir::serialize::deserialize(&bytes)
            .map_err(|e| Failure::Input(vec![format!("{name}: {e}")]))?
    } else if detect_format(&bytes) != Format::Unknown {
        let stage = if raw {
            IrStage::Raw
        } else {
            lowered = true;
            IrStage::Lowered
        };
        let ir = dxspv::to_ir_timed(&bytes, stage, &dxspv::Options::default())
            .map_err(|e| Failure::Input(vec![format!("{name}: {e}")]))?;
        print_warnings(&name, &ir.warnings);
        ir.builder
    } else {
        let text = std::str::from_utf8(&bytes)
            .map_err(|e| Failure::Input(vec![format!("{name}: not UTF-8 text: {e}")]))?;
        ir::text::parse(text).map_err(|e| Failure::Input(vec![format!("{name}:{e}")]))?
    };
    if !no_validate {
        let level = if lowered {
            Level::Lowered
        } else {
            Level::Structural
        };
        if let Err(errors) = ir::validate::validate(&builder, level) {
            return Err(Failure::Input(
                errors.iter().map(|e| format!("{name}: {e}")).collect(),
            ));
        }
    }
    if binary {
        if output.is_none() {
            return Err(Failure::Usage("--binary needs -o <file>".into()));
        }
        write_out(output, &ir::serialize::serialize(&builder))
    } else {
        write_out(output, ir::text::print(&builder).as_bytes())
    }
}

fn compile_options(no_debug_names: bool, b: &BindingArgs) -> dxspv::Options {
    let mut opts = dxspv::Options::default();
    opts.spirv.strip_debug_names = no_debug_names;
    let m = &mut opts.spirv.bindings;
    let set = |slot: &mut u32, v: Option<u32>| {
        if let Some(v) = v {
            *slot = v;
        }
    };
    set(&mut m.b_shift, b.b_shift);
    set(&mut m.t_shift, b.t_shift);
    set(&mut m.u_shift, b.u_shift);
    set(&mut m.s_shift, b.s_shift);
    set(&mut m.counter_shift, b.counter_shift);
    set(&mut m.set_offset, b.set_offset);
    opts
}

fn compile_bytes(path: &Path, bytes: &[u8], opts: &dxspv::Options) -> Result<Output, String> {
    let name = path.display();
    if path.extension().is_some_and(|e| e == "ir") {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8: {e}"))?;
        dxspv::compile_ir_text(text, opts).map_err(|e| format!("{name}: {e}"))
    } else {
        dxspv::compile(bytes, opts).map_err(|e| format!("{name}: {e}"))
    }
}

/// Prints each warning as `file: warning: what` on standard error.
fn print_warnings(name: &str, warnings: &[dxspv::Warning]) {
    for w in warnings {
        eprintln!("{name}: warning: {w}");
    }
}

fn spirv_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn print_timings(name: &str, t: &dxspv::StageTimes) {
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

fn run_compile(
    input: &Path,
    output: Option<&Path>,
    reflect: Option<&Path>,
    opts: &dxspv::Options,
    timings: bool,
) -> Result<(), Failure> {
    let bytes = read(input)?;
    let out = compile_bytes(input, &bytes, opts).map_err(|e| Failure::Input(vec![e]))?;
    print_warnings(&input.display().to_string(), &out.warnings);
    if timings {
        print_timings(&input.display().to_string(), &out.times);
    }
    if let Some(r) = reflect {
        std::fs::write(r, dxspv::reflection_json(&out.reflection))
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", r.display())))?;
    }
    match output {
        Some(_) => write_out(output, &spirv_bytes(&out.spirv)),
        None if std::io::IsTerminal::is_terminal(&std::io::stdout()) => Err(Failure::Usage(
            "refusing to write binary SPIR-V to a terminal: use -o <file.spv>".into(),
        )),
        None => write_out(None, &spirv_bytes(&out.spirv)),
    }
}

fn run_compile_dir(
    dir: &Path,
    output: Option<&Path>,
    opts: &dxspv::Options,
    timings: bool,
) -> Result<(), Failure> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", dir.display())))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    if let Some(out) = output {
        std::fs::create_dir_all(out)
            .map_err(|e| Failure::Usage(format!("cannot create {}: {e}", out.display())))?;
    }
    let done = AtomicUsize::new(0);
    let total = files.len();
    let start = std::time::Instant::now();
    let results: Vec<Result<dxspv::StageTimes, String>> = files
        .par_iter()
        .map(|path| {
            let result = std::fs::read(path)
                .map_err(|e| format!("{}: {e}", path.display()))
                .and_then(|bytes| compile_bytes(path, &bytes, opts))
                .and_then(|out| {
                    print_warnings(&path.display().to_string(), &out.warnings);
                    if let (Some(dir), Some(stem)) = (output, path.file_stem()) {
                        let target = dir.join(stem).with_extension("spv");
                        std::fs::write(&target, spirv_bytes(&out.spirv))
                            .map_err(|e| format!("{}: {e}", target.display()))?;
                    }
                    Ok(out.times)
                });
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_multiple_of(64) || n == total {
                eprint!("\r[{n}/{total}]");
            }
            result
        })
        .collect();
    eprintln!();
    let mut errors = Vec::new();
    let mut sum = dxspv::StageTimes::default();
    for r in results {
        match r {
            Ok(t) => {
                sum.parse += t.parse;
                sum.convert += t.convert;
                sum.passes += t.passes;
                sum.spirv += t.spirv;
            }
            Err(e) => errors.push(e),
        }
    }
    for e in &errors {
        eprintln!("{e}");
    }
    eprintln!(
        "compiled {}, failed {} of {total} files in {:.1} ms",
        total - errors.len(),
        errors.len(),
        start.elapsed().as_secs_f64() * 1e3
    );
    if timings {
        print_timings("all files (summed over threads)", &sum);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure::Input(Vec::new()))
    }
}

fn run_disasm(input: &Path, output: Option<&Path>) -> Result<(), Failure> {
    let name = input.display().to_string();
    let bytes = read(input)?;
    let text =
        dxspv::disassemble(&bytes).map_err(|e| Failure::Input(vec![format!("{name}: {e}")]))?;
    write_out(output, text.as_bytes())
}
