import LinkJSON
import ResultsStore

/// The Markdown report of a `linkconform fuzz` run: what was fuzzed and how fast, then every
/// stored finding of the implementation (those seen in this run first), each with its
/// signature, minimised input and both answers. Every piece of outside text (names, inputs,
/// answers, messages) goes through ``Escaping``.
public enum FuzzFindingsReport {
    /// The run's own figures.
    public struct Run: Sendable {
        public var implementation: String
        public var version: String
        public var seed: UInt64
        public var operations: [String]
        public var seconds: Double
        public var inputs: Int
        public var disagreements: Int
        /// Signatures seen in this run, and those of them the store did not know.
        public var signatures: Set<String>
        public var newSignatures: Set<String>
        /// How the run ended, when not by its time or input limit.
        public var ending: String?
        /// The corpus pass: the cases run (nil: no pass), the signatures they gave, and for
        /// each of this run's signatures the corpus case that shows it or raises the same error
        /// (none: not in the corpus).
        public var corpusCases: Int?
        public var corpusSignatureCount: Int
        public var corpusMarks: [String: CorpusMark]
        /// A sentence for each operation set aside after its crashes and timeouts.
        public var setAside: [String]

        public init(implementation: String, version: String, seed: UInt64, operations: [String], seconds: Double, inputs: Int,
                    disagreements: Int, signatures: Set<String>, newSignatures: Set<String>, ending: String?,
                    corpusCases: Int? = nil, corpusSignatureCount: Int = 0, corpusMarks: [String: CorpusMark] = [:], setAside: [String] = []) {
            self.implementation = implementation
            self.version = version
            self.seed = seed
            self.operations = operations
            self.seconds = seconds
            self.inputs = inputs
            self.disagreements = disagreements
            self.signatures = signatures
            self.newSignatures = newSignatures
            self.ending = ending
            self.corpusCases = corpusCases
            self.corpusSignatureCount = corpusSignatureCount
            self.corpusMarks = corpusMarks
            self.setAside = setAside
        }
    }

    /// How the corpus relates to a signature found while fuzzing.
    public enum CorpusMark: Sendable, Equatable {
        /// A corpus case gives the same signature, and the signature names a rule or a reason.
        case shown(by: String)
        /// A corpus case gives the same signature, but the signature names no rule of the
        /// reference and no reason (`xcallback.parse parameters []`, a crash): the case may show
        /// another cause.
        case sharesSignature(by: String)
        /// No case gives the signature, but on a case the implementation raises the same error
        /// for the operation (`error`, its name), with another code of the reference.
        case sameError(String, by: String)
    }

    /// `fuzz-<implementation>.md`, from the name's letters and digits.
    public static func fileName(implementation: String) -> String {
        let stem = FileNames.lowercaseStem(implementation)
        return "fuzz-" + (stem.isEmpty ? "adapter" : stem) + ".md"
    }

