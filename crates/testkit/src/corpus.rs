//! The shared corpus of real shaders (`../shared/corpus` beside the repository): its
//! manifest and its files by format.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One manifest entry (the fields tests use; see the corpus README for the rest).
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    /// Path relative to the corpus root.
    pub path: String,
    /// `dxbc`, `dxil` or `d3d9`.
    pub format: String,
    /// `vs`, `ps`, `gs`, `hs`, `ds`, `cs`, `ms`, `as` or `lib`.
    pub stage: String,
    /// `major_minor` of the shader model (`2_1` for the D3D9 2_x profiles, `3_sw`).
    pub model: String,
    /// Size in bytes.
    pub bytes: usize,
    /// Format-specific facts (`checksum`, `chunks`, `instructions`, ...).
    #[serde(default)]
    pub details: serde_json::Value,
}

impl Entry {
    /// A string field of [`Entry::details`].
    pub fn detail_str(&self, key: &str) -> Option<&str> {
        self.details.get(key)?.as_str()
    }

    /// An integer field of [`Entry::details`].
    pub fn detail_u64(&self, key: &str) -> Option<u64> {
        self.details.get(key)?.as_u64()
    }
}

/// The corpus: its root folder and manifest.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The corpus folder.
    pub root: PathBuf,
    /// Every manifest entry, in manifest order.
    pub entries: Vec<Entry>,
}

impl Corpus {
    /// The default corpus location: `../shared/corpus` beside the repository root, or
    /// `$DXSPV_CORPUS` when set.
    pub fn default_root() -> PathBuf {
        match std::env::var_os("DXSPV_CORPUS") {
            Some(p) => PathBuf::from(p),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        }
    }

    /// Opens the corpus at [`Corpus::default_root`]; prints why and returns `None` when it is
    /// absent (tests then pass, having said so).
    pub fn open() -> Option<Corpus> {
        let root = Self::default_root();
        let manifest = root.join("manifest.json");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            println!("corpus not found at {}: skipping", root.display());
            return None;
        };
        let entries: Vec<Entry> = match serde_json::from_str(&text) {
            Ok(e) => e,
            Err(e) => panic!("{}: not a corpus manifest: {e}", manifest.display()),
        };
        Some(Corpus { root, entries })
    }

    /// The entries of one format (`dxbc`, `dxil`, `d3d9`), in path order.
    pub fn of_format(&self, format: &str) -> Vec<&Entry> {
        let mut v: Vec<&Entry> = self.entries.iter().filter(|e| e.format == format).collect();
        v.sort_by(|a, b| a.path.cmp(&b.path));
        v
    }

    /// The absolute path of an entry.
    pub fn path(&self, entry: &Entry) -> PathBuf {
        self.root.join(&entry.path)
    }

    /// The bytes of an entry (panics with the path if the file cannot be read: the manifest
    /// names it, so that is a broken corpus).
    pub fn read(&self, entry: &Entry) -> Vec<u8> {
        let p = self.path(entry);
        std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }
}
