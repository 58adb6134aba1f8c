import CLuaShim
import FactoryhostSupport

/// Writes `text` to standard error unbuffered, as lua.c's
/// `lua_writestringerror` does.
public func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if written <= 0 { return }
        bytes = bytes.dropFirst(written)
    }
}

/// Makes standard output line-buffered, so that its lines and standard
/// error's reach a shared file in the order they were written (the test
/// runner's workers capture both in one file).
public func lineBufferStandardOutput() {
    fh_line_buffer_stdout()
}

/// Flushes standard output; why what was written did not all get there
/// (`No space left on device`), or nil if it did.
///
/// ```swift
/// print(report)
/// if let failure = flushStandardOutput() { writeToStandardError("cannot write standard output: \(failure)\n") }
/// ```
public func flushStandardOutput() -> String? {
    switch fh_flush_stdout() {
    case 0: return nil
    case -1: return "an earlier write to it failed"
    case let failure: return String(cString: strerror(failure))
    }
}
