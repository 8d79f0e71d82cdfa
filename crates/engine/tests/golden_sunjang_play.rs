//! Golden cases for Sunjang group play and the final round, as data: every
//! `tests/golden-sunjang/group-*.case` and `final-*.case` file is a script
//! of commands and expectations, starting with the sentence of the rule
//! document it tests (quoted word for word) and the rulings it applies.
//! (`plan-*.case` in the same folder belong to the planner's harness.)
//!
//! The harness drives the engine's pure functions only
//! ([`round_robin`], [`points`], [`group_table`], [`division_ranking`],
//! [`qualify`], [`final_state`]) and checks the expectations. On failure it
//! names the case file and line: `tests/golden-sunjang/<file>.case:<line>:
//! what differs`.
//!
//! # Format
//!
//! One command or expectation a line; `#` starts a comment (outside quotes);
//! tokens are separated by spaces, `"..."` quotes a token with spaces,
//! `key=value` gives an option. Names are the players' names. Gamepoints
//! are written `3`, `3½` or `3.5`.
//!
//! Header (required, first two lines):
//!
//! ```text
//! # clause: "<words quoted from sunjang-league.txt>" (Sunjang <Section>)
//! # ruling: SJ-R4, ARB-R39        (ids separated by commas, or `none`)
//! ```
//!
//! Commands:
//!
//! ```text
//! players Lee Kim Park          register players (ids in order) with rank 10k, rating 1500
//! player NAME [rank=5k] [rating=1500] [corr_rank=4k] [corr_rating=1400]
//! divisions K                   the season's number of divisions (starting gamepoints), default 1
//! points win=3 jigo=1           gamepoints of a win and a jigo (the rules file's
//!                               `win_points`, `jigo_points`), default 1 and ½
//! group A1 Lee Kim Park         a group, its players in seeding order; its round robin is made
//!                               (`A` and `A1` are one group; tables and explanations name
//!                               the only group of a division by its letter alone, `A`)
//! result W>L [forfeit]          the game of W and L in their group: W won (L forfeited)
//! result A-B jigo|both-forfeit  a jigo, or both forfeited
//! order-results A1 Ann Bob ...  each named player beat every player named after him
//! gave-way NAME                 live W>L          (D.2's last criteria)
//! champion NAME                 the defending champion     demotions K (from A)
//! withdraw NAME                 not available for the final
//! final W>L [forfeit] | final A-B jigo|both-forfeit
//!                               a game of the final (colours from its round robin)
//! ```
//!
//! Expectations (`expect ...`):
//!
//! ```text
//! round GROUP R "Kim-Lee Park-Choi"   round R's games, black first, in board order
//! rounds GROUP K                      blacks GROUP NAME=K ...
//! balanced GROUP                      every pair once, blacks floor/ceil of (n-1)/2, and no
//!                                     one with the same colour three games in a row
//! points OUTCOME B-W                  black-wins|white-wins|jigo|black-forfeits|...
//! row NAME [place=] [played=] [wins=] [jigo=] [losses=] [forfeits=] [gamepoints=]
//!          [start=] [total=] [sodos=]
//! table GROUP NAME...                 places GROUP 1 2 2       complete GROUP yes|no
//! explain GROUP NAME "text"           the explanation of NAME's place in the group table
//!                                     (text and [clause; rulings]) contains text
//! division A NAME...                  the merged ranking      division-places A 1 2 ...
//! division-explain A NAME "text"      leaders A NAME... [explain="text"] (a leader line contains it)
//! finalists NAME... | none            advantaged NAME...
//! qualification "text"                an explanation of the qualification contains text
//! void "text" | void none             pending "text" | pending none
//! final playing "A-B C-D" | final champion NAME "text" | final playoff A B "text"
//!       | final void "text"
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
mod common;

