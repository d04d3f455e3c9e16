/// `header "NAME"="VALUE"` or `header "NAME"=/RE/`: a decoded header field the frame must have.
package struct HTTP2FieldMatch: Sendable, Hashable {
    package var name: Template
    package var value: LineMatch

    package init(name: Template, value: LineMatch) {
        self.name = name
        self.value = value
    }

    package var templates: [Template] { [name] + value.templates }
}
