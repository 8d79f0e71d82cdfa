//! Forum announcements of a round, in BBCode and Markdown: pairings, sides,
//! game names, moderators, the deadline and the automatic bid ("Notifications
//! of assignments for each round will generally be made by e-mail, and posted
//! on this thread").

use crate::views::RoundView;

/// The markup of a forum post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    BbCode,
    Markdown,
}

impl Markup {
    pub fn parse(s: &str) -> Option<Markup> {
        match s.to_ascii_lowercase().as_str() {
            "bbcode" | "bb" => Some(Markup::BbCode),
            "markdown" | "md" => Some(Markup::Markdown),
            _ => None,
        }
    }
}

/// Keep user text from being read as markup.
fn escape(markup: Markup, s: &str) -> String {
    match markup {
        Markup::BbCode => s.replace('[', "(").replace(']', ")"),
        Markup::Markdown => {
            let mut out = String::with_capacity(s.len());
            for c in s.chars() {
                if matches!(
                    c,
                    '\\' | '*' | '_' | '`' | '[' | ']' | '|' | '<' | '>' | '#'
                ) {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        }
    }
}

/// The announcement of a round.
pub fn announcement(markup: Markup, r: &RoundView) -> String {
    let e = |s: &str| escape(markup, s);
    let mut out = String::new();
    let title = format!("{} — Round {}", r.ladder, r.number);
    let intro = format!(
        "Round {} is announced on {}. Deadline: {} (strict). Automatic bid: {}, placed after initial influence placement and before the first headline phase. Games are played on {}.",
        r.number, r.announced, r.deadline, r.bid, r.platform
    );
    match markup {
        Markup::BbCode => {
            out.push_str(&format!("[b][size=150]{}[/size][/b]\n\n", e(&title)));
            out.push_str(&e(&intro));
            out.push_str("\n\n[b]Pairings[/b]\n[list]\n");
            for g in &r.games {
                out.push_str(&format!(
                    "[*][b]{}[/b] — USSR: {}, US: {}{}; moderator: {}\n[size=85]Sides: {}[/size]\n",
                    e(&g.name),
                    e(&g.ussr),
                    e(&g.us),
                    counts_note(&g.ussr_counts, &g.us_counts, &g.ussr, &g.us),
                    e(g.moderator.as_deref().unwrap_or("-")),
                    e(&g.sides.line())
                ));
            }
            out.push_str("[/list]\n");
        }
        Markup::Markdown => {
            out.push_str(&format!("## {}\n\n{}\n\n", e(&title), e(&intro)));
            out.push_str("| Game | USSR | US | Moderator |\n|---|---|---|---|\n");
            for g in &r.games {
                out.push_str(&format!(
                    "| {} | {} | {}{} | {} |\n",
                    e(&g.name),
                    e(&g.ussr),
                    e(&g.us),
                    e(&counts_note(&g.ussr_counts, &g.us_counts, &g.ussr, &g.us)),
                    e(g.moderator.as_deref().unwrap_or("-"))
                ));
            }
            out.push_str("\n**Why these sides**\n\n");
            for g in &r.games {
                out.push_str(&format!("- {}: {}\n", e(&g.name), e(&g.sides.line())));
            }
        }
    }
    let mut notes = Vec::new();
    for s in &r.skips {
        notes.push(if s.counts_as_loss {
            format!(
                "{} skips (consecutive skip {}: counted as a loss, TWS-R2)",
                s.name, s.consecutive
            )
        } else {
            format!("{} skips and keeps rung number {} (TWS-R3)", s.name, s.rung)
        });
    }
    for b in &r.byes {
        notes.push(format!(
            "{b} has a bye (odd last player, no eliminator) and keeps the rung number (TWS-R10)"
        ));
    }
    if !notes.is_empty() {
        match markup {
            Markup::BbCode => {
                out.push_str("\n[b]Not playing this round[/b]\n[list]\n");
                for n in &notes {
                    out.push_str(&format!("[*]{}\n", e(n)));
                }
                out.push_str("[/list]\n");
            }
            Markup::Markdown => {
                out.push_str("\n**Not playing this round**\n\n");
                for n in &notes {
                    out.push_str(&format!("- {}\n", e(n)));
                }
            }
        }
    }
    let footer = format!(
        "Name your game exactly as above. Games not completed by {} go to agreement, then adjudication. Side draws use seed {} (verify with `arbiter draw verify --round {}`).",
        r.deadline, r.seed, r.number
    );
    match markup {
        Markup::BbCode => out.push_str(&format!("\n[i]{}[/i]\n", e(&footer))),
        Markup::Markdown => out.push_str(&format!("\n*{}*\n", e(&footer))),
    }
    out
}

fn counts_note(ussr_counts: &str, us_counts: &str, ussr: &str, us: &str) -> String {
    if ussr_counts == us_counts {
        String::new()
    } else if ussr_counts != "ladder" {
        format!(" (eliminator {ussr}: a quick-round game for him)")
    } else {
        format!(" (eliminator {us}: a quick-round game for him)")
    }
}
