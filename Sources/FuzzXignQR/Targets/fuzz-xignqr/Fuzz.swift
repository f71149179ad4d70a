// The xignqr fuzz target: FuzzTarget.xignqr under libFuzzer (scripts/fuzz.sh xignqr), or, built normally,
// a replayer of inputs: swift run fuzz-xignqr FILE|FOLDER...
import FuzzSupport
import FuzzXignQR

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.xignqr.fuzzOne(data, size)
}

#if !FUZZING
@main struct Replay {
    static func main() { FuzzTarget.xignqr.replayMain() }
}
#endif
