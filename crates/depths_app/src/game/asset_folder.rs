//! Where the game's files (`assets/`) are, for bevy's asset server and for the
//! few files read directly (icons, the window icon).

/// The folder that holds `assets/`' files, as bevy's asset server finds it.
pub fn asset_root() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(asset_dir());
    if dir.is_absolute() {
        return dir;
    }
    let base = std::env::var_os("BEVY_ASSET_ROOT")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from))
        .or_else(|| std::env::current_exe().ok().and_then(|e| e.parent().map(|p| p.to_path_buf())))
        .unwrap_or_default();
    base.join(dir)
}

/// Where the `assets/` folder is. Under cargo, BEVY_ASSET_ROOT (see
/// .cargo/config.toml) points at the workspace root and bevy finds `assets`
/// there; a binary started by hand looks beside itself, then in the checkout it
/// was built from.
pub fn asset_dir() -> String {
    let relative = "assets".to_owned();
    if std::env::var_os("BEVY_ASSET_ROOT").is_some() || std::env::var_os("CARGO_MANIFEST_DIR").is_some() {
        return relative;
    }
    let beside_exe = std::env::current_exe().ok().and_then(|exe| exe.parent().map(|dir| dir.join("assets")));
    if beside_exe.is_some_and(|dir| dir.is_dir()) {
        return relative;
    }
    // A macOS app: the binary in Contents/MacOS, its files in Contents/Resources.
    let bundled = std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.parent()?.join("Resources/assets")));
    if let Some(dir) = bundled.filter(|dir| dir.is_dir()) {
        return dir.to_string_lossy().into_owned();
    }
    let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    if checkout.is_dir() {
        return checkout.to_string_lossy().into_owned();
    }
    relative
}
