import CLuaShim
import FactoryhostSupport
import LuaBridge

/// Runs a Lua script the way the stock `lua` interpreter (lua.c) does, so
/// that `factoryhost run script.lua a b` and `lua5.4 script.lua a b` print
/// the same, fail the same and exit with the same status.
///
/// - `arg` holds the script at `[0]`, its arguments at `[1…]` and every word
///   of the command line before the script at negative indices;
/// - the main chunk gets the arguments as `...`; a first `#` line is skipped;
/// - `LUA_INIT_5_4` / `LUA_INIT` run first (trusted mode only);
/// - `require` also looks beside the script (after the stock path);
/// - `-` reads the script from standard input;
/// - an error prints `<program>: <message and traceback>` on standard error
///   and the exit status is 1; `os.exit` works as in lua.
///
/// ```swift
/// let runner = ScriptRunner(commandLine: ["factoryhost", "run", "hello.lua", "x"], scriptIndex: 2)
/// runner.runAndExit()
/// ```
public struct ScriptRunner: Equatable {
    /// The whole command line (`argv`).
    public var commandLine: [String]
    /// Where the script's path stands in `commandLine`.
    public var scriptIndex: Int
    /// Each word of `commandLine` as the bytes given, when some word is not
    /// UTF-8 text (`commandLine` has it repaired): the script's path, its
    /// arguments and `arg` are those bytes, as lua5.4 has them.
    public var commandLineBytes: [[UInt8]]?
    /// The name that prefixes error reports (`factoryhost: …`).
    public var programName = ProgramName.current
    /// The standard library, or the restricted one for untrusted scripts.
    public var libraries: LuaState.Libraries = .standard
    /// The memory cap in bytes, if any.
    public var memoryLimit: Int?
    /// The wall-clock limit, if any.
    public var timeLimit: Duration?
    /// The instruction limit, if any.
    public var instructionLimit: Int?
    /// lua5.4's `-e STAT` and `-l MOD` (`-l g=mod`), run in order after
    /// LUA_INIT and before the script.
    public var preludes: [Prelude] = []

    /// `-e STAT` or `-l MOD`.
    public enum Prelude: Equatable, Sendable {
        /// `-e STAT`: runs the statement (chunk name `=(command line)`).
        case execute(String)
        /// `-e STAT` whose statement is not UTF-8 text, as its bytes.
        case executeBytes([UInt8])
        /// `-l MOD` / `-l g=mod`: `g = require "mod"` (g is mod when not given).
        case require(String)

        /// Runs it in `state`, as lua.c's dostring / dolibrary do.
        ///
        /// - Throws: a `LuaError`: `.syntax` when the statement does not compile, `.runtime` when the state
        ///   has no `require`, or what running the statement or `require` raises.
        public func run(in state: LuaState) throws {
            switch self {
            case .execute(let code):
                _ = try state.load(bytes: Array(code.utf8), chunkName: "=(command line)").callAsScript(arguments: [])
            case .executeBytes(let code):
                _ = try state.load(bytes: code, chunkName: "=(command line)").callAsScript(arguments: [])
            case .require(let spec):
                let (global, module) = spec.firstIndex(of: "=").map {
                    (String(spec[..<$0]), String(spec[spec.index(after: $0)...]))
                } ?? (spec, spec)
                guard case .function(let require) = try state.global("require") else {
                    throw LuaError(.runtime, "cannot load module '\(module)': this state has no require")
                }
                try state.setGlobal(global, require.call(LuaValue(module)).first ?? .nil)
            }
        }
    }

    /// A runner for `commandLine` (`argv`), whose word at `scriptIndex` is the script.
    public init(commandLine: [String], scriptIndex: Int) {
        self.commandLine = commandLine
        self.scriptIndex = scriptIndex
    }

    /// The script's path as given (`-` for standard input).
    public var scriptPath: String { commandLine[scriptIndex] }

    /// Runs the script and ends the process with its exit status (0, or 1
    /// after reporting an error): the state closes with
    /// `LuaState.closeAndExit(status:)` — its finalizers run, its memory
    /// is left to the exit. (To run a script and go on, use
    /// ``run(in:limitsApplied:finish:)`` on a state of your own.)
    public func runAndExit() -> Never {
        let state: LuaState
        do {
            state = try LuaState(libraries: libraries)
        } catch {
            report(error)
            ScriptRunner.exitWithoutFinalizers(1)
        }
        let status = run(in: state)
        ScriptRunner.exitIfStoppedByLimit(state, status: status)
        state.closeAndExit(status: status)    // like lua.c: finalizers run before exit
    }

    /// After a run that failed because `state`'s last call ran past a
    /// limit: ends what the stopped script started, then the process with
    /// `status`, no finalizer run (one could loop or exit 0). Returns otherwise.
    public static func exitIfStoppedByLimit(_ state: LuaState, status: Int32) {
        guard status != 0 && state.lastCallHitLimit else { return }
        fh_kill_descendants()                    // what the stopped script started stops with it
        exitWithoutFinalizers(status)
    }

    /// Ends the process with `status` without running any finalizer: after a
    /// script ran out of its time (or instruction) budget — a finalizer could
    /// loop, or change the exit status with `os.exit(0)` — or when there is
    /// no state to close. Every output stream is flushed first.
    public static func exitWithoutFinalizers(_ status: Int32) -> Never {
        fflush(nil)                    // every output stream (stdout among them)
        exit(status)
    }

