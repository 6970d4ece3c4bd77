//! Write actshare providers in Rust (Rust 1.63 or later, std only).
//!
//! [`ffi`] mirrors `actshare/provider.h` (`#[repr(C)]`, same layout); the rest wraps it:
//! a hook body receives a [`Request`] (the items and options) and a [`Session`] (the
//! host's callbacks) and returns a [`Status`]. The `export_*` macros define the exported
//! C functions of the standard signatures and catch panics at the boundary: a panic
//! becomes a failure whose message names it (or, in `can-perform`, a "no").
//!
//! Everything borrowed from the host lives only while the hook runs; the borrows in the
//! wrappers say so.

use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The C interface, as `actshare/provider.h` declares it.
pub mod ffi {
    use std::os::raw::{c_char, c_void};

    /// `ACTSHARE_ABI_VERSION`.
    pub const ABI_VERSION: u32 = 3;

    pub const STATUS_DONE: i32 = 0;
    pub const STATUS_FAILED: i32 = 1;
    pub const STATUS_CANCELLED: i32 = 2;
    pub const STATUS_BAD_INPUT: i32 = 3;

    pub const ITEM_FILE: i32 = 0;
    pub const ITEM_URL: i32 = 1;
    pub const ITEM_TEXT: i32 = 2;
    pub const ITEM_DATA: i32 = 3;

    pub const LOG_DEBUG: i32 = 0;
    pub const LOG_INFO: i32 = 1;
    pub const LOG_WARNING: i32 = 2;
    pub const LOG_ERROR: i32 = 3;

    pub const TARGET_DEVICE: i32 = 0;
    pub const TARGET_PERSON: i32 = 1;
    pub const TARGET_APP: i32 = 2;
    pub const TARGET_PLACE: i32 = 3;
    /// `ACTSHARE_MAX_TARGETS`.
    pub const MAX_TARGETS: usize = 64;
    /// `ACTSHARE_MAX_TARGET_ID`.
    pub const MAX_TARGET_ID: usize = 128;

    /// `actshare_item`.
    #[repr(C)]
    pub struct actshare_item {
        pub kind: i32,
        pub path: *const c_char,
        pub uri: *const c_char,
        pub text: *const c_char,
        pub content_type: *const c_char,
        pub size: u64,
        pub data: *const c_void,
        pub data_length: usize,
    }

    /// `actshare_option`.
    #[repr(C)]
    pub struct actshare_option {
        pub name: *const c_char,
        pub value: *const c_char,
    }

    /// `actshare_target` (ABI 3).
    #[repr(C)]
    pub struct actshare_target {
        pub struct_size: u32,
        pub kind: i32,
        pub id: *const c_char,
        pub title: *const c_char,
        pub subtitle: *const c_char,
        pub image: *const c_char,
    }

    /// `actshare_request`, as of ABI 3. A host of an older ABI passes a shorter one:
    /// read the fields after `options` only where `struct_size` covers them.
    #[repr(C)]
    pub struct actshare_request {
        pub abi_version: u32,
        pub struct_size: u32,
        pub activity_type: *const c_char,
        pub subject: *const c_char,
        pub item_count: usize,
        pub items: *const actshare_item,
        pub option_count: usize,
        pub options: *const actshare_option,
        /// ABI 2.
        pub host_context: *mut c_void,
        pub decline: Option<unsafe extern "C" fn(*const actshare_request, *const c_char)>,
        /// ABI 3.
        pub add_target: Option<unsafe extern "C" fn(*const actshare_request, *const actshare_target) -> i32>,
        pub target: *const c_char,
    }

    /// `actshare_session`: call its functions with the session itself as the first argument.
    #[repr(C)]
    pub struct actshare_session {
        pub abi_version: u32,
        pub struct_size: u32,
        pub host_context: *mut c_void,
        pub progress: unsafe extern "C" fn(*mut actshare_session, f64),
        pub log: unsafe extern "C" fn(*mut actshare_session, i32, *const c_char),
        pub return_item: unsafe extern "C" fn(*mut actshare_session, i32, *const c_char, *const c_char) -> i32,
        pub option: unsafe extern "C" fn(*mut actshare_session, *const c_char) -> *const c_char,
        pub set_error: unsafe extern "C" fn(*mut actshare_session, *const c_char),
        pub is_cancelled: unsafe extern "C" fn(*mut actshare_session) -> i32,
    }
}

