//! A deliberately simple minlex reference for the tests: enumerate every one of the 3,359,232
//! geometric transforms, relabel digits in order of first appearance, keep the smallest string
//! and count the transforms that reach it. The only shortcut is stopping a candidate's string at
//! its first cell larger than the best so far, which cannot change the minimum or the count.

/// The six orders of three things.
const P3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Every line order that keeps bands (or stacks) whole: 6 outer × 6³ inner = 1,296.
fn line_orders() -> Vec<[usize; 9]> {
    let mut out = Vec::new();
    for outer in P3 {
        for a in P3 {
            for b in P3 {
                for c in P3 {
                    let inner = [a, b, c];
                    let mut line = [0usize; 9];
                    for blk in 0..3 {
                        for k in 0..3 {
                            line[blk * 3 + k] = outer[blk] * 3 + inner[blk][k];
                        }
                    }
                    out.push(line);
                }
            }
        }
    }
    out
}

/// The minlex form of `cells` (0 = blank) and how many geometric transforms reach it.
pub fn minlex(cells: &[u8; 81]) -> ([u8; 81], u32) {
    let orders = line_orders();
    let mut best = [u8::MAX; 81];
    let mut count = 0u32;
    for transpose in [false, true] {
        let src = |r: usize, c: usize| {
            if transpose {
                cells[c * 9 + r]
            } else {
                cells[r * 9 + c]
            }
        };
        for rows in &orders {
            for cols in &orders {
                let mut labels = [0u8; 10];
                let mut next = 1u8;
                let mut s = [0u8; 81];
                // 0: equal so far, -1: smaller, 1: larger.
                let mut cmp = 0i8;
                for k in 0..81 {
                    let v = src(rows[k / 9], cols[k % 9]) as usize;
                    let x = if v == 0 {
                        0
                    } else {
                        if labels[v] == 0 {
                            labels[v] = next;
                            next += 1;
                        }
                        labels[v]
                    };
                    s[k] = x;
                    if cmp == 0 {
                        if x > best[k] {
                            cmp = 1;
                            break;
                        }
                        if x < best[k] {
                            cmp = -1;
                        }
                    }
                }
                match cmp {
                    -1 => {
                        best = s;
                        count = 1;
                    }
                    0 => count += 1,
                    _ => {}
                }
            }
        }
    }
    (best, count)
}
