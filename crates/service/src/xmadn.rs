//! XMadn Double-Threat through the command path: the league and Challengers
//! formats, creating them (with the first committed die-roll seed), rolling
//! dice with committed seeds, and their views (`--json`, later the API) and
//! forum texts.

use arbiter_engine::RuleError;
use arbiter_engine::draw;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::xmadn::analysis::{self, Determination};
use arbiter_engine::xmadn::challengers::{self, Challengers};
use arbiter_engine::xmadn::league::{
    self, Drr, GameStatus, League, LeagueGame, Phase, RollPurpose, Stage,
};
use arbiter_engine::xmadn::table::Table;
use arbiter_engine::xmadn::{ChallengersRules, Home, LeagueRules, Playoff, Series, format_time};
use arbiter_record::RecordError;
use arbiter_store::EventStore;
use serde::Serialize;

use crate::csv::{Export, Table as CsvTable};
use crate::format::{CompetitionFormat, Offers};
use crate::forum::Markup;
use crate::insight::{Progress, ProjectionRequest, ProjectionView};
use crate::views::ExplanationView;
use crate::{Context, Executed, Format, Result, Service, ServiceError};

impl Format for League {
    type Event = league::Event;
    type Command = league::Command;
    type WhatIf = crate::what_if::LeagueWhatIfView;
    const NAME: &'static str = "an XMadn league";
    const PLURAL: &'static str = "XMadn leagues";
    const CREATED: &'static str = "league-created";

    fn decide(&self, command: league::Command) -> Result<Vec<league::Event>, RuleError> {
        League::decide(self, command)
    }
    fn apply(&mut self, event: &league::Event) {
        League::apply(self, event);
    }
    fn try_apply(&mut self, event: &league::Event) -> Result<(), RuleError> {
        League::try_apply(self, event)
    }
    fn encode(event: &league::Event) -> String {
        arbiter_record::xmadn::encode_league(event)
    }
    fn decode(payload: &str) -> Result<league::Event, RecordError> {
        arbiter_record::xmadn::decode_league(payload)
    }
    fn kind(event: &league::Event) -> &'static str {
        event.kind()
    }
    fn revert(seq: u64, summary: String) -> league::Event {
        league::Event::Reverted { seq, summary }
    }
    fn reverted(event: &league::Event) -> Option<u64> {
        match event {
            league::Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        }
    }
    fn request(command: &league::Command) -> String {
        match command {
            // The client asks to roll; which roll (positions or tiebreak)
            // and its seeds are the service's, so a retry made after the
            // phase moved on is still the same request.
            league::Command::RollPositions { .. } | league::Command::RollTiebreak { .. } => {
                ROLL_REQUEST.to_string()
            }
            // The seeds are drawn by the service; `without_time` leaves them out.
            _ => format!("league {:?}", command.without_time()),
        }
    }
    const FORMAT: CompetitionFormat = CompetitionFormat::XmadnLeague;
    const ID: &'static str = "xmadn-league";
    const OFFERS: Offers = Offers {
        clinch: true,
        projection: true,
        what_if: true,
        ratings: true,
        installation_ratings: false,
    };

    fn describe(&self, event: &league::Event) -> String {
        crate::summary::league(self, event)
    }
    fn concerns(&self, event: &league::Event) -> crate::history::Concerns {
        crate::summary::league_concerns(self, event)
    }
    const ROUND: &'static str = "double round-robin";
    fn title(&self) -> &str {
        &self.name
    }
    fn members(&self) -> usize {
        self.players.len()
    }
    fn rounds(&self) -> usize {
        self.drrs.len()
    }
    fn player_named(&self, name: &str) -> Option<PlayerId> {
        let i = self.players.iter().position(|n| n == name)?;
        league::PLAYERS.get(i).copied()
    }
    fn link(player: PlayerId, account: String) -> league::Command {
        league::Command::LinkAccount { player, account }
    }
    fn unlink(player: PlayerId) -> league::Command {
        league::Command::UnlinkAccount { player }
    }
    fn set_time_zone(zone: String) -> league::Command {
        league::Command::SetTimeZone { zone }
    }
    fn import_players(
        competition: &str,
        _file: &str,
        _bytes: &[u8],
    ) -> Result<Vec<(u64, String, league::Command)>> {
        Err(no_player_import::<League>(competition))
    }
    fn forum_post(
        &self,
        competition: &str,
        version: u64,
        markup: Markup,
        _now: Time,
    ) -> Option<String> {
        Some(league_forum(
            &league_view(self, competition, version),
            markup,
        ))
    }
    /// The league table's first places (XM-R5), once a game counts.
    fn top(&self, competition: &str, version: u64) -> Vec<crate::notify::Top> {
        let v = league_view(self, competition, version);
        vec![crate::notify::Top::of(
            "",
            v.table.iter().any(|r| r.played > 0),
            v.table.iter().map(|r| (r.place, r.player.clone())),
        )]
    }
    fn csv_table(&self, what: Export, competition: &str, version: u64, _now: Time) -> CsvTable {
        match what {
            Export::Standings => crate::csv::league_standings(self, competition, version),
            Export::Results => crate::csv::league_results(self, competition, version),
        }
    }
    fn clinch(
        &self,
        competition: &str,
        version: u64,
        group: Option<&str>,
    ) -> Result<crate::clinch::ClinchView> {
        if let Some(g) = group {
            return Err(ServiceError::Input(format!(
                "an XMadn league has one table and no groups; leave out {g:?}"
            )));
        }
        Ok(crate::clinch::league_clinch(self, competition, version))
    }
    const OFFERS_RESULT_IMPORT: bool = true;
    /// `game` (a game's label, or A-B for their next game) and `result`
    /// (the counted pawns in the order of the key and the game's time,
    /// `4-2@20:10`), as what-if reads them.
    fn result_row(
        &self,
        row: &crate::csv::ResultRow,
        at: Time,
    ) -> crate::csv::RowResult<league::Command> {
        let (command, text) = crate::what_if::league_result(self, &row.game, &row.result, at)
            .map_err(|e| crate::csv::row_error(row, e))?;
        Ok(crate::csv::RowOutcome::Record(command, text))
    }
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> Result<Self::WhatIf> {
        crate::what_if::league_what_if(self, competition, version, results, at)
    }
    fn ratings(
        rated: &[(String, League)],
        competition: &str,
        version: u64,
        system: crate::insight::RatingSystem,
        _scope: crate::insight::RatingScope,
    ) -> Result<crate::insight::RatingsView> {
        let own = rated.iter().find(|(id, _)| id == competition);
        let Some((_, league)) = own else {
            return Err(ServiceError::NotFound(competition.to_string()));
        };
        Ok(crate::insight::league_ratings(
            league,
            competition,
            version,
            system,
        ))
    }
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &ProjectionRequest,
        progress: Progress<'_>,
    ) -> Result<ProjectionView> {
        crate::insight::league_projection(self, competition, version, request, progress)
    }
}

