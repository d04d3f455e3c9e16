import NIOCore
import ProbeResults
import ProbeScript

/// A scenario's statements, or one copy of a `parallel` block, run by the event loop rather than
/// as a task: a program counter over the statements and the `repeat`s inside them, which starts
/// each step and goes on when the step completes. A waiting copy holds this state and its
/// connections, not a task's frames (6.5 KiB a copy, bench/HISTORY.md 2a); a round trip costs no
/// task switch (bench/HISTORY.md 1). Steps with no event-loop form run as tasks while they last.
/// It lives on the run's event loop: steps start there and end through callbacks there, which
/// reach it through `NIOLoopBound`.
final class StepMachine {
    /// Where the machine reports its end.
    enum Ending {
        /// The scenario's own statements: the run goes on with what is left after them.
        case scenario(EventLoopPromise<Void>)
        /// A copy of a `parallel` block: the copy ends (see `endCopy`) and tells the block.
        case copy(of: ParallelTally)
    }

    /// Where the machine stands in one block: the block itself, or a turn of a `repeat` in it.
    private struct Position {
        let body: [Statement]
        var next = 0
        var turn = 0
        let turns: Int
        /// `{i}` outside it, restored when it ends.
        let outerTurn: Int?
        /// A `repeat … until closed`: the statement, whose block ends when the peer closes.
        var untilClosed: Statement?
        /// A `non-strict` block: the statement, whose block a step not met ends with a note.
        var nonStrict: Statement?
    }

    /// How many steps that end as they start (a write the socket takes at once, an expect the
    /// bytes already received decide) the machine runs on in one turn of the loop before it
    /// yields the loop to the other copies and timers.
    static let stepsInOneTurn = 64

    private let execution: ScenarioExecution
    private let ending: Ending
    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    @exclusivity(unchecked) private var positions: [Position]
    /// A `repeat … until closed` whose turns ran out: the machine waits for the peer's close.
    @exclusivity(unchecked) private var awaitingClose: Statement?
    /// Set while a step starts; a step that ends before it has started is gone on from there,
    /// without a turn of the loop of its own.
    @exclusivity(unchecked) private var starting = false
    @exclusivity(unchecked) private var endedWhileStarting = false
    /// What each step calls when it ends, and what goes on in a turn of the loop of its own:
    /// made once a machine, not once a step (each closure a step made was an allocation). They
    /// hold the machine until it ends, which lets them go.
    @exclusivity(unchecked) private var stepDone: StepDone?
    @exclusivity(unchecked) private var goOn: (@Sendable () -> Void)?

    /// Runs `body` in `execution`, then reports to `ending`; call `advance` on the run's loop.
    init(_ execution: ScenarioExecution, running body: [Statement], then ending: Ending) {
        self.execution = execution
        self.ending = ending
        positions = [Position(body: body, turns: 1, outerTurn: execution.repeatTurn)]
        positions.reserveCapacity(2)
    }

    /// Runs the steps up to the first that must wait; when it completes, the machine goes on in
    /// a turn of the loop of its own, as a task would: ten thousand copies take turns, and none
    /// runs its steps on inside another's read. A step that ends as it starts is gone on from
    /// at once, up to `stepsInOneTurn` in a row.
    func advance() {
        // Not `stepDone ?? {…}`: through the generic `??` a closure comes back in a new thunk.
        let stepDone: StepDone
        if let made = self.stepDone {
            stepDone = made
        } else {
            let machine = NIOLoopBound(self, eventLoop: execution.loop)
            stepDone = { problem in
                let machine = machine.value
                if let problem { machine.failed(problem) } else if machine.starting { machine.endedWhileStarting = true } else { machine.goOnInATurnOfItsOwn() }
            }
            self.stepDone = stepDone
        }
        var endedAtOnce = 0
        do {
            while let statement = try nextStatement() {
                guard execution.nanosecondsLeft(at: execution.clock.now) > 0 else { throw execution.deadlinePassed(before: statement) }
                execution.announce(statement)
                if case .repeatBlock(let count, let body, let untilClosed) = statement.kind {
                    try enter(body, turns: try execution.repeatTimes(count), untilClosed: untilClosed ? statement : nil)
                    continue
                }
                if case .nonStrict(let body, _) = statement.kind {
                    if !body.isEmpty { positions.append(Position(body: body, turns: 1, outerTurn: execution.repeatTurn, nonStrict: statement)) }
                    continue
                }
                starting = true
                let waits = try execution.stepOnLoop(statement, done: stepDone)
                starting = false
                if waits {
                    guard endedWhileStarting else { return }
                    endedWhileStarting = false
                    endedAtOnce += 1
                    if endedAtOnce == Self.stepsInOneTurn { return goOnInATurnOfItsOwn() }
                }
            }
            if let block = awaitingClose {
                awaitingClose = nil
                let (execution, machine) = (execution, NIOLoopBound(self, eventLoop: execution.loop))
                execution.onTask { try await execution.waitForClose(in: block) }.tell { problem in
                    if let problem { machine.value.failed(problem) } else { machine.value.goOnInATurnOfItsOwn() }
                }
                return
            }
        } catch {
            starting = false
            return failed(error)
        }
        end(nil)
    }

