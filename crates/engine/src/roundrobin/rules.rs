//! The rules of a round-robin league: every number a community chooses is
//! a named setting (issue 16, §2), and the presets reproduce the published
//! regulations of real competitions.

use crate::RuleError;
use crate::berger;
use crate::clinch::{Zone, ZoneKind};

const CLAUSE: &str = "Round-robin rules";

/// Points for each result, integers only (ARB-R67). `scale` is how many
/// units make one point as users read it: 1 for football's 3/1/0, 2 for
/// chess's 1/½/0 kept as 2/1/0 half points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Points {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    /// A win by forfeit (the opponent did not play).
    pub forfeit_win: u32,
    /// A loss by forfeit (the player did not play).
    pub forfeit_loss: u32,
    /// Units per point as shown: 1 or 2.
    pub scale: u32,
}

impl Points {
    /// Football since 1994: 3 for a win, 1 for a draw.
    pub const FOOTBALL: Points = Points {
        win: 3,
        draw: 1,
        loss: 0,
        forfeit_win: 3,
        forfeit_loss: 0,
        scale: 1,
    };
    /// Chess and Go: 1, ½, 0, kept in half points.
    pub const HALVES: Points = Points {
        win: 2,
        draw: 1,
        loss: 0,
        forfeit_win: 2,
        forfeit_loss: 0,
        scale: 2,
    };

    /// `units` as users read them: "4", "5½", "2.5" never.
    pub fn show(self, units: i64) -> String {
        show_units(units, i64::from(self.scale.max(1)))
    }
}

