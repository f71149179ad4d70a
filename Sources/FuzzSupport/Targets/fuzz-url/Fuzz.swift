// The url fuzz target: FuzzTarget.url under libFuzzer (scripts/fuzz.sh url), or, built normally,
// a replayer of inputs: swift run fuzz-url FILE|FOLDER...
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.url.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.url.replayMain() }
}
#endif
