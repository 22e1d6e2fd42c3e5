//! Tests of the report directory: fixtures here (a small report with every
//! class, a nasty case name, a violation, an unused and a stale ledger entry,
//! an unusable corpus file), the tests in one file per concern.

mod files;
mod html;
mod junit;
mod markdown;
mod spilled;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::Arc;

use super::files::RUN_JSON;
use super::view::View;
use super::write_report;
use crate::degradation::{Action, Degradation};
use crate::lane::Lane;
use crate::outcome::{
    CaseOutcome, CasePlan, Class, LedgerIssue, LedgerMatch, LedgerTable, LedgerUse, RunMeta,
    RunReport, Sha256Sum, Side, Summary, Violation, WirePair,
};

const NASTY: &str = r#"weird#<&"'>"#;

fn side(pipeline: &str, outcome: &str, sha: &str) -> Side {
    Side {
        pipeline: pipeline.to_owned(),
        outcome: serde_json::from_value(serde_json::Value::from(outcome)).unwrap(),
        detail: None,
        sha256: Sha256Sum::from_hex(&sha.repeat(64 / sha.len())).unwrap(),
        degradations: Vec::new(),
        rejected_by: Vec::new(),
        semantic: None,
    }
}

fn case(lane: &str, case: &str, class: Class, tags: &[&str]) -> CaseOutcome {
    CaseOutcome {
        lane: Lane::parse(lane).unwrap(),
        case: case.to_owned(),
        class,
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        ledger: Vec::new(),
        old: side("v0", "shaped", "a"),
        new: side("v1", "shaped", if class == Class::Identical { "a" } else { "b" }),
        violations: Vec::new(),
        wire: (class != Class::Identical).then(|| {
            Box::new(WirePair {
            old: "{\n  \"name\": \"t\",\n  \"pattern\": \"^a\"\n}".to_owned(),
            new: "{\n  \"name\": \"t\"\n}".to_owned(),
            unified: "--- v0\n+++ v1\n@@ -1,4 +1,3 @@\n {\n-  \"name\": \"t\",\n-  \"pattern\": \"^a\"\n+  \"name\": \"t\"\n }\n".to_owned(),
        })
        }),
        verdict: None,
        pin_breaks: Vec::new(),
    }
}

fn ledger_match(file: &str, index: usize, class: &str) -> Arc<LedgerMatch> {
    Arc::new(LedgerMatch {
        file: file.to_owned(),
        table: LedgerTable::Divergence,
        index,
        class: class.to_owned(),
        reason: "v1 drops `pattern` on purpose".to_owned(),
    })
}

fn lanes() -> Vec<Lane> {
    vec![
        Lane::AnthropicMessages,
        Lane::GeminiOpenapi,
        Lane::OpenaiChat,
    ]
}

/// Three lanes, every class, a nasty case name, a violation, an unused
/// and a stale ledger entry, an unusable corpus file.
fn sample_parts() -> (Vec<CaseOutcome>, Vec<LedgerUse>, Vec<LedgerIssue>) {
    let mut reordered = case(
        "anthropic-messages",
        "a#order",
        Class::Reordered,
        &["order:properties"],
    );
    reordered
        .ledger
        .push(ledger_match("anthropic.toml", 0, "reordered"));
    let mut intended = case(
        "gemini-openapi",
        "g#enum",
        Class::Intended,
        &["new:enum:rewritten"],
    );
    intended
        .ledger
        .push(ledger_match("gemini.toml", 0, "intended"));
    intended.new.degradations.push(Degradation {
        tool: "enum".into(),
        lane: Lane::GeminiOpenapi,
        path: "/properties/kind".to_owned(),
        keyword: "enum".to_owned(),
        action: Action::Rewritten,
        reason: "integer enum becomes string enum".into(),
        rule: None,
        pass: "enum-strings".into(),
        renamed_to: None,
    });
    let mut errored = case(
        "gemini-openapi",
        "g#boom",
        Class::Errored,
        &["outcome:shaped->errored"],
    );
    errored.new.outcome = crate::pipeline::OutcomeKind::Errored;
    errored.new.detail = Some("panic: index out of bounds\nat passes/flatten.rs".to_owned());
    errored.wire = None;
    let mut violated = case("openai-chat", "o#same", Class::Identical, &[]);
    violated.violations.push(Violation {
        invariant: crate::outcome::Invariant::Idempotence,
        pipeline: "v1".to_owned(),
        message: "shape(shape(x)) != shape(x)\nfirst: {}\nsecond: {\"type\":\"object\"}".to_owned(),
    });
    let outcomes = vec![
        case("openai-chat", "o#plain", Class::Identical, &[]),
        violated,
        case("anthropic-messages", "a#same", Class::Identical, &[]),
        case(
            "anthropic-messages",
            NASTY,
            Class::Unexpected,
            &["new:pattern:removed", "old:<b>&amp;:kept"],
        ),
        reordered,
        intended,
        errored,
        case("openai-chat", "o#ok", Class::Identical, &[]),
    ];
    let uses = vec![
        LedgerUse {
            file: "anthropic.toml".to_owned(),
            table: LedgerTable::Divergence,
            index: 0,
            class: "reordered".to_owned(),
            uses: 1,
        },
        LedgerUse {
            file: "gemini.toml".to_owned(),
            table: LedgerTable::Divergence,
            index: 0,
            class: "intended".to_owned(),
            uses: 1,
        },
        LedgerUse {
            file: "gemini.toml".to_owned(),
            table: LedgerTable::Divergence,
            index: 1,
            class: "intended".to_owned(),
            uses: 0,
        },
    ];
    let issues = vec![LedgerIssue {
        file: "anthropic.toml".to_owned(),
        table: LedgerTable::Divergence,
        index: 0,
        class: "reordered".to_owned(),
        kind: crate::outcome::LedgerIssueKind::Stale,
        message: "sha256 pin no longer matches the new bytes".to_owned(),
    }];
    (outcomes, uses, issues)
}

