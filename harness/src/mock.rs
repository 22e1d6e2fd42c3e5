//! The local mock provider: a small HTTP/1.1 server (std only, one thread
//! per connection) that serves one lane's real endpoint paths and answers
//! each request with the oracle's verdict in the provider's own format.
//!
//! A request whose tools (and `tool_choice` / `response_format`, when the
//! recording has them) equal a recording's request gets the recorded status
//! and body, byte for byte; any other request gets the oracle's first
//! rejection (its status and [`error_body`]) or a 200 with the provider's
//! minimal valid answer ([`accept_body`], or its streaming form when the
//! request asks for a stream). Users point their own client's base URL at
//! it to see which tools a provider would reject.
//!
//! Bounded by construction: read and write timeouts on every socket, a
//! deadline per request, a 64 KiB cap on the request head, a 64 MiB cap on
//! the body (413 beyond), at most [`MAX_CONNECTIONS`] connections at once.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::lane::{Lane, Wire};
use crate::oracle::{self, Rejection, Request, accept_body, error_body};
use crate::recording::{Recording, load_recordings};

/// Largest request body accepted (413 beyond).
pub(crate) const MAX_BODY: u64 = 64 * 1024 * 1024;
/// Largest request head (request line and headers) accepted (431 beyond).
const MAX_HEAD: usize = 64 * 1024;
/// Connections served at once; more get a 503 and are closed.
const MAX_CONNECTIONS: usize = 64;
/// How long one read or write may block (also the keep-alive idle limit).
const IO_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one request may take to arrive, head and body.
const REQUEST_DEADLINE: Duration = Duration::from_secs(120);

/// The per-request log callback.
type LogFn = Box<dyn Fn(&str) + Send + Sync>;

/// A running mock provider. Dropping it stops it too.
pub struct MockServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

/// State shared by the accept thread, the connection threads and the handle.
struct Shared {
    stop: AtomicBool,
    /// Live connections (a clone of each socket), to shut them down on stop.
    conns: Mutex<HashMap<u64, TcpStream>>,
    service: Service,
}

/// What answers requests.
struct Service {
    lane: Lane,
    /// This lane's recordings, most specific first (see [`serve_mock`]).
    recordings: Vec<Recording>,
    as_of: String,
    log: LogFn,
}

impl MockServer {
    /// The bound address (the real port when bound to port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR`, the base URL to point a client at.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stop accepting, close every open connection and join the threads.
    pub fn stop(mut self) {
        self.shutdown();
    }

    /// Serve until the accept loop ends (it ends only on [`MockServer::stop`],
    /// so in practice: until the process is interrupted).
    fn wait(mut self) {
        if let Some(handle) = self.accept.take() {
            let _ = handle.join();
        }
    }

