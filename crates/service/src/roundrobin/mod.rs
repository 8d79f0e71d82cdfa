//! The general round-robin league (issue 16 §2; ARB-R67, ARB-R68) through
//! the command path and the registry: its [`Format`], creating a league,
//! the commands the front ends send (results by game number or by the two
//! names, corrections, withdrawals, lots from the seed committed at the
//! start), and its views ([`views`]).

pub mod clinch;
pub mod insight;
pub mod stats;
pub mod views;
pub mod what_if;

use arbiter_engine::RuleError;
use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::roundrobin::{
    self, Command, Event, GameId, RoundRobin, RoundRobinRules, Score,
};
use arbiter_record::RecordError;
use arbiter_store::EventStore;

use crate::csv::{Export, Table as CsvTable};
use crate::format::{CompetitionFormat, Offers};
use crate::{Context, Executed, Format, Result, Service, ServiceError};

pub use views::{RoundRobinView, round_robin_view};

/// The most players or teams a round robin takes (the Berger tables).
pub const MOST_PLAYERS: usize = 64;

impl Format for RoundRobin {
    type Event = Event;
    type Command = Command;
    type WhatIf = what_if::RoundRobinWhatIfView;
    const NAME: &'static str = "a round-robin league";
    const PLURAL: &'static str = "round-robin leagues";
    const CREATED: &'static str = "round-robin-created";

