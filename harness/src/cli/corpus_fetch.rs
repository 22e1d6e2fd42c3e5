//! `wireshape corpus fetch`: its arguments and the verb (kept apart from
//! `args` and `commands` so the verb is one file).

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};

use crate::ExitStatus;
use crate::console;
use crate::fetch::{DEFAULT_INTO, DEFAULT_MANIFEST};

#[derive(Debug, Subcommand)]
pub(crate) enum CorpusCommand {
    /// Download the files a manifest lists into a corpus directory, each verified by its sha256;
    /// a file already there with the right sha256 is kept (cached), one with other bytes is never
    /// overwritten unless --force.
    Fetch(FetchArgs),
}

#[derive(Debug, Args)]
pub(crate) struct FetchArgs {
    /// The manifest (TOML: `[[source]]` with `[[source.file]]`, or `[[file]]`; see README
    /// "Fetching the public corpora").
    #[arg(
        long,
        value_name = "FILE",
        default_value = DEFAULT_MANIFEST,
        env = "WIRESHAPE_MANIFEST"
    )]
    pub(crate) manifest: PathBuf,
    /// The corpus directory to fetch into (created when missing). Default: WIRESHAPE_CORPUS_PATH
    /// when it names one directory, else corpus/external.
    #[arg(long, value_name = "DIR")]
    pub(crate) into: Option<PathBuf>,
    /// Replace a present file whose bytes differ from the manifest's sha256 (with the verified
    /// download; without --force it is refused and left as it is, exit 2).
    #[arg(long)]
    pub(crate) force: bool,
}

impl FetchArgs {
    /// `--into`, else the one directory of `WIRESHAPE_CORPUS_PATH`, else
    /// `corpus/external`; several directories there is a usage error.
    fn into(&self) -> Result<PathBuf, crate::UsageError> {
        if let Some(dir) = &self.into {
            return Ok(dir.clone());
        }
        let dirs = crate::corpus::corpus_dirs_from_env();
        match dirs.as_slice() {
            [] => Ok(PathBuf::from(DEFAULT_INTO)),
            [one] => Ok(one.clone()),
            many => Err(crate::UsageError::AmbiguousInto(
                many.len(),
                many.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
    }
}

/// Exit 0 when every file is there and verified; 1 when a download failed
/// or did not verify (nothing written for it); 2 on a bad manifest or
/// target (before any download) or a present file with other bytes (left
/// as it is); 3 when a download timed out; 70 when a write failed.
pub(crate) fn run(a: &FetchArgs) -> Result<ExitStatus> {
    let into = a.into()?;
    let manifest = crate::fetch::load_manifest(&a.manifest)?;
    let report = crate::fetch::fetch(&manifest, &crate::fetch::Options::new(into, a.force))?;
    console::fetch_report(&report);
    Ok(report.exit_status())
}