impl Format for Challengers {
    type Event = challengers::Event;
    type Command = challengers::Command;
    type WhatIf = crate::what_if::NoWhatIf;
    const NAME: &'static str = "an XMadn Challengers event";
    const PLURAL: &'static str = "XMadn Challengers events";
    const CREATED: &'static str = "challengers-created";

    fn decide(&self, command: challengers::Command) -> Result<Vec<challengers::Event>, RuleError> {
        Challengers::decide(self, command)
    }
    fn apply(&mut self, event: &challengers::Event) {
        Challengers::apply(self, event);
    }
    fn try_apply(&mut self, event: &challengers::Event) -> Result<(), RuleError> {
        Challengers::try_apply(self, event)
    }
    fn encode(event: &challengers::Event) -> String {
        arbiter_record::xmadn::encode_challengers(event)
    }
    fn decode(payload: &str) -> Result<challengers::Event, RecordError> {
        arbiter_record::xmadn::decode_challengers(payload)
    }
    fn kind(event: &challengers::Event) -> &'static str {
        event.kind()
    }
    fn revert(seq: u64, summary: String) -> challengers::Event {
        challengers::Event::Reverted { seq, summary }
    }
    fn reverted(event: &challengers::Event) -> Option<u64> {
        match event {
            challengers::Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        }
    }
    fn request(command: &challengers::Command) -> String {
        format!("challengers {:?}", command.without_time())
    }
    const FORMAT: CompetitionFormat = CompetitionFormat::XmadnChallengers;
    const ID: &'static str = "xmadn-challengers";

    fn describe(&self, event: &challengers::Event) -> String {
        crate::summary::challengers(self, event)
    }
    fn concerns(&self, event: &challengers::Event) -> crate::history::Concerns {
        crate::summary::challengers_concerns(self, event)
    }
    const ROUND: &'static str = "game";
    fn title(&self) -> &str {
        &self.name
    }
    fn members(&self) -> usize {
        self.players.len()
    }
    fn rounds(&self) -> usize {
        self.games().len()
    }
    fn player_named(&self, name: &str) -> Option<PlayerId> {
        let i = self.players.iter().position(|n| n == name)?;
        Some(PlayerId(u32::try_from(i).ok()? + 1))
    }
    fn link(player: PlayerId, account: String) -> challengers::Command {
        challengers::Command::LinkAccount { player, account }
    }
    fn unlink(player: PlayerId) -> challengers::Command {
        challengers::Command::UnlinkAccount { player }
    }
    fn set_time_zone(zone: String) -> challengers::Command {
        challengers::Command::SetTimeZone { zone }
    }
    fn import_players(
        competition: &str,
        _file: &str,
        _bytes: &[u8],
    ) -> Result<Vec<(u64, String, challengers::Command)>> {
        Err(no_player_import::<Challengers>(competition))
    }
    fn forum_post(
        &self,
        competition: &str,
        version: u64,
        markup: Markup,
        _now: Time,
    ) -> Option<String> {
        Some(challengers_forum(
            &challengers_view(self, competition, version),
            markup,
        ))
    }
    /// The standings' first places, once a counted game is played.
    fn top(&self, competition: &str, version: u64) -> Vec<crate::notify::Top> {
        let v = challengers_view(self, competition, version);
        vec![crate::notify::Top::of(
            "",
            !v.games.is_empty(),
            v.standings
                .iter()
                .map(|r| (r.place as usize, r.player.clone())),
        )]
    }
    fn csv_table(&self, what: Export, competition: &str, version: u64, _now: Time) -> CsvTable {
        match what {
            Export::Standings => crate::csv::challengers_standings(self, competition, version),
            Export::Results => crate::csv::challengers_results(self, competition, version),
        }
    }
    const OFFERS_RESULT_IMPORT: bool = true;
    /// `game` (the two players at the board, A-B) and `result` (the
    /// counted pawns in the order of the key and the game's time,
    /// `4-2@20:10`).
    fn result_row(
        &self,
        row: &crate::csv::ResultRow,
        at: Time,
    ) -> crate::csv::RowResult<challengers::Command> {
        let (a, b) = crate::what_if::pair(&row.game, |n| self.find(n))
            .map_err(|e| crate::csv::row_error(row, e))?;
        let (pawns, seconds) = crate::what_if::score(&row.result)
            .map_err(|e| (Some(row.result_column), e.to_string()))?;
        let text = format!(
            "{} {} – {} {} ({})",
            self.name_of(a),
            pawns[0],
            pawns[1],
            self.name_of(b),
            format_time(seconds)
        );
        Ok(crate::csv::RowOutcome::Record(
            challengers::Command::RecordGame {
                players: [a, b],
                pawns,
                seconds,
                at,
            },
            text,
        ))
    }
}

