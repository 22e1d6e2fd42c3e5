//! Property tests: the fuzz targets' properties under proptest, and the
//! replay of every committed fuzz regression.
//!
//! Inputs come from the library's generator (`wireshape::testing::generate`, the one
//! the fuzz targets and `wireshape run --fuzz` use), fed by proptest bytes,
//! so `cargo test` explores the same hostile space as `cargo fuzz` on a
//! small budget; the properties are the library's
//! (`wireshape::testing::properties`), the same the fuzz targets and the
//! differential run check. The fuzz crate's target dispatch
//! (`fuzz/src/input.rs`, compiled in here) replays the committed crashes.

use std::path::{Path, PathBuf};

use arbitrary::Unstructured;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use wireshape::testing::generate;
use wireshape::testing::properties;

#[allow(unreachable_pub, dead_code)]
#[path = "../../fuzz/src/input.rs"]
mod input;

/// Few cases per property: the file stays well under 20 s on two cores.
/// `PROPTEST_CASES=N` asks for more (a longer local hunt).
const CASES: u32 = 24;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(CASES),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/props.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// A generated tool from proptest bytes (as the fuzz targets make them).
fn tool(bytes: &[u8]) -> wireshape::Tool {
    generate::tool(&mut Unstructured::new(bytes)).expect("the generator never fails on short input")
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..1024)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn shape_no_panic(b in bytes()) {
        prop_assert_eq!(properties::shape_no_panic(&tool(&b)), Ok(()));
    }

    #[test]
    fn shape_idempotent(b in bytes()) {
        prop_assert_eq!(properties::shape_idempotent(&tool(&b)), Ok(()));
    }

    #[test]
    fn shape_never_silent(b in bytes()) {
        prop_assert_eq!(properties::shape_never_silent(&tool(&b)), Ok(()));
    }

    #[test]
    fn shape_conforms(b in bytes()) {
        prop_assert_eq!(properties::shape_conforms(&tool(&b)), Ok(()));
    }

    #[test]
    fn catalog_load_no_panic(b in vec(any::<u8>(), 0..512)) {
        prop_assert_eq!(properties::catalog_load_no_panic(&b), Ok(()));
    }

    #[test]
    fn oracle_no_panic(b in bytes()) {
        prop_assert_eq!(properties::oracle_no_panic_on_tool(&tool(&b)), Ok(()));
    }
}

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions")
}

/// Every committed crash input (`fuzz-regressions/<target>/<file>`, its
/// note beside it as `<file>.note`) passes its target's property now.
#[test]
fn fuzz_regressions_replay() {
    let mut failures = Vec::new();
    let mut replayed = 0;
    for target in input::TARGETS {
        let dir = regressions_dir().join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .map(|e| e.expect("readable dir entry").path())
            .filter(|p| p.extension().is_none_or(|x| x != "note"))
            .collect();
        files.sort();
        for file in files {
            let note = file.with_file_name(format!(
                "{}.note",
                file.file_name().unwrap().to_string_lossy()
            ));
            assert!(
                note.is_file(),
                "{}: a regression needs its one-line note",
                file.display()
            );
            let data = std::fs::read(&file).unwrap();
            replayed += 1;
            if let Some(Err(message)) = input::run_target(target, &data) {
                failures.push(format!("{}: {message}", file.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {replayed} fuzz regressions fail:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every regression directory is named after a fuzz target.
#[test]
fn fuzz_regression_dirs_name_targets() {
    let Ok(entries) = std::fs::read_dir(regressions_dir()) else {
        return;
    };
    for e in entries {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            input::TARGETS.contains(&name.as_str()),
            "fuzz-regressions/{name} is not a fuzz target"
        );
    }
}

/// The libFuzzer dictionary lists exactly the generator's keywords.
#[test]
fn the_dictionary_lists_the_generator_keywords() {
    let dict = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/json-schema.dict"),
    )
    .unwrap();
    let listed: Vec<&str> = dict
        .lines()
        .filter(|l| l.starts_with("kw_"))
        .filter_map(|l| l.split_once("=\"\\\"")?.1.strip_suffix("\\\":\""))
        .collect();
    assert_eq!(listed, generate::KEYWORDS);
}

/// Every committed seed of a shape target is a schema the properties hold
/// on (the seeds are the project's corpus, which v1 must handle).
#[test]
fn seeds_pass_their_targets() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds");
    for target in input::TARGETS {
        let Ok(entries) = std::fs::read_dir(seeds.join(target)) else {
            panic!("fuzz/seeds/{target} is missing");
        };
        for e in entries {
            let path = e.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            assert_eq!(
                input::run_target(target, &data),
                Some(Ok(())),
                "{}",
                path.display()
            );
        }
    }
}
