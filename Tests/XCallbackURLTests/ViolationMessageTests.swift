import Synchronization
import Testing
import XCallbackURL

/// Violation messages are written when read: a parse that nobody asks for words costs no words.
struct ViolationMessageTests {
    /// Counts how often a message is written.
    final class Writes: Sendable {
        let count = Atomic<Int>(0)
        func message(_ text: String) -> String {
            count.add(1, ordering: .relaxed)
            return text
        }
    }

    @Test func aMessageIsWrittenWhenReadAndEachTimeTheSame() {
        let writes = Writes()
        let v = XCallbackViolation(.callbackPlus, parameter: "x-success", offset: 40, message: writes.message("a raw '+'"))
        #expect(writes.count.load(ordering: .relaxed) == 0, "making the violation writes nothing")
        #expect(v.key == "x-success:callback-plus" && v.offset == 40)
        #expect(writes.count.load(ordering: .relaxed) == 0, "nor do its code, key and offset")
        #expect(v.message == "a raw '+'" && v.message == "a raw '+'")
        #expect(writes.count.load(ordering: .relaxed) == 2)
    }

    @Test func violationsThatDifferOnlyInTheirMessageAreNotEqual() {
        let a = XCallbackViolation(.callbackPlus, parameter: "x-success", offset: 40, message: "one")
        let b = XCallbackViolation(.callbackPlus, parameter: "x-success", offset: 40, message: "two")
        let c = XCallbackViolation(.callbackPlus, parameter: "x-success", offset: 40, message: "o" + "ne")
        #expect(a != b)
        #expect(a == c && a.hashValue == c.hashValue)
        #expect(Set([a, b, c]).count == 2)
    }

    /// A parse reads the link's parts when it finds a problem, not when the message is read: the
    /// words are those of the link parsed, whatever happens after.
    @Test func aParsedLinksMessagesAreItsOwn() {
        let link = XCallback.parse("app://X-Callback-URL/a?x-success=b%3A%2F%2Fc&x-success=d%3A%2F%2Fe")
        let messages = link.violations.map(\.message)
        #expect(messages.contains { $0.contains("'X-Callback-URL'") })
        #expect(XCallback.parse("app://x-callback-url/a").violations.isEmpty)
        #expect(link.violations.map(\.message) == messages)
    }
}
