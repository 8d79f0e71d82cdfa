//! A Sunjang league carried over from the records of its last season
//! (issue 18 §1; rulings ARB-R77..ARB-R79): the season's layout and final
//! figures per group (gamepoints, SODOS, the results among players the
//! criteria need), the players who withdrew and the defending champion, as
//! one event. The next season is planned from it as from a played season:
//! the merged ranking of each division (SJ-R5) and its group leaders are
//! worked out by section D on the carried figures, and sections B and C
//! read them as they read a closed season's.
//!
//! The records are checked by the rules of the events they stand for
//! ([`CarriedSeason::check`]): every player once, groups that exist, figures
//! a round robin can give, the results the third main criterion of D.1
//! reads present, and places that section D gives. A layout that breaks a
//! rule of section A is not refused (the season was played; E.1 may have
//! allowed it) but said: [`CarriedSeason::layout_notes`].

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::explain::Explanation;
use crate::model::Time;

use super::group::{
    self, DivisionRanking, GroupGame, GroupInput, GroupTable, Outcome, Pairing,
    carried_division_ranking, carried_group_table,
};
use super::planner::{PreviousDivision, PreviousSeason};
use super::ranking::{Performance, PlayedGame, RankingData};
use super::{
    Division, GroupId, HalfPoints, PlayerId, PlayerInfo, SodosUnits, SunjangRules, division_letter,
    format_points, format_sodos,
};

/// Ruling: when a league is carried over, and what it becomes.
pub const ARB_CARRY: &str = "ARB-R77";
/// Ruling: the carried records are checked by the rules of the events
/// they stand for.
pub const ARB_CARRY_CHECK: &str = "ARB-R78";
/// Ruling: the carry-over file.
pub const ARB_CARRY_FILE: &str = "ARB-R79";

const CLAUSE_GROUP: &str = "Sunjang Definitions: Group";
const CLAUSE_MAIN: &str = "Sunjang D.1 Main Criteria";
const CLAUSE_SEASON: &str = "Sunjang Definitions: Season";

/// One player of the carried season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedPlayer {
    /// His figures now (rank, ratings: D.2 and section C read them for the
    /// next season).
    pub info: PlayerInfo,
    /// His group in the carried season.
    pub group: GroupId,
    /// Gamepoints won in group play, in halves, without the starting
    /// gamepoints (SJ-R4).
    pub gamepoints: HalfPoints,
    /// SODOS (SJ-R12), in units of [`SunjangRules::sodos_per_point`].
    pub sodos: SodosUnits,
    /// His place in his group's final table, when the records give it:
    /// checked against section D.
    pub place: Option<u32>,
    /// He has left the tournament (B.4): no place in the next season.
    pub withdrawn: bool,
}

/// A result the records give between two players of one group. Colours
/// are not carried: no criterion reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CarriedGame {
    pub players: [PlayerId; 2],
    pub result: CarriedResult,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CarriedResult {
    /// The first player won (by forfeit too: a forfeit is a loss, ARB-R39).
    FirstWon,
    Jigo,
    /// Both forfeited: a loss for both (ARB-R39).
    BothForfeit,
}

impl CarriedGame {
    fn as_group_game(&self) -> GroupGame {
        GroupGame {
            pairing: Pairing {
                round: 0,
                black: self.players[0],
                white: self.players[1],
            },
            outcome: Some(match self.result {
                CarriedResult::FirstWon => Outcome::BlackWins,
                CarriedResult::Jigo => Outcome::Jigo,
                CarriedResult::BothForfeit => Outcome::BothForfeit,
            }),
        }
    }
}

/// The last season of a league as its records give it. Its players get
/// the ids 1, 2, … in the order of `players`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedSeason {
    /// The number of the season carried over: the next one planned is the
    /// one after it.
    pub season: u32,
    pub players: Vec<CarriedPlayer>,
    pub games: Vec<CarriedGame>,
    /// The defending champion: the champion of the last final round.
    pub champion: Option<PlayerId>,
}

/// A carry-over as recorded: the records, where they come from, who
/// entered them and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonCarryOver {
    pub records: CarriedSeason,
    pub source: String,
    /// The moderator who entered them.
    pub by: String,
    pub at: Time,
}

impl SeasonCarryOver {
    /// "season 4, carried over on 2026-03-01 (source: …; entered by …)".
    pub fn citation(&self) -> String {
        format!(
            "season {}, carried over on {} (source: {}; entered by {})",
            self.records.season,
            self.at.format("%Y-%m-%d"),
            self.source,
            self.by
        )
    }
}

