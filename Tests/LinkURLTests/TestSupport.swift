import SeededRandom
import LinkURL


extension SeededGenerator {
    /// Random bytes of random length, each drawn from `alphabet`.
    mutating func bytes(from alphabet: [UInt8], maxLength: Int) -> [UInt8] {
        let count = Int.random(in: 0...maxLength, using: &self)
        return (0..<count).map { _ in alphabet.randomElement(using: &self)! }
    }

    /// Random bytes of random length, any value.
    mutating func anyBytes(maxLength: Int) -> [UInt8] {
        let count = Int.random(in: 0...maxLength, using: &self)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// The text of every component of a split, for comparing a whole split at once.
struct Split: Equatable, CustomStringConvertible {
    var scheme: String? = nil
    var authority: String? = nil
    var userinfo: String? = nil
    var host: String? = nil
    var port: String? = nil
    var path: String = ""
    var query: String? = nil
    var fragment: String? = nil

    var description: String {
        "scheme=\(scheme.debugDescription) authority=\(authority.debugDescription) userinfo=\(userinfo.debugDescription) "
            + "host=\(host.debugDescription) port=\(port.debugDescription) path=\(path.debugDescription) "
            + "query=\(query.debugDescription) fragment=\(fragment.debugDescription)"
    }
}

func split(_ text: String) -> Split {
    let url = LinkURL(parsing: text)
    return Split(
        scheme: url.text(of: .scheme),
        authority: url.authority.map(url.text(in:)),
        userinfo: url.text(of: .userinfo),
        host: url.text(of: .host),
        port: url.text(of: .port),
        path: url.text(of: .path) ?? "<nil>",
        query: url.text(of: .query),
        fragment: url.text(of: .fragment))
}

func diag(_ code: URLDiagnostic.Code, _ offset: Int, _ component: URLComponent?) -> URLDiagnostic {
    URLDiagnostic(code: code, offset: offset, component: component)
}

/// The five-part split of RFC 3986 appendix B, written out from its regular expression
/// `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?` as an independent oracle.
struct AppendixBSplit: Equatable {
    var scheme: Range<Int>?
    var authority: Range<Int>?
    var path: Range<Int>
    var query: Range<Int>?
    var fragment: Range<Int>?

    init(_ b: [UInt8]) {
        let n = b.count
        func isOneOf(_ c: UInt8, _ set: String) -> Bool { set.utf8.contains(c) }
        var i = 0
        // (([^:/?#]+):)?
        var k = 0
        while k < n, !isOneOf(b[k], ":/?#") { k += 1 }
        if k > 0, k < n, b[k] == UInt8(ascii: ":") {
            scheme = 0..<k
            i = k + 1
        } else {
            scheme = nil
        }
        // (//([^/?#]*))?
        if i + 1 < n, b[i] == UInt8(ascii: "/"), b[i + 1] == UInt8(ascii: "/") {
            var e = i + 2
            while e < n, !isOneOf(b[e], "/?#") { e += 1 }
            authority = (i + 2)..<e
            i = e
        } else {
            authority = nil
        }
        // ([^?#]*)
        var e = i
        while e < n, !isOneOf(b[e], "?#") { e += 1 }
        path = i..<e
        i = e
        // (\?([^#]*))?
        if i < n, b[i] == UInt8(ascii: "?") {
            e = i + 1
            while e < n, b[e] != UInt8(ascii: "#") { e += 1 }
            query = (i + 1)..<e
            i = e
        } else {
            query = nil
        }
        // (#(.*))?
        fragment = i < n && b[i] == UInt8(ascii: "#") ? (i + 1)..<n : nil
    }
}
