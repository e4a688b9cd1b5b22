//! The remainder of a bracket, once its moved-down players are paired: S1 and S2, the
//! exchanges between them (C.04.3 D.2: as few as possible, the smallest differences of
//! numbers) and the transpositions of S2 (D.1: each player of S1, in order, with the first
//! player of S2 that still allows the best pairing).

use super::bracket::Bracket;
use super::pairer::Pairer;
use super::weights::Wide;

/// The residents not paired with a moved-down player, and how many pairs they form.
pub(super) struct Remainder {
    /// Indices into the bracket's players, in order.
    pub players: Vec<usize>,
    /// The number of pairs: S1 is the first `pairs` players.
    pub pairs: usize,
}

impl<W: Wide> Pairer<'_, W> {
    /// The remainder after the moved-down players' pairs.
    pub(super) fn remainder(&self, br: &Bracket<W>) -> Remainder {
        let mut players = Vec::new();
        let mut pairs = 0;
        for (r, &rv) in br.players.iter().enumerate().take(br.end).skip(br.movers) {
            if br.mates[rv] < br.group_start {
                continue; // paired with a moved-down player
            }
            players.push(r);
            if br.mates[rv] < rv {
                pairs += 1;
            }
        }
        Remainder { players, pairs }
    }

    /// The base weight with the exchange terms: a pair whose first player is in S1 weighs
    /// more (fewer exchanges), and less the later its first player (smaller differences).
    fn exchange_weight(
        &self,
        br: &Bracket<W>,
        rem: &Remainder,
        s: usize,
        l: usize,
        s_index: usize,
    ) -> W {
        let w = br.base[l][s];
        if w.is_zero() {
            return w;
        }
        let bonus = if s_index < rem.pairs {
            W::ONE.shl(2 * self.layout.count_bits + 1)
        } else {
            W::ZERO
        };
        w.add(bonus).sub(W::small(2 * s_index as u64))
    }

    /// Pairs the remainder; returns the pairs for the explanation.
    pub(super) fn pair_remainder(
        &mut self,
        br: &mut Bracket<W>,
        matched: &mut [bool],
        lines: &mut Vec<String>,
    ) {
        let rem = self.remainder(br);
        for (i, &s) in rem.players.iter().enumerate() {
            for &l in &rem.players[i + 1..] {
                let w = self.exchange_weight(br, &rem, s, l, i);
                self.matcher.set(br.players[s], br.players[l], w);
            }
        }
        br.mates = self.matcher.solve().to_vec();
        let exchanges = rem.players[..rem.pairs]
            .iter()
            .filter(|&&r| !br.pairs_forward(br.players[r]))
            .count();
        self.exchange_from_s1(br, &rem, exchanges);
        self.exchange_from_s2(br, &rem, exchanges);
        self.keep_only_s1_to_s2(br, &rem);
        self.pair_s1(br, &rem, matched, lines);
    }

    /// D.2: the players of S1 to exchange, the lowest first.
    fn exchange_from_s1(&mut self, br: &mut Bracket<W>, rem: &Remainder, exchanges: usize) {
        let mut left = exchanges;
        let mut i = rem.pairs;
        while i > 0 && left > 0 {
            i -= 1;
            let pv = br.players[rem.players[i]];
            if br.pairs_forward(pv) {
                // Can this one move to S2 without loss? Prefer it, and see.
                for j in i + 1..rem.players.len() {
                    let w = self.exchange_weight(br, rem, rem.players[i], rem.players[j], i);
                    if !w.is_zero() {
                        self.matcher
                            .set(pv, br.players[rem.players[j]], w.sub(W::ONE));
                    }
                }
                br.mates = self.matcher.solve().to_vec();
            }
            let exchange = !br.pairs_forward(pv);
            if exchange {
                left -= 1;
            }
            for j in i + 1..rem.players.len() {
                if exchange {
                    br.base[rem.players[j]][rem.players[i]] = W::ZERO;
                }
                let w = self.exchange_weight(br, rem, rem.players[i], rem.players[j], i);
                self.matcher.set(pv, br.players[rem.players[j]], w);
            }
        }
    }

    /// D.2: the players of S2 to exchange, the highest first.
    fn exchange_from_s2(&mut self, br: &mut Bracket<W>, rem: &Remainder, exchanges: usize) {
        let mut left = exchanges;
        for idx in rem.pairs..rem.players.len() {
            if left <= 1 {
                break;
            }
            let r = rem.players[idx];
            let pv = br.players[r];
            let already = br.pairs_forward(pv);
            if !already {
                // Can this one move to S1 without loss? Prefer it, and see.
                for j in idx + 1..rem.players.len() {
                    let w = self.exchange_weight(br, rem, r, rem.players[j], idx);
                    if !w.is_zero() {
                        self.matcher
                            .set(pv, br.players[rem.players[j]], w.add(W::ONE));
                    }
                }
                br.mates = self.matcher.solve().to_vec();
            }
            if br.pairs_forward(pv) {
                left -= 1;
                for &o in &rem.players[..idx] {
                    br.base[r][o] = W::ZERO;
                    self.matcher.set(pv, br.players[o], W::ZERO);
                }
                for o in br.end..br.players.len() {
                    br.base[o][r] = W::ZERO;
                    self.matcher.set(pv, br.players[o], W::ZERO);
                }
            }
            if !already {
                for j in idx + 1..rem.players.len() {
                    let w = self.exchange_weight(br, rem, r, rem.players[j], idx);
                    self.matcher.set(pv, br.players[rem.players[j]], w);
                }
            }
        }
    }

    /// With S1 and S2 decided, only pairs from S1 to S2 stay possible in the remainder.
    fn keep_only_s1_to_s2(&mut self, br: &mut Bracket<W>, rem: &Remainder) {
        for i in 0..rem.players.len() {
            let pv = br.players[rem.players[i]];
            for j in i + 1..rem.players.len() {
                let ov = br.players[rem.players[j]];
                if !br.pairs_forward(pv) || br.pairs_forward(ov) {
                    br.base[rem.players[j]][rem.players[i]] = W::ZERO;
                }
                let w = br.base[rem.players[j]][rem.players[i]];
                self.matcher.set(pv, ov, w);
            }
        }
    }

    /// D.1: each player of S1, in order, with the first player of S2 that still allows the
    /// best pairing.
    fn pair_s1(
        &mut self,
        br: &mut Bracket<W>,
        rem: &Remainder,
        matched: &mut [bool],
        lines: &mut Vec<String>,
    ) {
        for &r in &rem.players {
            let pv = br.players[r];
            if !br.pairs_forward(pv) {
                continue;
            }
            let mut addend = 0u64;
            let mut row = Vec::new();
            for &o in rem.players.iter().rev() {
                let ov = br.players[o];
                if o <= r || matched[ov] {
                    continue;
                }
                let w = br.base[o][r];
                if !w.is_zero() {
                    row.push((ov, w.add(W::small(addend))));
                }
                addend += 1;
            }
            self.matcher.set_row(pv, &row);
            br.mates = self.matcher.solve().to_vec();
            let m = br.mates[pv];
            matched[pv] = true;
            matched[m] = true;
            self.matcher.fix(pv, m);
            lines.push(format!("{}–{}", self.name(pv), self.name(m)));
        }
    }
}
