//! The local mock provider: an HTTP/1.1 server (hyper on a tokio runtime
//! of its own, behind a synchronous handle) that serves one lane's real
//! endpoint paths and answers each request with the oracle's verdict in the
//! provider's own format.
//!
//! A request whose tools (and `tool_choice` / `response_format`, when the
//! recording has them) equal a recording's request gets the recorded status
//! and body, byte for byte; any other request gets the oracle's first
//! rejection (its status and [`error_body`](crate::oracle::error_body)) or
//! a 200 with the provider's minimal valid answer
//! ([`accept_body`](crate::oracle::accept_body), or its streaming form when
//! the request asks for a stream). Users point their own client's base URL
//! at it to see which tools a provider would reject.
//!
//! A [`Fault`] in [`MockOptions`] makes the first requests fail on purpose
//! (rate limit, server error, slow body, malformed JSON, dropped
//! connection), so a client's retries can be tested deterministically.
//!
//! `transport.rs` is the HTTP/1.1 server (hyper's http1 connection on a
//! runtime the server owns; bounded: a timeout on every request head, a
//! deadline for every body, caps on the head and body sizes and on open
//! connections); it knows nothing of providers and hands each request to a
//! handler. `provider.rs` is that handler: routes, recordings, the oracle's
//! verdict and each wire's bodies (a fault's answer included); `fault.rs`
//! the faults and their count. The async code of the mock (tokio, hyper)
//! stays in `transport.rs`; the rest is synchronous.

mod fault;
mod provider;
#[cfg(test)]
mod tests;
mod transport;

use std::io;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use crate::lane::Lane;
use crate::recording::{Recording, load_recordings};

use fault::Injector;
pub use fault::{Fault, FaultKind};
use provider::{Service, paths};
use transport::{Limits, Server};

/// How a mock provider behaves beyond its lane, address, recordings and
/// date.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MockOptions {
    /// The fault the first requests get (none: every request is answered
    /// normally).
    pub fault: Option<Fault>,
}

/// A running mock provider. Dropping it stops it too.
pub struct MockServer {
    lane: Lane,
    server: Server,
}

impl MockServer {
    /// The bound address (the real port when bound to port 0).
    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// `http://ADDR`, the base URL to point a client at.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr())
    }

    /// Stop accepting, close every open connection and join the threads.
    pub fn stop(mut self) {
        self.server.shutdown();
    }

    /// Serve until the accept loop ends (it ends only on [`MockServer::stop`],
    /// so in practice: until the process is interrupted).
    fn wait(self) {
        self.server.wait();
    }
}

impl std::fmt::Debug for MockServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockServer")
            .field("addr", &self.addr())
            .field("lane", &self.lane)
            .finish_non_exhaustive()
    }
}

/// Start serving `lane` on `bind` (e.g. `"127.0.0.1:0"` for a random port).
///
/// `recordings` (those of other lanes are ignored) are served verbatim when a
/// request's tools array equals a recording's request exactly (same JSON
/// value; a request without a `tools` member matches only a recording that
/// had none, see `RecordedRequest::tools_member`), and so do its
/// `tool_choice` and `response_format` when the recording has them; the
/// recording that pins the most members wins, then the first by id. Any other
/// request gets the oracle's verdict as of `as_of`: the first rejection's
/// status and [`error_body`](crate::oracle::error_body), or 200 and
/// [`accept_body`](crate::oracle::accept_body).
///
/// `options.fault`, when set, answers the first requests to the lane's
/// endpoints with that [`Fault`] instead (see [`FaultKind`]).
///
/// `log` receives one line per request:
/// `POST <path> <status> <accepted | rule-id at tools[i] | recorded <id>>`
/// (the path without its query string, which may carry a key); a faulty
/// answer's verdict is `fault <kind> (<n> of <times>)` (a slow body's: the
/// normal verdict, a comma, then that), and a dropped connection's status
/// is `-`.
pub fn serve_mock(
    lane: Lane,
    bind: &str,
    recordings: Vec<Recording>,
    as_of: String,
    options: &MockOptions,
    log: Box<dyn Fn(&str) + Send + Sync>,
) -> io::Result<MockServer> {
    serve_with_limits(
        lane,
        bind,
        recordings,
        as_of,
        options,
        log,
        Limits::default(),
    )
}

/// [`serve_mock`] within `limits` (the unit tests shrink them).
fn serve_with_limits(
    lane: Lane,
    bind: &str,
    recordings: Vec<Recording>,
    as_of: String,
    options: &MockOptions,
    log: Box<dyn Fn(&str) + Send + Sync>,
    limits: Limits,
) -> io::Result<MockServer> {
    let service = Service::new(lane, recordings, as_of, options.fault.map(Injector::new));
    let name = format!("mock-{lane}");
    let server = Server::bind(bind, &name, Box::new(service), log, limits)?;
    Ok(MockServer { lane, server })
}

/// `wireshape mock-provider`: load the recordings (if a directory is given),
/// serve `lane` on `bind` and block until the process is interrupted. The
/// first line sent to `log` names the lane, the URL and the paths.
pub(crate) fn run_mock_provider(
    lane: Lane,
    bind: &str,
    recordings_dir: Option<&Path>,
    as_of: &str,
    options: &MockOptions,
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
        options,
        Box::new(move |line| server_log(line)),
    )?;
    let fault = match options.fault {
        Some(f) => match f.kind {
            FaultKind::RateLimit | FaultKind::SlowBody => {
                format!("; fault {f}, delay {} ms", f.delay.as_millis())
            }
            _ => format!("; fault {f}"),
        },
        None => String::new(),
    };
    log(&format!(
        "wireshape mock-provider: {lane} on {} (paths: {}; {own} recording{}; as of {as_of}{fault})",
        server.url(),
        paths(lane).join(", "),
        if own == 1 { "" } else { "s" },
    ));
    server.wait();
    Ok(())
}
