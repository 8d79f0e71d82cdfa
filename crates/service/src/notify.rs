//! What a webhook is told (issue 18 §3): which stored events notify, and
//! the bodies that carry them — the generic JSON document and Discord's.
//! The sentence is the history's ([`crate::Format::describe`]), so a
//! notification says what the history page says.
//!
//! Which events notify is read from the stored kind alone (every format's
//! kinds are listed in [`NotificationKind::of`]); the others are delivered
//! to nobody (the worker finishes their outbox rows without a request).
//!
//! Two notifications are not an event's own (docs/webhooks.md, "Deadline
//! approaching" and "Standings changed at the top"); each is an outbox row
//! with a topic:
//! - `standings` ([`STANDINGS_TOPIC`]): written by the worker when it
//!   handles the row of an event that may move the standings
//!   ([`Service::follow_ups`]); it notifies only if the leaders of a table
//!   differ between the state before the event and after it, each from the
//!   format's own standings view ([`crate::format::Format::top`]). The
//!   comparison folds the log twice, so it is made here, when the body is
//!   built, never in the append's trigger.
//! - `deadline:G12:<unix seconds>` ([`deadline_topic`]): a game still to be
//!   played whose deadline is within the server's lead time, from the
//!   games the calendars date at their deadline
//!   ([`crate::views::calendar::CalendarSource::due`]), made once per
//!   competition, game and deadline ([`Service::approaching_deadlines`],
//!   the store's `enqueue_notice`): a changed deadline is a new topic.

use arbiter_engine::model::Time;
use arbiter_store::{EventStore, MAX_TOPIC, Seq};
use serde::Serialize;

use crate::views::calendar::CalendarSource as _;
use crate::{Result, Service};

/// The topic of a "standings changed at the top" row.
pub const STANDINGS_TOPIC: &str = "standings";
/// The prefix of a "deadline approaching" row's topic.
const DEADLINE_PREFIX: &str = "deadline:";

/// The topic of the "deadline approaching" notice of game `game` due at
/// `deadline`: `deadline:G12:1797724740`. Another deadline (a round's
/// deadline set again) is another topic, so it notifies again.
pub fn deadline_topic(game: &str, deadline: Time) -> String {
    format!("{DEADLINE_PREFIX}{game}:{}", deadline.timestamp())
}

/// The game and deadline (unix seconds) a deadline topic names.
fn parse_deadline_topic(topic: &str) -> Option<(&str, i64)> {
    let (game, at) = topic.strip_prefix(DEADLINE_PREFIX)?.rsplit_once(':')?;
    Some((game, at.parse().ok()?))
}

/// How many places a top shows (the first place decides whether it
/// changed; the next ones are named as those it is ahead of).
pub const TOP_PLACES: usize = 3;

/// The top of one table, as "standings changed at the top" compares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Top {
    /// The table's name where a competition has several ("group A1"),
    /// empty where it has one.
    pub table: String,
    /// (place, name), best first: everyone sharing the first place, then
    /// the next places up to [`TOP_PLACES`] in all.
    pub places: Vec<(usize, String)>,
}

impl Top {
    /// The top of table `table` from its rows in order, (place, name):
    /// everyone sharing the first place, then whole places while they fit
    /// in [`TOP_PLACES`] rows (a place shared beyond them is left out
    /// rather than named in part). A table that has not `started` (no
    /// result counts yet: its order is only the seeding) has no places.
    /// Reads only the rows it needs.
    pub fn of(table: &str, started: bool, rows: impl IntoIterator<Item = (usize, String)>) -> Self {
        let mut places: Vec<(usize, String)> = Vec::new();
        let mut rows = rows.into_iter().peekable();
        if let Some(first) = rows.peek().map(|r| r.0).filter(|_| started) {
            while let Some(row) = rows.next_if(|r| r.0 == first) {
                places.push(row);
            }
            while places.len() < TOP_PLACES {
                let Some(place) = rows.peek().map(|r| r.0) else {
                    break;
                };
                let mut shared = Vec::new();
                while let Some(row) = rows.next_if(|r| r.0 == place) {
                    shared.push(row);
                }
                if places.len() + shared.len() > TOP_PLACES {
                    break;
                }
                places.extend(shared);
            }
        }
        Self {
            table: table.to_owned(),
            places,
        }
    }

