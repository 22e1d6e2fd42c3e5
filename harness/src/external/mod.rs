//! External pipelines: anyone's shaper, in any language, behind the line
//! protocol of DESIGN.md ("External pipeline protocol").
//!
//! An [`ExternalPipeline`] keeps a small pool of long-lived driver
//! processes, one per worker that is shaping at the moment. Every request
//! has a timeout. A crash, a hang, a malformed or oversized line, a wrong
//! `seq`, a flood on stderr or a failure to start becomes
//! [`Outcome::Errored`] for that one case, with what happened and the last
//! lines of the driver's stderr; the process group is killed, the next case
//! starts a new process (with backoff after repeated faults), and the run
//! goes on. After [`Limits::max_start_failures`] failed starts in a row the
//! pipeline is given up: its remaining cases error at once, with the last
//! start failure (the same message every failed start gave).

mod driver;
mod protocol;
mod spec;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use crate::lane::Lane;
use crate::pipeline::{Outcome, Pipeline, Shaped};
use crate::tool::Tool;

use driver::Driver;
pub use protocol::{Implementation, LaneInfo};
use spec::Fault;
pub(crate) use spec::seconds;
pub use spec::{Limits, Spec};

/// Restarts and give-ups, shared by the pool's users.
#[derive(Debug, Default)]
struct Health {
    /// Faults since the last good answer (for the backoff).
    faults_in_a_row: u32,
    /// Failed starts since the last good start.
    start_failures_in_a_row: u32,
    /// Set once the pipeline is given up: the last start failure.
    given_up: Option<String>,
}

/// An external implementation as a [`Pipeline`].
pub struct ExternalPipeline {
    spec: Spec,
    /// What the driver announced at its first start (`None`: it did not start).
    implementation: Option<Implementation>,
    /// Lane → the implementation's lane id.
    served: BTreeMap<Lane, String>,
    /// Lanes two or more implementation lanes claim (not served).
    ambiguous: BTreeMap<Lane, Vec<String>>,
    idle: Mutex<Vec<Driver>>,
    health: Mutex<Health>,
}

impl ExternalPipeline {
    /// Start one driver and learn its lanes. A driver that does not start
    /// is not an error here: its cases will error, one by one.
    pub fn new(spec: Spec) -> Self {
        let mut p = Self {
            spec,
            implementation: None,
            served: BTreeMap::new(),
            ambiguous: BTreeMap::new(),
            idle: Mutex::new(Vec::new()),
            health: Mutex::new(Health::default()),
        };
        match p.start() {
            Ok((driver, implementation)) => {
                p.implementation = Some(implementation);
                p.idle.lock().expect("fresh lock").push(driver);
            }
            Err(fault) => p.note_start_failure(&fault),
        }
        let (served, ambiguous) = lane_map(&p.spec.lanes, p.implementation.as_ref());
        p.served = served;
        p.ambiguous = ambiguous;
        p
    }

    /// What the driver announced at start, when it started.
    pub fn implementation(&self) -> Option<&Implementation> {
        self.implementation.as_ref()
    }

    /// The lanes this pipeline serves, with the implementation's lane ids.
    pub fn served(&self) -> &BTreeMap<Lane, String> {
        &self.served
    }

    /// Lanes that several implementation lanes claim, so none is used.
    pub fn ambiguous(&self) -> &BTreeMap<Lane, Vec<String>> {
        &self.ambiguous
    }

    fn start(&self) -> Result<(Driver, Implementation), String> {
        let mut driver = Driver::spawn(&self.spec).map_err(|f| f.to_string())?;
        let answer = driver.exchange(
            protocol::START.to_vec(),
            self.spec.limits.start,
            &self.spec.limits,
        );
        match answer.and_then(|line| protocol::parse_start(&line).map_err(Fault::Start)) {
            Ok(implementation) => Ok((driver, implementation)),
            Err(fault) => {
                let message = match fault {
                    Fault::Start(_) => describe(&fault, &driver),
                    other => describe(&Fault::Start(other.to_string()), &driver),
                };
                driver.kill();
                Err(message)
            }
        }
    }

    fn note_start_failure(&self, fault: &str) {
        let mut h = self.health.lock().expect("health lock");
        h.start_failures_in_a_row += 1;
        h.faults_in_a_row += 1;
        if h.start_failures_in_a_row >= self.spec.limits.max_start_failures {
            h.given_up = Some(fault.to_owned());
        }
    }