/// The refusal of a player import: XMadn's three players are named when
/// the competition is created.
fn no_player_import<F: Format>(competition: &str) -> ServiceError {
    ServiceError::Input(format!(
        "{competition} is {}: its three players are named when it is created (--player), so it takes no player import",
        F::NAME
    ))
}

/// What a client asks for when it asks the service to roll: the request
/// whose fingerprint keys a roll's idempotency.
const ROLL_REQUEST: &str = "league roll";

impl<S: EventStore> Service<S> {
    /// Create an XMadn league. Commits the first die-roll seed (kept secret
    /// until the first round of die-roll reveals it).
    pub async fn create_league(
        &self,
        competition: &str,
        name: &str,
        rules: LeagueRules,
        players: &[String],
        ctx: &Context,
    ) -> Result<Executed<league::Event>> {
        crate::check_competition_id(competition)?;
        let fingerprint = crate::sha256_hex(&format!("league {name:?} {rules:?} {players:?}"));
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        if self.store().version(competition).await? > 0 {
            return Err(ServiceError::Exists(competition.to_string()));
        }
        let seed_hash = self.commit_seed(competition, 1).await?;
        let state = League::default();
        let events = state.decide(league::Command::Create {
            name: name.to_string(),
            rules,
            players: players.to_vec(),
            seed_hash,
        })?;
        let mut after = state;
        for e in &events {
            after.apply(e);
        }
        self.append::<League>(competition, 0, events, ctx, &fingerprint, after)
            .await
    }

    /// Create an XMadn Challengers event.
    pub async fn create_challengers(
        &self,
        competition: &str,
        name: &str,
        rules: ChallengersRules,
        players: &[String],
        ctx: &Context,
    ) -> Result<Executed<challengers::Event>> {
        crate::check_competition_id(competition)?;
        let command = challengers::Command::Create {
            name: name.to_string(),
            rules,
            players: players.to_vec(),
        };
        let fingerprint = crate::request_fingerprint::<Challengers>(&command);
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        if self.store().version(competition).await? > 0 {
            return Err(ServiceError::Exists(competition.to_string()));
        }
        let state = Challengers::default();
        let events = state.decide(command)?;
        let mut after = state;
        for e in &events {
            after.apply(e);
        }
        self.append::<Challengers>(competition, 0, events, ctx, &fingerprint, after)
            .await
    }

    /// The next round of die-roll the league needs: the positions of the
    /// next double round-robin, or step 6 of the tiebreak. Reveals the
    /// committed seed and commits the next one.
    pub async fn league_roll(
        &self,
        competition: &str,
        ctx: &Context,
    ) -> Result<Executed<league::Event>> {
        // The key and the pinned version first: a retried roll is answered
        // with its first outcome even though the league has moved on (and
        // would now roll something else, or nothing), and a roll pinned to a
        // version that is gone is a conflict, not a refusal by the rules.
        let fingerprint = crate::sha256_hex(ROLL_REQUEST);
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        let (state, version) = self.load_as::<League>(competition, None).await?;
        crate::check_expected(ctx, competition, version)?;
        let seed = self.committed_seed(competition, &state.seed_hash).await?;
        let n = state.rolls.len() as u32 + 2;
        let next = self.seeds().seed(competition, n)?;
        let next_hash = draw::commitment(&next);
        let command = match state.phase() {
            Phase::AwaitingTiebreak { .. } => league::Command::RollTiebreak {
                seed,
                next_seed_hash: next_hash,
                at: ctx.at,
            },
            _ => league::Command::RollPositions {
                seed,
                next_seed_hash: next_hash,
                at: ctx.at,
            },
        };
        // Decide first: a refused roll stores no seed. The next seed is
        // kept before the roll is appended, so it can always be revealed.
        if let Err(rule) = state.decide(command.clone()) {
            // A copy of this request that landed since the lookup above.
            if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
                return Ok(done);
            }
            return Err(rule.into());
        }
        self.store()
            .put_secret(
                competition,
                &crate::seed_secret_name(&next_hash),
                &hex::encode(next),
            )
            .await?;
        self.execute_as::<League>(competition, command, ctx).await
    }

    /// Make seed number `n` of a competition, keep it as a store secret and
    /// return its commitment.
    async fn commit_seed(&self, competition: &str, n: u32) -> Result<[u8; 32]> {
        let seed = self.seeds().seed(competition, n)?;
        let hash = draw::commitment(&seed);
        self.store()
            .put_secret(
                competition,
                &crate::seed_secret_name(&hash),
                &hex::encode(seed),
            )
            .await?;
        Ok(hash)
    }
}

