//! The matching against brute force on thousands of small graphs, its optimality certificates,
//! hand-worked cases, renumbered graphs, and the wide weight type against `u128` and scaling.

use std::time::Instant;

use arbiter_tournament::matching::{
    max_weight_matching, max_weight_matching_warm, max_weight_max_cardinality_matching, solve,
    Cardinality, FixedUint, IncrementalMatching, Solution, Stats, Warm, Weight,
};

type U192 = FixedUint<3>;
type U256 = FixedUint<4>;

/// SplitMix64: a small, seeded generator so that every failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i as u64 + 1) as usize);
        }
    }
}

/// The heaviest edge joining each pair (parallel edges allowed).
fn heaviest<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Vec<Option<W>>> {
    let mut best = vec![vec![None; n]; n];
    for &(i, j, w) in edges {
        for (a, b) in [(i, j), (j, i)] {
            if best[a][b].is_none_or(|old| w > old) {
                best[a][b] = Some(w);
            }
        }
    }
    best
}

/// Checks that `mates` is a matching of the graph and returns its (cardinality, weight).
fn check_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    mates: &[Option<usize>],
) -> (usize, W) {
    assert_eq!(mates.len(), n);
    let best = heaviest(n, edges);
    let mut weight = W::ZERO;
    let mut pairs = 0;
    for (v, mate) in mates.iter().enumerate() {
        if let Some(m) = *mate {
            assert_eq!(mates[m], Some(v), "mates not symmetric at {v}");
            let w = best[v][m].unwrap_or_else(|| panic!("{v} and {m} matched without an edge"));
            if v < m {
                weight = weight.plus(w).unwrap();
                pairs += 1;
            }
        }
    }
    (pairs, weight)
}

/// The best (weight) and best (cardinality, weight) over all matchings, by enumeration.
fn brute_force<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> (W, (usize, W)) {
    fn search<W: Weight>(
        best: &[Vec<Option<W>>],
        used: &mut [bool],
        from: usize,
        pairs: usize,
        weight: W,
        out: &mut (W, (usize, W)),
    ) {
        let Some(v) = (from..used.len()).find(|&v| !used[v]) else {
            out.0 = out.0.max(weight);
            out.1 = out.1.max((pairs, weight));
            return;
        };
        used[v] = true;
        search(best, used, v + 1, pairs, weight, out);
        for u in v + 1..used.len() {
            if let (false, Some(w)) = (used[u], best[v][u]) {
                used[u] = true;
                search(best, used, v + 1, pairs + 1, weight.plus(w).unwrap(), out);
                used[u] = false;
            }
        }
        used[v] = false;
    }
    let best = heaviest(n, edges);
    let mut out = (W::ZERO, (0, W::ZERO));
    search(&best, &mut vec![false; n], 0, 0, W::ZERO, &mut out);
    out
}

/// Solves both ways, checks the certificates, and returns ((weight), (cardinality, weight)).
fn solve_both<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    stats: &mut Stats,
) -> (W, (usize, W)) {
    let mut results = Vec::new();
    for cardinality in [Cardinality::Any, Cardinality::Maximum] {
        let Solution {
            mates,
            certificate,
            stats: run,
        } = solve(n, edges, cardinality);
        if let Err(error) = certificate.verify(n, edges, &mates) {
            panic!("{cardinality:?}: {error}\nn = {n}, edges = {edges:?}\nmates = {mates:?}");
        }
        stats.augmentations += run.augmentations;
        stats.dual_changes += run.dual_changes;
        stats.blossoms_formed += run.blossoms_formed;
        stats.inner_blossoms_expanded += run.inner_blossoms_expanded;
        results.push(check_matching(n, edges, &mates));
    }
    (results[0].1, results[1])
}

/// A random graph: complete or sparse, with weights from one of several distributions
/// (few values for many ties, zeros, a wide range), sometimes with parallel edges.
fn random_graph(rng: &mut Rng, n: usize, max_weight: u64) -> Vec<(usize, usize, u64)> {
    let density = [100, 100, 70, 50, 30, 15][rng.below(6) as usize];
    let distinct = [2, 3, 5, 20, max_weight][rng.below(5) as usize].min(max_weight);
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if rng.chance(density) {
                let weight = if rng.chance(10) {
                    0
                } else {
                    rng.below(distinct + 1) * (max_weight / distinct)
                };
                let (a, b) = if rng.chance(50) { (i, j) } else { (j, i) };
                edges.push((a, b, weight));
                if rng.chance(3) {
                    edges.push((a, b, rng.below(max_weight + 1)));
                }
            }
        }
    }
    rng.shuffle(&mut edges);
    edges
}

