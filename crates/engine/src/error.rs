//! Refusals: a command that breaks a rule is refused with the rule it breaks.

use std::fmt;

/// A refused command. `clause` names the rule (for example
/// `"TWS Skipping Rounds"` or `"TWS-R10"`); `message` says what is wrong in
/// words a moderator understands; `field` names the offending input when
/// there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub clause: String,
    pub message: String,
    pub field: Option<String>,
}

impl RuleError {
    pub fn new(clause: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            clause: clause.into(),
            message: message.into(),
            field: None,
        }
    }

    #[must_use]
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.message, self.clause)?;
        if let Some(field) = &self.field {
            write!(f, " (field `{field}`)")?;
        }
        Ok(())
    }
}

impl std::error::Error for RuleError {}
