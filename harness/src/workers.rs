//! The worker pool: jobs `0..count` run on threads, at most `jobs` at a
//! time, and the calling thread receives each result, with its index, as
//! it finishes (completion order). A job's panic is re-raised on the
//! calling thread with its own payload. Wraps `std::thread` only.
//!
//! One dispatch loop ([`dispatch`]) with two front ends, because the two
//! callers want different ownership:
//! - [`scoped`] (the differential run): jobs borrow the caller's data (the
//!   pipelines, the loaded corpus), so they run on scoped threads. A scoped
//!   thread is joined when the scope ends, so it cannot be abandoned: this
//!   front end has no deadline, by its type.
//! - [`detached`] (the mutants watchdog): each job owns its data
//!   (`'static`), so a job past its deadline can be reported as
//!   [`Finished::TimedOut`] and its thread *abandoned*: Rust cannot kill a
//!   thread, so it is detached (never joined) and its late result, sent into
//!   a channel nobody reads any more, is dropped. The run goes on with a new
//!   thread in its place; the process exits at the end regardless.
//!
//! Moving the differential to owned inputs instead (to use one front end)
//! would clone or `Arc` the whole corpus and the pipelines for a deadline it
//! does not use. Rayon is not used: it cannot abandon a thread.
//!
//! [`scoped`] starts `jobs` long-lived workers that take the next index
//! until none is left; [`detached`] starts one thread per job (never more
//! than `jobs` alive and counted), so a job past its deadline is replaced
//! by the next one. When the system refuses a thread, the jobs run on the
//! calling thread instead (without a deadline).

use std::any::Any;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How a job ended, as [`detached`] reports it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Finished<T> {
    /// The job returned this.
    Done(T),
    /// The job was still running at its deadline: its thread is abandoned.
    TimedOut,
}

/// What a job's thread sends back: its index and its value, or the
/// payload of its panic.
type Sent<T> = (usize, Result<T, Box<dyn Any + Send>>);

/// Results a worker of [`scoped`] may finish before `on_done` takes them:
/// enough to keep the workers busy through a second or so of `on_done`
/// work (a progress snapshot, a large catalog's requests: at 64 the
/// 15-lane run's workers waited through both), few enough that what waits
/// stays small (256 tool groups of a run per worker, a few megabytes).
const AHEAD: usize = 256;

/// Run `work(i)` for every `i` in `0..count` on at most `jobs` scoped
/// threads named `<name>-<w>` (0 counts as 1), each taking the next index
/// until none is left; `on_done(i, value)` runs on the calling thread as
/// each job finishes, in completion order. A job's panic stops the handing
/// out of indices and is re-raised here once the jobs already running have
/// finished. Long-lived workers, not a thread per job: a run has one job
/// per case, hundreds of thousands of them. The workers stay at most
/// [`AHEAD`] results per worker ahead of `on_done`: while it is busy (a
/// large catalog's whole requests compared on the calling thread) their
/// results do not pile up in memory.
pub(crate) fn scoped<T: Send>(
    name: &str,
    jobs: usize,
    count: usize,
    work: &(dyn Fn(usize) -> T + Sync),
    on_done: &mut dyn FnMut(usize, T),
) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (done, results) = mpsc::sync_channel::<Sent<T>>(AHEAD * jobs.max(1));
    let mut panic = None;
    std::thread::scope(|scope| {
        let (next, stop) = (&next, &stop);
        let worker = |done: SyncSender<Sent<T>>| {
            move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let result = catch_unwind(AssertUnwindSafe(|| work(i)));
                    // The receiver is gone only if the caller is unwinding.
                    if done.send((i, result)).is_err() {
                        break;
                    }
                }
            }
        };
        let mut started = 0;
        for w in 0..jobs.max(1).min(count) {
            if std::thread::Builder::new()
                .name(format!("{name}-{w}"))
                .spawn_scoped(scope, worker(done.clone()))
                .is_ok()
            {
                started += 1;
            }
        }
        drop(done);
        if started == 0 {
            // Every thread refused: the jobs run here, one after another.
            for i in 0..count {
                match catch_unwind(AssertUnwindSafe(|| work(i))) {
                    Ok(v) => on_done(i, v),
                    Err(payload) => {
                        panic = Some(payload);
                        break;
                    }
                }
            }
        }
        for (i, result) in results {
            match result {
                Ok(v) if panic.is_none() => on_done(i, v),
                Ok(_) => {}
                Err(payload) => {
                    stop.store(true, Ordering::Relaxed);
                    panic.get_or_insert(payload);
                }
            }
        }
    });
    if let Some(payload) = panic {
        resume_unwind(payload);
    }
}

