//! Terminal output: tables and explanations.

use std::fmt::Write as _;

use arbiter_engine::tws::{Event, Ladder};
use arbiter_service::views::{
    CloseView, GameView, LadderView, PlayerStatsView, PlayerView, QuickLineView, ResultView,
    RoundView, StatsView, TallyView,
};
use comfy_table::{Cell, CellAlignment, ContentArrangement, Table, presets};

pub(crate) fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(header.iter().map(Cell::new));
    t
}

pub(crate) fn right(v: impl ToString) -> Cell {
    Cell::new(v.to_string()).set_alignment(CellAlignment::Right)
}

pub(crate) fn wlt(w: u32, l: u32, t: u32) -> String {
    format!("{w}-{l}-{t}")
}

pub fn competitions(rows: &[serde_json::Value]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut t = table(&["id", "name", "format", "members", "rounds", "version"]);
    for r in rows {
        t.add_row(vec![
            Cell::new(r["id"].as_str().unwrap_or("")),
            Cell::new(r["name"].as_str().unwrap_or("")),
            Cell::new(r["format"].as_str().unwrap_or("")),
            right(&r["members"]),
            right(&r["rounds"]),
            right(&r["version"]),
        ]);
    }
    format!("{t}\n")
}

pub fn ladder(v: &LadderView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({}), version {}", v.name, v.competition, v.version);
    match &v.champion {
        Some(c) if v.rounds_closed == 0 => {
            let _ = writeln!(
                out,
                "Rung 1: {c} (no round has closed yet, so no champion has been decided). Automatic bid: {}.",
                v.bid
            );
        }
        Some(c) => {
            let _ = writeln!(
                out,
                "Champion: {c}, {} consecutive round(s) at the top. Rounds closed: {}. Automatic bid: {}.",
                v.streak, v.rounds_closed, v.bid
            );
        }
        None => {
            let _ = writeln!(out, "No members yet.");
        }
    }
    if let Some(r) = v.current_round {
        let _ = writeln!(out, "Round {r} is running.");
    }
    if !v.rungs.is_empty() {
        let mut t = table(&[
            "rung",
            "player",
            "W-L-T",
            "USSR/US",
            "last move",
            "this round",
        ]);
        for r in &v.rungs {
            t.add_row(vec![
                right(r.rung),
                Cell::new(&r.name),
                right(wlt(r.ladder.wins, r.ladder.losses, r.ladder.ties)),
                right(format!("{}/{}", r.ussr, r.us)),
                right(&r.last_move),
                Cell::new(&r.round_status),
            ]);
        }
        let _ = writeln!(out, "{t}");
    }
    if !v.inactive.is_empty() {
        let _ = writeln!(out, "Inactive: {}", v.inactive.join(", "));
    }
    if !v.applicants.is_empty() {
        let _ = writeln!(out, "Waiting for approval: {}", v.applicants.join(", "));
    }
    if !v.eliminators.is_empty() {
        let _ = writeln!(out, "Volunteer eliminators: {}", v.eliminators.join(", "));
    }
    out
}

pub fn summary(v: &LadderView, ladder: &Ladder) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}), Twilight Struggle ladder, version {}",
        v.name, v.competition, v.version
    );
    let _ = writeln!(
        out,
        "Members: {}; inactive: {}; applicants: {}",
        v.rungs.len(),
        v.inactive.len(),
        v.applicants.len()
    );
    let _ = writeln!(
        out,
        "Moderators: {}",
        if v.moderators.is_empty() {
            "none".to_string()
        } else {
            v.moderators.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "Champion: {} (streak {})",
        v.champion.as_deref().unwrap_or("-"),
        v.streak
    );
    let _ = writeln!(
        out,
        "Rounds: {} announced, {} closed",
        ladder.rounds.len(),
        v.rounds_closed
    );
    let _ = writeln!(out, "Automatic bid for the next round: {}", v.bid);
    let _ = writeln!(
        out,
        "Next round's side draws: seed committed as SHA-256 {} (revealed by the announcement; ARB-R8)",
        v.next_draw_commitment
    );
    out
}

