//! The Sunjang league's pages: the league with its current season (the
//! pyramid, each group's table and crosstable, placements), and any season
//! on its own page.

use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::season::League;
use arbiter_service::sunjang::{
    SeasonView, SunjangPlayerView, SunjangView, season_view, sunjang_view,
};
use arbiter_service::sunjang_carry::CarriedSeasonView;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use crate::AppState;
use crate::auth::Caller;
use crate::pages::players::{
    self, GameLine, PendingReport, PlayerHome, PlayerLinks, ReportForm, Reports, Standing, ordinal,
    player_id,
};
use crate::pages::{Chrome, Kind, PageError, not_found_page, number, render};

/// A season in the list of seasons.
#[derive(Debug)]
struct SeasonLink {
    number: u32,
    status: &'static str,
    champion: Option<String>,
}

fn season_links(seasons: &[SeasonView]) -> Vec<SeasonLink> {
    seasons
        .iter()
        .rev()
        .map(|v| SeasonLink {
            number: v.number,
            status: v.status,
            champion: v.final_round.as_ref().and_then(|f| f.champion.clone()),
        })
        .collect()
}

#[derive(Debug, Template)]
#[template(path = "sunjang.html")]
struct SunjangPage {
    chrome: Chrome,
    id: String,
    name: String,
    version: u64,
    defending_champion: Option<String>,
    season: Option<SeasonView>,
    seasons: Vec<SeasonLink>,
    players: Vec<SunjangPlayerView>,
    links: PlayerLinks,
    /// The season carried over from the records (ARB-R77).
    carried: Option<CarriedSeasonView>,
}

/// `GET /c/{id}` for a Sunjang league.
pub(crate) async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
    let page = state
        .service
        .read_as::<League, _>(id, |l, version| {
            let mut v = sunjang_view(l, id, version);
            let seasons = season_links(&v.seasons);
            SunjangPage {
                chrome: Chrome::competition(
                    l.name.clone(),
                    id,
                    &l.name,
                    Kind::SunjangLeague,
                    &format!("/c/{id}"),
                ),
                id: id.to_string(),
                name: l.name.clone(),
                version,
                defending_champion: v.defending_champion,
                season: v.seasons.pop(),
                seasons,
                links: links(id, &v.players),
                players: v.players,
                carried: v.carried,
            }
        })
        .await?;
    render(&page)
}

#[derive(Debug, Template)]
#[template(path = "season.html")]
struct SeasonPage {
    chrome: Chrome,
    id: String,
    name: String,
    season: SeasonView,
    last: u32,
    /// The season carried over from the records, the one before the
    /// first played here (ARB-R77).
    carried: Option<u32>,
    links: PlayerLinks,
}

/// `GET /c/{id}/seasons/{n}`: one season of a Sunjang league, as it was
/// planned and played.
pub(crate) async fn season(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
) -> Result<Response, PageError> {
    if crate::pages::kind_of(&state, &id).await? != Kind::SunjangLeague {
        return Err(not_found_page());
    }
    let n = number(&n)?;
    let page = state
        .service
        .read_as::<League, _>(&id, |l, _| {
            let s = l.season(n)?;
            Some(SeasonPage {
                chrome: Chrome::competition(
                    format!("Season {n} of {}", l.name),
                    &id,
                    &l.name,
                    Kind::SunjangLeague,
                    "",
                ),
                id: id.clone(),
                name: l.name.clone(),
                season: season_view(l, s),
                last: l.seasons.last().map_or(0, |s| s.number()),
                carried: l.carried.as_ref().map(|c| c.records.season),
                links: PlayerLinks::in_order(&id, l.players.iter().map(|p| &p.name)),
            })
        })
        .await?
        .ok_or_else(not_found_page)?;
    render(&page)
}