    fn shutdown(&mut self) {
        let Some(handle) = self.accept.take() else {
            return;
        };
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept() with a connection to ourselves.
        let mut wake = self.addr;
        if wake.ip().is_unspecified() {
            wake.set_ip(match wake {
                SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        if TcpStream::connect_timeout(&wake, Duration::from_secs(2)).is_ok() {
            let _ = handle.join();
        }
        // Otherwise the accept thread ends at its next connection.
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl std::fmt::Debug for MockServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockServer")
            .field("addr", &self.addr)
            .field("lane", &self.shared.service.lane)
            .finish_non_exhaustive()
    }
}

/// Start serving `lane` on `bind` (e.g. `"127.0.0.1:0"` for a random port).
///
/// `recordings` (those of other lanes are ignored) are served verbatim when a
/// request's tools array equals a recording's request exactly (same JSON
/// value; a request without a `tools` member matches only a recording that
/// had none, see [`crate::RecordedRequest::tools_member`]), and so do its
/// `tool_choice` and `response_format` when the recording has them; the
/// recording that pins the most members wins, then the first by id. Any other
/// request gets the oracle's verdict as of `as_of`: the first rejection's
/// status and [`error_body`], or 200 and [`accept_body`].
///
/// `log` receives one line per request:
/// `POST <path> <status> <accepted | rule-id at tools[i] | recorded <id>>`
/// (the path without its query string, which may carry a key).
pub fn serve_mock(
    lane: Lane,
    bind: &str,
    recordings: Vec<Recording>,
    as_of: String,
    log: Box<dyn Fn(&str) + Send + Sync>,
) -> io::Result<MockServer> {
    let listener = TcpListener::bind(bind)?;
    let addr = listener.local_addr()?;
    let mut recordings: Vec<Recording> = recordings
        .into_iter()
        .filter(|r| r.lane == lane.id())
        .collect();
    recordings.sort_by(|a, b| {
        specificity(b)
            .cmp(&specificity(a))
            .then_with(|| a.id.cmp(&b.id))
    });
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        conns: Mutex::new(HashMap::new()),
        service: Service {
            lane,
            recordings,
            as_of,
            log,
        },
    });
    let accept = {
        let shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name(format!("mock-{lane}-accept"))
            .spawn(move || accept_loop(&listener, &shared))?
    };
    Ok(MockServer {
        addr,
        shared,
        accept: Some(accept),
    })
}

/// `wireshape mock-provider`: load the recordings (if a directory is given),
/// serve `lane` on `bind` and block until the process is interrupted. The
/// first line sent to `log` names the lane, the URL and the paths.
pub fn run_mock_provider(
    lane: Lane,
    bind: &str,
    recordings_dir: Option<&Path>,
    as_of: &str,
    log: Box<dyn Fn(&str) + Send + Sync>,
) -> io::Result<()> {
    let recordings = match recordings_dir {
        Some(dir) => load_recordings(dir)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?,
        None => Vec::new(),
    };
    let own = recordings.iter().filter(|r| r.lane == lane.id()).count();
    let log: Arc<dyn Fn(&str) + Send + Sync> = Arc::from(log);
    let server_log = Arc::clone(&log);
    let server = serve_mock(
        lane,
        bind,
        recordings,
        as_of.to_owned(),
        Box::new(move |line| server_log(line)),
    )?;
    log(&format!(
        "wireshape mock-provider: {lane} on {} (paths: {}; {own} recording{}; as of {as_of})",
        server.url(),
        paths(lane).join(", "),
        if own == 1 { "" } else { "s" },
    ));
    server.wait();
    Ok(())
}

/// The paths this lane serves, as printed in the banner and in 404s.
pub(crate) fn paths(lane: Lane) -> Vec<&'static str> {
    match lane.wire() {
        Wire::Messages => vec!["POST /v1/messages"],
        Wire::Responses => vec!["POST /v1/responses"],
        Wire::GeminiParameters | Wire::GeminiJsonSchema => vec![
            "POST /v1beta/models/{model}:generateContent",
            "POST /v1beta/models/{model}:streamGenerateContent",
        ],
        Wire::Bedrock => vec!["POST /model/{modelId}/converse"],
        Wire::Chat if lane == Lane::Ollama => vec!["POST /api/chat"],
        Wire::Chat => vec!["POST /v1/chat/completions", "POST /chat/completions"],
    }
}