pub fn round(v: &RoundView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Round {} of {}: announced {}, deadline {}, bid {}, pairing {}{}",
        v.number,
        v.ladder,
        v.announced,
        v.deadline,
        v.bid,
        v.pairing,
        if v.closed { " (closed)" } else { "" }
    );
    let mut t = table(&[
        "game",
        "name",
        "USSR",
        "US",
        "moderator",
        "status",
        "result",
    ]);
    for g in &v.games {
        let result = g.result.as_ref().map_or(String::new(), ResultView::summary);
        let status = match (g.carry_note(v.number), g.overdue) {
            (Some(note), _) => format!("{} ({note})", g.status),
            (None, true) => "OVERDUE".to_string(),
            (None, false) => g.status.clone(),
        };
        let ussr = if g.ussr_counts == "ladder" {
            g.ussr.clone()
        } else {
            format!("{} (eliminator)", g.ussr)
        };
        let us = if g.us_counts == "ladder" {
            g.us.clone()
        } else {
            format!("{} (eliminator)", g.us)
        };
        t.add_row(vec![
            Cell::new(&g.id),
            Cell::new(&g.name),
            Cell::new(ussr),
            Cell::new(us),
            Cell::new(g.moderator.as_deref().unwrap_or("-")),
            Cell::new(status),
            Cell::new(result),
        ]);
    }
    let _ = writeln!(out, "{t}");
    if let Some(reason) = &v.closed_early {
        let _ = writeln!(
            out,
            "Closed early ({reason}): its unfinished games count in the next round [TWS Pairings; ARB-R21]"
        );
    }
    let _ = writeln!(out, "Deadline: {}", v.deadline_rule.line());
    let _ = writeln!(out, "Bid: {}", v.bid_rule.line());
    let _ = writeln!(out, "Why these sides:");
    for g in &v.games {
        let _ = writeln!(out, "  {} {}: {}", g.id, g.name, g.sides.line());
    }
    for s in &v.skips {
        let _ = writeln!(out, "Skipping: {}", s.describe());
    }
    for b in &v.byes {
        let _ = writeln!(out, "Bye: {b} keeps the rung number [TWS-R10]");
    }
    if !v.unpaired.is_empty() {
        let _ = writeln!(
            out,
            "Joined during the round, not yet paired: {} (`arbiter round add-game NAME --opponent ELIMINATOR --reason ...`)",
            v.unpaired.join(", ")
        );
    }
    if !v.overdue.is_empty() {
        let _ = writeln!(
            out,
            "Overdue (past the deadline): {} — record an agreed result (`result record --agreed`) or adjudicate.",
            v.overdue.join("; ")
        );
    } else if !v.closed {
        let _ = writeln!(out, "{} game(s) still to be decided.", v.unresolved);
    }
    out
}

pub fn close(v: &CloseView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Round {} closed {}. Champion: {} (streak {}).",
        v.round,
        v.closed,
        v.champion.as_deref().unwrap_or("-"),
        v.streak
    );
    let mut t = table(&["rung", "player", "was", "move", "why"]);
    for m in &v.moves {
        t.add_row(vec![
            right(m.to),
            Cell::new(&m.name),
            right(if m.from == 0 {
                "-".to_string()
            } else {
                m.from.to_string()
            }),
            right(&m.change),
            Cell::new(m.explanation.line()),
        ]);
    }
    let _ = writeln!(out, "{t}");
    for r in &v.inactive {
        let _ = writeln!(out, "To the inactive list: {}", r.explanation.line());
    }
    if let Some(reason) = &v.early {
        let _ = writeln!(
            out,
            "Closed early ({reason}): {} carried over into the next round [TWS Pairings; ARB-R21]",
            v.carried.join(", ")
        );
    }
    out
}

