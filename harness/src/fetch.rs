//! `wireshape corpus fetch`: download the files a manifest lists
//! ([`manifest`]), verify each one's sha256, and write it under the target
//! directory, which is then a corpus directory for `WIRESHAPE_CORPUS_PATH`.
//!
//! Per file, in manifest order:
//! - already there with the listed sha256: **cached**, no request made;
//! - there with other bytes (or not a regular file): **refused**, kept as
//!   it is (exit 2); with `--force` a differing regular file is downloaded,
//!   verified and then **replaced** atomically;
//! - missing: downloaded (through [`crate::http`], the one HTTP client);
//!   a body whose sha256 differs from the manifest's is **failed** and
//!   nothing is written for it (exit 1), as is an HTTP error or a dropped
//!   connection (exit 1) or a timeout (exit 3); a verified body is
//!   **fetched**: written to a temporary sibling and linked into place
//!   ([`crate::outdir::create_new_file`]), so a reader never sees half a
//!   file and a file that appeared meanwhile is never replaced.
//!
//! One file's failure never stops the others; the exit status is the most
//! severe over all files.

mod manifest;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::ExitStatus;
use crate::hash::sha256_bytes_hex;
use crate::http;
use crate::outdir::{OutputError, create_new_file, io_error, replace_file};

pub(crate) use manifest::{Entry, Manifest, load as load_manifest};

/// The manifest read when `--manifest` is not given.
pub(crate) const DEFAULT_MANIFEST: &str = "corpus/fetch.toml";
/// The target directory when neither `--into` nor `WIRESHAPE_CORPUS_PATH`
/// names one (ignored by git).
pub(crate) const DEFAULT_INTO: &str = "corpus/external";

/// Files downloaded per batch: bounds the bodies held in memory at once.
const BATCH: usize = 64;

/// How a fetch runs.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// The target directory (created when missing).
    pub(crate) into: PathBuf,
    /// Replace a present file whose bytes differ (after the download verified).
    pub(crate) force: bool,
    pub(crate) policy: http::Policy,
}

impl Options {
    /// Fetch into `into`: four downloads at once, 60 s per attempt, three
    /// attempts on 429, 5xx or a dropped connection, bodies up to 256 MiB.
    pub(crate) fn new(into: PathBuf, force: bool) -> Self {
        Self {
            into,
            force,
            policy: http::Policy {
                max_body: 256 * 1024 * 1024,
                ..http::Policy::default()
            },
        }
    }
}

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Status {
    /// Downloaded, verified and written.
    Fetched,
    /// Already there with the right sha256: nothing downloaded.
    Cached,
    /// `--force`: a differing file was replaced by the verified download.
    Replaced,
    /// A file with other content (or something that is not a regular
    /// file) is in the way; it was left as it is.
    Refused(String),
    /// Not written: the download failed or did not verify, or the write failed.
    Failed { reason: String, exit: ExitStatus },
}

impl Status {
    /// The word the report line starts with.
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Self::Fetched => "fetched",
            Self::Cached => "cached",
            Self::Replaced => "replaced",
            Self::Refused(_) => "refused",
            Self::Failed { .. } => "failed",
        }
    }

    fn exit_status(&self) -> ExitStatus {
        match self {
            Self::Fetched | Self::Cached | Self::Replaced => ExitStatus::Clean,
            Self::Refused(_) => ExitStatus::Usage,
            Self::Failed { exit, .. } => *exit,
        }
    }
}

/// One file's line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileResult {
    pub(crate) entry: Entry,
    pub(crate) status: Status,
    /// Bytes verified (fetched, replaced or cached).
    pub(crate) bytes: Option<u64>,
}

/// The whole fetch, file by file in manifest order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Report {
    pub(crate) manifest: PathBuf,
    pub(crate) into: PathBuf,
    pub(crate) files: Vec<FileResult>,
}

impl Report {
    /// The most severe status over all files (clean when every file is
    /// there and verified).
    pub(crate) fn exit_status(&self) -> ExitStatus {
        self.files
            .iter()
            .fold(ExitStatus::Clean, |s, f| s.max(f.status.exit_status()))
    }