use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::final_round::{
    FinalGame, FinalInput, FinalQualification, FinalState, final_state, qualify,
};
use arbiter_engine::sunjang::group::{
    DivisionRanking, GroupGame, GroupInput, GroupTable, Outcome, division_ranking, group_table,
    performances, points, round_robin, start_points,
};
use arbiter_engine::sunjang::ranking::{RankingData, Tiebreaks};
use arbiter_engine::sunjang::{
    Division, GroupId, HalfPoints, PlayerInfo, Rank, SunjangRules, format_points,
};
use common::golden::{Args, CaseFile, Failure, Line, Step, Suite, assert_passed, parse_num};

fn parse_points(s: &str) -> Result<HalfPoints, String> {
    let (whole, half) = if let Some(w) = s.strip_suffix('½') {
        (w, 1)
    } else if let Some(w) = s.strip_suffix(".5") {
        (w, 1)
    } else {
        (s, 0)
    };
    let whole: HalfPoints = if whole.is_empty() {
        0
    } else {
        parse_num(whole)?
    };
    Ok(whole * 2 + half)
}

/// `A1`, `B2`, or `B`: a division letter plus a number "(if necessary)"
/// (Sunjang Definitions: Group); the letter alone is group 1. Both
/// spellings name the same group.
fn parse_group(s: &str) -> Result<GroupId, String> {
    let split = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
    let (letter, number) = s.split_at(split);
    let division = parse_division(letter)?;
    if number.is_empty() {
        return Ok(GroupId::only(division));
    }
    let number = parse_num(number)?;
    if number == 0 {
        return Err(format!("groups are numbered from 1, not `{s}`"));
    }
    Ok(GroupId::new(division, number))
}

fn parse_division(s: &str) -> Result<Division, String> {
    match s.as_bytes() {
        [c] if c.is_ascii_uppercase() => Ok(Division::from(c - b'A')),
        _ => Err(format!("a division is a letter A..Z, not `{s}`")),
    }
}

fn parse_outcome(s: &str) -> Result<Outcome, String> {
    Ok(match s {
        "black-wins" => Outcome::BlackWins,
        "white-wins" => Outcome::WhiteWins,
        "jigo" => Outcome::Jigo,
        "black-forfeits" => Outcome::BlackForfeits,
        "white-forfeits" => Outcome::WhiteForfeits,
        "both-forfeit" => Outcome::BothForfeit,
        _ => return Err(format!("not an outcome: `{s}`")),
    })
}

/// A result line: `W>L [forfeit]` or `A-B jigo|both-forfeit`; the outcome
/// follows once the colours are known.
enum Res {
    Win {
        winner: String,
        loser: String,
        forfeit: bool,
    },
    Jigo {
        a: String,
        b: String,
        both_forfeit: bool,
    },
}

impl Res {
    fn parse(args: &Args) -> Result<Res, String> {
        let t = args.at(0)?;
        let flag = args.pos.get(1).map(String::as_str);
        if let Some((w, l)) = t.split_once('>') {
            let forfeit = match flag {
                None => false,
                Some("forfeit") => true,
                Some(x) => return Err(format!("`{x}`: only `forfeit` may follow W>L")),
            };
            return Ok(Res::Win {
                winner: w.into(),
                loser: l.into(),
                forfeit,
            });
        }
        if let Some((a, b)) = t.split_once('-') {
            let both_forfeit = match flag {
                Some("jigo") => false,
                Some("both-forfeit") => true,
                _ => return Err("A-B is followed by `jigo` or `both-forfeit`".into()),
            };
            return Ok(Res::Jigo {
                a: a.into(),
                b: b.into(),
                both_forfeit,
            });
        }
        Err(format!(
            "a result is `W>L [forfeit]` or `A-B jigo|both-forfeit`, not `{t}`"
        ))
    }

    fn names(&self) -> (&str, &str) {
        match self {
            Res::Win { winner, loser, .. } => (winner, loser),
            Res::Jigo { a, b, .. } => (a, b),
        }
    }

