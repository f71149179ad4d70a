import Testing
import AASA

func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

struct AutomatonTests {
    @Test func matchingIsLinearWhateverThePattern() {
        // The pattern that makes backtracking matchers exponential, against a 4 KB path.
        let automaton = AASAPatternCompiler.compile("*a*a*a*a*a*a*a*a*b", as: .other, options: .init())
        let input = scalars(String(repeating: "a", count: 4096))
        var steps = 0
        #expect(!automaton.accepts(input, steps: &steps))
        #expect(steps <= (input.count + 1) * automaton.stateCount)
        var hit = 0
        #expect(automaton.accepts(input + [0x62], steps: &hit))
        #expect(hit <= (input.count + 2) * automaton.stateCount)
    }

    @Test func matcherStepsAreBoundedToo() {
        let text = fileText(components: ##"[{"/": "/*a*a*a*a*a*b", "?": "*a*a*a*a*b", "#": "*?*?*?*?*c"}]"##)
        let matcher = parsed(text)!.matcher(appID: app)
        let long = String(repeating: "a", count: 4096)
        var steps = 0
        let result = matcher.match(url: "https://example.com/\(long)?\(long)#\(long)", domain: domain, steps: &steps)
        #expect(result.kind == .noMatch)
        let rule = matcher.rules[0]
        let states = rule.path.stateCount + (rule.fragment.stateCount)
            + { if case .whole(let a) = rule.query { a.stateCount } else { 0 } }()
        #expect(steps <= (4096 + 2) * states)
    }

    @Test func regionChoiceIsLinearToo() {
        let automaton = AASAPatternCompiler.compile("/$(region)*$(lang)*$(region)", as: .path, options: .init())
        let input = scalars("/" + String(repeating: "GBen", count: 1000) + "XX")
        var steps = 0
        _ = automaton.accepts(input, steps: &steps)
        #expect(steps <= (input.count + 1) * automaton.stateCount)
    }

    /// Choices end in one shared state: consecutive `$(lang)` cost their own edges, not the
    /// product of their alternatives (600 x 600 per boundary before; 32 of them took 5 s).
    @Test func consecutiveChoicesCompileToLinearSize() {
        let one = AASAPatternCompiler.compile("/$(lang)", as: .path, options: .init())
        let many = AASAPatternCompiler.compile("/" + String(repeating: "$(lang)", count: 32), as: .path, options: .init())
        let edges = { (a: AASAAutomaton) in a.transitions.reduce(0) { $0 + $1.count } }
        #expect(many.stateCount <= 32 * one.stateCount)
        #expect(edges(many) <= 32 * 2 * edges(one))
        var steps = 0
        #expect(many.accepts(scalars("/" + String(repeating: "en", count: 31) + "fil"), steps: &steps))
        #expect(!many.accepts(scalars("/" + String(repeating: "en", count: 31)), steps: &steps))
    }

    @Test func theAutomatonIsInspectable() {
        let a = AASAPatternCompiler.compile("a?", as: .other, options: .init())
        #expect(a.stateCount == 3)
        #expect(a.transitions[0] == [AASAAutomaton.Transition(label: AASACharacterClass(scalar: 0x61), target: 1)])
        #expect(a.transitions[1].map(\.label) == [.any])
        #expect(a.accepting == [false, false, true])
        #expect(a.shortestWitness() == scalars("aa"))
        #expect(a.description.contains("(accepting)"))
        let star = AASAPatternCompiler.compile("*", as: .other, options: .init())
        #expect(star.isUniversal)
        #expect(AASAAutomaton.empty.isEmpty)
    }

    @Test func inclusion() {
        func c(_ p: String) -> AASAAutomaton { AASAPatternCompiler.compile(p, as: .path, options: .init()) }
        #expect(c("/a/*").includes(c("/a/b")) == true)
        #expect(c("/a/*").includes(c("/a")) == true)       // the parent path
        #expect(c("/a").includes(c("/a/*")) == false)
        #expect(c("/*a*").includes(c("/*ab*")) == true)
        #expect(c("/*ab*").includes(c("/*a*")) == false)
        #expect(c("/?*").includes(c("/$(digit)$(digit)")) == true)
        #expect(c("/$(digit)").includes(c("/?")) == false)
    }

    @Test func witnessOfAPathPattern() {
        let a = AASAPatternCompiler.compile("/id/$(digit)$(digit)", as: .path, options: .init())
        let w = a.shortestWitness()!
        #expect(a.accepts(w))
        #expect(w.count == 6)
    }
}
