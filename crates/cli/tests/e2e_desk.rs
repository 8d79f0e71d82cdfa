//! End-to-end: the writes, clicked through in a real headless Chromium on
//! the real `arbiter serve` (see `common/browser.rs` for the helpers and
//! what they need).
//!
//! An organizer (an account made with `arbiter account add --organizer`)
//! creates a ladder, adds four players, previews and announces round 1; a
//! player who registered in the browser reports her game, her opponent
//! confirms it from his desk, the organizer records the other game,
//! previews the close and closes the round, and the public page shows the
//! new order. Everything after the accounts is done by typing and clicking
//! in the browser. Screenshots of the main pages go to
//! `target/screenshots/desk-*.png`.
//!
//! The session cookie is `Secure`: the browser reaches the server as
//! `http://localhost:PORT`, to which browsers send Secure cookies over
//! plain HTTP (Chromium sends them to `http://127.0.0.1:PORT` too, but
//! `localhost` is what the server's documentation promises).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::Arbiter;
use common::browser::{Browser, Driver, Server, add_account, within};
use fantoccini::Locator;
use fantoccini::elements::Element;

/// The bound of the whole browser session.
const WHOLE_TEST: Duration = Duration::from_secs(300);

const PASSWORD: &str = "correct horse battery";
const LADDER: &str = "club-ladder";
const LADDER_NAME: &str = "Club Ladder";
const DESK: &str = "/c/club-ladder/manage";
const PUBLIC: &str = "/c/club-ladder";
const DESK_H1: &str = "Desk of Club Ladder";

const ALICE: &str = "Alice Archer";
const BOB: &str = "Bob Baker";
const CAROL: &str = "Carol Chen";
const DAN: &str = "Dan Duarte";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organizer_runs_a_round_that_players_report_in_chromium() {
    let started = Instant::now();
    // The accounts the browser cannot make: the organizer, and Bob (Alice
    // registers in the browser).
    let arbiter = Arbiter::new();
    add_account(&arbiter, "olivia", "Olivia Organizer", PASSWORD, true);
    add_account(&arbiter, "bob", BOB, PASSWORD, false);
    // Processes first: they are killed when these guards drop, whatever
    // happens below.
    let driver = Driver::start();
    let server = Server::start_on(arbiter).via_localhost();
    let browser = Browser::open(&driver, &server).await;
    let (shots, problems) = tokio::time::timeout(WHOLE_TEST, run_the_round(&browser))
        .await
        .unwrap_or_else(|_| panic!("the click-through did not finish within {WHOLE_TEST:?}"));
    browser.close().await;
    for s in &shots {
        assert!(s.is_file(), "{} was not saved", s.display());
    }
    assert!(
        problems.is_empty(),
        "the click-through went to its end, but the pages have problems:\n- {}",
        problems.join("\n- ")
    );
    println!(
        "end-to-end round on {} in {:.1} s",
        server.url(PUBLIC),
        started.elapsed().as_secs_f64()
    );
}

