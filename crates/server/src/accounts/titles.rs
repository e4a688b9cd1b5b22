//! The titles of accounts (`BOT`), known in memory so that a game's players show them without
//! the game code looking them up: a title is noted whenever an account row is read for a
//! game's names ([`super::queries::names`]), a login, or the upgrade itself.
//!
//! This is enough because a title is given once and for good, and only to an account with no
//! game: any game of a titled account is loaded after the title was set, and loading it reads
//! its players' rows. Process-wide (account ids are random, unique across databases); it holds
//! titled accounts only.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

fn known() -> &'static Mutex<HashMap<String, String>> {
    static TITLES: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    TITLES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Note the title of `account_id` as read from its row (`None`: untitled, nothing noted).
pub fn note(account_id: &str, title: Option<&str>) {
    if let Some(t) = title {
        let mut map = known().lock().expect("titles");
        if map.get(account_id).map(String::as_str) != Some(t) {
            map.insert(account_id.to_owned(), t.to_owned());
        }
    }
}

/// The title of `account_id`, if it has one (and it was noted, see the module's note).
pub fn of(account_id: &str) -> Option<String> {
    known().lock().expect("titles").get(account_id).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_noted_title_is_known_and_no_title_notes_nothing() {
        note("titles-test-bot", Some("BOT"));
        note("titles-test-human", None);
        assert_eq!(of("titles-test-bot").as_deref(), Some("BOT"));
        assert_eq!(of("titles-test-human"), None);
    }
}
