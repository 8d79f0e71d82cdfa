//! The TWS ladder through the registry: its [`Format`] and the hooks the
//! service and the front ends call (the ladder's commands and views are the
//! service's original API, in `lib.rs`, `views.rs` and `insight.rs`).

use arbiter_engine::RuleError;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::tws::{self, Ladder};
use arbiter_record::RecordError;

use crate::Format;
use crate::csv::{Export, Table};
use crate::format::{CompetitionFormat, Offers};
use crate::insight::{
    Progress, ProjectionRequest, ProjectionView, RatingScope, RatingSystem, RatingsView,
};

impl Format for Ladder {
    type Event = tws::Event;
    type Command = tws::Command;
    type WhatIf = crate::insight::WhatIfView;
    const NAME: &'static str = "a TWS ladder";
    const PLURAL: &'static str = "TWS ladders";
    const CREATED: &'static str = "created";

    fn decide(&self, command: tws::Command) -> Result<Vec<tws::Event>, RuleError> {
        Ladder::decide(self, command)
    }
    fn apply(&mut self, event: &tws::Event) {
        Ladder::apply(self, event);
    }
    fn try_apply(&mut self, event: &tws::Event) -> Result<(), RuleError> {
        Ladder::try_apply(self, event)
    }
    fn encode(event: &tws::Event) -> String {
        arbiter_record::encode(event)
    }
    fn decode(payload: &str) -> Result<tws::Event, RecordError> {
        arbiter_record::decode(payload)
    }
    fn kind(event: &tws::Event) -> &'static str {
        event.kind()
    }
    fn revert(seq: u64, summary: String) -> tws::Event {
        tws::Event::Reverted { seq, summary }
    }
    fn reverted(event: &tws::Event) -> Option<u64> {
        match event {
            tws::Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        }
    }
    fn request(command: &tws::Command) -> String {
        format!("{:?}", command.without_time())
    }

    const FORMAT: CompetitionFormat = CompetitionFormat::TwsLadder;
    const ID: &'static str = "tws-ladder";
    const OFFERS: Offers = Offers {
        clinch: false,
        projection: true,
        what_if: true,
        ratings: true,
        installation_ratings: true,
    };

    fn describe(&self, event: &tws::Event) -> String {
        crate::summary::summarize(self, event)
    }
    fn concerns(&self, event: &tws::Event) -> crate::history::Concerns {
        crate::summary::ladder_concerns(self, event)
    }
    const ROUND: &'static str = "round";
    fn title(&self) -> &str {
        &self.name
    }
    fn members(&self) -> usize {
        self.order.len()
    }
    fn rounds(&self) -> usize {
        self.rounds.len()
    }
    fn player_named(&self, name: &str) -> Option<PlayerId> {
        self.find(name)
    }
    fn link(player: PlayerId, account: String) -> tws::Command {
        tws::Command::LinkAccount { player, account }
    }
    fn unlink(player: PlayerId) -> tws::Command {
        tws::Command::UnlinkAccount { player }
    }
    fn set_time_zone(zone: String) -> tws::Command {
        tws::Command::SetTimeZone { zone }
    }
    fn import_players(
        _competition: &str,
        file: &str,
        bytes: &[u8],
    ) -> crate::Result<Vec<(u64, String, tws::Command)>> {
        Ok(crate::csv::parse_ladder_players(file, bytes)?
            .into_iter()
            .map(|p| {
                let name = p.name.clone();
                let join = tws::Command::Join {
                    name: p.name,
                    surname: p.surname,
                };
                (p.line, name, join)
            })
            .collect())
    }
    fn forum_post(
        &self,
        competition: &str,
        _version: u64,
        markup: crate::forum::Markup,
        now: Time,
    ) -> Option<String> {
        let r = self.last_round()?;
        let view = crate::views::round_view(self, competition, r, now);
        Some(crate::forum::announcement(markup, &view))
    }
    /// The ladder's first rungs: the order is the standings, and the top
    /// rung is the Ladder Champion (TWS "Significance of Ladder
    /// Standings"); it changes when a round's close re-sorts it.
    fn top(&self, _competition: &str, _version: u64) -> Vec<crate::notify::Top> {
        vec![crate::notify::Top::of(
            "",
            true,
            self.order
                .iter()
                .enumerate()
                .map(|(i, p)| (i + 1, self.name_of(*p))),
        )]
    }
    fn csv_table(&self, what: Export, competition: &str, version: u64, now: Time) -> Table {
        match what {
            Export::Standings => crate::csv::ladder_standings(self, competition, version),
            Export::Results => crate::csv::ladder_results(self, now),
        }
    }
    fn ratings(
        rated: &[(String, Ladder)],
        competition: &str,
        version: u64,
        system: RatingSystem,
        scope: RatingScope,
    ) -> crate::Result<RatingsView> {
        Ok(crate::insight::ratings_view(
            competition,
            version,
            system,
            scope,
            rated,
        ))
    }
    const OFFERS_RESULT_IMPORT: bool = true;
    /// How the game ended (`by`, required: vp, defcon, europe,
    /// final-scoring, wargames, concession, forfeit, adjudication, or other
    /// with a note, ARB-R58), the final VP marker, the turn, a note.
    const RESULT_COLUMNS: &'static [&'static str] = &["by", "vp", "turn", "note"];
    /// `game` (G12) and `result` (the winner's name, ussr, us or tie), as
    /// `result record` takes them; a game already recorded with the same
    /// outcome is left as it is.
    fn result_row(
        &self,
        row: &crate::csv::ResultRow,
        at: Time,
    ) -> crate::csv::RowResult<tws::Command> {
        use arbiter_engine::model::EndTag;
        let game = self
            .games
            .iter()
            .find(|g| g.id.to_string().eq_ignore_ascii_case(row.game.trim()))
            .ok_or_else(|| {
                (
                    None,
                    format!(
                        "there is no game {:?}: give the game's id, e.g. G12",
                        row.game
                    ),
                )
            })?;
        let outcome =
            outcome_of(self, game, &row.result).map_err(|e| (Some(row.result_column), e))?;
        let ended_by = row
            .get("by")
            .ok_or_else(|| {
                (
                    Some("by"),
                    "empty: say how the game ended (vp, defcon, europe, final-scoring, wargames, concession, forfeit, adjudication, or other with a note; ARB-R58)".to_string(),
                )
            })
            .and_then(|by| EndTag::parse(by).map_err(|e| (Some("by"), e.message)))?;
        let number = |column: &'static str| {
            row.get(column)
                .map(|v| {
                    v.parse::<i64>()
                        .map_err(|_| (Some(column), format!("{v:?} is not a whole number")))
                })
                .transpose()
        };
        let vp = number("vp")?
            .map(|v| i32::try_from(v).map_err(|_| (Some("vp"), format!("{v} is not a VP marker"))))
            .transpose()?;
        let turn = number("turn")?
            .map(|t| u8::try_from(t).map_err(|_| (Some("turn"), format!("{t} is not a turn"))))
            .transpose()?;
        let text = outcome_text(self, game, outcome);
        if game.result.as_ref().is_some_and(|r| r.outcome == outcome) {
            return Ok(crate::csv::RowOutcome::Unchanged(text));
        }
        Ok(crate::csv::RowOutcome::Record(
            tws::Command::RecordResult {
                game: game.id,
                result: tws::ResultInput {
                    outcome,
                    ended_by,
                    vp,
                    turn,
                    note: row.get("note").map(str::to_string),
                },
                agreed: game.deadline.is_some_and(|d| at > d),
                at,
            },
            text,
        ))
    }
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> crate::Result<Self::WhatIf> {
        crate::insight::ladder_what_if(self, competition, version, results, at)
    }
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &ProjectionRequest,
        progress: Progress<'_>,
    ) -> crate::Result<ProjectionView> {
        crate::insight::ladder_projection(self, competition, version, request, progress)
    }
}

