//! `arbiter league ...`, `arbiter challengers ...` and `arbiter roll ...`:
//! XMadn Double-Threat from the command line.

use anyhow::{Result, anyhow, bail};
use arbiter_engine::draw;
use arbiter_engine::model::{GameId, PlayerId};
use arbiter_engine::xmadn::challengers::{self, Challengers};
use arbiter_engine::xmadn::league::{self, League};
use arbiter_engine::xmadn::table::Table;
use arbiter_engine::xmadn::{Colours, Home, analysis, parse_time};
use arbiter_service::forum::Markup;
use arbiter_service::xmadn::{
    ChallengersView, LeagueView, challengers_forum, challengers_view, league_forum, league_view,
};
use comfy_table::Cell;

use crate::args::{ChallengersCmd, LeagueCmd, PlayoffCmd, RollCmd, XmResultArgs};
use crate::render::{right, table};
use crate::run::{Globals, Svc, Usage, competition, print_json, report_written};

fn usage(msg: String) -> anyhow::Error {
    Usage(msg).into()
}

/// `4-2` → [4, 2].
pub fn parse_pawns(s: &str) -> Result<[u8; 2]> {
    let bad = || {
        usage(format!(
            "--pawns {s:?}: give both players' counted pawns like 4-2"
        ))
    };
    let (a, b) = s.trim().split_once('-').ok_or_else(bad)?;
    Ok([
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ])
}

/// `4/1,2/3` → the pawns each player brought home per allied colour,
/// vanguard/rearguard (ARB-R65).
pub fn parse_home(s: &str) -> Result<[Home; 2]> {
    let bad = || {
        usage(format!(
            "--home {s:?}: give the pawns each player brought home per allied colour, vanguard/rearguard, like 4/1,2/3"
        ))
    };
    if s.len() > 40 {
        return Err(bad());
    }
    let one = |t: &str| -> Result<Home> {
        let (v, r) = t.trim().split_once('/').ok_or_else(bad)?;
        Ok(Home {
            vanguard: v.trim().parse().map_err(|_| bad())?,
            rearguard: r.trim().parse().map_err(|_| bad())?,
        })
    };
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    Ok([one(a)?, one(b)?])
}

/// The counted pawns or the pawns brought home, as the result gives them.
enum Given {
    Pawns([u8; 2]),
    Home([Home; 2]),
}

fn given(r: &XmResultArgs) -> Result<Given> {
    match (&r.pawns, &r.home) {
        (_, Some(h)) => Ok(Given::Home(parse_home(h)?)),
        (Some(p), None) => Ok(Given::Pawns(parse_pawns(p)?)),
        (None, None) => Err(usage("give --pawns (counted pawns, 4-2) or --home (pawns brought home per allied colour, 4/1,2/3)".into())),
    }
}

/// `--faces Ames=5,Baker=2,Clark=6`: one round of faces of real dice
/// rolled at the table (ARB-R64), names resolved by `pid`.
fn parse_faces(s: &str, pid: &dyn Fn(&str) -> Result<PlayerId>) -> Result<Vec<(PlayerId, u8)>> {
    let bad = || {
        usage(format!(
            "--faces {s:?}: give each rolling player's face like Ames=5,Baker=2,Clark=6"
        ))
    };
    if s.len() > 400 {
        return Err(usage(format!(
            "--faces: at most 400 characters a round, not {}",
            s.len()
        )));
    }
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() > 3 {
        return Err(usage(format!(
            "--faces {s:?}: a round has one face for each of at most three players"
        )));
    }
    parts
        .into_iter()
        .map(|part| {
            let (name, face) = part.rsplit_once('=').ok_or_else(bad)?;
            let face: u8 = face.trim().parse().map_err(|_| bad())?;
            Ok((pid(name.trim())?, face))
        })
        .collect()
}

/// `23:05` → seconds.
pub fn parse_game_time(s: &str) -> Result<u32> {
    parse_time(s).ok_or_else(|| {
        usage(format!(
            "--time {s:?}: give the game's time as m:ss, e.g. 23:05"
        ))
    })
}

