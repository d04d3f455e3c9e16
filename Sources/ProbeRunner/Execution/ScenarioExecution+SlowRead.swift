import NIOCore
import ProbeFraming
import ProbeResults
import ProbeScript

/// The `read slowly` executor: a slowloris reader that keeps the peer's window nearly shut.
extension ScenarioExecution {
    func readSlowly(_ read: SlowRead, _ statement: Statement) async throws {
        let connection = try target(statement)
        let bytes = try resolve(read.bytesPerRead, "a size", Quantity.size)
        let interval = try resolve(read.interval, "a duration", Quantity.duration)
        guard bytes > 0, interval > .zero else { throw StepFailure(statement, ConnectionFailure.slowReadArguments) }
        var total: Int?
        var duration: Duration?
        switch read.stop {
        case .after(let value): duration = try resolve(value, "a duration", Quantity.duration)
        case .total(let value): total = try resolve(value, "a size", Quantity.size)
        case .eof: break
        }
        let wasPaused = try await connection.onLoop { $0.isPaused }
        let before = try await connection.onLoop { $0.recent.total }
        try await connection.onLoop { try $0.beginSlowRead(bytes: bytes) }
        let started = clock.now
        var reads = 0
        var ended: InboundEnd?
        do {
            while true {
                let (received, end) = try await connection.onLoop { ($0.recent.total - before, $0.end) }
                ended = end
                if let total, received >= total { break }
                if let duration, clock.now - started >= duration { break }
                if end != nil { break }
                try await connection.onLoop { $0.readOnce() }
                reads += 1
                let due = started + interval * reads
                try await sleep(until: due, statement)
            }
        } catch {
            try? await connection.onLoop { try $0.endSlowRead(paused: wasPaused) }
            throw error
        }
        try await connection.onLoop { try $0.endSlowRead(paused: wasPaused) }
        let received = try await connection.onLoop { $0.recent.total } - before
        if case .eof = read.stop, ended == nil {
            throw StepFailure(statement, ConnectionFailure.slowReadNoClose, connection)
        }
        let ending = ended.map { "; \($0)" } ?? ""
        record(statement, "\(connection.label): read slowly \(received.counted("byte")) in \(reads.counted("read")) of at most \(bytes) over \(format(clock.now - started))\(ending)")
    }
}