    /// The players in the first place, sorted (a shared first place is a
    /// tie of several).
    pub fn leaders(&self) -> Vec<&str> {
        let first = self.places.first().map(|p| p.0);
        let mut out: Vec<&str> = self
            .places
            .iter()
            .filter(|p| Some(p.0) == first)
            .map(|p| p.1.as_str())
            .collect();
        out.sort_unstable();
        out
    }
}

/// The tables of `after` whose leaders differ from the same table's in
/// `before`, each with the sentence that says so. A table in only one of
/// them (another season's group) is not compared; one that had no leader
/// before (no result yet) gets its first; one left without a leader (an
/// undo of its only result) says nothing.
pub fn top_changes(before: &[Top], after: &[Top]) -> Vec<(Top, String)> {
    let mut out = Vec::new();
    for now in after {
        let Some(then) = before.iter().find(|t| t.table == now.table) else {
            continue;
        };
        let old = then.leaders();
        let new = now.leaders();
        if new.is_empty() || old == new {
            continue;
        }
        let mut sentence = String::new();
        if !now.table.is_empty() {
            sentence.push_str(&format!("{}: ", capitalized(&now.table)));
        }
        let leaders = crate::views::list_words(&new, "and");
        if new.len() == 1 {
            sentence.push_str(&format!("{leaders} now leads"));
        } else {
            sentence.push_str(&format!("{leaders} now share the lead"));
        }
        let rest: Vec<&str> = now
            .places
            .iter()
            .filter(|p| !new.contains(&p.1.as_str()))
            .map(|p| p.1.as_str())
            .collect();
        if !rest.is_empty() {
            sentence.push_str(&format!(
                ", ahead of {}",
                crate::views::list_words(&rest, "and")
            ));
        }
        if old.is_empty() {
            sentence.push_str(if new.len() == 1 {
                " (the first leader)."
            } else {
                " (the first leaders)."
            });
        } else {
            let verb = if old.len() == 1 {
                "led"
            } else {
                "shared the lead"
            };
            sentence.push_str(&format!(
                "; before, {} {verb}.",
                crate::views::list_words(&old, "and")
            ));
        }
        out.push((now.clone(), sentence));
    }
    out
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The kinds of notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotificationKind {
    /// A round (or a schedule, a playoff) announced: pairings, sides,
    /// deadlines.
    RoundAnnounced,
    /// A result recorded, corrected or confirmed.
    ResultRecorded,
    /// A player reported a result that waits for the opponent or a
    /// moderator to confirm.
    ReportAwaitingConfirmation,
    /// A round (or a season) closed.
    RoundClosed,
    /// A Sunjang season planned.
    SeasonPlanned,
    /// A game still to be played is due within the server's lead time.
    DeadlineApproaching,
    /// The leader of a table changed after a result, a correction, a
    /// close or an undo.
    StandingsChanged,
}

impl NotificationKind {
    /// The notification of an event of stored kind `kind`, if it notifies.
    pub fn of(kind: &str) -> Option<Self> {
        use NotificationKind::*;
        Some(match kind {
            // TWS ladder; round-robin league; XMadn league playoffs.
            "round-announced" | "round-robin-started" | "league-playoff-started" => RoundAnnounced,
            "result-recorded"
            | "result-corrected"
            | "result-confirmed"
            | "round-robin-result"
            | "round-robin-result-corrected"
            | "league-result-recorded"
            | "league-result-corrected"
            | "league-playoff-game-played"
            | "challengers-game-played"
            | "challengers-qualifier-played"
            | "sunjang-result-recorded"
            | "sunjang-result-corrected"
            | "sunjang-final-game-played"
            | "sunjang-live-match-won" => ResultRecorded,
            "result-reported" => ReportAwaitingConfirmation,
            "league-result-reported" => ReportAwaitingConfirmation,
            "challengers-result-reported" => ReportAwaitingConfirmation,
            "sunjang-result-reported" => ReportAwaitingConfirmation,
            "round-closed" | "sunjang-season-closed" => RoundClosed,
            "sunjang-season-planned" => SeasonPlanned,
            _ => return None,
        })
    }

    /// Whether an event of stored kind `kind` may change who leads a
    /// table: a result (recorded, corrected, confirmed), a round's or a
    /// season's close, an undo.
    pub fn moves_standings(kind: &str) -> bool {
        use NotificationKind::*;
        kind == "reverted" || matches!(Self::of(kind), Some(ResultRecorded | RoundClosed))
    }

    /// The kebab-case name the generic body carries.
    pub fn as_str(self) -> &'static str {
        use NotificationKind::*;
        match self {
            RoundAnnounced => "round-announced",
            ResultRecorded => "result-recorded",
            ReportAwaitingConfirmation => "report-awaiting-confirmation",
            RoundClosed => "round-closed",
            SeasonPlanned => "season-planned",
            DeadlineApproaching => "deadline-approaching",
            StandingsChanged => "standings-changed",
        }
    }

    /// A title in words, for Discord's embed.
    pub fn title(self) -> &'static str {
        use NotificationKind::*;
        match self {
            RoundAnnounced => "Round announced",
            ResultRecorded => "Result recorded",
            ReportAwaitingConfirmation => "Result reported, waiting for confirmation",
            RoundClosed => "Round closed",
            SeasonPlanned => "Season planned",
            DeadlineApproaching => "Deadline approaching",
            StandingsChanged => "Standings changed at the top",
        }
    }
}

