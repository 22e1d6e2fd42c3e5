//! Corpus scanning: every file under the corpus directories, loaded or
//! explained.
//!
//! Owns [`corpus_dirs_from_env`] (`WIRESHAPE_CORPUS_PATH`), [`scan_corpus`] and
//! its result [`CorpusScan`]. Reading one file is `catalog`'s job.
//!
//! A scan walks each directory recursively in sorted order (byte order of the
//! file names), so the same tree always gives the same entries in the same
//! order. Every file becomes exactly one [`CorpusEntry`]:
//!
//! - `MANIFEST.json` → unusable, "corpus manifest, not a catalog";
//! - `*.json` / `*.jsonl` → loaded with format auto-detection; a load error
//!   becomes unusable with the error's text as the reason;
//! - anything else → unusable, "not a .json or .jsonl file".
//!
//! Directories named `ledger` (intended-divergence ledgers, not catalogs) are
//! skipped entirely. Symbolic links are never followed out of the scanned
//! directory: a link to a file inside it is loaded like that file, a link to a
//! directory or to anything outside is an unusable entry. A directory that
//! does not exist is one unusable entry, "no such directory".
//!
//! A loaded catalog's id is its path relative to the scanned directory,
//! without the extension, `/`-separated, with a leading `catalogs/` dropped:
//! `catalogs/bfcl/simple_python.json` → `bfcl/simple_python`.

use std::ffi::OsStr;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::catalog::{Catalog, load_catalog_bytes};
use crate::error::LoadError;

/// The environment variable naming the corpus directories.
pub(crate) const CORPUS_PATH_VAR: &str = "WIRESHAPE_CORPUS_PATH";

/// The directories in `WIRESHAPE_CORPUS_PATH` (colon-separated; empty entries
/// ignored); none when it is unset.
pub(crate) fn corpus_dirs_from_env() -> Vec<PathBuf> {
    std::env::var_os(CORPUS_PATH_VAR)
        .map(|v| parse_corpus_path(&v))
        .unwrap_or_default()
}

/// Split a corpus path list (the platform's separator: `:` on Unix), dropping
/// empty entries.
pub(crate) fn parse_corpus_path(value: &OsStr) -> Vec<PathBuf> {
    std::env::split_paths(value)
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

/// One file of a corpus scan.
#[derive(Debug)]
pub(crate) enum CorpusEntry {
    Loaded(Catalog),
    /// Not a catalog, or a catalog that failed to load; `reason` says which.
    Unusable {
        path: PathBuf,
        reason: String,
        /// The load error itself, when the file was read as a catalog and
        /// failed (`reason` is its message).
        error: Option<LoadError>,
    },
}

#[cfg(test)]
impl CorpusEntry {
    /// The file this entry is about.
    pub(crate) fn path(&self) -> &Path {
        match self {
            CorpusEntry::Loaded(c) => &c.path,
            CorpusEntry::Unusable { path, .. } => path,
        }
    }
}

/// Everything a scan found, in scan order.
#[derive(Debug, Default)]
pub(crate) struct CorpusScan {
    pub entries: Vec<CorpusEntry>,
}

impl CorpusScan {
    /// The catalogs that loaded.
    pub(crate) fn catalogs(&self) -> impl Iterator<Item = &Catalog> {
        self.entries.iter().filter_map(|e| match e {
            CorpusEntry::Loaded(c) => Some(c),
            CorpusEntry::Unusable { .. } => None,
        })
    }

    /// The files that did not load, with the reason.
    #[cfg(test)]
    pub(crate) fn unusable(&self) -> impl Iterator<Item = (&Path, &str)> {
        self.entries.iter().filter_map(|e| match e {
            CorpusEntry::Loaded(_) => None,
            CorpusEntry::Unusable { path, reason, .. } => Some((path.as_path(), reason.as_str())),
        })
    }

    /// Tools over all loaded catalogs.
    pub(crate) fn tool_count(&self) -> usize {
        self.catalogs().map(|c| c.tools.len()).sum()
    }
}

/// Scan every directory in order (see the module docs).
pub(crate) fn scan_corpus(dirs: &[PathBuf]) -> CorpusScan {
    let mut entries = Vec::new();
    scan_corpus_each(dirs, &mut |e| entries.push(e));
    CorpusScan { entries }
}

/// [`scan_corpus`], handing each entry over as it is loaded, so a caller
/// that keeps less than the whole catalog holds one catalog at a time.
pub(crate) fn scan_corpus_each(dirs: &[PathBuf], each: &mut dyn FnMut(CorpusEntry)) {
    for dir in dirs {
        match fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {
                // The root itself may be a link (a checkout's `../shared/corpus`);
                // links *inside* it must stay inside its real location.
                let real_root = fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
                walk(dir, &real_root, Path::new(""), each);
            }
            Ok(_) => unusable(each, dir.clone(), "not a directory"),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                unusable(each, dir.clone(), "no such directory");
            }
            Err(e) => unusable(each, dir.clone(), &format!("cannot read: {e}")),
        }
    }
}

