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

use std::path::{Path, PathBuf};

use arbiter_engine::RuleError;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::xmadn::challengers::{Challengers, Command, Event};
use arbiter_engine::xmadn::{ChallengersRules, Colours, RuleSet, parse_time};
use chrono::{NaiveDate, TimeZone, Utc};

type Step = Result<(), String>;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden-xmadn")
}

fn date(s: &str) -> Result<Time, String> {
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|e| format!("bad date `{s}`: {e}"))?;
    let naive = d.and_hms_opt(0, 0, 0).ok_or("bad time")?;
    Ok(Utc.from_utc_datetime(&naive))
}

/// Split a line into tokens: spaces separate, `"..."` quotes (also after
/// `key=`), `#` at the start of a token begins a comment.
fn tokenize(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_token = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_token = true;
                let mut closed = false;
                for q in chars.by_ref() {
                    if q == '"' {
                        closed = true;
                        break;
                    }
                    cur.push(q);
                }
                if !closed {
                    return Err("unclosed quote".into());
                }
            }
            '#' if !in_token => break,
            c if c.is_whitespace() => {
                if in_token {
                    out.push(std::mem::take(&mut cur));
                    in_token = false;
                }
            }
            c => {
                in_token = true;
                cur.push(c);
            }
        }
    }
    if in_token {
        out.push(cur);
    }
    Ok(out)
}

/// Positional tokens and `key=value` options of a line.
struct Args {
    pos: Vec<String>,
    opts: Vec<(String, String)>,
}

impl Args {
    fn parse(tokens: &[String]) -> Args {
        let mut pos = Vec::new();
        let mut opts = Vec::new();
        for t in tokens {
            match t.split_once('=') {
                Some((k, v))
                    if !k.is_empty()
                        && k.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
                {
                    opts.push((k.to_string(), v.to_string()));
                }
                _ => pos.push(t.clone()),
            }
        }
        Args { pos, opts }
    }

    fn opt(&self, key: &str) -> Option<&str> {
        self.opts
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn req(&self, key: &str) -> Result<&str, String> {
        self.opt(key)
            .ok_or_else(|| format!("missing option {key}=..."))
    }

    fn at(&self, i: usize) -> Result<&str, String> {
        self.pos
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| format!("missing argument {}", i + 1))
    }

    fn only(&self, allowed: &[&str]) -> Step {
        for (k, _) in &self.opts {
            if !allowed.contains(&k.as_str()) {
                return Err(format!(
                    "unknown option `{k}` (allowed: {})",
                    allowed.join(", ")
                ));
            }
        }
        Ok(())
    }
}

fn parse_num<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("not a number: `{s}`"))
}

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

/// A refused command whose `expect error` has not been seen yet.
struct Pending {
    line: usize,
    error: RuleError,
    before: Box<Challengers>,
}

