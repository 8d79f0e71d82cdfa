//! The model shared by every format: players, sides, games and results.

use std::fmt;

use chrono::{DateTime, Utc};

/// A moment, always UTC. Commands carry their time so the engine stays pure.
pub type Time = DateTime<Utc>;

/// A player's id inside one competition. Ids are dense, from 1, in order of
/// registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u32);

impl PlayerId {
    /// Index into dense per-player vectors.
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

/// A game's id inside one competition, dense from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u32);

impl GameId {
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "G{}", self.0)
    }
}

/// A player as registered: the display name and the surname used in game
/// names ("Ladder Round N USSRSurname v. USSurname").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub surname: String,
}

/// A side (Twilight Struggle) or colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Ussr,
    Us,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Ussr => Side::Us,
            Side::Us => Side::Ussr,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Ussr => "USSR",
            Side::Us => "US",
        }
    }

    pub fn parse(s: &str) -> Option<Side> {
        match s.to_ascii_lowercase().as_str() {
            "ussr" | "soviet" | "su" => Some(Side::Ussr),
            "us" | "usa" => Some(Side::Us),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a game counts as for one of its participants: an eliminator's game
/// is a ladder game for his opponent and a quick-round game for himself
/// (TWS Pairings, TWS Quick Rounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counts {
    Ladder,
    QuickRound,
}

impl Counts {
    pub fn name(self) -> &'static str {
        match self {
            Counts::Ladder => "ladder",
            Counts::QuickRound => "quick round",
        }
    }
}

/// One player in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Participant {
    pub player: PlayerId,
    pub side: Side,
    pub counts: Counts,
}

/// The outcome of a two-sided game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Tie,
}

impl Outcome {
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::Win(Side::Ussr) => "USSR win",
            Outcome::Win(Side::Us) => "US win",
            Outcome::Tie => "tie",
        }
    }
}

/// How a game ended (Twilight Struggle's victory conditions and the ways a
/// game ends off the board).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndTag {
    /// A side reached 20 victory points.
    Vp,
    /// Nuclear war: DEFCON 1 on a player's action.
    Defcon,
    /// Europe control scored.
    EuropeControl,
    /// Final scoring after turn 10.
    FinalScoring,
    /// The Wargames event.
    Wargames,
    /// A player conceded.
    Concession,
    /// A player did not play (forfeit).
    Forfeit,
    /// Decided by the moderator after the deadline.
    Adjudication,
    /// Anything else, named by the moderator.
    Other(String),
}

