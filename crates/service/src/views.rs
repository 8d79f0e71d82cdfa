//! Serializable views of a ladder: what `--json` prints and what pages show.
//! Each decision carries its explanation.

use arbiter_engine::draw::DrawKey;
use arbiter_engine::explain::Explanation;
use arbiter_engine::model::{Counts, GameStatus, Outcome, PlayerId, Time};
use arbiter_engine::tws::stats::Record;
use arbiter_engine::tws::{Game, Ladder, Membership, Move, PairingMethod, Round};
use serde::Serialize;

pub mod calendar;
pub mod when;

/// The day of `t` in the ladder's time zone (ARB-R82).
fn date(ladder: &Ladder, t: Time) -> String {
    ladder.zone.date(t)
}

fn stamp(t: Time) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ExplanationView {
    pub clause: String,
    pub rulings: Vec<String>,
    pub text: String,
}

impl From<Explanation> for ExplanationView {
    fn from(e: Explanation) -> Self {
        Self {
            clause: e.clause.to_string(),
            rulings: e.rulings.iter().map(|r| (*r).to_string()).collect(),
            text: e.text,
        }
    }
}

impl ExplanationView {
    /// "text [clause; ruling]".
    pub fn line(&self) -> String {
        let mut refs = vec![self.clause.clone()];
        refs.extend(self.rulings.iter().cloned());
        format!("{} [{}]", self.text, refs.join("; "))
    }
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Default)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RecordView {
    pub wins: u32,
    pub losses: u32,
    pub ties: u32,
}

