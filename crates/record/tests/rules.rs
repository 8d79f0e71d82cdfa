//! Rules files: the preset, defaults, and errors that name line, column and
//! setting.

#![allow(clippy::unwrap_used)]

mod common;

use arbiter_engine::model::Side;
use arbiter_engine::tws::{Bid, LadderRules};
use arbiter_record::{
    PRESETS, RulesFileError, TWS_LADDER_PRESET, parse_rules, preset, rules_to_toml,
};
use common::{file_error, says};
use proptest::prelude::*;

#[track_caller]
fn error(text: &str) -> RulesFileError {
    file_error(parse_rules(text), text)
}

#[test]
fn the_preset_is_the_document() {
    assert_eq!(parse_rules(TWS_LADDER_PRESET), Ok(LadderRules::default()));
    assert_eq!(preset("tws-ladder"), Some(TWS_LADDER_PRESET));
    assert_eq!(preset("no-such-preset"), None);
    for name in PRESETS {
        assert!(preset(name).is_some(), "{name}");
    }
}

#[test]
fn the_preset_sets_every_setting() {
    // Every setting is written out, so the preset documents all of them.
    let written = rules_to_toml(&LadderRules::default());
    for line in written.lines() {
        if let Some((key, _)) = line.split_once(" = ") {
            assert!(
                TWS_LADDER_PRESET
                    .lines()
                    .any(|l| l.starts_with(&format!("{key} = "))),
                "the preset does not set {key}"
            );
        }
    }
}

/// Issue 14, item 6: an empty file (`/dev/null`, a blank or comment-only
/// file) is refused, not taken as the defaults; its `format` line alone is
/// a deliberate choice of them.
#[test]
fn an_empty_file_is_refused_and_the_format_line_alone_gives_the_defaults() {
    for text in ["", "  \n\n", "# nothing but a comment\n\n"] {
        let e = parse_rules(text).unwrap_err();
        assert!(e.message.contains("holds no setting"), "{text:?}: {e}");
    }
    assert_eq!(
        parse_rules("format = \"tws-ladder\"\n"),
        Ok(LadderRules::default())
    );
}

#[test]
fn settings_override_the_defaults() {
    let rules = parse_rules(
        "deadline_months = 2\nsides_count_quick_rounds = true\n[bid]\nside = \"USSR\"\n",
    )
    .unwrap();
    assert_eq!(
        rules,
        LadderRules {
            deadline_months: 2,
            sides_count_quick_rounds: true,
            bid: Bid {
                influence: 3,
                side: Side::Ussr
            },
            ..LadderRules::default()
        }
    );
    let rules = parse_rules("bid = { influence = 2 }\ntie_advances = \"USSR\"\n").unwrap();
    assert_eq!(rules.bid.influence, 2);
    assert_eq!(rules.bid.side, Side::Us);
    assert_eq!(rules.tie_advances, Side::Ussr);
}

#[test]
fn a_misspelled_setting_is_named_with_its_line() {
    let e = error("format = \"tws-ladder\"\ndeadline_month = 3\n");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.column, Some(1));
    assert_eq!(e.field.as_deref(), Some("deadline_month"));
    assert!(
        e.message
            .starts_with("unknown field `deadline_month`, expected one of"),
        "{}",
        e.message
    );
    says(&e, "`deadline_months`");
    assert!(
        e.to_string()
            .starts_with("rules file, line 2, column 1, field `deadline_month`: unknown field"),
        "{e}"
    );
}

#[test]
fn a_misspelled_setting_in_a_table_is_named_with_its_table() {
    let e = error("deadline_months = 3\n\n[bid]\ninfluence = 3\ncolour = \"US\"\n");
    assert_eq!((e.line, e.column), (Some(5), Some(1)));
    assert_eq!(e.field.as_deref(), Some("bid.colour"));
    says(&e, "unknown field `colour`");
}

#[test]
fn a_value_of_the_wrong_type_is_named() {
    let e = error("# rules\ndeadline_months = \"three\"\n");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.column, Some(19));
    assert_eq!(e.field.as_deref(), Some("deadline_months"));
    says(&e, "invalid type: string \"three\"");
    let e = error("deadline_months = -1\n");
    assert_eq!(e.field.as_deref(), Some("deadline_months"));
    says(&e, "-1");
    let e = error("sides_count_quick_rounds = \"no\"\n");
    assert_eq!(e.field.as_deref(), Some("sides_count_quick_rounds"));
    let e = error("bid = 3\n");
    assert_eq!(e.field.as_deref(), Some("bid"));
    says(&e, "expected a table with `influence` and `side`");
}

