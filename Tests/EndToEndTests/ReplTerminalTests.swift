import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `factoryhost repl` on a real pseudo-terminal (opened by the test, no
/// external tool): prompts, editing, completion, history, Ctrl-C, Ctrl-D.
@Suite("factoryhost repl on a terminal", .serialized)
struct ReplTerminalTests {
    let dir = CommandRunner.fixtures.appendingPathComponent("repl")

    @Test func tabCompletesGlobalsMembersKeysConfigurationsAndCommands() throws {
        let terminal = try PseudoTerminal(["repl", "app.lua"], in: dir)
        defer { terminal.finish() }
        try terminal.expect("> ")
        terminal.type("gree\t\r")                              // a global
        try terminal.expect("\"hello from app.lua\"")
        terminal.type("local c = container(\"app-t\t\")\r")   // a configuration name
        terminal.type("c:res\t\"Cac\t\"\r")                   // a method, then a registration key
        try terminal.expect("Cache { count = 0 }")                   // the line as completed ran
        // Emacs keys: Ctrl-A to the start, Ctrl-E to the end, Ctrl-B back over a character.
        terminal.type("2 * 21\u{01}print(\u{05})\r")
        try terminal.expect("\r\n42\r\n")
        terminal.type(":us\tapp\t\r")                          // a command and its argument
        try terminal.expect("plain resolve \"X\" now uses a new container of 'app")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
    }

    /// A command's argument completes quoted when the name holds a space, and
    /// inside a quote already open (both left a command that then failed:
    /// `:use staging eu` took 'eu' for a second word); `:help` and `:inspect`'s
    /// expression complete too.
    @Test func commandArgumentsCompleteQuotedAndExpressionsComplete() throws {
        let terminal = try PseudoTerminal(["repl", "names.lua"], in: dir)
        defer { terminal.finish() }
        try terminal.expect("> ")
        terminal.type(":use st\t\r")
        try terminal.expect("now uses a new container of 'staging eu'")
        terminal.type(":graph Mailer#\t\r")
        try terminal.expect("Mailer#bulk mail [transient]")
        terminal.type(":use \"pr\t\r")
        try terminal.expect("now uses a new container of 'prod'")
        terminal.type(":help gra\t\r")
        try terminal.expect(":graph KEY [config]")
        terminal.type("service = container():openScope(\"request\"):resolve \"table#SignupService\"\r")
        terminal.type(":inspect serv\t\r")
        // What it was given, held by the open scope (it said "not held by the container").
        try terminal.expect("ctx: table#RequestContext = { id = 714 }  (held by the open 'request' scope)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
    }

    /// Plain `factoryhost` on a terminal is the REPL, as plain `lua5.4` is — for a custom
    /// host too (it crashed: "Can't read a value from a parsable argument definition").
    @Test(arguments: [CommandRunner.factoryhost, CommandRunner.customHost])
    func plainCommandOnATerminalIsTheREPL(executable: String) throws {
        let terminal = try PseudoTerminal([], in: dir, executable: executable)
        defer { terminal.finish() }
        try terminal.expect("> ")
        terminal.type("6 * 7\r")
        try terminal.expect("42")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
        #expect(!terminal.transcript.contains("parsable argument"), "\(terminal.transcript)")
    }

    @Test func typedUTF8IsTextAndCompletionRunsNoScriptCode() throws {
        let terminal = try PseudoTerminal(["repl"], in: dir)
        defer { terminal.finish() }
        try terminal.expect("> ")
        terminal.type("s = \"été ✓\"\r")
        terminal.type("#s, s\r")
        try terminal.expect("9\t\"été ✓\"")
        terminal.type("local _ = setmetatable(_G, { __index = function(_, k) io.write('SIDE' .. '-EFFECT') end })\r")
        terminal.type("nope.\t\u{15}")                                   // Tab, then Ctrl-U clears the line
        terminal.type("1 + 1\r")
        try terminal.expect("2")
        #expect(!terminal.transcript.contains("SIDE-EFFECT"), "\(terminal.transcript)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
    }

    @Test func ctrlCClearsTheLineOrStopsRunningCodeAndTheStateStaysIntact() throws {
        let terminal = try PseudoTerminal(["repl", "app.lua"], in: dir)
        defer { terminal.finish() }
        try terminal.expect("> ")
        terminal.type("kept = 41\r")
        terminal.type("this line is dropped")
        terminal.type("\u{03}")
        terminal.type("kept + 1\r")
        try terminal.expect("42")
        #expect(!terminal.transcript.contains("dropped\r\n\"") && !terminal.transcript.contains("syntax error"), "\(terminal.transcript)")
        // Running code: in a coroutine, with a message handler that loops.
        // (Each loop says when it has started: Ctrl-C then interrupts running code, not the prompt.)
        terminal.type("coroutine.wrap(function() print('looping' .. 1) while true do end end)()\r")
        try terminal.expect("looping1")
        terminal.type("\u{03}")
        try terminal.expect("interrupted!")
        // A factory that loops: the report names the factory's line, not the resolve that called it (#37).
        terminal.type("configuration 'spin' { register 'table#Spin' { make = function()\r")
        terminal.type("  print('spinning' .. 2) while true do end end } }\r")
        terminal.type("container('spin'):resolve 'table#Spin'\r")
        try terminal.expect("spinning2")
        terminal.type("\u{03}")
        try terminal.expect("stdin:2: interrupted!", after: "container('spin')")
        // A message handler that loops (for an ordinary error: hooks run there).
        terminal.type("xpcall(function() error('x') end, function() print('handling' .. 3) while true do end end)\r")
        try terminal.expect("handling3")
        terminal.type("\u{03}")
        try terminal.expect("> ", after: "xpcall(")
        terminal.type("kept\r")
        try terminal.expect("41", after: "xpcall(")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
    }

    @Test func aSecondCtrlCEndsCodeThatCannotBeStoppedWithAMessage() throws {
        let terminal = try PseudoTerminal(["repl"], in: dir)
        defer { terminal.finish() }
        try terminal.expect("> ")
        terminal.type("print('finding' .. 1); (\"a\"):rep(200000):find(\".-.-.-.-b\")\r")      // backtracking, in C
        try terminal.expect("finding1")
        terminal.type("\u{03}")
        // Nothing shows the first Ctrl-C was taken (the code runs on, in C); apart, the two are
        // two signals, not one pending signal taken once.
        Thread.sleep(forTimeInterval: 0.3)
        terminal.type("\u{03}")
        try terminal.expect("factoryhost: interrupted again: the running code could not be stopped")
        #expect(terminal.waitForExit() == 130, "\(terminal.transcript)")
    }

    @Test func historyIsKeptBetweenSessions() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("fh-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let first = try PseudoTerminal(["repl"], in: dir, environment: ["XDG_STATE_HOME": state.path])
        try first.expect("> ")
        first.type("history_marker = 7\r")
        first.type("\u{04}")
        #expect(first.waitForExit() == 0, "\(first.transcript)")
        first.finish()
        let file = state.appendingPathComponent("factoryhost/history")
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("history_marker"), "\(saved)")          // libedit's format: spaces as \\040
        let second = try PseudoTerminal(["repl"], in: dir, environment: ["XDG_STATE_HOME": state.path])
        defer { second.finish() }
        try second.expect("> ")
        second.type("\u{1B}[A\r")                                       // Up: the last entry, run again
        second.type("history_marker\r")
        try second.expect("7")
        second.type("\u{04}")
        #expect(second.waitForExit() == 0, "\(second.transcript)")
    }

    /// The history is written only to a history file: through a symbolic
    /// link the REPL replaced what the link named with `_HiStOrY_V2_`
    /// (a file of notes, say); a file that is not a history was replaced.
    /// Both are left as they are, and the REPL says no history is kept.
    @Test(arguments: ["link", "foreign"])
    func historyIsWrittenOnlyToAHistoryFile(_ kind: String) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("fh-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let folder = state.appendingPathComponent("factoryhost")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = state.appendingPathComponent("notes.txt")
        try "precious data\n".write(to: victim, atomically: true, encoding: .utf8)
        let history = folder.appendingPathComponent("history")
        if kind == "link" {
            try FileManager.default.createSymbolicLink(atPath: history.path, withDestinationPath: victim.path)
        } else {
            try "precious data\n".write(to: history, atomically: true, encoding: .utf8)
        }
        let terminal = try PseudoTerminal(["repl"], in: dir, environment: ["XDG_STATE_HOME": state.path])
        defer { terminal.finish() }
        try terminal.expect("factoryhost: no history is kept: \(history.path) " + (kind == "link" ? "is a symbolic link" : "is not a history file"))
        try terminal.expect("> ")
        terminal.type("1 + 1\r")
        try terminal.expect("2")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
        #expect(try String(contentsOf: kind == "link" ? victim : history, encoding: .utf8) == "precious data\n")
    }

    /// libedit is opened when the REPL starts; without it the prompt still
    /// works, lines read as typed, after a notice that says why.
    @Test func withoutLibeditTheREPLSaysSoAndStillWorks() throws {
        let terminal = try PseudoTerminal(["repl", "app.lua"], in: dir,
                                          environment: ["FACTORYHOST_LIBEDIT": "/nonexistent/libedit.so.2"])
        defer { terminal.finish() }
        try terminal.expect("no line editing (libedit could not be loaded: /nonexistent/libedit.so.2")
        try terminal.expect("> ")
        terminal.type("6 * 7\r")
        try terminal.expect("42")
        // Ctrl-C at the prompt drops the line, as with libedit (it once ended the session).
        terminal.type("kept = 41\r")
        try terminal.expect("> ", after: "kept = 41")
        terminal.type("this line is dropped")
        try terminal.expect("this line is dropped", after: "kept = 41")
        terminal.type("\u{03}")
        terminal.type("kept + 1\r")
        try terminal.expect("42", after: "kept + 1")
        #expect(!terminal.transcript.contains("syntax error"), "\(terminal.transcript)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
    }

    /// The REPL on a terminal loads libedit; no other command does (start-up time).
    #if os(Linux)
    @Test func onlyTheREPLLoadsLibeditAndNoCommandLoadsSQLite() throws {
        let terminal = try PseudoTerminal(["repl"], in: dir)
        defer { terminal.finish() }
        try terminal.expect("> ")
        terminal.type("io.open('/proc/self/maps'):read('a'):match('libedit') or 'none'\r")
        try terminal.expect("\"libedit\"")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0, "\(terminal.transcript)")
        let probe = "local m = io.open('/proc/self/maps'):read('a') print(m:match('libedit') or 'no libedit', m:match('libsqlite3') or 'no libsqlite3')"
        for command in [["run", "-"], ["check", "-"]] {
            let result = try CommandRunner.factoryhost(command, input: probe + "\nconfiguration 'app' {}")
            #expect(result.stdout.hasPrefix(command[0] == "run" ? "no libedit\tno libsqlite3\n" : "ok"), "\(result)")
        }
        let opened = try CommandRunner.factoryhost(["run", "-"], input: "local db = require('factoryhost.persistence') "
            + "local c = db.PersistentContainer.new { models = { 'Billing' }, stores = { db.StoreDescription.inMemory() } } " + probe)
        #expect(opened.stdout == "no libedit\tlibsqlite3\n", "\(opened)")
    }
    #endif
}
