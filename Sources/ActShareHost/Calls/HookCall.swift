import ActShareCore
import CActShare
import CActShareCall
#if canImport(Glibc)
import Glibc
#endif

/// A hook's argument words in the form `cas_invoke` (CActShareCall) takes, ready to call
/// once per item. The same C function makes the calls in the host and in
/// `actshare-provider-host`.
struct HookCall {
    let returns: Int32
    /// Option names, kept alive for the C strings the arguments point at.
    private let names: [String]
    private let words: [(word: Int32, option: Int?)]

    init(_ hook: HookDeclaration) {
        var names: [String] = []
        words = hook.arguments.map { argument in
            if case .option(let name) = argument {
                names.append(name)
                return (argument.callCode, names.count - 1)
            }
            return (argument.callCode, nil)
        }
        self.names = names
        returns = hook.returns.callCode
    }

    /// Calls `function` for item `item` (-1: not per item) and returns the raw result.
    func invoke(
        _ function: UnsafeMutableRawPointer, request: UnsafePointer<actshare_request>,
        session: UnsafeMutablePointer<actshare_session>?, item: Int, error makeError: (String) -> ActShareError
    ) throws -> UInt64 {
        let optionNames = names.map { strdup($0) }
        defer { optionNames.forEach { free($0) } }
        let arguments = words.map { word -> cas_argument in
            let option: UnsafePointer<CChar>? = word.option.flatMap { optionNames[$0] }.map { UnsafePointer($0) }
            return cas_argument(word: word.word, option: option)
        }
        var result: UInt64 = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = arguments.withUnsafeBufferPointer { buffer in
            cas_invoke(function, buffer.baseAddress, buffer.count, returns, request, session, item, &result, &message, message.count)
        }
        guard status == 0 else {
            throw makeError(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return result
    }
}

extension HookArgument {
    /// The `CAS_ARG_*` code of this word.
    var callCode: Int32 {
        switch self {
        case .itemPath: return Int32(CAS_ARG_ITEM_PATH)
        case .itemURI: return Int32(CAS_ARG_ITEM_URI)
        case .itemText: return Int32(CAS_ARG_ITEM_TEXT)
        case .itemContentType: return Int32(CAS_ARG_ITEM_CONTENT_TYPE)
        case .itemSize: return Int32(CAS_ARG_ITEM_SIZE)
        case .itemData: return Int32(CAS_ARG_ITEM_DATA)
        case .itemsCount: return Int32(CAS_ARG_ITEMS_COUNT)
        case .activityType: return Int32(CAS_ARG_ACTIVITY_TYPE)
        case .option: return Int32(CAS_ARG_OPTION)
        case .request: return Int32(CAS_ARG_REQUEST)
        case .session: return Int32(CAS_ARG_SESSION)
        }
    }
}

extension HookReturn {
    /// The `CAS_RETURN_*` code of this word.
    var callCode: Int32 {
        switch self {
        case .status: return Int32(CAS_RETURN_STATUS)
        case .bool: return Int32(CAS_RETURN_BOOL)
        case .string: return Int32(CAS_RETURN_STRING)
        case .void: return Int32(CAS_RETURN_VOID)
        case .verdict: return Int32(CAS_RETURN_VERDICT)
        }
    }
}