    /// How many files ended with each status word, in a fixed order.
    pub(crate) fn counts(&self) -> Vec<(&'static str, usize)> {
        ["fetched", "replaced", "cached", "refused", "failed"]
            .into_iter()
            .map(|w| {
                (
                    w,
                    self.files.iter().filter(|f| f.status.word() == w).count(),
                )
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Bytes present and verified after the fetch.
    pub(crate) fn verified_bytes(&self) -> u64 {
        self.files.iter().filter_map(|f| f.bytes).sum()
    }

    /// Files per licence (sorted by licence).
    pub(crate) fn licences(&self) -> BTreeMap<&str, usize> {
        let mut out = BTreeMap::new();
        for f in &self.files {
            *out.entry(f.entry.licence.as_str()).or_default() += 1;
        }
        out
    }
}

/// What is at a file's destination before any download.
enum Present {
    Missing,
    /// The listed bytes (their length).
    Same(u64),
    /// A regular file with other bytes (their sha256).
    Other(String),
    /// Something that cannot be verified or replaced (why).
    InTheWay(String),
}

fn inspect(dest: &Path, sha256: &str) -> Present {
    match std::fs::metadata(dest) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Present::Missing,
        Err(e) => return Present::InTheWay(format!("cannot read: {e}")),
        Ok(m) if !m.is_file() => return Present::InTheWay("is not a regular file".to_owned()),
        Ok(_) => {}
    }
    match std::fs::read(dest) {
        Ok(bytes) => {
            let actual = sha256_bytes_hex(&bytes);
            if actual == sha256 {
                Present::Same(bytes.len() as u64)
            } else {
                Present::Other(actual)
            }
        }
        Err(e) => Present::InTheWay(format!("cannot read: {e}")),
    }
}

/// Fetch every file of `manifest` into `opts.into`. Errs only when the
/// target is not a directory (nothing is done then); everything else is
/// a file's status in the report.
pub(crate) fn fetch(manifest: &Manifest, opts: &Options) -> Result<Report, OutputError> {
    if std::fs::metadata(&opts.into).is_ok_and(|m| !m.is_dir()) {
        return Err(OutputError::Foreign {
            path: opts.into.clone(),
            why: "is not a directory".to_owned(),
        });
    }
    let mut results: Vec<Option<FileResult>> = vec![None; manifest.files.len()];
    // (index, replace?) of the files to download.
    let mut wanted: Vec<(usize, bool)> = Vec::new();
    for (i, entry) in manifest.files.iter().enumerate() {
        let dest = opts.into.join(&entry.path);
        let done = |status, bytes| {
            Some(FileResult {
                entry: entry.clone(),
                status,
                bytes,
            })
        };
        match inspect(&dest, &entry.sha256) {
            Present::Missing => wanted.push((i, false)),
            Present::Same(n) => results[i] = done(Status::Cached, Some(n)),
            Present::Other(_) if opts.force => wanted.push((i, true)),
            Present::Other(actual) => {
                results[i] = done(
                    Status::Refused(format!(
                        "{} is there with sha256 {actual}, the manifest says {}; \
                         not overwritten (--force replaces it)",
                        dest.display(),
                        entry.sha256
                    )),
                    None,
                );
            }
            Present::InTheWay(why) => {
                results[i] = done(
                    Status::Refused(format!("{} {why}; left as it is", dest.display())),
                    None,
                );
            }
        }
    }
    for batch in wanted.chunks(BATCH) {
        let requests = batch
            .iter()
            .map(|&(i, _)| http::Request::get(manifest.files[i].url.clone()))
            .collect();
        let exchanges = http::send_all(requests, &opts.policy, &|_, _| {});
        for (&(i, replace), exchange) in batch.iter().zip(exchanges) {
            let entry = &manifest.files[i];
            let (status, bytes) = settle(entry, &opts.into.join(&entry.path), replace, exchange);
            results[i] = Some(FileResult {
                entry: entry.clone(),
                status,
                bytes,
            });
        }
    }
    Ok(Report {
        manifest: manifest.path.clone(),
        into: opts.into.clone(),
        files: results
            .into_iter()
            .map(|r| r.expect("every file settled"))
            .collect(),
    })
}

/// One download's outcome: verified and written, or why not.
fn settle(
    entry: &Entry,
    dest: &Path,
    replace: bool,
    exchange: http::Exchange,
) -> (Status, Option<u64>) {
    let failed = |reason: String, exit| (Status::Failed { reason, exit }, None);
    let tries = match exchange.attempts.len() {
        0 | 1 => String::new(),
        n => format!(" after {n} attempts"),
    };
    let response = match exchange.result {
        Ok(r) => r,
        Err(f) => {
            let exit = if matches!(f, http::Failure::Timeout(_)) {
                ExitStatus::Timeout
            } else {
                ExitStatus::Failures
            };
            return failed(format!("{}: {f}{tries}", entry.url), exit);
        }
    };
    if response.status != 200 {
        return failed(
            format!("{}: HTTP {}{tries}", entry.url, response.status),
            ExitStatus::Failures,
        );
    }
    let actual = sha256_bytes_hex(&response.body);
    if actual != entry.sha256 {
        return failed(
            format!(
                "{}: sha256 mismatch: expected {}, got {actual} ({} bytes); nothing written",
                entry.url,
                entry.sha256,
                response.body.len()
            ),
            ExitStatus::Failures,
        );
    }
    let bytes = Some(response.body.len() as u64);
    match write(dest, &response.body, replace) {
        Ok(Written::New) => (Status::Fetched, bytes),
        Ok(Written::Replaced) => (Status::Replaced, bytes),
        // Another writer put a file there meanwhile: judge what is there now.
        Ok(Written::Exists) => match inspect(dest, &entry.sha256) {
            Present::Same(n) => (Status::Cached, Some(n)),
            _ => (
                Status::Refused(format!(
                    "{} appeared while fetching, with other bytes; left as it is",
                    dest.display()
                )),
                None,
            ),
        },
        Err(e) => failed(e.to_string(), e.exit_status()),
    }
}

enum Written {
    New,
    Replaced,
    /// `dest` existed by the time the file was linked into place.
    Exists,
}

fn write(dest: &Path, body: &[u8], replace: bool) -> Result<Written, OutputError> {
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(io_error(parent, "create directory"))?;
    }
    if replace {
        replace_file(dest, body)?;
        Ok(Written::Replaced)
    } else if create_new_file(dest, body)? {
        Ok(Written::New)
    } else {
        Ok(Written::Exists)
    }
}

#[cfg(test)]
mod tests;
