//! A round-robin league's ratings and projection (issue 16 §2; ARB-R70),
//! shown through the views every format shares ([`crate::insight`]).

use std::collections::BTreeMap;

use arbiter_engine::model::PlayerId;
use arbiter_engine::projection::{Projection, WinModel};
use arbiter_engine::roundrobin::RoundRobin;

use crate::Result;
use crate::insight::{
    Progress, ProjectionRequest, ProjectionView, RatingSystem, RatingsView, finished, group,
    rated_view, seasons_of, seed_of,
};

/// A round-robin league's ratings (ARB-R70): its games played over the
/// board, forfeits left out, one Glicko-2 period per round.
pub fn round_robin_ratings(
    league: &RoundRobin,
    competition: &str,
    version: u64,
    system: RatingSystem,
) -> RatingsView {
    use arbiter_engine::roundrobin::ratings as rr;
    let games = rr::rated_games(league);
    let labels: Vec<String> = league
        .games
        .iter()
        .filter(|g| rr::rated_game(g).is_some())
        .map(|g| format!("G{}", g.id))
        .collect();
    rated_view(
        &games,
        &labels,
        |p| league.name_of(p),
        competition,
        version,
        system,
        rr::RULING,
    )
}

/// The draw rate between equal players a projection assumes before any
/// game of the league has been played over the board (ARB-R70).
pub const PRIOR_DRAW_PPM: u32 = 250_000;

/// What a round-robin projection counts for a player (ARB-R70): each
/// place of a small table, the title, the top and bottom zones of the
/// rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum RoundRobinOutcome {
    Place(usize),
    Top,
    Bottom,
}

/// Up to this many players, a projection shows every place.
const EVERY_PLACE_UP_TO: usize = 6;

/// The projection of a round-robin league: its games played over the board
/// rated (the system asked for, AREA by default; ARB-R70), the draw rate
/// the league has shown, each simulated season ranked by its own cascade.
pub fn round_robin_projection(
    league: &RoundRobin,
    competition: &str,
    version: u64,
    request: &ProjectionRequest,
    progress: Progress<'_>,
) -> Result<ProjectionView> {
    use arbiter_engine::projection::roundrobin as rr;
    let seasons = seasons_of(request.seasons)?;
    let seed = seed_of(request.seed.as_deref(), competition, version);
    let system = request.system.unwrap_or_default();
    let rated = arbiter_engine::roundrobin::ratings::ratings(league, &system.system());
    // ARB-R70: the league's own draw rate once a game has been played over
    // the board; before that, a quarter of games drawn between equals.
    let played = league
        .games
        .iter()
        .any(|g| arbiter_engine::roundrobin::ratings::rated_game(g).is_some());
    let draw = if played {
        rr::draw_rate(league)
    } else {
        PRIOR_DRAW_PPM
    };
    let model = WinModel::from_ratings(&rated, draw);
    let total = u64::from(seasons);
    let places =
        rr::project_round_robin_with_progress(league, &model, seasons, seed, &mut |done| {
            progress(u64::from(done), total)
        })?;
    let places = finished(places, seasons)?;
    let players = league.in_table();
    let n = players.len();
    let (top, bottom) = (league.rules.top as usize, league.rules.bottom as usize);
    use RoundRobinOutcome as O;
    // The counts by place, and the zones summed from them.
    let mut per_player = BTreeMap::new();
    for (&p, counts) in &places.per_player {
        let mut out: BTreeMap<O, u32> = BTreeMap::new();
        for (&place, &count) in counts {
            *out.entry(O::Place(place)).or_default() += count;
            if place <= top {
                *out.entry(O::Top).or_default() += count;
            }
            if bottom > 0 && place + bottom > n {
                *out.entry(O::Bottom).or_default() += count;
            }
        }
        per_player.insert(p, out);
    }
    let outcomes = Projection {
        seasons: places.seasons,
        seed: places.seed,
        per_player,
    };
    let mut columns: Vec<(O, String, String)> = Vec::new();
    let shown = if n <= EVERY_PLACE_UP_TO { n } else { 1 };
    for place in 1..=shown {
        let label = if place == 1 {
            "Title".to_string()
        } else {
            format!("{} place", arbiter_engine::explain::ordinal(place))
        };
        columns.push((O::Place(place), format!("place-{place}"), label));
    }
    if top > 1 && top < n {
        columns.push((O::Top, format!("top-{top}"), format!("Top {top}")));
    }
    if bottom > 0 && bottom < n {
        columns.push((
            O::Bottom,
            format!("bottom-{bottom}"),
            format!("Bottom {bottom}"),
        ));
    }
    // Players in the order of the table as it stands.
    let table = league.table();
    let order: Vec<PlayerId> = table.rows.iter().map(|r| r.line.player).collect();
    Ok(ProjectionView {
        competition: competition.to_string(),
        version,
        format: "round-robin".to_string(),
        seasons,
        seed: hex::encode(seed),
        rounds: None,
        model: format!(
            "{} ratings of the league's games (ARB-R70); draws at the league's own rate between equal players, fewer between unequal ones; scores from fixed tables",
            rated.system.name()
        ),
        draw_ppm: draw,
        ruling: rr::RULING.to_string(),
        groups: vec![group(
            league.name.clone(),
            &columns,
            &outcomes,
            &order,
            |id| league.name_of(id),
        )],
    })
}
