//! One line in words about each event of every format: the history (CLI and
//! pages) and the message after an action.

use arbiter_engine::model::{GameId, PlayerId};
use arbiter_engine::sunjang::season::{self, League as SunjangLeague};
use arbiter_engine::tws::{Event, Ladder};
use arbiter_engine::xmadn::challengers::{self, Challengers};
use arbiter_engine::xmadn::format_time;
use arbiter_engine::xmadn::league::{self, League};

use crate::history::Concerns;
use crate::sunjang::outcome_words;

/// An account linked to a player or unlinked from him (ARB-R50), in words.
/// A competition's time zone set (ARB-R82), as the history says it.
pub(crate) fn zone_set(zone: arbiter_engine::zone::TimeZone) -> String {
    format!("time zone set to {zone}: times are shown, and days given without a time read, in it")
}

fn link(name: String, player: PlayerId, account: &str, linked: bool) -> String {
    if linked {
        format!("{name} ({player}) linked to the account {account}")
    } else {
        format!("{name} ({player}) unlinked from the account {account}")
    }
}

/// One line about a ladder event, for the history.
pub fn summarize(l: &Ladder, e: &Event) -> String {
    let n = |p| l.name_of(p);
    let game = |g: GameId| {
        l.game(g)
            .map_or_else(|| g.to_string(), |gm| format!("{} {}", g, l.game_name(gm)))
    };
    match e {
        Event::Created {
            name, seed_hash, ..
        } => format!(
            "created {name}; round 1's draw seed committed as {}",
            hex::encode(seed_hash)
        ),
        Event::RulesChanged {
            from_round,
            reason,
            rules,
        } => {
            format!(
                "rules from round {from_round}: bid {}, {} months — {reason}",
                rules.bid, rules.deadline_months
            )
        }
        Event::ModeratorAdded { name } => format!("moderator {name} added"),
        Event::ModeratorRemoved { name } => format!("moderator {name} removed"),
        Event::PlayerApplied { name, .. } => format!("{name} applied to join"),
        Event::PlayerApproved { player } => {
            format!("{} approved: enters at the bottom", n(*player))
        }
        Event::PlayerDeclined { player, reason } => format!("{} declined: {reason}", n(*player)),
        Event::GuestRegistered { name, .. } => format!("{name} registered as a guest"),
        Event::PlayerReentered { player } => format!("{} re-entered at the bottom", n(*player)),
        Event::PlayerWithdrawn { player, reason } => format!("{} withdrew: {reason}", n(*player)),
        Event::AccountLinked { player, account } => link(n(*player), *player, account, true),
        Event::AccountUnlinked { player, account } => link(n(*player), *player, account, false),
        Event::TimeZoneSet { zone } => zone_set(*zone),
        Event::EliminatorVolunteered { player } => {
            format!("{} volunteers as eliminator", n(*player))
        }
        Event::EliminatorStoodDown { player } => format!("{} no longer volunteers", n(*player)),
        Event::SkipRequested { player, round } => format!("{} skips round {round}", n(*player)),
        Event::SkipCancelled { player, round } => {
            format!("{} will play round {round} after all", n(*player))
        }
        Event::RoundAnnounced(a) => format!(
            "round {} announced: {} games, deadline {}, bid {}; seed {} revealed, next committed as {}",
            a.round,
            a.games.len(),
            l.zone.date(a.deadline),
            a.bid,
            hex::encode(a.seed),
            hex::encode(a.next_seed_hash)
        ),
        Event::GameAdded { game: g, round, .. } => format!("{} added to round {round}", game(g.id)),
        Event::QuickGameScheduled { game: g, .. } => format!("quick-round game {}", game(g.id)),
        Event::ResultRecorded { game: g, result } => format!(
            "{}: {} ({}, {})",
            game(*g),
            result.outcome.describe(),
            result.ended_by.describe(),
            result.status.name()
        ),
        Event::ResultCorrected {
            game: g,
            result,
            reason,
        } => format!(
            "{} corrected to {}: {reason}",
            game(*g),
            result.outcome.describe()
        ),
        Event::GameCancelled {
            game: g, reason, ..
        } => format!("{} cancelled: {reason}", game(*g)),
        Event::ResultReported {
            game: g,
            result,
            by,
            ..
        } => format!(
            "{}: {} reports {} ({}), awaiting confirmation",
            game(*g),
            n(*by),
            result.outcome.describe(),
            result.ended_by.describe()
        ),
        Event::ResultConfirmed { game: g, by, .. } => {
            format!("{}: report confirmed by {}", game(*g), l.confirmer_name(by))
        }
        Event::ReportRejected {
            game: g,
            by,
            reason,
            ..
        } => format!(
            "{}: report rejected by {}: {reason}",
            game(*g),
            l.confirmer_name(by)
        ),
        Event::RoundClosed(c) => format!(
            "round {} closed: champion {}, streak {}",
            c.round,
            c.champion.map_or("-".into(), n),
            c.streak
        ),
        Event::CarriedOver(c) => format!(
            "carried over from earlier records ({}), entered by {}: {} members, {} inactive, champion {} (streak {}), continuing from round {}",
            c.source,
            c.by,
            c.records.members.len(),
            c.records.inactive.len(),
            c.records.members.first().map_or("-", |m| m.name.as_str()),
            c.records.champion_streak,
            c.records.next_round
        ),
        Event::Reverted { seq, summary } => format!("undo of event {seq} ({summary})"),
    }
}

