//! Explanations: why the engine decided what it decided.

use std::fmt;

/// The reason for one decision: the rule clause of the competition's rule
/// document, the rulings (DECISIONS.md / docs/rulings.md ids) applied, and a
/// sentence with the figures that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The clause of the rule document, e.g. `"TWS Assignment of Sides 2"`.
    pub clause: &'static str,
    /// Ruling ids, e.g. `["TWS-R8"]`.
    pub rulings: Vec<&'static str>,
    /// The decision and its figures in words.
    pub text: String,
}

impl Explanation {
    pub fn new(clause: &'static str, rulings: &[&'static str], text: impl Into<String>) -> Self {
        Self {
            clause,
            rulings: rulings.to_vec(),
            text: text.into(),
        }
    }

    /// The rule reference as shown to users: `TWS Skipping Rounds; TWS-R3`.
    pub fn reference(&self) -> String {
        let mut s = self.clause.to_string();
        for r in &self.rulings {
            s.push_str("; ");
            s.push_str(r);
        }
        s
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.text, self.reference())
    }
}

/// "1st", "2nd", "3rd", "11th", "22nd": a place in words.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
