//! The Twilight Struggle ladder: its pages ([`pages`]: the ladder, a
//! round, a player, the statistics), its desk ([`desk`]: `/c/{id}/manage`
//! and the forms it posts to `/c/{id}/act`) and its actions ([`actions`]).

pub mod actions;
pub(crate) mod desk;
pub(crate) mod pages;
