//! Statistics across an installation: every Twilight Struggle ladder of the
//! store folded into one view (STATISTICS, "for one competition and for all
//! of them").
//!
//! Each ladder's own statistics ([`Ladder::statistics`]) are added up:
//! results by side (ladder games, quick rounds, all), by bid, by how games
//! ended and by game length (the turn a played-out game ended in, when its
//! result gives it). Per-player records are matched across ladders **by
//! name**, compared case-insensitively with surrounding spaces trimmed, as
//! the installation's ratings do: the same name on two ladders is one
//! player (his records and sides are summed, and the ladders are listed),
//! and a player who changes his name is two. The name shown is the one of
//! the first ladder (in the store's order) that has him. Only players with
//! at least one decided game are listed. The other formats have no
//! statistics of this kind and are left out.

use std::collections::{BTreeMap, HashMap};

use arbiter_engine::model::EndTag;
use arbiter_engine::tws::Ladder;
use arbiter_engine::tws::stats::{Record, SideTally};
use arbiter_store::EventStore;
use serde::Serialize;

use crate::views::{LabelledTally, RecordView, TallyView, turn_tallies};
use crate::{Result, Service};

/// One ladder folded into the installation's statistics.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LadderRefView {
    pub id: String,
    pub name: String,
    /// The ladder's version when it was read.
    pub version: u64,
    /// Its games with a result that count in the balance of the sides.
    pub games: u32,
}

/// One player across every ladder, matched by name.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct InstallationPlayerView {
    pub name: String,
    /// The ladders (ids) he has a decided game in.
    pub competitions: Vec<String>,
    pub ladder: RecordView,
    pub quick: RecordView,
    pub ladder_ussr: u32,
    pub ladder_us: u32,
    pub all_ussr: u32,
    pub all_us: u32,
}

/// The statistics of every TWS ladder of the installation together.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct InstallationStatsView {
    /// The ladders folded, in the store's order.
    pub competitions: Vec<LadderRefView>,
    pub ladder_games: TallyView,
    pub quick_round_games: TallyView,
    pub all_games: TallyView,
    pub by_bid: Vec<LabelledTally>,
    pub by_end: Vec<LabelledTally>,
    /// Game lengths (`turn 7`), shortest first.
    pub by_turn: Vec<LabelledTally>,
    /// Every player with a decided game, by name.
    pub players: Vec<InstallationPlayerView>,
    /// How players are matched across ladders.
    pub matching: String,
}

/// How players are matched, as the view states it.
pub const MATCHING: &str = "Players are matched across ladders by name, ignoring case and \
surrounding spaces: the same name on two ladders is one player, and a player who changed his \
name counts as two.";

fn add(a: &mut SideTally, b: &SideTally) {
    a.ussr_wins += b.ussr_wins;
    a.us_wins += b.us_wins;
    a.ties += b.ties;
}

fn add_record(a: &mut Record, b: &Record) {
    a.wins += b.wins;
    a.losses += b.losses;
    a.ties += b.ties;
}

#[derive(Default)]
struct Acc {
    name: String,
    competitions: Vec<String>,
    ladder: Record,
    quick: Record,
    ladder_ussr: u32,
    ladder_us: u32,
    all_ussr: u32,
    all_us: u32,
}

/// Fold `ladders` (id, ladder, version) into one view.
pub fn installation_stats(ladders: &[(String, Ladder, u64)]) -> InstallationStatsView {
    let mut ladder_games = SideTally::default();
    let mut quick = SideTally::default();
    let mut all = SideTally::default();
    let mut by_bid: BTreeMap<(u32, &'static str), SideTally> = BTreeMap::new();
    let mut by_end: BTreeMap<EndTag, SideTally> = BTreeMap::new();
    let mut by_turn: BTreeMap<u8, SideTally> = BTreeMap::new();
    let mut keys: HashMap<String, usize> = HashMap::new();
    let mut players: Vec<Acc> = Vec::new();
    let mut competitions = Vec::new();
    for (id, l, version) in ladders {
        let s = l.statistics();
        add(&mut ladder_games, &s.ladder);
        add(&mut quick, &s.quick);
        add(&mut all, &s.all);
        for (k, t) in &s.by_bid {
            add(by_bid.entry(*k).or_default(), t);
        }
        for (k, t) in &s.by_end {
            add(by_end.entry(k.clone()).or_default(), t);
        }
        for (k, t) in &s.by_turn {
            add(by_turn.entry(*k).or_default(), t);
        }
        competitions.push(LadderRefView {
            id: id.clone(),
            name: l.name.clone(),
            version: *version,
            games: s.all.games(),
        });
        for (ps, rec) in s.players.iter().zip(&l.players) {
            if ps.ladder.games() + ps.quick.games() == 0 {
                continue;
            }
            let name = rec.player.name.clone();
            let i = *keys
                .entry(arbiter_engine::model::name_key(&name))
                .or_insert_with(|| {
                    players.push(Acc {
                        name: name.trim().to_string(),
                        ..Acc::default()
                    });
                    players.len() - 1
                });
            let Some(a) = players.get_mut(i) else {
                continue;
            };
            if !a.competitions.contains(id) {
                a.competitions.push(id.clone());
            }
            add_record(&mut a.ladder, &ps.ladder);
            add_record(&mut a.quick, &ps.quick);
            a.ladder_ussr += ps.ladder_ussr;
            a.ladder_us += ps.ladder_us;
            a.all_ussr += ps.all_ussr;
            a.all_us += ps.all_us;
        }
    }
    let mut players: Vec<InstallationPlayerView> = players
        .into_iter()
        .map(|a| InstallationPlayerView {
            name: a.name,
            competitions: a.competitions,
            ladder: a.ladder.into(),
            quick: a.quick.into(),
            ladder_ussr: a.ladder_ussr,
            ladder_us: a.ladder_us,
            all_ussr: a.all_ussr,
            all_us: a.all_us,
        })
        .collect();
    players.sort_by(|a, b| {
        a.name
            .to_lowercase()
            .cmp(&b.name.to_lowercase())
            .then_with(|| a.name.cmp(&b.name))
    });
    InstallationStatsView {
        competitions,
        ladder_games: ladder_games.into(),
        quick_round_games: quick.into(),
        all_games: all.into(),
        by_bid: by_bid
            .iter()
            .map(|((inf, side), t)| LabelledTally {
                label: format!("{inf} influence to the {side}"),
                tally: (*t).into(),
            })
            .collect(),
        by_end: by_end
            .iter()
            .map(|(tag, t)| LabelledTally {
                label: tag.describe().to_string(),
                tally: (*t).into(),
            })
            .collect(),
        by_turn: turn_tallies(&by_turn),
        players,
        matching: MATCHING.to_string(),
    }
}

impl<S: EventStore> Service<S> {
    /// The statistics of every TWS ladder in the store together (see the
    /// module's text). An installation without a ladder gives empty figures.
    pub async fn installation_stats(&self) -> Result<InstallationStatsView> {
        let mut ladders = Vec::new();
        for id in self.competitions().await? {
            if self.format_of(&id).await? == <Ladder as crate::Format>::FORMAT {
                let (l, v) = self.load(&id, None).await?;
                ladders.push((id, l, v));
            }
        }
        Ok(installation_stats(&ladders))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_installation() {
        let v = installation_stats(&[]);
        assert_eq!(v.all_games.games, 0);
        assert!(v.players.is_empty());
        assert!(v.by_turn.is_empty());
    }
}
