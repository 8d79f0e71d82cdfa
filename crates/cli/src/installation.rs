//! `arbiter stats --all`: the statistics of every TWS ladder of the
//! installation together, players matched by name (see
//! `arbiter_service::installation`).

use std::fmt::Write;

use anyhow::Result;
use arbiter_service::installation::{InstallationPlayerView, InstallationStatsView};
use comfy_table::Cell;

use crate::args::StatsArgs;
use crate::render::{right, table, tally_row, wlt};
use crate::run::{Globals, Svc, print_json};

pub async fn stats(svc: &Svc, g: &Globals, a: &StatsArgs) -> Result<()> {
    let view = svc.installation_stats().await?;
    if let Some(name) = &a.player {
        let row = view
            .players
            .iter()
            .find(|p| arbiter_engine::model::same_name(&p.name, name))
            .cloned();
        if g.json {
            return print_json(&row);
        }
        match row {
            Some(p) => out!("{}", player(&p)),
            None => outln!("{} has no decided game on any ladder.", name.trim()),
        }
        return Ok(());
    }
    if g.json {
        return print_json(&view);
    }
    out!("{}", render(&view));
    Ok(())
}

fn player(p: &InstallationPlayerView) -> String {
    format!(
        "{}: ladder {}, quick rounds {}, ladder sides USSR/US {}/{}, all sides {}/{} ({})\n",
        p.name,
        wlt(p.ladder.wins, p.ladder.losses, p.ladder.ties),
        wlt(p.quick.wins, p.quick.losses, p.quick.ties),
        p.ladder_ussr,
        p.ladder_us,
        p.all_ussr,
        p.all_us,
        p.competitions.join(", ")
    )
}

fn render(s: &InstallationStatsView) -> String {
    let mut out = String::new();
    if s.competitions.is_empty() {
        let _ = writeln!(
            out,
            "There is no Twilight Struggle ladder in this installation."
        );
        return out;
    }
    let mut t = table(&["ladder", "name", "games"]);
    for c in &s.competitions {
        t.add_row(vec![Cell::new(&c.id), Cell::new(&c.name), right(c.games)]);
    }
    let _ = writeln!(out, "Ladders\n{t}");
    let mut t = table(&["games", "played", "USSR wins", "US wins", "ties"]);
    tally_row(&mut t, "ladder", &s.ladder_games);
    tally_row(&mut t, "quick rounds", &s.quick_round_games);
    tally_row(&mut t, "all", &s.all_games);
    let _ = writeln!(
        out,
        "Results by side (ties are ties here, TWS-R11; forfeits are left out)\n{t}"
    );
    let sections = [
        ("bid", "By automatic bid", &s.by_bid),
        ("ended by", "By how the game ended", &s.by_end),
        (
            "length",
            "By game length (the turn it ended in, when given)",
            &s.by_turn,
        ),
    ];
    for (head, title, rows) in sections {
        let mut t = table(&[head, "played", "USSR wins", "US wins", "ties"]);
        for b in rows {
            tally_row(&mut t, &b.label, &b.tally);
        }
        let _ = writeln!(out, "{title}\n{t}");
    }
    let mut t = table(&[
        "player",
        "ladders",
        "ladder W-L-T",
        "quick W-L-T",
        "ladder USSR/US",
        "all USSR/US",
    ]);
    for p in &s.players {
        t.add_row(vec![
            Cell::new(&p.name),
            Cell::new(p.competitions.join(", ")),
            right(wlt(p.ladder.wins, p.ladder.losses, p.ladder.ties)),
            right(wlt(p.quick.wins, p.quick.losses, p.quick.ties)),
            right(format!("{}/{}", p.ladder_ussr, p.ladder_us)),
            right(format!("{}/{}", p.all_ussr, p.all_us)),
        ]);
    }
    let _ = writeln!(out, "Players\n{t}\n{}", s.matching);
    out
}
