//! Golden cases for the general round-robin league, from real published
//! tables: every `tests/golden-roundrobin/*.case` file gives a preset, the
//! players, every game as the source prints it and the published order,
//! and names its source address. The harness drives the engine only
//! (decide, then try_apply) and compares the table's order, points and,
//! where the case says `[by <criterion>]`, the criterion that put the
//! player below the one above him.
//!
//! # Format
//!
//! ```text
//! # <title: what the case checks>
//! # source: <address of the published table>
//! # rules: <the regulation's words>
//! preset: fifa-world-cup | uefa-euro | chess | go | xmadn
//! cycles: 2                      (optional)
//! tiebreaks: h2h-points, wins    (optional: replaces the preset's list)
//! head-to-head: once | restart | block   (optional; also allowed between
//!                                 expectations, to rank the same games again)
//! players: A; B; C               (semicolon separated, entry order)
//! games:
//! A 2-1 B                        (first named at home or with white; scores,
//!                                 or 1-0, 0-1, ½-½, +:-, -:+, -:-)
//! withdraw: C                    (optional, after the games it follows)
//! lot: A; B                      (optional: a lot drawn by hand, best first)
//! expect:
//! 1. A 6                         (place, name, points as published; "2. = B"
//! 2. B 4 [by scored]              for a shared place)
//! ```
//!
//! Failures name the file and line.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::roundrobin::{
    Command, HeadToHead, RoundRobin, RoundRobinRules, Score, Tiebreak,
};

fn at() -> Time {
    "2026-01-01T12:00:00Z".parse().unwrap()
}

