//! Golden cases for XMadn Challengers, as data: every
//! `tests/golden-xmadn/challengers-*.case` file is a script of commands and
//! expectations, starting with the clause of the rule document it tests
//! (quoted) and the rulings it applies.
//!
//! The harness drives the engine only: it builds [`Command`]s, asks
//! [`Challengers::decide`], applies the events and checks the expectations.
//! On failure it names the case file and line.
//!
//! # Format
//!
//! One command or expectation a line; `#` starts a comment (outside quotes);
//! tokens are separated by spaces, `"..."` quotes a token with spaces,
//! `key=value` (or `key="a b"`) gives an option. Names are player names as
//! created (any case); `@7` names player id 7 (for unknown players). Dates
//! are `YYYY-MM-DD` (UTC midnight).
//!
//! Header (required, first lines):
//!
//! ```text
//! # clause: "<words quoted from xmadn-double-threat.txt>" (XMadn Challengers)
//! # ruling: XM-R8, ARB-R25    (ids separated by commas, or `none`)
//! ```
//!
//! The section in parentheses is `(XMadn Challengers)`, or the section the
//! quote comes from (`(XMadn Double-Threat)` for the rule sets).
//!
//! The quote may elide with `...` between fragments; whitespace and quote
//! characters (“ ” ‘ ’) are normalised before it is looked up.
//!
//! Commands (`create` comes first):
//!
//! ```text
//! create players="Ames Baker Clark" [first_to=5] [min_first_to=4] [rules=2T|2T+]
//!        [board=red,blue,green,yellow] [star=red,orange,...] [name="..."]
//! on DATE                                     (the time of the following commands)
//! qualifier FIRST SECOND THIRD choose=V/R [time=m:ss] [colours=c1,c2,c3]
//!                                             (Game 0; colours in order of entry)
//! game W>L P-Q [time=m:ss]                    (a counted game: W beat L, W had P counted
//!                                              pawns and L had Q; time 10:00 by default.
//!                                              An accepted game must make W the winner.)
//! ```
//!
//! Expectations (`expect ...`), checked against the state after the previous
//! lines:
//!
//! ```text
//! error "text" [clause="text"] [field=NAME]   the previous command was refused with this in
//!                                             its message; the state is unchanged
//! board A:V/R B:V/R out=C | board none        (the board of the next game, either order)
//! wins NAME K     losses NAME K     at-boards NAME K     sat-out NAME K
//! pawns NAME FOR-AGAINST            min-at-boards K      (every player at least K)
//! champion NAME|none                games K              (counted games recorded)
//! next "text" | next none           (the next game's explanation contains the text)
//! explain N "text"                  (game N's explanation contains the text)
//! standings NAME NAME NAME          (the order of the standings)
//! ```
//!
//! Besides each case's expectations the harness checks, for every case: a
//! refused command leaves the state unchanged; an error not expected fails;
//! the fold of the event log equals the applied state, and every event of
//! the log passes `try_apply` from scratch; the quoted clause is found in
//! the rule document (`tests/golden-xmadn/xmadn-double-threat.txt`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::xmadn::challengers::{Challengers, Command, Event};
use arbiter_engine::xmadn::{ChallengersRules, Colours, RuleSet, parse_time};
use common::golden::{
    Args, CaseFile, Failure, Line, Pending, Step, Suite, assert_passed, date, expect_refusal,
    normalize, parse_num, tokenize,
};

fn parse_time_arg(s: &str) -> Result<u32, String> {
    parse_time(s).ok_or_else(|| format!("not a time: `{s}` (m:ss)"))
}

fn parse_colours(s: &str) -> Result<Colours, String> {
    let (v, r) = s
        .split_once('/')
        .ok_or_else(|| format!("allied colours are VANGUARD/REARGUARD, not `{s}`"))?;
    Ok(Colours {
        vanguard: v.to_string(),
        rearguard: r.to_string(),
    })
}

fn list(s: &str) -> Vec<String> {
    s.split(',').map(|c| c.trim().to_string()).collect()
}

struct Runner {
    state: Challengers,
    log: Vec<Event>,
    clock: Time,
    pending: Option<Pending<Challengers>>,
    /// The state before the last refused command, kept until the next
    /// command so that it can be compared once more.
    refused_before: Option<Box<Challengers>>,
}

