//! `arbiter round-robin ...`: the general round-robin league (issue 16;
//! ARB-R67, ARB-R68) from the command line.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use arbiter_engine::roundrobin::{Command, RoundRobin, RoundRobinRules};
use arbiter_service::forum::Markup;
use arbiter_service::roundrobin::{
    RoundRobinView, find_game, find_player, parse_score, read_score, round_robin_view, views,
};
use clap::Subcommand;
use comfy_table::Cell;

use crate::render::{right, table};
use crate::run::{Globals, Svc, Usage, competition, parse_deadline, print_json, report_written};

/// `arbiter round-robin …`, the format's noun.
#[derive(Debug, Subcommand)]
pub(crate) enum RoundRobinNoun {
    /// Round-robin leagues of 2 to 64 players or teams: a World Cup group, a chess or Go round robin, a 20-team double round robin; the table with every tiebreak explained.
    #[command(subcommand, name = "round-robin")]
    RoundRobin(RoundRobinCmd),
}

#[derive(Debug, Subcommand)]
pub enum RoundRobinCmd {
    /// Create a round-robin league (players can be added until it starts).
    Create {
        /// The id used on the command line, e.g. `wc-group-e`.
        id: String,
        #[arg(long)]
        name: String,
        /// The players or teams, in seeding order (repeat --player).
        #[arg(long = "player", value_name = "NAME")]
        players: Vec<String>,
        /// A preset [possible values: fifa-world-cup, uefa-euro, chess, go, xmadn].
        #[arg(long, default_value = "fifa-world-cup", conflicts_with = "rules")]
        preset: String,
        /// A rules file (TOML; `arbiter round-robin preset NAME` prints one to start from).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// 1 single, 2 double round robin, up to 10 (overrides the preset's).
        #[arg(long)]
        cycles: Option<u32>,
    },
    /// Print a preset's rules file, to save and edit.
    Preset {
        /// fifa-world-cup, uefa-euro, chess, go or xmadn.
        name: String,
    },
    /// Add a player or team before play starts (late entries are refused once it has, ARB-R68).
    Add { name: String },
    /// Fix the schedule (the FIDE Berger tables over the players in entry order) and begin.
    Start,
    /// The table with every place explained, and the rounds.
    Show,
    /// Why each player is where he is on the table.
    Explain {
        /// Only this player.
        player: Option<String>,
    },
    /// The schedule: every round and its games.
    Schedule,
    /// Record a result: the game by number (G3) or as HOME-AWAY, then the score (2-1; 1-0, ½-½ or 0-1 without scores; +:- -:+ -:- for forfeits).
    Result {
        /// G3, or HOME-AWAY (e.g. Spain-Germany).
        game: String,
        score: String,
        /// How long the game took, in minutes (quickness of victory).
        #[arg(long)]
        minutes: Option<u32>,
        /// The round, when the two meet more than once.
        #[arg(long)]
        round: Option<u32>,
    },
    /// Correct a recorded result, or clear it with --clear.
    Correct {
        /// G3, or HOME-AWAY.
        game: String,
        /// The corrected score.
        score: Option<String>,
        #[arg(long)]
        clear: bool,
        #[arg(long)]
        minutes: Option<u32>,
        #[arg(long)]
        round: Option<u32>,
        #[arg(long)]
        reason: String,
    },
    /// Set a round's deadline (RFC 3339, or YYYY-MM-DD: the end of that day in the league's time zone, ARB-R82), or clear it with --clear.
    Deadline {
        round: u32,
        deadline: Option<String>,
        #[arg(long)]
        clear: bool,
    },
    /// A player withdraws: his results stay or are annulled as the rules say (ARB-R68).
    Withdraw { name: String },
    /// Draw lots among tied players from the seed committed at the start.
    Lots {
        /// The tied players (two or more).
        #[arg(required = true, num_args = 2..)]
        players: Vec<String>,
    },
    /// Enter the order of a lot drawn by hand, best first.
    EnterLots {
        #[arg(required = true, num_args = 2..)]
        order: Vec<String>,
        /// How it was drawn ("drawn by the FIFA General Secretary").
        #[arg(long)]
        how: String,
    },
    /// Statistics: how the games ended, goals, the biggest wins, each player's form and runs.
    Stats,
    /// The table as a forum post.
    Export {
        /// bbcode or markdown.
        #[arg(long, default_value = "bbcode")]
        format: String,
    },
}

