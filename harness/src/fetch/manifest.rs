//! The fetch manifest (`corpus/fetch.toml`): which files to download, from
//! where, with which sha256, under which licence, to which path.
//!
//! ```toml
//! [[source]]                        # files of one repository at one commit
//! origin = "owner/repo"             # where they come from (shown, required)
//! commit = "0123…"                  # optional: the pinned commit, which base_url must contain
//! licence = "MIT"                   # every file's licence unless it names its own
//! base_url = "https://raw.githubusercontent.com/owner/repo/0123…/"  # optional
//! into = "catalogs/repo"            # optional: prefix of every file's path
//!
//! [[source.file]]
//! url = "tools.json"                # absolute, or relative to base_url
//! sha256 = "…"                      # 64 hex digits
//! path = "tools.json"               # optional with a relative url (default: the url)
//! licence = "…"                     # optional
//!
//! [[file]]                          # a file outside any source
//! url = "https://example.org/x.json"
//! sha256 = "…"
//! path = "mine/x.json"
//! licence = "CC0-1.0"
//! ```
//!
//! A destination path is relative to the target directory, `/`-separated,
//! with no empty, `.` or `..` segment and no backslash; no two files share
//! one, and no file's path is another's directory. Every error names the
//! manifest and the line and column of the value at fault (exit 2).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::error::LoadError;

/// One file a manifest lists, its destination validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Absolute `http://` or `https://` URL.
    pub(crate) url: String,
    /// Lowercase hex sha256 of the file's bytes.
    pub(crate) sha256: String,
    /// Destination relative to the target directory, `/`-separated.
    pub(crate) path: String,
    pub(crate) licence: String,
    /// The `[[source]]`'s origin (none for a top-level `[[file]]`).
    pub(crate) origin: Option<String>,
}

/// A parsed and validated manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// The file it was read from.
    pub(crate) path: PathBuf,
    /// Every file, in manifest order (sources first, then `[[file]]`s).
    pub(crate) files: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    source: Vec<RawSource>,
    #[serde(default)]
    file: Vec<RawFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSource {
    origin: Spanned<String>,
    #[serde(default)]
    commit: Option<Spanned<String>>,
    #[serde(alias = "license")]
    licence: Spanned<String>,
    #[serde(default)]
    base_url: Option<Spanned<String>>,
    #[serde(default)]
    into: Option<Spanned<String>>,
    #[serde(default)]
    file: Vec<RawSourceFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSourceFile {
    url: Spanned<String>,
    sha256: Spanned<String>,
    #[serde(default)]
    path: Option<Spanned<String>>,
    #[serde(default, alias = "license")]
    licence: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    url: Spanned<String>,
    sha256: Spanned<String>,
    path: Spanned<String>,
    #[serde(alias = "license")]
    licence: Spanned<String>,
}

/// Read and validate the manifest at `path`.
pub(crate) fn load(path: &Path) -> Result<Manifest, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    parse(path, &text)
}

/// Validate `text`, the contents of the manifest at `path`.
pub(crate) fn parse(path: &Path, text: &str) -> Result<Manifest, LoadError> {
    let raw: RawManifest =
        toml::from_str(text).map_err(|e| LoadError::from_toml(path, text, &e))?;
    let at = |span: std::ops::Range<usize>, message: String| {
        LoadError::at_offset(path, text, span.start, message)
    };
    let mut files = Vec::new();
    // Destination → the span that named it, to point at a duplicate.
    let mut seen: BTreeMap<String, std::ops::Range<usize>> = BTreeMap::new();
    let mut add = |entry: Entry, span: std::ops::Range<usize>| -> Result<(), LoadError> {
        if let Some(first) = seen.get(&entry.path) {
            let line = line_of(text, first.start);
            return Err(at(
                span,
                format!(
                    "`{}` is listed twice (first at line {line}): each file needs its own path",
                    entry.path
                ),
            ));
        }
        seen.insert(entry.path.clone(), span);
        files.push(entry);
        Ok(())
    };
    for source in &raw.source {
        let licence =
            non_empty(&source.licence, "licence").map_err(|m| at(source.licence.span(), m))?;
        non_empty(&source.origin, "origin").map_err(|m| at(source.origin.span(), m))?;
        let base = match &source.base_url {
            Some(b) => Some(base_url(b.get_ref()).map_err(|m| at(b.span(), m))?),
            None => None,
        };
        if let Some(commit) = &source.commit {
            let c = non_empty(commit, "commit").map_err(|m| at(commit.span(), m))?;
            if let (Some(base), Some(b)) = (&base, &source.base_url)
                && !base.contains(&c)
            {
                return Err(at(
                    b.span(),
                    format!("`base_url` `{base}` does not contain the source's `commit` `{c}`"),
                ));
            }
        }
        let into = match &source.into {
            Some(i) => Some(relative_path(i.get_ref(), "into").map_err(|m| at(i.span(), m))?),
            None => None,
        };
        for f in &source.file {
            let sha256 = sha256(f.sha256.get_ref()).map_err(|m| at(f.sha256.span(), m))?;
            let relative = !is_absolute_url(f.url.get_ref());
            let url = if relative {
                let Some(base) = &base else {
                    return Err(at(
                        f.url.span(),
                        format!(
                            "`url` `{}` is relative and this [[source]] has no `base_url`",
                            f.url.get_ref()
                        ),
                    ));
                };
                if f.url.get_ref().starts_with('/') || f.url.get_ref().contains(['?', '#']) {
                    return Err(at(
                        f.url.span(),
                        format!(
                            "`url` `{}`: a relative url is a path below `base_url` (no leading `/`, `?` or `#`)",
                            f.url.get_ref()
                        ),
                    ));
                }
                format!("{base}{}", f.url.get_ref())
            } else {
                absolute_url(f.url.get_ref()).map_err(|m| at(f.url.span(), m))?
            };
            let (rel, span) = match &f.path {
                Some(p) => (
                    relative_path(p.get_ref(), "path").map_err(|m| at(p.span(), m))?,
                    p.span(),
                ),
                None if relative => (
                    relative_path(f.url.get_ref(), "path (the relative url)")
                        .map_err(|m| at(f.url.span(), m))?,
                    f.url.span(),
                ),
                None => {
                    return Err(at(
                        f.url.span(),
                        format!(
                            "`path` is missing: a file with an absolute `url` (`{}`) names its destination",
                            f.url.get_ref()
                        ),
                    ));
                }
            };
            let licence = match &f.licence {
                Some(l) => non_empty(l, "licence").map_err(|m| at(l.span(), m))?,
                None => licence.clone(),
            };
            let path = match &into {
                Some(prefix) => format!("{prefix}/{rel}"),
                None => rel,
            };
            add(
                Entry {
                    url,
                    sha256,
                    path,
                    licence,
                    origin: Some(source.origin.get_ref().clone()),
                },
                span,
            )?;
        }
    }
    for f in &raw.file {
        let entry = Entry {
            url: absolute_url(f.url.get_ref()).map_err(|m| at(f.url.span(), m))?,
            sha256: sha256(f.sha256.get_ref()).map_err(|m| at(f.sha256.span(), m))?,
            path: relative_path(f.path.get_ref(), "path").map_err(|m| at(f.path.span(), m))?,
            licence: non_empty(&f.licence, "licence").map_err(|m| at(f.licence.span(), m))?,
            origin: None,
        };
        add(entry, f.path.span())?;
    }
    check_no_file_is_a_directory(&files, &seen).map_err(|(span, m)| at(span, m))?;
    Ok(Manifest {
        path: path.to_owned(),
        files,
    })
}

