//! CSV import of players and CSV export: errors that name the line and the
//! column, all or nothing, and cells safe from formula injection. Then
//! 10,000 generated files per parser (mutations of a good file and raw
//! bytes): no panic, every refusal names a line.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::sunjang::Rank;
use arbiter_service::csv::{
    CsvError, Export, MAX_BYTES, MAX_ROWS, parse_ladder_players, parse_sunjang_players, safe_cell,
};
use arbiter_store::EventStore as _;
use common::{COMP, create_with_members, ctx, memory_db, service, t0};
use proptest::prelude::*;

fn ladder_err(text: &str) -> CsvError {
    parse_ladder_players("players.csv", text.as_bytes()).unwrap_err()
}

fn sunjang_err(bytes: &[u8]) -> CsvError {
    parse_sunjang_players("players.csv", bytes).unwrap_err()
}

#[test]
fn a_good_ladder_file_reads() {
    let p = parse_ladder_players(
        "players.csv",
        b"\xEF\xBB\xBFName,Surname\r\nAna Morales,\r\n\r\n  Dmitri Volkov , Volkov\r\n",
    )
    .unwrap();
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].name, "Ana Morales");
    assert_eq!(p[0].surname, None);
    assert_eq!((p[1].line, p[1].name.as_str()), (4, "Dmitri Volkov"));
    assert_eq!(p[1].surname.as_deref(), Some("Volkov"));
}

#[test]
fn a_good_sunjang_file_reads() {
    let p = parse_sunjang_players(
        "players.csv",
        b"name,rank,rating,provisional,corr_rank,corr_rating\nKim,5k,1500,,3k,1600\nLee,2d?,2100,no,,\nPark,12k,900,yes,,\n",
    )
    .unwrap();
    assert_eq!(p.len(), 3);
    assert_eq!(p[0].info.rank, Rank::Kyu(5));
    assert_eq!(p[0].info.corr_rank, Some(Rank::Kyu(3)));
    assert_eq!(p[0].info.corr_rating, Some(1600));
    assert!(p[1].info.provisional, "the ? marks it provisional");
    assert!(p[2].info.provisional);
}

#[test]
fn errors_name_the_line_and_column() {
    let e = sunjang_err(b"name,rank,rating\nKim,5k,1500\nLee,12x,1400\n");
    assert_eq!(
        e.to_string(),
        "players.csv line 3, column `rank`: \"12x\" is not a rank (30k..1k, 1d..9d; a trailing ? marks it provisional)"
    );
    let e = sunjang_err(b"name,rank,rating\nKim,5k,strong\n");
    assert_eq!((e.line, e.column.as_deref()), (2, Some("rating")));
    let e = sunjang_err(b"name,rank\nKim,5k\n");
    assert_eq!((e.line, e.column.as_deref()), (1, Some("rating")));
    assert!(e.message.contains("missing column"), "{e}");
    let e = sunjang_err(b"name,rank,rating,colour\nKim,5k,1500,red\n");
    assert_eq!((e.line, e.column.as_deref()), (1, Some("colour")));
    let e = sunjang_err(b"name,rank,rating\nKim,5k\n");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("2 cells"), "{e}");
}

#[test]
fn latin1_is_refused_with_its_line() {
    let e = sunjang_err(b"name,rank,rating\nKim,5k,1500\nJos\xE9,3k,1500\n");
    assert_eq!((e.line, e.column.as_deref()), (3, Some("name")));
    assert!(e.message.contains("UTF-8"), "{e}");
    assert!(e.message.contains("0xE9"), "{e}");
}

#[test]
fn empty_files_and_headers_alone_are_refused() {
    for text in ["", "\u{feff}", "  \n\n", "\r\n"] {
        let e = ladder_err(text);
        assert_eq!(e.line, 1, "{text:?}: {e}");
        assert!(e.message.contains("empty"), "{e}");
    }
    let e = ladder_err("name,surname\n");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("no rows"), "{e}");
}

