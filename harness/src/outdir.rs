//! Output written atomically: report directories ([`OutputDir`], shared by
//! `run`/`diff`/`report merge`, `mutants` and `compare`) and single files
//! ([`replace_file`], the ledger; [`create_new_file`], the fuzz failures,
//! which never replaces one).
//!
//! A directory is built in a hidden temporary sibling (`.<name>.tmp-<pid>`)
//! and renamed into place at the end. An existing directory is replaced only
//! when it is empty or a report of the same [`ReportKind`] (it holds every
//! marker file of that kind); anything else (a file, the user's own
//! directory, the other kind of report) is refused with
//! [`OutputError::NotAReport`] and left untouched. One writer at a time:
//! a writer holds an OS lock on `.<name>.lock` beside the directory (kept
//! there, released when the writer ends or its process dies); a second
//! writer is refused with [`OutputError::Busy`]. Wraps no external crate.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::ExitStatus;

/// Which report a directory holds, recognised by its marker files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReportKind {
    /// Named in messages ("a wireshape report directory").
    pub name: &'static str,
    /// Every one of these files is present in a report of this kind.
    pub markers: &'static [&'static str],
}

impl ReportKind {
    /// A `run`/`diff`/`report merge` report directory.
    pub(crate) const RUN: Self = Self {
        name: "wireshape report",
        markers: &["cases.json", "run.json"],
    };
    /// A `mutants` output directory.
    pub(crate) const MUTANTS: Self = Self {
        name: "wireshape mutants report",
        markers: &["mutants.json", "run.json"],
    };
    /// A `compare` report directory.
    pub(crate) const COMPARE: Self = Self {
        name: "wireshape compare report",
        markers: &["compare.json", "run.json"],
    };
    /// A `matrix` output directory.
    pub(crate) const MATRIX: Self = Self {
        name: "wireshape matrix",
        markers: &["matrix.json", "matrix.md"],
    };
    /// A `probe --live` output directory.
    pub(crate) const PROBE: Self = Self {
        name: "wireshape probe report",
        markers: &["probe.json", "summary.md"],
    };
}

/// An output directory or file that could not be (or may not be) written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OutputError {
    /// A file system operation failed; `op` says which (`write`, `create directory`, …).
    #[error("{}: cannot {op}: {source}", path.display())]
    Io {
        path: PathBuf,
        op: &'static str,
        #[source]
        source: io::Error,
    },
    /// The target exists but is not a report of the kind being written, so
    /// it is neither replaced nor rotated.
    #[error(
        "{}: exists and is not a {} directory (it lacks {}); refusing to replace it",
        path.display(),
        kind.name,
        kind.markers.join(" or ")
    )]
    NotAReport { path: PathBuf, kind: ReportKind },
    /// The target of a writer that adds files to a directory (and touches
    /// nothing else in it) is not a directory, or holds a file that writer
    /// did not write; `why` says which.
    #[error("{}: {why}; refusing to write into it", path.display())]
    Foreign { path: PathBuf, why: String },
    /// The target path has no final component to name the directory by.
    #[error("{}: not usable as a report directory (it has no final name)", path.display())]
    BadPath { path: PathBuf },
    /// Another process is writing the same directory (it holds `lock`).
    #[error(
        "{}: another wireshape is writing this directory (it holds {}); nothing written",
        path.display(),
        lock.display()
    )]
    Busy { path: PathBuf, lock: PathBuf },
}

impl OutputError {
    /// A refused target is a usage error (2); a failed write (full disk,
    /// permissions, a parent that is a file) is an environment failure (70).
    pub(crate) fn exit_status(&self) -> ExitStatus {
        match self {
            Self::NotAReport { .. }
            | Self::Foreign { .. }
            | Self::BadPath { .. }
            | Self::Busy { .. } => ExitStatus::Usage,
            Self::Io { .. } => ExitStatus::Internal,
        }
    }
}

/// `map_err` helper: an [`OutputError::Io`] about `path`.
pub(crate) fn io_error(path: &Path, op: &'static str) -> impl FnOnce(io::Error) -> OutputError {
    let path = path.to_owned();
    move |source| OutputError::Io { path, op, source }
}

