//! The mock provider's HTTP/1.1 transport, hand-written on std (one thread
//! per connection): request parsing, chunked bodies, keep-alive, the head and
//! body limits, timeouts and the connection cap. It knows nothing of
//! providers: a [`Handler`] answers each parsed request (the seam a
//! hyper/axum server would plug into).
//!
//! Bounded by construction: read and write timeouts on every socket, a
//! deadline per request, a 64 KiB cap on the request head, a 64 MiB cap on
//! the body (413 beyond), at most [`MAX_CONNECTIONS`] connections at once.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

/// Largest request body accepted (413 beyond).
pub(super) const MAX_BODY: u64 = 64 * 1024 * 1024;
/// Largest request head (request line and headers) accepted (431 beyond).
const MAX_HEAD: usize = 64 * 1024;
/// Connections served at once; more get a 503 and are closed.
const MAX_CONNECTIONS: usize = 64;
/// How long one read or write may block (also the keep-alive idle limit).
const IO_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one request may take to arrive, head and body.
const REQUEST_DEADLINE: Duration = Duration::from_secs(120);

/// The per-request log callback.
pub(super) type LogFn = Box<dyn Fn(&str) + Send + Sync>;

/// What answers requests: the transport reads and writes HTTP, the handler
/// decides each answer.
pub(super) trait Handler: Send + Sync + 'static {
    /// The response to one request and its log verdict.
    fn handle(&self, req: &HttpRequest) -> (Response, String);

    /// The response to a request the transport refuses itself (malformed
    /// HTTP, a head or body over its limit, too many connections), carrying
    /// `verdict`.
    fn refuse(&self, status: u16, message: &str, verdict: &str) -> Response;
}

/// A running server. Dropping it stops it too.
pub(super) struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

/// State shared by the accept thread, the connection threads and the handle.
struct Shared {
    stop: AtomicBool,
    /// Live connections (a clone of each socket), to shut them down on stop.
    conns: Mutex<HashMap<u64, TcpStream>>,
    handler: Box<dyn Handler>,
    /// Receives one line per request: `METHOD PATH STATUS VERDICT`.
    log: LogFn,
}

impl Server {
    /// Bind `bind` and serve `handler` there; `name` names the accept thread.
    pub(super) fn bind(
        bind: &str,
        name: String,
        handler: Box<dyn Handler>,
        log: LogFn,
    ) -> io::Result<Server> {
        let listener = TcpListener::bind(bind)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            conns: Mutex::new(HashMap::new()),
            handler,
            log,
        });
        let accept = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(name)
                .spawn(move || accept_loop(&listener, &shared))?
        };
        Ok(Server {
            addr,
            shared,
            accept: Some(accept),
        })
    }

    /// The bound address (the real port when bound to port 0).
    pub(super) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serve until the accept loop ends (it ends only on
    /// [`Server::shutdown`], so in practice: until the process is
    /// interrupted).
    pub(super) fn wait(mut self) {
        if let Some(handle) = self.accept.take() {
            let _ = handle.join();
        }
    }

    /// Stop accepting, close every open connection and join the threads.
    pub(super) fn shutdown(&mut self) {
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

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
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
            let busy = shared.handler.refuse(
                503,
                "wireshape mock-provider: too many open connections",
                "busy",
            );
            let _ = write_response(&mut &stream, &busy, false, true);
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

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Answer requests on one connection until it closes, errs or the server stops.
fn serve_connection(stream: &TcpStream, shared: &Shared) {
    let mut reader = BufReader::new(stream);
    let mut writer = stream;
    while !shared.stop.load(Ordering::SeqCst) {
        match read_request(&mut reader, &mut writer) {
            Ok(None) | Err(ReadError::Io(_)) => break,
            Ok(Some(req)) => {
                let (resp, verdict) = shared.handler.handle(&req);
                (shared.log)(&format!(
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
                let verdict = if status == 400 {
                    "malformed-http"
                } else {
                    "too-large"
                };
                (shared.log)(&format!(
                    "{} {} {status} {verdict}",
                    method.as_deref().unwrap_or("-"),
                    path.as_deref().unwrap_or("-"),
                ));
                let refusal = shared.handler.refuse(status, &message, verdict);
                if write_response(&mut writer, &refusal, false, true).is_ok() {
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
pub(super) struct HttpRequest {
    pub(super) method: String,
    /// The path, without the query string.
    pub(super) path: String,
    pub(super) query: String,
    pub(super) body: Vec<u8>,
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
pub(super) fn split_target(target: &str) -> Option<(String, String)> {
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
pub(super) struct Response {
    pub(super) status: u16,
    pub(super) content_type: &'static str,
    pub(super) body: Vec<u8>,
    /// `X-Wireshape-Verdict`.
    pub(super) verdict: String,
    pub(super) allow_post: bool,
}

impl Response {
    pub(super) fn json(status: u16, body: &Value, verdict: &str) -> Self {
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
