//! Arbiter's reliability harness.
//!
//! - [`MemoryStore`]: the event store (and account store) in memory, which
//!   passes the conformance suites: the store of the simulation.
//! - [`FaultyStore`]: a wrapper around any store that fails the k-th storage
//!   call, once, persistently, or after the inner store committed it
//!   (the tests in `tests/faults.rs` run it on memory and on SQLite).
//! - [`harness`]: what both simulations share: the world of a run (the
//!   store, its services, the log and its fold), the delivery of requests
//!   alone or at once with faults armed, and every check of an answer and
//!   of the whole state; a simulation brings its format and hooks
//!   (`harness::Sim`).
//! - [`sim`]: the deterministic simulation: from a seed, organizers and
//!   players send commands to services over one store with a fault model
//!   (crashes before and after commit, conflicts between services,
//!   duplicated and reordered requests), and every invariant is checked
//!   after every step.
//! - [`sim_league`]: the same harness and fault model driving an XMadn
//!   league (rolls with committed seeds, results, corrections,
//!   cancellations, the playoff, undo).
//! - [`seeds`]: running either over many seeds on every core, a panic
//!   reported with its seed and the command that replays it.

pub mod faulty;
pub mod harness;
pub mod memory;
pub mod seeds;
pub mod sim;
pub mod sim_league;

pub use faulty::{Call, FaultyStore, Injected, Mode, Plan};
pub use memory::MemoryStore;
