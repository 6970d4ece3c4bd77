import ActShareCore

/// The frames actshare sends, built as `actshare/provider_protocol.h` lays them out.
extension Frame {
    /// LOAD: the library and every symbol to resolve.
    static func load(library: String, symbols: [String]) -> Frame {
        var frame = Frame(.load)
        frame.append(bytes: PathName.bytes(library))
        frame.append(UInt32(symbols.count))
        for symbol in symbols { frame.append(bytes: Array(symbol.utf8)) }
        return frame
    }

    /// REQUEST: the activity, its items (a file's path as its bytes; text and data
    /// inline), its options and the target chosen.
    static func request(_ request: ActivityRequest) -> Frame {
        var frame = Frame(.request)
        frame.append(bytes: Array(request.activityType.utf8))
        frame.append(optional: request.subject.map { Array($0.utf8) })
        frame.append(UInt32(request.items.count))
        for item in request.items {
            frame.append(UInt8(item.kind.cValue))
            frame.append(optional: item.path.map(PathName.bytes))
            frame.append(optional: item.url.map { Array($0.utf8) })
            frame.append(bytes: Array(item.contentType.utf8))
            frame.append(item.size)
            frame.append(optional: item.kind == .file ? nil : item.inlineBytes)
        }
        frame.append(UInt32(request.options.count))
        for (name, value) in request.options {
            frame.append(bytes: Array(name.utf8))
            frame.append(bytes: Array(value.utf8))
        }
        frame.append(optional: request.target.map { Array($0.utf8) })
        return frame
    }

    /// CALL: one hook, for item `item` (-1: not per item).
    static func call(_ hook: HookDeclaration, item: Int) -> Frame {
        var frame = Frame(.call)
        frame.append(bytes: Array(hook.symbol.utf8))
        frame.append(UInt8(hook.returns.callCode))
        frame.append(UInt8(hook.arguments.count))
        for argument in hook.arguments {
            frame.append(UInt8(argument.callCode))
            if case .option(let name) = argument { frame.append(bytes: Array(name.utf8)) }
        }
        frame.append(UInt64(bitPattern: Int64(item)))
        return frame
    }

    /// ANSWER: whether the item of an ITEM frame was accepted.
    static func answer(accepted: Bool) -> Frame {
        var frame = Frame(.answer)
        frame.append(UInt8(accepted ? 0 : 1))
        return frame
    }
}