    /// The outcome when the first named player has black or not.
    fn outcome(&self, black_is_first: bool) -> Outcome {
        match self {
            Res::Jigo {
                both_forfeit: true, ..
            } => Outcome::BothForfeit,
            Res::Jigo { .. } => Outcome::Jigo,
            Res::Win { forfeit, .. } => match (black_is_first, forfeit) {
                (true, false) => Outcome::BlackWins,
                (false, false) => Outcome::WhiteWins,
                (true, true) => Outcome::WhiteForfeits,
                (false, true) => Outcome::BlackForfeits,
            },
        }
    }
}

struct Runner {
    rules: SunjangRules,
    info: Vec<PlayerInfo>,
    divisions: u32,
    groups: Vec<GroupInput>,
    tiebreaks: Tiebreaks,
    champion: Option<PlayerId>,
    demotions: usize,
    unavailable: Vec<PlayerId>,
    finals: Vec<FinalGame>,
}

impl Runner {
    fn new() -> Runner {
        Runner {
            rules: SunjangRules::default(),
            info: Vec::new(),
            divisions: 1,
            groups: Vec::new(),
            tiebreaks: Tiebreaks::default(),
            champion: None,
            demotions: 0,
            unavailable: Vec::new(),
            finals: Vec::new(),
        }
    }

    fn player(&self, name: &str) -> Result<PlayerId, String> {
        self.info
            .iter()
            .position(|i| i.name == name)
            .map(|i| PlayerId(u32::try_from(i).unwrap() + 1))
            .ok_or_else(|| format!("no player named `{name}` (a typo in the case?)"))
    }

    fn name(&self, p: PlayerId) -> String {
        self.info
            .get(p.index())
            .map_or_else(|| p.to_string(), |i| i.name.clone())
    }

    fn names(&self, ps: &[PlayerId]) -> String {
        ps.iter()
            .map(|&p| self.name(p))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn register(&mut self, name: &str, args: Option<&Args>) -> Step {
        if self.player(name).is_ok() {
            return Err(format!("`{name}` is registered twice"));
        }
        let mut info = PlayerInfo {
            name: name.into(),
            rank: Rank::Kyu(10),
            provisional: false,
            rating: 1500,
            corr_rank: None,
            corr_rating: None,
        };
        if let Some(a) = args {
            a.only(&["rank", "rating", "corr_rank", "corr_rating"])?;
            if let Some(r) = a.opt("rank") {
                info.rank = Rank::parse(r).map_err(|e| e.to_string())?.0;
            }
            if let Some(r) = a.opt("rating") {
                info.rating = parse_num(r)?;
            }
            if let Some(r) = a.opt("corr_rank") {
                info.corr_rank = Some(Rank::parse(r).map_err(|e| e.to_string())?.0);
            }
            if let Some(r) = a.opt("corr_rating") {
                info.corr_rating = Some(parse_num(r)?);
            }
        }
        self.info.push(info);
        Ok(())
    }

    fn data(&self) -> RankingData<'_> {
        RankingData {
            info: &self.info,
            performance: &[],
            games: &[],
            tiebreaks: &self.tiebreaks,
            rules: &self.rules,
        }
    }

    fn group(&self, id: GroupId) -> Result<&GroupInput, String> {
        self.groups
            .iter()
            .find(|g| g.0 == id)
            .ok_or_else(|| format!("no group {id}"))
    }

    /// `id` named for its division's group count: the only group of a
    /// division by its letter (Sunjang Definitions: Group), as a season
    /// names it.
    fn named(&self, id: GroupId) -> GroupId {
        let count = self
            .groups
            .iter()
            .filter(|g| g.0.division == id.division)
            .count();
        id.named_for(count)
    }

    /// The groups, each named as a season names it.
    fn named_groups(&self) -> Vec<GroupInput> {
        self.groups
            .iter()
            .map(|(id, ps, gs)| (self.named(*id), ps.clone(), gs.clone()))
            .collect()
    }

    fn table(&self, id: GroupId) -> Result<GroupTable, String> {
        let (_, players, games) = self.group(id)?;
        let start = start_points(id.division, self.divisions, &self.rules);
        Ok(group_table(
            self.named(id),
            players,
            games,
            start,
            &self.data(),
        ))
    }