#[test]
fn small_random_graphs_match_brute_force() {
    let mut rng = Rng(1);
    let mut stats = Stats::default();
    let mut graphs = 0;
    for round in 0..4000 {
        let n = (round % 11) as usize;
        let max_weight = [1, 10, 1000, 1 << 40][rng.below(4) as usize];
        let edges: Vec<(usize, usize, i64)> = random_graph(&mut rng, n, max_weight)
            .into_iter()
            .map(|(i, j, w)| (i, j, w as i64))
            .collect();
        let expected = brute_force(n, &edges);
        assert_eq!(
            solve_both(n, &edges, &mut stats),
            expected,
            "n = {n}, edges = {edges:?}"
        );
        graphs += 1;
    }
    assert_eq!(graphs, 4000);
    // The random graphs do reach the delicate parts of the algorithm.
    assert!(stats.blossoms_formed > 1000, "{stats:?}");
    assert!(stats.inner_blossoms_expanded > 50, "{stats:?}");
}

#[test]
fn small_random_graphs_with_weights_at_the_bound_match_brute_force() {
    // The largest weights the maximum-cardinality variant accepts for 10 vertices in u128:
    // 6 × (5 + 1) × W + 6 must fit.
    let top = (u128::MAX - 6) / 36;
    let mut rng = Rng(2);
    let mut stats = Stats::default();
    for round in 0..1000 {
        let n = 2 + (round % 9) as usize;
        let edges: Vec<(usize, usize, u128)> = random_graph(&mut rng, n, 4)
            .into_iter()
            .map(|(i, j, w)| {
                (
                    i,
                    j,
                    if w == 0 {
                        0
                    } else {
                        top - u128::from(4 - w) * (top / 7)
                    },
                )
            })
            .collect();
        let expected = brute_force(n, &edges);
        assert_eq!(
            solve_both(n, &edges, &mut stats),
            expected,
            "n = {n}, edges = {edges:?}"
        );
    }
}

#[test]
fn small_random_graphs_with_weights_around_two_to_the_200_match_brute_force() {
    let mut rng = Rng(3);
    let mut stats = Stats::default();
    let big = U256::power_of_two(200).unwrap();
    for round in 0..1000 {
        let n = 2 + (round % 9) as usize;
        let edges: Vec<(usize, usize, U256)> = random_graph(&mut rng, n, 1000)
            .into_iter()
            .map(|(i, j, w)| {
                let low = U256::from(rng.next())
                    .checked_shl(rng.below(140) as u32)
                    .unwrap();
                (i, j, big.checked_mul_u64(w).unwrap() + low)
            })
            .collect();
        let expected = brute_force(n, &edges);
        assert_eq!(
            solve_both(n, &edges, &mut stats),
            expected,
            "n = {n}, edges = {edges:?}"
        );
    }
}

/// A hand-worked graph: (name, vertices, edges, best weight, best (cardinality, weight)).
type HandCase = (
    &'static str,
    usize,
    Vec<(usize, usize, i64)>,
    i64,
    (usize, i64),
);