/// One league event in words.
pub fn league(l: &League, e: &league::Event) -> String {
    use league::Event as E;
    // The document's numbering, the league-wide id as its alias (ARB-R63).
    let game = |id: &GameId| {
        l.game(*id).map_or_else(
            || id.to_string(),
            |g| {
                format!(
                    "{} ({id}): {} v {}",
                    league::stage_words(g.stage),
                    l.name_of(g.players[0]),
                    l.name_of(g.players[1])
                )
            },
        )
    };
    // The pawns brought home per allied colour, when entered so (ARB-R65).
    let home = |h: &Option<[arbiter_engine::xmadn::Home; 2]>| {
        h.map_or(String::new(), |h| {
            format!(" (brought home {} v {}, vanguard/rearguard)", h[0], h[1])
        })
    };
    match e {
        E::Created { name, players, .. } => {
            format!("league {name:?} created for {}", players.join(", "))
        }
        E::PositionsRolled {
            drr,
            positions,
            rounds,
            ..
        } => format!(
            "DRR {drr} positions rolled: #1 {}, #2 {}, #3 {} ({})",
            l.name_of(positions[0]),
            l.name_of(positions[1]),
            l.name_of(positions[2]),
            league::describe_rounds(l, rounds)
        ),
        E::ResultRecorded {
            game: id,
            score,
            home: h,
            ..
        } => format!(
            "{}: {}-{}{} in {}",
            game(id),
            score.pawns[0],
            score.pawns[1],
            home(h),
            format_time(score.seconds)
        ),
        E::ResultCorrected {
            game: id,
            score,
            home: h,
            reason,
            ..
        } => format!(
            "{} corrected to {}-{}{} in {} ({reason})",
            game(id),
            score.pawns[0],
            score.pawns[1],
            home(h),
            format_time(score.seconds)
        ),
        E::GameCancelled { game: id, note, .. } => format!("{} cancelled: {note}", game(id)),
        E::DrrCancelled { drr, note, .. } => format!("DRR {drr} cancelled: {note}"),
        E::DrrsCarriedOver(c) => {
            use arbiter_engine::xmadn::carry::CarriedGame;
            let played = c
                .drrs
                .iter()
                .flat_map(|d| d.games.iter())
                .filter(|g| matches!(g, CarriedGame::Played { .. }))
                .count();
            format!(
                "{} double round-robin(s) carried over from the records ({played} games played; source: {}; entered by {}; ARB-R80)",
                c.drrs.len(),
                c.source,
                c.by
            )
        }
        E::TiebreakRolled { rounds, .. } => format!(
            "round of die-roll for step 6: {}",
            league::describe_rounds(l, rounds)
        ),
        E::PositionsEntered {
            drr,
            positions,
            rounds,
            by,
            at,
        } => format!(
            "DRR {drr} positions by dice rolled at the table: #1 {}, #2 {}, #3 {} ({}; {})",
            l.name_of(positions[0]),
            l.name_of(positions[1]),
            l.name_of(positions[2]),
            league::describe_rounds(l, rounds),
            league::entered_words(by, *at)
        ),
        E::TiebreakEntered { rounds, by, at, .. } => format!(
            "round of die-roll for step 6 with dice rolled at the table: {} ({})",
            league::describe_rounds(l, rounds),
            league::entered_words(by, *at)
        ),
        E::PlayoffStarted {
            stage,
            higher,
            lower,
            series,
            head_start,
            colours,
            ..
        } => format!(
            "{} ({}) started: {} ({colours}) v {}{}",
            series.code(*stage == league::PlayoffStage::Final),
            stage.name(),
            l.name_of(*higher),
            l.name_of(*lower),
            if *head_start { ", head start 1-0" } else { "" }
        ),
        E::PlayoffGamePlayed {
            stage,
            score,
            home: h,
            ..
        } => {
            let round = l.playoff.iter().rev().find(|r| r.stage == *stage);
            let (higher, lower) = round.map_or((String::new(), String::new()), |r| {
                (l.name_of(r.higher), l.name_of(r.lower))
            });
            format!(
                "{} game: {higher} {}-{} {lower}{} in {}",
                stage.name(),
                score.pawns[0],
                score.pawns[1],
                home(h),
                format_time(score.seconds)
            )
        }
        E::ResultReported {
            game: id,
            score,
            by,
            ..
        } => format!(
            "{}: {} reports {}-{} in {}, awaiting confirmation (ARB-R45)",
            league_report_ref(l, *id),
            l.name_of(*by),
            score.pawns[0],
            score.pawns[1],
            format_time(score.seconds)
        ),
        E::ResultConfirmed { game: id, by, .. } => format!(
            "{}: report confirmed by {}",
            league_report_ref(l, *id),
            confirmer(by, &|p| l.name_of(p))
        ),
        E::ReportDisputed {
            game: id,
            by,
            reason,
            ..
        } => format!(
            "{}: report disputed by {}: {reason}",
            league_report_ref(l, *id),
            confirmer(by, &|p| l.name_of(p))
        ),
        E::AccountLinked { player, account } => link(l.name_of(*player), *player, account, true),
        E::AccountUnlinked { player, account } => link(l.name_of(*player), *player, account, false),
        E::TimeZoneSet { zone } => zone_set(*zone),
        E::Reverted { seq, summary } => format!("event {seq} ({summary}) undone"),
    }
}