/// How a prepare or perform hook ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Completed.
    Done,
    /// Failed: say why with [`Session::set_error`] (or return `Err`).
    Failed,
    /// The user cancelled: a normal outcome.
    Cancelled,
    /// The items or options cannot be used as given; nothing was done.
    BadInput,
}

impl Status {
    fn raw(self) -> i32 {
        match self {
            Status::Done => ffi::STATUS_DONE,
            Status::Failed => ffi::STATUS_FAILED,
            Status::Cancelled => ffi::STATUS_CANCELLED,
            Status::BadInput => ffi::STATUS_BAD_INPUT,
        }
    }
}

/// The kind of an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    File,
    Url,
    Text,
    Data,
}

impl ItemKind {
    fn raw(self) -> i32 {
        match self {
            ItemKind::File => ffi::ITEM_FILE,
            ItemKind::Url => ffi::ITEM_URL,
            ItemKind::Text => ffi::ITEM_TEXT,
            ItemKind::Data => ffi::ITEM_DATA,
        }
    }

    fn from_raw(raw: i32) -> Option<ItemKind> {
        match raw {
            ffi::ITEM_FILE => Some(ItemKind::File),
            ffi::ITEM_URL => Some(ItemKind::Url),
            ffi::ITEM_TEXT => Some(ItemKind::Text),
            ffi::ITEM_DATA => Some(ItemKind::Data),
            _ => None,
        }
    }
}

/// Log levels: `Debug` and `Info` are shown with `ACTSHARE_DEBUG=1`, the others always.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Debug,
    Info,
    Warning,
    Error,
}

/// Why a hook failed, as the message the user sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure(error.to_string())
    }
}

/// The host refused a returned item (a file that does not exist, a URL without a
/// scheme, a malformed content type, text with a NUL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("actshare refused the returned item")
    }
}

fn string<'a>(pointer: *const c_char) -> Option<&'a str> {
    if pointer.is_null() {
        return None;
    }
    // SAFETY: the host passes NUL-terminated strings that live while the hook runs.
    unsafe { CStr::from_ptr(pointer) }.to_str().ok()
}

fn bytes<'a>(pointer: *const c_char) -> Option<&'a [u8]> {
    if pointer.is_null() {
        return None;
    }
    // SAFETY: as above.
    Some(unsafe { CStr::from_ptr(pointer) }.to_bytes())
}

/// What kind of place a [`Target`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    Device,
    Person,
    App,
    Place,
}

/// A place an activity can go to, offered from a can-perform body with
/// [`Request::add_target`]: a device, a person, an app, a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target<'t> {
    /// Stable, printable, at most 128 bytes: what perform is given.
    pub id: &'t str,
    pub title: &'t str,
    pub subtitle: Option<&'t str>,
    /// A freedesktop icon name or an absolute path.
    pub image: Option<&'t str>,
    pub kind: TargetKind,
}

/// What the host asks: one activity on some items, with option values.
pub struct Request<'a> {
    raw: *const ffi::actshare_request,
    _borrow: PhantomData<&'a ffi::actshare_request>,
}