    fn decide(&self, command: Command) -> Result<Vec<Event>, RuleError> {
        RoundRobin::decide(self, command)
    }
    fn apply(&mut self, event: &Event) {
        RoundRobin::apply(self, event);
    }
    fn try_apply(&mut self, event: &Event) -> Result<(), RuleError> {
        RoundRobin::try_apply(self, event)
    }
    fn encode(event: &Event) -> String {
        arbiter_record::roundrobin::encode_round_robin(event)
    }
    fn decode(payload: &str) -> Result<Event, RecordError> {
        arbiter_record::roundrobin::decode_round_robin(payload)
    }
    fn kind(event: &Event) -> &'static str {
        event.kind()
    }
    fn revert(seq: u64, summary: String) -> Event {
        Event::Reverted { seq, summary }
    }
    fn reverted(event: &Event) -> Option<u64> {
        match event {
            Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        }
    }
    fn request(command: &Command) -> String {
        // The seeds are the service's: a retry is the same request.
        let mut c = command.without_time();
        match &mut c {
            Command::Start { seed, .. } => *seed = None,
            Command::DrawLots { seed, .. } => *seed = [0; 32],
            _ => {}
        }
        format!("round-robin {c:?}")
    }

    const FORMAT: CompetitionFormat = CompetitionFormat::RoundRobin;
    const ID: &'static str = "round-robin";
    const GENERAL: bool = true;
    const OFFERS: Offers = Offers {
        what_if: true,
        ratings: true,
        projection: true,
        clinch: true,
        ..Offers::NOTHING
    };

    fn describe(&self, event: &Event) -> String {
        describe(self, event)
    }
    fn concerns(&self, event: &Event) -> crate::history::Concerns {
        concerns(self, event)
    }
    const ROUND: &'static str = "round";
    fn title(&self) -> &str {
        &self.name
    }
    fn members(&self) -> usize {
        self.entrants.len()
    }
    fn rounds(&self) -> usize {
        self.rounds.len()
    }
    fn player_named(&self, name: &str) -> Option<PlayerId> {
        let i = self.entrants.iter().position(|e| e.name == name)?;
        Some(PlayerId(u32::try_from(i).ok()? + 1))
    }
    fn link(player: PlayerId, account: String) -> Command {
        Command::LinkAccount { player, account }
    }
    fn unlink(player: PlayerId) -> Command {
        Command::UnlinkAccount { player }
    }
    fn set_time_zone(zone: String) -> Command {
        Command::SetTimeZone { zone }
    }
    fn import_players(
        _competition: &str,
        file: &str,
        bytes: &[u8],
    ) -> Result<Vec<(u64, String, Command)>> {
        Ok(crate::csv::parse_ladder_players(file, bytes)?
            .into_iter()
            .map(|p| {
                let name = p.name.clone();
                (p.line, name, Command::AddPlayer { name: p.name })
            })
            .collect())
    }
    const OFFERS_RESULT_IMPORT: bool = true;
    /// The game's length in minutes, for quickness of victory.
    const RESULT_COLUMNS: &'static [&'static str] = &["minutes"];
    /// `game` (G3, or HOME-AWAY, or `home` and `away`) and `score` (1-1,
    /// or a win, draw or forfeit where results carry no score), as
    /// `round-robin result` takes them; a game already recorded with the
    /// same result is left as it is, with another is refused (a
    /// correction is a moderator's, with its reason).
    fn result_row(&self, row: &crate::csv::ResultRow, at: Time) -> crate::csv::RowResult<Command> {
        let (id, score) =
            import_game(self, &row.game, &row.result).map_err(|e| crate::csv::row_error(row, e))?;
        let minutes = row
            .get("minutes")
            .map(|m| {
                m.parse::<u32>()
                    .ok()
                    .filter(|m| (1..=10_000).contains(m))
                    .ok_or_else(|| {
                        (
                            Some("minutes"),
                            format!("{m:?} is not a game's length in whole minutes (1 to 10000)"),
                        )
                    })
            })
            .transpose()?;
        let Some(g) = self.game(id) else {
            return Err((None, format!("there is no game G{id}")));
        };
        let text = format!(
            "G{} {} v {}: {}",
            g.id,
            self.name_of(g.home),
            self.name_of(g.away),
            score.show()
        );
        match g.score {
            Some(recorded) if recorded == score => Ok(crate::csv::RowOutcome::Unchanged(text)),
            Some(recorded) => Err((
                Some(row.result_column),
                format!(
                    "G{} already has the result {}, not {}: a correction is a moderator's, with its reason (`arbiter round-robin correct`, or the desk)",
                    g.id,
                    recorded.show(),
                    score.show()
                ),
            )),
            None => Ok(crate::csv::RowOutcome::Record(
                Command::Record {
                    game: id,
                    score,
                    minutes,
                    at,
                },
                text,
            )),
        }
    }
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> Result<Self::WhatIf> {
        what_if::round_robin_what_if(self, competition, version, results, at)
    }
    fn ratings(
        rated: &[(String, RoundRobin)],
        competition: &str,
        version: u64,
        system: crate::insight::RatingSystem,
        _scope: crate::insight::RatingScope,
    ) -> Result<crate::insight::RatingsView> {
        let Some((_, league)) = rated.iter().find(|(id, _)| id == competition) else {
            return Err(ServiceError::NotFound(competition.to_string()));
        };
        Ok(insight::round_robin_ratings(
            league,
            competition,
            version,
            system,
        ))
    }
    fn clinch(
        &self,
        competition: &str,
        version: u64,
        group: Option<&str>,
    ) -> Result<crate::clinch::ClinchView> {
        if let Some(g) = group {
            return Err(ServiceError::Input(format!(
                "a round-robin league has one table and no groups; leave out {g:?}"
            )));
        }
        Ok(clinch::round_robin_clinch(
            self,
            competition,
            version,
            roundrobin::clinch::Budget::default(),
        ))
    }
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &crate::insight::ProjectionRequest,
        progress: crate::insight::Progress<'_>,
    ) -> Result<crate::insight::ProjectionView> {
        insight::round_robin_projection(self, competition, version, request, progress)
    }
    fn forum_post(
        &self,
        competition: &str,
        version: u64,
        markup: crate::forum::Markup,
        _now: Time,
    ) -> Option<String> {
        Some(views::forum_table(
            markup,
            &round_robin_view(self, competition, version),
        ))
    }
    /// The table's first places, once a game counts.
    fn top(&self, competition: &str, version: u64) -> Vec<crate::notify::Top> {
        let v = round_robin_view(self, competition, version);
        vec![crate::notify::Top::of(
            "",
            v.games_played > 0,
            v.table.iter().map(|r| (r.place, r.player.clone())),
        )]
    }
    fn csv_table(&self, what: Export, competition: &str, version: u64, _now: Time) -> CsvTable {
        let v = round_robin_view(self, competition, version);
        match what {
            Export::Standings => views::standings_table(&v),
            Export::Results => views::results_table(&v),
        }
    }
}

