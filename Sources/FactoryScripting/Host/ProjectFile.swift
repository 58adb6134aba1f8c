import FactoryRegistry
import FactoryhostSupport
import LuaBridge

/// `.factoryhost.lua` at the top of a project: its folder is the project's
/// root, and `require` finds the project's modules from a script, spec or
/// REPL anywhere below it — whatever the working directory (as busted's
/// `.busted` and luacheck's `.luacheckrc` mark a project).
///
/// ```lua
/// -- shop/.factoryhost.lua
/// return { modules = { ".", "lib" } }    -- folders searched by require, relative to this file (default { "." })
/// ```
///
/// It is found by looking up from the script's folder (the working directory
/// for a script read from standard input), the nearest one winning — one owned
/// by another user than the caller (or root) is passed over; it is plain
/// data, read with no library and a time limit, in a state of its own.
/// A sandboxed host reads none: a folder holding an untrusted script could hold one too.
public struct ProjectFile: Equatable, Sendable {
    /// The file's name.
    public static let name = ".factoryhost.lua"
    /// The file, as found (relative to the working directory when it is at or below it).
    public let path: String
    /// The folders `require` searches, each ending in `/`, relative to the
    /// working directory where the project is at or above it.
    public let moduleDirectories: [String]

    /// The project file that governs a script in `directory` (`""` or `"./"`:
    /// the working directory): the nearest `.factoryhost.lua` in it or a folder above; nil when none.
    ///
    /// - Throws: a `LuaError` naming the file when it cannot be read or says something it should not.
    /// Its Lua runs at most `timeLimit` (2 s by default; a command with a
    /// shorter deadline gives what is left of it).
    public static func governing(directory: String, timeLimit: Duration = .seconds(2)) throws -> ProjectFile? {
        guard let found = find(from: directory) else { return nil }
        // One that is there but no file (a FIFO, a link to /dev/zero) was passed over in silence:
        // the user saw only "module 'm' not found".
        if let kind = found.notAFile {
            throw LuaError(.runtime, "\(found.file): not a regular file (\(kind)): a project file must be a file")
        }
        return try read(found.file, root: found.root, timeLimit: timeLimit)
    }

    /// The folder of the project `directory` is in (the nearest
    /// `.factoryhost.lua` from it up), relative to the working directory where
    /// possible (`../`); nil outside any project.
    ///
    /// ```swift
    /// ProjectFile.root(of: "")    // "../" from shop/lib of a project at shop/
    /// ```
    public static func root(of directory: String) -> String? { find(from: directory)?.root }

    /// The nearest project file from `directory` up: its path and its folder (relative where possible).
    static func find(from directory: String) -> (file: String, root: String, notAFile: String?)? {
        let cwd = workingDirectory()
        var absolute = directory.hasPrefix("/") ? directory : cwd + "/" + directory
        absolute = normalized(absolute)
        // At most a path's depth of steps: each drops one component.
        while true {
            let file = (absolute == "/" ? "" : absolute) + "/" + name
            let notAFile = Directory.isRegularFile(file) ? nil : FactoryHost.notAFile(file)
            if (Directory.isRegularFile(file) || notAFile != nil) && isTrusted(file) {
                let root = relative(absolute, to: cwd)
                return (root == "./" ? name : root + name, root, notAFile)
            }
            guard absolute != "/", let slash = absolute.lastIndex(of: "/") else { return nil }
            absolute = slash == absolute.startIndex ? "/" : String(absolute[..<slash])
        }
    }

