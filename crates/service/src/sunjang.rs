//! The Sunjang league through the command path: its format, creation,
//! views (`--json`, later the API) and forum announcements of a season's
//! groups.

use arbiter_engine::RuleError;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::sunjang::final_round::FinalState;
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::season::{self, League, Season};
use arbiter_engine::sunjang::{
    GroupId, Rank, Restriction, Restrictions, SunjangRules, division_letter, format_points,
};
use arbiter_record::RecordError;
use arbiter_store::EventStore;
use serde::Serialize;

use crate::csv::{Export, Table as CsvTable};
use crate::format::{CompetitionFormat, Offers};
use crate::forum::Markup;
use crate::insight::{Progress, ProjectionRequest, ProjectionView};
use crate::views::ExplanationView;
use crate::{Context, Executed, Format, Result, Service, ServiceError};

impl Format for League {
    type Event = season::Event;
    type Command = season::Command;
    type WhatIf = crate::what_if::SunjangWhatIfView;
    const NAME: &'static str = "a Sunjang league";
    const PLURAL: &'static str = "Sunjang leagues";
    const CREATED: &'static str = "sunjang-created";

    fn decide(&self, command: season::Command) -> Result<Vec<season::Event>, RuleError> {
        League::decide(self, command)
    }
    fn apply(&mut self, event: &season::Event) {
        League::apply(self, event);
    }
    fn try_apply(&mut self, event: &season::Event) -> Result<(), RuleError> {
        League::try_apply(self, event)
    }
    fn encode(event: &season::Event) -> String {
        arbiter_record::encode_sunjang(event)
    }
    fn decode(payload: &str) -> Result<season::Event, RecordError> {
        arbiter_record::decode_sunjang(payload)
    }
    fn kind(event: &season::Event) -> &'static str {
        event.kind()
    }
    fn revert(seq: u64, summary: String) -> season::Event {
        season::Event::Reverted { seq, summary }
    }
    fn reverted(event: &season::Event) -> Option<u64> {
        match event {
            season::Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        }
    }
    fn request(command: &season::Command) -> String {
        format!("sunjang {:?}", command.without_time())
    }
    const FORMAT: CompetitionFormat = CompetitionFormat::SunjangLeague;
    const ID: &'static str = "sunjang-league";
    const OFFERS: Offers = Offers {
        clinch: true,
        projection: true,
        what_if: true,
        ratings: false,
        installation_ratings: false,
    };

    fn describe(&self, event: &season::Event) -> String {
        crate::summary::sunjang(self, event)
    }
    fn concerns(&self, event: &season::Event) -> crate::history::Concerns {
        crate::summary::sunjang_concerns(self, event)
    }
    const ROUND: &'static str = "season";
    fn title(&self) -> &str {
        &self.name
    }
    fn members(&self) -> usize {
        self.entrants().len()
    }
    fn rounds(&self) -> usize {
        self.seasons.len()
    }
    fn player_named(&self, name: &str) -> Option<PlayerId> {
        self.find(name)
    }
    fn link(player: PlayerId, account: String) -> season::Command {
        season::Command::LinkAccount { player, account }
    }
    fn unlink(player: PlayerId) -> season::Command {
        season::Command::UnlinkAccount { player }
    }
    fn set_time_zone(zone: String) -> season::Command {
        season::Command::SetTimeZone { zone }
    }
    fn import_players(
        _competition: &str,
        file: &str,
        bytes: &[u8],
    ) -> Result<Vec<(u64, String, season::Command)>> {
        Ok(crate::csv::parse_sunjang_players(file, bytes)?
            .into_iter()
            .map(|p| {
                let name = p.info.name.clone();
                (p.line, name, season::Command::Register { info: p.info })
            })
            .collect())
    }
    fn forum_post(
        &self,
        _competition: &str,
        _version: u64,
        markup: Markup,
        _now: Time,
    ) -> Option<String> {
        let season = self.current()?;
        Some(season_forum(&season_view(self, season), &self.name, markup))
    }
    /// Each group of the running (last) season, named with its season (so
    /// that another season's group of the same name is never compared with
    /// it): its first places, once a game of the group is played.
    fn top(&self, _competition: &str, _version: u64) -> Vec<crate::notify::Top> {
        let Some(season) = self.current() else {
            return Vec::new();
        };
        let v = season_view(self, season);
        v.divisions
            .iter()
            .flat_map(|d| &d.groups)
            .map(|g| {
                crate::notify::Top::of(
                    &format!("season {}, group {}", v.number, g.id),
                    g.players.iter().any(|p| p.played > 0),
                    g.players.iter().map(|p| (p.place, p.player.clone())),
                )
            })
            .collect()
    }
    fn csv_table(&self, what: Export, _competition: &str, _version: u64, _now: Time) -> CsvTable {
        match what {
            Export::Standings => crate::csv::sunjang_standings(self),
            Export::Results => crate::csv::sunjang_results(self),
        }
    }
    fn clinch(
        &self,
        competition: &str,
        version: u64,
        group: Option<&str>,
    ) -> Result<crate::clinch::ClinchView> {
        crate::clinch::sunjang_clinch(self, competition, version, group)
    }
    const OFFERS_RESULT_IMPORT: bool = true;
    /// `game` (BLACK-WHITE, or the `black` and `white` columns) and
    /// `result` (black, white, jigo, black-forfeits, white-forfeits or
    /// both-forfeit), results of the running season's group games; a game
    /// already recorded with the same outcome is left as it is.
    fn result_row(
        &self,
        row: &crate::csv::ResultRow,
        at: Time,
    ) -> crate::csv::RowResult<season::Command> {
        let (command, text) = crate::what_if::sunjang_result(self, &row.game, &row.result, at)
            .map_err(|e| crate::csv::row_error(row, e))?;
        if let season::Command::RecordResult {
            black,
            white,
            outcome,
            ..
        } = &command
        {
            let recorded = self
                .current()
                .iter()
                .flat_map(|s| s.divisions.iter().flatten())
                .flat_map(|g| &g.games)
                .find(|g| g.pairing.black == *black && g.pairing.white == *white)
                .and_then(|g| g.outcome);
            if recorded == Some(*outcome) {
                return Ok(crate::csv::RowOutcome::Unchanged(text));
            }
        }
        Ok(crate::csv::RowOutcome::Record(command, text))
    }
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> Result<Self::WhatIf> {
        crate::what_if::sunjang_what_if(self, competition, version, results, at)
    }
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &ProjectionRequest,
        progress: Progress<'_>,
    ) -> Result<ProjectionView> {
        crate::insight::sunjang_projection(self, competition, version, request, progress)
    }
}

