//! `wireshape corpus fetch` against a local server (std only, 127.0.0.1,
//! a random port) that counts the requests it answers: files written with
//! the right bytes, a second run all cached without a request, a body with
//! other bytes refused with nothing written, a user's file never
//! overwritten without `--force`, a bad manifest named at its line and
//! column. No test touches the network.

mod util;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use util::{outputs, wireshape};

const TOOLS_A: &str = r#"{"tools":[{"name":"get_weather","description":"Weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}"#;
const TOOLS_B: &str = r#"[{"name":"search","inputSchema":{"type":"object","properties":{"q":{"type":"string","pattern":"^(?!x)"}}}}]"#;
const SCHEMA_C: &str = r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#;

/// A server answering GET `<path>` with 200 and the body it holds, 404
/// otherwise; `requests` counts every request it read.
struct Server {
    url: String,
    requests: Arc<AtomicUsize>,
    bodies: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
}

impl Server {
    fn start(files: &[(&str, &str)]) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let bodies: BTreeMap<String, Vec<u8>> = files
            .iter()
            .map(|(p, b)| ((*p).to_owned(), b.as_bytes().to_vec()))
            .collect();
        let bodies = Arc::new(Mutex::new(bodies));
        let (count, served) = (Arc::clone(&requests), Arc::clone(&bodies));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let (count, served) = (Arc::clone(&count), Arc::clone(&served));
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut first = String::new();
                    if reader.read_line(&mut first).unwrap_or(0) == 0 {
                        return;
                    }
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                            break;
                        }
                    }
                    count.fetch_add(1, Ordering::SeqCst);
                    let path = first.split_whitespace().nth(1).unwrap_or("").to_owned();
                    let body = served.lock().unwrap().get(&path).cloned();
                    let (status, body) = match body {
                        Some(b) => ("200 OK", b),
                        None => ("404 Not Found", b"not found".to_vec()),
                    };
                    let head = format!(
                        "HTTP/1.1 {status}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = stream.write_all(head.as_bytes());
                    let _ = stream.write_all(&body);
                });
            }
        });
        Self {
            url,
            requests,
            bodies,
        }
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }

    /// Serve other bytes at `path` from now on.
    fn change(&self, path: &str, body: &str) {
        self.bodies
            .lock()
            .unwrap()
            .insert(path.to_owned(), body.as_bytes().to_vec());
    }
}

fn sha(s: &str) -> String {
    wireshape::testing::sha256_hex(s)
}

/// Two files of a source (relative urls under its commit) and one flat
/// `[[file]]`.
fn manifest(server: &Server) -> String {
    format!(
        r#"# a test manifest
[[source]]
origin = "demo/tools"
commit = "c0ffee"
licence = "MIT"
base_url = "{url}/demo/tools/c0ffee/"
into = "catalogs/demo"
file = [
  {{ url = "a.json", sha256 = "{a}" }},
  {{ url = "sub/b.json", sha256 = "{b}" }},
]

[[file]]
url = "{url}/elsewhere/c.json"
sha256 = "{c}"
path = "schemas/c.json"
licence = "CC0-1.0"
"#,
        url = server.url,
        a = sha(TOOLS_A),
        b = sha(TOOLS_B),
        c = sha(SCHEMA_C),
    )
}

fn serve_all() -> Server {
    Server::start(&[
        ("/demo/tools/c0ffee/a.json", TOOLS_A),
        ("/demo/tools/c0ffee/sub/b.json", TOOLS_B),
        ("/elsewhere/c.json", SCHEMA_C),
    ])
}

/// A temporary working directory holding `fetch.toml` for `server`.
fn workdir(server: &Server) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fetch.toml"), manifest(server)).unwrap();
    dir
}

fn fetch(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = wireshape(dir)
        .args(["corpus", "fetch", "--manifest", "fetch.toml"])
        .args(args)
        .output()
        .expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

/// Every file under `dir`, relative, sorted (temporary files included).
fn files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out.sort();
    out
}

