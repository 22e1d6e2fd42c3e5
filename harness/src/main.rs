//! The `wireshape` binary: everything it does is `wireshape::cli::main`
//! (parse, run, map errors and panics to exit codes).

fn main() -> wireshape::ExitStatus {
    wireshape::cli::main()
}