impl Runner {
    fn new() -> Result<Runner, String> {
        Ok(Runner {
            state: Challengers::default(),
            log: Vec::new(),
            clock: date("2026-01-01")?,
            pending: None,
            refused_before: None,
        })
    }

    fn player(&self, name: &str) -> Result<PlayerId, String> {
        if let Some(n) = name.strip_prefix('@') {
            return Ok(PlayerId(parse_num(n)?));
        }
        self.state
            .find(name)
            .ok_or_else(|| format!("no player named `{name}` (a typo in the case?)"))
    }

    fn name(&self, p: PlayerId) -> String {
        self.state.name_of(p)
    }

    /// Decide and apply one command. A refusal becomes the pending error.
    fn exec(&mut self, line: usize, command: Command) {
        let before = self.state.clone();
        match self.state.decide(command) {
            Ok(events) => {
                for e in events {
                    self.state.apply(&e);
                    self.log.push(e);
                }
            }
            Err(error) => {
                self.pending = Some(Pending {
                    line,
                    error,
                    before: Box::new(before),
                });
            }
        }
    }

    fn command(&mut self, line: usize, verb: &str, args: &Args) -> Step {
        if verb != "create" && verb != "on" && !self.state.created {
            return Err("start the case with `create players=\"...\"`".into());
        }
        match verb {
            "create" => {
                args.only(&[
                    "players",
                    "first_to",
                    "min_first_to",
                    "rules",
                    "board",
                    "star",
                    "name",
                ])?;
                let mut rules = ChallengersRules::default();
                if let Some(v) = args.opt("first_to") {
                    rules.first_to = parse_num(v)?;
                }
                if let Some(v) = args.opt("min_first_to") {
                    rules.min_first_to = parse_num(v)?;
                }
                if let Some(v) = args.opt("rules") {
                    rules.rule_set =
                        RuleSet::parse(v).ok_or_else(|| format!("not a rule set: `{v}`"))?;
                }
                if let Some(v) = args.opt("board") {
                    rules.board_colours = list(v);
                }
                if let Some(v) = args.opt("star") {
                    rules.star_colours = list(v);
                }
                let players = args
                    .req("players")?
                    .split_whitespace()
                    .map(String::from)
                    .collect();
                self.exec(
                    line,
                    Command::Create {
                        name: args.opt("name").unwrap_or("golden").to_string(),
                        rules,
                        players,
                    },
                );
            }
            "on" => {
                args.only(&[])?;
                self.clock = date(args.at(0)?)?;
            }
            "qualifier" => {
                args.only(&["choose", "time", "colours"])?;
                if args.pos.len() != 3 {
                    return Err("qualifier FIRST SECOND THIRD choose=V/R".into());
                }
                let finishing = [
                    self.player(args.at(0)?)?,
                    self.player(args.at(1)?)?,
                    self.player(args.at(2)?)?,
                ];
                let colours = match args.opt("colours") {
                    None => None,
                    Some(v) => {
                        let cs = list(v);
                        Some(<[String; 3]>::try_from(cs).map_err(|_| {
                            "colours=c1,c2,c3: one colour for each player".to_string()
                        })?)
                    }
                };
                self.exec(
                    line,
                    Command::RecordQualifier {
                        finishing,
                        colours,
                        seconds: args.opt("time").map(parse_time_arg).transpose()?,
                        chosen: parse_colours(args.req("choose")?)?,
                        at: self.clock,
                    },
                );
            }
            "game" => {
                args.only(&["time"])?;
                let (w, l) = args
                    .at(0)?
                    .split_once('>')
                    .ok_or("a game is `game W>L P-Q`")?;
                let (w, l) = (self.player(w)?, self.player(l)?);
                let (pw, pl) = args
                    .at(1)?
                    .split_once('-')
                    .ok_or("pawns are P-Q (the winner's first)")?;
                let pawns = [parse_num(pw)?, parse_num(pl)?];
                let seconds = parse_time_arg(args.opt("time").unwrap_or("10:00"))?;
                let games = self.state.games().len();
                self.exec(
                    line,
                    Command::RecordGame {
                        players: [w, l],
                        pawns,
                        seconds,
                        at: self.clock,
                    },
                );
                if self.pending.is_none()
                    && let Some(g) = self.state.games().get(games)
                    && g.winner() != w
                {
                    return Err(format!(
                        "the score {}-{} makes {} the winner, not {}",
                        pawns[0],
                        pawns[1],
                        self.name(g.winner()),
                        self.name(w)
                    ));
                }
            }
            other => return Err(format!("unknown command `{other}`")),
        }
        Ok(())
    }

