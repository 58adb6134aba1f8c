import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// Where the REPL writes: results to standard output, errors to standard
/// error (as lua.c does), each flushed.
public struct REPLOutput: Sendable {
    public var result: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void

    public static let standard = REPLOutput(
        result: { text in print(text); fflush(nil) },
        error: { text in
            fflush(nil)
            writeToStandardError(text + "\n")
        })
}
