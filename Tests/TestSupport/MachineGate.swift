/// A first-come, first-served readers-writer gate over the test machine's two cores: tests that
/// load the machine pass it together, a test that measures time passes it alone.
actor MachineGate {
    static let shared = MachineGate()

    private var sharers = 0
    private var alone = false
    private var waiting: [(exclusive: Bool, resume: CheckedContinuation<Void, Never>)] = []

    func enter(exclusive: Bool) async {
        if waiting.isEmpty, canEnter(exclusive: exclusive) {
            admit(exclusive: exclusive)
            return
        }
        await withCheckedContinuation { waiting.append((exclusive, $0)) }
    }

    func leave(exclusive: Bool) {
        if exclusive { alone = false } else { sharers -= 1 }
        // In order of arrival: a test waiting to be alone holds back the sharers behind it.
        while let next = waiting.first, canEnter(exclusive: next.exclusive) {
            waiting.removeFirst()
            admit(exclusive: next.exclusive)
            next.resume.resume()
        }
    }

    private func canEnter(exclusive: Bool) -> Bool {
        exclusive ? !alone && sharers == 0 : !alone
    }

    private func admit(exclusive: Bool) {
        if exclusive { alone = true } else { sharers += 1 }
    }
}
