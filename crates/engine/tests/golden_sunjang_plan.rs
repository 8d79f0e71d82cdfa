//! Golden cases for the Sunjang season planner, as data: every
//! `tests/golden-sunjang/plan-*.case` file builds a previous season (or a
//! first season's registrations), the withdrawals, the new players and the
//! restrictions, plans the next season and checks the plan, starting with
//! the sentence of the rule document it tests (quoted word for word) and the
//! rulings it applies.
//!
//! The harness drives the engine only (`sunjang::planner::plan`). On failure
//! it names the case file and line:
//! `tests/golden-sunjang/<file>.case:<line>: what differs`. Besides each
//! case's expectations every plan is checked against the invariants of
//! `sunjang_plan_support::check` (everyone placed once, the size rules, the
//! zig-zag of the D.2 order, the restrictions), and a second run must give
//! the same plan.
//!
//! # Format
//!
//! One command or expectation a line; `#` starts a comment (outside
//! quotes); `"..."` quotes a token with spaces; `key=value` gives an option.
//!
//! Header (required, first two lines):
//!
//! ```text
//! # clause: "<words quoted from sunjang-league.txt>" (Sunjang <Section>)
//! # ruling: SJ-R2, ARB-R30        (ids separated by commas, or `none`)
//! ```
//!
//! Setup (players are registered in the order of the lines, previous
//! divisions first; that order is the registration order):
//!
//! ```text
//! rules [provisional=yes|no] [groups=nearest|fewest]
//! restrict 9d-1d A-A            ranks (either order), highest-lowest division ("A" for A-A)
//! prev B 7,7,7 [rank=3k] [ranks=2k*3,3k*18] [leaders=B05,B02,B03] [names=Lee,Kim]
//!        division B of the previous season: players B01, B02, ... in the order
//!        of the merged ranking (best first), groups of these sizes; ranks from
//!        `ranks` (R*N repeats) then `rank` (default 1k); ratings fall by 20 a
//!        player in registration order from 2500 unless set; leaders of the
//!        groups in group order, by default the first of the ranking; `names`
//!        renames the first players of the ranking
//! new NAME RANK [rating=N] [provisional=yes]        a new player
//! new-many PREFIX COUNT RANK                        PREFIX01, PREFIX02, ...
//! player NAME [rank=R] [rating=N] [provisional=yes|no] [corr=R] [corr_rating=N]
//! withdraw NAME...                                  (B.4)
//! gave-way NAME             live WINNER>LOSER       (D.2's last criteria)
//! plan
//! ```
//!
//! Expectations, on the last `plan`:
//!
//! ```text
//! expect cancelled N                   (footnote 2)
//! expect sizes 14 42 20                the divisions' sizes, A first
//! expect groups B 5,6,6                B's group sizes in group order
//! expect group B1 NAME...              B1's players in seed order; the group is named so
//!                                      (`B` for the only group of B: Sunjang Definitions: Group)
//! expect in B NAME...                  each of them is in B
//! expect place NAME B2|B [seed=N] [reason=direct|demotion|middle|rank|forced|override|new|first]
//!                                      B2: in the group named B2; B: in division B (in its
//!                                      only group, which is named B)
//! expect explain NAME "text"           his explanation (with its rule reference) contains text
//! expect note "text"                   a note contains text
//! expect error "text" [clause="text"]  the plan was refused
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
mod common;
mod sunjang_plan_support;

use std::collections::HashMap;

use arbiter_engine::RuleError;
use arbiter_engine::sunjang::planner::{
    PlacementReason, Plan, PlanOutcome, PreviousDivision, PreviousSeason,
};
use arbiter_engine::sunjang::rules::GroupCount;
use arbiter_engine::sunjang::{Division, PlayerId, Rank, Restriction, division_letter};
use common::golden::{
    Args, CaseFile, Failure, Line, Pending, Step, Suite, assert_passed, expect_refusal, parse_num,
};
use sunjang_plan_support::{Scenario, check};

