//! The moved-down players of a heterogeneous bracket (C.04.3 B.3, C6/C7): which of them are
//! paired here, the highest first, and with which resident.

use super::bracket::Bracket;
use super::pairer::Pairer;
use super::weights::Wide;

impl<W: Wide> Pairer<'_, W> {
    /// Decides which moved-down players are paired in the bracket (marks them `matched`):
    /// among those of one score, the highest that can be while the bracket is paired as
    /// well as possible.
    pub(super) fn choose_movers(&mut self, br: &mut Bracket<W>, matched: &mut [bool]) {
        let mut mover_score = i64::MIN;
        let mut left = 0;
        let mut left_matched = 0;
        let residents = (br.end - br.movers) as u64;
        for p in 0..br.movers {
            if p == 0 || self.score(br.players[p]) < mover_score {
                // How many of this score there are, and how many the optimum pairs here.
                mover_score = self.score(br.players[p]);
                left = 0;
                left_matched = 0;
                let mut q = p;
                while q < br.players.len() && self.score(br.players[q]) >= mover_score {
                    left += 1;
                    if br.is_resident(br.mates[br.players[q]]) {
                        left_matched += 1;
                    }
                    q += 1;
                }
            }
            if left_matched == 0 {
                continue;
            }
            let pv = br.players[p];
            if left <= left_matched {
                matched[pv] = true;
                continue;
            }
            left -= 1;
            if !br.is_resident(br.mates[pv]) {
                // Can this one be paired here without loss? Prefer it, and see.
                let row: Vec<(usize, W)> = (br.movers..br.end)
                    .filter(|&o| !br.base[o][p].is_zero())
                    .map(|o| (br.players[o], br.base[o][p].add(W::ONE)))
                    .collect();
                self.matcher.set_row(pv, &row);
                br.mates = self.matcher.solve().to_vec();
            }
            if br.is_resident(br.mates[pv]) {
                matched[pv] = true;
                left_matched -= 1;
                for o in br.movers..br.end {
                    let w = br.base[o][p];
                    if !w.is_zero() {
                        self.matcher
                            .set(pv, br.players[o], w.add(W::small(residents + 1)));
                    }
                }
            }
        }
    }

    /// Pairs each chosen moved-down player, the highest first, with the highest resident that
    /// still allows the best pairing; returns the pairs for the explanation.
    pub(super) fn pair_movers(
        &mut self,
        br: &mut Bracket<W>,
        matched: &mut [bool],
        lines: &mut Vec<String>,
    ) {
        for p in 0..br.movers {
            let pv = br.players[p];
            if !matched[pv] {
                continue;
            }
            let mut addend = br.players.len() as u64;
            let mut row = Vec::new();
            for o in (br.movers..br.end).rev() {
                let ov = br.players[o];
                if matched[ov] {
                    continue;
                }
                let w = br.base[o][p];
                if !w.is_zero() {
                    row.push((ov, w.add(W::small(addend))));
                    addend += 1;
                }
            }
            self.matcher.set_row(pv, &row);
            br.mates = self.matcher.solve().to_vec();
            let m = br.mates[pv];
            matched[m] = true;
            self.matcher.fix(pv, m);
            lines.push(format!("{}–{}", self.name(pv), self.name(m)));
        }
    }
}
