//! The ladder's decider: commands checked against the rules.

use super::sides::{self, Seat};
use super::{
    Command, Confirmer, Event, Game, Ladder, Membership, PairingMethod, PairingPlan, PairingReason,
    Report, ResultInput, RoundAnnounced, ScheduledGame, SideReason, Skip,
};
use crate::RuleError;
use crate::draw::{self, DrawKey};
use crate::model::{
    Counts, EndTag, GameId, GameResult, GameStatus, Outcome, Participant, PlayerId, Side, Time,
    invisible,
};

const JOINING: &str = "TWS Joining the Ladder";
const PAIRINGS: &str = "TWS Pairings";
const CONDUCT: &str = "TWS Conduct of Games";
const SKIPPING: &str = "TWS Skipping Rounds";
const STANDINGS: &str = "TWS Change of Ladder Standings";

type Decided = Result<Vec<Event>, RuleError>;

/// A pairing as (player, rung) and his opponent; rung 0 marks an eliminator.
/// Two players of a game with their rungs; rung 0 marks an eliminator.
type Pair = ((PlayerId, u32), (PlayerId, u32));

/// The longest reason, note or statement kept with an event.
const MAX_TEXT: usize = 4000;

fn require_text(value: &str, clause: &str, what: &str, field: &str) -> Result<(), RuleError> {
    if value.trim().is_empty() {
        Err(RuleError::new(clause, format!("{what} must not be empty")).field(field))
    } else if value.chars().count() > MAX_TEXT {
        Err(RuleError::new(
            clause,
            format!("{what} must be at most {MAX_TEXT} characters"),
        )
        .field(field))
    } else {
        Ok(())
    }
}

/// A person's name as stored: the one name check of every format
/// ([`crate::model::person_name`], ARB-R22, ARB-R50), at most 100
/// characters here.
fn person_name(raw: &str, clause: &str, what: &str, field: &str) -> Result<String, RuleError> {
    require_text(raw, clause, what, field)?;
    crate::model::person_name(raw, 100)
        .map_err(|why| RuleError::new(clause, format!("{what} {why}")).field(field))
}

/// The surname used in game names ("the last name of the person"): the
/// given one, or the last word of the name with the lowercase particles
/// before it ("Tessa de Vries" → "de Vries", "Ludwig van der Berg" →
/// "van der Berg").
fn surname_or_last_word(name: &str, surname: Option<String>) -> String {
    if let Some(s) = surname
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
    {
        return s;
    }
    const PARTICLES: [&str; 14] = [
        "de", "da", "di", "del", "della", "der", "den", "des", "du", "la", "le", "van", "von",
        "ter",
    ];
    let words: Vec<&str> = name.split_whitespace().collect();
    let Some((last, rest)) = words.split_last() else {
        return name.to_string();
    };
    let mut start = rest.len();
    // Keep at least the first word as a given name.
    while start > 1 && PARTICLES.contains(&rest[start - 1]) {
        start -= 1;
    }
    let mut parts: Vec<&str> = rest[start..].to_vec();
    parts.push(last);
    parts.join(" ")
}

#[cfg(test)]
mod surname_tests {
    use super::surname_or_last_word as s;

    #[test]
    fn surnames_keep_their_particles() {
        assert_eq!(s("Tessa de Vries", None), "de Vries");
        assert_eq!(s("Ludwig van der Berg", None), "van der Berg");
        assert_eq!(s("Ana Morales", None), "Morales");
        assert_eq!(s("Madonna", None), "Madonna");
        assert_eq!(s("De Gaulle", None), "Gaulle");
        assert_eq!(s("Tessa de Vries", Some("Vries".into())), "Vries");
    }
}

