//! What draws the game: the platform's own graphics (Vulkan, Metal or
//! DirectX 12) and, where those find no device (an old GPU, a virtual
//! machine, a missing Vulkan driver), OpenGL, which the engine is built
//! with too (Cargo.toml). OpenGL is only tried then: asked beside Vulkan
//! it is probed on every start, and its driver complains where it has no
//! device of its own. Where nothing draws, the engine panics; the panic
//! hook (`log_file`) says this instead, with what to install.

use bevy::render::settings::Backends;

/// The backends the engine may draw with: `WGPU_BACKEND` where it is set
/// (vulkan, gl, …), else the platform's own if they find a device, else OpenGL.
pub fn backends() -> Backends {
    if let Some(asked) = Backends::from_env() {
        return asked;
    }
    let primary = Backends::PRIMARY;
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: primary,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let found = bevy::tasks::block_on(instance.enumerate_adapters(primary));
    if found.is_empty() { Backends::GL } else { primary }
}

/// Says in the log (once the engine's log is up) when OpenGL was chosen for want of the platform's own.
pub fn tell(backends: Backends) {
    if backends == Backends::GL && Backends::from_env().is_none() {
        bevy::log::warn!("no Vulkan, Metal or DirectX 12 device was found: drawing with OpenGL");
    }
}

/// The engine's words when it found no device to draw with, and when the
/// device it found cannot show anything in the window.
const NO_DEVICE: [&str; 2] = ["Unable to find a GPU", "failed to choose present mode"];

/// What a player reads instead of the engine's panic `text`, if it is one
/// that says nothing can draw into the window.
pub fn no_driver_advice(text: &str) -> Option<String> {
    NO_DEVICE
        .iter()
        .any(|words| text.contains(words))
        .then(|| format!("Forgotten Depths found no graphics driver to draw with. {INSTALL}"))
}

#[cfg(target_os = "linux")]
const INSTALL: &str = "It needs Vulkan or OpenGL 3.3: install your graphics card's driver with Vulkan \
     support (on Debian or Ubuntu: sudo apt install mesa-vulkan-drivers libegl1; for an NVIDIA card, \
     its driver), then start the game again.";
#[cfg(target_os = "windows")]
const INSTALL: &str = "It needs DirectX 12, Vulkan or OpenGL 3.3: install or update your graphics \
     card's driver (from NVIDIA, AMD or Intel, or through Windows Update), then start the game again.";
#[cfg(target_os = "macos")]
const INSTALL: &str = "It needs Metal: macOS 11 or later.";
#[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "macos")))]
const INSTALL: &str = "It needs Vulkan or OpenGL 3.3: install your graphics card's driver.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_no_device_panic_is_told_in_words() {
        let engine = "Unable to find a GPU! Make sure you have installed required drivers! For extra \
                      information, see: https://github.com/bevyengine/bevy/blob/latest/docs/linux_dependencies.md";
        let advice = no_driver_advice(engine).unwrap();
        assert!(advice.contains("no graphics driver") && advice.contains("install"), "{advice}");
        let window = "internal error: entered unreachable code: Fallback system failed to choose present \
                      mode. This is a bug. Mode: Fifo, Options: []";
        assert!(no_driver_advice(window).is_some());
        assert_eq!(no_driver_advice("index out of bounds: the len is 3 but the index is 7"), None);
    }
}