pub fn game(g: &GameView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} \"{}\"", g.id, g.name);
    let _ = writeln!(
        out,
        "  USSR: {} (counts as a {} game)",
        g.ussr, g.ussr_counts
    );
    let _ = writeln!(out, "  US:   {} (counts as a {} game)", g.us, g.us_counts);
    let _ = writeln!(
        out,
        "  Bid: {}; moderator: {}",
        g.bid,
        g.moderator.as_deref().unwrap_or("-")
    );
    if let Some(d) = &g.deadline {
        let _ = writeln!(
            out,
            "  Deadline: {d}{}",
            if g.overdue { " (OVERDUE)" } else { "" }
        );
    }
    let _ = writeln!(out, "  Status: {}", g.status);
    if let Some(r) = &g.result {
        let _ = writeln!(
            out,
            "  Result: {}{}, by {}{}{}",
            r.outcome,
            r.winner
                .as_ref()
                .map_or(String::new(), |w| format!(" ({w})")),
            r.ended_by,
            r.vp.map_or(String::new(), |v| format!(", VP {v:+}")),
            r.turn.map_or(String::new(), |t| format!(", turn {t}"))
        );
        if let Some(n) = &r.note {
            let _ = writeln!(out, "  Note: {n}");
        }
        if let Some(a) = &r.adjudication {
            let _ = writeln!(out, "  Adjudication record:");
            let _ = writeln!(out, "    final state: {}", a.final_state);
            if let Some(s) = &a.ussr_statement {
                let _ = writeln!(out, "    USSR player's statement: {s}");
            }
            if let Some(s) = &a.us_statement {
                let _ = writeln!(out, "    US player's statement: {s}");
            }
            if let Some(s) = &a.third_party {
                let _ = writeln!(out, "    third-party opinion: {s}");
            }
            let _ = writeln!(out, "    decision: {}", a.decision);
        }
    }
    if g.corrections > 0 {
        let _ = writeln!(
            out,
            "  Corrected {} time(s) (see `arbiter history`)",
            g.corrections
        );
    }
    if let Some(c) = &g.cancel_reason {
        let _ = writeln!(out, "  Cancelled: {c}");
    }
    let _ = writeln!(out, "  Pairing: {}", g.pairing.line());
    let _ = writeln!(out, "  Sides: {}", g.sides.line());
    let _ = writeln!(out, "  Moderator: {}", g.moderation.line());
    out
}

pub fn games(games: &[GameView]) -> String {
    let mut t = table(&["game", "name", "status", "result"]);
    for g in games {
        t.add_row(vec![
            Cell::new(&g.id),
            Cell::new(&g.name),
            Cell::new(if g.overdue {
                "OVERDUE"
            } else {
                g.status.as_str()
            }),
            Cell::new(g.result.as_ref().map_or(String::new(), ResultView::summary)),
        ]);
    }
    format!("{t}\n")
}

pub fn players(rows: &[serde_json::Value]) -> String {
    let mut t = table(&["id", "name", "surname", "status", "rung", "eliminator"]);
    for r in rows {
        t.add_row(vec![
            right(format!("P{}", r["id"])),
            Cell::new(r["name"].as_str().unwrap_or("")),
            Cell::new(r["surname"].as_str().unwrap_or("")),
            Cell::new(r["status"].as_str().unwrap_or("")),
            right(r["rung"].as_u64().map_or(String::new(), |x| x.to_string())),
            Cell::new(if r["eliminator"].as_bool().unwrap_or(false) {
                "yes"
            } else {
                ""
            }),
        ]);
    }
    format!("{t}\n")
}

pub fn player(p: &PlayerView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} (P{}, surname {}), {}{}",
        p.name,
        p.id,
        p.surname,
        p.status,
        p.rung.map_or(String::new(), |r| format!(", rung {r}"))
    );
    let _ = writeln!(
        out,
        "Ladder games: {} (W-L-T); sides {} USSR / {} US{}",
        wlt(p.ladder.wins, p.ladder.losses, p.ladder.ties),
        p.ladder_ussr,
        p.ladder_us,
        p.last_ladder_side
            .as_ref()
            .map_or(String::new(), |s| format!("; last ladder game as {s}"))
    );
    let _ = writeln!(
        out,
        "Quick rounds: {}",
        wlt(p.quick.wins, p.quick.losses, p.quick.ties)
    );
    if p.eliminator {
        let _ = writeln!(out, "Volunteers as eliminator.");
    }
    if p.skip_streak > 0 || p.missed_streak > 0 {
        let _ = writeln!(
            out,
            "Consecutive skips: {}; consecutive missed rounds: {}",
            p.skip_streak, p.missed_streak
        );
    }
    if !p.games.is_empty() {
        let _ = write!(out, "{}", games(&p.games));
    }
    out.push_str(&moves_of(p));
    out
}

pub fn moves_of(p: &PlayerView) -> String {
    let mut out = String::new();
    for m in &p.moves {
        let _ = writeln!(out, "  Round {}: {}", m.round, m.explanation.line());
    }
    if p.status == "member"
        && let (Some(rung), Some(last)) = (p.rung, p.moves.last())
        && (last.to == 0 || last.to != rung)
    {
        let _ = writeln!(
            out,
            "  Since then: rung {rung} (re-entries join at the bottom in order of entry, and withdrawals above move everyone below up; TWS Change of Ladder Standings)"
        );
    }
    if p.moves.is_empty() {
        let _ = writeln!(out, "  No closed round has moved {} yet.", p.name);
    }
    out
}