#[test]
fn duplicates_name_both_lines() {
    let e = ladder_err("name\nAna Morales\nBo\n ana  MORALES \n");
    assert_eq!((e.line, e.column.as_deref()), (4, Some("name")));
    assert!(e.message.contains("line 2"), "{e}");
    let e = ladder_err("name,name\nA,B\n");
    assert_eq!((e.line, e.column.as_deref()), (1, Some("name")));
}

#[test]
fn formula_names_nul_and_long_cells_are_refused() {
    for (i, start) in ["=", "+", "-", "@"].iter().enumerate() {
        let e = ladder_err(&format!("name\nok\n{start}HYPERLINK(\"x\")\n"));
        assert_eq!((e.line, e.column.as_deref()), (3, Some("name")), "{i}: {e}");
        assert!(e.message.contains("formula"), "{e}");
    }
    let e = ladder_err("name\nA\0B\n");
    assert_eq!((e.line, e.column.as_deref()), (2, Some("name")));
    assert!(e.message.contains("U+0000"), "{e}");
    let e = ladder_err(&format!("name\n{}\n", "x".repeat(201)));
    assert_eq!((e.line, e.column.as_deref()), (2, Some("name")));
}

#[test]
fn huge_files_are_refused_at_the_limit() {
    let mut big = String::from("name\n");
    let mut i = 0;
    while big.len() <= MAX_BYTES {
        big.push_str(&format!("Player number {i}\n"));
        i += 1;
    }
    let e = ladder_err(&big);
    assert!(e.message.contains("8 MiB"), "{e}");
    assert!(e.line > 100_000, "{e}");
    let mut many = String::from("name\n");
    for i in 0..=MAX_ROWS {
        many.push_str(&format!("P{i}\n"));
    }
    let e = ladder_err(&many);
    assert_eq!(e.line, MAX_ROWS as u64 + 2);
    assert!(e.message.contains("rows"), "{e}");
}

#[test]
fn exported_cells_are_safe_from_formulas() {
    assert_eq!(safe_cell("=1+1"), "'=1+1");
    assert_eq!(safe_cell("+4"), "'+4");
    assert_eq!(safe_cell("-2"), "'-2");
    assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
    assert_eq!(safe_cell("\tx"), "'\tx");
    assert_eq!(safe_cell("\rx"), "'\rx");
    assert_eq!(safe_cell("Ana = 1"), "Ana = 1");
    assert_eq!(safe_cell(""), "");
}

#[tokio::test]
async fn an_import_is_all_or_nothing() {
    let db = memory_db().await;
    let svc = service(db.store);
    let before = create_with_members(&svc, 2).await;
    // Line 3 is a player already on the ladder: the rules refuse it, and
    // line 2, which they accept, is not stored either.
    let e = svc
        .import_players_csv(
            COMP,
            "players.csv",
            b"name\nNew Player\nPlayer 1\n",
            &ctx(t0()),
        )
        .await
        .unwrap_err();
    assert!(e.to_string().starts_with("players.csv line 3: "), "{e}");
    assert!(e.to_string().contains("nothing was imported"), "{e}");
    assert_eq!(svc.store().version(COMP).await.unwrap(), before);
    let done = svc
        .import_players_csv(
            COMP,
            "players.csv",
            b"name,surname\nNew Player,\nOther One,One\n",
            &ctx(t0()),
        )
        .await
        .unwrap();
    assert_eq!(done.players, ["New Player", "Other One"]);
    assert_eq!(done.first, before + 1);
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    assert!(ladder.find("Other One").is_some());
    // Standings are exported with their header and one row per rung.
    let table = svc
        .export_table(COMP, Export::Standings, t0())
        .await
        .unwrap();
    assert_eq!(table.rows.len(), 4);
    let csv = table.to_csv().unwrap();
    assert!(csv.starts_with("rung,player,wins,"), "{csv}");
    assert!(csv.contains("\r\n"), "CRLF line ends");
}