/// A reported league game in words: the game with its players, or the
/// playoff game it is (ARB-R45, ARB-R81).
fn league_report_ref(l: &League, id: GameId) -> String {
    match l.game(id) {
        Some(g) => format!(
            "{} ({id}): {} v {}",
            league::stage_words(g.stage),
            l.name_of(g.players[0]),
            l.name_of(g.players[1])
        ),
        None => l.report_ref(id),
    }
}

/// Who confirmed or disputed a report: the player's name, or "moderator"
/// and the account (ARB-R45).
fn confirmer(
    by: &arbiter_engine::report::Confirmer,
    name_of: &dyn Fn(PlayerId) -> String,
) -> String {
    match by {
        arbiter_engine::report::Confirmer::Player(p) => name_of(*p),
        arbiter_engine::report::Confirmer::Moderator(account) => format!("moderator {account}"),
    }
}

/// One Challengers event in words.
pub fn challengers(c: &Challengers, e: &challengers::Event) -> String {
    use challengers::Event as E;
    match e {
        E::Created {
            name,
            players,
            rules,
        } => format!(
            "Challengers {name:?} created for {}, first to {}",
            players.join(", "),
            rules.first_to
        ),
        E::QualifierPlayed {
            finishing, chosen, ..
        } => format!(
            "Game 0: 1st {}, 2nd {}, 3rd {}; {} chose {chosen}",
            c.name_of(finishing[0]),
            c.name_of(finishing[1]),
            c.name_of(finishing[2]),
            c.name_of(finishing[0]),
        ),
        E::GamePlayed {
            number,
            players,
            score,
            ..
        } => format!(
            "Game {number}: {} {}-{} {} in {}",
            c.name_of(players[0]),
            score.pawns[0],
            score.pawns[1],
            c.name_of(players[1]),
            format_time(score.seconds)
        ),
        E::ResultReported {
            number, score, by, ..
        } => {
            let board = c.board().map(|b| b.players);
            format!(
                "Game {number}: {} reports {}{}-{}{} in {}, awaiting confirmation (ARB-R45)",
                c.name_of(*by),
                board.map_or(String::new(), |b| format!("{} ", c.name_of(b[0]))),
                score.pawns[0],
                score.pawns[1],
                board.map_or(String::new(), |b| format!(" {}", c.name_of(b[1]))),
                format_time(score.seconds)
            )
        }
        E::ResultConfirmed { number, by, .. } => format!(
            "Game {number}: report confirmed by {}",
            confirmer(by, &|p| c.name_of(p))
        ),
        E::ReportDisputed {
            number, by, reason, ..
        } => format!(
            "Game {number}: report disputed by {}: {reason}",
            confirmer(by, &|p| c.name_of(p))
        ),
        E::AccountLinked { player, account } => link(c.name_of(*player), *player, account, true),
        E::AccountUnlinked { player, account } => link(c.name_of(*player), *player, account, false),
        E::TimeZoneSet { zone } => zone_set(*zone),
        E::Reverted { seq, summary } => format!("event {seq} ({summary}) undone"),
    }
}