/// One notification: an event of a competition, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    /// The idempotency id receivers deduplicate by (the outbox row's).
    pub id: String,
    pub competition: String,
    /// The competition's name.
    pub name: String,
    /// The event's sequence: the competition's version once it was stored.
    pub version: Seq,
    pub kind: NotificationKind,
    /// The history's sentence.
    pub text: String,
    /// One line per game of an announced ladder round: its pairing, sides
    /// with their reason, moderator and deadline; the game whose deadline
    /// approaches (empty otherwise).
    pub games: Vec<String>,
    /// The new top of each table whose leader changed, a line per place
    /// ("1. Ana Morales", "Group A1: 1. Ben Li"); empty for other kinds.
    pub top: Vec<String>,
    /// The deadline that approaches (RFC 3339), for that kind.
    pub deadline: Option<String>,
    /// When the event was stored (RFC 3339); for a deadline, when the
    /// version the notice was made at was stored.
    pub at: String,
    /// The competition's public page.
    pub url: String,
}

/// Discord's limits (characters): a message's content, an embed's title
/// and description.
const DISCORD_CONTENT: usize = 2000;
const DISCORD_TITLE: usize = 256;
const DISCORD_DESCRIPTION: usize = 4096;

/// `text` cut to `max` characters, an ellipsis marking the cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

impl Notification {
    /// The sentence, then a line per game or place.
    fn description(&self) -> String {
        let mut out = self.text.clone();
        for line in self.games.iter().chain(&self.top) {
            out.push_str("\n• ");
            out.push_str(line);
        }
        out
    }

    /// The generic body: `{"id", "competition", "name", "version", "kind",
    /// "text", "games", "at", "url"}`, and `top` for "standings changed at
    /// the top", `deadline` for "deadline approaching" (docs/webhooks.md).
    pub fn generic_body(&self) -> String {
        let mut body = serde_json::json!({
            "id": self.id,
            "competition": self.competition,
            "name": self.name,
            "version": self.version,
            "kind": self.kind.as_str(),
            "text": self.text,
            "games": self.games,
            "at": self.at,
            "url": self.url,
        });
        if self.kind == NotificationKind::StandingsChanged {
            body["top"] = serde_json::json!(self.top);
        }
        if let Some(deadline) = &self.deadline {
            body["deadline"] = serde_json::json!(deadline);
        }
        body.to_string()
    }

