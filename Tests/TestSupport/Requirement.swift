import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Something a test needs from the machine: a tool, a Python module, or root (for capture).
/// Where it is missing the test is skipped, and says why and how to get it; under CI (where
/// `.ci/deps` installs everything and the tests run as root) a missing one fails the test, so
/// a machine without it cannot pass tests it never ran.
public struct Requirement: TestTrait, SuiteTrait, TestScoping, Sendable {
    /// What is needed, as the message names it.
    public let name: String
    /// How to get it.
    public let remedy: String
    /// Where it is found; nil when missing.
    public let path: String?

    public var isRecursive: Bool { true }

    /// True when `CI` is set to anything but empty, `0` or `false`, as GitHub, GitLab and most CI systems set it.
    public static var underCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false"].contains(value)
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // A suite's trait reaches each of its tests; only the tests themselves are judged.
        guard !test.isSuite else { return try await function() }
        if path != nil { return try await function() }
        if Self.underCI {
            Issue.record("\(name) is missing, and CI is set: \(remedy) (.ci/deps installs it)")
            return
        }
        try Test.cancel("skipped: \(name) is missing (\(remedy))")
    }

    /// The first of `paths` that is an executable file.
    static func executable(_ name: String, _ paths: [String], remedy: String) -> Requirement {
        Requirement(name: name, remedy: remedy, path: paths.first(where: FileManager.default.isExecutableFile(atPath:)))
    }
}

extension Trait where Self == Requirement {
    public static var tshark: Self { .executable("tshark", ["/usr/bin/tshark", "/usr/local/bin/tshark"], remedy: "apt-get install tshark") }
    public static var chromium: Self {
        .executable("chromium", ["/usr/bin/chromium", "/usr/bin/chromium-browser"], remedy: "apt-get install chromium")
    }
    public static var xmllint: Self { .executable("xmllint", ["/usr/bin/xmllint"], remedy: "apt-get install libxml2-utils") }
    public static var curl: Self { .executable("curl", ["/usr/bin/curl"], remedy: "apt-get install curl") }
    public static var openssl: Self { .executable("openssl", ["/usr/bin/openssl"], remedy: "apt-get install openssl") }
    public static var nginx: Self { .executable("nginx", ["/usr/sbin/nginx", "/usr/local/sbin/nginx"], remedy: "apt-get install nginx") }
    public static var postfix: Self { .executable("postfix", ["/usr/sbin/postfix"], remedy: "apt-get install postfix") }
    public static var ngircd: Self { .executable("ngircd", ["/usr/sbin/ngircd"], remedy: "apt-get install ngircd") }
    public static var natsServer: Self { .executable("nats-server", ["/usr/sbin/nats-server", "/usr/bin/nats-server"], remedy: "apt-get install nats-server") }
    public static var mosquitto: Self { .executable("mosquitto", ["/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"], remedy: "apt-get install mosquitto") }
    /// Debian's PostgreSQL server, whose binaries are in /usr/lib/postgresql/VERSION/bin.
    public static var postgres: Self {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted { $0.compare($1, options: .numeric) == .orderedDescending }
        return .executable("postgres", versions.map { "/usr/lib/postgresql/\($0)/bin/postgres" }, remedy: "apt-get install postgresql")
    }
    /// nghttp2's HTTP/2 server.
    public static var nghttpd: Self { .executable("nghttpd", ["/usr/sbin/nghttpd", "/usr/bin/nghttpd"], remedy: "apt-get install nghttp2-server") }
    public static var nghttp: Self { .executable("nghttp", ["/usr/bin/nghttp"], remedy: "apt-get install nghttp2-client") }
    public static var haproxy: Self { .executable("haproxy", ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"], remedy: "apt-get install haproxy") }
    public static var tcpdump: Self { .executable("tcpdump", ["/usr/bin/tcpdump", "/usr/sbin/tcpdump"], remedy: "apt-get install tcpdump") }
    public static var memcached: Self { .executable("memcached", ["/usr/bin/memcached"], remedy: "apt-get install memcached") }
    /// redis-server and redis-cli, a real server and client.
    public static var redis: Self {
        .executable("redis-cli", ["/usr/bin/redis-cli"], remedy: "apt-get install redis-server redis-tools")
    }
    public static var setpriv: Self { .executable("setpriv", ["/usr/bin/setpriv"], remedy: "apt-get install util-linux") }
    /// unshare, to run a command in a network namespace of its own (as root).
    public static var unshare: Self { .executable("unshare", ["/usr/bin/unshare"], remedy: "apt-get install util-linux") }
    /// script, to run a command on a pseudo-terminal.
    public static var script: Self { .executable("script", ["/usr/bin/script"], remedy: "apt-get install bsdutils") }
    /// ip, to bring up a new network namespace's loopback.
    public static var ip: Self { .executable("ip", ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"], remedy: "apt-get install iproute2") }
    /// The TUN driver, for a scenario's `network` (its link's two devices).
    public static var tun: Self {
        Requirement(name: "/dev/net/tun", remedy: "mkdir -p /dev/net && mknod /dev/net/tun c 10 200 (in a container: --device /dev/net/tun)",
                    path: FileManager.default.fileExists(atPath: "/dev/net/tun") ? "/dev/net/tun" : nil)
    }
    /// Root, for live capture (CAP_NET_RAW) and for dropping privileges in tests.
    public static var root: Self {
        Requirement(name: "root", remedy: "capturing needs CAP_NET_RAW: run the tests as root", path: geteuid() == 0 ? "/" : nil)
    }
    /// A command found on PATH (pip installs into the interpreter's own bin folder).
    public static func onPath(_ name: String, remedy: String) -> Self {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return .executable(name, folders.map { "\($0)/\(name)" }, remedy: remedy)
    }

    /// Python's websockets library.
    public static var websockets: Self { .pythonModule("websockets", remedy: "pip install websockets") }

    /// Python's jsonschema module.
    public static var jsonschema: Self { .pythonModule("jsonschema", remedy: "pip install jsonschema") }
    /// HdrHistogram's Python implementation (module `hdrh`), which reads and writes its encoding.
    public static var hdrhistogram: Self { .pythonModule("hdrh", remedy: "pip install hdrhistogram") }

    /// HdrHistogram's Java implementation (its `HistogramLogProcessor`) and a Java to run it.
    public static var hdrhistogramJava: Self {
        let jar = "/usr/share/java/hdrhistogram.jar"
        let found = FileManager.default.isExecutableFile(atPath: "/usr/bin/java") && FileManager.default.fileExists(atPath: jar)
        return Requirement(name: "HdrHistogram's Java implementation", remedy: "apt-get install default-jre-headless libhdrhistogram-java",
                           path: found ? jar : nil)
    }

    /// A module python3 imports.
    static func pythonModule(_ module: String, remedy: String) -> Self {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let found = (try? process.run()).map { process.waitUntilExit(); return process.terminationStatus == 0 } ?? false
        return Requirement(name: "python3's \(module) module", remedy: remedy, path: found ? "python3" : nil)
    }
}
