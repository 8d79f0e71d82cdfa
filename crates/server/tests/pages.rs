//! The public pages in process (`tower::ServiceExt::oneshot` against
//! `arbiter_server::app`), on a database holding the demo competitions (one
//! of each format) and a few competitions whose names and notes are HTML,
//! shown at the demo's fixed time.
//!
//! Every page answers 200 with HTML in the one layout (one h1, headings in
//! order, a skip link, `lang="en"`, tags balanced, no inline script or
//! style); each shows what it must; user text is escaped everywhere; every
//! link between pages leads to a page; unknown addresses get the 404 page;
//! snapshots of three pages. The demo round robins (issue 16) and a round
//! robin whose names are HTML have a database of their own (the seed
//! formats' list and snapshots stay as they were), with the same checks and
//! snapshots of their two pages' main content.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{BTreeSet, VecDeque};
use std::path::PathBuf;
use std::sync::OnceLock;

use arbiter_engine::model::{EndTag, Outcome, Side, Time};
use arbiter_engine::sunjang::season::Command as SunjangCommand;
use arbiter_engine::sunjang::{PlayerInfo, Rank};
use arbiter_engine::tws::{Command, LadderRules, PairingPlan, ResultInput};
use arbiter_engine::xmadn::LeagueRules;
use arbiter_server::{AppState, Clock};
use arbiter_service::{Context, SeedSource, Service};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use chrono::Duration;

/// A name that would run a script if it were not escaped.
const EVIL: &str = "<script>alert(1)</script>";
const EVIL_NOTE: &str = "<img src=x onerror=alert(2)>";
const EVIL_LADDER: &str = "<b>Bold</b> & \"quoted\" ladder";

/// What the test database holds.
struct Demo {
    path: PathBuf,
    now: Time,
    ladder: String,
    league: String,
    challengers: String,
    sunjang: String,
}

fn demo() -> &'static Demo {
    static DEMO: OnceLock<Demo> = OnceLock::new();
    DEMO.get_or_init(|| {
        // Built on its own runtime: each test has another one.
        std::thread::spawn(|| {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
                let path = dir.join(format!("pages-demo-{}.db", std::process::id()));
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
                let store = SqliteStore::open(&path).await.unwrap();
                let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
                hostile(&store, built.now).await;
                store.close().await;
                Demo {
                    path,
                    now: built.now,
                    ladder: built.ladder.0,
                    league: built.league.0,
                    challengers: built.challengers.0,
                    sunjang: built.sunjang.0,
                }
            })
        })
        .join()
        .unwrap()
    })
}

/// Competitions of every format whose names and notes are HTML: a ladder
/// with a round and a result, an XMadn league with its first roll, a
/// Sunjang league with a registered player.
async fn hostile(store: &SqliteStore, now: Time) {
    let svc = Service::new(store.clone()).with_seeds(SeedSource::Deterministic("pages".into()));
    let t0 = now - Duration::days(40);
    let ctx = |t: Time| Context::new("<i>mod</i>", t);
    svc.create_ladder(
        "xss-ladder",
        EVIL_LADDER,
        LadderRules::default(),
        &["Mod <u>One</u>".to_string()],
        &ctx(t0),
    )
    .await
    .unwrap();
    for name in [EVIL, "O'Neill & Sons", "Zed \"Z\" Zimmer", "Plain Pat"] {
        svc.execute(
            "xss-ladder",
            Command::Join {
                name: name.into(),
                surname: None,
            },
            &ctx(t0),
        )
        .await
        .unwrap();
    }
    let t1 = t0 + Duration::days(1);
    // A short deadline: at the demo's time the round's games are overdue.
    svc.announce_round(
        "xss-ladder",
        Some(t1 + Duration::days(10)),
        PairingPlan::Default { eliminator: None },
        false,
        &ctx(t1),
    )
    .await
    .unwrap();
    let (ladder, _) = svc.load("xss-ladder", None).await.unwrap();
    let first = ladder.open_round().unwrap().games[0];
    let t2 = t1 + Duration::days(3);
    svc.execute(
        "xss-ladder",
        Command::RecordResult {
            game: first,
            result: ResultInput {
                outcome: Outcome::Win(Side::Us),
                ended_by: EndTag::Vp,
                vp: Some(20),
                turn: Some(6),
                note: Some(EVIL_NOTE.into()),
            },
            agreed: false,
            at: t2,
        },
        &ctx(t2),
    )
    .await
    .unwrap();

    // An event undone: the history marks it and names its undo.
    svc.execute(
        "xss-ladder",
        Command::Join {
            name: "Undone Ursula".into(),
            surname: None,
        },
        &ctx(t2),
    )
    .await
    .unwrap();
    svc.undo("xss-ladder", &ctx(t2)).await.unwrap();

    svc.create_league(
        "xss-league",
        EVIL_LADDER,
        LeagueRules::default(),
        &[EVIL.to_string(), "B & B".to_string(), "C\"C".to_string()],
        &ctx(t0),
    )
    .await
    .unwrap();
    svc.league_roll("xss-league", &ctx(t1)).await.unwrap();

    let text = arbiter_record::preset("sunjang-league").unwrap();
    let (rules, restrictions) = arbiter_record::parse_sunjang_rules(text).unwrap();
    svc.create_sunjang("xss-sunjang", EVIL_LADDER, rules, restrictions, &ctx(t0))
        .await
        .unwrap();
    svc.execute_as::<arbiter_engine::sunjang::season::League>(
        "xss-sunjang",
        SunjangCommand::Register {
            info: PlayerInfo {
                name: EVIL.into(),
                rank: Rank::Kyu(5),
                provisional: false,
                rating: 1500,
                corr_rank: None,
                corr_rating: None,
            },
        },
        &ctx(t1),
    )
    .await
    .unwrap();
}

async fn app() -> Router {
    let store = SqliteStore::open(&demo().path).await.unwrap();
    arbiter_server::app(AppState::new(Service::new(store)).with_clock(Clock::Fixed(demo().now)))
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map_or("", |v| v.to_str().unwrap_or(""))
    }
}

async fn get(app: &Router, uri: &str) -> Answer {
    let a = common::oneshot(app, Request::get(uri).body(Body::empty()).unwrap()).await;
    Answer {
        status: a.status,
        headers: a.headers,
        body: String::from_utf8(a.body).unwrap(),
    }
}

/// GET a page that must exist, checked as every page is.
async fn page(app: &Router, uri: &str) -> String {
    let a = get(app, uri).await;
    assert_eq!(a.status, StatusCode::OK, "{uri}:\n{}", a.body);
    assert_eq!(
        a.header("content-type"),
        "text/html; charset=utf-8",
        "{uri}"
    );
    check_layout(uri, &a.body);
    // To look at the pages: ARBITER_PAGES_DUMP=dir cargo test --test pages
    if let Some(dir) = std::env::var_os("ARBITER_PAGES_DUMP") {
        let name: String = uri
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(PathBuf::from(dir).join(format!("{name}.html")), &a.body);
    }
    a.body
}

// ----- what every page must be -----