    fn division(&self, d: Division) -> DivisionRanking {
        division_ranking(d, &self.named_groups(), &self.data())
    }

    fn qualification(&self) -> FinalQualification {
        let div = self.division(0);
        let perf = performances(self.info.len(), &self.named_groups(), &self.rules);
        qualify(&FinalInput {
            division: &div,
            performance: &perf,
            champion: self.champion,
            demotions: self.demotions,
            unavailable: &self.unavailable,
            info: &self.info,
            rules: &self.rules,
        })
    }

    fn command(&mut self, verb: &str, args: &Args) -> Step {
        match verb {
            "players" => {
                args.only(&[])?;
                for n in args.pos.clone() {
                    self.register(&n, None)?;
                }
            }
            "player" => self.register(args.at(0)?, Some(args))?,
            "divisions" => {
                args.only(&[])?;
                self.divisions = parse_num(args.at(0)?)?;
            }
            "points" => {
                args.only(&["win", "jigo"])?;
                for (k, v) in &args.opts {
                    let halves = parse_points(v)?;
                    match k.as_str() {
                        "win" => self.rules.win_points = halves,
                        _ => self.rules.jigo_points = halves,
                    }
                }
                self.rules.check().map_err(|e| e.to_string())?;
            }
            "group" => {
                args.only(&[])?;
                let id = parse_group(args.at(0)?)?;
                if self.groups.iter().any(|g| g.0 == id) {
                    return Err(format!("group {id} twice"));
                }
                let players = args.pos[1..]
                    .iter()
                    .map(|n| self.player(n))
                    .collect::<Result<Vec<_>, _>>()?;
                let games = round_robin(&players)
                    .into_iter()
                    .map(|pairing| GroupGame {
                        pairing,
                        outcome: None,
                    })
                    .collect();
                self.groups.push((id, players, games));
            }
            "result" => {
                args.only(&[])?;
                let res = Res::parse(args)?;
                let (a, b) = res.names();
                let (a, b) = (self.player(a)?, self.player(b)?);
                let game = self
                    .groups
                    .iter_mut()
                    .flat_map(|g| g.2.iter_mut())
                    .find(|g| g.pairing.is_between(a, b))
                    .ok_or("these two do not meet in a group")?;
                game.outcome = Some(res.outcome(game.pairing.black == a));
            }
            "order-results" => {
                args.only(&[])?;
                let id = parse_group(args.at(0)?)?;
                let named = args.pos[1..]
                    .iter()
                    .map(|n| self.player(n))
                    .collect::<Result<Vec<_>, _>>()?;
                let (_, _, games) = self
                    .groups
                    .iter_mut()
                    .find(|g| g.0 == id)
                    .ok_or_else(|| format!("no group {id}"))?;
                for (i, &w) in named.iter().enumerate() {
                    for &l in &named[i + 1..] {
                        let game = games
                            .iter_mut()
                            .find(|g| g.pairing.is_between(w, l))
                            .ok_or("these two do not meet in the group")?;
                        game.outcome = Some(if game.pairing.black == w {
                            Outcome::BlackWins
                        } else {
                            Outcome::WhiteWins
                        });
                    }
                }
            }
            "gave-way" => {
                args.only(&[])?;
                let p = self.player(args.at(0)?)?;
                self.tiebreaks.gave_way.push(p);
            }
            "live" => {
                args.only(&[])?;
                let (w, l) = args.at(0)?.split_once('>').ok_or("live W>L")?;
                let m = (self.player(w)?, self.player(l)?);
                self.tiebreaks.live_matches.push(m);
            }
            "champion" => {
                args.only(&[])?;
                self.champion = Some(self.player(args.at(0)?)?);
            }
            "demotions" => {
                args.only(&[])?;
                self.demotions = parse_num(args.at(0)?)?;
            }
            "withdraw" => {
                args.only(&[])?;
                let p = self.player(args.at(0)?)?;
                self.unavailable.push(p);
            }
            "final" => {
                args.only(&[])?;
                let res = Res::parse(args)?;
                let (a, b) = res.names();
                let (a, b) = (self.player(a)?, self.player(b)?);
                let q = self.qualification();
                let black = round_robin(&q.players)
                    .iter()
                    .find(|p| p.is_between(a, b))
                    .map_or(a, |p| p.black);
                let white = if black == a { b } else { a };
                self.finals.push(FinalGame {
                    black,
                    white,
                    outcome: Some(res.outcome(black == a)),
                });
            }
            _ => return Err(format!("unknown command `{verb}`")),
        }
        Ok(())
    }

