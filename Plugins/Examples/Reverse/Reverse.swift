// Reverse: an example provider written in Swift that exports C symbols.
//
// Nothing Swift crosses the interface: the hook takes and returns C types from
// provider.h, so the host never depends on this library's Swift runtime.
import CActShare

/// Reverses each text item and hands the result back (standard perform signature).
@_cdecl("reverse_perform")
public func reversePerform(
    _ request: UnsafePointer<actshare_request>?, _ session: UnsafeMutablePointer<actshare_session>?
) -> Int32 {
    guard let request = request?.pointee, let session else { return Int32(ACTSHARE_STATUS_FAILED) }
    let returnItem = session.pointee.return_item!
    for index in 0..<request.item_count {
        let item = request.items[index]
        guard let text = item.text else { continue }
        let reversed = String(String(cString: text).reversed())
        if returnItem(session, Int32(ACTSHARE_ITEM_TEXT.rawValue), reversed, "text/plain") != 0 {
            session.pointee.set_error(session, "the host refused the reversed text")
            return Int32(ACTSHARE_STATUS_FAILED)
        }
    }
    return Int32(ACTSHARE_STATUS_DONE)
}