/// How many request members besides `tools` a recording pins.
fn specificity(r: &Recording) -> usize {
    usize::from(r.request.tool_choice.is_some()) + usize::from(r.request.response_format.is_some())
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    let next_id = AtomicU64::new(0);
    let mut workers: Vec<JoinHandle<()>> = Vec::new();
    for conn in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let stream = match conn {
            Ok(s) => s,
            Err(e) => {
                // EMFILE and friends: back off instead of spinning.
                if !matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::ConnectionAborted
                ) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                continue;
            }
        };
        workers.retain(|w| !w.is_finished());
        let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_nodelay(true);
        if workers.len() >= MAX_CONNECTIONS {
            let body = envelope(
                shared.service.lane,
                503,
                "wireshape mock-provider: too many open connections",
            );
            let _ = write_response(
                &mut &stream,
                &Response::json(503, &body, "busy"),
                false,
                true,
            );
            let _ = stream.shutdown(Shutdown::Both);
            continue;
        }
        let id = next_id.fetch_add(1, Ordering::Relaxed);
        let Ok(clone) = stream.try_clone() else {
            continue;
        };
        lock(&shared.conns).insert(id, clone);
        let worker = {
            let shared = Arc::clone(shared);
            std::thread::Builder::new()
                .name(format!("mock-conn-{id}"))
                .spawn(move || {
                    serve_connection(&stream, &shared);
                    lock(&shared.conns).remove(&id);
                })
        };
        match worker {
            Ok(w) => workers.push(w),
            Err(_) => {
                if let Some(s) = lock(&shared.conns).remove(&id) {
                    let _ = s.shutdown(Shutdown::Both);
                }
            }
        }
    }
    for s in lock(&shared.conns).values() {
        let _ = s.shutdown(Shutdown::Both);
    }
    for w in workers {
        let _ = w.join();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Answer requests on one connection until it closes, errs or the server stops.
fn serve_connection(stream: &TcpStream, shared: &Shared) {
    let service = &shared.service;
    let mut reader = BufReader::new(stream);
    let mut writer = stream;
    while !shared.stop.load(Ordering::SeqCst) {
        match read_request(&mut reader, &mut writer) {
            Ok(None) | Err(ReadError::Io(_)) => break,
            Ok(Some(req)) => {
                let (resp, verdict) = service.handle(&req);
                (service.log)(&format!(
                    "{} {} {} {verdict}",
                    req.method, req.path, resp.status
                ));
                let close = req.close || shared.stop.load(Ordering::SeqCst);
                if write_response(&mut writer, &resp, req.method == "HEAD", close).is_err() || close
                {
                    break;
                }
            }
            Err(ReadError::Http {
                status,
                message,
                method,
                path,
            }) => {
                let body = envelope(service.lane, status, &message);
                let verdict = if status == 400 {
                    "malformed-http"
                } else {
                    "too-large"
                };
                (service.log)(&format!(
                    "{} {} {status} {verdict}",
                    method.as_deref().unwrap_or("-"),
                    path.as_deref().unwrap_or("-"),
                ));
                if write_response(
                    &mut writer,
                    &Response::json(status, &body, verdict),
                    false,
                    true,
                )
                .is_ok()
                {
                    linger(stream, reader);
                }
                return;
            }
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// Close after an error answer without resetting the connection: stop
/// writing, then discard what the client is still sending (bounded), so it
/// reads the answer instead of a reset.
fn linger(stream: &TcpStream, mut reader: BufReader<&TcpStream>) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut left: usize = 4 * 1024 * 1024;
    let mut buf = [0u8; 16 * 1024];
    while left > 0 && Instant::now() < deadline {
        match reader.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

// ---------------------------------------------------------------- HTTP/1.1

/// One parsed request.
#[derive(Debug)]
struct HttpRequest {
    method: String,
    /// The path, without the query string.
    path: String,
    query: String,
    body: Vec<u8>,
    /// The connection closes after the response.
    close: bool,
}

#[derive(Debug)]
enum ReadError {
    /// The connection failed or timed out: close it without an answer.
    Io(io::Error),
    /// The request is not acceptable HTTP: answer `status` and close.
    Http {
        status: u16,
        message: String,
        method: Option<String>,
        path: Option<String>,
    },
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

fn http_error(status: u16, message: impl Into<String>) -> ReadError {
    ReadError::Http {
        status,
        message: message.into(),
        method: None,
        path: None,
    }
}

/// Read one line (up to `\n`) within the head budget; `None` at a clean EOF.
fn read_line(
    reader: &mut impl BufRead,
    budget: &mut usize,
    deadline: Instant,
) -> Result<Option<Vec<u8>>, ReadError> {
    let mut line = Vec::new();
    loop {
        if Instant::now() > deadline {
            return Err(ReadError::Io(io::ErrorKind::TimedOut.into()));
        }
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return if line.is_empty() {
                Ok(None)
            } else {
                Err(ReadError::Io(io::ErrorKind::UnexpectedEof.into()))
            };
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if take > *budget {
            return Err(http_error(431, "request head too large (limit 64 KiB)"));
        }
        *budget -= take;
        line.extend_from_slice(&buf[..take]);
        reader.consume(take);
        if done {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some(line));
        }
    }
}

/// Read one request. `Ok(None)`: the peer closed the connection between
/// requests. `writer` receives `100 Continue` when the client expects it.
fn read_request(
    reader: &mut impl BufRead,
    writer: &mut impl Write,
) -> Result<Option<HttpRequest>, ReadError> {
    let mut budget = MAX_HEAD;
    let deadline = Instant::now() + REQUEST_DEADLINE;
    // Request line (empty lines before it are ignored, RFC 9112 §2.2).
    let line = loop {
        match read_line(reader, &mut budget, deadline)? {
            None => return Ok(None),
            Some(l) if l.is_empty() => {}
            Some(l) => break l,
        }
    };
    let line = String::from_utf8(line).map_err(|_| http_error(400, "request line is not UTF-8"))?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(http_error(400, format!("malformed request line {line:?}")));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase() || b == b'-') {
        return Err(http_error(400, format!("malformed method {method:?}")));
    }
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => {
            return Err(http_error(
                400,
                format!("unsupported HTTP version {version:?}"),
            ));
        }
    };
    let Some((path, query)) = split_target(target) else {
        return Err(http_error(
            400,
            format!("malformed request target {target:?}"),
        ));
    };
    let with_request = |e: ReadError| match e {
        ReadError::Http {
            status, message, ..
        } => ReadError::Http {
            status,
            message,
            method: Some(method.to_owned()),
            path: Some(path.clone()),
        },
        io @ ReadError::Io(_) => io,
    };

    // Headers.
    let mut content_length: Option<u64> = None;
    let mut chunked = false;
    let mut connection = String::new();
    let mut expect_continue = false;
    loop {
        let Some(h) = read_line(reader, &mut budget, deadline).map_err(with_request)? else {
            return Err(ReadError::Io(io::ErrorKind::UnexpectedEof.into()));
        };
        if h.is_empty() {
            break;
        }
        let bad = || with_request(http_error(400, "malformed header line"));
        if h[0] == b' ' || h[0] == b'\t' {
            return Err(bad()); // obsolete line folding
        }
        let colon = h.iter().position(|&b| b == b':').ok_or_else(bad)?;
        let name = std::str::from_utf8(&h[..colon]).map_err(|_| bad())?;
        if name.is_empty() || !name.bytes().all(is_token_byte) {
            return Err(bad());
        }
        let value = String::from_utf8_lossy(&h[colon + 1..]);
        let value = value.trim_matches([' ', '\t']);
        match name.to_ascii_lowercase().as_str() {
            "content-length" => {
                let n = value
                    .parse::<u64>()
                    .ok()
                    .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| with_request(http_error(400, "malformed Content-Length")))?;
                if content_length.is_some_and(|m| m != n) {
                    return Err(with_request(http_error(
                        400,
                        "conflicting Content-Length headers",
                    )));
                }
                content_length = Some(n);
            }
            "transfer-encoding" => {
                if !value.eq_ignore_ascii_case("chunked") {
                    return Err(with_request(http_error(
                        400,
                        format!("unsupported Transfer-Encoding {value:?} (only chunked)"),
                    )));
                }
                chunked = true;
            }
            "connection" => connection = value.to_ascii_lowercase(),
            "expect" => expect_continue = value.eq_ignore_ascii_case("100-continue"),
            _ => {}
        }
    }
    if chunked && content_length.is_some() {
        return Err(with_request(http_error(
            400,
            "both Transfer-Encoding and Content-Length",
        )));
    }
    let close = if http10 {
        !connection.split(',').any(|t| t.trim() == "keep-alive")
    } else {
        connection.split(',').any(|t| t.trim() == "close")
    };
    if content_length.is_some_and(|n| n > MAX_BODY) {
        return Err(with_request(http_error(
            413,
            "request body too large (limit 64 MiB)",
        )));
    }
    if expect_continue && !http10 && (chunked || content_length.unwrap_or(0) > 0) {
        writer.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
        writer.flush()?;
    }
    let body = if chunked {
        read_chunked(reader, deadline).map_err(with_request)?
    } else {
        read_exact_body(reader, content_length.unwrap_or(0), deadline)?
    };
    Ok(Some(HttpRequest {
        method: method.to_owned(),
        path,
        query,
        body,
        close,
    }))
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Split an origin-form (or absolute-form) target into path and query.
fn split_target(target: &str) -> Option<(String, String)> {
    let origin = if let Some(rest) = target
        .strip_prefix("http://")
        .or_else(|| target.strip_prefix("https://"))
    {
        rest.find('/').map_or("/", |i| &rest[i..])
    } else {
        target
    };
    if !origin.starts_with('/') {
        return None;
    }
    let origin = origin.split('#').next().unwrap_or_default();
    Some(match origin.split_once('?') {
        Some((p, q)) => (p.to_owned(), q.to_owned()),
        None => (origin.to_owned(), String::new()),
    })
}

fn read_exact_body(
    reader: &mut impl BufRead,
    len: u64,
    deadline: Instant,
) -> Result<Vec<u8>, ReadError> {
    let cap = usize::try_from(len.min(1 << 20)).unwrap_or(1 << 20);
    let mut body = Vec::with_capacity(cap);
    let mut limited = reader.take(len);
    let mut buf = [0u8; 16 * 1024];
    loop {
        if Instant::now() > deadline {
            return Err(ReadError::Io(io::ErrorKind::TimedOut.into()));
        }
        let n = limited.read(&mut buf)?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buf[..n]);
    }
    if (body.len() as u64) < len {
        return Err(ReadError::Io(io::ErrorKind::UnexpectedEof.into()));
    }
    Ok(body)
}

fn read_chunked(reader: &mut impl BufRead, deadline: Instant) -> Result<Vec<u8>, ReadError> {
    let mut body = Vec::new();
    loop {
        let mut budget = 4096;
        let line = read_line(reader, &mut budget, deadline)
            .map_err(|e| match e {
                ReadError::Http { .. } => http_error(400, "malformed chunk size line"),
                io @ ReadError::Io(_) => io,
            })?
            .ok_or(ReadError::Io(io::ErrorKind::UnexpectedEof.into()))?;
        let line = String::from_utf8_lossy(&line);
        let size = line.split(';').next().unwrap_or_default().trim();
        let size = u64::from_str_radix(size, 16)
            .map_err(|_| http_error(400, format!("malformed chunk size {size:?}")))?;
        if size == 0 {
            // Trailers, up to the empty line.
            let mut budget = MAX_HEAD;
            loop {
                match read_line(reader, &mut budget, deadline)? {
                    Some(l) if !l.is_empty() => {}
                    _ => return Ok(body),
                }
            }
        }
        if body.len() as u64 + size > MAX_BODY {
            return Err(http_error(413, "request body too large (limit 64 MiB)"));
        }
        body.extend(read_exact_body(reader, size, deadline)?);
        let mut budget = 2;
        match read_line(reader, &mut budget, deadline) {
            Ok(Some(l)) if l.is_empty() => {}
            Err(ReadError::Io(e)) => return Err(ReadError::Io(e)),
            _ => return Err(http_error(400, "chunk data not followed by CRLF")),
        }
    }
}

/// One response.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Response {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    /// `X-Wireshape-Verdict`.
    verdict: String,
    allow_post: bool,
}

impl Response {
    fn json(status: u16, body: &Value, verdict: &str) -> Self {
        Self {
            status,
            content_type: "application/json",
            body: body.to_string().into_bytes(),
            verdict: verdict.to_owned(),
            allow_post: false,
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

fn write_response(
    w: &mut impl Write,
    r: &Response,
    head_only: bool,
    close: bool,
) -> io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: {}\r\nX-Wireshape-Verdict: {}\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len(),
        if close { "close" } else { "keep-alive" },
        r.verdict,
    );
    if r.allow_post {
        out.push_str("Allow: POST\r\n");
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&r.body);
    }
    w.write_all(&bytes)?;
    w.flush()
}

// ---------------------------------------------------------------- the provider

/// Which endpoint of the lane a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endpoint {
    /// Everything but Gemini's and Ollama's special cases.
    Plain,
    /// Gemini `:generateContent` (`stream: false`) or `:streamGenerateContent`.
    Gemini { stream: bool },
    /// Ollama `/api/chat` (streams unless `"stream": false`).
    Ollama,
}

