//! The manifest's validation (every error at its line and column), the
//! project's own manifest, and the fetch decisions that need no network
//! (cached, refused); downloads are tested against a local server in
//! `tests/corpus_fetch.rs`.

use std::path::Path;

use super::manifest::parse;
use super::*;
use crate::error::LoadError;

const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B: &str = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";

fn err(text: &str) -> String {
    parse(Path::new("fetch.toml"), text)
        .unwrap_err()
        .to_string()
}

#[test]
fn sources_and_flat_files_give_urls_paths_and_licences_in_manifest_order() {
    let text = format!(
        r#"
[[source]]
origin = "o/r"
commit = "c0ffee"
licence = "MIT"
base_url = "https://raw.githubusercontent.com/o/r/c0ffee/"
into = "catalogs/r"

[[source.file]]
url = "pkg/tools.json"
sha256 = "{A}"

[[source.file]]
url = "https://mirror.example/x.json"
sha256 = "{B}"
path = "x.json"
license = "CC0-1.0"

[[file]]
url = "http://127.0.0.1:8080/mine.json"
sha256 = "{A}"
path = "mine/mine.json"
licence = "proprietary"
"#
    );
    let m = parse(Path::new("fetch.toml"), &text).unwrap();
    let got: Vec<(&str, &str, &str, &str, Option<&str>)> = m
        .files
        .iter()
        .map(|e| {
            (
                e.url.as_str(),
                e.path.as_str(),
                e.sha256.as_str(),
                e.licence.as_str(),
                e.origin.as_deref(),
            )
        })
        .collect();
    let b = B.to_ascii_lowercase();
    assert_eq!(
        got,
        [
            (
                "https://raw.githubusercontent.com/o/r/c0ffee/pkg/tools.json",
                "catalogs/r/pkg/tools.json",
                A,
                "MIT",
                Some("o/r")
            ),
            (
                "https://mirror.example/x.json",
                "catalogs/r/x.json",
                b.as_str(),
                "CC0-1.0",
                Some("o/r")
            ),
            (
                "http://127.0.0.1:8080/mine.json",
                "mine/mine.json",
                A,
                "proprietary",
                None
            ),
        ]
    );
    assert_eq!(m.path, Path::new("fetch.toml"));
}

#[test]
fn an_empty_manifest_lists_no_files() {
    assert!(
        parse(Path::new("f.toml"), "# nothing yet\n")
            .unwrap()
            .files
            .is_empty()
    );
}

#[test]
fn toml_and_shape_errors_name_the_file_line_and_column() {
    assert_eq!(
        err("[[file]]\nurl = \"https://x/a\"\nsha256 = \n"),
        "fetch.toml:3:10: invalid string\nexpected `\"`, `'`"
    );
    assert_eq!(
        err(&format!(
            "[[file]]\nurl = \"https://x/a\"\nsha256 = \"{A}\"\npath = \"a\"\nlicence = \"MIT\"\nsize = 3\n"
        )),
        "fetch.toml:6:1: unknown field `size`, expected one of `url`, `sha256`, `path`, `licence`, `license`"
    );
    assert!(
        err(&format!(
            "[[file]]\nurl = \"https://x/a\"\nsha256 = \"{A}\"\npath = \"a\"\n"
        ))
        .starts_with("fetch.toml:1:1: missing field `licence`"),
    );
}

#[test]
fn a_destination_outside_the_target_directory_is_refused_at_its_position() {
    let file = |path: &str| {
        format!(
            "[[file]]\nurl = \"https://x/a\"\nsha256 = \"{A}\"\npath = \"{path}\"\nlicence = \"MIT\"\n"
        )
    };
    for (path, why) in [
        ("../etc/passwd", "leaves the target directory (`..`)"),
        ("a/../../b", "leaves the target directory (`..`)"),
        (
            "/etc/passwd",
            "is absolute: it must be relative to the target directory",
        ),
        ("a//b", "has an empty segment"),
        ("./a", "has a `.` segment"),
        (
            "a\\\\b",
            "contains a backslash or NUL (use `/` between segments)",
        ),
        ("", "is empty"),
    ] {
        let shown = path.replace("\\\\", "\\");
        assert_eq!(
            err(&file(path)),
            format!("fetch.toml:4:8: `path` `{shown}` {why}")
        );
    }
    // `into` and a defaulted path (the relative url) are checked the same way.
    let source = |into: &str, url: &str| {
        format!(
            "[[source]]\norigin = \"o/r\"\nlicence = \"MIT\"\nbase_url = \"https://x/\"\ninto = \"{into}\"\n\n[[source.file]]\nurl = \"{url}\"\nsha256 = \"{A}\"\n"
        )
    };
    assert_eq!(
        err(&source("..", "a.json")),
        "fetch.toml:5:8: `into` `..` leaves the target directory (`..`)"
    );
    assert_eq!(
        err(&source("c", "x/../../a.json")),
        "fetch.toml:8:7: `path (the relative url)` `x/../../a.json` leaves the target directory (`..`)"
    );
}