/// `red/blue` → vanguard red, rearguard blue.
pub fn parse_colours(s: &str) -> Result<Colours> {
    let bad = || {
        usage(format!(
            "colours {s:?}: give the vanguard and rearguard colours like red/blue"
        ))
    };
    let (v, r) = s.split_once('/').ok_or_else(bad)?;
    if r.contains('/') || v.trim().is_empty() || r.trim().is_empty() {
        return Err(bad());
    }
    Ok(Colours {
        vanguard: v.trim().to_lowercase(),
        rearguard: r.trim().to_lowercase(),
    })
}

fn markup(format: &str) -> Result<Markup> {
    Markup::parse(format).ok_or_else(|| {
        usage(format!(
            "--format must be bbcode or markdown, not {format:?}"
        ))
    })
}

/// Check what clap leaves as text before anything runs (scripts).
pub fn precheck_league(cmd: &LeagueCmd) -> Result<()> {
    match cmd {
        LeagueCmd::Result { result, .. } | LeagueCmd::Correct { result, .. } => {
            precheck_result(result)
        }
        LeagueCmd::Playoff(PlayoffCmd::Result(result)) => precheck_result(result),
        LeagueCmd::Playoff(PlayoffCmd::Start { colours }) => parse_colours(colours).map(drop),
        LeagueCmd::Export { format } => markup(format).map(drop),
        _ => Ok(()),
    }
}

pub fn precheck_challengers(cmd: &ChallengersCmd) -> Result<()> {
    match cmd {
        ChallengersCmd::Result(result) => precheck_result(result),
        ChallengersCmd::Qualifier {
            choose,
            time,
            colours,
            ..
        } => {
            parse_colours(choose)?;
            if let Some(c) = colours {
                star_colours(c, [PlayerId(1), PlayerId(2), PlayerId(3)])?;
            }
            time.as_deref().map(parse_game_time).transpose().map(drop)
        }
        ChallengersCmd::Export { format } => markup(format).map(drop),
        _ => Ok(()),
    }
}

/// Game 0's colours, one per player in the order the players were named,
/// as the event keeps them: in player-id order.
fn star_colours(s: &str, named: [PlayerId; 3]) -> Result<[String; 3]> {
    let parts: Vec<String> = s.split(',').map(|c| c.trim().to_lowercase()).collect();
    let [a, b, c] = parts.as_slice() else {
        return Err(usage(format!(
            "--colours {s:?}: give the three players' Game 0 colours like red,yellow,blue"
        )));
    };
    let mut out: [String; 3] = Default::default();
    for (p, colour) in named.iter().zip([a, b, c]) {
        if let Some(slot) = out.get_mut(p.0.wrapping_sub(1) as usize) {
            slot.clone_from(colour);
        }
    }
    Ok(out)
}

fn precheck_result(r: &XmResultArgs) -> Result<()> {
    given(r)?;
    parse_game_time(&r.time)?;
    Ok(())
}

fn find(names: &[String], found: Option<PlayerId>, name: &str) -> Result<PlayerId> {
    found.ok_or_else(|| {
        anyhow!(
            "there is no player named {name:?} in this competition; the players are {}",
            names.join(", ")
        )
    })
}

/// A game of `l` by the document's numbering or its league-wide id
/// (ARB-R63).
fn game_id(l: &League, s: &str) -> Result<GameId> {
    l.parse_game(s).ok_or_else(|| {
        anyhow!(
            "there is no game {} in this league: give DRR 2 Game 4 (or 2.4, or Game 4 for the running DRR) or its id G10 (field `game`)",
            s.trim()
        )
    })
}

fn read_text(path: &std::path::Path) -> Result<String> {
    crate::input::read_rules(path)
}