impl<'a> Request<'a> {
    /// # Safety
    /// `raw` must be the request the host passed to the running hook.
    pub unsafe fn from_raw(raw: *const ffi::actshare_request) -> Option<Request<'a>> {
        if raw.is_null() {
            None
        } else {
            Some(Request { raw, _borrow: PhantomData })
        }
    }

    // Where the fields added after ABI 1 end, in bytes (64-bit Linux, as the layout
    // checks below the wrappers assert). Fields are read one by one through the raw
    // pointer, never as a whole struct, which an older host's is shorter than.
    const DECLINE_END: usize = 72;
    const ADD_TARGET_END: usize = 80;
    const TARGET_END: usize = 88;

    /// Whether the host speaks ABI `abi` and its request reaches `end` bytes.
    fn has(&self, abi: u32, end: usize) -> bool {
        // SAFETY: from_raw's contract; every ABI has these two fields.
        unsafe { (*self.raw).abi_version >= abi && (*self.raw).struct_size as usize >= end }
    }

    /// From a can-perform body that answers no: why, in one sentence for a person
    /// (nothing under a host older than ABI 2).
    pub fn decline(&self, reason: &str) {
        if !self.has(2, Self::DECLINE_END) {
            return;
        }
        let reason = Session::c(reason);
        // SAFETY: the field is within the host's struct (checked above).
        if let Some(decline) = unsafe { (*self.raw).decline } {
            unsafe { decline(self.raw, reason.as_ptr()) }
        }
    }

    /// From a can-perform body that answers yes: offers a target, in the order the sheet
    /// shows them. `Err(Refused)` under a host older than ABI 3, past the 64 a call
    /// offers, or for text with a NUL; the host checks the rest and warns.
    pub fn add_target(&self, target: &Target) -> Result<(), Refused> {
        if !self.has(3, Self::ADD_TARGET_END) {
            return Err(Refused);
        }
        let texts = [Some(target.id), Some(target.title), target.subtitle, target.image];
        if texts.iter().flatten().any(|text| text.contains('\0')) {
            return Err(Refused);
        }
        let [id, title, subtitle, image] = texts.map(|text| text.map(Session::c));
        let pointer = |text: &Option<CString>| text.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
        let raw = ffi::actshare_target {
            struct_size: std::mem::size_of::<ffi::actshare_target>() as u32,
            kind: match target.kind {
                TargetKind::Device => ffi::TARGET_DEVICE,
                TargetKind::Person => ffi::TARGET_PERSON,
                TargetKind::App => ffi::TARGET_APP,
                TargetKind::Place => ffi::TARGET_PLACE,
            },
            id: pointer(&id),
            title: pointer(&title),
            subtitle: pointer(&subtitle),
            image: pointer(&image),
        };
        // SAFETY: within the host's struct (checked above); the strings outlive the call.
        match unsafe { (*self.raw).add_target } {
            Some(add) if unsafe { add(self.raw, &raw) } == 0 => Ok(()),
            _ => Err(Refused),
        }
    }

    /// In prepare and perform: the id of the target the user chose, if any (none under a
    /// host older than ABI 3).
    pub fn target(&self) -> Option<&'a str> {
        if !self.has(3, Self::TARGET_END) {
            return None;
        }
        // SAFETY: within the host's struct (checked above).
        string(unsafe { (*self.raw).target })
    }

    /// The activity type, reverse-DNS.
    pub fn activity_type(&self) -> &'a str {
        string(unsafe { (*self.raw).activity_type }).unwrap_or("")
    }

    /// `--subject`, if given.
    pub fn subject(&self) -> Option<&'a str> {
        string(unsafe { (*self.raw).subject })
    }

    /// The items, in the order the user gave them.
    pub fn items(&self) -> impl Iterator<Item = Item<'a>> + 'a {
        let (items, count) = unsafe { ((*self.raw).items, (*self.raw).item_count) };
        let slice: &'a [ffi::actshare_item] = if items.is_null() || count == 0 {
            &[]
        } else {
            // SAFETY: the host's array of item_count items lives while the hook runs.
            unsafe { std::slice::from_raw_parts(items, count) }
        };
        slice.iter().map(|raw| Item { raw })
    }

    /// The value of a declared option, if it has one.
    pub fn option(&self, name: &str) -> Option<&'a str> {
        let (options, count) = unsafe { ((*self.raw).options, (*self.raw).option_count) };
        if options.is_null() {
            return None;
        }
        // SAFETY: as for items.
        let options = unsafe { std::slice::from_raw_parts(options, count) };
        options.iter().find(|option| string(option.name) == Some(name)).and_then(|option| string(option.value))
    }
}

/// One thing the user shares.
pub struct Item<'a> {
    raw: &'a ffi::actshare_item,
}

impl<'a> Item<'a> {
    /// The kind, or `None` for a kind this crate does not know.
    pub fn kind(&self) -> Option<ItemKind> {
        ItemKind::from_raw(self.raw.kind)
    }

