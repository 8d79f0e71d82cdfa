//! `arbiter clinch [GROUP]`: what is still possible (ARB-R47): for each
//! player of an XMadn league or of each Sunjang group with games left, and
//! each zone, clinched, eliminated or open, with the reason.

use anyhow::Result;
use arbiter_service::clinch::{ClinchView, VerdictKey};
use comfy_table::Cell;

use crate::args::ClinchArgs;
use crate::render::{right, table};
use crate::run::{Globals, Svc, competition, print_json};

pub async fn clinch(svc: &Svc, g: &Globals, a: &ClinchArgs) -> Result<()> {
    let id = competition(svc, g).await?;
    let v = svc.clinch(&id, a.group.as_deref()).await?;
    if g.json {
        return print_json(&v);
    }
    out!("{}", render(&v));
    Ok(())
}

/// A verdict in a table cell.
fn short(v: VerdictKey) -> &'static str {
    match v {
        VerdictKey::Clinched => "clinched",
        VerdictKey::ClinchedUnlessDie => "clinched*",
        VerdictKey::Eliminated => "out",
        VerdictKey::EliminatedUnlessDie => "out*",
        VerdictKey::Open => "open",
        VerdictKey::Undetermined => "?",
    }
}

fn render(v: &ClinchView) -> String {
    let mut out = format!(
        "What is still possible in {}{} ({}):\n",
        v.competition,
        v.season
            .map(|s| format!(", season {s}"))
            .unwrap_or_default(),
        v.ruling
    );
    if let Some(note) = &v.note {
        out.push_str(note);
        out.push('\n');
    }
    for grp in &v.groups {
        let mut header = vec!["player".to_string(), "now".to_string(), "left".to_string()];
        header.extend(
            grp.zones
                .iter()
                .map(|z| format!("{} ({})", z.name, z.places)),
        );
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut t = table(&header);
        for p in &grp.players {
            let mut row = vec![Cell::new(&p.player), right(&p.now), right(p.games_left)];
            row.extend(p.verdicts.iter().map(|x| Cell::new(short(x.verdict))));
            t.add_row(row);
        }
        out.push_str(&format!(
            "\n{}: {} game{} left{}:\n{t}\n",
            grp.title,
            grp.games_left,
            if grp.games_left == 1 { "" } else { "s" },
            if grp.exact {
                ""
            } else {
                "; ? = not proven within the search's budget"
            }
        ));
        out.push_str(
            "* unless a tie across the zone's edge is left to the die or the organizer's record\n",
        );
        for p in &grp.players {
            for x in &p.verdicts {
                if x.verdict != VerdictKey::Open {
                    out.push_str(&format!(
                        "  {}. ({}; {})\n",
                        x.text,
                        x.clause,
                        x.rulings.join(", ")
                    ));
                }
            }
        }
    }
    out
}
