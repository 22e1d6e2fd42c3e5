//! `shape_conforms`: see `wireshape_fuzz::input::run_target` and
//! `wireshape::testing::properties`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wireshape_fuzz::check("shape_conforms", data));