/// What happens to an existing report when the new one takes its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rotate {
    /// Keep it as `<parent>/previous` (for `latest`) or `<parent>/<name>.previous`.
    ToPrevious,
    /// Remove it.
    Discard,
}

/// One report directory being written (see the module docs). Write into
/// [`tmp`](Self::tmp), then [`commit`](Self::commit); dropping it without
/// committing removes the temporary directory.
#[derive(Debug)]
pub(crate) struct OutputDir {
    /// The final directory.
    dir: PathBuf,
    kind: ReportKind,
    /// Where `dir`'s previous content goes ([`Rotate::ToPrevious`]).
    previous: Option<PathBuf>,
    /// The temporary sibling everything is written into.
    tmp: PathBuf,
    /// Set once `tmp` was renamed into place.
    committed: bool,
    /// The open `.<name>.lock` beside `dir`, locked while this value lives
    /// (the OS releases it when the process ends, a crash included).
    _lock: fs::File,
}

impl OutputDir {
    /// Check that `dir` may be replaced, then create the temporary sibling.
    pub(crate) fn create(
        dir: &Path,
        kind: ReportKind,
        rotate: Rotate,
    ) -> Result<Self, OutputError> {
        let name = dir
            .file_name()
            .ok_or_else(|| OutputError::BadPath {
                path: dir.to_owned(),
            })?
            .to_string_lossy()
            .into_owned();
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        let previous = (rotate == Rotate::ToPrevious).then(|| {
            if name == "latest" {
                parent.join("previous")
            } else {
                parent.join(format!("{name}.previous"))
            }
        });
        check_replaceable(dir, kind)?;
        if let Some(p) = &previous {
            check_replaceable(p, kind)?;
        }
        fs::create_dir_all(&parent).map_err(io_error(&parent, "create directory"))?;
        let lock = lock_beside(dir, &parent.join(format!(".{name}.lock")))?;
        let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        if fs::symlink_metadata(&tmp).is_ok() {
            // Left behind by a crashed run that had our pid.
            remove_path(&tmp)?;
        }
        remove_leftovers(&parent, &name);
        fs::create_dir(&tmp).map_err(io_error(&tmp, "create directory"))?;
        Ok(Self {
            dir: dir.to_owned(),
            kind,
            previous,
            tmp,
            committed: false,
            _lock: lock,
        })
    }

    /// The temporary directory to write into.
    pub(crate) fn tmp(&self) -> &Path {
        &self.tmp
    }

    /// Rename the temporary directory into place, rotating or removing the
    /// existing report (checked again: it may have changed since `create`).
    /// Returns the final directory.
    pub(crate) fn commit(mut self) -> Result<PathBuf, OutputError> {
        check_replaceable(&self.dir, self.kind)?;
        let aside = if let Some(p) = &self.previous {
            check_replaceable(p, self.kind)?;
            p.clone()
        } else {
            let name = self.tmp.file_name().map(|n| n.to_string_lossy());
            let name = name.unwrap_or_default().replacen(".tmp-", ".old-", 1);
            self.tmp.with_file_name(name)
        };
        let exists = fs::symlink_metadata(&self.dir).is_ok();
        if exists {
            if fs::symlink_metadata(&aside).is_ok() {
                remove_path(&aside)?;
            }
            fs::rename(&self.dir, &aside).map_err(io_error(&self.dir, "rotate"))?;
        }
        if let Err(source) = fs::rename(&self.tmp, &self.dir) {
            if exists {
                // Best effort: put the old report back where it was.
                let _ = fs::rename(&aside, &self.dir);
            }
            return Err(OutputError::Io {
                path: self.dir.clone(),
                op: "rename the new report into place",
                source,
            });
        }
        self.committed = true;
        if exists && self.previous.is_none() {
            // The new report is in place: a leftover hidden `.<name>.old-<pid>`
            // is no reason to fail the run (the next run removes it).
            let _ = remove_path(&aside);
        }
        Ok(self.dir.clone())
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Open and lock `lock` (created if missing, never truncated): one writer
/// per output directory at a time, across processes.
fn lock_beside(dir: &Path, lock: &Path) -> Result<fs::File, OutputError> {
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock)
        .map_err(io_error(lock, "open the lock file"))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(OutputError::Busy {
            path: dir.to_owned(),
            lock: lock.to_owned(),
        }),
        Err(fs::TryLockError::Error(source)) => Err(OutputError::Io {
            path: lock.to_owned(),
            op: "lock",
            source,
        }),
    }
}

