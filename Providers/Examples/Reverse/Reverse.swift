// Reverse: an example provider written in Swift that exports C symbols.
//
// Nothing Swift crosses the interface: the hook takes and returns C types from
// provider.h, so the host never depends on this library's Swift runtime. The
// ActShareProvider library wraps them (ProviderRequest, ProviderSession).
import ActShareProvider

/// Reverses each text item and hands the result back (standard perform signature).
@_cdecl("reverse_perform")
public func reversePerform(
    _ request: UnsafePointer<actshare_request>?, _ session: UnsafeMutablePointer<actshare_session>?
) -> Int32 {
    ProviderSession.run(request, session) { request, session in
        for item in request.items {
            guard let text = item.text else { continue }
            do {
                try session.returnItem(.text, String(text.reversed()), contentType: "text/plain")
            } catch {
                session.setError("the host refused the reversed text")
                return .failed
            }
        }
        return .done
    }
}
