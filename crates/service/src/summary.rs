//! One line in words about each ladder event: the history (CLI and pages)
//! and the message after an action.

use arbiter_engine::tws::{Event, Ladder};

/// One line about an event, for the history.
pub fn summarize(l: &Ladder, e: &Event) -> String {
    let n = |p| l.name_of(p);
    let game = |g: arbiter_engine::model::GameId| {
        l.game(g)
            .map_or_else(|| g.to_string(), |gm| format!("{} {}", g, l.game_name(gm)))
    };
    match e {
        Event::Created {
            name, seed_hash, ..
        } => format!(
            "created {name}; round 1's draw seed committed as {}",
            hex::encode(seed_hash)
        ),
        Event::RulesChanged {
            from_round,
            reason,
            rules,
        } => {
            format!(
                "rules from round {from_round}: bid {}, {} months — {reason}",
                rules.bid, rules.deadline_months
            )
        }
        Event::ModeratorAdded { name } => format!("moderator {name} added"),
        Event::ModeratorRemoved { name } => format!("moderator {name} removed"),
        Event::PlayerApplied { name, .. } => format!("{name} applied to join"),
        Event::PlayerApproved { player } => {
            format!("{} approved: enters at the bottom", n(*player))
        }
        Event::PlayerDeclined { player, reason } => format!("{} declined: {reason}", n(*player)),
        Event::GuestRegistered { name, .. } => format!("{name} registered as a guest"),
        Event::PlayerReentered { player } => format!("{} re-entered at the bottom", n(*player)),
        Event::PlayerWithdrawn { player, reason } => format!("{} withdrew: {reason}", n(*player)),
        Event::EliminatorVolunteered { player } => {
            format!("{} volunteers as eliminator", n(*player))
        }
        Event::EliminatorStoodDown { player } => format!("{} no longer volunteers", n(*player)),
        Event::SkipRequested { player, round } => format!("{} skips round {round}", n(*player)),
        Event::SkipCancelled { player, round } => {
            format!("{} will play round {round} after all", n(*player))
        }
        Event::RoundAnnounced(a) => format!(
            "round {} announced: {} games, deadline {}, bid {}; seed {} revealed, next committed as {}",
            a.round,
            a.games.len(),
            a.deadline.format("%Y-%m-%d"),
            a.bid,
            hex::encode(a.seed),
            hex::encode(a.next_seed_hash)
        ),
        Event::GameAdded { game: g, round, .. } => format!("{} added to round {round}", game(g.id)),
        Event::QuickGameScheduled { game: g, .. } => format!("quick-round game {}", game(g.id)),
        Event::ResultRecorded { game: g, result } => format!(
            "{}: {} ({}, {})",
            game(*g),
            result.outcome.describe(),
            result.ended_by.describe(),
            result.status.name()
        ),
        Event::ResultCorrected {
            game: g,
            result,
            reason,
        } => format!(
            "{} corrected to {}: {reason}",
            game(*g),
            result.outcome.describe()
        ),
        Event::GameCancelled {
            game: g, reason, ..
        } => format!("{} cancelled: {reason}", game(*g)),
        Event::ResultReported {
            game: g,
            result,
            by,
            ..
        } => format!(
            "{}: {} reports {} ({}), awaiting confirmation",
            game(*g),
            n(*by),
            result.outcome.describe(),
            result.ended_by.describe()
        ),
        Event::ResultConfirmed { game: g, by, .. } => {
            format!("{}: report confirmed by {}", game(*g), l.confirmer_name(by))
        }
        Event::ReportRejected {
            game: g,
            by,
            reason,
            ..
        } => format!(
            "{}: report rejected by {}: {reason}",
            game(*g),
            l.confirmer_name(by)
        ),
        Event::RoundClosed(c) => format!(
            "round {} closed: champion {}, streak {}",
            c.round,
            c.champion.map_or("-".into(), n),
            c.streak
        ),
        Event::Reverted { seq, summary } => format!("undo of event {seq} ({summary})"),
    }
}
