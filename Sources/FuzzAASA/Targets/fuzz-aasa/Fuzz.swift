// The aasa fuzz target: FuzzTarget.aasa under libFuzzer (scripts/fuzz.sh aasa), or, built normally,
// a replayer of inputs: swift run fuzz-aasa FILE|FOLDER...
import FuzzAASA
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.aasa.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.aasa.replayMain() }
}
#endif