    /// A file's path, as bytes: file names need not be UTF-8.
    pub fn path(&self) -> Option<&'a std::path::Path> {
        use std::os::unix::ffi::OsStrExt;
        bytes(self.raw.path).map(|bytes| std::path::Path::new(std::ffi::OsStr::from_bytes(bytes)))
    }

    /// A file's `file://` URI, or a URL item's URL.
    pub fn uri(&self) -> Option<&'a str> {
        string(self.raw.uri)
    }

    /// A text item's text.
    pub fn text(&self) -> Option<&'a str> {
        string(self.raw.text)
    }

    /// The freedesktop MIME type.
    pub fn content_type(&self) -> &'a str {
        string(self.raw.content_type).unwrap_or("application/octet-stream")
    }

    /// The size in bytes.
    pub fn size(&self) -> u64 {
        self.raw.size
    }

    /// A text or data item's bytes (files: read them from [`Item::path`]).
    pub fn data(&self) -> &'a [u8] {
        if self.raw.data.is_null() {
            return &[];
        }
        // SAFETY: data_length bytes that live while the hook runs.
        unsafe { std::slice::from_raw_parts(self.raw.data as *const u8, self.raw.data_length) }
    }
}

/// The host's callbacks during prepare and perform. It may be used from threads the
/// hook starts, while the hook runs.
pub struct Session<'a> {
    raw: *mut ffi::actshare_session,
    _borrow: PhantomData<&'a mut ffi::actshare_session>,
}

// The host serialises callbacks; the pointer stays valid while the hook runs.
unsafe impl Send for Session<'_> {}
unsafe impl Sync for Session<'_> {}

impl<'a> Session<'a> {
    /// # Safety
    /// `raw` must be the session the host passed to the running hook.
    pub unsafe fn from_raw(raw: *mut ffi::actshare_session) -> Option<Session<'a>> {
        if raw.is_null() {
            None
        } else {
            Some(Session { raw, _borrow: PhantomData })
        }
    }

    fn c(text: &str) -> CString {
        // A NUL cannot cross a C string: it ends the text there.
        CString::new(text.split('\0').next().unwrap_or("")).unwrap_or_default()
    }

    /// Reports progress from 0.0 to 1.0.
    pub fn progress(&self, fraction: f64) {
        // SAFETY: a live session (from_raw's contract).
        unsafe { ((*self.raw).progress)(self.raw, fraction) }
    }

    /// Writes a line to the host's log.
    pub fn log(&self, level: Level, message: &str) {
        let level = match level {
            Level::Debug => ffi::LOG_DEBUG,
            Level::Info => ffi::LOG_INFO,
            Level::Warning => ffi::LOG_WARNING,
            Level::Error => ffi::LOG_ERROR,
        };
        let message = Self::c(message);
        unsafe { ((*self.raw).log)(self.raw, level, message.as_ptr()) }
    }

    /// Hands an item back: a file's path, a URL or text; `content_type` `None` lets the
    /// host detect it.
    pub fn return_item(&self, kind: ItemKind, value: &str, content_type: Option<&str>) -> Result<(), Refused> {
        if value.contains('\0') {
            return Err(Refused);
        }
        let value = Self::c(value);
        let content_type = content_type.map(Self::c);
        let answer = unsafe {
            ((*self.raw).return_item)(
                self.raw,
                kind.raw(),
                value.as_ptr(),
                content_type.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
            )
        };
        if answer == 0 {
            Ok(())
        } else {
            Err(Refused)
        }
    }

    /// Hands back a text item.
    pub fn return_text(&self, text: &str, content_type: Option<&str>) -> Result<(), Refused> {
        self.return_item(ItemKind::Text, text, content_type)
    }

    /// The value of a declared option, copied.
    pub fn option(&self, name: &str) -> Option<String> {
        let name = Self::c(name);
        let value = unsafe { ((*self.raw).option)(self.raw, name.as_ptr()) };
        string(value).map(str::to_owned)
    }

    /// Sets the message shown when the hook fails.
    pub fn set_error(&self, message: &str) {
        let message = Self::c(message);
        unsafe { ((*self.raw).set_error)(self.raw, message.as_ptr()) }
    }

    /// Whether the user has asked to cancel: stop, clean up, return [`Status::Cancelled`].
    pub fn is_cancelled(&self) -> bool {
        unsafe { ((*self.raw).is_cancelled)(self.raw) != 0 }
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic".to_owned()
    }
}