/// One Sunjang league event in words.
pub fn sunjang(l: &SunjangLeague, e: &season::Event) -> String {
    use season::Event as E;
    let n = |p: &PlayerId| l.name_of(*p);
    match e {
        E::Created { name, .. } => format!("Sunjang league {name:?} created"),
        E::PlayerRegistered { info, .. } => format!("{} registered ({})", info.name, info.rank),
        E::PlayerUpdated { player, info } => {
            format!("{} now {} ({})", n(player), info.rank, info.rating)
        }
        E::PlayerWithdrawn { player, .. } => format!("{} withdrew (B.4)", n(player)),
        E::PlayerReturned { player } => format!("{} returned", n(player)),
        E::RestrictionsChanged { reason, .. } => format!("restrictions changed: {reason}"),
        E::SeasonPlanned(p) => match &p.cancelled {
            Some(c) => format!("season {} cancelled: {}", p.season, c.text),
            None => format!(
                "season {} planned: {} divisions, {} players",
                p.season,
                p.divisions.len(),
                p.placements.len()
            ),
        },
        E::ResultRecorded {
            season,
            group,
            black,
            white,
            outcome,
            ..
        } => format!(
            "{}: {} (black) v {}: {}",
            l.group_named(*season, *group),
            n(black),
            n(white),
            outcome_words(*outcome)
        ),
        E::ResultCorrected {
            season,
            group,
            black,
            white,
            outcome,
            reason,
            ..
        } => format!(
            "{}: {} (black) v {} corrected to {} ({reason})",
            l.group_named(*season, *group),
            n(black),
            n(white),
            outcome_words(*outcome)
        ),
        E::ResultReported {
            season,
            group,
            black,
            white,
            outcome,
            by,
            ..
        } => format!(
            "{}: {} (black) v {}: {} reports {}, awaiting confirmation (ARB-R45)",
            l.group_named(*season, *group),
            n(black),
            n(white),
            n(by),
            outcome_words(*outcome)
        ),
        E::ResultConfirmed {
            season,
            group,
            black,
            white,
            by,
            ..
        } => format!(
            "{}: {} (black) v {}: report confirmed by {}",
            l.group_named(*season, *group),
            n(black),
            n(white),
            confirmer(by, &|p| l.name_of(p))
        ),
        E::ReportDisputed {
            season,
            group,
            black,
            white,
            by,
            reason,
            ..
        } => format!(
            "{}: {} (black) v {}: report disputed by {}: {reason}",
            l.group_named(*season, *group),
            n(black),
            n(white),
            confirmer(by, &|p| l.name_of(p))
        ),
        E::GaveWay { player } => format!("{} gives way in ties (D.2)", n(player)),
        E::LiveMatchWon { winner, loser } => {
            format!(
                "{} won a live Sunjang match against {}",
                n(winner),
                n(loser)
            )
        }
        E::SeasonClosed(c) => format!("season {} closed", c.season),
        E::SeasonCarriedOver(c) => {
            let r = &c.records;
            let withdrawn = r.players.iter().filter(|p| p.withdrawn).count();
            format!(
                "season {} carried over from the records ({} players in {} divisions{}{}; source: {}; entered by {}; ARB-R77)",
                r.season,
                r.players.len(),
                r.divisions(),
                if withdrawn > 0 {
                    format!(", {withdrawn} withdrawn")
                } else {
                    String::new()
                },
                r.champion
                    .and_then(|p| r.players.get(p.index()))
                    .map(|p| format!(", defending champion {}", p.info.name))
                    .unwrap_or_default(),
                c.source,
                c.by
            )
        }
        E::FinalQualified { players, void, .. } => {
            if *void {
                "final round: nobody eligible plays, the title is void".to_string()
            } else {
                format!(
                    "final round: {}",
                    players.iter().map(n).collect::<Vec<_>>().join(", ")
                )
            }
        }
        E::FinalGamePlayed {
            black,
            white,
            outcome,
            ..
        } => format!(
            "final: {} (black) v {}: {}",
            n(black),
            n(white),
            outcome_words(*outcome)
        ),
        E::FinalWithdrawn { player, .. } => format!("{} withdrew from the final round", n(player)),
        E::AccountLinked { player, account } => link(l.name_of(*player), *player, account, true),
        E::AccountUnlinked { player, account } => link(l.name_of(*player), *player, account, false),
        E::TimeZoneSet { zone } => zone_set(*zone),
        E::Reverted { seq, summary } => format!("event {seq} ({summary}) undone"),
    }
}

