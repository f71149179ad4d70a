/// What `linkconform check` is asked about: one link (its bytes as given), or a document with
/// the questions asked of it. Every suite's explainer receives the subject and answers only for
/// the kinds it reads (a link suite ignores documents, a document suite ignores links).
///
/// ```swift
/// let subject = CheckSubject.link(Array("myapp://x-callback-url/open?x-success=b%3A%2F%2Fdone".utf8))
/// let report = Check.explain(subject)
/// report.verdict.valid   // true
/// ```
public enum CheckSubject: Sendable {
    /// A link, as raw bytes (invalid UTF-8 and oversized links included).
    case link([UInt8])
    /// A document (an association file, say) with the parameters and URLs asked of it.
    case document(CheckDocument)

    /// The link's bytes, when the subject is a link.
    public var link: [UInt8]? {
        if case .link(let bytes) = self { return bytes }
        return nil
    }

    /// The document, when the subject is one.
    public var document: CheckDocument? {
        if case .document(let document) = self { return document }
        return nil
    }
}
