//! Golden cases for the TWS ladder, as data: every `tests/golden/*.case`
//! file is a script of commands and expectations, starting with the clause
//! of the rule document it tests (quoted) and the ruling it applies.
//!
//! The harness drives the engine only: it builds [`Command`]s, asks
//! [`Ladder::decide`], applies the events and checks the expectations. On
//! failure it names the case file and line.
//!
//! # Format
//!
//! One command or expectation a line; `#` starts a comment (outside quotes);
//! tokens are separated by spaces, `"..."` quotes a token with spaces,
//! `key=value` (or `key="a b"`) gives an option. Names are player names as
//! registered; `@7` names player id 7 (for unknown players). Dates are
//! `YYYY-MM-DD` (UTC midnight).
//!
//! Header (required, first lines):
//!
//! ```text
//! # clause: "<words quoted from tws-ladder.txt>" (TWS <Section>)
//! # ruling: TWS-R3            (ids separated by commas, or `none`)
//! ```
//!
//! Game references (`GREF`): `G7` (game id 7) or `Ames/Baker` (the latest
//! game with both). Outcomes (`SPEC`): `Ames>Baker` (Ames beat Baker),
//! `tie:Ames/Baker`, or `G7:ussr` / `G7:us` / `G7:tie`.
//!
//! Commands (the ladder is created with default rules before the first
//! command unless `create` comes first):
//!
//! ```text
//! create [rule=value ...]                  rules: deadline_months, bid=3:us, tie_advances,
//!                                          consecutive_skips_for_loss, missed_rounds_for_inactive,
//!                                          sides_count_quick_rounds, game_name_prefix, quick_round_prefix
//! rules [from=N] reason="..." rule=value... change the rules (from the next round by default)
//! moderator NAME...   unmoderator NAME
//! join NAME...        apply NAME...     approve NAME...   decline NAME reason="..."
//! guest NAME...       eliminator NAME... stand-down NAME  withdraw NAME reason="..."   reenter NAME
//! skip NAME... [round=N]                 unskip NAME [round=N]
//! announce DATE [deadline=DATE] [eliminator=NAME] [badseed]
//! override DATE reason="..." A:B ... [bye=NAME] [deadline=DATE]
//! add-game NAME OPPONENT reason="..."    (a late pairing in the running round)
//! quick USSR US                          (a quick-round game)
//! on DATE                                (the clock for the following commands)
//! result SPEC [end=vp] [vp=N] [turn=N] [note="..."]    tie A B
//! agree SPEC          forfeit NAME [game=GREF]
//! adjudicate SPEC state="..." decision="..." [ussr-says=..] [us-says=..] [third=..] [vp=N] [turn=N]
//! correct SPEC reason="..." [end=..]     cancel GREF reason="..."
//! report NAME SPEC [end=..] [vp=N] [turn=N] [note=".."]  (a player reports, ARB-R45)
//! confirm GREF by=NAME|mod=NAME         reject GREF by=NAME|mod=NAME reason="..."
//! close DATE          undo ["summary"]   (revert the last event in force)
//! close-early DATE reason="..."          (carry unfinished games over, ARB-R21)
//! ```
//!
//! Expectations (`expect ...`), checked against the state after the previous
//! lines:
//!
//! ```text
//! error "text" [clause="text"]   the previous command was refused with this in its message;
//!                                the ladder state is unchanged
//! order NAME...                  champion NAME|none       streak NAME K
//! rung NAME K                    inactive NAME...         status NAME member|applicant|...
//! game "Ladder Round 1 A v. B"   (a game of that exact name exists)
//! paired A B                     (a game of the last round between them, either side)
//! games K                        (number of games of the last round)
//! ussr NAME | us NAME            (side in his latest game)
//! counts NAME ladder|quick       (what his latest game counts as for him)
//! sides-why GREF "text"          pairing GREF "text"     drawn GREF
//! explain NAME "text"            (his move at the last close)   retired NAME "text"
//! deadline DATE                  (of the last round)      game-deadline GREF DATE
//! bid ROUND INFLUENCE SIDE       game-bid GREF INFLUENCE SIDE
//! moderator GREF NAME            game-status GREF STATUS  outcome GREF ussr|us|tie
//! corrections GREF K             adjudication GREF "text"
//! report GREF NAME|none          (who made the pending report)  report-why GREF "text"
//! stats ladder|quick|all|bid=3:us|end=vp ussr=K us=K ties=K
//! record NAME ladder|quick W-L-T history NAME ussr=K us=K [last=SIDE]
//! leaderboard NAME...            unpaired NAME...         byes NAME...
//! missed NAME K                  skip-streak NAME K       rounds K
//! last-events KIND...            (kinds of the last events of the log, e.g. result-corrected)
//! ```
//!
//! Draw seeds are fixed: the seed of round n is `[n; 32]`; `Create`
//! commits round 1's and every announcement commits the next one's.
//!
//! Besides each case's expectations the harness checks, for every case: a
//! refused command leaves the state unchanged; an error not expected fails;
//! the fold of the event log equals the incrementally applied state; a
//! second run gives the same events (draws are reproducible); the quoted
//! clause is found word for word in the rule document
//! (`tests/golden/tws-ladder.txt`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{
    Adjudication, Counts, EndTag, GameId, GameStatus, Outcome, PlayerId, Side, Time,
};
use arbiter_engine::tws::stats::SideTally;
use arbiter_engine::tws::{
    Bid, Command, Confirmer, Event, Game, Ladder, LadderRules, Membership, PairingPlan,
    ResultInput, SideReason, fold,
};
use common::golden::{
    Args, CaseFile, Failure, Line, Pending, Step, Suite, assert_passed, date, expect_refusal,
    parse_num, tokenize,
};

