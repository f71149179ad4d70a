import BenchSupport
import Foundation
import LinkURL
import SeededRandom
import XCallbackURL

/// x-callback-url parsing: the XCallbackURL module next to a Foundation extraction of the same
/// fields (action, x-source, the three callbacks decoded and checked, the action parameters).
func benchXCallback(count: Int) {
    let urls = generateXCallbackURLs(count)
    var disagreements = 0
    for url in urls {
        let ours = XCallback.parse(url)
        let theirs = FoundationXCallbackExtraction(url)
        if ours.kind != .xcallback || !theirs.valid || ours.action != theirs.action || ours.source != theirs.source
            || ours.success?.decoded != theirs.success || ours.error?.decoded != theirs.error || ours.cancel?.decoded != theirs.cancel
            || ours.parameters != theirs.parameters {
            disagreements += 1
        }
    }
    let timing = sideBySide({
        var n = 0
        for url in urls {
            let link = XCallback.parse(url)
            guard link.kind == .xcallback else { continue }
            n &+= (link.action?.utf8.count ?? 0) &+ (link.source?.utf8.count ?? 0) &+ (link.success?.decoded?.utf8.count ?? 0)
            n &+= (link.error?.decoded?.utf8.count ?? 0) &+ (link.cancel?.decoded?.utf8.count ?? 0) &+ link.parameters.count
        }
        return n
    }, {
        var n = 0
        for url in urls {
            let x = FoundationXCallbackExtraction(url)
            guard x.valid else { continue }
            n &+= (x.action?.utf8.count ?? 0) &+ (x.source?.utf8.count ?? 0) &+ (x.success?.utf8.count ?? 0)
            n &+= (x.error?.utf8.count ?? 0) &+ (x.cancel?.utf8.count ?? 0) &+ x.parameters.count
        }
        return n
    })
    printComparison("xcallback parse: \(urls.count) generated URLs, \(urls.reduce(0) { $0 + $1.utf8.count } / urls.count) bytes on average, readers disagree on \(disagreements)",
                    ours: "XCallbackURL module (parse + checks)", theirs: "Foundation URLComponents extraction", count: urls.count, timing, target: "target >= 5x")
}

/// Only the module's loop, many times: for a profiler.
func profileXCallback(count: Int) {
    let urls = generateXCallbackURLs(count)
    var n = 0
    for _ in 0..<20 { for url in urls { let link = XCallback.parse(url); n &+= link.violations.count &+ link.parameters.count } }
    print(n)
}

func generateXCallbackURLs(_ n: Int) -> [String] {
    var rng = SeededGenerator(seed: 0xC0FFEE)
    let schemes = ["drafts", "bear", "shortcuts", "omnifocus", "things3", "myapp"]
    let actions = ["create", "open-note", "run-shortcut", "add", "search", "note/append"]
    let sources = ["Drafts", "My App", "Launch Center Pro", "Workflow"]
    let callbacks = ["myapp://x-callback-url/done", "source://result?id=42", "https://example.com/cb/success", "launch://",
                     "myapp://x-callback-url/handle?from=drafts&state=a1b2c3"]
    let names = ["text", "title", "id", "tags", "name", "input", "token"]
    let values = ["Hello World", "Grocery list: eggs, milk", "42", "work,home", "a+b=c&d", "ZGF0YQ==", "café au lait"]
    return (0..<n).map { _ in
        let parameters = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            XCallbackItem(name: names.randomElement(using: &rng)!, value: values.randomElement(using: &rng)!)
        }
        let request = XCallbackRequest(scheme: schemes.randomElement(using: &rng)!, action: actions.randomElement(using: &rng)!,
                                       source: Bool.random(using: &rng) ? sources.randomElement(using: &rng)! : nil,
                                       success: callbacks.randomElement(using: &rng)!, error: callbacks.randomElement(using: &rng)!,
                                       cancel: Bool.random(using: &rng) ? callbacks.randomElement(using: &rng)! : nil,
                                       parameters: parameters)
        return try! XCallback.build(request)
    }
}

/// What a typical app does with Foundation: URLComponents, the host, the path as the action,
/// queryItems for the x- parameters and the rest, and each callback read back as a URL.
struct FoundationXCallbackExtraction {
    var action: String?
    var source: String?
    var success: String?
    var error: String?
    var cancel: String?
    var parameters: [XCallbackItem] = []
    var valid = false

    init(_ url: String) {
        guard let components = URLComponents(string: url), components.scheme != nil,
              components.host?.lowercased() == "x-callback-url" else { return }
        action = String(components.path.dropFirst())
        for item in components.queryItems ?? [] {
            switch item.name {
            case "x-source": source = item.value
            case "x-success": success = item.value
            case "x-error": error = item.value
            case "x-cancel": cancel = item.value
            default: parameters.append(XCallbackItem(name: item.name, value: item.value))
            }
        }
        func isURL(_ s: String?) -> Bool {
            guard let s else { return true }
            guard let c = URLComponents(string: s) else { return false }
            return c.scheme != nil && c.user == nil
        }
        valid = !(action ?? "").isEmpty && isURL(success) && isURL(error) && isURL(cancel)
    }
}