/// What the moderator should know after a write: the significant outcomes
/// becoming determined (the remaining games may then be cancelled), the
/// suggested order once the bottom half opens, what to do next.
fn next_steps(before: &League, after: &League) {
    let was = analysis::determination(before);
    let now = analysis::determination(after);
    if now.determined && !was.determined && now.remaining > 0 {
        outln!("{}", now.explain(after));
    }
    if analysis::suggest_order(before).is_none()
        && let Some(s) = analysis::suggest_order(after)
    {
        outln!("{}", s.explanation);
    }
    match after.phase() {
        league::Phase::RoundRobin { .. } => {
            let next: Vec<String> = after
                .playable()
                .iter()
                .map(|g| after.describe_game(g))
                .collect();
            outln!("Next: {}.", next.join(" or "));
        }
        league::Phase::AwaitingPositions { drr } => {
            outln!("Next: `league roll` for the positions of DRR {drr}.");
        }
        league::Phase::AwaitingTiebreak { .. } => {
            outln!("Next: {}.", arbiter_service::xmadn::phase_words(after));
        }
        league::Phase::AwaitingPlayoff { stage } => outln!(
            "Next: `league playoff start --colours V/R` for the {}; the higher seed chooses colours.",
            stage.name()
        ),
        league::Phase::Playoff { stage } => {
            if let Some(r) = after.playoff.last() {
                outln!(
                    "Next: {} game {}: {} v {} (first to {}; {}-{} now).",
                    stage.name(),
                    r.games.len() + 1,
                    after.name_of(r.higher),
                    after.name_of(r.lower),
                    r.series.wins_needed(),
                    r.wins[0],
                    r.wins[1],
                );
            }
        }
        league::Phase::Finished { .. } => {
            outln!(
                "The league is {}.",
                arbiter_service::xmadn::phase_words(after)
            );
        }
    }
}

async fn load_league(svc: &Svc, comp: &str) -> Result<(League, u64)> {
    Ok(svc.load_as::<League>(comp, None).await?)
}

/// `arbiter league …`, the XMadn league's noun.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum LeagueNoun {
    /// XMadn Double-Threat leagues: die-rolled double round-robins, the table, playoffs.
    #[command(subcommand)]
    League(LeagueCmd),
}

impl crate::formats::CliFormat for League {
    const NOUN: Option<&'static str> = Some("league");
    async fn show(svc: &Svc, g: &Globals) -> Result<()> {
        league(svc, g, &LeagueCmd::Show).await
    }
    fn what_if(v: &arbiter_service::what_if::LeagueWhatIfView) -> String {
        format!("\n{}", render_league(&v.league))
    }
    type Noun = LeagueNoun;
    async fn run(noun: &LeagueNoun, svc: &Svc, g: &Globals) -> Result<()> {
        let LeagueNoun::League(cmd) = noun;
        league(svc, g, cmd).await
    }
    fn creates(noun: &LeagueNoun) -> bool {
        matches!(noun, LeagueNoun::League(LeagueCmd::Create { .. }))
    }
    fn precheck(noun: &LeagueNoun) -> Result<()> {
        let LeagueNoun::League(cmd) = noun;
        precheck_league(cmd)
    }
}

/// `arbiter challengers …`, the XMadn Challengers event's noun.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ChallengersNoun {
    /// XMadn Double-Threat Challengers: winner stays, first to x wins.
    #[command(subcommand)]
    Challengers(ChallengersCmd),
}

impl crate::formats::CliFormat for Challengers {
    const NOUN: Option<&'static str> = Some("challengers");
    async fn show(svc: &Svc, g: &Globals) -> Result<()> {
        challengers(svc, g, &ChallengersCmd::Show).await
    }
    type Noun = ChallengersNoun;
    async fn run(noun: &ChallengersNoun, svc: &Svc, g: &Globals) -> Result<()> {
        let ChallengersNoun::Challengers(cmd) = noun;
        challengers(svc, g, cmd).await
    }
    fn creates(noun: &ChallengersNoun) -> bool {
        matches!(
            noun,
            ChallengersNoun::Challengers(ChallengersCmd::Create { .. })
        )
    }
    fn precheck(noun: &ChallengersNoun) -> Result<()> {
        let ChallengersNoun::Challengers(cmd) = noun;
        precheck_challengers(cmd)
    }
}

