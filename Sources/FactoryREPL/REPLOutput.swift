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
    /// Told of a command that failed while its report went to `result`
    /// (`:check` finding problems), as `error` is told of the others.
    public var failed: @Sendable () -> Void = {}
    /// A note on standard error that is not an error (a scripted session
    /// does not fail on it): a `register` typed outside any configuration.
    public var note: @Sendable (String) -> Void = { text in
        fflush(nil)
        writeToStandardError(MessageText.printable(text) + "\n")
    }

    public static let standard = REPLOutput(
        // A value's text (its __tostring's, say) with nothing a terminal would act on, at most 64 KB.
        result: { text in print(MessageText.terminalSafe(MessageText.bounded(text, limit: 65_536))); fflush(nil) },
        error: { text in
            fflush(nil)
            writeToStandardError(MessageText.printable(text) + "\n")
        })
}

extension REPLOutput {
    /// `base`, counting the errors written (a scripted session — piped
    /// input — ends with status 1 when a line failed, as a script would).
    ///
    /// ```swift
    /// let (output, errors) = REPLOutput.counting(.standard)
    /// // … run the session with output …
    /// exit(errors.count > 0 ? 1 : 0)
    /// ```
    public static func counting(_ base: REPLOutput) -> (REPLOutput, ErrorTally) {
        let tally = ErrorTally()
        var output = REPLOutput(result: base.result, error: { text in
            tally.add()
            base.error(text)
        })
        output.failed = { tally.add() }
        output.note = base.note
        return (output, tally)
    }
}

/// How many errors a session wrote (see ``REPLOutput/counting(_:)``).
public final class ErrorTally: Sendable {
    private let lock = Lock()
    // nonisolated(unsafe): read and written only holding `lock`.
    nonisolated(unsafe) private var errors = 0

    /// The errors written so far.
    public var count: Int { lock.withLock { errors } }

    func add() { lock.withLock { errors += 1 } }
}