// ----- views -----

/// A league game.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LeagueGameView {
    pub id: u32,
    /// The document's number of the game in its double round-robin (Game
    /// 1 to 6) or playoff round: "Game 4" (ARB-R63).
    pub label: String,
    /// The league-wide id, which input accepts too: "G10" (ARB-R63).
    pub alias: String,
    /// "DRR 1 Game 4" or "final game 2".
    pub stage: String,
    pub players: [String; 2],
    /// `scheduled`, `played` or `cancelled`.
    pub status: &'static str,
    /// Counted pawns in the order of `players`, "4-2".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// The pawns each player brought home per allied colour, in the order
    /// of `players`, when the result was entered so; `score` holds the
    /// counted pawns derived from them (ARB-R65).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brought_home: Option<[HomeView; 2]>,
    /// The game's time, "m:ss".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// May be played now.
    pub playable: bool,
}

/// The pawns one player brought home per allied colour (ARB-R65).
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct HomeView {
    pub vanguard: u8,
    pub rearguard: u8,
}

impl HomeView {
    fn both(h: Option<[Home; 2]>) -> Option<[HomeView; 2]> {
        h.map(|h| {
            h.map(|h| HomeView {
                vanguard: h.vanguard,
                rearguard: h.rearguard,
            })
        })
    }

    /// "4/1 v 2/2": the pawns brought home, vanguard/rearguard, in the
    /// order of the game's players (ARB-R65).
    fn text(h: Option<[HomeView; 2]>) -> Option<String> {
        h.map(|[a, b]| {
            format!(
                "{}/{} v {}/{}",
                a.vanguard, a.rearguard, b.vanguard, b.rearguard
            )
        })
    }
}

impl LeagueGameView {
    /// "4/1 v 2/2": the pawns brought home, vanguard/rearguard, in the
    /// order of `players` (ARB-R65).
    pub fn home_text(&self) -> Option<String> {
        HomeView::text(self.brought_home)
    }
}

impl ChallengersGameView {
    /// "4/1 v 2/2": the pawns brought home, vanguard/rearguard, in the
    /// order of `players` (ARB-R65).
    pub fn home_text(&self) -> Option<String> {
        HomeView::text(self.brought_home)
    }
}

/// A line of the table.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct TableRowView {
    pub place: usize,
    pub player: String,
    pub played: u32,
    pub wins: u32,
    pub losses: u32,
    pub pawns_for: u32,
    pub pawns_against: u32,
    pub pawn_difference: i64,
    /// Full minutes of his victories (step 5, XM-R2).
    pub win_minutes: u32,
    /// Why he is where he is: the splits above and below him, his tie.
    pub explanations: Vec<ExplanationView>,
}

/// One double round-robin.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct DrrView {
    pub number: u32,
    /// `scheduled`, `cancelled` or `to-come`.
    pub status: &'static str,
    /// #1, #2, #3.
    pub positions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions_explanation: Option<ExplanationView>,
    pub games: Vec<LeagueGameView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A playoff round.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PlayoffView {
    /// `qualifying` or `final`.
    pub stage: &'static str,
    /// FG, FS3, QG, QS2.
    pub code: String,
    pub higher: String,
    pub lower: String,
    pub higher_colours: String,
    pub lower_colours: String,
    pub head_start: bool,
    pub wins: [u32; 2],
    pub wins_needed: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    pub games: Vec<LeagueGameView>,
    pub explanation: ExplanationView,
}

/// One player's face in a round of die-roll.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct FaceView {
    pub player: String,
    pub face: u8,
}

/// A recorded round of die-roll and its check.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RollView {
    pub number: usize,
    /// "positions of DRR 2" or "tiebreak step 6".
    pub purpose: String,
    /// `committed` (a committed draw) or `entered` (real dice rolled at the
    /// table, the faces entered by a moderator; ARB-R64).
    pub kind: &'static str,
    /// Who entered the faces, for an entered roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entered_by: Option<String>,
    /// When the roll was recorded (RFC 3339).
    pub at: String,
    /// How it verifies, in words: the seed and commitment, or "entered by
    /// alice at …, faces 1 to 6, one per tied player".
    pub verification: String,
    /// Every round's faces, the first round among every player who rolled,
    /// each next among the players still tied.
    pub rounds: Vec<Vec<FaceView>>,
    /// The faces, "Ames 5, Baker 3, Clark 3; then Baker 6, Clark 2".
    pub faces: String,
    /// The revealed seed (64 hex digits); empty for an entered roll.
    pub seed: String,
    /// The commitment published before the roll; empty for an entered roll.
    pub commitment: String,
    /// The seed matches the commitment (true for an entered roll, which has
    /// none to match).
    pub commitment_ok: bool,
    /// The faces are the seed's, or, entered, within the die and one per
    /// player still tied, exactly those players.
    pub faces_ok: bool,
}