/// Run every job `make(i)` builds (on the calling thread, in index order)
/// on a detached thread of its own named `<name>-<i>`, at most `jobs` at a time (0 counts as
/// 1); `on_done(i, …)` runs on the calling thread as each job finishes, in
/// completion order. A job still running `deadline` after it started
/// (`None`, or a deadline too large for the clock: no limit) is reported
/// as [`Finished::TimedOut`] and abandoned; this returns without waiting
/// for it. A job's panic is re-raised here at once.
pub(crate) fn detached<T, J>(
    name: &str,
    jobs: usize,
    count: usize,
    deadline: Option<Duration>,
    make: &mut dyn FnMut(usize) -> J,
    on_done: &mut dyn FnMut(usize, Finished<T>),
) where
    T: Send + 'static,
    J: FnOnce() -> T + Send + 'static,
{
    let mut start = |i: usize, done: Sender<Sent<T>>| {
        // Shared with the thread, so a refused thread's job can run here.
        let job = Arc::new(Mutex::new(Some(make(i))));
        let here = done.clone();
        let run = {
            let job = Arc::clone(&job);
            move || run_sent(i, &job, &done)
        };
        if std::thread::Builder::new()
            .name(format!("{name}-{i}"))
            .spawn(run)
            .is_err()
        {
            run_sent(i, &job, &here);
        }
    };
    dispatch(jobs, count, deadline, &mut start, on_done);
}

/// Take the value out of a slot shared with the workers (each slot is
/// taken once; a poisoned lock still holds its value).
pub(crate) fn take<T: Default>(slot: &Mutex<T>) -> T {
    std::mem::take(&mut *slot.lock().unwrap_or_else(PoisonError::into_inner))
}

/// Take the job out of its cell, run it and send what it gave.
fn run_sent<T, J: FnOnce() -> T>(i: usize, job: &Mutex<Option<J>>, done: &Sender<Sent<T>>) {
    if let Some(job) = take(job) {
        let result = catch_unwind(AssertUnwindSafe(job));
        // The receiver is gone only once the caller stopped waiting for us.
        let _ = done.send((i, result));
    }
}

