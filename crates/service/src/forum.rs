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
pub(crate) fn escape(markup: Markup, s: &str) -> String {
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

/// A player's cell: his name, marked when he plays as eliminator (the game
/// is a quick-round game for him, a ladder game for his opponent).
fn player_cell(name: &str, counts: &str) -> String {
    if counts == "ladder" {
        name.to_string()
    } else {
        format!("{name} (eliminator: a quick-round game for this player)")
    }
}

/// The game's name, with where it moved if it was carried over (ARB-R21).
fn game_cell(g: &crate::views::GameView, number: u32) -> String {
    match g.carry_note(number) {
        Some(note) => format!("{} ({note})", g.name),
        None => g.name.clone(),
    }
}

/// The result of a game as the forum shows it, if decided or reported.
fn result_cell(g: &crate::views::GameView) -> String {
    if let Some(reason) = &g.cancel_reason {
        return format!("cancelled: {reason}");
    }
    if let Some(r) = &g.result {
        return format!("{}, {} ({})", r.who(), r.ended_by, g.status);
    }
    // ARB-R45: a report is shown until it is confirmed or rejected.
    g.report
        .as_ref()
        .map_or_else(String::new, crate::views::ReportView::summary)
}

/// The announcement of a round; once games are decided, with their results.
pub fn announcement(markup: Markup, r: &RoundView) -> String {
    let e = |s: &str| escape(markup, s);
    let mut out = String::new();
    let title = format!("{} — Round {}", r.ladder, r.number);
    let intro = format!(
        "Round {} was announced on {}. Deadline: {} (strict). Automatic bid: {}, placed after initial influence placement and before the first headline phase. Games are played on {}.{}",
        r.number,
        r.announced,
        r.deadline,
        r.bid,
        r.platform,
        match (&r.closed_early, r.closed) {
            (Some(reason), _) => format!(
                " The round was closed early ({reason}): its unfinished games count in the next round."
            ),
            (None, true) => " The round is closed.".to_string(),
            (None, false) => String::new(),
        }
    );
    let any_result = r
        .games
        .iter()
        .any(|g| g.status != "scheduled" || g.report.is_some());
    match markup {
        Markup::BbCode => {
            out.push_str(&format!("[b][size=150]{}[/size][/b]\n\n", e(&title)));
            out.push_str(&e(&intro));
            out.push_str("\n\n[b]Pairings[/b]\n[list]\n");
            for g in &r.games {
                let result = result_cell(g);
                out.push_str(&format!(
                    "[*][b]{}[/b] — USSR: {}, US: {}; moderator: {}{}\n[size=85]Sides: {}[/size]\n",
                    e(&game_cell(g, r.number)),
                    e(&player_cell(&g.ussr, &g.ussr_counts)),
                    e(&player_cell(&g.us, &g.us_counts)),
                    e(g.moderator.as_deref().unwrap_or("-")),
                    if result.is_empty() {
                        String::new()
                    } else {
                        format!(" — [b]{}[/b]", e(&result))
                    },
                    e(&g.sides.line())
                ));
            }
            out.push_str("[/list]\n");
        }
        Markup::Markdown => {
            out.push_str(&format!("## {}\n\n{}\n\n", e(&title), e(&intro)));
            if any_result {
                out.push_str("| Game | USSR | US | Moderator | Result |\n|---|---|---|---|---|\n");
            } else {
                out.push_str("| Game | USSR | US | Moderator |\n|---|---|---|---|\n");
            }
            for g in &r.games {
                out.push_str(&format!(
                    "| {} | {} | {} | {} |",
                    e(&game_cell(g, r.number)),
                    e(&player_cell(&g.ussr, &g.ussr_counts)),
                    e(&player_cell(&g.us, &g.us_counts)),
                    e(g.moderator.as_deref().unwrap_or("-"))
                ));
                if any_result {
                    out.push_str(&format!(" {} |", e(&result_cell(g))));
                }
                out.push('\n');
            }
            out.push_str("\n**Why these sides**\n\n");
            for g in &r.games {
                out.push_str(&format!("- {}: {}\n", e(&g.name), e(&g.sides.line())));
            }
        }
    }
    let mut notes = Vec::new();
    for s in &r.skips {
        notes.push(s.describe());
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
    let verify = format!("arbiter draw verify --round {}", r.number);
    match markup {
        Markup::BbCode => out.push_str(&format!(
            "\n[i]Name your game exactly as above. Games not completed by {} go to agreement, then adjudication. Side draws use seed {} (check them with [code]{verify}[/code]).[/i]\n",
            r.deadline, r.seed
        )),
        Markup::Markdown => out.push_str(&format!(
            "\n*Name your game exactly as above. Games not completed by {} go to agreement, then adjudication. Side draws use seed {} (check them with `{verify}`).*\n",
            r.deadline, r.seed
        )),
    }
    out
}