impl Ladder {
    /// Decide a command: the events it causes, or the rule it breaks.
    /// The state is never changed here.
    pub fn decide(&self, command: Command) -> Decided {
        // Times a record can hold and read back (RFC 3339 has four-digit
        // years), with room for a deadline months later.
        if let Some(at) = command.at() {
            use chrono::Datelike;
            if !(1970..=9998).contains(&at.year()) {
                return Err(RuleError::new(
                    "Arbiter",
                    format!(
                        "{} is outside the years 1970 to 9998 that Arbiter records",
                        at.format("%Y-%m-%d")
                    ),
                )
                .field("at"));
            }
        }
        if !self.created && !matches!(command, Command::Create { .. }) {
            return Err(RuleError::new(
                "Arbiter",
                "this competition does not exist yet: create it first",
            ));
        }
        match command {
            Command::Create {
                name,
                rules,
                seed_hash,
            } => {
                if self.created {
                    return Err(RuleError::new("Arbiter", "this competition already exists"));
                }
                require_text(&name, "Arbiter", "the competition's name", "name")?;
                rules.validate()?;
                Ok(vec![Event::Created {
                    name: name.trim().to_string(),
                    rules,
                    seed_hash,
                }])
            }
            Command::ChangeRules {
                rules,
                from_round,
                reason,
            } => {
                rules.validate()?;
                require_text(
                    &reason,
                    "TWS Play Balance",
                    "the reason for the change",
                    "reason",
                )?;
                let next = self.next_round_number();
                let from_round = from_round.unwrap_or(next);
                if from_round < next {
                    return Err(RuleError::new(
                        "TWS Play Balance",
                        format!(
                            "round {from_round} has already been announced; a change \"must be announced prior to the commencement of a round in order to apply to that round\", so the earliest is round {next}"
                        ),
                    )
                    .field("from_round"));
                }
                Ok(vec![Event::RulesChanged {
                    from_round,
                    rules,
                    reason,
                }])
            }
            Command::AddModerator { name } => {
                let name = person_name(&name, CONDUCT, "the moderator's name", "name")?;
                if self
                    .moderators
                    .iter()
                    .any(|m| m.active && m.name.eq_ignore_ascii_case(&name))
                {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!("{name} is already a moderator"),
                    ));
                }
                Ok(vec![Event::ModeratorAdded { name }])
            }
            Command::RemoveModerator { name } => {
                if !self
                    .moderators
                    .iter()
                    .any(|m| m.active && m.name.eq_ignore_ascii_case(name.trim()))
                {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!("{} is not a moderator", name.trim()),
                    )
                    .field("name"));
                }
                Ok(vec![Event::ModeratorRemoved {
                    name: name.trim().to_string(),
                }])
            }
            Command::Apply { name, surname } => {
                let (player, name, surname) = self.new_person(&name, surname)?;
                Ok(vec![Event::PlayerApplied {
                    player,
                    name,
                    surname,
                }])
            }
            Command::Join { name, surname } => {
                let (player, name, surname) = self.new_person(&name, surname)?;
                Ok(vec![
                    Event::PlayerApplied {
                        player,
                        name,
                        surname,
                    },
                    Event::PlayerApproved { player },
                ])
            }
            Command::RegisterGuest { name, surname } => {
                let (player, name, surname) = self.new_person(&name, surname)?;
                Ok(vec![Event::GuestRegistered {
                    player,
                    name,
                    surname,
                }])
            }
            Command::Approve { player } => {
                self.expect_status(player, &[Membership::Applicant], JOINING, "approved")?;
                Ok(vec![Event::PlayerApproved { player }])
            }
            Command::Decline { player, reason } => {
                self.expect_status(player, &[Membership::Applicant], JOINING, "declined")?;
                Ok(vec![Event::PlayerDeclined { player, reason }])
            }
            Command::Reenter { player } => {
                self.expect_status(
                    player,
                    &[Membership::Inactive, Membership::Withdrawn],
                    SKIPPING,
                    "re-entered",
                )?;
                // ARB-R16: only a former member comes back; an applicant who
                // withdrew was never approved.
                if !self.player(player).is_some_and(|p| p.entered) {
                    return Err(RuleError::new(
                        JOINING,
                        format!(
                            "{} was never approved onto the ladder: apply again for a moderator to approve",
                            self.name_of(player)
                        ),
                    )
                    .field("player"));
                }
                Ok(vec![Event::PlayerReentered { player }])
            }
            Command::Withdraw { player, reason } => {
                self.expect_status(
                    player,
                    &[
                        Membership::Member,
                        Membership::Inactive,
                        Membership::Applicant,
                    ],
                    STANDINGS,
                    "withdrawn",
                )?;
                if let Some(g) = self.open_game_of(player) {
                    return Err(RuleError::new(
                        STANDINGS,
                        format!(
                            "{} is playing \"{}\" ({}) in the running round: record its result, a forfeit or cancel it first",
                            self.name_of(player),
                            self.game_name(g),
                            g.id
                        ),
                    ));
                }
                Ok(vec![Event::PlayerWithdrawn { player, reason }])
            }
            Command::VolunteerEliminator { player } => {
                self.expect_status(
                    player,
                    &[Membership::Member, Membership::Guest, Membership::Inactive],
                    PAIRINGS,
                    "an eliminator",
                )?;
                if self.player(player).is_some_and(|p| p.eliminator) {
                    return Err(RuleError::new(
                        PAIRINGS,
                        format!("{} already volunteers as eliminator", self.name_of(player)),
                    ));
                }
                Ok(vec![Event::EliminatorVolunteered { player }])
            }
            Command::StandDownEliminator { player } => {
                self.known(player)?;
                if !self.player(player).is_some_and(|p| p.eliminator) {
                    return Err(RuleError::new(
                        PAIRINGS,
                        format!("{} is not a volunteer eliminator", self.name_of(player)),
                    ));
                }
                Ok(vec![Event::EliminatorStoodDown { player }])
            }
            Command::RequestSkip { player, round } => self.decide_skip(player, round),
            Command::CancelSkip { player, round } => {
                self.known(player)?;
                let round = round.unwrap_or(self.next_round_number());
                if !self
                    .skip_requests
                    .get(&round)
                    .is_some_and(|l| l.contains(&player))
                {
                    return Err(RuleError::new(
                        SKIPPING,
                        format!(
                            "{} has not asked to skip round {round}",
                            self.name_of(player)
                        ),
                    ));
                }
                Ok(vec![Event::SkipCancelled { player, round }])
            }
            Command::AnnounceRound {
                at,
                deadline,
                plan,
                seed,
                next_seed_hash,
            } => self
                .announce(at, deadline, plan, seed, next_seed_hash)
                .map(|a| vec![Event::RoundAnnounced(Box::new(a))]),
            Command::AddRoundGame {
                player,
                opponent,
                reason,
                at,
            } => self.add_round_game(player, opponent, reason, at),
            Command::ScheduleQuickGame { ussr, us, at } => {
                for p in [ussr, us] {
                    self.expect_status(
                        p,
                        &[Membership::Member, Membership::Guest, Membership::Inactive],
                        "TWS Quick Rounds",
                        "in a quick round",
                    )?;
                }
                if ussr == us {
                    return Err(RuleError::new(
                        "TWS Quick Rounds",
                        "a player cannot play against himself",
                    )
                    .field("us"));
                }
                let id = self.next_game_id();
                let moderator = self.pick_moderator(&[ussr, us], id.0 as usize).ok();
                Ok(vec![Event::QuickGameScheduled {
                    at,
                    game: ScheduledGame {
                        id,
                        ussr: Participant {
                            player: ussr,
                            side: Side::Ussr,
                            counts: Counts::QuickRound,
                        },
                        us: Participant {
                            player: us,
                            side: Side::Us,
                            counts: Counts::QuickRound,
                        },
                        moderator,
                        sides: SideReason::Chosen,
                        pairing: PairingReason::QuickRound,
                    },
                }])
            }
            Command::RecordResult {
                game,
                result,
                agreed,
                at,
            } => {
                let g = self.open_game_at(game, at)?;
                let status = match (g.deadline, agreed) {
                    (Some(d), false) if at > d => {
                        return Err(RuleError::new(
                            CONDUCT,
                            format!(
                                "the deadline of \"{}\" passed on {}: the players must agree on an outcome (record it as agreed) or the moderator adjudicates",
                                self.game_name(g),
                                d.format("%Y-%m-%d")
                            ),
                        ));
                    }
                    (Some(d), true) if at <= d => {
                        return Err(RuleError::new(
                            CONDUCT,
                            format!(
                                "an agreed outcome is for games not completed within the time limit; the deadline of \"{}\" is {}: record the result as played",
                                self.game_name(g),
                                d.format("%Y-%m-%d")
                            ),
                        )
                        .field("agreed"));
                    }
                    (None, true) => {
                        return Err(RuleError::new(
                            "TWS Quick Rounds",
                            "quick-round games have no time limit, so there is no agreement after a deadline: record the result as played",
                        )
                        .field("agreed"));
                    }
                    (_, true) => GameStatus::Agreed,
                    (_, false) => GameStatus::Played,
                };
                Self::check_result(&result)?;
                Ok(vec![Event::ResultRecorded {
                    game,
                    result: result.into_result(status, None, at),
                }])
            }
            Command::Forfeit {
                game,
                absent,
                note,
                at,
            } => {
                let g = self.open_game_at(game, at)?;
                let Some(side) = g.side_of(absent) else {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "{} does not play in \"{}\"",
                            self.name_of(absent),
                            self.game_name(g)
                        ),
                    )
                    .field("absent"));
                };
                Ok(vec![Event::ResultRecorded {
                    game,
                    result: GameResult {
                        outcome: Outcome::Win(side.other()),
                        ended_by: EndTag::Forfeit,
                        vp: None,
                        turn: None,
                        note,
                        status: GameStatus::Forfeited,
                        adjudication: None,
                        at,
                    },
                }])
            }
            Command::Adjudicate {
                game,
                outcome,
                vp,
                turn,
                record,
                at,
            } => {
                let g = self.open_game_at(game, at)?;
                match g.deadline {
                    Some(d) if at > d => {}
                    Some(d) => {
                        return Err(RuleError::new(
                            CONDUCT,
                            format!(
                                "\"{}\" is not overdue: adjudication is for games not completed within the time limit ({})",
                                self.game_name(g),
                                d.format("%Y-%m-%d")
                            ),
                        ));
                    }
                    None => {
                        return Err(RuleError::new(
                            CONDUCT,
                            "quick-round games have no time limit and are not adjudicated",
                        ));
                    }
                }
                require_text(
                    &record.final_state,
                    CONDUCT,
                    "the final game state (submitted by the players or deduced from the log)",
                    "final_state",
                )?;
                require_text(
                    &record.decision,
                    CONDUCT,
                    "the moderator's decision",
                    "decision",
                )?;
                Self::check_turn(turn)?;
                // ARB-R12 holds for adjudicated results too, and so does
                // ARB-R59: the decision does not contradict its VP.
                Self::check_vp(vp)?;
                Self::check_agrees(outcome, &EndTag::Adjudication, vp)?;
                Ok(vec![Event::ResultRecorded {
                    game,
                    result: GameResult {
                        outcome,
                        ended_by: EndTag::Adjudication,
                        vp,
                        turn,
                        note: None,
                        status: GameStatus::Adjudicated,
                        adjudication: Some(record),
                        at,
                    },
                }])
            }
            Command::CorrectResult {
                game,
                result,
                reason,
                at,
            } => {
                let g = self.known_game(game)?;
                let Some(old) = &g.result else {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "\"{}\" has no result to correct: record one instead",
                            self.game_name(g)
                        ),
                    ));
                };
                self.game_round_open(g)?;
                if old.status == GameStatus::Adjudicated {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "\"{}\" was adjudicated, and \"Decisions will be final\"",
                            self.game_name(g)
                        ),
                    ));
                }
                require_text(&reason, CONDUCT, "the reason for the correction", "reason")?;
                Self::check_result(&result)?;
                if old.outcome == result.outcome
                    && old.ended_by == result.ended_by
                    && old.vp == result.vp
                    && old.turn == result.turn
                    && old.note == result.note
                {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "\"{}\" already has exactly this result: there is nothing to correct",
                            self.game_name(g)
                        ),
                    ));
                }
                Ok(vec![Event::ResultCorrected {
                    game,
                    result: result.into_result(old.status, old.adjudication.clone(), at),
                    reason,
                }])
            }
            Command::CancelGame { game, reason, at } => {
                let g = self.open_game_at(game, at)?;
                require_text(&reason, CONDUCT, "the reason for cancelling", "reason")?;
                let _ = g;
                Ok(vec![Event::GameCancelled { game, at, reason }])
            }
            Command::ReportResult {
                game,
                result,
                by,
                at,
            } => {
                let g = self.open_game_at(game, at)?;
                self.known(by).map_err(|e| e.field("by"))?;
                if !g.has_player(by) {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "{} does not play in \"{}\": a result is reported by one of the game's players, or recorded by a moderator (ARB-R45)",
                            self.name_of(by),
                            self.game_name(g)
                        ),
                    )
                    .field("by"));
                }
                Self::check_result(&result)?;
                if let Some(report) = &g.report {
                    if report.by != by && same_result(&report.result, &result) {
                        // The other player reports what was reported: he
                        // confirms it (ARB-R45).
                        return self.confirmed(g, report, Confirmer::Player(by), at);
                    }
                    if report.by == by && report.result == result {
                        return Err(RuleError::new(
                            CONDUCT,
                            format!(
                                "{} already reported exactly this result of \"{}\": it awaits the confirmation of {} or a moderator (ARB-R45)",
                                self.name_of(by),
                                self.game_name(g),
                                self.name_of(other_player(g, by))
                            ),
                        ));
                    }
                }
                Ok(vec![Event::ResultReported {
                    game,
                    result,
                    by,
                    at,
                }])
            }
            Command::ConfirmResult { game, by, at } => {
                let g = self.open_game_at(game, at)?;
                let report = self.pending_report(g)?;
                let by = self.check_confirmer(g, report, &by, "confirms")?;
                if let (Confirmer::Moderator(name), Some(d)) = (&by, g.deadline)
                    && report.at > d
                {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "{} reported the result of \"{}\" after its deadline ({}): the players must agree on an outcome, so only {} can confirm it; otherwise {name} adjudicates (ARB-R5, ARB-R45)",
                            self.name_of(report.by),
                            self.game_name(g),
                            d.format("%Y-%m-%d"),
                            self.name_of(other_player(g, report.by))
                        ),
                    )
                    .field("by"));
                }
                self.confirmed(g, report, by, at)
            }
            Command::RejectReport {
                game,
                by,
                reason,
                at,
            } => {
                let g = self.open_game_at(game, at)?;
                let report = self.pending_report(g)?;
                let by = self.check_confirmer(g, report, &by, "rejects")?;
                if at < report.at {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "the report of \"{}\" was made on {}; it cannot be rejected on {}",
                            self.game_name(g),
                            report.at.format("%Y-%m-%d"),
                            at.format("%Y-%m-%d")
                        ),
                    )
                    .field("at"));
                }
                require_text(
                    &reason,
                    CONDUCT,
                    "the reason for rejecting the report",
                    "reason",
                )?;
                Ok(vec![Event::ReportRejected {
                    game,
                    by,
                    reason,
                    at,
                }])
            }
            Command::CloseRound { at } => {
                let Some(round) = self.open_round() else {
                    return Err(RuleError::new(
                        STANDINGS,
                        "no round is running: announce one first",
                    ));
                };
                let (closed, last_result) = self.resort(round, at, None);
                let mut playing = Vec::new();
                let mut overdue = Vec::new();
                for g in closed.carried.iter().filter_map(|g| self.game(*g)) {
                    let line = format!("{} \"{}\"", g.id, self.game_name(g));
                    if at > round.deadline {
                        overdue.push(line);
                    } else {
                        playing.push(line);
                    }
                }
                if !overdue.is_empty() {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "round {} cannot close: {} game(s) passed the deadline of {} unresolved; ask the players to agree on an outcome or adjudicate: {}",
                            round.number,
                            overdue.len(),
                            round.deadline.format("%Y-%m-%d"),
                            overdue.join(", ")
                        ),
                    ));
                }
                if !playing.is_empty() {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "round {} cannot close: {} game(s) still being played before the deadline of {}: {}; to start the next round now, close the round early and they carry over (ARB-R21)",
                            round.number,
                            playing.len(),
                            round.deadline.format("%Y-%m-%d"),
                            playing.join(", ")
                        ),
                    ));
                }
                Self::check_close_time(round, last_result, at)?;
                Ok(vec![Event::RoundClosed(Box::new(closed))])
            }
            Command::CloseRoundEarly { at, reason } => {
                let Some(round) = self.open_round() else {
                    return Err(RuleError::new(
                        STANDINGS,
                        "no round is running: announce one first",
                    ));
                };
                require_text(
                    &reason,
                    PAIRINGS,
                    "the reason for starting the next round before this one is complete",
                    "reason",
                )?;
                let (closed, last_result) = self.resort(round, at, Some(reason));
                Self::check_close_time(round, last_result, at)?;
                if closed.carried.is_empty() {
                    return Err(RuleError::new(
                        PAIRINGS,
                        format!(
                            "every game of round {} is decided: close it normally",
                            round.number
                        ),
                    ));
                }
                if !closed.moves.iter().any(|m| {
                    matches!(
                        m.reason,
                        super::MoveReason::Won { .. } | super::MoveReason::Lost { .. }
                    )
                }) {
                    return Err(RuleError::new(
                        PAIRINGS,
                        format!(
                            "no game of round {} is decided yet: an early close would re-sort nothing",
                            round.number
                        ),
                    ));
                }
                // A player whose game carries over plays in the next round,
                // so he cannot skip it (ARB-R4).
                let next = round.number + 1;
                if let Some(skippers) = self.skip_requests.get(&next) {
                    let conflicts: Vec<String> = closed
                        .carried
                        .iter()
                        .filter_map(|g| self.game(*g))
                        .flat_map(|g| {
                            g.participants()
                                .into_iter()
                                .filter(|p| skippers.contains(&p.player))
                                .map(move |p| (p.player, g.id))
                        })
                        .map(|(p, g)| format!("{} ({g})", self.name_of(p)))
                        .collect();
                    if !conflicts.is_empty() {
                        return Err(RuleError::new(
                            SKIPPING,
                            format!(
                                "{} asked to skip round {next}, but the game would carry over into it: cancel the skip or decide the game first (ARB-R4, ARB-R21)",
                                conflicts.join(", ")
                            ),
                        ));
                    }
                }
                Ok(vec![Event::RoundClosed(Box::new(closed))])
            }
            Command::CarryOver {
                records,
                source,
                by,
                at,
            } => self.decide_carry_over(records, source, by, at),
            Command::Revert { seq, summary } => Ok(vec![Event::Reverted { seq, summary }]),
            Command::LinkAccount { player, account } => {
                let rec = self.known(player)?;
                if matches!(rec.status, Membership::Declined | Membership::Withdrawn) {
                    return Err(RuleError::new(
                        JOINING,
                        format!(
                            "{} is {}: a link would give the account nothing to do (ARB-R50)",
                            rec.player.name,
                            article(rec.status.name())
                        ),
                    )
                    .field("player"));
                }
                let account = self.links.decide_link(
                    player,
                    &account,
                    JOINING,
                    |p| self.still_in(p),
                    |p| self.name_of(p),
                )?;
                Ok(vec![Event::AccountLinked { player, account }])
            }
            Command::SetTimeZone { zone } => {
                let zone = crate::zone::TimeZone::set(self.zone, &zone)?;
                Ok(vec![Event::TimeZoneSet { zone }])
            }
            Command::UnlinkAccount { player } => {
                self.known(player)?;
                let account = self
                    .links
                    .decide_unlink(player, JOINING, |p| self.name_of(p))?;
                Ok(vec![Event::AccountUnlinked { player, account }])
            }
            Command::Linked { account, command } => {
                let account = self.links.check_account(
                    &account,
                    JOINING,
                    |p| self.still_in(p),
                    |p| self.name_of(p),
                )?;
                if !matches!(
                    *command,
                    Command::Apply { .. } | Command::Join { .. } | Command::RegisterGuest { .. }
                ) {
                    return Err(RuleError::new(
                        "Arbiter",
                        "only an application, a new player or a guest is linked to an account as it is made",
                    ));
                }
                let mut events = self.decide(*command)?;
                let player = events.iter().find_map(|e| match e {
                    Event::PlayerApplied { player, .. } | Event::GuestRegistered { player, .. } => {
                        Some(*player)
                    }
                    _ => None,
                });
                if let Some(player) = player {
                    events.push(Event::AccountLinked { player, account });
                }
                Ok(events)
            }
        }
    }

    /// ARB-R19: a round closes after it was announced and after the results
    /// it sorts by.
    fn check_close_time(
        round: &super::Round,
        last_result: Option<Time>,
        at: Time,
    ) -> Result<(), RuleError> {
        let earliest = last_result.map_or(round.announced_at, |r| r.max(round.announced_at));
        if at < earliest {
            return Err(RuleError::new(
                STANDINGS,
                format!(
                    "round {} cannot close on {}: it was announced on {} and its last result was recorded on {} (ARB-R19)",
                    round.number,
                    at.format("%Y-%m-%d"),
                    round.announced_at.format("%Y-%m-%d"),
                    earliest.format("%Y-%m-%d")
                ),
            )
            .field("at"));
        }
        Ok(())
    }

    /// ARB-R72, ARB-R73: a ladder carried over from earlier records, into
    /// a competition with nobody registered and no round announced.
    fn decide_carry_over(
        &self,
        mut records: super::CarriedLadder,
        source: String,
        by: String,
        at: Time,
    ) -> Decided {
        const CARRY: &str = "Arbiter";
        if self.carried_over.is_some() {
            return Err(RuleError::new(
                "ARB-R72",
                "this ladder was already carried over from earlier records; undo that first to carry it over again",
            ));
        }
        if !self.players.is_empty() || !self.rounds.is_empty() {
            return Err(RuleError::new(
                "ARB-R72",
                format!(
                    "a ladder is carried over before anyone is registered and any round announced; this one has {} players and {} rounds (carry it over into a new competition)",
                    self.players.len(),
                    self.rounds.len()
                ),
            ));
        }
        require_text(&source, CARRY, "the source of the records", "source")?;
        let by = person_name(&by, CONDUCT, "the moderator's name", "by")?;
        let n = records.members.len();
        for (i, m) in records
            .members
            .iter_mut()
            .chain(records.inactive.iter_mut())
            .enumerate()
        {
            let place = |field: &str| {
                if i < n {
                    format!("members[{i}].{field}")
                } else {
                    format!("inactive[{}].{field}", i - n)
                }
            };
            let name = person_name(&m.name, JOINING, "the player's name", "name")
                .map_err(|e| e.field(place("name")))?;
            let surname =
                surname_or_last_word(&name, m.surname.take().map(|s| super::single_spaced(&s)));
            if surname.chars().any(invisible) {
                return Err(RuleError::new(
                    JOINING,
                    "the surname has control or invisible formatting characters",
                )
                .field(place("surname")));
            }
            m.name = name;
            m.surname = Some(surname);
        }
        records
            .check(self.current_rules())
            .map_err(|e| e.into_rule_error(n))?;
        Ok(vec![Event::CarriedOver(Box::new(super::CarryOver {
            records,
            source: source.trim().to_string(),
            by,
            at,
        }))])
    }

    fn new_person(
        &self,
        name: &str,
        surname: Option<String>,
    ) -> Result<(PlayerId, String, String), RuleError> {
        // One space between words, so "Ben  Carter" is "Ben Carter".
        let name = person_name(name, JOINING, "the player's name", "name")?;
        let surname = surname_or_last_word(&name, surname.map(|s| super::single_spaced(&s)));
        if surname.chars().any(invisible) {
            return Err(RuleError::new(
                JOINING,
                "the surname has control or invisible formatting characters",
            )
            .field("surname"));
        }
        if let Some(existing) = self.find(&name) {
            // ARB-R16: an applicant who withdrew or was declined applies again
            // under his own id.
            let rec = self.player(existing);
            if rec.is_some_and(|p| {
                !p.entered && matches!(p.status, Membership::Withdrawn | Membership::Declined)
            }) {
                return Ok((existing, name, surname));
            }
            // ARB-R62: one name normalization; when the stored spelling
            // differs, the answer names the player it matched.
            let status = rec.map_or("unknown", |p| p.status.name());
            let text = match rec.map(|p| p.player.name.as_str()) {
                Some(stored) if stored != name => format!(
                    "{name} is already registered: it is the same name as {stored} ({existing}, {status})"
                ),
                _ => format!("{name} is already registered ({existing}, {status})"),
            };
            return Err(RuleError::new(JOINING, text).field("name"));
        }
        let id = PlayerId(self.players.len() as u32 + 1);
        Ok((id, name, surname))
    }

    pub(crate) fn known(&self, player: PlayerId) -> Result<&super::PlayerRecord, RuleError> {
        self.player(player).ok_or_else(|| {
            RuleError::new("Arbiter", format!("there is no player {player}")).field("player")
        })
    }

    /// Whether `player` is still in the competition for a link (ARB-R50):
    /// an applicant, a member, an inactive member or a guest.
    fn still_in(&self, player: PlayerId) -> bool {
        self.player(player)
            .is_some_and(|r| !matches!(r.status, Membership::Declined | Membership::Withdrawn))
    }

    fn expect_status(
        &self,
        player: PlayerId,
        allowed: &[Membership],
        clause: &str,
        what: &str,
    ) -> Result<(), RuleError> {
        let rec = self.known(player)?;
        if allowed.contains(&rec.status) {
            Ok(())
        } else {
            Err(RuleError::new(
                clause,
                format!(
                    "{} is {} and cannot be {what}",
                    rec.player.name,
                    article(rec.status.name())
                ),
            )
            .field("player"))
        }
    }

    fn known_game(&self, game: GameId) -> Result<&Game, RuleError> {
        self.game(game).ok_or_else(|| {
            RuleError::new(CONDUCT, format!("there is no game {game}")).field("game")
        })
    }

    fn game_round_open(&self, g: &Game) -> Result<(), RuleError> {
        // A game carried over from a round closed early counts in the next
        // round, and is open while that one is (ARB-R21).
        if self.carried.contains(&g.id) {
            return Ok(());
        }
        if let Some(n) = g.counts_in
            && self
                .rounds
                .iter()
                .any(|r| r.number == n && r.closed.is_some())
        {
            return Err(RuleError::new(
                STANDINGS,
                format!(
                    "round {n} is closed and its re-sort stands: \"{}\" can no longer change",
                    self.game_name(g)
                ),
            ));
        }
        Ok(())
    }

    /// A game that can take a result: known, not cancelled, without result,
    /// in a running round.
    /// [`Self::open_game`], refusing a result dated before the game existed.
    fn open_game_at(&self, game: GameId, at: Time) -> Result<&Game, RuleError> {
        let g = self.open_game(game)?;
        if at < g.scheduled_at {
            return Err(RuleError::new(
                CONDUCT,
                format!(
                    "\"{}\" was scheduled on {}; nothing can happen to it on {}",
                    self.game_name(g),
                    g.scheduled_at.format("%Y-%m-%d"),
                    at.format("%Y-%m-%d")
                ),
            )
            .field("at"));
        }
        Ok(g)
    }

    fn open_game(&self, game: GameId) -> Result<&Game, RuleError> {
        let g = self.known_game(game)?;
        self.game_round_open(g)?;
        match g.status {
            GameStatus::Scheduled => Ok(g),
            GameStatus::Cancelled => Err(RuleError::new(
                CONDUCT,
                format!(
                    "\"{}\" was cancelled and takes no result",
                    self.game_name(g)
                ),
            )),
            _ => Err(RuleError::new(
                CONDUCT,
                format!(
                    "\"{}\" already has a result ({}); a change is a correction, with its reason",
                    self.game_name(g),
                    g.result
                        .as_ref()
                        .map_or("recorded", |r| r.outcome.describe())
                ),
            )),
        }
    }

    /// The report of `g` awaiting confirmation (ARB-R45).
    fn pending_report<'a>(&self, g: &'a Game) -> Result<&'a Report, RuleError> {
        g.report.as_ref().ok_or_else(|| {
            RuleError::new(
                CONDUCT,
                format!(
                    "no result of \"{}\" is reported: a player reports it first, or a moderator records it (ARB-R45)",
                    self.game_name(g)
                ),
            )
        })
    }

    /// ARB-R45: a report is confirmed or rejected by the game's other
    /// player, or by an active moderator who does not play in the game
    /// ("No participant in a game may moderate his own game"; a moderator is
    /// the player of his name, ARB-R2). Nobody confirms his own report.
    /// A moderator is recorded under his name as the ladder has it.
    fn check_confirmer(
        &self,
        g: &Game,
        report: &Report,
        by: &Confirmer,
        verb: &str,
    ) -> Result<Confirmer, RuleError> {
        match by {
            Confirmer::Player(p) => {
                self.known(*p).map_err(|e| e.field("by"))?;
                if *p == report.by {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "nobody confirms his own game's report: {} reported the result of \"{}\", so {} or a moderator who does not play in it {verb} it (ARB-R45)",
                            self.name_of(*p),
                            self.game_name(g),
                            self.name_of(other_player(g, *p))
                        ),
                    )
                    .field("by"));
                }
                if !g.has_player(*p) {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "{} does not play in \"{}\": {} or a moderator who does not play in it {verb} the report (ARB-R45)",
                            self.name_of(*p),
                            self.game_name(g),
                            self.name_of(other_player(g, report.by))
                        ),
                    )
                    .field("by"));
                }
            }
            Confirmer::Moderator(name) => {
                let key = super::name_key(name);
                let Some(m) = self
                    .moderators
                    .iter()
                    .find(|m| m.active && super::name_key(&m.name) == key)
                else {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "{} is not a moderator of this ladder",
                            super::single_spaced(name)
                        ),
                    )
                    .field("by"));
                };
                if self.find(&m.name).is_some_and(|p| g.has_player(p)) {
                    return Err(RuleError::new(
                        CONDUCT,
                        format!(
                            "\"No participant in a game may moderate his own game\": {} plays in \"{}\" and cannot confirm or reject its report (ARB-R2, ARB-R45)",
                            m.name,
                            self.game_name(g)
                        ),
                    )
                    .field("by"));
                }
                return Ok(Confirmer::Moderator(m.name.clone()));
            }
        }
        Ok(by.clone())
    }

    /// A confirmed report: `ResultConfirmed`, then exactly what
    /// `RecordResult` decides for the reported result at the time it was
    /// reported. A report made after the deadline and confirmed by the other
    /// player is an agreed outcome (ARB-R5, ARB-R45).
    fn confirmed(&self, g: &Game, report: &Report, by: Confirmer, at: Time) -> Decided {
        if at < report.at {
            return Err(RuleError::new(
                CONDUCT,
                format!(
                    "the result of \"{}\" was reported on {}; it cannot be confirmed on {}",
                    self.game_name(g),
                    report.at.format("%Y-%m-%d"),
                    at.format("%Y-%m-%d")
                ),
            )
            .field("at"));
        }
        let agreed = g.deadline.is_some_and(|d| report.at > d);
        let recorded = self.decide(Command::RecordResult {
            game: g.id,
            result: report.result.clone(),
            agreed,
            at: report.at,
        })?;
        let mut events = Vec::with_capacity(recorded.len() + 1);
        events.push(Event::ResultConfirmed { game: g.id, by, at });
        events.extend(recorded);
        Ok(events)
    }

    fn check_turn(turn: Option<u8>) -> Result<(), RuleError> {
        match turn {
            Some(t) if !(1..=10).contains(&t) => Err(RuleError::new(
                "Twilight Struggle",
                format!("a game has turns 1 to 10, not {t}"),
            )
            .field("turn")),
            _ => Ok(()),
        }
    }

    /// ARB-R12: the VP marker runs from -20 (USSR) to +20 (US).
    fn check_vp(vp: Option<i32>) -> Result<(), RuleError> {
        match vp {
            Some(vp) if !(-20..=20).contains(&vp) => Err(RuleError::new(
                "Twilight Struggle",
                format!("the VP track runs from -20 (USSR) to +20 (US), not {vp}"),
            )
            .field("vp")),
            _ => Ok(()),
        }
    }

    /// ARB-R59: a result does not contradict itself. The VP marker is
    /// positive toward the US and negative toward the USSR (ARB-R12); at
    /// +20 the US has won and at -20 the USSR has, whatever else ended the
    /// game; after final scoring or Wargames (which ends the game on the
    /// VP after its 6 VP) the side ahead on VP has won, and a tie leaves
    /// the marker at 0. Refused naming both fields, `winner` and `vp`.
    fn check_agrees(outcome: Outcome, ended_by: &EndTag, vp: Option<i32>) -> Result<(), RuleError> {
        let Some(vp) = vp else {
            return Ok(());
        };
        let toward = match vp.signum() {
            1 => "toward the US",
            -1 => "toward the USSR",
            _ => "level",
        };
        let contradiction = match (outcome, vp) {
            (Outcome::Win(Side::Ussr), 20) => Some("at +20 the US has won on VP"),
            (Outcome::Win(Side::Us), -20) => Some("at -20 the USSR has won on VP"),
            (Outcome::Tie, 20 | -20) => Some("at 20 VP a side has won"),
            _ => match ended_by {
                EndTag::FinalScoring | EndTag::Wargames => match outcome {
                    Outcome::Win(Side::Us) if vp <= 0 => {
                        Some("a US win on the VP track needs the marker toward the US (above 0)")
                    }
                    Outcome::Win(Side::Ussr) if vp >= 0 => Some(
                        "a USSR win on the VP track needs the marker toward the USSR (below 0)",
                    ),
                    Outcome::Tie if vp != 0 => Some("a tie on the VP track leaves the marker at 0"),
                    _ => None,
                },
                EndTag::Vp => match outcome {
                    Outcome::Win(Side::Us) if vp != 20 => {
                        Some("a US win by 20 VP leaves the marker at +20")
                    }
                    Outcome::Win(Side::Ussr) if vp != -20 => {
                        Some("a USSR win by 20 VP leaves the marker at -20")
                    }
                    _ => None,
                },
                _ => None,
            },
        };
        match contradiction {
            None => Ok(()),
            Some(why) => Err(RuleError::new(
                "Twilight Struggle",
                format!(
                    "the winner and the vp contradict each other: a {} by {} with the VP marker at {vp:+} ({toward}); {why}. Check the winner (winner, --winner/--tie) and the vp (vp, --vp: positive toward the US, negative toward the USSR) (ARB-R59)",
                    outcome.describe(),
                    ended_by.describe()
                ),
            )
            .field("winner, vp")),
        }
    }

    fn check_result(r: &ResultInput) -> Result<(), RuleError> {
        Self::check_turn(r.turn)?;
        Self::check_vp(r.vp)?;
        if r.ended_by.tag().chars().count() > 40 {
            return Err(RuleError::new(
                "TWS Statistics",
                "how the game ended is a short tag (at most 40 characters); put the story in the note",
            )
            .field("ended_by"));
        }
        if r.note
            .as_ref()
            .is_some_and(|n| n.chars().count() > MAX_TEXT)
        {
            return Err(RuleError::new(
                CONDUCT,
                format!("a note must be at most {MAX_TEXT} characters"),
            )
            .field("note"));
        }
        if r.ended_by.tag().trim().is_empty() {
            return Err(RuleError::new(
                "TWS Statistics",
                "say how the game ended (vp, defcon, europe, final-scoring, wargames, concession, or a word of your own)",
            )
            .field("ended_by"));
        }
        // ARB-R58: "other" is the ending for anything the vocabulary does
        // not name, and its note says what it was.
        if matches!(&r.ended_by, EndTag::Other(w) if w.trim().is_empty())
            && r.note.as_deref().is_none_or(|n| n.trim().is_empty())
        {
            return Err(RuleError::new(
                "TWS Statistics",
                "the ending `other` needs a note saying how the game ended (--note, note) (ARB-R58)",
            )
            .field("note"));
        }
        if r.ended_by == EndTag::Adjudication {
            return Err(RuleError::new(
                CONDUCT,
                "an adjudication is recorded with its record (final state, statements, decision)",
            )
            .field("ended_by"));
        }
        // ARB-R12 with ARB-R59: the VP marker agrees with the outcome.
        Self::check_agrees(r.outcome, &r.ended_by, r.vp)?;
        if r.outcome == Outcome::Tie
            && r.ended_by != EndTag::FinalScoring
            && !matches!(r.ended_by, EndTag::Other(_))
        {
            return Err(RuleError::new(
                "Twilight Struggle",
                format!(
                    "a tie can only come from final scoring, not from `{}`",
                    r.ended_by.tag()
                ),
            )
            .field("ended_by"));
        }
        Ok(())
    }

    fn next_game_id(&self) -> GameId {
        GameId(self.games.len() as u32 + 1)
    }

    /// The games among `games` that `player` plays in.
    fn games_with<'a>(
        &'a self,
        games: &'a [GameId],
        player: PlayerId,
    ) -> impl Iterator<Item = &'a Game> + 'a {
        games
            .iter()
            .filter_map(|g| self.game(*g))
            .filter(move |g| g.has_player(player))
    }

    /// The game of `player` in the open round that is still unresolved.
    fn open_game_of(&self, player: PlayerId) -> Option<&Game> {
        self.games_with(&self.open_round()?.games, player)
            .find(|g| !g.status.is_resolved())
    }

    /// A moderator who is not one of `players` ("No participant in a game
    /// may moderate his own game"), rotating by `turn`.
    fn pick_moderator(&self, players: &[PlayerId], turn: usize) -> Result<u32, RuleError> {
        self.moderator_pool()?.pick(self, players, turn)
    }

    /// The active moderators, each with the player he is (if he plays),
    /// built once per announcement (ARB-R2).
    fn moderator_pool(&self) -> Result<ModeratorPool, RuleError> {
        let slots: Vec<(u32, Option<PlayerId>)> = self
            .moderators
            .iter()
            .enumerate()
            .filter(|(_, m)| m.active)
            .map(|(i, m)| (i as u32, self.find(&m.name)))
            .collect();
        if slots.is_empty() {
            return Err(RuleError::new(
                CONDUCT,
                "\"All normal Ladder games will be moderated\": add a moderator first",
            ));
        }
        let load = vec![0; slots.len()];
        Ok(ModeratorPool { slots, load })
    }

    fn decide_skip(&self, player: PlayerId, round: Option<u32>) -> Decided {
        let rec = self.known(player)?;
        if rec.status != Membership::Member {
            return Err(RuleError::new(
                SKIPPING,
                format!(
                    "\"A member of the Ladder may skip\": {} is {}",
                    rec.player.name,
                    article(rec.status.name())
                ),
            )
            .field("player"));
        }
        let next = self.next_round_number();
        let round = round.unwrap_or(next);
        if round == 0 {
            return Err(RuleError::new(SKIPPING, "rounds are numbered from 1").field("round"));
        }
        if let Some(open) = self.open_round()
            && round <= open.number
            && let Some(g) = self.games_with(&open.games, player).next()
        {
            return Err(RuleError::new(
                SKIPPING,
                format!(
                    "{} is already paired in round {} (\"{}\", {}); a skip is asked before the round is announced",
                    rec.player.name,
                    open.number,
                    self.game_name(g),
                    g.id
                ),
            )
            .field("round"));
        }
        if round == next
            && let Some(g) = self
                .games_with(&self.carried, player)
                .find(|g| !g.status.is_resolved())
        {
            return Err(RuleError::new(
                SKIPPING,
                format!(
                    "{} plays \"{}\" ({}), carried over into round {round}: decide it (or cancel it) before skipping (ARB-R21)",
                    rec.player.name,
                    self.game_name(g),
                    g.id
                ),
            )
            .field("round"));
        }
        if round < next {
            return Err(RuleError::new(
                SKIPPING,
                format!("round {round} has already been announced; the next round is {next}"),
            )
            .field("round"));
        }
        if self
            .skip_requests
            .get(&round)
            .is_some_and(|l| l.contains(&player))
        {
            return Err(RuleError::new(
                SKIPPING,
                format!("{} already skips round {round}", rec.player.name),
            ));
        }
        Ok(vec![Event::SkipRequested { player, round }])
    }

    fn announce(
        &self,
        at: Time,
        deadline: Option<Time>,
        plan: PairingPlan,
        seed: draw::Seed,
        next_seed_hash: [u8; 32],
    ) -> Result<RoundAnnounced, RuleError> {
        if let Some(open) = self.open_round() {
            return Err(RuleError::new(
                CONDUCT,
                format!(
                    "round {} is still open: \"The next round will start as soon as the current round is completed\"; close it first",
                    open.number
                ),
            ));
        }
        if let Some(last) = self.last_round() {
            let previous = last.closed.as_ref().map_or(last.announced_at, |c| c.at);
            if at < previous {
                return Err(RuleError::new(
                    CONDUCT,
                    format!(
                        "round {} was announced or closed on {}: the next round cannot be announced on {} (ARB-R19)",
                        last.number,
                        previous.format("%Y-%m-%d"),
                        at.format("%Y-%m-%d")
                    ),
                )
                .field("at"));
            }
        }
        if !draw::verify(&seed, &self.seed_hash) {
            return Err(RuleError::new(
                "TWS-R7",
                "the draw seed does not match the published commitment; draws must use the committed seed",
            )
            .field("seed"));
        }
        let number = self.next_round_number();
        let rules = self.rules_for(number);
        let limit = super::rules::deadline_limit(at, rules.deadline_months);
        let deadline = match deadline {
            None => limit,
            Some(d) if d > limit => {
                return Err(RuleError::new(
                    CONDUCT,
                    format!(
                        "\"a strict time limit of not more than {} months from the date the Round is announced\": {} is after {}",
                        rules.deadline_months,
                        d.format("%Y-%m-%d"),
                        limit.format("%Y-%m-%d")
                    ),
                )
                .field("deadline"));
            }
            Some(d) if d <= at => {
                return Err(
                    RuleError::new(CONDUCT, "the deadline must be after the announcement")
                        .field("deadline"),
                );
            }
            Some(d) => d,
        };

        // Skippers of this round (TWS Skipping Rounds), with their rungs.
        let requested = self.skip_requests.get(&number);
        let n_players = self.players.len();
        let mut skipping = vec![false; n_players];
        if let Some(list) = requested {
            for p in list {
                if let Some(slot) = skipping.get_mut(p.index()) {
                    *slot = true;
                }
            }
        }
        // ARB-R21: players of a carried-over game play it in this round.
        let mut carried_player = vec![false; n_players];
        // A carried game called off before this announcement no longer
        // holds its players: they are paired like everyone else.
        for g in self
            .carried
            .iter()
            .filter_map(|g| self.game(*g))
            .filter(|g| g.status != GameStatus::Cancelled)
        {
            for part in g.participants() {
                if let Some(slot) = carried_player.get_mut(part.player.index()) {
                    *slot = true;
                }
            }
        }
        let mut skips = Vec::new();
        let mut active: Vec<(PlayerId, u32)> = Vec::with_capacity(self.order.len());
        for (i, &p) in self.order.iter().enumerate() {
            let rung = i as u32 + 1;
            if carried_player.get(p.index()).copied().unwrap_or(false) {
                continue;
            }
            if skipping.get(p.index()).copied().unwrap_or(false) {
                let consecutive = self.player(p).map_or(0, |r| r.skip_streak) + 1;
                skips.push(Skip {
                    player: p,
                    rung,
                    consecutive,
                    // TWS-R2: the second and later consecutive skips are losses.
                    as_loss: consecutive >= rules.consecutive_skips_for_loss,
                });
            } else {
                active.push((p, rung));
            }
        }
        let champion = self.order.first().copied();
        let mut games = Vec::with_capacity(active.len() / 2 + 1);
        let mut byes = Vec::new();
        let mut next_id = self.games.len() as u32 + 1;
        let (method, pairs) = match plan {
            PairingPlan::Default { eliminator } => {
                let mut pairs: Vec<Pair> = active.chunks_exact(2).map(|c| (c[0], c[1])).collect();
                if active.len() % 2 == 1 {
                    let last = active[active.len() - 1];
                    let chosen = match eliminator {
                        Some(e) => Some(self.check_eliminator(e, &active)?),
                        None => self.first_free_eliminator(&active, &carried_player),
                    };
                    match chosen {
                        Some(e) => pairs.push((last, (e, 0))),
                        None => byes.push(last),
                    }
                }
                (PairingMethod::Adjacent, pairs)
            }
            PairingPlan::Override {
                pairs,
                byes: bye_list,
                reason,
            } => {
                require_text(
                    &reason,
                    PAIRINGS,
                    "the reason for the pairing exception",
                    "reason",
                )?;
                let resolved = self.check_override(&active, &skipping, &pairs, &bye_list)?;
                for b in &bye_list {
                    let rung = active.iter().find(|(p, _)| p == b).map_or(0, |(_, r)| *r);
                    byes.push((*b, rung));
                }
                (PairingMethod::Override { reason }, resolved)
            }
        };
        let mut pool = self.moderator_pool()?;
        for (i, (a, b)) in pairs.into_iter().enumerate() {
            let id = GameId(next_id);
            next_id += 1;
            let (bp, brung) = b;
            let pairing = match &method {
                PairingMethod::Override { reason } => PairingReason::Override {
                    reason: reason.clone(),
                },
                PairingMethod::Adjacent if brung == 0 => PairingReason::Eliminator { rung: a.1 },
                PairingMethod::Adjacent => PairingReason::Adjacent {
                    rungs: (a.1, brung),
                },
            };
            let moderator = pool.pick(self, &[a.0, bp], i)?;
            pool.assigned(moderator);
            let seat_a = Seat {
                player: a.0,
                rung: a.1,
                history: self.side_history(a.0, rules.sides_count_quick_rounds),
            };
            let (ussr, us, sides) = if brung == 0 {
                // bp is an eliminator: the game counts as a quick round for him.
                // ARB-R8: keyed by the ladder player alone, so neither the
                // pair's place in the round nor the volunteer named changes
                // the draw (issue 14, item 8).
                let key = DrawKey::Player(a.0.0);
                let (side, why) = sides::assign_vs_eliminator(seat_a, &seed, key);
                let pa = Participant {
                    player: a.0,
                    side,
                    counts: Counts::Ladder,
                };
                let pb = Participant {
                    player: bp,
                    side: side.other(),
                    counts: Counts::QuickRound,
                };
                order_sides(pa, pb, why)
            } else {
                let seat_b = Seat {
                    player: bp,
                    rung: brung,
                    history: self.side_history(bp, rules.sides_count_quick_rounds),
                };
                // TWS-R9: the higher rung is nearer rung 1.
                let (hi, lo) = if seat_a.rung <= seat_b.rung {
                    (seat_a, seat_b)
                } else {
                    (seat_b, seat_a)
                };
                // ARB-R8: keyed by the pair, which reordering the pairs of
                // an exception (or its two names) does not change; its
                // position in the round would (issue 14, item 8).
                let key = DrawKey::pair(hi.player.0, lo.player.0);
                let (side_hi, why) = sides::assign(hi, lo, champion, &seed, key);
                let pa = Participant {
                    player: hi.player,
                    side: side_hi,
                    counts: Counts::Ladder,
                };
                let pb = Participant {
                    player: lo.player,
                    side: side_hi.other(),
                    counts: Counts::Ladder,
                };
                order_sides(pa, pb, why)
            };
            games.push(ScheduledGame {
                id,
                ussr,
                us,
                moderator: Some(moderator),
                sides,
                pairing,
            });
        }
        if games.is_empty() && self.carried.is_empty() {
            return Err(RuleError::new(
                PAIRINGS,
                format!(
                    "round {number} would have no game: {} active player(s) and no eliminator",
                    active.len()
                ),
            ));
        }
        Ok(RoundAnnounced {
            round: number,
            at,
            deadline,
            bid: rules.bid,
            pairing: method,
            games,
            skips,
            byes,
            seed,
            next_seed_hash,
        })
    }

    /// A volunteer eliminator who is free in this round: a guest, an
    /// inactive player, a member who skips, or (last resort) none. Not a
    /// player paired in the round, nor one whose game carried over into it
    /// (`carried`, by player index): he plays in the round (ARB-R15,
    /// ARB-R21).
    fn first_free_eliminator(
        &self,
        active: &[(PlayerId, u32)],
        carried: &[bool],
    ) -> Option<PlayerId> {
        let mut playing = carried.to_vec();
        playing.resize(self.players.len(), false);
        for (p, _) in active {
            if let Some(slot) = playing.get_mut(p.index()) {
                *slot = true;
            }
        }
        self.players
            .iter()
            .filter(|r| r.eliminator && !playing.get(r.player.id.index()).copied().unwrap_or(false))
            .map(|r| r.player.id)
            .next()
    }

    fn check_eliminator(
        &self,
        e: PlayerId,
        active: &[(PlayerId, u32)],
    ) -> Result<PlayerId, RuleError> {
        let rec = self.known(e)?;
        if !rec.eliminator {
            return Err(RuleError::new(
                PAIRINGS,
                format!(
                    "{} has not volunteered as eliminator (\"a volunteer eliminator\")",
                    rec.player.name
                ),
            )
            .field("eliminator"));
        }
        if active.last().is_some_and(|(p, _)| *p == e) {
            return Err(RuleError::new(
                PAIRINGS,
                format!(
                    "{} cannot be the eliminator in a game against {}",
                    rec.player.name, rec.player.name
                ),
            )
            .field("eliminator"));
        }
        Ok(e)
    }

    fn check_override(
        &self,
        active: &[(PlayerId, u32)],
        skipping: &[bool],
        pairs: &[(PlayerId, PlayerId)],
        byes: &[PlayerId],
    ) -> Result<Vec<Pair>, RuleError> {
        let mut rung_of = std::collections::HashMap::with_capacity(active.len());
        for (p, r) in active {
            rung_of.insert(*p, *r);
        }
        let mut seen: std::collections::HashMap<PlayerId, usize> = std::collections::HashMap::new();
        let mut out = Vec::with_capacity(pairs.len());
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let field = format!("pairs[{}]", i + 1);
            // Checked first: otherwise the player is reported "paired twice".
            if a == b {
                self.known(a).map_err(|e| e.field(field.clone()))?;
                return Err(RuleError::new(PAIRINGS, "a player cannot play himself").field(field));
            }
            for p in [a, b] {
                self.known(p).map_err(|e| e.field(field.clone()))?;
                if let Some(prev) = seen.insert(p, i) {
                    return Err(RuleError::new(
                        PAIRINGS,
                        format!(
                            "{} is paired twice (pairs {} and {})",
                            self.name_of(p),
                            prev + 1,
                            i + 1
                        ),
                    )
                    .field(field));
                }
                // A skipper plays no ladder game, but a skipper who volunteers
                // may serve as an eliminator, as in the default pairing
                // (ARB-R15); the match below checks he meets an active player.
                let volunteer = self.player(p).is_some_and(|r| r.eliminator);
                if skipping.get(p.index()).copied().unwrap_or(false) && !volunteer {
                    return Err(RuleError::new(
                        SKIPPING,
                        format!("{} skips this round and cannot be paired", self.name_of(p)),
                    )
                    .field(field));
                }
            }
            match (rung_of.get(&a), rung_of.get(&b)) {
                (Some(&ra), Some(&rb)) => out.push(((a, ra), (b, rb))),
                (Some(&ra), None) => {
                    self.check_volunteer(b, &field)?;
                    out.push(((a, ra), (b, 0)));
                }
                (None, Some(&rb)) => {
                    self.check_volunteer(a, &field)?;
                    out.push(((b, rb), (a, 0)));
                }
                (None, None) => {
                    return Err(RuleError::new(
                        PAIRINGS,
                        format!(
                            "neither {} nor {} is an active ladder member in this round",
                            self.name_of(a),
                            self.name_of(b)
                        ),
                    )
                    .field(field));
                }
            }
        }
        for (i, b) in byes.iter().enumerate() {
            let field = format!("byes[{}]", i + 1);
            if !rung_of.contains_key(b) {
                return Err(RuleError::new(
                    PAIRINGS,
                    format!("{} is not an active member in this round", self.name_of(*b)),
                )
                .field(field));
            }
            if seen.insert(*b, usize::MAX).is_some() {
                return Err(RuleError::new(
                    PAIRINGS,
                    format!("{} is both paired and given a bye", self.name_of(*b)),
                )
                .field(field));
            }
        }
        if byes.len() > 1 {
            return Err(RuleError::new(
                "TWS-R10",
                "at most one player (the odd last) can have a bye",
            )
            .field("byes"));
        }
        let unpaired: Vec<String> = active
            .iter()
            .filter(|(p, _)| !seen.contains_key(p))
            .map(|(p, r)| format!("{} (rung {r})", self.name_of(*p)))
            .collect();
        if !unpaired.is_empty() {
            return Err(RuleError::new(
                PAIRINGS,
                format!(
                    "the pairing leaves {} unpaired; pair every active player, give the odd one an eliminator or a bye, or record a skip",
                    unpaired.join(", ")
                ),
            )
            .field("pairs"));
        }
        Ok(out)
    }

    fn check_volunteer(&self, p: PlayerId, field: &str) -> Result<(), RuleError> {
        let rec = self.known(p)?;
        if rec.eliminator {
            Ok(())
        } else {
            Err(RuleError::new(
                PAIRINGS,
                format!(
                    "{} is not active in this round and has not volunteered as eliminator",
                    rec.player.name
                ),
            )
            .field(field.to_string()))
        }
    }

    fn add_round_game(
        &self,
        player: PlayerId,
        opponent: PlayerId,
        reason: String,
        at: Time,
    ) -> Decided {
        let Some(round) = self.open_round() else {
            return Err(RuleError::new(PAIRINGS, "no round is running"));
        };
        require_text(
            &reason,
            PAIRINGS,
            "the reason for the late pairing",
            "reason",
        )?;
        let unpaired = self.unpaired_members();
        if !unpaired.contains(&player) {
            return Err(RuleError::new(
                "TWS-R5",
                format!(
                    "{} is not an unpaired member of round {}",
                    self.name_of(player),
                    round.number
                ),
            )
            .field("player"));
        }
        if player == opponent {
            return Err(RuleError::new(PAIRINGS, "a player cannot play himself").field("opponent"));
        }
        if at < round.announced_at {
            return Err(RuleError::new(
                PAIRINGS,
                format!(
                    "round {} was announced on {}: a game cannot be added to it on {} (ARB-R19)",
                    round.number,
                    round.announced_at.format("%Y-%m-%d"),
                    at.format("%Y-%m-%d")
                ),
            )
            .field("at"));
        }
        let id = self.next_game_id();
        let rung = self.rung_of(player).unwrap_or(0);
        // The rules of the running round decide which games count (TWS-R6).
        let quick = self.rules_for(round.number).sides_count_quick_rounds;
        let seat = Seat {
            player,
            rung,
            history: self.side_history(player, quick),
        };
        let (pa, pb, sides) = if unpaired.contains(&opponent) {
            let orung = self.rung_of(opponent).unwrap_or(0);
            let other = Seat {
                player: opponent,
                rung: orung,
                history: self.side_history(opponent, quick),
            };
            let (hi, lo) = if rung <= orung {
                (seat, other)
            } else {
                (other, seat)
            };
            // ARB-R8: the pair's draw, as at the announcement (issue 14,
            // item 8).
            let key = DrawKey::pair(hi.player.0, lo.player.0);
            let (side, why) = sides::assign(hi, lo, self.order.first().copied(), &round.seed, key);
            (
                Participant {
                    player: hi.player,
                    side,
                    counts: Counts::Ladder,
                },
                Participant {
                    player: lo.player,
                    side: side.other(),
                    counts: Counts::Ladder,
                },
                why,
            )
        } else {
            // A volunteer eliminator may serve in several games; anyone else
            // who already plays in the round is named as such.
            let volunteer = self.player(opponent).is_some_and(|p| p.eliminator);
            if !volunteer && let Some(g) = self.games_with(&round.games, opponent).next() {
                return Err(RuleError::new(
                    PAIRINGS,
                    format!(
                        "{} already plays \"{}\" ({}) in round {}",
                        self.name_of(opponent),
                        self.game_name(g),
                        g.id,
                        round.number
                    ),
                )
                .field("opponent"));
            }
            self.check_volunteer(opponent, "opponent")?;
            // ARB-R8: the ladder player's own draw, whichever volunteer he
            // meets (issue 14, item 8).
            let key = DrawKey::Player(player.0);
            let (side, why) = sides::assign_vs_eliminator(seat, &round.seed, key);
            (
                Participant {
                    player,
                    side,
                    counts: Counts::Ladder,
                },
                Participant {
                    player: opponent,
                    side: side.other(),
                    counts: Counts::QuickRound,
                },
                why,
            )
        };
        let moderator = self.pick_moderator(&[player, opponent], id.0 as usize)?;
        let (ussr, us, sides) = order_sides(pa, pb, sides);
        Ok(vec![Event::GameAdded {
            round: round.number,
            at,
            game: ScheduledGame {
                id,
                ussr,
                us,
                moderator: Some(moderator),
                sides,
                pairing: PairingReason::Late { reason },
            },
        }])
    }
}

