//! Each Ecology's floor, drawn once at start as a texture a tile's floor is
//! painted with: the Ruins' worn flagstones in warm grey, the Caverns' rough
//! damp rock with no joints at all, the Subterranean Architecture's dressed
//! slate squares, cold and even. A player tells the Ecology of a tile at a
//! glance, before reading any marking.

use depths_rules::Ecology;

use super::view::SplitMix64;

/// How a floor is laid: the three Ecologies' materials.
pub fn floor_texture(ecology: Ecology, seed: u64, size: usize) -> Vec<u8> {
    match ecology {
        Ecology::Ruins => flagstones(seed, size),
        Ecology::Caverns => cave_rock(seed, size),
        Ecology::Subterranean => slate_squares(seed, size),
    }
}

/// Irregular flagstones in rows, each stone its own warm grey, bevelled.
pub fn flagstones(seed: u64, size: usize) -> Vec<u8> {
    let mut rng = SplitMix64(seed);
    let rows = 5;
    let row_h = size as f32 / rows as f32;
    // Per row: stone boundaries along x (shifted by a row offset) and stone tints.
    let mut bounds: Vec<Vec<f32>> = Vec::new();
    let mut tints: Vec<Vec<[f32; 3]>> = Vec::new();
    for _ in 0..rows {
        let mut xs = vec![-(rng.next_f32() * 40.0)];
        let mut ts = Vec::new();
        while *xs.last().unwrap_or(&0.0) < size as f32 {
            let w = 42.0 + rng.next_f32() * 52.0;
            xs.push(xs.last().unwrap_or(&0.0) + w);
            let v = 0.88 + rng.next_f32() * 0.24;
            let warm = (rng.next_f32() - 0.5) * 0.05;
            ts.push([0.47 * v + warm, 0.44 * v, 0.40 * v - warm]);
        }
        bounds.push(xs);
        tints.push(ts);
    }
    let noise_seed = rng.next_u64();
    lit_pixels(size, |x, y| {
        let row = ((y / row_h) as usize).min(rows - 1);
        let yy = y - row as f32 * row_h;
        let xs = &bounds[row];
        let i = xs.iter().rposition(|b| *b <= x).unwrap_or(0).min(tints[row].len() - 1);
        let d = (x - xs[i]).min(xs[i + 1] - x).min(yy).min(row_h - 1.0 - yy);
        let mottled =
            value_noise(noise_seed, x / 23.0, y / 23.0) * 0.6 + value_noise(noise_seed ^ 0x55, x / 7.0, y / 7.0) * 0.4;
        let grain = (hash2(noise_seed ^ 0xA1, x as i32, y as i32) - 0.5) * 0.05;
        if d < 2.2 {
            let m = 0.15 + grain;
            [m, m * 0.92, m * 0.85]
        } else {
            let bevel = 0.78 + 0.22 * smoothstep(2.0, 9.0, d);
            let lit = 0.9 + 0.2 * mottled;
            let t = tints[row][i];
            [t[0] * bevel * lit + grain, t[1] * bevel * lit + grain, t[2] * bevel * lit + grain]
        }
    })
}

/// Rough rock: broad swells and hollows, thin cracks, damp blue-green
/// patches, darker and cooler than the Ruins.
fn cave_rock(seed: u64, size: usize) -> Vec<u8> {
    let mut rng = SplitMix64(seed ^ 0xCA7E);
    let (a, b, c) = (rng.next_u64(), rng.next_u64(), rng.next_u64());
    lit_pixels(size, |x, y| {
        let swell = value_noise(a, x / 40.0, y / 40.0) * 0.55
            + value_noise(a ^ 1, x / 15.0, y / 15.0) * 0.3
            + value_noise(a ^ 2, x / 5.0, y / 5.0) * 0.15;
        // A crack where a band of noise crosses its middle.
        let band = value_noise(b, x / 28.0, y / 28.0);
        let crack = 1.0 - smoothstep(0.0, 0.018, (band - 0.5).abs());
        let damp = smoothstep(0.62, 0.8, value_noise(c, x / 34.0, y / 34.0));
        let grain = (hash2(c ^ 0x9, x as i32, y as i32) - 0.5) * 0.06;
        let k = 0.62 + 0.5 * swell + grain;
        let rock = [0.34 * k, 0.29 * k, 0.24 * k];
        let wet = [0.20 * k, 0.30 * k, 0.33 * k];
        let mut rgb = [0.0; 3];
        for i in 0..3 {
            rgb[i] = (rock[i] * (1.0 - damp) + wet[i] * damp) * (1.0 - 0.7 * crack);
        }
        rgb
    })
}