    fn record_figure(&self, what: &str, args: &Args) -> Step {
        let p = self.player(args.at(0)?)?;
        let r = self
            .state
            .record(p)
            .ok_or_else(|| format!("no record for {}", args.at(0).unwrap_or("?")))?;
        let (got, want) = match what {
            "wins" => (r.wins.to_string(), args.at(1)?.to_string()),
            "losses" => (r.losses.to_string(), args.at(1)?.to_string()),
            "at-boards" => (r.at_boards.to_string(), args.at(1)?.to_string()),
            "sat-out" => (r.sat_out.to_string(), args.at(1)?.to_string()),
            _ => (
                format!("{}-{}", r.pawns_for, r.pawns_against),
                args.at(1)?.to_string(),
            ),
        };
        if got == want {
            Ok(())
        } else {
            Err(format!(
                "expected {what} of {} to be {want}, got {got}",
                self.name(p)
            ))
        }
    }

    fn expect(&mut self, what: &str, args: &Args) -> Step {
        let text_in = |shown: &str, want: &str| -> Step {
            if shown.contains(want) {
                Ok(())
            } else {
                Err(format!("expected text containing {want:?}, got {shown:?}"))
            }
        };
        match what {
            "error" => {
                let p = expect_refusal(&mut self.pending, args)?;
                if let Some(f) = args.opt("field")
                    && p.error.field.as_deref() != Some(f)
                {
                    return Err(format!(
                        "expected the refusal to name field `{f}`, got: {}",
                        p.error
                    ));
                }
                if *p.before != self.state {
                    return Err(format!(
                        "the refused command (line {}) changed the state",
                        p.line
                    ));
                }
                self.refused_before = Some(p.before);
                Ok(())
            }
            "board" => {
                let board = self.state.board();
                if args.at(0)? == "none" {
                    return match board {
                        None => Ok(()),
                        Some(b) => Err(format!(
                            "expected no board, got {} v {}",
                            self.name(b.players[0]),
                            self.name(b.players[1])
                        )),
                    };
                }
                let b = board.ok_or("expected a board, but there is none")?;
                let shown = format!(
                    "{}:{} {}:{} out={}",
                    self.name(b.players[0]),
                    b.colours[0],
                    self.name(b.players[1]),
                    b.colours[1],
                    self.name(b.out)
                );
                if args.pos.len() != 2 {
                    return Err("board A:V/R B:V/R out=C".into());
                }
                for spec in &args.pos {
                    let (n, c) = spec
                        .split_once(':')
                        .ok_or_else(|| format!("a board place is NAME:V/R, not `{spec}`"))?;
                    let p = self.player(n)?;
                    let want = parse_colours(c)?;
                    if b.colours_of(p) != Some(&want) {
                        return Err(format!("expected {spec} at the board, got {shown}"));
                    }
                }
                let out = self.player(args.req("out")?)?;
                if b.out != out {
                    return Err(format!(
                        "expected {} to sit out, got {shown}",
                        self.name(out)
                    ));
                }
                Ok(())
            }
            "wins" | "losses" | "at-boards" | "sat-out" | "pawns" => self.record_figure(what, args),
            "min-at-boards" => {
                let k: u32 = parse_num(args.at(0)?)?;
                for p in self.state.player_ids() {
                    let n = self.state.record(p).map_or(0, |r| r.at_boards);
                    if n < k {
                        return Err(format!(
                            "{} has {n} at-boards, fewer than {k}",
                            self.name(p)
                        ));
                    }
                }
                Ok(())
            }
            "champion" => {
                let got = self
                    .state
                    .champion()
                    .map_or_else(|| "none".to_string(), |p| self.name(p));
                let want = args.at(0)?;
                if want == "none" && got == "none"
                    || want != "none" && self.state.champion() == Some(self.player(want)?)
                {
                    Ok(())
                } else {
                    Err(format!("expected champion {want}, got {got}"))
                }
            }
            "games" => {
                let got = self.state.games().len();
                let want: usize = parse_num(args.at(0)?)?;
                if got == want {
                    Ok(())
                } else {
                    Err(format!("expected {want} counted games, got {got}"))
                }
            }
            "next" => {
                let next = self.state.next_game();
                match (args.at(0)?, next) {
                    ("none", None) => Ok(()),
                    ("none", Some(n)) => {
                        Err(format!("expected no next game, got: {}", n.explanation))
                    }
                    (_, None) => Err("expected a next game, there is none".into()),
                    (want, Some(n)) => text_in(&n.explanation.to_string(), want),
                }
            }
            "explain" => {
                let n: u32 = parse_num(args.at(0)?)?;
                let e = self
                    .state
                    .explain_game(n)
                    .ok_or_else(|| format!("game {n} has no explanation"))?;
                text_in(&e.to_string(), args.at(1)?)
            }
            "standings" => {
                let want: Vec<PlayerId> = args
                    .pos
                    .iter()
                    .map(|n| self.player(n))
                    .collect::<Result<_, _>>()?;
                let got: Vec<PlayerId> = self.state.standings().iter().map(|s| s.player).collect();
                if got == want {
                    Ok(())
                } else {
                    let names =
                        |ps: &[PlayerId]| ps.iter().map(|p| self.name(*p)).collect::<Vec<_>>();
                    Err(format!(
                        "expected standings {:?}, got {:?}",
                        names(&want),
                        names(&got)
                    ))
                }
            }
            other => Err(format!("unknown expectation `{other}`")),
        }
    }

