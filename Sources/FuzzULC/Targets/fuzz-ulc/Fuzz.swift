// The ulc fuzz target: FuzzTarget.ulc under libFuzzer (scripts/fuzz.sh ulc), or, built normally,
// a replayer of inputs: swift run fuzz-ulc FILE|FOLDER...
import FuzzSupport
import FuzzULC

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.ulc.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.ulc.replayMain() }
}
#endif
