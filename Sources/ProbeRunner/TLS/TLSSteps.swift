import FoundationEssentials
import NIOCore
import NIOSSL
import ProbeHost
import ProbeResults
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// TLS on connections, for the scenario or `parallel` copy that `context` is: the options of
/// `connect … tls`, `listen … tls` and `starttls` made into a context, the handshake judged as
/// part of the step that asks for it, `starttls` and `assert tls`.
final class TLSSteps {
    private unowned let context: any StepContext
    private let connections: ConnectionTable
    /// Where the TLS secrets of the run's connections go, beside a kept capture.
    private let keyLog: TLSKeyLog
    /// Where run-time certificates are written (where captures go), and whether that is the
    /// default folder, which is made private to the user.
    private let certificateFolder: (path: String, isDefault: Bool)

    init(context: any StepContext, connections: ConnectionTable, keyLog: TLSKeyLog, certificateFolder: (path: String, isDefault: Bool)) {
        self.context = context
        self.connections = connections
        self.keyLog = keyLog
        self.certificateFolder = certificateFolder
    }

    /// Runs `statement`: `starttls` or `assert tls`.
    func run(_ statement: Statement) async throws {
        switch statement.kind {
        case .startTLS(let options, let expectFailure): try await startTLS(options, expectFailure: expectFailure, statement)
        case .assertTLS(let assertion): try assertTLS(assertion, statement)
        default: preconditionFailure("not a TLS step: \(statement.text)")
        }
    }

    /// Resolves `options` for `role` toward `host` (a client's peer): variables rendered, files read from the step's folder,
    /// and, for a server named no certificate, the run-time one, written to a file of its own
    /// when `writesCertificate` (a listener's `{l.cert}`; the listener removes it).
    func tlsContext(_ options: TLSOptions, role: Role, host peerHost: String?, writesCertificate: Bool = false,
                    _ statement: Statement) throws -> TLSContext {
        var setup = TLSSetup(role: role)
        setup.insecure = options.insecure
        setup.version = try options.version.map { try context.resolve($0, "a TLS version (1.2 or 1.3)", TLSOptions.Version.init(rawValue:)) }
        setup.applicationProtocols = options.applicationProtocols.map { $0.renderString(context.lookup) }
        setup.ciphers = options.ciphers?.renderString(context.lookup)
        // BoringSSL stops the process on a list it cannot use: a name it does not know is the step's failure.
        if let ciphers = setup.ciphers, let problem = TLSCipherNames.problem(in: ciphers) { throw StepFailure(statement, TLSFailure.badCiphers(problem)) }
        var runtimeCertificatePath: String?
        switch role {
        case .client:
            if options.clientCA != nil { throw StepFailure(statement, TLSFailure.clientCAOnClient) }
            setup.trustRoots = try options.ca.map { try certificates($0, "ca", statement) }
            if let name = options.serverName {
                setup.serverName = name.renderString(context.lookup)
            } else if let peerHost, (try? SocketAddress(ipAddress: peerHost, port: 0)) == nil {
                setup.serverName = peerHost
            } else {
                setup.verifiedAddress = peerHost
            }
        case .server:
            if options.insecure || options.ca != nil || options.serverName != nil {
                throw StepFailure(statement, TLSFailure.clientOptionsOnServer)
            }
            setup.trustRoots = try options.clientCA.map { try certificates($0, "client-ca", statement) }
        }
        if let certificate = options.certificate, let key = options.key {
            setup.certificateChain = try certificates(certificate, "cert", statement)
            let path = file(key, statement)
            do {
                setup.privateKey = try NIOSSLPrivateKey(file: path, format: .pem)
            } catch {
                throw StepFailure(statement, TLSFailure.unreadableKey(path: path, problem: Self.fileProblem(path, error)))
            }
        } else if role == .server {
            let runtime: RuntimeCertificate
            do { runtime = try RuntimeCertificate.shared.get() } catch { throw StepFailure(statement, TLSFailure.cannotMakeCertificate(error: "\(error)")) }
            setup.certificateChain = [runtime.certificate]
            setup.privateKey = runtime.privateKey
            if writesCertificate { runtimeCertificatePath = try writeRuntimeCertificate(runtime, statement) }
        }
        do {
            return TLSContext(setup: setup, context: try setup.makeContext(keyLog: keyLog), runtimeCertificatePath: runtimeCertificatePath)
        } catch {
            throw StepFailure(statement, TLSFailure.cannotSetUp(error: "\(error)"))
        }
    }

    /// A path as the scenario wrote it, relative to the folder of the step's file.
    func file(_ template: Template, _ statement: Statement) -> String {
        ScenarioLoader.resolve(template.renderString(context.lookup), from: statement.location.file)
    }