pub async fn league(svc: &Svc, g: &Globals, cmd: &LeagueCmd) -> Result<()> {
    if let LeagueCmd::Create {
        id,
        name,
        players,
        preset,
        rules,
    } = cmd
    {
        let text = match rules {
            Some(path) => read_text(path)?,
            None => arbiter_record::preset(preset)
                .filter(|_| preset.starts_with("xmadn-league"))
                .ok_or_else(|| {
                    anyhow!("there is no league preset {preset:?}; presets: xmadn-league")
                })?
                .to_string(),
        };
        let rules = arbiter_record::parse_league_rules(&text)
            .map_err(|e| anyhow!("{}: {e}", crate::csv::source(rules.as_deref(), preset)))?;
        let done = svc
            .create_league(id, name, rules, players, &g.ctx())
            .await?;
        if g.json {
            return print_json(&serde_json::json!({"competition": id, "version": done.last}));
        }
        outln!("Created league {id} ({name}), version {}.", done.last);
        outln!("Next: `arbiter -c {id} league roll` rolls the positions of DRR 1.");
        return Ok(());
    }
    let comp = competition(svc, g).await?;
    let (l, version) = load_league(svc, &comp).await?;
    let ctx = g.ctx();
    let at = g.now();
    let names = l.players.clone();
    let pid = |name: &str| find(&names, l.find(name), name);
    macro_rules! exec {
        ($cmd:expr) => {{
            let done = svc.execute_as::<League>(&comp, $cmd, &ctx).await?;
            let (after, _) = load_league(svc, &comp).await?;
            report_written::<League>(g, &done, |e| arbiter_service::summary::league(&after, e))?;
            if !g.json && !done.replayed {
                next_steps(&l, &after);
            }
        }};
    }
    match cmd {
        LeagueCmd::Create { .. } => {}
        LeagueCmd::CarryOver {
            file,
            dry_run,
            source,
        } => {
            use arbiter_service::xmadn_carry::LeagueCarryOptions;
            let (bytes, name) = crate::carry_over::read(file)?;
            let opts = LeagueCarryOptions {
                source: source.clone(),
                dry_run: *dry_run,
            };
            let done = svc
                .carry_over_league(&comp, &name, &bytes, &opts, &ctx)
                .await?;
            if g.json {
                return print_json(&done);
            }
            if crate::carry_over::replayed(done.replayed, done.first, done.last) {
                return Ok(());
            }
            out!("{}", render_league(&done.league));
            let what = format!(
                "{} double round-robin(s), {} games played, {} cancelled and {} still to play, from {name} (source: {}), entered by {}",
                done.drrs, done.played, done.cancelled, done.to_play, done.source, done.by
            );
            crate::carry_over::say_carried(done.dry_run, done.first, &what);
        }
        LeagueCmd::Show => {
            let view = league_view(&l, &comp, version);
            if g.json {
                return print_json(&view);
            }
            out!("{}", render_league(&view));
        }
        LeagueCmd::Explain { player } => {
            let table = Table::of(&l);
            let lines = match player {
                Some(p) => table.explain_player(&l, pid(p)?),
                None => table.explain(&l),
            };
            let views: Vec<arbiter_service::views::ExplanationView> =
                lines.into_iter().map(Into::into).collect();
            if g.json {
                return print_json(&views);
            }
            if views.is_empty() {
                outln!("Nothing separates anyone yet.");
            }
            for v in &views {
                outln!("{}", v.line());
            }
        }
        LeagueCmd::Roll { faces } => {
            let done = if faces.is_empty() {
                svc.league_roll(&comp, &ctx).await?
            } else {
                if faces.len() > league::MAX_ENTERED_ROUNDS {
                    bail!(usage(format!(
                        "--faces: at most {} rounds, not {}",
                        league::MAX_ENTERED_ROUNDS,
                        faces.len()
                    )));
                }
                let rounds = faces
                    .iter()
                    .map(|f| parse_faces(f, &pid))
                    .collect::<Result<Vec<_>>>()?;
                svc.execute_as::<League>(
                    &comp,
                    league::Command::EnterRoll {
                        rounds,
                        by: ctx.actor.clone(),
                        at,
                    },
                    &ctx,
                )
                .await?
            };
            let (after, version) = load_league(svc, &comp).await?;
            if g.json {
                // The faces of the roll this command made (or replayed).
                let view = league_view(&after, &comp, version);
                let rolled = done.events.iter().any(|e| {
                    matches!(
                        e,
                        league::Event::PositionsRolled { .. }
                            | league::Event::TiebreakRolled { .. }
                            | league::Event::PositionsEntered { .. }
                            | league::Event::TiebreakEntered { .. }
                    )
                });
                let roll = if rolled { view.rolls.last() } else { None };
                return print_json(&serde_json::json!({
                    "first": done.first,
                    "last": done.last,
                    "replayed": done.replayed,
                    "events": done.events.iter().map(league::Event::kind).collect::<Vec<_>>(),
                    "roll": roll,
                }));
            }
            report_written::<League>(g, &done, |e| arbiter_service::summary::league(&after, e))?;
            if !done.replayed {
                next_steps(&l, &after);
            }
        }
        LeagueCmd::Result { result, game } => {
            let players = [pid(&result.a)?, pid(&result.b)?];
            let game = game.as_deref().map(|s| game_id(&l, s)).transpose()?;
            let seconds = parse_game_time(&result.time)?;
            exec!(match given(result)? {
                Given::Pawns(pawns) => league::Command::RecordResult {
                    game,
                    players,
                    pawns,
                    seconds,
                    at,
                },
                Given::Home(home) => league::Command::ByColour {
                    entry: league::Entry::Result { game },
                    players,
                    home,
                    seconds,
                    at,
                },
            })
        }
        LeagueCmd::Correct {
            game,
            result,
            reason,
        } => {
            let players = [pid(&result.a)?, pid(&result.b)?];
            let game = game_id(&l, game)?;
            let seconds = parse_game_time(&result.time)?;
            exec!(match given(result)? {
                Given::Pawns(pawns) => league::Command::CorrectResult {
                    game,
                    players,
                    pawns,
                    seconds,
                    reason: reason.clone(),
                    at,
                },
                Given::Home(home) => league::Command::ByColour {
                    entry: league::Entry::Correction {
                        game,
                        reason: reason.clone(),
                    },
                    players,
                    home,
                    seconds,
                    at,
                },
            })
        }
        LeagueCmd::Cancel { game, note } => exec!(league::Command::CancelGame {
            game: game_id(&l, game)?,
            note: note.clone(),
            at,
        }),
        LeagueCmd::CancelDrr { drr, note } => exec!(league::Command::CancelDrr {
            drr: *drr,
            note: note.clone(),
            at,
        }),
        LeagueCmd::Suggest => {
            let s = analysis::suggest_order(&l);
            let d = analysis::determination(&l);
            if g.json {
                return print_json(&serde_json::json!({
                    "suggestion": s.as_ref().map(|s| serde_json::json!({
                        "order": s.order.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        "worst": s.worst,
                        "document_worst": s.document_worst,
                        "explanation": arbiter_service::views::ExplanationView::from(s.explanation.clone()),
                    })),
                    "determined": d.determined,
                    "determination": arbiter_service::views::ExplanationView::from(d.explain(&l)),
                }));
            }
            match s {
                Some(s) => outln!("{}", s.explanation),
                None => outln!(
                    "No order to suggest: the bottom half (Games 4 to 6) of the running DRR is not open with two or more games left."
                ),
            }
            outln!("{}", d.explain(&l));
        }
        LeagueCmd::Playoff(PlayoffCmd::Start { colours }) => exec!(league::Command::StartPlayoff {
            colours: parse_colours(colours)?,
            at,
        }),
        LeagueCmd::Playoff(PlayoffCmd::Result(result)) => {
            let players = [pid(&result.a)?, pid(&result.b)?];
            let seconds = parse_game_time(&result.time)?;
            exec!(match given(result)? {
                Given::Pawns(pawns) => league::Command::RecordPlayoffGame {
                    players,
                    pawns,
                    seconds,
                    at,
                },
                Given::Home(home) => league::Command::ByColour {
                    entry: league::Entry::Playoff,
                    players,
                    home,
                    seconds,
                    at,
                },
            })
        }
        LeagueCmd::Export { format } => {
            let view = league_view(&l, &comp, version);
            out!("{}", league_forum(&view, markup(format)?));
        }
    }
    Ok(())
}

