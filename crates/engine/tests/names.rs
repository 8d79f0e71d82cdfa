//! ARB-R62: the one name normalization of every format and of accounts'
//! names. Properties: the stored spelling and the key are fixed points
//! (normalizing twice is normalizing once), and "the same name" is an
//! equivalence (it is equality of keys, and agrees with the spelling).

use arbiter_engine::model::{name_key, person_name, same_name, spelled};
use proptest::prelude::*;

/// Names from a small alphabet that collides often: letters with and
/// without accents (precomposed and combining), cases, sharp s, sigma,
/// spaces of several kinds.
fn name() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a", "A", "e", "E", "é", "É", "e\u{301}", "E\u{301}", "ß", "SS", "ss", "ẞ", "σ", "ς", "Σ",
        "ſ", "s", "İ", "i", "ǅ", "ǆ", "Ǆ", " ", "  ", "\u{a0}", "\u{3000}", "\u{345}", "ω", "Ω",
        "ﬁ", "Lee", "ANN",
    ]);
    prop::collection::vec(pieces, 0..8).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn normalization_is_idempotent(n in name()) {
        let s = spelled(&n);
        prop_assert_eq!(spelled(&s), s.clone());
        let k = name_key(&n);
        prop_assert_eq!(name_key(&k), k.clone());
        // The key of the stored spelling is the key of what was typed.
        prop_assert_eq!(name_key(&s), k);
        if let Ok(stored) = person_name(&n, 200) {
            prop_assert_eq!(person_name(&stored, 200), Ok(stored.clone()));
            prop_assert!(same_name(&stored, &n));
        }
    }

    #[test]
    fn same_name_is_an_equivalence(a in name(), b in name(), c in name()) {
        prop_assert!(same_name(&a, &a));
        prop_assert_eq!(same_name(&a, &b), same_name(&b, &a));
        if same_name(&a, &b) && same_name(&b, &c) {
            prop_assert!(same_name(&a, &c));
        }
        // One spelling is one name.
        if spelled(&a) == spelled(&b) {
            prop_assert!(same_name(&a, &b));
        }
    }
}

#[test]
fn the_cases_of_issue_15() {
    assert!(same_name("Ann Lee", "Ann  Lee"));
    assert!(same_name("Émile", "émile"));
    assert!(person_name("Ann\u{200b}", 64).is_err());
}

// ----- every format checks names one way (ARB-R62) -----

use arbiter_engine::RuleError;
use arbiter_engine::draw;
use arbiter_engine::model::PlayerId;
use arbiter_engine::xmadn::challengers::{self, Challengers};
use arbiter_engine::xmadn::league::{self, League};
use arbiter_engine::xmadn::{ChallengersRules, LeagueRules};

fn league_of(players: &[&str]) -> Result<League, RuleError> {
    let l = League::default();
    let events = l.decide(league::Command::Create {
        name: "names".into(),
        rules: LeagueRules::default(),
        players: players.iter().map(|p| p.to_string()).collect(),
        seed_hash: draw::commitment(&[1; 32]),
    })?;
    Ok(League::fold(&events))
}

fn challengers_of(players: &[&str]) -> Result<Challengers, RuleError> {
    let c = Challengers::default();
    let events = c.decide(challengers::Command::Create {
        name: "names".into(),
        rules: ChallengersRules::default(),
        players: players.iter().map(|p| p.to_string()).collect(),
    })?;
    let mut c = Challengers::default();
    for e in &events {
        c.try_apply(e).expect("fits");
    }
    Ok(c)
}

/// "Ann Lee" and "Ann  Lee" are one player; so are "Émile" and "émile"; a
/// name with a zero-width space is refused. Before ARB-R62 the league took
/// the first two as different players (it compared trimmed, ASCII-folded
/// names).
#[test]
fn a_league_refuses_two_spellings_of_one_name() {
    for (a, b) in [
        ("Ann Lee", "Ann  Lee"),
        ("Émile", "émile"),
        ("E\u{301}mile", "Émile"),
        ("Straße", "STRASSE"),
    ] {
        let err = league_of(&[a, "Bo", b]).expect_err(&format!("{a:?} and {b:?}"));
        assert_eq!(err.field.as_deref(), Some("players"), "{err}");
        // The refusal names the player who already has the name.
        let kept = spelled(a);
        assert!(err.to_string().contains(&format!("{kept:?}")), "{err}");
        assert!(err.to_string().contains("ARB-R62"), "{err}");
        let err = challengers_of(&[a, "Bo", b]).expect_err(&format!("{a:?} and {b:?}"));
        assert!(err.to_string().contains("ARB-R62"), "{err}");
    }
    assert!(league_of(&["Ann", "Bo", "Ann\u{200b}"]).is_err());
    assert!(challengers_of(&["Ann", "Bo", "Ann\u{200b}"]).is_err());
}

/// The spelling kept is the person's own (NFC, single spaces), and a
/// lookup by any spelling of the name finds him.
#[test]
fn a_league_keeps_the_spelling_and_finds_every_spelling() {
    let l = league_of(&["  E\u{301}mile   Zola ", "Ann Lee", "Bo"]).expect("created");
    assert_eq!(l.players[0], "\u{c9}mile Zola");
    assert_eq!(l.find("émile zola"), Some(PlayerId(1)));
    assert_eq!(l.find("EMILE ZOLA"), None, "accents are not case");
    assert_eq!(l.find("ANN   LEE"), Some(PlayerId(2)));
    let c = challengers_of(&["  E\u{301}mile   Zola ", "Ann Lee", "Bo"]).expect("created");
    assert_eq!(c.players[0], "\u{c9}mile Zola");
    assert_eq!(c.find("ÉMILE ZOLA"), Some(PlayerId(1)));
}