fn hand_cases() -> Vec<HandCase> {
    vec![
        ("empty graph", 0, vec![], 0, (0, 0)),
        ("one edge", 2, vec![(0, 1, 5)], 5, (1, 5)),
        ("zero-weight edge", 2, vec![(0, 1, 0)], 0, (1, 0)),
        (
            "path: the two outer edges",
            4,
            vec![(0, 1, 5), (1, 2, 7), (2, 3, 5)],
            10,
            (2, 10),
        ),
        (
            "path: the middle edge outweighs both",
            4,
            vec![(0, 1, 1), (1, 2, 10), (2, 3, 1)],
            10,
            (2, 2),
        ),
        (
            "triangle with a pendant",
            4,
            vec![(0, 1, 6), (1, 2, 6), (0, 2, 6), (2, 3, 1)],
            7,
            (2, 7),
        ),
        (
            "odd cycle needing a blossom: a pentagon entered through a pendant",
            6,
            vec![
                (0, 1, 10),
                (1, 2, 10),
                (2, 3, 10),
                (3, 4, 10),
                (4, 0, 10),
                (0, 5, 3),
            ],
            23,
            (3, 23),
        ),
        (
            "blossom whose base must move: the pendant hangs on a non-base vertex",
            6,
            vec![
                (0, 1, 8),
                (1, 2, 9),
                (2, 0, 10),
                (2, 3, 7),
                (3, 4, 9),
                (4, 5, 6),
            ],
            21,
            (3, 21),
        ),
        (
            // A triangle 0-1-2 inside a pentagon (its blossom, 3, 4, 5, 6), with pendants 7, 8.
            "nested blossoms: a triangle inside a pentagon, expanded as an inner blossom",
            9,
            vec![
                (0, 1, 10),
                (1, 2, 10),
                (2, 0, 10),
                (0, 3, 9),
                (3, 4, 10),
                (4, 5, 9),
                (5, 6, 10),
                (6, 1, 9),
                (5, 7, 4),
                (2, 8, 4),
            ],
            34,
            (4, 34),
        ),
        (
            "max weight is not max cardinality: a star and a heavy edge",
            5,
            vec![(0, 1, 100), (1, 2, 1), (0, 3, 1), (3, 4, 100)],
            200,
            (2, 200),
        ),
        (
            "max weight is not max cardinality: a heavy edge in the middle of a six-path",
            6,
            vec![(0, 1, 1), (1, 2, 3), (2, 3, 20), (3, 4, 3), (4, 5, 1)],
            22,
            (3, 22),
        ),
        (
            "two triangles joined by a path",
            8,
            vec![
                (0, 1, 8),
                (1, 2, 10),
                (2, 3, 10),
                (3, 1, 10),
                (3, 4, 5),
                (4, 5, 10),
                (5, 6, 10),
                (6, 4, 10),
                (6, 7, 8),
            ],
            36,
            (4, 36),
        ),
        (
            "parallel edges: the heavier counts",
            2,
            vec![(0, 1, 3), (1, 0, 9), (0, 1, 4)],
            9,
            (1, 9),
        ),
        ("isolated vertices", 5, vec![(1, 3, 2)], 2, (1, 2)),
    ]
}

#[test]
fn hand_worked_cases_have_the_worked_out_weights() {
    for (name, n, edges, weight, max_cardinality) in hand_cases() {
        assert_eq!(
            brute_force(n, &edges),
            (weight, max_cardinality),
            "{name}: the hand working"
        );
        let mut stats = Stats::default();
        assert_eq!(
            solve_both(n, &edges, &mut stats),
            (weight, max_cardinality),
            "{name}"
        );
        if name.starts_with("nested") {
            assert!(
                stats.blossoms_formed >= 2 && stats.inner_blossoms_expanded >= 1,
                "{name}: {stats:?}"
            );
        }
    }
}

#[test]
fn the_path_example_gives_the_expected_mates() {
    let edges = [(0, 1, 2u64), (1, 2, 5), (2, 3, 2)];
    assert_eq!(
        max_weight_matching(4, &edges),
        [None, Some(2), Some(1), None]
    );
    assert_eq!(
        max_weight_max_cardinality_matching(4, &edges),
        [Some(1), Some(0), Some(3), Some(2)]
    );
}

#[test]
fn the_pentagon_forms_a_blossom_and_matches_through_it() {
    let edges = [
        (0, 1, 10u32),
        (1, 2, 10),
        (2, 3, 10),
        (3, 4, 10),
        (4, 0, 10),
        (0, 5, 3),
    ];
    let solution = solve(6, &edges, Cardinality::Any);
    assert_eq!(solution.mates[5], Some(0));
    assert!(solution.stats.blossoms_formed >= 1, "{:?}", solution.stats);
}