/// An event in words, for the history (the state names the players).
pub fn describe(rr: &RoundRobin, e: &Event) -> String {
    let n = |p: &PlayerId| rr.name_of(*p);
    let game = |id: &GameId| match rr.game(*id) {
        Some(g) => format!("G{} {} v {}", id, n(&g.home), n(&g.away)),
        None => format!("G{id}"),
    };
    match e {
        Event::Created {
            name,
            players,
            rules,
        } => format!(
            "round-robin league {name:?} created ({}, {} players)",
            rules.regulation,
            players.len()
        ),
        Event::PlayerAdded { name } => format!("{name} entered"),
        Event::Started { rounds, given, .. } => format!(
            "play began: {} rounds from {}",
            rounds.len(),
            if *given {
                "the organizer's schedule"
            } else {
                "the Berger tables"
            }
        ),
        Event::DeadlineSet { round, deadline } => match deadline {
            Some(d) => format!("round {round} due {}", d.to_rfc3339()),
            None => format!("round {round}'s deadline cleared"),
        },
        Event::ResultRecorded {
            game: id, score, ..
        } => {
            format!("{}: {}", game(id), score.show())
        }
        Event::ResultCorrected {
            game: id,
            score,
            reason,
            ..
        } => match score {
            Some(s) => format!("{} corrected to {} ({reason})", game(id), s.show()),
            None => format!("{}: result cleared ({reason})", game(id)),
        },
        Event::Withdrawn {
            player, annulled, ..
        } => format!(
            "{} withdrew; {} (ARB-R68)",
            n(player),
            if *annulled {
                "his results are annulled"
            } else {
                "his results stand and his games left are forfeits"
            }
        ),
        Event::LotsDrawn { order, how, .. } => {
            let names: Vec<String> = order.iter().map(n).collect();
            format!("lots: {} ({how})", names.join(", "))
        }
        Event::AccountLinked { player, account } => {
            format!("{} linked to account {account}", n(player))
        }
        Event::AccountUnlinked { player, account } => {
            format!("{} unlinked from account {account}", n(player))
        }
        Event::TimeZoneSet { zone } => crate::summary::zone_set(*zone),
        Event::Reverted { seq, summary } => format!("undid event {seq} ({summary})"),
    }
}

/// What a round-robin event is about, for the history's filters
/// (`crate::history`): the players [`describe`] names and the round.
pub fn concerns(rr: &RoundRobin, e: &Event) -> crate::history::Concerns {
    use crate::history::Concerns;
    let n = |p: &PlayerId| rr.name_of(*p);
    match e {
        Event::Created { players, .. } => Concerns::players(players.iter().cloned()),
        Event::PlayerAdded { name } => Concerns::players([name.clone()]),
        Event::Started { .. } | Event::Reverted { .. } | Event::TimeZoneSet { .. } => {
            Concerns::nothing()
        }
        Event::DeadlineSet { round, .. } => Concerns::in_round(*round, []),
        Event::ResultRecorded { game, .. } | Event::ResultCorrected { game, .. } => {
            match rr.game(*game) {
                Some(g) => Concerns::in_round(g.round, [n(&g.home), n(&g.away)]),
                None => Concerns::nothing(),
            }
        }
        Event::Withdrawn { player, .. }
        | Event::AccountLinked { player, .. }
        | Event::AccountUnlinked { player, .. } => Concerns::players([n(player)]),
        Event::LotsDrawn { order, .. } => Concerns::players(order.iter().map(n)),
    }
}

