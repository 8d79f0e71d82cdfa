//! `arbiter ratings` and `arbiter project`: ratings (ARB-R46) and
//! Monte-Carlo projections (ARB-R48) of the competition.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::Result;
use arbiter_service::insight::{
    ProjectionRequest, ProjectionView, RatingScope, RatingSystem, RatingsView,
};
use comfy_table::Cell;

use crate::args::{ProjectArgs, RatingsArgs, RatingsCmd, WhatIfArgs};
use crate::render::{right, table};
use crate::run::{Globals, Svc, Usage, competition, print_json};

fn system(text: &str) -> Result<RatingSystem> {
    text.parse::<RatingSystem>()
        .map_err(|e| Usage(format!("--system: {e}")).into())
}

pub async fn ratings(svc: &Svc, g: &Globals, a: &RatingsArgs) -> Result<()> {
    let id = competition(svc, g).await?;
    let sys = system(&a.system)?;
    let scope = if a.all {
        RatingScope::Installation
    } else {
        RatingScope::Competition
    };
    match &a.cmd {
        Some(RatingsCmd::AreaReport { round }) => {
            let v = svc.area_report(&id, *round).await?;
            if g.json {
                return print_json(&v);
            }
            out!("{}", v.text);
        }
        Some(RatingsCmd::History { player }) => {
            let v = svc.ratings(&id, sys, scope).await?;
            let Some(p) = v.find(player) else {
                anyhow::bail!(
                    "{player:?} has no rated game in {}",
                    v.competitions.join(", ")
                );
            };
            if g.json {
                return print_json(p);
            }
            out!("{}", history(&v, p));
        }
        None => {
            let v = svc.ratings(&id, sys, scope).await?;
            if g.json {
                return print_json(&v);
            }
            out!("{}", ratings_table(&v));
        }
    }
    Ok(())
}

fn rating(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn ratings_table(v: &RatingsView) -> String {
    let glicko = v.system == RatingSystem::Glicko2;
    let mut header = vec!["#", "player", "rating", "games"];
    if glicko {
        header.extend(["deviation", "volatility"]);
    }
    let mut t = table(&header);
    for p in &v.players {
        let mut row = vec![
            right(p.rank),
            Cell::new(&p.player),
            right(rating(p.rating)),
            right(p.games),
        ];
        if glicko {
            row.push(right(p.deviation.map(rating).unwrap_or_default()));
            row.push(right(
                p.volatility.map(|x| format!("{x:.4}")).unwrap_or_default(),
            ));
        }
        t.add_row(row);
    }
    format!(
        "{} ratings of {} ({} rated games; {}):\n{t}\n",
        v.system_name,
        v.competitions.join(", "),
        v.games,
        v.ruling
    )
}

fn history(v: &RatingsView, p: &arbiter_service::insight::PlayerRatingView) -> String {
    let several = v.competitions.len() > 1;
    let mut header = vec!["period"];
    if several {
        header.push("competition");
    }
    header.extend(["game", "rating"]);
    let mut t = table(&header);
    for h in &p.history {
        let mut row = vec![right(h.period)];
        if several {
            row.push(Cell::new(h.competition.clone().unwrap_or_default()));
        }
        row.push(Cell::new(h.game.clone().unwrap_or_default()));
        row.push(right(rating(h.rating)));
        t.add_row(row);
    }
    format!(
        "{} ({} rating {}, {} rated games):\n{t}\n",
        p.player,
        v.system_name,
        rating(p.rating),
        p.games
    )
}

pub async fn project(svc: &Svc, g: &Globals, a: &ProjectArgs) -> Result<()> {
    let id = competition(svc, g).await?;
    let request = ProjectionRequest {
        seasons: Some(a.seasons),
        seed: a.seed.clone(),
        rounds: Some(a.rounds),
        system: Some(system(&a.system)?),
    };
    // A progress bar of the simulated seasons, on a terminal only (nothing
    // is drawn when stderr is not one).
    let loaded = svc.projection_input(&id).await?;
    let v = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(u64::from(a.seasons));
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{msg} {wide_bar} {pos}/{len} seasons ({elapsed}, {eta} left)",
        ) {
            bar.set_style(style);
        }
        bar.set_message("simulating");
        bar.enable_steady_tick(Duration::from_millis(200));
        let v = loaded.project_with_progress(&request, &mut |done, total| {
            bar.set_length(total);
            bar.set_position(done);
        });
        bar.finish_and_clear();
        v
    } else {
        loaded.project(&request)
    };
    let v = v?;
    if g.json {
        return print_json(&v);
    }
    out!("{}", projection(&v));
    Ok(())
}