/// Medium graphs: no brute force, but certificates, the two variants' relations, and the same
/// result under renumbering.
#[test]
fn renumbered_graphs_have_the_same_optimum() {
    let mut rng = Rng(4);
    let mut stats = Stats::default();
    for round in 0..300 {
        let n = 1 + (round % 60) as usize;
        let max_weight = [3, 1000, 1 << 50][rng.below(3) as usize];
        let edges: Vec<(usize, usize, u64)> = random_graph(&mut rng, n, max_weight);
        let (weight, max_cardinality) = solve_both(n, &edges, &mut stats);
        // The maximum-cardinality matching has at least as many edges and at most the weight.
        assert!(max_cardinality.1 <= weight);
        let mut permutation: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut permutation);
        let mut renumbered: Vec<(usize, usize, u64)> = edges
            .iter()
            .map(|&(i, j, w)| {
                if rng.chance(50) {
                    (permutation[i], permutation[j], w)
                } else {
                    (permutation[j], permutation[i], w)
                }
            })
            .collect();
        rng.shuffle(&mut renumbered);
        assert_eq!(
            solve_both(n, &renumbered, &mut stats),
            (weight, max_cardinality),
            "n = {n}, edges = {edges:?}"
        );
        let plain_cardinality = check_matching(n, &edges, &max_weight_matching(n, &edges)).0;
        assert!(plain_cardinality <= max_cardinality.0);
        // The maximum cardinality itself: the plain maximum weight with unit weights.
        let unit: Vec<(usize, usize, u64)> = edges.iter().map(|&(i, j, _)| (i, j, 1)).collect();
        assert_eq!(
            check_matching(n, &unit, &max_weight_matching(n, &unit)).0,
            max_cardinality.0
        );
    }
}

#[test]
fn the_same_input_always_gives_the_same_matching() {
    let mut rng = Rng(5);
    for round in 0..50 {
        let n = 10 + round;
        let edges = random_graph(&mut rng, n, 5);
        for cardinality in [Cardinality::Any, Cardinality::Maximum] {
            let first = solve(n, &edges, cardinality);
            assert_eq!(solve(n, &edges, cardinality), first);
        }
    }
}

#[test]
fn larger_graphs_have_valid_certificates() {
    let mut rng = Rng(6);
    let mut stats = Stats::default();
    for (n, max_weight) in [(100, 1u64 << 48), (150, 4), (200, 1000), (201, 1)] {
        let edges = random_graph(&mut rng, n, max_weight);
        solve_both(n, &edges, &mut stats);
    }
}

/// The wide type must take exactly the same decisions as `u128` on values both can hold.
#[test]
fn the_wide_type_agrees_with_u128() {
    let mut rng = Rng(7);
    for round in 0..200 {
        let n = 1 + (round % 50) as usize;
        let edges = random_graph(&mut rng, n, 1000);
        let narrow: Vec<(usize, usize, u128)> = edges
            .iter()
            .map(|&(i, j, w)| (i, j, u128::from(w) << 90 | u128::from(rng.next())))
            .collect();
        let wide: Vec<(usize, usize, U192)> = narrow
            .iter()
            .map(|&(i, j, w)| (i, j, U192::from(w)))
            .collect();
        for cardinality in [Cardinality::Any, Cardinality::Maximum] {
            let narrow_solution = solve(n, &narrow, cardinality);
            let wide_solution = solve(n, &wide, cardinality);
            assert_eq!(narrow_solution.mates, wide_solution.mates);
            assert_eq!(narrow_solution.stats, wide_solution.stats);
            let duals: Vec<U192> = narrow_solution
                .certificate
                .vertex_duals
                .iter()
                .map(|&d| U192::from(d))
                .collect();
            assert_eq!(duals, wide_solution.certificate.vertex_duals);
        }
    }
}

/// Scaling every weight by 2^150 scales every dual and changes no decision: the same mates as
/// with the small weights.
#[test]
fn weights_scaled_past_two_to_the_200_give_the_same_matching() {
    let mut rng = Rng(8);
    for round in 0..200 {
        let n = 1 + (round % 40) as usize;
        let edges = random_graph(&mut rng, n, 1 << 55);
        let scaled: Vec<(usize, usize, U256)> = edges
            .iter()
            .map(|&(i, j, w)| (i, j, U256::from(w).checked_shl(150).unwrap()))
            .collect();
        assert!(
            scaled.iter().any(|edge| edge.2.bits() > 200)
                || edges.iter().all(|edge| edge.2 < 1 << 50)
        );
        for cardinality in [Cardinality::Any, Cardinality::Maximum] {
            let small = solve(n, &edges, cardinality);
            let large = solve(n, &scaled, cardinality);
            assert_eq!(small.mates, large.mates);
            large.certificate.verify(n, &scaled, &large.mates).unwrap();
        }
    }
}

