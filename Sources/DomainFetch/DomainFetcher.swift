import AsyncHTTPClient
import Conformance
import DomainCheck
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// Fetches a domain's association files over HTTPS the way the platforms do (no redirect
/// followed, gzip and deflate accepted and decoded, a body read only up to the file's size
/// limit) and records what happened as ``FetchRecord``s: facts only, judged by `DomainCheck`.
///
/// Each file is fetched on a connection of its own, as the platforms fetch them: a connection
/// pooled between the files would let a server that closes after one response (without saying
/// `Connection: close`) fail the next file's request on it.
///
/// ```swift
/// let fetcher = try DomainFetcher(options: options)
/// let records = await fetcher.fetchAll(domain: "example.com")
/// let report = DomainJudge.judge(LiveQuestion(domain: "example.com"), records: records)
/// ```
public final class DomainFetcher: Sendable {
    let configuration: HTTPClient.Configuration
    let options: FetchOptions

    /// What identifies LinkConform to the servers it checks.
    public static let userAgent = "linkconform (live check of association files)"

    /// Fails with ``FetchSetupError`` when the CA file cannot be read.
    public init(options: FetchOptions) throws(FetchSetupError) {
        self.options = options
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        // Closing a connection waits this long for the server's close_notify (NIOSSL's default is
        // 5 s): a server still pushing an endless body never sends one, and nothing here needs it.
        tls.shutdownTimeout = .milliseconds(100)
        if let caFile = options.caFile {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            } catch {
                throw FetchSetupError(message: "cannot read the CA certificates in \(caFile): \(Self.whyNoCertificates(caFile, error))")
            }
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(options.connectTimeout.nanoseconds), read: .nanoseconds(options.readTimeout.nanoseconds)),
            // The largest limit of the files, plus one byte: each fetch stops at its own limit.
            decompression: .enabled(limit: .size(WellKnownFile.allCases.map(\.sizeLimit).max()! + 1)))
        configuration.dnsOverride = options.resolve
        // One attempt per file: a refused connection or a refused certificate is the answer,
        // not something to retry until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        self.configuration = configuration
    }

    /// How long a fetch waits, once it has ended, for its client to shut down: a connection still
    /// being set up (a TLS handshake the server never answers) would otherwise hold the command
    /// until the connect timeout, past the total one. The shutdown goes on unwaited-for after this.
    static let shutdownGrace: Duration = .milliseconds(500)

    /// Why a CA file gave no certificate, in words: NIOSSL says `failedToLoadCertificate`
    /// whether the file is missing, a folder, empty or not PEM.
    static func whyNoCertificates(_ path: String, _ error: any Error) -> String {
        if let problem = ShownText.fileProblem(path) { return problem }
        guard let data = FileManager.default.contents(atPath: path) else { return "not readable" }
        if data.isEmpty { return "the file is empty" }
        if !String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") {
            return "no PEM certificate in it (a block starting -----BEGIN CERTIFICATE-----)"
        }
        return "\(error)"
    }

    /// Every ``WellKnownFile`` of `domain`, fetched at the same time.
    public func fetchAll(domain: String) async -> [WellKnownFile: FetchRecord] {
        await withTaskGroup(of: (WellKnownFile, FetchRecord).self) { group in
            for file in WellKnownFile.allCases {
                group.addTask { (file, await self.fetch(file, domain: domain)) }
            }
            var records: [WellKnownFile: FetchRecord] = [:]
            for await (file, record) in group { records[file] = record }
            return records
        }
    }

    /// One file: the head, then the body until it ends, passes the size limit, stalls for the
    /// read timeout, or the total deadline passes (whichever comes first).
    public func fetch(_ file: WellKnownFile, domain: String) async -> FetchRecord {
        let url = "https://\(domain)\(options.port == 443 ? "" : ":\(options.port)")\(file.path)"
        let started = ContinuousClock.now
        let progress = NIOLockedValueBox(FetchRecord(url: url))
        let connectionError = NIOLockedValueBox<(any Error)?>(nil)
        let connected = NIOLockedValueBox(false)
        var configuration = configuration
        // Called once a connection is set up (TCP, TLS, the protocol agreed), before the request goes on it.
        configuration.http1_1ConnectionDebugInitializer = { channel in
            connected.withLockedValue { $0 = true }
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        configuration.http2ConnectionDebugInitializer = { channel in
            connected.withLockedValue { $0 = true }
            return channel.pipeline.addHandler(ConnectionErrorHandler(firstError: connectionError))
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let finishedInTime = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.read(url: url, limit: file.sizeLimit, with: client, started: started, into: progress,
                                connectionError: connectionError)
                return true
            }
            group.addTask {
                try? await Task.sleep(for: self.options.totalTimeout)
                return false
            }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
        let record = progress.withLockedValue { record in
            if !finishedInTime {
                let failure = FetchFailure(.deadline, "gave up after \(Self.seconds(options.totalTimeout)) (--total-timeout)")
                if record.status == nil { record.failure = failure } else if !record.stoppedAtLimit { record.bodyFailure = failure }
            }
            // The deadline passed before there was a connection (a connect timeout longer than the
            // total one, a TLS handshake that stalls): as a connect timeout would say, the server
            // was not reached, whichever of the timers fired first.
            if record.status == nil, record.failure?.kind == .deadline, !connected.withLockedValue({ $0 }) {
                record.failure = FetchFailure(.connectTimeout, "no connection (TCP and TLS) within the total timeout, \(Self.seconds(options.totalTimeout))")
            }
            record.elapsed = started.duration(to: .now)
            return record
        }
        await Self.shutDown(client)
        return record
    }

    /// Starts `client`'s shutdown and waits for it at most ``shutdownGrace``.
    static func shutDown(_ client: HTTPClient) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pending = NIOLockedValueBox<CheckedContinuation<Void, Never>?>(continuation)
            let resume: @Sendable () -> Void = {
                pending.withLockedValue { waiting in defer { waiting = nil }; return waiting }?.resume()
            }
            client.shutdown { _ in resume() }
            MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(shutdownGrace.nanoseconds)) { resume() }
        }
    }

    /// Reads the response into `progress`. A failure is classified by the connection-level error
    /// in `connectionError` when there is one (an HTTP/2 header block over the limit, say) rather
    /// than by what the request saw of it (the connection closing).
    func read(url: String, limit: Int, with client: HTTPClient, started: ContinuousClock.Instant,
              into progress: NIOLockedValueBox<FetchRecord>, connectionError: NIOLockedValueBox<(any Error)?>) async {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        request.headers.add(name: "Accept", value: "application/json, */*")
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .now() + .nanoseconds(options.totalTimeout.nanoseconds))
        } catch {
            if Task.isCancelled { return }   // the deadline: recorded by the caller
            let cause = connectionError.withLockedValue { $0 } ?? error
            progress.withLockedValue { $0.failure = FailureClassification.failure(cause) }
            return
        }
        progress.withLockedValue { record in
            record.status = Int(response.status.code)
            record.httpVersion = "HTTP/\(response.version.major)" + (response.version.major == 1 ? ".\(response.version.minor)" : "")
            record.headers = response.headers.map { FetchRecord.HeaderField($0.name, $0.value) }
            record.timeToHead = started.duration(to: .now)
        }
        do {
            for try await buffer in response.body {
                let over = progress.withLockedValue { record -> Bool in
                    let room = limit + 1 - record.body.count
                    record.body += buffer.readableBytesView.prefix(room)
                    record.stoppedAtLimit = record.body.count > limit
                    return record.stoppedAtLimit
                }
                if over { return }   // leaving the loop cancels the rest of the response
            }
        } catch {
            if Task.isCancelled { return }
            progress.withLockedValue { record in
                // The decoder's own limit is the largest file's: past it, the body is over this
                // file's limit too, however little of it the decoder handed on before it stopped
                // (a compression bomb trips it within its first buffer).
                if let e = error as? NIOHTTPDecompression.DecompressionError, case .limit = e {
                    record.stoppedAtLimit = true
                } else {
                    record.bodyFailure = FailureClassification.failure(connectionError.withLockedValue { $0 } ?? error)
                }
            }
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}

/// The fetcher could not be set up as asked (a CA file that does not read).
public struct FetchSetupError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Closes an HTTP/2 connection on its first connection-level error and keeps that error for the
/// fetch. NIOHTTP2 reports such an error (a header block over the limit it announces, or too
/// many CONTINUATION frames) and sends GOAWAY, but leaves the connection open, and AsyncHTTPClient
/// does not close it either: the request then waits for the read timeout while the handler keeps
/// buffering whatever the server still sends, without bound.
final class ConnectionErrorHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
    let firstError: NIOLockedValueBox<(any Error)?>

    init(firstError: NIOLockedValueBox<(any Error)?>) {
        self.firstError = firstError
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        firstError.withLockedValue { if $0 == nil { $0 = error } }
        context.close(promise: nil)
    }
}
