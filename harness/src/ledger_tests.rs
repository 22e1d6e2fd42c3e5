//! Tests of the ledger: matching, judging, loading, the pair directories.

use super::*;

fn entry(case: &str, tags: &[&str]) -> Entry {
    Entry {
        case: case.into(),
        class: "c".into(),
        reason: "r".into(),
        evidence: vec![],
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        when: vec![],
        external: false,
        new_sha256: None,
    }
}

fn ledger(entries: Vec<Entry>) -> LaneLedger {
    LaneLedger {
        file: "lane.toml".into(),
        entries,
        ..LaneLedger::default()
    }
}

fn tags(t: &[&str]) -> Vec<String> {
    t.iter().map(|s| (*s).to_owned()).collect()
}

fn scope(own: &[&str], external: &[&str]) -> RunScope {
    let ids = |c: &[&str]| c.iter().map(|c| (*c).to_owned()).collect();
    RunScope {
        own: ids(own),
        external: ids(external),
    }
}

/// The unused entries of a run whose only ledger is `l`, judged in
/// `scope`, and the run's exit status.
fn unused_in(l: &LaneLedger, scope: &RunScope) -> (Vec<String>, crate::ExitStatus) {
    let mut report = crate::RunReport {
        ledger_use: l.uses(&MatchCounts::default(), scope),
        ..crate::RunReport::default()
    };
    report.finish(&[]);
    let unused = report
        .ledger_issues
        .iter()
        .map(|i| i.message.clone())
        .collect();
    (unused, report.exit_status())
}

/// A glob entry (not `external`) is written for the own corpus: a run
/// over other catalogs only (29,870 external cases, say) does not fail
/// because it met none of its cases.
#[test]
fn a_wildcard_entry_is_unused_only_in_a_run_over_the_own_corpus() {
    let l = ledger(vec![entry("*", &["bytes"]), entry("seed-tools#*", &[])]);
    let external_only = scope(&[], &["bfcl/simple", "seed-tools"]);
    assert_eq!(
        unused_in(&l, &external_only),
        (Vec::new(), crate::ExitStatus::Clean)
    );
    assert!(l.uses(&MatchCounts::default(), &external_only).is_empty());
    let own = scope(&["fixtures"], &[]);
    assert_eq!(
        unused_in(&l, &own),
        (
            vec![
                "ledger entry lane.toml#0 (c) matched no case in a run over the corpus it was written for: remove it or fix its `case`".to_owned(),
                "ledger entry lane.toml#1 (c) matched no case in a run over the corpus it was written for: remove it or fix its `case`".to_owned(),
            ],
            crate::ExitStatus::Failures
        )
    );
    // Used by a case: counted, not unused.
    let matched = LedgerMatch {
        file: "lane.toml".into(),
        table: LedgerTable::Divergence,
        index: 1,
        class: "c".into(),
        reason: "r".into(),
    };
    let uses = l.uses(&MatchCounts::of([&matched]), &own);
    assert_eq!(
        uses.iter().map(|u| (u.index, u.uses)).collect::<Vec<_>>(),
        [(0, 0), (1, 1)]
    );
}

/// An exact case id is written for its catalog: judged only when that
/// catalog was loaded, own or external.
#[test]
fn an_entry_for_one_case_is_unused_only_in_a_run_over_its_catalog() {
    let l = ledger(vec![entry("bfcl/simple#get_weather", &["bytes"])]);
    let judged = |catalogs: &[&str]| {
        l.uses(&MatchCounts::default(), &scope(&["fixtures"], catalogs))
            .iter()
            .map(|u| u.index)
            .collect::<Vec<_>>()
    };
    assert_eq!(judged(&[]), Vec::<usize>::new());
    assert_eq!(judged(&["seed-tools", "bfcl"]), Vec::<usize>::new());
    assert_eq!(judged(&["bfcl/simple"]), [0]);
    assert_eq!(unused_in(&l, &scope(&["seed-tools"], &[])).0.len(), 0);
    assert_eq!(
        unused_in(&l, &scope(&[], &["bfcl/simple"])),
        (
            vec!["ledger entry lane.toml#0 (c) matched no case in a run over the corpus it was written for: remove it or fix its `case`".to_owned()],
            crate::ExitStatus::Failures
        )
    );
    // A `#` inside the tool name: the catalog is still found.
    assert!(scope(&["c"], &[]).judges("c#a#b", false));
}

