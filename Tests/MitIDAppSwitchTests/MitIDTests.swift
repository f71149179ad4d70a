import Testing
import MitIDAppSwitch

let base = "https://broker.example/authorize?client_id=app&response_type=code"
let guideExample = base + "&idp_params=%7B%22mitid%22%3A%7B%22enable_app_switch%22%3A%20true%2C%20%22app_switch_os%22%3A%22ios%22%2C%20%22app_switch_url%22%3A%22https%3A%2F%2Fyour.appswitch.url%2F%22%7D%7D"
let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

/// `idp_params` percent-encoded from JSON text (every byte outside unreserved characters).
func encoded(_ json: String) -> String {
    var out = ""
    for b in json.utf8 {
        let c = Unicode.Scalar(b)
        if (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || c == "-" || c == "_" || c == "." || c == "~" {
            out.unicodeScalars.append(c)
        } else {
            let hex = Array("0123456789ABCDEF".unicodeScalars)
            out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 0xF)])
        }
    }
    return out
}

func read(_ url: String) -> MitIDAuthorize { MitIDAuthorize(parsing: Array(url.utf8)) }
func keys(_ url: String) -> [String] { read(url).violations.map(\.key) }

struct AuthorizeTests {
    @Test func theGuidesExampleEnablesAppSwitch() {
        let a = read(guideExample)
        #expect(a.kind == .appSwitch)
        #expect(a.os == "ios")
        #expect(a.returnURL == "https://your.appswitch.url/")
        #expect(a.violations.isEmpty)
    }

    @Test func everyEncodingMistakeIsAViolation() {
        let json = #"{"mitid":{"enable_app_switch":true,"app_switch_os":"android","app_switch_url":"https://app.example/"}}"#
        #expect(keys(base + "&idp_params=" + json) == ["idp-params-not-encoded"])
        #expect(keys(base + "&idp_params=" + encoded(encoded(json))) == ["idp-params-double-encoded"])
        #expect(keys(base + "&idp_params=" + encoded(json) + "&idp_params=" + encoded(json)) == ["idp-params-duplicated"])
        #expect(keys(base + "&idp_params=") == ["idp-params-empty"])
        #expect(keys(base + "&idp_params=%FF%FE") == ["idp-params-not-utf8"])
        #expect(keys(base + "&idp_params=" + encoded("[]")) == ["idp-params-not-object"])
        #expect(keys(base + "&idp_params=%7B%ZZ") == ["idp-params-bad-escape", "idp-params-not-json"])
        #expect(read(base + "&idp_params=" + json).kind == .invalid)
    }

