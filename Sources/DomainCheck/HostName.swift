/// A domain a live check may be asked about: a DNS host name in its ASCII form, as the
/// platforms' associated-domain entries and URLs carry it.
///
/// Labels of 1 to 63 letters, digits and hyphens (not at either end of a label), separated by
/// dots, at most 253 characters; one trailing dot (the root) is allowed and dropped; letters are
/// lowercased. An international name is given in its IDNA form (`xn--...`): LinkConform does no
/// IDNA conversion, so anything else outside ASCII is refused rather than guessed at, as are
/// percent-escapes, backslashes, controls and empty labels, which a URL reader would decode,
/// rewrite or refuse before DNS ever saw them.
///
/// ```swift
/// HostName.normalized("Example.COM.")       // "example.com"
/// HostName.normalized("xn--bcher-kva.de")   // "xn--bcher-kva.de"
/// HostName.normalized("a%2fb.example")      // nil
/// HostName.normalized("a..b")               // nil
/// ```
public enum HostName {
    public static let maxLength = 253
    public static let maxLabelLength = 63

    /// The name lowercased and without its trailing dot, or nil when it is not a DNS host name.
    public static func normalized(_ text: String) -> String? {
        var name = Substring(text)
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= maxLength else { return nil }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...maxLabelLength).contains(label.utf8.count), label.first != "-", label.last != "-",
                  label.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }) else { return nil }
        }
        return name.lowercased()
    }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