#[test]
fn fetch_writes_verified_files_and_a_second_run_is_all_cached_without_a_request() {
    let server = serve_all();
    let dir = workdir(&server);

    let (code, out, err) = fetch(dir.path(), &["--into", "corp"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        format!(
            "fetched  catalogs/demo/a.json ({a} bytes)\n\
             fetched  catalogs/demo/sub/b.json ({b} bytes)\n\
             fetched  schemas/c.json ({c} bytes)\n\
             3 files from fetch.toml into corp: 3 fetched; {all} bytes verified\n\
             licences: CC0-1.0 (1), MIT (2)\n",
            a = TOOLS_A.len(),
            b = TOOLS_B.len(),
            c = SCHEMA_C.len(),
            all = TOOLS_A.len() + TOOLS_B.len() + SCHEMA_C.len(),
        )
    );
    assert_eq!(err, "");
    assert_eq!(server.requests(), 3);
    let corp = dir.path().join("corp");
    assert_eq!(
        files(&corp),
        [
            "catalogs/demo/a.json",
            "catalogs/demo/sub/b.json",
            "schemas/c.json"
        ]
    );
    for (path, body) in [
        ("catalogs/demo/a.json", TOOLS_A),
        ("catalogs/demo/sub/b.json", TOOLS_B),
        ("schemas/c.json", SCHEMA_C),
    ] {
        assert_eq!(std::fs::read_to_string(corp.join(path)).unwrap(), body);
    }

    // Again: every file is there with its sha256, nothing is requested.
    let (code, out, _) = fetch(dir.path(), &["--into", "corp"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.lines().map(|l| &l[..8]).collect::<Vec<_>>(),
        ["cached  ", "cached  ", "cached  ", "3 files ", "licences"]
    );
    assert!(out.contains("3 files from fetch.toml into corp: 3 cached; "));
    assert_eq!(server.requests(), 3, "a cached file is never requested");

    // The directory is a corpus directory as it is.
    let listed = wireshape(dir.path())
        .args(["list", "--corpus", "corp"])
        .output()
        .unwrap();
    let (listed, _) = outputs(&listed);
    assert!(
        listed.ends_with("3 catalogs, 3 tools, 0 unusable files\n"),
        "{listed}"
    );
    assert!(listed.contains("demo/sub/b "), "{listed}");
}

#[test]
fn a_body_with_another_sha256_is_refused_and_nothing_is_written_for_it() {
    let server = serve_all();
    server.change("/demo/tools/c0ffee/sub/b.json", "[]");
    let dir = workdir(&server);
    let (code, out, _) = fetch(dir.path(), &["--into", "corp"]);
    assert_eq!(code, 1, "{out}");
    let b_line = out.lines().nth(1).unwrap();
    assert_eq!(
        b_line,
        format!(
            "failed   catalogs/demo/sub/b.json: {}/demo/tools/c0ffee/sub/b.json: sha256 mismatch: \
             expected {}, got {} (2 bytes); nothing written",
            server.url,
            sha(TOOLS_B),
            sha("[]")
        )
    );
    assert!(out.contains(": 2 fetched, 1 failed; "), "{out}");
    // The other files are fetched; nothing (not even a temporary file) for b.
    assert_eq!(
        files(&dir.path().join("corp")),
        ["catalogs/demo/a.json", "schemas/c.json"]
    );
}

#[test]
fn a_present_file_with_other_bytes_is_never_overwritten_without_force() {
    let server = serve_all();
    let dir = workdir(&server);
    let corp = dir.path().join("corp");
    std::fs::create_dir_all(corp.join("schemas")).unwrap();
    std::fs::write(corp.join("schemas/c.json"), "my own schema").unwrap();

    let (code, out, _) = fetch(dir.path(), &["--into", "corp"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        out.lines().nth(2).unwrap(),
        format!(
            "refused  schemas/c.json: {} is there with sha256 {}, the manifest says {}; \
             not overwritten (--force replaces it)",
            Path::new("corp").join("schemas/c.json").display(),
            sha("my own schema"),
            sha(SCHEMA_C)
        )
    );
    assert_eq!(
        std::fs::read_to_string(corp.join("schemas/c.json")).unwrap(),
        "my own schema"
    );
    assert_eq!(server.requests(), 2, "the refused file is not requested");

    // --force: downloaded, verified, then put in its place.
    let (code, out, _) = fetch(dir.path(), &["--into", "corp", "--force"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.lines().nth(2).unwrap(),
        format!("replaced schemas/c.json ({} bytes)", SCHEMA_C.len())
    );
    assert!(out.contains(": 1 replaced, 2 cached; "), "{out}");
    assert_eq!(
        std::fs::read_to_string(corp.join("schemas/c.json")).unwrap(),
        SCHEMA_C
    );
    assert_eq!(server.requests(), 3);
}

#[test]
fn an_http_error_fails_that_file_and_the_others_are_fetched() {
    let server = Server::start(&[
        ("/demo/tools/c0ffee/a.json", TOOLS_A),
        ("/elsewhere/c.json", SCHEMA_C),
    ]);
    let dir = workdir(&server);
    let (code, out, _) = fetch(dir.path(), &["--into", "corp"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.lines().nth(1).unwrap(),
        format!(
            "failed   catalogs/demo/sub/b.json: {}/demo/tools/c0ffee/sub/b.json: HTTP 404",
            server.url
        )
    );
    assert_eq!(
        files(&dir.path().join("corp")),
        ["catalogs/demo/a.json", "schemas/c.json"]
    );
}

#[test]
fn a_bad_manifest_exits_2_naming_its_file_line_and_column_before_any_request() {
    let server = serve_all();
    let dir = tempfile::tempdir().unwrap();
    let good = manifest(&server);
    for (bad, message) in [
        (
            good.replace("\"sub/b.json\"", "\"../b.json\""),
            "wireshape: fetch.toml:10:11: `path (the relative url)` `../b.json` leaves the target directory (`..`)\n",
        ),
        (
            good.replace("path = \"schemas/c.json\"", "path = \"/tmp/c.json\""),
            "wireshape: fetch.toml:16:8: `path` `/tmp/c.json` is absolute: it must be relative to the target directory\n",
        ),
        (
            good.replace("licence = \"CC0-1.0\"", "licence = CC0"),
            "wireshape: fetch.toml:17:11: invalid string\nexpected `\"`, `'`\n",
        ),
    ] {
        std::fs::write(dir.path().join("fetch.toml"), &bad).unwrap();
        let (code, out, err) = fetch(dir.path(), &["--into", "corp"]);
        assert_eq!((code, out.as_str(), err.as_str()), (2, "", message));
    }
    let out = wireshape(dir.path())
        .args([
            "corpus",
            "fetch",
            "--manifest",
            "missing.toml",
            "--into",
            "corp",
        ])
        .output()
        .unwrap();
    let (_, err) = outputs(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.starts_with("wireshape: missing.toml: cannot read: "),
        "{err}"
    );
    assert_eq!(server.requests(), 0);
    assert!(!dir.path().join("corp").exists());
}

#[test]
fn the_target_defaults_to_the_one_corpus_path_directory_else_corpus_external() {
    let server = serve_all();
    let dir = workdir(&server);

    let out = wireshape(dir.path())
        .args(["corpus", "fetch", "--manifest", "fetch.toml"])
        .env("WIRESHAPE_CORPUS_PATH", "from-env")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(files(&dir.path().join("from-env")).len(), 3);

    let (code, out, _) = fetch(dir.path(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" into corpus/external: 3 fetched; "), "{out}");
    assert_eq!(files(&dir.path().join("corpus/external")).len(), 3);

    let out = wireshape(dir.path())
        .args(["corpus", "fetch", "--manifest", "fetch.toml"])
        .env("WIRESHAPE_CORPUS_PATH", "one:two")
        .output()
        .unwrap();
    let (_, err) = outputs(&out);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        err,
        "wireshape: WIRESHAPE_CORPUS_PATH names 2 directories (one, two): \
         name the one to fetch into with --into\n"
    );

    std::fs::write(dir.path().join("a-file"), "x").unwrap();
    let (code, _, err) = fetch(dir.path(), &["--into", "a-file"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "wireshape: a-file: is not a directory; refusing to write into it\n"
    );
    assert_eq!(server.requests(), 6);
}