/// `units / per` with a half shown as "½" and other fractions as a
/// fraction ("2⅓" is never needed: per is 1, 2 or a product of them).
pub(crate) fn show_units(units: i64, per: i64) -> String {
    if per <= 1 {
        return units.to_string();
    }
    let sign = if units < 0 { "-" } else { "" };
    let (whole, rest) = (units.abs() / per, units.abs() % per);
    match rest {
        0 => format!("{sign}{whole}"),
        r if 2 * r == per => {
            if whole == 0 {
                format!("{sign}½")
            } else {
                format!("{sign}{whole}½")
            }
        }
        r => {
            let g = gcd(r, per);
            if whole == 0 {
                format!("{sign}{}/{}", r / g, per / g)
            } else {
                format!("{sign}{whole} {}/{}", r / g, per / g)
            }
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

/// One criterion of the catalogue. Each is evaluated on the players still
/// tied when the cascade reaches it; the head-to-head ones count only the
/// games among those players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Points in the games among the tied players.
    HeadToHeadPoints,
    /// Score difference in the games among the tied players.
    HeadToHeadDifference,
    /// Scored (goals) in the games among the tied players.
    HeadToHeadScored,
    /// Score difference over all games.
    Difference,
    /// Scored over all games.
    Scored,
    /// Games won (forfeits included, ARB-R67).
    Wins,
    /// Sonneborn–Berger: each opponent's points times the share of a win
    /// scored against him (a draw half).
    SonnebornBerger,
    /// SODOS, Go's name for the same sum: the scores of the opponents
    /// beaten (a jigo half). One implementation with Sonneborn–Berger.
    Sodos,
    /// Koya: points scored against the opponents who made at least half
    /// the points possible.
    Koya,
    /// Buchholz (SOS in Go): the sum of the opponents' points, once per
    /// game.
    Buchholz,
    /// Quickness of victory (XMadn step 5): the minutes of the games won,
    /// fewer ranking higher; waits until every won game has its minutes.
    Quickness,
    /// A recorded drawing of lots (a committed seed, or an order entered
    /// by the organizer); waits until one is recorded.
    Lot,
}

impl Tiebreak {
    /// Every criterion, in the catalogue's order.
    pub const ALL: [Tiebreak; 12] = [
        Tiebreak::HeadToHeadPoints,
        Tiebreak::HeadToHeadDifference,
        Tiebreak::HeadToHeadScored,
        Tiebreak::Difference,
        Tiebreak::Scored,
        Tiebreak::Wins,
        Tiebreak::SonnebornBerger,
        Tiebreak::Sodos,
        Tiebreak::Koya,
        Tiebreak::Buchholz,
        Tiebreak::Quickness,
        Tiebreak::Lot,
    ];

    /// The id in rules files and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Tiebreak::HeadToHeadPoints => "h2h-points",
            Tiebreak::HeadToHeadDifference => "h2h-difference",
            Tiebreak::HeadToHeadScored => "h2h-scored",
            Tiebreak::Difference => "difference",
            Tiebreak::Scored => "scored",
            Tiebreak::Wins => "wins",
            Tiebreak::SonnebornBerger => "sonneborn-berger",
            Tiebreak::Sodos => "sodos",
            Tiebreak::Koya => "koya",
            Tiebreak::Buchholz => "buchholz",
            Tiebreak::Quickness => "quickness",
            Tiebreak::Lot => "lot",
        }
    }

    /// What it measures, in words.
    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::HeadToHeadPoints => "head-to-head points",
            Tiebreak::HeadToHeadDifference => "head-to-head score difference",
            Tiebreak::HeadToHeadScored => "head-to-head scored",
            Tiebreak::Difference => "score difference",
            Tiebreak::Scored => "scored",
            Tiebreak::Wins => "games won",
            Tiebreak::SonnebornBerger => "Sonneborn-Berger",
            Tiebreak::Sodos => "SODOS",
            Tiebreak::Koya => "Koya",
            Tiebreak::Buchholz => "Buchholz (SOS)",
            Tiebreak::Quickness => "quickness of victory",
            Tiebreak::Lot => "drawing of lots",
        }
    }

    /// The criterion with this id ("sos" is Buchholz's Go name).
    pub fn parse(id: &str) -> Option<Tiebreak> {
        let id = id.trim().to_ascii_lowercase();
        if id == "sos" {
            return Some(Tiebreak::Buchholz);
        }
        Tiebreak::ALL.into_iter().find(|t| t.id() == id)
    }

    pub fn is_head_to_head(self) -> bool {
        matches!(
            self,
            Tiebreak::HeadToHeadPoints
                | Tiebreak::HeadToHeadDifference
                | Tiebreak::HeadToHeadScored
        )
    }

    /// Whether it needs results with scores.
    pub fn needs_scores(self) -> bool {
        matches!(
            self,
            Tiebreak::HeadToHeadDifference
                | Tiebreak::HeadToHeadScored
                | Tiebreak::Difference
                | Tiebreak::Scored
        )
    }
}

/// How the head-to-head criteria are re-applied to players still tied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeadToHead {
    /// Each criterion once, on the players still tied when it is reached.
    Once,
    /// XMadn's restart (XM-R4): when a criterion separates someone from a
    /// tie of three or more, the players still tied start again at the
    /// first head-to-head criterion, among themselves.
    Restart,
    /// UEFA's block: the consecutive head-to-head criteria are applied to
    /// the whole tied group, then again to a subset still tied, then the
    /// overall criteria follow.
    Block,
}

impl HeadToHead {
    pub fn id(self) -> &'static str {
        match self {
            HeadToHead::Once => "once",
            HeadToHead::Restart => "restart",
            HeadToHead::Block => "block",
        }
    }

    pub fn parse(id: &str) -> Option<HeadToHead> {
        [HeadToHead::Once, HeadToHead::Restart, HeadToHead::Block]
            .into_iter()
            .find(|h| h.id() == id.trim().to_ascii_lowercase())
    }
}

/// What becomes of a withdrawn player's games (ARB-R68).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Withdrawal {
    /// His results stand; the games he will not play are forfeits won by
    /// his opponents.
    KeepResults,
    /// As `KeepResults` when he played at least half his games; otherwise
    /// every game of his is annulled, as if he had never entered.
    AnnulUnderHalf,
}