impl<S: EventStore> Service<S> {
    /// Create a Sunjang league.
    pub async fn create_sunjang(
        &self,
        competition: &str,
        name: &str,
        rules: SunjangRules,
        restrictions: Restrictions,
        ctx: &Context,
    ) -> Result<Executed<season::Event>> {
        crate::check_competition_id(competition)?;
        let command = season::Command::Create {
            name: name.to_string(),
            rules,
            restrictions,
        };
        let fingerprint = crate::request_fingerprint::<League>(&command);
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        if self.store().version(competition).await? > 0 {
            return Err(ServiceError::Exists(competition.to_string()));
        }
        let state = League::default();
        let events = state.decide(command)?;
        let mut after = state;
        for e in &events {
            after.apply(e);
        }
        self.append::<League>(competition, 0, events, ctx, &fingerprint, after)
            .await
    }
}

// ----- views -----

/// A player in a group.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct GroupPlayerView {
    pub place: usize,
    pub player: String,
    pub rank: String,
    pub rating: i32,
    pub played: u32,
    pub wins: u32,
    pub jigo: u32,
    pub losses: u32,
    /// Gamepoints won in group play, "3½".
    pub gamepoints: String,
    /// With the starting gamepoints (SJ-R4).
    pub total: String,
    pub sodos: String,
}

/// A game of a group: its round, who has black, and the result if any.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PairingView {
    pub round: u32,
    pub black: String,
    pub white: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'static str>,
}

/// A group with its table and crosstable.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct GroupView {
    pub id: String,
    pub players: Vec<GroupPlayerView>,
    /// Crosstable: `cells[i][j]` is the result of players[i] against
    /// players[j] from i's side ("1", "0", "½", "+" forfeit win, "-"
    /// forfeit loss, "" not played or self).
    pub cells: Vec<Vec<String>>,
    pub complete: bool,
    pub explanations: Vec<ExplanationView>,
    pub games_left: usize,
    /// Every game of the round robin, by round (ARB-R38).
    pub pairings: Vec<PairingView>,
}

