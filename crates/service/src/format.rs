//! The competition formats the command path serves. Each format is an
//! engine state with its decider, and the record crate's codec for its
//! events; the service's load, execute, undo and history are written once
//! for all of them.

use std::fmt::Debug;

use arbiter_engine::RuleError;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_record::RecordError;

/// A competition format: its state (a fold of its events), commands and
/// events, and how its events are stored.
pub trait Format:
    Default
    + Clone
    + Debug
    + Send
    + Sync
    + arbiter_engine::model::Linked
    + arbiter_engine::zone::Zoned
    + 'static
{
    type Event: Clone + Debug + Send + Sync + 'static;
    type Command: Clone + Debug + Send + Sync + 'static;
    /// What [`Format::what_if`] answers ([`crate::what_if::NoWhatIf`]
    /// for a format without what-if).
    type WhatIf: crate::what_if::WhatIfOutcome;

    /// The format's name for users, with its article ("a TWS ladder").
    const NAME: &'static str;
    /// The format's name for users in the plural ("TWS ladders"), as
    /// refusals list the formats that offer something.
    const PLURAL: &'static str;
    /// The stored kind of the event that creates a competition of this
    /// format: how the service tells formats apart.
    const CREATED: &'static str;

    fn decide(&self, command: Self::Command) -> Result<Vec<Self::Event>, RuleError>;
    fn apply(&mut self, event: &Self::Event);
    fn try_apply(&mut self, event: &Self::Event) -> Result<(), RuleError>;
    fn encode(event: &Self::Event) -> String;
    fn decode(payload: &str) -> Result<Self::Event, RecordError>;
    fn kind(event: &Self::Event) -> &'static str;
    /// The event an undo appends.
    fn revert(seq: u64, summary: String) -> Self::Event;
    /// The sequence an undo event undoes.
    fn reverted(event: &Self::Event) -> Option<u64>;
    /// The command with its time (and drawn seeds) left out: what
    /// identifies a request for idempotency.
    fn request(command: &Self::Command) -> String;

    // The registry's hooks: what the service and the front ends ask of a
    // format beyond its command path. Each format answers them in its own
    // module; a hook a format does not offer keeps its default, a refusal
    // that names the format.

    /// The format in the registry.
    const FORMAT: CompetitionFormat;
    /// The format's name in files and the API ("tws-ladder"), as
    /// [`CompetitionFormat`] serializes.
    const ID: &'static str;
    /// What the format offers beyond its command path.
    const OFFERS: Offers = Offers::NOTHING;
    /// A format any community runs (a round robin), rather than one
    /// competition's own rules document (the TWS ladder, XMadn, Sunjang):
    /// lists that name formats put these first.
    const GENERAL: bool = false;

    /// An event in words, as the history shows it (`crate::summary`),
    /// with this state before or after it to name the players.
    fn describe(&self, event: &Self::Event) -> String;
    /// What an event is about, for the history's filters (issue 17 §3):
    /// the players it names, by the names [`Format::describe`] gives them
    /// with this state, and the round it belongs to, counted as
    /// [`Format::rounds`] counts (an undo answers nothing: the history
    /// gives it the concerns of what it undid, `crate::history::lines`).
    fn concerns(&self, event: &Self::Event) -> crate::history::Concerns;
    /// The word for what [`Format::rounds`] counts, as the history's round
    /// filter names it ("round", "double round-robin", "season").
    const ROUND: &'static str;
    /// The competition's name.
    fn title(&self) -> &str;
    /// Its players (ladder members, league players, entrants).
    fn members(&self) -> usize;
    /// Its rounds (ladder rounds, double round-robins, games, seasons).
    fn rounds(&self) -> usize;
    /// The player of exactly this name (never read as an id, ARB-R50).
    fn player_named(&self, name: &str) -> Option<PlayerId>;
    /// The command that links `account` to `player` (ARB-R50).
    fn link(player: PlayerId, account: String) -> Self::Command;
    /// The command that ends `player`'s link (ARB-R50).
    fn unlink(player: PlayerId) -> Self::Command;
    /// The command that sets the competition's time zone, an IANA name
    /// (ARB-R82).
    fn set_time_zone(zone: String) -> Self::Command;

    /// The commands a CSV file of players makes, each with its line
    /// (`crate::csv`); refused for a format whose players are not imported.
    fn import_players(
        competition: &str,
        file: &str,
        bytes: &[u8],
    ) -> crate::Result<Vec<(u64, String, Self::Command)>> {
        let _ = (file, bytes);
        Err(crate::ServiceError::Input(format!(
            "{competition} is {}, which takes no player import",
            Self::NAME
        )))
    }
    /// Whether it takes results files ([`Format::result_row`], issue 18
    /// §2).
    const OFFERS_RESULT_IMPORT: bool = false;
    /// Its own columns of a results file, beside
    /// [`crate::csv::RESULT_COLUMNS`].
    const RESULT_COLUMNS: &'static [&'static str] = &[];
    /// One row of a results file on this state (the rows before it
    /// applied): the command that records it and the row in words, or
    /// that it is already recorded so; refused with the column at fault
    /// (`None`: the game's) and why. Called only when
    /// [`Format::OFFERS_RESULT_IMPORT`].
    fn result_row(
        &self,
        row: &crate::csv::ResultRow,
        at: Time,
    ) -> crate::csv::RowResult<Self::Command> {
        let _ = (row, at);
        Err((None, format!("{} takes no results file", Self::NAME)))
    }
    /// The standings or the results as a table (CSV, forum exports).
    fn csv_table(
        &self,
        what: crate::csv::Export,
        competition: &str,
        version: u64,
        now: Time,
    ) -> crate::csv::Table;
    /// The competition's forum post as it stands (issue 17 §2, the
    /// desk's exports): a ladder's last round announced, an XMadn league's
    /// or Challengers event's table and games, a Sunjang league's running
    /// season, a round robin's table; `None` before there is anything to
    /// post.
    fn forum_post(
        &self,
        competition: &str,
        version: u64,
        markup: crate::forum::Markup,
        now: Time,
    ) -> Option<String>;
    /// The top of each of its tables as its standings view has them (the
    /// first places, for "standings changed at the top", issue 18 §3):
    /// a ladder's first rungs, a league's table, each group of a Sunjang
    /// league's running season, each named so that only the same table is
    /// compared. A table without a result yet has no places (its order is
    /// only the seeding); a format without standings answers no table.
    fn top(&self, competition: &str, version: u64) -> Vec<crate::notify::Top> {
        let _ = (competition, version);
        Vec::new()
    }
    /// Clinch and elimination (ARB-R47) of the tables with games left, or
    /// only `group`'s; called only when [`Offers::clinch`].
    fn clinch(
        &self,
        competition: &str,
        version: u64,
        group: Option<&str>,
    ) -> crate::Result<crate::clinch::ClinchView> {
        let _ = (competition, version, group);
        Err(not_offered::<Self>("clinch and elimination"))
    }
    /// The ratings of `rated` together: this competition alone, or (with
    /// [`Offers::installation_ratings`]) every competition of the format,
    /// in the installation's order; called only when [`Offers::ratings`].
    fn ratings(
        rated: &[(String, Self)],
        competition: &str,
        version: u64,
        system: crate::insight::RatingSystem,
        scope: crate::insight::RatingScope,
    ) -> crate::Result<crate::insight::RatingsView> {
        let _ = (rated, competition, version, system, scope);
        Err(not_offered::<Self>("ratings"))
    }
    /// The competition after hypothetical `results` at `at`, on a copy;
    /// called only when [`Offers::what_if`].
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> crate::Result<Self::WhatIf> {
        let _ = (competition, version, results, at);
        Err(not_offered::<Self>("what-if"))
    }
    /// The Monte-Carlo projection (ARB-R48); called only when
    /// [`Offers::projection`].
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &crate::insight::ProjectionRequest,
        progress: crate::insight::Progress<'_>,
    ) -> crate::Result<crate::insight::ProjectionView> {
        let _ = (competition, version, request, progress);
        Err(not_offered::<Self>("a projection"))
    }
}