/// Remove what earlier writers of `<parent>/<name>` left beside it: the
/// temporary directory of a run killed before it finished
/// (`.<name>.tmp-<pid>`, its partial report) and an old report set aside
/// but not removed (`.<name>.old-<pid>`). Called with the output's lock
/// held, so no live writer owns any of them; only directories of exactly
/// that name (a pid of digits) are touched (a file of that name is a
/// single-file writer's, [`temp_sibling`]). Best effort: one that cannot
/// be removed stays, and the run goes on.
fn remove_leftovers(parent: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file
            .to_str()
            .and_then(|f| f.strip_prefix('.'))
            .and_then(|f| f.strip_prefix(name))
        else {
            continue;
        };
        let pid = rest
            .strip_prefix(".tmp-")
            .or_else(|| rest.strip_prefix(".old-"));
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && pid.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// A directory may be replaced when it does not exist, is empty or holds
/// every marker file of `kind`; anything else is refused.
fn check_replaceable(dir: &Path, kind: ReportKind) -> Result<(), OutputError> {
    let Ok(meta) = fs::symlink_metadata(dir) else {
        return Ok(());
    };
    let refuse = || OutputError::NotAReport {
        path: dir.to_owned(),
        kind,
    };
    if !meta.is_dir() {
        return Err(refuse());
    }
    let mut entries = fs::read_dir(dir).map_err(io_error(dir, "read directory"))?;
    if entries.next().is_none() || kind.markers.iter().all(|m| dir.join(m).is_file()) {
        Ok(())
    } else {
        Err(refuse())
    }
}

fn remove_path(path: &Path) -> Result<(), OutputError> {
    let is_dir = fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    let result = if is_dir {
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    };
    result.map_err(io_error(path, "remove"))
}

/// The temporary sibling a file is written to first: `.<name>.tmp-<pid>`.
fn temp_sibling(path: &Path) -> Result<std::path::PathBuf, OutputError> {
    let name = path.file_name().ok_or_else(|| OutputError::BadPath {
        path: path.to_owned(),
    })?;
    Ok(path.with_file_name(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// Replace the file `path` with `bytes` atomically: write a temporary
/// sibling (`.<name>.tmp-<pid>`), then rename it over `path`. On error
/// `path` is unchanged and the temporary file is gone.
pub(crate) fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let tmp = temp_sibling(path)?;
    let written = fs::write(&tmp, bytes)
        .map_err(io_error(path, "write"))
        .and_then(|()| fs::rename(&tmp, path).map_err(io_error(path, "replace")));
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// Create the file `path` with `bytes` atomically, never replacing one:
/// write a temporary sibling (`.<name>.tmp-<pid>`), then link it to `path`
/// (a link fails when `path` exists). `Ok(false)` when `path` already
/// existed (it is left as it was); on error nothing is left behind.
pub(crate) fn create_new_file(path: &Path, bytes: &[u8]) -> Result<bool, OutputError> {
    let tmp = temp_sibling(path)?;
    fs::write(&tmp, bytes).map_err(|source| {
        let _ = fs::remove_file(&tmp);
        OutputError::Io {
            path: path.to_owned(),
            op: "write",
            source,
        }
    })?;
    let linked = match fs::hard_link(&tmp, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        // A file system without hard links: check, then rename.
        Err(_) if fs::symlink_metadata(path).is_ok() => Ok(false),
        Err(_) => fs::rename(&tmp, path)
            .map(|()| true)
            .map_err(io_error(path, "create")),
    };
    let _ = fs::remove_file(&tmp);
    linked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn write_report(dir: &Path, kind: ReportKind, rotate: Rotate, body: &str) -> PathBuf {
        let out = OutputDir::create(dir, kind, rotate).unwrap();
        for m in kind.markers {
            fs::write(out.tmp().join(m), body).unwrap();
        }
        out.commit().unwrap()
    }

    #[test]
    fn a_second_writer_of_the_same_directory_is_refused_until_the_first_is_done() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("out");
        let first = OutputDir::create(&dir, ReportKind::RUN, Rotate::Discard).unwrap();
        let err = OutputDir::create(&dir, ReportKind::RUN, Rotate::Discard).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: another wireshape is writing this directory (it holds {}); nothing written",
                dir.display(),
                root.path().join(".out.lock").display()
            )
        );
        assert_eq!(err.exit_status(), ExitStatus::Usage);
        for m in ReportKind::RUN.markers {
            fs::write(first.tmp().join(m), "one").unwrap();
        }
        first.commit().unwrap();
        // The lock went with the first writer: the next one may write.
        write_report(&dir, ReportKind::RUN, Rotate::Discard, "two");
        assert_eq!(names(root.path()), [".out.lock", "out"]);
    }

    /// A run killed before it finished leaves its temporary directory (its
    /// partial report) beside the output; the next writer removes it, and
    /// an old report set aside but not removed, and nothing else.
    #[test]
    fn the_next_writer_removes_what_killed_writers_left_and_nothing_else() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("out");
        let left = [".out.tmp-4242", ".out.old-7"];
        let kept = [
            ".out.tmp-",
            ".out.tmp-12x",
            ".out.tmpx-12",
            ".outx.tmp-5",
            "out.tmp-5",
            ".other.tmp-5",
        ];
        for name in left.iter().chain(&kept) {
            fs::create_dir(root.path().join(name)).unwrap();
            fs::write(root.path().join(name).join("cases.json"), "{}").unwrap();
        }
        // A single-file writer's temporary sibling: a file, kept.
        fs::write(root.path().join(".out.tmp-99"), "a file").unwrap();
        let out = OutputDir::create(&dir, ReportKind::RUN, Rotate::Discard).unwrap();
        let mut expected: Vec<String> = kept.iter().map(|k| (*k).to_owned()).collect();
        expected.push(".out.lock".to_owned());
        expected.push(".out.tmp-99".to_owned());
        expected.push(format!(".out.tmp-{}", std::process::id()));
        expected.sort();
        assert_eq!(names(root.path()), expected);
        drop(out);
        for name in kept {
            assert_eq!(names(&root.path().join(name)), ["cases.json"], "{name}");
        }
    }

    #[test]
    fn a_directory_holding_a_users_file_is_refused_and_kept() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("out");
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("user.txt"), "mine").unwrap();
        for kind in [ReportKind::RUN, ReportKind::MUTANTS] {
            for rotate in [Rotate::ToPrevious, Rotate::Discard] {
                let err = OutputDir::create(&dir, kind, rotate).unwrap_err();
                assert_eq!(
                    err.to_string(),
                    format!(
                        "{}: exists and is not a {} directory (it lacks {}); refusing to replace it",
                        dir.display(),
                        kind.name,
                        kind.markers.join(" or ")
                    )
                );
                assert_eq!(err.exit_status(), ExitStatus::Usage);
            }
        }
        assert_eq!(names(root.path()), ["out"]);
        assert_eq!(names(&dir), ["user.txt"]);
        assert_eq!(fs::read_to_string(dir.join("user.txt")).unwrap(), "mine");
    }

    #[test]
    fn a_report_of_the_other_kind_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("out");
        write_report(&dir, ReportKind::MUTANTS, Rotate::Discard, "m");
        let err = OutputDir::create(&dir, ReportKind::RUN, Rotate::ToPrevious).unwrap_err();
        assert!(matches!(err, OutputError::NotAReport { .. }), "{err}");
        write_report(&dir, ReportKind::MUTANTS, Rotate::Discard, "m2");
        let run = root.path().join("run");
        write_report(&run, ReportKind::RUN, Rotate::ToPrevious, "r");
        let err = OutputDir::create(&run, ReportKind::MUTANTS, Rotate::Discard).unwrap_err();
        assert!(matches!(err, OutputError::NotAReport { .. }), "{err}");
        assert_eq!(fs::read_to_string(dir.join("run.json")).unwrap(), "m2");
        assert_eq!(names(root.path()), [".out.lock", ".run.lock", "out", "run"]);
    }

    #[test]
    fn discard_replaces_a_report_of_the_same_kind_and_leaves_nothing_beside_it() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("m");
        write_report(&dir, ReportKind::MUTANTS, Rotate::Discard, "one");
        write_report(&dir, ReportKind::MUTANTS, Rotate::Discard, "two");
        assert_eq!(names(root.path()), [".m.lock", "m"]);
        assert_eq!(names(&dir), ["mutants.json", "run.json"]);
        assert_eq!(fs::read_to_string(dir.join("run.json")).unwrap(), "two");
    }

    #[test]
    fn rotation_refuses_a_previous_directory_that_is_not_a_report() {
        let root = tempfile::tempdir().unwrap();
        let latest = root.path().join("latest");
        write_report(&latest, ReportKind::RUN, Rotate::ToPrevious, "one");
        let previous = root.path().join("previous");
        fs::create_dir(&previous).unwrap();
        fs::write(previous.join("notes.txt"), "mine").unwrap();
        let err = OutputDir::create(&latest, ReportKind::RUN, Rotate::ToPrevious).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: exists and is not a wireshape report directory (it lacks cases.json or run.json); refusing to replace it",
                previous.display()
            )
        );
        assert_eq!(names(&previous), ["notes.txt"]);
        assert_eq!(names(root.path()), [".latest.lock", "latest", "previous"]);
    }

    #[test]
    fn a_directory_under_a_file_is_an_io_error_with_exit_70() {
        let root = tempfile::tempdir().unwrap();
        fs::write(root.path().join("file"), "x").unwrap();
        let dir = root.path().join("file/out");
        let err = OutputDir::create(&dir, ReportKind::MUTANTS, Rotate::Discard).unwrap_err();
        assert!(
            err.to_string().starts_with(&format!(
                "{}: cannot create directory: ",
                root.path().join("file").display()
            )),
            "{err}"
        );
        assert_eq!(err.exit_status(), ExitStatus::Internal);
        assert_eq!(names(root.path()), ["file"]);
    }

    #[test]
    fn dropping_without_commit_removes_the_temp_dir() {
        let root = tempfile::tempdir().unwrap();
        let out = OutputDir::create(&root.path().join("m"), ReportKind::MUTANTS, Rotate::Discard)
            .unwrap();
        fs::write(out.tmp().join("mutants.json"), "{}").unwrap();
        drop(out);
        // Only the (unlocked) lock file stays: no temp dir, no report.
        assert_eq!(names(root.path()), [".m.lock"]);
    }

    #[test]
    fn create_new_file_never_replaces_a_file_and_leaves_no_temp_file() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("a.json");
        assert!(create_new_file(&path, b"one").unwrap());
        assert!(!create_new_file(&path, b"two").unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "one");
        assert_eq!(names(root.path()), ["a.json"]);
        let err = create_new_file(&root.path().join("no-dir/a.json"), b"x").unwrap_err();
        assert_eq!(err.exit_status(), ExitStatus::Internal);
        assert_eq!(names(root.path()), ["a.json"]);
    }

    #[test]
    fn replace_file_swaps_the_bytes_and_leaves_no_temp_file() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("groq.toml");
        fs::write(&path, "old").unwrap();
        replace_file(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(root.path()), ["groq.toml"]);
        let err = replace_file(&root.path().join("no-dir/groq.toml"), b"x").unwrap_err();
        assert_eq!(err.exit_status(), ExitStatus::Internal);
        assert_eq!(names(root.path()), ["groq.toml"]);
    }
}
