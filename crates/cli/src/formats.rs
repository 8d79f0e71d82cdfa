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
    /// Its noun as a clap subcommand (one variant, `#[command(subcommand,
    /// name = …)]`, with its help), flattened into the CLI's nouns by
    /// [`FormatNoun`]; [`NoNoun`] for the ladder.
    type Noun: clap::Subcommand + std::fmt::Debug;
    /// Run a command of its noun.
    async fn run(noun: &Self::Noun, svc: &Svc, g: &Globals) -> Result<()>;
    /// Whether the command creates a competition (and so may make the
    /// database it names, issue 14, item 6).
    fn creates(noun: &Self::Noun) -> bool;
    /// Checks of the command's arguments before the database is opened.
    fn precheck(noun: &Self::Noun) -> Result<()> {
        let _ = noun;
        Ok(())
    }
    /// `arbiter competition show`.
    async fn show(svc: &Svc, g: &Globals) -> Result<()>;
    /// `arbiter what-if`, after the list of the hypothetical results: what
    /// would follow from them, in the format's own words and tables
    /// (called only for a format with what-if, see
    /// [`crate::what_if::run`]).
    fn what_if(view: &Self::WhatIf) -> String {
        let _ = view;
        String::new()
    }
    /// The whole `arbiter what-if` command: by default the results as
    /// `KEY=VALUE` and [`CliFormat::what_if`] after them.
    async fn what_if_command(svc: &Svc, g: &Globals, a: &crate::args::WhatIfArgs) -> Result<()> {
        let id = crate::run::competition(svc, g).await?;
        crate::what_if::generic(svc, g, &id, a).await
    }
}

/// The noun of a format whose commands are the top-level ones (the
/// ladder's): no subcommand.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum NoNoun {}

/// [`FormatNoun`] from the registry ([`arbiter_service::formats!`]).
macro_rules! format_nouns {
    ({} $($(#[doc = $doc:literal])* $variant:ident => $state:ty,)*) => {
        /// The formats' own nouns, each its [`CliFormat::Noun`], flattened
        /// into [`crate::args::Noun`].
        #[derive(Debug, clap::Subcommand)]
        pub(crate) enum FormatNoun {
            $(#[command(flatten)] $variant(<$state as CliFormat>::Noun),)*
        }

        impl FormatNoun {
            pub(crate) async fn run(&self, svc: &Svc, g: &Globals) -> Result<()> {
                match self {
                    $(FormatNoun::$variant(noun) => <$state as CliFormat>::run(noun, svc, g).await,)*
                }
            }
            pub(crate) fn creates(&self) -> bool {
                match self {
                    $(FormatNoun::$variant(noun) => <$state as CliFormat>::creates(noun),)*
                }
            }
            pub(crate) fn precheck(&self) -> Result<()> {
                match self {
                    $(FormatNoun::$variant(noun) => <$state as CliFormat>::precheck(noun),)*
                }
            }
        }
    };
}
arbiter_service::formats!(format_nouns! {});
