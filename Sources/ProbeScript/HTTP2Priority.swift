/// `depends-on N weight W [exclusive]` (RFC 9113 §6.3; weight as written, 1-256).
package struct HTTP2Priority: Sendable, Hashable, Interpolating {
    package var dependsOn: Argument<Int>
    package var weight: Argument<Int>
    package var exclusive: Bool

    package init(dependsOn: Argument<Int>, weight: Argument<Int>, exclusive: Bool) {
        self.dependsOn = dependsOn
        self.weight = weight
        self.exclusive = exclusive
    }

    package var templates: [Template] { dependsOn.templates + weight.templates }
}
