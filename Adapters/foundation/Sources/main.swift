// ULC, x-callback-url and XignSys links the way a typical iOS app handles them: Foundation's
// URLComponents and queryItems, nothing else.
// The same logic as Adapters/python-common/typical_app.py, on Foundation:
// - parse: read the link's queryItems, take the first ulc-success and ulc-error, and accept a
//   callback when URLComponents reads it with scheme "https" and a host;
// - build: append the callbacks as URLQueryItems and take `string` (Foundation's own encoding);
// - handle: one logout request with URLSession's default 60-second timeout, no retry; open the
//   success URL if it worked, the error URL if not, with universalLinksOnly; the session token is
//   kept in persistent storage, as the ULC document advises.
// Speaks the adapter protocol (docs/adapter-protocol.md) with JSONSerialization, as an app would.
import Foundation

let urlSessionTimeout = 60.0

func queryItems(_ link: String) -> [URLQueryItem]? {
    guard let components = URLComponents(string: link) else { return nil }
    return components.queryItems ?? []
}

/// What a typical app checks before opening a callback.
func usable(_ url: String?) -> Bool {
    guard let url, let components = URLComponents(string: url) else { return false }
    return components.scheme == "https" && !(components.host ?? "").isEmpty
}

func parse(_ link: String) -> [String: Any] {
    guard let items = queryItems(link), items.contains(where: { $0.name == "ulc-success" }) else { return ["kind": "notULC"] }
    let success = items.first { $0.name == "ulc-success" }?.value
    let error = items.first { $0.name == "ulc-error" }
    let ok = usable(success) && (error == nil || usable(error?.value))
    var out: [String: Any] = ["kind": ok ? "ulc" : "invalid"]
    if let success { out["success"] = success }
    if let value = error?.value { out["error"] = value }
    if var components = URLComponents(string: link) {
        let rest = (components.queryItems ?? []).filter { $0.name != "ulc-success" && $0.name != "ulc-error" }
        components.queryItems = rest.isEmpty ? nil : rest
        components.fragment = nil
        if let action = components.string { out["action"] = action }
    }
    return out
}

func build(_ input: [String: Any]) -> [String: Any] {
    guard var components = URLComponents(string: input["action"] as? String ?? "") else { return ["refused": [String]()] }
    components.queryItems = (components.queryItems ?? []) + [
        URLQueryItem(name: "ulc-success", value: input["success"] as? String),
        URLQueryItem(name: "ulc-error", value: input["error"] as? String),
    ]
    guard let link = components.string else { return ["refused": [String]()] }
    return ["link": link]
}

func hostAndPath(_ link: String) -> String? {
    guard let c = URLComponents(string: link) else { return nil }
    return (c.host ?? "") + "|" + (c.path.isEmpty ? "/" : c.path)
}

func handle(_ scenario: [String: Any]) -> [String: Any] {
    let registered = hostAndPath(scenario["logoutAction"] as? String ?? "")
    let initiallySignedIn = scenario["signedIn"] as? Bool ?? false
    var storedToken: String? = initiallySignedIn ? "session-1" : nil   // UserDefaults survives a force-quit
    var signedIn = initiallySignedIn
    var backendOpen = initiallySignedIn
    let script = (scenario["backend"] as? [[String: Any]]).flatMap { $0.isEmpty ? nil : $0 } ?? [["answer": "closed", "seconds": 0.2]]
    var attempts = 0
    var opened: [[String: Any]] = []
    var elapsed: [Double] = []
    var now = 0.0
    for link in scenario["links"] as? [String] ?? [] {
        let started = now
        let parsed = parse(link)
        guard parsed["kind"] as? String != "notULC", hostAndPath(link) == registered else {
            elapsed.append(0)
            continue
        }
        var ok = true
        if storedToken != nil {
            let attempt = script[min(attempts, script.count - 1)]
            attempts += 1
            let answer = attempt["answer"] as? String ?? "closed"
            let seconds = attempt["seconds"] as? Double ?? 0.2
            if answer == "hang" || seconds > urlSessionTimeout {
                now += urlSessionTimeout
                ok = false
            } else {
                now += seconds
                ok = answer == "closed" || answer == "alreadyClosed"
            }
            if ok {
                backendOpen = false
                storedToken = nil
            }
        }
        signedIn = false
        let target = (ok ? parsed["success"] : parsed["error"]) as? String
        if let target, usable(target) {
            opened.append(["url": target, "universalLinksOnly": true, "atSeconds": now])
        }
        elapsed.append(now - started)
    }
    return ["opened": opened, "prompts": 0, "backendAttempts": attempts, "userSignedIn": signedIn,
            "backendSessionOpen": backendOpen, "elapsedSeconds": elapsed]
}

// x-callback-url, the way a typical iOS target app reads it (as CallbackURLKit does): URLComponents
// splits the URL, the host must be "x-callback-url", the action is `path` minus its leading "/",
// the first x-source/x-success/x-error/x-cancel are taken from queryItems and the rest are the
// action's parameters; a callback is fine when URLComponents reads a scheme in it. Results are
// added with the queryItems setter. No scheme policy beyond a configured allow-list.

let xParameters = ["x-source", "x-success", "x-error", "x-cancel"]