/// The presets' names, for messages.
fn preset_names() -> String {
    arbiter_record::roundrobin::PRESETS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

fn rules_text(g_rules: Option<&std::path::Path>, preset: &str) -> Result<String> {
    match g_rules {
        Some(path) => crate::input::read_rules(path),
        None => arbiter_record::roundrobin::round_robin_preset(preset)
            .map(str::to_string)
            .ok_or_else(|| {
                Usage(format!(
                    "--preset: there is no round-robin preset {preset:?}; presets: {}",
                    preset_names()
                ))
                .into()
            }),
    }
}

impl crate::formats::CliFormat for RoundRobin {
    const NOUN: Option<&'static str> = Some("round-robin");
    async fn show(svc: &Svc, g: &Globals) -> Result<()> {
        run(svc, g, &RoundRobinCmd::Show).await
    }
    fn what_if(v: &arbiter_service::roundrobin::what_if::RoundRobinWhatIfView) -> String {
        format!("\n{}", show(&v.league))
    }
    type Noun = RoundRobinNoun;
    async fn run(noun: &RoundRobinNoun, svc: &Svc, g: &Globals) -> Result<()> {
        let RoundRobinNoun::RoundRobin(cmd) = noun;
        run(svc, g, cmd).await
    }
    fn creates(noun: &RoundRobinNoun) -> bool {
        matches!(
            noun,
            RoundRobinNoun::RoundRobin(RoundRobinCmd::Create { .. })
        )
    }
}

pub async fn run(svc: &Svc, g: &Globals, cmd: &RoundRobinCmd) -> Result<()> {
    match cmd {
        RoundRobinCmd::Create {
            id,
            name,
            players,
            preset,
            rules,
            cycles,
        } => {
            let text = rules_text(rules.as_deref(), preset)?;
            let mut parsed: RoundRobinRules =
                arbiter_record::roundrobin::parse_round_robin_rules(&text).map_err(|e| {
                    anyhow!("{}: {e}", crate::csv::source(rules.as_deref(), preset))
                })?;
            if let Some(c) = cycles {
                parsed.cycles = *c;
                parsed
                    .validate()
                    .map_err(|e| Usage(format!("--cycles: {}", e.message)))?;
            }
            let done = svc
                .create_round_robin(id, name, parsed, players, &g.ctx())
                .await?;
            if g.json {
                return print_json(&serde_json::json!({"competition": id, "version": done.last}));
            }
            outln!(
                "Created round-robin league {id} ({name}, {} players), version {}.",
                players.len(),
                done.last
            );
            outln!(
                "Next: `arbiter -c {id} round-robin add NAME` for each player not yet in, then `round-robin start`."
            );
            return Ok(());
        }
        RoundRobinCmd::Preset { name } => {
            let text = rules_text(None, name)?;
            out!("{text}");
            return Ok(());
        }
        _ => {}
    }
    let comp = competition(svc, g).await?;
    let (rr, version) = svc.load_as::<RoundRobin>(&comp, None).await?;
    let ctx = g.ctx();
    let at = g.now();
    macro_rules! exec {
        ($done:expr) => {{
            let done = $done;
            let (after, _) = svc.load_as::<RoundRobin>(&comp, None).await?;
            report_written::<RoundRobin>(g, &done, |e| {
                arbiter_service::roundrobin::describe(&after, e)
            })?;
        }};
    }
    let execute = |c: Command| svc.execute_as::<RoundRobin>(&comp, c, &ctx);
    match cmd {
        RoundRobinCmd::Create { .. } | RoundRobinCmd::Preset { .. } => {}
        RoundRobinCmd::Add { name } => {
            exec!(execute(Command::AddPlayer { name: name.clone() }).await?)
        }
        RoundRobinCmd::Start => exec!(svc.start_round_robin(&comp, None, &ctx).await?),
        RoundRobinCmd::Show => {
            let v = round_robin_view(&rr, &comp, version);
            if g.json {
                return print_json(&v);
            }
            out!("{}", show(&v));
        }
        RoundRobinCmd::Explain { player } => {
            let v = round_robin_view(&rr, &comp, version);
            let rows: Vec<_> = v
                .table
                .iter()
                .filter(|r| {
                    player.as_deref().is_none_or(|p| {
                        arbiter_engine::model::name_key(p)
                            == arbiter_engine::model::name_key(&r.player)
                    })
                })
                .collect();
            if let Some(p) = player
                && rows.is_empty()
            {
                find_player(&rr, p, "player")?;
            }
            if g.json {
                return print_json(&rows);
            }
            for r in rows {
                outln!("{}", r.explanation.line());
            }
        }
        RoundRobinCmd::Stats => {
            let v = arbiter_service::roundrobin::stats::round_robin_stats(&rr);
            if g.json {
                return print_json(&v);
            }
            out!("{}", stats(&v, rr.rules.scores));
        }
        RoundRobinCmd::Schedule => {
            let v = round_robin_view(&rr, &comp, version);
            if g.json {
                return print_json(&v.rounds);
            }
            out!("{}", schedule(&v));
        }
        RoundRobinCmd::Result {
            game,
            score,
            minutes,
            round,
        } => {
            let (game, score) = read_score(&rr, game, score, *round)?;
            exec!(
                execute(Command::Record {
                    game,
                    score,
                    minutes: *minutes,
                    at,
                })
                .await?
            )
        }
        RoundRobinCmd::Correct {
            game,
            score,
            clear,
            minutes,
            round,
            reason,
        } => {
            let (game, reversed) = find_game(&rr, game, *round)?;
            let score = match (score, clear) {
                (Some(s), false) => {
                    let s = parse_score(&rr, s)?;
                    Some(if reversed { s.swapped() } else { s })
                }
                (None, true) => None,
                _ => {
                    return Err(Usage(
                        "give the corrected score, or --clear to clear the result".into(),
                    )
                    .into());
                }
            };
            exec!(
                execute(Command::Correct {
                    game,
                    score,
                    minutes: *minutes,
                    reason: reason.clone(),
                    at,
                })
                .await?
            )
        }
        RoundRobinCmd::Deadline {
            round,
            deadline,
            clear,
        } => {
            let deadline = match (deadline, clear) {
                (Some(d), false) => {
                    let zone = svc.time_zone(&comp).await?;
                    Some(
                        parse_deadline(d, zone)
                            .map_err(|e| Usage(format!("deadline {d:?}: {e}")))?,
                    )
                }
                (None, true) => None,
                _ => {
                    return Err(Usage("give the deadline, or --clear to clear it".into()).into());
                }
            };
            exec!(
                execute(Command::SetDeadline {
                    round: *round,
                    deadline,
                })
                .await?
            )
        }
        RoundRobinCmd::Withdraw { name } => {
            let player = find_player(&rr, name, "player")?;
            exec!(execute(Command::Withdraw { player, at }).await?)
        }
        RoundRobinCmd::Lots { players } => {
            let ids = players
                .iter()
                .map(|p| find_player(&rr, p, "players"))
                .collect::<Result<Vec<_>, _>>()?;
            exec!(svc.draw_round_robin_lots(&comp, ids, &ctx).await?)
        }
        RoundRobinCmd::EnterLots { order, how } => {
            let order = order
                .iter()
                .map(|p| find_player(&rr, p, "order"))
                .collect::<Result<Vec<_>, _>>()?;
            exec!(
                execute(Command::EnterLots {
                    order,
                    how: how.clone(),
                    at,
                })
                .await?
            )
        }
        RoundRobinCmd::Export { format } => {
            let markup = Markup::parse(format).ok_or_else(|| {
                Usage(format!(
                    "--format must be bbcode or markdown, not {format:?}"
                ))
            })?;
            let v = round_robin_view(&rr, &comp, version);
            out!("{}", views::forum_table(markup, &v));
        }
    }
    Ok(())
}

/// The table, then the explanation of every place.
pub(crate) fn show(v: &RoundRobinView) -> String {
    let mut out = format!(
        "{} — {}\n{}. Points: {}. Tiebreaks: {} (head-to-head {}).\n{} of {} games played{}.\n",
        v.name,
        v.competition,
        v.regulation,
        v.points,
        if v.tiebreaks.is_empty() {
            "none".to_string()
        } else {
            v.tiebreaks.join(", ")
        },
        v.head_to_head,
        v.games_played,
        v.games,
        if !v.started {
            "; not started (`round-robin start`)"
        } else if v.finished {
            "; final"
        } else {
            ""
        }
    );
    let mut header = vec!["#", "player", "P", "W", "D", "L"];
    if v.scores {
        header.extend(["+", "-", "±"]);
    }
    header.push("pts");
    let ids: Vec<String> = v.tiebreaks.clone();
    let mut head: Vec<&str> = header.clone();
    head.extend(ids.iter().map(String::as_str));
    let mut t = table(&head);
    for r in &v.table {
        let mut cells = vec![
            right(r.place),
            Cell::new(if r.withdrawn {
                format!("{} (withdrawn)", r.player)
            } else {
                r.player.clone()
            }),
            right(r.played),
            right(r.won),
            right(r.drawn),
            right(r.lost),
        ];
        if v.scores {
            cells.extend([right(r.scored), right(r.conceded), right(r.difference)]);
        }
        cells.push(right(&r.points));
        cells.extend(r.tiebreaks.iter().map(|c| right(&c.value)));
        t.add_row(cells);
    }
    out.push_str(&format!("{t}\n"));
    for r in &v.table {
        out.push_str(&format!("  - {}\n", r.explanation.line()));
    }
    for l in &v.lots {
        out.push_str(&format!("Lots: {} ({}).\n", l.order.join(", "), l.how));
    }
    out
}

/// The statistics in words and a table of the players' form.
fn stats(v: &arbiter_service::roundrobin::stats::RoundRobinStatsView, scores: bool) -> String {
    let (first, second) = if scores {
        ("home", "away")
    } else {
        ("white", "black")
    };
    let mut out = format!(
        "{} games played, {} forfeited, {} left.\n{} won {first}, {} drawn, {} won {second}.\n",
        v.played, v.forfeits, v.left, v.home_wins, v.draws, v.away_wins
    );
    if let (Some(goals), Some(per)) = (v.goals, &v.goals_per_game) {
        out.push_str(&format!("{goals} goals, {per} a game.\n"));
    }
    let games = |list: &[arbiter_service::roundrobin::stats::NotableGameView]| {
        list.iter()
            .map(|g| {
                format!(
                    "{} {} {} {} (round {})",
                    g.label, g.home, g.score, g.away, g.round
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    if !v.biggest_wins.is_empty() {
        out.push_str(&format!("Biggest win: {}.\n", games(&v.biggest_wins)));
    }
    if !v.most_goals.is_empty() {
        out.push_str(&format!("Most goals: {}.\n", games(&v.most_goals)));
    }
    let mut head = vec![
        "player",
        "form",
        "unbeaten now",
        "longest unbeaten",
        "longest winning",
    ];
    if scores {
        head.push("clean sheets");
    }
    let mut t = table(&head);
    for p in &v.players {
        let mut cells = vec![
            Cell::new(&p.player),
            Cell::new(&p.form),
            right(p.unbeaten_now),
            right(p.longest_unbeaten),
            right(p.longest_winning),
        ];
        if scores {
            cells.push(right(p.clean_sheets));
        }
        t.add_row(cells);
    }
    out.push_str(&format!("{t}\n"));
    out
}

/// Every round and its games.
fn schedule(v: &RoundRobinView) -> String {
    let mut out = String::new();
    for r in &v.rounds {
        out.push_str(&format!(
            "Round {}{}\n",
            r.number,
            r.deadline
                .as_ref()
                .map_or(String::new(), |d| format!(" (due {d})"))
        ));
        for gm in &r.games {
            out.push_str(&format!(
                "  {:>4}  {} v {}  {}\n",
                gm.label,
                gm.home,
                gm.away,
                gm.score.as_deref().unwrap_or("—")
            ));
        }
        if !r.byes.is_empty() {
            out.push_str(&format!("  bye: {}\n", r.byes.join(", ")));
        }
    }
    if v.rounds.is_empty() {
        out.push_str("Not started: the schedule is fixed by `round-robin start`.\n");
    }
    out
}