impl EndTag {
    pub const KNOWN: [(&'static str, EndTag); 8] = [
        ("vp", EndTag::Vp),
        ("defcon", EndTag::Defcon),
        ("europe", EndTag::EuropeControl),
        ("final-scoring", EndTag::FinalScoring),
        ("wargames", EndTag::Wargames),
        ("concession", EndTag::Concession),
        ("forfeit", EndTag::Forfeit),
        ("adjudication", EndTag::Adjudication),
    ];

    /// The short tag used in files and on the command line. A result of
    /// the "other" ending entered since ARB-R58 carries no words of its own
    /// (its note says what happened) and is `other`; an older log's free
    /// text is kept as it was written.
    pub fn tag(&self) -> &str {
        match self {
            EndTag::Vp => "vp",
            EndTag::Defcon => "defcon",
            EndTag::EuropeControl => "europe",
            EndTag::FinalScoring => "final-scoring",
            EndTag::Wargames => "wargames",
            EndTag::Concession => "concession",
            EndTag::Forfeit => "forfeit",
            EndTag::Adjudication => "adjudication",
            EndTag::Other(s) if s.trim().is_empty() => "other",
            EndTag::Other(s) => s,
        }
    }

    /// The fixed vocabulary of endings a result may name (ARB-R58), as
    /// typed: the eight endings and `other` (with a note).
    pub const VOCABULARY: [&'static str; 9] = [
        "vp",
        "defcon",
        "europe",
        "final-scoring",
        "wargames",
        "concession",
        "forfeit",
        "adjudication",
        "other",
    ];

    /// The other spellings each ending is known by (ARB-R58): typed in a
    /// command, or found as free text in a log written before the ruling.
    const SPELLINGS: [(&'static str, EndTag); 27] = [
        ("vp", EndTag::Vp),
        ("20vp", EndTag::Vp),
        ("20-vp", EndTag::Vp),
        ("victory-points", EndTag::Vp),
        ("defcon", EndTag::Defcon),
        ("defcon-1", EndTag::Defcon),
        ("nuclear", EndTag::Defcon),
        ("nuclear-war", EndTag::Defcon),
        ("europe", EndTag::EuropeControl),
        ("europe-control", EndTag::EuropeControl),
        ("final-scoring", EndTag::FinalScoring),
        ("final", EndTag::FinalScoring),
        ("turn-10", EndTag::FinalScoring),
        ("wargames", EndTag::Wargames),
        ("war-games", EndTag::Wargames),
        ("concession", EndTag::Concession),
        ("conceded", EndTag::Concession),
        ("concede", EndTag::Concession),
        ("resign", EndTag::Concession),
        ("resigned", EndTag::Concession),
        ("resignation", EndTag::Concession),
        ("forfeit", EndTag::Forfeit),
        ("forfeited", EndTag::Forfeit),
        ("adjudication", EndTag::Adjudication),
        ("adjudicated", EndTag::Adjudication),
        ("other", EndTag::Other(String::new())),
        ("something-else", EndTag::Other(String::new())),
    ];

    /// `s` compared as spellings are: lower case, spaces and underscores
    /// as hyphens.
    fn spelling(s: &str) -> String {
        s.trim()
            .to_lowercase()
            .split([' ', '_', '-'])
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// The ending one of its spellings names exactly, if any.
    fn known_spelling(s: &str) -> Option<EndTag> {
        let l = Self::spelling(s);
        Self::SPELLINGS
            .iter()
            .find(|(w, _)| *w == l)
            .map(|(_, t)| t.clone())
    }

    /// The ending of the vocabulary `s` most likely meant, for a "did you
    /// mean": the nearest spelling by Jaro-Winkler similarity (0.8 or
    /// more), or a spelling `s` begins (three letters at least).
    pub fn suggest(s: &str) -> Option<&'static str> {
        let l = Self::spelling(s);
        if l.is_empty() {
            return None;
        }
        let spellings = &Self::SPELLINGS;
        let best = spellings
            .iter()
            .map(|(w, t)| {
                let prefix = l.chars().count() >= 3 && w.starts_with(l.as_str());
                let score = if prefix {
                    1.0
                } else {
                    strsim::jaro_winkler(&l, w)
                };
                (score, t)
            })
            .filter(|(score, _)| *score >= 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0))?;
        let tag = best.1.tag();
        Self::VOCABULARY.iter().copied().find(|v| *v == tag)
    }

    /// The longest ending anyone may type (a spelling is far shorter).
    pub const MAX_INPUT: usize = 40;

    /// The ending a command names (ARB-R58): one of the fixed
    /// [`EndTag::VOCABULARY`] (or another spelling of one: `20vp`,
    /// `nuclear`, `europe-control`, `final`, `resign` …). `other` is the
    /// ending for anything else, told by the result's note. Anything
    /// else is refused, naming the field `ended_by` (`--by` on the
    /// command line), with a "did you mean" and the vocabulary, so that a
    /// typo never becomes an ending of its own in the statistics.
    pub fn parse(s: &str) -> Result<EndTag, crate::RuleError> {
        if let Some(t) = Self::known_spelling(s) {
            return Ok(t);
        }
        let shown: String = s.trim().chars().take(Self::MAX_INPUT).collect();
        let hint = if s.chars().count() > Self::MAX_INPUT {
            String::new()
        } else {
            Self::suggest(s)
                .map(|t| format!(" did you mean `{t}`?"))
                .unwrap_or_default()
        };
        Err(crate::RuleError::new(
            "TWS Statistics",
            format!(
                "how the game ended (ended_by, --by) must be one of {}; {shown:?} is not one:{hint} For anything else give `other` with a note saying what happened (ARB-R58)",
                Self::VOCABULARY.join(", ")
            ),
        )
        .field("ended_by"))
    }

    /// A free-text ending stored before ARB-R58, as it reads now: a
    /// spelling of one of the endings is that ending (`"nuclear"` is
    /// DEFCON); anything else stays "other" with its words.
    pub fn legacy(s: &str) -> EndTag {
        Self::known_spelling(s).unwrap_or_else(|| EndTag::Other(s.trim().to_string()))
    }

    /// The ending the statistics count this one under (ARB-R58): a fixed
    /// ending as it is; an old free text under the ending its spelling
    /// names exactly, else under "other", whatever its words.
    pub fn counted(&self) -> EndTag {
        match self {
            EndTag::Other(words) => match Self::known_spelling(words) {
                Some(EndTag::Other(_)) | None => EndTag::Other(String::new()),
                Some(t) => t,
            },
            t => t.clone(),
        }
    }

    pub fn describe(&self) -> &str {
        match self {
            EndTag::Vp => "20 VP",
            EndTag::Defcon => "DEFCON",
            EndTag::EuropeControl => "Europe control",
            EndTag::FinalScoring => "final scoring",
            EndTag::Wargames => "Wargames",
            EndTag::Concession => "concession",
            EndTag::Forfeit => "forfeit",
            EndTag::Adjudication => "adjudication",
            EndTag::Other(s) if s.trim().is_empty() => "other",
            EndTag::Other(s) => s,
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Paired, not yet decided.
    Scheduled,
    /// Played to its end before the deadline.
    Played,
    /// The players agreed on an outcome after the deadline.
    Agreed,
    /// Decided by the moderator after the deadline.
    Adjudicated,
    /// One player did not play; the other wins.
    Forfeited,
    /// Called off: counts for nobody.
    Cancelled,
}

impl GameStatus {
    pub fn name(self) -> &'static str {
        match self {
            GameStatus::Scheduled => "scheduled",
            GameStatus::Played => "played",
            GameStatus::Agreed => "agreed",
            GameStatus::Adjudicated => "adjudicated",
            GameStatus::Forfeited => "forfeited",
            GameStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the game needs nothing more before its round can close.
    pub fn is_resolved(self) -> bool {
        !matches!(self, GameStatus::Scheduled)
    }
}

/// The record of an adjudication (TWS Conduct of Games): the final game
/// state, both players' statements, the third-party opinion and the
/// moderator's decision.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Adjudication {
    pub final_state: String,
    pub ussr_statement: Option<String>,
    pub us_statement: Option<String>,
    pub third_party: Option<String>,
    pub decision: String,
}

/// A game's decided result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: Outcome,
    pub ended_by: EndTag,
    /// Final VP marker (positive toward the US, negative toward the USSR).
    pub vp: Option<i32>,
    /// The turn the game ended in.
    pub turn: Option<u8>,
    /// Free text (for example a link to the ACTS log).
    pub note: Option<String>,
    /// `Played`, `Agreed`, `Adjudicated` or `Forfeited`.
    pub status: GameStatus,
    pub adjudication: Option<Adjudication>,
    pub at: Time,
}

/// Characters that do not belong in a name: control characters, and the
/// invisible formatting ones that make two names look alike or reorder what
/// follows them (zero-width spaces and joiners, direction overrides and
/// isolates, the BOM).
pub fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}')
}

