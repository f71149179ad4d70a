// The query-diff fuzz target: FuzzTarget.queryDiff under libFuzzer (scripts/fuzz.sh query-diff), or, built normally,
// a replayer of inputs: swift run fuzz-query-diff FILE|FOLDER...
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.queryDiff.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.queryDiff.replayMain() }
}
#endif