    /// An idle driver, or a new one (after the backoff the last faults ask for).
    fn checkout(&self) -> Result<Driver, String> {
        if let Some(d) = self.idle.lock().expect("pool lock").pop() {
            return Ok(d);
        }
        let wait = {
            let h = self.health.lock().expect("health lock");
            if let Some(last) = &h.given_up {
                // The same message as the failed starts: which case met
                // which does not depend on the workers' timing.
                return Err(last.clone());
            }
            backoff(h.faults_in_a_row)
        };
        std::thread::sleep(wait);
        match self.start() {
            Ok((driver, _)) => {
                self.health
                    .lock()
                    .expect("health lock")
                    .start_failures_in_a_row = 0;
                Ok(driver)
            }
            Err(message) => {
                self.note_start_failure(&message);
                Err(message)
            }
        }
    }

    fn errored(&self, tool: &Tool, message: &str) -> Shaped {
        Shaped {
            tool: tool.clone(),
            degradations: Vec::new(),
            outcome: Outcome::Errored {
                message: format!("{}: {message}", self.spec.id),
            },
        }
    }
}

/// 0 after the first fault, then 50 ms doubling up to 2 s.
fn backoff(faults_in_a_row: u32) -> Duration {
    match faults_in_a_row {
        0 | 1 => Duration::ZERO,
        n => Duration::from_millis(50u64 << (n - 2).min(6)).min(Duration::from_secs(2)),
    }
}

/// What went wrong, with the driver's last stderr lines when it wrote any.
fn describe(fault: &Fault, driver: &Driver) -> String {
    let tail = driver.stderr_tail();
    if tail.is_empty() {
        fault.to_string()
    } else {
        format!("{fault}; stderr: {tail}")
    }
}

/// Which implementation lane serves each lane: the config's map when it has
/// one; else the announced lanes, an id equal to a lane id first, then the
/// lane their `wire` names (two claimants make the lane ambiguous); a driver
/// that never started is taken to serve every lane under its own id.
fn lane_map(
    configured: &BTreeMap<String, Lane>,
    announced: Option<&Implementation>,
) -> (BTreeMap<Lane, String>, BTreeMap<Lane, Vec<String>>) {
    let mut served = BTreeMap::new();
    let mut ambiguous: BTreeMap<Lane, Vec<String>> = BTreeMap::new();
    if !configured.is_empty() {
        for (id, lane) in configured {
            served.entry(*lane).or_insert_with(|| id.clone());
        }
        return (served, ambiguous);
    }
    let Some(implementation) = announced else {
        for lane in Lane::ALL {
            served.insert(*lane, lane.id().to_owned());
        }
        return (served, ambiguous);
    };
    let mut by_wire: BTreeMap<Lane, Vec<String>> = BTreeMap::new();
    for (id, info) in &implementation.lanes {
        if let Ok(lane) = Lane::parse(id) {
            served.insert(lane, id.clone());
        } else if let Some(lane) = info.wire.as_deref().and_then(|w| Lane::parse(w).ok()) {
            by_wire.entry(lane).or_default().push(id.clone());
        }
    }
    for (lane, ids) in by_wire {
        if served.contains_key(&lane) {
            continue;
        }
        if let [only] = ids.as_slice() {
            served.insert(lane, only.clone());
        } else {
            ambiguous.insert(lane, ids);
        }
    }
    (served, ambiguous)
}

impl Pipeline for ExternalPipeline {
    fn id(&self) -> String {
        self.spec.id.clone()
    }

    fn serves(&self, lane: Lane) -> bool {
        self.served.contains_key(&lane)
    }

    fn reports_degradations(&self) -> bool {
        self.implementation
            .as_ref()
            .is_some_and(|i| i.reports_degradations)
    }

    /// The protocol shapes tools only: the whole request is the default
    /// one, with no request rules.
    fn requests_count_tools_only(&self) -> bool {
        true
    }

    fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
        let Some(impl_lane) = self.served.get(&lane) else {
            return self.errored(tool, &format!("serves no implementation lane for {lane}"));
        };
        let mut driver = match self.checkout() {
            Ok(d) => d,
            Err(message) => return self.errored(tool, &message),
        };
        let seq = driver.next_seq();
        let request = protocol::shape_request(seq, impl_lane, tool);
        let reply = driver
            .exchange(request, self.spec.limits.request, &self.spec.limits)
            .and_then(|line| protocol::parse_reply(seq, &line));
        match reply {
            Ok(reply) => {
                self.health.lock().expect("health lock").faults_in_a_row = 0;
                self.idle.lock().expect("pool lock").push(driver);
                reply.into_shaped(lane, tool, &self.spec.id)
            }
            Err(fault) => {
                let message = describe(&fault, &driver);
                driver.kill();
                self.health.lock().expect("health lock").faults_in_a_row += 1;
                self.errored(
                    tool,
                    &format!("{message} (killed; the next case restarts it)"),
                )
            }
        }
    }
}

impl Drop for ExternalPipeline {
    fn drop(&mut self) {
        if let Ok(idle) = self.idle.get_mut() {
            for driver in idle.drain(..) {
                driver.stop();
            }
        }
    }
}

#[cfg(test)]
mod tests;
