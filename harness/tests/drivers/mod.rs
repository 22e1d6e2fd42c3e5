//! Test drivers for external pipelines, standard library only: an echo
//! driver (protocol overhead: it answers each schema unchanged) and a fault
//! driver (an echo driver that misbehaves in one chosen way). A test or
//! benchmark binary runs itself as the driver: `<exe> --wireshape-driver
//! MODE`, checked first thing in its `main` ([`serve_if_asked`]).
//!
//! Modes:
//! - `echo`: announce every lane, answer each schema unchanged;
//! - `fault:<kind>:<tool>`: like `echo`, but on a request for the tool named
//!   `<tool>`: `crash` (exit 3 after a line on stderr), `hang` (never
//!   answer), `garbage` (a line that is not JSON), `wrong-seq` (seq + 1000),
//!   `huge` (a 100 MB line), `stderr-flood` (5 MB on stderr, then a correct
//!   answer), `raise` (an `errored` answer, as a peer that raised);
//! - `raise-on-key:<keyword>`: like `echo`, but a schema holding an object
//!   member named `<keyword>` anywhere (its text holds `"<keyword>":`) gets
//!   an `errored` answer, as a peer that raised on it;
//! - `slow-start:<ms>`: wait that long before answering `start`;
//! - `no-start`: exit 1 at once, with a line on stderr;
//! - `bad-version`: answer `start` with protocol version 2.
#![allow(dead_code, clippy::print_stderr)]

use std::io::{BufRead, Write};
use std::time::Duration;

/// The lanes the drivers announce (each id its own wire).
const LANES: &[&str] = &[
    "anthropic-compatible",
    "anthropic-messages",
    "bedrock-converse",
    "cerebras",
    "deepseek-chat",
    "deepseek-strict",
    "gemini-jsonschema",
    "gemini-openapi",
    "groq",
    "mistral",
    "moonshot",
    "ollama",
    "openai-chat",
    "openai-responses",
    "openai-strict",
    "xai",
];

/// The command line that runs the current executable as driver `mode`.
pub(crate) fn command_line(mode: &str) -> String {
    let exe = std::env::current_exe().expect("current exe");
    format!("'{}' --wireshape-driver {mode}", exe.display())
}

/// If this process was started as a driver, serve and exit.
pub(crate) fn serve_if_asked() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--wireshape-driver") {
        let code = serve(args.get(2).map_or("echo", String::as_str));
        std::process::exit(code);
    }
}

