import CLuaShim
import FactoryhostSupport

/// The whole command's deadline: `--timeout` from the command's start to
/// its exit, not only while Lua runs. Lua's own limit stops a script at its
/// line first; this ends what no hook reaches — opening a FIFO nobody
/// writes, validating or rendering a huge graph — two seconds after the
/// limit (the hard stop's grace, and a second more), killing whatever the
/// command started.
///
/// ```swift
/// CommandDeadline.arm(.seconds(1), doing: "checking")
/// ```
enum CommandDeadline {
    /// When the command started (read first thing in `main`): a deadline
    /// runs from here, whatever ran before it was armed.
    static let started = ContinuousClock.now

    /// What is left of `limit` since the command started, in whole
    /// milliseconds (a limit's message shows it), at least one — or all of
    /// it in the command's first tenth of a second, so the first file's
    /// message names the limit given (0.3, not 0.298).
    static func left(of limit: Duration) -> Duration {
        let spent = ContinuousClock.now - started
        if spent < .milliseconds(100) { return limit }
        let remaining = (limit - spent).components
        return .milliseconds(max(remaining.seconds * 1000 + remaining.attoseconds / 1_000_000_000_000_000, 1))
    }

    static func arm(_ limit: Duration?, doing what: String) {
        guard let limit else { return }
        let seconds = limit.inSeconds
        let shown = seconds == seconds.rounded() ? "\(Int(seconds)).0" : "\(seconds)"
        let message = "\(ProgramName.current): time limit exceeded (\(shown) seconds) for the whole command, and it did not end "
            + "within 2 s more (it was \(what), outside Lua or blocked): it was stopped"
        _ = fh_arm_command_deadline(seconds + 2, message, 1)
    }
}