pub(crate) fn tally_row(t: &mut Table, label: &str, v: &TallyView) {
    let pct = |x: u32| {
        if v.games == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", f64::from(x) * 100.0 / f64::from(v.games))
        }
    };
    t.add_row(vec![
        Cell::new(label),
        right(v.games),
        right(format!("{} ({})", v.ussr_wins, pct(v.ussr_wins))),
        right(format!("{} ({})", v.us_wins, pct(v.us_wins))),
        right(v.ties),
    ]);
}

pub fn stats(s: &StatsView) -> String {
    let mut out = String::new();
    let mut t = table(&["games", "played", "USSR wins", "US wins", "ties"]);
    tally_row(&mut t, "ladder", &s.ladder_games);
    tally_row(&mut t, "quick rounds", &s.quick_round_games);
    tally_row(&mut t, "all", &s.all_games);
    let _ = writeln!(
        out,
        "Results by side (ties are ties here, though the US advances on the ladder, TWS-R11; forfeits are left out)\n{t}"
    );
    let mut t = table(&["bid", "played", "USSR wins", "US wins", "ties"]);
    for b in &s.by_bid {
        tally_row(&mut t, &b.label, &b.tally);
    }
    let _ = writeln!(out, "By automatic bid\n{t}");
    let mut t = table(&["ended by", "played", "USSR wins", "US wins", "ties"]);
    for b in &s.by_end {
        tally_row(&mut t, &b.label, &b.tally);
    }
    let _ = writeln!(out, "By how the game ended\n{t}");
    if !s.by_turn.is_empty() {
        let mut t = table(&["length", "played", "USSR wins", "US wins", "ties"]);
        for b in &s.by_turn {
            tally_row(&mut t, &b.label, &b.tally);
        }
        let _ = writeln!(
            out,
            "By game length (the turn it ended in, when given)\n{t}"
        );
    }
    let mut t = table(&[
        "player",
        "status",
        "rung",
        "ladder W-L-T",
        "quick W-L-T",
        "ladder USSR/US",
    ]);
    for p in &s.players {
        t.add_row(vec![
            Cell::new(&p.name),
            Cell::new(&p.status),
            right(p.rung.map_or(String::new(), |r| r.to_string())),
            right(wlt(p.ladder.wins, p.ladder.losses, p.ladder.ties)),
            right(wlt(p.quick.wins, p.quick.losses, p.quick.ties)),
            right(format!("{}/{}", p.ladder_ussr, p.ladder_us)),
        ]);
    }
    let _ = writeln!(out, "Players\n{t}");
    out
}

pub fn player_stats(p: &PlayerStatsView) -> String {
    format!(
        "{} ({}{}): ladder {} W-L-T, quick rounds {}; ladder sides {} USSR / {} US; all games {} USSR / {} US\n",
        p.name,
        p.status,
        p.rung.map_or(String::new(), |r| format!(", rung {r}")),
        wlt(p.ladder.wins, p.ladder.losses, p.ladder.ties),
        wlt(p.quick.wins, p.quick.losses, p.quick.ties),
        p.ladder_ussr,
        p.ladder_us,
        p.all_ussr,
        p.all_us
    )
}

pub fn quick(lines: &[QuickLineView]) -> String {
    if lines.is_empty() {
        return "No quick-round game has been decided yet.\n".into();
    }
    let mut t = table(&["place", "player", "wins", "losses", "ties"]);
    for l in lines {
        t.add_row(vec![
            right(l.place),
            Cell::new(&l.name),
            right(l.record.wins),
            right(l.record.losses),
            right(l.record.ties),
        ]);
    }
    format!("Quick-round leaderboard (TWS Quick Rounds)\n{t}\n")
}

pub fn history(rows: &[serde_json::Value]) -> String {
    let mut t = table(&["seq", "time", "actor", "event", "summary"]);
    for r in rows {
        let undone = r["undone"].as_bool().unwrap_or(false);
        t.add_row(vec![
            right(&r["seq"]),
            Cell::new(r["time"].as_str().unwrap_or("")),
            Cell::new(r["actor"].as_str().unwrap_or("")),
            Cell::new(format!(
                "{}{}",
                r["event"].as_str().unwrap_or(""),
                if undone { " (undone)" } else { "" }
            )),
            Cell::new(r["summary"].as_str().unwrap_or("")),
        ]);
    }
    format!("{t}\n")
}

/// One line about an event, for the history.
pub fn summarize(l: &Ladder, e: &Event) -> String {
    arbiter_service::summary::summarize(l, e)
}
