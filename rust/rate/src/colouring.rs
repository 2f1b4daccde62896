//! Simple colouring: the conjugate pairs of one digit, two-coloured.

use crate::*;

impl Board {
    pub(crate) fn colouring(&self) -> Option<Step> {
        for d in 1..=9u8 {
            let mut colour = [u8::MAX; 81]; // component * 2 + colour
            let mut next = 0u8;
            let links: Vec<(usize, usize)> = (0..27)
                .filter_map(|u| {
                    let p = self.places(u, d);
                    (p.len() == 2).then(|| (p[0], p[1]))
                })
                .collect();
            for start in 0..81 {
                if colour[start] != u8::MAX || !links.iter().any(|l| l.0 == start || l.1 == start) {
                    continue;
                }
                colour[start] = next * 2;
                let mut stack = vec![start];
                let mut members = vec![start];
                while let Some(c) = stack.pop() {
                    for &(x, y) in &links {
                        let o = if x == c {
                            y
                        } else if y == c {
                            x
                        } else {
                            continue;
                        };
                        if colour[o] == u8::MAX {
                            colour[o] = colour[c] ^ 1;
                            stack.push(o);
                            members.push(o);
                        }
                    }
                }
                members.sort_unstable();
                let base = next * 2;
                next += 1;
                // Colour wrap: two cells of one colour see each other.
                for col_k in [base, base + 1] {
                    let same: Vec<usize> = members
                        .iter()
                        .copied()
                        .filter(|&c| colour[c] == col_k)
                        .collect();
                    let wrap = same.iter().any(|&a| same.iter().any(|&b| sees(a, b)));
                    if wrap {
                        return Some(Step {
                            technique: Technique::SimpleColouring,
                            tenths: Technique::SimpleColouring.score_tenths(),
                            placement: None,
                            eliminations: same.iter().map(|&c| (c, d)).collect(),
                            detail: format!(
                                "on {d}: colour wrap, chain {}",
                                chain_text(&members, &colour, base)
                            ),
                        });
                    }
                }
                // Colour trap: a cell outside the chain sees both colours.
                let el: Vec<(usize, u8)> = (0..81)
                    .filter(|&c| {
                        self.cand[c] & bit(d) != 0
                            && !members.contains(&c)
                            && members.iter().any(|&m| colour[m] == base && sees(c, m))
                            && members.iter().any(|&m| colour[m] == base + 1 && sees(c, m))
                    })
                    .map(|c| (c, d))
                    .collect();
                if !el.is_empty() {
                    return Some(Step {
                        technique: Technique::SimpleColouring,
                        tenths: Technique::SimpleColouring.score_tenths(),
                        placement: None,
                        eliminations: el,
                        detail: format!(
                            "on {d}: colour trap, chain {}",
                            chain_text(&members, &colour, base)
                        ),
                    });
                }
            }
        }
        None
    }
}

fn chain_text(members: &[usize], colour: &[u8; 81], base: u8) -> String {
    let side = |k: u8| -> String {
        members
            .iter()
            .filter(|&&c| colour[c] == k)
            .map(|&c| cell_name(c))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("+[{}] -[{}]", side(base), side(base + 1))
}
