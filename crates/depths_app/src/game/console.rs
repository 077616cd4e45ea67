//! Where a player reads what the game says outside its window: the terminal
//! it was started from or, for a Windows release build started from the
//! Explorer (which has no console at all), a message box.

/// Takes the terminal this process was started from, if any: a Windows
/// release build has no console of its own, so `--help`, a bad option and
/// the log would go nowhere. Elsewhere the terminal is there already.
pub fn attach_parent_terminal() {
    #[cfg(windows)]
    windows::attach();
}

/// One line for the terminal (standard error).
pub fn say(text: &str) {
    eprintln!("{text}");
}

/// The game cannot go on: said on the terminal and, on Windows without one,
/// in a message box the player must close.
pub fn fatal(text: &str) {
    say(text);
    #[cfg(windows)]
    if !windows::has_terminal() {
        windows::message_box("Forgotten Depths", text);
    }
}

/// The only calls into the operating system the client makes itself; each
/// is a plain Win32 call (a house test keeps `unsafe` to this module).
#[cfg(windows)]
#[allow(unsafe_code)]
mod windows {
    use std::sync::atomic::{AtomicBool, Ordering};

    use windows_sys::Win32::{
        System::Console::{ATTACH_PARENT_PROCESS, AttachConsole, GetConsoleWindow},
        UI::WindowsAndMessaging::{MB_ICONERROR, MB_OK, MessageBoxW},
    };

    static TERMINAL: AtomicBool = AtomicBool::new(false);

    pub fn attach() {
        // SAFETY: neither call takes a pointer; each only reports whether
        // this process has (or now shares) a console.
        let attached = unsafe { !GetConsoleWindow().is_null() || AttachConsole(ATTACH_PARENT_PROCESS) != 0 };
        TERMINAL.store(attached, Ordering::Relaxed);
    }

    pub fn has_terminal() -> bool {
        TERMINAL.load(Ordering::Relaxed)
    }

    pub fn message_box(title: &str, text: &str) {
        let wide = |s: &str| s.encode_utf16().chain(Some(0)).collect::<Vec<u16>>();
        let (title, text) = (wide(title), wide(text));
        // SAFETY: both are NUL-terminated UTF-16 buffers that outlive the
        // call; no owner window (a null handle is allowed).
        unsafe { MessageBoxW(std::ptr::null_mut(), text.as_ptr(), title.as_ptr(), MB_OK | MB_ICONERROR) };
    }
}