/// A division of a season.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct DivisionView {
    pub letter: String,
    pub size: usize,
    pub start_gamepoints: String,
    pub groups: Vec<GroupView>,
    /// After the close: the merged ranking (SJ-R5).
    pub ranking: Vec<String>,
}

/// A player's placement in a season's plan.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PlacementView {
    pub player: String,
    pub group: String,
    pub seed: u32,
    pub explanation: ExplanationView,
}

/// The final round.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct FinalView {
    pub players: Vec<String>,
    pub advantaged: Vec<String>,
    pub withdrawn: Vec<String>,
    /// The games recorded, in the order played.
    pub games: Vec<String>,
    /// Why each finalist qualified (group leader, defending champion,
    /// drawn as a direct promotion by section B ...), who was passed over,
    /// and the advantaged positions (SJ-R7; ARB-R40).
    pub qualification: Vec<ExplanationView>,
    /// The games still to play: the round robin's next games, or the
    /// deciding game of a tie (SJ-R8), as "Black (black) v White".
    pub to_play: Vec<String>,
    /// "playing", "champion", "playoff", "void".
    pub state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
    pub explanation: Option<ExplanationView>,
}

/// A season.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct SeasonView {
    pub number: u32,
    /// "planned", "closed", "cancelled".
    pub status: &'static str,
    pub divisions: Vec<DivisionView>,
    pub placements: Vec<PlacementView>,
    pub notes: Vec<ExplanationView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<ExplanationView>,
    pub unfinished_games: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_round: Option<FinalView>,
    /// The organizer's own layout, when he moved placements of the
    /// automatic plan (ARB-R55).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<LayoutView>,
}

/// The organizer's changes to a season's automatic plan (ARB-R55).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LayoutView {
    pub reason: String,
    pub moves: Vec<LayoutMoveView>,
}

/// A placement the organizer moved: from the automatic plan's group (none
/// when the planner made no plan) to his.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LayoutMoveView {
    pub player: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned: Option<String>,
    pub placed: String,
}

impl LayoutMoveView {
    /// "Ann: B1 → B2".
    pub fn line(&self) -> String {
        match &self.planned {
            Some(from) => format!("{}: {from} → {}", self.player, self.placed),
            None => format!("{}: {}", self.player, self.placed),
        }
    }
}

/// A registered player.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct SunjangPlayerView {
    pub id: u32,
    pub name: String,
    pub rank: String,
    pub provisional: bool,
    pub rating: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corr_rank: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corr_rating: Option<i32>,
    pub withdrawn: bool,
    /// Highest and lowest division by the restrictions ("A-B").
    pub limits: String,
}

/// The whole league.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct SunjangView {
    pub competition: String,
    pub version: u64,
    pub name: String,
    pub players: Vec<SunjangPlayerView>,
    pub seasons: Vec<SeasonView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defending_champion: Option<String>,
    /// The season before the first played here, carried over from the
    /// league's records (ARB-R77).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried: Option<crate::sunjang_carry::CarriedSeasonView>,
}

fn note_view(n: &season::Note) -> ExplanationView {
    ExplanationView {
        clause: n.clause.clone(),
        rulings: n.rulings.clone(),
        text: n.text.clone(),
    }
}

fn cell(outcome: Outcome, black: bool) -> &'static str {
    match (outcome, black) {
        (Outcome::BlackWins, true) | (Outcome::WhiteWins, false) => "1",
        (Outcome::BlackWins, false) | (Outcome::WhiteWins, true) => "0",
        (Outcome::Jigo, _) => "½",
        (Outcome::WhiteForfeits, true) | (Outcome::BlackForfeits, false) => "+",
        (Outcome::BlackForfeits, true)
        | (Outcome::WhiteForfeits, false)
        | (Outcome::BothForfeit, _) => "-",
    }
}