// What each event is about, for the history's filters (`crate::history`,
// issue 17 §3): the players each sentence above names, by the same names,
// and the round it belongs to. An undo answers nothing here: the history
// gives it what the event it undid was about.

/// What a ladder event is about; its round is the ladder round (a quick
/// game is in none).
pub fn ladder_concerns(l: &Ladder, e: &Event) -> Concerns {
    let n = |p: PlayerId| l.name_of(p);
    let game = |g: GameId| match l.game(g) {
        Some(gm) => Concerns {
            players: vec![n(gm.ussr.player), n(gm.us.player)],
            round: gm.round,
        },
        None => Concerns::nothing(),
    };
    match e {
        Event::Created { .. }
        | Event::ModeratorAdded { .. }
        | Event::ModeratorRemoved { .. }
        | Event::TimeZoneSet { .. }
        | Event::Reverted { .. } => Concerns::nothing(),
        Event::RulesChanged { from_round, .. } => Concerns::in_round(*from_round, []),
        // Named as the sentence names them, by the name they gave (a
        // player whose application was undone is in no state).
        Event::PlayerApplied { name, .. } | Event::GuestRegistered { name, .. } => {
            Concerns::players([name.clone()])
        }
        Event::PlayerApproved { player }
        | Event::PlayerDeclined { player, .. }
        | Event::PlayerReentered { player }
        | Event::PlayerWithdrawn { player, .. }
        | Event::AccountLinked { player, .. }
        | Event::AccountUnlinked { player, .. }
        | Event::EliminatorVolunteered { player }
        | Event::EliminatorStoodDown { player } => Concerns::players([n(*player)]),
        Event::SkipRequested { player, round } | Event::SkipCancelled { player, round } => {
            Concerns::in_round(*round, [n(*player)])
        }
        Event::RoundAnnounced(a) => Concerns::in_round(
            a.round,
            a.games
                .iter()
                .flat_map(|g| [g.ussr.player, g.us.player])
                .chain(a.skips.iter().map(|s| s.player))
                .chain(a.byes.iter().map(|(p, _)| *p))
                .map(n),
        ),
        Event::GameAdded { game: g, round, .. } => {
            Concerns::in_round(*round, [n(g.ussr.player), n(g.us.player)])
        }
        Event::QuickGameScheduled { game: g, .. } => {
            Concerns::players([n(g.ussr.player), n(g.us.player)])
        }
        Event::ResultRecorded { game: g, .. }
        | Event::ResultCorrected { game: g, .. }
        | Event::GameCancelled { game: g, .. }
        | Event::ResultReported { game: g, .. }
        | Event::ResultConfirmed { game: g, .. }
        | Event::ReportRejected { game: g, .. } => game(*g),
        Event::RoundClosed(c) => Concerns::in_round(
            c.round,
            c.moves
                .iter()
                .map(|m| m.player)
                .chain(c.inactive.iter().map(|r| r.player))
                .map(n),
        ),
        // Every player it registers, by the name the records give.
        Event::CarriedOver(c) => Concerns::players(c.records.all().map(|m| m.name.clone())),
    }
}