#[test]
fn each_pipeline_pair_has_its_own_default_ledger_directory() {
    assert_eq!(pair_dir("v0", "v1"), Path::new("corpus/ledger"));
    assert_eq!(pair_dir("v1", "v1"), Path::new("corpus/ledger/v1--v1"));
    assert_eq!(pair_dir("v1", "v0"), Path::new("corpus/ledger/v1--v0"));
    assert_eq!(
        pair_dir("v0", "verbatim"),
        Path::new("corpus/ledger/v0--verbatim")
    );
    assert_eq!(
        pair_dir("v1", "my_shaper-2.0"),
        Path::new("corpus/ledger/v1--my_shaper-2.0")
    );
    // sha256("cmd:python3 driver.py --serve") = 8ae7c76c8f45…
    assert_eq!(
        pair_dir("v1", "cmd:python3 driver.py --serve"),
        Path::new("corpus/ledger/v1--cmd-8ae7c76c8f45")
    );
    assert_eq!(
        pair_dir(
            "cmd:python3 driver.py --serve",
            "cmd:node peers/ts/driver.mjs"
        ),
        Path::new("corpus/ledger/cmd-8ae7c76c8f45--cmd-d86f08f9d776")
    );
    // sha256("") = e3b0c44298fc…: an empty id names no directory.
    assert_eq!(
        pair_dir("", "v1"),
        Path::new("corpus/ledger/cmd-e3b0c44298fc--v1")
    );
}

#[test]
fn globs_match_whole_case_ids() {
    assert!(glob_match("*", "seed-tools#agent"));
    assert!(glob_match("seed-tools#*", "seed-tools#agent"));
    assert!(!glob_match("seed-tools#*", "fixtures#agent"));
    assert!(glob_match("fixtures#root_?ot", "fixtures#root_not"));
    assert!(glob_match("old:*:removed", "old:enum:removed"));
    assert!(!glob_match("old:*:removed", "new:enum:removed"));
    assert!(glob_match("a*b*c", "aXXbYYc"));
    assert!(!glob_match("a*b*c", "aXXbYY"));
    // `?` is one character, however many bytes it takes.
    assert!(glob_match("caf?#?", "café#ü"));
    assert!(!glob_match("caf??", "café"));
    assert!(glob_match("*é*", "résumé"));
    assert!(glob_match("a*a", "aéa"));
    assert!(!glob_match("a*a", "aé"));
    assert!(glob_match("exact#id", "exact#id"));
    assert!(!glob_match("exact#id", "exact#i"));
    assert!(glob_match("**", ""));
    assert!(!glob_match("?", ""));
}

#[test]
fn a_case_is_intended_only_when_every_tag_is_covered() {
    let l = ledger(vec![
        entry("*", &["old:enum:removed"]),
        entry("*", &["new:description:noted"]),
    ]);
    let v = l.judge(
        "f#t",
        false,
        &tags(&["new:description:noted", "old:enum:removed"]),
        "h",
    );
    assert!(v.intended);
    assert_eq!(v.matches.len(), 2);
    let v = l.judge("f#t", false, &tags(&["old:enum:removed", "bytes"]), "h");
    assert!(!v.intended);
    assert!(v.matches.is_empty());
}

#[test]
fn when_tags_gate_an_entry() {
    let mut e = entry("*", &["old:*", "outcome:*"]);
    e.when = vec!["outcome:shaped->failed-closed".into()];
    let l = ledger(vec![e]);
    assert!(
        l.judge(
            "f#t",
            false,
            &tags(&["old:nullable:added", "outcome:shaped->failed-closed"]),
            "h"
        )
        .intended
    );
    assert!(
        !l.judge("f#t", false, &tags(&["old:nullable:added"]), "h")
            .intended
    );
}

