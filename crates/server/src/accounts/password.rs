//! Usernames and passwords: what is accepted, and argon2id hashing (RustCrypto's `argon2`,
//! its default parameters: 19 MiB, 2 passes), always on a blocking thread.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::error::AppError;

/// Shortest password accepted, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Longest password accepted, in bytes: hashing cost grows with the length, and nobody types
/// more.
pub const MAX_PASSWORD_BYTES: usize = 256;

/// Names nobody may take: they would read as the site speaking, or as nobody.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "arbiter",
    "anonymous",
    "anon",
    "api",
    "computer",
    "fide",
    "guest",
    "mod",
    "moderator",
    "null",
    "root",
    "staff",
    "support",
    "system",
    "lichess",
];

/// A username as it is kept for uniqueness: lower case (names are unique ignoring case).
pub fn key(username: &str) -> String {
    username.to_ascii_lowercase()
}

/// Check a new username: 2–20 characters of `A–Z a–z 0–9 _ -`, not reserved.
///
/// # Errors
/// 400 `bad_username` naming the fault.
pub fn check_username(name: &str) -> Result<(), AppError> {
    let n = name.chars().count();
    if !(2..=20).contains(&n) {
        return Err(AppError::bad_request(
            "bad_username",
            format!("a username has 2 to 20 characters, not {n}"),
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(AppError::bad_request(
            "bad_username",
            format!("a username has only the letters A–Z, a–z, digits, _ and -, not {c:?}"),
        ));
    }
    if RESERVED.contains(&key(name).as_str()) {
        return Err(AppError::bad_request(
            "bad_username",
            format!("the name {name:?} is reserved"),
        ));
    }
    Ok(())
}

/// Check a new password's length.
///
/// # Errors
/// 400 `weak_password` (too short) or `password_too_long`.
pub fn check_password(password: &str) -> Result<(), AppError> {
    check_length(password)?;
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(AppError::bad_request(
            "weak_password",
            format!("a password has at least {MIN_PASSWORD_CHARS} characters"),
        ));
    }
    Ok(())
}

/// Refuse a password too long to hash (also on login: the cost is the same).
///
/// # Errors
/// 400 `password_too_long`.
pub fn check_length(password: &str) -> Result<(), AppError> {
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(AppError::bad_request(
            "password_too_long",
            format!("a password has at most {MAX_PASSWORD_BYTES} bytes"),
        ));
    }
    Ok(())
}

/// Hash a password with argon2id and a fresh salt (PHC string).
///
/// # Errors
/// 500 if hashing fails.
pub async fn hash(password: String) -> Result<String, AppError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AppError::Internal(format!("argon2: {e}")))
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))?
}

/// A hash of no one's password, verified when the account does not exist so that a wrong
/// username costs the same time as a wrong password.
const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Dv0XsnNbQJ3ShCmBqMGtI0MAnu0uqsRSJtCF8t9uDs4";

/// Does `password` match `stored` (a PHC string; `None`: no such account, always false)?
///
/// # Errors
/// 500 if the blocking thread fails.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, AppError> {
    tokio::task::spawn_blocking(move || {
        let exists = stored.is_some();
        let stored = stored.unwrap_or_else(|| DUMMY.to_owned());
        let ok = PasswordHash::new(&stored).is_ok_and(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        });
        exists && ok
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_of_2_to_20_allowed_characters_are_accepted() {
        for ok in ["ab", "Magnus_Carlsen", "a-b_c-9", "x2345678901234567890"] {
            assert!(check_username(ok).is_ok(), "{ok}");
        }
        for bad in [
            "a",
            "x23456789012345678901",
            "two words",
            "é1",
            "a.b",
            "Admin",
            "ARBITER",
        ] {
            assert_eq!(
                check_username(bad).unwrap_err().code(),
                "bad_username",
                "{bad}"
            );
        }
    }

    #[test]
    fn passwords_need_8_characters_and_at_most_256_bytes() {
        assert_eq!(check_password("short").unwrap_err().code(), "weak_password");
        assert!(check_password("eight ch").is_ok());
        // Characters, not bytes, count toward the minimum.
        assert!(check_password("ščřžýáíé").is_ok());
        let huge = "x".repeat(MAX_PASSWORD_BYTES + 1);
        assert_eq!(
            check_password(&huge).unwrap_err().code(),
            "password_too_long"
        );
    }

    #[tokio::test]
    async fn a_hash_verifies_only_its_password() {
        let h = hash("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify("correct horse".into(), Some(h.clone()))
            .await
            .unwrap());
        assert!(!verify("wrong horse".into(), Some(h)).await.unwrap());
        // An unknown account never verifies, whatever the password (the dummy hash included).
        assert!(!verify("correct horse".into(), None).await.unwrap());
    }
}