/// What the refusal is about: a player's record (by index), a game (by
/// index), or the records as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CarryTarget {
    Player(usize),
    Game(usize),
    Whole,
}

/// A refused carry-over: the record at fault, the field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarryError {
    pub target: CarryTarget,
    pub field: &'static str,
    pub clause: &'static str,
    pub message: String,
}

impl CarryError {
    fn new(target: CarryTarget, field: &'static str, clause: &'static str, m: String) -> Self {
        CarryError {
            target,
            field,
            clause,
            message: m,
        }
    }

    /// As a [`crate::RuleError`] whose field names the record:
    /// `players[3].sodos`, `games[0]`, `season`.
    pub fn into_rule_error(self) -> crate::RuleError {
        let field = match self.target {
            CarryTarget::Player(i) => format!("players[{i}].{}", self.field),
            CarryTarget::Game(k) => format!("games[{k}]"),
            CarryTarget::Whole => self.field.to_string(),
        };
        crate::RuleError::new(self.clause, format!("{} ({ARB_CARRY_CHECK})", self.message))
            .field(field)
    }
}

fn pid(i: usize) -> PlayerId {
    PlayerId(i as u32 + 1)
}

impl CarriedSeason {
    /// The player's name, or his id.
    fn name(&self, p: PlayerId) -> String {
        p.0.checked_sub(1)
            .and_then(|i| self.players.get(i as usize))
            .map_or_else(|| p.to_string(), |c| c.info.name.clone())
    }

    /// How many divisions the season had.
    pub fn divisions(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.group.division as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// `g` named as the season names its groups: by the letter alone for
    /// the only group of its division.
    pub fn named(&self, g: GroupId) -> GroupId {
        let groups = self
            .players
            .iter()
            .filter(|p| p.group.division == g.division)
            .map(|p| p.group.number)
            .collect::<HashSet<_>>()
            .len();
        GroupId::of(g.division, g.number, groups)
    }

    /// Each group (division, then number) with its players in the records'
    /// order and the results the records give, as group play's input.
    pub fn group_inputs(&self) -> Vec<GroupInput> {
        let mut groups: BTreeMap<(Division, u32), Vec<PlayerId>> = BTreeMap::new();
        for (i, p) in self.players.iter().enumerate() {
            groups
                .entry((p.group.division, p.group.number))
                .or_default()
                .push(pid(i));
        }
        let group_of: HashMap<PlayerId, (Division, u32)> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (pid(i), (p.group.division, p.group.number)))
            .collect();
        groups
            .into_iter()
            .map(|((division, number), players)| {
                let id = self.named(GroupId::new(division, number));
                let games = self
                    .games
                    .iter()
                    .filter(|g| {
                        g.players
                            .iter()
                            .all(|p| group_of.get(p) == Some(&(division, number)))
                    })
                    .map(CarriedGame::as_group_game)
                    .collect();
                (id, players, games)
            })
            .collect()
    }

    /// The carried figures, indexed by [`PlayerId::index`], as the
    /// criteria read a closed season's.
    pub fn performances(&self) -> Vec<Option<Performance>> {
        self.players
            .iter()
            .map(|p| {
                Some(Performance {
                    gamepoints: p.gamepoints,
                    sodos: p.sodos,
                    group: self.named(p.group),
                })
            })
            .collect()
    }

    /// The results the records give, as the third main criterion reads
    /// them.
    pub fn played_games(&self, rules: &SunjangRules) -> Vec<PlayedGame> {
        group::played_games(&self.group_inputs(), rules)
    }

    /// Each division's merged ranking by section D (SJ-R5) on the carried
    /// figures. `data` must hold [`Self::performances`] and
    /// [`Self::played_games`].
    pub fn rankings(&self, data: &RankingData<'_>) -> Vec<DivisionRanking> {
        let inputs = self.group_inputs();
        (0..self.divisions())
            .map(|d| carried_division_ranking(d as Division, &inputs, data))
            .collect()
    }

    /// The season as the planner reads a closed one: each division's
    /// merged ranking, group leaders and group sizes.
    pub fn previous(&self, data: &RankingData<'_>) -> PreviousSeason {
        let inputs = self.group_inputs();
        PreviousSeason {
            divisions: self
                .rankings(data)
                .into_iter()
                .enumerate()
                .map(|(d, r)| PreviousDivision {
                    ranking: r.order,
                    group_leaders: r.group_leaders,
                    groups: inputs
                        .iter()
                        .filter(|g| g.0.division == d as Division)
                        .map(|g| g.1.len() as u32)
                        .collect(),
                })
                .collect(),
        }
    }

