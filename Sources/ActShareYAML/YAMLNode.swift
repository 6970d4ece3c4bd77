/// A node of a YAML document: a scalar (its text, and whether it was written plain, so
/// that `"3"` stays a string), a list, or a mapping in file order. Aliases are resolved
/// to the node they name; tags are not kept (manifests and the config use none).
public struct YAMLNode: Sendable {
    public enum Content: Sendable {
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    public var content: Content
    /// Where the node starts, from 1.
    public var line: Int
    public var column: Int

    /// The text of a scalar; nil for a list or a mapping.
    public var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }
}