    fn expect(&self, what: &str, args: &Args) -> Step {
        match what {
            "round" => {
                let id = parse_group(args.at(0)?)?;
                let r: u32 = parse_num(args.at(1)?)?;
                let (_, _, games) = self.group(id)?;
                let got = games
                    .iter()
                    .filter(|g| g.pairing.round == r)
                    .map(|g| {
                        format!(
                            "{}-{}",
                            self.name(g.pairing.black),
                            self.name(g.pairing.white)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                check_eq("round", args.at(2)?, &got)
            }
            "rounds" => {
                let id = parse_group(args.at(0)?)?;
                let (_, _, games) = self.group(id)?;
                let got = games.iter().map(|g| g.pairing.round).max().unwrap_or(0);
                check_eq("rounds", args.at(1)?, &got.to_string())
            }
            "blacks" => {
                let id = parse_group(args.at(0)?)?;
                let (_, _, games) = self.group(id)?;
                for (n, k) in &args.opts {
                    let p = self.player(n)?;
                    let got = games.iter().filter(|g| g.pairing.black == p).count();
                    check_eq(&format!("blacks of {n}"), k, &got.to_string())?;
                }
                Ok(())
            }
            "balanced" => {
                let id = parse_group(args.at(0)?)?;
                let (_, players, games) = self.group(id)?;
                let n = players.len();
                for (i, &a) in players.iter().enumerate() {
                    for &b in &players[i + 1..] {
                        let c = games.iter().filter(|g| g.pairing.is_between(a, b)).count();
                        if c != 1 {
                            return Err(format!(
                                "{} and {} meet {c} times",
                                self.name(a),
                                self.name(b)
                            ));
                        }
                    }
                    let blacks = games.iter().filter(|g| g.pairing.black == a).count();
                    let (lo, hi) = ((n - 1) / 2, n / 2);
                    if blacks < lo || blacks > hi {
                        return Err(format!(
                            "{} has black {blacks} times, not {lo} or {hi}",
                            self.name(a)
                        ));
                    }
                    let colours: Vec<bool> = games
                        .iter()
                        .filter(|g| g.pairing.opponent(a).is_some())
                        .map(|g| g.pairing.black == a)
                        .collect();
                    if colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]) {
                        return Err(format!(
                            "{} has the same colour three games in a row",
                            self.name(a)
                        ));
                    }
                }
                Ok(())
            }
            "points" => {
                let o = parse_outcome(args.at(0)?)?;
                let [b, w] = points(o, &self.rules);
                check_eq(
                    "points",
                    args.at(1)?,
                    &format!("{}-{}", format_points(b), format_points(w)),
                )
            }
            "row" => {
                args.only(&[
                    "place",
                    "played",
                    "wins",
                    "jigo",
                    "losses",
                    "forfeits",
                    "gamepoints",
                    "start",
                    "total",
                    "sodos",
                ])?;
                let p = self.player(args.at(0)?)?;
                let id = self
                    .groups
                    .iter()
                    .find(|g| g.1.contains(&p))
                    .map(|g| g.0)
                    .ok_or("in no group")?;
                let t = self.table(id)?;
                let r = t.row(p).ok_or("no row")?;
                for (k, v) in &args.opts {
                    let got = match k.as_str() {
                        "place" => r.place.to_string(),
                        "played" => r.played.to_string(),
                        "wins" => r.wins.to_string(),
                        "jigo" => r.jigo.to_string(),
                        "losses" => r.losses.to_string(),
                        "forfeits" => r.forfeits.to_string(),
                        "gamepoints" => format_points(r.gamepoints),
                        "start" => format_points(r.start),
                        "total" => format_points(r.total()),
                        _ => arbiter_engine::sunjang::format_sodos(
                            r.sodos,
                            self.rules.sodos_per_point(),
                        ),
                    };
                    let want = match k.as_str() {
                        "gamepoints" | "start" | "total" => format_points(parse_points(v)?),
                        // SODOS as written ("5⅓", "1¾"), or a half-point figure.
                        "sodos" => parse_points(v).map_or_else(|_| v.clone(), format_points),
                        _ => v.clone(),
                    };
                    check_eq(k, &want, &got)?;
                }
                Ok(())
            }
            "table" => {
                let t = self.table(parse_group(args.at(0)?)?)?;
                let got = self.names(&t.rows.iter().map(|r| r.player).collect::<Vec<_>>());
                check_eq("table", &args.pos[1..].join(" "), &got)
            }
            "places" => {
                let t = self.table(parse_group(args.at(0)?)?)?;
                let got = t
                    .rows
                    .iter()
                    .map(|r| r.place.to_string())
                    .collect::<Vec<_>>()
                    .join(" ");
                check_eq("places", &args.pos[1..].join(" "), &got)
            }
            "complete" => {
                let t = self.table(parse_group(args.at(0)?)?)?;
                check_eq(
                    "complete",
                    args.at(1)?,
                    if t.complete { "yes" } else { "no" },
                )
            }
            "explain" => {
                let t = self.table(parse_group(args.at(0)?)?)?;
                let p = self.player(args.at(1)?)?;
                let i = t.rows.iter().position(|r| r.player == p).ok_or("no row")?;
                contains("explanation", &t.explanations[i].to_string(), args.at(2)?)
            }
            "division" => {
                let d = self.division(parse_division(args.at(0)?)?);
                check_eq("division", &args.pos[1..].join(" "), &self.names(&d.order))
            }
            "division-places" => {
                let d = self.division(parse_division(args.at(0)?)?);
                let got = d
                    .ranking
                    .places
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ");
                check_eq("places", &args.pos[1..].join(" "), &got)
            }
            "division-explain" => {
                let d = self.division(parse_division(args.at(0)?)?);
                let p = self.player(args.at(1)?)?;
                let i = d.order.iter().position(|&x| x == p).ok_or("not ranked")?;
                contains("explanation", &d.explanations[i].to_string(), args.at(2)?)
            }
            "leaders" => {
                let d = self.division(parse_division(args.at(0)?)?);
                check_eq(
                    "leaders",
                    &args.pos[1..].join(" "),
                    &self.names(&d.group_leaders),
                )?;
                if let Some(text) = args.opt("explain") {
                    let all = d
                        .leader_explanations
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("\n");
                    contains("leader explanations", &all, text)?;
                }
                Ok(())
            }
            "finalists" => {
                let q = self.qualification();
                let want = if args.pos.first().map(String::as_str) == Some("none") {
                    String::new()
                } else {
                    args.pos.join(" ")
                };
                check_eq("finalists", &want, &self.names(&q.players))
            }
            "advantaged" => {
                let q = self.qualification();
                check_eq(
                    "advantaged",
                    &args.pos.join(" "),
                    &self.names(&q.advantaged),
                )
            }
            "qualification" => {
                let q = self.qualification();
                let all = q
                    .explanations
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n");
                contains("qualification", &all, args.at(0)?)
            }
            "void" | "pending" => {
                let q = self.qualification();
                let e = if what == "void" { q.void } else { q.pending };
                match (args.at(0)?, e) {
                    ("none", None) => Ok(()),
                    ("none", Some(e)) => Err(format!("expected no {what}, got: {e}")),
                    (_, None) => Err(format!("expected {what}, got none")),
                    (text, Some(e)) => contains(what, &e.to_string(), text),
                }
            }
            "final" => {
                let q = self.qualification();
                let s = final_state(&q, &self.finals, &self.rules);
                let got = match &s {
                    FinalState::Playing { next } => format!(
                        "playing {}",
                        next.iter()
                            .map(|(b, w)| format!("{}-{}", self.name(*b), self.name(*w)))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                    FinalState::Champion {
                        player,
                        explanation,
                    } => format!("champion {} {explanation}", self.name(*player)),
                    FinalState::Playoff {
                        players,
                        explanation,
                    } => format!("playoff {} {explanation}", self.names(players)),
                    FinalState::Void { explanation } => format!("void {explanation}"),
                };
                let want = args.pos.join(" ");
                match args.at(0)? {
                    "playing" => check_eq("final", &want, &got),
                    _ => {
                        // The kind and names, then the explanation's text.
                        let head = args.pos[..args.pos.len() - 1].join(" ");
                        if !got.starts_with(&format!("{head} ")) {
                            return Err(format!("expected `{head} ...`, got: {got}"));
                        }
                        contains("final", &got, args.pos.last().map_or("", String::as_str))
                    }
                }
            }
            _ => Err(format!("unknown expectation `{what}`")),
        }
    }

    fn run_line(&mut self, text: &str) -> Step {
        match Line::parse(text)? {
            Line::Blank => Ok(()),
            Line::Expect(what, args) => self.expect(&what, &args),
            Line::Command(verb, args) => self.command(&verb, &args),
        }
    }
}

fn check_eq(what: &str, want: &str, got: &str) -> Step {
    if want == got {
        Ok(())
    } else {
        Err(format!("{what}: expected `{want}`, got `{got}`"))
    }
}

fn contains(what: &str, got: &str, want: &str) -> Step {
    if got.contains(want) {
        Ok(())
    } else {
        Err(format!(
            "{what}: expected it to contain {want:?}, got:\n{got}"
        ))
    }
}

fn run_case(case: &CaseFile) -> Result<(), Failure> {
    let mut runner = Runner::new();
    for (i, text) in case.text.lines().enumerate() {
        runner.run_line(text).map_err(|e| (i + 1, e))?;
    }
    Ok(())
}

fn suite(prefix: &'static str) -> Suite {
    Suite {
        dir: "golden-sunjang",
        prefix,
        document: "sunjang-league.txt",
        section: "(Sunjang ",
        header_section: "(Sunjang <Section>)",
        section_help: "`(Sunjang <Section>)`, e.g. `(Sunjang D. Priority Criteria & Tie-breakers)`",
        rulings: &["SJ-R", "ARB-R"],
        min_words: 3,
    }
}

#[test]
fn golden_sunjang_group_cases() {
    let s = suite("group-");
    let cases = s.cases();
    let failures = s.failures(&cases, true, run_case);
    assert_passed(&failures, cases.len(), "golden group");
    assert!(cases.len() >= 8, "only {} group cases", cases.len());
}

#[test]
fn golden_sunjang_final_cases() {
    let s = suite("final-");
    let cases = s.cases();
    let failures = s.failures(&cases, true, run_case);
    assert_passed(&failures, cases.len(), "golden final");
    assert!(cases.len() >= 5, "only {} final cases", cases.len());
}

#[test]
fn points_are_parsed_in_halves() {
    assert_eq!(parse_points("3½"), Ok(7));
    assert_eq!(parse_points("3.5"), Ok(7));
    assert_eq!(parse_points("½"), Ok(1));
    assert_eq!(parse_points("10"), Ok(20));
    assert_eq!(
        parse_group("B2").map(|g| (g.division, g.number)),
        Ok((1, 2))
    );
    // "the division letter plus a number (if necessary)": B is group 1.
    assert_eq!(parse_group("B"), parse_group("B1"));
    assert!(parse_group("B0").is_err());
}
