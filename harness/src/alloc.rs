//! The global allocator the project's binaries use (the `wireshape` CLI,
//! the benchmark examples, the fuzz targets): mimalloc. Shaping allocates
//! and frees many small maps and strings per schema node; glibc's malloc
//! spent about 45% of the in-memory shaping time (perf, `gemini-openapi`
//! over 14,142 tools). The library itself sets no allocator: an embedding
//! client keeps its own. The workspace's `.cargo/config.toml` builds it to
//! commit its arenas on demand, so the memory it purges leaves the RSS at
//! once (about 25 MB less at the 15-lane run's peak). Each binary declares
//! `#[global_allocator] static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;`.

pub use mimalloc::MiMalloc as Allocator;
