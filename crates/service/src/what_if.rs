//! What-if for every format: hypothetical results entered, the table, the
//! groups or the ladder computed **on a copy** through the engine's own
//! `decide`/`apply`, nothing stored.
//!
//! - a TWS ladder: [`crate::insight::ladder_what_if`] (`G12` → winner), the
//!   running round closed;
//! - an XMadn league: `A-B` → `PAWNS@TIME` (`Ames-Baker` → `4-2@20:10`),
//!   as `league result` takes them: the counted pawns of each player in the
//!   order of the key, and the game's time (or a game's label, `G5` →
//!   `PAWNS@TIME` in the order of its players, for that very game, as the
//!   web page sends them); the league's table with its
//!   cascade explanations after those results (the next game of the
//!   schedule between the two is recorded, as the real command does);
//! - a Sunjang league: `BLACK-WHITE` → an outcome (`black`, `white`,
//!   `jigo`, `black-forfeits`, `white-forfeits`, `both-forfeit`), results of
//!   the running season's games: its group tables, then, when every group
//!   game has a result, the season closed and the next season's plan (the
//!   planner's preview, as the desk's "preview the plan" shows it).
//!
//! A key `A-B` is split at the hyphen that leaves a player's name on both
//! sides, so hyphenated names work (`Jean-Luc-Baker`). Results are applied
//! in the order given; the first the rules refuse refuses the whole what-if.

use arbiter_engine::model::Time;
use arbiter_engine::sunjang::season::{self, League as SunjangLeague};
use arbiter_engine::xmadn::league::{self, League as XmadnLeague};
use arbiter_engine::xmadn::{format_time, parse_time};
use arbiter_store::EventStore;
use serde::Serialize;

use crate::format::CompetitionFormat;
use crate::insight::WhatIfView;
use crate::sunjang::{SeasonView, outcome_words, parse_outcome, season_view};
use crate::xmadn::{LeagueView, league_view};
use crate::{Result, Service, ServiceError};

/// An XMadn league after hypothetical results, on a copy.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LeagueWhatIfView {
    /// Always `xmadn-league`.
    pub format: String,
    pub competition: String,
    /// The version the copy was taken at.
    pub version: u64,
    /// The hypothetical results as recorded on the copy.
    pub results: Vec<String>,
    /// The league after them: its table, with every split and tie of the
    /// cascade explained, and whether the outcomes are determined.
    pub league: LeagueView,
}

/// A Sunjang league after hypothetical results, on a copy.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct SunjangWhatIfView {
    /// Always `sunjang-league`.
    pub format: String,
    pub competition: String,
    /// The version the copy was taken at.
    pub version: u64,
    /// The hypothetical results as recorded on the copy.
    pub results: Vec<String>,
    /// The running season after them: its groups and tables.
    pub season: SeasonView,
    /// The next season's plan after closing this one, when the close and
    /// the plan are possible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_season: Option<SeasonView>,
    /// Why there is no plan (games left without a result, a refusal of the
    /// close or of the planner, naming its rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_plan: Option<String>,
}

/// What a format's what-if answers: its own view, in its own module
/// ([`crate::format::Format::WhatIf`]), with the version the copy was
/// taken at and the hypothetical results as recorded on it.
pub trait WhatIfOutcome: Serialize + std::fmt::Debug + Send + Sync + Schema + 'static {
    /// The version the copy was taken at.
    fn version(&self) -> u64;
    /// The hypothetical results as recorded on the copy.
    fn results(&self) -> &[String];
}

/// An OpenAPI schema, with the `utoipa` feature (the server's document).
#[cfg(feature = "utoipa")]
pub trait Schema: utoipa::ToSchema {}
#[cfg(feature = "utoipa")]
impl<T: utoipa::ToSchema> Schema for T {}
/// An OpenAPI schema, with the `utoipa` feature (the server's document).
#[cfg(not(feature = "utoipa"))]
pub trait Schema {}
#[cfg(not(feature = "utoipa"))]
impl<T> Schema for T {}

/// The [`crate::format::Format::WhatIf`] of a format without what-if
/// (XMadn Challengers): no value has it.
#[derive(Debug, Clone, Serialize)]
pub enum NoWhatIf {}

