//! The command line (clap). Parses arguments into the library's types and
//! dispatches; every flag has a `WIRESHAPE_*` environment twin. No clap type
//! leaves this module.

mod args;
mod commands;
mod errors;

pub(crate) use args::*;
pub(crate) use errors::*;

#[cfg(test)]
mod tests;