/// Everything about a league.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct LeagueView {
    pub competition: String,
    pub version: u64,
    pub name: String,
    pub rule_set: String,
    pub double_round_robins: u32,
    pub playoff: String,
    /// The organizer allows the one-win head start into a first-to-x series
    /// (XM-R7).
    pub head_start: bool,
    pub players: Vec<String>,
    /// Where the league stands, in words.
    pub phase: String,
    /// The table is provisional while games remain (XM-R5).
    pub provisional: bool,
    pub table: Vec<TableRowView>,
    /// Every split and tie of the table, top to bottom.
    pub table_explanations: Vec<ExplanationView>,
    pub drrs: Vec<DrrView>,
    pub determined: bool,
    pub determination: ExplanationView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<ExplanationView>,
    pub playoffs: Vec<PlayoffView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
    pub rolls: Vec<RollView>,
}

fn playoff_words(p: Playoff) -> String {
    match p {
        Playoff::None => "none".into(),
        Playoff::TopTwo { final_round } => format!("top two: {}", final_round.code(true)),
        Playoff::AllThree {
            qualifying,
            final_round,
        } => format!(
            "all three: {} then {}",
            qualifying.code(false),
            final_round.code(true)
        ),
    }
}

/// The phase in words.
pub fn phase_words(l: &League) -> String {
    match l.phase() {
        Phase::AwaitingPositions { drr } => {
            format!("DRR {drr}: positions to be rolled (`league roll`)")
        }
        Phase::RoundRobin { drr } => format!("DRR {drr} in play"),
        Phase::AwaitingTiebreak { players } => format!(
            "round of die-roll (step 6) needed among {}",
            players
                .iter()
                .map(|p| l.name_of(*p))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Phase::AwaitingPlayoff { stage } => format!("{} to start", stage.name()),
        Phase::Playoff { stage } => format!("{} in play", stage.name()),
        Phase::Finished { champion } => format!("finished: {} is champion", l.name_of(champion)),
    }
}

fn game_view(l: &League, g: &LeagueGame, playable: &[u32]) -> LeagueGameView {
    let players = [l.name_of(g.players[0]), l.name_of(g.players[1])];
    let stage = league::stage_words(g.stage);
    let number = match g.stage {
        Stage::RoundRobin { number, .. } => u32::from(number),
        Stage::Playoff { number, .. } => number,
    };
    let (status, score, time, note) = match &g.status {
        GameStatus::Scheduled => ("scheduled", None, None, None),
        GameStatus::Played { score, .. } => (
            "played",
            Some(format!("{}-{}", score.pawns[0], score.pawns[1])),
            Some(format_time(score.seconds)),
            None,
        ),
        GameStatus::Cancelled { note, .. } => ("cancelled", None, None, Some(note.clone())),
    };
    let brought_home = match &g.status {
        GameStatus::Played { home, .. } => HomeView::both(*home),
        _ => None,
    };
    LeagueGameView {
        id: g.id.0,
        label: format!("Game {number}"),
        alias: g.id.to_string(),
        stage,
        players,
        status,
        score,
        brought_home,
        winner: g.winner().map(|w| l.name_of(w)),
        time,
        note,
        playable: playable.contains(&g.id.0),
    }
}

/// The view of a league.
pub fn league_view(l: &League, competition: &str, version: u64) -> LeagueView {
    let table = Table::of(l);
    let playable: Vec<u32> = l.playable().iter().map(|g| g.id.0).collect();
    let rows = table
        .rows
        .iter()
        .map(|r| TableRowView {
            place: r.place,
            player: l.name_of(r.player),
            played: r.played,
            wins: r.wins,
            losses: r.losses,
            pawns_for: r.pawns_for,
            pawns_against: r.pawns_against,
            pawn_difference: i64::from(r.pawns_for) - i64::from(r.pawns_against),
            win_minutes: r.win_minutes,
            explanations: table
                .explain_player(l, r.player)
                .into_iter()
                .map(Into::into)
                .collect(),
        })
        .collect();
    let mut drrs: Vec<DrrView> = l
        .drrs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let number = i as u32 + 1;
            match d {
                Drr::Scheduled { positions, .. } => DrrView {
                    number,
                    status: "scheduled",
                    positions: positions.iter().map(|p| l.name_of(*p)).collect(),
                    positions_explanation: l.explain_positions(number).map(Into::into),
                    games: l
                        .drr_games(number)
                        .iter()
                        .map(|g| game_view(l, g, &playable))
                        .collect(),
                    note: None,
                },
                Drr::Cancelled { note } => DrrView {
                    number,
                    status: "cancelled",
                    positions: Vec::new(),
                    positions_explanation: None,
                    games: Vec::new(),
                    note: Some(note.clone()),
                },
            }
        })
        .collect();
    for number in l.drrs.len() as u32 + 1..=l.rules.double_round_robins {
        drrs.push(DrrView {
            number,
            status: "to-come",
            positions: Vec::new(),
            positions_explanation: None,
            games: Vec::new(),
            note: None,
        });
    }
    let det: Determination = analysis::determination(l);
    let playoffs = l
        .playoff
        .iter()
        .map(|r| {
            let final_round = r.stage == league::PlayoffStage::Final;
            let games = r
                .games
                .iter()
                .filter_map(|g| l.game(*g))
                .map(|g| game_view(l, g, &[]))
                .collect();
            PlayoffView {
                stage: r.stage.name(),
                code: r.series.code(final_round),
                higher: l.name_of(r.higher),
                lower: l.name_of(r.lower),
                higher_colours: r.colours[0].to_string(),
                lower_colours: r.colours[1].to_string(),
                head_start: r.head_start,
                wins: r.wins,
                wins_needed: r.series.wins_needed(),
                winner: r.winner().map(|w| l.name_of(w)),
                games,
                explanation: explain_playoff(l, r).into(),
            }
        })
        .collect();
    let rolls = l
        .verify_rolls()
        .into_iter()
        .zip(&l.rolls)
        .map(|(c, r)| RollView {
            number: c.number,
            purpose: match &r.purpose {
                RollPurpose::Positions { drr, .. } => format!("positions of DRR {drr}"),
                RollPurpose::Tiebreak => "tiebreak step 6".to_string(),
            },
            kind: if r.entered_by.is_some() {
                "entered"
            } else {
                "committed"
            },
            entered_by: r.entered_by.clone(),
            at: r.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            verification: roll_verification(l, &c),
            rounds: r
                .rounds
                .iter()
                .map(|round| {
                    round
                        .iter()
                        .map(|(p, f)| FaceView {
                            player: l.name_of(*p),
                            face: *f,
                        })
                        .collect()
                })
                .collect(),
            faces: league::describe_rounds(l, &r.rounds),
            seed: if r.entered_by.is_some() {
                String::new()
            } else {
                hex::encode(r.seed)
            },
            commitment: if r.entered_by.is_some() {
                String::new()
            } else {
                hex::encode(r.committed)
            },
            commitment_ok: c.commitment_ok,
            faces_ok: c.faces_ok,
        })
        .collect();
    LeagueView {
        competition: competition.to_string(),
        version,
        name: l.name.clone(),
        rule_set: l.rules.rule_set.to_string(),
        double_round_robins: l.rules.double_round_robins,
        playoff: playoff_words(l.rules.playoff),
        head_start: l.rules.head_start,
        players: l.players.clone(),
        phase: phase_words(l),
        provisional: table.provisional,
        table_explanations: table.explain(l).into_iter().map(Into::into).collect(),
        table: rows,
        drrs,
        determined: det.determined,
        determination: det.explain(l).into(),
        suggestion: analysis::suggest_order(l).map(|s| s.explanation.into()),
        playoffs,
        champion: l.champion().map(|c| l.name_of(c)),
        rolls,
    }
}

