//! The proof that a matching is optimal: a feasible dual solution in complementary slackness
//! with it (Edmonds' matching polytope; Galil 1986, §3).

use core::fmt;

use super::weight::Weight;

/// The dual solution the algorithm ends with, which proves its matching optimal.
///
/// With `w'(e) = w(e) + cardinality_bonus`, vertex duals `u` and blossom duals `z` (all kept
/// at twice the textbook values, so they are integers):
///
/// 1. every edge `ij`: `u_i + u_j + Σ_{B ∋ i, j} z_B ≥ 2 w'(ij)`, and `u, z ≥ 0`;
/// 2. every matched pair is joined by an edge where this holds with equality;
/// 3. every unmatched vertex has `u = 0`;
/// 4. every blossom with `z > 0` contains `(|B| − 1) / 2` matched pairs.
///
/// Then for any matching `M'`, `2 w'(M') ≤ Σ u + Σ z_B ⌊|B|/2⌋ = 2 w'(M)`: the matching has
/// the largest weight under `w'`. With a zero bonus that is the plain maximum weight; with the
/// bonus of [`super::Cardinality::Maximum`] (more than any matching's weight), a matching of
/// largest `w'` has the most edges and, among those, the largest `w`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate<W> {
    /// Added to every edge weight before matching (zero for [`super::Cardinality::Any`]).
    pub cardinality_bonus: W,
    /// `u_v`, doubled, for each vertex.
    pub vertex_duals: Vec<W>,
    /// The blossoms with a non-zero dual.
    pub blossoms: Vec<DualBlossom<W>>,
}

/// An odd set of vertices with its dual variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DualBlossom<W> {
    /// The vertices of the blossom, an odd number of them.
    pub vertices: Vec<usize>,
    /// `z_B`, doubled.
    pub dual: W,
}

/// Why a certificate does not prove a matching optimal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertificateError(pub String);

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the certificate does not hold: {}", self.0)
    }
}

impl std::error::Error for CertificateError {}

fn fail<T>(reason: String) -> Result<T, CertificateError> {
    Err(CertificateError(reason))
}

impl<W: Weight> Certificate<W> {
    /// Checks, independently of the algorithm, that this certificate proves `mates` (a mate
    /// for each of the `vertex_count` vertices) a matching of `edges` of the largest weight
    /// (conditions 1–4 above).
    ///
    /// # Errors
    /// The first condition that fails, or a malformed matching or certificate.
    pub fn verify(
        &self,
        vertex_count: usize,
        edges: &[(usize, usize, W)],
        mates: &[Option<usize>],
    ) -> Result<(), CertificateError> {
        let n = vertex_count;
        if mates.len() != n || self.vertex_duals.len() != n {
            return fail(format!(
                "{} mates and {} vertex duals for {n} vertices",
                mates.len(),
                self.vertex_duals.len()
            ));
        }
        for (v, mate) in mates.iter().enumerate() {
            if let Some(m) = *mate {
                if m >= n || m == v || mates[m] != Some(v) {
                    return fail(format!("vertex {v}'s mate {m} is not matched back"));
                }
            }
        }
        if self.cardinality_bonus < W::ZERO {
            return fail("negative cardinality bonus".into());
        }
        // Which blossoms hold each vertex; condition 4.
        let mut holding: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (index, blossom) in self.blossoms.iter().enumerate() {
            let mut inside = vec![false; n];
            for &v in &blossom.vertices {
                if v >= n || inside[v] {
                    return fail(format!(
                        "blossom {index} lists vertex {v} out of range or twice"
                    ));
                }
                inside[v] = true;
                holding[v].push(index);
            }
            if blossom.dual < W::ZERO || blossom.vertices.len() % 2 == 0 {
                return fail(format!(
                    "blossom {index} has a negative dual or an even size"
                ));
            }
            let matched_inside = blossom
                .vertices
                .iter()
                .filter(|&&v| mates[v].is_some_and(|m| inside[m]))
                .count();
            if blossom.dual > W::ZERO && matched_inside != blossom.vertices.len() - 1 {
                return fail(format!(
                    "blossom {index} has a positive dual but only {} matched pairs inside",
                    matched_inside / 2
                ));
            }
        }
        // Condition 3 (and u ≥ 0).
        for (v, &dual) in self.vertex_duals.iter().enumerate() {
            if dual < W::ZERO || (mates[v].is_none() && dual != W::ZERO) {
                return fail(format!(
                    "vertex {v} has dual {dual:?} (negative, or positive while unmatched)"
                ));
            }
        }
        // Conditions 1 and 2.
        let overflow = || CertificateError("arithmetic overflow".into());
        let mut tight_mate = vec![false; n];
        for (index, &(i, j, weight)) in edges.iter().enumerate() {
            if i >= n || j >= n || i == j {
                return fail(format!(
                    "edge {index} ({i}, {j}) is not an edge of the graph"
                ));
            }
            let mut covered = self.vertex_duals[i]
                .plus(self.vertex_duals[j])
                .ok_or_else(overflow)?;
            // The blossoms holding both ends (both lists are ascending).
            let (mut a, mut b) = (0, 0);
            while a < holding[i].len() && b < holding[j].len() {
                match holding[i][a].cmp(&holding[j][b]) {
                    core::cmp::Ordering::Less => a += 1,
                    core::cmp::Ordering::Greater => b += 1,
                    core::cmp::Ordering::Equal => {
                        covered = covered
                            .plus(self.blossoms[holding[i][a]].dual)
                            .ok_or_else(overflow)?;
                        a += 1;
                        b += 1;
                    }
                }
            }
            let shifted = weight.plus(self.cardinality_bonus).ok_or_else(overflow)?;
            let doubled = shifted.plus(shifted).ok_or_else(overflow)?;
            if covered < doubled {
                return fail(format!(
                    "edge {index} ({i}, {j}) is not covered by the duals"
                ));
            }
            if covered == doubled && mates[i] == Some(j) {
                tight_mate[i] = true;
                tight_mate[j] = true;
            }
        }
        match (0..n).find(|&v| mates[v].is_some() && !tight_mate[v]) {
            Some(v) => fail(format!("vertex {v} is matched, but by no tight edge")),
            None => Ok(()),
        }
    }
}