/// A game's outcome for the player with `black` or white.
fn outcome_for(o: Outcome, black: bool) -> &'static str {
    match (o, black) {
        (Outcome::BlackWins, true) | (Outcome::WhiteWins, false) => "won",
        (Outcome::BlackWins, false) | (Outcome::WhiteWins, true) => "lost",
        (Outcome::Jigo, _) => "jigo",
        (Outcome::WhiteForfeits, true) | (Outcome::BlackForfeits, false) => "won by forfeit",
        (Outcome::BothForfeit, _) => "lost by forfeit (both forfeited)",
        _ => "lost by forfeit",
    }
}

/// A game of `me` as a line of his page.
fn game_line(
    l: &League,
    game: String,
    stage: String,
    black: PlayerId,
    white: PlayerId,
    me: PlayerId,
) -> GameLine {
    let is_black = black == me;
    GameLine {
        game,
        stage,
        opponent: l.name_of(if is_black { white } else { black }),
        side: if is_black { "Black" } else { "White" }.to_string(),
        ..GameLine::default()
    }
}

/// `GET /c/{id}/players/{n}` for a Sunjang league: player `n`, as his
/// registration numbered him.
pub(crate) async fn player(
    state: &AppState,
    caller: &Caller,
    id: &str,
    segment: &str,
) -> Result<Response, PageError> {
    let (h, reports) = state
        .service
        .read_as::<League, _>(
            id,
            |l, version| -> Result<(PlayerHome, Option<Reports>), PageError> {
                let me = player_id(segment, l.players.len())?;
                Ok((
                    home(l, id, sunjang_view(l, id, version), me),
                    reports(l, caller, me, id, version),
                ))
            },
        )
        .await??;
    players::home_with_reports(state, caller, id, Kind::SunjangLeague, h, reports).await
}

/// The report forms of player `me`'s page for his own account (ARB-R45,
/// ARB-R81): each game of his group in the open season without a result,
/// and the reports of his games waiting.
fn reports(l: &League, caller: &Caller, me: PlayerId, id: &str, version: u64) -> Option<Reports> {
    let linked = caller
        .account()
        .ok()
        .and_then(|a| l.links.player_of(&a.username));
    let mut r = Reports::for_viewer(caller, linked, me, id, version)?;
    let Some(season) = l.current().filter(|s| s.close.is_none()) else {
        return Some(r);
    };
    let Some(group) = season.group_of(me).and_then(|g| season.group(g)) else {
        return Some(r);
    };
    for g in group.games.iter().filter(|g| g.outcome.is_none()) {
        let (b, w) = (g.pairing.black, g.pairing.white);
        if b != me && w != me {
            continue;
        }
        let key = format!("{}-{}", b.0, w.0);
        let what = l.report_ref(b, w);
        let hidden = vec![
            ("black".to_string(), l.name_of(b)),
            ("white".to_string(), l.name_of(w)),
        ];
        if let Some(rep) = l.reports.get(&(b, w)) {
            let mine = rep.by == me;
            r.pending.push(PendingReport {
                id: key.clone(),
                text: format!(
                    "{} reported {what}: {} ({}).{}",
                    l.name_of(rep.by),
                    rep.result.describe(),
                    l.zone.minute(rep.at),
                    if mine {
                        " It waits for your opponent or a moderator."
                    } else {
                        " Confirm it, or dispute it with what is wrong."
                    }
                ),
                mine,
                confirm: "confirm-result",
                dispute: "dispute-report",
                hidden: hidden.clone(),
            });
            if !mine {
                continue;
            }
        }
        r.forms.push(ReportForm {
            id: key,
            title: format!(
                "round {} against {} ({what})",
                g.pairing.round,
                l.name_of(if b == me { w } else { b })
            ),
            action: "report-result",
            hidden,
            pawns_label: None,
            outcomes: vec![
                ("black".into(), format!("{} (black) wins", l.name_of(b))),
                ("white".into(), format!("{} (white) wins", l.name_of(w))),
                ("jigo".into(), "jigo".into()),
            ],
        });
    }
    Some(r)
}