    /// Discord's execute-webhook body: `content` and one embed, within
    /// Discord's limits (a longer sentence is cut, its full text stays on
    /// the linked page).
    pub fn discord_body(&self) -> String {
        let content = format!("**{}**: {}", self.name, self.kind.title());
        serde_json::json!({
            "content": cut(&content, DISCORD_CONTENT),
            "embeds": [{
                "title": cut(&format!("{} — {}", self.kind.title(), self.name), DISCORD_TITLE),
                "description": cut(&self.description(), DISCORD_DESCRIPTION),
                "url": self.url,
            }],
            "allowed_mentions": { "parse": [] },
        })
        .to_string()
    }
}

impl<S: EventStore> Service<S> {
    /// The notification of outbox row (`competition`, `seq`, `topic`), with
    /// idempotency id `id` and the competition's page under `base_url`:
    /// the event's own (`topic` empty), the standings' change it made, or
    /// an approaching deadline. `None` when there is nothing to say: the
    /// event does not notify or does not exist, the leaders did not change,
    /// the game was decided or its deadline moved since.
    pub async fn notification(
        &self,
        competition: &str,
        seq: Seq,
        topic: &str,
        id: &str,
        base_url: &str,
    ) -> Result<Option<Notification>> {
        let url = format!("{}/c/{competition}", base_url.trim_end_matches('/'));
        if topic == STANDINGS_TOPIC {
            return self.standings_changed(competition, seq, id, url).await;
        }
        if let Some((game, at)) = parse_deadline_topic(topic) {
            return self
                .deadline_approaching(competition, seq, game, at, id, url)
                .await;
        }
        if !topic.is_empty() {
            return Ok(None);
        }
        self.event_notification(competition, seq, id, url).await
    }

