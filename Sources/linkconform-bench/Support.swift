import Conformance
import Foundation
import LinkURL
import SeededRandom
import ULC


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

/// Times two bodies in alternating rounds (A, B, A, B, ...), so that a burst of noise on this
/// shared machine hits both alike, and returns each one's best round and the median of the
/// per-round ratios B/A, in seconds.
func sideBySide(rounds: Int = 25, _ a: () -> Int, _ b: () -> Int) -> (a: Double, b: Double, medianRatio: Double) {
    func time(_ body: () -> Int) -> Double {
        let start = ContinuousClock.now
        let checksum = body()
        let elapsed = start.duration(to: ContinuousClock.now)
        if checksum == Int.min { print("") }   // keeps the work observable
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    var bestA = Double.infinity, bestB = Double.infinity
    var ratios: [Double] = []
    for _ in 0..<rounds {
        let ta = time(a), tb = time(b)
        bestA = min(bestA, ta)
        bestB = min(bestB, tb)
        ratios.append(tb / ta)
    }
    ratios.sort()
    return (bestA, bestB, ratios[ratios.count / 2])
}

func rate(_ n: Int, _ seconds: Double) -> String {
    String(format: "%10.0f links/s", Double(n) / seconds)
}


/// Prints a side-by-side parsing comparison: rates, best-round ratio and median ratio.
func printComparison(_ title: String, ours: String, theirs: String, count: Int,
                     _ timing: (a: Double, b: Double, medianRatio: Double), target: String = "") {
    print(title)
    print("  \(ours.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rate(count, timing.a))   (best round \(String(format: "%.1f", timing.a * 1e3)) ms)")
    print("  \(theirs.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rate(count, timing.b))   (best round \(String(format: "%.1f", timing.b * 1e3)) ms)")
    print(String(format: "  ratio of best rounds                   %10.1fx   ", timing.b / timing.a) + target)
    print(String(format: "  median of per-round ratios             %10.1fx", timing.medianRatio))
}