/// The click-through: the screenshots it saved, and the problems found on
/// the pages that did not stop it (reported together at the end).
async fn run_the_round(b: &Browser) -> (Vec<PathBuf>, Vec<String>) {
    let mut shots = Vec::new();
    let mut problems = Vec::new();

    // 1. Alice registers, and is logged in; she logs out.
    b.goto("/register").await;
    b.wait_for_h1("Create an account").await;
    b.fill(None, "Username", "alice").await;
    b.fill(None, "Name you play under", ALICE).await;
    b.fill(None, "E-mail", "alice@example.org").await;
    b.fill(None, "Password", PASSWORD).await;
    shots.push(b.screenshot("desk-register").await);
    b.click_button(None, "Create the account").await;
    b.wait_for_h1("Your account").await;
    let facts = b.texts("dl.facts dd").await;
    assert_eq!(
        facts[..3],
        ["alice", ALICE, "alice@example.org"],
        "Alice's account after registering"
    );
    b.log_out().await;
    assert_eq!(b.path().await, "/");
    // Logged out: the account page asks to log in.
    b.goto("/account").await;
    b.wait_for_h1("Log in").await;

    // 2. The organizer logs in and creates a ladder.
    b.goto("/login").await;
    b.wait_for_h1("Log in").await;
    b.fill(None, "Username", "olivia").await;
    b.fill(None, "Password", PASSWORD).await;
    shots.push(b.screenshot("desk-login").await);
    b.click_button(None, "Log in").await;
    b.wait_for_h1("Your account").await;
    let new = b
        .xpath_one(
            None,
            "//main//a[@href='/new']",
            "the link to create a ladder",
        )
        .await;
    b.submit_with(&new, "the link to create a ladder").await;
    assert_eq!(b.path().await, "/new");
    choose_the_tws_format(b).await;
    let h1 = b.texts("h1").await;
    assert_eq!(h1, ["New ladder"], "the page to create a ladder");
    b.fill(None, "Address", LADDER).await;
    b.fill(None, "Name", LADDER_NAME).await;
    let rules = b.field(None, "Rules (TOML)").await;
    let preset = within("read the rules", rules.prop("value"))
        .await
        .unwrap_or_default();
    assert!(
        !preset.trim().is_empty(),
        "the rules are prefilled from the preset"
    );
    shots.push(b.screenshot("desk-new-ladder").await);
    let create = b
        .xpath_one(
            None,
            "//main//form[@method='post']//button[starts-with(normalize-space(), 'Create the')]",
            "the button to create the ladder",
        )
        .await;
    b.submit_with(&create, "the button to create the ladder")
        .await;
    b.wait_for_h1(DESK_H1).await;
    assert_eq!(b.path().await, DESK);
    let lede = b.text(&b.find("p.lede").await).await;
    assert!(
        lede.starts_with("You are olivia,"),
        "the desk's lede: {lede:?}"
    );

    // 3. Four players, two linked to accounts; the first added is on rung 1.
    for (name, account) in [
        (ALICE, Some("alice")),
        (BOB, Some("bob")),
        (CAROL, None),
        (DAN, None),
    ] {
        let form = add_player_form(b).await;
        b.fill(Some(&form), "Name", name).await;
        if let Some(a) = account {
            b.fill(Some(&form), "Account", a).await;
        }
        b.click_button(Some(&form), "Add the player").await;
        b.wait_for_h1(DESK_H1).await;
        assert_done(b, "The player is on the ladder.").await;
    }
    b.follow("public page", LADDER_NAME).await;
    assert_eq!(b.path().await, PUBLIC);
    assert_eq!(
        b.rungs().await,
        rungs(&[ALICE, BOB, CAROL, DAN]),
        "the ladder in the order the players were added"
    );

    // 4. Round 1: previewed (nothing stored), then announced.
    b.goto(DESK).await;
    b.wait_for_h1(DESK_H1).await;
    let start = b
        .xpath_one(
            None,
            "//h3[starts-with(normalize-space(), 'Start round')]",
            "the heading to start a round",
        )
        .await;
    let start = b.text(&start).await;
    if start != "Start round 1" {
        problems.push(format!(
            "the desk of a new ladder offers {start:?}, not \"Start round 1\""
        ));
    }
    // The desk's queue says the round is due and links to the round's own
    // form, whose button is the one preview of the round on the page
    // (issue 17 §2).
    b.xpath_one(
        None,
        "//section[@id='waiting']//a[@href='#form-announce']",
        "the queue's link to the form that previews a round",
    )
    .await;
    let preview = b
        .xpath_one(
            None,
            "//form[@id='form-announce']//button[starts-with(normalize-space(), 'Preview round')]",
            "the button to preview a round",
        )
        .await;
    let all = b
        .xpath_all(
            None,
            "//button[starts-with(normalize-space(), 'Preview round')]",
        )
        .await;
    if all.len() != 1 {
        problems.push(format!(
            "the desk of a new ladder has {} buttons to preview a round, not one",
            all.len()
        ));
    }
    let label = b.text(&preview).await;
    if label != "Preview round 1" {
        problems.push(format!(
            "the desk of a new ladder has the button {label:?}, not \"Preview round 1\""
        ));
    }
    b.submit_with(&preview, "the button to preview round 1")
        .await;
    b.wait_for_h1("Preview: nothing is stored yet").await;
    let heading = b.texts("main h2").await;
    assert!(
        heading
            .iter()
            .any(|h| h == "Round 1 as it would be announced"),
        "the round preview's headings: {heading:?}"
    );
    preview_names_the_ladder(b, "round preview", &mut problems).await;
    let pairs = game_pairs(b).await;
    assert_eq!(
        pairs.len(),
        2,
        "round 1 has two games in the preview: {pairs:?}"
    );
    let (alice_bob, carol_dan) = split_games(&pairs);
    shots.push(b.screenshot("desk-round-preview").await);
    b.click_button(None, "Announce the round").await;
    b.wait_for_h1(DESK_H1).await;
    assert_done(b, "The round was announced.").await;
    assert_eq!(
        game_pairs(b).await,
        pairs,
        "the games announced are the games previewed"
    );
    for game in [&alice_bob, &carol_dan] {
        let card = game_card(b, game).await;
        let summary = format!("Record the result of {}", game.id);
        let found = b
            .xpath_all(
                Some(&card),
                &format!(".//details/summary[normalize-space()='{summary}']"),
            )
            .await;
        assert_eq!(found.len(), 1, "the organizer may record {game}");
    }
    // The rules changed now take effect from round 2, the next.
    let from = b.field(None, "From round").await;
    let from = within("read the rules' first round", from.prop("value"))
        .await
        .unwrap_or_default();
    if from != "2" {
        problems.push(format!(
            "while round 1 runs, the rules form of the desk proposes round {from:?}, not \"2\""
        ));
    }
    shots.push(b.screenshot("desk-organizer").await);

    // 5. The organizer logs out: the desk then asks to log in.
    b.log_out().await;
    b.goto(DESK).await;
    b.wait_for_h1("Log in").await;
    assert_eq!(b.path().await, "/login", "the desk, logged out");
    let back = b.path_and_query().await;
    assert!(
        back.contains("next=") && back.contains("manage"),
        "the login page comes back to the desk: {back}"
    );

    // 6. Alice logs in (from there: back to the desk) and reports her game
    //    as a win for Bob.
    b.log_in("alice", PASSWORD).await;
    b.wait_for_h1(DESK_H1).await;
    let lede = b.text(&b.find("p.lede").await).await;
    assert!(
        lede.contains(&format!("playing as {ALICE}")),
        "Alice's desk: {lede:?}"
    );
    no_moderator_forms(b, "Alice").await;
    let card = my_game_card(b, &alice_bob).await;
    let text = b.text(&card).await;
    assert!(
        text.contains(&format!("Against {BOB}")),
        "Alice's game: {text:?}"
    );
    b.choose(Some(&card), "Winner", BOB).await;
    b.choose(Some(&card), "Ended by", "concession").await;
    b.fill(Some(&card), "Turn", "6").await;
    b.click_button(Some(&card), "Report it").await;
    b.wait_for_h1(DESK_H1).await;
    assert_done(
        b,
        "Your report was sent; your opponent or a moderator confirms it.",
    )
    .await;
    let card = my_game_card(b, &alice_bob).await;
    assert!(
        b.xpath_all(
            Some(&card),
            ".//button[starts-with(normalize-space(), 'Confirm')]"
        )
        .await
        .is_empty(),
        "Alice cannot confirm her own report"
    );
    b.log_out().await;

    // 7. Bob logs in, sees the report awaiting his confirmation, confirms.
    b.log_in("bob", PASSWORD).await;
    b.wait_for_h1("Your account").await;
    b.follow(&format!("Desk of {LADDER}"), DESK_H1).await;
    no_moderator_forms(b, "Bob").await;
    let card = my_game_card(b, &alice_bob).await;
    let text = b.text(&card).await;
    assert!(
        text.contains(&format!("Against {ALICE}")),
        "Bob's game: {text:?}"
    );
    let report = b
        .text(
            &b.xpath_one(Some(&card), ".//p[contains(@class, 'note')]", "the report")
                .await,
        )
        .await;
    assert!(
        report.contains(ALICE) && report.contains(BOB),
        "the report awaiting Bob's confirmation: {report:?}"
    );
    let confirm = format!("Confirm {ALICE}'s report");
    assert_eq!(
        b.buttons(Some(&card), &confirm).await.len(),
        1,
        "Bob may confirm: {text:?}"
    );
    assert_eq!(
        b.buttons(Some(&card), "Dispute it").await.len(),
        1,
        "Bob may dispute: {text:?}"
    );
    // While round 1 runs, a player may skip the next one, round 2.
    let skip = b
        .xpath_one(
            None,
            "//button[starts-with(normalize-space(), 'Skip round')]",
            "the button to skip a round",
        )
        .await;
    let skip = b.text(&skip).await;
    if skip != "Skip round 2" {
        problems.push(format!(
            "while round 1 runs, a player's desk offers {skip:?}, not \"Skip round 2\""
        ));
    }
    shots.push(b.screenshot("desk-player").await);
    b.click_button(Some(&card), &confirm).await;
    b.wait_for_h1(DESK_H1).await;
    assert_done(b, "Confirmed: the result is recorded.").await;
    b.log_out().await;

    // 8. The organizer records the other game, previews the close and
    //    closes the round.
    b.goto(DESK).await;
    b.wait_for_h1("Log in").await;
    b.log_in("olivia", PASSWORD).await;
    b.wait_for_h1(DESK_H1).await;
    let card = game_card(b, &carol_dan).await;
    let summary = format!("Record the result of {}", carol_dan.id);
    let details = b.open_details(Some(&card), &summary).await;
    b.choose(Some(&details), "Winner", DAN).await;
    b.choose(Some(&details), "Ended by", "concession").await;
    b.fill(Some(&details), "Turn", "8").await;
    b.click_button(Some(&details), "Record").await;
    b.wait_for_h1(DESK_H1).await;
    assert_done(b, "The result was recorded.").await;
    b.click_button(None, "Preview the close").await;
    b.wait_for_h1("Preview: nothing is stored yet").await;
    preview_names_the_ladder(b, "close preview", &mut problems).await;
    let captions = b.captions().await;
    assert!(
        captions
            .iter()
            .any(|c| c == "The moves of the close, each with its rule"),
        "the close preview's tables: {captions:?}"
    );
    let moves = close_moves(b).await;
    // The winners move up, the losers down (Dan, from rung 4, jumps two
    // rungs: TWS Change of Ladder Standings).
    let summary: Vec<(&str, &str, &str)> = moves
        .iter()
        .map(|(p, from, to, _)| (p.as_str(), from.as_str(), to.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            (BOB, "2", "1"),
            (DAN, "4", "2"),
            (ALICE, "1", "3"),
            (CAROL, "3", "4")
        ],
        "the moves of the close"
    );
    for (p, from, to, why) in &moves {
        if from != to {
            assert!(
                why.contains("Rule:") && why.len() > 20,
                "the move of {p} ({from} → {to}) is explained: {why:?}"
            );
        }
    }
    shots.push(b.screenshot("desk-close-preview").await);
    b.click_button(None, "Close the round").await;
    b.wait_for_h1(DESK_H1).await;
    assert_done(b, "The round was closed.").await;
    b.log_out().await;

    // 9. The public page, logged out: the order of the close, Bob on rung 1
    //    above Alice.
    b.goto(PUBLIC).await;
    b.wait_for_h1(LADDER_NAME).await;
    assert_eq!(
        b.rungs().await,
        rungs(&[BOB, DAN, ALICE, CAROL]),
        "the ladder after round 1"
    );
    let champion = b
        .text(
            &b.find("#champion ~ .podium-picture .step-1 .step-name")
                .await,
        )
        .await;
    assert_eq!(champion, BOB, "the champion on the podium's top step");
    shots.push(b.screenshot("desk-ladder-after-close").await);

    (shots, problems)
}