/// A loaded competition of any format, for the hooks that need no store
/// and no runtime (a server runs them on a blocking thread): every
/// [`Format`] is one, forwarding to its own hooks.
pub trait AnyCompetition: Debug + Send + Sync {
    fn format(&self) -> CompetitionFormat;
    fn clinch(
        &self,
        competition: &str,
        version: u64,
        group: Option<&str>,
    ) -> crate::Result<crate::clinch::ClinchView>;
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &crate::insight::ProjectionRequest,
        progress: crate::insight::Progress<'_>,
    ) -> crate::Result<crate::insight::ProjectionView>;
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> crate::Result<crate::what_if::AnyWhatIfView>;
    /// The state itself, for a caller that knows its format.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<F: Format> AnyCompetition for F {
    fn format(&self) -> CompetitionFormat {
        F::FORMAT
    }
    fn clinch(
        &self,
        competition: &str,
        version: u64,
        group: Option<&str>,
    ) -> crate::Result<crate::clinch::ClinchView> {
        Format::clinch(self, competition, version, group)
    }
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &crate::insight::ProjectionRequest,
        progress: crate::insight::Progress<'_>,
    ) -> crate::Result<crate::insight::ProjectionView> {
        Format::project(self, competition, version, request, progress)
    }
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> crate::Result<crate::what_if::AnyWhatIfView> {
        Format::what_if(self, competition, version, results, at)
            .map(crate::what_if::AnyWhatIfView::new::<F>)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// What a format offers beyond its command path, so that a refusal can
/// name the formats that do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offers {
    pub clinch: bool,
    pub projection: bool,
    pub what_if: bool,
    pub ratings: bool,
    /// Ratings over every competition of the format in the installation,
    /// players matched by name (ARB-R46).
    pub installation_ratings: bool,
}

