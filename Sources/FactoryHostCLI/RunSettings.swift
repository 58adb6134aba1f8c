import CLuaShim
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// `factoryhost run` with its settings, run without the argument parser
/// in its plain forms: setting the parser up costs about as much start-up
/// time as the whole Swift runtime, and `run` must start within 4× of
/// lua5.4. Everything else — help, errors, other commands — goes through
/// the argument parser as usual.
struct RunSettings: Equatable {
    var runner: ScriptRunner
    var setup = HostSetup()
    var configuration: String?

    /// Whether the command line names a script (`run -e STAT` alone does not).
    var hasScript: Bool { runner.commandLine.indices.contains(runner.scriptIndex) }

    /// `run -e STAT` / `-l MOD` with no script: runs them, as lua5.4 does
    /// (LUA_INIT first, finalizers at the end), and ends.
    func runPreludesAndExit() -> Never {
        var setup = self.setup
        setup.libraries = runner.libraries
        setup.timeLimit = runner.timeLimit
        var made: FactoryHost?
        do {
            // The limits as a script's run applies them (one deadline for the
            // whole run, the process's growth watched, a hard stop for code
            // Lua cannot interrupt); the Lua plugins run under them too.
            let host = try setup.makeHost { runner.applyLimits(to: $0) }
            made = host
            host.defaultConfiguration = configuration
            host.lua.interruptOnControlC(true)
            try runner.runInit(in: host.lua)
            for prelude in runner.preludes { try prelude.run(in: host.lua) }
            host.lua.interruptOnControlC(false)
        } catch {
            reportError(error)
            // Stopped by a limit: what it started stops with it, as after a script.
            guard let made else { exit(1) }
            ScriptRunner.exitIfStoppedByLimit(made.lua, status: 1)
            made.lua.closeAndExit(status: 1)          // finalizers run, as lua.c's lua_close does
        }
        made?.lua.closeAndExit(status: 0) ?? exit(0)
    }

    /// Runs the script in a host and ends the process with its exit status.
    func runAndExit() -> Never {
        CommandDeadline.arm(runner.timeLimit, doing: "reading its files or closing")
        var setup = self.setup
        setup.libraries = runner.libraries
        setup.timeLimit = runner.timeLimit
        let host: FactoryHost
        do {
            host = try setup.makeHost { runner.applyLimits(to: $0) }   // Lua plugins run under them too
            // The project's modules (.factoryhost.lua); the script's own folder is the runner's to add.
            try host.addProjectModuleDirectories(forScript: runner.commandLine.indices.contains(runner.scriptIndex) ? runner.scriptPath : "-")
        } catch {
            reportError(error)
            ScriptRunner.exitWithoutFinalizers(1)
        }
        host.defaultConfiguration = configuration
        host.noteMisplacedOptions(in: Array(runner.commandLine.dropFirst(runner.scriptIndex + 1)), command: "run")
        let status = runner.run(in: host.lua, limitsApplied: true, finish: host.finishScript)
        // Past its limit, a script's finalizers do not run (they could loop or exit 0).
        ScriptRunner.exitIfStoppedByLimit(host.lua, status: status)
        host.lua.closeAndExit(status: status)   // like lua.c: finalizers run before exit
    }
}
