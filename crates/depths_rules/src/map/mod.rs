//! Map Tiles, placement, accessibility and Legendary Location discovery ("Exploring").
