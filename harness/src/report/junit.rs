//! `junit.xml`: one test suite per lane (a test case per case), one for
//! the whole requests and one for the unused ledger entries, built and
//! serialized (escaped, indented) by quick-junit, the only user of that crate.

use std::fmt::Write as _;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::view::{View, clip, first_line, side_details, sorted_refs};
use crate::outcome::{CaseOutcome, Class};
use crate::semantic::SemanticClass;

/// The report as JUnit XML: every count is derived by quick-junit from
/// the cases added, so `failures` sums the failing cases, the failing
/// requests and the unused ledger entries, as the verdict does.
pub(super) fn junit_xml(view: &View<'_>) -> String {
    let mut report = Report::new("wireshape");
    for lane in view.lanes.keys() {
        let mut suite = TestSuite::new(*lane);
        for o in view.outcomes.iter().filter(|o| o.lane.id() == *lane) {
            let status = if o.is_failure() {
                let (message, body, kind) = junit_failure(o);
                failure(&message, kind, &body)
            } else {
                TestCaseStatus::success()
            };
            suite.add_test_case(case(o.lane.id(), &o.case, status));
        }
        report.add_test_suite(suite);
    }
    if !view.requests.is_empty() {
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
        report.add_test_suite(suite);
    }
    if !view.unused.is_empty() {
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
        report.add_test_suite(suite);
    }
    report
        .to_string()
        .expect("serializing JUnit XML into memory cannot fail")
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