/// The view of one season.
pub fn season_view(l: &League, s: &Season) -> SeasonView {
    let tables = l.group_tables(s);
    let name = |p: PlayerId| l.name_of(p);
    let divisions = s
        .divisions
        .iter()
        .enumerate()
        .map(|(d, groups)| {
            let start = l.start_points(s, d as u32);
            DivisionView {
                letter: division_letter(d as u32),
                size: groups.iter().map(|g| g.players.len()).sum(),
                start_gamepoints: format_points(start),
                groups: groups
                    .iter()
                    .map(|g| {
                        let table = tables.iter().find(|t| t.group == g.id);
                        let order: Vec<PlayerId> = table
                            .map(|t| t.rows.iter().map(|r| r.player).collect())
                            .unwrap_or_else(|| g.players.clone());
                        let cells = order
                            .iter()
                            .map(|&a| {
                                order
                                    .iter()
                                    .map(|&b| {
                                        g.games
                                            .iter()
                                            .find_map(|x| {
                                                let o = x.outcome?;
                                                if x.pairing.black == a && x.pairing.white == b {
                                                    Some(cell(o, true).to_string())
                                                } else if x.pairing.white == a
                                                    && x.pairing.black == b
                                                {
                                                    Some(cell(o, false).to_string())
                                                } else {
                                                    None
                                                }
                                            })
                                            .unwrap_or_default()
                                    })
                                    .collect()
                            })
                            .collect();
                        GroupView {
                            id: g.id.to_string(),
                            players: table
                                .map(|t| {
                                    t.rows
                                        .iter()
                                        .map(|r| {
                                            let info = l.info(r.player);
                                            GroupPlayerView {
                                                place: r.place,
                                                player: name(r.player),
                                                rank: info
                                                    .map_or(String::new(), |i| i.rank.to_string()),
                                                rating: info.map_or(0, |i| i.rating),
                                                played: r.played,
                                                wins: r.wins,
                                                jigo: r.jigo,
                                                losses: r.losses,
                                                gamepoints: format_points(r.gamepoints),
                                                total: format_points(r.gamepoints + r.start),
                                                sodos: arbiter_engine::sunjang::format_sodos(
                                                    r.sodos,
                                                    l.rules.sodos_per_point(),
                                                ),
                                            }
                                        })
                                        .collect()
                                })
                                .unwrap_or_default(),
                            cells,
                            complete: g.complete(),
                            explanations: table
                                .map(|t| t.explanations.iter().cloned().map(Into::into).collect())
                                .unwrap_or_default(),
                            games_left: g.games.iter().filter(|x| x.outcome.is_none()).count(),
                            pairings: g
                                .games
                                .iter()
                                .map(|x| PairingView {
                                    round: x.pairing.round,
                                    black: name(x.pairing.black),
                                    white: name(x.pairing.white),
                                    result: x.outcome.map(Outcome::describe),
                                })
                                .collect(),
                        }
                    })
                    .collect(),
                ranking: s
                    .close
                    .as_ref()
                    .and_then(|c| c.divisions.get(d))
                    .map(|pd| pd.ranking.iter().map(|p| name(*p)).collect())
                    .unwrap_or_default(),
            }
        })
        .collect();
    let final_round = s.final_round.as_ref().map(|f| {
        let state = l.final_state(s);
        let (label, champion, explanation) = match &state {
            Some(FinalState::Champion {
                player,
                explanation,
            }) => (
                "champion",
                Some(name(*player)),
                Some(explanation.clone().into()),
            ),
            Some(FinalState::Playoff { explanation, .. }) => {
                ("playoff", None, Some(explanation.clone().into()))
            }
            Some(FinalState::Void { explanation }) => {
                ("void", None, Some(explanation.clone().into()))
            }
            _ => ("playing", None, None),
        };
        FinalView {
            players: f.players.iter().map(|p| name(*p)).collect(),
            advantaged: f.advantaged.iter().map(|p| name(*p)).collect(),
            withdrawn: f.withdrawn.iter().map(|p| name(*p)).collect(),
            games: f
                .games
                .iter()
                .map(|g| {
                    format!(
                        "{} (black) v {}: {}",
                        name(g.black),
                        name(g.white),
                        g.outcome.map_or("to play", outcome_words)
                    )
                })
                .collect(),
            qualification: l.final_reasons(s).into_iter().map(Into::into).collect(),
            to_play: l
                .final_games_to_play(s)
                .into_iter()
                .map(|(b, w)| format!("{} (black) v {}", name(b), name(w)))
                .collect(),
            state: label,
            champion,
            explanation,
        }
    });
    SeasonView {
        number: s.number(),
        status: if s.plan.cancelled.is_some() {
            "cancelled"
        } else if s.close.is_some() {
            "closed"
        } else {
            "planned"
        },
        divisions,
        placements: s
            .plan
            .placements
            .iter()
            .map(|p| PlacementView {
                player: name(p.player),
                group: p.group.to_string(),
                seed: p.seed,
                explanation: note_view(&p.explanation),
            })
            .collect(),
        notes: s.plan.notes.iter().map(note_view).collect(),
        cancelled: s.plan.cancelled.as_ref().map(note_view),
        unfinished_games: s.unfinished(),
        final_round,
        layout: s.plan.layout.as_ref().map(|x| LayoutView {
            reason: x.reason.clone(),
            moves: x
                .moves
                .iter()
                .map(|m| LayoutMoveView {
                    player: name(m.player),
                    planned: m.planned.map(|g| g.to_string()),
                    placed: m.placed.to_string(),
                })
                .collect(),
        }),
    }
}

