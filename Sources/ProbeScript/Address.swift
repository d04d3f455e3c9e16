/// `host:port`, with IPv6 hosts in brackets: `127.0.0.1:80`, `[::1]:7000`, `localhost:8080`.
package struct Address: Sendable, Hashable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    package static func parse(_ text: String) -> Address? {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return nil } // an IPv6 address needs brackets
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { return nil }
        return Address(host: String(host), port: port)
    }

    package static let hint = "addresses look like 127.0.0.1:8080, [::1]:8080 or localhost:{port}"

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
