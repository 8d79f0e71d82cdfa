//! Code shared by the integration tests of the engine (each test that uses
//! it declares `mod common;`).

pub mod golden;
