/// `SCHEME://HOST:PORT/PATH` as `connect` takes it (`ws://`, `wss://`, `h2://`, `h2s://`): the
/// scheme, the address text and where it starts, and the path (`/` when none is written).
package struct SchemeURL {
    package var scheme: String
    package var address: String
    package var addressAt: SourceLocation
    package var path: Template

    /// Splits `text`, written at `location`, when it starts with one of `schemes` and `://`.
    package static func split(_ text: String, schemes: [String], at location: SourceLocation) -> SchemeURL? {
        guard let scheme = schemes.first(where: { text.hasPrefix($0 + "://") }) else { return nil }
        let rest = text.dropFirst(scheme.count + 3)
        let addressEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let path = addressEnd == rest.endIndex ? "/" : String(rest[addressEnd...])
        let start = location.advanced(by: scheme.count + 3)
        return SchemeURL(scheme: scheme, address: String(rest[..<addressEnd]), addressAt: start,
                         path: Template.word(path, at: start.advanced(by: rest.distance(from: rest.startIndex, to: addressEnd))))
    }
}