/// Whether `name` reads as one of the ids Arbiter gives players and games
/// (`P2`, `p16`, `G5`, `#3`, `2`, `P 2`, `+2`): such a name is refused for
/// players and accounts alike, so that an id typed anywhere can only ever
/// mean the id, and a name never stands for someone else (ARB-R50).
pub fn looks_like_an_id(name: &str) -> bool {
    let s = name.trim().to_lowercase();
    let s = s.strip_prefix('#').unwrap_or(&s).trim_start();
    let s = s.strip_prefix(['p', 'g']).unwrap_or(s).trim_start();
    let s = s.strip_prefix('+').unwrap_or(s);
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A name as it is kept: canonical composition (NFC, so that an "é" typed
/// as one character or as "e" and a combining accent is one spelling) and
/// words separated by single spaces (ARB-R62).
pub fn spelled(raw: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let nfc: String = raw.nfc().collect();
    nfc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The key two names are compared by, in every format and for accounts'
/// names (ARB-R62): the spelling ([`spelled`]) under Unicode's canonical
/// caseless match (NFD, full case folding, NFD; kept as NFC), so that
/// "Ann  Lee" is "Ann Lee", "Émile" is "émile" and "STRASSE" is "Straße".
/// Two names with one key are one person; the key is never shown.
pub fn name_key(name: &str) -> String {
    use caseless::Caseless;
    use unicode_normalization::UnicodeNormalization;
    let folded: String = spelled(name).nfd().default_case_fold().collect();
    let key: String = folded.nfd().collect::<String>().nfc().collect();
    // Folding can join what spacing kept apart only by whitespace, which
    // it does not produce; collapse once more so the key is a fixed point.
    key.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether two names are the same name (ARB-R62): one [`name_key`].
pub fn same_name(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

/// The one check of a person's name, for players of every format and for
/// the display names of accounts (ARB-R22, ARB-R50, ARB-R62): single spaces
/// between words, NFC, 1 to `max` characters with at least one letter or
/// digit, no control or invisible formatting characters, and not of the
/// form of an id. The name as stored (the person's own spelling, NFC with
/// single spaces), or what is wrong with it, as the end of a sentence
/// ("must not be empty"). Whether it is already taken is
/// [`same_name`]'s question, asked by each format.
pub fn person_name(raw: &str, max: usize) -> Result<String, String> {
    let name = spelled(raw);
    if name.is_empty() {
        Err("must not be empty".into())
    } else if name.chars().count() > max
        || raw.chars().any(invisible)
        || !name.chars().any(char::is_alphanumeric)
    {
        Err(format!(
            "must be at most {max} characters with at least one letter or digit, and no control or invisible formatting characters (ARB-R22)"
        ))
    } else if looks_like_an_id(&name) {
        Err(format!(
            "must not look like an id: {name:?} reads as a player or game number (P2, G5, #3, 2); add a word or a letter (ARB-R50)"
        ))
    } else {
        Ok(name)
    }
}

/// Find `name` among `names` (ARB-R62): the name spelled exactly as
/// stored first, else the one name with its key. `None` when no name has
/// its key, or when two do (a log stored before ARB-R62 may hold two
/// names that are one name now; only the exact spelling or the id then
/// tells them apart).
pub fn find_name<'a>(names: impl IntoIterator<Item = &'a str>, name: &str) -> Option<usize> {
    let wanted = spelled(name);
    let key = name_key(name);
    let mut by_key = None;
    let mut hits = 0;
    for (i, n) in names.into_iter().enumerate() {
        if n == wanted {
            return Some(i);
        }
        if name_key(n) == key {
            hits += 1;
            by_key = Some(i);
        }
    }
    (hits == 1).then_some(by_key).flatten()
}

/// The names among `names` that `name` most likely meant, for a "did you
/// mean" when [`find_name`] finds none (issue 17 §2): compared by their
/// keys ([`name_key`]), a name whose key begins with the one typed (three
/// letters at least), whose surname or given name is the word typed, or
/// whose Jaro-Winkler similarity is 0.85 or more (a letter dropped,
/// doubled or swapped); the best first and those nearly as close, at most
/// three. Empty when nothing
/// is close: a suggestion is never a guess from a list of everyone.
pub fn similar_names<'a>(names: impl IntoIterator<Item = &'a str>, name: &str) -> Vec<&'a str> {
    let key = name_key(name);
    if key.is_empty() || key.chars().count() > 200 {
        return Vec::new();
    }
    let mut scored: Vec<(f64, &'a str)> = names
        .into_iter()
        .filter_map(|n| {
            let k = name_key(n);
            let word = k.split(' ').any(|w| w == key);
            let prefix = key.chars().count() >= 3 && k.starts_with(&key);
            let score = if prefix || word {
                1.0
            } else {
                strsim::jaro_winkler(&key, &k)
            };
            (score >= 0.85).then_some((score, n))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    // Only the names about as close as the closest: "Ana Moralse" is Ana
    // Morales, not also Ana Moreno.
    let best = scored.first().map_or(0.0, |s| s.0);
    scored
        .into_iter()
        .take_while(|s| s.0 >= best - 0.05)
        .take(3)
        .map(|(_, n)| n)
        .collect()
}

/// "; did you mean Ana Morales?" (or "… Ana Morales or Ana Moreno?") when
/// `name` is close to names among `names` ([`similar_names`]), else
/// nothing: the end of a refusal that names a player who is not there.
pub fn did_you_mean<'a>(names: impl IntoIterator<Item = &'a str>, name: &str) -> String {
    let similar = similar_names(names, name);
    if similar.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", similar.join(" or "))
    }
}

/// The longest account username an event records.
pub const MAX_ACCOUNT: usize = 64;

/// An account's username as an event records it: lower case, 1 to
/// [`MAX_ACCOUNT`] characters, none of them blank, control or invisible.
pub fn account_name(raw: &str) -> Result<String, String> {
    let a = raw.trim().to_lowercase();
    if a.is_empty() {
        Err("the account must not be empty".into())
    } else if a.chars().count() > MAX_ACCOUNT {
        Err(format!(
            "the account must be at most {MAX_ACCOUNT} characters"
        ))
    } else if a.chars().any(|c| c.is_whitespace() || invisible(c)) {
        Err("the account must not contain spaces, control or invisible characters".into())
    } else {
        Ok(a)
    }
}

/// Which account plays as which player of a competition (ARB-R50): the
/// record of the events that link and unlink them, never derived from a
/// name. An account is at most one player, and a player at most one
/// account; a new link of either replaces the old.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Links {
    by_account: std::collections::BTreeMap<String, PlayerId>,
}

impl Links {
    pub fn link(&mut self, account: &str, player: PlayerId) {
        self.by_account.retain(|_, p| *p != player);
        self.by_account.insert(account.to_lowercase(), player);
    }

    pub fn unlink(&mut self, player: PlayerId) {
        self.by_account.retain(|_, p| *p != player);
    }

    /// The player `account` is linked to.
    pub fn player_of(&self, account: &str) -> Option<PlayerId> {
        self.by_account.get(&account.to_lowercase()).copied()
    }

    /// The account linked to `player`.
    pub fn account_of(&self, player: PlayerId) -> Option<&str> {
        self.by_account
            .iter()
            .find(|(_, p)| **p == player)
            .map(|(a, _)| a.as_str())
    }

    /// Every (account, player), by account.
    pub fn iter(&self) -> impl Iterator<Item = (&str, PlayerId)> {
        self.by_account.iter().map(|(a, p)| (a.as_str(), *p))
    }

    /// `account` as a link records it, when it may be linked to a player
    /// (ARB-R50): a valid username that plays as nobody here yet.
    /// `still_in` says whether a player it is linked to still counts (a
    /// declined or withdrawn ladder player does not); `name_of` names him.
    pub fn check_account(
        &self,
        account: &str,
        clause: &str,
        still_in: impl Fn(PlayerId) -> bool,
        name_of: impl Fn(PlayerId) -> String,
    ) -> Result<String, crate::RuleError> {
        let account = account_name(account)
            .map_err(|why| crate::RuleError::new(clause, why).field("account"))?;
        if let Some(p) = self.player_of(&account).filter(|p| still_in(*p)) {
            return Err(crate::RuleError::new(
                clause,
                format!(
                    "the account {account:?} already plays here as {} ({p}) (ARB-R50)",
                    name_of(p)
                ),
            )
            .field("account"));
        }
        Ok(account)
    }

    /// A moderator's link of `account` to `player` (ARB-R50): the account
    /// as recorded, or why not (see [`Links::check_account`]; a player
    /// linked to another account is unlinked first).
    pub fn decide_link(
        &self,
        player: PlayerId,
        account: &str,
        clause: &str,
        still_in: impl Fn(PlayerId) -> bool,
        name_of: impl Fn(PlayerId) -> String,
    ) -> Result<String, crate::RuleError> {
        let account = self.check_account(account, clause, still_in, &name_of)?;
        if let Some(other) = self.account_of(player) {
            return Err(crate::RuleError::new(
                clause,
                format!(
                    "{} is linked to the account {other:?} already: unlink it first (ARB-R50)",
                    name_of(player)
                ),
            )
            .field("player"));
        }
        Ok(account)
    }

    /// The account whose link to `player` a moderator ends (ARB-R50), or
    /// why not.
    pub fn decide_unlink(
        &self,
        player: PlayerId,
        clause: &str,
        name_of: impl Fn(PlayerId) -> String,
    ) -> Result<String, crate::RuleError> {
        self.account_of(player).map(str::to_string).ok_or_else(|| {
            crate::RuleError::new(
                clause,
                format!("{} is linked to no account (ARB-R50)", name_of(player)),
            )
            .field("player")
        })
    }
}

/// A competition whose accounts are linked to players (ARB-R50): every
/// format's state.
pub trait Linked {
    fn links(&self) -> &Links;

    /// The player `account` acts as, if it may act as one.
    fn account_player(&self, account: &str) -> Option<PlayerId> {
        self.links().player_of(account)
    }
}

#[cfg(test)]
mod name_tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn ids_are_not_names() {
        for id in [
            "P2", "p16", "G5", "g 5", "#3", "# 3", "2", " 12 ", "P+2", "#P2", "+7", "P 007",
        ] {
            assert!(looks_like_an_id(id), "{id:?}");
            assert!(person_name(id, 100).is_err(), "{id:?}");
        }
        for name in [
            "P2 Smith", "Pablo", "G-Man", "2Pac", "R2", "P2P", "#", "Player 2", "p.2", "PG2",
        ] {
            assert!(!looks_like_an_id(name), "{name:?}");
        }
        assert_eq!(person_name("  Ben   Carter ", 100).unwrap(), "Ben Carter");
        assert!(person_name("Ben\u{202E}Carter", 100).is_err());
        assert!(person_name("Ben\u{200B}", 100).is_err());
        assert!(person_name("...", 100).is_err());
        assert!(person_name(&"a".repeat(61), 60).is_err());
    }

    /// ARB-R62: one normalization for every name.
    #[test]
    fn names_are_compared_by_one_key() {
        assert!(same_name("Ann Lee", "Ann  Lee"));
        assert!(same_name("Émile", "émile"));
        assert!(same_name("E\u{301}mile", "Émile"));
        assert!(same_name("Straße", "STRASSE"));
        assert!(same_name("ΣΟΦΙΑ", "σοφια"));
        assert!(same_name("Ann\u{a0}Lee", "ann lee"));
        assert!(!same_name("Ann", "Anne"));
        // The spelling kept is the person's own, composed and single-spaced.
        assert_eq!(
            person_name(" E\u{301}mile  Zola", 60).unwrap(),
            "\u{c9}mile Zola"
        );
        assert!(person_name("Ann\u{200B}", 60).is_err());
        assert!(person_name("Ann\u{2060}", 60).is_err());
        let names = ["Ann Lee", "Bo"];
        assert_eq!(find_name(names, "ANN   LEE"), Some(0));
        assert_eq!(find_name(names, "bo"), Some(1));
        assert_eq!(find_name(names, "Cy"), None);
        // Two stored names with one key (a log from before ARB-R62): the
        // exact spelling tells them apart, the key alone does not.
        let old = ["Ann Lee", "ann lee"];
        assert_eq!(find_name(old, "ann lee"), Some(1));
        assert_eq!(find_name(old, "Ann Lee"), Some(0));
        assert_eq!(find_name(old, "ANN LEE"), None);
    }

    #[test]
    fn links_are_one_to_one() {
        let mut l = Links::default();
        l.link("Ana", PlayerId(1));
        l.link("ben", PlayerId(1));
        assert_eq!(l.player_of("ana"), None);
        assert_eq!(l.player_of("BEN"), Some(PlayerId(1)));
        l.link("ben", PlayerId(2));
        assert_eq!(l.account_of(PlayerId(1)), None);
        assert_eq!(l.account_of(PlayerId(2)), Some("ben"));
        l.unlink(PlayerId(2));
        assert_eq!(l.iter().count(), 0);
    }
}

#[cfg(test)]
mod ending_tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// ARB-R58: the vocabulary and its spellings parse; anything else is
    /// refused naming the field, with a "did you mean" when one is near.
    #[test]
    fn endings_are_a_fixed_vocabulary() {
        for tag in EndTag::VOCABULARY {
            assert_eq!(EndTag::parse(tag).unwrap().tag(), tag);
        }
        assert_eq!(
            EndTag::parse(" Europe  Control ").unwrap(),
            EndTag::EuropeControl
        );
        assert_eq!(EndTag::parse("20VP").unwrap(), EndTag::Vp);
        assert_eq!(
            EndTag::parse("other").unwrap(),
            EndTag::Other(String::new())
        );
        let e = EndTag::parse("europ").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("ended_by"));
        assert!(e.message.contains("did you mean `europe`?"), "{e}");
        assert!(e.message.contains(&EndTag::VOCABULARY.join(", ")), "{e}");
        assert!(
            EndTag::parse("victory")
                .unwrap_err()
                .message
                .contains("`vp`")
        );
        assert!(
            EndTag::parse("defcom")
                .unwrap_err()
                .message
                .contains("`defcon`")
        );
        assert!(
            !EndTag::parse("qqq")
                .unwrap_err()
                .message
                .contains("did you mean")
        );
        // Hostile input: huge, invisible, empty; refused, never echoed whole.
        let huge = "x".repeat(100_000);
        let e = EndTag::parse(&huge).unwrap_err();
        assert!(e.message.len() < 1_000, "{}", e.message.len());
        assert!(EndTag::parse("").is_err());
        assert!(EndTag::parse("vp\u{200B}").is_err());
        // Old free text as it reads now, and how it is counted.
        assert_eq!(EndTag::legacy("Nuclear War"), EndTag::Defcon);
        assert_eq!(EndTag::legacy("timeout"), EndTag::Other("timeout".into()));
        assert_eq!(
            EndTag::Other("resigned".into()).counted(),
            EndTag::Concession
        );
        assert_eq!(
            EndTag::Other("europ".into()).counted(),
            EndTag::Other(String::new())
        );
        assert_eq!(EndTag::Other(String::new()).describe(), "other");
    }
}
