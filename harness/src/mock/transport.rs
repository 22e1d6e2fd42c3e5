//! The mock provider's HTTP/1.1 transport: hyper's http1 server on a tokio
//! runtime the server owns (a current-thread runtime driven by one
//! background thread; the handler runs on its blocking pool). It knows
//! nothing of providers: a [`Handler`] answers each request.
//!
//! Bounded by construction: a 64 KiB cap on the request head (431 beyond,
//! hyper's own answer), a timeout on reading each head (which also closes an
//! idle keep-alive connection), a deadline for the body to arrive (408
//! beyond), a 64 MiB cap on the body (413 beyond), at most
//! [`Limits::max_connections`] connections served at once (more get a 503
//! and are closed).
//!
//! This module is the only async code of the mock:
//! [`Server`] is synchronous to its callers, and the [`Handler`] is called on
//! the blocking pool, so provider code stays synchronous.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::header::{CONNECTION, CONTENT_TYPE, HeaderName, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

/// The per-request log callback.
pub(super) type LogFn = Box<dyn Fn(&str) + Send + Sync>;

/// What answers requests: the transport reads and writes HTTP, the handler
/// decides each answer.
pub(super) trait Handler: Send + Sync + 'static {
    /// The response to one request and its log verdict.
    fn handle(&self, req: &HttpRequest) -> (Response, String);

    /// The response to a request the transport refuses itself (a body over
    /// its limit or too slow to arrive, too many connections), carrying
    /// `verdict`.
    fn refuse(&self, status: u16, message: &str, verdict: &str) -> Response;
}

/// The transport's bounds. [`Limits::default`] is what `serve_mock` uses;
/// the unit tests shrink them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Limits {
    /// Largest request body accepted (413 beyond).
    pub(super) max_body: u64,
    /// Largest request head, request line and headers (431 beyond).
    pub(super) max_head: usize,
    /// Connections served at once; more get a 503 and are closed.
    pub(super) max_connections: usize,
    /// How long a request head may take to arrive, counted from the first
    /// read (on a kept-alive connection: from the end of the last answer).
    pub(super) head_timeout: Duration,
    /// How long a request body may take to arrive once its head is read.
    pub(super) body_deadline: Duration,
    /// How long `stop` lets answers in flight finish before it closes their
    /// connections.
    pub(super) grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body: 64 * 1024 * 1024,
            max_head: 64 * 1024,
            max_connections: 64,
            head_timeout: Duration::from_secs(30),
            body_deadline: Duration::from_secs(120),
            grace: Duration::from_secs(1),
        }
    }
}

/// One request, its body read.
#[derive(Debug)]
pub(super) struct HttpRequest {
    pub(super) method: String,
    /// The path, without the query string.
    pub(super) path: String,
    pub(super) query: String,
    pub(super) body: Vec<u8>,
}

/// One response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Response {
    pub(super) status: u16,
    pub(super) content_type: &'static str,
    pub(super) body: Vec<u8>,
    /// `X-Wireshape-Verdict`.
    pub(super) verdict: String,
    /// Further headers (`Allow`, `Retry-After`).
    pub(super) headers: Vec<(&'static str, String)>,
    pub(super) delivery: Delivery,
}

/// How a response goes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Delivery {
    /// Head and body at once.
    Whole,
    /// The head and the first `after` bytes of the body, then nothing for
    /// `stall`, then the rest.
    Stall { after: usize, stall: Duration },
    /// No response: the connection is closed.
    Drop,
}

impl Response {
    pub(super) fn json(status: u16, body: &Value, verdict: &str) -> Self {
        Self::bytes(
            status,
            "application/json",
            body.to_string().into_bytes(),
            verdict,
        )
    }

    pub(super) fn bytes(
        status: u16,
        content_type: &'static str,
        body: Vec<u8>,
        verdict: &str,
    ) -> Self {
        Self {
            status,
            content_type,
            body,
            verdict: verdict.to_owned(),
            headers: Vec::new(),
            delivery: Delivery::Whole,
        }
    }
}

