import ArgumentParser
import FactoryScripting
import FactoryhostSupport
import LuaInterpreter

/// `factoryhost types [--plugin-path DIRS] [--format luals|luacheck|json] [--output DIR]`.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Write what scripts can name, for editors and linters.",
        discussion: """
            The DSL's and the test runner's globals, and every class (constructor, methods, \
            properties), interface and function of the installed plugins' modules, with their \
            types: as lua-language-server definitions (luals), a luacheck standard (luacheck) \
            or JSON. With --output, luals writes a library directory instead: factoryhost.lua \
            and factoryhost/<plugin>.lua, which types `require "factoryhost.<plugin>"`.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case luals, luacheck, json
    }

    @Option(help: "Output format.")
    var format: Format = .luals

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable).", valueName: "dirs"), completion: .directory)
    var pluginPath: [String] = []

    @Option(help: ArgumentHelp("Write a lua-language-server library to this directory (luals only).", valueName: "dir"), completion: .directory)
    var output: String?

    @Option(help: ArgumentHelp("Stop loading the Lua plugins after this long, all of them together (seconds, or with ms, s or m).", valueName: "duration"))
    var timeout: String = "10s"

    func validate() throws {
        if output != nil && format != .luals {
            throw ValidationError("--output writes a lua-language-server library: use it with --format luals")
        }
        if let output, output.isEmpty { throw ValidationError("--output: give a directory") }
        try Limits.validateDuration(timeout)
    }

    func run() throws {
        do {
            // As check does: the plugins' Lua runs without side effects (an
            // os.exit in an init.lua is an error, not the end of the command)
            // and under a time limit.
            let host = try DryDeclaration.dryHost(HostSetup(pluginPaths: pluginPath), timeLimit: Limits.duration(timeout) ?? .seconds(10))
            let definitions = try DryDeclaration.withStandardOutputDiscarded { try ScriptDefinitions(host: host) }
            if let output {
                let library = definitions.luaLanguageServerLibrary()
                for file in library { try Self.checkTarget(inside: output, to: file.path) }     // all, before any is written
                for file in library { try Self.write(file.contents, to: output + "/" + file.path) }
                // Said, as a command that writes files should (it was silent): what, where, and the next step.
                print("wrote \(library.count) file\(library.count == 1 ? "" : "s") to \(MessageText.terminalSafe(output)): "
                      + "a lua-language-server library (add \"\(MessageText.terminalSafe(output))\" to workspace.library in .luarc.json)")
            } else {
                switch format {
                case .luals: print(definitions.luaLanguageServerFile(), terminator: "")
                case .luacheck: print(definitions.luacheckStandard(), terminator: "")
                case .json: print(definitions.json(), terminator: "")
                }
            }
        } catch {
            reportError(error)
            throw ExitCode(1)
        }
        let status = StandardOutput.flushed(0)
        if status != 0 { throw ExitCode(status) }
    }

    /// The library's files are the command's own: a symbolic link where one
    /// goes (or on the way to it, below `output`) would have it write over
    /// whatever the link names (a source file, say); a file there that this
    /// command did not write (a `factoryhost.lua` of the user's) was replaced
    /// without a word; a file where a folder goes failed half-way, leaving
    /// part of a library. Each refused before anything is written, saying which.
    private static func checkTarget(inside output: String, to relative: String) throws {
        var path = output
        let components = relative.split(separator: "/")
        let mine = "(remove it, or give another --output)"
        for (index, component) in components.enumerated() {
            path += "/" + component
            var info = stat()
            guard lstat(path, &info) == 0 else { return }        // not there yet: made as a plain file or folder
            let kind = info.st_mode & S_IFMT
            if kind == S_IFLNK {
                throw TypesWriteError(path: path, reason: "it is a symbolic link, and --output writes the library's own files "
                                      + "(remove the link, or give another --output)")
            }
            if index < components.count - 1 {
                guard kind == S_IFDIR else {
                    throw TypesWriteError(path: path, reason: "it is not a folder, and the library's files go in a folder of that name \(mine)")
                }
            } else {
                guard kind == S_IFREG else {
                    throw TypesWriteError(path: path, reason: "it is not a file, and --output writes the library's own files \(mine)")
                }
                guard Self.isGenerated(path) else {
                    throw TypesWriteError(path: path, reason: "it is not a file factoryhost types wrote (it does not start with "
                                          + "'---@meta factoryhost'), and --output replaces only its own files \(mine)")
                }
            }
        }
    }

    /// Whether the file at `path` starts as the library's files do.
    private static func isGenerated(_ path: String) -> Bool {
        let marker = Array("---@meta factoryhost".utf8)
        guard let start = Directory.firstBytes(of: path, count: marker.count + 1),
              start.count >= marker.count, Array(start.prefix(marker.count)) == marker else { return false }
        // `---@meta factoryhost` or `---@meta factoryhost.<module>`, and nothing else that starts so.
        return start.count == marker.count || start[marker.count] == UInt8(ascii: "\n") || start[marker.count] == UInt8(ascii: ".")
    }

    /// Writes `text` to `path`, making the directories on the way.
    private static func write(_ text: String, to path: String) throws {
        do {
            try POSIX.makeParentDirectories(of: path, mode: 0o755)
        } catch {
            throw TypesWriteError(path: error.path, reason: error.reason)
        }
        do {
            try text.write(toFile: path)
        } catch {
            throw TypesWriteError(path: path, reason: String(describing: error))
        }
    }
}

struct TypesWriteError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "cannot write \(MessageText.oneLine(MessageText.bounded(path, limit: 1024))): \(reason)" }
}