/// `(rung, player)` for `names` from rung 1 down.
fn rungs(names: &[&str]) -> Vec<(String, String)> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| ((i + 1).to_string(), (*n).to_string()))
        .collect()
}

/// When `/new` offers a choice of format, the Twilight Struggle ladder: an
/// option of a list, a radio button, or a link (`?format=…`).
async fn choose_the_tws_format(b: &Browser) {
    let is_tws = |value: &str, label: &str| {
        value.contains("tws") || label.contains("Twilight") || label.contains("TWS")
    };
    for select in b.xpath_all(None, "//main//form//select").await {
        let options = within(
            "read a list's options",
            select.find_all(Locator::Css("option")),
        )
        .await;
        for o in &options {
            let value = within("read an option", o.attr("value"))
                .await
                .unwrap_or_default();
            let label = b.text(o).await;
            if is_tws(&value, &label) {
                within("choose the TWS ladder", select.select_by_value(&value)).await;
                // A list in a form of its own is sent with its button.
                let form = within(
                    "find the list's form",
                    select.find(Locator::XPath("./ancestor::form")),
                )
                .await;
                let method = within("read the form's method", form.attr("method"))
                    .await
                    .unwrap_or_default();
                if !method.eq_ignore_ascii_case("post") {
                    let button = within(
                        "find the button that sends the choice",
                        form.find(Locator::Css("button")),
                    )
                    .await;
                    b.submit_with(&button, "the choice of the TWS ladder").await;
                }
                return;
            }
        }
    }
    for radio in b
        .xpath_all(None, "//main//form//input[@type='radio']")
        .await
    {
        let value = within("read a radio button", radio.attr("value"))
            .await
            .unwrap_or_default();
        if is_tws(&value, "") {
            within("choose the TWS ladder", radio.click()).await;
            return;
        }
    }
    let links = b
        .xpath_all(None, "//main//a[contains(@href, 'format=tws')]")
        .await;
    if let Some(link) = links.first() {
        b.submit_with(link, "the link to a new TWS ladder").await;
        b.wait_for_h1("New ladder").await;
    }
}