/// What an XMadn league event is about; its round is the double
/// round-robin (a playoff or a step-6 roll is in none).
pub fn league_concerns(l: &League, e: &league::Event) -> Concerns {
    use league::Event as E;
    let n = |p: &PlayerId| l.name_of(*p);
    match e {
        E::Created { players, .. } => Concerns::players(players.iter().cloned()),
        E::PositionsRolled { drr, positions, .. } | E::PositionsEntered { drr, positions, .. } => {
            Concerns::in_round(*drr, positions.iter().map(n))
        }
        E::TiebreakEntered { players, .. } | E::TiebreakRolled { players, .. } => {
            Concerns::players(players.iter().map(n))
        }
        E::ResultRecorded { game, .. }
        | E::ResultCorrected { game, .. }
        | E::GameCancelled { game, .. }
        | E::ResultReported { game, .. }
        | E::ResultConfirmed { game, .. }
        | E::ReportDisputed { game, .. } => match l.game(*game) {
            Some(g) => Concerns {
                players: g.players.iter().map(n).collect(),
                round: match g.stage {
                    league::Stage::RoundRobin { drr, .. } => Some(drr),
                    league::Stage::Playoff { .. } => None,
                },
            },
            // A report of a playoff game not yet played: its round's two.
            None => match l.playoff.last() {
                Some(r) => Concerns::players([n(&r.higher), n(&r.lower)]),
                None => Concerns::nothing(),
            },
        },
        E::DrrCancelled { drr, .. } => Concerns::in_round(*drr, []),
        E::DrrsCarriedOver(_) => Concerns::players(l.players.iter().cloned()),
        E::PlayoffStarted { higher, lower, .. } => Concerns::players([n(higher), n(lower)]),
        E::PlayoffGamePlayed { stage, .. } => {
            match l.playoff.iter().rev().find(|r| r.stage == *stage) {
                Some(r) => Concerns::players([n(&r.higher), n(&r.lower)]),
                None => Concerns::nothing(),
            }
        }
        E::AccountLinked { player, .. } | E::AccountUnlinked { player, .. } => {
            Concerns::players([n(player)])
        }
        E::Reverted { .. } | E::TimeZoneSet { .. } => Concerns::nothing(),
    }
}

