//! No pipeline judges itself: the shaping code (`src/passes/**` and
//! `src/pipeline.rs`) never names the modules that judge its output or run
//! it (the oracles, the rules, replay, the runners, the report). Test code
//! (`tests.rs`, `*_tests.rs`, `#[cfg(test)]` items) may, and is left out.
//!
//! The scan reads the source as text: comments and string/char literals are
//! blanked first, then `#[cfg(test)]` items are cut, then every path that
//! starts at `crate::` (including `crate::{…}` groups) or at a chain of
//! `super::` is checked for a judging module as its first segment.

use std::path::{Path, PathBuf};

/// Modules above the passes: oracles and rules, the checks built on them
/// (diff, verdict), the runners and the report.
const JUDGES: &[&str] = &[
    "oracle",
    "rules",
    "replay",
    "differential",
    "mutants",
    "metamorphic",
    "report",
    "lint",
    "mock",
    "invariants",
    "diff",
    "verdict",
];

/// The source with comments removed and the contents of string, raw-string,
/// byte-string and char literals emptied (the quotes stay), so braces and
/// paths inside them are not code.
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        let prev_ident = i > 0 && ident(c[i - 1]);
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if !prev_ident && (ch == 'r' || (ch == 'b' && c.get(i + 1) == Some(&'r'))) && {
            let mut j = i + if ch == 'b' { 2 } else { 1 };
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            c.get(j) == Some(&'"')
        } {
            // raw string: r#…#"…"#…#
            i += if ch == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while c[i] == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1; // opening quote
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '"' && (0..hashes).all(|k| c.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if ch == '\'' {
            // a char literal ('x', '\n', '\u{7f}'), or a lifetime ('a)
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(ch);
                i += 1;
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

/// Index just past the bracket that closes the one at `open`.
fn matching(c: &[char], open: usize) -> usize {
    let (o, cl) = (c[open], if c[open] == '[' { ']' } else { '}' });
    let mut depth = 0;
    for (k, ch) in c.iter().enumerate().skip(open) {
        if *ch == o {
            depth += 1;
        } else if *ch == cl {
            depth -= 1;
            if depth == 0 {
                return k + 1;
            }
        }
    }
    c.len()
}

/// `code` (already [`code_only`]) without its `#[cfg(test)]` items: the
/// attribute, any attributes after it, and the item up to its `;` or its
/// closing brace.
fn without_test_items(code: &str) -> String {
    const ATTR: &str = "#[cfg(test)]";
    let c: Vec<char> = code.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        let rest: String = c[i..(i + ATTR.len()).min(c.len())].iter().collect();
        if rest != ATTR {
            out.push(c[i]);
            i += 1;
            continue;
        }
        let mut j = i + ATTR.len();
        loop {
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            if c.get(j) == Some(&'#') && c.get(j + 1) == Some(&'[') {
                j = matching(&c, j + 1);
            } else {
                break;
            }
        }
        while j < c.len() && c[j] != ';' && c[j] != '{' {
            j += 1;
        }
        i = if c.get(j) == Some(&'{') {
            matching(&c, j)
        } else {
            j + 1
        };
    }
    out
}

/// The first segment of every path that starts at `crate::` or at a
/// `super::` chain, with the text it was found in.
#[allow(clippy::many_single_char_names)]
fn roots(code: &str) -> Vec<(String, String)> {
    let c: Vec<char> = code.chars().collect();
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let word = |from: usize| -> String { c[from..].iter().take_while(|ch| ident(**ch)).collect() };
    let skip_ws = |mut k: usize| {
        while k < c.len() && c[k].is_whitespace() {
            k += 1;
        }
        k
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if i > 0 && (ident(c[i - 1]) || c[i - 1] == ':') {
            i += 1;
            continue;
        }
        let w = word(i);
        if w != "crate" && w != "super" {
            i += 1;
            continue;
        }
        // follow `super::super::…` / `crate::`
        let mut k = i;
        loop {
            let w = word(k);
            let after = skip_ws(k + w.len());
            if (w == "crate" || w == "super")
                && c.get(after) == Some(&':')
                && c.get(after + 1) == Some(&':')
            {
                k = skip_ws(after + 2);
            } else {
                break;
            }
        }
        if k == i {
            i += 1;
            continue;
        }
        let start = i;
        if c.get(k) == Some(&'{') {
            let end = matching(&c, k);
            let group: String = c[k + 1..end - 1].iter().collect();
            let mut depth = 0;
            let mut seg = String::new();
            let mut firsts = Vec::new();
            for ch in group.chars().chain(std::iter::once(',')) {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let s = seg.trim();
                        firsts.push(s.chars().take_while(|ch| ident(*ch)).collect::<String>());
                        seg.clear();
                        continue;
                    }
                    _ => {}
                }
                seg.push(ch);
            }
            let text: String = c[start..end].iter().collect();
            for f in firsts {
                out.push((f, text.clone()));
            }
            i = end;
        } else {
            let f = word(k);
            let end = k + f.len();
            let text: String = c[start..end].iter().collect();
            out.push((f, text));
            i = end.max(k + 1);
        }
    }
    out
}

