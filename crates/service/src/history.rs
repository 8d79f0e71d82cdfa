//! A competition's history in words, for every format: each event as the
//! sentence [`Format::describe`] writes (the one the CLI's `history`
//! prints), with what it is about — the players it names and the round it
//! belongs to ([`Format::concerns`]) — so that a reader can filter it
//! (issue 17 §3). The web's history page reads it; the stored record stays
//! beside each line for experts.

use arbiter_store::{EventStore, Seq};

use crate::{Format, Result, Service};

/// What an event is about: the players it names, by the names the
/// sentence uses, and the round it belongs to (in the format's own word,
/// [`Format::ROUND`]: a ladder's round, a league's double round-robin, a
/// Challengers game, a Sunjang season), when it belongs to one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Concerns {
    pub players: Vec<String>,
    pub round: Option<u32>,
}

impl Concerns {
    /// About these players, in no round.
    pub fn players(players: impl IntoIterator<Item = String>) -> Self {
        Self {
            players: players.into_iter().collect(),
            round: None,
        }
    }

    /// About these players, in round `round`.
    pub fn in_round(round: u32, players: impl IntoIterator<Item = String>) -> Self {
        Self {
            players: players.into_iter().collect(),
            round: Some(round),
        }
    }

    /// About nobody in particular, in no round.
    pub fn nothing() -> Self {
        Self::default()
    }
}

/// One event of the history, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryLine {
    /// Its version number: the competition's version once it was stored.
    pub seq: Seq,
    /// The stored kind ("round-announced").
    pub kind: String,
    /// Who did it: the account or name the event was recorded under.
    pub actor: String,
    /// When it was stored (RFC 3339, UTC).
    pub recorded_at: String,
    /// The event in words, as the CLI's `history` prints it.
    pub sentence: String,
    /// Undone by a later event.
    pub reverted: bool,
    /// The event this one undoes.
    pub undoes: Option<Seq>,
    /// The players it names and its round (an undo: those of what it
    /// undoes).
    pub concerns: Concerns,
    /// The stored record, as stored (JSON).
    pub record: String,
}

/// What a reader asks of the history: the events naming one player and/or
/// belonging to one round.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryFilter {
    /// A player's name exactly as the lines give it.
    pub player: Option<String>,
    pub round: Option<u32>,
}

impl HistoryFilter {
    pub fn is_empty(&self) -> bool {
        self.player.is_none() && self.round.is_none()
    }

    pub fn admits(&self, line: &HistoryLine) -> bool {
        self.player
            .as_ref()
            .is_none_or(|p| line.concerns.players.iter().any(|n| n == p))
            && self.round.is_none_or(|r| line.concerns.round == Some(r))
    }
}

/// The players the lines name, sorted and once each (a filter's choices).
pub fn players_named(lines: &[HistoryLine]) -> Vec<String> {
    let mut names: Vec<String> = lines
        .iter()
        .flat_map(|l| l.concerns.players.iter().cloned())
        .collect();
    names.sort_by_key(|n| n.to_lowercase());
    names.dedup();
    names
}

/// The rounds the lines belong to, in order, once each.
pub fn rounds_named(lines: &[HistoryLine]) -> Vec<u32> {
    let mut rounds: Vec<u32> = lines.iter().filter_map(|l| l.concerns.round).collect();
    rounds.sort_unstable();
    rounds.dedup();
    rounds
}

/// The history of `state`'s competition in words, oldest first: each
/// entry's sentence and concerns written with `state` (its players' names
/// as they are now).
pub fn lines<F: Format>(state: &F, history: &[crate::HistoryEntry<F::Event>]) -> Vec<HistoryLine> {
    let mut out: Vec<HistoryLine> = history
        .iter()
        .map(|h| HistoryLine {
            seq: h.seq,
            kind: h.kind.clone(),
            actor: h.actor.clone(),
            recorded_at: h.recorded_at.clone(),
            sentence: state.describe(&h.event),
            reverted: h.reverted,
            undoes: F::reverted(&h.event),
            concerns: state.concerns(&h.event),
            record: F::encode(&h.event),
        })
        .collect();
    // An undo is about what it undid. Sequences run 1, 2, 3 … without
    // gaps, so the entry of `seq` is at `seq - 1` when the log is whole.
    for i in 0..out.len() {
        if let Some(target) = out[i].undoes {
            let at = usize::try_from(target.wrapping_sub(1)).ok();
            let found = at
                .and_then(|k| out.get(k))
                .filter(|l| l.seq == target)
                .or_else(|| out.iter().find(|l| l.seq == target))
                .map(|l| l.concerns.clone());
            if let Some(c) = found {
                out[i].concerns = c;
            }
        }
    }
    out
}

impl<S: EventStore> Service<S> {
    /// The history of competition `competition` (of format `F`) in words,
    /// oldest first, with its name: what the web's history page shows and
    /// filters.
    pub async fn history_lines<F: Format>(
        &self,
        competition: &str,
    ) -> Result<(String, Vec<HistoryLine>)> {
        let history = self.history_of::<F>(competition, None).await?;
        self.read_as::<F, _>(competition, |state, _| {
            (state.title().to_string(), lines(state, &history))
        })
        .await
    }
}
