//! A tiny JSON writer: the module's answers are small, fixed shapes, so writing them by hand
//! keeps serde (and its code size) out of the WebAssembly module.

use std::fmt::Write;

/// `s` as a JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of strings.
pub fn strings<S: AsRef<str>>(items: &[S]) -> String {
    let parts: Vec<String> = items.iter().map(|s| string(s.as_ref())).collect();
    format!("[{}]", parts.join(","))
}

#[cfg(test)]
mod tests {
    #[test]
    fn quotes_backslashes_and_control_characters_are_escaped() {
        assert_eq!(
            super::string("a\"b\\c\nd\u{1}"),
            "\"a\\\"b\\\\c\\nd\\u0001\""
        );
        assert_eq!(super::strings(&["e4", "O-O"]), "[\"e4\",\"O-O\"]");
    }
}
