// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "tcpprobe",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tcpprobe", targets: ["tcpprobe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "ProbeScript"),
        .target(
            name: "ProbeRunner",
            dependencies: [
                "ProbeScript",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(name: "ProbeReport", dependencies: ["ProbeScript", "ProbeRunner"]),
        .executableTarget(
            name: "tcpprobe",
            dependencies: [
                "ProbeScript", "ProbeRunner", "ProbeReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ProbeScriptTests", dependencies: ["ProbeScript"]),
        .testTarget(
            name: "ProbeRunnerTests",
            dependencies: [
                "ProbeScript", "ProbeRunner",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "tcpprobeTests", dependencies: ["tcpprobe"]),
    ],
    swiftLanguageModes: [.v5]
)
