// The pid fuzz target: FuzzTarget.pid under libFuzzer (scripts/fuzz.sh pid), or, built normally,
// a replayer of inputs: swift run fuzz-pid FILE|FOLDER...
import FuzzSupport
import FuzzXignQR

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.pid.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.pid.replayMain() }
}
#endif