impl Withdrawal {
    pub fn id(self) -> &'static str {
        match self {
            Withdrawal::KeepResults => "keep-results",
            Withdrawal::AnnulUnderHalf => "annul-under-half",
        }
    }

    pub fn parse(id: &str) -> Option<Withdrawal> {
        [Withdrawal::KeepResults, Withdrawal::AnnulUnderHalf]
            .into_iter()
            .find(|w| w.id() == id.trim().to_ascii_lowercase())
    }
}

/// The rules of one round-robin league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobinRules {
    /// What these rules reproduce, named in every explanation ("FIFA World
    /// Cup Qatar 2022 Regulations").
    pub regulation: String,
    /// 1 for a single round robin, 2 for a double, up to 10.
    pub cycles: u32,
    pub points: Points,
    /// Results carry scores (goals, game points of a match); otherwise a
    /// result is a win, a draw or a loss (chess, Go).
    pub scores: bool,
    /// The score a forfeit counts as, winner first (3-0 in football);
    /// `None`: a forfeit scores nothing for either side.
    pub forfeit_score: Option<(u32, u32)>,
    /// The tiebreak criteria after points, in order.
    pub tiebreaks: Vec<Tiebreak>,
    pub head_to_head: HeadToHead,
    pub withdrawal: Withdrawal,
    /// Places at the top that qualify or are promoted (the two teams of a
    /// World Cup group that advance); 0: none. A zone of the clinch
    /// analysis ([`RoundRobinRules::zones`], ARB-R69).
    pub top: u32,
    /// Places at the bottom that are relegated; 0: none.
    pub bottom: u32,
}

/// The longest regulation text.
pub const MAX_REGULATION: usize = 200;
/// The most points any result gives.
pub const MOST_POINTS: u32 = 100;
/// The most places `top` and `bottom` name together: a league's most
/// players ([`berger::PLAYERS`]).
pub const MOST_ZONE_PLACES: u32 = 64;

impl Default for RoundRobinRules {
    fn default() -> Self {
        RoundRobinRules::fifa_world_cup()
    }
}

impl RoundRobinRules {
    /// A FIFA World Cup group (Qatar 2022 Regulations): points,
    /// then goal difference and goals scored in all group matches, then the
    /// same among the teams concerned, then fair play and lots (fair play
    /// points are not recorded here: the drawing of lots follows).
    pub fn fifa_world_cup() -> Self {
        RoundRobinRules {
            regulation: "FIFA World Cup Qatar 2022 Regulations, group ranking criteria".into(),
            cycles: 1,
            points: Points::FOOTBALL,
            scores: true,
            forfeit_score: Some((3, 0)),
            tiebreaks: vec![
                Tiebreak::Difference,
                Tiebreak::Scored,
                Tiebreak::HeadToHeadPoints,
                Tiebreak::HeadToHeadDifference,
                Tiebreak::HeadToHeadScored,
                Tiebreak::Lot,
            ],
            head_to_head: HeadToHead::Once,
            withdrawal: Withdrawal::KeepResults,
            // The winners and runners-up of the groups go on to the round
            // of 16 (the Regulations' group stage).
            top: 2,
            bottom: 0,
        }
    }

    /// A UEFA EURO group (EURO 2020 Regulations): points, then the
    /// head-to-head block (points, goal difference, goals scored among the
    /// teams concerned, re-applied to those still level), then goal
    /// difference and goals scored in all matches, then lots (the penalty
    /// shoot-out, disciplinary points and coefficient ranking are not
    /// recorded here).
    pub fn uefa_euro() -> Self {
        RoundRobinRules {
            regulation: "UEFA EURO 2020 Regulations, equality of points in the group stage".into(),
            cycles: 1,
            points: Points::FOOTBALL,
            scores: true,
            forfeit_score: Some((3, 0)),
            tiebreaks: vec![
                Tiebreak::HeadToHeadPoints,
                Tiebreak::HeadToHeadDifference,
                Tiebreak::HeadToHeadScored,
                Tiebreak::Difference,
                Tiebreak::Scored,
                Tiebreak::Wins,
                Tiebreak::Lot,
            ],
            head_to_head: HeadToHead::Block,
            withdrawal: Withdrawal::KeepResults,
            // The group winners and runners-up go on to the round of 16;
            // the four best third-placed teams too, but that ranks the
            // thirds of every group, which no single group decides.
            top: 2,
            bottom: 0,
        }
    }

