import Testing
import AASA

import Foundation
import LinkJSON

/// The real files of the shared specs' real-world folder (see its SOURCES.md), as the corpus
/// keeps them byte for byte (the `aasa.validate` cases of Corpus/aasa/cases/real-world.json, whose
/// provenance names the file): each parses without a crash and gives the diagnostics reasoned out
/// by reading it. Read from the corpus, so the tests need nothing outside the repository.
struct RealWorldTests {
    static let folder = "specs/real-world/"

    /// Each real file's text, by its path as the provenance names it.
    static let files: [String: [UInt8]] = {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = here.appendingPathComponent("Corpus/aasa/cases/real-world.json").path
        guard let data = FileManager.default.contents(atPath: path), let json = try? JSONParser.parse([UInt8](data)) else { return [:] }
        var out: [String: [UInt8]] = [:]
        for c in json["cases"]?.arrayValue ?? [] where c["operation"]?.stringValue == "aasa.validate" {
            guard let source = c["provenance"]?["source"]?.stringValue, let text = c["input"]?["file"]?.stringValue,
                  let range = source.range(of: folder) else { continue }
            let name = source[range.lowerBound...].prefix { $0 != ")" && $0 != "," && $0 != " " }
            out[String(name)] = Array(text.utf8)
        }
        return out
    }()

    /// The text of the real file at `path` (`specs/real-world/<name>`), from the corpus.
    static func read(_ path: String) -> [UInt8]? { files[path] }

    @Test func everyRealFileIsInTheCorpus() {
        #expect(Self.files.count == 21, "\(Self.files.keys.sorted())")
        for name in Self.expected.keys { #expect(Self.files[Self.folder + name + "__apple-app-site-association.json"] != nil, "\(name)") }
    }

    /// File name (less `__apple-app-site-association.json`) to its expected diagnostics, as
    /// "code pointer".
    static let expected: [String: [String]] = [
        "0xli__app.beagle.chat": [],
        "256Arts__256Arts.github.io": [],
        "AboutClan__About": [],
        // Legacy paths beside components (ignored on iOS 13 and later).
        "Adophlidu__firefly.social": ["paths-with-components /applinks/details/0/paths"],
        // A placeholder team ID.
        "BrettM86__coves": ["appid-prefix-unusual /applinks/details/0/appID"],
        // 91 legacy paths; six can never decide because an earlier one covers them.
        "CrimeanPatterns__frontend": [
            "rule-unreachable /applinks/details/0/paths/6",    // /account/list/analysis after /account/list/*
            "rule-unreachable /applinks/details/0/paths/11",   // /account/add after /account/add/* (its parent)
            "rule-unreachable /applinks/details/0/paths/35",   // /timeline/summary/*/* after /timeline/summary/*
            "rule-unreachable /applinks/details/0/paths/53",   // /m/account/history/*/* after /m/account/history/*/
            "rule-unreachable /applinks/details/0/paths/62",   // /m/profile after /m/profile/*
            "rule-unreachable /applinks/details/0/paths/74",   // /user/connections/* after /user/connections*
        ],
        // A missing comma between "webcredentials" and "applinks".
        "Dean151__Aln-NodeJs": ["not-json "],
        "Dsek-LTH__web": [],
        "FJAM-Studios__pixtery": ["paths-with-components /applinks/details/0/paths"],
        // "appIDs": [] uses the entry for no app: no code for that in the contract.
        "FlutterKaigi__conference-app-2023": [],
        "Illumineering__Padlok-Webapp": [],
        "Koniverse__SubWallet-Link": [],
        "Mileways__web": [],
        // `{"url": "*"}` also matches an absent url (it reads as empty), so the exclusion of
        // /skins/install "without url query" that follows never decides.
        "Provenance-Emu__provenance-emu.github.io": ["rule-unreachable /applinks/details/0/components/3"],
        "arfct__translucent": [],
        "bsv-blockchain__bsv-browser": [],
        // An App Clip only file.
        "cocoatype__kineo.app": ["no-applinks "],
        // A trailing comma after the last member of "details".
        "fntechgit__badge-print-app": ["not-json "],
        // No team prefix, and "/die-sammel-app" twice once the trailing slash is dropped.
        "grundeinkommensbuero__website-gatsby": ["appid-prefix-unusual /applinks/details/0/appID",
                                                 "rule-duplicate /applinks/details/0/paths/1"],
        // A trailing comma in "apps".
        "inkdropapp__top": ["not-json "],
        "roznet__connectstats": [],
    ]

    @Test(arguments: expected.keys.sorted())
    func realFile(name: String) throws {
        let bytes = try #require(Self.read(Self.folder + name + "__apple-app-site-association.json"))
        let found = AASA.validate(bytes).map { "\($0.code.rawValue) \($0.pointer)" }
        #expect(found == Self.expected[name]!)
        // Matching never traps either.
        if let file = AASAFile.parse(bytes).0 {
            for id in file.appIDs {
                let m = file.matcher(appID: id)
                _ = m.match(url: "https://example.com/a/b?c=d#e", domain: "example.com")
            }
        }
    }

    @Test func everyRealFileIsListed() {
        let names = Self.files.keys.map { String($0.dropFirst(Self.folder.count).dropLast("__apple-app-site-association.json".count)) }
        #expect(Set(names) == Set(Self.expected.keys))
    }

    @Test func provenanceBehaves() throws {
        let bytes = try #require(Self.read(Self.folder + "Provenance-Emu__provenance-emu.github.io__apple-app-site-association.json"))
        let file = try #require(AASAFile.parse(bytes).0)
        let m = file.matcher(appID: "S32Z3HMYVQ.org.provenance-emu.provenance")
        func k(_ rest: String) -> AASAMatchKind { m.match(url: "https://provenance-emu.com" + rest, domain: "provenance-emu.com").kind }
        #expect(k("/buy/1") == .match)
        #expect(k("/buy/1#no_universal_links") == .exclude)
        #expect(k("/skins/install") == .match)
        #expect(k("/help/website/x") == .exclude)
        #expect(k("/help/x?articleNumber=1234") == .match)
        #expect(k("/help/x?articleNumber=123") == .noMatch)
        #expect(k("/other") == .noMatch)
    }
}