fn unusable(each: &mut dyn FnMut(CorpusEntry), path: PathBuf, reason: &str) {
    each(CorpusEntry::Unusable {
        path,
        reason: reason.to_owned(),
        error: None,
    });
}

/// Walk `root/rel` (a directory), handing over one entry per file.
fn walk(root: &Path, real_root: &Path, rel: &Path, each: &mut dyn FnMut(CorpusEntry)) {
    let dir = root.join(rel);
    let mut children: Vec<fs::DirEntry> = match fs::read_dir(&dir) {
        Ok(read) => {
            let mut children = Vec::new();
            for child in read {
                match child {
                    Ok(c) => children.push(c),
                    Err(e) => {
                        unusable(each, dir.clone(), &format!("cannot read directory: {e}"));
                    }
                }
            }
            children
        }
        Err(e) => {
            unusable(each, dir, &format!("cannot read directory: {e}"));
            return;
        }
    };
    children.sort_by_key(fs::DirEntry::file_name);
    for child in children {
        let name = child.file_name();
        let child_rel = rel.join(&name);
        let path = root.join(&child_rel);
        let file_type = match child.file_type() {
            Ok(t) => t,
            Err(e) => {
                unusable(each, path, &format!("cannot read: {e}"));
                continue;
            }
        };
        if file_type.is_dir() {
            if name != "ledger" {
                walk(root, real_root, &child_rel, each);
            }
        } else if file_type.is_file() {
            each(file_entry(&path, &child_rel));
        } else if file_type.is_symlink() {
            match fs::canonicalize(&path) {
                Err(_) => unusable(each, path, "broken symbolic link"),
                Ok(target) if !target.starts_with(real_root) => unusable(
                    each,
                    path,
                    "symbolic link out of the corpus directory, not followed",
                ),
                Ok(target) if target.is_dir() => {
                    unusable(each, path, "symbolic link to a directory, not followed");
                }
                Ok(target) if target.is_file() => each(file_entry(&path, &child_rel)),
                Ok(_) => unusable(each, path, "not a regular file"),
            }
        } else {
            unusable(each, path, "not a regular file");
        }
    }
}

/// One file: skipped kinds, or loaded (format auto-detected).
fn file_entry(path: &Path, rel: &Path) -> CorpusEntry {
    let is_catalog_ext = path
        .extension()
        .and_then(OsStr::to_str)
        .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("jsonl"));
    if path.file_name() == Some(OsStr::new("MANIFEST.json")) {
        return CorpusEntry::Unusable {
            path: path.to_owned(),
            reason: "corpus manifest, not a catalog".to_owned(),
            error: None,
        };
    }
    if !is_catalog_ext {
        return CorpusEntry::Unusable {
            path: path.to_owned(),
            reason: "not a .json or .jsonl file".to_owned(),
            error: None,
        };
    }
    let loaded = fs::read(path)
        .map_err(|source| LoadError::Io {
            path: path.to_owned(),
            source,
        })
        .and_then(|bytes| load_catalog_bytes(&catalog_id(rel), path, &bytes, None));
    match loaded {
        Ok(catalog) => CorpusEntry::Loaded(catalog),
        Err(e) => CorpusEntry::Unusable {
            path: path.to_owned(),
            reason: e.to_string(),
            error: Some(e),
        },
    }
}