    /// JSON may start with whitespace. Encoded twice, that whitespace decodes once to `%0A` (or
    /// stays raw when it was encoded only once); either way what follows is `%7B`, and the value
    /// was encoded twice. Encoded once, leading whitespace is valid JSON.
    @Test func doubleEncodingIsSeenPastLeadingWhitespace() {
        let json = #"{"mitid":{"enable_app_switch":true,"app_switch_os":"ios","app_switch_url":"https://app.example/"}}"#
        for space in ["\n", " ", "\t", "\r\n", " \r\n\t "] {
            #expect(keys(base + "&idp_params=" + encoded(encoded(space + json))) == ["idp-params-double-encoded"],
                    "whitespace \(space.unicodeScalars.map(\.value)) encoded twice")
            #expect(keys(base + "&idp_params=" + encoded(space) + encoded(encoded(json))) == ["idp-params-double-encoded"],
                    "whitespace \(space.unicodeScalars.map(\.value)) encoded once, the JSON twice")
            #expect(keys(base + "&idp_params=" + encoded(space + json)).isEmpty,
                    "whitespace \(space.unicodeScalars.map(\.value)) and JSON encoded once")
        }
        // Upper and lower case hex both count; anything else before %7B does not.
        #expect(keys(base + "&idp_params=%250a%257b%257D") == ["idp-params-double-encoded"])
        #expect(keys(base + "&idp_params=%2541%257B%257D") == ["idp-params-not-json"])
        #expect(keys(base + "&idp_params=%25%257B%257D") == ["idp-params-not-json"])
        #expect(keys(base + "&idp_params=%252%10%257B%257D") == ["idp-params-not-json"])  // not a %20 to skip
        #expect(keys(base + "&idp_params=%250A") == ["idp-params-not-json"])
        // An escape cut short at the end, after whitespace or alone: read to the end, not past it.
        #expect(keys(base + "&idp_params=%257") == ["idp-params-not-json"])
        #expect(keys(base + "&idp_params=%250A%257") == ["idp-params-not-json"])
        #expect(keys(base + "&idp_params=%250A%25") == ["idp-params-not-json"])
    }

    @Test func parameterRules() {
        #expect(keys(base + "&idp_params=" + encoded(#"{"mitid":{"enable_app_switch":"true","app_switch_os":"ios","app_switch_url":"https://a.example/"}}"#))
                == ["enable_app_switch:enable-not-boolean"])
        #expect(keys(base + "&idp_params=" + encoded(#"{"mitid":{"enable_app_switch":true,"app_switch_os":"iOS","app_switch_url":"https://a.example/"}}"#))
                == ["app_switch_os:os-invalid"])
        #expect(keys(base + "&idp_params=" + encoded(#"{"mitid":{"enable_app_switch":true,"app_switch_os":"ios","app_switch_url":"myapp://back"}}"#))
                == ["app_switch_url:url-custom-scheme"])
        #expect(keys(base + "&idp_params=" + encoded(#"{"mitid":{"enable_app_switch":true,"app_switch_os":"ios","app_switch_url":"https://u@a.example/"}}"#))
                == ["app_switch_url:url-userinfo"])
        #expect(keys(base + "&idp_params=" + encoded(#"{"mitid":{"app_switch_os":"ios"}}"#)) == ["enable_app_switch:app-switch-disabled"])
    }

    @Test func hugeAndHostileInputs() {
        #expect(keys(base + "&x=" + String(repeating: "a", count: 70_000)) == ["link-too-long"])
        #expect(keys(base + "&idp_params=" + String(repeating: "%5B", count: 5_000)).contains("idp-params-not-json"))
        #expect(MitIDAuthorize(parsing: [0xFF, 0x00, 0x3F]).kind == .noAppSwitch)
    }

    /// Thousands of unknown keys in one link: the first 32 are listed, the 32nd counts the rest
    /// (listed in full, 7,700 keys made a 1.3 MB answer, past the protocol's 1 MiB line).
    @Test func unknownParametersAreListedUpTo32() {
        let members = (0..<3_000).map { "\"\(String($0, radix: 16))\":1" }.joined(separator: ",")
        let a = read(base + "&idp_params=" + encoded(#"{"mitid":{"enable_app_switch":true,"app_switch_os":"ios","app_switch_url":"https://a.example/",\#(members)}}"#))
        let unknown = a.violations.filter { $0.code == .parameterUnknown }
        #expect(unknown.count == 32)
        #expect(unknown.map(\.key).prefix(3) == ["0:parameter-unknown", "1:parameter-unknown", "2:parameter-unknown"])
        #expect(unknown.last?.message.hasSuffix("(and 2968 more unknown parameters, not listed: an answer lists the first 32)") == true)
        #expect(unknown.dropLast().allSatisfy { !$0.message.contains("not listed") })
        // Up to 32, all listed, none counted.
        let few = (0..<32).map { "\"k\($0)\":1" }.joined(separator: ",")
        let b = read(base + "&idp_params=" + encoded(#"{"mitid":{\#(few)}}"#)).violations.filter { $0.code == .parameterUnknown }
        #expect(b.count == 32 && !b.contains { $0.message.contains("not listed") })
    }
}

struct ReturnLegTests {
    let aasa = Array(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/", "exclude": true}, {"/": "*"}]}]}}"#.utf8)
    let assetLinks = Array(#"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#.utf8)

    func authorize(_ os: String, _ url: String) -> [UInt8] {
        Array((base + "&idp_params=" + encoded(#"{"mitid":{"enable_app_switch":true,"app_switch_os":""# + os + #"","app_switch_url":""# + url + #""}}"#)).utf8)
    }

    @Test func iOSVerdictFollowsTheAASAFile() {
        let app = MitIDReturnLeg.App(appID: "ABCDE12345.com.example.app")
        #expect(MitIDReturnLeg.judge(authorize: authorize("ios", "https://app.example/back"), aasa: aasa, assetLinks: nil, app: app).verdict == .reaches)
        #expect(MitIDReturnLeg.judge(authorize: authorize("ios", "https://app.example/"), aasa: aasa, assetLinks: nil, app: app).verdict == .browser)
        #expect(MitIDReturnLeg.judge(authorize: authorize("ios", "https://app.example/back"), aasa: nil, assetLinks: assetLinks, app: app).verdict == .browser)
    }

    @Test func androidVerdictFollowsAssetLinks() {
        let app = MitIDReturnLeg.App(packageName: "com.example.app", fingerprint: fingerprint)
        #expect(MitIDReturnLeg.judge(authorize: authorize("android", "https://app.example/"), aasa: nil, assetLinks: assetLinks, app: app).verdict == .reaches)
        let other = MitIDReturnLeg.App(packageName: "com.example.other", fingerprint: fingerprint)
        #expect(MitIDReturnLeg.judge(authorize: authorize("android", "https://app.example/"), aasa: nil, assetLinks: assetLinks, app: other).verdict == .browser)
    }

    @Test func noAppSwitchNoReturn() {
        #expect(MitIDReturnLeg.judge(authorize: Array(base.utf8), aasa: aasa, assetLinks: assetLinks, app: .init()).verdict == .noReturn)
        #expect(MitIDReturnLeg.judge(authorize: authorize("ios", "myapp://back"), aasa: aasa, assetLinks: nil, app: .init(appID: "ABCDE12345.com.example.app")).verdict == .noReturn)
    }
}

struct AuthorizeManyParametersTests {
    /// A link of tens of thousands of parameters is read in time linear in its length (each
    /// item used to split the whole query again), and `idp_params` is found among them.
    @Test func manyParametersAfterIdpParams() {
        let many = String(repeating: "&a=1", count: 15_000)
        let clock = ContinuousClock()
        var a: MitIDAuthorize?
        let took = clock.measure { a = read(guideExample + many) }
        #expect(a?.kind == .appSwitch)
        #expect(took < .seconds(2))
        #expect(keys(base + many + "&idp_params=%7B%7D&idp_params=%7B%7D").contains("idp-params-duplicated"))
    }
}
