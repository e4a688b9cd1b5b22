//! Seat tokens: 256 random bits, shown once to the player, stored only as a SHA-256 hash.

use sha2::{Digest, Sha256};

/// A freshly generated token (hex, 64 chars = 256 bits of entropy).
///
/// # Panics
/// If the operating system's random source fails.
pub fn generate() -> String {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).expect("OS random source");
    hex(&bytes)
}

/// A random id for a game: 12 characters from a 62-letter alphabet (~71 bits).
///
/// # Panics
/// If the operating system's random source fails.
pub fn game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut bytes = [0u8; 12];
    getrandom::getrandom(&mut bytes).expect("OS random source");
    // 256 is not a multiple of 62: the bias (<1%) is harmless for an id that is not a secret.
    bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// 64 random bits (a coin, a Chess960 position…).
///
/// # Panics
/// If the operating system's random source fails.
pub fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    getrandom::getrandom(&mut b).expect("OS random source");
    u64::from_le_bytes(b)
}

/// The stored form of a token: SHA-256, hex.
pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Does `token` hash to `stored`? Compared in constant time.
pub fn verify(token: &str, stored: &str) -> bool {
    let h = hash(token);
    let (a, b) = (h.as_bytes(), stored.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_256_bits_and_differ() {
        let (a, b) = (generate(), generate());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn verify_accepts_only_the_hashed_token() {
        let t = generate();
        let stored = hash(&t);
        assert_ne!(stored, t, "the token itself is never stored");
        assert!(verify(&t, &stored));
        assert!(!verify(&generate(), &stored));
        assert!(!verify("", &stored));
    }

    #[test]
    fn game_ids_are_alphanumeric() {
        let id = game_id();
        assert_eq!(id.len(), 12);
        assert!(id.bytes().all(|c| c.is_ascii_alphanumeric()));
    }
}