    /// The rows the row of event `seq` adds when the worker handles it:
    /// [`STANDINGS_TOPIC`] for an event that may move the standings.
    pub async fn follow_ups(&self, competition: &str, seq: Seq) -> Result<Vec<&'static str>> {
        let stored = self.store().read(competition, seq, Some(seq)).await?;
        Ok(stored
            .first()
            .filter(|e| NotificationKind::moves_standings(&e.kind))
            .map(|_| vec![STANDINGS_TOPIC])
            .unwrap_or_default())
    }

    /// The "deadline approaching" topics of `competition` at `now`: its
    /// games still to be played whose deadline is after `now` and at most
    /// `lead` later, with the competition's version (what the notices are
    /// made at).
    pub async fn approaching_deadlines(
        &self,
        competition: &str,
        now: Time,
        lead: chrono::Duration,
    ) -> Result<(Seq, Vec<String>)> {
        let format = self.format_of(competition).await?;
        crate::with_format!(format, |F| {
            self.read_as::<F, _>(competition, |state, version| {
                let topics = state
                    .due(competition)
                    .into_iter()
                    .filter(|d| d.deadline > now && d.deadline - now <= lead)
                    .map(|d| deadline_topic(&d.game, d.deadline))
                    .filter(|t| t.len() <= MAX_TOPIC)
                    .collect();
                (version, topics)
            })
            .await
        })
    }

    /// When event `seq` was stored (RFC 3339), empty if it is not there.
    async fn recorded_at(&self, competition: &str, seq: Seq) -> Result<String> {
        Ok(self
            .store()
            .read(competition, seq, Some(seq))
            .await?
            .into_iter()
            .next()
            .map(|e| e.recorded_at)
            .unwrap_or_default())
    }

    /// "Standings changed at the top" after event `seq`: the tables whose
    /// leaders differ between the state before it and after it.
    async fn standings_changed(
        &self,
        competition: &str,
        seq: Seq,
        id: &str,
        url: String,
    ) -> Result<Option<Notification>> {
        if seq < 2 {
            return Ok(None);
        }
        let Some(stored) = self
            .store()
            .read(competition, seq, Some(seq))
            .await?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let format = self.format_of(competition).await?;
        let (name, before, after) = crate::with_format!(format, |F| {
            let event = crate::decode_stored::<F>(competition, &stored)?;
            // One fold: the log up to the event, then the event applied;
            // an undo changes what came before it, so after one the log
            // is folded again up to it.
            let (mut state, version) = self.load_as::<F>(competition, Some(seq - 1)).await?;
            let before = state.top(competition, version);
            if F::reverted(&event).is_some() {
                state = self.load_as::<F>(competition, Some(seq)).await?.0;
            } else {
                crate::apply_stored(competition, &mut state, seq, &event)?;
            }
            (
                state.title().to_string(),
                before,
                state.top(competition, seq),
            )
        });
        let changes = top_changes(&before, &after);
        if changes.is_empty() {
            return Ok(None);
        }
        let text = changes
            .iter()
            .map(|(_, sentence)| sentence.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let top = changes
            .iter()
            .flat_map(|(t, _)| {
                let prefix = if t.table.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", capitalized(&t.table))
                };
                t.places
                    .iter()
                    .map(move |(place, player)| format!("{prefix}{place}. {player}"))
            })
            .collect();
        Ok(Some(Notification {
            id: id.to_owned(),
            competition: competition.to_owned(),
            name,
            version: seq,
            kind: NotificationKind::StandingsChanged,
            text,
            games: Vec::new(),
            top,
            deadline: None,
            at: self.recorded_at(competition, seq).await?,
            url,
        }))
    }

    /// "Deadline approaching" for `game`, due at `at` (unix seconds), made
    /// at version `seq`: `None` once the game is decided or cancelled or
    /// its deadline is another.
    async fn deadline_approaching(
        &self,
        competition: &str,
        seq: Seq,
        game: &str,
        at: i64,
        id: &str,
        url: String,
    ) -> Result<Option<Notification>> {
        let format = self.format_of(competition).await?;
        let (name, zone, due) = crate::with_format!(format, |F| {
            self.read_as::<F, _>(competition, |state, _| {
                (
                    state.title().to_string(),
                    arbiter_engine::zone::Zoned::zone(state),
                    state
                        .due(competition)
                        .into_iter()
                        .find(|d| d.game == game && d.deadline.timestamp() == at),
                )
            })
            .await?
        });
        let Some(due) = due else {
            return Ok(None);
        };
        let players = due.players.join(" v. ");
        let moderator = due
            .moderator
            .as_deref()
            .map(|m| format!(" (moderator: {m})"))
            .unwrap_or_default();
        let text = format!(
            "{}, {players}, is due by {}{moderator}: the deadline is near and the game is \
             still to be played.",
            due.game,
            zone.minute(due.deadline)
        );
        let line = format!(
            "{}: {players}; moderator {}; deadline {}",
            due.game,
            due.moderator.as_deref().unwrap_or("-"),
            zone.minute(due.deadline)
        );
        Ok(Some(Notification {
            id: id.to_owned(),
            competition: competition.to_owned(),
            name,
            version: seq,
            kind: NotificationKind::DeadlineApproaching,
            text,
            games: vec![line],
            top: Vec::new(),
            deadline: Some(
                due.deadline
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            ),
            at: self.recorded_at(competition, seq).await?,
            url,
        }))
    }

    /// The event's own notification.
    async fn event_notification(
        &self,
        competition: &str,
        seq: Seq,
        id: &str,
        url: String,
    ) -> Result<Option<Notification>> {
        let Some(stored) = self
            .store()
            .read(competition, seq, Some(seq))
            .await?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let Some(kind) = NotificationKind::of(&stored.kind) else {
            return Ok(None);
        };
        let format = self.format_of(competition).await?;
        let (name, text) = crate::with_format!(format, |F| {
            let event = crate::decode_stored::<F>(competition, &stored)?;
            self.read_as::<F, _>(competition, |state, _| {
                (state.title().to_string(), state.describe(&event))
            })
            .await?
        });
        let games = if kind == NotificationKind::RoundAnnounced
            && format == crate::format::CompetitionFormat::TwsLadder
        {
            self.announced_games(competition, &stored).await?
        } else {
            Vec::new()
        };
        Ok(Some(Notification {
            games,
            top: Vec::new(),
            deadline: None,
            id: id.to_owned(),
            competition: competition.to_owned(),
            name,
            version: seq,
            kind,
            text,
            at: stored.recorded_at,
            url,
        }))
    }
}