fn home(l: &League, id: &str, v: SunjangView, me: PlayerId) -> PlayerHome {
    let name = l.name_of(me);
    let mut facts = Vec::new();
    if let Some(p) = v.players.iter().find(|p| p.id == me.0) {
        facts.push((
            "Rank".to_string(),
            format!(
                "{}{}",
                p.rank,
                if p.provisional { " (provisional)" } else { "" }
            ),
        ));
        facts.push(("Rating".to_string(), p.rating.to_string()));
        if let Some(r) = &p.corr_rank {
            facts.push((
                "Correspondence rank".to_string(),
                match p.corr_rating {
                    Some(cr) => format!("{r} ({cr})"),
                    None => r.clone(),
                },
            ));
        }
        facts.push(("Divisions his rank allows".to_string(), p.limits.clone()));
        facts.push((
            "Status".to_string(),
            if p.withdrawn { "withdrawn" } else { "active" }.to_string(),
        ));
    }
    if v.defending_champion.as_ref() == Some(&name) {
        facts.push(("Title".to_string(), "defending champion".to_string()));
    }
    let mut to_play = Vec::new();
    let mut results = Vec::new();
    let mut seasons = Vec::new();
    let mut standings = Vec::new();
    let mut clinch_group = None;
    let last = l.seasons.last().map_or(0, |s| s.number());
    for (s, sv) in l.seasons.iter().zip(&v.seasons) {
        let n = s.number();
        let running = sv.status == "planned";
        if let Some(g) = s
            .divisions
            .iter()
            .flatten()
            .find(|g| g.players.contains(&me))
        {
            let label = g.id.to_string();
            for x in &g.games {
                let (b, w) = (x.pairing.black, x.pairing.white);
                if b != me && w != me {
                    continue;
                }
                let mut line = game_line(
                    l,
                    format!("S{n} {label} R{}", x.pairing.round),
                    format!("season {n}, group {label}, round {}", x.pairing.round),
                    b,
                    w,
                    me,
                );
                match x.outcome {
                    Some(o) => {
                        line.outcome = outcome_for(o, b == me);
                        line.status = o.describe().to_string();
                        results.push(line);
                    }
                    None if running => {
                        line.status = "to play".into();
                        to_play.push(line);
                    }
                    None => {}
                }
            }
            let gv = sv
                .divisions
                .iter()
                .flat_map(|d| &d.groups)
                .find(|x| x.id == label);
            let row = gv.and_then(|gv| gv.players.iter().find(|p| p.player == name));
            let mut season_line = format!("Season {n} ({}): group {label}", sv.status);
            if let (Some(gv), Some(r)) = (gv, row) {
                season_line.push_str(&format!(", {} of {}", ordinal(r.place), gv.players.len()));
                if n == last {
                    standings.push(Standing {
                        table: format!("table of group {label}, season {n}"),
                        href: format!("/c/{id}/seasons/{n}#group-{label}"),
                        place: format!("{} of {}", ordinal(r.place), gv.players.len()),
                        figures: vec![
                            ("Played".into(), r.played.to_string()),
                            (
                                "Won-jigo-lost".into(),
                                format!("{}-{}-{}", r.wins, r.jigo, r.losses),
                            ),
                            ("Gamepoints".into(), r.gamepoints.clone()),
                            ("With the start (SJ-R4)".into(), r.total.clone()),
                            ("SODOS".into(), r.sodos.clone()),
                        ],
                        explanations: gv.explanations.clone(),
                        note: None,
                    });
                    if running && gv.games_left > 0 {
                        clinch_group = Some(label.clone());
                    }
                }
            }
            if let Some(p) = sv.placements.iter().find(|p| p.player == name) {
                season_line.push_str(&format!(
                    "; placed with seed {}: {}",
                    p.seed, p.explanation.text
                ));
            }
            if let Some(f) = &sv.final_round {
                if f.players.contains(&name) {
                    season_line.push_str("; played the final round");
                }
                if f.champion.as_ref() == Some(&name) {
                    season_line.push_str(", champion");
                }
            }
            seasons.push(season_line);
        }
        if let Some(f) = &s.final_round {
            for (i, g) in f.games.iter().enumerate() {
                if g.black != me && g.white != me {
                    continue;
                }
                if let Some(o) = g.outcome {
                    let mut line = game_line(
                        l,
                        format!("S{n} final {}", i + 1),
                        format!("season {n}, final round"),
                        g.black,
                        g.white,
                        me,
                    );
                    line.outcome = outcome_for(o, g.black == me);
                    line.status = o.describe().to_string();
                    results.push(line);
                }
            }
            for (b, w) in l.final_games_to_play(s) {
                if b == me || w == me {
                    let mut line = game_line(
                        l,
                        format!("S{n} final"),
                        format!("season {n}, final round"),
                        b,
                        w,
                        me,
                    );
                    line.status = "to play".into();
                    to_play.push(line);
                }
            }
        }
    }
    let lede = match standings.first() {
        Some(s) => format!(
            "Sunjang league · player {} · {} in the {}",
            me.0, s.place, s.table
        ),
        None => format!("Sunjang league · player {}", me.0),
    };
    PlayerHome {
        competition: v.name.clone(),
        lede,
        facts,
        to_play,
        to_play_note: "The league records no dates and no moderators for its games: a group's games are played within the season (Sunjang league).".into(),
        deadlines: false,
        moderators: false,
        results,
        no_standing: standings.is_empty().then(|| {
            if v.seasons.is_empty() {
                "No season has been planned yet.".to_string()
            } else {
                format!("{name} plays in no group of the last season.")
            }
        }),
        standings,
        clinch_group,
        more: vec![("Seasons".to_string(), seasons)],
        links: links(id, &v.players),
        name,
    }
}