    /// A chess round robin (FIDE Tie-Break Regulations, 2023, for round
    /// robins: direct encounter, wins, Sonneborn-Berger, Koya; then lots).
    pub fn chess() -> Self {
        RoundRobinRules {
            regulation: "FIDE Tie-Break Regulations (C.07), round-robin tournaments".into(),
            cycles: 1,
            points: Points::HALVES,
            scores: false,
            forfeit_score: None,
            tiebreaks: vec![
                Tiebreak::HeadToHeadPoints,
                Tiebreak::Wins,
                Tiebreak::SonnebornBerger,
                Tiebreak::Koya,
                Tiebreak::Lot,
            ],
            head_to_head: HeadToHead::Once,
            withdrawal: Withdrawal::AnnulUnderHalf,
            // C.07 ranks a tournament; it qualifies and relegates nobody.
            top: 0,
            bottom: 0,
        }
    }

    /// A Go round robin: wins, then SOS, SODOS, the game between them, and
    /// lots (the usual order of European Go Federation tournaments).
    pub fn go() -> Self {
        RoundRobinRules {
            regulation: "Go round robin: wins, SOS, SODOS, direct game".into(),
            cycles: 1,
            points: Points::HALVES,
            scores: false,
            forfeit_score: None,
            tiebreaks: vec![
                Tiebreak::Buchholz,
                Tiebreak::Sodos,
                Tiebreak::HeadToHeadPoints,
                Tiebreak::Lot,
            ],
            head_to_head: HeadToHead::Once,
            withdrawal: Withdrawal::AnnulUnderHalf,
            top: 0,
            bottom: 0,
        }
    }

    /// XMadn's six steps (XM-R4) on a larger group: head-to-head record,
    /// head-to-head pawn difference, overall pawn difference, pawns scored,
    /// quickness, lots; a separation in a tie of three or more restarts at
    /// step 1. Points are the win-loss record (1 for a win).
    pub fn xmadn() -> Self {
        RoundRobinRules {
            regulation: "XMadn Double-Threat tiebreaks (XM-R4) on a larger group".into(),
            cycles: 2,
            points: Points {
                win: 1,
                draw: 0,
                loss: 0,
                forfeit_win: 1,
                forfeit_loss: 0,
                scale: 1,
            },
            scores: true,
            forfeit_score: None,
            tiebreaks: vec![
                Tiebreak::HeadToHeadPoints,
                Tiebreak::HeadToHeadDifference,
                Tiebreak::Difference,
                Tiebreak::Scored,
                Tiebreak::Quickness,
                Tiebreak::Lot,
            ],
            head_to_head: HeadToHead::Restart,
            withdrawal: Withdrawal::KeepResults,
            // The XMadn League's playoff is its own format (`xmadn`); on
            // a larger group the document sets no zone.
            top: 0,
            bottom: 0,
        }
    }

    /// The preset with this name.
    pub fn preset(name: &str) -> Option<Self> {
        Some(match name.trim() {
            "fifa-world-cup" => Self::fifa_world_cup(),
            "uefa-euro" => Self::uefa_euro(),
            "chess" => Self::chess(),
            "go" => Self::go(),
            "xmadn" => Self::xmadn(),
            _ => return None,
        })
    }