/// What a Challengers event is about; its round is the game's number (the
/// qualifier, Game 0, is in none).
pub fn challengers_concerns(c: &Challengers, e: &challengers::Event) -> Concerns {
    use challengers::Event as E;
    let n = |p: &PlayerId| c.name_of(*p);
    match e {
        E::Created { players, .. } => Concerns::players(players.iter().cloned()),
        E::QualifierPlayed { finishing, .. } => Concerns::players(finishing.iter().map(n)),
        E::GamePlayed {
            number, players, ..
        } => Concerns::in_round(*number, players.iter().map(n)),
        // The report of the game at the board (ARB-R45): the board's two,
        // or those of the game it became once confirmed.
        E::ResultReported { number, .. }
        | E::ResultConfirmed { number, .. }
        | E::ReportDisputed { number, .. } => {
            let played = c.games().iter().find(|g| g.number == *number);
            match (played.map(|g| g.players), c.board()) {
                (Some(p), _) => Concerns::in_round(*number, p.iter().map(n)),
                (None, Some(b)) => Concerns::in_round(*number, b.players.iter().map(n)),
                (None, None) => Concerns::in_round(*number, []),
            }
        }
        E::AccountLinked { player, .. } | E::AccountUnlinked { player, .. } => {
            Concerns::players([n(player)])
        }
        E::Reverted { .. } | E::TimeZoneSet { .. } => Concerns::nothing(),
    }
}

/// What a Sunjang league event is about; its round is the season.
pub fn sunjang_concerns(l: &SunjangLeague, e: &season::Event) -> Concerns {
    use season::Event as E;
    let n = |p: &PlayerId| l.name_of(*p);
    match e {
        E::Created { .. }
        | E::RestrictionsChanged { .. }
        | E::Reverted { .. }
        | E::TimeZoneSet { .. } => Concerns::nothing(),
        E::PlayerRegistered { info, .. } => Concerns::players([info.name.clone()]),
        E::PlayerUpdated { player, .. }
        | E::PlayerWithdrawn { player, .. }
        | E::PlayerReturned { player }
        | E::GaveWay { player }
        | E::AccountLinked { player, .. }
        | E::AccountUnlinked { player, .. } => Concerns::players([n(player)]),
        E::SeasonPlanned(p) => {
            Concerns::in_round(p.season, p.placements.iter().map(|x| n(&x.player)))
        }
        E::ResultRecorded {
            season,
            black,
            white,
            ..
        }
        | E::ResultCorrected {
            season,
            black,
            white,
            ..
        }
        | E::FinalGamePlayed {
            season,
            black,
            white,
            ..
        }
        | E::ResultReported {
            season,
            black,
            white,
            ..
        }
        | E::ResultConfirmed {
            season,
            black,
            white,
            ..
        }
        | E::ReportDisputed {
            season,
            black,
            white,
            ..
        } => Concerns::in_round(*season, [n(black), n(white)]),
        E::LiveMatchWon { winner, loser } => Concerns::players([n(winner), n(loser)]),
        E::SeasonClosed(c) => Concerns::in_round(c.season, []),
        E::SeasonCarriedOver(c) => Concerns::in_round(
            c.records.season,
            c.records.players.iter().map(|p| p.info.name.clone()),
        ),
        E::FinalQualified {
            season, players, ..
        } => Concerns::in_round(*season, players.iter().map(n)),
        E::FinalWithdrawn { season, player, .. } => Concerns::in_round(*season, [n(player)]),
    }
}