/// A preview page is about the ladder: its menu names it, and it says that
/// nothing is stored.
async fn preview_names_the_ladder(b: &Browser, which: &str, problems: &mut Vec<String>) {
    let note = b.text(&b.find("main p.note").await).await;
    assert!(
        note.contains("nothing is stored until you"),
        "the preview says nothing is stored: {note:?}"
    );
    let name = b.text(&b.find("nav.comp-nav .comp-name").await).await;
    if name != LADDER_NAME {
        problems.push(format!(
            "the competition menu of the {which} names {name:?}, not the ladder's name {LADDER_NAME:?}"
        ));
    }
}

/// The form "Add a player" of the desk.
async fn add_player_form(b: &Browser) -> Element {
    b.xpath_one(
        None,
        "//form[.//button[normalize-space()='Add the player']]",
        "the form to add a player",
    )
    .await
}

/// The sentence the desk shows after an action.
async fn assert_done(b: &Browser, expected: &str) {
    let done = b.find_all("#done").await;
    let text = match done.first() {
        Some(d) => b.text(d).await,
        None => String::new(),
    };
    assert_eq!(
        text,
        expected,
        "the desk's answer on {}",
        b.path_and_query().await
    );
}

/// A game of the round: its id and its two players.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Game {
    id: String,
    ussr: String,
    us: String,
}