fn route(lane: Lane, path: &str) -> Option<Endpoint> {
    match lane.wire() {
        Wire::Messages => (path == "/v1/messages").then_some(Endpoint::Plain),
        Wire::Responses => (path == "/v1/responses").then_some(Endpoint::Plain),
        Wire::Chat if lane == Lane::Ollama => (path == "/api/chat").then_some(Endpoint::Ollama),
        Wire::Chat => {
            matches!(path, "/v1/chat/completions" | "/chat/completions").then_some(Endpoint::Plain)
        }
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            let rest = path.strip_prefix("/v1beta/models/")?;
            let (model, method) = rest.rsplit_once(':')?;
            if model.is_empty() || model.contains('/') {
                return None;
            }
            match method {
                "generateContent" => Some(Endpoint::Gemini { stream: false }),
                "streamGenerateContent" => Some(Endpoint::Gemini { stream: true }),
                _ => None,
            }
        }
        Wire::Bedrock => {
            let model = path.strip_prefix("/model/")?.strip_suffix("/converse")?;
            (!model.is_empty() && !model.contains('/')).then_some(Endpoint::Plain)
        }
    }
}

/// The lane's error envelope for an error the mock itself raises, with the
/// provider's error type for the status.
fn envelope(lane: Lane, status: u16, message: &str) -> Value {
    let mut body = error_body(
        lane,
        &Rejection {
            rule: "mock-provider",
            status,
            tool: None,
            path: String::new(),
            message: message.to_owned(),
        },
    );
    match lane.wire() {
        Wire::Messages => {
            let kind = match status {
                404 => "not_found_error",
                413 => "request_too_large",
                503 => "overloaded_error",
                _ => "invalid_request_error",
            };
            body["error"]["type"] = json!(kind);
        }
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            let kind = match status {
                404 => "NOT_FOUND",
                503 => "UNAVAILABLE",
                _ => "INVALID_ARGUMENT",
            };
            body["error"]["status"] = json!(kind);
        }
        _ => {}
    }
    body
}

