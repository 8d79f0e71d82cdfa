//! One module per format, named after it, each with its pages, its desk and
//! its actions: [`tws`] (the Twilight Struggle ladder), [`xmadn`] (the XMadn
//! league and the Challengers event) and [`sunjang`] (the Sunjang league).
//! What the formats share stays beside them: the page shell in
//! [`crate::pages`] (with the desks' shared code in `pages/desk`) and the
//! shared action code in [`crate::actions`].

pub mod sunjang;
pub mod tws;
pub mod xmadn;
