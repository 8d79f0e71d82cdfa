//! A round-robin league's calendar: its start and each round's deadline
//! (rounds without one have no date); a player's games at their round's
//! deadline while undecided, at the time the result was entered once
//! decided (or the deadline, if no time was entered), or undated when the
//! round has no deadline.

use arbiter_engine::model::PlayerId;
use arbiter_engine::roundrobin::{Game, RoundRobin};

use super::{CalendarSource, Due, Entry, Status, When, game_entry, to_play, versus};
use arbiter_engine::zone::Zoned as _;

impl CalendarSource for RoundRobin {
    fn entries(&self, competition: &str, player: Option<PlayerId>) -> Vec<Entry> {
        let page = format!("/c/{competition}");
        match player {
            None => {
                let mut out = Vec::new();
                if let Some(at) = self.started {
                    out.push(Entry {
                        key: "started".to_string(),
                        when: When::At(at),
                        summary: format!("{} starts", self.name),
                        description: format!(
                            "{} started: {} rounds, {} games.",
                            self.name,
                            self.rounds.len(),
                            self.games.len()
                        ),
                        page: page.clone(),
                        status: Status::Done,
                    });
                }
                for r in &self.rounds {
                    let Some(deadline) = r.deadline else {
                        continue;
                    };
                    let games: Vec<&Game> = r.games.iter().filter_map(|g| self.game(*g)).collect();
                    let open = games
                        .iter()
                        .filter(|g| self.counted_score(g).is_none())
                        .count();
                    out.push(Entry {
                        key: format!("round-{}-deadline", r.number),
                        when: When::At(deadline),
                        summary: format!("Round {} deadline", r.number),
                        description: format!(
                            "The games of round {} of {} are due by {}. \
                             {open} of its {} games still to be decided.",
                            r.number,
                            self.name,
                            self.zone().minute(deadline),
                            games.len()
                        ),
                        page: page.clone(),
                        status: if open == 0 {
                            Status::Done
                        } else {
                            Status::Open
                        },
                    });
                }
                out
            }
            Some(p) => self
                .games
                .iter()
                .filter(|g| g.has(p))
                .map(|g| game(self, &page, g, p))
                .collect(),
        }
    }

    /// The games [`game`] dates at their round's deadline while still to
    /// be played: undecided, not annulled.
    fn due(&self, competition: &str) -> Vec<Due> {
        self.games
            .iter()
            .filter(|g| {
                self.counted_score(g).is_none() && self.counts(g.home) && self.counts(g.away)
            })
            .filter_map(|g| {
                Some(Due {
                    game: g.id.to_string(),
                    players: vec![self.name_of(g.home), self.name_of(g.away)],
                    deadline: deadline_of(self, g)?,
                    moderator: None,
                    page: format!("/c/{competition}"),
                })
            })
            .collect()
    }
}

/// A game's deadline: its round's, if the round has one.
fn deadline_of(rr: &RoundRobin, g: &Game) -> Option<arbiter_engine::model::Time> {
    rr.rounds
        .get((g.round as usize).wrapping_sub(1))
        .and_then(|r| r.deadline)
}

fn game(rr: &RoundRobin, page: &str, g: &Game, me: PlayerId) -> Entry {
    let (home, away) = (rr.name_of(g.home), rr.name_of(g.away));
    let title = versus(&g.id.to_string(), &home, &away);
    let deadline = deadline_of(rr, g);
    let mut lines = vec![
        format!(
            "Round {} of {}, game {}: {home} against {away}.",
            g.round, rr.name, g.id
        ),
        format!(
            "{} plays against {}, named {} in the pairing.",
            rr.name_of(me),
            rr.name_of(g.opponent(me)),
            if g.home == me { "first" } else { "second" },
        ),
    ];
    if let Some(d) = deadline {
        lines.push(format!("Deadline: {}.", rr.zone().minute(d)));
    }
    let dated = match rr.counted_score(g) {
        Some(score) => {
            let recorded =
                g.at.map(|at| format!(", entered {}", rr.zone().minute(at)))
                    .unwrap_or_default();
            lines.push(format!("Result: {}{recorded}.", score.show()));
            let when = g.at.or(deadline).map_or(When::Undated, When::At);
            (when, format!("{title}: {}", score.show()), Status::Done)
        }
        None if !rr.counts(g.home) || !rr.counts(g.away) => {
            lines.push("Annulled: a player withdrew and his games do not count.".to_string());
            let when = deadline.map_or(When::Undated, When::At);
            (when, format!("{title} (annulled)"), Status::Cancelled)
        }
        None => to_play(&title, deadline, &mut lines),
    };
    game_entry(g.id.0, dated, &lines, page.to_string())
}
