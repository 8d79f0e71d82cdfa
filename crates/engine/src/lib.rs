//! Arbiter's rules engine.
//!
//! The engine is pure: no I/O, no async, no database, no serialization. Each
//! competition format is a *decider*:
//!
//! - `decide(&State, Command) -> Result<Vec<Event>, RuleError>` checks a
//!   command against the rules and answers with the events it causes, or
//!   refuses it with the rule it breaks (the state is untouched);
//! - `apply(&mut State, &Event)` folds one event into the state.
//!
//! Standings, statistics and every other view are folds over events. Every
//! decision the engine takes is recorded in its event with a structured
//! reason that renders as an [`Explanation`] naming the rule clause, the
//! ruling and the figures that decided it.

pub mod berger;
pub mod cascade;
pub mod clinch;
pub mod draw;
pub mod error;
pub mod explain;
pub mod model;
pub mod projection;
pub mod ratings;
pub mod report;
pub mod roundrobin;
pub mod sunjang;
pub mod tiebreak;
pub mod tws;
pub mod xmadn;
pub mod zone;

pub use error::RuleError;
pub use explain::Explanation;