/// Every registered player's page, by his id.
fn links(id: &str, players: &[SunjangPlayerView]) -> PlayerLinks {
    PlayerLinks::by_id(id, players.iter().map(|p| (p.name.clone(), PlayerId(p.id))))
}

/// The players index (`/c/{id}/players`): the last season's groups in
/// order (each by its table), then everyone else; each with his group and
/// place, his won-jigo-lost record there, his rank and a withdrawal said.
pub(crate) fn index(l: &League, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
    use crate::pages::players_index::{IndexLine, record};
    let v = sunjang_view(l, id, 0);
    let mut lines: Vec<IndexLine> = Vec::new();
    let mut placed: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    if let Some(sv) = v.seasons.last() {
        for g in sv.divisions.iter().flat_map(|d| &d.groups) {
            for r in &g.players {
                placed.insert(r.player.clone(), lines.len());
                let mut line = IndexLine::named(r.player.clone(), String::new());
                line.standing = format!(
                    "group {} of season {}: {} of {}",
                    g.id,
                    sv.number,
                    ordinal(r.place),
                    g.players.len()
                );
                line.record = record(&[("won", r.wins), ("jigo", r.jigo), ("lost", r.losses)]);
                lines.push(line);
            }
        }
    }
    let mut rest = Vec::new();
    for p in &v.players {
        let href = format!("/c/{id}/players/{}", p.id);
        let mut note = format!(
            "rank {}{}",
            p.rank,
            if p.provisional { " (provisional)" } else { "" }
        );
        if p.withdrawn {
            note.push_str(", withdrawn");
        }
        if v.defending_champion.as_ref() == Some(&p.name) {
            note.push_str(", defending champion");
        }
        match placed.get(&p.name) {
            Some(&i) => {
                if let Some(line) = lines.get_mut(i) {
                    line.href = href;
                    line.note = note;
                }
            }
            None => {
                let mut line = IndexLine::named(p.name.clone(), href);
                line.note = note;
                rest.push(line);
            }
        }
    }
    // A name in a group that is no player's (never: a group holds players)
    // would have no page; it is left out rather than linked nowhere.
    lines.retain(|line| !line.href.is_empty());
    lines.extend(rest);
    lines
}