const SUITE: Suite = Suite {
    dir: "golden-sunjang",
    prefix: "plan-",
    document: "sunjang-league.txt",
    section: "(Sunjang ",
    header_section: "(Sunjang <Section>)",
    section_help: "`(Sunjang ...)`",
    rulings: &["SJ-R", "ARB-R"],
    min_words: 4,
};

fn parse_bool(s: &str) -> Result<bool, String> {
    match s {
        "yes" | "true" => Ok(true),
        "no" | "false" => Ok(false),
        _ => Err(format!("not yes/no: `{s}`")),
    }
}

fn rank(s: &str) -> Result<Rank, String> {
    Rank::parse(s).map(|r| r.0).map_err(|e| e.message)
}

fn division(s: &str) -> Result<Division, String> {
    let mut d: u32 = 0;
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_uppercase()) {
        return Err(format!("not a division letter: `{s}`"));
    }
    for c in s.chars() {
        d = d * 26 + (c as u32 - 'A' as u32 + 1);
    }
    Ok(d - 1)
}

/// `B2` → (division, group number); `B` → (division, None).
fn group_ref(s: &str) -> Result<(Division, Option<u32>), String> {
    let split = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
    let (l, n) = s.split_at(split);
    let d = division(l)?;
    let g = if n.is_empty() {
        None
    } else {
        Some(parse_num(n)?)
    };
    Ok((d, g))
}

/// `2d*3,1k` → [2d, 2d, 2d, 1k].
fn ranks_list(s: &str) -> Result<Vec<Rank>, String> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let (r, n) = match part.split_once('*') {
            Some((r, n)) => (r, parse_num::<usize>(n)?),
            None => (part, 1),
        };
        let r = rank(r)?;
        out.extend(std::iter::repeat_n(r, n));
    }
    Ok(out)
}

fn reason_name(r: PlacementReason) -> &'static str {
    match r {
        PlacementReason::DirectPromotion { .. } => "direct",
        PlacementReason::Demotion { .. } => "demotion",
        PlacementReason::Middle { .. } => "middle",
        PlacementReason::PromotionByRank { .. } => "rank",
        PlacementReason::ForcedPromotion { .. } => "forced",
        PlacementReason::SizeOverride { .. } => "override",
        PlacementReason::NewPlayer => "new",
        PlacementReason::FirstSeason => "first",
    }
}

struct Runner {
    s: Scenario,
    names: HashMap<String, PlayerId>,
    withdrawn: Vec<PlayerId>,
    next_rating: i32,
    outcome: Option<Result<PlanOutcome, RuleError>>,
    pending: Option<Pending<()>>,
}

impl Runner {
    fn new() -> Runner {
        Runner {
            s: Scenario::default(),
            names: HashMap::new(),
            withdrawn: Vec::new(),
            next_rating: 2500,
            outcome: None,
            pending: None,
        }
    }

    fn player(&self, name: &str) -> Result<PlayerId, String> {
        self.names
            .get(name)
            .copied()
            .ok_or_else(|| format!("no player named `{name}` (a typo in the case?)"))
    }

    fn register(
        &mut self,
        name: &str,
        r: Rank,
        rating: Option<i32>,
        provisional: bool,
    ) -> Result<PlayerId, String> {
        if self.names.contains_key(name) {
            return Err(format!("`{name}` is registered twice"));
        }
        let rating = rating.unwrap_or(self.next_rating);
        self.next_rating -= 20;
        let id = self.s.register(name, r, rating, provisional);
        self.names.insert(name.to_string(), id);
        Ok(id)
    }

    fn plan(&self) -> Result<&Plan, String> {
        match &self.outcome {
            Some(Ok(PlanOutcome::Planned(p))) => Ok(p),
            Some(Ok(PlanOutcome::Cancelled { explanation, .. })) => {
                Err(format!("the season was cancelled: {explanation}"))
            }
            Some(Err(e)) => Err(format!("the plan was refused: {e}")),
            None => Err("no `plan` yet".into()),
        }
    }

    fn name(&self, p: PlayerId) -> &str {
        &self.s.info[p.index()].name
    }