/// Adding 2^200 to every weight makes the plain maximum weight a maximum-cardinality one:
/// the same cardinality and the same weight (beyond the offsets) as the maximum-cardinality
/// variant on the small weights in `u128`.
#[test]
fn an_offset_of_two_to_the_200_turns_max_weight_into_max_cardinality() {
    let mut rng = Rng(9);
    let offset = U256::power_of_two(200).unwrap();
    for round in 0..200 {
        let n = 1 + (round % 40) as usize;
        let edges = random_graph(&mut rng, n, 1 << 60);
        let narrow: Vec<(usize, usize, u128)> = edges
            .iter()
            .map(|&(i, j, w)| (i, j, u128::from(w)))
            .collect();
        let shifted: Vec<(usize, usize, U256)> = edges
            .iter()
            .map(|&(i, j, w)| (i, j, offset + U256::from(w)))
            .collect();
        let (pairs, weight) =
            check_matching(n, &narrow, &max_weight_max_cardinality_matching(n, &narrow));
        let (shifted_pairs, shifted_weight) =
            check_matching(n, &shifted, &max_weight_matching(n, &shifted));
        assert_eq!(shifted_pairs, pairs);
        assert_eq!(
            shifted_weight,
            offset.checked_mul_u64(pairs as u64).unwrap() + U256::from(weight)
        );
    }
}

#[test]
fn the_wide_type_computes_like_u128() {
    let mut rng = Rng(10);
    for _ in 0..10_000 {
        let (a, b) = (
            u128::from(rng.next()) << rng.below(64),
            u128::from(rng.next()) << rng.below(64),
        );
        let (wa, wb) = (U192::from(a), U192::from(b));
        assert_eq!(wa.cmp(&wb), a.cmp(&b));
        assert_eq!(
            wa.checked_add(wb).and_then(|s| u128::try_from(s).ok()),
            a.checked_add(b)
        );
        assert_eq!(
            wa.checked_sub(wb).map(|d| u128::try_from(d).unwrap()),
            a.checked_sub(b)
        );
        assert_eq!(u128::try_from(wa.half()).unwrap(), a / 2);
        assert_eq!(wa.to_string(), a.to_string());
        let factor = rng.below(1 << 20);
        assert_eq!(
            wa.checked_mul_u64(factor)
                .and_then(|p| u128::try_from(p).ok()),
            a.checked_mul(u128::from(factor))
        );
    }
}

#[test]
#[should_panic(expected = "negative weight")]
fn negative_weights_are_refused() {
    max_weight_matching(2, &[(0, 1, -1i64)]);
}

#[test]
#[should_panic(expected = "to itself")]
fn loops_are_refused() {
    max_weight_matching(2, &[(1, 1, 1i64)]);
}

#[test]
#[should_panic(expected = "outside 0..2")]
fn endpoints_out_of_range_are_refused() {
    max_weight_matching(2, &[(0, 2, 1i64)]);
}

#[test]
#[should_panic(expected = "too large for the weight type")]
fn weights_beyond_the_bound_are_refused() {
    max_weight_matching(2, &[(0, 1, u64::MAX / 5)]);
}

#[test]
#[should_panic(expected = "too large for the weight type")]
fn the_cardinality_bonus_must_fit_too() {
    max_weight_max_cardinality_matching(100, &[(0, 1, u64::MAX / 7)]);
}

