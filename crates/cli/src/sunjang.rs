//! `arbiter sunjang ...`: the Sunjang league from the command line.

use anyhow::{Result, anyhow};
use arbiter_engine::sunjang::layout::Proposal;
use arbiter_engine::sunjang::planner::PlanOutcome;
use arbiter_engine::sunjang::season::{self, League, Season};
use arbiter_engine::sunjang::{PlayerInfo, Rank, division_letter};
use arbiter_service::forum::Markup;
use arbiter_service::sunjang::{
    SeasonView, layout_groups, layout_moves, parse_outcome, parse_rank_range,
    parse_restriction_row, preview_view, restriction_lines, season_forum, season_view,
    sunjang_view,
};
use comfy_table::Cell;

use crate::args::{
    FinalCmd, SeasonCmd, SunjangCmd, SunjangPlayerArgs, SunjangPlayerCmd, SunjangUpdateArgs,
    TiebreakCmd,
};
use crate::render::{right, table};
use crate::run::{Globals, Svc, Usage, competition, print_json, report_written};

fn usage(msg: String) -> anyhow::Error {
    Usage(msg).into()
}

fn outcome(s: &str) -> Result<arbiter_engine::sunjang::group::Outcome> {
    parse_outcome(s).ok_or_else(|| {
        usage(format!(
            "--outcome {s:?}: use black, white, jigo, black-forfeits, white-forfeits or both-forfeit"
        ))
    })
}

fn rank(s: &str, field: &str) -> Result<(Rank, bool)> {
    Rank::parse(s).map_err(|e| usage(format!("{field}: {}", e.message)))
}

fn info(a: &SunjangPlayerArgs) -> Result<PlayerInfo> {
    let (r, provisional) = rank(&a.rank, "--rank")?;
    Ok(PlayerInfo {
        name: a.name.trim().to_string(),
        rank: r,
        provisional: provisional || a.provisional,
        rating: a.rating,
        corr_rank: a
            .corr_rank
            .as_deref()
            .map(|c| rank(c, "--corr-rank").map(|x| x.0))
            .transpose()?,
        corr_rating: a.corr_rating,
    })
}

/// The player's figures after an update: only the fields given change
/// (`old` is his current record; `None` checks the fields alone). An update
/// without a field is refused.
fn updated(a: &SunjangUpdateArgs, old: Option<&PlayerInfo>) -> Result<Option<PlayerInfo>> {
    if a.rank.is_none()
        && !a.provisional
        && !a.not_provisional
        && a.rating.is_none()
        && a.corr_rank.is_none()
        && a.corr_rating.is_none()
    {
        return Err(usage(format!(
            "player update {:?}: give at least one field to change (--rank, --provisional, --not-provisional, --rating, --corr-rank, --corr-rating)",
            a.name
        )));
    }
    let new_rank = a.rank.as_deref().map(|r| rank(r, "--rank")).transpose()?;
    let corr_rank = a
        .corr_rank
        .as_deref()
        .map(|c| rank(c, "--corr-rank").map(|x| x.0))
        .transpose()?;
    let Some(old) = old else {
        return Ok(None);
    };
    let mut info = old.clone();
    if let Some((r, provisional)) = new_rank {
        info.rank = r;
        // A new rank is provisional only if it says so (`3k?` or the flag).
        info.provisional = provisional;
    }
    if a.provisional {
        info.provisional = true;
    }
    if a.not_provisional {
        info.provisional = false;
    }
    if let Some(r) = a.rating {
        info.rating = r;
    }
    if corr_rank.is_some() {
        info.corr_rank = corr_rank;
    }
    if a.corr_rating.is_some() {
        info.corr_rating = a.corr_rating;
    }
    Ok(Some(info))
}

/// Check what clap leaves as text before anything runs (scripts).
pub fn precheck(cmd: &SunjangCmd) -> Result<()> {
    match cmd {
        SunjangCmd::Player(SunjangPlayerCmd::Add(a)) => info(a).map(drop),
        SunjangCmd::Player(SunjangPlayerCmd::Update(a)) => updated(a, None).map(drop),
        SunjangCmd::Result { outcome: o, .. }
        | SunjangCmd::Final(FinalCmd::Result { outcome: o, .. }) => outcome(o).map(drop),
        SunjangCmd::Season(SeasonCmd::Export { format, .. }) => {
            Markup::parse(format).map(drop).ok_or_else(|| {
                usage(format!(
                    "--format must be bbcode or markdown, not {format:?}"
                ))
            })
        }
        _ => Ok(()),
    }
}