#[test]
fn a_pin_that_no_longer_matches_is_stale_and_covers_nothing() {
    let mut e = entry("f#t", &[]);
    e.new_sha256 = Some("abc".into());
    let l = ledger(vec![e]);
    assert!(l.judge("f#t", false, &tags(&["bytes"]), "abc").intended);
    let v = l.judge("f#t", false, &tags(&["bytes"]), "def");
    assert!(!v.intended);
    assert_eq!(v.stale, [0]);
}

#[test]
fn external_entries_apply_only_to_external_cases() {
    let mut e = entry("*", &["bytes"]);
    e.external = true;
    let l = ledger(vec![e]);
    assert!(
        !l.judge("fixtures#t", false, &tags(&["bytes"]), "h")
            .intended
    );
    assert!(
        l.judge("bfcl/simple#t", true, &tags(&["bytes"]), "h")
            .intended
    );
    assert!(
        l.uses(&MatchCounts::default(), &scope(&["fixtures"], &[]))
            .is_empty(),
        "not judged without an external corpus"
    );
    assert_eq!(
        l.uses(&MatchCounts::default(), &scope(&[], &["bfcl/simple"]))[0].uses,
        0
    );
}

/// An entry for generated cases (`case = "fuzz/…"`) still judges them,
/// but has no use count: generated matches never count, so it cannot
/// be unused (and fail every run without `--fuzz`).
/// An `external = true` entry is written for the external catalogs it
/// can name: a run over other external catalogs does not judge it.
#[test]
fn an_external_entry_is_unused_only_in_a_run_over_an_external_catalog_it_can_name() {
    let mut suite = entry("json-schema-test-suite/*", &["bytes"]);
    suite.external = true;
    let mut any = entry("*", &["bytes"]);
    any.external = true;
    let l = ledger(vec![suite, any]);
    let judged = |own: &[&str], external: &[&str]| {
        l.uses(&MatchCounts::default(), &scope(own, external))
            .iter()
            .map(|u| u.index)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        judged(&["json-schema-test-suite/x"], &[]),
        Vec::<usize>::new()
    );
    assert_eq!(judged(&[], &["bfcl/simple"]), [1]);
    assert_eq!(
        judged(&[], &["json-schema-test-suite"]),
        [1],
        "a catalog beside the directory"
    );
    assert_eq!(
        judged(
            &[],
            &["bfcl/simple", "json-schema-test-suite/draft2020-12/anchor"]
        ),
        [0, 1]
    );
}

#[test]
fn entries_for_generated_cases_judge_them_and_are_never_unused() {
    let l = ledger(vec![entry("fuzz/*", &["bytes"]), entry("*", &["bytes"])]);
    assert!(l.judge("fuzz/1#7", false, &tags(&["bytes"]), "h").intended);
    let uses = l.uses(
        &MatchCounts::default(),
        &scope(&["fixtures"], &["bfcl/simple"]),
    );
    assert_eq!(
        uses.iter().map(|u| u.index).collect::<Vec<_>>(),
        [1],
        "only the catalog entry has a use count"
    );
}

#[test]
fn a_bad_ledger_file_names_its_position() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("x.toml"),
        "[[divergence]]\ncase = \"*\"\nclas = \"typo\"\n",
    )
    .unwrap();
    let err = load_lane(dir.path(), "x").unwrap_err().to_string();
    assert!(err.ends_with("x.toml:3:1: unknown field `clas`, expected one of `case`, `class`, `reason`, `evidence`, `tags`, `when`, `external`, `new_sha256`"), "{err}");
}