    fn run_line(&mut self, line: usize, text: &str) -> Step {
        let parsed = Line::parse(text)?;
        if let Some(p) = &self.pending {
            p.check_follows(&parsed)?;
        }
        match parsed {
            Line::Blank => Ok(()),
            Line::Expect(what, args) => self.expect(&what, &args),
            Line::Command(verb, args) => {
                if let Some(before) = self.refused_before.take()
                    && *before != self.state
                {
                    return Err("the state changed after a refused command".into());
                }
                self.command(line, &verb, &args)
            }
        }
    }
}

/// Run one case: the failing line and message, if any.
fn run_case(case: &CaseFile) -> Result<(), Failure> {
    let mut runner = Runner::new().map_err(|e| (0, e))?;
    for (i, text) in case.text.lines().enumerate() {
        runner.run_line(i + 1, text).map_err(|e| (i + 1, e))?;
    }
    let end = case.text.lines().count();
    if let Some(p) = &runner.pending {
        return Err(p.unanswered());
    }
    if Challengers::fold(&runner.log) != runner.state {
        return Err((
            end,
            "the fold of the event log differs from the applied state".into(),
        ));
    }
    let mut fresh = Challengers::default();
    for (i, e) in runner.log.iter().enumerate() {
        fresh.try_apply(e).map_err(|err| {
            (
                end,
                format!("event {} ({}) does not fold: {err}", i + 1, e.kind()),
            )
        })?;
    }
    Ok(())
}

/// The Challengers cases: `tests/golden-xmadn/challengers-*.case`, quoting
/// `xmadn-double-threat.txt`.
const SUITE: Suite = Suite {
    dir: "golden-xmadn",
    prefix: "challengers-",
    document: "xmadn-double-threat.txt",
    section: "(XMadn ",
    header_section: "(XMadn Challengers)",
    section_help: "`(XMadn Challengers)` (or the section quoted)",
    rulings: &["XM-R", "ARB-R"],
    min_words: 0,
};

#[test]
fn golden_challengers_cases() {
    let cases = SUITE.cases();
    assert!(cases.len() >= 9, "only {} golden cases", cases.len());
    let failures = SUITE.failures(&cases, false, run_case);
    assert_passed(&failures, cases.len(), "golden");
}

#[test]
fn quotes_are_normalised() {
    assert_eq!(
        normalize("shall be \u{201C}first-to-4\u{201D},\n  thus"),
        "shall be \"first-to-4\", thus"
    );
}

#[test]
fn tokenizer_handles_quotes_and_comments() {
    let t = tokenize(r#"game Ames>Baker 4-2 time=12:30 # comment "x""#).unwrap();
    assert_eq!(t, vec!["game", "Ames>Baker", "4-2", "time=12:30"]);
    let t = tokenize(r#"create players="Ames Baker Clark""#).unwrap();
    assert_eq!(t, vec!["create", "players=Ames Baker Clark"]);
    assert!(tokenize(r#"x "open"#).is_err());
}