/// A longer search for rare failures: many more random graphs, small ones against brute
/// force and medium ones (with few distinct weights, so many blossoms) against their
/// certificates.
///
/// `cargo test --release -p arbiter-tournament --test matching -- --ignored --nocapture stress`
#[test]
#[ignore = "a long stress run: run in release with --ignored"]
fn stress_many_random_graphs() {
    let seed = std::env::var("MATCHING_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let mut rng = Rng(seed);
    let mut stats = Stats::default();
    for round in 0..200_000u64 {
        let n = (round % 13) as usize;
        let max_weight = [1, 4, 10, 1000][rng.below(4) as usize];
        let edges = random_graph(&mut rng, n, max_weight);
        let expected = brute_force(n, &edges);
        assert_eq!(
            solve_both(n, &edges, &mut stats),
            expected,
            "n = {n}, edges = {edges:?}"
        );
    }
    for round in 0..5_000u64 {
        let n = 10 + (round % 70) as usize;
        let max_weight = [1, 3, 8, 1 << 30][rng.below(4) as usize];
        let edges = random_graph(&mut rng, n, max_weight);
        solve_both(n, &edges, &mut stats);
    }
    println!("{stats:?}");
}

/// The benchmark figure (not a test): complete graphs with random weights, 128 bits wide in
/// `FixedUint<3>`, and 116 bits wide in `u128` (the most it takes for 1,000 vertices with the
/// maximum-cardinality bonus).
///
/// `cargo test --release -p arbiter-tournament --test matching -- --ignored --nocapture bench`
#[test]
#[ignore = "a benchmark: run in release with --ignored --nocapture"]
fn bench_complete_graphs() {
    let mut rng = Rng(11);
    for n in [100, 300, 1000] {
        let mut pairs = Vec::with_capacity(n * (n - 1) / 2);
        for i in 0..n {
            for j in i + 1..n {
                pairs.push((i, j, u128::from(rng.next()) << 64 | u128::from(rng.next())));
            }
        }
        let wide: Vec<(usize, usize, U192)> = pairs
            .iter()
            .map(|&(i, j, w)| (i, j, U192::from(w)))
            .collect();
        let narrow: Vec<(usize, usize, u128)> =
            pairs.iter().map(|&(i, j, w)| (i, j, w >> 12)).collect();
        // Few distinct weights (many ties), like the Dutch system's criteria.
        let ties: Vec<(usize, usize, u128)> = pairs
            .iter()
            .map(|&(i, j, w)| (i, j, (w % 4) << 100))
            .collect();
        // Structured weights from a random score a_i in 0..1000 per vertex: pairing near
        // scores (like score groups), far scores (large alternating trees), or the sum (every
        // perfect matching ties: many blossoms).
        let score: Vec<u128> = (0..n).map(|_| u128::from(rng.next() % 1000)).collect();
        let structured = |weight: &dyn Fn(u128, u128) -> u128| -> Vec<(usize, usize, u128)> {
            pairs
                .iter()
                .map(|&(i, j, _)| (i, j, weight(score[i], score[j]) << 100))
                .collect()
        };
        let near = structured(&|a, b| 1000 - a.abs_diff(b));
        let far = structured(&|a, b| a.abs_diff(b));
        let sum = structured(&|a, b| a + b);
        for cardinality in [Cardinality::Any, Cardinality::Maximum] {
            bench_one("FixedUint<3>, 128-bit", n, &wide, cardinality);
            bench_one("u128, 116-bit", n, &narrow, cardinality);
            bench_one("u128, 4 values", n, &ties, cardinality);
            bench_one("u128, near scores", n, &near, cardinality);
            bench_one("u128, far scores", n, &far, cardinality);
            bench_one("u128, score sums", n, &sum, cardinality);
        }
    }
}

fn bench_one<W: Weight>(
    name: &str,
    n: usize,
    edges: &[(usize, usize, W)],
    cardinality: Cardinality,
) {
    let start = Instant::now();
    let solution = solve(n, edges, cardinality);
    let seconds = start.elapsed().as_secs_f64();
    let (pairs, _) = check_matching(n, edges, &solution.mates);
    println!(
        "n = {n:4}, {:6} edges, {name:21} {cardinality:?}: {seconds:7.3} s, {pairs} pairs, {:?}",
        edges.len(),
        solution.stats
    );
}

/// The total weight of a matching given as mates.
fn total_weight(n: usize, edges: &[(usize, usize, u64)], mates: &[Option<usize>]) -> u64 {
    check_matching(n, edges, mates).1
}

/// A symmetric weight matrix whose edges change a few vertices at a time (zero: no edge).
struct ChangingGraph {
    weights: Vec<Vec<u64>>,
}

#[allow(clippy::needless_range_loop)] // a symmetric matrix is clearer indexed
impl ChangingGraph {
    /// Each pair an edge with probability `density` %, weighing 1 to `max`.
    fn random(rng: &mut Rng, n: usize, density: u64, max: u64) -> Self {
        let mut weights = vec![vec![0u64; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                if rng.chance(density) {
                    let w = 1 + rng.below(max);
                    weights[i][j] = w;
                    weights[j][i] = w;
                }
            }
        }
        ChangingGraph { weights }
    }

    fn edges(&self) -> Vec<(usize, usize, u64)> {
        let n = self.weights.len();
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if self.weights[i][j] > 0 {
                    edges.push((i, j, self.weights[i][j]));
                }
            }
        }
        edges
    }

    /// Changes each edge at `v` with probability `percent` %: removed, raised, lowered, or set
    /// anew (1 to `max`); `changed` is told each new weight.
    fn change_at(
        &mut self,
        rng: &mut Rng,
        v: usize,
        percent: u64,
        max: u64,
        mut changed: impl FnMut(&mut Rng, usize, u64),
    ) {
        for j in 0..self.weights.len() {
            if j != v && rng.chance(percent) {
                let old = self.weights[v][j];
                let w = match rng.below(4) {
                    0 => 0,
                    1 => old + 1 + rng.below(20),
                    2 => old.saturating_sub(1 + rng.below(20)),
                    _ => 1 + rng.below(max),
                };
                self.weights[v][j] = w;
                self.weights[j][v] = w;
                changed(rng, j, w);
            }
        }
    }
}