#[test]
fn semantic_entries_declare_only_the_kinds_they_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("x.toml"),
        "[[narrowing]]\ncase = \"*\"\nkinds = [\"drops-optional\"]\nclass = \"strict\"\nreason = \"r\"\n\n\
         [[widening]]\ncase = \"f#*\"\nkinds = [\"normalize\"]\nclass = \"prune\"\nreason = \"r\"\n",
    )
    .unwrap();
    let l = load_lane(dir.path(), "x").unwrap();
    let n = |kinds: &[&str]| {
        l.judge_semantic(LedgerTable::Narrowing, "f#t", false, &tags(kinds), &[])
            .len()
    };
    assert_eq!(n(&["drops-optional"]), 1);
    assert_eq!(n(&["drops-optional", "other"]), 0);
    assert_eq!(n(&["ignored-nullable"]), 0);
    let w = |case: &str, kinds: &[&str]| {
        l.judge_semantic(LedgerTable::Widening, case, false, &tags(kinds), &[])
            .len()
    };
    assert_eq!(w("f#t", &["normalize"]), 1);
    assert_eq!(w("g#t", &["normalize"]), 0);
    assert_eq!(w("f#t", &["normalize", "narrow-root-composition"]), 0);
    let uses = l.uses(&MatchCounts::default(), &scope(&["f"], &[]));
    assert_eq!(
        uses.iter().map(|u| u.table).collect::<Vec<_>>(),
        [LedgerTable::Narrowing, LedgerTable::Widening]
    );
    // `when` gates an entry on what the pipeline did.
    let mut gated = l.clone();
    gated.narrowings[0].when = vec!["*-root-*".into()];
    let with = |records: &[&str]| {
        gated
            .judge_semantic(
                LedgerTable::Narrowing,
                "f#t",
                false,
                &tags(&["drops-optional"]),
                &tags(records),
            )
            .len()
    };
    assert_eq!(with(&["narrow-root-composition", "normalize"]), 1);
    assert_eq!(with(&["normalize"]), 0);
}

#[test]
fn an_unknown_narrowing_kind_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("x.toml"),
        "[[narrowing]]\ncase = \"*\"\nkinds = [\"drop-optional\"]\nclass = \"c\"\nreason = \"r\"\n",
    )
    .unwrap();
    let err = load_lane(dir.path(), "x").unwrap_err().to_string();
    assert!(
        err.ends_with("[[narrowing]] entry 0: unknown narrowing kind `drop-optional`, expected one of drops-optional, closes-objects, ignored-nullable, other"),
        "{err}"
    );
}

#[test]
fn a_missing_ledger_file_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    assert!(load_lane(dir.path(), "nope").unwrap().entries.is_empty());
}

#[test]
fn accepted_entries_render_as_divergence_tables() {
    let mut e = entry("f#t", &["bytes"]);
    e.new_sha256 = Some("ab".into());
    assert_eq!(
        to_toml(&[e]),
        "[[divergence]]\ncase = \"f#t\"\nclass = \"c\"\nreason = \"r\"\ntags = [\"bytes\"]\nnew_sha256 = \"ab\"\n"
    );
}

/// A `failed` entry declares only outputs that failed closed in one of its
/// passes: the same rules on a tool that failed closed for another cause,
/// or that was shaped, stay undeclared.
#[test]
fn a_failed_entry_declares_only_tools_failed_closed_in_its_passes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("x.toml"),
        "[[rejection]]\ncase = \"*\"\nrules = [\"lane-root-*\", \"lane-name\"]\n\
         failed = [\"root-*\"]\nclass = \"non-object-root\"\nreason = \"r\"\n",
    )
    .unwrap();
    let l = load_lane(dir.path(), "x").unwrap();
    let judge = |failed_in: Option<&str>, rules: &[&str]| {
        l.judge_rejection(
            "f#t",
            false,
            OracleVerdict::FailedClosedRejected,
            failed_in,
            &tags(rules),
        )
        .into_iter()
        .map(|m| m.class)
        .collect::<Vec<_>>()
    };
    assert_eq!(
        judge(Some("root-object"), &["lane-root-type", "lane-name"]),
        ["non-object-root"]
    );
    assert!(judge(Some("refs-into-defs"), &["lane-name"]).is_empty());
    assert!(judge(None, &["lane-root-type"]).is_empty());
    assert!(judge(Some("root-object"), &["lane-other"]).is_empty());
}
