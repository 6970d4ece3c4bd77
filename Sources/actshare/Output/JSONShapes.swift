import ActShareCore
import ActShareHost

/// The JSON shapes of DESIGN.md: items, activities and results.
enum JSONShapes {
    /// `{"kind","path"|"url"|"text","content_type","size"}`.
    static func item(_ item: Item) -> String {
        var members: [(String, JSONWriter.Value)] = [("kind", .string(item.kind.rawValue))]
        switch item.kind {
        case .file: members.append(("path", .string(item.path)))
        case .url: members.append(("url", .string(item.url)))
        case .text: members.append(("text", .string(item.text)))
        case .data: break
        }
        members += [("content_type", .string(item.contentType)), ("size", .number(item.size))]
        return JSONWriter.object(members)
    }

    /// `{"type","title","image","category","provider"}`.
    static func activity(_ offer: Offer) -> String {
        JSONWriter.object([
            ("type", .string(offer.activity.type)),
            ("title", .string(offer.activity.title)),
            ("image", .string(offer.activity.image)),
            ("category", .string(offer.activity.category.rawValue)),
            ("provider", .string(offer.provider.id)),
        ])
    }

    /// `{"items":[…],"activities":[…]}`.
    static func list(items: [Item], offers: [Offer]) -> String {
        JSONWriter.object([
            ("items", .raw(JSONWriter.array(items.map(item)))),
            ("activities", .raw(JSONWriter.array(offers.map(activity)))),
        ])
    }

    /// `{"activity","completed","returned_items":[…],"error"}`.
    static func result(activity: String?, completed: Bool, returnedItems: [Item], error: String?) -> String {
        JSONWriter.object([
            ("activity", .string(activity)),
            ("completed", .bool(completed)),
            ("returned_items", .raw(JSONWriter.array(returnedItems.map(item)))),
            ("error", .string(error)),
        ])
    }
}
