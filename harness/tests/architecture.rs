//! The module map (`ARCHITECTURE.md`) kept true, and no pipeline judging
//! itself:
//! - every module of `harness/src` is listed with its layer; imports point
//!   down (or across a layer); there is no import circle between modules or
//!   between files; no non-test source file is over 1,000 lines;
//! - the shaping code (`src/passes/**` and `src/pipeline.rs`) never names the
//!   modules that judge its output or run it (the oracles, the rules,
//!   replay, the runners, the report).
//!
//! Test code (`tests.rs`, `*_tests.rs`, `#[cfg(test)]` items) may, and is
//! left out. The scan reads the source as text: comments and string/char
//! literals are blanked first, then `#[cfg(test)]` items are cut. An import
//! is every `use` item (braces expanded) and every `crate::`/`super::` path,
//! resolved to the longest module path that exists; the judging check reads
//! the first segment of every path that starts at `crate::` (including
//! `crate::{…}` groups) or at a chain of `super::`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Modules above the passes: oracles and rules, the checks built on them
/// (diff, verdict), the runners and the report.
const JUDGES: &[&str] = &[
    "oracle",
    "rules",
    "replay",
    "differential",
    "compare",
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

// ---------------------------------------------------------------- the map

const MAX_LINES: usize = 1_000;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Module path (`passes::openai::repair`; `lib`, `main` for the roots) →
/// its file.
fn modules() -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&src(), &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(src()).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.len() > 1 && parts.last().is_some_and(|l| l == "mod") {
                parts.pop();
            }
            (parts.join("::"), p)
        })
        .collect()
}

