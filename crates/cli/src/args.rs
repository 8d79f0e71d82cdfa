//! The command line: `arbiter <noun> <verb>`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Arbiter runs competitions for game communities and explains every decision by its rule.",
    after_help = "Start with `arbiter demo`. Every read command takes --json."
)]
pub struct Cli {
    /// The database: a SQLite file, or a postgres:// URL (e.g.
    /// postgres://user:password@host:5432/arbiter) [default: the user's data
    /// directory, arbiter/arbiter.db].
    #[arg(
        long,
        global = true,
        env = "ARBITER_DB",
        value_name = "PATH|URL",
        help_heading = "Global options"
    )]
    pub db: Option<String>,
    /// The competition to work on (not needed when there is only one).
    #[arg(
        short = 'c',
        long,
        global = true,
        env = "ARBITER_COMPETITION",
        value_name = "ID",
        help_heading = "Global options"
    )]
    pub competition: Option<String>,
    /// Print JSON instead of tables and text.
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,
    /// Who is acting, recorded with every event [default: $USER].
    #[arg(
        long,
        global = true,
        env = "ARBITER_ACTOR",
        value_name = "NAME",
        help_heading = "Global options"
    )]
    pub actor: Option<String>,
    /// The time of the action (YYYY-MM-DD or RFC 3339) [default: now]. Scripts use it to replay history.
    #[arg(
        long,
        global = true,
        value_name = "TIME",
        help_heading = "Global options"
    )]
    pub at: Option<String>,
    /// A key that makes a retried command harmless: the same key twice stores it once.
    #[arg(
        long,
        global = true,
        value_name = "KEY",
        help_heading = "Global options"
    )]
    pub idempotency_key: Option<String>,
    /// Make the SQLite database (and its directory) if it does not exist.
    /// Without it only the commands that create (`competition create` and
    /// the other formats' `create`, `import`, `demo`, `account add`,
    /// `serve --demo`, a script with one of them) make one; others refuse a
    /// path that holds no database.
    #[arg(long, global = true, help_heading = "Global options")]
    pub create: bool,
    #[command(subcommand)]
    pub command: Noun,
}

#[derive(Debug, Subcommand)]
pub enum Noun {
    /// Create, list and show competitions.
    #[command(subcommand)]
    Competition(CompetitionCmd),
    /// Show and change the rules (versioned by round).
    #[command(subcommand)]
    Rules(RulesCmd),
    /// Add and remove moderators.
    #[command(subcommand)]
    Moderator(ModeratorCmd),
    /// Register, approve and manage players.
    #[command(subcommand)]
    Player(PlayerCmd),
    /// Volunteer eliminators (TWS Pairings).
    #[command(subcommand)]
    Eliminator(EliminatorCmd),
    /// Skipping rounds (TWS Skipping Rounds).
    #[command(subcommand)]
    Skip(SkipCmd),
    /// Announce, show, export and close rounds.
    #[command(subcommand)]
    Round(RoundCmd),
    /// Record, adjudicate and correct results.
    #[command(subcommand)]
    Result(ResultCmd),
    /// Show or cancel a game.
    #[command(subcommand)]
    Game(GameCmd),
    /// Quick-round games and their leaderboard.
    #[command(subcommand)]
    Quick(QuickCmd),
    /// The ladder: standings and why each player is where he is.
    #[command(subcommand)]
    Ladder(LadderCmd),
    /// Statistics: outcomes by side, bid, ending and game length; per-player records (`--all`: every ladder).
    Stats(StatsArgs),
    /// The event history of a competition (event, actor, time).
    History(HistoryArgs),
    /// Undo the last event by appending a correcting event.
    Undo,
    /// Check a round's draws against its revealed seed.
    #[command(subcommand)]
    Draw(DrawCmd),
    /// The formats' own nouns (`league`, `challengers`, `sunjang`,
    /// `round-robin`), each in its format's module, from the registry
    /// (`crate::formats::FormatNoun`).
    #[command(flatten)]
    Format(crate::formats::FormatNoun),
    /// Verify rounds of die-roll against their published seeds.
    #[command(subcommand)]
    Roll(RollCmd),
    /// Ratings of a Twilight Struggle ladder (ARB-R46) or an XMadn league (ARB-R49): AREA, Elo or Glicko-2, with each player's history.
    Ratings(RatingsArgs),
    /// Monte-Carlo projection of the competition: each player's chances (ARB-R48).
    Project(ProjectArgs),
    /// Hypothetical results: a ladder after its round closes, an XMadn league's table, a Sunjang season and its next plan, a round-robin league's table; nothing is stored.
    WhatIf(WhatIfArgs),
    /// What is still possible: clinched, eliminated or open, per player and zone (ARB-R47).
    Clinch(ClinchArgs),
    /// A calendar feed (iCalendar) on standard output: the competition's rounds and deadlines, a player's games, or an account's.
    Calendar(CalendarArgs),
    /// The standings of any format, one row per player (--csv for a spreadsheet).
    Standings(TableArgs),
    /// Every game and its result, any format (--csv for a spreadsheet); `results import FILE.csv` records results in bulk.
    Results(ResultsArgs),
    /// Run a file of arbiter commands, one per line.
    Script(ScriptArgs),
    /// Build a realistic demo ladder and show it.
    Demo(DemoArgs),
    /// Serve the web pages and the JSON API (`/api`) on this database.
    Serve(ServeArgs),
    /// Accounts that log in to `arbiter serve`, and their roles.
    #[command(subcommand)]
    Account(AccountCmd),
    /// Write competitions (--all: the whole installation) to a JSON Lines file; it holds secrets unless --public.
    #[command(long_about = EXPORT_HELP)]
    Export(ExportArgs),
    /// Add the competitions (and accounts) of an export file, all or nothing.
    #[command(long_about = IMPORT_FILE_HELP)]
    Import(ImportArgs),
}

