//! "What is still possible": clinch and elimination (ARB-R47) as
//! serializable views, for every front end (the CLI's `clinch`, the API,
//! the pages).
//!
//! For an XMadn league with round-robin games left, and for each group of
//! a Sunjang league's running season with games left, each player is
//! judged against each zone the engine gives the table
//! ([`arbiter_engine::xmadn::clinch::zones`],
//! [`arbiter_engine::sunjang::clinch::group_zones`]): clinched, clinched
//! unless a die (or the organizer's tiebreak record) decides, eliminated
//! (likewise), open, or undetermined (a Sunjang search that ran out of its
//! budget: nothing is said that is not proven).
//!
//! Each verdict carries a one-line reason. When the points alone prove it
//! (a leader nobody can catch, a player who cannot reach those already
//! ahead), the reason gives the figures; otherwise it says what the
//! engine's search established over the completions of the games left.
//!
//! The analysis is CPU-bound (a Sunjang group's search may take a second):
//! [`Service::clinch_input`] loads the competition and
//! [`ClinchInput::analyse`] runs without a store or a runtime, so a server
//! can run it on a blocking thread.

use arbiter_engine::clinch::{Analysis, Verdict, Zone, ZoneKind};
use arbiter_engine::explain::ordinal;
use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::clinch::{Budget, analyse_group};
use arbiter_engine::sunjang::group::{gamepoints_text, points};
use arbiter_engine::sunjang::season::League as SunjangLeague;
use arbiter_engine::xmadn::clinch::analyse_league;
use arbiter_engine::xmadn::league::{League, PLAYERS};
use arbiter_store::EventStore;
use serde::Serialize;

use crate::format::CompetitionFormat;
use crate::{Result, Service, ServiceError};

/// The ruling that defines the verdicts.
pub const RULING: &str = "ARB-R47";

/// A verdict, as a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum VerdictKey {
    /// In the zone whatever the results of the games left.
    Clinched,
    /// In the zone unless a tie across its edge is left to the die (or
    /// the organizer's tiebreak record); out of it in no case.
    ClinchedUnlessDie,
    /// Out of the zone whatever the results.
    Eliminated,
    /// Out of the zone unless such a tie decides; in it in no case.
    EliminatedUnlessDie,
    /// Results exist either way (or only the die decides).
    Open,
    /// Not proven within the search's budget.
    Undetermined,
}

impl From<Verdict> for VerdictKey {
    fn from(v: Verdict) -> Self {
        match v {
            Verdict::Clinched => VerdictKey::Clinched,
            Verdict::ClinchedUnlessDie => VerdictKey::ClinchedUnlessDie,
            Verdict::Eliminated => VerdictKey::Eliminated,
            Verdict::EliminatedUnlessDie => VerdictKey::EliminatedUnlessDie,
            Verdict::Open => VerdictKey::Open,
            Verdict::Undetermined => VerdictKey::Undetermined,
        }
    }
}

/// A zone of a table: a range of places that means something.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ClinchZoneView {
    /// `title`, `group-win`, `playoff`, `place-1`, `promotion`,
    /// `demotion`, `final-round`.
    pub key: String,
    /// "group win", "playoff place", "direct promotion", ...
    pub name: String,
    /// The places: "1st", "1st to 2nd", "8th to 9th".
    pub places: String,
    /// The rule's clause that gives the zone.
    pub clause: String,
}

/// One player against one zone.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ClinchVerdictView {
    /// The zone's key.
    pub zone: String,
    pub verdict: VerdictKey,
    /// The verdict in words: "clinched", "clinched unless a tie is left to
    /// the die", ...
    pub label: String,
    /// Why, in one line ("Kim cannot be caught: 14 gamepoints, nobody
    /// else can reach more than 12").
    pub text: String,
    /// The zone's clause.
    pub clause: String,
    pub rulings: Vec<String>,
}

/// A player's line: his points now and one verdict per zone, in the
/// group's zone order.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ClinchPlayerView {
    pub player: String,
    /// What he has now: gamepoints (Sunjang, with the start) or the
    /// win-loss record (XMadn, "3–1").
    pub now: String,
    /// Games he has left.
    pub games_left: usize,
    pub verdicts: Vec<ClinchVerdictView>,
}

