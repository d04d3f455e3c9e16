/// `assert wire from peer|probe PROPERTY`.
public struct WireAssertion: Sendable, Hashable {
    public enum Direction: String, Sendable, Hashable, CaseIterable { case peer, probe }

    public enum Property: Sendable, Hashable {
        case terminator(Terminator)
        case linesUnsplit
        case lineInOneSegment(LineMatch)
        case segments(ComparisonOperator, Argument<Int>)
        case maxSegment(ComparisonOperator, Argument<Int>)
        case bytes(ComparisonOperator, Argument<Int>)
        case fin, rst, noFin, noRst
        case zeroWindow
    }

    public var direction: Direction
    public var property: Property

    public init(direction: Direction, property: Property) {
        self.direction = direction
        self.property = property
    }
}

/// `=`, `!=`, `<`, `<=`, `>`, `>=`.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    public func holds(_ lhs: Int, _ rhs: Int) -> Bool {
        switch self {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        case .less: return lhs < rhs
        case .lessOrEqual: return lhs <= rhs
        case .greater: return lhs > rhs
        case .greaterOrEqual: return lhs >= rhs
        }
    }
}