    private func certificates(_ template: Template, _ option: String, _ statement: Statement) throws -> [NIOSSLCertificate] {
        let path = file(template, statement)
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(path)
            guard !certificates.isEmpty else { throw StepFailure(statement, TLSFailure.noCertificate(option: option, path: path)) }
            return certificates
        } catch let failure as StepFailure {
            throw failure
        } catch {
            throw StepFailure(statement, TLSFailure.unreadableCertificates(option: option, path: path, problem: Self.fileProblem(path, error)))
        }
    }

    /// "no such file" when the file is missing, else the TLS library's words.
    private static func fileProblem(_ path: String, _ error: Error) -> String {
        FileManager.default.fileExists(atPath: path) ? "\(error)" : "no such file"
    }

    /// Writes the run-time certificate (public; no key) where captures go, for `{l.cert}`: a
    /// file for each listener, which removes it when it closes.
    private func writeRuntimeCertificate(_ runtime: RuntimeCertificate, _ statement: Statement) throws -> String {
        do {
            try PrivateDirectory.prepare(certificateFolder.path, tightened: certificateFolder.isDefault)
            let path = joinPath(certificateFolder.path, "localhost-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).pem")
            try Data(runtime.certificatePEM.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return path
        } catch {
            throw StepFailure(statement, TLSFailure.cannotWriteCertificate(error: "\(error)"))
        }
    }

    /// Waits for `session`'s handshake on `connection` within `timeout`; keeps the session, or
    /// fails the step saying why (or passes it, when the handshake was to fail).
    func finishHandshake(_ session: TLSSession, on connection: ProbeConnection, within timeout: Duration,
                         expectFailure: Bool, _ statement: Statement) async throws {
        let loop = connection.channel.eventLoop
        let started = context.clock.now
        let (wait, byDeadline) = context.limit(max(timeout, .zero))
        let timer = loop.scheduleTask(in: wait.timeAmount) { session.watch.fail(TLSHandshakeFailure.TimedOut()) }
        do {
            let negotiated = try await session.watch.done.futureResult.get()
            timer.cancel()
            try await loop.submit { session.noteAgreement(applicationProtocol: negotiated) }.get()
        } catch {
            timer.cancel()
            let waited = context.clock.now - started
            let words = try await loop.submit { TLSHandshakeFailure.explain(error, session, waited: wait) }.get()
            try? await connection.close(at: statement.location).get()
            if expectFailure {
                context.record(statement, "\(connection.label): the TLS handshake failed as expected: \(words)")
                return
            }
            throw StepFailure(statement, TLSFailure.handshakeFailed(explained: words, deadline: byDeadline ? context.settings.deadline : nil), connection, waited: waited)
        }
        connection.tls = session
        if expectFailure {
            throw StepFailure(statement, TLSFailure.handshakeSucceeded(summary: session.summary), connection, waited: context.clock.now - started)
        }
        context.record(statement, "\(connection.label): TLS handshake done as \(session.role.rawValue) in \(DurationFormat.short(context.clock.now - started)): \(session.summary)")
    }

    /// `starttls`: the client role on a connection the probe opened, the server role on one it
    /// accepted; bytes already read and not yet expected go to the TLS layer.
    private func startTLS(_ options: TLSOptions, expectFailure: Bool, _ statement: Statement) async throws {
        let connection = try connections.target(statement, allowClosed: false)
        guard connection.tls == nil else { throw StepFailure(statement, TLSFailure.alreadyTLS(connection: connection.label), connection) }
        let role: Role = connection.connectedHost == nil ? .server : .client
        let tls = try tlsContext(options, role: role, host: connection.connectedHost, statement)
        let session = try await beginTLS(tls, on: connection)
        try await finishHandshake(session, on: connection, within: context.settings.timeout, expectFailure: expectFailure, statement)
    }

    /// Puts a TLS layer made from `tls` on `connection`, with the bytes its reader took and no
    /// expect consumed; the handshake starts.
    func beginTLS(_ tls: TLSContext, on connection: ProbeConnection) async throws -> TLSSession {
        let channel = connection.channel
        return try await connection.onLoop { handler in
            let session = try tls.setup.makeSession(tls.context, on: channel.eventLoop)
            connection.markTLSStart()
            try session.install(on: channel, early: handler.takeUnconsumed())
            return session
        }
    }

    /// `assert tls …` judges the handshake, which stays known after the connection closed.
    private func assertTLS(_ assertion: TLSAssertion, _ statement: Statement) throws {
        let connection = try connections.target(statement, allowClosed: true)
        guard let session = connection.tls else {
            throw StepFailure(statement, TLSFailure.notTLS(connection: connection.label), connection)
        }
        let (what, actual, holds): (String, String?, Bool)
        switch assertion {
        case .version(let version):
            (what, actual) = ("version \(version.rawValue)", session.version)
            holds = actual == version.rawValue
        case .applicationProtocol(let name):
            let expected = name.renderString(context.lookup)
            (what, actual) = ("alpn \"\(expected)\"", session.applicationProtocol)
            holds = (actual ?? "") == expected
        case .cipher(let regex):
            (what, actual) = ("cipher \(regex.description)", session.cipher)
            holds = actual.map { matches(regex, $0, statement) } ?? false
        case .peerSubject(let regex):
            (what, actual) = ("peer subject \(regex.description)", session.peerSubject)
            holds = actual.map { matches(regex, $0, statement) } ?? false
        }
        guard holds else {
            throw StepFailure(statement, TLSFailure.assertion(what: what, actual: actual), connection)
        }
        context.record(statement, "\(connection.label): TLS \(what): \(actual ?? "none")")
    }

    private func matches(_ regex: RegexLiteral, _ text: String, _ statement: Statement) -> Bool {
        guard let compiled = try? context.compile(regex, statement) else { return false }
        return (try? compiled.regex.firstMatch(in: text)) != nil
    }
}