/// What the oracle and the recordings look at in one request body.
struct Extracted<'a> {
    /// The raw `tools` member (`None` when absent or null).
    tools: Option<&'a [Value]>,
    /// What the oracle judges (Gemini: the flattened declarations).
    oracle_tools: Vec<Value>,
    tool_choice: Option<&'a Value>,
    response_format: Option<&'a Value>,
}

fn extract(lane: Lane, body: &Value) -> Result<Extracted<'_>, String> {
    let (tools_at, choice_at) = match lane.wire() {
        Wire::Bedrock => ("/toolConfig/tools", "/toolConfig/toolChoice"),
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            ("/tools", "/toolConfig/functionCallingConfig")
        }
        Wire::Messages | Wire::Chat | Wire::Responses => ("/tools", "/tool_choice"),
    };
    let present = |p: &str| body.pointer(p).filter(|v| !v.is_null());
    let tools = match present(tools_at) {
        None => None,
        Some(Value::Array(a)) => Some(a.as_slice()),
        Some(_) => {
            return Err(format!(
                "`{}` must be an array",
                tools_at.trim_start_matches('/').replace('/', ".")
            ));
        }
    };
    let raw = tools.unwrap_or_default();
    let oracle_tools = match lane.wire() {
        Wire::GeminiParameters | Wire::GeminiJsonSchema => raw
            .iter()
            .filter_map(|t| {
                t.get("functionDeclarations")
                    .or_else(|| t.get("function_declarations"))
                    .and_then(Value::as_array)
            })
            .flatten()
            .cloned()
            .collect(),
        _ => raw.to_vec(),
    };
    Ok(Extracted {
        tools,
        oracle_tools,
        tool_choice: present(choice_at),
        response_format: present("/response_format"),
    })
}

