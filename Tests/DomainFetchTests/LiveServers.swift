import ChildProcess
import Foundation
import LinkJSON

/// The real TLS servers the live tests fetch from: nginx (Debian's package) and small TLS
/// servers for the cases nginx cannot play (one HTTP/1.1, one HTTP/2), started once for the whole test process by
/// `Fixtures/live_fixture.py` (which makes the CA and certificates with the openssl CLI). The
/// fixture stops them and removes its folder when its standard input closes, which happens when
/// this process ends, however it ends.
struct LiveServers: Sendable {
    let nginxPort: Int
    let helperPort: Int
    let h2HelperPort: Int
    let caFile: String
    let domain: String
    let nginxVersion: String

    /// Which server plays a case.
    enum Server: Sendable { case nginx, helper, h2Helper, nothing }

    func port(_ server: Server) -> Int {
        switch server {
        case .nginx: nginxPort
        case .helper: helperPort
        case .h2Helper: h2HelperPort
        case .nothing: 1   // nothing listens on port 1 of the loopback
        }
    }

    enum Unavailable: Error, CustomStringConvertible {
        case missing(String)
        case failed(String)
        var description: String {
            switch self {
            case .missing(let tool): "\(tool) is not installed (Debian: apt-get install nginx openssl python3; .ci/run installs nginx)"
            case .failed(let why): "the live fixture did not start: \(why)"
            }
        }
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/live_fixture.py").path

    /// Whether nginx, openssl and python3 are on this machine. In CI a missing tool is a failure,
    /// not a skip: `.ci/run` installs nginx, so the live tests must run there.
    static let toolsPresent: Bool = ["nginx", "openssl", "python3"].allSatisfy(onPath)

    static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    static func onPath(_ tool: String) -> Bool {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// The servers, started on first use.
    static func shared() async throws -> LiveServers {
        try await started.value
    }

    private static let started = Task<LiveServers, any Error> {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try start() }) }
        }
    }

    /// Kept for the life of the test process: its standard input is what keeps the servers up.
    nonisolated(unsafe) private static var process: SpawnedProcess?

    private static func start() throws -> LiveServers {
        for tool in ["nginx", "openssl", "python3"] where !onPath(tool) { throw Unavailable.missing(tool) }
        var environment = ["PATH": (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"]
        environment["PYTHONUNBUFFERED"] = "1"
        let child = try SpawnedProcess(arguments: ["python3", fixture], workingDirectory: nil, environment: environment)
        process = child
        // The fixture's first line, within a minute (certificates and nginx take well under one).
        var line: [UInt8] = []
        let deadline = Date().addingTimeInterval(60)
        var byte: UInt8 = 0
        while line.last != 0x0A {
            var poller = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            guard Date() < deadline else { throw Unavailable.failed("no answer within 60 s") }
            guard poll(&poller, 1, 1000) >= 0 else { continue }
            if poller.revents == 0 { continue }
            guard read(child.output, &byte, 1) == 1 else { throw Unavailable.failed("it exited: \(child.waitForExit())") }
            line.append(byte)
        }
        let json = try JSONParser.parse(line)
        if let error = json["error"]?.stringValue { throw Unavailable.failed(error) }
        guard let nginxPort = json["nginxPort"]?.intValue, let helperPort = json["helperPort"]?.intValue,
              let h2HelperPort = json["h2HelperPort"]?.intValue,
              let caFile = json["caFile"]?.stringValue, let domain = json["domain"]?.stringValue else {
            throw Unavailable.failed("unexpected answer: \(String(decoding: line, as: UTF8.self))")
        }
        return LiveServers(nginxPort: nginxPort, helperPort: helperPort, h2HelperPort: h2HelperPort, caFile: caFile, domain: domain,
                           nginxVersion: json["nginxVersion"]?.stringValue ?? "")
    }
}
