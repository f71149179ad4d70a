#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import Foundation
import Testing

@Suite struct CapturedCommandTests {
    @Test func everyEndTheParentKeepsIsCloseOnExec() throws {
        // A process another thread starts with Foundation's Process (which closes nothing)
        // must not inherit these: holding a write end open, it would keep our reader waiting.
        let child = try SpawnedProcess(arguments: ["sleep", "5"], workingDirectory: nil)
        defer { child.terminate(SIGKILL); child.waitForExit() }
        for fd in [child.input, child.output, child.error] {
            let flags = fcntl(fd, F_GETFD)
            #expect(flags >= 0 && flags & FD_CLOEXEC != 0, "descriptor \(fd)")
        }
    }

    @Test func anEmptyCommandIsRefusedNotRunAsEnv() {
        #expect(throws: SpawnedProcess.SpawnError.self) { try SpawnedProcess(arguments: [], workingDirectory: nil) }
    }

    @Test func bothOutputsAndTheInputAreMovedAtOnceWithoutADeadlock() throws {
        // 1 MB in, 1 MB out on each stream: any pipe left unread fills at 64 KB and stops the child.
        let input = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let script = "import sys; d = sys.stdin.buffer.read(); sys.stderr.buffer.write(d); sys.stdout.buffer.write(d[::-1] + b'!')"
        let result = try CapturedCommand.run(["python3", "-c", script], input: input)
        #expect(result.status == 0)
        #expect(result.stderr == input)
        #expect(result.stdout.count == input.count + 1 && result.stdout.last == UInt8(ascii: "!"))
    }

    @Test func exitStatusAndSignalAreToldApart() throws {
        let exited = try CapturedCommand.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(exited.termination.exitStatus == 3 && exited.termination.signal == nil)
        #expect(exited.status == 3)
        #expect(String(decoding: exited.stdout, as: UTF8.self) == "out\n")
        #expect(String(decoding: exited.stderr, as: UTF8.self) == "err\n")
        let killed = try CapturedCommand.run(["sh", "-c", "kill -TERM $$"])
        #expect(killed.termination.signal == SIGTERM)
        #expect(killed.status == 128 + SIGTERM)
        #expect(killed.termination.description == "killed by signal \(SIGTERM)")
    }

    @Test func theChildsPeakMemoryAndCPUTimeAreMeasured() throws {
        // 64 MB touched by the child: its peak, not ours, is what is reported.
        let result = try CapturedCommand.run(["python3", "-c", "b = bytearray(64 << 20); sum(b[::4096])"])
        #expect(result.status == 0)
        #expect(result.termination.peakResidentBytes > 64 << 20 && result.termination.peakResidentBytes < 1 << 30)
        #expect(result.termination.cpuSeconds > 0)
    }

    @Test func aCommandThatIgnoresItsInputDoesNotStopUs() throws {
        // It exits without reading: writing the rest meets a closed pipe (EPIPE, not SIGPIPE).
        let result = try CapturedCommand.run(["true"], input: [UInt8](repeating: 0, count: 1 << 20))
        #expect(result.status == 0)
    }

    @Test func aMissingProgramIsAnExitStatusNotACrash() throws {
        // Through /usr/bin/env, which says so and exits 127.
        let result = try CapturedCommand.run(["linkconform-no-such-program"])
        #expect(result.status == 127)
        #expect(String(decoding: result.stderr, as: UTF8.self).contains("linkconform-no-such-program"))
    }
}
