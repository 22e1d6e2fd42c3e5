//! Unit tests of the provider facts.

use super::*;

#[test]
fn every_fact_has_an_https_doc_and_the_read_date() {
    for s in KEYWORD_SETS {
        assert!(s.doc.starts_with("https://"), "{}", s.id);
        assert_eq!(s.read, "2026-12-01", "{}", s.id);
        assert!(!s.items.is_empty(), "{}", s.id);
    }
    for l in LIMITS {
        assert!(l.doc.starts_with("https://"), "{}", l.id);
        assert_eq!(l.read, "2026-12-01", "{}", l.id);
    }
    for q in OPEN_QUESTIONS {
        assert!(q.docs.iter().all(|d| d.starts_with("https://")), "{}", q.id);
        assert_eq!(q.read, "2026-12-01", "{}", q.id);
    }
}

#[test]
fn facts_import_nothing_from_the_crate() {
    // The bottom layer: passes and rules read it, it reads neither.
    // Every file of the module but this one.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/facts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs") && !p.ends_with("tests.rs"))
        .collect();
    files.sort();
    assert!(files.len() > 1, "{}", dir.display());
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let code = source
            .find("#[cfg(test)]")
            .map_or(source.as_str(), |i| &source[..i]);
        for needle in [["cra", "te::"].concat(), ["use ", "std"].concat()] {
            assert!(
                !code.contains(&needle),
                "{} mentions {needle}",
                file.display()
            );
        }
    }
}

#[test]
fn fact_ids_are_unique() {
    let mut ids: Vec<&str> = KEYWORD_SETS
        .iter()
        .map(|s| s.id)
        .chain(LIMITS.iter().map(|l| l.id))
        .chain(OPEN_QUESTIONS.iter().map(|q| q.id))
        .collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

#[test]
fn openai_strict_formats_are_the_nine_documented_ones_without_uri() {
    assert_eq!(
        openai::STRICT_FORMATS.items,
        [
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid"
        ]
    );
    assert!(anthropic::STRICT_FORMATS.items.contains(&"uri"));
}

#[test]
fn openai_rejected_keywords_overlap_no_supported_list_and_no_open_question() {
    for set in [
        &openai::STRICT_GENERAL,
        &openai::STRICT_STRING,
        &openai::STRICT_NUMBER,
        &openai::STRICT_OBJECT,
        &openai::STRICT_ARRAY,
    ] {
        for k in set.items {
            assert!(!openai::STRICT_REJECTED.items.contains(k), "{k}");
        }
    }
    for k in [
        "minLength",
        "maxLength",
        "const",
        "default",
        "title",
        "$schema",
    ] {
        assert!(!openai::STRICT_REJECTED.items.contains(&k), "{k}");
    }
}

#[test]
fn gemini_schema_has_22_fields_and_an_alias_for_every_multi_word_one() {
    assert_eq!(gemini::SCHEMA_FIELDS.items.len(), 22);
    let multi: Vec<&str> = gemini::SCHEMA_FIELDS
        .items
        .iter()
        .copied()
        .filter(|f| f.chars().any(|c| c.is_ascii_uppercase()))
        .collect();
    assert_eq!(multi.len(), gemini::SCHEMA_FIELD_ALIASES.items.len());
}

#[test]
fn open_questions_are_found_by_id() {
    assert_eq!(
        open_question("openai-strict-min-max-length").map(|q| q.provider),
        Some("openai")
    );
    assert!(open_question("no-such-question").is_none());
}