    /// Reads the file at `path`; `root` is its folder as `require` should name it.
    static func read(_ path: String, root: String, timeLimit: Duration = .seconds(2)) throws -> ProjectFile {
        // The size first: Lua's parser reads a comment to its end with no limit looking.
        if let size = Directory.size(of: path), size > 16 << 20 {
            throw LuaError(.file, "project file \(path): it is \(size >> 20) MB, over 16 MB (a project file is plain data)")
        }
        let lua = try LuaState(libraries: .none)
        lua.timeLimit = min(timeLimit, .seconds(2))
        lua.memoryLimit = 16 << 20
        let results: [LuaValue]
        do {
            results = try lua.loadFile(path, mode: "t").call()
        } catch let error as LuaError {
            throw LuaError(error.kind, "project file \(path): \(error.message)")
        }
        guard case .table(let table)? = results.first else {
            throw LuaError(.typeMismatch, "project file \(path) must return a table, as return { modules = { \".\", \"lib\" } }")
        }
        var modules: [String] = ["."]
        try table.forEachPair { key, value in
            guard case .string(let keyText) = key, keyText.bytes == Array("modules".utf8) else {
                guard case .string(let text) = key else {
                    throw LuaError(.typeMismatch, "project file \(path): unknown key \(describeKey(key)) (it takes: modules)")
                }
                let suggestion = (try? text.string()).map { NameSuggestion.didYouMean($0, among: ["modules"]) } ?? ""
                throw LuaError(.typeMismatch, "project file \(path): unknown key \(text.literal.prefix(80))\(suggestion) (it takes: modules)")
            }
            guard case .table(let list) = value else {
                throw LuaError(.typeMismatch, "project file \(path): 'modules' must be a list of folders, as { \".\", \"lib\" } (got \(value.typeName))")
            }
            modules = []
            let count = try list.count
            // A list: keys 1…n only ({ lib = true } was passed over in silence).
            if let other = try list.pairs().first(where: { key, _ in
                guard case .integer(let index) = key else { return true }
                return index < 1 || index > count
            }) {
                throw LuaError(.typeMismatch, "project file \(path): 'modules' must be a list of folders, as { \".\", \"lib\" } "
                               + "(it has the key \(describeKey(other.0)))")
            }
            guard count <= 256 else { throw LuaError(.typeMismatch, "project file \(path): 'modules' lists \(count) folders (at most 256)") }
            for index in 1...max(count, 1) where count > 0 {
                let entry = try list.rawGet(.integer(index))
                // Each wrong entry with its own reason (an invalid byte was "text without ';' or '?'").
                let entryName = "project file \(path): 'modules' entry #\(index)"
                guard case .string(let folder) = entry else {
                    throw LuaError(.typeMismatch, "\(entryName) must be a folder's path, as \"lib\" (got \(entry.typeName))")
                }
                guard let text = try? folder.string() else {
                    throw LuaError(.typeMismatch, "\(entryName), \(folder.literal.prefix(80)), is not UTF-8 text")
                }
                let why = text.isEmpty ? "is empty"
                    : text.utf8.contains(0) ? "holds a NUL byte"
                    : text.contains(";") || text.contains("?") ? "holds ';' or '?', which Lua's package.path reserves" : nil
                if let why { throw LuaError(.typeMismatch, "\(entryName), \(folder.literal.prefix(80)), \(why)") }
                modules.append(text)
            }
        }
        let directories = modules.map { folder -> String in
            var joined = folder.hasPrefix("/") ? folder : (root == "./" ? "" : root) + folder
            if joined == "." || joined.isEmpty { joined = "./" }
            if joined.hasSuffix("/.") { joined.removeLast() }
            return joined.hasSuffix("/") ? joined : joined + "/"
        }
        // A folder that is not there is a typo more often than a folder to come: say which, and what is there.
        for (folder, directory) in zip(modules, directories) where !Directory.isDirectory(directory) {
            if Directory.isRegularFile(String(directory.dropLast())) {
                throw LuaError(.typeMismatch, "project file \(path): module folder '\(shownName(folder))' is a file, not a folder")
            }
            let present = (Directory.entries(root, hidden: false) ?? []).filter { Directory.isDirectory((root == "./" ? "" : root) + $0) }
            throw LuaError(.typeMismatch, "project file \(path): module folder '\(shownName(folder))' does not exist"
                           + NameSuggestion.didYouMean(folder, among: present)
                           + (present.isEmpty ? "" : " (folders: \(present.sorted().prefix(12).joined(separator: ", ")))"))
        }
        return ProjectFile(path: path, moduleDirectories: directories)
    }

    /// Whether the file is the user's own (or root's), as git asks of a repository:
    /// one that another user left in a shared folder (`/tmp/.factoryhost.lua`) is
    /// passed over, so it cannot point `require` at modules of its choosing.
    static func isTrusted(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_uid == geteuid() || info.st_uid == 0
    }

    /// The working directory, or `/` when it cannot be read.
    static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` without `.` components, `..` applied, no repeated or trailing `/`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `directory` (absolute, normalized) as seen from `cwd`, ending in `/`:
    /// `./` for `cwd` itself, `lib/` below it, `../../` above it, absolute otherwise.
    static func relative(_ directory: String, to cwd: String) -> String {
        let cwd = normalized(cwd)
        if directory == cwd { return "./" }
        let base = cwd == "/" ? "/" : cwd + "/"
        if directory.hasPrefix(base) { return String(directory.dropFirst(base.count)) + "/" }
        let target = directory == "/" ? "/" : directory + "/"
        if base.hasPrefix(target) {
            let ups = base.dropFirst(target.count).split(separator: "/").count
            return String(repeating: "../", count: ups)
        }
        return target
    }
}