/// How a roll verifies, in words (ARB-R64): a committed draw by its seed
/// and commitment, entered faces by who entered them and when, and the
/// procedure's checks.
pub fn roll_verification(l: &League, c: &league::RollCheck) -> String {
    match &c.entered_by {
        Some(by) => format!(
            "entered by {by} at {}: dice rolled at the table, not a committed draw; faces 1 to {}, one per tied player, exactly the tied players: {}",
            l.zone.minute(c.at),
            l.rules.die_faces,
            if c.faces_ok { "yes" } else { "NO" }
        ),
        None => format!(
            "committed draw: seed {}, faces {}",
            if c.commitment_ok {
                "matches the commitment"
            } else {
                "DOES NOT match the commitment"
            },
            if c.faces_ok {
                "recomputed the same"
            } else {
                "DIFFER when recomputed"
            }
        ),
    }
}

/// Why a playoff round is between these players, with these colours and
/// this head start.
pub fn explain_playoff(l: &League, r: &league::PlayoffRound) -> arbiter_engine::Explanation {
    let final_round = r.stage == league::PlayoffStage::Final;
    let who = match (l.rules.playoff, r.stage) {
        (Playoff::AllThree { .. }, league::PlayoffStage::Qualifying) => {
            "2nd and 3rd on the table play the qualifying round"
        }
        (Playoff::AllThree { .. }, league::PlayoffStage::Final) => {
            "1st on the table takes on the winner of the qualifying round"
        }
        _ => "the top two on the table qualify directly for the final",
    };
    let series = match r.series {
        Series::Game => "one game".to_string(),
        Series::FirstTo(x) => format!("first to {x} wins"),
    };
    let head = if r.head_start {
        format!(
            "; {} starts 1-0: a better overall win-loss record and the head start is allowed (XM-R7)",
            l.name_of(r.higher)
        )
    } else if l.rules.head_start && matches!(r.series, Series::FirstTo(_)) {
        format!(
            "; no head start: {}'s overall win-loss record is not better than {}'s (XM-R7)",
            l.name_of(r.higher),
            l.name_of(r.lower)
        )
    } else {
        String::new()
    };
    arbiter_engine::Explanation::new(
        "XMadn League: Playoff",
        &["XM-R7"],
        format!(
            "{} ({}, {series}): {who}; {} is the higher seed and chose {}, {} plays {}, kept for the whole round{head}",
            r.series.code(final_round),
            r.stage.name(),
            l.name_of(r.higher),
            r.colours[0],
            l.name_of(r.lower),
            r.colours[1],
        ),
    )
}

