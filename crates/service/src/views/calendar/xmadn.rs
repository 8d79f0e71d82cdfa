//! XMadn calendars. The league records no deadlines and no dates for games
//! to come: its calendar holds the die rolls (each DRR's positions, step 6
//! of the tiebreak) and the games at the time their result or cancellation
//! was recorded; a game still to play is a to-do without a date.
//! Challengers: Game 0 and each counted game at its time, and the next
//! game, undated, until someone reaches first-to-x.

use arbiter_engine::model::PlayerId;
use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::format_time;
use arbiter_engine::xmadn::league::{self, GameStatus, League, LeagueGame, RollPurpose};

use super::{CalendarSource, Entry, Status, When, versus};
use arbiter_engine::zone::Zoned as _;

impl CalendarSource for League {
    fn entries(&self, competition: &str, player: Option<PlayerId>) -> Vec<Entry> {
        let page = format!("/c/{competition}");
        let mut out = Vec::new();
        if player.is_none() {
            for (i, roll) in self.rolls.iter().enumerate() {
                let names = |ps: &[PlayerId]| {
                    ps.iter()
                        .map(|p| self.name_of(*p))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let (summary, description) = match &roll.purpose {
                    RollPurpose::Positions { drr, positions } => (
                        format!("DRR {drr}: positions rolled"),
                        format!(
                            "The die roll for the positions of double round-robin {drr} of {}: \
                             #1 {}, #2 {}, #3 {}.",
                            self.name,
                            self.name_of(positions[0]),
                            self.name_of(positions[1]),
                            self.name_of(positions[2])
                        ),
                    ),
                    RollPurpose::Tiebreak => (
                        "Tiebreak roll".to_string(),
                        format!(
                            "The die roll of tiebreak step 6 of {} among {}.",
                            self.name,
                            names(&roll.players)
                        ),
                    ),
                };
                out.push(Entry {
                    key: format!("roll-{}", i + 1),
                    when: When::At(roll.at),
                    summary,
                    description,
                    page: page.clone(),
                    status: Status::Done,
                });
            }
        }
        out.extend(
            self.games
                .iter()
                .filter(|g| player.is_none_or(|p| g.has(p)))
                .map(|g| league_game(self, &page, g)),
        );
        out
    }
}

fn league_game(l: &League, page: &str, g: &LeagueGame) -> Entry {
    let [a, b] = g.players.map(|p| l.name_of(p));
    let stage = league::stage_words(g.stage);
    let title = versus(&stage, &a, &b);
    let first = format!("{stage} of {}: {a} against {b}.", l.name);
    let (when, summary, last, status) = match &g.status {
        GameStatus::Scheduled => (
            When::Undated,
            format!("{title} (to play)"),
            "Still to be played; the league sets no date.".to_string(),
            Status::Open,
        ),
        GameStatus::Played { score, at, .. } => (
            When::At(*at),
            format!("{title}: {}-{}", score.pawns[0], score.pawns[1]),
            format!(
                "Result: {a} {}, {b} {} counted pawns (winner {}), in {}; recorded {}.",
                score.pawns[0],
                score.pawns[1],
                g.winner().map_or_else(String::new, |w| l.name_of(w)),
                format_time(score.seconds),
                l.zone().minute(*at)
            ),
            Status::Done,
        ),
        GameStatus::Cancelled { note, at } => (
            When::At(*at),
            format!("{title} (cancelled)"),
            format!(
                "Cancelled by mutual consent on {}: {note}",
                l.zone().minute(*at)
            ),
            Status::Cancelled,
        ),
    };
    Entry {
        key: format!("game-{}", g.id.0),
        when,
        summary,
        description: format!("{first}\n{last}"),
        page: page.to_string(),
        status,
    }
}

impl CalendarSource for Challengers {
    fn entries(&self, competition: &str, player: Option<PlayerId>) -> Vec<Entry> {
        let page = format!("/c/{competition}");
        let mut out = Vec::new();
        if let Some(q) = self.qualifier() {
            let [first, second, third] = q.finishing.map(|p| self.name_of(p));
            out.push(Entry {
                key: "game-0".to_string(),
                when: When::At(q.at),
                summary: format!("Game 0: {first}, {second}, {third}"),
                description: format!(
                    "Game 0 (3TQ) of {}: 1st {first}, 2nd {second}, 3rd {third}. \
                     {first} and {second} play Game 1.",
                    self.name
                ),
                page: page.clone(),
                status: Status::Done,
            });
        }
        for g in self
            .games()
            .iter()
            .filter(|g| player.is_none_or(|p| g.players.contains(&p)))
        {
            let [a, b] = g.players.map(|p| self.name_of(p));
            out.push(Entry {
                key: format!("game-{}", g.number),
                when: When::At(g.at),
                summary: format!(
                    "{}: {}-{}",
                    versus(&format!("Game {}", g.number), &a, &b),
                    g.score.pawns[0],
                    g.score.pawns[1]
                ),
                description: format!(
                    "Game {} of {}: {a} ({}) against {b} ({}); {} sat out.\n\
                     Result: {a} {}, {b} {} counted pawns (winner {}), in {}; recorded {}.",
                    g.number,
                    self.name,
                    g.colours[0],
                    g.colours[1],
                    self.name_of(g.out),
                    g.score.pawns[0],
                    g.score.pawns[1],
                    self.name_of(g.winner()),
                    format_time(g.score.seconds),
                    self.zone().minute(g.at)
                ),
                page: page.clone(),
                status: Status::Done,
            });
        }
        if let Some(board) = self.board()
            && player.is_none_or(|p| board.has(p))
        {
            let number = self.games().len() + 1;
            let [a, b] = board.players.map(|p| self.name_of(p));
            out.push(Entry {
                key: format!("next-game-{number}"),
                when: When::Undated,
                summary: format!("{} (next)", versus(&format!("Game {number}"), &a, &b)),
                description: format!(
                    "Game {number} of {}, the next to play: {a} ({}) against {b} ({}); {} sits out.",
                    self.name,
                    board.colours[0],
                    board.colours[1],
                    self.name_of(board.out)
                ),
                page,
                status: Status::Open,
            });
        }
        out
    }
}
