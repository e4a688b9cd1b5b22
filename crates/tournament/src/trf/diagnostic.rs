//! What the TRF reader says about a file: where (line and column) and what.

use std::fmt;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Something was skipped or assumed but the data read is what the file means (an unknown
    /// record, a legacy code).
    Warning,
    /// Part of the file could not be read: that field or line was left out.
    Error,
}

/// A problem found while reading, placed by line and column (both from 1; columns count
/// characters, as TRF's fixed columns do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Line number, from 1.
    pub line: usize,
    /// Column, from 1 (1 for the whole line).
    pub column: usize,
    /// Warning or error.
    pub severity: Severity,
    /// What is wrong, for a person.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(
            f,
            "line {}, column {}: {kind}: {}",
            self.line, self.column, self.message
        )
    }
}