/// Runs a can-perform body: true is 1, false 0; a panic is 0.
///
/// # Safety
/// `request` must be the host's.
pub unsafe fn run_can_perform(request: *const ffi::actshare_request, body: impl FnOnce(&Request) -> bool) -> i32 {
    let request = match Request::from_raw(request) {
        Some(request) => request,
        None => return 0,
    };
    match catch_unwind(AssertUnwindSafe(|| body(&request))) {
        Ok(true) => 1,
        _ => 0,
    }
}

/// Runs a prepare or perform body: `Ok(status)`, or `Err(failure)` which sets the error
/// message and fails; a panic fails with "panicked: MESSAGE".
///
/// # Safety
/// `request` and `session` must be the host's.
pub unsafe fn run_hook(
    request: *const ffi::actshare_request,
    session: *mut ffi::actshare_session,
    body: impl FnOnce(&Request, &Session) -> Result<Status, Failure>,
) -> i32 {
    let (request, session) = match (Request::from_raw(request), Session::from_raw(session)) {
        (Some(request), Some(session)) => (request, session),
        _ => return ffi::STATUS_FAILED,
    };
    match catch_unwind(AssertUnwindSafe(|| body(&request, &session))) {
        Ok(Ok(status)) => status.raw(),
        Ok(Err(Failure(message))) => {
            session.set_error(&message);
            ffi::STATUS_FAILED
        }
        Err(payload) => {
            session.set_error(&format!("panicked: {}", panic_message(payload.as_ref())));
            ffi::STATUS_FAILED
        }
    }
}

/// Defines an exported `can-perform` hook of the standard signature.
#[macro_export]
macro_rules! export_can_perform {
    ($name:ident, $body:expr) => {
        #[no_mangle]
        pub extern "C" fn $name(request: *const $crate::ffi::actshare_request) -> i32 {
            unsafe { $crate::run_can_perform(request, $body) }
        }
    };
}

/// Defines an exported `perform` (or `prepare`) hook of the standard signature.
#[macro_export]
macro_rules! export_perform {
    ($name:ident, $body:expr) => {
        #[no_mangle]
        pub extern "C" fn $name(
            request: *const $crate::ffi::actshare_request,
            session: *mut $crate::ffi::actshare_session,
        ) -> i32 {
            unsafe { $crate::run_hook(request, session, $body) }
        }
    };
}

// The layout must be the C header's: checked at compile time for 64-bit Linux.
const _: () = assert!(std::mem::size_of::<ffi::actshare_item>() == 64);
const _: () = assert!(std::mem::size_of::<ffi::actshare_request>() == 88);
const _: () = assert!(std::mem::size_of::<ffi::actshare_target>() == 40);
const _: () = assert!(std::mem::size_of::<ffi::actshare_session>() == 64);

#[cfg(test)]
mod tests {
    //! The wrappers against a session of the test's own: what a hook body does reaches
    //! the C callbacks as the host would see it.
    use super::*;
    use std::cell::RefCell;
    use std::os::raw::c_void;

    /// What the session's callbacks received, and what they answer.
    #[derive(Default)]
    struct Host {
        calls: RefCell<Vec<String>>,
        refuse_items: bool,
        cancelled: bool,
    }

    unsafe fn host<'a>(session: *mut ffi::actshare_session) -> &'a Host {
        &*((*session).host_context as *const Host)
    }

    fn text(pointer: *const c_char) -> String {
        if pointer.is_null() {
            "NULL".to_owned()
        } else {
            unsafe { CStr::from_ptr(pointer) }.to_string_lossy().into_owned()
        }
    }

