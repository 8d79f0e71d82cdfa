//! `arbiter what-if` for every format: hypothetical results entered, the
//! ladder after the close, an XMadn league's table, or a Sunjang season's
//! groups and the next season's plan, a round-robin league's table, computed on a copy: nothing is stored
//! (see `arbiter_service::what_if`).

use anyhow::Result;
use arbiter_service::format::CompetitionFormat;
use arbiter_service::what_if::AnyWhatIfView;

use crate::args::WhatIfArgs;
use crate::run::{Globals, Svc, Usage, competition, print_json};

pub async fn run(svc: &Svc, g: &Globals, a: &WhatIfArgs) -> Result<()> {
    let id = competition(svc, g).await?;
    if svc.format_of(&id).await? == CompetitionFormat::TwsLadder {
        // The ladder's own output, unchanged.
        return crate::insight::what_if(svc, g, a).await;
    }
    let mut results = Vec::new();
    for r in &a.results {
        let Some((key, value)) = r.split_once('=') else {
            return Err(Usage(format!(
                "--result {r:?}: use KEY=VALUE, e.g. Ames-Baker=4-2@20:10 (XMadn), Kim-Lee=black (Sunjang) or Spain-Germany=1-1 (round robin)"
            ))
            .into());
        };
        results.push((key.to_string(), value.to_string()));
    }
    let v = svc.what_if_any(&id, &results, g.now()).await?;
    if g.json {
        return print_json(&v);
    }
    let done = |results: &[String]| {
        let mut s = String::from("What if (nothing is stored):\n");
        for r in results {
            s.push_str(&format!("  {r}\n"));
        }
        s
    };
    match &v {
        AnyWhatIfView::Ladder(l) => {
            out!("{}", done(&l.results));
            out!("{}", crate::insight::render_what_if_ladder(l));
        }
        AnyWhatIfView::League(l) => {
            out!("{}", done(&l.results));
            out!("\n{}", crate::xmadn::render_league(&l.league));
        }
        AnyWhatIfView::RoundRobin(r) => {
            out!("{}", done(&r.results));
            out!("\n{}", crate::roundrobin::show(&r.league));
        }
        AnyWhatIfView::Sunjang(s) => {
            out!("{}", done(&s.results));
            out!("\n{}", crate::sunjang::render_season(&s.season, false));
            match (&s.next_season, &s.no_plan) {
                (Some(next), _) => {
                    out!(
                        "\nNext season's plan after the close (a preview):\n{}",
                        crate::sunjang::render_season(next, false)
                    );
                }
                (None, Some(why)) => outln!("\nNo plan of the next season: {why}."),
                (None, None) => {}
            }
        }
    }
    Ok(())
}