pub async fn challengers(svc: &Svc, g: &Globals, cmd: &ChallengersCmd) -> Result<()> {
    if let ChallengersCmd::Create {
        id,
        name,
        players,
        preset,
        rules,
        first_to,
    } = cmd
    {
        let text = match rules {
            Some(path) => read_text(path)?,
            None => arbiter_record::preset(preset)
                .filter(|_| preset.starts_with("xmadn-challengers"))
                .ok_or_else(|| {
                    anyhow!("there is no Challengers preset {preset:?}; presets: xmadn-challengers")
                })?
                .to_string(),
        };
        let mut rules = arbiter_record::parse_challengers_rules(&text)
            .map_err(|e| anyhow!("{}: {e}", crate::csv::source(rules.as_deref(), preset)))?;
        if let Some(x) = first_to {
            rules.first_to = *x;
        }
        let done = svc
            .create_challengers(id, name, rules, players, &g.ctx())
            .await?;
        if g.json {
            return print_json(&serde_json::json!({"competition": id, "version": done.last}));
        }
        outln!("Created Challengers {id} ({name}), version {}.", done.last);
        outln!(
            "Next: `arbiter -c {id} challengers qualifier 1ST 2ND 3RD --choose red/blue` records Game 0."
        );
        return Ok(());
    }
    let comp = competition(svc, g).await?;
    let (c, version) = svc.load_as::<Challengers>(&comp, None).await?;
    let ctx = g.ctx();
    let at = g.now();
    let names = c.players.clone();
    let pid = |name: &str| find(&names, c.find(name), name);
    macro_rules! exec {
        ($cmd:expr) => {{
            let done = svc.execute_as::<Challengers>(&comp, $cmd, &ctx).await?;
            let (after, _) = svc.load_as::<Challengers>(&comp, None).await?;
            report_written::<Challengers>(g, &done, |e| {
                arbiter_service::summary::challengers(&after, e)
            })?;
            if !g.json {
                if let Some(n) = after.next_game() {
                    outln!("Next: {}", n.explanation);
                } else if let Some(e) = after.explain_champion() {
                    outln!("{e}");
                }
            }
        }};
    }
    match cmd {
        ChallengersCmd::Create { .. } => {}
        ChallengersCmd::Show => {
            let view = challengers_view(&c, &comp, version);
            if g.json {
                return print_json(&view);
            }
            out!("{}", render_challengers(&view));
        }
        ChallengersCmd::Qualifier {
            first,
            second,
            third,
            choose,
            time,
            colours,
        } => {
            let finishing = [pid(first)?, pid(second)?, pid(third)?];
            exec!(challengers::Command::RecordQualifier {
                finishing,
                colours: colours
                    .as_deref()
                    .map(|c| star_colours(c, finishing))
                    .transpose()?,
                seconds: time.as_deref().map(parse_game_time).transpose()?,
                chosen: parse_colours(choose)?,
                at,
            })
        }
        ChallengersCmd::Result(result) => {
            let players = [pid(&result.a)?, pid(&result.b)?];
            let seconds = parse_game_time(&result.time)?;
            exec!(match given(result)? {
                Given::Pawns(pawns) => challengers::Command::RecordGame {
                    players,
                    pawns,
                    seconds,
                    at,
                },
                // ARB-R65: the counted pawns follow from the rule set.
                Given::Home(home) => challengers::Command::RecordGameByColour {
                    players,
                    home,
                    seconds,
                    at,
                },
            })
        }
        ChallengersCmd::Export { format } => {
            let view = challengers_view(&c, &comp, version);
            out!("{}", challengers_forum(&view, markup(format)?));
        }
    }
    Ok(())
}

