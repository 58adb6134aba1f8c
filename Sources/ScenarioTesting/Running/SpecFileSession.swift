import FactoryRegistry
import FactoryhostSupport
import FactoryScripting
import LuaBridge
import LuaInterpreter

/// One spec file in a host of its own: loaded once (its configurations
/// declared, its tests collected), then run test by test — each test a
/// separate call from Swift with its own time limit and a fresh container.
final class SpecFileSession {
    let file: String
    let host: FactoryHost
    let tests: [TestCase]
    private let api: LuaTable
    /// What the file declared at its top level: every test starts from it.
    private let declared: FactoryHost.Declarations

    /// The configurations the file's tests' overrides made.
    let overrides: TestOverrides
    /// What the file's tests built (`--coverage`), if it is recorded.
    let coverage: RegistrationCoverage?

    /// Loads `file` into `host`: the test globals first, then the file, which
    /// may `require` modules beside it. Throws a ``TestFailure`` if the file
    /// cannot be loaded.
    init(file: String, host: FactoryHost, timeLimit: Double, recordsCoverage: Bool = false) throws(TestFailure) {
        self.file = file
        self.host = host
        let lua = host.lua
        let overrides = TestOverrides()
        self.overrides = overrides
        let coverage = recordsCoverage ? RegistrationCoverage() : nil
        self.coverage = coverage
        if let coverage {
            // For the declaration built, in whichever configuration declared it (a test's
            // overrides are declared in configurations of their own, left out of the report).
            host.onScriptBuild = { _, registration in coverage.record(registration) }
        }
        do {
            try host.addModuleDirectory(of: file)
            let isA = try lua.frameFunction("is_a") { [unowned host] frame in
                try host.installPendingPlugins(for: frame)   // the plugins' types, if nothing installed them yet
                try frame.push(Self.value(frame.value(1), isA: frame.string(2), in: host))
                return 1
            }
            // stub "Interface" { … }: the methods it must implement (nil and why, for another name).
            let interfaceMethods = try lua.frameFunction("interface_methods") { [unowned host] frame in
                let written = try frame.string(1)
                try host.installPendingPlugins(for: frame)
                // `session.AuthRemoteAPI` names the interface `AuthRemoteAPI` (its methods are kept by that name).
                let name = (try? host.types.type(named: written)).map { $0.kind == .interface ? $0.name : written } ?? written
                if let methods = host.types.requiredMethods(ofInterface: name) {
                    try frame.push(.table(host.lua.array(methods.map { LuaValue($0) })))
                    let properties = host.types.shape(ofInterface: name)?.properties.map { LuaValue($0.name) } ?? []
                    try frame.push(.table(host.lua.array(properties)))
                    return 2
                }
                frame.pushNil()
                do {
                    let type = try host.types.type(named: written)
                    frame.push("\(written) is \(type.kind == .class ? "a class" : "a \(type.kind.rawValue) type"), not an interface: stub doubles interfaces")
                } catch let error as LuaError {
                    frame.push(error.message)
                }
                return 2
            }
            // override "Key" { … } in a test: the test's container, its key, the body, where it was written.
            let overrideRegistration = try lua.frameFunction("override") { [unowned host] frame in
                let key = try frame.string(2)
                let origin = Origin(file: try frame.string(4), line: try frame.integer(5))
                try overrides.override(in: host, frame.value(1), key: key, body: frame.value(3), origin: origin,
                                       inBeforeEach: frame.isNoneOrNil(6) ? false : (try frame.string(6)) == "before_each")
                return 0
            }
            // How many calls from Swift are running: an expectation failing deeper than the test
            // itself runs is in Lua code Swift called, which may swallow it.
            let swiftDepth = try lua.frameFunction("swift_depth") { [unowned lua] frame in
                try frame.push(.integer(lua.swiftCallDepth))
                return 1
            }
            let chunk = try lua.load(bytes: Array(testDSLSource.utf8), chunkName: "=[factoryhost test]")
            guard case .table(let api)? = try chunk.call(.function(isA), .function(interfaceMethods),
                                                         .function(overrideRegistration), .function(swiftDepth)).first else {
                throw LuaError(.runtime, "the test library did not load")
            }
            self.api = api
            lua.timeLimit = Self.duration(seconds: timeLimit)
            // Loading is held to the limit too; stuck in C, it ends the worker.
            lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): \(file): ", status: WorkerProcess.hardStopStatus)
            try Self.setArguments(for: file, in: lua)
            try host.run(file: file)
            coverage?.reset()                 // what the file's top level built is not what its tests built
            guard case .function(let list) = try api.rawGet("tests"),
                  case .table(let items)? = try list.call().first else {
                throw LuaError(.runtime, "the test library lost its test list")
            }
            tests = try items.array().enumerated().map { try Self.testCase($0.element, index: $0.offset + 1) }
            declared = host.declarations()
        } catch let error as LuaError {
            throw Self.failure(from: error)
        } catch {
            throw TestFailure(kind: .error, message: String(describing: error))
        }
    }

    /// `arg`, as `factoryhost run` gives a script: `arg[0]` the spec file,
    /// `arg[-1]` "test", `arg[-2]` this program's executable — what a spec
    /// starts another process of the program with (a restart, say).
    private static func setArguments(for file: String, in lua: LuaState) throws {
        let arg = try lua.newTable(hashCapacity: 3)
        try arg.rawSet(.integer(0), LuaValue(file))
        try arg.rawSet(.integer(-1), "test")
        if let executable = executablePath() ?? CommandLine.arguments.first { try arg.rawSet(.integer(-2), LuaValue(executable)) }
        try lua.setGlobal("arg", .table(arg))
    }

    /// The tests `selection` keeps, in declaration order.
    /// (A test's whole name is matched, not the one reports show: a filter
    /// naming the middle of a 6,000-byte name found nothing, and the text
    /// "bytes left out" found it.)
    func select(_ selection: TestSelection) throws -> [TestCase] {
        guard case .function(let selects) = try api.rawGet("selects") else { return tests }
        let texts = try host.lua.array(selection.texts.map { LuaValue($0) })
        let patterns = try host.lua.array(selection.patterns.map { LuaValue($0) })
        return try tests.filter { test in
            if !selection.tags.isEmpty, !test.tags.contains(where: selection.tags.contains) { return false }
            if test.tags.contains(where: selection.excludedTags.contains) { return false }
            if selection.patterns.isEmpty && selection.texts.isEmpty { return true }
            return try selects.call(.integer(test.index), .table(texts), .table(patterns)).first?.isTruthy == true
        }
    }

    /// Says which tests will run in this session, in order: a block's
    /// after_all hooks run after the last of them (and never, if the run
    /// stops before it).
    func plan(_ tests: [TestCase]) {
        guard case .function(let plan) = (try? api.rawGet("plan")) ?? .nil,
              let indices = try? host.lua.array(tests.map { LuaValue.integer($0.index) }) else { return }
        _ = try? plan.call(.table(indices))
    }

    /// Runs `test` with its hooks: a fresh container of its configuration
    /// (or `defaultConfiguration`) handed to every hook and the body, used by
    /// plain `resolve` too, closed after the test and dropped — with
    /// everything it built.
    func run(_ test: TestCase, defaultConfiguration: String?, timeLimit: Double) -> TestResult {
        if test.isPending { return TestResult(test: test, outcome: .skipped("pending"), duration: 0) }
        let clock = ContinuousClock()
        host.lua.markGarbage()
        let started = clock.now
        var outcome = outcome(of: test, configuration: test.configuration ?? defaultConfiguration,
                              timeLimit: test.timeout ?? timeLimit)
        let elapsed = clock.now - started
        host.useContainer(nil)
        callLibrary("clear_records")                   // after the container's closes: the next test's spies start empty
        // Configurations and scopes the test declared are gone for the next.
        try? host.restoreDeclarations(declared)
        host.lua.collectGarbageSinceMark()      // release what the test built (and its container) now
        // A finalizer of the test's objects that called os.exit fails the test.
        if case .function(let lateExit) = (try? api.rawGet("late_exit")) ?? .nil,
           case .string(let text)? = try? lateExit.call().first, outcome == .passed {
            outcome = .failed(TestFailure(kind: .error, message: text.description + " (in a finalizer)", location: test.location))
        }
        return TestResult(test: test, outcome: outcome, duration: Self.seconds(elapsed))
    }

    private func outcome(of test: TestCase, configuration: String?, timeLimit: Double) -> TestResult.Outcome {
        var containerValue = LuaValue.nil
        var testContainer: Container?
        if let configuration {
            do {
                let container = try host.container(configuration)
                testContainer = container
                host.useContainer(container)
                containerValue = try host.scriptValue(for: container)
            } catch {
                // Its blocks' after_all still run after their last test, and say if they fail.
                let teardown = callLibrary("passed_over", test)
                // At the config's own line when the spec gave it (a typo there is not the test's line's).
                // (A test a worker was sent lacks the place: this session's own list has it.)
                let declared = tests.indices.contains(test.index - 1) ? tests[test.index - 1] : test
                let place = test.configuration != nil ? declared.configurationPlace ?? test.location : test.location
                let given = test.configuration == nil ? " (given by --config)" : ""
                return .failed(TestFailure(kind: .error, message: "cannot make a container of '\(configuration)'\(given): \(error)"
                                           + (teardown.map { "\n(and in after_all: \($0))" } ?? ""), location: place))
            }
        }
        // The container the test ends with: another if it overrode a registration.
        func endingContainer() -> Container? { host.container(of: containerValue)?.container ?? testContainer }
        do {
            host.lua.timeLimit = Self.duration(seconds: timeLimit)
            // A test stuck where Lua cannot stop it (a long C builtin, a
            // blocking call, a finalizer) ends the run a second after its
            // limit, naming the test, rather than hanging it.
            host.lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): \(test.location): '\(test.name.prefix(120))': ",
                                             status: WorkerProcess.hardStopStatus)
            guard case .function(let run) = try api.rawGet("run") else {
                return .failed(TestFailure(kind: .error, message: "the test library lost its runner", location: test.location))
            }
            let result = try run.call(.integer(test.index), containerValue).first
            // The test's container closes after it, as an app's would: its
            // open scopes and singletons are closed (a Lua object's __close
            // or close method runs), and a close that fails fails the test.
            do {
                try endingContainer()?.close()
            } catch {
                if case .table = result {} else {
                    return .failed(TestFailure(kind: .error, message: "after the test, closing its container: \(error)",
                                               location: test.location))
                }
            }
            guard case .table(let failure)? = result else { return .passed }
            return .failed(try Self.failure(from: failure, test: test))
        } catch let error as LuaError where error.kind == .timeLimit {
            let hook = runningHook()                       // (before abandon runs the hooks again)
            let cleanup = abandon(test, timeLimit: timeLimit)
            try? endingContainer()?.close()
            // Where the code was when it was stopped (a factory's loop, say), not the test's first line.
            let stoppedAt = Self.userLocation(Self.splitLocation(error.message).0, traceback: error.traceback)
            var failure = TestFailure(kind: .timeout,
                                      message: "timed out after \(Self.format(seconds: timeLimit)) s; "
                                      + "give it longer with it(name, { timeout = seconds }, fn) or --timeout"
                                      + (cleanup.map { "\n(and in its cleanup: \($0))" } ?? ""),
                                      location: stoppedAt ?? test.location, traceback: Self.deeperFrames(error.traceback))
            failure.phase = hook?.name                      // a hook that hung is named as such (the phase was empty)
            return .failed(failure)
        } catch let error as LuaError {
            var failure = Self.failure(from: error)
            if failure.location == nil { failure.location = test.location }
            if let cleanup = abandon(test, timeLimit: timeLimit) { failure.message += "\n(and in its cleanup: \(cleanup))" }
            try? endingContainer()?.close()
            return .failed(failure)
        } catch {
            return .failed(TestFailure(kind: .error, message: String(describing: error), location: test.location))
        }
    }

    /// The hook running now (`after_all` at `spec.lua:4`), if one is: the
    /// test library says which as each starts.
    func runningHook() -> (name: String, place: String)? {
        guard case .table(let status) = (try? api.rawGet("status")) ?? .nil,
              case .table(let phase) = (try? status.rawGet("phase")) ?? .nil,
              case .string(let name) = (try? phase.rawGet("name")) ?? .nil,
              case .string(let place) = (try? phase.rawGet("where")) ?? .nil else { return nil }
        return (name.description, place.description)
    }

    /// Has `report` called with each hook's name and place as it starts (and
    /// two empty strings as it ends): a worker tells its runner, so a hook
    /// stuck where Lua cannot stop it, or killing its worker, is named.
    func reportHooks(_ report: @escaping (String, String) -> Void) throws {
        guard case .table(let status) = try api.rawGet("status") else { return }
        try status.rawSet("report", .function(host.lua.frameFunction("report") { frame in
            report((try? frame.string(1)) ?? "", (try? frame.string(2)) ?? "")
            return 0
        }))
    }

    /// After a test the library could not finish (stopped by its limit):
    /// its cleanups, after_each and after_all hooks, spies put back and the
    /// file's state restored, under a fresh limit. What failed there, if anything.
    private func abandon(_ test: TestCase, timeLimit: Double) -> String? {
        guard case .function(let abandon) = (try? api.rawGet("abandon")) ?? .nil else { return nil }
        // A hook that hangs again is stopped again; each call goes on after
        // the hooks tried already, so a few calls finish every cleanup.
        var stops: [String] = []
        for _ in 0..<8 {
            host.lua.timeLimit = Self.duration(seconds: timeLimit)
            do {
                guard case .string(let text)? = try abandon.call(.integer(test.index)).first else {
                    return stops.isEmpty ? nil : stops.joined(separator: "; ")
                }
                return (stops + [text.description]).joined(separator: "; ")
            } catch {
                stops.append("stopped again: \(error)")
            }
        }
        return stops.joined(separator: "; ")
    }

    /// Calls the library's `name(test.index)`; what it says, if text.
    @discardableResult
    private func callLibrary(_ name: String, _ test: TestCase? = nil) -> String? {
        guard case .function(let function) = (try? api.rawGet(LuaValue(name))) ?? .nil else { return nil }
        guard case .string(let text)? = try? function.call(arguments: test.map { [.integer($0.index)] } ?? []).first else { return nil }
        return text.description
    }

    // MARK: Reading what Lua returns

    private static func testCase(_ value: LuaValue, index: Int) throws -> TestCase {
        let table = try value.table()
        let path = try table.rawGet("path").table().array().map { try $0.luaString().shown }
        let tags = try table.rawGet("tags").table().array().map { try $0.luaString().shown }
        return TestCase(index: index, name: try table.rawGet("name").luaString().shown, path: path,
                        file: try table.rawGet("file").luaString().shown, line: try table.rawGet("line").int(),
                        tags: tags, configuration: try optionalString(table.rawGet("config")),
                        timeout: try table.rawGet("timeout").isNil ? nil : table.rawGet("timeout").double(),
                        isPending: try table.rawGet("pending").isTruthy,
                        configurationPlace: try optionalString(table.rawGet("config_at")))
    }

    private static func failure(from table: LuaTable, test: TestCase) throws -> TestFailure {
        let message = try optionalString(table.rawGet("message")) ?? "(no message)"
        let isExpectation = try table.rawGet("expectation").isTruthy
        let phase = try optionalString(table.rawGet("phase"))
        let traceback = userFrames(try optionalString(table.rawGet("traceback")))
        if isExpectation {
            return TestFailure(kind: .expectation, message: message,
                               location: try optionalString(table.rawGet("where")) ?? test.location,
                               expected: try optionalString(table.rawGet("expected")),
                               actual: try optionalString(table.rawGet("actual")), phase: phase)
        }
        let (location, text) = splitLocation(message)
        return TestFailure(kind: .error, message: text, location: location ?? test.location,
                           traceback: traceback, phase: phase)
    }

    private static func failure(from error: LuaError) -> TestFailure {
        let (location, text) = splitLocation(error.message)
        return TestFailure(kind: .error, message: text, location: userLocation(location, traceback: error.traceback),
                           traceback: userFrames(error.traceback))
    }

    /// A stopped test's user frames when it was stopped deeper than its
    /// own body (in a factory, a helper): the one frame of the body only
    /// repeats the location.
    static func deeperFrames(_ traceback: String?) -> String? {
        guard let frames = userFrames(traceback), frames.split(separator: "\n").count > 2 else { return nil }
        return frames
    }

    /// Where in the user's code an error happened: `location` unless it is
    /// inside the test library (a limit that stopped `to_equal` mid-walk),
    /// then the innermost user frame of the traceback (the `expect` line).
    static func userLocation(_ location: String?, traceback: String?) -> String? {
        guard location == nil || location?.hasPrefix("[factoryhost test]") == true else { return location }
        return LuaError.innermostPlace(in: traceback) { $0.hasPrefix("[factoryhost test]") || $0.hasPrefix("[C]") } ?? location
    }

    /// The traceback without the runner's own frames.
    static func userFrames(_ traceback: String?) -> String? {
        guard var lines = traceback?.split(separator: "\n", omittingEmptySubsequences: false) else { return nil }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        func isLibrary(_ line: Substring) -> Bool { line.contains("[factoryhost test]") }
        func isC(_ line: Substring) -> Bool { line.drop { $0 == "\t" || $0 == " " }.hasPrefix("[C]:") }
        // Innermost first: a C function's caller is the line after it, and
        // one the library called (table.sort in to_equal, xpcall) is its own too.
        var kept: [Substring] = []
        for (index, line) in lines.enumerated() {
            if isLibrary(line) || line.contains("[C]: in function 'error'") { continue }
            if isC(line), let caller = lines[(index + 1)...].first(where: { !isC($0) }), isLibrary(caller) { continue }
            kept.append(line)
        }
        return kept.count <= 1 ? nil : kept.joined(separator: "\n")
    }

    /// A string the library gave, as text that stays true: invalid UTF-8 in
    /// a message (`error("\\255")`) or a name is shown as `\\xFF`, not lost.
    private static func optionalString(_ value: LuaValue) throws -> String? {
        value.isNil ? nil : try value.luaString().shown
    }

    /// `"spec.lua:12: boom"` → `("spec.lua:12", "boom")`; a message without
    /// a leading position → `(nil, message)`.
    static func splitLocation(_ message: String) -> (String?, String) {
        var index = message.startIndex
        while let colon = message[index...].firstIndex(of: ":") {
            var end = message.index(after: colon)
            while end < message.endIndex, message[end].isASCII, message[end].isNumber { end = message.index(after: end) }
            if end > message.index(after: colon), message[end...].hasPrefix(": "),
               !message[..<colon].contains("\n") {
                return (String(message[..<end]), String(message[message.index(end, offsetBy: 2)...]))
            }
            index = message.index(after: colon)
        }
        return (nil, message)
    }

    // MARK: Helpers

    /// `expect(v):to_be_a(name)`: a Lua type name, or a type the host knows
    /// (an exported class, an interface, a primitive such as `integer`).
    private static func value(_ value: LuaValue, isA name: String, in host: FactoryHost) throws -> Bool {
        switch name {
        case "nil", "boolean", "number", "string", "table", "function", "userdata", "thread":
            return value.type.description == name
        case "float":
            if case .number = value { return true } else { return false }
        default:
            let type = try host.types.type(named: name)
            return (try? type.value(from: value, in: host.lua)) != nil
        }
    }

    static func seconds(_ duration: Duration) -> Double { duration.inSeconds }

    /// A limit in seconds as a Duration, clamped to 1 ms…1 day (never a trap:
    /// `Duration.seconds(_:)` traps on NaN, ±inf and huge values).
    static func duration(seconds: Double) -> Duration {
        .milliseconds(Int64(seconds.isFinite ? min(max(seconds, 0.001), 86_400) * 1000 : 86_400_000))
    }

    static func format(seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return String(seconds) }
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