    fn command(&mut self, line: usize, verb: &str, args: &Args) -> Step {
        if self.outcome.is_some() && verb != "plan" {
            return Err("setup after `plan`: one plan a case".into());
        }
        match verb {
            "rules" => {
                args.only(&["provisional", "groups"])?;
                if let Some(p) = args.opt("provisional") {
                    self.s.rules.provisional_promotable = parse_bool(p)?;
                }
                if let Some(g) = args.opt("groups") {
                    self.s.rules.group_count = match g {
                        "nearest" => GroupCount::NearestIdeal,
                        "fewest" => GroupCount::Fewest,
                        _ => return Err(format!("groups=nearest|fewest, not `{g}`")),
                    };
                }
            }
            "restrict" => {
                let (a, b) = args.at(0)?.split_once('-').ok_or("ranks are RANK-RANK")?;
                let (a, b) = (rank(a)?, rank(b)?);
                let divs = args.at(1)?;
                let (h, l) = divs.split_once('-').unwrap_or((divs, divs));
                self.s.restrictions.rows.push(Restriction {
                    strongest: a.max(b),
                    weakest: a.min(b),
                    highest: division(h)?,
                    lowest: division(l)?,
                });
            }
            "prev" => {
                args.only(&["rank", "ranks", "leaders", "names"])?;
                let d = division(args.at(0)?)?;
                let prev = self.s.previous.get_or_insert_with(PreviousSeason::default);
                if prev.divisions.len() != d as usize {
                    return Err("give the previous divisions in order, A first".into());
                }
                let groups: Vec<u32> = args
                    .at(1)?
                    .split(',')
                    .map(parse_num)
                    .collect::<Result<_, _>>()?;
                let size: u32 = groups.iter().sum();
                let default_rank = rank(args.opt("rank").unwrap_or("1k"))?;
                let ranks = args
                    .opt("ranks")
                    .map(ranks_list)
                    .transpose()?
                    .unwrap_or_default();
                let names: Vec<&str> = args
                    .opt("names")
                    .map(|n| n.split(',').collect())
                    .unwrap_or_default();
                let letter = division_letter(d);
                let mut ranking = Vec::new();
                for i in 0..size as usize {
                    let name = names
                        .get(i)
                        .map_or_else(|| format!("{letter}{:02}", i + 1), |n| (*n).to_string());
                    let r = ranks.get(i).copied().unwrap_or(default_rank);
                    ranking.push(self.register(&name, r, None, false)?);
                }
                let leaders = match args.opt("leaders") {
                    Some(l) => l
                        .split(',')
                        .map(|n| self.player(n))
                        .collect::<Result<Vec<_>, _>>()?,
                    None => ranking[..groups.len()].to_vec(),
                };
                let prev = self.s.previous.get_or_insert_with(PreviousSeason::default);
                prev.divisions.push(PreviousDivision {
                    ranking,
                    group_leaders: leaders,
                    groups,
                });
            }
            "new" => {
                args.only(&["rating", "provisional"])?;
                let rating = args.opt("rating").map(parse_num).transpose()?;
                let provisional = args
                    .opt("provisional")
                    .map(parse_bool)
                    .transpose()?
                    .unwrap_or(false);
                self.register(args.at(0)?, rank(args.at(1)?)?, rating, provisional)?;
            }
            "new-many" => {
                args.only(&[])?;
                let prefix = args.at(0)?.to_string();
                let count: usize = parse_num(args.at(1)?)?;
                let r = rank(args.at(2)?)?;
                for i in 1..=count {
                    self.register(&format!("{prefix}{i:02}"), r, None, false)?;
                }
            }
            "player" => {
                args.only(&["rank", "rating", "provisional", "corr", "corr_rating"])?;
                let p = self.player(args.at(0)?)?;
                let info = &mut self.s.info[p.index()];
                if let Some(r) = args.opt("rank") {
                    info.rank = rank(r)?;
                }
                if let Some(r) = args.opt("rating") {
                    info.rating = parse_num(r)?;
                }
                if let Some(v) = args.opt("provisional") {
                    info.provisional = parse_bool(v)?;
                }
                if let Some(r) = args.opt("corr") {
                    info.corr_rank = Some(rank(r)?);
                }
                if let Some(r) = args.opt("corr_rating") {
                    info.corr_rating = Some(parse_num(r)?);
                }
            }
            "withdraw" => {
                for n in &args.pos {
                    let p = self.player(n)?;
                    self.withdrawn.push(p);
                }
            }
            "gave-way" => {
                let p = self.player(args.at(0)?)?;
                self.s.tiebreaks.gave_way.push(p);
            }
            "live" => {
                let (w, l) = args.at(0)?.split_once('>').ok_or("live WINNER>LOSER")?;
                let (w, l) = (self.player(w)?, self.player(l)?);
                self.s.tiebreaks.live_matches.push((w, l));
            }
            "plan" => {
                if self.outcome.is_some() {
                    return Err("one `plan` a case".into());
                }
                self.s.entrants = (1..=self.s.info.len() as u32)
                    .map(PlayerId)
                    .filter(|p| !self.withdrawn.contains(p))
                    .collect();
                let outcome = self.s.plan();
                check(&self.s, &outcome, 200).map_err(|e| format!("an invariant fails: {e}"))?;
                if let Err(error) = &outcome {
                    self.pending = Some(Pending {
                        line,
                        error: error.clone(),
                        before: Box::new(()),
                    });
                }
                self.outcome = Some(outcome);
            }
            _ => return Err(format!("unknown command `{verb}`")),
        }
        Ok(())
    }