/// The draw seed of round `n` (fixed so cases are reproducible).
fn seed_of(n: u32) -> Seed {
    [u8::try_from(n % 256).unwrap_or(0); 32]
}

fn parse_side(s: &str) -> Result<Side, String> {
    Side::parse(s).ok_or_else(|| format!("not a side: `{s}`"))
}

fn parse_bool(s: &str) -> Result<bool, String> {
    match s {
        "true" | "yes" => Ok(true),
        "false" | "no" => Ok(false),
        _ => Err(format!("not a boolean: `{s}`")),
    }
}

fn parse_bid(s: &str) -> Result<Bid, String> {
    let (n, side) = s
        .split_once(':')
        .ok_or_else(|| format!("a bid is INFLUENCE:SIDE, not `{s}`"))?;
    Ok(Bid {
        influence: parse_num(n)?,
        side: parse_side(side)?,
    })
}

const RULE_KEYS: [&str; 8] = [
    "deadline_months",
    "bid",
    "tie_advances",
    "consecutive_skips_for_loss",
    "missed_rounds_for_inactive",
    "sides_count_quick_rounds",
    "game_name_prefix",
    "quick_round_prefix",
];

fn set_rules(rules: &mut LadderRules, args: &Args) -> Step {
    for (k, v) in &args.opts {
        match k.as_str() {
            "deadline_months" => rules.deadline_months = parse_num(v)?,
            "bid" => rules.bid = parse_bid(v)?,
            "tie_advances" => rules.tie_advances = parse_side(v)?,
            "consecutive_skips_for_loss" => rules.consecutive_skips_for_loss = parse_num(v)?,
            "missed_rounds_for_inactive" => rules.missed_rounds_for_inactive = parse_num(v)?,
            "sides_count_quick_rounds" => rules.sides_count_quick_rounds = parse_bool(v)?,
            "game_name_prefix" => rules.game_name_prefix.clone_from(v),
            "quick_round_prefix" => rules.quick_round_prefix.clone_from(v),
            "from" | "reason" => {}
            _ => {
                return Err(format!(
                    "unknown rule `{k}` (known: {})",
                    RULE_KEYS.join(", ")
                ));
            }
        }
    }
    Ok(())
}

fn status_name(s: GameStatus) -> &'static str {
    s.name()
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Side::Ussr) => "ussr",
        Outcome::Win(Side::Us) => "us",
        Outcome::Tie => "tie",
    }
}

struct Runner {
    ladder: Ladder,
    log: Vec<(u64, Event)>,
    clock: Time,
    pending: Option<Pending<Ladder>>,
    /// The state before the last refused command, kept until the next
    /// command so `expect` lines after `expect error` can still compare.
    refused_before: Option<Box<Ladder>>,
}

impl Runner {
    fn new() -> Result<Runner, String> {
        Ok(Runner {
            ladder: Ladder::default(),
            log: Vec::new(),
            clock: date("2026-01-01")?,
            pending: None,
            refused_before: None,
        })
    }

    // ---- lookups -------------------------------------------------------

    fn player(&self, name: &str) -> Result<PlayerId, String> {
        if let Some(n) = name.strip_prefix('@') {
            return Ok(PlayerId(parse_num(n)?));
        }
        self.ladder
            .find(name)
            .ok_or_else(|| format!("no player named `{name}` (a typo in the case?)"))
    }

    fn name(&self, p: PlayerId) -> String {
        self.ladder.name_of(p)
    }