/// A warm start after changing the edges at a few vertices gives an optimum of the new graph
/// (the same weight as a cold start), over chains of changes on random graphs, sparse and
/// dense, with the changes the Dutch engine makes: weights raised, lowered, removed, and
/// vertices taken out.
#[test]
fn warm_starts_after_changes_at_a_few_vertices_reach_the_optimum() {
    let mut rng = Rng(0x005e_ed0f_3a57);
    for round in 0..3_000 {
        let n = 2 + rng.below(if round % 10 == 0 { 40 } else { 12 }) as usize;
        let density = [30, 70, 100][round % 3];
        let mut graph = ChangingGraph::random(&mut rng, n, density, 40);
        let mut state = Warm {
            mates: vec![None; n],
            duals: vec![0; n],
        };
        for step in 0..8 {
            let edges = graph.edges();
            state = max_weight_matching_warm(n, &edges, &state);
            let cold = max_weight_matching(n, &edges);
            assert_eq!(
                total_weight(n, &edges, &state.mates),
                total_weight(n, &edges, &cold),
                "graph {round}, step {step}: {edges:?}"
            );
            // Change the edges at one to three vertices.
            for _ in 0..1 + rng.below(3) {
                let v = rng.below(n as u64) as usize;
                graph.change_at(&mut rng, v, 50, 60, |_, _, _| {});
            }
        }
    }
}

/// The incremental matching over chains of changes on random complete graphs: after each
/// change of the edges at one or two vertices (raised, lowered, removed), the same weight as
/// a cold start.
#[test]
fn incremental_matching_stays_optimal_over_chains_of_changes() {
    let mut rng = Rng(0x0016_c4e1_7a1b);
    for round in 0..2_000 {
        let n = 2 + rng.below(if round % 10 == 0 { 30 } else { 10 }) as usize;
        let mut m = IncrementalMatching::<u64>::new(n);
        let density = [30, 70, 100][round % 3];
        let mut graph = ChangingGraph::random(&mut rng, n, density, 30);
        for (i, j, w) in graph.edges() {
            m.set_weight(i, j, w);
        }
        for step in 0..10 {
            let edges = graph.edges();
            let mates = m.solve().to_vec();
            let cold = max_weight_matching(n, &edges);
            assert_eq!(
                total_weight(n, &edges, &mates),
                total_weight(n, &edges, &cold),
                "graph {round}, step {step}"
            );
            for _ in 0..1 + rng.below(2) {
                let v = rng.below(n as u64) as usize;
                // Either end first: the one named first is the one whose dual is raised.
                graph.change_at(&mut rng, v, 40, 50, |rng, j, w| {
                    if rng.chance(50) {
                        m.set_weight(v, j, w);
                    } else {
                        m.set_weight(j, v, w);
                    }
                });
            }
        }
    }
}
