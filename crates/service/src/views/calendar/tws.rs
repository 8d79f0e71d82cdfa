//! A Twilight Struggle ladder's calendar: each round's announcement,
//! deadline and close; a player's games at their deadline, or at the time
//! their result was recorded once decided.

use arbiter_engine::model::{GameStatus, Outcome, PlayerId};
use arbiter_engine::tws::{Game, Ladder, Round};

use super::{CalendarSource, Due, Entry, Status, When, game_entry, to_play, versus};
use arbiter_engine::zone::Zoned as _;

impl CalendarSource for Ladder {
    fn entries(&self, competition: &str, player: Option<PlayerId>) -> Vec<Entry> {
        match player {
            None => self
                .rounds
                .iter()
                .flat_map(|r| round_entries(self, competition, r))
                .collect(),
            Some(p) => self
                .games
                .iter()
                .filter(|g| g.has_player(p))
                .map(|g| player_game(self, competition, g, p))
                .collect(),
        }
    }

    /// The games [`player_game`] dates at their deadline: not cancelled,
    /// no result yet, a deadline (its round's: quick-round games have none).
    fn due(&self, competition: &str) -> Vec<Due> {
        self.games
            .iter()
            .filter(|g| to_be_played(g))
            .filter_map(|g| {
                Some(Due {
                    game: g.id.to_string(),
                    players: vec![self.name_of(g.ussr.player), self.name_of(g.us.player)],
                    deadline: g.deadline?,
                    moderator: self.moderator_name(g.moderator).map(str::to_owned),
                    page: game_page(competition, g).1,
                })
            })
            .collect()
    }
}

/// A game still to be played: neither decided nor cancelled.
fn to_be_played(g: &Game) -> bool {
    g.result.is_none() && g.status != GameStatus::Cancelled
}

/// Where a game belongs, in words, and its page.
fn game_page(competition: &str, g: &Game) -> (Option<u32>, String) {
    match g.round {
        Some(n) => (Some(n), format!("/c/{competition}/rounds/{n}")),
        None => (None, format!("/c/{competition}")),
    }
}

fn round_entries(l: &Ladder, competition: &str, r: &Round) -> Vec<Entry> {
    let n = r.number;
    let page = format!("/c/{competition}/rounds/{n}");
    let games = r.games.len();
    let open = r
        .games
        .iter()
        .filter_map(|g| l.game(*g))
        .filter(|g| g.status == GameStatus::Scheduled)
        .count();
    let mut out = vec![Entry {
        key: format!("round-{n}-announced"),
        when: When::At(r.announced_at),
        summary: format!("Round {n} announced"),
        description: format!(
            "Round {n} of {}: {games} games, deadline {}.",
            l.name,
            l.zone().minute(r.deadline)
        ),
        page: page.clone(),
        status: Status::Done,
    }];
    let (state, status) = match &r.closed {
        Some(c) => (
            format!("The round closed on {}.", l.zone().minute(c.at)),
            Status::Done,
        ),
        None => (
            format!("{open} of its {games} games still to be decided."),
            Status::Open,
        ),
    };
    out.push(Entry {
        key: format!("round-{n}-deadline"),
        when: When::At(r.deadline),
        summary: format!("Round {n} deadline"),
        description: format!(
            "The games of round {n} of {} are due by {}. {state}",
            l.name,
            l.zone().minute(r.deadline)
        ),
        page: page.clone(),
        status,
    });
    if let Some(c) = &r.closed {
        let early = c
            .early
            .as_ref()
            .map(|reason| format!(" early ({reason})"))
            .unwrap_or_default();
        out.push(Entry {
            key: format!("round-{n}-closed"),
            when: When::At(c.at),
            summary: format!("Round {n} closed"),
            description: format!(
                "Round {n} of {} closed{early}; the ladder was re-sorted.",
                l.name
            ),
            page,
            status: Status::Done,
        });
    }
    out
}

fn player_game(l: &Ladder, competition: &str, g: &Game, me: PlayerId) -> Entry {
    let ussr = l.name_of(g.ussr.player);
    let us = l.name_of(g.us.player);
    let title = versus(&g.id.to_string(), &ussr, &us);
    let (round, page) = game_page(competition, g);
    let where_ = match round {
        Some(n) => format!("Round {n} of {}", l.name),
        None => format!("A quick-round game of {}", l.name),
    };
    let mut lines = vec![format!("{where_}: {}.", l.game_name(g))];
    if let Some(side) = g.side_of(me) {
        let other = g.participant(side.other());
        lines.push(format!(
            "{} plays the {} against {} ({}).",
            l.name_of(me),
            side.name(),
            l.name_of(other.player),
            side.other().name()
        ));
    }
    if let Some(d) = g.deadline {
        lines.push(format!("Deadline: {}.", l.zone().minute(d)));
    }
    let dated = match (&g.result, g.status) {
        (_, GameStatus::Cancelled) => {
            lines.push(format!(
                "Cancelled: {}.",
                g.cancel_reason.as_deref().unwrap_or("no reason given")
            ));
            (
                When::At(g.deadline.unwrap_or(g.scheduled_at)),
                format!("{title} (cancelled)"),
                Status::Cancelled,
            )
        }
        (Some(r), _) => {
            let outcome = match r.outcome {
                Outcome::Win(side) => format!(
                    "{} ({})",
                    r.outcome.describe(),
                    l.name_of(g.participant(side).player)
                ),
                Outcome::Tie => r.outcome.describe().to_string(),
            };
            lines.push(format!(
                "Result: {outcome}, {}, recorded {}.",
                g.status.name(),
                l.zone().minute(r.at)
            ));
            (
                When::At(r.at),
                format!("{title}: {}", r.outcome.describe()),
                Status::Done,
            )
        }
        _ => {
            debug_assert!(to_be_played(g));
            to_play(&title, g.deadline, &mut lines)
        }
    };
    game_entry(g.id.0, dated, &lines, page)
}