fn season_of(l: &League, n: Option<u32>) -> Result<&Season> {
    match n {
        Some(k) => l
            .seasons
            .iter()
            .find(|s| s.number() == k)
            .ok_or_else(|| anyhow!("there is no season {k}")),
        None => l.current().ok_or_else(|| {
            anyhow!("no season has been planned yet: `arbiter sunjang season plan`")
        }),
    }
}

/// `arbiter sunjang …`, the Sunjang league's noun.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum SunjangNoun {
    /// Sunjang leagues: seasons of divisions and groups, promotion and demotion, the final round.
    #[command(subcommand)]
    Sunjang(SunjangCmd),
}

impl crate::formats::CliFormat for League {
    const NOUN: Option<&'static str> = Some("sunjang");
    async fn show(svc: &Svc, g: &Globals) -> Result<()> {
        let comp = competition(svc, g).await?;
        let (l, _) = svc.load_as::<Self>(&comp, None).await?;
        // Before the first season, the registered players.
        let cmd = if l.seasons.is_empty() {
            SunjangCmd::Player(SunjangPlayerCmd::List)
        } else {
            SunjangCmd::Season(SeasonCmd::Show {
                season: None,
                tree: false,
            })
        };
        run(svc, g, &cmd).await
    }
    fn what_if(s: &arbiter_service::what_if::SunjangWhatIfView) -> String {
        let mut text = format!("\n{}", render_season(&s.season, false));
        match (&s.next_season, &s.no_plan) {
            (Some(next), _) => text.push_str(&format!(
                "\nNext season's plan after the close (a preview):\n{}",
                render_season(next, false)
            )),
            (None, Some(why)) => text.push_str(&format!("\nNo plan of the next season: {why}.\n")),
            (None, None) => {}
        }
        text
    }
    type Noun = SunjangNoun;
    async fn run(noun: &SunjangNoun, svc: &Svc, g: &Globals) -> Result<()> {
        let SunjangNoun::Sunjang(cmd) = noun;
        run(svc, g, cmd).await
    }
    fn creates(noun: &SunjangNoun) -> bool {
        matches!(noun, SunjangNoun::Sunjang(SunjangCmd::Create { .. }))
    }
    fn precheck(noun: &SunjangNoun) -> Result<()> {
        let SunjangNoun::Sunjang(cmd) = noun;
        precheck(cmd)
    }
}