/// The verdicts of one table (the XMadn league, a Sunjang group).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ClinchGroupView {
    /// `league`, or the Sunjang group ("A1", "B2"; "B" for the only group of B).
    pub group: String,
    /// "League", "Group A1".
    pub title: String,
    /// Games left in this table.
    pub games_left: usize,
    /// Every verdict is proven (none undetermined).
    pub exact: bool,
    /// Completions of the games left ranked with the cascade.
    pub completions: u64,
    pub zones: Vec<ClinchZoneView>,
    /// In the order of the table now.
    pub players: Vec<ClinchPlayerView>,
}

/// What is still possible in a competition (ARB-R47).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ClinchView {
    pub competition: String,
    pub version: u64,
    /// `xmadn-league` or `sunjang-league`.
    pub format: String,
    /// The Sunjang season judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub season: Option<u32>,
    pub ruling: String,
    /// The tables with games left.
    pub groups: Vec<ClinchGroupView>,
    /// Why there is nothing to judge, when `groups` is empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A loaded competition, its id and version.
#[derive(Debug, Clone)]
pub struct ClinchInput {
    pub competition: String,
    pub version: u64,
    pub state: std::sync::Arc<dyn crate::format::AnyCompetition>,
}

/// What a player has and can still reach, in a table's own unit.
pub(crate) struct Score {
    pub(crate) now: i64,
    pub(crate) best: i64,
    pub(crate) worst: i64,
    pub(crate) left: usize,
}

/// How a table counts: its scores and how to say them.
pub(crate) struct Counting {
    pub(crate) scores: Vec<Score>,
    /// Say an amount ("14 gamepoints", "3 wins"); `None`: the points alone
    /// prove nothing in words (an XMadn league whose players have not the
    /// same number of games).
    pub(crate) say: Option<Box<dyn Fn(i64) -> String>>,
    /// What settles a tie the results leave.
    pub(crate) die: &'static str,
}

/// How a format names its first place: its key, its name (`None`: the
/// zone's own), the clause that defines it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TitleWords<'a> {
    pub(crate) key: &'a str,
    pub(crate) name: Option<&'a str>,
    pub(crate) clause: &'a str,
}

const XMADN_TITLE: TitleWords<'static> = TitleWords {
    key: "title",
    name: None,
    clause: "XMadn League: Table",
};
const SUNJANG_TITLE: TitleWords<'static> = TitleWords {
    key: "group-win",
    name: Some("group win"),
    clause: "Sunjang B.1",
};

fn zone_key(zone: &Zone, title: &TitleWords<'_>) -> String {
    match zone.kind {
        ZoneKind::Title => title.key.into(),
        ZoneKind::Playoff => "playoff".into(),
        ZoneKind::Promotion => "promotion".into(),
        ZoneKind::Demotion => "demotion".into(),
        ZoneKind::FinalRound => "final-round".into(),
        ZoneKind::Place(k) => format!("place-{k}"),
        ZoneKind::Top(k) => format!("top-{k}"),
        ZoneKind::Bottom(k) => format!("bottom-{k}"),
    }
}

fn zone_name(zone: &Zone, title: &TitleWords<'_>) -> String {
    match (zone.kind, title.name) {
        (ZoneKind::Title, Some(name)) => name.into(),
        (ZoneKind::Place(k), _) => format!("{} place (seed)", ordinal(k)),
        _ => zone.name(),
    }
}

fn zone_clause(zone: &Zone, title: &TitleWords<'_>) -> String {
    match zone.kind {
        ZoneKind::Title => title.clause,
        ZoneKind::Playoff | ZoneKind::Place(_) => "XMadn League: Playoff",
        ZoneKind::Promotion => "Sunjang B.1",
        ZoneKind::Demotion => "Sunjang B.2",
        ZoneKind::FinalRound => "Sunjang Final Round",
        // The round-robin league's own settings (`top`, `bottom`; ARB-R69).
        ZoneKind::Top(_) => "Round-robin rules: top",
        ZoneKind::Bottom(_) => "Round-robin rules: bottom",
    }
    .into()
}

