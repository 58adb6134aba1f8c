import FactoryRegistry
import LuaBridge

/// What `check` and `graph` learn while a script runs in dry-run mode
/// (``FactoryHost/beginDryRun()``), apart from the host: the DSL tells it
/// what it reached and what failed, the registration parser hands it the
/// `make` functions to keep alive, and ``FactoryHost/declare(file:source:arguments:timeLimit:asSpec:)``
/// reads it to find the declarations never reached.
///
/// ```swift
/// try host.beginDryRun()                    // host.checkSession is made
/// host.checkSession?.reached(origin, name: "app")
/// ```
final class CheckSession {
    /// Where and why the dry run stopped, if it did.
    var stop: DeclarationRun.Stop?
    /// Where configurations and scopes were declared.
    private(set) var reachedDeclarations: Set<Origin> = []
    /// The same, with the name declared there (`file:line#name`).
    private(set) var reachedNames: Set<String> = []
    /// Where `configuration "x"` was called, its body applied or not (a body
    /// that failed was started, never reached).
    private(set) var startedDeclarations: Set<Origin> = []
    /// Declarations that failed (a typo in a dependency, a duplicate
    /// registration…), each recorded at its line while the run went on:
    /// `check` reports them all, where `run` stops at the first.
    var declarationErrors: [CheckProblem] = []
    /// Whether the script failed (its error is the problem to fix:
    /// registrations of a body it never applied are not reported apart).
    var scriptFailed = false
    /// Makes a stopped copy of a plugin module (the dry run's Lua half).
    let stoppedModule: LuaFunction
    /// Installs the no-op test globals for checking a spec file.
    let specStubs: LuaFunction
    /// The files of the modules loaded since the dry run began.
    let loadedFilesSearch: LuaFunction?
    /// The package.path the dry run started with (modules are looked up with it too).
    var initialPackagePath: String?
    /// The module lookup (`package.searchpath`), compiled on first use.
    var moduleSearch: LuaFunction?
    /// The lines of the test bodies (`it`, hooks) a spec file's dry run saw, by file.
    var testBodies: LuaTable?
    /// The `make` functions (and parameters) registrations hold, kept as a
    /// factory would keep them (not collected, so their captured values'
    /// finalizers do not run, and weak tables see what `run` sees), in one
    /// table: a slot each.
    private let kept: LuaTable
    private var keptCount = 0

    init(stoppedModule: LuaFunction, specStubs: LuaFunction, loadedFilesSearch: LuaFunction?, kept: LuaTable) {
        self.stoppedModule = stoppedModule
        self.specStubs = specStubs
        self.loadedFilesSearch = loadedFilesSearch
        self.kept = kept
    }

    /// A configuration or scope named `name` was declared at `origin`.
    func reached(_ origin: Origin, name: String) {
        reachedDeclarations.insert(origin)
        reachedNames.insert("\(origin)#\(name)")
    }

    /// A configuration's body started at `origin` (it may fail).
    func started(_ origin: Origin) {
        startedDeclarations.insert(origin)
    }

    /// Keeps a registration's `make` alive as long as the run.
    func keep(_ make: LuaSlot) throws {
        keptCount += 1
        try kept.rawSet(.integer(keptCount), make)
    }

    /// The same for any value a registration holds (its parameters).
    func keep(_ value: LuaValue) throws {
        keptCount += 1
        try kept.rawSet(.integer(keptCount), value)
    }
}