    /// Every group's final table, with its starting gamepoints (footnote 4).
    pub fn group_tables(&self, data: &RankingData<'_>) -> Vec<GroupTable> {
        let divisions = self.divisions() as u32;
        self.group_inputs()
            .iter()
            .map(|(id, ps, gs)| {
                let start = group::start_points(id.division, divisions, data.rules);
                carried_group_table(*id, ps, gs, start, data)
            })
            .collect()
    }

    /// Every rule of section A the carried layout breaks, each with its
    /// figures (ARB-R77: said, not refused).
    pub fn layout_notes(&self, rules: &SunjangRules) -> Vec<Explanation> {
        let mut divisions: Vec<Vec<Vec<PlayerId>>> = vec![Vec::new(); self.divisions()];
        for (id, players, _) in self.group_inputs() {
            divisions[id.division as usize].push(players);
        }
        super::layout::section_a_violations(&divisions, self.players.len(), rules)
    }

    /// Check the records by the rules of the events they stand for
    /// (ARB-R78). Names are checked by the decider.
    pub fn check(&self, rules: &SunjangRules) -> Result<(), CarryError> {
        use CarryTarget::*;
        if self.season == 0 {
            return Err(CarryError::new(
                Whole,
                "season",
                CLAUSE_SEASON,
                "the season carried over is numbered from 1".into(),
            ));
        }
        if self.players.is_empty() {
            return Err(CarryError::new(
                Whole,
                "players",
                CLAUSE_SEASON,
                "the records have no player: nothing to carry over".into(),
            ));
        }
        let n = self.players.len();
        // Groups: every division from A down has groups 1..k, each a round
        // robin of at least two.
        let mut sizes: BTreeMap<(Division, u32), (usize, usize)> = BTreeMap::new();
        for (i, p) in self.players.iter().enumerate() {
            if p.group.number == 0 {
                return Err(CarryError::new(
                    Player(i),
                    "group",
                    CLAUSE_GROUP,
                    format!("{}: groups are numbered from 1", p.info.name),
                ));
            }
            sizes
                .entry((p.group.division, p.group.number))
                .or_insert((0, i))
                .0 += 1;
        }
        let mut expected_division = 0;
        let mut expected_number = 1;
        for (&(d, k), &(size, first)) in &sizes {
            if d != expected_division {
                if d == expected_division + 1 && k == 1 {
                    expected_division = d;
                } else {
                    let missing = if d == expected_division {
                        format!("group {}{expected_number}", division_letter(d))
                    } else {
                        format!("division {}", division_letter(expected_division + 1))
                    };
                    return Err(CarryError::new(
                        Player(first),
                        "group",
                        CLAUSE_GROUP,
                        format!(
                            "{} is in {}{k}, but the records have no {missing}: divisions run from A down with no gap, and a division's groups are numbered from 1 with no gap",
                            self.players[first].info.name,
                            division_letter(d)
                        ),
                    ));
                }
                expected_number = 1;
            }
            if k != expected_number {
                return Err(CarryError::new(
                    Player(first),
                    "group",
                    CLAUSE_GROUP,
                    format!(
                        "{} is in {}{k}, but the records have no group {}{expected_number}: a division's groups are numbered from 1 with no gap",
                        self.players[first].info.name,
                        division_letter(d),
                        division_letter(d)
                    ),
                ));
            }
            if expected_division == 0 && d != 0 {
                return Err(CarryError::new(
                    Player(first),
                    "group",
                    CLAUSE_GROUP,
                    "the records have no player in division A".into(),
                ));
            }
            if size < 2 {
                return Err(CarryError::new(
                    Player(first),
                    "group",
                    CLAUSE_GROUP,
                    format!(
                        "{} is alone in {}{k}: a group is a round robin of at least two players",
                        self.players[first].info.name,
                        division_letter(d)
                    ),
                ));
            }
            expected_number = k + 1;
        }
        let named = |g: GroupId| self.named(g);
        let size_of = |i: usize| {
            let g = self.players[i].group;
            sizes.get(&(g.division, g.number)).map_or(0, |s| s.0)
        };
        let per_point = rules.sodos_per_point();
        let gp = |h: HalfPoints| group::gamepoints_text(h);
        for (i, p) in self.players.iter().enumerate() {
            let games = size_of(i).saturating_sub(1) as u32;
            let most = rules.win_points.saturating_mul(games);
            if p.gamepoints > most {
                return Err(CarryError::new(
                    Player(i),
                    "gamepoints",
                    "Sunjang Definitions: Gamepoints",
                    format!(
                        "{} has {} in {}, more than his {games} game(s) can give (at most {}; SJ-R4, without the starting gamepoints)",
                        p.info.name,
                        gp(p.gamepoints),
                        named(p.group),
                        format_points(most)
                    ),
                ));
            }
            if let Some(place) = p.place
                && (place == 0 || place as usize > size_of(i))
            {
                return Err(CarryError::new(
                    Player(i),
                    "place",
                    CLAUSE_MAIN,
                    format!(
                        "{} is placed {place} in {}, which has {} players",
                        p.info.name,
                        named(p.group),
                        size_of(i)
                    ),
                ));
            }
        }
        if let Some(c) = self.champion
            && !(1..=n as u32).contains(&c.0)
        {
            return Err(CarryError::new(
                Whole,
                "champion",
                "Sunjang Final Round",
                format!("the champion {c} is not a player of the records"),
            ));
        }
        // The games: two players of one group, each pair once.
        let mut pairs: HashSet<(PlayerId, PlayerId)> = HashSet::new();
        let mut taken: Vec<HalfPoints> = vec![0; n];
        let mut counted: Vec<u32> = vec![0; n];
        for (k, g) in self.games.iter().enumerate() {
            let [a, b] = g.players;
            let known = |p: PlayerId| (1..=n as u32).contains(&p.0);
            if !known(a) || !known(b) || a == b {
                return Err(CarryError::new(
                    Game(k),
                    "players",
                    CLAUSE_GROUP,
                    "a result needs two different players of the records".into(),
                ));
            }
            let (ga, gb) = (self.players[a.index()].group, self.players[b.index()].group);
            if (ga.division, ga.number) != (gb.division, gb.number) {
                return Err(CarryError::new(
                    Game(k),
                    "players",
                    CLAUSE_GROUP,
                    format!(
                        "{} ({}) and {} ({}) were not in one group: only group games count (a group is a round robin)",
                        self.name(a),
                        named(ga),
                        self.name(b),
                        named(gb)
                    ),
                ));
            }
            let key = if a.0 < b.0 { (a, b) } else { (b, a) };
            if !pairs.insert(key) {
                return Err(CarryError::new(
                    Game(k),
                    "players",
                    CLAUSE_GROUP,
                    format!(
                        "the result of {} v {} is given twice: a group's players face one another once",
                        self.name(a),
                        self.name(b)
                    ),
                ));
            }
            let pts = group::points(g.as_group_game().outcome.unwrap_or(Outcome::Jigo), rules);
            for (p, x) in [a, b].into_iter().zip(pts) {
                taken[p.index()] += x;
                counted[p.index()] += 1;
            }
        }
        // A player's given results fit his gamepoints; all of them give
        // them exactly.
        for (i, p) in self.players.iter().enumerate() {
            let games = size_of(i).saturating_sub(1) as u32;
            let complete = counted[i] == games;
            if taken[i] > p.gamepoints || (complete && taken[i] != p.gamepoints) {
                return Err(CarryError::new(
                    Player(i),
                    "gamepoints",
                    "Sunjang Definitions: Gamepoints",
                    format!(
                        "{} has {} in {}, but the results the records give him {} {} (SJ-R4)",
                        p.info.name,
                        gp(p.gamepoints),
                        named(p.group),
                        if complete {
                            "(all his games) make"
                        } else {
                            "already make"
                        },
                        gp(taken[i])
                    ),
                ));
            }
        }
        // Each group's figures.
        for (id, players, games) in self.group_inputs() {
            let size = players.len() as u32;
            let total: u64 = players
                .iter()
                .map(|p| u64::from(self.players[p.index()].gamepoints))
                .sum();
            let most = u64::from(rules.win_points) * u64::from(size * (size - 1) / 2);
            if total > most {
                return Err(CarryError::new(
                    Player(players[0].index()),
                    "gamepoints",
                    "Sunjang Definitions: Gamepoints",
                    format!(
                        "the gamepoints of {} add up to {}, more than its {} games give (at most {}; SJ-R4)",
                        named(id),
                        format_points(total as HalfPoints),
                        size * (size - 1) / 2,
                        format_points(most as HalfPoints)
                    ),
                ));
            }
            let complete = games.len() as u32 == size * (size - 1) / 2;
            let exact = complete.then(|| group::sodos_units(&players, &games, rules));
            for &p in &players {
                let c = &self.players[p.index()];
                let best = players
                    .iter()
                    .filter(|&&o| o != p)
                    .map(|o| u64::from(self.players[o.index()].gamepoints))
                    .max()
                    .unwrap_or(0);
                let bound = u64::from(c.gamepoints) * best;
                let wrong = match &exact {
                    Some(e) => e.iter().find(|x| x.0 == p).map(|x| x.1) != Some(c.sodos),
                    None => c.sodos > bound,
                };
                if wrong {
                    let why = match &exact {
                        Some(e) => format!(
                            "the group's results, all given, make {}",
                            format_sodos(e.iter().find(|x| x.0 == p).map_or(0, |x| x.1), per_point)
                        ),
                        None => format!(
                            "with {} and no opponent above {} it is at most {}",
                            gp(c.gamepoints),
                            gp(best as HalfPoints),
                            format_sodos(bound, per_point)
                        ),
                    };
                    return Err(CarryError::new(
                        Player(p.index()),
                        "sodos",
                        "Sunjang D.1 Main Criteria",
                        format!(
                            "{} has a SODOS of {} in {}, but {why} (SJ-R12)",
                            c.info.name,
                            format_sodos(c.sodos, per_point),
                            named(id)
                        ),
                    ));
                }
            }
            // The third main criterion reads the games among players level
            // on gamepoints and SODOS: the records must give them.
            let mut level: BTreeMap<(HalfPoints, SodosUnits), Vec<PlayerId>> = BTreeMap::new();
            for &p in &players {
                let c = &self.players[p.index()];
                level.entry((c.gamepoints, c.sodos)).or_default().push(p);
            }
            for ((points, sodos), tied) in level.into_iter().rev() {
                for (x, &a) in tied.iter().enumerate() {
                    for &b in &tied[x + 1..] {
                        let key = if a.0 < b.0 { (a, b) } else { (b, a) };
                        if !pairs.contains(&key) {
                            return Err(CarryError::new(
                                Player(a.index()),
                                "beat",
                                CLAUSE_MAIN,
                                format!(
                                    "{} are level in {} on {} and a SODOS of {}: the third main criterion (D.1, SJ-R9) reads the games among them, and the records give no result for {} v {}",
                                    tied.iter()
                                        .map(|&p| self.name(p))
                                        .collect::<Vec<_>>()
                                        .join(", "),
                                    named(id),
                                    gp(points),
                                    format_sodos(sodos, per_point),
                                    self.name(a),
                                    self.name(b)
                                ),
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The places the records give, against the tables section D makes of
    /// the carried figures (`data` as for [`Self::rankings`]): a place of a
    /// player whose position no criterion leaves open must be his place.
    pub fn check_places(&self, data: &RankingData<'_>) -> Result<(), CarryError> {
        for table in self.group_tables(data) {
            for (row, e) in table.rows.iter().zip(&table.explanations) {
                let c = &self.players[row.player.index()];
                let Some(place) = c.place else { continue };
                let open = table.ranking.tie_of(row.player).is_some();
                if open {
                    // A tie section D leaves to the organizer's record (D.2's
                    // last criteria): the records' order is his.
                    let tied = table
                        .ranking
                        .tie_of(row.player)
                        .map_or(1, |t| t.players.len());
                    let first = row.place;
                    if (place as usize) < first || place as usize >= first + tied {
                        return Err(self.place_error(row.player, place, row.place, &table, e));
                    }
                } else if place as usize != row.place {
                    return Err(self.place_error(row.player, place, row.place, &table, e));
                }
            }
        }
        Ok(())
    }

    fn place_error(
        &self,
        p: PlayerId,
        given: u32,
        place: usize,
        table: &GroupTable,
        why: &Explanation,
    ) -> CarryError {
        CarryError::new(
            CarryTarget::Player(p.index()),
            "place",
            CLAUSE_MAIN,
            format!(
                "the records place {} {} in {}, but section D places him {} on the carried figures: {}",
                self.name(p),
                crate::explain::ordinal(given as usize),
                table.group,
                crate::explain::ordinal(place),
                why.text
            ),
        )
    }
}
