//! A Sunjang league's calendar: each season when it was planned and when
//! it closed (the league records no deadlines). A player's calendar adds,
//! for each season still running, his group games and his final-round
//! games: the league records no date for a game, so each is a to-do, open
//! until its result is in.

use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::season::{League, Season};

use super::{CalendarSource, Entry, Status, When, versus};

impl CalendarSource for League {
    fn entries(&self, competition: &str, player: Option<PlayerId>) -> Vec<Entry> {
        let mut out = Vec::new();
        for s in &self.seasons {
            let plays = |p: PlayerId| s.divisions.iter().flatten().any(|g| g.players.contains(&p));
            if player.is_some_and(|p| !plays(p)) {
                continue;
            }
            out.extend(season_entries(self, competition, s, player));
        }
        out
    }
}

fn season_entries(
    l: &League,
    competition: &str,
    s: &Season,
    player: Option<PlayerId>,
) -> Vec<Entry> {
    let n = s.number();
    let page = format!("/c/{competition}/seasons/{n}");
    let groups: Vec<String> = s
        .divisions
        .iter()
        .flatten()
        .map(|g| g.id.to_string())
        .collect();
    let players: usize = s.divisions.iter().flatten().map(|g| g.players.len()).sum();
    let mine = player.and_then(|p| {
        s.divisions
            .iter()
            .flatten()
            .find(|g| g.players.contains(&p))
    });
    let placed = match (player, mine) {
        (Some(p), Some(g)) => format!(" {} plays in group {}.", l.name_of(p), g.id),
        _ => String::new(),
    };
    let mut out = vec![Entry {
        key: format!("season-{n}-planned"),
        when: When::At(s.plan.at),
        summary: format!("Season {n} planned"),
        description: match &s.plan.cancelled {
            Some(note) => format!("Season {n} of {} is cancelled: {}", l.name, note.text),
            None => format!(
                "Season {n} of {}: {players} players in groups {}.{placed}",
                l.name,
                groups.join(", ")
            ),
        },
        page: page.clone(),
        status: if s.plan.cancelled.is_some() {
            Status::Cancelled
        } else {
            Status::Done
        },
    }];
    if let Some(close) = &s.close {
        out.push(Entry {
            key: format!("season-{n}-closed"),
            when: When::At(close.at),
            summary: format!("Season {n} closed"),
            description: format!(
                "Season {n} of {} closed: every group game decided, the rankings recorded.",
                l.name
            ),
            page: page.clone(),
            status: Status::Done,
        });
    }
    let Some(me) = player else {
        return out;
    };
    if s.close.is_none()
        && let Some(group) = mine
    {
        for (i, g) in group.games.iter().enumerate() {
            let (black, white) = (g.pairing.black, g.pairing.white);
            if black != me && white != me {
                continue;
            }
            out.push(game(
                l,
                &page,
                format!("season-{n}-{}-game-{}", group.id, i + 1),
                &format!("Season {n}, {} round {}", group.id, g.pairing.round),
                [black, white],
                g.outcome,
            ));
        }
    }
    if let Some(f) = &s.final_round {
        for (i, g) in f.games.iter().enumerate() {
            if g.black != me && g.white != me {
                continue;
            }
            out.push(game(
                l,
                &page,
                format!("season-{n}-final-game-{}", i + 1),
                &format!("Season {n}, final round"),
                [g.black, g.white],
                g.outcome,
            ));
        }
    }
    out
}

fn game(
    l: &League,
    page: &str,
    key: String,
    label: &str,
    [black, white]: [PlayerId; 2],
    outcome: Option<Outcome>,
) -> Entry {
    let (b, w) = (l.name_of(black), l.name_of(white));
    let title = versus(label, &b, &w);
    let first = format!("{label} of {}: {b} (black) against {w} (white).", l.name);
    let (summary, last, status) = match outcome {
        None => (
            format!("{title} (to play)"),
            "Still to be played; the league records no date for its games.".to_string(),
            Status::Open,
        ),
        Some(o) => (
            format!("{title}: {}", o.describe()),
            format!("Result: {}.", o.describe()),
            Status::Done,
        ),
    };
    Entry {
        key,
        when: When::Undated,
        summary,
        description: format!("{first}\n{last}"),
        page: page.to_string(),
        status,
    }
}
