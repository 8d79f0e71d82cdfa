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

/// What-if of any format.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum AnyWhatIfView {
    /// A TWS ladder: the running round's close and the ladder after it.
    Ladder(Box<WhatIfView>),
    /// An XMadn league: the table after the results.
    League(Box<LeagueWhatIfView>),
    /// A Sunjang league: the group tables and the next season's plan.
    Sunjang(Box<SunjangWhatIfView>),
    /// A round-robin league: the table after the results.
    RoundRobin(Box<crate::roundrobin::what_if::RoundRobinWhatIfView>),
}

impl AnyWhatIfView {
    pub fn version(&self) -> u64 {
        match self {
            AnyWhatIfView::Ladder(v) => v.version,
            AnyWhatIfView::League(v) => v.version,
            AnyWhatIfView::Sunjang(v) => v.version,
            AnyWhatIfView::RoundRobin(v) => v.version,
        }
    }
}

fn input(msg: String) -> ServiceError {
    ServiceError::Input(msg)
}

/// Split `A-B` at the hyphen that leaves a player on both sides.
fn pair<P: Copy>(key: &str, find: impl Fn(&str) -> Option<P>) -> Result<(P, P)> {
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
fn score(text: &str) -> Result<([u8; 2], u32)> {
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
        // A game's label (`G5`) names that game, its players in the
        // schedule's order; otherwise `A-B` names their next game.
        let game = copy
            .games
            .iter()
            .find(|g| g.id.to_string().eq_ignore_ascii_case(key.trim()));
        let (game, [a, b]) = match game {
            Some(g) => (Some(g.id), g.players),
            None => {
                let (a, b) = pair(key, |n| copy.find(n))?;
                (None, [a, b])
            }
        };
        let (pawns, seconds) = score(value)?;
        let command = league::Command::RecordResult {
            game,
            players: [a, b],
            pawns,
            seconds,
            at,
        };
        for e in copy.decide(command)? {
            copy.apply(&e);
        }
        done.push(format!(
            "{} {} – {} {} ({})",
            copy.name_of(a),
            pawns[0],
            pawns[1],
            copy.name_of(b),
            format_time(seconds)
        ));
    }
    Ok(LeagueWhatIfView {
        format: "xmadn-league".into(),
        competition: competition.to_string(),
        version,
        results: done,
        league: league_view(&copy, competition, version),
    })
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
        let (black, white) = pair(key, |n| copy.find(n))?;
        let outcome = parse_outcome(value).ok_or_else(|| {
            input(format!(
                "{value:?}: give black, white, jigo, black-forfeits, white-forfeits or both-forfeit"
            ))
        })?;
        let command = season::Command::RecordResult {
            black,
            white,
            outcome,
            at,
        };
        for e in copy.decide(command)? {
            copy.apply(&e);
        }
        done.push(format!(
            "{} (black) – {} (white): {}",
            copy.name_of(black),
            copy.name_of(white),
            outcome_words(outcome)
        ));
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