/// A game named by its number ("G3" or "3") or by its two players
/// ("Spain-Germany", either way round): the next game between them
/// without a result, or in `round`. With it, whether the names came away
/// side first: a score given with them is then in that order, and
/// [`read_score`] swaps it to home-away.
pub fn find_game(rr: &RoundRobin, text: &str, round: Option<u32>) -> Result<(GameId, bool)> {
    let t = text.trim();
    let number = t.strip_prefix(['G', 'g']).unwrap_or(t);
    if let Ok(n) = number.parse::<u32>() {
        return match n.checked_sub(1).map(GameId) {
            Some(id) if rr.game(id).is_some() => Ok((id, false)),
            _ => Err(refuse(
                "game",
                format!(
                    "there is no game {t:?}: the games are G1 to G{}",
                    rr.games.len()
                ),
            )),
        };
    }
    let (a, b) = split_pair(rr, t)?;
    let id = rr.find_game(a, b, round).ok_or_else(|| {
        let names = format!("{} and {}", rr.name_of(a), rr.name_of(b));
        // Named home first, their game at the first's has its result: the
        // return game is named the other way round (or by its number).
        let back = rr
            .games
            .iter()
            .find(|g| g.home == b && g.away == a && g.score.is_none());
        refuse(
            "game",
            match (round, back) {
                (Some(r), _) => format!("{names} do not meet in round {r}"),
                (None, Some(g)) => format!(
                    "{}'s home game against {} already has its result; the return game is G{} ({}-{}, home first)",
                    rr.name_of(a),
                    rr.name_of(b),
                    g.id,
                    rr.name_of(b),
                    rr.name_of(a)
                ),
                (None, None) => format!("{names} have no game left without a result"),
            },
        )
    })?;
    let reversed = rr.game(id).is_some_and(|g| g.home != a);
    Ok((id, reversed))
}

/// A game and its score as the user gave them (`find_game`'s text, then
/// the score in the order of the names given): the game and the score
/// home first.
pub fn read_score(
    rr: &RoundRobin,
    game: &str,
    score: &str,
    round: Option<u32>,
) -> Result<(GameId, Score)> {
    let (id, reversed) = find_game(rr, game, round)?;
    let score = parse_score(rr, score)?;
    Ok((id, if reversed { score.swapped() } else { score }))
}

/// The game of a results file's row and its score home first: a game's
/// number, or HOME-AWAY naming their game at the first's (in a single
/// round robin, their one game either way round), played or not, so that
/// a file may repeat results already recorded.
fn import_game(rr: &RoundRobin, game: &str, score: &str) -> Result<(GameId, Score)> {
    let t = game.trim();
    if t.strip_prefix(['G', 'g'])
        .unwrap_or(t)
        .parse::<u32>()
        .is_ok()
    {
        return read_score(rr, game, score, None);
    }
    let (a, b) = split_pair(rr, t)?;
    let exact = rr.games.iter().find(|g| g.home == a && g.away == b);
    let reversed = (rr.rules.cycles == 1)
        .then(|| rr.games.iter().find(|g| g.home == b && g.away == a))
        .flatten();
    let (g, swap) = match (exact, reversed) {
        (Some(g), _) => (g, false),
        (None, Some(g)) => (g, true),
        (None, None) => {
            return Err(refuse(
                "game",
                format!(
                    "{} and {} have no game {}",
                    rr.name_of(a),
                    rr.name_of(b),
                    if rr.rules.cycles == 1 {
                        "together"
                    } else {
                        "at the first's (name the home side first)"
                    }
                ),
            ));
        }
    };
    let score = parse_score(rr, score)?;
    Ok((g.id, if swap { score.swapped() } else { score }))
}

/// Two players named "A-B" (a name may hold a hyphen: every split is
/// tried, and exactly one must name two players).
fn split_pair(rr: &RoundRobin, text: &str) -> Result<(PlayerId, PlayerId)> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices('-') {
        let (a, b) = (&text[..i], &text[i + 1..]);
        if let (Some(a), Some(b)) = (rr.find(a.trim()), rr.find(b.trim())) {
            found.push((a, b));
        }
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(refuse(
            "game",
            format!(
                "{text:?} names no game: give its number (G3) or the two players as HOME-AWAY, e.g. {:?}{}",
                example_pair(rr),
                pair_hint(rr, text)
            ),
        )),
        _ => Err(refuse(
            "game",
            format!(
                "{text:?} can be read as more than one pair of players; give the game's number"
            ),
        )),
    }
}