/// Moderators who can be given games: "No participant in a game may
/// moderate his own game" (ARB-R2: a moderator is the player of his name).
#[derive(Debug)]
struct ModeratorPool {
    slots: Vec<(u32, Option<PlayerId>)>,
    /// Games given to each slot so far in this announcement.
    load: Vec<u32>,
}

impl ModeratorPool {
    /// Count a game given to the moderator `index`.
    fn assigned(&mut self, index: u32) {
        if let Some(k) = self.slots.iter().position(|(i, _)| *i == index) {
            self.load[k] += 1;
        }
    }

    /// The moderator with the fewest games so far who does not play in this
    /// one; ties go in turn from `turn`.
    fn pick(&self, ladder: &Ladder, players: &[PlayerId], turn: usize) -> Result<u32, RuleError> {
        let n = self.slots.len();
        let best = (0..n)
            .map(|k| (turn + k) % n)
            .filter(|&i| !self.slots[i].1.is_some_and(|p| players.contains(&p)))
            .min_by_key(|&i| self.load[i]);
        if let Some(i) = best {
            return Ok(self.slots[i].0);
        }
        Err(RuleError::new(
            CONDUCT,
            format!(
                "\"No participant in a game may moderate his own game\": every moderator plays in the game of {}; add another moderator",
                players
                    .iter()
                    .map(|p| ladder.name_of(*p))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        ))
    }
}

/// The other player of `g` than `p`.
fn other_player(g: &Game, p: PlayerId) -> PlayerId {
    if g.ussr.player == p {
        g.us.player
    } else {
        g.ussr.player
    }
}

/// Two reports of the same result: the same outcome, ending, VP and turn
/// (the notes may differ; the first report's is kept, ARB-R45).
fn same_result(a: &ResultInput, b: &ResultInput) -> bool {
    a.outcome == b.outcome && a.ended_by == b.ended_by && a.vp == b.vp && a.turn == b.turn
}

fn order_sides(
    a: Participant,
    b: Participant,
    why: SideReason,
) -> (Participant, Participant, SideReason) {
    if a.side == Side::Ussr {
        (a, b, why)
    } else {
        (b, a, why)
    }
}

fn article(word: &str) -> String {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {word}"),
        _ => format!("a {word}"),
    }
}