/// `catalogs/bfcl/simple_python.json` → `bfcl/simple_python`.
pub(crate) fn catalog_id(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    if let Some(last) = parts.last_mut()
        && let Some(stem) = Path::new(last.as_str()).file_stem()
    {
        *last = stem.to_string_lossy().into_owned();
    }
    if parts.len() > 1 && parts.first().is_some_and(|p| p == "catalogs") {
        parts.remove(0);
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Format;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn summary(scan: &CorpusScan, root: &Path) -> Vec<String> {
        scan.entries
            .iter()
            .map(|e| {
                let rel = e
                    .path()
                    .strip_prefix(root)
                    .unwrap_or(e.path())
                    .display()
                    .to_string();
                match e {
                    CorpusEntry::Loaded(c) => {
                        format!("{rel} => {} ({}, {} tools)", c.id, c.format, c.tools.len())
                    }
                    CorpusEntry::Unusable { reason, .. } => format!("{rel} !! {reason}"),
                }
            })
            .collect()
    }

    #[test]
    fn corpus_path_splits_on_colons_and_drops_empty_entries() {
        assert_eq!(
            parse_corpus_path(OsStr::new("a::b/c:")),
            [PathBuf::from("a"), PathBuf::from("b/c")]
        );
        assert!(parse_corpus_path(OsStr::new("")).is_empty());
    }

    #[test]
    fn catalog_ids_are_relative_paths_without_extension_or_catalogs_prefix() {
        assert_eq!(
            catalog_id(Path::new("catalogs/bfcl/simple_python.json")),
            "bfcl/simple_python"
        );
        assert_eq!(
            catalog_id(Path::new("jsonschemabench/Github_easy.jsonl")),
            "jsonschemabench/Github_easy"
        );
        assert_eq!(
            catalog_id(Path::new("json-schema-test-suite/tests/draft7/anyOf.json")),
            "json-schema-test-suite/tests/draft7/anyOf"
        );
        assert_eq!(catalog_id(Path::new("catalogs.json")), "catalogs");
    }

    #[test]
    fn scan_gives_every_file_one_entry_in_sorted_order() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(
            root,
            "catalogs/b/tools.json",
            r#"{"source":"s","tools":[{"name":"t","input_schema":{}}]}"#,
        );
        write(
            root,
            "catalogs/a/hist.jsonl",
            "{\"name\":\"t\",\"commit\":\"0123456789\",\"input_schema\":{}}\n",
        );
        write(root, "catalogs/a/broken.json", "{\n  \"tools\": [1,]\n}");
        write(root, "MANIFEST.json", r#"{"sources":[]}"#);
        write(root, "README.md", "# corpus\n");
        write(root, "ledger/anthropic-messages.toml", "[[divergence]]\n");
        write(root, "nested/ledger/x.json", "{}");
        write(root, "schemas/s.json", r#"{"type":"integer"}"#);

        let missing = root.join("missing");
        let scan = scan_corpus(&[root.to_owned(), missing.clone()]);
        assert_eq!(
            summary(&scan, root),
            [
                "MANIFEST.json !! corpus manifest, not a catalog".to_owned(),
                "README.md !! not a .json or .jsonl file".to_owned(),
                format!(
                    "catalogs/a/broken.json !! {}:2:15: trailing comma",
                    root.join("catalogs/a/broken.json").display()
                ),
                "catalogs/a/hist.jsonl => a/hist (jsonl, 1 tools)".to_owned(),
                "catalogs/b/tools.json => b/tools (shared-corpus, 1 tools)".to_owned(),
                "schemas/s.json => schemas/s (schema, 1 tools)".to_owned(),
                "missing !! no such directory".to_owned(),
            ]
        );
        assert_eq!(scan.tool_count(), 3);
        assert_eq!(scan.catalogs().count(), 3);
        assert_eq!(scan.unusable().count(), 4);
        let hist = scan.catalogs().find(|c| c.format == Format::Jsonl).unwrap();
        assert_eq!(hist.tools[0].name, "t@0123456");
        assert_eq!(hist.path, root.join("catalogs/a/hist.jsonl"));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_never_lead_out_of_the_corpus() {
        let outside = tempfile::tempdir().unwrap();
        write(outside.path(), "secret.json", r#"{"type":"string"}"#);
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(root, "real/x.json", r#"{"type":"string"}"#);
        std::os::unix::fs::symlink(root.join("real/x.json"), root.join("inside.json")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.json"), root.join("out.json"))
            .unwrap();
        std::os::unix::fs::symlink(root.join("real"), root.join("loop")).unwrap();
        std::os::unix::fs::symlink(root.join("gone.json"), root.join("broken.json")).unwrap();
        let scan = scan_corpus(&[root.to_owned()]);
        assert_eq!(
            summary(&scan, root),
            [
                "broken.json !! broken symbolic link",
                "inside.json => inside (schema, 1 tools)",
                "loop !! symbolic link to a directory, not followed",
                "out.json !! symbolic link out of the corpus directory, not followed",
                "real/x.json => real/x (schema, 1 tools)",
            ]
        );
    }

    /// Counts regular files (and links) the way the scan sees them.
    fn count_files(dir: &Path) -> usize {
        let mut n = 0;
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let t = entry.file_type().unwrap();
            if t.is_dir() {
                if entry.file_name() != "ledger" {
                    n += count_files(&entry.path());
                }
            } else {
                n += 1;
            }
        }
        n
    }

    #[test]
    fn shared_corpus_every_file_loads_or_has_a_reason() {
        let dirs = corpus_dirs_from_env();
        if dirs.is_empty() {
            return;
        }
        let scan = scan_corpus(&dirs);
        let expected: usize = dirs
            .iter()
            .map(|d| if d.is_dir() { count_files(d) } else { 1 })
            .sum();
        assert_eq!(
            scan.entries.len(),
            expected,
            "every file is exactly one entry"
        );
        for (path, reason) in scan.unusable() {
            assert!(!reason.is_empty(), "{} has no reason", path.display());
            // A .json/.jsonl file that is not the manifest must load.
            let is_catalog_ext = path
                .extension()
                .is_some_and(|e| e == "json" || e == "jsonl");
            assert!(
                !is_catalog_ext || path.file_name() == Some(OsStr::new("MANIFEST.json")),
                "{} did not load: {reason}",
                path.display()
            );
        }
        for catalog in scan.catalogs() {
            assert!(
                !catalog.tools.is_empty()
                    || catalog
                        .notes
                        .iter()
                        .any(|n| n.message == "catalog declares no tools"),
                "{} loaded no tools and says nothing",
                catalog.path.display()
            );
        }
        assert!(scan.tool_count() > 0);
    }
}
