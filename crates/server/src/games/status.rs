//! A game's status: where it stands between its creation and its end.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a game stands. The JSON and the database's text column hold its lowercase name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A seat is still free.
    Waiting,
    /// Both seats are taken and the game runs (Art. 6.6).
    Playing,
    /// Adjourned with a sealed move (Guideline I).
    Adjourned,
    /// Over: it has a result and a termination.
    Finished,
    /// Withdrawn by its creator before anyone joined.
    Withdrawn,
}

impl Status {
    /// Every status.
    pub const ALL: [Status; 5] = [
        Status::Waiting,
        Status::Playing,
        Status::Adjourned,
        Status::Finished,
        Status::Withdrawn,
    ];

    /// `waiting`, `playing`, `adjourned`, `finished` or `withdrawn`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Adjourned => "adjourned",
            Status::Finished => "finished",
            Status::Withdrawn => "withdrawn",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names no [`Status`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownStatus(pub String);

impl fmt::Display for UnknownStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game status {:?}", self.0)
    }
}

impl std::error::Error for UnknownStatus {}

impl FromStr for Status {
    type Err = UnknownStatus;

    fn from_str(s: &str) -> Result<Status, UnknownStatus> {
        Status::ALL
            .into_iter()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| UnknownStatus(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_round_trips_through_its_name_and_json() {
        for st in Status::ALL {
            assert_eq!(st.as_str().parse::<Status>(), Ok(st));
            assert_eq!(st.to_string(), st.as_str());
            let json = serde_json::to_string(&st).unwrap();
            assert_eq!(json, format!("\"{}\"", st.as_str()));
            assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), st);
        }
    }

    #[test]
    fn unknown_status_names_are_refused() {
        for bad in [
            "", "Finished", "FINISHED", "imported", "running", " playing",
        ] {
            assert_eq!(
                bad.parse::<Status>(),
                Err(UnknownStatus(bad.to_owned())),
                "{bad:?}"
            );
            assert!(serde_json::from_str::<Status>(&format!("\"{bad}\"")).is_err());
        }
    }
}