impl WhatIfOutcome for NoWhatIf {
    fn version(&self) -> u64 {
        match *self {}
    }
    fn results(&self) -> &[String] {
        match *self {}
    }
}

#[cfg(feature = "utoipa")]
impl utoipa::PartialSchema for NoWhatIf {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .description(Some("A format without what-if: never answered"))
            .into()
    }
}
#[cfg(feature = "utoipa")]
impl utoipa::ToSchema for NoWhatIf {}

/// The erased [`WhatIfOutcome`] that [`AnyWhatIfView`] holds.
trait Erased: erased_serde::Serialize + std::fmt::Debug + Send + Sync {
    fn version(&self) -> u64;
    fn results(&self) -> &[String];
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<T: WhatIfOutcome> Erased for T {
    fn version(&self) -> u64 {
        WhatIfOutcome::version(self)
    }
    fn results(&self) -> &[String] {
        WhatIfOutcome::results(self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

erased_serde::serialize_trait_object!(Erased);

/// What-if of any format: the format's own [`WhatIfOutcome`], serialized
/// as it is. A front end that knows the format reads it back with
/// [`AnyWhatIfView::view`] (its own folder, through the registry).
#[derive(Debug, Clone)]
pub struct AnyWhatIfView {
    format: CompetitionFormat,
    view: std::sync::Arc<dyn Erased>,
}

impl AnyWhatIfView {
    /// Format `F`'s what-if view.
    pub fn new<F: crate::format::Format>(view: F::WhatIf) -> Self {
        AnyWhatIfView {
            format: F::FORMAT,
            view: std::sync::Arc::new(view),
        }
    }
    /// The competition's format.
    pub fn format(&self) -> CompetitionFormat {
        self.format
    }
    /// The version the copy was taken at.
    pub fn version(&self) -> u64 {
        self.view.version()
    }
    /// The hypothetical results as recorded on the copy.
    pub fn results(&self) -> &[String] {
        self.view.results()
    }
    /// The view of format `F`, when it is `F`'s.
    pub fn view<F: crate::format::Format>(&self) -> Option<&F::WhatIf> {
        self.view.as_any().downcast_ref()
    }
}

impl Serialize for AnyWhatIfView {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        erased_serde::serialize(&*self.view, s)
    }
}

/// The schema: one of the views of the formats offering what-if, from the
/// registry.
#[cfg(feature = "utoipa")]
impl utoipa::PartialSchema for AnyWhatIfView {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let mut one_of = utoipa::openapi::schema::OneOfBuilder::new().description(Some(
            "What-if of any format: the format's own view (`format` names it, except for a TWS ladder's)",
        ));
        for f in CompetitionFormat::ALL.iter().filter(|f| f.offers().what_if) {
            let name = crate::with_format!(*f, |F| {
                <<F as crate::format::Format>::WhatIf as utoipa::ToSchema>::name()
            });
            one_of = one_of.item(utoipa::openapi::Ref::from_schema_name(name));
        }
        one_of.into()
    }
}

#[cfg(feature = "utoipa")]
impl utoipa::ToSchema for AnyWhatIfView {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        for f in CompetitionFormat::ALL.iter().filter(|f| f.offers().what_if) {
            crate::with_format!(*f, |F| {
                schemas.push((
                    <<F as crate::format::Format>::WhatIf as utoipa::ToSchema>::name().into_owned(),
                    <<F as crate::format::Format>::WhatIf as utoipa::PartialSchema>::schema(),
                ));
                <<F as crate::format::Format>::WhatIf as utoipa::ToSchema>::schemas(schemas);
            })
        }
    }
}

macro_rules! outcome {
    ($($view:ty),*) => {$(
        impl WhatIfOutcome for $view {
            fn version(&self) -> u64 {
                self.version
            }
            fn results(&self) -> &[String] {
                &self.results
            }
        }
    )*};
}
outcome!(WhatIfView, LeagueWhatIfView, SunjangWhatIfView);

fn input(msg: String) -> ServiceError {
    ServiceError::Input(msg)
}

/// Split `A-B` at the hyphen that leaves a player on both sides.
pub(crate) fn pair<P: Copy>(key: &str, find: impl Fn(&str) -> Option<P>) -> Result<(P, P)> {
    let key = key.trim();
    for (i, _) in key.match_indices('-') {
        let (a, b) = (&key[..i], &key[i + 1..]);
        if let (Some(a), Some(b)) = (find(a), find(b)) {
            return Ok((a, b));
        }
    }
    Err(input(format!(
        "{key:?}: give two players of the competition as A-B"
    )))
}

/// `4-2@20:10` → pawns and seconds.
pub(crate) fn score(text: &str) -> Result<([u8; 2], u32)> {
    let bad = || {
        input(format!(
            "{text:?}: give the counted pawns and the game's time as PAWNS@TIME, e.g. 4-2@20:10"
        ))
    };
    let (pawns, time) = text.trim().split_once('@').ok_or_else(bad)?;
    let (a, b) = pawns.trim().split_once('-').ok_or_else(bad)?;
    let pawns = [
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ];
    let seconds = parse_time(time).ok_or_else(bad)?;
    Ok((pawns, seconds))
}

/// The command that records one result of an XMadn league as what-if and
/// a results file give it (`A-B` or a game's label → `PAWNS@TIME`, see the
/// module's text), and the result in words.
pub fn league_result(
    l: &XmadnLeague,
    key: &str,
    value: &str,
    at: Time,
) -> Result<(league::Command, String)> {
    // A game's label (`G5`) names that game, its players in the
    // schedule's order; otherwise `A-B` names their next game.
    let game = l
        .games
        .iter()
        .find(|g| g.id.to_string().eq_ignore_ascii_case(key.trim()));
    let (game, [a, b]) = match game {
        Some(g) => (Some(g.id), g.players),
        None => {
            let (a, b) = pair(key, |n| l.find(n))?;
            (None, [a, b])
        }
    };
    let (pawns, seconds) = score(value)?;
    let text = format!(
        "{} {} – {} {} ({})",
        l.name_of(a),
        pawns[0],
        pawns[1],
        l.name_of(b),
        format_time(seconds)
    );
    Ok((
        league::Command::RecordResult {
            game,
            players: [a, b],
            pawns,
            seconds,
            at,
        },
        text,
    ))
}

/// The XMadn league after the hypothetical `results` (`A-B` →
/// `PAWNS@TIME`), on a copy.
pub fn league_what_if(
    l: &XmadnLeague,
    competition: &str,
    version: u64,
    results: &[(String, String)],
    at: Time,
) -> Result<LeagueWhatIfView> {
    let mut copy = l.clone();
    let mut done = Vec::new();
    for (key, value) in results {
        let (command, text) = league_result(&copy, key, value, at)?;
        for e in copy.decide(command)? {
            copy.apply(&e);
        }
        done.push(text);
    }
    Ok(LeagueWhatIfView {
        format: "xmadn-league".into(),
        competition: competition.to_string(),
        version,
        results: done,
        league: league_view(&copy, competition, version),
    })
}

/// The command that records one result of a Sunjang league's running
/// season as what-if and a results file give it (`BLACK-WHITE` → an
/// outcome), and the result in words.
pub fn sunjang_result(
    l: &SunjangLeague,
    key: &str,
    value: &str,
    at: Time,
) -> Result<(season::Command, String)> {
    let (black, white) = pair(key, |n| l.find(n))?;
    let outcome = parse_outcome(value).ok_or_else(|| {
        input(format!(
            "{value:?}: give black, white, jigo, black-forfeits, white-forfeits or both-forfeit"
        ))
    })?;
    let text = format!(
        "{} (black) – {} (white): {}",
        l.name_of(black),
        l.name_of(white),
        outcome_words(outcome)
    );
    Ok((
        season::Command::RecordResult {
            black,
            white,
            outcome,
            at,
        },
        text,
    ))
}

/// The Sunjang league after the hypothetical `results` (`BLACK-WHITE` →
/// outcome) of the running season, on a copy; then its close and the next
/// season's plan when every group game has a result.
pub fn sunjang_what_if(
    l: &SunjangLeague,
    competition: &str,
    version: u64,
    results: &[(String, String)],
    at: Time,
) -> Result<SunjangWhatIfView> {
    let mut copy = l.clone();
    let open = copy.current().is_some_and(|s| s.close.is_none());
    if !open {
        return Err(input("there is no running season".to_string()));
    }
    let mut done = Vec::new();
    for (key, value) in results {
        let (command, text) = sunjang_result(&copy, key, value, at)?;
        for e in copy.decide(command)? {
            copy.apply(&e);
        }
        done.push(text);
    }
    let Some(current) = copy.current() else {
        return Err(input("there is no running season".to_string()));
    };
    let season = season_view(&copy, current);
    let (next_season, no_plan) = if current.unfinished() > 0 {
        (
            None,
            Some(format!(
                "{} group game(s) still without a result: the season closes, and the next is planned, when every group game is decided",
                current.unfinished()
            )),
        )
    } else {
        match plan_after_close(&copy, at) {
            Ok(plan) => (plan, None),
            Err(e) => (None, Some(e.to_string())),
        }
    };
    Ok(SunjangWhatIfView {
        format: "sunjang-league".into(),
        competition: competition.to_string(),
        version,
        results: done,
        season,
        next_season,
        no_plan,
    })
}

/// Close the running season on `copy` and preview the next season's plan.
fn plan_after_close(copy: &SunjangLeague, at: Time) -> Result<Option<SeasonView>> {
    let mut l = copy.clone();
    for e in l.decide(season::Command::CloseSeason { at })? {
        l.apply(&e);
    }
    let before = l.seasons.len();
    for e in l.decide(season::Command::PlanSeason { at })? {
        l.apply(&e);
    }
    Ok(l.current()
        .filter(|_| l.seasons.len() > before)
        .map(|s| season_view(&l, s)))
}

/// A competition loaded for a what-if: [`WhatIfInput::run`] needs no store
/// and no runtime, so a server can run it on a blocking thread (issue 14,
/// item 3: a preview costs CPU and is open to everyone).
#[derive(Debug, Clone)]
pub struct WhatIfInput {
    pub competition: String,
    pub version: u64,
    state: std::sync::Arc<dyn crate::format::AnyCompetition>,
}

impl WhatIfInput {
    /// The what-if of the hypothetical `results` at `at`, on a copy.
    pub fn run(&self, results: &[(String, String)], at: Time) -> Result<AnyWhatIfView> {
        self.state
            .what_if(&self.competition, self.version, results, at)
    }
}

impl<S: EventStore> Service<S> {
    /// Load a competition for [`WhatIfInput::run`]; refused for a format
    /// without what-if (XMadn Challengers).
    pub async fn what_if_input(&self, competition: &str) -> Result<WhatIfInput> {
        let format = self.format_of(competition).await?;
        if !format.offers().what_if {
            return Err(input(format!(
                "what-if is for {}; this competition is {}",
                CompetitionFormat::those_offering(|o| o.what_if),
                format.words()
            )));
        }
        let (state, version) = self.load_any(competition).await?;
        Ok(WhatIfInput {
            competition: competition.to_string(),
            version,
            state,
        })
    }

    /// What-if for any format (see the module's text): the hypothetical
    /// `results` as (key, value) texts, on a copy; nothing is stored.
    pub async fn what_if_any(
        &self,
        competition: &str,
        results: &[(String, String)],
        at: Time,
    ) -> Result<AnyWhatIfView> {
        self.what_if_input(competition).await?.run(results, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_split_at_the_right_hyphen() {
        let names = ["Jean-Luc", "Baker", "Ames"];
        let find = |n: &str| names.iter().position(|x| x.eq_ignore_ascii_case(n.trim()));
        assert_eq!(pair("Jean-Luc-Baker", find).ok(), Some((0, 1)));
        assert_eq!(pair("ames-jean-luc", find).ok(), Some((2, 0)));
        assert!(pair("Ames", find).is_err());
    }

    #[test]
    fn scores() {
        assert_eq!(score("4-2@20:10").ok(), Some(([4, 2], 1210)));
        assert!(score("4-2").is_err());
        assert!(score("x-2@1:00").is_err());
    }
}