fn run(league: &mut RoundRobin, command: Command) -> Result<(), String> {
    let events = league.decide(command).map_err(|e| e.to_string())?;
    for e in &events {
        league.try_apply(e).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn is_result(token: &str) -> bool {
    let t = token.replace(':', "-");
    matches!(
        t.as_str(),
        "1-0" | "0-1" | "½-½" | "1/2-1/2" | "+-" | "-+" | "--" | "+--" | "--+" | "---"
    ) || t
        .split_once('-')
        .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())
}

fn player(league: &RoundRobin, name: &str) -> Result<PlayerId, String> {
    league
        .find(name)
        .ok_or_else(|| format!("no player named \"{name}\""))
}

/// An expected row: line, place, shared, name, points, criterion above.
type Expected = (usize, usize, bool, String, Option<String>, Option<String>);

fn check_case(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut rules: Option<RoundRobinRules> = None;
    let mut league = RoundRobin::default();
    let mut section = "";
    let mut expected: Vec<Expected> = Vec::new();
    let mut checks = 0;
    let mut has_source = false;
    let lines: Vec<&str> = text.lines().collect();
    let flush = |league: &RoundRobin, expected: &mut Vec<Expected>| -> Result<usize, String> {
        if expected.is_empty() {
            return Ok(0);
        }
        let table = league.table();
        for (i, (line_no, place, shared, name, points, by)) in expected.iter().enumerate() {
            let at = |m: String| format!("line {line_no}: {m}");
            let row = table
                .rows
                .get(i)
                .ok_or_else(|| at(format!("the table has {} rows", table.rows.len())))?;
            if !arbiter_engine::model::same_name(&row.line.name, name) {
                let order: Vec<&str> = table.rows.iter().map(|r| r.line.name.as_str()).collect();
                return Err(at(format!(
                    "expected {name} in place {}, the table has {} (order: {})\n{}",
                    i + 1,
                    row.line.name,
                    order.join(", "),
                    table
                        .rows
                        .iter()
                        .map(|r| r.explanation.text.clone())
                        .collect::<Vec<_>>()
                        .join("\n")
                )));
            }
            if row.place != *place {
                return Err(at(format!(
                    "{name}: expected place {place}, got {}: {}",
                    row.place, row.explanation.text
                )));
            }
            if *shared != (table.rows.iter().filter(|r| r.place == row.place).count() > 1) {
                return Err(at(format!("{name}: shared place expected {shared}")));
            }
            let shown = league.rules.points.show(row.line.points);
            if let Some(points) = points
                && &shown != points
            {
                return Err(at(format!("{name}: expected {points} points, got {shown}")));
            }
            let split = table.ranking.split_above(row.line.player);
            let got = split.map(|s| table.criteria[s.step].map_or("points", Tiebreak::id));
            if let Some(by) = by
                && got != Some(by.as_str())
            {
                return Err(at(format!(
                    "{name}: expected to be separated from the player above by {by}, got {got:?}: {}",
                    row.explanation.text
                )));
            }
        }
        let n = expected.len();
        expected.clear();
        Ok(n)
    };
    for (k, raw) in lines.iter().enumerate() {
        let line_no = k + 1;
        let at = |m: String| format!("line {line_no}: {m}");
        let line = raw.trim();
        if line.starts_with("# source: http") {
            has_source = true;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.split(" #").next().unwrap_or(line).trim();
        if let Some((key, value)) = line.split_once(':')
            && !value.trim().is_empty()
            && [
                "preset",
                "cycles",
                "tiebreaks",
                "head-to-head",
                "players",
                "withdraw",
                "lot",
            ]
            .contains(&key.trim())
        {
            let value = value.trim();
            let names = || -> Result<Vec<PlayerId>, String> {
                value
                    .split(';')
                    .map(|n| player(&league, n.trim()).map_err(&at))
                    .collect()
            };
            match key.trim() {
                "preset" => {
                    rules = Some(
                        RoundRobinRules::preset(value)
                            .ok_or_else(|| at(format!("no preset {value}")))?,
                    );
                }
                "cycles" => {
                    rules
                        .as_mut()
                        .ok_or_else(|| at("preset first".into()))?
                        .cycles = value.parse().map_err(|_| at("cycles".into()))?;
                }
                "tiebreaks" => {
                    rules
                        .as_mut()
                        .ok_or_else(|| at("preset first".into()))?
                        .tiebreaks = value
                        .split(',')
                        .map(|t| Tiebreak::parse(t).ok_or_else(|| at(format!("no tiebreak {t}"))))
                        .collect::<Result<_, _>>()?;
                }
                "head-to-head" => {
                    let h = HeadToHead::parse(value)
                        .ok_or_else(|| at(format!("no head-to-head method {value}")))?;
                    if league.created {
                        checks += flush(&league, &mut expected)
                            .map_err(|e| format!("{e} (before line {line_no})"))?;
                        league.rules.head_to_head = h;
                    } else {
                        rules
                            .as_mut()
                            .ok_or_else(|| at("preset first".into()))?
                            .head_to_head = h;
                    }
                }
                "players" => {
                    let rules = rules.clone().ok_or_else(|| at("preset first".into()))?;
                    let players = value.split(';').map(|n| n.trim().to_string()).collect();
                    run(
                        &mut league,
                        Command::Create {
                            name: "case".into(),
                            rules,
                            players,
                        },
                    )
                    .map_err(&at)?;
                }
                "withdraw" => {
                    let players = names()?;
                    for p in players {
                        run(
                            &mut league,
                            Command::Withdraw {
                                player: p,
                                at: at_time(),
                            },
                        )
                        .map_err(&at)?;
                    }
                }
                "lot" => {
                    let order = names()?;
                    run(
                        &mut league,
                        Command::EnterLots {
                            order,
                            how: "drawn by hand".into(),
                            at: at_time(),
                        },
                    )
                    .map_err(&at)?;
                }
                _ => unreachable!(),
            }
            continue;
        }
        match line {
            "games:" => {
                run(
                    &mut league,
                    Command::Start {
                        schedule: None,
                        seed: None,
                        at: at_time(),
                    },
                )
                .map_err(&at)?;
                section = "games";
                continue;
            }
            "expect:" => {
                checks += flush(&league, &mut expected)?;
                section = "expect";
                continue;
            }
            _ => {}
        }
        match section {
            "games" => {
                let tokens: Vec<&str> = line.split_whitespace().collect();
                let i = tokens
                    .iter()
                    .position(|t| is_result(t))
                    .ok_or_else(|| at(format!("no result in \"{line}\"")))?;
                let home = player(&league, &tokens[..i].join(" ")).map_err(&at)?;
                let away = player(&league, &tokens[i + 1..].join(" ")).map_err(&at)?;
                let score = Score::parse(tokens[i], league.rules.scores).map_err(&at)?;
                let game = league
                    .find_game(home, away, None)
                    .ok_or_else(|| at(format!("no game left between them: \"{line}\"")))?;
                let g = league.game(game).unwrap();
                let score = if g.home == home {
                    score
                } else {
                    score.swapped()
                };
                run(
                    &mut league,
                    Command::Record {
                        game,
                        score,
                        minutes: None,
                        at: at_time(),
                    },
                )
                .map_err(&at)?;
            }
            "expect" => {
                let (place, rest) = line
                    .split_once('.')
                    .ok_or_else(|| at(format!("expected \"<place>. <name> <points>\": {line}")))?;
                let place: usize = place.trim().parse().map_err(|_| at("place".into()))?;
                let rest = rest.trim();
                let (shared, rest) = match rest.strip_prefix('=') {
                    Some(r) => (true, r.trim()),
                    None => (false, rest),
                };
                let (rest, by) = match rest.split_once('[') {
                    Some((r, b)) => (
                        r.trim(),
                        Some(
                            b.trim_end_matches(']')
                                .trim()
                                .trim_start_matches("by ")
                                .trim()
                                .to_string(),
                        ),
                    ),
                    None => (rest, None),
                };
                // Points are optional: a last token of digits (and ½).
                let (name, points) = match rest.rsplit_once(' ') {
                    Some((n, p))
                        if !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '½') =>
                    {
                        (n.trim(), Some(p.to_string()))
                    }
                    _ => (rest, None),
                };
                expected.push((line_no, place, shared, name.to_string(), points, by));
            }
            _ => return Err(at(format!("unexpected line: {line}"))),
        }
    }
    checks += flush(&league, &mut expected)?;
    if !has_source {
        return Err("the case names no source address (# source: https://...)".into());
    }
    if checks == 0 {
        return Err("the case checks nothing".into());
    }
    Ok(checks)
}

fn at_time() -> Time {
    at()
}

#[test]
fn golden_round_robin_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden-roundrobin");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "golden cases in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        match check_case(f) {
            Ok(n) => eprintln!("{}: {n} places checked", f.display()),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