/// The 1-based line of byte `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).unwrap_or(text).matches('\n').count() + 1
}

fn non_empty(value: &Spanned<String>, key: &str) -> Result<String, String> {
    let v = value.get_ref().trim();
    if v.is_empty() {
        Err(format!("`{key}` is empty"))
    } else {
        Ok(v.to_owned())
    }
}

/// 64 hex digits, returned lowercase.
fn sha256(value: &str) -> Result<String, String> {
    if value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(value.to_ascii_lowercase())
    } else {
        Err(format!(
            "`sha256` `{value}` is not a sha256 (64 hexadecimal digits)"
        ))
    }
}

fn is_absolute_url(url: &str) -> bool {
    url.contains("://")
}

/// An `http://` or `https://` URL with a host.
fn absolute_url(url: &str) -> Result<String, String> {
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    match rest {
        Some(rest)
            if !rest.is_empty() && !rest.starts_with('/') && !url.contains(char::is_whitespace) =>
        {
            Ok(url.to_owned())
        }
        Some(_) => Err(format!("`url` `{url}` has no host")),
        None => Err(format!("`url` `{url}` is not an http:// or https:// url")),
    }
}

/// A `base_url`: an absolute URL ending with `/`.
fn base_url(url: &str) -> Result<String, String> {
    let url = absolute_url(url).map_err(|m| m.replacen("`url`", "`base_url`", 1))?;
    if url.ends_with('/') {
        Ok(url)
    } else {
        Err(format!(
            "`base_url` `{url}` does not end with `/` (relative urls are appended to it)"
        ))
    }
}

/// A destination (or `into` prefix) inside the target directory.
fn relative_path(path: &str, key: &str) -> Result<String, String> {
    let bad = |why: &str| Err(format!("`{key}` `{path}` {why}"));
    if path.is_empty() {
        return bad("is empty");
    }
    if path.starts_with('/') || Path::new(path).is_absolute() {
        return bad("is absolute: it must be relative to the target directory");
    }
    if path.contains('\\') || path.contains('\0') {
        return bad("contains a backslash or NUL (use `/` between segments)");
    }
    for segment in path.split('/') {
        match segment {
            "" => return bad("has an empty segment"),
            "." => return bad("has a `.` segment"),
            ".." => return bad("leaves the target directory (`..`)"),
            _ => {}
        }
    }
    Ok(path.to_owned())
}

/// No destination may be the directory of another (`a` and `a/b`).
fn check_no_file_is_a_directory(
    files: &[Entry],
    seen: &BTreeMap<String, std::ops::Range<usize>>,
) -> Result<(), (std::ops::Range<usize>, String)> {
    for f in files {
        let mut dir = f.path.as_str();
        while let Some(i) = dir.rfind('/') {
            dir = &dir[..i];
            if seen.contains_key(dir) {
                return Err((
                    seen[dir].clone(),
                    format!("`{dir}` is a file here and the directory of `{}`", f.path),
                ));
            }
        }
    }
    Ok(())
}
