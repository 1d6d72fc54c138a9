//! The two command lines run most often, recognised without clap: `dxspv compile IN -o OUT`
//! (what a build system or a per-process benchmark runs, once per shader) and `dxspv
//! --version`.
//!
//! Building clap's description of the whole command line (four subcommands, some sixty
//! flags) is most of the work a one-shader process does besides the translation: its
//! builders run on large stack frames and allocate a few hundred small objects, some 30
//! first-touched pages in all. A command line of exactly one of these shapes is taken apart
//! here instead; every other one, including every spelling these shapes have in clap but
//! not here (`--output=OUT`, `-oOUT`, `--`, a global `-q`), goes to clap, so the tool's
//! behaviour, messages and help stay clap's. The options of a quick compile are the
//! defaults clap would give (`tests::quick_compile_options_equal_clap_defaults`).

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

/// A command line recognised here.
#[derive(Debug, PartialEq, Eq)]
pub enum Quick {
    /// `--version` or `-V`.
    Version,
    /// `compile IN -o OUT` or `compile -o OUT IN` (`--output` for `-o`), nothing else.
    Compile {
        /// The input path (`-`: standard input).
        input: PathBuf,
        /// The output path (`-`: standard output).
        output: PathBuf,
    },
}

/// What `args` (the arguments after the program name) ask for, when they have one of the
/// shapes handled here.
pub fn recognise(args: &[OsString]) -> Option<Quick> {
    match args {
        [flag] if flag == "--version" || flag == "-V" => Some(Quick::Version),
        [command, rest @ ..] if command == "compile" => {
            let (input, output) = match rest {
                [input, flag, output] if is_output_flag(flag) => (input, output),
                [flag, output, input] if is_output_flag(flag) => (input, output),
                _ => return None,
            };
            (is_value(input) && is_value(output)).then(|| Quick::Compile {
                input: PathBuf::from(input),
                output: PathBuf::from(output),
            })
        }
        _ => None,
    }
}

fn is_output_flag(arg: &OsStr) -> bool {
    arg == "-o" || arg == "--output"
}

/// Whether clap takes `arg` as a value, not a flag: `-` or anything not starting with `-`
/// (and, to stay on the safe side, not empty).
fn is_value(arg: &OsStr) -> bool {
    let bytes = arg.as_encoded_bytes();
    arg == "-" || bytes.first().is_some_and(|&b| b != b'-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn compile(input: &str, output: &str) -> Option<Quick> {
        Some(Quick::Compile {
            input: input.into(),
            output: output.into(),
        })
    }

    #[test]
    fn recognises_the_two_compile_orders_and_version() {
        assert_eq!(
            recognise(&args(&["compile", "a.dxbc", "-o", "a.spv"])),
            compile("a.dxbc", "a.spv")
        );
        assert_eq!(
            recognise(&args(&["compile", "--output", "a.spv", "a.dxbc"])),
            compile("a.dxbc", "a.spv")
        );
        assert_eq!(
            recognise(&args(&["compile", "-", "-o", "-"])),
            compile("-", "-")
        );
        assert_eq!(recognise(&args(&["--version"])), Some(Quick::Version));
        assert_eq!(recognise(&args(&["-V"])), Some(Quick::Version));
    }

    #[test]
    fn leaves_every_other_shape_to_clap() {
        for line in [
            &["compile", "a.dxbc"][..],
            &["compile", "a.dxbc", "-o"],
            &["compile", "a.dxbc", "--output=a.spv"],
            &["compile", "a.dxbc", "-oa.spv"],
            &["compile", "a.dxbc", "-o", "a.spv", "-q"],
            &["compile", "-q", "a.dxbc", "-o"],
            &["compile", "a.dxbc", "-o", "--timings"],
            &["compile", "--timings", "-o", "a.spv"],
            &["compile", "", "-o", "a.spv"],
            &["compile", "a.dxbc", "a.spv", "-o"],
            &["-q", "compile", "a.dxbc", "-o", "a.spv"],
            &["ir", "a.dxbc", "-o", "a.txt"],
            &["--version", "compile"],
            &["--help"],
            &[],
        ] {
            assert_eq!(recognise(&args(line)), None, "{line:?}");
        }
    }

    /// Parses a command line with clap, as `main` does on the slow path.
    fn clap_compile(list: &[&str]) -> (PathBuf, Option<PathBuf>, dxspv::Options) {
        let cli = crate::Cli::try_parse_from(list).unwrap();
        assert!(!cli.quiet && !cli.verbose);
        match cli.command {
            crate::Command::Compile {
                input,
                output,
                reflect,
                dot,
                timings,
                translate,
            } => {
                assert!(reflect.is_none() && dot.is_none() && !timings);
                (input, output, translate.options())
            }
            _ => panic!("not a compile"),
        }
    }

    #[test]
    fn quick_compile_options_equal_clap_defaults() {
        let (input, output, opts) = clap_compile(&["dxspv", "compile", "a.dxbc", "-o", "a.spv"]);
        assert_eq!(
            recognise(&args(&["compile", "a.dxbc", "-o", "a.spv"])),
            Some(Quick::Compile {
                input,
                output: output.unwrap()
            })
        );
        // Every field of the options, through their Debug form.
        assert_eq!(
            format!("{:?}", crate::default_translate_options()),
            format!("{opts:?}")
        );
        let (input, output, _) = clap_compile(&["dxspv", "compile", "-o", "-", "-"]);
        assert_eq!(
            recognise(&args(&["compile", "-o", "-", "-"])),
            Some(Quick::Compile {
                input,
                output: output.unwrap()
            })
        );
    }
}
