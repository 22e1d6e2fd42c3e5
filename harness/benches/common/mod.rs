//! The benches' input: catalog files and the tools they load, read once.

use std::path::{Path, PathBuf};

use wireshape::Tool;

/// The own corpus's catalogs (`corpus/catalogs/*.json`), sorted.
pub(crate) fn own_catalogs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/catalogs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Every tool of `files`, in file order; a file that does not load is
/// skipped (the own corpus holds none).
pub(crate) fn load_tools(files: &[PathBuf]) -> Vec<Tool> {
    let tools: Vec<Tool> = files
        .iter()
        .filter_map(|f| wireshape::load_catalog(f, None).ok())
        .flat_map(|c| c.tools)
        .collect();
    assert!(!tools.is_empty(), "no tools in {files:?}");
    tools
}
