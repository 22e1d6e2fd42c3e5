//! `summary.md`: exact text of a small report, a clean run, the list
//! limit, Markdown escaping; and an undeclared narrowing in every renderer.

use super::*;
use crate::report::html::index_html;
use crate::report::junit::junit_xml;
use crate::report::markdown::{Code, Md, summary_md};
use crate::semantic::SemanticClass;

#[test]
fn markdown_code_spans_and_inline_text_escape_backticks_and_markup() {
    assert_eq!(Code("a`b").to_string(), "``a`b``");
    assert_eq!(Code("`a").to_string(), "`` `a ``");
    assert_eq!(Md("a_b <c> | d").to_string(), "a\\_b \\<c\\> \\| d");
}

#[test]
fn summary_md_for_a_small_report_is_exactly_this() {
    let md = summary_md(&View::new(&sample()));
    let expected = r#"# wireshape: v0 → v1

**4 failures** (3 failing cases, 1 unused ledger entry) in 8 cases on 3 lanes; 1 stale ledger entry (warning)

| lane | identical | reordered | intended | unexpected | errored | total |
|:---|---:|---:|---:|---:|---:|---:|
| anthropic-messages | 1 | 1 | 0 | 1 | 0 | 3 |
| gemini-openapi | 0 | 0 | 1 | 0 | 1 | 2 |
| openai-chat | 3 | 0 | 0 | 0 | 0 | 3 |
| **total** | 4 | 1 | 1 | 1 | 1 | 8 |

Outputs the lane's oracle rejects (one rejected tool takes the whole request down; a new one fails the run unless a `[[rejection]]` ledger entry declares it):

| lane | old rejected | new rejected | declared | undeclared |
|:---|---:|---:|---:|---:|
| anthropic-messages | 0 | 0 | 0 | 0 |
| gemini-openapi | 0 | 0 | 0 | 0 |
| openai-chat | 0 | 0 | 0 | 0 |
| **total** | 0 | 0 | 0 | 0 |

Semantic classes on instances of the author's schema (old → new; a narrowing of a shaped tool or a silent widening fails the run unless a `[[narrowing]]`/`[[widening]]` ledger entry declares it):

| lane | preserved | widened | silent | narrowed | unjudged | declared | undeclared |
|:---|---:|---:|---:|---:|---:|---:|---:|
| anthropic-messages | 0 → 0 | 0 → 0 | 0 | 0 → 0 | 0 → 0 | 0 | 0 |
| gemini-openapi | 0 → 0 | 0 → 0 | 0 | 0 → 0 | 0 → 0 | 0 | 0 |
| openai-chat | 0 → 0 | 0 → 0 | 0 | 0 → 0 | 0 → 0 | 0 | 0 |

## Unexpected divergences (1)

- `anthropic-messages::weird#<&"'>`: `new:pattern:removed`, `old:<b>&amp;:kept`

## Errored (1)

- `gemini-openapi::g#boom`: new errored: panic: index out of bounds

## Invariant violations (1)

- `openai-chat::o#same` idempotence (`v1`): shape(shape(x)) != shape(x)

## Ledger (2)

- unused (fails the run): `gemini.toml#1` (intended): ledger entry gemini.toml#1 (intended) matched no case in a run over the corpus it was written for: remove it or fix its \`case\`
- stale (warning): `anthropic.toml#0` (reordered): sha256 pin no longer matches the new bytes

## Unusable corpus files (1)

- `corpus/broken.json`: corpus/broken.json:3:1: expected value

---

Exit code 1: failures found: unexpected or errored cases, undeclared rejected outputs, undeclared narrowings or silent widenings, invariant violations, broken pins, failing requests or unused ledger entries. Details: `index.html`, `junit.xml`, `divergences.jsonl` and one `*.txt` list per class in the report directory.
"#;
    assert_eq!(md, expected);
}

#[test]
fn summary_md_of_a_clean_run_says_clean_and_has_no_sections() {
    let report = report_from(
        vec![case("openai-chat", "o#ok", Class::Identical, &[])],
        Vec::new(),
        Vec::new(),
    );
    let md = summary_md(&View::new(&RunReport {
        unusable: BTreeMap::new(),
        ..report
    }));
    assert!(md.contains("\n**clean**: 1 case on 3 lanes\n"), "{md}");
    assert!(!md.contains("\n## "), "{md}");
    assert!(md.ends_with("Exit code 0: clean: no unexpected or errored cases, no undeclared rejected outputs, no undeclared narrowings or silent widenings, no invariant violations, no broken pins, no failing requests, no unused ledger entries (stale ledger entries and unusable corpus files only warn). Details: `index.html`, `junit.xml`, `divergences.jsonl` and one `*.txt` list per class in the report directory.\n"), "{md}");
}

#[test]
fn summary_md_lists_at_most_50_unexpected_cases() {
    let outcomes = (0..53)
        .map(|i| case("openai-chat", &format!("c#{i:02}"), Class::Unexpected, &[]))
        .collect();
    let md = summary_md(&View::new(&report_from(outcomes, Vec::new(), Vec::new())));
    assert!(
        md.contains("- `openai-chat::c#49`\n- … and 3 more (see `unexpected.txt`)\n"),
        "{md}"
    );
    assert!(!md.contains("c#50"));
}

#[test]
fn an_undeclared_narrowing_is_counted_listed_with_its_witness_and_fails() {
    let mut o = case("openai-chat", "o#enum", Class::Identical, &[]);
    o.new.semantic = Some(std::sync::Arc::new(crate::semantic::Semantics {
        class: SemanticClass::Narrowed,
        instances: 7,
        widened: None,
        narrowed: Some(serde_json::json!({})),
        narrowed_kinds: vec![crate::semantic::NarrowingKind::Other],
        silent: false,
        reason: None,
        disagreements: vec![2],
        losses: crate::semantic::Losses::default(),
    }));
    assert!(o.is_failure());
    let mut report = report_from(vec![o], Vec::new(), Vec::new());
    report.unusable.clear();
    report.finish(&[Lane::OpenaiChat]);
    let view = View::new(&report);
    let md = summary_md(&view);
    assert!(
        md.contains("| openai-chat | 0 → 0 | 0 → 0 | 0 | 0 → 1 | 0 → 0 | 0 | 1 |\n"),
        "{md}"
    );
    assert!(
        md.contains("## Undeclared changes of meaning (1)\n\n- `openai-chat::o#enum` (narrowed: other): witness `{}`\n"),
        "{md}"
    );
    let junit = junit_xml(&view);
    assert!(
        junit.contains("narrowed new output, undeclared (witness {})"),
        "{junit}"
    );
    let html = index_html(&view);
    assert!(html.contains(r#"<section id="semantic">"#));
    // Listed among the failures with its undeclared class; the witness is
    // in the lane file's detail.
    assert!(
        html.contains(
            r#"<td><span class="badge identical">identical</span> <span class="badge narrowed">narrowed</span></td>"#
        ),
        "{html}"
    );
}
