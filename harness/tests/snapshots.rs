//! insta snapshots of every v1 output on the project's own catalogs: one
//! snapshot file per (lane, catalog), holding the wire tools array and each
//! tool's outcome and degradations. Review changes with `cargo insta review`
//! (or `INSTA_UPDATE=always cargo test` and `git diff`).

use std::path::Path;

use serde_json::{Value, json};
use wireshape::{Lane, Pipeline, PipelineConfig, Profile, load_catalog};

#[test]
fn v1_output_on_own_catalogs_matches_the_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let config = PipelineConfig::load(&root.join("corpus/config.toml")).unwrap();
    let pipeline = Profile::V1.with_config(config);
    for file in ["fixtures", "seed-tools"] {
        let catalog =
            load_catalog(&root.join(format!("corpus/catalogs/{file}.json")), None).unwrap();
        for lane in Lane::DIFFERENTIAL {
            let shaped: Vec<_> = catalog
                .tools
                .iter()
                .map(|t| pipeline.shape(*lane, t))
                .collect();
            let doc: Vec<Value> = shaped
                .iter()
                .map(|s| {
                    json!({
                        "wire": lane.render(&s.tool),
                        "outcome": s.outcome,
                        "degradations": s.degradations.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let mut settings = insta::Settings::clone_current();
            settings.set_snapshot_suffix(format!("{}@{file}", lane.id()));
            settings.set_prepend_module_to_snapshot(false);
            settings.bind(|| insta::assert_json_snapshot!("v1", doc));
        }
    }
}