pub async fn roll(svc: &Svc, g: &Globals, cmd: &RollCmd) -> Result<()> {
    match cmd {
        RollCmd::Verify => {
            let comp = competition(svc, g).await?;
            let (l, version) = load_league(svc, &comp).await?;
            let view = league_view(&l, &comp, version);
            if g.json {
                return print_json(&view.rolls);
            }
            if view.rolls.is_empty() {
                outln!("No round of die-roll has been recorded yet.");
            }
            for r in &view.rolls {
                if r.kind == "entered" {
                    outln!(
                        "Roll {} ({}): {}\n  {}",
                        r.number,
                        r.purpose,
                        r.faces,
                        r.verification
                    );
                    continue;
                }
                outln!(
                    "Roll {} ({}): {}\n  seed {}\n  commitment {} — seed {}, faces {}",
                    r.number,
                    r.purpose,
                    r.faces,
                    r.seed,
                    r.commitment,
                    if r.commitment_ok {
                        "matches"
                    } else {
                        "DOES NOT match"
                    },
                    if r.faces_ok {
                        "recomputed the same"
                    } else {
                        "DIFFER when recomputed"
                    },
                );
            }
            if view.rolls.iter().any(|r| !r.commitment_ok || !r.faces_ok) {
                bail!("some rounds of die-roll do not verify");
            }
        }
        RollCmd::Recompute { .. } => return roll_recompute(g, cmd),
    }
    Ok(())
}