impl Offers {
    pub const NOTHING: Offers = Offers {
        clinch: false,
        projection: false,
        what_if: false,
        ratings: false,
        installation_ratings: false,
    };
}

fn not_offered<F: Format>(what: &str) -> crate::ServiceError {
    crate::ServiceError::Input(format!("there is no {what} for {}", F::NAME))
}

/// The registry: every format this program knows, one line each (its
/// variant of [`CompetitionFormat`], its engine state, its description).
/// Everything that lists or dispatches on formats is generated from this
/// list: [`CompetitionFormat`] and [`CompetitionFormat::ALL`] here,
/// [`with_format!`], and each front end's own lists (the API's views and
/// actions, the CLI's nouns). Adding a format adds its line here and
/// nothing else outside its own folders (ARCHITECTURE.md, "Adding a
/// format").
///
/// `formats!(callback!{ extra })` expands to `callback! { { extra } line,
/// line, … }`, each line `#[doc = "…"] Variant => path::to::State,`: a
/// crate generates its list with a `macro_rules!` of its own.
#[macro_export]
macro_rules! formats {
    ($($callback:ident)::+ ! $extra:tt) => {
        $($callback)::+ ! { $extra
            /// A Twilight Struggle ladder.
            TwsLadder => $crate::arbiter_engine::tws::Ladder,
            /// An XMadn Double-Threat league.
            XmadnLeague => $crate::arbiter_engine::xmadn::league::League,
            /// An XMadn Challengers event (winner stays, first to x).
            XmadnChallengers => $crate::arbiter_engine::xmadn::challengers::Challengers,
            /// A Sunjang Baduk league.
            SunjangLeague => $crate::arbiter_engine::sunjang::season::League,
            /// A round-robin league of 2 to 64 players or teams.
            RoundRobin => $crate::arbiter_engine::roundrobin::RoundRobin,
        }
    };
}