    /// The presets' names.
    pub const PRESETS: [&'static str; 5] = ["fifa-world-cup", "uefa-euro", "chess", "go", "xmadn"];

    /// Check the settings; the error names the field.
    pub fn validate(&self) -> Result<(), RuleError> {
        let err = |field: &str, message: String| Err(RuleError::new(CLAUSE, message).field(field));
        if self.regulation.chars().count() > MAX_REGULATION {
            return err(
                "regulation",
                format!("the regulation is at most {MAX_REGULATION} characters"),
            );
        }
        if !(1..=berger::MOST_CYCLES).contains(&self.cycles) {
            return err(
                "cycles",
                format!(
                    "a round robin is played 1 to {} times, not {}",
                    berger::MOST_CYCLES,
                    self.cycles
                ),
            );
        }
        let p = self.points;
        for (field, v) in [
            ("points.win", p.win),
            ("points.draw", p.draw),
            ("points.loss", p.loss),
            ("points.forfeit_win", p.forfeit_win),
            ("points.forfeit_loss", p.forfeit_loss),
        ] {
            if v > MOST_POINTS {
                return err(field, format!("{v} points is more than {MOST_POINTS}"));
            }
        }
        if !(1..=2).contains(&p.scale) {
            return err(
                "points.scale",
                format!(
                    "units per point are 1 (whole points) or 2 (half points), not {}",
                    p.scale
                ),
            );
        }
        if p.win == 0 {
            return err("points.win", "a win must be worth points".into());
        }
        if p.win < p.draw || p.draw < p.loss {
            return err(
                "points",
                format!(
                    "a win ({}) is worth at least a draw ({}), a draw at least a loss ({})",
                    p.win, p.draw, p.loss
                ),
            );
        }
        if p.forfeit_loss > p.loss {
            return err(
                "points.forfeit_loss",
                format!(
                    "a loss by forfeit ({}) cannot be worth more than a loss played ({})",
                    p.forfeit_loss, p.loss
                ),
            );
        }
        if let Some((w, l)) = self.forfeit_score {
            if !self.scores {
                return err(
                    "forfeit_score",
                    "a forfeit score needs results with scores (scores = true)".into(),
                );
            }
            if w <= l || w > 99 {
                return err(
                    "forfeit_score",
                    format!("a forfeit counts as a win, at most 99-0: not {w}-{l}"),
                );
            }
        }
        let mut seen = Vec::new();
        for (i, t) in self.tiebreaks.iter().enumerate() {
            if seen.contains(t) {
                return err(
                    &format!("tiebreaks[{i}]"),
                    format!("{} is listed twice", t.id()),
                );
            }
            seen.push(*t);
            if t.needs_scores() && !self.scores {
                return err(
                    &format!("tiebreaks[{i}]"),
                    format!(
                        "{} needs results with scores, and these rules record a win, a draw or a loss",
                        t.id()
                    ),
                );
            }
        }
        if self.head_to_head == HeadToHead::Block {
            let h2h: Vec<usize> = (0..self.tiebreaks.len())
                .filter(|&i| self.tiebreaks[i].is_head_to_head())
                .collect();
            if h2h.is_empty() {
                return err(
                    "head_to_head",
                    "the block method needs head-to-head criteria in the tiebreaks".into(),
                );
            }
            if h2h.last().unwrap_or(&0) - h2h[0] + 1 != h2h.len() {
                return err(
                    "head_to_head",
                    "the block method needs the head-to-head criteria next to each other".into(),
                );
            }
        }
        for (field, v) in [("top", self.top), ("bottom", self.bottom)] {
            if v > MOST_ZONE_PLACES {
                return err(
                    field,
                    format!("a league has at most {MOST_ZONE_PLACES} places, not {v}"),
                );
            }
        }
        if self.top + self.bottom > MOST_ZONE_PLACES {
            return err(
                "bottom",
                format!(
                    "the top {} and the bottom {} places together are more than a league's {MOST_ZONE_PLACES}",
                    self.top, self.bottom
                ),
            );
        }
        if self.head_to_head == HeadToHead::Restart
            && !self.tiebreaks.iter().any(|t| t.is_head_to_head())
        {
            return err(
                "head_to_head",
                "the restart goes back to the first head-to-head criterion, and there is none"
                    .into(),
            );
        }
        Ok(())
    }

    /// The zones of the clinch analysis ([`crate::roundrobin::clinch`],
    /// ARB-R69) of a table of `players`: the title (1st), the top `top`
    /// places when `top` is more than 1 (the title already says 1st) and
    /// fewer than the players, the bottom `bottom` places when `bottom` is
    /// more than 0 and fewer than the players (a zone holding every place
    /// says nothing).
    pub fn zones(&self, players: usize) -> Vec<Zone> {
        let mut zones = Vec::new();
        if players == 0 {
            return zones;
        }
        zones.push(Zone::new(ZoneKind::Title, 1, 1));
        let top = self.top as usize;
        if top > 1 && top < players {
            zones.push(Zone::new(ZoneKind::Top(top), 1, top));
        }
        let bottom = self.bottom as usize;
        if bottom > 0 && bottom < players {
            zones.push(Zone::new(
                ZoneKind::Bottom(bottom),
                players - bottom + 1,
                players,
            ));
        }
        zones
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        for name in RoundRobinRules::PRESETS {
            RoundRobinRules::preset(name).unwrap().validate().unwrap();
        }
    }

    #[test]
    fn halves_show_as_fractions() {
        assert_eq!(Points::HALVES.show(11), "5½");
        assert_eq!(Points::HALVES.show(1), "½");
        assert_eq!(Points::HALVES.show(8), "4");
        assert_eq!(show_units(-3, 2), "-1½");
        assert_eq!(show_units(9, 4), "2 1/4");
        assert_eq!(Points::FOOTBALL.show(-2), "-2");
    }

    #[test]
    fn refusals_name_the_field() {
        let mut r = RoundRobinRules::chess();
        r.tiebreaks.push(Tiebreak::Difference);
        assert_eq!(
            r.validate().unwrap_err().field.as_deref(),
            Some("tiebreaks[5]")
        );
        let mut r = RoundRobinRules::uefa_euro();
        r.tiebreaks.swap(1, 4);
        assert_eq!(
            r.validate().unwrap_err().field.as_deref(),
            Some("head_to_head")
        );
        let mut r = RoundRobinRules::fifa_world_cup();
        r.points.draw = 4;
        assert_eq!(r.validate().unwrap_err().field.as_deref(), Some("points"));
        r = RoundRobinRules::fifa_world_cup();
        r.cycles = 11;
        assert_eq!(r.validate().unwrap_err().field.as_deref(), Some("cycles"));
        r = RoundRobinRules::fifa_world_cup();
        r.top = 65;
        assert_eq!(r.validate().unwrap_err().field.as_deref(), Some("top"));
        r.top = 40;
        r.bottom = 25;
        assert_eq!(r.validate().unwrap_err().field.as_deref(), Some("bottom"));
        r.bottom = 24;
        assert!(r.validate().is_ok());
    }

    #[test]
    fn zones_of_a_table() {
        let mut r = RoundRobinRules::fifa_world_cup();
        assert_eq!(
            r.zones(4),
            vec![
                Zone::new(ZoneKind::Title, 1, 1),
                Zone::new(ZoneKind::Top(2), 1, 2)
            ]
        );
        r.bottom = 3;
        assert_eq!(
            r.zones(10)[2],
            Zone::new(ZoneKind::Bottom(3), 8, 10),
            "the bottom three of ten"
        );
        // No zone of every place, and top 1 is the title.
        assert_eq!(r.zones(2), vec![Zone::new(ZoneKind::Title, 1, 1)]);
        r.top = 1;
        r.bottom = 0;
        assert_eq!(r.zones(6).len(), 1);
        assert!(r.zones(0).is_empty());
        assert_eq!(RoundRobinRules::chess().zones(8).len(), 1);
    }
}
