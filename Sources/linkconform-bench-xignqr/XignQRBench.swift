import BenchSupport
import Foundation
import SeededRandom
import XignQR

/// XignSys links: the redirect check next to a Foundation URLComponents extraction of the same
/// fields, and the full pid decoder next to Foundation's `Data(base64Encoded:)` on the same pids.
/// The pid decoder does more (repairs, protocol-buffers fields); the figures say how much that
/// costs.
func benchXignQR(count: Int) {
    let (links, pids) = generateXignLinks(count)
    var disagreements = 0
    for link in links {
        let ours = XignQR.redirect(link)
        let theirs = FoundationXignExtraction(link)
        if ours.process?.rawValue != theirs.process || ours.pid != theirs.pid || ours.sourceURL != theirs.sourceURL { disagreements += 1 }
    }
    let redirect = sideBySide({
        var n = 0
        for link in links {
            let r = XignQR.redirect(link)
            n &+= (r.pid?.utf8.count ?? 0) &+ (r.sourceURL?.utf8.count ?? 0) &+ (r.process == nil ? 0 : 1)
        }
        return n
    }, {
        var n = 0
        for link in links {
            let x = FoundationXignExtraction(link)
            n &+= (x.pid?.utf8.count ?? 0) &+ (x.sourceURL?.utf8.count ?? 0) &+ (x.process == nil ? 0 : 1)
        }
        return n
    })
    printComparison("xignqr redirect: \(links.count) generated deep and app links, \(links.reduce(0) { $0 + $1.utf8.count } / links.count) bytes on average, readers disagree on \(disagreements)",
                    ours: "XignQR.redirect", theirs: "Foundation URLComponents extraction", count: links.count, redirect)
    var failures = 0
    for pid in pids where (try? XignQR.decodePID(pid)) == nil || Data(base64Encoded: pid) == nil { failures += 1 }
    let base64 = sideBySide({
        var n = 0
        for pid in pids { n &+= (try? PIDBase64.decode(pid))?.bytes.count ?? 0 }
        return n
    }, {
        var n = 0
        for pid in pids { n &+= Data(base64Encoded: pid)?.count ?? 0 }
        return n
    })
    printComparison("xignqr pid base64: the same pids, base64 only",
                    ours: "PIDBase64.decode (strict, repairs)", theirs: "Foundation Data(base64Encoded:)", count: pids.count, base64, target: "")
    let decode = sideBySide({
        var n = 0
        for pid in pids { n &+= ((try? XignQR.decodePID(pid))?.fields.count ?? 0) }
        return n
    }, {
        var n = 0
        for pid in pids { n &+= Data(base64Encoded: pid)?.count ?? 0 }
        return n
    })
    printComparison("xignqr pid: \(pids.count) pids, \(pids.reduce(0) { $0 + $1.utf8.count } / pids.count) characters on average, \(failures) not decoded by one side",
                    ours: "XignQR.decodePID (base64 + fields)", theirs: "Foundation Data(base64Encoded:)", count: pids.count, decode, target: "(the pid decoder also reads the fields)")
}

/// Realistic pids (field 1 of three bytes, a nested message with a URL, a nonce, a timestamp,
/// fixed values) in deep links and app links.
func generateXignLinks(_ n: Int) -> (links: [String], pids: [String]) {
    var rng = SeededGenerator(seed: 0x1D)
    func varint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }
    func len(_ field: UInt64, _ payload: [UInt8], _ out: inout [UInt8]) {
        varint(field << 3 | 2, &out); varint(UInt64(payload.count), &out); out += payload
    }
    var links: [String] = [], pids: [String] = []
    for i in 0..<n {
        var message: [UInt8] = []
        len(1, (0..<3).map { _ in UInt8.random(in: 0...255, using: &rng) }, &message)
        var inner: [UInt8] = []
        len(1, Array("https://xign.me/api/v\(i % 3)/session/\(rng.next() % 1_000_000)".utf8), &inner)
        varint(2 << 3, &inner); varint(UInt64.random(in: 0...1_000, using: &rng), &inner)
        len(2, inner, &message)
        len(3, (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }, &message)
        varint(4 << 3, &message); varint(1_700_000_000_000 + rng.next() % 100_000_000, &message)
        varint(5 << 3 | 1, &message); message += (0..<8).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let pid = Data(message).base64EncodedString()
        pids.append(pid)
        let encoded = pid.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "=", with: "%3D")
        let process = ["authentication", "personalization"][i % 2]
        links.append(i % 3 == 0
            ? "https://xign.me/in-app/process/init?action=\(process)&pid=\(encoded)"
            : "xignqr://\(process)?pid=\(encoded)&browser=\(i % 4)&source-url=https%3A%2F%2Fxign.me%2Flogin%23xin-browser%3D\(i % 4)")
    }
    return (links, pids)
}

/// What a typical app does with Foundation: URLComponents, the scheme or host, queryItems.
struct FoundationXignExtraction {
    var process: String?
    var pid: String?
    var sourceURL: String?

    init(_ link: String) {
        guard let c = URLComponents(string: link), let scheme = c.scheme else { return }
        let items = c.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        if scheme == "xignqr" {
            process = c.host
        } else if scheme == "https", c.host == "xign.me", c.path == "/in-app/process/init" {
            process = value("action")
        } else {
            return
        }
        pid = value("pid")
        sourceURL = value("source-url")
    }
}

/// Only the pid decoder, many times: for a profiler.
func profileXignPID(count: Int) {
    let (_, pids) = generateXignLinks(count)
    var n = 0
    for _ in 0..<20 { for pid in pids { n &+= (try? XignQR.decodePID(pid))?.fields.count ?? 0 } }
    print(n)
}
