//! The failures directory (`--output`, default `fuzz-failures/`): one
//! catalog per minimized failure, `<property>-<lane>-<sha>.json` (`sha`:
//! the first 12 hex digits of the sha256 of the minimized schema's compact
//! bytes) in the shared corpus format `{"tools": [tool]}`, so the
//! directory is a regression catalog that `shape`, `diff` and `run --own`
//! read back; beside each, `<same name>.txt` with one line: property,
//! lane, pipeline id and the violation's first line (and a caveat when the
//! catalog nests deeper than the loader reads, as a failure that needs a
//! deep schema can).
//!
//! The directory only ever gains files: a name already there (the same
//! minimized schema failing the same way) is left as it is, and a
//! directory holding a file this writer would not have written is refused
//! before any work ([`OutputError::Foreign`], exit 2). Each file is created
//! atomically ([`outdir::create_new_file`]).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::failure::{Failure, Property};
use crate::hash::sha256_hex;
use crate::lane::Lane;
use crate::outdir::{self, OutputError, io_error};
use crate::schema;

/// Who writes the directory, for messages.
const WRITER: &str = "wireshape fuzz";

/// Hex digits of the schema hash in a file name.
const SHA_DIGITS: usize = 12;

/// Whether `name` is a file this writer writes (or its temporary file).
fn ours(name: &str) -> bool {
    if let Some(rest) = name.strip_prefix('.') {
        // `.<file>.tmp-<pid>`, left by a run that died mid-write.
        return rest
            .rsplit_once(".tmp-")
            .is_some_and(|(file, pid)| ours(file) && pid.bytes().all(|b| b.is_ascii_digit()));
    }
    let Some(stem) = name
        .strip_suffix(".json")
        .or_else(|| name.strip_suffix(".txt"))
    else {
        return false;
    };
    let Some((key, sha)) = stem.rsplit_once('-') else {
        return false;
    };
    sha.len() == SHA_DIGITS
        && sha.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && Property::ALL.iter().any(|p| {
            Lane::ALL
                .iter()
                .any(|l| key == format!("{}-{}", p.id(), l.id()))
        })
}

/// What became of one failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Written {
    /// A new catalog (and its note), at this path.
    New(PathBuf),
    /// An earlier failure of this run minimized to the same file.
    Duplicate(PathBuf),
    /// The file was already in the directory (an earlier run's).
    AlreadyThere(PathBuf),
}

/// Writes the failures of one run into one directory.
#[derive(Debug)]
pub(crate) struct FailureWriter {
    dir: PathBuf,
    /// File names written or met by this run.
    seen: BTreeSet<String>,
}

impl FailureWriter {
    /// Check that `dir` is absent, or a directory holding only files this
    /// writer writes. Nothing is created until the first failure.
    pub(crate) fn create(dir: &Path) -> Result<Self, OutputError> {
        if let Ok(meta) = fs::symlink_metadata(dir) {
            if !meta.is_dir() {
                return Err(OutputError::Foreign {
                    path: dir.to_owned(),
                    why: "exists and is not a directory".to_owned(),
                });
            }
            let mut names: Vec<String> = fs::read_dir(dir)
                .map_err(io_error(dir, "read directory"))?
                .map(|e| {
                    e.map(|e| e.file_name().to_string_lossy().into_owned())
                        .map_err(io_error(dir, "read directory"))
                })
                .collect::<Result<_, _>>()?;
            names.sort();
            for name in names {
                let is_file = fs::symlink_metadata(dir.join(&name)).is_ok_and(|m| m.is_file());
                if !is_file || !ours(&name) {
                    return Err(OutputError::Foreign {
                        path: dir.to_owned(),
                        why: format!("holds `{name}`, which {WRITER} did not write"),
                    });
                }
            }
        }
        Ok(Self {
            dir: dir.to_owned(),
            seen: BTreeSet::new(),
        })
    }

    /// The catalog's file name for `f`.
    pub(crate) fn file_name(f: &Failure) -> String {
        let sha = sha256_hex(&schema::to_bytes(&f.minimized.input_schema));
        format!(
            "{}-{}-{}.json",
            f.property.id(),
            f.lane.id(),
            &sha[..SHA_DIGITS]
        )
    }

    /// Write `f` (found by pipeline `pipeline`): its catalog, then its note.
    pub(crate) fn write(&mut self, f: &Failure, pipeline: &str) -> Result<Written, OutputError> {
        let name = Self::file_name(f);
        let path = self.dir.join(&name);
        if !self.seen.insert(name.clone()) {
            return Ok(Written::Duplicate(path));
        }
        fs::create_dir_all(&self.dir).map_err(io_error(&self.dir, "create directory"))?;
        let mut catalog =
            serde_json::to_string_pretty(&json!({ "tools": [f.minimized] })).unwrap_or_default();
        catalog.push('\n');
        if !outdir::create_new_file(&path, catalog.as_bytes())? {
            return Ok(Written::AlreadyThere(path));
        }
        let first = f.message.lines().next().unwrap_or("");
        // A failure that needs a deep schema (an answer past the protocol
        // reader's nesting limit) can make a catalog the loader refuses.
        let loads = serde_json::from_str::<serde_json::Value>(&catalog).is_ok();
        let caveat = if loads {
            ""
        } else {
            " (this catalog nests deeper than the catalog loader reads)"
        };
        let note = format!(
            "{} {} {pipeline}: {first}{caveat}\n",
            f.property.id(),
            f.lane.id()
        );
        let note_path = self.dir.join(format!("{}.txt", &name[..name.len() - 5]));
        outdir::create_new_file(&note_path, note.as_bytes())?;
        Ok(Written::New(path))
    }
}
