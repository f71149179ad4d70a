import ArgumentParser
import DomainCheck
import DomainFetch

extension CheckCommand {
    /// `check --domain HOST`: fetch the association files, judge them per platform, print.
    func runLive(domain typed: String) async throws {
        // validate() has refused anything that is not a host name.
        let domain = HostName.normalized(typed) ?? typed.lowercased()
        let fetcher: DomainFetcher
        do {
            fetcher = try DomainFetcher(options: try live.fetchOptions())
        } catch let error as FetchSetupError {
            Console.error(error.message)
            throw Exit.harness
        }
        let records = await fetcher.fetchAll(domain: domain)
        let question = LiveQuestion(domain: domain, appID: appID, package: package,
                                    fingerprint: fingerprint, urls: inputs)
        let rendering = LiveCheckRendering(report: DomainJudge.judge(question, records: records), titles: requirementTitles())
        Console.line(json ? rendering.json().serialized(pretty: true) : rendering.human())
        if !rendering.report.reachable {
            Console.error("cannot reach \(domain): " + (records[.aasa]?.failure?.description ?? "no connection"))
        }
        if rendering.exitCode != 0 { throw ExitCode(rendering.exitCode) }
    }
}
