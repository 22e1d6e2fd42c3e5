//! `junit.xml`: one test suite per lane (a test case per case), one for
//! the whole requests and one for the unused ledger entries, built and
//! serialized (escaped, indented) by quick-junit, the only user of that crate.

use std::fmt::Write as _;
use std::io;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::view::{View, clip, first_line, side_details, sorted_refs};
use crate::lane::Lane;
use crate::outcome::{CaseOutcome, Class};
use crate::semantic::SemanticClass;

/// The report as JUnit XML: every count is derived by quick-junit from
/// the cases added, so `failures` sums the failing cases, the failing
/// requests and the unused ledger entries, as the verdict does.
#[cfg(test)]
pub(super) fn junit_xml(view: &View<'_>) -> String {
    let mut bytes = Vec::new();
    write_junit(view, &mut bytes).expect("writing JUnit XML into memory cannot fail");
    String::from_utf8(bytes).expect("quick-junit writes UTF-8")
}

/// Write the report as JUnit XML to `w`, one suite at a time
/// ([`Suites`]).
#[cfg(test)]
pub(super) fn write_junit(view: &View<'_>, w: &mut impl io::Write) -> io::Result<()> {
    write_junit_via(view, w, Waiting::new())
}

/// [`write_junit`], the suites waiting in `waiting`.
#[cfg(test)]
pub(super) fn write_junit_via(
    view: &View<'_>,
    w: &mut impl io::Write,
    waiting: Waiting,
) -> io::Result<()> {
    let mut junit = Suites::via(waiting);
    for suite in suites(view) {
        junit.add(suite)?;
    }
    junit.finish(w)
}

/// The report as JUnit XML, written one suite at a time: quick-junit
/// holds a whole report before it writes it, and the 250,000 cases of the
/// 15-lane run took the process up by about 150 MB while `junit.xml` was
/// made (sampled, 2026-12-05). Each suite is serialized as the only suite
/// of a report (at the same depth) and dropped; what lies between that
/// report's `<testsuites>` tags goes between the whole report's, whose
/// counts quick-junit adds up from the suites, their cases taken out
/// (test `junit_written_by_suite_is_the_whole_report_quick_junit_writes`).
/// The suites wait for the totals in an unnamed temporary file (in memory
/// when none can be made): all of them are the whole file, 116 MB for the
/// 15-lane run over four copies of the shared corpus.
pub(super) struct Suites {
    totals: Report,
    waiting: Waiting,
}

impl Suites {
    pub(super) fn new() -> Self {
        Self::via(Waiting::new())
    }

    fn via(waiting: Waiting) -> Self {
        Self {
            totals: Report::new("wireshape"),
            waiting,
        }
    }

    /// Serialize `suite` to the waiting place and count it.
    pub(super) fn add(&mut self, suite: TestSuite) -> io::Result<()> {
        let mut one = Report::new("wireshape");
        one.add_test_suite(suite);
        let xml = serialized(&one)?;
        self.waiting.write_all(&xml[inside(&xml)])?;
        let mut counted = one.test_suites.pop().unwrap_or_else(|| TestSuite::new(""));
        counted.test_cases = Vec::new();
        self.totals.add_test_suite(counted);
        Ok(())
    }

    /// Write the whole report to `w`.
    pub(super) fn finish(self, w: &mut impl io::Write) -> io::Result<()> {
        use io::Seek as _;
        let Self { totals, waiting } = self;
        if totals.test_suites.is_empty() {
            return w.write_all(&serialized(&totals)?);
        }
        let xml = serialized(&totals)?;
        let between = inside(&xml);
        w.write_all(&xml[..between.start])?;
        match waiting {
            Waiting::File(file) => {
                let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
                file.rewind()?;
                io::copy(&mut file, w)?;
            }
            Waiting::Memory(bytes) => w.write_all(&bytes)?,
        }
        w.write_all(&xml[between.end..])
    }
}

/// Where the serialized suites wait for the totals.
pub(super) enum Waiting {
    File(io::BufWriter<std::fs::File>),
    Memory(Vec<u8>),
}

impl Waiting {
    /// An unnamed temporary file, or memory when none can be made.
    pub(super) fn new() -> Self {
        crate::spill::unnamed().map_or_else(
            || Self::Memory(Vec::new()),
            |f| Self::File(io::BufWriter::new(f)),
        )
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        use io::Write as _;
        match self {
            Self::File(f) => f.write_all(bytes),
            Self::Memory(v) => {
                v.extend_from_slice(bytes);
                Ok(())
            }
        }
    }
}

fn serialized(report: &Report) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    report.serialize(&mut bytes).map_err(io::Error::other)?;
    Ok(bytes)
}

/// The lines between the `<testsuites …>` line and the `</testsuites>`
/// line of a serialized report (empty when it has neither).
fn inside(xml: &[u8]) -> std::ops::Range<usize> {
    let find = |needle: &[u8]| xml.windows(needle.len()).position(|w| w == needle);
    let start = find(b"<testsuites")
        .and_then(|open| {
            xml[open..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|nl| open + nl + 1)
        })
        .unwrap_or(0);
    let end = xml
        .windows(b"\n</testsuites>".len())
        .rposition(|w| w == b"\n</testsuites>")
        .map_or(start, |at| at + 1);
    start..end.max(start)
}

