//! What a webhook is told (issue 18 §3): which stored events notify, and
//! the bodies that carry them — the generic JSON document and Discord's.
//! The sentence is the history's ([`crate::Format::describe`]), so a
//! notification says what the history page says.
//!
//! Which events notify is read from the stored kind alone (every format's
//! kinds are listed in [`NotificationKind::of`]); the others are delivered
//! to nobody (the worker finishes their outbox rows without a request).

use arbiter_store::{EventStore, Seq};
use serde::Serialize;

use crate::{Result, Service};

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
            "round-closed" | "sunjang-season-closed" => RoundClosed,
            "sunjang-season-planned" => SeasonPlanned,
            _ => return None,
        })
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
    /// with their reason, moderator and deadline (empty otherwise).
    pub games: Vec<String>,
    /// When the event was stored (RFC 3339).
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
    /// The sentence, then a line per game.
    fn description(&self) -> String {
        let mut out = self.text.clone();
        for line in &self.games {
            out.push_str("\n• ");
            out.push_str(line);
        }
        out
    }

    /// The generic body: `{"id", "competition", "name", "version", "kind",
    /// "text", "at", "url"}` (docs/webhooks.md).
    pub fn generic_body(&self) -> String {
        serde_json::json!({
            "id": self.id,
            "competition": self.competition,
            "name": self.name,
            "version": self.version,
            "kind": self.kind.as_str(),
            "text": self.text,
            "games": self.games,
            "at": self.at,
            "url": self.url,
        })
        .to_string()
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
    /// The notification of event `seq` of `competition`, with idempotency
    /// id `id` and the competition's page under `base_url`; `None` when
    /// the event does not notify or does not exist.
    pub async fn notification(
        &self,
        competition: &str,
        seq: Seq,
        id: &str,
        base_url: &str,
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
            id: id.to_owned(),
            competition: competition.to_owned(),
            name,
            version: seq,
            kind,
            text,
            at: stored.recorded_at,
            url: format!("{}/c/{competition}", base_url.trim_end_matches('/')),
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
    fn discord_bodies_stay_within_discords_limits() {
        let n = Notification {
            id: "c:1:w".into(),
            competition: "c".into(),
            name: "N".repeat(5000),
            version: 1,
            kind: NotificationKind::RoundAnnounced,
            text: "é".repeat(10_000),
            games: vec!["G1: A (USSR) v. B (US)".into()],
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