/// A plan not stored (`season plan --preview`): the very body of a stored
/// season's view ([`SeasonView`]), with `"preview": true`.
#[derive(Debug, Clone, Serialize)]
pub struct SeasonPreview {
    /// Always true: nothing is stored.
    pub preview: bool,
    #[serde(flatten)]
    pub season: SeasonView,
}

/// The season the next plan would make now, viewed as a stored one is: the
/// plan is decided and applied to a copy of the league (refused as the plan
/// itself would be).
///
/// # Errors
///
/// The plan's refusal (a season still running, a limit it cannot keep).
pub fn preview_view(l: &League, at: Time) -> Result<SeasonPreview, RuleError> {
    let events = l.decide(season::Command::PlanSeason { at })?;
    let mut after = l.clone();
    for e in &events {
        after.try_apply(e)?;
    }
    let s = after
        .current()
        .ok_or_else(|| RuleError::new("Sunjang Definitions: Season", "no season was planned"))?;
    Ok(SeasonPreview {
        preview: true,
        season: season_view(&after, s),
    })
}

/// "black wins", "jigo", ...
pub fn outcome_words(o: Outcome) -> &'static str {
    o.describe()
}

/// Parse an outcome: black, white, jigo, black-forfeits, white-forfeits,
/// both-forfeit.
pub fn parse_outcome(s: &str) -> Option<Outcome> {
    match s
        .trim()
        .to_ascii_lowercase()
        .replace(['_', ' '], "-")
        .as_str()
    {
        "black" | "black-wins" | "b" => Some(Outcome::BlackWins),
        "white" | "white-wins" | "w" => Some(Outcome::WhiteWins),
        "jigo" | "draw" => Some(Outcome::Jigo),
        "black-forfeits" => Some(Outcome::BlackForfeits),
        "white-forfeits" => Some(Outcome::WhiteForfeits),
        "both-forfeit" | "both-forfeits" => Some(Outcome::BothForfeit),
        _ => None,
    }
}

/// The view of the whole league.
pub fn sunjang_view(l: &League, competition: &str, version: u64) -> SunjangView {
    SunjangView {
        competition: competition.to_string(),
        version,
        name: l.name.clone(),
        players: l
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| SunjangPlayerView {
                id: i as u32 + 1,
                name: p.name.clone(),
                rank: p.rank.to_string(),
                provisional: p.provisional,
                rating: p.rating,
                corr_rank: p.corr_rank.map(|r| r.to_string()),
                corr_rating: p.corr_rating,
                withdrawn: l.withdrawn.get(i).copied().unwrap_or(false),
                limits: l.restrictions.limits(p.rank).map_or_else(
                    || "any".to_string(),
                    |(h, lo)| format!("{}-{}", division_letter(h), division_letter(lo)),
                ),
            })
            .collect(),
        seasons: l.seasons.iter().map(|s| season_view(l, s)).collect(),
        defending_champion: l.defending_champion().map(|p| l.name_of(p)),
        carried: crate::sunjang_carry::carried_view(l),
    }
}

// ----- forum -----

