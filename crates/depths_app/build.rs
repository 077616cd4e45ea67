//! The Windows `.exe`'s icon (`packaging/forgotten-depths.ico`, made by
//! tools/icons), as the Explorer and the taskbar show it. Nothing to do for
//! other targets, nor where no resource compiler is found (a warning says so;
//! the game still builds).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(windows)]
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        windows_icon();
    }
}

#[cfg(windows)]
fn windows_icon() {
    let icon = concat!(env!("CARGO_MANIFEST_DIR"), "/../../packaging/forgotten-depths.ico");
    println!("cargo:rerun-if-changed={icon}");
    if let Err(e) = winresource::WindowsResource::new().set_icon(icon).compile() {
        println!("cargo:warning=the .exe gets no icon: {e}");
    }
}