fn unusable() -> BTreeMap<String, String> {
    BTreeMap::from([(
        "corpus/broken.json".to_owned(),
        "corpus/broken.json:3:1: expected value".to_owned(),
    )])
}

fn report_from(
    outcomes: Vec<CaseOutcome>,
    uses: Vec<LedgerUse>,
    issues: Vec<LedgerIssue>,
) -> RunReport {
    let mut report = RunReport {
        old: "v0".to_owned(),
        new: "v1".to_owned(),
        plan: outcomes
            .iter()
            .map(|o| CasePlan {
                lane: o.lane,
                case: o.case.as_str().into(),
            })
            .collect(),
        outcomes,
        ledger_use: uses,
        ledger_issues: issues,
        unusable: unusable(),
        summary: Summary::default(),
        sharded: false,
        fuzz: None,
        requests: Vec::new(),
    };
    report.finish(&lanes());
    report
}

fn sample() -> RunReport {
    let (outcomes, uses, issues) = sample_parts();
    report_from(outcomes, uses, issues)
}

fn meta(started_at: &str) -> RunMeta {
    RunMeta {
        wireshape_version: "0.1.0".to_owned(),
        started_at: started_at.to_owned(),
        duration_ms: 1234,
        command: vec!["wireshape".to_owned(), "run".to_owned()],
        old: "v0".to_owned(),
        new: "v1".to_owned(),
        lanes: lanes(),
        corpus: vec!["corpus".to_owned()],
        shard: None,
        fuzz: None,
    }
}

/// Every file of a report directory, its path under `dir` (`data/<lane>.js`
/// for the lane files) → bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            for (inner, bytes) in files(&e.path()) {
                out.insert(format!("{name}/{inner}"), bytes);
            }
        } else {
            out.insert(name, fs::read(e.path()).unwrap());
        }
    }
    out
}

/// The JSON object of a `data/<lane>.js` file (between its first and last line).
fn lane_data(dir: &Path, lane: &str) -> serde_json::Value {
    let text = read(dir, &format!("data/{lane}.js"));
    let json = text
        .strip_prefix("wireshapeLane(\n")
        .and_then(|t| t.strip_suffix("\n);\n"))
        .unwrap();
    serde_json::from_str(json).unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).unwrap()
}

fn assert_same_files_except_run_json(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
    for (name, bytes) in &fa {
        if name != RUN_JSON {
            assert!(
                bytes == &fb[name],
                "{name} differs between {} and {}",
                a.display(),
                b.display()
            );
        }
    }
}

/// Tool and catalog text that would run as script if it reached the page
/// unescaped, with both quotes and an ampersand.
const HOSTILE: &str = r#"<script>alert(1)</script>"&'"#;

/// One unexpected case whose tool name, description, tag, detail, ledger
/// reason and violation message carry [`HOSTILE`] text, and an unusable
/// catalog named with it.
fn hostile_report() -> RunReport {
    let mut o = case(
        "openai-chat",
        &format!("catalog.json#0-{HOSTILE}"),
        Class::Unexpected,
        &[&format!("new:description:{HOSTILE}")],
    );
    let tool = serde_json::json!({ "name": HOSTILE, "description": HOSTILE });
    let wire = o.wire.as_mut().unwrap();
    wire.old = serde_json::to_string_pretty(&tool).unwrap();
    wire.new = wire.old.clone();
    wire.unified = wire.old.lines().flat_map(|l| [" ", l, "\n"]).collect();
    o.new.detail = Some(format!("tool {HOSTILE}: description rewritten"));
    let mut m = ledger_match("openai.toml", 0, "intended");
    Arc::make_mut(&mut m).reason = format!("keeps {HOSTILE}");
    o.ledger.push(m);
    o.violations.push(Violation {
        invariant: crate::outcome::Invariant::Idempotence,
        pipeline: "v1".to_owned(),
        message: format!("tool {HOSTILE} changed twice"),
    });
    let mut report = report_from(vec![o], Vec::new(), Vec::new());
    report.unusable = BTreeMap::from([(
        format!("catalogs/{HOSTILE}.json"),
        format!("catalog {HOSTILE}: expected value"),
    )]);
    report
}