/// Serve as driver `mode` until `stop` or the end of input; the exit code.
pub(crate) fn serve(mode: &str) -> i32 {
    let mut parts = mode.splitn(3, ':');
    let (kind, arg, tool) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut line = String::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        if input.read_line(&mut line).unwrap_or(0) == 0 {
            return 0;
        }
        let top = fields(line.trim());
        let get = |k: &str| top.iter().find(|(key, _)| key == k).map(|(_, v)| *v);
        match get("cmd").map(unquote).as_deref() {
            Some("start") => {
                match kind {
                    "no-start" => {
                        eprintln!("fault driver: cannot start (as asked)");
                        return 1;
                    }
                    "slow-start" => {
                        std::thread::sleep(Duration::from_millis(arg.parse().unwrap_or(0)));
                    }
                    _ => {}
                }
                let version = if kind == "bad-version" { 2 } else { 1 };
                let lanes: Vec<String> = LANES
                    .iter()
                    .map(|l| format!("\"{l}\":{{\"wire\":\"{l}\"}}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "{{\"version\":{version},\"implementation\":{{\"name\":\"test-driver\",\"language\":\"rust\",\"lanes\":{{{}}}}}}}",
                    lanes.join(",")
                );
            }
            Some("shape") => {
                let seq = get("seq").unwrap_or("0");
                let schema = get("schema").unwrap_or("{}");
                let name = get("tool")
                    .map(fields)
                    .and_then(|f| f.iter().find(|(k, _)| k == "name").map(|(_, v)| unquote(v)))
                    .unwrap_or_default();
                if kind == "raise-on-key" && has_member(schema, arg) {
                    let _ = writeln!(
                        out,
                        "{{\"seq\":{seq},\"errored\":true,\"context\":{{\"message\":\"KeyError: {arg} is not supported\"}}}}"
                    );
                } else if kind == "fault" && name == tool {
                    match arg {
                        "crash" => {
                            eprintln!("fault driver: crashing on {name}");
                            return 3;
                        }
                        "hang" => loop {
                            std::thread::sleep(Duration::from_secs(3600));
                        },
                        "garbage" => {
                            let _ = writeln!(out, "this is not json");
                        }
                        "wrong-seq" => {
                            let seq: u64 = seq.parse().unwrap_or(0);
                            let _ = writeln!(out, "{{\"seq\":{},\"schema\":{schema}}}", seq + 1000);
                        }
                        "huge" => {
                            let chunk = vec![b'x'; 1 << 20];
                            for _ in 0..100 {
                                if out.write_all(&chunk).is_err() {
                                    return 4;
                                }
                            }
                            let _ = writeln!(out);
                        }
                        "stderr-flood" => {
                            let chunk = vec![b'e'; 1 << 20];
                            let mut err = std::io::stderr().lock();
                            for _ in 0..5 {
                                let _ = err.write_all(&chunk);
                            }
                            let _ = writeln!(err);
                            let _ = writeln!(out, "{{\"seq\":{seq},\"schema\":{schema}}}");
                        }
                        "raise" => {
                            let _ = writeln!(
                                out,
                                "{{\"seq\":{seq},\"errored\":true,\"context\":{{\"message\":\"ValueError: {name} is not supported\"}}}}"
                            );
                        }
                        other => panic!("unknown fault {other}"),
                    }
                } else {
                    let _ = writeln!(out, "{{\"seq\":{seq},\"schema\":{schema}}}");
                }
            }
            Some("stop") => return 0,
            _ => {
                let _ = writeln!(
                    out,
                    "{{\"errored\":true,\"context\":{{\"message\":\"unknown cmd\"}}}}"
                );
            }
        }
        let _ = out.flush();
    }
}

/// Whether the compact JSON `text` has an object member named `key`: the
/// text `"<key>":` outside a string (a string holding it is skipped whole).
fn has_member(text: &str, key: &str) -> bool {
    let b = text.as_bytes();
    let needle = format!("\"{key}\":");
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            if text[i..].starts_with(&needle) {
                return true;
            }
            i = skip(b, i);
        } else {
            i += 1;
        }
    }
    false
}

/// The top-level `(key, raw value)` pairs of a JSON object, by scanning
/// (strings, escapes and nesting respected; no parsing of the values).
fn fields(text: &str) -> Vec<(String, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = match text.find('{') {
        Some(i) => i + 1,
        None => return out,
    };
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b',') {
            i += 1;
        }
        if i >= b.len() || b[i] == b'}' {
            return out;
        }
        let key_end = skip(b, i);
        let key = unquote(&text[i..key_end]);
        i = key_end;
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b':') {
            i += 1;
        }
        let end = skip(b, i);
        out.push((key, &text[i..end]));
        i = end;
    }
}

/// The end of the JSON value starting at `i`.
fn skip(b: &[u8], mut i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => {
            i += 1;
            while i < b.len() {
                match b[i] {
                    b'\\' => i += 2,
                    b'"' => return i + 1,
                    _ => i += 1,
                }
            }
            i
        }
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            while i < b.len() {
                match b[i] {
                    b'"' => {
                        i = skip(b, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            i
        }
        _ => {
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']') {
                i += 1;
            }
            i
        }
    }
}

fn unquote(raw: &str) -> String {
    raw.trim().trim_matches('"').to_owned()
}