#[test]
fn urls_hashes_and_licences_are_checked() {
    let file = |url: &str, sha: &str, licence: &str| {
        format!(
            "[[file]]\nurl = \"{url}\"\nsha256 = \"{sha}\"\npath = \"a\"\nlicence = \"{licence}\"\n"
        )
    };
    assert_eq!(
        err(&file("file:///etc/passwd", A, "MIT")),
        "fetch.toml:2:7: `url` `file:///etc/passwd` is not an http:// or https:// url"
    );
    assert_eq!(
        err(&file("https:///x", A, "MIT")),
        "fetch.toml:2:7: `url` `https:///x` has no host"
    );
    assert_eq!(
        err(&file("x.json", A, "MIT")),
        "fetch.toml:2:7: `url` `x.json` is not an http:// or https:// url"
    );
    assert_eq!(
        err(&file("https://x/a", "abc", "MIT")),
        "fetch.toml:3:10: `sha256` `abc` is not a sha256 (64 hexadecimal digits)"
    );
    assert_eq!(
        err(&file("https://x/a", A, " ")),
        "fetch.toml:5:11: `licence` is empty"
    );
    let source = |base: &str, url: &str| {
        let base = if base.is_empty() {
            String::new()
        } else {
            format!("base_url = \"{base}\"\n")
        };
        format!(
            "[[source]]\norigin = \"o/r\"\nlicence = \"MIT\"\n{base}\n[[source.file]]\nurl = \"{url}\"\nsha256 = \"{A}\"\n"
        )
    };
    assert_eq!(
        err(&source("", "a.json")),
        "fetch.toml:6:7: `url` `a.json` is relative and this [[source]] has no `base_url`"
    );
    assert_eq!(
        err(&source("https://x/base", "a.json")),
        "fetch.toml:4:12: `base_url` `https://x/base` does not end with `/` (relative urls are appended to it)"
    );
    assert_eq!(
        err(&source("https://x/", "/a.json")),
        "fetch.toml:7:7: `url` `/a.json`: a relative url is a path below `base_url` (no leading `/`, `?` or `#`)"
    );
    assert_eq!(
        err(&source("https://x/", "https://y/a.json")),
        "fetch.toml:7:7: `path` is missing: a file with an absolute `url` (`https://y/a.json`) names its destination"
    );
}

#[test]
fn two_files_with_one_destination_or_a_file_under_a_file_are_refused() {
    let text = format!(
        "[[file]]\nurl = \"https://x/a\"\nsha256 = \"{A}\"\npath = \"d/a.json\"\nlicence = \"MIT\"\n\n\
         [[file]]\nurl = \"https://x/b\"\nsha256 = \"{A}\"\npath = \"d/a.json\"\nlicence = \"MIT\"\n"
    );
    assert_eq!(
        err(&text),
        "fetch.toml:10:8: `d/a.json` is listed twice (first at line 4): each file needs its own path"
    );
    let text = format!(
        "[[file]]\nurl = \"https://x/a\"\nsha256 = \"{A}\"\npath = \"d/a.json/inner\"\nlicence = \"MIT\"\n\n\
         [[file]]\nurl = \"https://x/b\"\nsha256 = \"{A}\"\npath = \"d/a.json\"\nlicence = \"MIT\"\n"
    );
    assert_eq!(
        err(&text),
        "fetch.toml:10:8: `d/a.json` is a file here and the directory of `d/a.json/inner`"
    );
}

#[test]
fn a_missing_manifest_is_an_input_error_naming_it() {
    let e = load_manifest(Path::new("no/such/fetch.toml")).unwrap_err();
    assert!(matches!(e, LoadError::Io { .. }));
    assert!(
        e.to_string()
            .starts_with("no/such/fetch.toml: cannot read: ")
    );
    assert_eq!(e.exit_status(), ExitStatus::Usage);
}

/// The committed manifest parses, pins every url to a commit of its
/// source's repository on raw.githubusercontent.com, and lays files out
/// under the shared corpus's directory names.
#[test]
fn the_projects_manifest_pins_every_url_to_a_commit() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/fetch.toml");
    let m = load_manifest(&path).unwrap();
    assert!(m.files.len() > 400, "{} files", m.files.len());
    for f in &m.files {
        let origin = f.origin.as_deref().expect("every file under a [[source]]");
        let prefix = format!("https://raw.githubusercontent.com/{origin}/");
        let rest = f
            .url
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{}", f.url));
        let commit = rest.split('/').next().unwrap();
        assert!(
            commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
            "{} is not pinned to a commit",
            f.url
        );
        assert!(
            ["json-schema-test-suite/", "schemas/", "catalogs/"]
                .iter()
                .any(|p| f.path.starts_with(p)),
            "{}",
            f.path
        );
    }
}

