//! The TRF reader on arbitrary bytes: no panic; whatever it reads is written, and reading and
//! writing that again changes nothing; the standings of whatever was read can be computed.
#![no_main]

use arbiter_tournament::tiebreak::{standings, StandingsConfig};
use arbiter_tournament::trf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let read = trf::read_bytes(data);
    let written = trf::write(&read.tournament);
    let again = trf::read(&written);
    assert_eq!(trf::write(&again.tournament), written, "not a fixed point");
    let _ = read.tournament.check();
    let _ = standings(&read.tournament, &StandingsConfig::default());
});
