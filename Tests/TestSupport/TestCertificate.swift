import Foundation

/// Self-signed certificates for TLS tests, made by the openssl command (see `Requirement.openssl`).
public enum TestCertificate {
    /// A certificate for CN localhost (SANs localhost and 127.0.0.1) and its key, as PEM files in
    /// `directory`; throws when openssl is missing or fails. The key is named `server.key`, as
    /// servers' keys often are: a PEM file so named must be read as PEM. `names` are its SANs as
    /// openssl writes them. Like every `openssl req -x509` certificate it is CA:TRUE: its own root.
    public static func make(in directory: URL, commonName: String = "localhost", names: String = "DNS:localhost,IP:127.0.0.1") throws -> (certificate: String, key: String) {
        let (certificate, key) = (directory.appendingPathComponent("cert.pem").path, directory.appendingPathComponent("server.key").path)
        guard let openssl = Requirement.openssl.path else { throw Failure(reason: "openssl is missing") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                             "-subj", "/CN=\(commonName)", "-addext", "subjectAltName=\(names)",
                             "-keyout", key, "-out", certificate]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(reason: "openssl req exited \(process.terminationStatus)") }
        return (certificate, key)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "cannot make a test certificate: \(reason)" }
    }
}