impl From<Record> for RecordView {
    fn from(r: Record) -> Self {
        Self {
            wins: r.wins,
            losses: r.losses,
            ties: r.ties,
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RungView {
    pub rung: u32,
    pub player: u32,
    pub name: String,
    /// What he does in the running round: `playing G12`, `skipping`, `bye`,
    /// `unpaired`, or empty when no round runs.
    pub round_status: String,
    pub ladder: RecordView,
    pub ussr: u32,
    pub us: u32,
    /// His move at the last close, e.g. `+4`, `-2`, `=`, `new`.
    pub last_move: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LadderView {
    pub competition: String,
    pub name: String,
    pub version: u64,
    pub champion: Option<String>,
    pub streak: u32,
    pub current_round: Option<u32>,
    pub rounds_closed: u32,
    pub bid: String,
    pub rungs: Vec<RungView>,
    pub inactive: Vec<String>,
    pub applicants: Vec<String>,
    pub eliminators: Vec<String>,
    pub moderators: Vec<String>,
    /// SHA-256 of the seed of the next round's draws, published before the
    /// round (ARB-R8): the announcement reveals the seed.
    pub next_draw_commitment: String,
}

pub fn ladder_view(ladder: &Ladder, competition: &str, version: u64) -> LadderView {
    let stats = ladder.statistics();
    let open = ladder.open_round();
    let mut status = vec![String::new(); ladder.players.len()];
    if let Some(r) = open {
        for p in ladder.unpaired_members() {
            status[p.index()] = "unpaired".into();
        }
        for g in r.games.iter().filter_map(|g| ladder.game(*g)) {
            for p in g.participants() {
                if p.counts == Counts::Ladder {
                    status[p.player.index()] = if g.status.is_resolved() {
                        format!("{} {}", g.status.name(), g.id)
                    } else {
                        format!("playing {}", g.id)
                    };
                }
            }
        }
        for s in &r.skips {
            status[s.player.index()] = if s.as_loss {
                "skipping (loss)".into()
            } else {
                "skipping".into()
            };
        }
        for (b, _) in &r.byes {
            status[b.index()] = "bye".into();
        }
    }
    let last_close = ladder.rounds.iter().rev().find_map(|r| r.closed.as_ref());
    let mut moved = vec![String::new(); ladder.players.len()];
    if let Some(c) = last_close {
        for m in &c.moves {
            moved[m.player.index()] = move_delta(m);
        }
    }
    let rungs = ladder
        .order
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let ps = &stats.players[p.index()];
            RungView {
                rung: i as u32 + 1,
                player: p.0,
                name: ladder.name_of(p),
                round_status: status[p.index()].clone(),
                ladder: ps.ladder.into(),
                ussr: ps.ladder_ussr,
                us: ps.ladder_us,
                last_move: moved[p.index()].clone(),
            }
        })
        .collect();
    let with = |m: Membership| -> Vec<String> {
        ladder
            .players
            .iter()
            .filter(|p| p.status == m)
            .map(|p| p.player.name.clone())
            .collect()
    };
    LadderView {
        competition: competition.to_string(),
        name: ladder.name.clone(),
        version,
        champion: ladder.order.first().map(|p| ladder.name_of(*p)),
        streak: ladder.streak,
        current_round: open.map(|r| r.number),
        // A ladder carried over closed the rounds before its records' round
        // elsewhere (ARB-R72).
        rounds_closed: ladder.rounds.iter().filter(|r| r.closed.is_some()).count() as u32
            + ladder
                .carried_over
                .as_ref()
                .map_or(0, |c| c.records.next_round.saturating_sub(1)),
        bid: ladder.current_rules().bid.to_string(),
        rungs,
        inactive: ladder.inactive.iter().map(|p| ladder.name_of(*p)).collect(),
        applicants: with(Membership::Applicant),
        eliminators: ladder
            .players
            .iter()
            .filter(|p| p.eliminator)
            .map(|p| p.player.name.clone())
            .collect(),
        moderators: ladder
            .moderators
            .iter()
            .filter(|m| m.active)
            .map(|m| m.name.clone())
            .collect(),
        next_draw_commitment: hex::encode(ladder.seed_hash),
    }
}

fn move_delta(m: &Move) -> String {
    if m.from == 0 {
        "new".into()
    } else if m.to < m.from {
        format!("+{}", m.from - m.to)
    } else if m.to > m.from {
        format!("-{}", m.to - m.from)
    } else {
        "=".into()
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ResultView {
    pub outcome: String,
    pub winner: Option<String>,
    pub ended_by: String,
    pub vp: Option<i32>,
    pub turn: Option<u8>,
    pub note: Option<String>,
    pub recorded: String,
    pub adjudication: Option<AdjudicationView>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct AdjudicationView {
    pub final_state: String,
    pub ussr_statement: Option<String>,
    pub us_statement: Option<String>,
    pub third_party: Option<String>,
    pub decision: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct GameView {
    pub id: String,
    pub name: String,
    pub round: Option<u32>,
    pub ussr: String,
    pub us: String,
    /// What the game counts as for the USSR and US player.
    pub ussr_counts: String,
    pub us_counts: String,
    pub bid: String,
    pub moderator: Option<String>,
    pub status: String,
    pub deadline: Option<String>,
    /// The deadline's instant, for pages that show it in the reader's zone
    /// and count down to it (issue 17 §3); not in the JSON.
    #[serde(skip)]
    pub deadline_at: Option<when::When>,
    pub overdue: bool,
    pub result: Option<ResultView>,
    pub pairing: ExplanationView,
    pub sides: ExplanationView,
    pub moderation: ExplanationView,
    /// The round whose re-sort the game counts in, when it is not its own
    /// (carried over by an early close, ARB-R21).
    pub counts_in: Option<u32>,
    pub corrections: u32,
    pub cancel_reason: Option<String>,
    /// A result reported by one of the players and awaiting confirmation
    /// (ARB-R45); absent when none is pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<ReportView>,
}

/// A reported result awaiting confirmation (ARB-R45): "reported by X,
/// awaiting confirmation".
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ReportView {
    /// The player who reported it.
    pub by: String,
    pub outcome: String,
    pub winner: Option<String>,
    pub ended_by: String,
    pub vp: Option<i32>,
    pub turn: Option<u8>,
    pub note: Option<String>,
    pub reported: String,
    /// The player who may confirm it (a moderator who does not play in the
    /// game may too, unless it was reported after the deadline).
    pub awaiting: String,
    /// Reported after the deadline: confirmed by the other player, it is an
    /// agreed outcome (ARB-R5).
    pub late: bool,
    /// Who reported what and who may confirm it, in words.
    pub explanation: ExplanationView,
}

impl ReportView {
    /// "reported by Ana Morales: Ana Morales won (20 VP), awaiting
    /// confirmation".
    pub fn summary(&self) -> String {
        let who = self
            .winner
            .as_ref()
            .map_or_else(|| "tie".to_string(), |w| format!("{w} won"));
        format!(
            "reported by {}: {who} ({}), awaiting confirmation",
            self.by, self.ended_by
        )
    }
}

fn report_view(ladder: &Ladder, g: &Game) -> Option<ReportView> {
    let r = g.report.as_ref()?;
    let other = if g.ussr.player == r.by {
        g.us.player
    } else {
        g.ussr.player
    };
    Some(ReportView {
        by: ladder.name_of(r.by),
        outcome: r.result.outcome.describe().into(),
        winner: match r.result.outcome {
            Outcome::Win(s) => Some(ladder.name_of(g.participant(s).player)),
            Outcome::Tie => None,
        },
        ended_by: r.result.ended_by.describe().into(),
        vp: r.result.vp,
        turn: r.result.turn,
        note: r.result.note.clone(),
        reported: stamp(r.at),
        awaiting: ladder.name_of(other),
        late: g.deadline.is_some_and(|d| r.at > d),
        explanation: ladder.explain_report(g)?.into(),
    })
}

pub fn game_view(ladder: &Ladder, g: &Game, now: Time) -> GameView {
    GameView {
        id: g.id.to_string(),
        name: ladder.game_name(g),
        round: g.round,
        ussr: ladder.name_of(g.ussr.player),
        us: ladder.name_of(g.us.player),
        ussr_counts: g.ussr.counts.name().into(),
        us_counts: g.us.counts.name().into(),
        bid: g.bid.to_string(),
        moderator: ladder.moderator_name(g.moderator).map(str::to_string),
        status: g.status.name().into(),
        deadline: g.deadline.map(|t| date(ladder, t)),
        deadline_at: g.deadline.map(|t| {
            when::When::deadline_day(t, ladder.zone, now)
                .settled_if(g.status != GameStatus::Scheduled)
        }),
        overdue: g.status == GameStatus::Scheduled && g.deadline.is_some_and(|d| now > d),
        result: g.result.as_ref().map(|r| ResultView {
            outcome: r.outcome.describe().into(),
            winner: match r.outcome {
                Outcome::Win(s) => Some(ladder.name_of(g.participant(s).player)),
                Outcome::Tie => None,
            },
            ended_by: r.ended_by.describe().into(),
            vp: r.vp,
            turn: r.turn,
            note: r.note.clone(),
            recorded: stamp(r.at),
            adjudication: r.adjudication.as_ref().map(|a| AdjudicationView {
                final_state: a.final_state.clone(),
                ussr_statement: a.ussr_statement.clone(),
                us_statement: a.us_statement.clone(),
                third_party: a.third_party.clone(),
                decision: a.decision.clone(),
            }),
        }),
        pairing: ladder.explain_pairing(g).into(),
        sides: ladder.explain_sides(g).into(),
        moderation: ladder.explain_moderator(g).into(),
        counts_in: g.counts_in.filter(|n| Some(*n) != g.round),
        corrections: g.corrections,
        cancel_reason: g.cancel_reason.clone(),
        report: report_view(ladder, g),
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct SkipView {
    pub name: String,
    pub rung: u32,
    pub consecutive: u32,
    pub counts_as_loss: bool,
    /// Where a skipper who keeps his rung number is reinserted (TWS-R3:
    /// rung 1 goes to rung 2, and skippers keep their relative order);
    /// `None` for a skip counted as a loss.
    pub reinserted_at: Option<u32>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundView {
    pub competition: String,
    pub ladder: String,
    pub number: u32,
    pub announced: String,
    pub deadline: String,
    /// The deadline's instant (see [`GameView::deadline_at`]).
    #[serde(skip)]
    pub deadline_at: Option<when::When>,
    pub bid: String,
    pub platform: String,
    pub pairing: String,
    pub closed: bool,
    pub games: Vec<GameView>,
    pub skips: Vec<SkipView>,
    pub byes: Vec<String>,
    pub unpaired: Vec<String>,
    pub unresolved: u32,
    pub overdue: Vec<String>,
    /// The revealed seed of the round's draws (hex); empty in a preview,
    /// whose seed stays secret until the announcement reveals it (issue 14,
    /// item 8).
    pub seed: String,
    pub deadline_rule: ExplanationView,
    pub bid_rule: ExplanationView,
    /// The moderator's reason when the round closed early (ARB-R21).
    pub closed_early: Option<String>,
    /// The rules version that applied to the round: "version 2, from round
    /// 3: shorter deadlines" (TWS Play Balance: a change applies from the
    /// round it was announced before).
    pub rules_version: String,
}

/// Which rules version applies to round `number`, in words.
pub fn rules_version_of(ladder: &Ladder, number: u32) -> String {
    let index = ladder
        .rules
        .iter()
        .rposition(|v| v.from_round <= number)
        .unwrap_or(0);
    match ladder.rules.get(index) {
        Some(v) if v.reason.trim().is_empty() => {
            format!("version {}, from round {}", index + 1, v.from_round)
        }
        Some(v) => format!(
            "version {}, from round {}: {}",
            index + 1,
            v.from_round,
            v.reason
        ),
        None => "the defaults".into(),
    }
}

pub fn round_view(ladder: &Ladder, competition: &str, r: &Round, now: Time) -> RoundView {
    let games: Vec<GameView> = r
        .games
        .iter()
        .filter_map(|g| ladder.game(*g))
        .map(|g| game_view(ladder, g, now))
        .collect();
    let unresolved = games.iter().filter(|g| g.status == "scheduled").count() as u32;
    RoundView {
        competition: competition.to_string(),
        ladder: ladder.name.clone(),
        number: r.number,
        announced: date(ladder, r.announced_at),
        deadline: date(ladder, r.deadline),
        deadline_at: Some(
            when::When::deadline_day(r.deadline, ladder.zone, now).settled_if(r.closed.is_some()),
        ),
        bid: r.bid.to_string(),
        platform: ladder.rules_for(r.number).platform.clone(),
        rules_version: rules_version_of(ladder, r.number),
        pairing: match &r.pairing {
            PairingMethod::Adjacent => "adjacent (TWS-R10)".into(),
            PairingMethod::Override { reason } => format!("moderator's exception: {reason}"),
        },
        closed: r.closed.is_some(),
        overdue: games
            .iter()
            .filter(|g| g.overdue)
            .map(|g| format!("{} {}", g.id, g.name))
            .collect(),
        games,
        skips: skip_views(ladder, r),
        byes: r.byes.iter().map(|(p, _)| ladder.name_of(*p)).collect(),
        unpaired: if r.closed.is_none() {
            ladder
                .unpaired_members()
                .into_iter()
                .map(|p| ladder.name_of(p))
                .collect()
        } else {
            Vec::new()
        },
        unresolved,
        seed: if r.seed == crate::UNREVEALED_SEED {
            String::new()
        } else {
            hex::encode(r.seed)
        },
        deadline_rule: ladder.explain_deadline(r).into(),
        bid_rule: ladder.explain_bid(r).into(),
        closed_early: r.closed.as_ref().and_then(|c| c.early.clone()),
    }
}

impl ResultView {
    /// "Ana Morales won" or "tie".
    pub fn who(&self) -> String {
        self.winner
            .as_ref()
            .map_or_else(|| "tie".to_string(), |w| format!("{w} won"))
    }

    /// "Ana Morales won (20 VP)".
    pub fn summary(&self) -> String {
        format!("{} ({})", self.who(), self.ended_by)
    }
}

impl GameView {
    /// How the game stands in round `number`'s listing when it moved
    /// between rounds (ARB-R21), e.g. "carried over from round 1, deadline
    /// 2026-04-10".
    pub fn carry_note(&self, number: u32) -> Option<String> {
        let counts_in = self.counts_in?;
        let own = self.round?;
        Some(if own == number {
            format!("carried over to round {counts_in}")
        } else {
            format!(
                "carried over from round {own}, deadline {}",
                self.deadline.as_deref().unwrap_or("-")
            )
        })
    }
}

impl SkipView {
    /// What the skip means for the player, with its rule.
    pub fn describe(&self) -> String {
        match self.reinserted_at {
            None => format!(
                "{} skips: consecutive skip {}, counted as a loss (TWS-R2)",
                self.name, self.consecutive
            ),
            Some(at) if at == self.rung => format!(
                "{} skips and keeps rung number {} (TWS-R3)",
                self.name, self.rung
            ),
            Some(at) if self.rung == 1 => format!(
                "{} skips from rung 1: reinserted at rung {at} after the round, and the streak at the top ends (TWS-R3)",
                self.name
            ),
            Some(at) => format!(
                "{} skips from rung {}: reinserted at rung {at}, after the skippers above (TWS-R3)",
                self.name, self.rung
            ),
        }
    }
}

/// The skips of a round with the rung each keeper will be reinserted at, as
/// the re-sort will do it (TWS-R3; byes keep their rung the same way).
fn skip_views(ladder: &Ladder, r: &Round) -> Vec<SkipView> {
    let mut keepers: Vec<u32> = r
        .skips
        .iter()
        .filter(|s| !s.as_loss)
        .map(|s| s.rung)
        .chain(r.byes.iter().map(|(_, rung)| *rung))
        .collect();
    keepers.sort_unstable();
    let mut landing = std::collections::HashMap::new();
    let mut last = 0;
    for rung in keepers {
        let target = if rung == 1 { 2 } else { rung }.max(last + 1);
        last = target;
        landing.insert(rung, target);
    }
    r.skips
        .iter()
        .map(|s| SkipView {
            name: ladder.name_of(s.player),
            rung: s.rung,
            consecutive: s.consecutive,
            counts_as_loss: s.as_loss,
            reinserted_at: if s.as_loss {
                None
            } else {
                landing.get(&s.rung).copied()
            },
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct MoveView {
    /// The round whose close made the move.
    pub round: u32,
    pub name: String,
    pub from: u32,
    /// The rung after the close; 0 when moved to the inactive list.
    pub to: u32,
    pub change: String,
    pub explanation: ExplanationView,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CloseView {
    pub round: u32,
    pub closed: String,
    pub champion: Option<String>,
    pub streak: u32,
    pub moves: Vec<MoveView>,
    pub inactive: Vec<MoveToInactiveView>,
    /// The moderator's reason when the round closed early (ARB-R21).
    pub early: Option<String>,
    /// The games carried over into the next round.
    pub carried: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct MoveToInactiveView {
    pub name: String,
    pub rung: u32,
    pub explanation: ExplanationView,
}

pub fn close_view(ladder: &Ladder, c: &arbiter_engine::tws::RoundClosed) -> CloseView {
    CloseView {
        round: c.round,
        closed: date(ladder, c.at),
        champion: c.champion.map(|p| ladder.name_of(p)),
        streak: c.streak,
        moves: c
            .moves
            .iter()
            .map(|m| MoveView {
                round: c.round,
                name: ladder.name_of(m.player),
                from: m.from,
                to: m.to,
                change: move_delta(m),
                explanation: ladder.explain_move(m).into(),
            })
            .collect(),
        inactive: c
            .inactive
            .iter()
            .map(|r| MoveToInactiveView {
                name: ladder.name_of(r.player),
                rung: r.rung,
                explanation: ladder.explain_retirement(r).into(),
            })
            .collect(),
        early: c.early.clone(),
        carried: c
            .carried
            .iter()
            .filter_map(|g| ladder.game(*g))
            .map(|g| format!("{} \"{}\"", g.id, ladder.game_name(g)))
            .collect(),
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, Default)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct TallyView {
    pub games: u32,
    pub ussr_wins: u32,
    pub us_wins: u32,
    pub ties: u32,
}

impl From<arbiter_engine::tws::stats::SideTally> for TallyView {
    fn from(t: arbiter_engine::tws::stats::SideTally) -> Self {
        Self {
            games: t.games(),
            ussr_wins: t.ussr_wins,
            us_wins: t.us_wins,
            ties: t.ties,
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LabelledTally {
    pub label: String,
    #[serde(flatten)]
    pub tally: TallyView,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PlayerStatsView {
    pub name: String,
    pub status: String,
    pub rung: Option<u32>,
    pub ladder: RecordView,
    pub quick: RecordView,
    pub ladder_ussr: u32,
    pub ladder_us: u32,
    pub all_ussr: u32,
    pub all_us: u32,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct StatsView {
    pub ladder_games: TallyView,
    pub quick_round_games: TallyView,
    pub all_games: TallyView,
    pub by_bid: Vec<LabelledTally>,
    pub by_end: Vec<LabelledTally>,
    /// Game lengths: played-out games whose result gives the turn they
    /// ended in, by that turn (`turn 7`).
    pub by_turn: Vec<LabelledTally>,
    pub players: Vec<PlayerStatsView>,
}

/// Game lengths as labelled tallies, shortest first.
pub fn turn_tallies(
    by_turn: &std::collections::BTreeMap<u8, arbiter_engine::tws::stats::SideTally>,
) -> Vec<LabelledTally> {
    by_turn
        .iter()
        .map(|(turn, t)| LabelledTally {
            label: format!("turn {turn}"),
            tally: (*t).into(),
        })
        .collect()
}

pub fn stats_view(ladder: &Ladder) -> StatsView {
    let s = ladder.statistics();
    let mut rung = vec![None; ladder.players.len()];
    for (i, p) in ladder.order.iter().enumerate() {
        rung[p.index()] = Some(i as u32 + 1);
    }
    let mut view = StatsView {
        ladder_games: s.ladder.into(),
        quick_round_games: s.quick.into(),
        all_games: s.all.into(),
        by_bid: s
            .by_bid
            .iter()
            .map(|((inf, side), t)| LabelledTally {
                label: format!("{inf} influence to the {side}"),
                tally: (*t).into(),
            })
            .collect(),
        by_end: s
            .by_end
            .iter()
            .map(|(tag, t)| LabelledTally {
                label: tag.describe().to_string(),
                tally: (*t).into(),
            })
            .collect(),
        by_turn: turn_tallies(&s.by_turn),
        players: s
            .players
            .iter()
            .zip(&ladder.players)
            .filter(|(p, rec)| {
                rec.status == Membership::Member || p.ladder.games() + p.quick.games() > 0
            })
            .map(|(p, rec)| PlayerStatsView {
                name: rec.player.name.clone(),
                status: rec.status.name().into(),
                rung: rung[rec.player.id.index()],
                ladder: p.ladder.into(),
                quick: p.quick.into(),
                ladder_ussr: p.ladder_ussr,
                ladder_us: p.ladder_us,
                all_ussr: p.all_ussr,
                all_us: p.all_us,
            })
            .collect(),
    };
    // Members by rung, then everyone else (guests, inactive) by name.
    view.players.sort_by(|a, b| match (a.rung, b.rung) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.name.cmp(&b.name),
    });
    view
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct QuickLineView {
    pub place: u32,
    pub name: String,
    pub record: RecordView,
}

pub fn quick_view(ladder: &Ladder) -> Vec<QuickLineView> {
    ladder
        .quick_leaderboard()
        .iter()
        .enumerate()
        .map(|(i, l)| QuickLineView {
            place: i as u32 + 1,
            name: ladder.name_of(l.player),
            record: l.record.into(),
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PlayerView {
    pub id: u32,
    pub name: String,
    pub surname: String,
    pub status: String,
    pub rung: Option<u32>,
    pub eliminator: bool,
    pub skip_streak: u32,
    pub missed_streak: u32,
    pub ladder: RecordView,
    pub quick: RecordView,
    pub ladder_ussr: u32,
    pub ladder_us: u32,
    pub last_ladder_side: Option<String>,
    pub games: Vec<GameView>,
    pub moves: Vec<MoveView>,
}

pub fn player_view(ladder: &Ladder, p: PlayerId, now: Time) -> Option<PlayerView> {
    let rec = ladder.player(p)?;
    let s = ladder.statistics();
    let ps = &s.players[p.index()];
    // Every close that moved him, including a move to the inactive list.
    let mut moves = Vec::new();
    for c in ladder.rounds.iter().filter_map(|r| r.closed.as_ref()) {
        if let Some(m) = c.moves.iter().find(|m| m.player == p) {
            moves.push(MoveView {
                round: c.round,
                name: rec.player.name.clone(),
                from: m.from,
                to: m.to,
                change: move_delta(m),
                explanation: ladder.explain_move(m).into(),
            });
        }
        if let Some(r) = c.inactive.iter().find(|r| r.player == p) {
            moves.push(MoveView {
                round: c.round,
                name: rec.player.name.clone(),
                from: r.rung,
                to: 0,
                change: "inactive".into(),
                explanation: ladder.explain_retirement(r).into(),
            });
        }
    }
    Some(PlayerView {
        id: p.0,
        name: rec.player.name.clone(),
        surname: rec.player.surname.clone(),
        status: rec.status.name().into(),
        rung: ladder.rung_of(p),
        eliminator: rec.eliminator,
        skip_streak: rec.skip_streak,
        missed_streak: rec.missed_streak,
        ladder: ps.ladder.into(),
        quick: ps.quick.into(),
        ladder_ussr: ps.ladder_ussr,
        ladder_us: ps.ladder_us,
        last_ladder_side: ladder
            .side_history(p, false)
            .last
            .map(|s| s.name().to_string()),
        games: ladder
            .games_of(p)
            .map(|g| game_view(ladder, g, now))
            .collect(),
        moves,
    })
}

/// A recomputed draw compared with the recorded one.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct DrawCheck {
    pub game: String,
    /// The stream the event recorded.
    pub draw_index: u64,
    /// What the game's draw is keyed by (ARB-R8): "pair" (its two players),
    /// "player" (the ladder player against a volunteer eliminator), or
    /// "position" (its place in a round announced before issue 14, item 8).
    pub keyed_by: String,
    pub player: String,
    pub recorded: String,
    pub recomputed: String,
    /// The recorded stream is the game's key, the seed gives the recorded
    /// side on it, and the player plays that side.
    pub matches: bool,
}

/// Recompute every draw of round `round` from its revealed seed, each on
/// the key the rules give its game (ARB-R8; issue 14, item 8).
pub fn verify_draws(ladder: &Ladder, round: u32) -> Result<Vec<DrawCheck>, String> {
    let checks = ladder
        .recheck_draws(round)
        .ok_or_else(|| format!("round {round} has not been announced"))?;
    Ok(checks
        .iter()
        .map(|c| DrawCheck {
            game: c.game.to_string(),
            draw_index: c.recorded_key.stream(),
            keyed_by: match c.key {
                DrawKey::Position(_) => "position",
                DrawKey::Pair(..) => "pair",
                DrawKey::Player(_) => "player",
            }
            .into(),
            player: ladder.name_of(c.player),
            recorded: c.recorded.name().into(),
            recomputed: c.recomputed.name().into(),
            matches: c.matches(),
        })
        .collect())
}

/// Words joined for a sentence: "a", "a or b", "a, b or c" (`last` the
/// word before the last).
pub fn list_words(words: &[&str], last: &str) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}