/// The announcement of a season's groups: every division and group with
/// its players (seed, rank) and why each player is there.
pub fn season_forum(v: &SeasonView, league: &str, m: Markup) -> String {
    let esc = |s: &str| crate::forum::escape(m, s);
    let mut out = String::new();
    let heading = |s: &str| match m {
        Markup::BbCode => format!("[b]{}[/b]\n", esc(s)),
        Markup::Markdown => format!("## {}\n\n", esc(s)),
    };
    out.push_str(&heading(&format!("{league}: season {}", v.number)));
    if let Some(c) = &v.cancelled {
        out.push_str(&esc(&c.line()));
        out.push('\n');
        return out;
    }
    for d in &v.divisions {
        out.push_str(&heading(&format!(
            "Division {} ({} players, starting gamepoints {})",
            d.letter, d.size, d.start_gamepoints
        )));
        for g in &d.groups {
            match m {
                Markup::BbCode => out.push_str(&format!("[u]{}[/u]\n[list=1]\n", g.id)),
                Markup::Markdown => out.push_str(&format!("**{}**\n\n", g.id)),
            }
            let mut members: Vec<&PlacementView> =
                v.placements.iter().filter(|p| p.group == g.id).collect();
            members.sort_by_key(|p| p.seed);
            for p in members {
                // The explanation starts with the player's name.
                let line = format!("seed {}: {}", p.seed, p.explanation.text);
                match m {
                    Markup::BbCode => out.push_str(&format!("[*]{}\n", esc(&line))),
                    Markup::Markdown => out.push_str(&format!("1. {}\n", esc(&line))),
                }
            }
            match m {
                Markup::BbCode => out.push_str("[/list]\n"),
                Markup::Markdown => out.push('\n'),
            }
        }
    }
    out
}

// ----- an organizer's layout (ARB-R55) -----

/// The most moves, or groups, a layout names.
pub const MAX_LAYOUT_ITEMS: usize = 2000;

/// A group as people write it: `B2`, `b2`, `AA10`, or a division letter
/// alone (`B`): the name of the only group of B ("the division letter plus
/// a number (if necessary)", Sunjang Definitions: Group), and in a layout
/// the first group of B (ARB-R66). See [`GroupId::parse`]; a season's
/// group by name is [`Season::find_group`].
pub fn parse_group_name(s: &str) -> Option<GroupId> {
    GroupId::parse(s)
}

fn layout_error(message: String, field: String) -> RuleError {
    RuleError::new("Sunjang A. Divisions & Groups", message).field(field)
}

fn layout_player(l: &League, name: &str, field: &str) -> Result<PlayerId, RuleError> {
    l.find(name).ok_or_else(|| {
        let hint =
            arbiter_engine::model::did_you_mean(l.players.iter().map(|p| p.name.as_str()), name);
        layout_error(
            format!(
                "there is no player named {:?} in this league{hint}",
                name.trim()
            ),
            field.to_string(),
        )
    })
}

/// Moves written `NAME:GROUP` (`Ann Lee:B2`; the last `:` separates the
/// group), each player by his name in `l`.
pub fn layout_moves(l: &League, moves: &[String]) -> Result<Vec<(PlayerId, GroupId)>, RuleError> {
    if moves.len() > MAX_LAYOUT_ITEMS {
        return Err(layout_error(
            format!("at most {MAX_LAYOUT_ITEMS} moves"),
            "moves".into(),
        ));
    }
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let field = format!("moves[{i}]");
            let Some((name, group)) = m.rsplit_once(':').filter(|_| m.len() <= 200) else {
                return Err(layout_error(
                    format!("move {:?}: write NAME:GROUP, such as \"Ann:B2\"", m.chars().take(80).collect::<String>()),
                    field,
                ));
            };
            let who = layout_player(l, name, &field)?;
            let to = parse_group_name(group).ok_or_else(|| {
                layout_error(
                    format!("move {m:?}: {group:?} is not a group: a division letter and a number, such as B2, or the letter alone, such as B, for its first group"),
                    field.clone(),
                )
            })?;
            Ok((who, to))
        })
        .collect()
}