/// Every judging module `src` (one file's text) names outside test code.
fn judges_named(src: &str) -> Vec<String> {
    roots(&without_test_items(&code_only(src)))
        .into_iter()
        .filter(|(first, _)| JUDGES.contains(&first.as_str()))
        .map(|(_, text)| text)
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The pipeline code: every pass file and `pipeline.rs`, test files out.
fn pipeline_files() -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("passes"), &mut files);
    files.push(src.join("pipeline.rs"));
    files.retain(|p| {
        let name = p.file_name().unwrap().to_string_lossy();
        name != "tests.rs" && !name.ends_with("_tests.rs")
    });
    files
}

#[test]
fn pipeline_code_names_no_oracle_rule_or_runner_module() {
    let files = pipeline_files();
    assert!(files.len() > 10, "{files:?}");
    let mut found = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        for text in judges_named(&src) {
            found.push(format!("{}: {text}", path.display()));
        }
    }
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn the_scan_finds_every_spelling_of_a_judging_module() {
    let cases = [
        ("use crate::oracle;", vec!["crate::oracle"]),
        ("let r = crate::oracle::check(&req);", vec!["crate::oracle"]),
        (
            "use crate::{schema::TooDeep, oracle::{self, check}};",
            vec!["crate::{schema::TooDeep, oracle::{self, check}}"],
        ),
        (
            "use crate::{\n    rules,\n    tool::Tool,\n};",
            vec!["crate::{\n    rules,\n    tool::Tool,\n}"],
        ),
        (
            "x(super::super::oracle::DEFAULT_AS_OF)",
            vec!["super::super::oracle"],
        ),
        (
            "use super::super::super::replay::oracle_tools;",
            vec!["super::super::super::replay"],
        ),
        (
            "let t = crate :: report :: write();",
            vec!["crate :: report"],
        ),
        ("fn f() { crate::mutants::plan() }", vec!["crate::mutants"]),
    ];
    for (src, want) in cases {
        assert_eq!(judges_named(src), want, "{src}");
    }
}

#[test]
fn the_scan_leaves_test_code_comments_strings_and_other_modules_out() {
    let src = r##"
//! Calls `crate::oracle::check` in its docs only.
use crate::schema::{self, TooDeep};
use super::notes::Unenforced;
/* crate::rules in a block comment /* nested */ */
const S: &str = "crate::oracle::check";
const R: &str = r#"crate::replay "quoted" {"#;
const C: char = '{';
fn f<'a>(x: &'a str) -> &'a str { let _ = '\''; x }
fn oracle_free() { crate::schema::visit(); my_crate::oracle::x(); }

#[cfg(test)]
#[path = "x_tests.rs"]
mod tests;

#[cfg(test)]
mod more {
    use crate::oracle::{self, DEFAULT_AS_OF};
    fn g() { let s = r#"{"a": {"#; crate::rules::request(); }
}

#[cfg(test)]
fn helper() { crate::differential::run(); }

fn after() { crate::tool::Tool::new(); }
"##;
    assert_eq!(judges_named(src), Vec::<String>::new());
    // The same source with one real use after the test module is caught.
    let bad = format!("{src}\nfn late() {{ crate::oracle::check(); }}\n");
    assert_eq!(judges_named(&bad), ["crate::oracle"]);
}