    private func goOnInATurnOfItsOwn() {
        if let goOn { return execution.loop.execute(goOn) }
        let made: @Sendable () -> Void = { [machine = NIOLoopBound(self, eventLoop: execution.loop)] in machine.value.advance() }
        goOn = made
        execution.loop.execute(made)
    }

    /// A step not met inside a `non-strict` block ends that block with a note, and the machine
    /// goes on after it; inside a `skip … unless` block it ends the machine, skipped; anything
    /// else, or outside one, ends the machine.
    private func failed(_ problem: Error) {
        guard let failure = problem as? StepFailure, failure.kind == .assertion,
              let index = positions.lastIndex(where: { $0.nonStrict != nil }), let block = positions[index].nonStrict else { return end(problem) }
        if case .nonStrict(_, let reason?) = block.kind { return end(execution.skipping(block, reason: reason, failure)) }
        execution.repeatTurn = positions[index].outerTurn
        positions.removeSubrange(index...)
        awaitingClose = nil
        execution.noteNonStrict(block, failure)
        goOnInATurnOfItsOwn()
    }

    /// A `repeat`'s first turn, with `{i}` at 0.
    private func enter(_ body: [Statement], turns: Int, untilClosed: Statement?) throws {
        guard !body.isEmpty else { return }
        guard turns > 0 else {
            awaitingClose = untilClosed
            return
        }
        positions.append(Position(body: body, turns: turns, outerTurn: execution.repeatTurn, untilClosed: untilClosed))
        execution.repeatTurn = 0
    }

    /// The next statement to run, through the turns of `repeat`s; nil when the block is done,
    /// or when a `repeat … until closed` ran out of turns and the machine must wait for the
    /// peer's close (`awaitingClose`). Such a repeat ends at the first step boundary after its
    /// peer closed.
    private func nextStatement() throws -> Statement? {
        // The top position is read in place: a copy of it would retain its body and statements.
        while !positions.isEmpty {
            let top = positions.count - 1
            if let untilClosed = positions[top].untilClosed, execution.peerHasClosed(in: untilClosed) {
                execution.noteClosed(untilClosed, afterTurns: positions[top].turn + (positions[top].next > 0 ? 1 : 0))
                execution.repeatTurn = positions.removeLast().outerTurn
                continue
            }
            let next = positions[top].next
            if next < positions[top].body.count {
                positions[top].next = next + 1
                return positions[top].body[next]
            }
            if positions[top].turn + 1 < positions[top].turns {
                positions[top].turn += 1
                positions[top].next = 0
                execution.repeatTurn = positions[top].turn
                continue
            }
            let ended = positions.removeLast()
            execution.repeatTurn = ended.outerTurn
            if let untilClosed = ended.untilClosed {
                awaitingClose = untilClosed
                return nil
            }
        }
        return nil
    }

    private func end(_ problem: Error?) {
        (stepDone, goOn) = (nil, nil)
        switch ending {
        case .scenario(let done):
            if let problem { done.fail(problem) } else { done.succeed() }
        case .copy(let tally):
            let copy = execution.copyIndex ?? 0
            execution.endCopy(after: problem, of: tally).assumeIsolated().whenSuccess { tally.ended(copy: copy, failure: $0) }
        }
    }
}