/// A running server. Dropping it stops it too.
pub(super) struct Server {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

/// What every connection task shares.
struct Shared {
    handler: Box<dyn Handler>,
    /// Receives one line per request: `METHOD PATH STATUS VERDICT`.
    log: LogFn,
    limits: Limits,
    /// Connections being served (not counting those refused with a 503).
    active: AtomicUsize,
}

impl Server {
    /// Bind `bind` and serve `handler` there; `name` names the thread.
    pub(super) fn bind(
        bind: &str,
        name: &str,
        handler: Box<dyn Handler>,
        log: LogFn,
        limits: Limits,
    ) -> io::Result<Server> {
        let listener = std::net::TcpListener::bind(bind)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_name(format!("{name}-blocking"))
            .max_blocking_threads(limits.max_connections.max(1))
            .build()?;
        let listener = {
            let _entered = runtime.enter();
            TcpListener::from_std(listener)?
        };
        let shared = Arc::new(Shared {
            handler,
            log,
            limits,
            active: AtomicUsize::new(0),
        });
        let (stop, stopped) = watch::channel(false);
        let thread = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                runtime.block_on(accept_loop(listener, shared, stopped));
                // Handler calls still running on the blocking pool cannot be
                // cancelled: wait for them briefly, then leave them behind.
                runtime.shutdown_timeout(Duration::from_secs(1));
            })?;
        Ok(Server {
            addr,
            stop,
            thread: Some(thread),
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
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stop accepting, close every open connection (answers in flight get
    /// [`Limits::grace`] to finish) and join the thread.
    pub(super) fn shutdown(&mut self) {
        self.stop.send_replace(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Resolves once the server is told to stop (or its handle is gone).
async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|stop| *stop).await;
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>, mut stop: watch::Receiver<bool>) {
    let mut conns = JoinSet::new();
    loop {
        let accepted = tokio::select! {
            () = stopped(&mut stop) => break,
            r = listener.accept() => r,
        };
        while conns.try_join_next().is_some() {}
        let stream = match accepted {
            Ok((s, _)) => s,
            Err(e) => {
                // EMFILE and friends: back off instead of spinning.
                if !matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::ConnectionAborted
                ) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let slot = Slot::take(&shared);
        conns.spawn(serve_connection(
            stream,
            Arc::clone(&shared),
            stop.clone(),
            slot,
        ));
    }
    drop(listener);
    while conns.join_next().await.is_some() {}
}

/// A place among the connections served; `None` when all are taken.
struct Slot(Arc<Shared>);

impl Slot {
    fn take(shared: &Arc<Shared>) -> Option<Slot> {
        let max = shared.limits.max_connections;
        shared
            .active
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(shared)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serve one connection until it closes or the server stops; without a
/// slot, answer its first request with a 503 and close it.
async fn serve_connection(
    stream: TcpStream,
    shared: Arc<Shared>,
    mut stop: watch::Receiver<bool>,
    slot: Option<Slot>,
) {
    let limits = shared.limits;
    let busy = slot.is_none();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        .max_header_size(limits.max_head)
        .keep_alive(!busy);
    let service = {
        let shared = Arc::clone(&shared);
        service_fn(move |req| answer(req, Arc::clone(&shared), busy))
    };
    let conn = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    let result = tokio::select! {
        r = conn.as_mut() => r,
        () = stopped(&mut stop) => {
            conn.as_mut().graceful_shutdown();
            tokio::time::timeout(limits.grace, conn.as_mut())
                .await
                .unwrap_or(Ok(()))
        }
    };
    // hyper answers a malformed head itself (400, or 431 over the cap) and
    // closes: log it like any other request.
    if let Err(e) = result {
        if e.is_parse_too_large() {
            (shared.log)("- - 431 too-large");
        } else if e.is_parse() {
            (shared.log)("- - 400 malformed-http");
        }
    }
    drop(slot);
}

/// The error a request ends with when it is answered by closing the
/// connection.
#[derive(Debug)]
struct Dropped;

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped on purpose")
    }
}

impl std::error::Error for Dropped {}

/// Read one request's body within the limits, hand it to the handler, log
/// the verdict and build hyper's response.
async fn answer(
    req: hyper::Request<Incoming>,
    shared: Arc<Shared>,
    busy: bool,
) -> Result<hyper::Response<OutBody>, Dropped> {
    let limits = shared.limits;
    let method = req.method().as_str().to_owned();
    let path = req.uri().path().to_owned();
    let query = req.uri().query().unwrap_or_default().to_owned();
    let log = |status: &str, verdict: &str| {
        (shared.log)(&format!("{method} {path} {status} {verdict}"));
    };
    let refuse = |status: u16, message: &str, verdict: &str| {
        log(&status.to_string(), verdict);
        Ok(build(shared.handler.refuse(status, message, verdict), true))
    };
    if busy {
        return refuse(
            503,
            "wireshape mock-provider: too many open connections",
            "busy",
        );
    }
    let too_large = || {
        format!(
            "request body too large (limit {} MiB)",
            limits.max_body / (1024 * 1024)
        )
    };
    if req.body().size_hint().lower() > limits.max_body {
        return refuse(413, &too_large(), "too-large");
    }
    let cap = usize::try_from(limits.max_body).unwrap_or(usize::MAX);
    let read = Limited::new(req.into_body(), cap).collect();
    let body = match tokio::time::timeout(limits.body_deadline, read).await {
        Ok(Ok(collected)) => collected.to_bytes().to_vec(),
        Ok(Err(e)) if e.is::<LengthLimitError>() => {
            return refuse(413, &too_large(), "too-large");
        }
        // The connection failed mid-body: nobody to answer.
        Ok(Err(_)) => return Err(Dropped),
        Err(_) => {
            let message = format!(
                "request body not received within {} s",
                limits.body_deadline.as_secs()
            );
            return refuse(408, &message, "too-slow");
        }
    };
    let request = HttpRequest {
        method: method.clone(),
        path: path.clone(),
        query,
        body,
    };
    let handled = {
        let shared = Arc::clone(&shared);
        tokio::task::spawn_blocking(move || shared.handler.handle(&request)).await
    };
    let Ok((resp, verdict)) = handled else {
        // The handler panicked: answer like a provider's outage.
        return refuse(
            500,
            "wireshape mock-provider: internal error",
            "internal-error",
        );
    };
    if resp.delivery == Delivery::Drop {
        log("-", &verdict);
        return Err(Dropped);
    }
    log(&resp.status.to_string(), &verdict);
    Ok(build(resp, false))
}

/// hyper's response for ours; `close` asks the client to close.
fn build(resp: Response, close: bool) -> hyper::Response<OutBody> {
    let body = Bytes::from(resp.body);
    let out = match resp.delivery {
        Delivery::Stall { after, stall } if after < body.len() => OutBody::Stalled {
            head: Some(body.slice(..after)),
            sleep: Box::pin(tokio::time::sleep(stall)),
            tail: Some(body.slice(after..)),
            len: body.len() as u64,
        },
        _ => OutBody::Whole(Some(body)),
    };
    let mut r = hyper::Response::new(out);
    *r.status_mut() = hyper::StatusCode::from_u16(resp.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = r.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(resp.content_type));
    if let Ok(v) = HeaderValue::from_str(&resp.verdict) {
        headers.insert(HeaderName::from_static("x-wireshape-verdict"), v);
    }
    for (name, value) in &resp.headers {
        if let Ok(v) = HeaderValue::from_str(value) {
            headers.insert(HeaderName::from_static(name), v);
        }
    }
    if close {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    r
}

/// A response body: all at once, or stalled part way.
enum OutBody {
    Whole(Option<Bytes>),
    Stalled {
        head: Option<Bytes>,
        sleep: Pin<Box<tokio::time::Sleep>>,
        tail: Option<Bytes>,
        len: u64,
    },
}

impl Body for OutBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            OutBody::Whole(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            OutBody::Stalled {
                head, sleep, tail, ..
            } => {
                if let Some(b) = head.take() {
                    return Poll::Ready(Some(Ok(Frame::data(b))));
                }
                if tail.is_none() {
                    return Poll::Ready(None);
                }
                match sleep.as_mut().poll(cx) {
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(()) => Poll::Ready(tail.take().map(|b| Ok(Frame::data(b)))),
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            OutBody::Whole(bytes) => bytes.is_none(),
            OutBody::Stalled { head, tail, .. } => head.is_none() && tail.is_none(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            OutBody::Whole(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            OutBody::Stalled { len, .. } => SizeHint::with_exact(*len),
        }
    }
}
