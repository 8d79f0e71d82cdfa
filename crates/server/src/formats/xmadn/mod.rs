//! The XMadn league and the XMadn Challengers event: their pages
//! ([`pages`]), their desks ([`desk`]) and their actions ([`actions`]).

pub mod actions;
pub(crate) mod desk;
pub(crate) mod pages;
