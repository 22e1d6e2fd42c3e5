//! Data-driven conformance: one trial per `lane::catalog::tool` over the
//! project's own corpus (`corpus/catalogs`), and one per `lane::catalog`
//! over every directory in `WIRESHAPE_CORPUS_PATH` when it is set.
//!
//! Each trial shapes with v0 and v1 and requires: no tool errored (no panic,
//! no depth failure), v1 is idempotent (shaping its output again gives the
//! same bytes and no new degradation), and shaping is deterministic.
//! `cargo test --test conformance -- deepseek-strict` selects one lane.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use wireshape::{Catalog, Lane, Outcome, Pipeline, PipelineConfig, Profile, Tool, scan_corpus};

fn config() -> PipelineConfig {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    PipelineConfig::load(&root.join("corpus/config.toml")).expect("corpus/config.toml")
}

fn bytes(lane: Lane, t: &Tool) -> String {
    serde_json::to_string(&lane.render(t)).expect("serialize")
}

/// The checks every tool gets on every lane.
fn check_tool(lane: Lane, tool: &Tool, config: &PipelineConfig) -> Result<(), String> {
    for profile in [Profile::V0, Profile::V1] {
        let p = profile.with_config(config.clone());
        let a = p.shape(lane, tool);
        if let Outcome::Errored { message } = &a.outcome {
            return Err(format!(
                "{} errored on {}: {message}",
                profile.id(),
                tool.name
            ));
        }
        let b = p.shape(lane, tool);
        if bytes(lane, &a.tool) != bytes(lane, &b.tool) || a.degradations != b.degradations {
            return Err(format!(
                "{} is nondeterministic on {}",
                profile.id(),
                tool.name
            ));
        }
        if profile == Profile::V1 {
            let again = p.shape(lane, &a.tool);
            let (first, second) = (bytes(lane, &a.tool), bytes(lane, &again.tool));
            if first != second {
                return Err(format!(
                    "v1 is not idempotent on {}:\n input: {}\n once:  {first}\n twice: {second}",
                    tool.name,
                    serde_json::to_string(&tool.input_schema).unwrap_or_default()
                ));
            }
            let new: Vec<_> = again
                .degradations
                .iter()
                .filter(|d| d.action != wireshape::Action::Added || d.keyword != "strict")
                .collect();
            if again.outcome == Outcome::Shaped && !new.is_empty() {
                return Err(format!(
                    "v1 degrades its own output again on {}: {}",
                    tool.name,
                    new.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let config = Arc::new(config());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/catalogs");
    let own = scan_corpus(&[root]);
    let mut trials = Vec::new();
    for catalog in own.catalogs() {
        for tool in &catalog.tools {
            for lane in Lane::ALL {
                let (lane, tool, config) = (*lane, tool.clone(), Arc::clone(&config));
                let name = format!("{}::{}::{}", lane.id(), catalog.id, tool.name);
                trials.push(Trial::test(name, move || {
                    check_tool(lane, &tool, &config).map_err(Failed::from)
                }));
            }
        }
    }
    for (path, reason) in own.unusable() {
        let msg = format!("{}: {reason}", path.display());
        trials.push(Trial::test(
            format!("corpus::{}", path.display()),
            move || Err(Failed::from(msg)),
        ));
    }
    let shared: Vec<PathBuf> = std::env::var_os("WIRESHAPE_CORPUS_PATH")
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    if !shared.is_empty() {
        let scan = scan_corpus(&shared);
        let catalogs: Vec<Arc<Catalog>> = scan.catalogs().cloned().map(Arc::new).collect();
        for catalog in catalogs {
            for lane in Lane::ALL {
                let (lane, catalog, config) = (*lane, Arc::clone(&catalog), Arc::clone(&config));
                let name = format!("{}::shared::{}", lane.id(), catalog.id);
                trials.push(Trial::test(name, move || {
                    let errors: Vec<String> = catalog
                        .tools
                        .iter()
                        .filter_map(|t| check_tool(lane, t, &config).err())
                        .collect();
                    if errors.is_empty() {
                        Ok(())
                    } else {
                        Err(Failed::from(format!(
                            "{} of {} tools failed:\n{}",
                            errors.len(),
                            catalog.tools.len(),
                            errors.join("\n")
                        )))
                    }
                }));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
