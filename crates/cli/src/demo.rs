//! `arbiter demo`: build the demo competitions (`arbiter_demo`: a ladder of
//! about 30 players over four rounds, an XMadn league and Challengers
//! event, a Sunjang league of three seasons; and `arbiter_demo::roundrobin`:
//! UEFA EURO 2024 Group E and a club's chess round robin, issue 16), then
//! show them.

use anyhow::Result;
use arbiter_service::views;

use crate::render;
use crate::run::{Globals, Svc};

pub async fn run(svc: &Svc, g: &Globals, wanted: &str) -> Result<()> {
    // The story is told as of now (or --at): its running round is weeks
    // from its deadline whatever the date.
    let built = arbiter_demo::build_on(svc.store(), wanted, g.now()).await?;
    let round_robins = arbiter_demo::roundrobin::build_on(svc.store(), g.now()).await?;
    let euro = arbiter_service::roundrobin::round_robin_view(
        &round_robins.euro.1,
        &round_robins.euro.0,
        round_robins.euro.2,
    );
    let chess = arbiter_service::roundrobin::round_robin_view(
        &round_robins.chess.1,
        &round_robins.chess.0,
        round_robins.chess.2,
    );
    let (id, ladder, version) = built.ladder;
    let now = built.now;
    let late_b = built.adjudicated;
    let league_id = built.league.0;
    let challengers_id = built.challengers.0;
    let sunjang_id = built.sunjang.0;

    let view = views::ladder_view(&ladder, &id, version);
    let league = (built.league.1, built.league.2);
    let challengers = (built.challengers.1, built.challengers.2);
    let sunjang = (built.sunjang.1, built.sunjang.2);
    if g.json {
        let l = arbiter_service::xmadn::league_view(&league.0, &league_id, league.1);
        let c = arbiter_service::xmadn::challengers_view(
            &challengers.0,
            &challengers_id,
            challengers.1,
        );
        let sj = arbiter_service::sunjang::sunjang_view(&sunjang.0, &sunjang_id, sunjang.1);
        let all = serde_json::json!({"ladder": view, "league": l, "challengers": c, "sunjang": sj,
            "round_robins": [euro, chess]});
        outln!("{}", serde_json::to_string_pretty(&all)?);
        return Ok(());
    }
    outln!(
        "Built the demo ladder `{id}`: {} events, 4 rounds, {} members.\n",
        version,
        ladder.order.len()
    );
    out!("{}", render::ladder(&view));
    if let Some(r) = ladder.open_round() {
        outln!();
        out!(
            "{}",
            render::round(&views::round_view(&ladder, &id, r, now))
        );
    }
    if let Some(c) = ladder.rounds.iter().rev().find_map(|r| r.closed.as_ref()) {
        outln!();
        out!("{}", render::close(&views::close_view(&ladder, c)));
    }
    outln!();
    outln!("Try next:");
    outln!(
        "  arbiter -c {id} game show G{}            # an adjudication, with its record",
        late_b.map_or(0, |g| g.0)
    );
    outln!("  arbiter -c {id} round export --format markdown");
    outln!("  arbiter -c {id} stats");
    outln!("  arbiter -c {id} history --limit 15");
    outln!("  arbiter -c {id} ladder show --as-of 40    # the ladder as it was after event 40");
    outln!();
    outln!(
        "Built the demo XMadn league `{league_id}` ({} events) and Challengers `{challengers_id}` ({} events).\n",
        league.1,
        challengers.1
    );
    out!(
        "{}",
        crate::xmadn::render_league(&arbiter_service::xmadn::league_view(
            &league.0, &league_id, league.1
        ))
    );
    outln!();
    out!(
        "{}",
        crate::xmadn::render_challengers(&arbiter_service::xmadn::challengers_view(
            &challengers.0,
            &challengers_id,
            challengers.1
        ))
    );
    outln!();
    outln!("Try next:");
    outln!("  arbiter -c {league_id} league explain        # why each player is where he is");
    outln!(
        "  arbiter -c {league_id} roll verify           # every round of die-roll against its seed"
    );
    outln!("  arbiter -c {league_id} league export --format markdown");
    outln!("  arbiter -c {challengers_id} challengers show");
    outln!();
    outln!(
        "Built the demo Sunjang league `{sunjang_id}` ({} events, {} seasons).\n",
        sunjang.1,
        sunjang.0.seasons.len()
    );
    if let Some(s) = sunjang.0.current() {
        out!(
            "{}",
            crate::sunjang::render_season(
                &arbiter_service::sunjang::season_view(&sunjang.0, s),
                true
            )
        );
    }
    outln!();
    outln!("Try next:");
    outln!(
        "  arbiter -c {sunjang_id} sunjang season moves     # why every player landed where he did"
    );
    outln!(
        "  arbiter -c {sunjang_id} sunjang season show 2    # the pyramid, groups and crosstables of season 2"
    );
    outln!("  arbiter -c {sunjang_id} sunjang group A1");
    outln!("  arbiter -c {sunjang_id} sunjang season export --format markdown");
    outln!();
    let (euro_id, chess_id) = (&euro.competition, &chess.competition);
    let running = round_robins
        .chess
        .1
        .rounds
        .iter()
        .find(|r| {
            r.games.iter().any(|g| {
                round_robins
                    .chess
                    .1
                    .game(*g)
                    .is_some_and(|g| g.score.is_none())
            })
        })
        .map_or(0, |r| r.number);
    outln!(
        "Built the demo round-robin leagues `{euro_id}` ({} events, every game played) and `{chess_id}` ({} events, round {running} of {} running).\n",
        euro.version,
        chess.version,
        chess.rounds.len()
    );
    out!("{}", crate::roundrobin::show(&euro));
    outln!();
    out!("{}", crate::roundrobin::show(&chess));
    outln!();
    outln!("Try next:");
    outln!(
        "  arbiter -c {euro_id} round-robin explain Romania   # above Belgium on the block of head-to-head (UEFA)"
    );
    outln!(
        "  arbiter -c {chess_id} round-robin schedule   # the rounds, their deadlines and games"
    );
    outln!("  arbiter -c {chess_id} round-robin export --format markdown");
    Ok(())
}