pub async fn run(svc: &Svc, g: &Globals, cmd: &SunjangCmd) -> Result<()> {
    if let SunjangCmd::Create {
        id,
        name,
        preset,
        rules,
    } = cmd
    {
        let text = match rules {
            Some(path) => crate::input::read_rules(path)?,
            None => arbiter_record::preset(preset)
                .filter(|_| preset == "sunjang-league")
                .ok_or_else(|| {
                    anyhow!("there is no Sunjang preset {preset:?}; presets: sunjang-league")
                })?
                .to_string(),
        };
        let (rules, restrictions) = arbiter_record::parse_sunjang_rules(&text)
            .map_err(|e| anyhow!("{}: {e}", crate::csv::source(rules.as_deref(), preset)))?;
        let done = svc
            .create_sunjang(id, name, rules, restrictions, &g.ctx())
            .await?;
        if g.json {
            return print_json(&serde_json::json!({"competition": id, "version": done.last}));
        }
        outln!(
            "Created Sunjang league {id} ({name}), version {}.",
            done.last
        );
        outln!(
            "Next: `arbiter -c {id} sunjang player add NAME --rank 5k --rating 1500`, then `sunjang season plan`."
        );
        return Ok(());
    }
    if let SunjangCmd::CarryOver {
        file,
        season,
        dry_run,
        source,
    } = cmd
    {
        return carry_over(svc, g, file, *season, *dry_run, source.clone()).await;
    }
    let comp = competition(svc, g).await?;
    let (l, version) = svc.load_as::<League>(&comp, None).await?;
    let ctx = g.ctx();
    let at = g.now();
    let pid = |name: &str| {
        l.find(name).ok_or_else(|| {
            let hint = arbiter_engine::model::did_you_mean(
                l.players.iter().map(|p| p.name.as_str()),
                name,
            );
            anyhow!(
                "there is no player named {name:?} in this league (`sunjang player list`){hint}"
            )
        })
    };
    macro_rules! exec {
        ($cmd:expr) => {{
            let done = svc.execute_as::<League>(&comp, $cmd, &ctx).await?;
            let (after, _) = svc.load_as::<League>(&comp, None).await?;
            report_written::<League>(g, &done, |e| arbiter_service::summary::sunjang(&after, e))?;
            after
        }};
    }
    match cmd {
        SunjangCmd::Create { .. } | SunjangCmd::CarryOver { .. } => {}
        SunjangCmd::Player(p) => match p {
            SunjangPlayerCmd::Add(a) => {
                exec!(season::Command::Register { info: info(a)? });
            }
            SunjangPlayerCmd::Update(a) => {
                let player = pid(&a.name)?;
                let info = updated(a, l.info(player))?
                    .ok_or_else(|| anyhow!("there is no player named {:?}", a.name))?;
                exec!(season::Command::Update { player, info });
            }
            SunjangPlayerCmd::Withdraw { name, reason } => {
                exec!(season::Command::Withdraw {
                    player: pid(name)?,
                    reason: reason.clone(),
                });
            }
            SunjangPlayerCmd::Return { name } => {
                exec!(season::Command::Return { player: pid(name)? });
            }
            SunjangPlayerCmd::List => {
                let v = sunjang_view(&l, &comp, version);
                if g.json {
                    return print_json(&v.players);
                }
                let mut t = table(&["#", "player", "rank", "rating", "corr.", "limits", "status"]);
                for p in &v.players {
                    t.add_row(vec![
                        right(p.id),
                        Cell::new(&p.name),
                        Cell::new(format!(
                            "{}{}",
                            p.rank,
                            if p.provisional { "?" } else { "" }
                        )),
                        right(p.rating),
                        Cell::new(match (&p.corr_rank, p.corr_rating) {
                            (Some(r), Some(x)) => format!("{r} {x}"),
                            (Some(r), None) => r.clone(),
                            (None, Some(x)) => x.to_string(),
                            (None, None) => String::new(),
                        }),
                        Cell::new(&p.limits),
                        Cell::new(if p.withdrawn { "withdrawn" } else { "" }),
                    ]);
                }
                outln!("{t}");
            }
        },
        SunjangCmd::Restrictions {
            file,
            set,
            remove,
            reason,
        } => {
            let restrictions = match (file, set, remove) {
                (Some(file), _, _) => {
                    let text = crate::input::read_rules(file)?;
                    arbiter_record::parse_sunjang_rules(&text)
                        .map_err(|e| anyhow!("{}: {e}", file.display()))?
                        .1
                }
                (None, Some(row), _) => {
                    let (ranks, divisions) = row.split_once('=').ok_or_else(|| {
                        usage(format!(
                            "--set {row:?}: write RANKS=DIVISIONS, such as \"10k-1k=A-B\""
                        ))
                    })?;
                    let row = parse_restriction_row(ranks, divisions)
                        .map_err(|e| usage(format!("--set: {}", e.message)))?;
                    l.restrictions.with_row(row)
                }
                (None, None, Some(ranks)) => {
                    let (weakest, strongest) = parse_rank_range(ranks)
                        .map_err(|e| usage(format!("--remove: {}", e.message)))?;
                    l.restrictions.without_row(weakest, strongest)?
                }
                (None, None, None) => {
                    return Err(usage("give --file, --set or --remove".into()));
                }
            };
            let after = exec!(season::Command::ChangeRestrictions {
                restrictions,
                reason: reason.clone(),
            });
            if !g.json {
                outln!("Division restrictions per rank now:");
                for line in restriction_lines(&after.restrictions) {
                    outln!("  {line}");
                }
            }
        }
        SunjangCmd::Season(s) => match s {
            SeasonCmd::Plan {
                preview,
                moves,
                layout,
                reason,
            } if !moves.is_empty() || layout.is_some() => {
                let (proposal, reason) = proposal(&l, moves, layout.as_deref(), reason.as_deref())?;
                if *preview {
                    return preview_layout(&l, g, &proposal, &reason);
                }
                let after = exec!(season::Command::PlanLayout {
                    proposal,
                    reason,
                    at
                });
                if !g.json
                    && let Some(s) = after.current()
                {
                    out!("{}", render_season(&season_view(&after, s), false));
                }
            }
            SeasonCmd::Plan { preview: true, .. } => {
                if g.json {
                    return print_json(&preview_view(&l, at)?);
                }
                let outcome = l.preview_plan()?;
                let text = match &outcome {
                    PlanOutcome::Cancelled { explanation, .. } => explanation.to_string(),
                    PlanOutcome::Planned(p) => {
                        let mut out =
                            format!("Season {} would be (not stored):\n", l.next_season_number());
                        for (d, div) in p.divisions.iter().enumerate() {
                            let sizes: Vec<String> =
                                div.groups.iter().map(|g| g.len().to_string()).collect();
                            out.push_str(&format!(
                                "  {}: {} players in {} group(s) ({})\n",
                                division_letter(d as u32),
                                div.groups.iter().map(Vec::len).sum::<usize>(),
                                div.groups.len(),
                                sizes.join(", ")
                            ));
                        }
                        for n in &p.notes {
                            out.push_str(&format!("  - {n}\n"));
                        }
                        for pl in &p.placements {
                            out.push_str(&format!("  {} {}\n", pl.group, pl.explanation));
                        }
                        out
                    }
                };
                out!("{text}");
            }
            SeasonCmd::Plan { preview: false, .. } => {
                let after = exec!(season::Command::PlanSeason { at });
                if !g.json
                    && let Some(s) = after.current()
                {
                    out!("{}", render_season(&season_view(&after, s), false));
                }
            }
            SeasonCmd::Show { season, tree } => {
                let s = season_of(&l, *season)?;
                let v = season_view(&l, s);
                if g.json {
                    return print_json(&v);
                }
                out!("{}", render_season(&v, *tree));
            }
            SeasonCmd::Close => {
                exec!(season::Command::CloseSeason { at });
            }
            SeasonCmd::Moves { season } => {
                let s = season_of(&l, *season)?;
                let v = season_view(&l, s);
                if g.json {
                    return print_json(&v.placements);
                }
                for n in &v.notes {
                    outln!("{}", n.line());
                }
                if let Some(x) = &v.layout {
                    outln!("Moved by the organizer (ARB-R55): {}", x.reason);
                    for m in &x.moves {
                        outln!("  {}", m.line());
                    }
                }
                for p in &v.placements {
                    // The explanation starts with the player's name.
                    outln!("{} {}", p.group, p.explanation.line());
                }
            }
            SeasonCmd::Export { format, season } => {
                let s = season_of(&l, *season)?;
                let m = Markup::parse(format).ok_or_else(|| {
                    usage(format!(
                        "--format must be bbcode or markdown, not {format:?}"
                    ))
                })?;
                out!("{}", season_forum(&season_view(&l, s), &l.name, m));
            }
        },
        SunjangCmd::Result {
            black,
            white,
            outcome: o,
            correct,
        } => {
            let (black, white, outcome) = (pid(black)?, pid(white)?, outcome(o)?);
            match correct {
                Some(reason) => exec!(season::Command::CorrectResult {
                    black,
                    white,
                    outcome,
                    reason: reason.clone(),
                    at,
                }),
                None => exec!(season::Command::RecordResult {
                    black,
                    white,
                    outcome,
                    at
                }),
            };
        }
        SunjangCmd::Group { id } => {
            let s = season_of(&l, None)?;
            let v = season_view(&l, s);
            // `B` or `B1` (any case) for the only group of B, `A1` for a
            // group of a division of two (Sunjang Definitions: Group).
            let name = s.find_group(id)?.to_string();
            let group = v
                .divisions
                .iter()
                .flat_map(|d| &d.groups)
                .find(|x| x.id == name)
                .ok_or_else(|| anyhow!("there is no group {id} in season {}", s.number()))?;
            if g.json {
                return print_json(group);
            }
            out!("{}", render_group(group));
        }
        SunjangCmd::Tiebreak(t) => match t {
            TiebreakCmd::GiveWay { name } => {
                exec!(season::Command::GiveWay { player: pid(name)? });
            }
            TiebreakCmd::Live { winner, loser } => {
                exec!(season::Command::RecordLiveMatch {
                    winner: pid(winner)?,
                    loser: pid(loser)?,
                });
            }
        },
        SunjangCmd::Final(f) => match f {
            FinalCmd::Qualify => {
                let after = exec!(season::Command::QualifyFinal { at });
                // Why each finalist qualified, and the games to play.
                if !g.json
                    && let Some(s) = after.current()
                    && let Some(f) = season_view(&after, s).final_round
                {
                    out!("{}", render_final(&f));
                }
            }
            FinalCmd::Result {
                black,
                white,
                outcome: o,
            } => {
                exec!(season::Command::RecordFinalGame {
                    black: pid(black)?,
                    white: pid(white)?,
                    outcome: outcome(o)?,
                    at,
                });
            }
            FinalCmd::Withdraw { name } => {
                exec!(season::Command::WithdrawFromFinal {
                    player: pid(name)?,
                    at
                });
            }
            FinalCmd::Show => {
                let s = season_of(&l, None)?;
                let v = season_view(&l, s);
                if g.json {
                    return print_json(&v.final_round);
                }
                match &v.final_round {
                    None => outln!(
                        "The final round of season {} is not drawn yet (`sunjang final qualify`).",
                        v.number
                    ),
                    Some(f) => {
                        outln!(
                            "Final round of season {}: {}",
                            v.number,
                            f.players.join(", ")
                        );
                        out!("{}", render_final(f));
                    }
                }
            }
        },
    }
    Ok(())
}

