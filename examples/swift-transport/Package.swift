// swift-tools-version: 6.0
// A transport of your own through tcpprobe's line suites: this package's `my-chat` adapts its
// transport (AsyncChannelTransport, written here, adopting `TCPTransport`) to the reference
// protocol with the Transports product's ChatServer and ChatClient. docs/cookbook.md runs it.
import PackageDescription

let package = Package(
    name: "swift-transport",
    dependencies: [
        .package(name: "tcpprobe", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "my-chat",
            dependencies: [
                .product(name: "Transports", package: "tcpprobe"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ]
)