    fn placement(
        &self,
        name: &str,
    ) -> Result<&arbiter_engine::sunjang::planner::Placement, String> {
        let p = self.player(name)?;
        self.plan()?
            .placements
            .iter()
            .find(|x| x.player == p)
            .ok_or_else(|| format!("{name} is not placed (withdrawn?)"))
    }

    fn expect(&mut self, what: &str, args: &Args) -> Step {
        match what {
            "error" => {
                expect_refusal(&mut self.pending, args)?;
            }
            "cancelled" => {
                let n: usize = parse_num(args.at(0)?)?;
                match &self.outcome {
                    Some(Ok(PlanOutcome::Cancelled { players, .. })) if *players == n => {}
                    other => {
                        return Err(format!("expected a cancelled season of {n}, got {other:?}"));
                    }
                }
            }
            "sizes" => {
                let want: Vec<usize> = args
                    .pos
                    .iter()
                    .map(|s| parse_num(s))
                    .collect::<Result<_, _>>()?;
                let got: Vec<usize> = self.plan()?.divisions.iter().map(|d| d.size()).collect();
                if got != want {
                    return Err(format!("sizes {got:?}, expected {want:?}"));
                }
            }
            "groups" => {
                let d = division(args.at(0)?)? as usize;
                let want: Vec<usize> = args
                    .at(1)?
                    .split(',')
                    .map(parse_num)
                    .collect::<Result<_, _>>()?;
                let div = self.plan()?.divisions.get(d).ok_or("no such division")?;
                let got: Vec<usize> = div.groups.iter().map(Vec::len).collect();
                if got != want {
                    return Err(format!("groups {got:?}, expected {want:?}"));
                }
            }
            "group" => {
                let (d, g) = group_ref(args.at(0)?)?;
                let plan = self.plan()?;
                let groups = &plan
                    .divisions
                    .get(d as usize)
                    .ok_or("no such division")?
                    .groups;
                let g = match g {
                    Some(g) => g,
                    None if groups.len() == 1 => 1,
                    None => return Err(format!("name a group of {}: B1", args.at(0)?)),
                };
                let group = groups
                    .get((g as usize).wrapping_sub(1))
                    .ok_or("no such group")?;
                // "denoted by the division letter plus a number (if
                // necessary)" (Sunjang Definitions: Group): the name the
                // plan gives the group is the one the case writes.
                if let Some(first) = group.first() {
                    let named = plan
                        .placements
                        .iter()
                        .find(|pl| pl.player == *first)
                        .map(|pl| pl.group.to_string())
                        .unwrap_or_default();
                    if named != args.at(0)? {
                        return Err(format!(
                            "the plan names this group {named}, expected {}",
                            args.at(0)?
                        ));
                    }
                }
                let got: Vec<&str> = group.iter().map(|p| self.name(*p)).collect();
                let want: Vec<&str> = args.pos[1..].iter().map(String::as_str).collect();
                if got != want {
                    return Err(format!(
                        "{} is {}, expected {}",
                        args.at(0)?,
                        got.join(" "),
                        want.join(" ")
                    ));
                }
            }
            "in" => {
                let d = division(args.at(0)?)?;
                for n in &args.pos[1..] {
                    let pl = self.placement(n)?;
                    if pl.group.division != d {
                        return Err(format!(
                            "{n} is in {}, expected {}: {}",
                            pl.group,
                            args.at(0)?,
                            pl.explanation
                        ));
                    }
                }
            }
            "place" => {
                args.only(&["seed", "reason"])?;
                let name = args.at(0)?;
                let (d, g) = group_ref(args.at(1)?)?;
                let pl = self.placement(name)?;
                // With a number, the group's name as the plan gives it (B1
                // is not the name of the only group of B).
                if pl.group.division != d || (g.is_some() && pl.group.to_string() != args.at(1)?) {
                    return Err(format!(
                        "{name} is in {}, expected {}: {}",
                        pl.group,
                        args.at(1)?,
                        pl.explanation
                    ));
                }
                if let Some(s) = args.opt("seed") {
                    let s: u32 = parse_num(s)?;
                    if pl.seed != s {
                        return Err(format!("{name} is seed {}, expected {s}", pl.seed));
                    }
                }
                if let Some(r) = args.opt("reason")
                    && reason_name(pl.reason) != r
                {
                    return Err(format!(
                        "{name}'s reason is {:?}, expected {r}: {}",
                        pl.reason, pl.explanation
                    ));
                }
            }
            "explain" => {
                let pl = self.placement(args.at(0)?)?;
                let shown = pl.explanation.to_string();
                if !shown.contains(args.at(1)?) {
                    return Err(format!(
                        "the explanation is {shown:?}, expected it to contain {:?}",
                        args.at(1)?
                    ));
                }
            }
            "note" => {
                let plan = self.plan()?;
                let want = args.at(0)?;
                if !plan.notes.iter().any(|n| n.to_string().contains(want)) {
                    return Err(format!(
                        "no note contains {want:?}; the notes:\n  {}",
                        plan.notes
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join("\n  ")
                    ));
                }
            }
            _ => return Err(format!("unknown expectation `{what}`")),
        }
        Ok(())
    }
}