/// A drawn final round: why each finalist qualified, the advantage, the
/// games played and those still to play, and its outcome.
fn render_final(f: &arbiter_service::sunjang::FinalView) -> String {
    let mut out = String::new();
    if !f.qualification.is_empty() {
        out.push_str("Qualification:\n");
        for e in &f.qualification {
            out.push_str(&format!("  - {}\n", e.line()));
        }
    }
    if !f.advantaged.is_empty() {
        out.push_str(&format!("Advantaged: {}\n", f.advantaged.join(", ")));
    }
    if !f.withdrawn.is_empty() {
        out.push_str(&format!("Withdrawn: {}\n", f.withdrawn.join(", ")));
    }
    if !f.games.is_empty() {
        out.push_str("Played:\n");
        for x in &f.games {
            out.push_str(&format!("  {x}\n"));
        }
    }
    if !f.to_play.is_empty() {
        out.push_str(&format!("To play ({}):\n", f.to_play.len()));
        for x in &f.to_play {
            out.push_str(&format!("  {x}\n"));
        }
    }
    if let Some(e) = &f.explanation {
        out.push_str(&format!("{}\n", e.line()));
    }
    out
}

/// The organizer's layout from `--move` or `--layout`, and its reason
/// (`--reason`, or the file's).
fn proposal(
    l: &League,
    moves: &[String],
    layout: Option<&std::path::Path>,
    reason: Option<&str>,
) -> Result<(Proposal, String)> {
    let (proposal, file_reason) = match layout {
        Some(path) => {
            let text = crate::input::read_utf8(
                path,
                "the layout file",
                arbiter_record::MAX_LAYOUT_FILE as u64,
            )?;
            let file = arbiter_record::parse_sunjang_layout(&text).map_err(|e| {
                let mut at = String::new();
                if let Some(line) = e.line {
                    at.push_str(&format!(", line {line}"));
                }
                if let Some(column) = e.column {
                    at.push_str(&format!(", column {column}"));
                }
                if let Some(field) = &e.field {
                    at.push_str(&format!(", key `{field}`"));
                }
                anyhow!("{}{at}: {}", path.display(), e.message)
            })?;
            let proposal = if file.groups.is_empty() {
                Proposal::Moves(
                    layout_moves(l, &file.moves).map_err(|e| anyhow!("{}: {e}", path.display()))?,
                )
            } else {
                Proposal::Groups(
                    layout_groups(l, &file.groups)
                        .map_err(|e| anyhow!("{}: {e}", path.display()))?,
                )
            };
            (proposal, file.reason)
        }
        None => (Proposal::Moves(layout_moves(l, moves)?), None),
    };
    let reason = reason.map(str::to_string).or(file_reason).ok_or_else(|| {
        usage("a layout needs --reason \"...\" (or `reason = ...` in the layout file): the season's record says why players were moved (ARB-R55)".to_string())
    })?;
    Ok((proposal, reason))
}