#[test]
fn a_value_the_rules_refuse_is_named() {
    let e = error("format = \"tws-ladder\"\n\ndeadline_months = 0  # none\n");
    assert_eq!(e.field.as_deref(), Some("deadline_months"));
    assert_eq!((e.line, e.column), (Some(3), Some(19)));
    says(&e, "between 1 and 24 months, not 0");
    says(&e, "[TWS Conduct of Games]");
    assert_eq!(
        e.to_string(),
        "rules file, line 3, column 19, field `deadline_months`: the round time limit must be \
         between 1 and 24 months, not 0 [TWS Conduct of Games]"
    );

    let e = error("[bid]\ninfluence = 11\n");
    assert_eq!(e.field.as_deref(), Some("bid.influence"));
    assert_eq!((e.line, e.column), (Some(2), Some(13)));

    let e = error("consecutive_skips_for_loss = 1\n");
    assert_eq!(e.field.as_deref(), Some("consecutive_skips_for_loss"));
    assert_eq!(e.line, Some(1));

    let e = error("game_name_prefix = \"  \"\n");
    assert_eq!(e.field.as_deref(), Some("game_name_prefix"));
}

#[test]
fn another_format_is_refused() {
    let e = error("format = \"xmadn\"\ndeadline_months = 3\n");
    assert_eq!(e.field.as_deref(), Some("format"));
    assert_eq!((e.line, e.column), (Some(1), Some(10)));
    says(&e, "\"xmadn\"");
    says(&e, "tws-ladder");
}

#[test]
fn a_bad_side_is_refused() {
    let e = error("[bid]\nside = \"UN\"\n");
    assert_eq!(e.field.as_deref(), Some("bid.side"));
    assert_eq!((e.line, e.column), (Some(2), Some(8)));
    says(&e, "unknown variant `UN`");
    says(&e, "`USSR`");
    let e = error("tie_advances = \"us\"\n");
    assert_eq!(e.field.as_deref(), Some("tie_advances"));
    let e = error("bid = { side = \"UN\" }\n");
    assert_eq!(e.field.as_deref(), Some("bid.side"));
}

#[test]
fn invalid_toml_names_the_line() {
    let e = error("deadline_months = 3\nplatform = \n");
    assert_eq!(e.line, Some(2));
    assert!(!e.message.is_empty());
    assert_eq!(e.field.as_deref(), Some("platform"));
    let e = error("deadline_months = 3\ndeadline_months = 4\n");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.field.as_deref(), Some("deadline_months"));
    let e = error("[bid]\ninfluence = 3\ninfluence = 4\n");
    assert_eq!(e.field.as_deref(), Some("bid.influence"));
    let e = error("[bid\n");
    assert_eq!(e.line, Some(1));
}

#[test]
fn rules_to_toml_round_trips() {
    let rules = LadderRules::default();
    assert_eq!(parse_rules(&rules_to_toml(&rules)), Ok(rules));
    let rules = LadderRules {
        deadline_months: 24,
        bid: Bid {
            influence: 0,
            side: Side::Ussr,
        },
        tie_advances: Side::Ussr,
        consecutive_skips_for_loss: 5,
        missed_rounds_for_inactive: 1,
        sides_count_quick_rounds: true,
        platform: "say \"hi\" \\ tab\t nl\n del\u{7f} nul\u{0} é 🎲".into(),
        game_name_prefix: "Runde".into(),
        quick_round_prefix: String::new(),
    };
    assert_eq!(parse_rules(&rules_to_toml(&rules)), Ok(rules));
}

#[test]
fn rules_to_toml_of_the_defaults_is_frozen() {
    insta::assert_snapshot!(rules_to_toml(&LadderRules::default()));
}

proptest! {
    #[test]
    fn any_valid_rules_round_trip(
        deadline_months in 1..=24u32,
        influence in 0..=10u32,
        bid_ussr in any::<bool>(),
        tie_ussr in any::<bool>(),
        skips in 2..=1000u32,
        missed in 1..=1000u32,
        quick in any::<bool>(),
        platform in any::<String>(),
        game_name_prefix in "[^ ].*",
        quick_round_prefix in any::<String>(),
    ) {
        let side = |ussr: bool| if ussr { Side::Ussr } else { Side::Us };
        let rules = LadderRules {
            deadline_months,
            bid: Bid { influence, side: side(bid_ussr) },
            tie_advances: side(tie_ussr),
            consecutive_skips_for_loss: skips,
            missed_rounds_for_inactive: missed,
            sides_count_quick_rounds: quick,
            platform,
            game_name_prefix,
            quick_round_prefix,
        };
        prop_assume!(rules.validate().is_ok());
        let text = rules_to_toml(&rules);
        prop_assert_eq!(parse_rules(&text), Ok(rules), "{}", text);
    }

    #[test]
    fn arbitrary_text_never_panics(s in any::<String>()) {
        let _ = parse_rules(&s);
    }
}