    public static func markdown(_ run: Run, findings: [DifferentialFinding]) -> String {
        var out = "# Differential fuzzing: " + Escaping.markdownInline(run.implementation) + " " + Escaping.markdownInline(run.version) + "\n\n"
        let rate = run.seconds > 0 ? Int(Double(run.inputs) / run.seconds) : 0
        out += "- operations: " + run.operations.map(Escaping.markdownCode).joined(separator: ", ") + "\n"
        out += "- seed \(run.seed), \(String(format: "%.1f", run.seconds)) s, \(run.inputs) inputs (\(rate)/s)\n"
        out += "- \(run.disagreements) disagreements with the reference, \(run.signatures.count) distinct signatures, \(run.newSignatures.count) new\n"
        if let ending = run.ending { out += "- ended early: " + Escaping.markdownInline(ending) + "\n" }
        for line in run.setAside { out += "- " + Escaping.markdownInline(line) + "\n" }
        if let cases = run.corpusCases {
            out += "- " + corpusPassSummary(cases: cases, signatureCount: run.corpusSignatureCount, signatures: run.signatures, marks: run.corpusMarks)
                + " (read those first)\n"
        }
        let seen = findings.filter { run.signatures.contains($0.signature) }
        let older = findings.filter { !run.signatures.contains($0.signature) }
        out += "\n| id | status | operation | kind | signature | count | in the corpus | first seen | last seen |\n"
            + "|---|---|---|---|---|---|---|---|---|\n"
        for f in seen + older {
            let status = run.newSignatures.contains(f.signature) ? "new" : run.signatures.contains(f.signature) ? "seen again" : "not seen this run"
            out += "| D\(f.id) | \(status)\(f.status == .promoted ? ", promoted" : "") | " + Escaping.markdownCell(f.operation) + " | "
                + Escaping.markdownCell(f.kind) + " | " + Escaping.markdownCode(f.signature).replacingOccurrences(of: "|", with: "\\|")
                + " | \(f.count) | " + corpusCell(run, f.signature) + " | " + Escaping.markdownCell(f.firstSeen) + " | " + Escaping.markdownCell(f.lastSeen) + " |\n"
        }
        if findings.isEmpty { out += "\nNo findings: the implementation agreed with the reference on every input.\n" }
        for f in seen {
            out += "\n## D\(f.id): " + Escaping.markdownInline(f.signature) + "\n\n"
            // The message, fields and codes stored are the minimised input's (a finding stored by
            // an earlier version holds the first input's).
            out += "On the minimised input: " + Escaping.markdownInline(f.message) + "\n\n"
            out += "- minimised input: " + Escaping.markdownJSON(f.minimisedInput) + "\n"
            out += "- reference: " + Escaping.markdownJSON(f.referenceOutput) + "\n"
            out += "- " + Escaping.markdownInline(f.implementation) + ": " + Escaping.markdownJSON(f.implementationAnswer) + "\n"
            if f.input != f.minimisedInput { out += "- first input: " + Escaping.markdownJSON(f.input) + "\n" }
            if run.corpusCases != nil {
                switch run.corpusMarks[f.signature] {
                case .shown(let id)?: out += "- in the corpus: shown by " + Escaping.markdownCode(id) + "\n"
                case .sharesSignature(let id)?:
                    out += "- in the corpus: " + Escaping.markdownCode(id) + " gives the same signature, but the signature names no rule "
                        + "or reason of the reference, so the case may show another cause: compare the inputs\n"
                case .sameError(let error, let id)?:
                    out += "- in the corpus: no case shows it, but " + Escaping.markdownCode(id) + " raises the same "
                        + Escaping.markdownCode(error) + " (another code of the reference)\n"
                case nil: out += "- in the corpus: no case shows it\n"
                }
            }
            if let promoted = f.promotedCase { out += "- promoted to " + Escaping.markdownCode(promoted) + "\n" }
            else { out += "- make it a corpus case: `linkconform findings promote D\(f.id)`\n" }
        }
        return out
    }

    /// The corpus pass in a sentence: the cases run, the signatures they gave, and how many of a
    /// run's `signatures` a case shows, how many share with a case a signature that names no
    /// cause, how many more are an error a case raises, and how many are not in the corpus (the
    /// terminal summary prints the same sentence).
    public static func corpusPassSummary(cases: Int, signatureCount: Int, signatures: some Collection<String>,
                                         marks: [String: CorpusMark]) -> String {
        var shown = 0, shared = 0, sameError = 0
        for signature in signatures {
            switch marks[signature] {
            case .shown?: shown += 1
            case .sharesSignature?: shared += 1
            case .sameError?: sameError += 1
            case nil: break
            }
        }
        return "corpus pass: \(cases) corpus cases give \(signatureCount) signatures; of this run's \(signatures.count), "
            + "\(shown) are shown by a case, \(shared) share with a case a signature that names no rule (the cause may differ), "
            + "\(sameError) more are an error a case also raises, \(signatures.count - shown - shared - sameError) are not in the corpus"
    }

    /// The corpus case that shows a signature, "same signature, no rule named: case" when the
    /// signature names no cause, "same error: case" when one raises its error,
    /// "no" when none does, "-" when this run cannot tell (no corpus pass, or a finding not
    /// seen in this run).
    static func corpusCell(_ run: Run, _ signature: String) -> String {
        guard run.corpusCases != nil, run.signatures.contains(signature) else { return "-" }
        func code(_ text: String) -> String { Escaping.markdownCode(text).replacingOccurrences(of: "|", with: "\\|") }
        switch run.corpusMarks[signature] {
        case .shown(let id)?: return code(id)
        case .sharesSignature(let id)?: return "same signature, no rule named: " + code(id)
        case .sameError(_, let id)?: return "same error: " + code(id)
        case nil: return "no"
        }
    }
}