/// A log stored before ARB-R62 may hold two names that are one name now:
/// it still folds, each player keeps his spelling, the exact spelling
/// finds each, and the shared key alone finds nobody (ARB-R62).
#[test]
fn an_old_log_with_two_spellings_still_folds() {
    let created = league::Event::Created {
        name: "old".into(),
        rules: LeagueRules::default(),
        players: vec!["Ann Lee".into(), "ann lee".into(), "Bo".into()],
        seed_hash: draw::commitment(&[1; 32]),
    };
    let mut l = League::default();
    l.try_apply(&created).expect("an old log folds");
    assert_eq!(l.players, ["Ann Lee", "ann lee", "Bo"]);
    assert_eq!(l.find("Ann Lee"), Some(PlayerId(1)));
    assert_eq!(l.find("ann lee"), Some(PlayerId(2)));
    assert_eq!(l.find("ANN LEE"), None);
}

/// Sunjang and the TWS ladder refuse the same spellings.
#[test]
fn sunjang_and_the_ladder_refuse_them_too() {
    use arbiter_engine::sunjang::season::{Command as S, League as Sunjang};
    use arbiter_engine::sunjang::{PlayerInfo, Rank, Restrictions, SunjangRules};
    let mut s = Sunjang::default();
    let run = |s: &mut Sunjang, c: S| -> Result<(), RuleError> {
        for e in s.decide(c)? {
            s.apply(&e);
        }
        Ok(())
    };
    run(
        &mut s,
        S::Create {
            name: "names".into(),
            rules: SunjangRules::default(),
            restrictions: Restrictions::default(),
        },
    )
    .expect("created");
    let info = |name: &str| PlayerInfo {
        name: name.into(),
        rank: Rank::Kyu(5),
        provisional: false,
        rating: 1500,
        corr_rank: None,
        corr_rating: None,
    };
    run(
        &mut s,
        S::Register {
            info: info("E\u{301}mile  Zola"),
        },
    )
    .expect("registered");
    assert_eq!(
        s.info(PlayerId(1)).map(|i| i.name.as_str()),
        Some("\u{c9}mile Zola")
    );
    let err = run(
        &mut s,
        S::Register {
            info: info("émile zola"),
        },
    )
    .expect_err("same name");
    assert!(err.to_string().contains("\u{c9}mile Zola"), "{err}");
    assert_eq!(s.find("ÉMILE ZOLA"), Some(PlayerId(1)));

    use arbiter_engine::tws::{Command as T, Ladder, LadderRules};
    let mut l = Ladder::default();
    for c in [
        T::Create {
            name: "names".into(),
            rules: LadderRules::default(),
            seed_hash: draw::commitment(&[1; 32]),
        },
        T::Join {
            name: "Straße Müller".into(),
            surname: None,
        },
    ] {
        for e in l.decide(c).expect("ok") {
            l.apply(&e);
        }
    }
    let err = l
        .decide(T::Join {
            name: "STRASSE MU\u{308}LLER".into(),
            surname: None,
        })
        .expect_err("same name");
    // The answer names the member it matched, as the other formats do.
    assert!(
        err.to_string()
            .contains("is already registered: it is the same name as Straße Müller (P1"),
        "{err}"
    );
    assert!(l.find("strasse müller").is_some());
}

/// Issue 17 §2: "a suggestion for a misspelled name ("did you mean Ana
/// Morales?")": a letter dropped, doubled or swapped, a case or accent
/// changed, a surname or a given name alone, or the start of a name
/// finds it; a name close to nothing suggests nothing.
#[test]
fn a_misspelled_name_suggests_the_names_it_was_meant_for() {
    use arbiter_engine::model::{did_you_mean, similar_names};
    let names = [
        "Ana Morales",
        "Ana Moreno",
        "Ben Carter",
        "Chloé Dubois",
        "Zhang Wei",
    ];
    let names = || names.iter().copied();
    assert_eq!(similar_names(names(), "Ana Moralse"), ["Ana Morales"]);
    assert_eq!(similar_names(names(), "ana morales"), ["Ana Morales"]);
    assert_eq!(similar_names(names(), "Chloe Dubois"), ["Chloé Dubois"]);
    assert_eq!(similar_names(names(), "Dubois"), ["Chloé Dubois"]);
    assert_eq!(similar_names(names(), "Bne Carter"), ["Ben Carter"]);
    assert_eq!(
        similar_names(names(), "Ana Mor"),
        ["Ana Morales", "Ana Moreno"]
    );
    assert_eq!(
        did_you_mean(names(), "Ana Morale"),
        "; did you mean Ana Morales?"
    );
    assert!(similar_names(names(), "Xavier Quist").is_empty());
    assert!(similar_names(names(), "").is_empty());
    assert!(similar_names(names(), &"a".repeat(10_000)).is_empty());
    assert_eq!(did_you_mean(names(), "Nobody Here"), "");
}