/// `with_format!(format, |F| body)` runs `body` with `F` the format's
/// engine state, which implements [`Format`] here and each front end's own
/// format trait in the front end's folder for it: the one `match` on
/// [`CompetitionFormat`], generated from [`formats!`].
#[macro_export]
macro_rules! with_format {
    ($format:expr, |$F:ident| $body:expr) => {
        $crate::formats!($crate::__with_format_arms! { ($format) $F ($body) })
    };
}

/// The arms of [`with_format!`], one per line of [`formats!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __with_format_arms {
    ({ ($format:expr) $F:ident ($body:expr) } $($(#[$doc:meta])* $variant:ident => $state:ty,)*) => {{
        #[allow(unused_imports)]
        use $crate::format::Format as _;
        match $format {
            $($crate::format::CompetitionFormat::$variant => {
                type $F = $state;
                $body
            })*
        }
    }};
}

/// [`CompetitionFormat`] and [`CompetitionFormat::ALL`] from the registry.
macro_rules! competition_format {
    ({} $($(#[$doc:meta])* $variant:ident => $state:ty,)*) => {
        /// The format of a competition.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
        #[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
        #[serde(rename_all = "kebab-case")]
        pub enum CompetitionFormat {
            $($(#[$doc])* $variant,)*
        }

        impl CompetitionFormat {
            /// Every format, in the registry's order.
            pub const ALL: &'static [CompetitionFormat] = &[$(Self::$variant),*];
        }
    };
}
crate::formats!(competition_format! {});

impl CompetitionFormat {
    /// The format whose creating event has this stored kind.
    pub fn of_kind(kind: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|f| crate::with_format!(*f, |F| F::CREATED == kind))
    }

    /// The format of this name in files and the API ("tws-ladder").
    pub fn of_id(id: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.id() == id)
    }

    /// Every format's name in files and the API, for messages:
    /// "tws-ladder, …, sunjang-league or round-robin".
    pub fn ids_in_words() -> String {
        let ids: Vec<&str> = Self::ALL.iter().map(|f| f.id()).collect();
        crate::views::list_words(&ids, "or")
    }

    /// Words for users, with the article.
    pub fn words(self) -> &'static str {
        crate::with_format!(self, |F| F::NAME)
    }

    /// What the format offers beyond its command path.
    pub fn offers(self) -> Offers {
        crate::with_format!(self, |F| F::OFFERS)
    }

    /// The format's name in files and the API ("tws-ladder").
    pub fn id(self) -> &'static str {
        crate::with_format!(self, |F| F::ID)
    }

    /// The formats offering what `pick` picks, in the plural, the general
    /// ones first: "round-robin leagues, XMadn leagues and Sunjang
    /// leagues".
    pub fn those_offering(pick: impl Fn(Offers) -> bool) -> String {
        let offering = || Self::ALL.iter().copied().filter(|f| pick(f.offers()));
        let general = |f: &Self| crate::with_format!(*f, |F| F::GENERAL);
        let names: Vec<&str> = offering()
            .filter(general)
            .chain(offering().filter(|f| !general(f)))
            .map(|f| crate::with_format!(f, |F| F::PLURAL))
            .collect();
        crate::views::list_words(&names, "and")
    }
}

/// A line of the list of competitions (as `arbiter competition list --json`).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CompetitionSummary {
    pub id: String,
    pub name: String,
    pub format: CompetitionFormat,
    /// Ladder members, league or Challengers players, Sunjang entrants.
    pub members: usize,
    /// Ladder rounds, league double round-robins, Challengers games,
    /// Sunjang seasons.
    pub rounds: usize,
    /// The number of events: what `If-Match` names on writes.
    pub version: u64,
    /// The competition's time zone, an IANA name (ARB-R82): its times are
    /// shown in it, and a deadline given as a day ends there.
    pub time_zone: String,
}
