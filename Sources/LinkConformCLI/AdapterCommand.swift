import AdapterHarness
import ArgumentParser
import Conformance

struct AdapterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapter",
        abstract: "Serve a built-in implementation over the adapter protocol on stdin and stdout.",
        discussion: """
            Speaks protocol version \(AdapterProtocol.version) (docs/adapter-protocol.md): answers start, then run \
            requests as they come, until stop or the end of input. This is the protocol's own smoke test \
            and a model for adapters in other languages:

              linkconform run --adapter 'linkconform adapter'
            """)

    @Option(help: ArgumentHelp("The built-in implementation to serve.", valueName: "name"))
    var implementation = "reference"

    func validate() throws {
        if SwiftImplementation.builtIn[implementation] == nil {
            throw ValidationError("unknown implementation '\(implementation)'")
        }
    }

    func run() async throws {
        let served = SwiftImplementation.builtIn[implementation]!
        let operations = SuiteRegistry.all.flatMap { $0.operations.map(\.name) }.filter(served.supports)
        let status = await AdapterServer.serve(served, info: served.info, operations: operations)
        if status != 0 { throw ExitCode(status) }
    }
}