    fn names(&self, list: &[PlayerId]) -> String {
        list.iter()
            .map(|p| self.name(*p))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn players(&self, names: &[String]) -> Result<Vec<PlayerId>, String> {
        names.iter().map(|n| self.player(n)).collect()
    }

    /// The latest game with both players.
    fn game_between(&self, a: PlayerId, b: PlayerId) -> Result<GameId, String> {
        self.ladder
            .games
            .iter()
            .rev()
            .find(|g| g.has_player(a) && g.has_player(b))
            .map(|g| g.id)
            .ok_or_else(|| format!("no game between {} and {}", self.name(a), self.name(b)))
    }

    fn game_id(&self, r: &str) -> Result<GameId, String> {
        if let Some(n) = r.strip_prefix('G')
            && !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
        {
            return Ok(GameId(parse_num(n)?));
        }
        let (a, b) = r
            .split_once('/')
            .ok_or_else(|| format!("a game is G<n> or A/B, not `{r}`"))?;
        self.game_between(self.player(a)?, self.player(b)?)
    }

    fn game(&self, r: &str) -> Result<&Game, String> {
        let id = self.game_id(r)?;
        self.ladder
            .game(id)
            .ok_or_else(|| format!("there is no game {id}"))
    }

    /// An outcome spec: `A>B`, `tie:A/B`, `G7:ussr|us|tie`.
    fn spec(&self, s: &str) -> Result<(GameId, Outcome), String> {
        if let Some(rest) = s.strip_prefix("tie:") {
            return Ok((self.game_id(rest)?, Outcome::Tie));
        }
        if let Some((w, l)) = s.split_once('>') {
            let (w, l) = (self.player(w)?, self.player(l)?);
            let id = self.game_between(w, l)?;
            let side = self
                .ladder
                .game(id)
                .and_then(|g| g.side_of(w))
                .ok_or("winner not in game")?;
            return Ok((id, Outcome::Win(side)));
        }
        if let Some((g, o)) = s.split_once(':') {
            let id = self.game_id(g)?;
            let outcome = match o {
                "tie" => Outcome::Tie,
                other => Outcome::Win(parse_side(other)?),
            };
            return Ok((id, outcome));
        }
        Err(format!(
            "an outcome is A>B, tie:A/B or G<n>:ussr|us|tie, not `{s}`"
        ))
    }

    fn result_input(outcome: Outcome, args: &Args) -> Result<ResultInput, String> {
        let default_end = if outcome == Outcome::Tie {
            "final-scoring"
        } else {
            "vp"
        };
        Ok(ResultInput {
            outcome,
            ended_by: EndTag::parse(args.opt("end").unwrap_or(default_end))
                .map_err(|e| format!("end: {e}"))?,
            vp: args.opt("vp").map(parse_num).transpose()?,
            turn: args.opt("turn").map(parse_num).transpose()?,
            note: args.opt("note").map(str::to_string),
        })
    }

    fn last_round(&self) -> Result<&arbiter_engine::tws::Round, String> {
        self.ladder
            .last_round()
            .ok_or_else(|| "no round yet".to_string())
    }

    // ---- running -------------------------------------------------------

    /// Decide and apply one command. A refusal becomes the pending error.
    fn exec(&mut self, line: usize, command: Command) {
        let before = self.ladder.clone();
        match self.ladder.decide(command) {
            Ok(events) => {
                let mut refold = false;
                for e in events {
                    let seq = self.log.len() as u64 + 1;
                    if matches!(e, Event::Reverted { .. }) {
                        refold = true;
                    } else {
                        self.ladder.apply(&e);
                    }
                    self.log.push((seq, e));
                }
                if refold {
                    self.ladder = fold(self.log.iter().map(|(s, e)| (*s, e)));
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

    fn ensure_created(&mut self, line: usize) -> Step {
        if !self.ladder.created {
            self.exec(
                line,
                Command::Create {
                    name: "golden".into(),
                    rules: LadderRules::default(),
                    seed_hash: draw::commitment(&seed_of(1)),
                },
            );
            if let Some(p) = self.pending.take() {
                return Err(format!("create failed: {}", p.error));
            }
        }
        Ok(())
    }

    /// Run each command in turn, stopping at the first refusal.
    fn exec_all(&mut self, line: usize, commands: Vec<Command>) {
        for c in commands {
            self.exec(line, c);
            if self.pending.is_some() {
                return;
            }
        }
    }

    fn command(&mut self, line: usize, verb: &str, args: &Args) -> Step {
        if verb != "create" {
            self.ensure_created(line)?;
        }
        let each = |r: &Runner, f: &dyn Fn(PlayerId) -> Command| -> Result<Vec<Command>, String> {
            r.players(&args.pos)?
                .into_iter()
                .map(|p| Ok(f(p)))
                .collect()
        };
        let commands: Vec<Command> = match verb {
            "create" => {
                args.only(&RULE_KEYS)?;
                let mut rules = LadderRules::default();
                set_rules(&mut rules, args)?;
                vec![Command::Create {
                    name: "golden".into(),
                    rules,
                    seed_hash: draw::commitment(&seed_of(1)),
                }]
            }
            "rules" => {
                let mut rules = self.ladder.current_rules().clone();
                set_rules(&mut rules, args)?;
                vec![Command::ChangeRules {
                    rules,
                    from_round: args.opt("from").map(parse_num).transpose()?,
                    reason: args.req("reason")?.to_string(),
                }]
            }
            "moderator" => args
                .pos
                .iter()
                .map(|n| Command::AddModerator { name: n.clone() })
                .collect(),
            "unmoderator" => vec![Command::RemoveModerator {
                name: args.at(0)?.to_string(),
            }],
            "join" => args
                .pos
                .iter()
                .map(|n| Command::Join {
                    name: n.clone(),
                    surname: None,
                })
                .collect(),
            "apply" => args
                .pos
                .iter()
                .map(|n| Command::Apply {
                    name: n.clone(),
                    surname: None,
                })
                .collect(),
            "guest" => args
                .pos
                .iter()
                .map(|n| Command::RegisterGuest {
                    name: n.clone(),
                    surname: None,
                })
                .collect(),
            "approve" => each(self, &|player| Command::Approve { player })?,
            "eliminator" => each(self, &|player| Command::VolunteerEliminator { player })?,
            "stand-down" => each(self, &|player| Command::StandDownEliminator { player })?,
            "reenter" => each(self, &|player| Command::Reenter { player })?,
            "decline" | "withdraw" => {
                args.only(&["reason"])?;
                let player = self.player(args.at(0)?)?;
                let reason = args.req("reason")?.to_string();
                if verb == "decline" {
                    vec![Command::Decline { player, reason }]
                } else {
                    vec![Command::Withdraw { player, reason }]
                }
            }
            "skip" | "unskip" => {
                args.only(&["round"])?;
                let round = args.opt("round").map(parse_num).transpose()?;
                let players = self.players(&args.pos)?;
                players
                    .into_iter()
                    .map(|player| {
                        if verb == "skip" {
                            Command::RequestSkip { player, round }
                        } else {
                            Command::CancelSkip { player, round }
                        }
                    })
                    .collect()
            }
            "announce" | "override" => {
                let at = date(args.at(0)?)?;
                self.clock = at;
                let deadline = args.opt("deadline").map(date).transpose()?;
                let plan = if verb == "announce" {
                    args.only(&["deadline", "eliminator"])?;
                    PairingPlan::Default {
                        eliminator: args.opt("eliminator").map(|n| self.player(n)).transpose()?,
                    }
                } else {
                    args.only(&["deadline", "bye", "reason"])?;
                    let mut pairs = Vec::new();
                    for t in &args.pos[1..] {
                        let (a, b) = t
                            .split_once(':')
                            .ok_or_else(|| format!("a pair is A:B, not `{t}`"))?;
                        pairs.push((self.player(a)?, self.player(b)?));
                    }
                    let byes = args
                        .opts
                        .iter()
                        .filter(|(k, _)| k == "bye")
                        .map(|(_, v)| self.player(v))
                        .collect::<Result<Vec<_>, _>>()?;
                    PairingPlan::Override {
                        pairs,
                        byes,
                        reason: args.req("reason")?.to_string(),
                    }
                };
                let n = self.ladder.next_round_number();
                let badseed = verb == "announce" && args.pos.iter().any(|t| t == "badseed");
                let seed = if badseed { [0xEE; 32] } else { seed_of(n) };
                vec![Command::AnnounceRound {
                    at,
                    deadline,
                    plan,
                    seed,
                    next_seed_hash: draw::commitment(&seed_of(n + 1)),
                }]
            }
            "add-game" => {
                args.only(&["reason"])?;
                vec![Command::AddRoundGame {
                    player: self.player(args.at(0)?)?,
                    opponent: self.player(args.at(1)?)?,
                    reason: args.req("reason")?.to_string(),
                    at: self.clock,
                }]
            }
            "quick" => vec![Command::ScheduleQuickGame {
                ussr: self.player(args.at(0)?)?,
                us: self.player(args.at(1)?)?,
                at: self.clock,
            }],
            "on" => {
                self.clock = date(args.at(0)?)?;
                vec![]
            }
            "result" | "agree" | "tie" | "report"
                if args.opt("end").is_some_and(|e| EndTag::parse(e).is_err()) =>
            {
                // ARB-R58: an ending outside the vocabulary is refused as
                // the front ends refuse it, before any command is decided.
                let error = EndTag::parse(args.opt("end").unwrap_or_default())
                    .err()
                    .ok_or("an ending that parses")?;
                self.pending = Some(Pending {
                    line,
                    error,
                    before: Box::new(self.ladder.clone()),
                });
                vec![]
            }
            "result" | "agree" | "tie" => {
                args.only(&["end", "vp", "turn", "note"])?;
                let (game, outcome) = if verb == "tie" {
                    let (a, b) = (self.player(args.at(0)?)?, self.player(args.at(1)?)?);
                    (self.game_between(a, b)?, Outcome::Tie)
                } else {
                    self.spec(args.at(0)?)?
                };
                vec![Command::RecordResult {
                    game,
                    result: Self::result_input(outcome, args)?,
                    agreed: verb == "agree",
                    at: self.clock,
                }]
            }
            "report" => {
                args.only(&["end", "vp", "turn", "note"])?;
                let by = self.player(args.at(0)?)?;
                let (game, outcome) = self.spec(args.at(1)?)?;
                vec![Command::ReportResult {
                    game,
                    result: Self::result_input(outcome, args)?,
                    by,
                    at: self.clock,
                }]
            }
            "confirm" | "reject" => {
                args.only(&["by", "mod", "reason"])?;
                let game = self.game_id(args.at(0)?)?;
                let by = match (args.opt("by"), args.opt("mod")) {
                    (Some(p), None) => Confirmer::Player(self.player(p)?),
                    (None, Some(m)) => Confirmer::Moderator(m.to_string()),
                    _ => return Err(format!("`{verb}` takes by=NAME or mod=NAME")),
                };
                if verb == "confirm" {
                    vec![Command::ConfirmResult {
                        game,
                        by,
                        at: self.clock,
                    }]
                } else {
                    vec![Command::RejectReport {
                        game,
                        by,
                        reason: args.req("reason")?.to_string(),
                        at: self.clock,
                    }]
                }
            }
            "forfeit" => {
                args.only(&["game", "note"])?;
                let absent = self.player(args.at(0)?)?;
                let game = match args.opt("game") {
                    Some(g) => self.game_id(g)?,
                    None => self
                        .ladder
                        .games
                        .iter()
                        .rev()
                        .find(|g| g.has_player(absent))
                        .map(|g| g.id)
                        .ok_or("no game of that player")?,
                };
                vec![Command::Forfeit {
                    game,
                    absent,
                    note: args.opt("note").map(str::to_string),
                    at: self.clock,
                }]
            }
            "adjudicate" => {
                args.only(&[
                    "state",
                    "decision",
                    "ussr-says",
                    "us-says",
                    "third",
                    "vp",
                    "turn",
                ])?;
                let (game, outcome) = self.spec(args.at(0)?)?;
                vec![Command::Adjudicate {
                    game,
                    outcome,
                    vp: args.opt("vp").map(parse_num).transpose()?,
                    turn: args.opt("turn").map(parse_num).transpose()?,
                    record: Adjudication {
                        final_state: args.opt("state").unwrap_or("").to_string(),
                        ussr_statement: args.opt("ussr-says").map(str::to_string),
                        us_statement: args.opt("us-says").map(str::to_string),
                        third_party: args.opt("third").map(str::to_string),
                        decision: args.opt("decision").unwrap_or("").to_string(),
                    },
                    at: self.clock,
                }]
            }
            "correct" => {
                args.only(&["reason", "end", "vp", "turn", "note"])?;
                let (game, outcome) = self.spec(args.at(0)?)?;
                vec![Command::CorrectResult {
                    game,
                    result: Self::result_input(outcome, args)?,
                    reason: args.req("reason")?.to_string(),
                    at: self.clock,
                }]
            }
            "cancel" => {
                args.only(&["reason"])?;
                vec![Command::CancelGame {
                    game: self.game_id(args.at(0)?)?,
                    reason: args.req("reason")?.to_string(),
                    at: self.clock,
                }]
            }
            "close" => {
                let at = date(args.at(0)?)?;
                self.clock = at;
                vec![Command::CloseRound { at }]
            }
            "close-early" => {
                args.only(&["reason"])?;
                let at = date(args.at(0)?)?;
                self.clock = at;
                vec![Command::CloseRoundEarly {
                    at,
                    reason: args.req("reason")?.to_string(),
                }]
            }
            "undo" => {
                let reverted: std::collections::HashSet<u64> = self
                    .log
                    .iter()
                    .filter_map(|(_, e)| match e {
                        Event::Reverted { seq, .. } => Some(*seq),
                        _ => None,
                    })
                    .collect();
                let seq = self
                    .log
                    .iter()
                    .rev()
                    .find(|(s, e)| !reverted.contains(s) && !matches!(e, Event::Reverted { .. }))
                    .map(|(s, _)| *s)
                    .ok_or("nothing to undo")?;
                vec![Command::Revert {
                    seq,
                    summary: args.pos.first().cloned().unwrap_or_else(|| "undo".into()),
                }]
            }
            other => return Err(format!("unknown command `{other}`")),
        };
        self.exec_all(line, commands);
        Ok(())
    }

    // ---- expectations --------------------------------------------------

    fn expect(&mut self, what: &str, args: &Args) -> Step {
        let l = &self.ladder;
        let text_in = |shown: String, want: &str| -> Step {
            if shown.contains(want) {
                Ok(())
            } else {
                Err(format!("expected text containing {want:?}, got {shown:?}"))
            }
        };
        let eq = |got: String, want: String| -> Step {
            if got == want {
                Ok(())
            } else {
                Err(format!("expected `{want}`, got `{got}`"))
            }
        };
        match what {
            "error" => {
                let p = expect_refusal(&mut self.pending, args)?;
                if *p.before != self.ladder {
                    return Err(format!(
                        "the refused command (line {}) changed the ladder state",
                        p.line
                    ));
                }
                self.refused_before = Some(p.before);
                Ok(())
            }
            "order" => eq(self.names(&l.order), self.names(&self.players(&args.pos)?)),
            "inactive" => eq(
                self.names(&l.inactive),
                self.names(&self.players(&args.pos)?),
            ),
            "champion" => {
                let want = match args.at(0)? {
                    "none" => "none".to_string(),
                    n => self.name(self.player(n)?),
                };
                eq(l.champion.map_or("none".into(), |c| self.name(c)), want)
            }
            "streak" => {
                let p = self.player(args.at(0)?)?;
                eq(
                    format!(
                        "champion {} streak {}",
                        l.champion.map_or("none".into(), |c| self.name(c)),
                        l.streak
                    ),
                    format!("champion {} streak {}", self.name(p), args.at(1)?),
                )
            }
            "rung" => {
                let p = self.player(args.at(0)?)?;
                eq(
                    l.rung_of(p)
                        .map_or("off the ladder".into(), |r| r.to_string()),
                    args.at(1)?.to_string(),
                )
            }
            "status" => {
                let p = self.player(args.at(0)?)?;
                let rec = l.player(p).ok_or("unknown player")?;
                eq(rec.status.name().to_string(), args.at(1)?.to_string())
            }
            "game" => {
                let want = args.at(0)?;
                let names: Vec<String> = l.games.iter().map(|g| l.game_name(g)).collect();
                if names.iter().any(|n| n == want) {
                    Ok(())
                } else {
                    Err(format!("no game named {want:?}; games: {names:?}"))
                }
            }
            "paired" => {
                let (a, b) = (self.player(args.at(0)?)?, self.player(args.at(1)?)?);
                let round = self.last_round()?;
                let found = round
                    .games
                    .iter()
                    .filter_map(|g| l.game(*g))
                    .any(|g| g.has_player(a) && g.has_player(b));
                if found {
                    Ok(())
                } else {
                    let names: Vec<String> = round
                        .games
                        .iter()
                        .filter_map(|g| l.game(*g))
                        .map(|g| l.game_name(g))
                        .collect();
                    Err(format!(
                        "{} and {} are not paired in round {}; games: {names:?}",
                        self.name(a),
                        self.name(b),
                        round.number
                    ))
                }
            }
            "games" => eq(
                self.last_round()?.games.len().to_string(),
                args.at(0)?.to_string(),
            ),
            "ussr" | "us" => {
                let p = self.player(args.at(0)?)?;
                let g = l
                    .games
                    .iter()
                    .rev()
                    .find(|g| g.has_player(p))
                    .ok_or("he has no game")?;
                let side = g.side_of(p).ok_or("not in game")?;
                let want = parse_side(what)?;
                if side == want {
                    Ok(())
                } else {
                    Err(format!(
                        "{} plays the {side} in \"{}\" ({})",
                        self.name(p),
                        l.game_name(g),
                        l.explain_sides(g)
                    ))
                }
            }
            "counts" => {
                let p = self.player(args.at(0)?)?;
                let g = l
                    .games
                    .iter()
                    .rev()
                    .find(|g| g.has_player(p))
                    .ok_or("he has no game")?;
                let part = g
                    .participants()
                    .into_iter()
                    .find(|x| x.player == p)
                    .ok_or("not in game")?;
                let got = match part.counts {
                    Counts::Ladder => "ladder",
                    Counts::QuickRound => "quick",
                };
                eq(got.to_string(), args.at(1)?.to_string())
            }
            "sides-why" => text_in(
                l.explain_sides(self.game(args.at(0)?)?).to_string(),
                args.at(1)?,
            ),
            "pairing" => text_in(
                l.explain_pairing(self.game(args.at(0)?)?).to_string(),
                args.at(1)?,
            ),
            "drawn" => {
                let g = self.game(args.at(0)?)?;
                let round = g.round.ok_or("a quick game has no draw")?;
                let seed = l
                    .rounds
                    .iter()
                    .find(|r| r.number == round)
                    .map(|r| r.seed)
                    .ok_or("no round")?;
                if seed != seed_of(round)
                    || !draw::verify(&seed, &draw::commitment(&seed_of(round)))
                {
                    return Err("the round's seed is not the committed one".into());
                }
                // ARB-R8 (issue 14, item 8): a pair's draw is keyed by its
                // two ids, smaller first; a draw against an eliminator by the
                // ladder player's id alone; never by a position.
                let (lo, hi) = (
                    u64::from(g.ussr.player.0.min(g.us.player.0)),
                    u64::from(g.ussr.player.0.max(g.us.player.0)),
                );
                let (player, side, idx, key) = match g.sides {
                    SideReason::Drawn {
                        higher,
                        side,
                        draw_index,
                    } => (higher, side, draw_index, (lo << 32) | hi),
                    SideReason::EliminatorDrawn {
                        player,
                        side,
                        draw_index,
                    } => (player, side, draw_index, u64::from(player.0) << 32),
                    ref other => return Err(format!("sides were not drawn: {other:?}")),
                };
                if idx != key {
                    return Err(format!(
                        "the draw used stream {idx}, not the game's key {key}"
                    ));
                }
                // Recompute the draw from the revealed seed.
                let expected = if draw::coin(&seed, idx) {
                    Side::Ussr
                } else {
                    Side::Us
                };
                if side != expected || g.side_of(player) != Some(side) {
                    return Err(format!(
                        "the draw gave {side} but the seed gives {expected} (player plays {:?})",
                        g.side_of(player)
                    ));
                }
                Ok(())
            }
            "explain" => {
                let p = self.player(args.at(0)?)?;
                let closed = l
                    .rounds
                    .iter()
                    .rev()
                    .find_map(|r| r.closed.as_ref())
                    .ok_or("no round has closed")?;
                let m =
                    closed.moves.iter().find(|m| m.player == p).ok_or_else(|| {
                        format!("{} did not move at the last close", self.name(p))
                    })?;
                text_in(l.explain_move(m).to_string(), args.at(1)?)
            }
            "retired" => {
                let p = self.player(args.at(0)?)?;
                let r = l
                    .rounds
                    .iter()
                    .rev()
                    .filter_map(|r| r.closed.as_ref())
                    .find_map(|c| c.inactive.iter().find(|r| r.player == p))
                    .ok_or_else(|| format!("{} was never retired", self.name(p)))?;
                text_in(l.explain_retirement(r).to_string(), args.at(1)?)
            }
            "deadline" => eq(
                self.last_round()?.deadline.format("%Y-%m-%d").to_string(),
                args.at(0)?.to_string(),
            ),
            "game-deadline" => eq(
                self.game(args.at(0)?)?
                    .deadline
                    .map_or("none".into(), |d| d.format("%Y-%m-%d").to_string()),
                args.at(1)?.to_string(),
            ),
            "bid" => {
                let n: u32 = parse_num(args.at(0)?)?;
                let r = l
                    .rounds
                    .iter()
                    .find(|r| r.number == n)
                    .ok_or_else(|| format!("no round {n}"))?;
                let want = Bid {
                    influence: parse_num(args.at(1)?)?,
                    side: parse_side(args.at(2)?)?,
                };
                eq(r.bid.to_string(), want.to_string())
            }
            "game-bid" => {
                let g = self.game(args.at(0)?)?;
                let want = Bid {
                    influence: parse_num(args.at(1)?)?,
                    side: parse_side(args.at(2)?)?,
                };
                eq(g.bid.to_string(), want.to_string())
            }
            "moderator" => {
                let g = self.game(args.at(0)?)?;
                eq(
                    l.moderator_name(g.moderator).unwrap_or("none").to_string(),
                    args.at(1)?.to_string(),
                )
            }
            "game-status" => eq(
                status_name(self.game(args.at(0)?)?.status).to_string(),
                args.at(1)?.to_string(),
            ),
            "outcome" => eq(
                self.game(args.at(0)?)?
                    .result
                    .as_ref()
                    .map_or("none", |r| outcome_name(r.outcome))
                    .to_string(),
                args.at(1)?.to_string(),
            ),
            "corrections" => eq(
                self.game(args.at(0)?)?.corrections.to_string(),
                args.at(1)?.to_string(),
            ),
            "report" => {
                let g = self.game(args.at(0)?)?;
                let want = match args.at(1)? {
                    "none" => "none".to_string(),
                    n => self.name(self.player(n)?),
                };
                eq(
                    g.report.as_ref().map_or("none".into(), |r| self.name(r.by)),
                    want,
                )
            }
            "report-why" => text_in(
                l.explain_report(self.game(args.at(0)?)?)
                    .map_or_else(String::new, |e| e.to_string()),
                args.at(1)?,
            ),
            "adjudication" => {
                let g = self.game(args.at(0)?)?;
                let rec = g
                    .result
                    .as_ref()
                    .and_then(|r| r.adjudication.as_ref())
                    .ok_or("no adjudication record")?;
                text_in(format!("{rec:?}"), args.at(1)?)
            }
            "stats" => {
                args.only(&["ussr", "us", "ties", "bid", "end"])?;
                let s = l.statistics();
                let tally: SideTally = if let Some(b) = args.opt("bid") {
                    let b = parse_bid(b)?;
                    s.by_bid
                        .get(&(b.influence, b.side.name()))
                        .copied()
                        .unwrap_or_default()
                } else if let Some(e) = args.opt("end") {
                    s.by_end
                        .get(&EndTag::parse(e).map_err(|e| e.to_string())?)
                        .copied()
                        .unwrap_or_default()
                } else {
                    match args.at(0)? {
                        "ladder" => s.ladder,
                        "quick" => s.quick,
                        "all" => s.all,
                        other => return Err(format!("no statistics `{other}`")),
                    }
                };
                let got = format!(
                    "ussr={} us={} ties={}",
                    tally.ussr_wins, tally.us_wins, tally.ties
                );
                let want = format!(
                    "ussr={} us={} ties={}",
                    args.req("ussr")?,
                    args.req("us")?,
                    args.req("ties")?
                );
                eq(got, want)
            }
            "record" => {
                let p = self.player(args.at(0)?)?;
                let s = l.statistics();
                let ps = s.players.get(p.index()).ok_or("no statistics")?;
                let r = match args.at(1)? {
                    "ladder" => ps.ladder,
                    "quick" => ps.quick,
                    other => return Err(format!("no record `{other}`")),
                };
                eq(
                    format!("{}-{}-{}", r.wins, r.losses, r.ties),
                    args.at(2)?.to_string(),
                )
            }
            "history" => {
                args.only(&["ussr", "us", "last"])?;
                let p = self.player(args.at(0)?)?;
                l.player(p).ok_or("unknown")?;
                let h = l.side_history(
                    p,
                    l.rules_for(l.next_round_number()).sides_count_quick_rounds,
                );
                let mut got = format!("ussr={} us={}", h.ussr, h.us);
                let mut want = format!("ussr={} us={}", args.req("ussr")?, args.req("us")?);
                if let Some(last) = args.opt("last") {
                    got.push_str(&format!(" last={}", h.last.map_or("none", Side::name)));
                    want.push_str(&format!(
                        " last={}",
                        if last == "none" {
                            "none"
                        } else {
                            parse_side(last)?.name()
                        }
                    ));
                }
                eq(got, want)
            }
            "leaderboard" => eq(
                self.names(
                    &l.quick_leaderboard()
                        .iter()
                        .map(|q| q.player)
                        .collect::<Vec<_>>(),
                ),
                self.names(&self.players(&args.pos)?),
            ),
            "unpaired" => eq(
                self.names(&l.unpaired_members()),
                self.names(&self.players(&args.pos)?),
            ),
            "byes" => eq(
                self.names(
                    &self
                        .last_round()?
                        .byes
                        .iter()
                        .map(|(p, _)| *p)
                        .collect::<Vec<_>>(),
                ),
                self.names(&self.players(&args.pos)?),
            ),
            "missed" | "skip-streak" => {
                let p = self.player(args.at(0)?)?;
                let rec = l.player(p).ok_or("unknown")?;
                let got = if what == "missed" {
                    rec.missed_streak
                } else {
                    rec.skip_streak
                };
                eq(got.to_string(), args.at(1)?.to_string())
            }
            "rounds" => eq(l.rounds.len().to_string(), args.at(0)?.to_string()),
            "last-events" => {
                let n = args.pos.len();
                let got: Vec<&str> = self.log[self.log.len().saturating_sub(n)..]
                    .iter()
                    .map(|(_, e)| e.kind())
                    .collect();
                eq(got.join(" "), args.pos.join(" "))
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
                // After a refusal and its `expect error`, nothing may have changed.
                if let Some(before) = self.refused_before.take()
                    && *before != self.ladder
                {
                    return Err("the ladder changed after a refused command".into());
                }
                self.command(line, &verb, &args)
            }
        }
    }
}

/// The event log and final state of a case, or the failing line and message.
type CaseRun = Result<(Vec<(u64, Event)>, Ladder), Failure>;

/// Run one case.
fn run_case(case: &CaseFile) -> CaseRun {
    let mut runner = Runner::new().map_err(|e| (0, e))?;
    for (i, text) in case.text.lines().enumerate() {
        runner.run_line(i + 1, text).map_err(|e| (i + 1, e))?;
    }
    let end = case.text.lines().count();
    if let Some(p) = &runner.pending {
        return Err(p.unanswered());
    }
    let folded = fold(runner.log.iter().map(|(s, e)| (*s, e)));
    if folded != runner.ladder {
        return Err((
            end,
            "the fold of the event log differs from the applied state".into(),
        ));
    }
    Ok((runner.log, runner.ladder))
}

/// The TWS ladder cases: `tests/golden/*.case`, quoting `tws-ladder.txt`.
const SUITE: Suite = Suite {
    dir: "golden",
    prefix: "",
    document: "tws-ladder.txt",
    section: "(TWS ",
    header_section: "(TWS <Section>)",
    section_help: "`(TWS ...)`",
    rulings: &["TWS-R", "ARB-R"],
    min_words: 0,
};

#[test]
fn golden_cases() {
    let cases = SUITE.cases();
    assert!(cases.len() >= 28, "only {} golden cases", cases.len());
    let failures = SUITE.failures(&cases, true, run_case);
    assert_passed(&failures, cases.len(), "golden");
}

#[test]
fn tokenizer_handles_quotes_and_comments() {
    let t = tokenize(r#"result Ames>Baker note="a b" # comment "x""#).unwrap();
    assert_eq!(t, vec!["result", "Ames>Baker", "note=a b"]);
    let t = tokenize(r#"expect error "already paired""#).unwrap();
    assert_eq!(t, vec!["expect", "error", "already paired"]);
    assert!(tokenize(r#"x "open"#).is_err());
}

#[test]
fn membership_names_used_by_cases() {
    // `expect status` compares with these names.
    for (m, n) in [
        (Membership::Applicant, "applicant"),
        (Membership::Member, "member"),
        (Membership::Inactive, "inactive"),
        (Membership::Guest, "guest"),
        (Membership::Declined, "declined"),
        (Membership::Withdrawn, "withdrawn"),
    ] {
        assert_eq!(m.name(), n);
    }
}