/// A whole layout by group (`B2` and its players' names): the divisions
/// (A first), each its groups numbered from 1 with none left out.
pub fn layout_groups(
    l: &League,
    groups: &[(String, Vec<String>)],
) -> Result<Vec<Vec<Vec<PlayerId>>>, RuleError> {
    if groups.len() > MAX_LAYOUT_ITEMS {
        return Err(layout_error(
            format!("at most {MAX_LAYOUT_ITEMS} groups"),
            "groups".into(),
        ));
    }
    let mut named: Vec<(GroupId, Vec<PlayerId>)> = Vec::with_capacity(groups.len());
    for (id, names) in groups {
        let field = format!("groups.{id}");
        let g = parse_group_name(id)
            .filter(|g| (g.division as usize) < MAX_LAYOUT_ITEMS)
            .ok_or_else(|| {
                layout_error(
                    format!("{id:?} is not a group: a division letter and a number, such as B2, or the letter alone, such as B, for its first group"),
                    field.clone(),
                )
            })?;
        if named.iter().any(|(x, _)| *x == g) {
            return Err(layout_error(format!("group {g} is given twice"), field));
        }
        let players = names
            .iter()
            .map(|n| layout_player(l, n, &field))
            .collect::<Result<Vec<_>, _>>()?;
        named.push((g, players));
    }
    named.sort_by_key(|(g, _)| *g);
    let divisions = named.last().map_or(0, |(g, _)| g.division as usize + 1);
    let mut out: Vec<Vec<Vec<PlayerId>>> = vec![Vec::new(); divisions];
    for (g, players) in named {
        let here = &mut out[g.division as usize];
        if g.number as usize != here.len() + 1 {
            return Err(layout_error(
                format!(
                    "group {} is missing: the groups of a division are numbered from 1, none left out",
                    GroupId::new(g.division, here.len() as u32 + 1)
                ),
                format!("groups.{g}"),
            ));
        }
        here.push(players);
    }
    Ok(out)
}

// ----- one row of the division restrictions (ARB-R56) -----

/// A division letter as people write it: `A`, `b`, `AA`.
pub fn parse_division_letter(s: &str) -> Option<u32> {
    let t = s.trim().to_ascii_uppercase();
    if t.is_empty() || t.len() > 3 || !t.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let mut d: u32 = 0;
    for b in t.bytes() {
        d = d * 26 + u32::from(b - b'A') + 1;
    }
    Some(d - 1)
}

fn split_range(s: &str) -> (&str, Option<&str>) {
    for sep in ["..", "–", "-"] {
        if let Some((a, b)) = s.split_once(sep) {
            return (a, Some(b));
        }
    }
    (s, None)
}

/// A row's rank range, weakest first: `10k-1k`, `10k–1k`, `10k..1k`, or
/// one rank (`5k`); as (weakest, strongest).
pub fn parse_rank_range(s: &str) -> Result<(Rank, Rank), RuleError> {
    let bad = || {
        RuleError::new(
            "Sunjang Definitions: Division restrictions per rank",
            format!(
                "{:?} is not a rank range: the weakest rank, a dash, the strongest, such as 10k-1k (or one rank, 5k)",
                s.chars().take(40).collect::<String>()
            ),
        )
        .field("ranks")
    };
    if s.len() > 40 {
        return Err(bad());
    }
    let (a, b) = split_range(s.trim());
    let rank = |x: &str| match Rank::parse(x) {
        Ok((r, false)) => Ok(r),
        _ => Err(bad()),
    };
    let weakest = rank(a)?;
    let strongest = b.map_or(Ok(weakest), rank)?;
    Ok((weakest, strongest))
}

/// A row of the restrictions from its rank range and its divisions
/// (`A-B`, highest first, or one division `B`).
pub fn parse_restriction_row(ranks: &str, divisions: &str) -> Result<Restriction, RuleError> {
    let (weakest, strongest) = parse_rank_range(ranks)?;
    let bad = || {
        RuleError::new(
            "Sunjang Definitions: Division restrictions per rank",
            format!(
                "{:?} is not a range of divisions: the highest, a dash, the lowest, such as A-B (or one division, B)",
                divisions.chars().take(40).collect::<String>()
            ),
        )
        .field("divisions")
    };
    let (h, l) = split_range(divisions.trim());
    let highest = parse_division_letter(h).ok_or_else(bad)?;
    let lowest = match l {
        Some(l) => parse_division_letter(l).ok_or_else(bad)?,
        None => highest,
    };
    Ok(Restriction {
        strongest,
        weakest,
        highest,
        lowest,
    })
}

/// The restrictions as a moderator reads them: "10k–1k: A to B".
pub fn restriction_lines(r: &Restrictions) -> Vec<String> {
    r.rows
        .iter()
        .map(|row| {
            format!(
                "{}: {} to {}",
                row.ranks(),
                division_letter(row.highest),
                division_letter(row.lowest)
            )
        })
        .collect()
}