#[tokio::test]
async fn an_exported_hostile_name_is_quoted() {
    let db = memory_db().await;
    let svc = service(db.store);
    create_with_members(&svc, 0).await;
    svc.execute(
        COMP,
        arbiter_engine::tws::Command::Join {
            name: "=HYPERLINK(\"http://x\",\"y\")".into(),
            surname: Some("X".into()),
        },
        &ctx(t0()),
    )
    .await
    .unwrap();
    let csv = svc
        .export_table(COMP, Export::Standings, t0())
        .await
        .unwrap()
        .to_csv()
        .unwrap();
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        "{csv}"
    );
}

// ------------------------------------------------------------ properties

const CASES: u32 = 10_000;

/// Cells that stress the reader.
const CELLS: &[&[u8]] = &[
    b"Ana Morales",
    b"",
    b" ",
    b"5k",
    b"2d?",
    b"31k",
    b"0d",
    b"1500",
    b"-1",
    b"99999999999",
    b"yes",
    b"maybe",
    b"=1+1",
    b"+4",
    b"-2",
    b"@SUM(A1)",
    b"\tx",
    b"\"quoted, with comma\"",
    b"\"unterminated",
    b"a\"b",
    b"\0",
    b"\xE9t\xE9",
    b"\xFF\xFE",
    b"\xEF\xBB\xBF",
    b"\r",
    b"\n",
    b"\xE2\x80\xAE",
    b"name",
];

const HEADERS: &[&[u8]] = &[
    b"name",
    b"name,surname",
    b"name,rank,rating",
    b"name,rank,rating,provisional,corr_rank,corr_rating",
    b"Name , RANK,Rating",
    b"name,name",
    b"rank,rating",
    b"",
    b"\xEF\xBB\xBFname,rank,rating",
    b"name,colour",
    b"\"name\",\"rank\",\"rating\"",
];

fn file() -> impl Strategy<Value = Vec<u8>> {
    let row = prop::collection::vec(0..CELLS.len(), 0..8);
    (
        0..HEADERS.len(),
        prop::collection::vec(row, 0..12),
        prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b"\r"[..])],
        prop_oneof![Just(b','), Just(b';'), Just(b'\t')],
        0..400usize,
    )
        .prop_map(|(h, rows, end, sep, cut)| {
            let mut out = HEADERS[h].to_vec();
            for r in rows {
                out.extend_from_slice(end);
                for (i, c) in r.iter().enumerate() {
                    if i > 0 {
                        out.push(sep);
                    }
                    out.extend_from_slice(CELLS[*c]);
                }
            }
            // Now and then cut short (a truncated file).
            if cut < out.len() && cut % 3 == 0 {
                out.truncate(cut);
            }
            out
        })
}

fn names_a_line(r: Result<usize, CsvError>) -> Result<(), TestCaseError> {
    if let Err(e) = r {
        prop_assert!(e.line >= 1, "{e}");
        let text = e.to_string();
        prop_assert!(text.starts_with("players.csv line "), "{text}");
        prop_assert!(!e.message.is_empty(), "{text}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_files_never_panic_and_errors_name_a_line(bytes in file()) {
        names_a_line(parse_ladder_players("players.csv", &bytes).map(|p| p.len()))?;
        names_a_line(parse_sunjang_players("players.csv", &bytes).map(|p| p.len()))?;
    }

    #[test]
    fn raw_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        names_a_line(parse_ladder_players("players.csv", &bytes).map(|p| p.len()))?;
        names_a_line(parse_sunjang_players("players.csv", &bytes).map(|p| p.len()))?;
    }

    /// What the reader accepts it accepts whole: every name is clean text.
    #[test]
    fn accepted_names_are_clean(bytes in file()) {
        if let Ok(players) = parse_ladder_players("players.csv", &bytes) {
            for p in players {
                prop_assert!(!p.name.is_empty());
                prop_assert!(!p.name.chars().any(char::is_control));
                prop_assert!(!p.name.starts_with(['=', '+', '-', '@']));
            }
        }
    }
}
