//! The Sunjang league: its pages ([`pages`]: the league and its seasons),
//! its desk ([`desk`]) and its actions ([`actions`]).

pub mod actions;
pub(crate) mod desk;
pub(crate) mod pages;