const EXPORT_HELP: &str = "Write competitions to a JSON Lines file (docs/export-format.md): \
every event as stored, the idempotency keys and the secrets. Deterministic: the same database \
exports to the same bytes, and an import exports back byte for byte.\n\n\
Without -c or --all: the only competition. With --all: every competition, and the accounts \
(with their password hashes), their roles and API token hashes; sessions are never exported. \
Move an installation with `arbiter --db old.db export --all -o x.jsonl` then \
`arbiter --db NEW import x.jsonl`.\n\n\
The export holds secrets: the unrevealed draw seeds a competition committed to (whoever reads \
them can predict its next draws) and, with --all, password and token hashes and e-mail \
addresses. Keep it private. --without-seeds leaves the seeds out (the imported competitions \
then cannot draw their next round), --without-credentials the password and token hashes, and \
--public all of them and the e-mail addresses: an export safe to publish.";

const IMPORT_FILE_HELP: &str = "Add the competitions, accounts, grants and API tokens of an \
export file (or - for standard input). The whole file is read and checked first, every event \
decoded and folded by its format's rules; a refusal names the line and field, and nothing is \
imported. Refused too, storing nothing, when one of its competitions or usernames exists \
already. UTF-8; a byte-order mark and CRLF line ends are accepted.";

/// `arbiter export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Every competition, with the accounts, their roles and API tokens (takes precedence over -c).
    #[arg(long)]
    pub all: bool,
    /// Write to FILE (replaced whole, never left half-written) instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Leave out the unrevealed draw seeds (the imported competitions then cannot draw or roll with them).
    #[arg(long)]
    pub without_seeds: bool,
    /// Leave out the password hashes (written empty: those accounts cannot log in until given a new password) and the API token hashes.
    #[arg(long)]
    pub without_credentials: bool,
    /// An export safe to publish: without the seeds, the credentials and the accounts' e-mail addresses.
    #[arg(long)]
    pub public: bool,
    /// Refused: it left out only the seeds, not the password and token hashes (issue 14, item 8).
    #[arg(long, hide = true)]
    pub without_secrets: bool,
}