fn others(n: usize) -> String {
    if n == 1 {
        "1 other".into()
    } else {
        format!("{n} others")
    }
}

/// The reason of one verdict: from the points when they prove it alone,
/// otherwise from the search.
fn reason(
    i: usize,
    zone: &Zone,
    zone_name: &str,
    verdict: Verdict,
    counting: &Counting,
    names: &[String],
    games_left: usize,
) -> String {
    let n = counting.scores.len();
    let me = &counting.scores[i];
    let name = &names[i];
    let rest = || {
        counting
            .scores
            .iter()
            .enumerate()
            .filter(move |(j, _)| *j != i)
            .map(|(_, s)| s)
    };
    let places = zone.places_text();
    if let Some(say) = &counting.say {
        let top = zone.first == 1;
        let bottom = zone.last >= n;
        // Others who can still reach what he has; others already beyond
        // what he can reach; others who cannot reach what he has.
        let can_reach = rest().filter(|s| s.best >= me.now).count();
        let sure_above = rest().filter(|s| s.worst > me.best).count();
        let sure_below = rest().filter(|s| s.best < me.now).count();
        match verdict {
            Verdict::Clinched | Verdict::ClinchedUnlessDie if top && can_reach == 0 => {
                let most = rest().map(|s| s.best).max().unwrap_or(0);
                return format!(
                    "{name} cannot be caught: {}, nobody else can reach more than {}",
                    say(me.now),
                    say(most)
                );
            }
            Verdict::Clinched | Verdict::ClinchedUnlessDie if top && can_reach < zone.last => {
                return format!(
                    "{name} is sure to finish {places}: {}, and only {} can still reach that many",
                    say(me.now),
                    others(can_reach)
                );
            }
            Verdict::Clinched | Verdict::ClinchedUnlessDie
                if bottom && zone.first > 1 && sure_above >= zone.first - 1 =>
            {
                return format!(
                    "{name} can reach at most {}; {} already have more",
                    say(me.best),
                    others(sure_above)
                );
            }
            Verdict::Eliminated | Verdict::EliminatedUnlessDie
                if top && sure_above >= zone.last =>
            {
                let leader = counting
                    .scores
                    .iter()
                    .enumerate()
                    .filter(|(j, s)| *j != i && s.worst > me.best)
                    .max_by_key(|(_, s)| s.worst);
                if sure_above == 1
                    && let Some((j, s)) = leader
                {
                    return format!(
                        "{name} can reach at most {}; {} already has {}",
                        say(me.best),
                        names[j],
                        say(s.worst)
                    );
                }
                return format!(
                    "{name} can reach at most {}; {} already have more",
                    say(me.best),
                    others(sure_above)
                );
            }
            Verdict::Eliminated | Verdict::EliminatedUnlessDie
                if bottom && zone.first > 1 && sure_below > n - zone.first =>
            {
                return format!(
                    "{name} is safe from the {zone_name}: {}, and {} cannot reach that many",
                    say(me.now),
                    others(sure_below)
                );
            }
            _ => {}
        }
    }
    let games = if games_left == 1 {
        "the game left".to_string()
    } else {
        format!("the {games_left} games left")
    };
    match verdict {
        Verdict::Clinched => {
            format!("Whatever the results of {games}, {name} finishes {places} (the {zone_name})")
        }
        Verdict::ClinchedUnlessDie => format!(
            "Whatever the results of {games}, {name} finishes {places} (the {zone_name}), unless he is left in a tie across its edge that {} settles",
            counting.die
        ),
        Verdict::Eliminated => format!(
            "Whatever the results of {games}, {name} cannot finish {places} (the {zone_name})"
        ),
        Verdict::EliminatedUnlessDie => format!(
            "Whatever the results of {games}, {name} cannot finish {places} (the {zone_name}), unless he is left in a tie across its edge that {} settles",
            counting.die
        ),
        Verdict::Open => format!(
            "Results of {games} exist that put {name} {places} (the {zone_name}), and others that do not; {} games left for {name}",
            me.left
        ),
        Verdict::Undetermined => format!(
            "Not proven either way: the search of the completions of {games} ran out of its budget"
        ),
    }
}