/// The suggestion for a pair whose one name is misspelled (issue 17 §2):
/// the first split of `text` at a `-` where one side names a player and
/// the other is close to one, as "; did you mean Spain-Croatia?".
fn pair_hint(rr: &RoundRobin, text: &str) -> String {
    let names = || rr.entrants.iter().map(|e| e.name.as_str());
    for (i, _) in text.match_indices('-') {
        let (a, b) = (text[..i].trim(), text[i + 1..].trim());
        let guess = match (rr.find(a), rr.find(b)) {
            (Some(a), None) => arbiter_engine::model::similar_names(names(), b)
                .first()
                .map(|b| format!("{}-{b}", rr.name_of(a))),
            (None, Some(b)) => arbiter_engine::model::similar_names(names(), a)
                .first()
                .map(|a| format!("{a}-{}", rr.name_of(b))),
            _ => None,
        };
        if let Some(g) = guess {
            return format!("; did you mean {g}?");
        }
    }
    String::new()
}

fn example_pair(rr: &RoundRobin) -> String {
    match rr.games.first() {
        Some(g) => format!("{}-{}", rr.name_of(g.home), rr.name_of(g.away)),
        None => "Home-Away".to_string(),
    }
}

/// A player by name (ARB-R62), refused naming `field`.
pub fn find_player(rr: &RoundRobin, name: &str, field: &str) -> Result<PlayerId> {
    rr.find(name).ok_or_else(|| {
        let hint =
            arbiter_engine::model::did_you_mean(rr.entrants.iter().map(|e| e.name.as_str()), name);
        refuse(
            field,
            format!(
                "there is no player or team named {name:?} in {}{hint}",
                rr.name
            ),
        )
    })
}

/// A score as the rules read it (`2-1`, `1-0`, `½-½`, `+:-`), refused
/// naming the field.
pub fn parse_score(rr: &RoundRobin, text: &str) -> Result<Score> {
    Score::parse(text, rr.rules.scores).map_err(|e| refuse("score", e))
}

fn refuse(field: &str, message: String) -> ServiceError {
    ServiceError::Rule(RuleError::new("Round robin", message).field(field))
}

impl<S: EventStore> Service<S> {
    /// Create a round-robin league of `players` (they can be added later,
    /// until the start) under `rules`.
    pub async fn create_round_robin(
        &self,
        competition: &str,
        name: &str,
        rules: RoundRobinRules,
        players: &[String],
        ctx: &Context,
    ) -> Result<Executed<Event>> {
        crate::check_competition_id(competition)?;
        let command = Command::Create {
            name: name.to_string(),
            rules,
            players: players.to_vec(),
        };
        let fingerprint = crate::request_fingerprint::<RoundRobin>(&command);
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        if self.store().version(competition).await? > 0 {
            return Err(ServiceError::Exists(competition.to_string()));
        }
        let state = RoundRobin::default();
        let events = state.decide(command)?;
        let mut after = state;
        for e in &events {
            after.apply(e);
        }
        self.append::<RoundRobin>(competition, 0, events, ctx, &fingerprint, after)
            .await
    }

    /// Fix the schedule and begin: the Berger tables (`schedule: None`)
    /// or the organizer's rounds; the seed of any drawing of lots is
    /// made, kept as a store secret and committed by the start.
    pub async fn start_round_robin(
        &self,
        competition: &str,
        schedule: Option<Vec<roundrobin::Pairs>>,
        ctx: &Context,
    ) -> Result<Executed<Event>> {
        let seed = self.seeds().seed(competition, 1)?;
        let hash = draw::commitment(&seed);
        self.store()
            .put_secret(
                competition,
                &crate::seed_secret_name(&hash),
                &hex::encode(seed),
            )
            .await?;
        let command = Command::Start {
            schedule,
            seed: Some(seed),
            at: ctx.at,
        };
        self.execute_as::<RoundRobin>(competition, command, ctx)
            .await
    }

    /// Draw lots among `players` from the seed the start committed.
    pub async fn draw_round_robin_lots(
        &self,
        competition: &str,
        players: Vec<PlayerId>,
        ctx: &Context,
    ) -> Result<Executed<Event>> {
        let (rr, _) = self.load_as::<RoundRobin>(competition, None).await?;
        let seed: Seed = match rr.lot_commitment() {
            Some(hash) => self.committed_seed(competition, &hash).await?,
            None => {
                return Err(refuse(
                    "players",
                    "this league committed no seed for lots at its start; enter the order of a lot drawn by hand".into(),
                ));
            }
        };
        let command = Command::DrawLots {
            players,
            seed,
            at: ctx.at,
        };
        self.execute_as::<RoundRobin>(competition, command, ctx)
            .await
    }
}