impl Service {
    /// The response to one request and its log verdict.
    fn handle(&self, req: &HttpRequest) -> (Response, String) {
        let lane = self.lane;
        let Some(endpoint) = route(lane, &req.path) else {
            let message = format!(
                "wireshape mock-provider ({lane}): no route for {} {}; this lane serves {}",
                req.method,
                req.path,
                paths(lane).join(", ")
            );
            let r = Response::json(404, &envelope(lane, 404, &message), "not-found");
            return (r, "not-found".to_owned());
        };
        if req.method != "POST" {
            let message = format!(
                "wireshape mock-provider ({lane}): method {} not allowed on {}; use POST",
                req.method, req.path
            );
            let mut r = Response::json(405, &envelope(lane, 405, &message), "method-not-allowed");
            r.allow_post = true;
            return (r, "method-not-allowed".to_owned());
        }
        let invalid = |message: String, verdict: &str| {
            let r = Response::json(400, &envelope(lane, 400, &message), verdict);
            (r, verdict.to_owned())
        };
        let body: Value = match serde_json::from_slice(&req.body) {
            Ok(v) => v,
            Err(e) => return invalid(format!("invalid JSON body: {e}"), "invalid-json"),
        };
        if !body.is_object() {
            return invalid(
                "the request body must be a JSON object".to_owned(),
                "invalid-body",
            );
        }
        let ex = match extract(lane, &body) {
            Ok(ex) => ex,
            Err(message) => return invalid(message, "invalid-body"),
        };
        if let Some(rec) = self.recorded(&ex) {
            let verdict = format!("recorded {}", rec.id);
            let (content_type, bytes) = match &rec.response.body {
                Some(Value::String(s)) => ("text/plain; charset=utf-8", s.clone().into_bytes()),
                Some(v) => ("application/json", v.to_string().into_bytes()),
                None => ("text/plain; charset=utf-8", Vec::new()),
            };
            let r = Response {
                status: rec.response.status,
                content_type,
                body: bytes,
                verdict: verdict.clone(),
                allow_post: false,
            };
            return (r, verdict);
        }
        let rejections = oracle::check(&Request {
            tools_present: ex.tools.is_some(),
            lane,
            tools: &ex.oracle_tools,
            tool_choice: ex.tool_choice,
            response_format: ex.response_format,
            as_of: &self.as_of,
        });
        if let Some(first) = rejections.first() {
            let verdict = match first.tool {
                Some(i) => format!("{} at tools[{i}]", first.rule),
                None => first.rule.to_owned(),
            };
            let r = Response::json(first.status, &error_body(lane, first), &verdict);
            return (r, verdict);
        }
        let (content_type, bytes) = accepted(lane, endpoint, &body, &req.query);
        let r = Response {
            status: 200,
            content_type,
            body: bytes,
            verdict: "accepted".to_owned(),
            allow_post: false,
        };
        (r, "accepted".to_owned())
    }

    /// The recording this request replays, if any.
    fn recorded(&self, ex: &Extracted<'_>) -> Option<&Recording> {
        self.recordings.iter().find(|rec| {
            let tools_match = match rec.request.tools_member() {
                Some(t) => ex.tools == Some(t),
                None => ex.tools.is_none_or(<[Value]>::is_empty),
            };
            tools_match
                && rec
                    .request
                    .tool_choice
                    .as_ref()
                    .is_none_or(|c| ex.tool_choice == Some(c))
                && rec
                    .request
                    .response_format
                    .as_ref()
                    .is_none_or(|f| ex.response_format == Some(f))
        })
    }
}

