//! Faults on purpose, for testing a client's retries: the first `times`
//! requests to the lane's endpoints get the fault, every later one the
//! normal answer, so a retry succeeds deterministically.
//!
//! The kinds: `rate-limit` (429, a `Retry-After` header in whole seconds and
//! the provider's own rate-limit body), `server-error` (500 with the
//! provider's body), `slow-body` (the normal answer's status and headers,
//! half its body, then nothing for the delay, then the rest),
//! `malformed-json` (200 with the provider's valid answer cut in half) and
//! `drop-connection` (the connection is closed without any response).
//!
//! This file holds the faults and their count; `provider.rs` builds each
//! fault's answer in the lane's format.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// 429 with `Retry-After` and the provider's rate-limit body.
    RateLimit,
    /// 500 with the provider's server-error body.
    ServerError,
    /// The normal answer, its body stalled half way for the delay.
    SlowBody,
    /// 200 with a truncated JSON body.
    MalformedJson,
    /// The TCP connection closed without a response.
    DropConnection,
}

impl FaultKind {
    /// Every kind, in the order `--help` lists them.
    pub const ALL: [FaultKind; 5] = [
        Self::RateLimit,
        Self::ServerError,
        Self::SlowBody,
        Self::MalformedJson,
        Self::DropConnection,
    ];

    /// The kind's name on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Self::RateLimit => "rate-limit",
            Self::ServerError => "server-error",
            Self::SlowBody => "slow-body",
            Self::MalformedJson => "malformed-json",
            Self::DropConnection => "drop-connection",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for FaultKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|k| k.id() == s).ok_or_else(|| {
            let ids: Vec<&str> = Self::ALL.iter().map(|k| k.id()).collect();
            format!("unknown fault `{s}` (one of: {})", ids.join(", "))
        })
    }
}

/// A fault and how many requests it hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    /// How many requests get the fault before the mock answers normally
    /// (`None`: every request).
    pub times: Option<u32>,
    /// `slow-body`: how long the body stalls; `rate-limit`: the
    /// `Retry-After` it announces (in whole seconds, rounded up). Unused by
    /// the other kinds.
    pub delay: Duration,
}

impl Fault {
    /// The delay when none is given.
    pub const DEFAULT_DELAY: Duration = Duration::from_secs(1);

    /// `kind` on every request, with the default delay.
    pub fn new(kind: FaultKind) -> Self {
        Self {
            kind,
            times: None,
            delay: Self::DEFAULT_DELAY,
        }
    }

    /// Only the first `n` requests get the fault.
    #[must_use]
    pub fn times(mut self, n: u32) -> Self {
        self.times = Some(n);
        self
    }

    /// The stall of `slow-body`, the `Retry-After` of `rate-limit`.
    #[must_use]
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// `Retry-After`: the delay in whole seconds, rounded up.
    pub fn retry_after_secs(&self) -> u64 {
        self.delay.as_secs() + u64::from(self.delay.subsec_nanos() > 0)
    }
}

/// `KIND[:TIMES]`, e.g. `rate-limit:2` (no count: every request).
impl FromStr for Fault {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, times) = match s.split_once(':') {
            Some((k, n)) => (k, Some(n)),
            None => (s, None),
        };
        let fault = Fault::new(kind.parse()?);
        match times {
            None => Ok(fault),
            Some(n) => match n.parse::<u32>() {
                Ok(n) if n > 0 => Ok(fault.times(n)),
                _ => Err(format!(
                    "`{n}` in `{s}` is not a positive number of requests (KIND[:TIMES])"
                )),
            },
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.times {
            Some(n) => write!(f, "{}:{n}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

/// A fault as a running server applies it: the count of requests hit.
#[derive(Debug)]
pub(super) struct Injector {
    fault: Fault,
    hits: AtomicU64,
}

impl Injector {
    pub(super) fn new(fault: Fault) -> Self {
        Self {
            fault,
            hits: AtomicU64::new(0),
        }
    }

    /// Whether this request gets the fault: the fault and the verdict tag
    /// (`fault KIND (N of TIMES)`) if so, `None` once its requests are used
    /// up.
    pub(super) fn next(&self) -> Option<(Fault, String)> {
        let limit = self.fault.times.map_or(u64::MAX, u64::from);
        let nth = self
            .hits
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()?
            + 1;
        let fault = self.fault;
        let tag = match fault.times {
            Some(n) => format!("fault {} ({nth} of {n})", fault.kind),
            None => format!("fault {} ({nth})", fault.kind),
        };
        Some((fault, tag))
    }
}