/// Dressed slate squares in an even grid, with fine straight joints and a
/// cold polished sheen.
fn slate_squares(seed: u64, size: usize) -> Vec<u8> {
    let mut rng = SplitMix64(seed ^ 0x51A7E);
    let cells = 4;
    let cell = size as f32 / cells as f32;
    let tints: Vec<f32> = (0..cells * cells).map(|_| 0.86 + rng.next_f32() * 0.2).collect();
    let noise = rng.next_u64();
    lit_pixels(size, |x, y| {
        let (cx, cy) = ((x / cell) as usize, (y / cell) as usize);
        let (fx, fy) = (x - cx as f32 * cell, y - cy as f32 * cell);
        let d = fx.min(fy).min(cell - 1.0 - fx).min(cell - 1.0 - fy);
        let grain = (hash2(noise, x as i32, y as i32) - 0.5) * 0.03;
        if d < 1.6 {
            let m = 0.10 + grain;
            return [m, m, m * 1.1];
        }
        let t = tints[(cy.min(cells - 1)) * cells + cx.min(cells - 1)];
        let vein = value_noise(noise ^ 0x77, x / 19.0, y / 9.0) * 0.12;
        // A sheen across each slab, lighter towards its top left.
        let sheen = 0.92 + 0.12 * (1.0 - (fx + fy) / (2.0 * cell)) + vein;
        let bevel = 0.85 + 0.15 * smoothstep(1.5, 6.0, d);
        let k = t * sheen * bevel + grain;
        [0.27 * k, 0.30 * k, 0.35 * k]
    })
}

/// A floor's pixels, `paint(x, y)` giving each colour, under torchlight
/// (brighter in the middle of the room).
fn lit_pixels(size: usize, paint: impl Fn(f32, f32) -> [f32; 3]) -> Vec<u8> {
    let mut data = Vec::with_capacity(size * size * 4);
    for y in 0..size {
        for x in 0..size {
            let rgb = paint(x as f32, y as f32);
            let u = (x as f32 / size as f32 - 0.5) * 2.0;
            let v = (y as f32 / size as f32 - 0.5) * 2.0;
            let light = 1.05 - 0.22 * (u * u + v * v);
            for c in rgb {
                data.push(((c * light).clamp(0.0, 1.0) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    data
}

fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

pub fn hash2(seed: u64, x: i32, y: i32) -> f32 {
    let mut rng = SplitMix64(seed ^ (x as u32 as u64) ^ ((y as u32 as u64) << 32));
    rng.next_f32()
}

fn value_noise(seed: u64, x: f32, y: f32) -> f32 {
    lattice_noise(seed, x, y, None)
}

/// Value noise that repeats every `period` units in x (a texture that tiles).
pub fn periodic_noise(seed: u64, x: f32, y: f32, period: f32) -> f32 {
    lattice_noise(seed, x, y, Some(period as i32))
}

/// Smoothed random values at the integer lattice, the lattice's x wrapped
/// at `wrap` if given.
fn lattice_noise(seed: u64, x: f32, y: f32, wrap: Option<i32>) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (smoothstep(0.0, 1.0, x - x0), smoothstep(0.0, 1.0, y - y0));
    let column = |i: i32| wrap.map_or(i, |p| i.rem_euclid(p));
    let (ix, ix1, iy) = (column(x0 as i32), column(x0 as i32 + 1), y0 as i32);
    let a = hash2(seed, ix, iy);
    let b = hash2(seed, ix1, iy);
    let c = hash2(seed, ix, iy + 1);
    let d = hash2(seed, ix1, iy + 1);
    let top = a + (b - a) * fx;
    let bottom = c + (d - c) * fx;
    top + (bottom - top) * fy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flagstones_fill_the_texture_and_vary() {
        let px = flagstones(1, 64);
        assert_eq!(px.len(), 64 * 64 * 4);
        let reds: std::collections::HashSet<u8> = px.chunks(4).map(|p| p[0]).collect();
        assert!(reds.len() > 20, "stone should not be flat");
    }

    /// The three Ecologies' floors are told apart by colour alone: their
    /// mean colours lie apart (warm Ruins, dark rock, cold slate).
    #[test]
    fn each_ecology_has_its_own_floor() {
        let mean = |e: Ecology| {
            let px = floor_texture(e, 7, 128);
            let n = (px.len() / 4) as f32;
            let sum =
                px.chunks(4).fold([0.0f32; 3], |s, p| [s[0] + p[0] as f32, s[1] + p[1] as f32, s[2] + p[2] as f32]);
            [sum[0] / n, sum[1] / n, sum[2] / n]
        };
        let (ruins, caverns, sub) = (mean(Ecology::Ruins), mean(Ecology::Caverns), mean(Ecology::Subterranean));
        let apart =
            |a: [f32; 3], b: [f32; 3]| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
        assert!(apart(ruins, caverns) > 15.0, "{ruins:?} {caverns:?}");
        assert!(apart(ruins, sub) > 15.0, "{ruins:?} {sub:?}");
        assert!(apart(caverns, sub) > 15.0, "{caverns:?} {sub:?}");
        // Warm against cold: the Ruins redder than blue, the slate bluer than red.
        assert!(ruins[0] > ruins[2] && sub[2] > sub[0]);
    }
}