pub(crate) fn group_view(
    group: String,
    title: String,
    analysis: &Analysis<PlayerId>,
    counting: &Counting,
    now_text: &dyn Fn(usize) -> String,
    name: &dyn Fn(PlayerId) -> String,
    title_words: &TitleWords<'_>,
) -> ClinchGroupView {
    let zones: Vec<ClinchZoneView> = analysis
        .zones
        .iter()
        .map(|z| ClinchZoneView {
            key: zone_key(z, title_words),
            name: zone_name(z, title_words),
            places: z.places_text(),
            clause: zone_clause(z, title_words),
        })
        .collect();
    let names: Vec<String> = analysis.players.iter().map(|&p| name(p)).collect();
    // The table's order now: most points first, then the analysis' order.
    let mut order: Vec<usize> = (0..analysis.players.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(counting.scores.get(i).map_or(i64::MIN, |s| s.now)));
    let players = order
        .into_iter()
        .map(|i| ClinchPlayerView {
            player: names[i].clone(),
            now: now_text(i),
            games_left: counting.scores.get(i).map_or(0, |s| s.left),
            verdicts: analysis
                .zones
                .iter()
                .enumerate()
                .map(|(zi, z)| {
                    let v = analysis
                        .verdicts
                        .get(i)
                        .and_then(|r| r.get(zi))
                        .copied()
                        .unwrap_or(Verdict::Undetermined);
                    ClinchVerdictView {
                        zone: zones[zi].key.clone(),
                        verdict: v.into(),
                        label: v.describe().to_string(),
                        text: reason(
                            i,
                            z,
                            &zones[zi].name,
                            v,
                            counting,
                            &names,
                            analysis.remaining,
                        ),
                        clause: zones[zi].clause.clone(),
                        rulings: vec![RULING.to_string()],
                    }
                })
                .collect(),
        })
        .collect();
    ClinchGroupView {
        group,
        title,
        games_left: analysis.remaining,
        exact: analysis.exact,
        completions: analysis.completions,
        zones,
        players,
    }
}

/// The clinch view of an XMadn league.
pub fn league_clinch(league: &League, competition: &str, version: u64) -> ClinchView {
    let open = arbiter_engine::xmadn::analysis::remaining_pairs(league);
    let mut view = ClinchView {
        competition: competition.to_string(),
        version,
        format: "xmadn-league".to_string(),
        season: None,
        ruling: RULING.to_string(),
        groups: Vec::new(),
        note: None,
    };
    if !league.created {
        view.note = Some("The league has not been created.".to_string());
        return view;
    }
    if open.is_empty() {
        view.note = Some(
            "Every round-robin game of the league has a result: the table is final.".to_string(),
        );
        return view;
    }
    let analysis = analyse_league(league);
    let facts = arbiter_engine::xmadn::table::facts(league);
    let slot = |p: PlayerId| analysis.players.iter().position(|&x| x == p);
    let n = analysis.players.len();
    let (mut wins, mut losses, mut left) = (vec![0i64; n], vec![0i64; n], vec![0usize; n]);
    for f in &facts {
        let w = f.winner.min(1);
        if let Some(i) = slot(f.players[w]) {
            wins[i] += 1;
        }
        if let Some(i) = slot(f.players[1 - w]) {
            losses[i] += 1;
        }
    }
    for pair in &open {
        for &p in pair {
            if let Some(i) = slot(p) {
                left[i] += 1;
            }
        }
    }
    // With the same number of games for everyone, wins order the table
    // as the records do (ARB-R24); otherwise no reason from the points.
    let totals: Vec<i64> = (0..n)
        .map(|i| wins[i] + losses[i] + left[i] as i64)
        .collect();
    let same = totals.windows(2).all(|w| w[0] == w[1]);
    let counting = Counting {
        scores: (0..n)
            .map(|i| Score {
                now: wins[i],
                best: wins[i] + left[i] as i64,
                worst: wins[i],
                left: left[i],
            })
            .collect(),
        say: same.then(|| {
            Box::new(|w: i64| {
                if w == 1 {
                    "1 win".to_string()
                } else {
                    format!("{w} wins")
                }
            }) as Box<dyn Fn(i64) -> String>
        }),
        die: "a round of die-roll (step 6)",
    };
    let now_text = |i: usize| format!("{}–{}", wins[i], losses[i]);
    let name = |p: PlayerId| league.name_of(p);
    debug_assert_eq!(analysis.players, PLAYERS.to_vec());
    view.groups.push(group_view(
        "league".to_string(),
        "League".to_string(),
        &analysis,
        &counting,
        &now_text,
        &name,
        &XMADN_TITLE,
    ));
    view
}