struct Runner {
    state: Challengers,
    log: Vec<Event>,
    clock: Time,
    pending: Option<Pending>,
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
                let Some(p) = self.pending.take() else {
                    return Err(
                        "expected the previous command to be refused, but it was accepted".into(),
                    );
                };
                let shown = p.error.to_string();
                if !p.error.message.contains(args.at(0)?) {
                    return Err(format!(
                        "expected a refusal containing {:?}, got: {shown}",
                        args.at(0)?
                    ));
                }
                if let Some(c) = args.opt("clause")
                    && !p.error.clause.contains(c)
                {
                    return Err(format!("expected the refusal to cite {c:?}, got: {shown}"));
                }
                if let Some(f) = args.opt("field")
                    && p.error.field.as_deref() != Some(f)
                {
                    return Err(format!(
                        "expected the refusal to name field `{f}`, got: {shown}"
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
        let tokens = tokenize(text)?;
        let Some((verb, rest)) = tokens.split_first() else {
            return Ok(());
        };
        if verb == "expect" {
            let (what, rest) = rest.split_first().ok_or("expect what?")?;
            if what != "error"
                && let Some(p) = &self.pending
            {
                return Err(format!(
                    "the command of line {} was refused: {}",
                    p.line, p.error
                ));
            }
            return self.expect(what, &Args::parse(rest));
        }
        if let Some(p) = &self.pending {
            return Err(format!(
                "the command of line {} was refused (no `expect error` followed): {}",
                p.line, p.error
            ));
        }
        if let Some(before) = self.refused_before.take()
            && *before != self.state
        {
            return Err("the state changed after a refused command".into());
        }
        self.command(line, verb, &Args::parse(rest))
    }
}

struct CaseFile {
    path: PathBuf,
    text: String,
}

impl CaseFile {
    fn name(&self) -> String {
        self.path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }
}

/// Whitespace collapsed and typographic quotes made plain.
fn normalize(s: &str) -> String {
    let plain: String = s
        .chars()
        .map(|c| match c {
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' => '"',
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{2032}' => '\'',
            c => c,
        })
        .collect();
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The header: a quoted clause found in the rule document and a ruling line.
fn check_header(case: &CaseFile, rules_doc: &str) -> Result<(), (usize, String)> {
    let mut lines = case.text.lines();
    let first = lines.next().ok_or((1, "empty case".to_string()))?;
    let clause = first.strip_prefix("# clause: \"").ok_or((
        1,
        "the first line must be `# clause: \"<quote>\" (XMadn Challengers)`".to_string(),
    ))?;
    let (quote, section) = clause
        .rsplit_once('"')
        .ok_or((1, "unclosed clause quote".to_string()))?;
    let section = section.trim();
    if !(section.starts_with("(XMadn ") && section.ends_with(')')) {
        return Err((
            1,
            format!(
                "name the section after the quote: `(XMadn Challengers)` (or the section quoted), not `{section}`"
            ),
        ));
    }
    let doc = normalize(rules_doc);
    for fragment in quote.split("...") {
        let f = normalize(fragment);
        if !f.is_empty() && !doc.contains(&f) {
            return Err((
                1,
                format!("the quoted clause is not in xmadn-double-threat.txt: {f:?}"),
            ));
        }
    }
    let second = lines
        .next()
        .ok_or((2, "missing `# ruling:` line".to_string()))?;
    let rulings = second.strip_prefix("# ruling: ").ok_or((
        2,
        "the second line must be `# ruling: <ids>` (or `none`)".to_string(),
    ))?;
    for r in rulings.split(',').map(str::trim) {
        let ok = r == "none"
            || ["XM-R", "ARB-R"].iter().any(|p| {
                r.strip_prefix(p)
                    .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            });
        if !ok {
            return Err((2, format!("not a ruling id: `{r}`")));
        }
    }
    Ok(())
}

/// Run one case: the failing line and message, if any.
fn run_case(case: &CaseFile) -> Result<(), (usize, String)> {
    let mut runner = Runner::new().map_err(|e| (0, e))?;
    for (i, text) in case.text.lines().enumerate() {
        runner.run_line(i + 1, text).map_err(|e| (i + 1, e))?;
    }
    let end = case.text.lines().count();
    if let Some(p) = &runner.pending {
        return Err((
            p.line,
            format!(
                "the command was refused (no `expect error` followed): {}",
                p.error
            ),
        ));
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

fn load_cases() -> Vec<CaseFile> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("tests/golden-xmadn exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "case")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("challengers-"))
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable case");
            CaseFile { path, text }
        })
        .collect()
}

#[test]
fn golden_challengers_cases() {
    let rules_doc = std::fs::read_to_string(golden_dir().join("xmadn-double-threat.txt"))
        .expect("the rule document");
    let cases = load_cases();
    assert!(cases.len() >= 9, "only {} golden cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        if let Err((line, msg)) = check_header(case, &rules_doc).and_then(|()| run_case(case)) {
            failures.push(format!("tests/golden-xmadn/{}:{line}: {msg}", case.name()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden case(s) failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
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