    /// Runs the script in `state` (opened with ``libraries``, set up by its
    /// owner — a host with its own globals, say); `finish` runs after the
    /// script returns, and may still fail the run. Returns the exit status.
    ///
    /// Any error — from LUA_INIT, a prelude, the script or `finish` — is reported on
    ///   standard error (`<program>: …`) and the run returns 1.
    public func run(in state: LuaState, limitsApplied: Bool = false, finish: () throws -> Void = {}) -> Int32 {
        if !limitsApplied { applyLimits(to: state) }
        do {
            try prepare(state)
            state.interruptOnControlC(true)
            for prelude in preludes { try prelude.run(in: state) }
            state.interruptOnControlC(false)
            let main = try loadScript(state)
            let arguments = (scriptIndex + 1..<commandLine.count).map(word)
            state.interruptOnControlC(true)
            defer { state.interruptOnControlC(false) }
            _ = try main.callAsScript(arguments: arguments)
            try finish()
            return 0
        } catch {
            report(error)
            return 1
        }
    }

    /// Puts the run's limits on `state`; ``run(in:limitsApplied:finish:)``
    /// does it unless told it was done (by a host that ran Lua plugins
    /// before the script, under the same limits). The time limit is the
    /// whole run's from here: LUA_INIT, the script and what runs after it
    /// share it, and the process outlives it by at most a second (a hard
    /// stop ends code that Lua cannot interrupt). The memory limit caps
    /// Lua's heap exactly and the process's growth loosely (see
    /// `LuaState.limitProcessMemory(growth:)`).
    public func applyLimits(to state: LuaState) {
        state.memoryLimit = memoryLimit
        state.limitProcessMemory(growth: memoryLimit)
        state.instructionLimit = instructionLimit
        state.setDeadline(after: timeLimit)
        if timeLimit != nil || memoryLimit != nil { state.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(programName): ") }
    }

    /// Word `index` of the command line, as the bytes given.
    private func word(_ index: Int) -> LuaValue {
        guard let bytes = commandLineBytes, index < bytes.count else { return LuaValue(commandLine[index]) }
        return .string(LuaString(bytes: bytes[index]))
    }

    /// `arg`, LUA_INIT and the module path.
    func prepare(_ state: LuaState) throws {
        let arg = try state.newTable(arrayCapacity: commandLine.count - scriptIndex, hashCapacity: scriptIndex + 1)
        for i in commandLine.indices {
            try arg.rawSet(.integer(i - scriptIndex), word(i))
        }
        try state.setGlobal("arg", .table(arg))
        let dir = scriptPath == "-" ? nil : scriptPath.lastIndex(of: "/").map { String(scriptPath[...$0]) }
        guard libraries == .standard else {
            // Untrusted code may require modules beside the script, and only those.
            let base = dir ?? "./"
            state.setSandboxModulePath("\(base)?.lua;\(base)?/init.lua")
            return
        }
        try runInit(in: state)
        if let dir {
            let package = try state.global("package")
            if case .table(let package) = package, case .string(let path) = try package.rawGet("path") {
                let extra = ";\(dir)?.lua;\(dir)?/init.lua"
                try package.rawSet("path", .string(LuaString(bytes: path.bytes + Array(extra.utf8))))
            }
        }
    }

    /// Runs `LUA_INIT_5_4` or `LUA_INIT` (code, or `@file`) in `state`, as
    /// lua.c does before anything else — in trusted mode only.
    ///
    /// ```swift
    /// try runner.runInit(in: state)     // LUA_INIT='x = 1' → x is 1
    /// ```
    ///
    /// - Throws: the `LuaError` the code raised, or its file's.
    public func runInit(in state: LuaState) throws {
        guard libraries == .standard, let (name, code) = initCode() else { return }
        // The variable's bytes, as lua.c reads them (a String repairs what is not UTF-8).
        let chunk = code.first == UInt8(ascii: "@")
            ? try state.loadFile(bytes: Array(code.dropFirst()), mode: "bt")
            : try state.load(bytes: code, chunkName: name, mode: "bt")
        _ = try chunk.callAsScript(arguments: [])
    }

    /// The `LUA_INIT_5_4` or `LUA_INIT` code and its chunk name, as lua.c reads them.
    func initCode() -> (String, [UInt8])? {
        if let code = environmentBytes("LUA_INIT_5_4") { return ("=LUA_INIT_5_4", code) }
        if let code = environmentBytes("LUA_INIT") { return ("=LUA_INIT", code) }
        return nil
    }

    func loadScript(_ state: LuaState) throws -> LuaFunction {
        let mode = libraries == .standard ? "bt" : "t"
        if scriptPath != "-", let bytes = commandLineBytes, scriptIndex < bytes.count {
            return try state.loadFile(bytes: bytes[scriptIndex], mode: mode)
        }
        return try state.loadFile(scriptPath == "-" ? nil : scriptPath, mode: mode)
    }

    /// `<program>: <message>` on standard error, as lua.c's l_message — but
    /// at most about 4 KB of it (its start and its traceback's end), and with
    /// no control character a terminal would act on.
    func report(_ error: Error) {
        let text = (error as? LuaError)?.description ?? String(describing: error)
        writeToStandardError("\(programName): \(MessageText.printable(text))\n")
    }
}