/// The clinch view of a Sunjang league's running season: every group with
/// games left, or only `group` ("B2").
pub fn sunjang_clinch(
    league: &SunjangLeague,
    competition: &str,
    version: u64,
    group: Option<&str>,
) -> Result<ClinchView> {
    let mut view = ClinchView {
        competition: competition.to_string(),
        version,
        format: "sunjang-league".to_string(),
        season: None,
        ruling: RULING.to_string(),
        groups: Vec::new(),
        note: None,
    };
    let Some(season) = league.current() else {
        if let Some(g) = group {
            return Err(ServiceError::Input(format!(
                "there is no group {g:?}: the league has no season"
            )));
        }
        view.note = Some("The league has no season yet.".to_string());
        return Ok(view);
    };
    view.season = Some(season.number());
    // `B` or `B1` for the only group of B, `A1` for a group of A
    // (Sunjang Definitions: Group); named as the season names it.
    let wanted = group
        .map(|g| season.find_group(g))
        .transpose()
        .map_err(|e| ServiceError::Input(e.message))?
        .map(|g| g.to_string());
    let rules = &league.rules;
    for (d, groups) in season.divisions.iter().enumerate() {
        let start = i64::from(league.start_points(season, d as u32));
        for g in groups {
            let label = g.id.to_string();
            if wanted.as_ref().is_some_and(|w| *w != label) {
                continue;
            }
            if g.complete() {
                continue;
            }
            let Some(analysis) = analyse_group(league, season, g.id, Budget::default()) else {
                continue;
            };
            let n = analysis.players.len();
            let slot = |p: PlayerId| analysis.players.iter().position(|&x| x == p);
            let (mut now, mut left) = (vec![start; n], vec![0usize; n]);
            for game in &g.games {
                let (b, w) = (slot(game.pairing.black), slot(game.pairing.white));
                match game.outcome {
                    Some(o) => {
                        let [pb, pw] = points(o, rules);
                        if let Some(b) = b {
                            now[b] += i64::from(pb);
                        }
                        if let Some(w) = w {
                            now[w] += i64::from(pw);
                        }
                    }
                    None => {
                        for i in [b, w].into_iter().flatten() {
                            left[i] += 1;
                        }
                    }
                }
            }
            let win = i64::from(rules.win_points);
            let counting = Counting {
                scores: (0..n)
                    .map(|i| Score {
                        now: now[i],
                        best: now[i] + win * left[i] as i64,
                        worst: now[i],
                        left: left[i],
                    })
                    .collect(),
                say: Some(Box::new(|h: i64| {
                    gamepoints_text(u32::try_from(h.max(0)).unwrap_or(u32::MAX))
                })),
                die: "only the organizer's tiebreak record (Sunjang D.2's last criteria)",
            };
            let now_text = |i: usize| {
                arbiter_engine::sunjang::format_points(u32::try_from(now[i].max(0)).unwrap_or(0))
            };
            let name = |p: PlayerId| league.name_of(p);
            view.groups.push(group_view(
                label.clone(),
                format!("Group {label}"),
                &analysis,
                &counting,
                &now_text,
                &name,
                &SUNJANG_TITLE,
            ));
        }
    }
    if view.groups.is_empty() {
        view.note = Some(match &wanted {
            Some(w) => format!("Group {w} has no games left: its table is final."),
            None => format!(
                "No group of season {} has games left: the group tables are final.",
                season.number()
            ),
        });
    }
    Ok(view)
}

impl ClinchInput {
    /// Analyse every table with games left (or only `group`, a Sunjang
    /// group's label). CPU-bound.
    pub fn analyse(&self, group: Option<&str>) -> Result<ClinchView> {
        self.state.clinch(&self.competition, self.version, group)
    }
}