impl Game {
    fn has(&self, player: &str) -> bool {
        self.ussr == player || self.us == player
    }
}

impl std::fmt::Display for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({} v. {})", self.id, self.ussr, self.us)
    }
}

/// The games of the round as the page lists them: the games table of a
/// preview, or the game cards of a moderator's desk.
async fn game_pairs(b: &Browser) -> Vec<Game> {
    let mut games = Vec::new();
    let rows = b
        .xpath_all(
            None,
            "//table[starts-with(normalize-space(caption), 'Games of round')]/tbody/tr",
        )
        .await;
    if !rows.is_empty() {
        for row in &rows {
            let id = b
                .text(&within("find a game's id", row.find(Locator::Css("th"))).await)
                .await;
            let cells = within("find a game's cells", row.find_all(Locator::Css("td"))).await;
            assert!(cells.len() >= 2, "a game row has its players");
            let ussr = first_link_text(b, &cells[0]).await;
            let us = first_link_text(b, &cells[1]).await;
            games.push(Game { id, ussr, us });
        }
        return games;
    }
    for h in b.texts("section.card > h3").await {
        // "G1: Alice Archer (USSR) v. Bob Baker (US)"
        let (id, rest) = h.split_once(": ").expect("a game's heading");
        let (ussr, us) = rest.split_once(" v. ").expect("a game's heading");
        games.push(Game {
            id: id.to_string(),
            ussr: ussr.trim_end_matches(" (USSR)").to_string(),
            us: us.trim_end_matches(" (US)").to_string(),
        });
    }
    games
}