/// A Challengers game.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ChallengersGameView {
    pub number: u32,
    pub players: [String; 2],
    pub colours: [String; 2],
    /// Counted pawns in the order of `players`.
    pub score: String,
    /// The pawns each player brought home per allied colour, in the order
    /// of `players`, when the game was entered so; `score` holds the
    /// counted pawns derived from them (ARB-R65).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brought_home: Option<[HomeView; 2]>,
    pub winner: String,
    pub time: String,
    pub sat_out: String,
    pub explanation: ExplanationView,
}

/// A line of the Challengers standings.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ChallengersStandingView {
    pub place: u32,
    pub player: String,
    pub wins: u32,
    pub losses: u32,
    pub at_boards: u32,
    pub sat_out: u32,
    pub pawns_for: u32,
    pub pawns_against: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier_place: Option<u32>,
    pub champion: bool,
}

/// The next game of a Challengers event.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct NextGameView {
    pub number: u32,
    pub players: [String; 2],
    pub colours: [String; 2],
    pub sits_out: String,
    pub explanation: ExplanationView,
}

/// Everything about a Challengers event.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ChallengersView {
    pub competition: String,
    pub version: u64,
    pub name: String,
    pub rule_set: String,
    pub first_to: u32,
    pub players: Vec<String>,
    /// Game 0 finishing order, once played.
    pub qualifier: Vec<String>,
    pub standings: Vec<ChallengersStandingView>,
    pub games: Vec<ChallengersGameView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<NextGameView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub champion_explanation: Option<ExplanationView>,
}

/// The view of a Challengers event.
pub fn challengers_view(c: &Challengers, competition: &str, version: u64) -> ChallengersView {
    let name = |p: PlayerId| c.name_of(p);
    let games = c
        .games()
        .iter()
        .map(|g| {
            let out = league::PLAYERS
                .into_iter()
                .find(|p| !g.players.contains(p))
                .map(name)
                .unwrap_or_default();
            ChallengersGameView {
                number: g.number,
                players: [name(g.players[0]), name(g.players[1])],
                colours: [
                    g.colours_of(g.players[0])
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    g.colours_of(g.players[1])
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                ],
                score: format!("{}-{}", g.score.pawns[0], g.score.pawns[1]),
                brought_home: HomeView::both(g.home),
                winner: name(g.winner()),
                time: format_time(g.score.seconds),
                sat_out: out,
                explanation: c.explain_game(g.number).map(Into::into).unwrap_or_else(|| {
                    ExplanationView {
                        clause: "XMadn Challengers".into(),
                        rulings: vec![],
                        text: String::new(),
                    }
                }),
            }
        })
        .collect();
    ChallengersView {
        competition: competition.to_string(),
        version,
        name: c.name.clone(),
        rule_set: c.rules.rule_set.to_string(),
        first_to: c.rules.first_to,
        players: c.players.clone(),
        qualifier: c
            .qualifier()
            .map(|q| q.finishing.iter().map(|p| name(*p)).collect())
            .unwrap_or_default(),
        standings: c
            .standings()
            .into_iter()
            .map(|s| ChallengersStandingView {
                place: s.place,
                player: name(s.player),
                wins: s.wins,
                losses: s.losses,
                at_boards: s.at_boards,
                sat_out: s.sat_out,
                pawns_for: s.pawns_for,
                pawns_against: s.pawns_against,
                qualifier_place: s.qualifier_place,
                champion: s.champion,
            })
            .collect(),
        games,
        next: c.next_game().map(|n| NextGameView {
            number: n.number,
            players: [name(n.players[0]), name(n.players[1])],
            colours: [n.colours[0].to_string(), n.colours[1].to_string()],
            sits_out: name(n.out),
            explanation: n.explanation.into(),
        }),
        champion: c.champion().map(name),
        champion_explanation: c.explain_champion().map(Into::into),
    }
}

// ----- forum texts -----

fn esc(m: Markup, s: &str) -> String {
    crate::forum::escape(m, s)
}

fn heading(m: Markup, s: &str) -> String {
    match m {
        Markup::BbCode => format!("[b]{}[/b]\n", esc(m, s)),
        Markup::Markdown => format!("## {}\n", esc(m, s)),
    }
}

fn table_text(m: Markup, header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    match m {
        Markup::BbCode => {
            out.push_str("[table]\n[tr]");
            for h in header {
                out.push_str(&format!("[th]{h}[/th]"));
            }
            out.push_str("[/tr]\n");
            for r in rows {
                out.push_str("[tr]");
                for c in r {
                    out.push_str(&format!("[td]{}[/td]", esc(m, c)));
                }
                out.push_str("[/tr]\n");
            }
            out.push_str("[/table]\n");
        }
        Markup::Markdown => {
            out.push_str(&format!("| {} |\n", header.join(" | ")));
            out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
            for r in rows {
                let cells: Vec<String> = r.iter().map(|c| esc(m, c)).collect();
                out.push_str(&format!("| {} |\n", cells.join(" | ")));
            }
        }
    }
    out
}