fn is_test_file(path: &Path) -> bool {
    let name = path.file_stem().unwrap().to_string_lossy();
    name == "tests" || name.ends_with("_tests")
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(item: &str) -> Vec<String> {
    // `x as y` → `x` (the alias names nothing), then no whitespace.
    let words: Vec<&str> = item.split_whitespace().collect();
    let mut kept = String::new();
    let mut k = 0;
    while k < words.len() {
        if words[k] == "as" {
            // Keep what follows the alias (`f}},` → `}},`).
            if let Some(alias) = words.get(k + 1) {
                kept.push_str(alias.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_'));
            }
            k += 2;
            continue;
        }
        kept.push_str(words[k]);
        k += 1;
    }
    let item = kept;
    let Some(open) = item.find('{') else {
        return vec![item];
    };
    let prefix = &item[..open];
    let inner = &item[open + 1..item.len() - 1];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{prefix}{p}")))
        .collect()
}

/// The module a path names, seen from module `from`.
fn resolve(path: &str, from: &str, mods: &BTreeMap<String, PathBuf>) -> Option<String> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let base: Vec<&str> = if from == "lib" || from == "main" {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    let mut full: Vec<&str> = Vec::new();
    let mut rest = &segs[..];
    match segs.first() {
        Some(&"crate") => rest = &segs[1..],
        Some(&"super" | &"self") => {
            full.clone_from(&base);
            while let Some(&s) = rest.first() {
                match s {
                    "super" => {
                        full.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A path relative to the current module (`use child::X`).
            let mut child = base.clone();
            child.push(first);
            if !mods.contains_key(&child.join("::")) {
                return None;
            }
            full.clone_from(&base);
        }
        None => return None,
    }
    full.extend_from_slice(rest);
    (1..=full.len())
        .rev()
        .map(|k| full[..k].join("::"))
        .find(|m| mods.contains_key(m))
}

/// Every arrow `from → to` between modules (file level), test code left out.
fn arrows(mods: &BTreeMap<String, PathBuf>) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (m, path) in mods {
        if is_test_file(path) {
            continue;
        }
        let code = without_test_items(&code_only(&std::fs::read_to_string(path).unwrap()));
        let mut paths: Vec<String> = Vec::new();
        let mut rest = code.as_str();
        while let Some(at) = rest.find("use ") {
            let before = rest[..at].chars().last();
            rest = &rest[at + 4..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let end = rest.find(';').unwrap_or(rest.len());
            paths.extend(expand(&rest[..end]));
            rest = &rest[end..];
        }
        for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')) {
            // (`super::{a, b}` is a group: the `use` reading above has it.)
            if (word.starts_with("crate::") || word.starts_with("super::")) && !word.ends_with("::")
            {
                paths.push(word.to_owned());
            }
        }
        for p in paths {
            if let Some(to) = resolve(&p, m, mods)
                && to != *m
            {
                out.insert((m.clone(), to));
            }
        }
    }
    out
}

/// The top-level module a module belongs to (`passes::openai` → `passes`).
fn top(m: &str) -> &str {
    m.split("::").next().unwrap()
}

/// `(layer, module)` rows of the module map in ARCHITECTURE.md.
fn map() -> BTreeMap<String, usize> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ARCHITECTURE.md"))
            .unwrap();
    text.lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let layer = cells.get(1)?.parse().ok()?;
            let module = cells.get(2)?.trim_matches('`');
            Some((module.to_owned(), layer))
        })
        .collect()
}

/// The circles of a graph (strongly connected components of two or more).
fn circles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for (a, b) in edges {
                if *a == n && seen.insert(b.clone()) {
                    todo.push(b.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> = nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for n in &nodes {
        if !reach[n].contains(*n) || out.iter().any(|c| c.contains(n)) {
            continue;
        }
        let circle: Vec<String> = nodes
            .iter()
            .filter(|m| reach[n].contains(**m) && reach[**m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        out.push(circle);
    }
    out
}

#[test]
fn every_module_is_on_the_map_and_every_row_is_a_module() {
    let mods = modules();
    let tops: BTreeSet<String> = mods
        .iter()
        .filter(|(m, p)| !is_test_file(p) && *m != "snapshots")
        .map(|(m, _)| top(m).to_owned())
        .collect();
    let listed: BTreeSet<String> = map().into_keys().collect();
    assert_eq!(
        tops.difference(&listed).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "modules missing from ARCHITECTURE.md"
    );
    assert_eq!(
        listed.difference(&tops).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "rows of ARCHITECTURE.md that are no module"
    );
}

#[test]
fn imports_point_down_the_layers() {
    let layers = map();
    let arrows = arrows(&modules());
    let between: BTreeSet<(&str, &str)> = arrows
        .iter()
        .map(|(a, b)| (top(a), top(b)))
        .filter(|(a, b)| a != b)
        .collect();
    let up: Vec<String> = between
        .iter()
        .filter(|(a, b)| layers[*a] < layers[*b])
        .map(|(a, b)| format!("{a} (layer {}) → {b} (layer {})", layers[*a], layers[*b]))
        .collect();
    assert!(
        between.len() > 100,
        "the import reader found too few arrows"
    );
    assert_eq!(up, Vec::<String>::new(), "imports pointing up");
}

#[test]
fn no_import_circle_between_modules_or_files() {
    let arrows = arrows(&modules());
    let between: BTreeSet<(String, String)> = arrows
        .iter()
        .map(|(a, b)| (top(a).to_owned(), top(b).to_owned()))
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        circles(&between),
        Vec::<Vec<String>>::new(),
        "module circles"
    );
    assert_eq!(circles(&arrows), Vec::<Vec<String>>::new(), "file circles");
}

#[test]
fn no_source_file_is_over_a_thousand_lines() {
    let long: Vec<String> = modules()
        .values()
        .filter(|p| !is_test_file(p))
        .filter_map(|p| {
            let n = std::fs::read_to_string(p).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n}", p.strip_prefix(src()).unwrap().display()))
        })
        .collect();
    assert_eq!(long, Vec::<String>::new(), "files over {MAX_LINES} lines");
}

#[test]
fn the_import_reader_reads_braces_paths_and_test_blocks() {
    assert_eq!(
        expand("crate::a::{b, c::{d, e as f}}"),
        ["crate::a::b", "crate::a::c::d", "crate::a::c::e"]
    );
    let code = without_test_items(&code_only(
        "use crate::x; // crate::y\nlet s = \"crate::z {\";\n#[cfg(test)]\nmod tests {\n use crate::w; fn f() { }\n}\nfn g() {}\n",
    ));
    assert!(code.contains("crate::x"));
    assert!(!code.contains("crate::y") && !code.contains("crate::z") && !code.contains("crate::w"));
    assert!(code.contains("fn g()"));
}
