//! What the command line asks of a format beyond the service's registry:
//! the noun of its commands and how `competition show` shows it. Each
//! format answers in its own module (`xmadn`, `sunjang`, `roundrobin`; the
//! ladder, whose commands are the top-level ones, in `run`); shared code
//! reaches it through [`arbiter_service::with_format!`].

use anyhow::Result;
use arbiter_service::Format;

use crate::run::{Globals, Svc};

pub(crate) trait CliFormat: Format {
    /// The noun its own commands live under (`arbiter league …`); `None`
    /// for the ladder, whose commands are the top-level ones.
    const NOUN: Option<&'static str>;
    /// `arbiter competition show`.
    async fn show(svc: &Svc, g: &Globals) -> Result<()>;
}
