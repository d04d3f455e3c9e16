/// A statement argument that is either known when parsed or interpolated (`{name}`) and so
/// only known at run time, when `Resolver` parses its rendered text.
package struct Argument<Value: Sendable & Hashable>: Sendable, Hashable {
    package enum Form: Sendable, Hashable {
        case literal(Value)
        case interpolated(Template)
    }

    package var form: Form
    package var location: SourceLocation
    /// The argument's text as written, for messages.
    package var text: String

    package init(_ value: Value, text: String, at location: SourceLocation) {
        self.form = .literal(value)
        self.text = text
        self.location = location
    }

    package init(interpolated template: Template, text: String, at location: SourceLocation) {
        self.form = .interpolated(template)
        self.text = text
        self.location = location
    }

    package var literal: Value? {
        if case .literal(let value) = form { return value }
        return nil
    }
}