/// Every suite: one per lane, then the whole requests and the unused
/// ledger entries when there are any. The lanes' suites are made all at
/// once: the report's writer fills each with [`add_cases`] as it reads
/// the lane.
#[cfg(test)]
pub(super) fn suites(view: &View<'_>) -> Vec<TestSuite> {
    let mut suites = Vec::new();
    // Reading the report's own outcomes cannot fail.
    let mut suite = None;
    let _ = view.each_lane(&mut |lane, outcomes, part| {
        let s = suite.get_or_insert_with(|| lane_suite(lane));
        add_cases(s, outcomes);
        if part.last {
            suites.extend(suite.take());
        }
        Ok(())
    });
    suites.extend(other_suites(view));
    suites
}

/// The suite of `lane`'s cases, empty: [`add_cases`] fills it.
pub(super) fn lane_suite(lane: Lane) -> TestSuite {
    TestSuite::new(lane.id())
}

/// A test case per case of `outcomes` (sorted by case) in `suite`, the
/// suite of their lane ([`lane_suite`]).
pub(super) fn add_cases(suite: &mut TestSuite, outcomes: &[&CaseOutcome]) {
    for o in outcomes {
        let status = if o.is_failure() {
            let (message, body, kind) = junit_failure(o);
            failure(&message, kind, &body)
        } else {
            TestCaseStatus::success()
        };
        suite.add_test_case(case(o.lane.id(), &o.case, status));
    }
}

/// The suites after the lanes': the whole requests and the unused ledger
/// entries, when there are any.
pub(super) fn other_suites<'v>(view: &'v View<'_>) -> impl Iterator<Item = TestSuite> + 'v {
    let requests = (!view.requests.is_empty()).then(|| {
        let mut suite = TestSuite::new("requests");
        for r in &view.requests {
            let status = match r.issues.first() {
                None => TestCaseStatus::success(),
                Some(first) => {
                    let mut body = format!("class: {}\n", r.class.id());
                    for i in &r.issues {
                        let _ = writeln!(body, "{}: {}", i.class.id(), i.message);
                    }
                    for (which, side) in [("old", &r.old), ("new", &r.new)] {
                        let _ = writeln!(
                            body,
                            "{which}: {} {} bytes sha256={}",
                            side.pipeline, side.bytes, side.sha256
                        );
                    }
                    failure(&first.message, first.class.id(), &body)
                }
            };
            let name = format!("{}@{}", r.catalog, r.kind.id());
            suite.add_test_case(case(&format!("requests.{}", r.lane), &name, status));
        }
        suite
    });
    let ledger = (!view.unused.is_empty()).then(|| {
        let mut suite = TestSuite::new("ledger");
        for issue in &view.unused {
            let status = failure(
                first_line(&issue.message),
                "unused-ledger-entry",
                &format!("class: {}\n{}\n", issue.class, issue.message),
            );
            let name = format!("{}#{}", issue.file, issue.index);
            suite.add_test_case(case("ledger", &name, status));
        }
        suite
    });
    requests.into_iter().chain(ledger)
}

fn case(classname: &str, name: &str, status: TestCaseStatus) -> TestCase {
    let mut case = TestCase::new(name, status);
    case.set_classname(classname);
    case
}

/// A `<failure message=… type=…>body</failure>`.
fn failure(message: &str, kind: &str, body: &str) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status
        .set_message(message)
        .set_type(kind)
        .set_description(body);
    status
}

/// The `<failure>` message (one line) and body (everything known) of a
/// failing case.
fn junit_failure(o: &CaseOutcome) -> (String, String, &'static str) {
    let mut message = Vec::new();
    let mut body = String::new();
    let kind = if o.class.is_failure() {
        o.class.id()
    } else if o.violations.is_empty() && !o.pin_breaks.is_empty() {
        "pin"
    } else {
        "violation"
    };
    match o.class {
        Class::Unexpected => {
            let tags = if o.tags.is_empty() {
                "no change tags".to_owned()
            } else {
                o.tags.join(", ")
            };
            message.push(format!("unexpected divergence: {tags}"));
        }
        Class::Errored => {
            let details = side_details(o);
            message.push(if details.is_empty() {
                "errored".to_owned()
            } else {
                format!("errored: {}", details.join("; "))
            });
        }
        _ => {}
    }
    for b in &o.pin_breaks {
        message.push(b.message.clone());
    }
    if let Some(class) = o.undeclared_semantic() {
        let s = o.new.semantic.as_ref();
        let witness = s.and_then(|s| match class {
            SemanticClass::Narrowed => s.narrowed.as_ref(),
            _ => s.widened.as_ref(),
        });
        message.push(format!(
            "{} new output, undeclared (witness {})",
            if class == SemanticClass::Narrowed {
                "narrowed"
            } else {
                "silently widened"
            },
            witness.map_or_else(String::new, |w| clip(&w.to_string(), 200))
        ));
    }
    for v in sorted_refs(&o.violations) {
        message.push(format!(
            "{} violated ({}): {}",
            v.invariant,
            v.pipeline,
            first_line(&v.message)
        ));
    }
    let _ = writeln!(body, "class: {}", o.class.id());
    for tag in &o.tags {
        let _ = writeln!(body, "tag: {tag}");
    }
    for (which, side) in [("old", &o.old), ("new", &o.new)] {
        let _ = writeln!(
            body,
            "{which}: {} {} sha256={}",
            side.pipeline, side.outcome, side.sha256
        );
        if let Some(d) = &side.detail {
            let _ = writeln!(body, "{which} detail: {d}");
        }
    }
    for v in sorted_refs(&o.violations) {
        let _ = writeln!(
            body,
            "violation {} ({}):\n{}",
            v.invariant, v.pipeline, v.message
        );
    }
    if let Some(wire) = &o.wire {
        body.push_str("diff:\n");
        body.push_str(&wire.unified);
        if !wire.unified.ends_with('\n') {
            body.push('\n');
        }
    }
    (message.join("; "), body, kind)
}
