import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// The end of a command whose output is its result (`check`, `graph`,
/// `types`): what it printed must have reached standard output.
enum StandardOutput {
    /// Flushes every stream; if standard output could not take what was
    /// written (`types > /dev/full`), says so on standard error and returns 1
    /// in place of `status`.
    static func flushed(_ status: Int32) -> Int32 {
        let failure = flushStandardOutput()
        fflush(nil)
        guard let failure else { return status }
        writeToStandardError("\(ProgramName.current): cannot write standard output: \(failure)\n")
        return 1
    }
}
