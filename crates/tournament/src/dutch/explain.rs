//! Numbers written for the explanation of a pairing.

/// Points in the exact units of [`crate::model::Points`], written as a person writes them.
pub(super) fn format_points(score: i64) -> String {
    let whole = score / 10_000;
    let frac = score % 10_000;
    if frac == 0 {
        whole.to_string()
    } else if frac == 5_000 {
        format!("{whole}.5")
    } else {
        format!("{:.2}", score as f64 / 10_000.0)
    }
}
