import NIOCore
import ProbeFraming
import ProbeScript

/// A connection's background rules (`on …`): the rules that take lines or messages before any
/// expect sees them, wherever they stand in what is unread, and answer them; and the
/// heartbeats it sends every so often. They act whenever bytes arrive, while the scenario
/// sleeps or waits on other connections. Touched on the connection's loop only.
final class ReadRules {
    private(set) var rules: [ReadRule] = []
    /// `on every D send …`: the step, its repeated task, and how many it sent.
    private(set) var heartbeats: [(statement: Statement, task: RepeatedTask, sent: Int)] = []

    func add(_ rule: ReadRule) { rules.append(rule) }

    /// Sends `beat` every `interval` on `loop` until the rules end.
    func addHeartbeat(every interval: TimeAmount, on loop: EventLoop, _ statement: Statement, _ beat: @escaping () -> Void) {
        let index = heartbeats.count
        // Made on the loop (the `on` step runs there), and only called there.
        let tick = NIOLoopBound({ [weak self] in
            beat()
            self?.heartbeats[index].sent += 1
        }, eventLoop: loop)
        let task = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in tick.value() }
        heartbeats.append((statement, task, 0))
    }

    /// Ends the heartbeats (the connection closed, or `on off`).
    func stop() {
        for heartbeat in heartbeats { heartbeat.task.cancel() }
    }

    /// Takes from `buffer` every whole line or message a rule matches, and answers it; what no
    /// rule takes stays, in order, with an unfinished one at the end.
    func take(from buffer: inout ByteBuffer) {
        for unit in Set(rules.map(\.framing.unit)).sorted() where buffer.readableBytes > 0 {
            take(unit, from: &buffer)
        }
    }

    /// The first rule of `unit` that takes `payload`, in the order written, with its groups.
    private func firstMatch(_ unit: String, _ payload: [UInt8], head: [UInt8]) -> (rule: Int, captures: [String: [UInt8]])? {
        for index in rules.indices where rules[index].framing.unit == unit {
            if let captures = rules[index].captures(payload, head: head) { return (index, captures) }
        }
        return nil
    }

    private func take(_ unit: String, from buffer: inout ByteBuffer) {
        guard var framing = rules.first(where: { $0.framing.unit == unit })?.framing else { return }
        var scan = buffer
        var kept = ByteBuffer()
        var taken: [(rule: Int, captures: [String: [UInt8]])] = []
        while true {
            let start = scan.readerIndex
            guard case .message(let payload)? = framing.nextMessage(from: &scan, end: nil) else {
                scan.moveReaderIndex(to: start)
                break
            }
            if let match = firstMatch(unit, payload, head: framing.lastHeader?.head ?? []) {
                taken.append(match)
            } else {
                var whole = buffer.getSlice(at: start, length: scan.readerIndex - start)!
                kept.writeBuffer(&whole)
            }
        }
        guard !taken.isEmpty else { return }
        kept.writeBuffer(&scan)
        buffer = kept
        for (index, captures) in taken {
            rules[index].consumed += 1
            guard let answer = rules[index].answer else { continue }
            do {
                try answer(captures)
                rules[index].answered += 1
            } catch {
                if rules[index].problem == nil { rules[index].problem = "\(error)" }
            }
        }
    }
}
