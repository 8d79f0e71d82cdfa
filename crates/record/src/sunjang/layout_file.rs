//! The Sunjang layout file (ARB-R55): an organizer's own layout of the
//! next season, TOML, with either moves of the automatic plan's placements
//! or the whole layout by group, and the reason:
//!
//! ```toml
//! reason = "Ann and Bob share a club"
//! moves = ["Ann:B2", "Bob:B1"]
//! ```
//!
//! ```toml
//! reason = "the organizers' layout for season 3"
//! [groups]
//! A1 = ["Ann", "Bob", "Cat", "Dee", "Eve"]
//! A2 = ["Fay", "Gus", "Hal", "Ida", "Jon"]
//! ```
//!
//! Unknown keys are refused, and every error names the line, the column and
//! the key. Names and groups are read as text: which players and groups
//! they are is the league's to say.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::rules_file::{RulesFileError, toml_error};

/// The largest layout file read, in bytes.
pub const MAX_LAYOUT_FILE: usize = 256 * 1024;

/// A layout file as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SunjangLayoutFile {
    pub reason: Option<String>,
    /// `NAME:GROUP`, in order.
    pub moves: Vec<String>,
    /// Each group as written (`"B2"`) and its players' names.
    pub groups: Vec<(String, Vec<String>)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDto {
    reason: Option<String>,
    moves: Option<Vec<String>>,
    groups: Option<BTreeMap<String, Vec<String>>>,
}

/// Read a layout file (see the module documentation).
///
/// # Errors
///
/// A [`RulesFileError`] for a file over [`MAX_LAYOUT_FILE`], invalid TOML,
/// an unknown key, a value of the wrong type, a file with both `moves` and
/// `[groups]` or with neither.
pub fn parse_sunjang_layout(text: &str) -> Result<SunjangLayoutFile, RulesFileError> {
    let whole = |message: &str| RulesFileError {
        line: None,
        column: None,
        field: None,
        message: message.to_string(),
    };
    if text.len() > MAX_LAYOUT_FILE {
        return Err(whole(&format!(
            "a layout file is at most {} KiB",
            MAX_LAYOUT_FILE / 1024
        )));
    }
    let file: FileDto = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    match (file.moves, file.groups) {
        (Some(_), Some(_)) => Err(whole(
            "a layout file has `moves` or `[groups]`, not both: moves change the automatic plan, groups replace it",
        )),
        (None, None) => Err(whole(
            "a layout file needs `moves = [\"NAME:GROUP\", ...]` or a `[groups]` table (`B1 = [\"NAME\", ...]`)",
        )),
        (moves, groups) => Ok(SunjangLayoutFile {
            reason: file.reason,
            moves: moves.unwrap_or_default(),
            groups: groups.map(|g| g.into_iter().collect()).unwrap_or_default(),
        }),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn moves_or_groups_with_a_reason() {
        let f = parse_sunjang_layout("reason = \"club\"\nmoves = [\"Ann:B2\"]\n").unwrap();
        assert_eq!(f.reason.as_deref(), Some("club"));
        assert_eq!(f.moves, vec!["Ann:B2".to_string()]);
        let f =
            parse_sunjang_layout("[groups]\nA1 = [\"Ann\", \"Bob\"]\nA2 = [\"Cat\"]\n").unwrap();
        assert_eq!(f.groups.len(), 2);
    }

    #[test]
    fn bad_files_say_where() {
        let e = parse_sunjang_layout("reason = \"x\"\nmove = [\"Ann:B2\"]\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        let e = parse_sunjang_layout("[groups]\nA1 = \"Ann\"\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(parse_sunjang_layout("reason = \"x\"\n").is_err());
        assert!(parse_sunjang_layout("moves = []\n[groups]\nA1 = []\n").is_err());
        assert!(parse_sunjang_layout(&"#".repeat(MAX_LAYOUT_FILE + 1)).is_err());
    }
}