func xcallbackParse(_ url: String) -> [String: Any] {
    guard let components = URLComponents(string: url), let scheme = components.scheme,
          components.host == "x-callback-url" else { return ["kind": "notXCallback"] }
    let items = components.queryItems ?? []
    let action = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    var out: [String: Any] = [
        "kind": "xcallback", "scheme": scheme, "action": action,
        "parameters": items.filter { !xParameters.contains($0.name) }.map { ["name": $0.name, "value": $0.value as Any? ?? NSNull()] },
    ]
    for (key, name) in [("source", "x-source"), ("success", "x-success"), ("error", "x-error"), ("cancel", "x-cancel")] {
        if let item = items.first(where: { $0.name == name }) { out[key] = item.value ?? NSNull() }
    }
    let callbacks = ["success", "error", "cancel"].compactMap { out[$0] }
    if action.isEmpty || !callbacks.allSatisfy({ ($0 as? String).flatMap { URLComponents(string: $0)?.scheme } != nil }) {
        out["kind"] = "invalid"
    }
    return out
}

func xcallbackBuild(_ input: [String: Any]) -> [String: Any] {
    var components = URLComponents()
    components.scheme = input["scheme"] as? String
    components.host = "x-callback-url"
    components.path = "/" + (input["action"] as? String ?? "")
    var items: [URLQueryItem] = []
    for (key, name) in [("source", "x-source"), ("success", "x-success"), ("error", "x-error"), ("cancel", "x-cancel")] {
        if let value = input[key] as? String { items.append(URLQueryItem(name: name, value: value)) }
    }
    for parameter in input["parameters"] as? [[String: Any]] ?? [] {
        items.append(URLQueryItem(name: parameter["name"] as? String ?? "", value: parameter["value"] as? String))
    }
    components.queryItems = items.isEmpty ? nil : items
    guard let url = components.string else { return ["refused": [String]()] }
    return ["url": url]
}

func xcallbackCallback(_ input: [String: Any]) -> [String: Any] {
    let parsed = xcallbackParse(input["url"] as? String ?? "")
    let outcome = input["outcome"] as? String ?? "success"
    guard parsed["kind"] as? String != "notXCallback", let target = parsed[outcome] as? String, !target.isEmpty,
          var components = URLComponents(string: target), let scheme = components.scheme else {
        return ["open": NSNull(), "reason": "no callback for this outcome"]
    }
    if let allowed = input["allowedSchemes"] as? [String], !allowed.map({ $0.lowercased() }).contains(scheme.lowercased()) {
        return ["open": NSNull(), "reason": "not an allowed scheme"]
    }
    var added: [URLQueryItem] = []
    switch outcome {
    case "success":
        added = (input["results"] as? [[String: Any]] ?? []).map { URLQueryItem(name: $0["name"] as? String ?? "", value: $0["value"] as? String) }
    case "error":
        added = [URLQueryItem(name: "errorCode", value: input["errorCode"] as? String ?? ""),
                 URLQueryItem(name: "errorMessage", value: input["errorMessage"] as? String ?? "")]
    default: break
    }
    if added.isEmpty { return ["open": target] }
    components.queryItems = (components.queryItems ?? []) + added
    return ["open": components.string.map { $0 as Any } ?? NSNull()]
}

// XignSys links, the way a typical iOS app checks them when one arrives: URLComponents splits
// the link; a deep link's scheme must be one the app registered (`customSchemes.contains`) and
// its host names the process; an app link is http(s) on the manager's host under
// /in-app/process/ with the process in `action`; the first pid, source-url and browser are
// taken from queryItems. Nothing else is checked.

func xignqrRedirect(_ input: [String: Any]) -> [String: Any] {
    let schemes = input["schemes"] as? [String] ?? ["xignqr"]
    let hosts = input["hosts"] as? [String] ?? ["xign.me"]
    guard let components = URLComponents(string: input["url"] as? String ?? ""), let scheme = components.scheme else { return ["kind": "none"] }
    let items = components.queryItems ?? []
    func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
    let form: String
    let process: String?
    if schemes.contains(scheme) {
        form = "deepLink"
        process = components.host
    } else if scheme == "https" || scheme == "http", hosts.contains(components.host ?? ""), components.path.hasPrefix("/in-app/process/") {
        form = "appLink"
        process = value("action")
    } else {
        return ["kind": "none"]
    }
    guard let process, ["authentication", "personalization", "transaction"].contains(process),
          let pid = value("pid"), !pid.isEmpty else { return ["kind": "none"] }
    var out: [String: Any] = ["kind": process, "form": form, "pid": pid]
    if let source = value("source-url") { out["sourceUrl"] = source }
    if let browser = value("browser") { out["browser"] = browser }
    return out
}

func reply(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]) else { return }
    FileHandle.standardOutput.write(data + Data([0x0A]))
}

while let line = readLine(strippingNewline: true) {
    guard let message = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
    switch message["cmd"] as? String {
    case "start":
        reply(["version": 1,
               "implementation": ["name": "foundation", "version": "swift-foundation (Swift 6)", "language": "Swift",
                                  "homepage": "https://github.com/swiftlang/swift-foundation"],
               "operations": ["ulc.build", "ulc.handle", "ulc.parse", "xcallback.build", "xcallback.callback", "xcallback.parse", "xignqr.redirect"]])
    case "run":
        let seq = message["seq"] ?? NSNull()
        let input = message["input"] as? [String: Any] ?? [:]
        switch message["operation"] as? String {
        case "ulc.parse": reply(["seq": seq, "output": parse(input["link"] as? String ?? "")])
        case "ulc.build": reply(["seq": seq, "output": build(input)])
        case "ulc.handle": reply(["seq": seq, "output": handle(input)])
        case "xcallback.parse": reply(["seq": seq, "output": xcallbackParse(input["url"] as? String ?? "")])
        case "xcallback.build": reply(["seq": seq, "output": xcallbackBuild(input)])
        case "xcallback.callback": reply(["seq": seq, "output": xcallbackCallback(input)])
        case "xignqr.redirect": reply(["seq": seq, "output": xignqrRedirect(input)])
        default: reply(["seq": seq, "skipped": "not implemented"])
        }
    default:
        exit(0)
    }
}