fn run_case(case: &CaseFile) -> Result<Option<Result<PlanOutcome, RuleError>>, Failure> {
    let mut r = Runner::new();
    for (i, text) in case.text.lines().enumerate() {
        let line = i + 1;
        let parsed = Line::parse(text).map_err(|e| (line, e))?;
        if let Some(p) = &r.pending {
            p.check_follows(&parsed).map_err(|e| (line, e))?;
        }
        match parsed {
            Line::Blank => {}
            Line::Expect(what, args) => r.expect(&what, &args).map_err(|e| (line, e))?,
            Line::Command(verb, args) => r.command(line, &verb, &args).map_err(|e| (line, e))?,
        }
    }
    if let Some(p) = &r.pending {
        return Err(p.unanswered());
    }
    if r.outcome.is_none() {
        return Err((0, "the case has no `plan`".into()));
    }
    Ok(r.outcome)
}

#[test]
fn golden_plan_cases() {
    let cases = SUITE.cases();
    let failures = SUITE.failures(&cases, true, run_case);
    assert_passed(&failures, cases.len(), "season plan");
    assert!(cases.len() >= 20, "only {} plan cases", cases.len());
}

#[test]
fn division_letters_parse() {
    assert_eq!(division("A"), Ok(0));
    assert_eq!(division("Z"), Ok(25));
    assert_eq!(division("AA"), Ok(26));
    assert_eq!(group_ref("B12"), Ok((1, Some(12))));
}
