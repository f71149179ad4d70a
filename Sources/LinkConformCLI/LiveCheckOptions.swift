import ArgumentParser
import DomainCheck
import DomainFetch
import Reports

/// The options only a live check (`check --domain HOST` without `--aasa`) takes (`--package` and
/// `--fingerprint`, which `--assetlinks` takes too, are the command's own).
struct LiveCheckOptions: ParsableArguments {
    @Option(name: .customLong("ca-file"), help: ArgumentHelp("Trust the CA certificates in this PEM file instead of the system trust store (a private CA).", valueName: "pem"))
    var caFile: String?

    @Option(help: ArgumentHelp("Connect to this port instead of 443 (tests and diagnostics).", valueName: "n"))
    var port: Int?

    @Option(help: ArgumentHelp("Connect to HOST at ADDRESS instead of what DNS says, like curl's --resolve (repeatable; tests and diagnostics). The certificate is still checked for HOST.", valueName: "host:address"))
    var resolve: [String] = []

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Seconds to wait for a connection (default 10).", valueName: "s"))
    var connectTimeout: Double?

    @Option(name: .customLong("read-timeout"), help: ArgumentHelp("Seconds of silence after which a fetch gives up (default 10).", valueName: "s"))
    var readTimeout: Double?

    @Option(name: .customLong("total-timeout"), help: ArgumentHelp("Seconds a whole fetch may take, however the bytes trickle in (default 30).", valueName: "s"))
    var totalTimeout: Double?

    var isGiven: Bool {
        caFile != nil || port != nil || !resolve.isEmpty
            || connectTimeout != nil || readTimeout != nil || totalTimeout != nil
    }

    func validate(domain: String) throws {
        if domain.isEmpty || domain.contains(where: { "/:?#@ ".contains($0) }) {
            throw ValidationError("--domain takes a host name alone (example.com), without scheme, port or path")
        }
        if HostName.normalized(domain) == nil {
            throw ValidationError("--domain takes a DNS host name: labels of 1 to 63 letters, digits and hyphens, separated by dots, "
                                  + "at most 253 characters (an international name in its IDNA form, xn--...); got '\(Escaping.terminal(domain))'")
        }
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be between 1 and 65535") }
        for (name, value) in [("--connect-timeout", connectTimeout), ("--read-timeout", readTimeout), ("--total-timeout", totalTimeout)] {
            if let value, !(value > 0 && value <= 3600) { throw ValidationError("\(name) must be a number of seconds above 0 (at most 3600)") }
        }
        _ = try resolved()
    }

    /// `--resolve HOST:ADDRESS` as a table (the address may be IPv6, so the host ends at the first
    /// colon), the host written as ``HostName`` writes `--domain`'s, so that `Example.com.` and
    /// `example.com` are one host.
    func resolved() throws -> [String: String] {
        var table: [String: String] = [:]
        for entry in resolve {
            guard let colon = entry.firstIndex(of: ":"), entry.index(after: colon) != entry.endIndex,
                  let host = HostName.normalized(String(entry[..<colon])) else {
                throw ValidationError("--resolve takes HOST:ADDRESS, HOST a DNS host name (got '\(Escaping.terminal(entry))')")
            }
            table[host] = String(entry[entry.index(after: colon)...])
        }
        return table
    }

    func fetchOptions() throws -> FetchOptions {
        var options = FetchOptions()
        options.caFile = caFile
        options.resolve = try resolved()
        if let port { options.port = port }
        if let connectTimeout { options.connectTimeout = .milliseconds(Int(connectTimeout * 1000)) }
        if let readTimeout { options.readTimeout = .milliseconds(Int(readTimeout * 1000)) }
        if let totalTimeout { options.totalTimeout = .milliseconds(Int(totalTimeout * 1000)) }
        return options
    }
}
