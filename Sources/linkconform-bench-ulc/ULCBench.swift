import BenchSupport
import Foundation
import LinkURL
import SeededRandom
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
                    ours: "ULC module (parse + every check)", theirs: "Foundation URLComponents extraction", count: links.count, timing, target: "target >= 8x")
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

func generateLinks(_ n: Int) -> [String] {
    var rng = SeededGenerator(seed: 0x5EED)
    let hosts = ["app.example.com", "cisco.webex.com", "appb.company.com", "vocera.example.org", "tc.example.net"]
    let actions = ["/logout", "/signout", "/actions/logout", "/actions/logout?force=1", "/api/v2/session/end?src=ulc&x=1"]
    let callbackHosts = ["locker.groundctl.com", "maps.apple.com", "sampledomain.com", "appa.com"]
    let paths = ["/success", "/error", "/?q=Success%2C%20Arkansas", "/ulc/cb?id=12345&t=abcdef", "/a/b/c/d"]
    return (0..<n).map { _ in
        let action = "https://" + hosts.randomElement(using: &rng)! + actions.randomElement(using: &rng)!
        let success = "https://" + callbackHosts.randomElement(using: &rng)! + paths.randomElement(using: &rng)! + (Bool.random(using: &rng) ? "" : "&n=\(rng.next() % 100_000)")
        let error = "https://" + callbackHosts.randomElement(using: &rng)! + paths.randomElement(using: &rng)!
        return try! ULC.build(action: action, success: success, error: error)
    }
}

/// What a typical app does with Foundation: URLComponents, queryItems, check the callbacks.
struct FoundationExtraction {
    var action: String?
    var success: String?
    var error: String?
    var valid: Bool

    init(_ link: String) {
        guard var components = URLComponents(string: link), components.scheme?.lowercased() == "https",
              components.host?.isEmpty == false, let items = components.queryItems else {
            self.init(action: nil, success: nil, error: nil, valid: false)
            return
        }
        var success: String?, error: String?
        var rest: [URLQueryItem] = []
        for item in items {
            switch item.name {
            case "ulc-success": success = item.value
            case "ulc-error": error = item.value
            default: rest.append(item)
            }
        }
        func isUniversalLink(_ s: String?) -> Bool {
            guard let s, let c = URLComponents(string: s) else { return false }
            return c.scheme?.lowercased() == "https" && c.host?.isEmpty == false && c.user == nil
        }
        components.queryItems = rest.isEmpty ? nil : rest
        self.init(action: components.string, success: success, error: error,
                  valid: success != nil && isUniversalLink(success) && isUniversalLink(error))
    }

    init(action: String?, success: String?, error: String?, valid: Bool) {
        self.action = action
        self.success = success
        self.error = error
        self.valid = valid
    }
}

