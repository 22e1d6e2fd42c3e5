//! The `wireshape` binary: everything it does is `wireshape::cli::main`
//! (parse, run, map errors and panics to exit codes).

#[global_allocator]
static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;

fn main() -> wireshape::ExitStatus {
    wireshape::cli::main()
}
