extension MimeCache {
    /// The type `alias` is another name for (`application/x-javascript` → `text/javascript`).
    func canonicalType(ofAlias alias: String) -> String? {
        guard let list = list(.aliases), let count = u32(list),
              let index = search(Array(alias.utf8), first: list + 4, count: count, stride: 8),
              let typeOffset = u32(list + 4 + 8 * index + 4)
        else { return nil }
        return type(at: typeOffset)
    }

    /// The types `type` is a subclass of (`text/x-python` → `text/x-python3`… `text/plain`),
    /// or nil when this cache does not list it.
    func parents(of type: String) -> [String]? {
        guard let list = list(.parents), let count = u32(list),
              let index = search(Array(type.utf8), first: list + 4, count: count, stride: 8),
              let parentsOffset = u32(list + 4 + 8 * index + 4), let parentCount = u32(parentsOffset)
        else { return nil }
        return (0..<min(parentCount, 64)).compactMap { u32(parentsOffset + 4 + 4 * $0).flatMap(self.type(at:)) }
    }
}
