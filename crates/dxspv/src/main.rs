//! The `dxspv` command-line tool: disassembles DXBC and reads, validates, prints and stores IR.
//!
//! Exit status: 0 on success, 1 when the input is bad (each error on its own line, prefixed with
//! the file name), 2 for bad usage (unknown flags, unreadable files). It never exits through a
//! panic.

use clap::{Parser, Subcommand};
use dxspv::ir::{self, validate::Level};
use dxspv::{detect_format, Format, IrStage};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "dxspv", version, about = "Direct3D shader bytecode to SPIR-V")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
        dxspv::to_ir(&bytes, stage, &dxspv::Options::default())
            .map_err(|e| Failure::Input(vec![format!("{name}: {e}")]))?
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

fn run_disasm(input: &Path, output: Option<&Path>) -> Result<(), Failure> {
    let name = input.display().to_string();
    let bytes = read(input)?;
    let text =
        dxspv::disassemble(&bytes).map_err(|e| Failure::Input(vec![format!("{name}: {e}")]))?;
    write_out(output, text.as_bytes())
}
