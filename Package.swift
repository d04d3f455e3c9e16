// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "tcpprobe",
    // Linux only (Debian here): the runner reads /proc and netlink sock_diag, reaps subjects as
    // a subreaper and spawns through Glibc, and capture opens `lo` with libpcap. SwiftPM cannot
    // name Linux in `platforms`; ProbeRunner/Run/LinuxOnly.swift stops a build anywhere else.
    products: [
        .executable(name: "tcpprobe", targets: ["tcpprobe"]),
        .executable(name: "linechat", targets: ["linechat"]),
        .library(name: "Transports", targets: ["Transports"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // zlib, for HdrHistogram's compressed encoding in a part's report.
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        .target(name: "ProbeScript"),
        .target(name: "CSpawnExtras"),
        // Processes and the OS (spawning, reaping, ports, /proc and netlink): no NIO.
        .target(name: "ProbeHost", dependencies: ["CSpawnExtras"]),
        // What a run found, as the reports read it: no NIO, no runner.
        .target(
            name: "ProbeResults",
            dependencies: ["ProbeScript", .product(name: "Histogram", package: "hdrhistogram-swift"),
                           .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio")]
        ),
        // How a byte stream is cut into messages and a message put on it: one codec for each
        // framing, read by the runner's connections and by the capture's wire checks.
        .target(
            name: "ProbeFraming",
            dependencies: [
                "ProbeScript",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .target(
            name: "ProbeRunner",
            dependencies: [
                "ProbeScript", "ProbeFraming", "ProbeCapture", "ProbeHost", "ProbeResults",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .target(
            name: "ProbeCapture",
            dependencies: [
                "CPcap", "ProbeScript", "ProbeFraming",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .target(
            name: "Transports",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "linechat",
            dependencies: ["Transports", "ProbeFraming", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "NIOHTTP2", package: "swift-nio-http2"), .product(name: "NIOSSL", package: "swift-nio-ssl")]
        ),
        .target(name: "ProbeReport", dependencies: ["ProbeScript", "ProbeResults", "ProbeHost"]),
        // `tcpprobe merge`: the parts of one load split across machines, judged as one.
        .target(name: "ProbeMerge", dependencies: ["ProbeRunner", "ProbeReport", "ProbeResults", "ProbeScript",
                                                  .product(name: "Histogram", package: "hdrhistogram-swift")]),
        // Autobahn|Testsuite's drivers on tcpprobe's WebSocket suites: the `autobahn` commands' work.
        .target(name: "ProbeAutobahn", dependencies: ["ProbeScript", "ProbeRunner", "ProbeReport", "ProbeResults", "ProbeHost"]),
        .target(name: "ProbeH2Spec", dependencies: ["ProbeScript", "ProbeRunner", "ProbeReport", "ProbeResults"]),
        // bench/run's floor for round trips over SwiftNIO (a bench tool, not shipped).
        .executableTarget(
            name: "nio-pingpong",
            dependencies: [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")],
            path: "bench/nio-pingpong"
        ),
        .executableTarget(
            name: "tcpprobe",
            dependencies: [
                "ProbeScript", "ProbeRunner", "ProbeReport", "ProbeCapture", "ProbeHost", "ProbeResults", "ProbeAutobahn", "ProbeH2Spec", "ProbeMerge",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Coordinates the test targets' use of the machine (see MachineShare).
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "ProbeScriptTests", dependencies: ["ProbeScript"]),
        .testTarget(name: "ProbeHostTests", dependencies: ["ProbeHost", "TestSupport"]),
        .testTarget(name: "ProbeResultsTests", dependencies: ["ProbeResults", "ProbeScript", "TestSupport", .product(name: "Histogram", package: "hdrhistogram-swift")]),
        .testTarget(
            name: "ProbeRunnerTests",
            dependencies: [
                "ProbeScript", "ProbeFraming", "ProbeRunner", "ProbeCapture", "ProbeHost", "ProbeResults", "TestSupport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            // Peers: programs the tests spawn as real peers (Python, the standard library only).
            exclude: ["Peers"]
        ),
        .testTarget(name: "ProbeReportTests", dependencies: ["ProbeReport", "ProbeResults", "ProbeScript", "TestSupport"]),
        .testTarget(name: "ProbeFramingTests", dependencies: ["ProbeFraming", "ProbeScript", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio")]),
        .testTarget(name: "ProbeCaptureTests", dependencies: ["ProbeCapture", "ProbeFraming", "ProbeScript", .product(name: "Crypto", package: "swift-crypto"), .product(name: "NIOWebSocket", package: "swift-nio")]),
        .testTarget(
            name: "TransportsTests",
            dependencies: ["Transports", "TestSupport", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        .testTarget(name: "tcpprobeTests", dependencies: ["tcpprobe", "TestSupport"]),
        .testTarget(name: "linechatTests", dependencies: ["linechat"]),
    ],
    swiftLanguageModes: [.v6]
)

// fuzz/run's target for the framing codecs, built only with TCPPROBE_FUZZ=1 (and libFuzzer's
// `--sanitize=fuzzer`, which supplies its main).
if Context.environment["TCPPROBE_FUZZ"] == "1" {
    package.targets.append(.executableTarget(
        name: "fuzz-framing",
        dependencies: ["ProbeFraming", "ProbeScript", .product(name: "NIOCore", package: "swift-nio")],
        path: "fuzz/framing"
    ))
}
