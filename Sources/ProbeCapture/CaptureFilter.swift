/// What the kernel lets into a capture ring: nothing, the TCP of some ports, or all TCP.
enum CaptureFilter: Equatable {
    case nothing
    case ports(Set<Int>)
    case allTCP

    /// Past this many ports the filter keeps all TCP: each port adds a few BPF instructions,
    /// and the kernel takes at most 4,096.
    static let mostPorts = 64

    /// The filter for the ports that captures watch: nothing for none, all TCP for very many.
    init(watching ports: Set<Int>) {
        self = ports.isEmpty ? .nothing : ports.count > Self.mostPorts ? .allTCP : .ports(ports)
    }

    /// Its libpcap expression (port 0 carries no traffic).
    var expression: String {
        switch self {
        case .nothing: "tcp port 0"
        case .allTCP: "tcp"
        case .ports(let ports): "tcp and (" + ports.sorted().map { "port \($0)" }.joined(separator: " or ") + ")"
        }
    }
}