fn entry(path: &str, bytes: &[u8]) -> Entry {
    Entry {
        // Never requested: these tests only see files already there.
        url: "http://127.0.0.1:9/unused".to_owned(),
        sha256: sha256_bytes_hex(bytes),
        path: path.to_owned(),
        licence: "MIT".to_owned(),
        origin: None,
    }
}

#[test]
fn files_already_there_are_cached_or_refused_without_a_request() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a")).unwrap();
    std::fs::write(dir.path().join("a/good.json"), b"{}").unwrap();
    std::fs::write(dir.path().join("a/mine.json"), b"[1]").unwrap();
    std::fs::create_dir_all(dir.path().join("a/dir.json")).unwrap();
    let manifest = Manifest {
        path: "m.toml".into(),
        files: vec![
            entry("a/good.json", b"{}"),
            entry("a/mine.json", b"[]"),
            entry("a/dir.json", b"[]"),
        ],
    };
    let report = fetch(&manifest, &Options::new(dir.path().to_owned(), false)).unwrap();
    let got: Vec<(&str, &Status)> = report
        .files
        .iter()
        .map(|f| (f.entry.path.as_str(), &f.status))
        .collect();
    let mine = dir.path().join("a/mine.json");
    assert_eq!(
        got,
        [
            ("a/good.json", &Status::Cached),
            (
                "a/mine.json",
                &Status::Refused(format!(
                    "{} is there with sha256 {}, the manifest says {}; not overwritten (--force replaces it)",
                    mine.display(),
                    sha256_bytes_hex(b"[1]"),
                    sha256_bytes_hex(b"[]")
                ))
            ),
            (
                "a/dir.json",
                &Status::Refused(format!(
                    "{} is not a regular file; left as it is",
                    dir.path().join("a/dir.json").display()
                ))
            ),
        ]
    );
    assert_eq!(report.exit_status(), ExitStatus::Usage);
    assert_eq!(report.counts(), [("cached", 1), ("refused", 2)]);
    assert_eq!(report.verified_bytes(), 2);
    assert_eq!(std::fs::read(&mine).unwrap(), b"[1]");
}

#[test]
fn a_target_that_is_a_file_is_refused_before_anything() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("corpus");
    std::fs::write(&file, "x").unwrap();
    let manifest = Manifest {
        path: "m.toml".into(),
        files: vec![entry("a.json", b"{}")],
    };
    let e = fetch(&manifest, &Options::new(file.clone(), false)).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: is not a directory; refusing to write into it",
            file.display()
        )
    );
    assert_eq!(e.exit_status(), ExitStatus::Usage);
}

#[test]
fn the_exit_status_is_the_most_severe_over_the_files() {
    let with = |statuses: Vec<Status>| Report {
        manifest: "m".into(),
        into: "d".into(),
        files: statuses
            .into_iter()
            .map(|status| FileResult {
                entry: entry("a", b""),
                status,
                bytes: None,
            })
            .collect(),
    };
    let failed = |exit| Status::Failed {
        reason: String::new(),
        exit,
    };
    assert_eq!(with(vec![]).exit_status(), ExitStatus::Clean);
    assert_eq!(
        with(vec![Status::Cached, Status::Fetched, Status::Replaced]).exit_status(),
        ExitStatus::Clean
    );
    assert_eq!(
        with(vec![Status::Cached, failed(ExitStatus::Failures)]).exit_status(),
        ExitStatus::Failures
    );
    assert_eq!(
        with(vec![
            failed(ExitStatus::Failures),
            Status::Refused(String::new())
        ])
        .exit_status(),
        ExitStatus::Usage
    );
    assert_eq!(
        with(vec![
            Status::Refused(String::new()),
            failed(ExitStatus::Timeout)
        ])
        .exit_status(),
        ExitStatus::Timeout
    );
}

#[test]
fn a_base_url_must_contain_the_pinned_commit() {
    let text = format!(
        "[[source]]\norigin = \"o/r\"\ncommit = \"c0ffee\"\nlicence = \"MIT\"\nbase_url = \"https://x/o/r/main/\"\nfile = [{{ url = \"a.json\", sha256 = \"{A}\" }}]\n"
    );
    assert_eq!(
        err(&text),
        "fetch.toml:5:12: `base_url` `https://x/o/r/main/` does not contain the source's `commit` `c0ffee`"
    );
}
