//! Usernames and passwords: what is accepted, and argon2id hashing (RustCrypto's `argon2`,
//! its default parameters: 19 MiB, 2 passes), always on the hashing threads, off the runtime.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

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
    // lichess's `GET /api/users/status` would hide a player's `GET /api/users/{name}`.
    "status",
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

/// Run `f` on the hashing threads: one per core, kept for the life of the server, so that a
/// burst of sign-ups or logins waits its turn instead of taking every blocking thread.
async fn on_hashing_threads<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    let pool = POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(std::thread::available_parallelism().map_or(2, usize::from))
            .thread_name(|i| format!("argon2-{i}"))
            .build()
            .expect("hashing threads start")
    });
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        let _ = tx.send(f());
    });
    rx.await
        .map_err(|_| AppError::Internal("a hashing thread failed".into()))
}

thread_local! {
    /// The hashing thread's argon2 memory, allocated once and reused. Allocating 19 MiB per
    /// hash makes glibc raise its mmap threshold and keep every freed block on the heap:
    /// measured, 20 sign-ups in a row left 188 MB resident and 60 at once 384 MB; reused,
    /// the memory stays at one block set per thread.
    static MEMORY: std::cell::RefCell<Vec<Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The raw argon2 output of `password` with `salt` under `argon2`'s parameters, into `out`,
/// using the thread's reused memory.
fn argon2_into(
    argon2: &Argon2<'_>,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), argon2::Error> {
    MEMORY.with_borrow_mut(|blocks| {
        let need = argon2.params().block_count();
        if blocks.len() != need {
            blocks.clear();
            blocks.resize(need, Block::default());
        }
        argon2.hash_password_into_with_memory(password, salt, out, &mut blocks[..])
    })
}

/// Hash a password with argon2id (default parameters) and a fresh salt; the PHC string.
fn hash_now(password: &[u8]) -> Result<String, String> {
    let params = Params::default();
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_buf = [0u8; Salt::MAX_LENGTH];
    let salt_raw = salt.decode_b64(&mut salt_buf).map_err(|e| e.to_string())?;
    let mut out = [0u8; 32];
    argon2_into(&argon2, password, salt_raw, &mut out).map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: argon2::ARGON2ID_IDENT,
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

/// Does `password` hash to the PHC string `stored` (under the parameters it names)?
fn verify_now(password: &[u8], stored: &str) -> bool {
    let Ok(phc) = PasswordHash::new(stored) else {
        return false;
    };
    let (Ok(algorithm), Ok(params), Some(salt), Some(expected)) = (
        Algorithm::try_from(phc.algorithm),
        Params::try_from(&phc),
        phc.salt,
        phc.hash,
    ) else {
        return false;
    };
    let version = phc
        .version
        .and_then(|v| Version::try_from(v).ok())
        .unwrap_or_default();
    let mut salt_buf = [0u8; Salt::MAX_LENGTH];
    let Ok(salt_raw) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let argon2 = Argon2::new(algorithm, version, params);
    // Output's equality is constant-time.
    argon2_into(&argon2, password, salt_raw, &mut out).is_ok()
        && Output::new(&out).is_ok_and(|o| o == expected)
}

/// Hash a password with argon2id and a fresh salt (PHC string).
///
/// # Errors
/// 500 if hashing fails.
pub async fn hash(password: String) -> Result<String, AppError> {
    on_hashing_threads(move || hash_now(password.as_bytes()))
        .await?
        .map_err(|e| AppError::Internal(format!("argon2: {e}")))
}

/// A hash of no one's password, verified when the account does not exist so that a wrong
/// username costs the same time as a wrong password.
const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Dv0XsnNbQJ3ShCmBqMGtI0MAnu0uqsRSJtCF8t9uDs4";

/// Does `password` match `stored` (a PHC string; `None`: no such account, always false)?
///
/// # Errors
/// 500 if the hashing thread fails.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, AppError> {
    on_hashing_threads(move || {
        let exists = stored.is_some();
        let ok = verify_now(password.as_bytes(), stored.as_deref().unwrap_or(DUMMY));
        exists && ok
    })
    .await
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
            "Status",
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

    #[test]
    fn our_hashes_are_the_argon2_crates_own() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        // A hash made here verifies with the crate's own verifier, and one made by the crate
        // (other parameters too) verifies here.
        let ours = hash_now(b"correct horse").unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        assert!(Argon2::default()
            .verify_password(b"wrong horse", &parsed)
            .is_err());
        let params = Params::new(8192, 3, 1, None).unwrap();
        let theirs = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password(b"correct horse", &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string();
        assert!(verify_now(b"correct horse", &theirs));
        assert!(!verify_now(b"wrong horse", &theirs));
        assert!(!verify_now(b"correct horse", "not a hash"));
    }
}