impl<S: EventStore> Service<S> {
    /// The games of the ladder round a stored `round-announced` event
    /// announced, one line each, as the ladder has them now.
    async fn announced_games(
        &self,
        competition: &str,
        stored: &arbiter_store::StoredEvent,
    ) -> Result<Vec<String>> {
        use arbiter_engine::tws::{Event, Ladder};
        let Event::RoundAnnounced(announced) = crate::decode_stored::<Ladder>(competition, stored)?
        else {
            return Ok(Vec::new());
        };
        let (number, at) = (announced.round, announced.at);
        self.read(competition, |ladder, _| {
            ladder
                .rounds
                .iter()
                .find(|r| r.number == number)
                .map(|r| {
                    crate::views::round_view(ladder, competition, r, at)
                        .games
                        .iter()
                        .map(|g| {
                            format!(
                                "{}: {} (USSR) v. {} (US); moderator {}; deadline {}; sides: {}",
                                g.id,
                                g.ussr,
                                g.us,
                                g.moderator.as_deref().unwrap_or("-"),
                                g.deadline.as_deref().unwrap_or("-"),
                                g.sides.line()
                            )
                        })
                        .collect()
                })
                .unwrap_or_default()
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_its_name_and_unknown_kinds_do_not_notify() {
        assert_eq!(
            NotificationKind::of("round-announced"),
            Some(NotificationKind::RoundAnnounced)
        );
        assert_eq!(
            NotificationKind::of("result-reported"),
            Some(NotificationKind::ReportAwaitingConfirmation)
        );
        assert_eq!(NotificationKind::of("account-linked"), None);
        assert_eq!(NotificationKind::of(""), None);
    }

    #[test]
    fn results_closes_and_undos_move_the_standings_and_nothing_else_does() {
        for kind in [
            "result-recorded",
            "round-robin-result-corrected",
            "sunjang-season-closed",
            "round-closed",
            "reverted",
        ] {
            assert!(NotificationKind::moves_standings(kind), "{kind}");
        }
        for kind in ["round-announced", "result-reported", "player-added", ""] {
            assert!(!NotificationKind::moves_standings(kind), "{kind}");
        }
    }

    #[test]
    fn deadline_topics_round_trip() {
        use chrono::TimeZone;
        let t = chrono::Utc
            .with_ymd_and_hms(2026, 12, 19, 23, 59, 0)
            .single()
            .unwrap_or_default();
        let topic = deadline_topic("G12", t);
        assert_eq!(topic, format!("deadline:G12:{}", t.timestamp()));
        assert_eq!(parse_deadline_topic(&topic), Some(("G12", t.timestamp())));
        assert_eq!(parse_deadline_topic("standings"), None);
        assert_eq!(parse_deadline_topic("deadline:G12:x"), None);
    }

    fn top(table: &str, rows: &[(usize, &str)]) -> Top {
        Top::of(table, true, rows.iter().map(|(p, n)| (*p, (*n).to_owned())))
    }

    #[test]
    fn a_top_keeps_the_first_places_and_every_shared_first() {
        let t = top("", &[(1, "A"), (2, "B"), (3, "C"), (4, "D")]);
        assert_eq!(t.places.len(), 3);
        assert_eq!(t.leaders(), vec!["A"]);
        let shared = top("", &[(1, "D"), (1, "B"), (1, "C"), (1, "A"), (5, "E")]);
        assert_eq!(shared.leaders(), vec!["A", "B", "C", "D"]);
        assert_eq!(shared.places.len(), 4);
        let second = top("", &[(1, "A"), (2, "B"), (2, "C"), (2, "D"), (5, "E")]);
        assert_eq!(
            second.places,
            vec![(1, "A".to_owned())],
            "a second place shared beyond the top is not named in part"
        );
        let fits = top("", &[(1, "A"), (2, "B"), (2, "C"), (4, "D")]);
        assert_eq!(fits.places.len(), 3);
        assert!(Top::of("", true, std::iter::empty()).places.is_empty());
        let seeded = Top::of("", false, [(1, "A".to_owned()), (2, "B".to_owned())]);
        assert!(seeded.places.is_empty() && seeded.leaders().is_empty());
    }

    #[test]
    fn only_a_new_leader_is_a_change_and_the_sentence_says_who_and_before_whom() {
        let before = [top(
            "",
            &[(1, "Ben Li"), (2, "Ana Morales"), (3, "Cy Dodd")],
        )];
        let same = [top(
            "",
            &[(1, "Ben Li"), (2, "Cy Dodd"), (3, "Ana Morales")],
        )];
        assert!(
            top_changes(&before, &same).is_empty(),
            "the same leader, the places behind him reordered"
        );
        let after = [top(
            "",
            &[(1, "Ana Morales"), (2, "Ben Li"), (3, "Cy Dodd")],
        )];
        let changes = top_changes(&before, &after);
        assert_eq!(changes.len(), 1);
        assert_eq!(
            changes[0].1,
            "Ana Morales now leads, ahead of Ben Li and Cy Dodd; before, Ben Li led."
        );
        let unstarted = [Top::of("", false, [(1, "Ben Li".to_owned())])];
        let first = top_changes(&unstarted, &after);
        assert_eq!(
            first[0].1,
            "Ana Morales now leads, ahead of Ben Li and Cy Dodd (the first leader)."
        );
        assert!(
            top_changes(&after, &unstarted).is_empty(),
            "a table left without a leader says nothing"
        );
        assert!(
            top_changes(&[top("season 1, group A1", &[(1, "X")])], &after).is_empty(),
            "another table is not compared"
        );
        let groups = [
            top("season 2, group A1", &[(1, "X"), (1, "Y"), (3, "Z")]),
            top("season 2, group B1", &[(1, "P")]),
        ];
        let changes = top_changes(
            &[
                top("season 2, group A1", &[(1, "X")]),
                top("season 2, group B1", &[(1, "P")]),
            ],
            &groups,
        );
        assert_eq!(changes.len(), 1);
        assert_eq!(
            changes[0].1,
            "Season 2, group A1: X and Y now share the lead, ahead of Z; before, X led."
        );
    }

    #[test]
    fn discord_bodies_stay_within_discords_limits() {
        let n = Notification {
            id: "c:1:w".into(),
            competition: "c".into(),
            name: "N".repeat(5000),
            version: 1,
            kind: NotificationKind::RoundAnnounced,
            text: "é".repeat(10_000),
            games: vec!["G1: A (USSR) v. B (US)".into()],
            top: Vec::new(),
            deadline: None,
            at: "2026-01-01T00:00:00Z".into(),
            url: "https://x/c/c".into(),
        };
        let body: serde_json::Value = serde_json::from_str(&n.discord_body()).unwrap_or_default();
        let len = |v: &serde_json::Value| v.as_str().map_or(usize::MAX, |s| s.chars().count());
        assert!(len(&body["content"]) <= DISCORD_CONTENT);
        assert!(len(&body["embeds"][0]["title"]) <= DISCORD_TITLE);
        assert_eq!(len(&body["embeds"][0]["description"]), DISCORD_DESCRIPTION);
        let generic: serde_json::Value =
            serde_json::from_str(&n.generic_body()).unwrap_or_default();
        assert_eq!(generic["kind"], "round-announced");
        assert_eq!(generic["version"], 1);
        assert_eq!(generic["id"], "c:1:w");
    }
}
