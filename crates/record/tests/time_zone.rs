//! The `…time-zone-set` event of every format (ARB-R82): one record
//! `{"v": 1, "type": "…time-zone-set", "zone": "Europe/Berlin"}`, the zone
//! by its IANA name; a record naming no zone is refused, never read as
//! UTC.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::zone::TimeZone;
use arbiter_record::roundrobin::{decode_round_robin, encode_round_robin};
use arbiter_record::{
    decode, decode_challengers, decode_league, decode_sunjang, encode, encode_challengers,
    encode_league, encode_sunjang,
};

fn berlin() -> TimeZone {
    TimeZone::parse("Europe/Berlin").unwrap()
}

#[test]
fn every_format_records_its_zone_by_name_and_reads_it_back() {
    let zone = berlin();
    let ladder = arbiter_engine::tws::Event::TimeZoneSet { zone };
    let text = encode(&ladder);
    assert_eq!(
        text,
        r#"{"v":1,"type":"time-zone-set","zone":"Europe/Berlin"}"#
    );
    assert_eq!(decode(&text).unwrap(), ladder);

    let league = arbiter_engine::xmadn::league::Event::TimeZoneSet { zone };
    let text = encode_league(&league);
    assert_eq!(
        text,
        r#"{"v":1,"type":"league-time-zone-set","zone":"Europe/Berlin"}"#
    );
    assert_eq!(decode_league(&text).unwrap(), league);

    let challengers = arbiter_engine::xmadn::challengers::Event::TimeZoneSet { zone };
    let text = encode_challengers(&challengers);
    assert_eq!(
        text,
        r#"{"v":1,"type":"challengers-time-zone-set","zone":"Europe/Berlin"}"#
    );
    assert_eq!(decode_challengers(&text).unwrap(), challengers);

    let sunjang = arbiter_engine::sunjang::season::Event::TimeZoneSet { zone };
    let text = encode_sunjang(&sunjang);
    assert_eq!(
        text,
        r#"{"v":1,"type":"sunjang-time-zone-set","zone":"Europe/Berlin"}"#
    );
    assert_eq!(decode_sunjang(&text).unwrap(), sunjang);

    let rr = arbiter_engine::roundrobin::Event::TimeZoneSet { zone };
    let text = encode_round_robin(&rr);
    assert_eq!(
        text,
        r#"{"v":1,"type":"round-robin-time-zone-set","zone":"Europe/Berlin"}"#
    );
    assert_eq!(decode_round_robin(&text).unwrap(), rr);
}

#[test]
fn a_record_naming_no_zone_is_refused() {
    for bad in [
        r#"{"v":1,"type":"time-zone-set","zone":"Mars/Olympus_Mons"}"#,
        r#"{"v":1,"type":"time-zone-set","zone":""}"#,
        r#"{"v":1,"type":"time-zone-set"}"#,
        r#"{"v":1,"type":"time-zone-set","zone":"UTC","extra":1}"#,
        r#"{"v":1,"type":"time-zone-set","zone":7}"#,
    ] {
        assert!(decode(bad).is_err(), "{bad} was read");
    }
    // A name in another case is the zone's own name once read.
    let read = decode(r#"{"v":1,"type":"time-zone-set","zone":"europe/berlin"}"#).unwrap();
    assert_eq!(
        read,
        arbiter_engine::tws::Event::TimeZoneSet { zone: berlin() }
    );
}
