import ActShareCore
import ActShareHost

/// The JSON shapes of DESIGN.md: items, activities and results.
enum JSONShapes {
    /// `{"kind","path"|"url"|"text","content_type","size"}`.
    static func write(_ item: Item, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("kind", .string(item.kind.rawValue))
        switch item.kind {
        // A name that is not UTF-8 is shown with its bytes escaped (\xE9): JSON is UTF-8.
        case .file: writer.member("path", .string(item.path.map(PathName.display)))
        case .url: writer.member("url", .string(item.url))
        case .text: writer.member("text", .string(item.text))
        case .data: break
        }
        writer.member("content_type", .string(item.contentType))
        writer.member("size", .number(item.size))
        writer.endObject()
    }

    /// `{"type","title","image","category","provider","targets":[{"id","title","subtitle",
    /// "image","kind"}]}`: the targets the activity offered for the items, in its order.
    static func write(_ offer: Offer, targets: [ActivityTarget] = [], to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("type", .string(offer.type))
        writer.member("title", .string(offer.title))
        writer.member("image", .string(offer.image))
        writer.member("category", .string(offer.category.rawValue))
        writer.member("provider", .string(offer.providerID))
        write(targets, to: &writer)
        writer.endObject()
    }

    /// `"targets":[{"id","title","subtitle","image","kind"}]`, a member of an activity here
    /// and in the share sheet's request.
    static func write(_ targets: [ActivityTarget], to writer: inout JSONWriter) {
        writer.key("targets")
        writer.beginArray()
        for target in targets {
            writer.beginObject()
            writer.member("id", .string(target.id))
            writer.member("title", .string(target.title))
            writer.member("subtitle", .string(target.subtitle))
            writer.member("image", .string(target.image))
            writer.member("kind", .string(target.kind.rawValue))
            writer.endObject()
        }
        writer.endArray()
    }

    /// `[{"type",…},…]`.
    static func activities(_ offers: [Offer], targets: [String: [ActivityTarget]] = [:]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for offer in offers { write(offer, targets: targets[offer.type] ?? [], to: &writer) }
        writer.endArray()
        return writer.text
    }

    /// `{"items":[…],"activities":[…]}`.
    static func list(items: [Item], offers: [Offer], targets: [String: [ActivityTarget]]) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("items")
        writer.beginArray()
        for item in items { write(item, to: &writer) }
        writer.endArray()
        writer.key("activities")
        writer.beginArray()
        for offer in offers { write(offer, targets: targets[offer.type] ?? [], to: &writer) }
        writer.endArray()
        writer.endObject()
        return writer.text
    }

    /// `{"activity","completed","returned_items":[…],"error"}`, and `"dropped_items":
    /// [{"kind","value","reason"}]` when the provider returned items actshare refused.
    static func result(activity: String?, completed: Bool, returnedItems: [Item], droppedItems: [DroppedItem] = [], error: String?) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("activity", .string(activity))
        writer.member("completed", .bool(completed))
        writer.key("returned_items")
        writer.beginArray()
        for item in returnedItems { write(item, to: &writer) }
        writer.endArray()
        // The links an activity made (Upload's), for a script that wants only them.
        let links = returnedItems.compactMap { $0.kind == .url ? $0.url : nil }
        if !links.isEmpty {
            writer.key("links")
            writer.beginArray()
            for link in links { writer.value(.string(link)) }
            writer.endArray()
        }
        if !droppedItems.isEmpty {
            writer.key("dropped_items")
            writer.beginArray()
            for dropped in droppedItems {
                writer.beginObject()
                writer.member("kind", .string(dropped.kind))
                writer.member("value", .string(dropped.value))
                writer.member("reason", .string(dropped.reason))
                writer.endObject()
            }
            writer.endArray()
        }
        writer.member("error", .string(error))
        writer.endObject()
        return writer.text
    }
}