/// A probability as a percentage with one decimal ("<0.1%" for a count
/// too small to show, "-" for none).
pub fn percent(count: u32, seasons: u32) -> String {
    if count == 0 {
        return "-".into();
    }
    let p = f64::from(count) * 100.0 / f64::from(seasons.max(1));
    if p < 0.05 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

fn projection(v: &ProjectionView) -> String {
    let mut out = format!(
        "Projection of {} over {} simulated seasons{} ({}).\nSeed {}\nOdds: {}.\n",
        v.competition,
        v.seasons,
        v.rounds
            .map(|r| format!(", the running round and {r} more"))
            .unwrap_or_default(),
        v.ruling,
        v.seed,
        v.model
    );
    for grp in &v.groups {
        let mut header = vec!["player"];
        header.extend(grp.outcomes.iter().map(|o| o.label.as_str()));
        let mut t = table(&header);
        for p in &grp.players {
            let mut row = vec![Cell::new(&p.player)];
            row.extend(
                p.outcomes
                    .iter()
                    .map(|c| right(percent(c.count, v.seasons))),
            );
            t.add_row(row);
        }
        out.push_str(&format!("\n{}:\n{t}\n", grp.title));
    }
    out
}

pub async fn what_if(svc: &Svc, g: &Globals, a: &WhatIfArgs) -> Result<()> {
    let id = competition(svc, g).await?;
    let mut results = Vec::new();
    for r in &a.results {
        let Some((game, winner)) = r.split_once('=') else {
            return Err(Usage(format!("--result {r:?}: use GAME=WINNER, e.g. G12=Tanaka")).into());
        };
        results.push((game.to_string(), winner.to_string()));
    }
    let v = svc.what_if(&id, &results, g.now()).await?;
    if g.json {
        return print_json(&v);
    }
    out!("What if (nothing is stored):\n");
    for r in &v.results {
        out!("  {r}\n");
    }
    out!("{}", render_what_if_ladder(&v));
    Ok(())
}

/// The close and the ladder after it, or, with games still undecided,
/// each player's best and worst rung at the close (issue 15, item 5).
pub fn render_what_if_ladder(v: &arbiter_service::insight::WhatIfView) -> String {
    let mut out = String::new();
    if let Some(close) = &v.close {
        out.push_str(&format!("\n{}", crate::render::close(close)));
    }
    if let Some(ladder) = &v.ladder {
        out.push_str(&format!("\n{}", crate::render::ladder(ladder)));
    }
    if let Some(p) = &v.possible {
        out.push_str(&format!(
            "\nRound {} cannot close yet: {} game(s) undecided ({}).\nRungs still possible at the close: {}.\n",
            p.round,
            p.undecided.len(),
            p.undecided.join(", "),
            p.how
        ));
        let mut t = comfy_table::Table::new();
        t.load_preset(comfy_table::presets::NOTHING);
        t.set_header(["rung now", "player", "best", "worst", ""]);
        let rung = |r: Option<u32>| r.map_or("-".to_string(), |r| r.to_string());
        for r in &p.players {
            t.add_row([
                r.now.to_string(),
                r.name.clone(),
                rung(r.best),
                rung(r.worst),
                if r.may_retire {
                    "may leave for the inactive list (TWS-R4)".to_string()
                } else {
                    String::new()
                },
            ]);
        }
        out.push_str(&format!("{t}\n"));
    }
    out
}