    unsafe extern "C" fn progress(session: *mut ffi::actshare_session, fraction: f64) {
        host(session).calls.borrow_mut().push(format!("progress {}", fraction));
    }
    unsafe extern "C" fn log(session: *mut ffi::actshare_session, level: i32, message: *const c_char) {
        host(session).calls.borrow_mut().push(format!("log {} {}", level, text(message)));
    }
    unsafe extern "C" fn return_item(
        session: *mut ffi::actshare_session, kind: i32, value: *const c_char, content_type: *const c_char,
    ) -> i32 {
        let host = host(session);
        host.calls.borrow_mut().push(format!("item {} {} {}", kind, text(value), text(content_type)));
        if host.refuse_items { -1 } else { 0 }
    }
    unsafe extern "C" fn option(_: *mut ffi::actshare_session, name: *const c_char) -> *const c_char {
        if text(name) == "greeting" { b"Hi\0".as_ptr() as *const c_char } else { std::ptr::null() }
    }
    unsafe extern "C" fn set_error(session: *mut ffi::actshare_session, message: *const c_char) {
        host(session).calls.borrow_mut().push(format!("error {}", text(message)));
    }
    unsafe extern "C" fn is_cancelled(session: *mut ffi::actshare_session) -> i32 {
        host(session).cancelled as i32
    }

    thread_local! {
        /// What add_target received, as "KIND ID TITLE SUBTITLE IMAGE".
        static TARGETS: RefCell<Vec<String>> = RefCell::new(Vec::new());
    }
    unsafe extern "C" fn add_target(_: *const ffi::actshare_request, target: *const ffi::actshare_target) -> i32 {
        let t = &*target;
        TARGETS.with(|targets| {
            let mut targets = targets.borrow_mut();
            targets.push(format!("{} {} {} {} {}", t.kind, text(t.id), text(t.title), text(t.subtitle), text(t.image)));
            if targets.len() > 1 { -1 } else { 0 }
        })
    }

    fn session(host: &Host) -> ffi::actshare_session {
        ffi::actshare_session {
            abi_version: ffi::ABI_VERSION,
            struct_size: std::mem::size_of::<ffi::actshare_session>() as u32,
            host_context: host as *const Host as *mut c_void,
            progress,
            log,
            return_item,
            option,
            set_error,
            is_cancelled,
        }
    }

    /// A request of one file whose name is not UTF-8 and one text item, with an option.
    fn with_request<T>(body: impl FnOnce(*const ffi::actshare_request) -> T) -> T {
        let path = b"/tmp/caf\xe9.txt\0";
        let words = b"some words\0";
        let items = [
            ffi::actshare_item {
                kind: ffi::ITEM_FILE,
                path: path.as_ptr() as *const c_char,
                uri: b"file:///tmp/caf%E9.txt\0".as_ptr() as *const c_char,
                text: std::ptr::null(),
                content_type: b"text/plain\0".as_ptr() as *const c_char,
                size: 11,
                data: std::ptr::null(),
                data_length: 0,
            },
            ffi::actshare_item {
                kind: ffi::ITEM_TEXT,
                path: std::ptr::null(),
                uri: std::ptr::null(),
                text: words.as_ptr() as *const c_char,
                content_type: std::ptr::null(),
                size: 10,
                data: words.as_ptr() as *const c_void,
                data_length: 10,
            },
        ];
        let options = [ffi::actshare_option {
            name: b"greeting\0".as_ptr() as *const c_char,
            value: b"Hello\0".as_ptr() as *const c_char,
        }];
        let request = ffi::actshare_request {
            abi_version: ffi::ABI_VERSION,
            struct_size: std::mem::size_of::<ffi::actshare_request>() as u32,
            activity_type: b"org.example.test.go\0".as_ptr() as *const c_char,
            subject: std::ptr::null(),
            item_count: items.len(),
            items: items.as_ptr(),
            option_count: options.len(),
            options: options.as_ptr(),
            host_context: std::ptr::null_mut(),
            decline: None,
            add_target: Some(add_target),
            target: b"beta\0".as_ptr() as *const c_char,
        };
        body(&request)
    }

    #[test]
    fn a_request_reads_as_the_host_wrote_it() {
        with_request(|raw| {
            let request = unsafe { Request::from_raw(raw) }.unwrap();
            assert_eq!(request.activity_type(), "org.example.test.go");
            assert_eq!(request.subject(), None);
            assert_eq!(request.option("greeting"), Some("Hello"));
            assert_eq!(request.option("other"), None);
            let items: Vec<Item> = request.items().collect();
            assert_eq!(items.len(), 2);
            use std::os::unix::ffi::OsStrExt;
            assert_eq!(items[0].kind(), Some(ItemKind::File));
            assert_eq!(items[0].path().unwrap().as_os_str().as_bytes(), b"/tmp/caf\xe9.txt");
            assert_eq!(items[0].content_type(), "text/plain");
            assert_eq!(items[1].text(), Some("some words"));
            assert_eq!(items[1].data(), b"some words");
            assert_eq!(items[1].content_type(), "application/octet-stream");
        });
    }

