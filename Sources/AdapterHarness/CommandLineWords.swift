import Conformance
/// Splits a command line into arguments the way a POSIX shell would, without running a shell:
/// blanks separate words; single quotes keep everything; double quotes keep everything but `\"`
/// and `\\`; a backslash outside quotes escapes the next character. No variables, globs or
/// redirections: what you write is what the adapter gets.
///
/// ```swift
/// try CommandLineWords.split(#"python3 'my adapter.py' --name "a b""#)
/// // ["python3", "my adapter.py", "--name", "a b"]
/// ```
public enum CommandLineWords {
    public struct Unbalanced: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func split(_ line: String) throws(Unbalanced) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(line).makeIterator()
        while let c = iterator.next() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "'" { closed = true; break }
                    current.append(d)
                }
                if !closed { throw Unbalanced(description: "unbalanced single quote in: \(line)") }
            case "\"":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "\"" { closed = true; break }
                    if d == "\\" {
                        guard let e = iterator.next() else { break }
                        if e != "\"" && e != "\\" { current.append("\\") }
                        current.append(e)
                    } else {
                        current.append(d)
                    }
                }
                if !closed { throw Unbalanced(description: "unbalanced double quote in: \(line)") }
            case "\\":
                inWord = true
                if let e = iterator.next() { current.append(e) }
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