/// `season plan --preview` with a layout: the plan it would make and every
/// rule of section A it breaks; nothing is stored. Exits non-zero when it
/// breaks any.
fn preview_layout(l: &League, g: &Globals, proposal: &Proposal, reason: &str) -> Result<()> {
    let (plan, violations) = l.layout_plan(proposal, reason, g.now())?;
    let mut after = l.clone();
    after.apply(&season::Event::SeasonPlanned(Box::new(plan)));
    let view = after.current().map(|s| season_view(&after, s));
    let lines: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
    if g.json {
        print_json(&serde_json::json!({
            "stored": false,
            "violations": violations
                .iter()
                .map(|v| serde_json::json!({"clause": v.clause, "rulings": v.rulings, "text": v.text}))
                .collect::<Vec<_>>(),
            "season": view,
        }))?;
    } else {
        if let Some(v) = &view {
            out!("{}", render_season(v, true));
        }
        if lines.is_empty() {
            outln!(
                "The layout breaks no rule of section A (not stored): plan it with the same --move/--layout and --reason, without --preview."
            );
        } else {
            outln!(
                "The layout breaks {} rule(s) of section A (not stored):",
                lines.len()
            );
            for line in &lines {
                outln!("  - {line}");
            }
        }
    }
    if lines.is_empty() {
        Ok(())
    } else {
        Err(anyhow!(
            "the layout breaks {} rule(s) of section A: {}",
            lines.len(),
            violations
                .iter()
                .map(|v| v.text.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ))
    }
}

fn render_group(g: &arbiter_service::sunjang::GroupView) -> String {
    let mut header: Vec<String> = vec!["#".into(), "player".into(), "rank".into()];
    header.extend((1..=g.players.len()).map(|i| i.to_string()));
    header.extend([
        "W-J-L".into(),
        "points".into(),
        "total".into(),
        "SODOS".into(),
    ]);
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = table(&refs);
    for (i, p) in g.players.iter().enumerate() {
        let mut row = vec![right(p.place), Cell::new(&p.player), Cell::new(&p.rank)];
        for j in 0..g.players.len() {
            row.push(Cell::new(if i == j {
                "x".to_string()
            } else {
                g.cells
                    .get(i)
                    .and_then(|r| r.get(j))
                    .cloned()
                    .unwrap_or_default()
            }));
        }
        row.push(right(format!("{}-{}-{}", p.wins, p.jigo, p.losses)));
        row.push(right(&p.gamepoints));
        row.push(right(&p.total));
        row.push(right(&p.sodos));
        t.add_row(row);
    }
    let mut out = format!(
        "{}{}\n{t}\n",
        g.id,
        if g.complete {
            String::new()
        } else {
            format!(" ({} games left)", g.games_left)
        }
    );
    for e in &g.explanations {
        out.push_str(&format!("  - {}\n", e.line()));
    }
    let left: Vec<String> = g
        .pairings
        .iter()
        .filter(|p| p.result.is_none())
        .map(|p| format!("round {}: {} (black) v {}", p.round, p.black, p.white))
        .collect();
    if !left.is_empty() {
        out.push_str(&format!("  To play: {}\n", left.join("; ")));
    }
    out
}

/// A season: the pyramid (a table, or a tree), then every group.
pub fn render_season(v: &SeasonView, tree: bool) -> String {
    let mut out = format!("Season {} ({})\n", v.number, v.status);
    if let Some(c) = &v.cancelled {
        out.push_str(&format!("{}\n", c.line()));
        return out;
    }
    if tree {
        for d in &v.divisions {
            let pad = " ".repeat(d.letter.len().saturating_sub(1));
            out.push_str(&format!("{pad}{} ({} players)\n", d.letter, d.size));
            for (k, g) in d.groups.iter().enumerate() {
                let branch = if k + 1 == d.groups.len() {
                    "└─"
                } else {
                    "├─"
                };
                let names: Vec<&str> = g.players.iter().map(|p| p.player.as_str()).collect();
                out.push_str(&format!("  {branch} {}: {}\n", g.id, names.join(", ")));
            }
        }
    } else {
        let mut t = table(&["division", "players", "groups", "sizes", "start points"]);
        for d in &v.divisions {
            let sizes: Vec<String> = d
                .groups
                .iter()
                .map(|g| g.players.len().to_string())
                .collect();
            t.add_row(vec![
                Cell::new(&d.letter),
                right(d.size),
                right(d.groups.len()),
                Cell::new(sizes.join(", ")),
                right(&d.start_gamepoints),
            ]);
        }
        out.push_str(&format!("{t}\n"));
        for d in &v.divisions {
            for g in &d.groups {
                out.push_str(&render_group(g));
            }
        }
    }
    if let Some(x) = &v.layout {
        out.push_str(&format!(
            "The organizer moved {} placement(s) of the automatic plan (ARB-R55): {}\n",
            x.moves.len(),
            x.reason
        ));
        for m in &x.moves {
            out.push_str(&format!("  {}\n", m.line()));
        }
    }
    if v.unfinished_games > 0 {
        out.push_str(&format!(
            "{} group games left to play.\n",
            v.unfinished_games
        ));
    }
    if let Some(f) = &v.final_round {
        out.push_str(&format!("Final round: {}\n", f.players.join(", ")));
        if !f.to_play.is_empty() {
            out.push_str(&format!(
                "  {} game(s) to play (`sunjang final show`)\n",
                f.to_play.len()
            ));
        }
        if let Some(e) = &f.explanation {
            out.push_str(&format!("  - {}\n", e.line()));
        }
    }
    out
}

/// `arbiter sunjang carry-over FILE --season N [--dry-run] [--source TEXT]`
/// (issue 18 §1): the reading, checking and storing are
/// `arbiter_service::sunjang_carry`'s; this is the terminal's glue.
async fn carry_over(
    svc: &Svc,
    g: &Globals,
    path: &std::path::Path,
    season: u32,
    dry_run: bool,
    source: Option<String>,
) -> Result<()> {
    use arbiter_service::sunjang_carry::SunjangCarryOptions;
    let comp = competition(svc, g).await?;
    let (bytes, name) = crate::carry_over::read(path)?;
    let opts = SunjangCarryOptions {
        season: Some(season),
        source,
        dry_run,
    };
    let done = svc
        .carry_over_sunjang(&comp, &name, &bytes, &opts, &g.ctx())
        .await?;
    if g.json {
        return print_json(&done);
    }
    if crate::carry_over::replayed(done.replayed, done.first, done.last) {
        return Ok(());
    }
    out!("{}", render_carried(&done.carried));
    let c = &done.carried;
    let players: usize = c
        .divisions
        .iter()
        .flat_map(|d| &d.groups)
        .map(|g| g.rows.len())
        .sum();
    let what = format!(
        "season {} ({players} players in {} divisions) from {name} (source: {}), entered by {}; the next season planned is season {}",
        c.season,
        c.divisions.len(),
        c.source,
        c.by,
        done.next_season
    );
    crate::carry_over::say_carried(done.dry_run, done.first, &what);
    if !done.dry_run && done.first.is_some() {
        outln!(
            "Next: register new players (`sunjang player add`), then `sunjang season plan --preview`."
        );
    }
    Ok(())
}

/// The carried season's tables, division by division.
fn render_carried(c: &arbiter_service::sunjang_carry::CarriedSeasonView) -> String {
    let mut out = format!("Season {} as carried over\n", c.season);
    for d in &c.divisions {
        for grp in &d.groups {
            out.push_str(&format!("\nGroup {}\n", grp.id));
            let mut t = table(&["#", "Player", "Rank", "GP", "Total", "SODOS", ""]);
            for r in &grp.rows {
                t.add_row(vec![
                    right(r.place),
                    Cell::new(&r.player),
                    Cell::new(&r.rank),
                    right(&r.gamepoints),
                    right(&r.total),
                    right(&r.sodos),
                    Cell::new(if r.withdrawn { "withdrawn" } else { "" }),
                ]);
            }
            out.push_str(&format!("{t}\n"));
            for e in &grp.explanations {
                out.push_str(&format!("  {} [{}]\n", e.text, e.clause));
            }
        }
        out.push_str(&format!(
            "\nDivision {}, merged ranking (SJ-R5): {}\n",
            d.letter,
            d.ranking.join(", ")
        ));
    }
    if let Some(champion) = &c.champion {
        out.push_str(&format!("Defending champion: {champion}\n"));
    }
    for n in &c.layout_notes {
        out.push_str(&format!(
            "Note: the carried layout breaks {} ({}); it was played, so it is kept [ARB-R77]\n",
            n.text, n.clause
        ));
    }
    out
}
