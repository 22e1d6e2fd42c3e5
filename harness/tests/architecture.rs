//! The module map (`ARCHITECTURE.md`) kept true: every module of
//! `harness/src` is listed with its layer, imports point down (or across a
//! layer), there is no import circle between modules or between files, pass
//! code names nothing of the oracle or the runners, and no non-test source
//! file is over 1,000 lines.
//!
//! Imports are read from the source text: every `use` item (braces
//! expanded) and every `crate::`/`super::` path, resolved to the longest
//! module path that exists. Test code (`tests.rs`, `*_tests.rs`,
//! `#[cfg(test)] mod … { … }` blocks) is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// The source without comments, string contents and `#[cfg(test)]` module
/// blocks.
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("r#\"") {
            let end = text[i + 3..].find("\"#").map_or(b.len(), |e| i + 3 + e + 2);
            out.push_str("\"\"");
            i = end;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i += 1;
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('{', '\'', '\n'); lifetimes are left alone.
            let close = text[i + 2..].find('\'').map_or(b.len(), |e| i + 2 + e + 1);
            out.push_str("' '");
            i = close;
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    // Drop `#[cfg(test)]` items that are module blocks.
    let mut code = out;
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = &code[at..];
        let Some(open) = rest.find('{') else { break };
        let semi = rest.find(';').unwrap_or(usize::MAX);
        let head = &rest[..open.min(semi)];
        if semi < open || !head.contains("mod ") {
            // `#[cfg(test)] mod x;` or a non-module item: drop the attribute only.
            code.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        }
        let mut depth = 0usize;
        let mut end = code.len();
        for (k, c) in code[at + open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(at..end, "");
    }
    code
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
        let code = code_of(&std::fs::read_to_string(path).unwrap());
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
            if word.starts_with("crate::") || word.starts_with("super::") {
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
fn passes_name_nothing_of_the_oracle_or_the_runners() {
    let layers = map();
    let bad: Vec<String> = arrows(&modules())
        .into_iter()
        .filter(|(a, b)| top(a) == "passes" && layers[top(b)] > layers["passes"])
        .map(|(a, b)| format!("{a} → {b}"))
        .collect();
    assert_eq!(bad, Vec::<String>::new());
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
    let code = code_of(
        "use crate::x; // crate::y\nlet s = \"crate::z {\";\n#[cfg(test)]\nmod tests {\n use crate::w; fn f() { }\n}\nfn g() {}\n",
    );
    assert!(code.contains("crate::x"));
    assert!(!code.contains("crate::y") && !code.contains("crate::z") && !code.contains("crate::w"));
    assert!(code.contains("fn g()"));
}
