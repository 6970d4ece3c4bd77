//! Shout: an example provider in Rust. It returns each text item in capitals, and
//! panics on purpose when option `panic` is `yes` (the crate turns the panic into a
//! failure with its message).
use actshare_provider::{export_can_perform, export_perform, ItemKind, Level, Request, Session, Status};

export_can_perform!(shout_can_perform, |request: &Request| {
    request.items().all(|item| item.kind() == Some(ItemKind::Text))
});

export_perform!(shout_perform, |request: &Request, session: &Session| {
    if session.option("panic").as_deref() == Some("yes") {
        panic!("asked to panic");
    }
    let items: Vec<_> = request.items().collect();
    for (index, item) in items.iter().enumerate() {
        if session.is_cancelled() {
            return Ok(Status::Cancelled);
        }
        let text = item.text().unwrap_or_default();
        session.return_text(&text.to_uppercase(), None)?;
        session.log(Level::Debug, &format!("shouted item {}", index + 1));
        session.progress((index + 1) as f64 / items.len() as f64);
    }
    Ok(Status::Done)
});
