/// A header field to send, `"name"="value"`.
package struct HTTP2Field: Sendable, Hashable {
    package var name: Template
    package var value: Template

    package init(name: Template, value: Template) {
        self.name = name
        self.value = value
    }
}
