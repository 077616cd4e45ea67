//! Textures drawn in code, shared by the board's art and the cards' art:
//! an RGBA image from its pixels, and a white disc whose alpha falls off
//! from the centre (a light to tint).

use bevy::{
    asset::RenderAssetUsages,
    prelude::*,
    render::render_resource::{Extent3d, TextureDimension, TextureFormat},
};

/// An sRGB RGBA8 image of `width` × `height` from its pixels.
pub fn rgba_image(width: u32, height: u32, pixels: Vec<u8>) -> Image {
    Image::new(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// White pixels of a `size` square whose alpha is `falloff(r)`, `r` the
/// distance from the centre (0 there, 1 at the edge and beyond).
pub fn radial_alpha(size: usize, falloff: impl Fn(f32) -> f32) -> Vec<u8> {
    let mut data = Vec::with_capacity(size * size * 4);
    for y in 0..size {
        for x in 0..size {
            let u = (x as f32 + 0.5) / size as f32 * 2.0 - 1.0;
            let v = (y as f32 + 0.5) / size as f32 * 2.0 - 1.0;
            let r = (u * u + v * v).sqrt().min(1.0);
            data.extend_from_slice(&[255, 255, 255, (falloff(r) * 255.0) as u8]);
        }
    }
    data
}