/// `arbiter roll recompute`: a round of die-roll from a published seed; it
/// needs no database (`run::main` calls it before opening one).
pub fn roll_recompute(g: &Globals, cmd: &RollCmd) -> Result<()> {
    let RollCmd::Recompute {
        seed,
        commitment,
        players,
        faces,
        tiebreak,
    } = cmd
    else {
        bail!("`roll verify` needs the league's database");
    };
    let seed = hex32(seed, "--seed")?;
    if *faces < 2 {
        bail!(usage(format!(
            "--faces {faces}: a die has at least 2 faces"
        )));
    }
    if players.len() < 2 {
        bail!(usage(
            "give at least two --player, in the order they rolled".into()
        ));
    }
    let ids: Vec<usize> = (0..players.len()).collect();
    let mut dice = draw::Dice::new(&seed, 0, *faces);
    let rounds = if *tiebreak {
        draw::roll_until_separated(&mut dice, &ids)
    } else {
        draw::roll_order(&mut dice, &ids).0
    };
    let committed = commitment
        .as_deref()
        .map(|c| hex32(c, "--commitment"))
        .transpose()?;
    let ok = committed.map(|c| draw::verify(&seed, &c));
    let text: Vec<String> = rounds
        .iter()
        .map(|r| {
            r.iter()
                .map(|(i, f)| format!("{} {f}", players[*i]))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    if g.json {
        return print_json(&serde_json::json!({"rounds": text, "commitment_ok": ok}));
    }
    outln!("{}", text.join("; then "));
    match ok {
        Some(true) => outln!("The seed matches the commitment."),
        Some(false) => bail!("the seed does NOT match the commitment"),
        None => {}
    }
    Ok(())
}

fn hex32(s: &str, flag: &str) -> Result<[u8; 32]> {
    let bytes = hex::decode(s.trim()).map_err(|_| usage(format!("{flag}: not hex")))?;
    <[u8; 32]>::try_from(bytes.as_slice())
        .map_err(|_| usage(format!("{flag}: 64 hex digits (32 bytes) expected")))
}

// ----- terminal output -----

fn explanation_lines(out: &mut String, lines: &[arbiter_service::views::ExplanationView]) {
    for e in lines {
        out.push_str(&format!("  - {}\n", e.line()));
    }
}

fn games_table(games: &[arbiter_service::xmadn::LeagueGameView]) -> String {
    // The document's numbering, the league-wide id beside it (ARB-R63);
    // pawns brought home per colour beside the counted pawns (ARB-R65).
    let mut t = table(&["game", "players", "pawns", "time", "status", "id"]);
    for gm in games {
        t.add_row(vec![
            Cell::new(&gm.stage),
            Cell::new(format!("{} v {}", gm.players[0], gm.players[1])),
            right(match (gm.score.clone(), gm.home_text()) {
                (Some(s), Some(h)) => format!("{s} (home {h})"),
                (s, _) => s.unwrap_or_default(),
            }),
            right(gm.time.clone().unwrap_or_default()),
            Cell::new(match (gm.status, gm.playable) {
                ("scheduled", true) => "to play now".to_string(),
                ("cancelled", _) => format!("cancelled: {}", gm.note.clone().unwrap_or_default()),
                (s, _) => s.to_string(),
            }),
            Cell::new(&gm.alias),
        ]);
    }
    format!("{t}\n")
}

pub fn render_league(v: &LeagueView) -> String {
    let mut out = format!(
        "{} — {}, {} DRR, playoff: {}, head start: {}\n{}\n\n",
        v.name,
        v.rule_set,
        v.double_round_robins,
        v.playoff,
        if v.head_start {
            "allowed (XM-R7)"
        } else {
            "not allowed (XM-R7)"
        },
        v.phase
    );
    out.push_str(if v.provisional {
        "Table (provisional, XM-R5)\n"
    } else {
        "Table\n"
    });
    let mut t = table(&["#", "player", "W-L", "pawns", "diff", "win min"]);
    for r in &v.table {
        t.add_row(vec![
            right(r.place),
            Cell::new(&r.player),
            right(format!("{}-{}", r.wins, r.losses)),
            right(format!("{}:{}", r.pawns_for, r.pawns_against)),
            right(r.pawn_difference),
            right(r.win_minutes),
        ]);
    }
    out.push_str(&format!("{t}\n"));
    explanation_lines(&mut out, &v.table_explanations);
    for d in &v.drrs {
        match d.status {
            "scheduled" => {
                out.push_str(&format!(
                    "\nDRR {}: #1 {}, #2 {}, #3 {}\n",
                    d.number,
                    d.positions.first().map_or("", |s| s.as_str()),
                    d.positions.get(1).map_or("", |s| s.as_str()),
                    d.positions.get(2).map_or("", |s| s.as_str()),
                ));
                if let Some(e) = &d.positions_explanation {
                    explanation_lines(&mut out, std::slice::from_ref(e));
                }
                out.push_str(&games_table(&d.games));
            }
            "cancelled" => out.push_str(&format!(
                "\nDRR {}: cancelled ({})\n",
                d.number,
                d.note.clone().unwrap_or_default()
            )),
            _ => out.push_str(&format!("\nDRR {}: positions not rolled yet\n", d.number)),
        }
    }
    out.push('\n');
    out.push_str(&format!("{}\n", v.determination.line()));
    if let Some(s) = &v.suggestion {
        out.push_str(&format!("{}\n", s.line()));
    }
    for p in &v.playoffs {
        out.push_str(&format!(
            "\n{} ({}): {} {}-{} {}{}\n",
            p.code,
            p.stage,
            p.higher,
            p.wins[0],
            p.wins[1],
            p.lower,
            p.winner
                .as_ref()
                .map_or(String::new(), |w| format!(" — {w} wins"))
        ));
        explanation_lines(&mut out, std::slice::from_ref(&p.explanation));
        if !p.games.is_empty() {
            out.push_str(&games_table(&p.games));
        }
    }
    if let Some(c) = &v.champion {
        out.push_str(&format!("\nChampion: {c}\n"));
    }
    out
}

pub fn render_challengers(v: &ChallengersView) -> String {
    let mut out = format!("{} — {}, first to {}\n\n", v.name, v.rule_set, v.first_to);
    if !v.qualifier.is_empty() {
        out.push_str(&format!(
            "Game 0 (3TQ): 1st {}, 2nd {}, 3rd {}\n",
            v.qualifier[0],
            v.qualifier.get(1).map_or("", |s| s.as_str()),
            v.qualifier.get(2).map_or("", |s| s.as_str())
        ));
    }
    let mut t = table(&["#", "player", "W-L", "at-boards", "sat out", "pawns"]);
    for s in &v.standings {
        t.add_row(vec![
            right(s.place),
            Cell::new(if s.champion {
                format!("{} (champion)", s.player)
            } else {
                s.player.clone()
            }),
            right(format!("{}-{}", s.wins, s.losses)),
            right(s.at_boards),
            right(s.sat_out),
            right(format!("{}:{}", s.pawns_for, s.pawns_against)),
        ]);
    }
    out.push_str(&format!("{t}\n"));
    if !v.games.is_empty() {
        let mut t = table(&["game", "players (colours)", "pawns", "time", "sat out"]);
        for gm in &v.games {
            t.add_row(vec![
                right(gm.number),
                Cell::new(format!(
                    "{} ({}) v {} ({})",
                    gm.players[0], gm.colours[0], gm.players[1], gm.colours[1]
                )),
                // The pawns brought home per colour beside the counted
                // pawns (ARB-R65).
                right(match gm.home_text() {
                    Some(h) => format!("{} (home {h})", gm.score),
                    None => gm.score.clone(),
                }),
                right(&gm.time),
                Cell::new(&gm.sat_out),
            ]);
        }
        out.push_str(&format!("{t}\n"));
    }
    if let Some(n) = &v.next {
        out.push_str(&format!("Next: {}\n", n.explanation.line()));
    }
    if let Some(c) = &v.champion_explanation {
        out.push_str(&format!("{}\n", c.line()));
    }
    out
}
