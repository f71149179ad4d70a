// The json fuzz target: FuzzTarget.json under libFuzzer (scripts/fuzz.sh json), or, built normally,
// a replayer of inputs: swift run fuzz-json FILE|FOLDER...
import FuzzJSON
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.json.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.json.replayMain() }
}
#endif
