extension Substring {
    /// Without leading and trailing whitespace as HTTP defines it (RFC 9110 §5.6.3): spaces and
    /// horizontal tabs, nothing else.
    public var trimmingWhitespace: Substring {
        var trimmed = self
        while trimmed.first == " " || trimmed.first == "\t" { trimmed.removeFirst() }
        while trimmed.last == " " || trimmed.last == "\t" { trimmed.removeLast() }
        return trimmed
    }
}
