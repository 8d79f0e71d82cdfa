//! Times as pages show them (issue 17 §3, ARB-R82): in the competition's
//! time zone, inside `<time datetime="…" data-zone="…">` with the instant
//! in UTC, and with a countdown to a deadline written on the server ("in 3
//! days", "2 hours ago"), so that it reads without JavaScript: the `when`
//! macro of `macros.html` renders a [`When`]. Where the browser runs
//! scripts, `assets/time.js` adds the time in the reader's own zone beside
//! each one whose zone differs from his.
//!
//! A countdown depends on the clock: the page cache keeps a page for the
//! minute it was rendered in ([`super::cache`]), so a countdown is never
//! older than a minute.

pub(crate) use arbiter_service::views::when::When;
