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
            if let Some(Err(message)) = input::replay_target(target, &data) {
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

/// A JSON input's cell is a hash of its bytes: `{}` is deepseek-strict, v0,
/// read as JSON Lines (FNV-1a of `{}` is 0x08f4_4b07_b590_1a25).
#[test]
fn a_json_input_names_its_cell_by_a_hash_of_its_bytes() {
    let (cell, tool) = input::decode(b"{}");
    assert_eq!(
        cell,
        input::Cell {
            lane: wireshape::Lane::DeepseekStrict,
            profile: wireshape::Profile::V0,
            format: Some(wireshape::Format::Jsonl),
        }
    );
    assert_eq!(tool.unwrap().input_schema, serde_json::json!({}));
}

/// Any other input's first byte picks the lane (`b % 16`) and the profile
/// (`(b / 16) % 2`); the rest drive the generator, so the same rest gives
/// the same tool in every cell.
#[test]
fn a_generated_input_names_its_cell_by_its_first_byte() {
    let rest = [0xffu8, 0x03, 0x41, 0x00, 0x17, 0x99, 0x20, 0x05];
    let mut cells = std::collections::BTreeSet::new();
    let mut tools = std::collections::BTreeSet::new();
    for first in 0..=255u8 {
        let mut data = vec![first];
        data.extend_from_slice(&rest);
        let (cell, tool) = input::decode(&data);
        assert_eq!(cell.lane, wireshape::Lane::ALL[usize::from(first % 16)]);
        let v1 = (first / 16) % 2 == 1;
        assert_eq!(cell.profile == wireshape::Profile::V1, v1, "byte {first}");
        cells.insert(format!("{:?}/{:?}", cell.lane, cell.profile));
        tools.insert(serde_json::to_string(&tool.unwrap()).unwrap());
    }
    assert_eq!(cells.len(), 32, "every lane x profile is reachable");
    assert_eq!(tools.len(), 1, "the first byte does not change the tool");
}

/// JSON inputs reach every lane x profile x format (12: detection and the
/// 11 formats) through the hash.
#[test]
fn json_inputs_reach_every_cell() {
    let cells: std::collections::BTreeSet<String> = (0..20_000)
        .map(|i| input::decode(format!("{i}").as_bytes()).0)
        .map(|c| format!("{:?}/{:?}/{:?}", c.lane, c.profile, c.format))
        .collect();
    assert_eq!(cells.len(), 16 * 2 * 12);
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
                input::replay_target(target, &data),
                Some(Ok(())),
                "{}",
                path.display()
            );
        }
    }
}