/// The layout, the headings, the tags, and nothing the CSP would block.
fn check_layout(uri: &str, html: &str) {
    assert!(html.starts_with("<!doctype html>"), "{uri}");
    assert!(html.contains(r#"<html lang="en">"#), "{uri}");
    assert!(
        html.contains(r##"<a class="skip" href="#main">"##) && html.contains(r#"<main id="main""#),
        "{uri}: no skip link to the main content"
    );
    assert!(html.contains(r#"<meta name="viewport""#), "{uri}");
    assert_eq!(html.matches("<h1").count(), 1, "{uri}: not exactly one h1");
    check_heading_order(uri, html);
    check_balanced(uri, html);
    // Only scripts from this server, no inline script, no inline style
    // (the Content-Security-Policy forbids them).
    for (i, _) in html.match_indices("<script") {
        let tag = &html[i..html[i..].find('>').map_or(html.len(), |e| i + e)];
        assert!(tag.contains(r#"src="/assets/"#), "{uri}: {tag}");
    }
    assert!(!html.contains(" style=\""), "{uri}: an inline style");
    assert!(!html.contains("<style"), "{uri}: an inline style sheet");
    assert!(
        !html.contains("http://") || only_svg_namespace(html),
        "{uri}: an outside link"
    );
    assert!(!html.contains("https://"), "{uri}: an outside resource");
    // Every table has a caption, every column header a scope.
    assert_eq!(
        html.matches("<table").count(),
        html.matches("<caption>").count(),
        "{uri}: a table without a caption"
    );
    assert!(!html.contains("<th>"), "{uri}: a th without scope");
}

fn only_svg_namespace(html: &str) -> bool {
    html.matches("http://").count() == html.matches("http://www.w3.org/2000/svg").count()
}

/// h1 first; never a jump of more than one level down.
fn check_heading_order(uri: &str, html: &str) {
    let mut last = 0;
    for (i, _) in html.match_indices("<h") {
        let Some(level) = html[i + 2..]
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
            .filter(|d| (1..=6).contains(d))
        else {
            continue;
        };
        assert!(
            level <= last + 1,
            "{uri}: h{level} after h{last} at {}",
            &html[i..(i + 80).min(html.len())]
        );
        last = level;
    }
    assert!(last > 0, "{uri}: no heading");
}

/// Open and close tags match (void elements and `/>` aside).
fn check_balanced(uri: &str, html: &str) {
    const VOID: [&str; 6] = ["meta", "link", "br", "img", "input", "hr"];
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let end = rest
            .find('>')
            .unwrap_or_else(|| panic!("{uri}: an unclosed tag"));
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().unwrap_or_default();
            assert_eq!(open, name, "{uri}: </{name}> closes <{open}>");
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if !VOID.contains(&name.as_str()) {
                stack.push(name);
            }
        }
    }
    assert!(stack.is_empty(), "{uri}: unclosed {stack:?}");
}

/// The internal links of a page, without fragments.
fn links(html: &str) -> Vec<String> {
    html.match_indices("href=\"/")
        .map(|(i, _)| {
            let from = i + "href=\"".len();
            let to = from + html[from..].find('"').unwrap();
            let href = html[from..to].replace("&amp;", "&");
            href.split('#').next().unwrap_or("").to_string()
        })
        .filter(|h| !h.is_empty())
        .collect()
}

/// The text of the first element `<tag ...>` after `from`, tags stripped.
fn first_text(html: &str, tag: &str) -> String {
    let open = format!("<{tag}");
    let Some(i) = html.find(&open) else {
        return String::new();
    };
    let start = i + html[i..].find('>').unwrap() + 1;
    let end = start + html[start..].find(&format!("</{tag}>")).unwrap();
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

fn assert_has(uri: &str, html: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(html.contains(w), "{uri}: no {w:?}");
    }
}

// ----- the pages -----

#[tokio::test]
async fn the_list_shows_every_competition_with_its_format_members_and_version() {
    // Each competition is a card (issue 17 §3): its format, where it
    // stands, who leads it, its members and version.
    let app = app().await;
    let d = demo();
    let html = page(&app, "/").await;
    assert_eq!(first_text(&html, "h1"), "Competitions");
    assert_has(
        "/",
        &html,
        &[
            r#"<ul class="comp-cards" aria-label="Every competition on this server">"#,
            &format!(
                r#"<a href="/c/{}">Twilight Struggle Ladder (demo)</a>"#,
                d.ladder
            ),
            &format!(r#"<a href="/c/{}">XMadn 2T League (demo)</a>"#, d.league),
            &format!(
                r#"<a href="/c/{}">XMadn 2T Challengers (demo)</a>"#,
                d.challengers
            ),
            &format!(
                r#"<a href="/c/{}">Sunjang Baduk League (demo)</a>"#,
                d.sunjang
            ),
            "Twilight Struggle ladder",
            "XMadn league",
            "XMadn Challengers",
            "Sunjang league",
            "round 4 running",
            "season 3 running",
            r#"<span class="comp-leader-what">On rung 1</span> <a href="/c/tws-demo/players/Hiro%20Tanaka">Hiro Tanaka</a>"#,
            r#"<span class="comp-leader-what">Champion</span> <a href="/c/xmadn-league-demo/players/"#,
            "<dt>Members</dt>",
            "<dt>Version</dt>",
        ],
    );
}

#[tokio::test]
async fn an_empty_server_says_how_to_start() {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let app = arbiter_server::app(AppState::new(Service::new(store)));
    let html = page(&app, "/").await;
    assert!(html.contains("There is no competition yet."));
    assert!(!html.contains("<table"));
}

#[tokio::test]
async fn the_ladder_shows_rungs_champion_the_round_and_why() {
    let app = app().await;
    let d = demo();
    let uri = format!("/c/{}", d.ladder);
    let html = page(&app, &uri).await;
    assert_eq!(first_text(&html, "h1"), "Twilight Struggle Ladder (demo)");
    assert_has(
        &uri,
        &html,
        &[
            r#"<h2 id="champion">Champion</h2>"#,
            "consecutive round",
            r#"<h2 id="ladder">The ladder</h2>"#,
            r#"<th scope="col" class="num">Rung</th>"#,
            r#"<h2 id="round">Round 4, running</h2>"#,
            "<caption>Games of round 4",
            "<dt>Deadline</dt>",
            "<summary>Why this deadline</summary>",
            "<summary>Why this bid</summary>",
            "<summary>Sides</summary>",
            "<summary>Pairing</summary>",
            "<summary>Moderator</summary>",
            "Rule: TWS Assignment of Sides",
            "Volunteer eliminators",
            "Mika Lindqvist",
            r#"href="/c/tws-demo/players/Ana%20Morales""#,
            r#"href="/c/tws-demo/rounds/3""#,
            r#"href="/c/tws-demo/stats""#,
            r#"href="/c/tws-demo/history""#,
            r#"aria-current="page""#,
        ],
    );
    // A move at the last close is explained one click away.
    assert!(html.contains("Rule: TWS Change of Ladder Standings") || html.contains("Rule: TWS"));
    // The champion's section says why he is champion, with its rule, and
    // names him once: on the podium's top step, a link to his page
    // (issue 17 §3).
    let from = html.find(r#"<h2 id="champion">"#).unwrap();
    let section = &html[from..from + html[from..].find(r#"<h2 id="ladder">"#).unwrap()];
    assert_eq!(
        section.matches("Hiro Tanaka").count(),
        1,
        "the champion named once in his section: {section}"
    );
    assert!(
        section.contains(
            "<p>The Ladder Champion is the player on rung 1 (TWS Significance of Ladder Standings); the present champion has held it for 1 consecutive round.</p>"
        ),
        "why he is champion: {section}"
    );
    assert!(
        section.contains(
            r#"<li class="step step-1"><span class="step-name"><a href="/c/tws-demo/players/Hiro%20Tanaka">Hiro Tanaka</a></span>"#
        ),
        "the champion on the podium's top step: {section}"
    );
}

#[tokio::test]
async fn a_round_shows_its_games_and_its_close_with_every_move_explained() {
    let app = app().await;
    let d = demo();
    let uri = format!("/c/{}/rounds/2", d.ladder);
    let html = page(&app, &uri).await;
    assert_eq!(
        first_text(&html, "h1"),
        "Round 2 of Twilight Struggle Ladder (demo)"
    );
    assert_has(
        &uri,
        &html,
        &[
            "<caption>Games of round 2",
            r#"<h2 id="close">The close</h2>"#,
            "<caption>Moves at the close of round 2</caption>",
            "<summary>Adjudication</summary>",
            "<strong>Final state:</strong>",
            "Round 1</a>",
            "Round 3</a>",
        ],
    );
}

#[tokio::test]
async fn a_player_page_shows_games_sides_and_charts_drawn_on_the_server() {
    let app = app().await;
    let d = demo();
    let uri = format!("/c/{}/players/Ana%20Morales", d.ladder);
    let html = page(&app, &uri).await;
    assert_eq!(first_text(&html, "h1"), "Ana Morales");
    assert_has(
        &uri,
        &html,
        &[
            r#"<h2 id="sides">Side balance</h2>"#,
            r#"<h2 id="results">Results over time</h2>"#,
            r#"<h2 id="rungs">Rung after each round</h2>"#,
            r#"<h2 id="games">Games</h2>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg""#,
            r#"role="img" aria-labelledby="results-t results-d""#,
            "<title id=\"results-t\">Results of Ana Morales over time</title>",
            "<title id=\"rungs-t\">Rung of Ana Morales after each round</title>",
            "<caption>Results in the order they were recorded</caption>",
            "<caption>Every game of Ana Morales</caption>",
            "<polyline",
        ],
    );
    let unknown = get(&app, &format!("/c/{}/players/Nobody%20Here", d.ladder)).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(
        unknown
            .body
            .contains("There is no player “Nobody Here” in this ladder.")
    );
}

/// Issue 17: Ana Morales's chart read "rung 1 after round 1, then rung 14".
/// True to the demo's events: she entered first, so on rung 1 (TWS Change
/// of Ladder Standings: "in order of entry"), beat rung 2 and stayed there
/// (TWS-R1), then lost in round 2 and fell below the 12 winners and Ben
/// Carter, reinserted at his rung 13 after his skip (TWS-R3). The chart
/// starts with where she stood before round 1's close, so that "after
/// round 1: rung 1 (=)" reads as staying on top, not as a jump to it.
#[tokio::test]
async fn the_rung_chart_starts_where_the_player_stood_before_his_first_round() {
    let app = app().await;
    let d = demo();
    let ana = page(&app, &format!("/c/{}/players/Ana%20Morales", d.ladder)).await;
    let tips = |html: &str| -> Vec<String> {
        let chart = html
            .split(r#"aria-labelledby="rungs-t rungs-d""#)
            .nth(1)
            .and_then(|s| s.split("</svg>").next())
            .unwrap_or_default()
            .to_string();
        chart
            .split("<circle")
            .skip(1)
            .filter_map(|c| c.split("<title>").nth(1)?.split("</title>").next())
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        tips(&ana),
        [
            "start, before the close of round 1: rung 1",
            "after round 1: rung 1 (=)",
            "after round 2: rung 14 (-13)",
            "after round 3: rung 8 (+6)",
        ],
        "Ana Morales's rung chart"
    );
    assert!(
        ana.contains(r#"text-anchor="middle">start</text>"#),
        "the first point is labelled start"
    );
    assert!(
        ana.contains(
            "The first point, start, is the rung Ana Morales held going into the close of round 1"
        ),
        "the chart's description says what its first point is"
    );
    // A member who joined during round 1 without a game starts at the
    // bottom, where he entered (TWS-R5), and stays there at its close.
    let yusuf = page(&app, &format!("/c/{}/players/Yusuf%20Demir", d.ladder)).await;
    assert_eq!(
        tips(&yusuf).first().map(String::as_str),
        Some("start, before the close of round 1: rung 25"),
        "Yusuf Demir's rung chart"
    );
}

#[tokio::test]
async fn the_statistics_show_results_by_side_by_bid_and_by_end() {
    let app = app().await;
    let d = demo();
    let uri = format!("/c/{}/stats", d.ladder);
    let html = page(&app, &uri).await;
    assert_has(
        &uri,
        &html,
        &[
            "<title id=\"by-side-t\">Results by side</title>",
            "<title id=\"by-bid-t\">Results by bid</title>",
            "<title id=\"by-end-t\">How games ended</title>",
            "<caption>Results by side</caption>",
            "<caption>Results by bid</caption>",
            "<caption>Results by how the game ended</caption>",
            "<caption>Quick rounds, best record first</caption>",
            "influence to the",
        ],
    );
}

#[tokio::test]
async fn the_league_shows_its_table_schedule_playoff_and_rolls() {
    let app = app().await;
    let d = demo();
    let uri = format!("/c/{}", d.league);
    let html = page(&app, &uri).await;
    assert_eq!(first_text(&html, "h1"), "XMadn 2T League (demo)");
    assert_has(
        &uri,
        &html,
        &[
            r#"<h2 id="table">Table</h2>"#,
            r#"<th scope="col">Why this place</th>"#,
            "Rule: XMadn League: Table",
            r#"<h2 id="outlook">What is decided</h2>"#,
            r#"<h3 id="drr-1">DRR 1</h3>"#,
            r#"<h3 id="drr-2">DRR 2</h3>"#,
            "<summary>Why these positions</summary>",
            "<caption>Games of DRR 1</caption>",
            r#"<h2 id="playoff">Playoff</h2>"#,
            "<summary>Why these players, colours and head start</summary>",
            r#"<h2 id="rolls">Rolls of the dice</h2>"#,
            "<caption>Rounds of die-roll with their seeds</caption>",
            "commitment matches",
            "faces match the seed",
            "Anke Vogel",
        ],
    );
    // Games are played: the picture is the table's top or the bracket,
    // not the road before the first game.
    assert!(!html.contains("road-picture"), "{uri}");
}

#[tokio::test]
async fn a_league_before_its_first_game_draws_the_road_to_the_title() {
    // The league whose names are HTML: its positions rolled, no game
    // played; the default rules (QG, then FS3 with a head start).
    let app = app().await;
    let uri = "/c/xss-league";
    let html = page(&app, uri).await;
    let from = html.find(r#"<figure class="picture bracket-picture road-picture""#);
    let to = html.find(r#"<h2 id="table">"#).unwrap();
    let picture = &html[from.expect("the road's picture before the table")..to];
    assert_has(
        uri,
        picture,
        &[
            // The field: the three entrants, escaped, 0-0.
            r#"<p class="stage-title">Table <span class="muted">2 double round-robins, 12 games</span></p>"#,
            "&#60;script&#62;alert(1)&#60;/script&#62;</a>",
            "B &#38; B</a>",
            r#"<span class="vh">won and lost: </span>0-0"#,
            // The playoff's empty bracket as the rules fix it.
            r#"<p class="stage-title">Qualifying <span class="muted">QG · first to 1</span></p>"#,
            r#"<span class="side-name">2nd of the table</span>"#,
            r#"<span class="side-name">3rd of the table</span>"#,
            r#"<p class="stage-title">Final <span class="muted">FS3 · first to 3 · head start possible</span></p>"#,
            r#"<span class="side-name">1st of the table</span>"#,
            r#"<span class="side-name">the winner of QG</span>"#,
            r#"<p class="champion-name muted">the winner of FS3</p>"#,
            "(XMadn League: Playoff)",
            r##"<a href="#table">the table</a>"##,
        ],
    );
    assert_eq!(
        picture.matches(r#"<li class="side">"#).count(),
        3,
        "{picture}"
    );
    assert!(!html.contains("podium-picture"), "no podium before a game");
}

#[tokio::test]
async fn the_challengers_event_shows_standings_games_and_the_champion() {
    let app = app().await;
    let d = demo();
    let uri = format!("/c/{}", d.challengers);
    let html = page(&app, &uri).await;
    assert_eq!(first_text(&html, "h1"), "XMadn 2T Challengers (demo)");
    assert_has(
        &uri,
        &html,
        &[
            r#"<h2 id="standings">Standings</h2>"#,
            r#"<h2 id="next">Next game</h2>"#,
            r#"<h2 id="games">Games</h2>"#,
            "<caption>Games, in the order played</caption>",
            "Champion: ",
            "Game 0 (the three-player qualifier)",
            "Dana Roth",
        ],
    );
}

#[tokio::test]
async fn the_sunjang_league_shows_the_pyramid_groups_crosstables_and_placements() {
    let app = app().await;
    let d = demo();
    let uri = format!("/c/{}", d.sunjang);
    let html = page(&app, &uri).await;
    assert_eq!(first_text(&html, "h1"), "Sunjang Baduk League (demo)");
    assert_has(
        &uri,
        &html,
        &[
            "<strong>Season 3</strong>: planned",
            r#"<h2 id="pyramid">The pyramid</h2>"#,
            r#"<ol class="pyramid">"#,
            r#"<h2 id="division-A">Division A</h2>"#,
            r#"<h3 id="group-A1">Group A1</h3>"#,
            "<caption>Table of group A1",
            "<caption>Crosstable of group A1",
            r#"<table class="cross">"#,
            "<summary>Why this order</summary>",
            r#"<h2 id="placements">Placements</h2>"#,
            "<caption>Where each player was placed when the season was planned, and why</caption>",
            r#"<h2 id="seasons">Seasons</h2>"#,
            r#"<a href="/c/sunjang-demo/seasons/1">Season 1</a>: closed"#,
            r#"<h2 id="players">Players</h2>"#,
        ],
    );
    // A past season on its own page, with its final round.
    let uri = format!("/c/{}/seasons/1", d.sunjang);
    let html = page(&app, &uri).await;
    assert_eq!(
        first_text(&html, "h1"),
        "Season 1 of Sunjang Baduk League (demo)"
    );
    assert_has(
        &uri,
        &html,
        &[
            "<strong>Season 1</strong>: closed",
            r#"<h2 id="final">Final round</h2>"#,
            "Merged ranking of the division after the close (SJ-R5)",
            "Season 2</a>",
        ],
    );
}

/// "They are denoted by the division letter plus a number (if necessary)"
/// (Sunjang Definitions: Group; ARB-R66): a season of six players has one
/// group in A, and the page names it A (its heading, anchor, table and
/// every placement's link).
#[tokio::test]
async fn the_only_group_of_a_division_is_named_by_its_letter_on_the_page() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("pages-one-group-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let store = SqliteStore::open(&path).await.unwrap();
    let svc = Service::new(store.clone()).with_seeds(SeedSource::Deterministic("pages".into()));
    let now = demo().now;
    let ctx = Context::new("mod", now);
    let text = arbiter_record::preset("sunjang-league").unwrap();
    let (rules, restrictions) = arbiter_record::parse_sunjang_rules(text).unwrap();
    svc.create_sunjang("small", "Small Sunjang", rules, restrictions, &ctx)
        .await
        .unwrap();
    for (i, name) in ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
        .iter()
        .enumerate()
    {
        svc.execute_as::<arbiter_engine::sunjang::season::League>(
            "small",
            SunjangCommand::Register {
                info: PlayerInfo {
                    name: (*name).into(),
                    rank: Rank::Kyu(5 + i as u8),
                    provisional: false,
                    rating: 1500 - i as i32,
                    corr_rank: None,
                    corr_rating: None,
                },
            },
            &ctx,
        )
        .await
        .unwrap();
    }
    svc.execute_as::<arbiter_engine::sunjang::season::League>(
        "small",
        SunjangCommand::PlanSeason { at: now },
        &ctx,
    )
    .await
    .unwrap();
    let app = arbiter_server::app(AppState::new(Service::new(store)).with_clock(Clock::Fixed(now)));
    let html = page(&app, "/c/small").await;
    assert_has(
        "/c/small",
        &html,
        &[
            r#"<h3 id="group-A">Group A</h3>"#,
            "<caption>Table of group A (15 games left)</caption>",
            r##"<a href="#group-A">A</a>"##,
        ],
    );
    for never in ["Group A1", ">A1<", "group A1", "#group-A1"] {
        assert!(!html.contains(never), "{never}: {html}");
    }
}

#[tokio::test]
async fn the_history_lists_every_event_in_words_newest_first_with_its_record() {
    let app = app().await;
    let d = demo();
    for id in [&d.ladder, &d.league, &d.challengers, &d.sunjang] {
        let uri = format!("/c/{id}/history");
        let html = page(&app, &uri).await;
        assert!(first_text(&html, "h1").starts_with("History of "), "{uri}");
        assert_has(
            &uri,
            &html,
            &[
                r#"<th scope="col" class="num">Version</th>"#,
                r#"<th scope="col">What happened</th>"#,
                "<summary>Stored record <code>",
                // Issue 14 item 7: the demo's actor is not an account.
                r#"<td>demo <span class="muted">not an account</span></td>"#,
                // The filter form, a GET that needs no script.
                r#"<form method="get" action="/c/"#,
                r#"<label for="history-player">Player</label>"#,
                r#"name="round""#,
                ", newest first.",
            ],
        );
        // Newest first: the first row is the latest version.
        let first_row = html.find("<tr id=\"e").unwrap();
        let seq: u64 = html[first_row + 9..]
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let version = common::version(&app, id).await;
        assert_eq!(seq, version, "{uri}: the newest event comes first");
    }
    // The sentences are the CLI's (`Format::describe`), not record fields.
    let html = page(&app, "/c/tws-demo/history").await;
    assert_has(
        "/c/tws-demo/history",
        &html,
        &[
            r#"<span class="sentence">round 4 announced: "#,
            r#"<span class="sentence">round 1 closed: champion "#,
            // The time, for the reader (in the competition's zone, UTC
            // here, ARB-R82) and for a machine.
            r#"<td><time datetime="20"#,
            r#"Z" data-zone="UTC">20"#,
            " UTC</time></td>",
        ],
    );
    let html = page(&app, &format!("/c/{}/history", d.league)).await;
    assert!(
        html.contains("positions rolled: #1 "),
        "the league's rolls in words"
    );
    let html = page(&app, &format!("/c/{}/history", d.sunjang)).await;
    assert!(
        sentences(&html).iter().any(|l| l.contains(" (black) v ")),
        "the Sunjang league's games in words"
    );
    // An undone event is struck through, and its undo links to it.
    let html = page(&app, "/c/xss-ladder/history").await;
    assert_has(
        "/c/xss-ladder/history",
        &html,
        &[
            r#"class="reverted""#,
            "(undone by a later event)",
            "undoes event <a href=\"#e",
            "Undone Ursula applied to join",
        ],
    );
    // Her filter finds her joining (application and approval) and the
    // undo of the approval, which is about what it undid.
    let uri = "/c/xss-ladder/history?player=Undone+Ursula";
    let hers = sentences(&page(&app, uri).await);
    assert_eq!(
        hers,
        [
            "undo of event 14 (player-approved)",
            "Undone Ursula approved: enters at the bottom",
            "Undone Ursula applied to join",
        ],
        "{uri}"
    );
    // The Sunjang league's history spans pages, newest first; the pager
    // keeps the filters.
    let uri = format!("/c/{}/history", d.sunjang);
    let html = page(&app, &uri).await;
    assert!(html.contains("Page 1 of"), "{uri}");
    assert!(html.contains(&format!(r#"<a href="{uri}?page=2">Older events</a>"#)));
    let html = page(&app, &format!("{uri}?page=2")).await;
    assert!(html.contains("Page 2 of"));
    assert!(html.contains(&format!(r#"<a href="{uri}">Newer events</a>"#)));
    let beyond = get(&app, &format!("{uri}?page=999")).await;
    assert_eq!(beyond.status, StatusCode::NOT_FOUND);
}

/// The rows' sentences of a history page, newest first.
fn sentences(html: &str) -> Vec<String> {
    html.split(r#"<span class="sentence">"#)
        .skip(1)
        .map(|s| s.split("</span>").next().unwrap_or("").to_string())
        .collect()
}

#[tokio::test]
async fn the_history_filters_by_player_and_by_round_in_every_format() {
    let app = app().await;
    let d = demo();
    // The ladder: Hiro Tanaka's events, in round 2.
    let all = page(&app, "/c/tws-demo/history").await;
    let uri = "/c/tws-demo/history?player=Hiro+Tanaka";
    let his = page(&app, uri).await;
    let lines = sentences(&his);
    assert!(
        !lines.is_empty() && lines.len() < sentences(&all).len(),
        "{uri}"
    );
    assert!(
        his.contains("events, naming Hiro Tanaka, newest first."),
        "{uri}"
    );
    assert!(
        his.contains(r#"value="Hiro Tanaka""#),
        "{uri}: the form keeps the filter"
    );
    for l in &lines {
        assert!(
            l.contains("Tanaka") || l.contains(" announced: ") || l.contains(" closed: "),
            "{uri}: {l}"
        );
    }
    // A name is matched whatever its case.
    let lower = page(&app, "/c/tws-demo/history?player=hiro%20tanaka").await;
    assert_eq!(sentences(&lower), lines);
    let uri = "/c/tws-demo/history?player=Hiro+Tanaka&round=2";
    let both = page(&app, uri).await;
    let in_two = sentences(&both);
    assert!(!in_two.is_empty() && in_two.len() < lines.len(), "{uri}");
    assert!(both.contains("naming Hiro Tanaka, in round 2"), "{uri}");
    assert!(
        in_two.iter().any(|l| l.starts_with("round 2 announced")),
        "{uri}: {in_two:?}"
    );
    assert!(
        in_two.iter().all(|l| !l.starts_with("round 3 ")),
        "{uri}: {in_two:?}"
    );
    // Each format's own round: a double round-robin, a game, a season, a
    // round.
    for (id, query, wanted) in [
        (d.league.as_str(), "round=1", "DRR 1 positions rolled"),
        (d.challengers.as_str(), "round=1", "Game 1: "),
        (d.sunjang.as_str(), "round=2", "season 2 closed"),
    ] {
        let uri = format!("/c/{id}/history?{query}");
        let html = page(&app, &uri).await;
        let lines = sentences(&html);
        assert!(
            lines.iter().any(|l| l.starts_with(wanted)),
            "{uri}: {lines:?}"
        );
    }
    let html = page(&app, &format!("/c/{}/history", d.sunjang)).await;
    assert!(html.contains(r#"<label for="history-round">Season</label>"#));
    let html = page(&app, &format!("/c/{}/history", d.league)).await;
    assert!(html.contains(r#"<label for="history-round">Double round-robin</label>"#));
    // A Sunjang player's games of one season, every line naming him.
    let season = page(&app, &format!("/c/{}/history?round=1", d.sunjang)).await;
    let name = sentences(&season)
        .iter()
        .find_map(|l| {
            l.split(" (black) v ")
                .next()
                .and_then(|x| x.split(": ").nth(1))
                .map(str::to_string)
        })
        .expect("a game of season 1");
    let uri = format!(
        "/c/{}/history?round=1&player={}",
        d.sunjang,
        name.replace(' ', "+")
    );
    let html = page(&app, &uri).await;
    let lines = sentences(&html);
    assert!(!lines.is_empty(), "{uri}");
    for l in &lines {
        assert!(
            l.contains(&name) || l.starts_with("season 1 "),
            "{uri}: {l}"
        );
    }
}

#[tokio::test]
async fn a_history_filter_it_cannot_read_is_refused_naming_the_field() {
    let app = app().await;
    let long = "A".repeat(5000);
    for (query, field, words) in [
        (
            "player=Nobody+Here",
            "player",
            "no event names a player called “Nobody Here”",
        ),
        ("player=tanaka", "player", "Did you mean Hiro Tanaka?"),
        (
            &format!("player={long}") as &str,
            "player",
            "a name has at most 200 characters; this one has 5000",
        ),
        (
            "player=%00%01%02",
            "player",
            "no event names a player called",
        ),
        ("player=%FF%FE", "player", "no event names a player called"),
        ("round=%FF", "round", "is not the number of a round"),
        (
            "round=1&round=x",
            "round",
            "“x” is not the number of a round",
        ),
        ("round=abc", "round", "is not the number of a round"),
        ("round=-1", "round", "is not the number of a round"),
        (
            "round=99999999999999999999999",
            "round",
            "is not the number of a round",
        ),
        ("round=1e3", "round", "is not the number of a round"),
        ("round=0", "round", "no event belongs to round 0"),
        (
            "round=999",
            "round",
            "no event belongs to round 999; the rounds in this history run from 1 to",
        ),
        (
            "round=%3Cscript%3E",
            "round",
            "” is not the number of a round",
        ),
        ("page=two", "page", "“two” is not a page number"),
        ("page=99999999999999999999", "page", "is not a page number"),
    ] {
        let uri = format!("/c/tws-demo/history?{query}");
        let a = get(&app, &uri).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}");
        check_layout(&uri, &a.body);
        assert!(
            a.body.contains(&format!("Field “{field}”: ")),
            "{uri}: the field is not named:\n{}",
            a.body
        );
        assert!(a.body.contains(words), "{uri}: no {words:?}");
        assert!(a.body.contains(r#"role="alert""#), "{uri}");
        // The form is there to correct it, and no event is listed.
        assert!(a.body.contains(r#"id="history-player""#), "{uri}");
        assert!(!a.body.contains("<tr id=\"e"), "{uri}");
        assert!(!a.body.contains("<script>"), "{uri}: input became markup");
    }
    // The input is kept, cut to the field's length.
    let a = get(&app, &format!("/c/tws-demo/history?player={long}")).await;
    assert!(a.body.contains(&format!(r#"value="{}""#, "A".repeat(200))));
    // A hostile name is escaped in the form and in the message.
    let uri = "/c/tws-demo/history?player=%3Cscript%3Ealert(1)%3C%2Fscript%3E";
    let a = get(&app, uri).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(!a.body.contains("<script>alert"), "{uri}");
    assert!(shows_escaped(&a.body, EVIL), "{uri}");
    let a = get(&app, "/c/tws-demo/history?round=%3Cscript%3E").await;
    assert!(shows_escaped(
        &a.body,
        "“<script>” is not the number of a round"
    ));
}

#[tokio::test]
async fn user_text_is_escaped_on_every_page() {
    let app = app().await;
    let pages = [
        "/",
        "/c/xss-ladder",
        "/c/xss-ladder/rounds/1",
        "/c/xss-ladder/stats",
        "/c/xss-ladder/history",
        "/c/xss-ladder/players/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/c/xss-ladder/players/O'Neill%20%26%20Sons",
        "/c/xss-league",
        "/c/xss-league/history",
        "/c/xss-sunjang",
        "/c/xss-sunjang/history",
    ];
    for uri in pages {
        let html = page(&app, uri).await;
        assert!(
            !html.contains("<script>alert"),
            "{uri}: a name ran as a script"
        );
        assert!(
            !html.contains("<img src=x"),
            "{uri}: a note became an image"
        );
        assert!(!html.contains("<b>Bold</b>"), "{uri}: a name became markup");
        assert!(
            !html.contains("<i>mod</i>"),
            "{uri}: an actor became markup"
        );
        assert!(
            !html.contains("<u>One</u>"),
            "{uri}: a moderator became markup"
        );
        assert!(
            shows_escaped(&html, EVIL) || shows_escaped(&html, EVIL_LADDER),
            "{uri}: the hostile text is not shown escaped"
        );
    }
    // The player page of the hostile name: its heading, its link, its chart.
    let uri = "/c/xss-ladder/players/%3Cscript%3Ealert(1)%3C%2Fscript%3E";
    let html = page(&app, uri).await;
    assert!(
        first_text(&html, "h1").contains("script") && first_text(&html, "h1").contains("alert(1)")
    );
    assert!(shows_escaped(&html, EVIL), "{uri}");
    let ladder = page(&app, "/c/xss-ladder").await;
    assert!(
        ladder.contains("/c/xss-ladder/players/%3Cscript%3Ealert%281%29%3C%2Fscript%3E"),
        "the link to the player is percent-encoded"
    );
    // The note of the result, escaped.
    let round = page(&app, "/c/xss-ladder/rounds/1").await;
    assert!(shows_escaped(&round, EVIL_NOTE));
    // The round's games are overdue at the demo's time.
    assert!(round.contains(r#"<span class="overdue">overdue</span>"#));
    assert!(round.contains("<dt>Overdue</dt>"));
}

/// Whether `html` shows `text` escaped, in askama's numeric entities
/// (`&#60;`) or in named ones (`&lt;`, the SVG charts).
fn shows_escaped(html: &str, text: &str) -> bool {
    let numeric = text
        .replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;");
    let named = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;");
    html.contains(&numeric) || html.contains(&named)
}

#[tokio::test]
async fn every_link_between_the_pages_leads_to_a_page() {
    let app = app().await;
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from(["/".to_string()]);
    while let Some(uri) = queue.pop_front() {
        if !seen.insert(uri.clone()) || uri.starts_with("/api") {
            continue;
        }
        if uri.starts_with("/assets/") {
            let a = get(&app, &uri).await;
            assert_eq!(a.status, StatusCode::OK, "{uri}");
            continue;
        }
        // A page that needs an account sends a visitor to log in, and back.
        let first = get(&app, &uri).await;
        if first.status == StatusCode::SEE_OTHER {
            let to = first.header("location").to_string();
            assert!(to.starts_with("/login?next=/"), "{uri} redirects to {to}");
            queue.push_back(to);
            continue;
        }
        let html = page(&app, &uri).await;
        for link in links(&html) {
            if !seen.contains(&link) {
                queue.push_back(link);
            }
        }
        assert!(seen.len() < 2000, "the site has no end");
    }
    // The list, four overviews and histories, rounds, players, seasons.
    assert!(seen.len() > 60, "only {} pages reached", seen.len());
    for wanted in [
        "/c/tws-demo/rounds/1",
        "/c/tws-demo/players/Mika%20Lindqvist",
        "/c/sunjang-demo/seasons/3",
        "/c/xss-ladder/stats",
        "/account",
        "/login?next=/account",
        "/register",
        "/c/tws-demo/manage",
    ] {
        assert!(seen.contains(wanted), "{wanted} is not linked");
    }
}

#[tokio::test]
async fn unknown_addresses_get_the_404_page_in_the_layout() {
    let app = app().await;
    let d = demo();
    for uri in [
        "/nope".to_string(),
        "/c/nope".to_string(),
        "/c/NOT%20AN%20ID".to_string(),
        "/c/nope/history".to_string(),
        format!("/c/{}/rounds/99", d.ladder),
        format!("/c/{}/rounds/abc", d.ladder),
        format!("/c/{}/rounds/0", d.ladder),
        format!("/c/{}/players/Ana%20Morales", d.league),
        format!("/c/{}/stats", d.sunjang),
        format!("/c/{}/seasons/9", d.sunjang),
        format!("/c/{}/seasons/1", d.ladder),
        "/assets/nope.css".to_string(),
    ] {
        let a = get(&app, &uri).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(
            a.header("content-type"),
            "text/html; charset=utf-8",
            "{uri}"
        );
        check_layout(&uri, &a.body);
        assert_eq!(first_text(&a.body, "h1"), "Page not found", "{uri}");
    }
    let a = get(&app, "/c/nope").await;
    assert!(a.body.contains("There is no competition “nope”."));
    // The API keeps its own JSON 404.
    let a = get(&app, "/api/nope").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert!(a.header("content-type").starts_with("application/json"));
}

#[tokio::test]
async fn assets_are_served_from_the_binary_with_a_long_cache() {
    let app = app().await;
    let html = page(&app, "/").await;
    let style = links(&html)
        .into_iter()
        .find(|l| l.starts_with("/assets/style.css?v="))
        .expect("the layout links the stylesheet");
    let a = get(&app, &style).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.header("content-type"), "text/css; charset=utf-8");
    assert_eq!(
        a.header("cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert!(a.body.contains("prefers-reduced-motion"));
    assert!(html.contains(r#"<script src="/assets/htmx.min.js?v="#));
    let a = get(&app, "/assets/htmx.min.js").await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.header("content-type"), "text/javascript; charset=utf-8");
    assert!(a.body.starts_with("/*! htmx 2."));
    assert!(a.body.contains("Zero-Clause BSD"));
    let a = get(&app, "/assets/htmx.LICENSE.txt").await;
    assert!(a.body.contains("Zero-Clause BSD"));
}

// ----- snapshots -----

#[tokio::test]
async fn snapshot_of_the_list() {
    let app = app().await;
    insta::assert_snapshot!("list", common::stable(&page(&app, "/").await));
}

#[tokio::test]
async fn snapshot_of_the_ladder() {
    let app = app().await;
    let uri = format!("/c/{}", demo().ladder);
    insta::assert_snapshot!("ladder", common::stable(&page(&app, &uri).await));
}

#[tokio::test]
async fn snapshot_of_the_league() {
    let app = app().await;
    let uri = format!("/c/{}", demo().league);
    insta::assert_snapshot!("league", common::stable(&page(&app, &uri).await));
}

// ----- the round robins (issue 16) -----

/// The demo round robins (`arbiter_demo::roundrobin`) and a round robin
/// whose names and texts are HTML, in a database of their own, so that the
/// seed formats' pages, the list and their snapshots above are as they were.
struct RoundRobins {
    path: PathBuf,
    now: Time,
    euro: String,
    chess: String,
}

const XSS_ROUND_ROBIN: &str = "xss-round-robin";

fn round_robins() -> &'static RoundRobins {
    static RR: OnceLock<RoundRobins> = OnceLock::new();
    RR.get_or_init(|| {
        std::thread::spawn(|| {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
                let path = dir.join(format!("pages-round-robins-{}.db", std::process::id()));
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
                let store = SqliteStore::open(&path).await.unwrap();
                let built = arbiter_demo::roundrobin::build(&store).await.unwrap();
                hostile_round_robin(&store, built.now).await;
                store.close().await;
                RoundRobins {
                    path,
                    now: built.now,
                    euro: built.euro.0,
                    chess: built.chess.0,
                }
            })
        })
        .join()
        .unwrap()
    })
}

/// A UEFA-rules round robin whose name, teams, lot and correction are
/// HTML: started, a result corrected, a team withdrawn (his games left
/// count as forfeits, ARB-R68) and a lot entered by hand.
async fn hostile_round_robin(store: &SqliteStore, now: Time) {
    use arbiter_engine::roundrobin::{Command as RrCommand, GameId, RoundRobin, Score};
    let svc = Service::new(store.clone()).with_seeds(SeedSource::Deterministic("pages".into()));
    let t0 = now - Duration::days(20);
    let ctx = |t: Time| Context::new("<i>mod</i>", t);
    let rules = arbiter_record::roundrobin::parse_round_robin_rules(
        arbiter_record::roundrobin::round_robin_preset("uefa-euro").unwrap(),
    )
    .unwrap();
    let teams: Vec<String> = [EVIL, "O'Neill & Sons", "Zed \"Z\" Zimmer", "Plain Pat"]
        .iter()
        .map(|t| (*t).to_string())
        .collect();
    svc.create_round_robin(XSS_ROUND_ROBIN, EVIL_LADDER, rules, &teams, &ctx(t0))
        .await
        .unwrap();
    svc.start_round_robin(XSS_ROUND_ROBIN, None, &ctx(t0))
        .await
        .unwrap();
    let t1 = t0 + Duration::days(2);
    let run = |c: RrCommand| {
        let svc = &svc;
        async move {
            svc.execute_as::<RoundRobin>(XSS_ROUND_ROBIN, c, &ctx(t1))
                .await
                .unwrap();
        }
    };
    run(RrCommand::Record {
        game: GameId(0),
        score: Score::Goals { home: 2, away: 1 },
        minutes: None,
        at: t1,
    })
    .await;
    run(RrCommand::Correct {
        game: GameId(0),
        score: Some(Score::Goals { home: 1, away: 2 }),
        minutes: None,
        reason: EVIL_NOTE.into(),
        at: t1,
    })
    .await;
    let (rr, _) = svc
        .load_as::<RoundRobin>(XSS_ROUND_ROBIN, None)
        .await
        .unwrap();
    let pat = rr.find("Plain Pat").unwrap();
    run(RrCommand::Withdraw {
        player: pat,
        at: t1,
    })
    .await;
    let order = ["Zed \"Z\" Zimmer", EVIL]
        .map(|n| rr.find(n).unwrap())
        .to_vec();
    run(RrCommand::EnterLots {
        order,
        how: EVIL_NOTE.into(),
        at: t1,
    })
    .await;
}

async fn round_robin_app() -> Router {
    let d = round_robins();
    let store = SqliteStore::open(&d.path).await.unwrap();
    arbiter_server::app(AppState::new(Service::new(store)).with_clock(Clock::Fixed(d.now)))
}

/// Whether `first` comes before `second` in `html`, both present.
fn in_order(html: &str, first: &str, second: &str) -> bool {
    match (html.find(first), html.find(second)) {
        (Some(a), Some(b)) => a < b,
        _ => false,
    }
}

#[tokio::test]
async fn the_euro_group_shows_its_final_table_in_uefa_order_and_why() {
    let app = round_robin_app().await;
    let d = round_robins();
    let uri = format!("/c/{}", d.euro);
    let html = page(&app, &uri).await;
    assert_eq!(first_text(&html, "h1"), "UEFA EURO 2024 Group E (demo)");
    assert_has(
        &uri,
        &html,
        &[
            "every game is played: the table is final",
            "(head-to-head applied block)",
            r#"<h2 id="table">Table</h2>"#,
            "<caption>Table: points, then the tiebreaks in the rules&#39; order</caption>",
            r#"<th scope="col">Why this place</th>"#,
            r#"<h2 id="rounds">Rounds</h2>"#,
            r#"<h3 id="round-3">Round 3"#,
            "<caption>Games of round 3</caption>",
            // Each team linked to its page (issue 17 §1).
            "Romania</a></td><td><a href=",
            "Ukraine</a></td><td>3-0</td>",
            "Romania</a></td><td>2-0</td>",
            "ARB-R67",
        ],
    );
    // The published order (UEFA EURO 2024, Group E): all four on 4 points,
    // the block of head-to-head criteria over the four puts Romania first
    // on goals scored among them, although Belgium beat Romania.
    let rows = [
        "Romania</a></th>",
        "Belgium</a></th>",
        "Slovakia</a></th>",
        "Ukraine</a></th>",
    ];
    for pair in rows.windows(2) {
        assert!(in_order(&html, pair[0], pair[1]), "{uri}: {pair:?}");
    }
    assert!(!html.contains("to play"), "{uri}: every game is played");
}

#[tokio::test]
async fn the_chess_round_robin_shows_the_running_round_its_deadlines_and_what_is_left() {
    let app = round_robin_app().await;
    let d = round_robins();
    let uri = format!("/c/{}", d.chess);
    let html = page(&app, &uri).await;
    assert_eq!(
        first_text(&html, "h1"),
        "Riverside Chess Club Round Robin (demo)"
    );
    assert_has(
        &uri,
        &html,
        &[
            "10 players",
            "33 of 45 games played; the table is provisional",
            "1 for a win, ½ for a draw, 0 for a loss",
            "<caption>Games of round 9</caption>",
            // A forfeit (round 4) and the games left, from round 7 on.
            "+:-",
            r#"<span class="muted">to play</span>"#,
            "Beatriz Santos",
            "Jakub Novák",
        ],
    );
    // Every round has its deadline, a week apart; the running round's lies
    // after the day the demo was built for, the sixth's before it.
    for round in 1..=9 {
        let heading = format!(r#"<h3 id="round-{round}">Round {round}"#);
        let at = html.find(&heading).unwrap_or_else(|| panic!("{heading}"));
        let line = &html[at..at + html[at..].find("</h3>").unwrap()];
        assert!(
            line.contains("due "),
            "{uri}: round {round} has no deadline"
        );
    }
    let today = d.now.date_naive();
    let due = |round: u32| -> chrono::NaiveDate {
        let heading = format!(r#"<h3 id="round-{round}">"#);
        let at = html.find(&heading).unwrap() + heading.len();
        let line = &html[at..at + html[at..].find("</h3>").unwrap()];
        let from = line.find(r#"<time datetime=""#).unwrap() + 16;
        let stamp = &line[from..from + line[from..].find('"').unwrap()];
        let time = chrono::DateTime::parse_from_rfc3339(stamp).unwrap();
        // Shown as a person reads it, in UTC.
        let shown = time.format("%Y-%m-%d %H:%M UTC").to_string();
        assert!(line.contains(&format!(">{shown}</time>")), "{line}");
        time.date_naive()
    };
    assert!(due(6) < today && due(7) > today, "{uri}");
    // Rounds 1 to 6 are played, round 7 in part, 8 and 9 not at all.
    let section = |round: u32| -> &str {
        let from = html.find(&format!(r#"<h3 id="round-{round}">"#)).unwrap();
        let to = html[from + 4..]
            .find("<h3 ")
            .or_else(|| html[from + 4..].find("</main>"))
            .map_or(html.len(), |i| from + 4 + i);
        &html[from..to]
    };
    for round in 1..=6 {
        assert!(!section(round).contains("to play"), "round {round}");
    }
    assert_eq!(section(7).matches("to play").count(), 2, "round 7");
    for round in [8, 9] {
        assert_eq!(
            section(round).matches("to play").count(),
            5,
            "round {round}"
        );
    }
}

/// The running chess round robin gives the analyses something to say: a
/// title still open for some and out of reach for others (ARB-R47), and a
/// what-if form for each of its twelve games left.
#[tokio::test]
async fn the_chess_round_robin_leaves_the_title_open_to_some_and_not_others() {
    let app = round_robin_app().await;
    let d = round_robins();
    let uri = format!("/c/{}/clinch", d.chess);
    let html = page(&app, &uri).await;
    assert!(html.contains("<p>12 games left.</p>"), "{uri}");
    let open = html.matches("<summary>open</summary>").count();
    let out = html.matches("<summary>eliminated</summary>").count();
    assert!(
        open >= 2 && out >= 2 && open + out == 10,
        "{uri}: {open} open, {out} out"
    );
    assert!(
        html.contains("Beatriz Santos already has 5½ points"),
        "{uri}"
    );
    let uri = format!("/c/{}/what-if", d.chess);
    let html = page(&app, &uri).await;
    for game in 34..=45 {
        assert!(
            html.contains(&format!(r#"<select name="G{game}.result">"#)),
            "{uri}: G{game}"
        );
    }
    assert_eq!(html.matches("<select").count(), 12, "{uri}");
}

#[tokio::test]
async fn round_robin_text_is_escaped_on_its_pages() {
    let app = round_robin_app().await;
    for uri in [
        format!("/c/{XSS_ROUND_ROBIN}"),
        format!("/c/{XSS_ROUND_ROBIN}/history"),
        "/".to_string(),
    ] {
        let html = page(&app, &uri).await;
        for raw in ["<script>alert", "<img src=x", "<b>Bold</b>", "<i>mod</i>"] {
            assert!(!html.contains(raw), "{uri}: {raw} became markup");
        }
        assert!(shows_escaped(&html, EVIL_LADDER), "{uri}: the name");
    }
    let uri = format!("/c/{XSS_ROUND_ROBIN}");
    let html = page(&app, &uri).await;
    assert!(
        shows_escaped(&first_text(&html, "h1"), EVIL_LADDER),
        "{uri}"
    );
    for text in [EVIL, "O'Neill & Sons", "Zed \"Z\" Zimmer", EVIL_NOTE] {
        assert!(
            shows_escaped(&html, text),
            "{uri}: {text} is not shown escaped"
        );
    }
    // The withdrawn team's games left count as forfeits (ARB-R68).
    assert_has(
        &uri,
        &html,
        &[
            r#"Plain Pat</a> <span class="muted">(withdrawn)</span>"#,
            r#"<span class="muted">(withdrawal)</span>"#,
            r#"<h2 id="lots">Drawings of lots</h2>"#,
        ],
    );
    let history = page(&app, &format!("/c/{XSS_ROUND_ROBIN}/history")).await;
    assert!(
        shows_escaped(&history, EVIL_NOTE),
        "the correction's reason"
    );
    assert!(shows_escaped(&history, EVIL), "a team in the history");
}

#[tokio::test]
async fn every_link_from_the_round_robins_leads_to_a_page() {
    let app = round_robin_app().await;
    let d = round_robins();
    let seen = crawl(&app).await;
    for wanted in [
        format!("/c/{}", d.euro),
        format!("/c/{}", d.chess),
        format!("/c/{}/history", d.chess),
        format!("/c/{}/history", d.euro),
        format!("/c/{XSS_ROUND_ROBIN}"),
    ] {
        assert!(seen.contains(&wanted), "{wanted} is not linked: {seen:?}");
    }
}

/// Every page reached by links from the list, each checked as every page
/// is; a page that needs an account redirects to the login and back.
async fn crawl(app: &Router) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from(["/".to_string()]);
    while let Some(uri) = queue.pop_front() {
        if !seen.insert(uri.clone()) || uri.starts_with("/api") {
            continue;
        }
        if uri.starts_with("/assets/") {
            assert_eq!(get(app, &uri).await.status, StatusCode::OK, "{uri}");
            continue;
        }
        let first = get(app, &uri).await;
        if first.status == StatusCode::SEE_OTHER {
            let to = first.header("location").to_string();
            assert!(to.starts_with("/login?next=/"), "{uri} redirects to {to}");
            queue.push_back(to);
            continue;
        }
        let html = page(app, &uri).await;
        queue.extend(links(&html).into_iter().filter(|l| !seen.contains(l)));
        assert!(seen.len() < 2000, "the site has no end");
    }
    seen
}

/// The page's `<main>`: what the round robin's own template draws (the
/// menu above it grows with what the formats offer).
fn main_part(html: &str) -> &str {
    let from = html.find("<main").expect("a main element");
    let to = html.find("</main>").expect("the end of main") + "</main>".len();
    &html[from..to]
}

#[tokio::test]
async fn snapshot_of_the_euro_group() {
    let app = round_robin_app().await;
    let uri = format!("/c/{}", round_robins().euro);
    insta::assert_snapshot!("round_robin_euro", main_part(&page(&app, &uri).await));
}

#[tokio::test]
async fn snapshot_of_the_chess_round_robin() {
    let app = round_robin_app().await;
    let uri = format!("/c/{}", round_robins().chess);
    insta::assert_snapshot!("round_robin_chess", main_part(&page(&app, &uri).await));
}

#[tokio::test]
async fn the_round_robin_history_filters_by_player_and_by_round() {
    let app = round_robin_app().await;
    let d = round_robins();
    let uri = format!("/c/{}/history?round=7", d.chess);
    let html = page(&app, &uri).await;
    assert!(html.contains(r#"<label for="history-round">Round</label>"#));
    assert!(html.contains("events, in round 7, newest first."), "{uri}");
    let lines = sentences(&html);
    assert!(!lines.is_empty(), "{uri}");
    // Round 7's results, and its deadline; nothing of another round.
    let games: Vec<&String> = lines.iter().filter(|l| l.starts_with('G')).collect();
    assert!(!games.is_empty(), "{uri}: {lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with('G') || l.starts_with("round 7")),
        "{uri}: {lines:?}"
    );
    // One player's events name him.
    let name = games[0]
        .split_once(' ')
        .and_then(|(_, rest)| rest.split(" v ").next())
        .unwrap()
        .to_string();
    let uri = format!("/c/{}/history?player={}", d.chess, name.replace(' ', "+"));
    let html = page(&app, &uri).await;
    let lines = sentences(&html);
    assert!(!lines.is_empty(), "{uri}");
    // Each names him, but the creation, which entered him.
    for l in &lines {
        assert!(
            l.contains(&name) || l.starts_with("round-robin league "),
            "{uri}: {l}"
        );
    }
    let a = get(&app, &format!("/c/{}/history?round=10", d.chess)).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(
        a.body
            .contains("Field “round”: no event belongs to round 10")
    );
}

/// What the history's filters read of every event of `id` (a competition
/// of format `F`), checked against the competition itself: every version
/// once, in order; each player an event is about is one of its players by
/// that exact name; each round one it has; a result names its two players
/// and its round.
async fn check_concerns<F: arbiter_service::Format>(svc: &Service<SqliteStore>, id: &str) {
    let (_, lines) = svc.history_lines::<F>(id).await.unwrap();
    let version = svc.summary(id).await.unwrap().version;
    assert_eq!(lines.len() as u64, version, "{id}");
    let (rounds, unknown) = svc
        .read_as::<F, _>(id, |s, _| {
            let unknown: Vec<String> = lines
                .iter()
                .flat_map(|l| l.concerns.players.iter())
                .filter(|n| s.player_named(n).is_none())
                .cloned()
                .collect();
            (s.rounds() as u32, unknown)
        })
        .await
        .unwrap();
    assert!(unknown.is_empty(), "{id}: names no player has: {unknown:?}");
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l.seq, i as u64 + 1, "{id}");
        if let Some(r) = l.concerns.round {
            assert!(
                (1..=rounds).contains(&r),
                "{id} #{}: round {r} of {rounds}",
                l.seq
            );
        }
        let result = l.kind.ends_with("result-recorded")
            || l.kind == "result-recorded"
            || l.kind == "round-robin-result";
        if result && !l.reverted {
            assert_eq!(
                l.concerns.players.len(),
                2,
                "{id} #{}: {}",
                l.seq,
                l.sentence
            );
            for p in &l.concerns.players {
                assert!(
                    l.sentence.contains(p.rsplit(' ').next().unwrap()),
                    "{id} #{}: {p} in {}",
                    l.seq,
                    l.sentence
                );
            }
            // A ladder's quick-round game is in no round (it counts for
            // the statistics only).
            if !l.sentence.contains(" Quick Round ") {
                assert!(
                    l.concerns.round.is_some(),
                    "{id} #{}: {}",
                    l.seq,
                    l.sentence
                );
            }
        }
    }
}

#[tokio::test]
async fn every_event_of_every_format_is_about_players_and_rounds_it_has() {
    use arbiter_engine::roundrobin::RoundRobin;
    use arbiter_engine::sunjang::season::League as Sunjang;
    use arbiter_engine::tws::Ladder;
    use arbiter_engine::xmadn::challengers::Challengers;
    use arbiter_engine::xmadn::league::League;
    let d = demo();
    let svc = Service::new(SqliteStore::open(&d.path).await.unwrap());
    check_concerns::<Ladder>(&svc, &d.ladder).await;
    check_concerns::<League>(&svc, &d.league).await;
    check_concerns::<Challengers>(&svc, &d.challengers).await;
    check_concerns::<Sunjang>(&svc, &d.sunjang).await;
    let r = round_robins();
    let svc = Service::new(SqliteStore::open(&r.path).await.unwrap());
    check_concerns::<RoundRobin>(&svc, &r.euro).await;
    check_concerns::<RoundRobin>(&svc, &r.chess).await;
}