impl<S: EventStore> Service<S> {
    /// Load a competition for [`ClinchInput::analyse`]; refused for a
    /// format without a table to judge (a TWS ladder, XMadn Challengers).
    pub async fn clinch_input(&self, competition: &str) -> Result<ClinchInput> {
        let format = self.format_of(competition).await?;
        if !format.offers().clinch {
            return Err(ServiceError::Input(format!(
                "clinch and elimination are judged for {} (ARB-R47); this competition is {}",
                CompetitionFormat::those_offering(|o| o.clinch),
                format.words()
            )));
        }
        let (state, version) = self.load_any(competition).await?;
        Ok(ClinchInput {
            competition: competition.to_string(),
            version,
            state,
        })
    }

    /// What is still possible in a competition, on the caller's thread.
    pub async fn clinch(&self, competition: &str, group: Option<&str>) -> Result<ClinchView> {
        self.clinch_input(competition).await?.analyse(group)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn ordinals() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(11), "11th");
    }

    /// A first season of 20: A in two groups of 7, B in one of 6.
    fn league_of_twenty() -> SunjangLeague {
        use arbiter_engine::sunjang::season::Command;
        use arbiter_engine::sunjang::{PlayerInfo, Rank, Restrictions, SunjangRules};
        let at = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
        let mut l = SunjangLeague::default();
        let run = |l: &mut SunjangLeague, c: Command| {
            for e in l.decide(c).unwrap() {
                l.apply(&e);
            }
        };
        run(
            &mut l,
            Command::Create {
                name: "Test".into(),
                rules: SunjangRules::default(),
                restrictions: Restrictions::default(),
            },
        );
        for i in 0..20u8 {
            run(
                &mut l,
                Command::Register {
                    info: PlayerInfo {
                        name: format!("Player {}", i + 1),
                        rank: Rank::Kyu(i + 1),
                        provisional: false,
                        rating: 2000 - i32::from(i),
                        corr_rank: None,
                        corr_rating: None,
                    },
                },
            );
        }
        run(&mut l, Command::PlanSeason { at });
        l
    }

    /// "They are denoted by the division letter plus a number (if
    /// necessary)" (Sunjang Definitions: Group; ARB-R66): the clinch of
    /// the only group of B is asked as B, b or B1 and answered as B; the
    /// letter alone of A, which has two groups, is refused naming them.
    #[test]
    fn a_sunjang_group_is_asked_by_either_spelling_and_named_as_the_season_names_it() {
        let l = league_of_twenty();
        let s = l.current().unwrap();
        let ids: Vec<String> = s
            .divisions
            .iter()
            .flatten()
            .map(|g| g.id.to_string())
            .collect();
        assert_eq!(ids, vec!["A1", "A2", "B"]);
        for asked in ["B", "b", "B1", " b1 "] {
            let v = sunjang_clinch(&l, "sj", 1, Some(asked)).unwrap();
            let got: Vec<(&str, &str)> = v
                .groups
                .iter()
                .map(|g| (g.group.as_str(), g.title.as_str()))
                .collect();
            assert_eq!(got, vec![("B", "Group B")], "{asked}");
        }
        let v = sunjang_clinch(&l, "sj", 1, Some("a2")).unwrap();
        assert_eq!(v.groups[0].group, "A2");
        let e = sunjang_clinch(&l, "sj", 1, Some("A"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("division A has groups A1, A2"), "{e}");
        let e = sunjang_clinch(&l, "sj", 1, Some("B2"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("there is no group B2 in season 1"), "{e}");
        // A result an older log recorded in "B1" is told as in B.
        let g = &s.divisions[1][0];
        let e = arbiter_engine::sunjang::season::Event::ResultRecorded {
            season: 1,
            group: arbiter_engine::sunjang::GroupId::new(1, 1),
            black: g.games[0].pairing.black,
            white: g.games[0].pairing.white,
            outcome: arbiter_engine::sunjang::group::Outcome::Jigo,
            at: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
        };
        let told = crate::summary::sunjang(&l, &e);
        assert!(told.starts_with("B: "), "{told}");
    }
}
