import Foundation
import LinkJSON
import Testing

/// The GitHub workflows in .github/workflows: valid against GitHub's published workflow schema,
/// and the nightly's `linkconform` commands are ones the CLI has.
///
/// The schema is the one check-jsonschema (PyPI) vendors, used offline (`--builtin-schema
/// vendor.github-workflows`). It is run as `python3 -m check_jsonschema`: the same program as
/// the `check-jsonschema` script, found wherever the `python3` that .ci/run installs into is.
/// Without it these tests fail; they never pass by skipping.
struct WorkflowTests {
    static let workflows = CLI.repository.appendingPathComponent(".github/workflows")

    static func workflowFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: workflows.path)
            .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
            .map { workflows.appendingPathComponent($0).path }
    }

    /// check-jsonschema on `files` against the GitHub workflow schema, or nil (with a recorded
    /// issue saying how to install it) when it is not installed.
    static func checkJSONSchema(_ files: [String]) async throws -> CLI.Result? {
        let version = try await CLI.runTool(["python3", "-m", "check_jsonschema", "--version"])
        guard version.status == 0 else {
            Issue.record("""
                check-jsonschema is not installed, so the workflows cannot be validated: \
                python3 -m pip install check-jsonschema (.ci/run installs it). \(version.output)
                """)
            return nil
        }
        return try await CLI.runTool(["python3", "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows"] + files)
    }

    @Test func everyWorkflowMatchesTheGitHubWorkflowSchema() async throws {
        let files = try Self.workflowFiles()
        #expect(files.map { ($0 as NSString).lastPathComponent } == ["cflite_batch.yml", "cflite_pr.yml", "nightly.yml"])
        guard let result = try await Self.checkJSONSchema(files) else { return }
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("ok -- validation done"), "\(result.output)")
    }

    /// The validator does reject a workflow GitHub would refuse: the nightly without the
    /// machine its job runs on.
    @Test func aBrokenWorkflowIsRejected() async throws {
        let nightly = try String(contentsOfFile: Self.workflows.appendingPathComponent("nightly.yml").path, encoding: .utf8)
        let lines = nightly.split(separator: "\n", omittingEmptySubsequences: false)
        let broken = lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("runs-on:") }
        #expect(broken.count == lines.count - 1, "the nightly has one runs-on line to remove")
        let dir = CLI.temporaryDirectory()
        let file = dir + "/broken.yml"
        try Data(broken.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        guard let result = try await Self.checkJSONSchema([file]) else { return }
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("'runs-on' is a required property"), "\(result.output)")
    }

    /// One `linkconform` command of a workflow: its subcommand and arguments.
    struct Invocation: CustomStringConvertible {
        let subcommand: String
        let arguments: [String]
        var description: String { "linkconform \(subcommand) " + arguments.joined(separator: " ") }

        var flags: [String] {
            arguments.filter { $0.hasPrefix("--") }.map { String($0.split(separator: "=", maxSplits: 1)[0]) }
        }

        /// The values given to `option` (`--option VALUE` or `--option=VALUE`).
        func values(of option: String) -> [String] {
            var values: [String] = []
            for (i, argument) in arguments.enumerated() {
                if argument == option, i + 1 < arguments.count { values.append(arguments[i + 1]) }
                if argument.hasPrefix(option + "=") { values.append(String(argument.dropFirst(option.count + 1))) }
            }
            return values
        }
    }

    /// The `linkconform` commands in the `run:` steps of a workflow, read from the YAML with
    /// ruamel.yaml (check-jsonschema's own YAML reader): each job's `env` is substituted
    /// (`$NAME`, `${NAME}`), backslash-continued lines are joined, and a command ends at the end
    /// of its line or at a shell operator.
    static func invocations(in workflow: String) async throws -> [Invocation]? {
        let script = """
            import json, sys
            from ruamel.yaml import YAML
            doc = YAML(typ="safe").load(open(sys.argv[1], encoding="utf-8"))
            steps = [{"env": {**doc.get("env", {}), **job.get("env", {})}, "run": step["run"]}
                     for job in doc["jobs"].values() for step in job.get("steps", []) if "run" in step]
            print(json.dumps(steps))
            """
        let result = try await CLI.runTool(["python3", "-c", script, workflow])
        guard result.status == 0 else {
            Issue.record("cannot read \(workflow) (ruamel.yaml comes with check-jsonschema: python3 -m pip install check-jsonschema): \(result.output)")
            return nil
        }
        var found: [Invocation] = []
        for step in try JSONParser.parse(result.stdout).arrayValue ?? [] {
            var text = step["run"]?.stringValue ?? ""
            for member in step["env"]?.objectValue ?? JSONObject() {
                let value = member.value.stringValue ?? ""
                text = text.replacingOccurrences(of: "${\(member.key)}", with: value).replacingOccurrences(of: "$\(member.key)", with: value)
            }
            text = text.replacingOccurrences(of: "\\\n", with: " ")
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
                for (i, word) in words.enumerated() where word == "linkconform" || word.hasSuffix("/linkconform") {
                    let rest = words[(i + 1)...].prefix { !["|", "||", "&&", ";", ">", ">>", "2>", "2>&1"].contains($0) }
                    guard let sub = rest.first, !sub.hasPrefix("-") else { continue }
                    found.append(Invocation(subcommand: sub, arguments: Array(rest.dropFirst())))
                }
            }
        }
        return found
    }

    /// Every `linkconform` command the nightly runs names a subcommand and options that
    /// `linkconform <subcommand> --help` lists, and every manifest it names exists: the workflow
    /// cannot drift from the CLI unseen. Every bundled adapter is in the run.
    @Test func theNightlysCommandsExistInTheCLI() async throws {
        let nightly = Self.workflows.appendingPathComponent("nightly.yml").path
        guard let invocations = try await Self.invocations(in: nightly) else { return }
        let run = invocations.filter { $0.subcommand == "run" }
        #expect(run.count == 1, "the nightly runs the suites once: \(invocations)")
        #expect(invocations.contains { $0.subcommand == "report" }, "\(invocations)")
        var helps: [String: String] = [:]
        for invocation in invocations {
            if helps[invocation.subcommand] == nil {
                let help = try await CLI.run([invocation.subcommand, "--help"])
                #expect(help.status == 0, "linkconform \(invocation.subcommand) --help: \(help.output)")
                helps[invocation.subcommand] = help.stdout
            }
            let help = helps[invocation.subcommand] ?? ""
            for flag in invocation.flags {
                let listed = [" ", "\n", "]", "="].contains { help.contains(flag + $0) }
                #expect(listed, "\(invocation): linkconform \(invocation.subcommand) --help does not list \(flag)")
            }
            for manifest in invocation.values(of: "--adapter-manifest") {
                #expect(FileManager.default.fileExists(atPath: CLI.repository.appendingPathComponent(manifest).path),
                        "\(invocation): no \(manifest)")
            }
        }
        let bundled = try FileManager.default.contentsOfDirectory(atPath: CLI.repository.appendingPathComponent("Adapters").path)
            .filter { FileManager.default.fileExists(atPath: CLI.repository.appendingPathComponent("Adapters/\($0)/adapter.json").path) }
            .map { "Adapters/\($0)/adapter.json" }
        #expect(!bundled.isEmpty)
        #expect(Set(run.first?.values(of: "--adapter-manifest") ?? []) == Set(bundled), "every bundled adapter runs every night")
        #expect(run.first?.values(of: "--implementation") == ["reference"])
    }
}