/// A game's outcome as a what-if or a results file names it: the
/// winner's name, `ussr`, `us` or `tie`.
pub(crate) fn outcome_of(
    ladder: &Ladder,
    game: &tws::Game,
    who: &str,
) -> Result<arbiter_engine::model::Outcome, String> {
    use arbiter_engine::model::{Outcome, Side};
    let w = who.trim();
    if w.eq_ignore_ascii_case("tie") {
        return Ok(Outcome::Tie);
    }
    if let Some(side) = Side::parse(w) {
        return Ok(Outcome::Win(side));
    }
    match ladder.find(w) {
        Some(p) if p == game.ussr.player => Ok(Outcome::Win(Side::Ussr)),
        Some(p) if p == game.us.player => Ok(Outcome::Win(Side::Us)),
        _ => Err(format!(
            "{w:?} does not play in {}: give a player of the game, ussr, us or tie",
            game.id
        )),
    }
}

/// A game's outcome in words: "G12: Hiro Tanaka (USSR) wins", "G12: tie".
pub(crate) fn outcome_text(
    ladder: &Ladder,
    game: &tws::Game,
    outcome: arbiter_engine::model::Outcome,
) -> String {
    use arbiter_engine::model::{Outcome, Side};
    match outcome {
        Outcome::Tie => format!("{}: tie", game.id),
        Outcome::Win(side) => {
            let p = if side == Side::Ussr {
                game.ussr.player
            } else {
                game.us.player
            };
            format!("{}: {} ({side}) wins", game.id, ladder.name_of(p))
        }
    }
}