async fn first_link_text(b: &Browser, cell: &Element) -> String {
    let links = within("find a player's link", cell.find_all(Locator::Css("a"))).await;
    match links.first() {
        Some(a) => b.text(a).await,
        None => b.text(cell).await,
    }
}

/// Alice v. Bob (rungs 1 and 2) and Carol v. Dan (rungs 3 and 4): adjacent
/// rungs are paired.
fn split_games(games: &[Game]) -> (Game, Game) {
    let ab = games
        .iter()
        .find(|g| g.has(ALICE) && g.has(BOB))
        .unwrap_or_else(|| panic!("Alice plays Bob in round 1: {games:?}"));
    let cd = games
        .iter()
        .find(|g| g.has(CAROL) && g.has(DAN))
        .unwrap_or_else(|| panic!("Carol plays Dan in round 1: {games:?}"));
    (ab.clone(), cd.clone())
}

/// The card of `game` in the moderator's part of the desk.
async fn game_card(b: &Browser, game: &Game) -> Element {
    b.xpath_one(
        None,
        &format!("//section[@aria-labelledby='g-{}']", game.id),
        &format!("the moderator's card of {game}"),
    )
    .await
}

/// The card of `game` under "Your games".
async fn my_game_card(b: &Browser, game: &Game) -> Element {
    b.xpath_one(
        None,
        &format!("//section[@aria-labelledby='mine-{}']", game.id),
        &format!("the player's card of {game}"),
    )
    .await
}

/// A player's desk has none of the moderators' forms.
async fn no_moderator_forms(b: &Browser, who: &str) {
    let text = b.main_text().await;
    for absent in [
        "Record the result",
        "Start round",
        "Preview round",
        "Add a player",
        "Close round",
    ] {
        assert!(
            !text.contains(absent),
            "{who}'s desk should not offer {absent:?}:\n{text}"
        );
    }
    assert!(
        b.find_all("section[aria-labelledby^='g-']")
            .await
            .is_empty(),
        "{who}'s desk shows no moderator's game cards"
    );
    for button in ["Add the player", "Record", "Preview the close"] {
        assert!(
            b.buttons(None, button).await.is_empty(),
            "{who}'s desk has no button {button:?}"
        );
    }
}

/// The rows of the close preview: player, from, to, and the explanation's
/// whole text (read from the document, open or not).
async fn close_moves(b: &Browser) -> Vec<(String, String, String, String)> {
    let v = b
        .js(
            "const t = Array.from(document.querySelectorAll('table')).find(t => \
               t.caption && t.caption.textContent.trim() === 'The moves of the close, each with its rule'); \
             return Array.from(t.tBodies[0].rows).map(r => [ \
               r.cells[0].textContent.trim(), r.cells[1].textContent.trim(), \
               r.cells[2].textContent.trim(), r.cells[3].textContent.replace(/\\s+/g, ' ').trim()]);",
        )
        .await;
    v.as_array()
        .expect("the moves")
        .iter()
        .map(|r| {
            let s = |i: usize| r[i].as_str().unwrap_or_default().to_string();
            (s(0), s(1), s(2), s(3))
        })
        .collect()
}
