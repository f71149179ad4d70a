// The xcallback fuzz target: FuzzTarget.xcallback under libFuzzer (scripts/fuzz.sh xcallback), or, built normally,
// a replayer of inputs: swift run fuzz-xcallback FILE|FOLDER...
import FuzzSupport
import FuzzXCallback

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.xcallback.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.xcallback.replayMain() }
}
#endif
