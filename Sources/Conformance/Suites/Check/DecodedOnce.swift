import LinkURL

/// Text percent-decoded exactly once (invalid UTF-8 replaced by U+FFFD; `+` kept): the
/// `decoded` column of every `check` field.
///
/// ```swift
/// decodedOnce("https%3A%2F%2Fa.example%2F%253F")   // "https://a.example/%3F"
/// ```
func decodedOnce(_ text: String) -> String {
    let bytes = Array(text.utf8)
    return PercentCodec.decodedText(bytes, in: 0..<bytes.count)
}
