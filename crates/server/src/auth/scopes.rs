//! lichess's OAuth scopes, as granted to personal API tokens: a token may do on the
//! lichess-compatible routes only what its scopes allow. A browser session may do everything;
//! the native API does not look at scopes.

use crate::error::AppError;

/// Every scope lichess defines (its specification's `OAuth2` scheme), in its order.
pub const SCOPES: &[&str] = &[
    "preference:read",
    "preference:write",
    "email:read",
    "engine:read",
    "engine:write",
    "challenge:read",
    "challenge:write",
    "challenge:bulk",
    "study:read",
    "study:write",
    "tournament:write",
    "racer:write",
    "puzzle:read",
    "puzzle:write",
    "team:read",
    "team:write",
    "team:lead",
    "follow:read",
    "follow:write",
    "msg:write",
    "board:play",
    "bot:play",
    "web:mod",
];

/// The scopes of a token made before tokens had scopes: everything a program needs to play
/// (such tokens were made to play, and keep doing so).
pub const PLAY_SCOPES: &[&str] = &[
    "board:play",
    "bot:play",
    "challenge:read",
    "challenge:write",
    "challenge:bulk",
];

/// Check requested scopes: each must be one of [`SCOPES`]; the answer is deduplicated, in
/// [`SCOPES`]' order.
///
/// # Errors
/// 400 `unknown_scope` naming the first unknown scope.
pub fn check(requested: &[String]) -> Result<Vec<String>, AppError> {
    if let Some(bad) = requested.iter().find(|s| !SCOPES.contains(&s.as_str())) {
        return Err(AppError::bad_request(
            "unknown_scope",
            format!("unknown scope {bad:?}"),
        ));
    }
    Ok(SCOPES
        .iter()
        .filter(|s| requested.iter().any(|r| r == *s))
        .map(|s| (*s).to_owned())
        .collect())
}

/// Scopes as stored (`NULL`: a token older than scopes, see [`PLAY_SCOPES`]).
pub fn from_column(column: Option<String>) -> Vec<String> {
    match column {
        None => PLAY_SCOPES.iter().map(|s| (*s).to_owned()).collect(),
        Some(text) => text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
    }
}

/// Scopes as stored and as lichess writes them: comma-separated.
pub fn to_column(scopes: &[String]) -> String {
    scopes.join(",")
}

/// 403 `missing_scope` unless `granted` (`None`: a browser session) holds `scope`.
///
/// # Errors
/// 403 `missing_scope`, `Missing scope: {scope}`.
pub fn require(granted: Option<&[String]>, scope: &str) -> Result<(), AppError> {
    match granted {
        Some(g) if !g.iter().any(|s| s == scope) => Err(AppError::forbidden(
            "missing_scope",
            format!("Missing scope: {scope}"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requested_scopes_are_checked_deduplicated_and_ordered() {
        let got = check(&["bot:play".into(), "board:play".into(), "bot:play".into()]).unwrap();
        assert_eq!(got, ["board:play", "bot:play"]);
        assert_eq!(
            check(&["board:play".into(), "root".into()])
                .unwrap_err()
                .code(),
            "unknown_scope"
        );
    }

    #[test]
    fn a_token_older_than_scopes_may_play() {
        let old = from_column(None);
        assert!(require(Some(&old), "board:play").is_ok());
        assert!(require(Some(&old), "bot:play").is_ok());
        let e = require(Some(&old), "preference:write").unwrap_err();
        assert_eq!((e.status().as_u16(), e.code()), (403, "missing_scope"));
        assert_eq!(e.to_string(), "Missing scope: preference:write");
        assert!(require(None, "web:mod").is_ok());
        assert_eq!(from_column(Some(String::new())), Vec::<String>::new());
        assert_eq!(from_column(Some("a:b,c:d".into())), ["a:b", "c:d"]);
    }
}