/// The one dispatch loop: `start(i, sender)` starts job `i` (it must send
/// `(i, result)` once, from wherever it runs); at most `jobs` are running;
/// results go to `on_done` as they arrive, jobs past `deadline` as
/// [`Finished::TimedOut`]; a panic payload is re-raised.
fn dispatch<T>(
    jobs: usize,
    count: usize,
    deadline: Option<Duration>,
    start: &mut dyn FnMut(usize, Sender<Sent<T>>),
    on_done: &mut dyn FnMut(usize, Finished<T>),
) {
    let (done, results) = mpsc::channel::<Sent<T>>();
    // Index → deadline (`None`: none) of every job started and not over.
    let mut running: BTreeMap<usize, Option<Instant>> = BTreeMap::new();
    let mut next = 0;
    loop {
        while running.len() < jobs.max(1) && next < count {
            let at = deadline.and_then(|d| Instant::now().checked_add(d));
            running.insert(next, at);
            start(next, done.clone());
            next += 1;
        }
        if running.is_empty() {
            break;
        }
        let first = running.values().flatten().min().copied();
        let received = match first {
            Some(t) => results.recv_timeout(t.saturating_duration_since(Instant::now())),
            None => results.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok((i, Ok(v))) => {
                // A result from a job already given up on is dropped.
                if running.remove(&i).is_some() {
                    on_done(i, Finished::Done(v));
                }
            }
            Ok((_, Err(panic))) => resume_unwind(panic),
            Err(RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                let late: Vec<usize> = running
                    .iter()
                    .filter(|(_, t)| t.is_some_and(|t| t <= now))
                    .map(|(i, _)| *i)
                    .collect();
                for i in late {
                    running.remove(&i);
                    on_done(i, Finished::TimedOut);
                }
            }
            // Unreachable: `done` is held here until the end.
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// Every delivered index, in delivery order.
    fn delivered_scoped(jobs: usize, count: usize) -> Vec<(usize, usize)> {
        let mut got = Vec::new();
        scoped("t", jobs, count, &|i| i * 10, &mut |i, v| got.push((i, v)));
        got
    }

    #[test]
    fn scoped_with_jobs_1_delivers_every_index_in_index_order() {
        assert_eq!(
            delivered_scoped(1, 5),
            [(0, 0), (1, 10), (2, 20), (3, 30), (4, 40)]
        );
    }

    #[test]
    fn scoped_workers_wait_while_on_done_is_busy() {
        let started = AtomicUsize::new(0);
        let work = |i: usize| {
            started.fetch_add(1, Ordering::SeqCst);
            i
        };
        let mut seen = None;
        let mut delivered = 0;
        scoped("t", 2, 1000, &work, &mut |_, _| {
            if seen.is_none() {
                std::thread::sleep(Duration::from_millis(200));
                seen = Some(started.load(Ordering::SeqCst));
            }
            delivered += 1;
        });
        // The one taken, a full channel, and one more each worker waits to
        // hand over; unbounded, all 1,000 would have run by then.
        assert!(seen.unwrap() <= 1 + 2 * AHEAD + 2, "{seen:?} started");
        assert_eq!(delivered, 1000);
    }

    #[test]
    fn scoped_with_more_jobs_than_items_delivers_each_index_once() {
        let got = delivered_scoped(8, 3);
        assert_eq!(got.len(), 3);
        let set: BTreeSet<(usize, usize)> = got.into_iter().collect();
        assert_eq!(set, BTreeSet::from([(0, 0), (1, 10), (2, 20)]));
        assert_eq!(delivered_scoped(4, 0), Vec::<(usize, usize)>::new());
        assert_eq!(delivered_scoped(0, 2), [(0, 0), (1, 10)]);
    }

    #[test]
    fn scoped_jobs_borrow_the_callers_data() {
        let words = ["a".to_owned(), "bb".to_owned(), "ccc".to_owned()];
        let mut lens = vec![0; words.len()];
        scoped("t", 2, words.len(), &|i| words[i].len(), &mut |i, n| {
            lens[i] = n;
        });
        assert_eq!(lens, [1, 2, 3]);
    }

    #[test]
    fn scoped_never_runs_more_than_jobs_at_once() {
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let work = |_| {
            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            now.fetch_sub(1, Ordering::SeqCst);
        };
        let mut count = 0;
        scoped("t", 2, 6, &work, &mut |_, ()| count += 1);
        assert_eq!(count, 6);
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_scoped_jobs_panic_is_re_raised_on_the_caller_with_its_payload() {
        let caught = catch_unwind(AssertUnwindSafe(|| {
            scoped(
                "t",
                2,
                4,
                &|i| assert!(i != 2, "job {i} failed"),
                &mut |_, ()| {},
            );
        }));
        let payload = caught.unwrap_err();
        assert_eq!(
            payload.downcast_ref::<String>().map(String::as_str),
            Some("job 2 failed")
        );
    }

    /// Every delivery of a detached run, in delivery order.
    fn delivered_detached(
        jobs: usize,
        count: usize,
        deadline: Option<Duration>,
        job: fn(usize) -> usize,
    ) -> Vec<(usize, Finished<usize>)> {
        let mut got = Vec::new();
        detached(
            "t",
            jobs,
            count,
            deadline,
            &mut |i| move || job(i),
            &mut |i, f| got.push((i, f)),
        );
        got
    }

    /// A job that never returns (its thread is abandoned).
    fn hang() -> ! {
        loop {
            std::thread::park();
        }
    }

    #[test]
    fn detached_with_jobs_1_delivers_every_index_in_index_order() {
        assert_eq!(
            delivered_detached(1, 3, None, |i| i + 1),
            [
                (0, Finished::Done(1)),
                (1, Finished::Done(2)),
                (2, Finished::Done(3))
            ]
        );
    }

    #[test]
    fn detached_with_more_jobs_than_items_delivers_each_index_once() {
        let mut got = delivered_detached(5, 2, Some(Duration::from_secs(60)), |i| i);
        got.sort_by_key(|(i, _)| *i);
        assert_eq!(got, [(0, Finished::Done(0)), (1, Finished::Done(1))]);
    }

    #[test]
    fn a_detached_job_that_never_returns_is_timed_out_and_the_others_finish() {
        // Job 1 hangs; with jobs=1 the jobs after it still run once it is
        // abandoned.
        let got = delivered_detached(1, 3, Some(Duration::from_millis(200)), |i| {
            if i == 1 {
                hang();
            }
            i
        });
        assert_eq!(
            got,
            [
                (0, Finished::Done(0)),
                (1, Finished::TimedOut),
                (2, Finished::Done(2))
            ]
        );
    }

    #[test]
    fn a_detached_job_without_a_deadline_is_waited_for() {
        let got = delivered_detached(2, 2, None, |i| {
            std::thread::sleep(Duration::from_millis(50));
            i
        });
        let set: BTreeSet<usize> = got
            .into_iter()
            .map(|(i, f)| {
                assert_eq!(f, Finished::Done(i));
                i
            })
            .collect();
        assert_eq!(set, BTreeSet::from([0, 1]));
    }

    #[test]
    fn a_detached_jobs_panic_is_re_raised_on_the_caller_with_its_payload() {
        let caught = catch_unwind(|| {
            delivered_detached(2, 3, Some(Duration::from_secs(60)), |i| {
                assert!(i != 1, "mutant {i} failed");
                i
            })
        });
        let payload = caught.unwrap_err();
        assert_eq!(
            payload.downcast_ref::<String>().map(String::as_str),
            Some("mutant 1 failed")
        );
    }
}
