//! How the tool talks: diagnostics in one format, like a compiler's, and progress only where
//! someone is watching.
//!
//! Every diagnostic is one line on standard error, `file: error: what` or `file: warning:
//! what` (`what` starts with where in the shader when the error knows it: the instruction,
//! token, register or part). Notes (`file: note: what`: a skipped file, a renamed output)
//! and per-file lines are for `-v`; `-q` leaves only errors. A progress counter is drawn only
//! when standard error is a terminal.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How much to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Errors only (`-q`).
    Quiet,
    /// Errors and warnings (default).
    Normal,
    /// Also notes and one line per file (`-v`).
    Verbose,
}

/// Prints diagnostics and progress.
pub struct Reporter {
    verbosity: Verbosity,
    terminal: bool,
    errors: AtomicUsize,
}

impl Reporter {
    /// A reporter printing at `verbosity`.
    pub fn new(verbosity: Verbosity) -> Self {
        Reporter {
            verbosity,
            terminal: std::io::stderr().is_terminal(),
            errors: AtomicUsize::new(0),
        }
    }

    /// `file: error: what`.
    pub fn error(&self, file: &str, what: &dyn std::fmt::Display) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        eprintln!("{file}: error: {what}");
    }

    /// `file: warning: what`, unless quiet.
    pub fn warning(&self, file: &str, what: &dyn std::fmt::Display) {
        if self.verbosity >= Verbosity::Normal {
            eprintln!("{file}: warning: {what}");
        }
    }

    /// `file: note: what`, when verbose.
    pub fn note(&self, file: &str, what: &dyn std::fmt::Display) {
        if self.verbosity >= Verbosity::Verbose {
            eprintln!("{file}: note: {what}");
        }
    }

    /// Whether per-file and summary lines are wanted.
    pub fn verbose(&self) -> bool {
        self.verbosity >= Verbosity::Verbose
    }

    /// Whether anything but errors may be printed.
    pub fn quiet(&self) -> bool {
        self.verbosity == Verbosity::Quiet
    }

    /// `[done/total]` redrawn in place, only on a terminal and not when quiet.
    pub fn progress(&self, done: usize, total: usize) {
        if self.terminal && !self.quiet() && (done % 64 == 0 || done == total) {
            eprint!("\r[{done}/{total}]");
            if done == total {
                eprintln!();
            }
        }
    }

    /// How many errors were reported.
    pub fn error_count(&self) -> usize {
        self.errors.load(Ordering::Relaxed)
    }
}
