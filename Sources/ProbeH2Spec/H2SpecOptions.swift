/// h2spec's command line: the server, how long each step waits, the dummy headers' length,
/// TLS, which cases run, and what is printed and written.
package struct H2SpecOptions: Sendable {
    package var host = "127.0.0.1"
    package var port = 0
    package var path = "/"
    /// `-o`: seconds each step waits.
    package var timeout = 2
    package var maxHeaderLength = 4000
    package var tls = false
    package var insecure = false
    /// `-c`: the TLS 1.2 cipher suites offered, OpenSSL's names joined by colons.
    package var ciphers: String?
    /// `-S`: the strict cases too.
    package var strict = false
    /// SPEC arguments: `generic`, `http2/6.5`, `hpack/2.3.3/1`.
    package var specs: [String] = []
    /// `-v`: each case's step log printed (the scenarios keep none otherwise).
    package var verbose = false

    package init() {}

    /// The suite's variables for this server, as h2spec forms its request headers: the
    /// authority without the port when it is the scheme's own.
    package var variables: [String: String] {
        let scheme = tls ? "https" : "http"
        let authority = port == (tls ? 443 : 80) ? host : "\(host):\(port)"
        let hostInURL = host.contains(":") ? "[\(host)]" : host
        return ["host": host, "port": String(port), "path": path, "scheme": scheme, "authority": authority,
                "url": "h2\(tls ? "s" : "")://\(hostInURL):\(port)\(path)", "timeout": "\(timeout)s",
                "max-header-length": String(maxHeaderLength)]
    }
}