/// `arbiter import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The export file, or - for standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum AccountCmd {
    /// Create an account; the password is the first line of standard input
    /// (or ARBITER_PASSWORD).
    Add {
        username: String,
        /// The name shown, and played under.
        #[arg(long)]
        name: String,
        #[arg(long)]
        email: Option<String>,
        /// May create competitions.
        #[arg(long)]
        organizer: bool,
    },
    /// Set a new password (from standard input) and end the account's sessions and API tokens.
    Password { username: String },
    /// The account's API tokens: id, label, created, last used, expiry.
    Tokens { username: String },
    /// Revoke one API token of the account, by the id `arbiter account tokens` shows.
    RevokeToken { username: String, id: String },
    /// Remove the account with its roles, sessions and API tokens. The
    /// history keeps its username as the actor of what it did.
    Remove { username: String },
    /// Every account with its roles.
    List,
    /// Give an account a role in a competition.
    Grant {
        username: String,
        competition: String,
        /// owner, moderator or player.
        #[arg(long)]
        role: String,
        /// For a player: the name he plays under in the competition.
        #[arg(long)]
        player: Option<String>,
    },
    /// Take a role away.
    Revoke {
        username: String,
        competition: String,
        #[arg(long)]
        role: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum CompetitionCmd {
    /// Create a competition from a preset or a rules file.
    Create {
        /// The id used on the command line, e.g. `tws-ladder`.
        id: String,
        /// Its display name.
        #[arg(long)]
        name: String,
        /// A preset [possible values: tws-ladder, xmadn-league, xmadn-challengers].
        #[arg(long, default_value = "tws-ladder", conflicts_with = "rules")]
        preset: String,
        /// A rules file (TOML).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Moderators (repeatable).
        #[arg(long = "moderator", value_name = "NAME")]
        moderators: Vec<String>,
    },
    /// List the competitions in the database.
    List,
    /// Summary of a competition.
    Show,
    /// Show the competition's time zone, or set it (an IANA name such as
    /// Europe/Berlin): its times are shown in it, and a deadline given as a
    /// day ends at 23:59:59 there (ARB-R82).
    TimeZone {
        /// The zone to set; without it, the zone is shown.
        zone: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum RulesCmd {
    /// Print the rules in force (TOML), or those of a round.
    Show {
        #[arg(long)]
        round: Option<u32>,
    },
    /// Every version of the rules and the round it applies from.
    Versions,
    /// Change the rules from a round on (default: the next round announced).
    Change {
        #[arg(long, value_name = "FILE")]
        file: PathBuf,
        #[arg(long)]
        from_round: Option<u32>,
        #[arg(long)]
        reason: String,
    },
    /// Print a preset's rules file.
    Preset {
        #[arg(default_value = "tws-ladder")]
        name: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum ModeratorCmd {
    /// Add a moderator (a moderator who also plays never moderates his own game).
    Add {
        /// The moderator's name (the same as his player name if he plays).
        name: String,
    },
    /// Remove a moderator (games already given to him keep him).
    Remove {
        /// The moderator's name.
        name: String,
    },
    /// The active moderators.
    List,
}

#[derive(Debug, Subcommand)]
pub enum PlayerCmd {
    /// Ask to join the ladder (a moderator approves).
    Apply {
        name: String,
        /// The surname used in game names [default: the last word of the name].
        #[arg(long)]
        surname: Option<String>,
    },
    /// Approve an application: the player enters at the bottom.
    Approve {
        /// The applicant's name.
        name: String,
    },
    /// Decline an application.
    Decline {
        name: String,
        #[arg(long)]
        reason: String,
    },
    /// Add a player directly (apply and approve).
    Add {
        name: String,
        #[arg(long)]
        surname: Option<String>,
    },
    /// Register an outsider who volunteers as eliminator.
    Guest {
        name: String,
        #[arg(long)]
        surname: Option<String>,
    },
    /// An inactive player re-enters at the bottom.
    Reenter {
        /// The inactive player's name.
        name: String,
    },
    /// A player leaves the ladder.
    Withdraw {
        name: String,
        #[arg(long)]
        reason: String,
    },
    /// Everyone registered, with status.
    List,
    /// A player's record, side balance, games and moves with reasons.
    Show { name: String },
    /// Add every player of a CSV file, all or nothing (any format that registers players).
    #[command(long_about = IMPORT_HELP)]
    Import {
        /// The CSV file: a header row naming the columns, then one player a row.
        file: PathBuf,
    },
}

const IMPORT_HELP: &str = "Add every player of a CSV file, all or nothing: every row is checked \
and decided by the rules first; a refused row stores nothing.\n\n\
The first row names the columns (any order). A TWS ladder: name, surname (optional). A Sunjang \
league: name, rank (30k..1k, 1d..9d; a trailing ? marks it provisional), rating, and optionally \
provisional (yes/no), corr_rank, corr_rating. XMadn events name their players at creation.\n\n\
UTF-8 only (a byte-order mark and CRLF line ends are fine); at most 8 MiB and 20,000 rows. \
A name cannot start with = + - @ (a spreadsheet would run it as a formula). Errors name the \
line and column.";

/// `arbiter standings` / `arbiter results`.
#[derive(Debug, Args)]
pub struct TableArgs {
    /// Print CSV (RFC 4180). A text cell that starts with =, +, -, @, a tab or a carriage
    /// return gets a leading ' so that a spreadsheet never runs it as a formula (OWASP CSV
    /// injection).
    #[arg(long)]
    pub csv: bool,
}

/// `arbiter results`: the results as a table, or `import` a file of them.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ResultsArgs {
    #[command(subcommand)]
    pub command: Option<ResultsCmd>,
    #[command(flatten)]
    pub table: TableArgs,
}

#[derive(Debug, Subcommand)]
pub enum ResultsCmd {
    /// Record the results of a CSV file (the forum spreadsheet), all or nothing: each row is
    /// decided by the rules in order, then everything is stored in one append; a refused row
    /// names its line and column and stores nothing. The header names the columns: `game`
    /// (G12, or the two players as A-B; or the players in `home` and `away`, `black` and
    /// `white`, or `player_a` and `player_b`), `result` or `score` (as `what-if --result`
    /// takes it: a ladder's winner, ussr, us or tie; an XMadn game's PAWNS@TIME; a Sunjang
    /// outcome; a round robin's score), `at` (when it was played) and the format's own
    /// (a ladder's `by`, `vp`, `turn`, `note`; a round robin's `minutes`). A row already
    /// recorded as the file says is left as it is.
    Import {
        /// The CSV file.
        file: PathBuf,
        /// Show what would be recorded, and store nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum EliminatorCmd {
    /// A member or a registered guest volunteers to play odd players as eliminator.
    Volunteer {
        /// The volunteer's name.
        name: String,
    },
    /// A volunteer no longer serves.
    StandDown {
        /// The volunteer's name.
        name: String,
    },
    /// The volunteers.
    List,
}

#[derive(Debug, Subcommand)]
pub enum SkipCmd {
    /// Skip a round (default: the next round to be announced).
    Request {
        name: String,
        #[arg(long)]
        round: Option<u32>,
    },
    Cancel {
        name: String,
        #[arg(long)]
        round: Option<u32>,
    },
    /// Skips asked for rounds not yet announced.
    List,
}

#[derive(Debug, Subcommand)]
pub enum RoundCmd {
    /// Announce the next round (closing the finished one first).
    Announce(AnnounceArgs),
    /// Pair a player who joined during the round (usually against an eliminator).
    AddGame {
        /// The member who joined during the round.
        name: String,
        /// A volunteer eliminator, or another unpaired member.
        #[arg(long)]
        opponent: String,
        /// Why he is paired late (recorded with the game).
        #[arg(long)]
        reason: String,
    },
    /// Pairings, sides, deadlines and overdue games of a round [default: the latest].
    Show { number: Option<u32> },
    /// Close the running round: the re-sort, with every move explained.
    Close {
        /// Show the re-sort without storing it.
        #[arg(long)]
        preview: bool,
        /// Close before the last games are decided, to start the next round:
        /// they carry over and count in the next round (needs --reason).
        #[arg(long, requires = "reason")]
        early: bool,
        /// Why the round closes early.
        #[arg(long, requires = "early")]
        reason: Option<String>,
    },
    /// The re-sort of a closed round, explained.
    Explain { number: Option<u32> },
    /// The round announcement as forum text.
    Export {
        number: Option<u32>,
        /// bbcode or markdown.
        #[arg(long, default_value = "bbcode")]
        format: String,
    },
}

#[derive(Debug, Args)]
pub struct AnnounceArgs {
    /// A deadline earlier than the limit (YYYY-MM-DD).
    #[arg(long)]
    pub deadline: Option<String>,
    /// The volunteer eliminator for the odd last player.
    #[arg(long)]
    pub eliminator: Option<String>,
    /// Override the pairings: every pair as `A:B` (repeatable). Needs --reason.
    #[arg(long = "pair", value_name = "A:B")]
    pub pairs: Vec<String>,
    /// With --pair: the player with a bye.
    #[arg(long)]
    pub bye: Vec<String>,
    /// Why the pairings are an exception.
    #[arg(long)]
    pub reason: Option<String>,
    /// Show pairings and sides without storing anything.
    #[arg(long)]
    pub preview: bool,
}

#[derive(Debug, Args)]
pub struct OutcomeArgs {
    /// A game id (G12 or 12) or a player's name (his game in the running round).
    pub game: String,
    /// The winner's name.
    #[arg(long, conflicts_with = "tie")]
    pub winner: Option<String>,
    /// The game was tied (the US advances on the ladder, TWS-R11).
    #[arg(long)]
    pub tie: bool,
    /// How the game ended: vp, defcon, europe, final-scoring, wargames, concession, or a word
    /// of your own (`unknown` if nobody knows).
    #[arg(long = "by", value_name = "ENDING")]
    pub ended_by: String,
    /// The final VP marker (+ toward the US, - toward the USSR).
    #[arg(long, allow_hyphen_values = true)]
    pub vp: Option<i32>,
    /// The turn the game ended in.
    #[arg(long)]
    pub turn: Option<u8>,
    #[arg(long)]
    pub note: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum ResultCmd {
    /// Record a result.
    Record {
        #[command(flatten)]
        outcome: OutcomeArgs,
        /// The players agreed on this outcome after the deadline.
        #[arg(long)]
        agreed: bool,
    },
    /// A player did not play: his opponent wins by forfeit.
    Forfeit {
        /// A game id (G12) or a player's name.
        game: String,
        /// The player who did not play: his opponent wins.
        #[arg(long)]
        absent: String,
        /// Free text kept with the result.
        #[arg(long)]
        note: Option<String>,
    },
    /// Adjudicate an overdue game, with the record of the decision.
    Adjudicate {
        /// A game id (G12) or a player's name.
        game: String,
        /// The player the moderator decides has won.
        #[arg(long, conflicts_with = "tie")]
        winner: Option<String>,
        /// The moderator decides a tie (the US advances, TWS-R11).
        #[arg(long)]
        tie: bool,
        /// The final game state (submitted or deduced from the log).
        #[arg(long)]
        final_state: String,
        /// The USSR player's statement on the position and the timeliness of play.
        #[arg(long)]
        ussr_statement: Option<String>,
        /// The US player's statement on the position and the timeliness of play.
        #[arg(long)]
        us_statement: Option<String>,
        /// The third party's opinion (name and assessment).
        #[arg(long)]
        third_party: Option<String>,
        /// The moderator's decision and its grounds.
        #[arg(long)]
        decision: String,
        /// The VP marker in the final state (+ toward the US, - toward the USSR).
        #[arg(long, allow_hyphen_values = true)]
        vp: Option<i32>,
        /// The turn of the final state.
        #[arg(long)]
        turn: Option<u8>,
    },
    /// Correct a recorded result (a new event; the old one stays in the history).
    Correct {
        #[command(flatten)]
        outcome: OutcomeArgs,
        /// Why the recorded result was wrong (kept in the history).
        #[arg(long)]
        reason: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum GameCmd {
    /// A game, its result and the reasons for its pairing and sides.
    Show { game: String },
    /// Cancel a game (it counts for nobody).
    Cancel {
        game: String,
        #[arg(long)]
        reason: String,
    },
    /// Every game, or those of a round.
    List {
        #[arg(long)]
        round: Option<u32>,
    },
}

#[derive(Debug, Subcommand)]
pub enum QuickCmd {
    /// Schedule a quick-round game.
    Add {
        #[arg(long)]
        ussr: String,
        #[arg(long)]
        us: String,
    },
    /// The quick-round leaderboard.
    Leaderboard,
}

#[derive(Debug, Subcommand)]
pub enum LadderCmd {
    /// The ladder as a table.
    Show {
        /// Show the ladder as it was after event SEQ.
        #[arg(long, value_name = "SEQ")]
        as_of: Option<u64>,
    },
    /// Why a player is where he is (his moves with reasons).
    Explain { name: String },
    /// Carry a running ladder over from earlier records, a CSV or JSON file (issue 18 §1).
    #[command(long_about = CARRY_OVER_HELP)]
    CarryOver {
        /// The file: `.csv` (one row a member) or `.json`.
        file: PathBuf,
        /// Show the ladder it would make, and store nothing.
        #[arg(long)]
        dry_run: bool,
        /// The round to continue from: the next round to announce (required for CSV).
        #[arg(long, value_name = "N")]
        round: Option<u32>,
        /// Where the records come from (default: the file's `source`, or its name).
        #[arg(long, value_name = "TEXT")]
        source: Option<String>,
    },
}

const LEAGUE_CARRY_OVER_HELP: &str = "Carry the double round-robins an XMadn league has \
already played over from its records, into the league created with its three players and \
nothing rolled yet: one `league-carried-over` event, all or nothing, every game checked by the \
league's rules as if recorded here (ARB-R80).\n\n\
CSV: a header row, then one row a game: drr (1, 2, ...), game (1 to 6, the document's \
schedule), player_1, player_2 (in the schedule's order: game 1 is player #1 v player #2, and \
a double round-robin's positions are read from its game 1), pawns_1, pawns_2 (the counted \
pawns) and time (m:ss) for a game played, or cancelled (the players' note, XM-R6), and an \
optional date at. A game with neither is still to play (only in the last double round-robin).";

const SUNJANG_CARRY_OVER_HELP: &str = "Carry a Sunjang league's last season over from its \
records, into a league with nobody registered and no season yet: one `sunjang-carried-over` \
event, all or nothing, checked by the rules of the events it stands for (ARB-R77..ARB-R79). \
The next season is planned from it as from a played season.\n\n\
CSV: a header row, then one row a player of the season: name, rank, provisional, rating, \
corr_rank, corr_rating (his figures now, as in the player file), group (A1, B2, or the letter \
alone for the only group of a division), place (optional: checked against section D), \
gamepoints (won in group play, without the starting gamepoints: 3, 3.5 or 3½), sodos (12, \
12.25 or 12¼), beat, jigo, both_forfeit (names of his group separated by `;`: the results \
among players level on gamepoints and SODOS are required), withdrawn (yes: he left the \
tournament, B.4), champion (yes on the defending champion's row).";

const CARRY_OVER_HELP: &str = "Carry a running ladder over from earlier records, into a ladder \
with nobody registered and no round announced yet: one `carried-over` event, all or nothing, \
checked by the rules of the events it stands for (ARB-R72..ARB-R76).\n\n\
CSV: a header row, then one row a member: rung (1 is the top, or `inactive` for the inactive \
list), name, surname (optional), ussr_games, us_games, last_side (USSR, US, or empty with no \
game), wins, losses, ties, skip_streak, missed_rounds, champion_streak (rung 1 only). Give \
--round N. JSON: {\"round\": N, \"source\": ..., \"champion_streak\": N, \"ladder\": [members, \
rung 1 first], \"inactive\": [...]}, each member with the CSV's fields.";

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// One player's statistics.
    #[arg(long)]
    pub player: Option<String>,
    /// Every TWS ladder of the installation together, players matched by
    /// name (case and surrounding spaces ignored); no competition needed.
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Only the last N events.
    #[arg(long)]
    pub limit: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum DrawCmd {
    /// Recompute a round's side draws from its revealed seed.
    Verify {
        #[arg(long)]
        round: Option<u32>,
    },
}

#[derive(Debug, Args)]
pub struct ScriptArgs {
    /// The script: one arbiter command per line (without `arbiter`), `#` comments.
    pub file: PathBuf,
    /// Run it for real at once, without trying it on a copy of the database
    /// first (faster for long histories; a refused line then leaves the
    /// lines before it stored).
    #[arg(long)]
    pub no_rehearsal: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
    pub addr: std::net::SocketAddr,
    /// Build the demo competitions first, on a fresh database: a new
    /// temporary file (deleted when the server stops), or the --db file if
    /// it holds no competition yet. Demo accounts are made too (their
    /// password is printed).
    #[arg(long)]
    pub demo: bool,
    /// The SMTP server for round announcements and deadline reminders:
    /// smtp://host:port (a local relay, no TLS), smtp+starttls://user:pass@host:587
    /// or smtps://user:pass@host:465.
    #[arg(long, value_name = "URL", env = "ARBITER_SMTP", requires = "mail_from")]
    pub smtp: Option<String>,
    /// The sender of the e-mail, e.g. "Ladder <ladder@example.org>".
    #[arg(long, value_name = "ADDRESS", env = "ARBITER_MAIL_FROM")]
    pub mail_from: Option<String>,
    /// The address the e-mail links to (default: http://<addr>).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Send the session cookie over plain HTTP too (no `Secure` flag). Only
    /// for a server on a private network without HTTPS; browsers send
    /// Secure cookies to http://localhost anyway.
    #[arg(long)]
    pub insecure_cookies: bool,
    /// A reverse proxy in front of the server (repeat for several): from
    /// its address, the client is the one its X-Forwarded-For names, for
    /// login throttling and registration limits. From any other peer the
    /// header is ignored.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Let webhooks reach loopback and private addresses (a receiver on
    /// this machine or a closed network). Off by default, so that an
    /// organizer cannot make the server call inside its own network
    /// (docs/security.md).
    #[arg(long)]
    pub webhooks_to_private: bool,
    /// Seconds a webhook's receiver has to answer (1 to 60); a claimed
    /// notification is tried again after twice that and 5 s if the server
    /// died meanwhile.
    #[arg(long, default_value_t = 10, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=60))]
    pub webhook_timeout: u64,
    /// Hours before a game's deadline that webhooks are told it approaches
    /// (1 to 168: an hour to a week), once per game and deadline.
    #[arg(long, default_value_t = 24, value_name = "HOURS",
          value_parser = clap::value_parser!(u64).range(1..=168))]
    pub deadline_notice_hours: u64,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The demo competition's id.
    #[arg(long, default_value = "tws-demo")]
    pub id: String,
}

/// A result of a double-threat game: two players, their counted pawns in
/// the same order, the game's time.
#[derive(Debug, Args)]
pub struct XmResultArgs {
    /// The first player.
    pub a: String,
    /// The second player.
    pub b: String,
    /// Counted pawns of the two players in that order, e.g. 4-2 (2T) or 5-8 (2T+).
    #[arg(long, required_unless_present = "home", conflicts_with = "home")]
    pub pawns: Option<String>,
    /// Instead of --pawns: the pawns each player brought home per allied colour, vanguard/rearguard, the two players in that order, e.g. 4/1,2/3; the counted pawns follow from the rule set (best colour in 2T, both in 2T+).
    #[arg(long, value_name = "V/R,V/R")]
    pub home: Option<String>,
    /// The game's time, m:ss (e.g. 23:05).
    #[arg(long)]
    pub time: String,
}

#[derive(Debug, Subcommand)]
pub enum LeagueCmd {
    /// Create a league of three players.
    Create {
        /// The id used on the command line, e.g. `xm-league`.
        id: String,
        #[arg(long)]
        name: String,
        /// The three players (repeat --player).
        #[arg(long = "player", value_name = "NAME")]
        players: Vec<String>,
        /// A preset [possible values: xmadn-league].
        #[arg(long, default_value = "xmadn-league", conflicts_with = "rules")]
        preset: String,
        /// A rules file (TOML).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
    },
    /// The table, the schedule, the playoff and what is still open.
    Show,
    /// Carry the double round-robins already played over from the league's records, a CSV file (issue 18 §1).
    #[command(long_about = LEAGUE_CARRY_OVER_HELP)]
    CarryOver {
        /// The file: one row a game.
        file: PathBuf,
        /// Show the league it would make, and store nothing.
        #[arg(long)]
        dry_run: bool,
        /// Where the records come from (default: the file's name).
        #[arg(long, value_name = "TEXT")]
        source: Option<String>,
    },
    /// Why each player is where he is on the table.
    Explain {
        /// Only this player.
        player: Option<String>,
    },
    /// Roll the dice the league needs now: positions of the next DRR, or step 6 of the tiebreak (a committed draw), or enter the faces of real dice rolled at the table with --faces.
    Roll {
        /// The faces of real dice rolled at the table, one round per --faces (e.g. Ames=5,Baker=5,Clark=2 --faces Ames=6,Baker=3): the first round every player who rolls, each next the players still tied, the highest tie first. Recorded as entered by you (--actor), not as a committed draw.
        #[arg(long = "faces", value_name = "NAME=FACE,...")]
        faces: Vec<String>,
    },
    /// Record a round-robin result.
    Result {
        #[command(flatten)]
        result: XmResultArgs,
        /// The game (DRR 2 Game 4, 2.4, or its id G10), when the two players have more than one game open.
        #[arg(long)]
        game: Option<String>,
    },
    /// Correct a round-robin result.
    Correct {
        /// The game: DRR 2 Game 4, 2.4, Game 4 (of the running DRR), or its id G10.
        game: String,
        #[command(flatten)]
        result: XmResultArgs,
        #[arg(long)]
        reason: String,
    },
    /// Cancel a remaining game by mutual consent (only once the significant outcomes are determined).
    Cancel {
        /// The game: DRR 1 Game 6, 1.6, Game 6 (of the running DRR), or its id G6.
        game: String,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Cancel the next double round-robin before it begins, by mutual consent.
    CancelDrr {
        drr: u32,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// The suggested order of the remaining Games 4 to 6, and why.
    Suggest,
    /// Start or play the playoff.
    #[command(subcommand)]
    Playoff(PlayoffCmd),
    /// The schedule, table and results as a forum post.
    Export {
        /// bbcode or markdown.
        #[arg(long, default_value = "bbcode")]
        format: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum PlayoffCmd {
    /// Start the next playoff round; the higher seed chooses colours.
    Start {
        /// The higher seed's allied colours, vanguard/rearguard (e.g. red/blue).
        #[arg(long)]
        colours: String,
    },
    /// Record a playoff game.
    Result(XmResultArgs),
}

#[derive(Debug, Subcommand)]
pub enum ChallengersCmd {
    /// Create a Challengers event of three players.
    Create {
        id: String,
        #[arg(long)]
        name: String,
        /// The three players (repeat --player).
        #[arg(long = "player", value_name = "NAME")]
        players: Vec<String>,
        /// A preset [possible values: xmadn-challengers].
        #[arg(long, default_value = "xmadn-challengers", conflicts_with = "rules")]
        preset: String,
        /// A rules file (TOML).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// The distance: first to this many wins (at least 4).
        #[arg(long)]
        first_to: Option<u32>,
    },
    /// Standings, games and the next game.
    Show,
    /// Record Game 0 (3TQ): the finishing order, and the colours 1st place chooses for Game 1.
    Qualifier {
        first: String,
        second: String,
        third: String,
        /// The allied colours 1st place chooses, vanguard/rearguard.
        #[arg(long)]
        choose: String,
        /// Game 0's time, m:ss.
        #[arg(long)]
        time: Option<String>,
        /// Each player's one colour on the 6-colour board in Game 0, in the order the players are named (e.g. red,yellow,blue).
        #[arg(long, value_name = "C1,C2,C3")]
        colours: Option<String>,
    },
    /// Record a counted game.
    Result(XmResultArgs),
    /// Standings and games as a forum post.
    Export {
        #[arg(long, default_value = "bbcode")]
        format: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum RollCmd {
    /// Check every round of die-roll of a league: its seed against the commitment published before it, its faces against the seed.
    Verify,
    /// Recompute a round of die-roll from a published seed, without a database.
    Recompute {
        /// The revealed seed (64 hex digits).
        #[arg(long)]
        seed: String,
        /// The commitment published before the roll (64 hex digits), to check too.
        #[arg(long)]
        commitment: Option<String>,
        /// The players in the order they rolled (repeat).
        #[arg(long = "player", value_name = "NAME")]
        players: Vec<String>,
        /// Faces of the die.
        #[arg(long, default_value_t = 6)]
        faces: u8,
        /// A step-6 tiebreak roll (until someone is separated) instead of a full ordering.
        #[arg(long)]
        tiebreak: bool,
    },
}

/// A Sunjang player's figures (section D.2).
#[derive(Debug, Args)]
pub struct SunjangPlayerArgs {
    pub name: String,
    /// Overall rank, 30k..1k or 1d..9d (a trailing ? marks it provisional).
    #[arg(long)]
    pub rank: String,
    /// The rank is provisional (C.1 addendum).
    #[arg(long)]
    pub provisional: bool,
    /// Overall rating.
    #[arg(long, allow_hyphen_values = true)]
    pub rating: i32,
    /// Correspondence rank.
    #[arg(long)]
    pub corr_rank: Option<String>,
    /// Correspondence rating.
    #[arg(long, allow_hyphen_values = true)]
    pub corr_rating: Option<i32>,
}

/// A Sunjang player's new figures: only the fields given change (at least
/// one).
#[derive(Debug, Args)]
pub struct SunjangUpdateArgs {
    pub name: String,
    /// New overall rank, 30k..1k or 1d..9d (a trailing ? marks it provisional).
    #[arg(long)]
    pub rank: Option<String>,
    /// The rank is provisional (C.1 addendum).
    #[arg(long, conflicts_with = "not_provisional")]
    pub provisional: bool,
    /// The rank is no longer provisional.
    #[arg(long)]
    pub not_provisional: bool,
    /// New overall rating.
    #[arg(long, allow_hyphen_values = true)]
    pub rating: Option<i32>,
    /// New correspondence rank.
    #[arg(long)]
    pub corr_rank: Option<String>,
    /// New correspondence rating.
    #[arg(long, allow_hyphen_values = true)]
    pub corr_rating: Option<i32>,
}

#[derive(Debug, Subcommand)]
pub enum SunjangCmd {
    /// Create a Sunjang league.
    Create {
        id: String,
        #[arg(long)]
        name: String,
        /// A preset [possible values: sunjang-league].
        #[arg(long, default_value = "sunjang-league", conflicts_with = "rules")]
        preset: String,
        /// A rules file (TOML) with the division restrictions per rank.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
    },
    /// Register and manage players.
    #[command(subcommand)]
    Player(SunjangPlayerCmd),
    /// Change the division restrictions per rank: the whole table from a rules file's [[restriction]] rows, or one row (--set, --remove; ARB-R56).
    Restrictions {
        /// A rules file whose [[restriction]] rows replace the whole table.
        #[arg(long, value_name = "FILE", required_unless_present_any = ["set", "remove"], conflicts_with_all = ["set", "remove"])]
        file: Option<PathBuf>,
        /// Set one row: RANKS=DIVISIONS, weakest rank first and highest division first, e.g. "10k-1k=A-B" (replaces the row of exactly those ranks, or adds it).
        #[arg(long, value_name = "RANKS=DIVISIONS", conflicts_with = "remove")]
        set: Option<String>,
        /// Remove the row of exactly these ranks, e.g. "10k-1k".
        #[arg(long, value_name = "RANKS")]
        remove: Option<String>,
        #[arg(long)]
        reason: String,
    },
    /// Carry the league's last season over from its records, a CSV file (issue 18 §1).
    #[command(long_about = SUNJANG_CARRY_OVER_HELP)]
    CarryOver {
        /// The file: one row a player of the season carried over.
        file: PathBuf,
        /// The number of the season carried over (the next season planned is the one after it).
        #[arg(long, value_name = "N")]
        season: u32,
        /// Show the tables and the next season it would make, and store nothing.
        #[arg(long)]
        dry_run: bool,
        /// Where the records come from (default: the file's name).
        #[arg(long, value_name = "TEXT")]
        source: Option<String>,
    },
    /// Plan, show, close seasons.
    #[command(subcommand)]
    Season(SeasonCmd),
    /// Record a group game: BLACK WHITE and the outcome.
    Result {
        black: String,
        white: String,
        /// black, white, jigo, black-forfeits, white-forfeits, both-forfeit.
        #[arg(long)]
        outcome: String,
        /// Correct a recorded result, with this reason.
        #[arg(long)]
        correct: Option<String>,
    },
    /// A group's table and crosstable.
    Group {
        /// The group, e.g. A1 or B2, or B for the only group of B (B1 also works).
        id: String,
    },
    /// Settle a tie nothing else separates (D.2): a player gives way, or a live match's winner.
    #[command(subcommand)]
    Tiebreak(TiebreakCmd),
    /// The final round.
    #[command(subcommand)]
    Final(FinalCmd),
}

#[derive(Debug, Subcommand)]
pub enum SunjangPlayerCmd {
    /// Register a player.
    Add(SunjangPlayerArgs),
    /// New rank or ratings: only the fields given change.
    Update(SunjangUpdateArgs),
    /// The player leaves the tournament (his promotion or demotion merits are lost, B.4).
    Withdraw {
        name: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// A withdrawn player comes back.
    Return { name: String },
    /// Every registered player with his limits by rank.
    List,
}

#[derive(Debug, Subcommand)]
pub enum SeasonCmd {
    /// Plan the next season: divisions, groups, every placement explained.
    Plan {
        /// Show the plan without storing it (with --move or --layout: check the layout against section A, and list every rule it breaks).
        #[arg(long)]
        preview: bool,
        /// Move a player of the automatic plan to another group: NAME:GROUP, e.g. "Ann:B2" (repeatable; ARB-R55).
        #[arg(long = "move", value_name = "NAME:GROUP", conflicts_with = "layout")]
        moves: Vec<String>,
        /// The organizer's layout: a TOML file with `moves = ["NAME:GROUP", ...]` or a `[groups]` table (`B1 = ["NAME", ...]`), and a `reason` (ARB-R55).
        #[arg(long, value_name = "FILE")]
        layout: Option<PathBuf>,
        /// Why the organizer moves these players (1 to 500 characters; recorded with the plan).
        #[arg(long)]
        reason: Option<String>,
    },
    /// The pyramid, groups and tables of a season.
    Show {
        /// The season (default: the last).
        season: Option<u32>,
        /// The pyramid as a tree.
        #[arg(long)]
        tree: bool,
    },
    /// Close the season: every group game decided; the merged rankings are recorded.
    Close,
    /// Why every player landed where he did in a season's plan (promotions, demotions, by rank).
    Moves { season: Option<u32> },
    /// A season's groups as a forum announcement.
    Export {
        #[arg(long, default_value = "bbcode")]
        format: String,
        season: Option<u32>,
    },
}

#[derive(Debug, Subcommand)]
pub enum TiebreakCmd {
    /// The player gives way to the players tied with him.
    GiveWay { name: String },
    /// The winner of a live Sunjang match (15 min + 3x25 s byo-yomi).
    Live { winner: String, loser: String },
}

#[derive(Debug, Subcommand)]
pub enum FinalCmd {
    /// Draw the final round's three players from the closed season.
    Qualify,
    /// Record a final-round game.
    Result {
        black: String,
        white: String,
        #[arg(long)]
        outcome: String,
    },
    /// A finalist withdraws; another player is drawn by the same rules.
    Withdraw { name: String },
    /// The final round.
    Show,
}

#[derive(Debug, Args)]
pub struct RatingsArgs {
    /// The rating system: area, elo or glicko2.
    #[arg(long, global = true, default_value = "area", value_name = "SYSTEM")]
    pub system: String,
    /// Rate the games of every Twilight Struggle ladder of the database together, players matched by name.
    #[arg(long, global = true)]
    pub all: bool,
    #[command(subcommand)]
    pub cmd: Option<RatingsCmd>,
}

#[derive(Debug, Subcommand)]
pub enum RatingsCmd {
    /// One player's rating after each rated game.
    History { player: String },
    /// The AREA report of a round: its rated games, as the AREA keeper asks for them.
    AreaReport {
        #[arg(long)]
        round: u32,
    },
}

#[derive(Debug, Args)]
pub struct ProjectArgs {
    /// Simulated seasons (1 to 100000).
    #[arg(long, default_value_t = 10_000)]
    pub seasons: u32,
    /// The seed: 64 hexadecimal digits, or any text (its SHA-256) [default: from the competition and its version].
    #[arg(long)]
    pub seed: Option<String>,
    /// Ladder rounds to play after the running one.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// The rating system for the odds (a ladder's or an XMadn league's games): area, elo or glicko2.
    #[arg(long, default_value = "area", value_name = "SYSTEM")]
    pub system: String,
}

#[derive(Debug, Args)]
pub struct WhatIfArgs {
    /// A hypothetical result, KEY=VALUE (repeatable, recorded in order). A TWS ladder:
    /// GAME=WINNER, the winner's name, ussr, us or tie (G12=Tanaka). An XMadn league:
    /// A-B=PAWNS@TIME, each player's counted pawns in the key's order and the game's time
    /// (Ames-Baker=4-2@20:10). A Sunjang league: BLACK-WHITE=OUTCOME, black, white, jigo,
    /// black-forfeits, white-forfeits or both-forfeit (Kim-Lee=black); when every group game
    /// then has a result, the next season's plan is shown too. A round-robin league:
    /// GAME=SCORE, the game's number or HOME-AWAY and the score in the order of the names
    /// (Spain-Germany=1-1, G5=1-0); a game already played is imagined with another result.
    #[arg(long = "result", value_name = "KEY=VALUE")]
    pub results: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CalendarArgs {
    /// The games and deadlines of this player of the competition [default: the competition's rounds, seasons and deadlines].
    #[arg(long)]
    pub player: Option<String>,
    /// The games of this account in every competition where it is linked to a player.
    #[arg(long)]
    pub account: Option<String>,
    /// The server address the entries link to.
    #[arg(long, default_value = "http://localhost:8080")]
    pub base_url: String,
}

#[derive(Debug, Args)]
pub struct ClinchArgs {
    /// A Sunjang group ("B2") [default: every group with games left].
    pub group: Option<String>,
}