fn notes(m: Markup, lines: &[ExplanationView]) -> String {
    lines
        .iter()
        .map(|e| match m {
            Markup::BbCode => format!("[*]{}\n", esc(m, &e.line())),
            Markup::Markdown => format!("- {}\n", esc(m, &e.line())),
        })
        .fold(
            match m {
                Markup::BbCode if !lines.is_empty() => "[list]\n".to_string(),
                _ => String::new(),
            },
            |acc, l| acc + &l,
        )
        + if m == Markup::BbCode && !lines.is_empty() {
            "[/list]\n"
        } else {
            ""
        }
}

/// A league post: the table with its explanations, the schedule and
/// results of every double round-robin, the playoff.
pub fn league_forum(v: &LeagueView, m: Markup) -> String {
    let mut out = heading(
        m,
        &format!(
            "{} — {}{}",
            v.name,
            v.rule_set,
            if v.provisional {
                " (provisional table)"
            } else {
                ""
            }
        ),
    );
    let rows: Vec<Vec<String>> = v
        .table
        .iter()
        .map(|r| {
            vec![
                r.place.to_string(),
                r.player.clone(),
                format!("{}-{}", r.wins, r.losses),
                format!("{}:{}", r.pawns_for, r.pawns_against),
                format!("{} min", r.win_minutes),
            ]
        })
        .collect();
    out.push_str(&table_text(
        m,
        &["#", "Player", "W-L", "Pawns", "Win time"],
        &rows,
    ));
    out.push_str(&notes(m, &v.table_explanations));
    out.push('\n');
    for d in &v.drrs {
        let title = match d.status {
            "scheduled" => format!(
                "DRR {}: #1 {}, #2 {}, #3 {}",
                d.number,
                d.positions.first().map_or("", |s| s.as_str()),
                d.positions.get(1).map_or("", |s| s.as_str()),
                d.positions.get(2).map_or("", |s| s.as_str()),
            ),
            "cancelled" => format!(
                "DRR {}: cancelled ({})",
                d.number,
                d.note.as_deref().unwrap_or("")
            ),
            _ => format!("DRR {}: positions not rolled yet", d.number),
        };
        out.push_str(&heading(m, &title));
        if !d.games.is_empty() {
            out.push_str(&games_table(m, &d.games));
        }
    }
    for p in &v.playoffs {
        out.push_str(&heading(
            m,
            &format!(
                "{} {}: {} ({}) {}-{} {} ({})",
                p.code,
                p.stage,
                p.higher,
                p.higher_colours,
                p.wins[0],
                p.wins[1],
                p.lower,
                p.lower_colours
            ),
        ));
        out.push_str(&notes(m, std::slice::from_ref(&p.explanation)));
        if !p.games.is_empty() {
            out.push_str(&games_table(m, &p.games));
        }
    }
    if let Some(c) = &v.champion {
        out.push_str(&heading(m, &format!("Champion: {c}")));
    }
    out
}

fn games_table(m: Markup, games: &[LeagueGameView]) -> String {
    let rows: Vec<Vec<String>> = games
        .iter()
        .map(|g| {
            vec![
                g.stage.clone(),
                format!("{} v {}", g.players[0], g.players[1]),
                match g.status {
                    "played" => g.score.clone().unwrap_or_default(),
                    "cancelled" => "cancelled".into(),
                    _ => String::new(),
                },
                g.time.clone().unwrap_or_default(),
            ]
        })
        .collect();
    table_text(m, &["Game", "Players", "Pawns", "Time"], &rows)
}

/// A Challengers post: standings, games and the next game.
pub fn challengers_forum(v: &ChallengersView, m: Markup) -> String {
    let mut out = heading(
        m,
        &format!("{} — {}, first to {}", v.name, v.rule_set, v.first_to),
    );
    let rows: Vec<Vec<String>> = v
        .standings
        .iter()
        .map(|s| {
            vec![
                s.place.to_string(),
                s.player.clone(),
                format!("{}-{}", s.wins, s.losses),
                s.at_boards.to_string(),
                format!("{}:{}", s.pawns_for, s.pawns_against),
            ]
        })
        .collect();
    out.push_str(&table_text(
        m,
        &["#", "Player", "W-L", "At-boards", "Pawns"],
        &rows,
    ));
    if !v.qualifier.is_empty() {
        out.push_str(&format!(
            "\nGame 0 (3TQ): 1st {}, 2nd {}, 3rd {}\n\n",
            esc(m, &v.qualifier[0]),
            esc(m, v.qualifier.get(1).map_or("", |s| s.as_str())),
            esc(m, v.qualifier.get(2).map_or("", |s| s.as_str())),
        ));
    }
    let games: Vec<Vec<String>> = v
        .games
        .iter()
        .map(|g| {
            vec![
                format!("Game {}", g.number),
                format!(
                    "{} ({}) v {} ({})",
                    g.players[0], g.colours[0], g.players[1], g.colours[1]
                ),
                g.score.clone(),
                g.time.clone(),
                g.sat_out.clone(),
            ]
        })
        .collect();
    if !games.is_empty() {
        out.push_str(&table_text(
            m,
            &["Game", "Players", "Pawns", "Time", "Sat out"],
            &games,
        ));
    }
    if let Some(n) = &v.next {
        out.push_str(&notes(m, std::slice::from_ref(&n.explanation)));
    }
    if let Some(c) = &v.champion_explanation {
        out.push_str(&notes(m, std::slice::from_ref(c)));
    }
    out
}
