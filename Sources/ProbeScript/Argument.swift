/// A statement argument that is either known when parsed or interpolated (`{name}`) and so
/// only known at run time, when `Resolver` parses its rendered text.
public struct Argument<Value: Sendable & Hashable>: Sendable, Hashable {
    public enum Form: Sendable, Hashable {
        case literal(Value)
        case interpolated(Template)
    }

    public var form: Form
    public var location: SourceLocation
    /// The argument's text as written, for messages.
    public var text: String

    public init(_ value: Value, text: String, at location: SourceLocation) {
        self.form = .literal(value)
        self.text = text
        self.location = location
    }

    public init(interpolated template: Template, text: String, at location: SourceLocation) {
        self.form = .interpolated(template)
        self.text = text
        self.location = location
    }

    public var literal: Value? {
        if case .literal(let value) = form { return value }
        return nil
    }
}