/// The provider's answer to an accepted request: [`accept_body`], or its
/// streaming form when the request asks for a stream.
fn accepted(lane: Lane, endpoint: Endpoint, body: &Value, query: &str) -> (&'static str, Vec<u8>) {
    const SSE: &str = "text/event-stream";
    let ok = accept_body(lane);
    let wants_stream = body.get("stream") == Some(&Value::Bool(true));
    let sse = |events: &[(Option<&str>, Value)]| -> Vec<u8> {
        let mut out = String::new();
        for (event, data) in events {
            if let Some(e) = event {
                out.push_str("event: ");
                out.push_str(e);
                out.push('\n');
            }
            out.push_str("data: ");
            out.push_str(&data.to_string());
            out.push_str("\n\n");
        }
        out.into_bytes()
    };
    match (endpoint, lane.wire()) {
        (Endpoint::Gemini { stream: true }, _) => {
            let sse_wanted = query.split('&').any(|kv| kv == "alt=sse");
            if sse_wanted {
                (SSE, sse(&[(None, ok)]))
            } else {
                ("application/json", json!([ok]).to_string().into_bytes())
            }
        }
        (Endpoint::Ollama, _) if body.get("stream") != Some(&Value::Bool(false)) => {
            ("application/x-ndjson", format!("{ok}\n").into_bytes())
        }
        (Endpoint::Plain, Wire::Messages) if wants_stream => {
            let mut start = ok.clone();
            start["content"] = json!([]);
            start["stop_reason"] = Value::Null;
            start["usage"]["output_tokens"] = json!(0);
            let events = [
                (
                    Some("message_start"),
                    json!({"type": "message_start", "message": start}),
                ),
                (
                    Some("content_block_start"),
                    json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                ),
                (
                    Some("content_block_delta"),
                    json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
                ),
                (
                    Some("content_block_stop"),
                    json!({"type": "content_block_stop", "index": 0}),
                ),
                (
                    Some("message_delta"),
                    json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 1}}),
                ),
                (Some("message_stop"), json!({"type": "message_stop"})),
            ];
            (SSE, sse(&events))
        }
        (Endpoint::Plain, Wire::Chat) if wants_stream => {
            let chunk = |delta: Value, finish: Value| {
                json!({
                    "id": ok["id"], "object": "chat.completion.chunk", "model": ok["model"],
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
                })
            };
            let mut out = sse(&[
                (
                    None,
                    chunk(json!({"role": "assistant", "content": "ok"}), Value::Null),
                ),
                (None, chunk(json!({}), json!("stop"))),
            ]);
            out.extend_from_slice(b"data: [DONE]\n\n");
            (SSE, out)
        }
        (Endpoint::Plain, Wire::Responses) if wants_stream => {
            let mut created = ok.clone();
            created["status"] = json!("in_progress");
            created["output"] = json!([]);
            let events = [
                (
                    Some("response.created"),
                    json!({"type": "response.created", "sequence_number": 0, "response": created}),
                ),
                (
                    Some("response.completed"),
                    json!({"type": "response.completed", "sequence_number": 1, "response": ok}),
                ),
            ];
            (SSE, sse(&events))
        }
        _ => ("application/json", ok.to_string().into_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(lane: Lane, recordings: Vec<Recording>) -> (MockServer, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let server = serve_mock(
            lane,
            "127.0.0.1:0",
            recordings,
            oracle::DEFAULT_AS_OF.to_owned(),
            Box::new(move |l| lock(&sink).push(l.to_owned())),
        )
        .expect("bind 127.0.0.1:0");
        (server, lines)
    }

    /// Send raw bytes, read the whole answer (the request closes the connection).
    fn raw(server: &MockServer, request: &[u8]) -> (u16, String, String) {
        let mut s = TcpStream::connect(server.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(request).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").expect("a response head");
        let status = head[9..12].parse().unwrap();
        (status, head.to_owned(), body.to_owned())
    }

    fn post(server: &MockServer, path: &str, body: &str) -> (u16, String, String) {
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        raw(server, req.as_bytes())
    }

    fn messages(tools: &Value) -> String {
        json!({"model": "mock", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}], "tools": tools})
            .to_string()
    }

    #[test]
    fn a_wrong_path_is_a_404_naming_the_lane_paths() {
        let (server, log) = start(Lane::AnthropicMessages, Vec::new());
        let (status, _, body) = post(&server, "/v1/chat/completions", "{}");
        assert_eq!(status, 404);
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["type"], "error");
        assert_eq!(body["error"]["type"], "not_found_error");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("POST /v1/messages")
        );
        server.stop();
        assert_eq!(
            lock(&log).as_slice(),
            ["POST /v1/chat/completions 404 not-found"]
        );
    }

    #[test]
    fn get_on_the_endpoint_is_a_405() {
        let (server, _) = start(Lane::OpenaiChat, Vec::new());
        let (status, head, body) = raw(
            &server,
            b"GET /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        assert_eq!(status, 405);
        assert!(head.contains("\r\nAllow: POST"), "{head}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("use POST")
        );
        server.stop();
    }

    #[test]
    fn a_clean_tool_gets_200_with_the_accept_body() {
        let (server, log) = start(Lane::AnthropicMessages, Vec::new());
        let tools =
            json!([{"name": "get", "description": "d", "input_schema": {"type": "object"}}]);
        let (status, head, body) = post(&server, "/v1/messages?beta=true", &messages(&tools));
        assert_eq!(status, 200, "{body}");
        assert!(head.contains("Content-Type: application/json"));
        assert_eq!(body, accept_body(Lane::AnthropicMessages).to_string());
        server.stop();
        assert_eq!(lock(&log).as_slice(), ["POST /v1/messages 200 accepted"]);
    }

    #[test]
    fn a_bad_tool_gets_the_oracle_rejection_body() {
        let (server, log) = start(Lane::AnthropicMessages, Vec::new());
        let tools = json!([
            {"name": "ok", "input_schema": {"type": "object"}},
            {"name": "t", "input_schema": {"type": "object", "anyOf": [{"required": ["a"]}]}}
        ]);
        let arr = tools.as_array().unwrap().clone();
        let want = oracle::check(&Request {
            tools_present: true,
            lane: Lane::AnthropicMessages,
            tools: &arr,
            tool_choice: None,
            response_format: None,
            as_of: oracle::DEFAULT_AS_OF,
        });
        assert_eq!(want[0].rule, "anthropic-root-composition");
        let (status, _, body) = post(&server, "/v1/messages", &messages(&tools));
        assert_eq!(status, want[0].status);
        assert_eq!(
            body,
            error_body(Lane::AnthropicMessages, &want[0]).to_string()
        );
        server.stop();
        assert_eq!(
            lock(&log).as_slice(),
            ["POST /v1/messages 400 anthropic-root-composition at tools[1]"]
        );
    }

    #[test]
    fn malformed_json_and_malformed_http_get_400() {
        let (server, log) = start(Lane::OpenaiChat, Vec::new());
        let (status, _, body) = post(&server, "/v1/chat/completions", "{\"model\": ");
        assert_eq!(status, 400);
        let body: Value = serde_json::from_str(&body).unwrap();
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("invalid JSON body")
        );
        assert_eq!(body["error"]["type"], "invalid_request_error");

        let (status, _, body) = raw(&server, b"NOT HTTP AT ALL\r\n\r\n");
        assert_eq!(status, 400);
        assert!(serde_json::from_str::<Value>(&body).is_ok(), "{body}");
        server.stop();
        assert_eq!(
            lock(&log).as_slice(),
            [
                "POST /v1/chat/completions 400 invalid-json",
                "- - 400 malformed-http"
            ]
        );
    }

    #[test]
    fn an_oversized_body_is_a_413_without_reading_it() {
        let (server, _) = start(Lane::OpenaiChat, Vec::new());
        let (status, _, _) = raw(
            &server,
            format!(
                "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
                MAX_BODY + 1
            )
            .as_bytes(),
        );
        assert_eq!(status, 413);
        server.stop();
    }

    #[test]
    fn keep_alive_serves_several_requests_and_chunked_bodies_on_one_connection() {
        let (server, log) = start(Lane::Ollama, Vec::new());
        let mut s = TcpStream::connect(server.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let body = r#"{"model":"m","messages":[],"stream":false}"#;
        let first = format!(
            "POST /api/chat HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let second = format!(
            "POST /api/chat HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        );
        s.write_all(first.as_bytes()).unwrap();
        s.write_all(second.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert_eq!(out.matches("HTTP/1.1 200 OK").count(), 2, "{out}");
        server.stop();
        assert_eq!(lock(&log).len(), 2);
    }

    #[test]
    fn gemini_routes_any_model_and_streams_as_an_array() {
        let (server, _) = start(Lane::GeminiOpenapi, Vec::new());
        let body = json!({"contents": [], "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}]}]});
        let (status, _, out) = post(
            &server,
            "/v1beta/models/gemini-2.5-pro:streamGenerateContent",
            &body.to_string(),
        );
        assert_eq!(status, 200, "{out}");
        assert_eq!(out, json!([accept_body(Lane::GeminiOpenapi)]).to_string());
        let (status, _, _) = post(&server, "/v1beta/models/m:countTokens", "{}");
        assert_eq!(status, 404);
        server.stop();
    }

    #[test]
    fn stop_returns_promptly_with_an_idle_connection_open() {
        let (server, _) = start(Lane::OpenaiChat, Vec::new());
        let _idle = TcpStream::connect(server.addr()).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        server.stop();
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    }

    #[test]
    fn routes_follow_the_real_apis() {
        assert_eq!(
            route(Lane::DeepseekChat, "/chat/completions"),
            Some(Endpoint::Plain)
        );
        assert_eq!(route(Lane::Xai, "/v1/responses"), Some(Endpoint::Plain));
        assert_eq!(
            route(
                Lane::BedrockConverse,
                "/model/anthropic.claude-v2%3A1/converse"
            ),
            Some(Endpoint::Plain)
        );
        assert_eq!(route(Lane::BedrockConverse, "/model//converse"), None);
        assert_eq!(
            route(Lane::BedrockConverse, "/model/m/converse-stream"),
            None
        );
        assert_eq!(route(Lane::Ollama, "/v1/chat/completions"), None);
        assert_eq!(
            route(
                Lane::GeminiJsonschema,
                "/v1beta/models/gemini-2.5-flash:generateContent"
            ),
            Some(Endpoint::Gemini { stream: false })
        );
        assert_eq!(
            split_target("/a?b=c#d"),
            Some(("/a".to_owned(), "b=c".to_owned()))
        );
        assert_eq!(
            split_target("http://h:1/v1/messages"),
            Some(("/v1/messages".to_owned(), String::new()))
        );
        assert_eq!(split_target("*"), None);
    }
}
