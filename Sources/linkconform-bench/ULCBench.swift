import Conformance
import Foundation
import LinkURL
import ULC

func benchULC(count: Int) {
    let links = generateLinks(count)
    // Both readers must agree on every generated link, or the comparison means nothing.
    var disagreements = 0
    for link in links {
        let ours = ULC.parse(link)
        let theirs = FoundationExtraction(link)
        if ours.kind != .ulc || !theirs.valid || ours.success?.decoded != theirs.success || ours.error?.decoded != theirs.error {
            disagreements += 1
        }
    }
    let timing = sideBySide({
        var n = 0
        for link in links {
            let parsed = ULC.parse(link)
            if parsed.kind == .ulc, let s = parsed.success?.decoded, let e = parsed.error?.decoded { n &+= s.utf8.count &+ e.utf8.count &+ (parsed.action?.utf8.count ?? 0) }
        }
        return n
    }, {
        var n = 0
        for link in links {
            let x = FoundationExtraction(link)
            if x.valid, let s = x.success, let e = x.error { n &+= s.utf8.count &+ e.utf8.count &+ (x.action?.utf8.count ?? 0) }
        }
        return n
    })
    printComparison("ulc parse: \(links.count) generated links, \(links.reduce(0) { $0 + $1.utf8.count } / links.count) bytes on average, readers disagree on \(disagreements)",
                    ours: "ULC module (parse + every check)", theirs: "Foundation URLComponents extraction", count: links.count, timing, target: "target >= 5x")
}


/// Only the module's loop, many times: for a profiler (`perf record`, `valgrind --tool=callgrind`).
func profileULC(count: Int) {
    let links = generateLinks(count)
    var n = 0
    for _ in 0..<20 { for link in links { n &+= ULC.parse(link).violations.count } }
    print(n)
}

/// Only the Foundation loop, many times: for a profiler.
func profileFoundation(count: Int) {
    let links = generateLinks(count)
    var n = 0
    for _ in 0..<20 { for link in links { n &+= FoundationExtraction(link).valid ? 1 : 0 } }
    print(n)
}