    #[test]
    fn targets_reach_the_host_and_its_answer_comes_back() {
        with_request(|raw| {
            let request = unsafe { Request::from_raw(raw) }.unwrap();
            assert_eq!(request.target(), Some("beta"));
            let gimp = Target { id: "gimp.desktop", title: "GIMP", subtitle: None, image: Some("gimp"), kind: TargetKind::App };
            assert_eq!(request.add_target(&gimp), Ok(()));
            let second = Target { id: "beta", title: "beta", subtitle: Some("KDE Connect"), image: None, kind: TargetKind::Device };
            assert_eq!(request.add_target(&second), Err(Refused), "the host's -1");
            let nul = Target { id: "a\0b", ..second.clone() };
            assert_eq!(request.add_target(&nul), Err(Refused), "a NUL never reaches the host");
        });
        assert_eq!(TARGETS.with(|t| t.borrow().clone()), ["2 gimp.desktop GIMP NULL gimp", "0 beta beta KDE Connect NULL"]);
    }

    #[test]
    fn an_older_host_hears_no_target_and_names_none() {
        with_request(|raw| {
            // An ABI-2 host's request ends after decline: nothing beyond it is read.
            let mut old = unsafe { std::ptr::read(raw) };
            old.abi_version = 2;
            old.struct_size = 72;
            let request = unsafe { Request::from_raw(&old) }.unwrap();
            assert_eq!(request.target(), None);
            let target = Target { id: "x", title: "X", subtitle: None, image: None, kind: TargetKind::Place };
            assert_eq!(request.add_target(&target), Err(Refused));
        });
        assert!(TARGETS.with(|t| t.borrow().is_empty()));
    }

    #[test]
    fn a_body_reaches_every_callback() {
        let host = Host::default();
        let mut raw = session(&host);
        let status = with_request(|request| unsafe {
            run_hook(request, &mut raw, |_, session| {
                session.progress(0.5);
                session.log(Level::Warning, "careful");
                session.return_text("out", Some("text/plain"))?;
                assert_eq!(session.option("greeting"), Some("Hi".to_owned()));
                assert!(!session.is_cancelled());
                Ok(Status::Done)
            })
        });
        assert_eq!(status, ffi::STATUS_DONE);
        assert_eq!(*host.calls.borrow(), ["progress 0.5", "log 2 careful", "item 2 out text/plain"]);
    }

    #[test]
    fn an_error_or_a_panic_fails_with_its_message() {
        let host = Host::default();
        let mut raw = session(&host);
        let failed = with_request(|request| unsafe {
            run_hook(request, &mut raw, |_, _| Err(Failure::from("no printer")))
        });
        let panicked = with_request(|request| unsafe {
            run_hook(request, &mut raw, |_, _| -> Result<Status, Failure> { panic!("boom") })
        });
        assert_eq!((failed, panicked), (ffi::STATUS_FAILED, ffi::STATUS_FAILED));
        assert_eq!(*host.calls.borrow(), ["error no printer", "error panicked: boom"]);
        let answer = with_request(|request| unsafe { run_can_perform(request, |_| panic!("boom")) });
        assert_eq!(answer, 0);
        assert_eq!(unsafe { run_hook(std::ptr::null(), &mut raw, |_, _| Ok(Status::Done)) }, ffi::STATUS_FAILED);
    }

    #[test]
    fn a_refused_item_is_an_error_and_a_nul_never_reaches_the_host() {
        let host = Host { refuse_items: true, cancelled: true, ..Host::default() };
        let mut raw = session(&host);
        let session = unsafe { Session::from_raw(&mut raw) }.unwrap();
        assert_eq!(session.return_item(ItemKind::Url, "no scheme", None), Err(Refused));
        assert_eq!(session.return_text("a\0b", None), Err(Refused));
        session.set_error("cut\0here");
        assert!(session.is_cancelled());
        assert_eq!(*host.calls.borrow(), ["item 1 no scheme NULL", "error cut"]);
    }
}
