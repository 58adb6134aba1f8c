import FactoryRegistry
import FactoryhostSupport
import LuaBridge

extension FactoryHost {
    /// Loads the Lua plugins found in `searchPath` (each directory holds
    /// plugin directories with a `manifest.lua` and an `init.lua`), in
    /// dependency order. A requirement that nothing provides, a requirement
    /// cycle, two plugins of one name and conflicting registrations are
    /// errors; a Lua plugin may require a Swift plugin by name.
    ///
    /// ```swift
    /// try host.loadLuaPlugins(searchPath: ["plugins"])   // plugins/analytics/{manifest,init}.lua
    /// ```
    ///
    /// - Throws: a `LuaError`: a search path entry that is not a directory, two plugins of one name, a missing `init.lua`, a `requires` cycle or an unknown requirement, or what a manifest or `init.lua` raised.
    @discardableResult
    public func loadLuaPlugins(searchPath: [String]) throws -> [LuaPluginManifest] {
        var manifests: [String: LuaPluginManifest] = [:]
        var searchedRoots = Set<String>(), foundPlugins = Set<String>()
        for root in searchPath where !root.isEmpty {
            guard Directory.isDirectory(root) else {
                throw LuaError(.runtime, "plugin path entry '\(root)' is not a directory")
            }
            // The same directory twice (`--plugin-path p` and FACTORYHOST_PLUGIN_PATH=$PWD/p)
            // is searched once: its plugins are not two plugins of one name.
            guard searchedRoots.insert(Self.canonicalPath(root)).inserted else { continue }
            guard let entries = Directory.entries(root) else { throw LuaError(.runtime, "cannot read plugin directory '\(root)'") }
            for entry in entries {
                let directory = root.hasSuffix("/") ? root + entry : root + "/" + entry
                guard Directory.isDirectory(directory) else { continue }
                // A plugin is a folder with a manifest.lua file; one that is not a file is said, not skipped.
                if let kind = Self.notAFile(directory + "/manifest.lua") {
                    throw LuaError(.runtime, "\(directory)/manifest.lua: not a regular file (\(kind)): a plugin's manifest must be a file")
                }
                guard Directory.isRegularFile(directory + "/manifest.lua") else { continue }
                // One plugin reached twice (a link to it in another root) is one plugin.
                guard foundPlugins.insert(Self.canonicalPath(directory)).inserted else { continue }
                let manifest = try LuaPluginManifest.read(directory: directory, within: lua.timeLeft)
                if let other = manifests[manifest.name] {
                    throw LuaError(.runtime, "two plugins are named '\(manifest.name)': \(other.manifestPath) and \(manifest.manifestPath)")
                }
                if pluginInstaller.pluginNames.contains(manifest.name) {
                    throw LuaError(.runtime, "\(manifest.manifestPath): plugin '\(manifest.name)' is already installed (a Swift plugin has that name)")
                }
                manifests[manifest.name] = manifest
            }
        }
        if manifests.isEmpty { return [] }
        let ordered = try dependencyOrder(manifests)
        for manifest in ordered {
            if let kind = Self.notAFile(manifest.entryPath) {
                throw LuaError(.runtime, "\(manifest.entryPath): not a regular file (\(kind)): plugin '\(manifest.name)' needs an init.lua file")
            }
            guard Directory.isRegularFile(manifest.entryPath) else {
                throw LuaError(.runtime, "\(manifest.manifestPath): plugin '\(manifest.name)' has no init.lua")
            }
            // A plugin stuck where Lua cannot stop it (a long C call) is named by the hard stop's message.
            let hardStop = lua.hardStop
            if case .exitProcess(let grace, let prefix, let status) = hardStop {
                lua.hardStop = .exitProcess(grace: grace, prefix: prefix + "\(manifest.entryPath) (loading the Lua plugin "
                                            + "'\(manifest.name)'): ", status: status)
            }
            defer { lua.hardStop = hardStop }
            _ = try lua.runFile(manifest.entryPath)
            try finishScript()
            pluginInstaller.pluginInstalled(manifest.name, manifest.version)
        }
        return ordered
    }

    /// What `path` is, when it exists and is neither a regular file nor missing
    /// (a FIFO would block loading, a directory is no script).
    static func notAFile(_ path: String) -> String? {
        Directory.isDirectory(path) ? "a directory" : Directory.specialKind(path)
    }

    /// `path` with symbolic links, `.` and `..` resolved (as given if that fails).
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Plugins sorted so each comes after what it requires (ties by name) —
    /// depth first with a stack of its own and a set of the plugins being
    /// visited: a chain of 20,000 plugins each requiring the next overflowed
    /// the stack (SIGSEGV), and searching the path at each step was quadratic.
    private func dependencyOrder(_ manifests: [String: LuaPluginManifest]) throws -> [LuaPluginManifest] {
        var ordered: [LuaPluginManifest] = []
        var done: Set<String> = Set(pluginInstaller.pluginNames)
        var visiting: [String] = []                  // the path, for a cycle's message
        var onPath: Set<String> = []
        struct Frame {
            let manifest: LuaPluginManifest
            var next = 0
        }
        func missing(_ requirement: String, of manifest: LuaPluginManifest) -> LuaError {
            if let refusal = pluginInstaller.refusal(ofPlugin: requirement) {
                return LuaError(.runtime, "\(manifest.manifestPath): plugin '\(manifest.name)' requires '\(requirement)', "
                                + "which is not installed: \(refusal)")
            }
            let available = (pluginInstaller.pluginNames + manifests.keys).sorted()
            let shown = available.count > 30 ? available.prefix(30).joined(separator: ", ") + ", … (\(available.count) in all)"
                : available.joined(separator: ", ")
            // A plugin is required by its manifest's name, which its folder's need not be.
            let byFolder = manifests.values.filter { ($0.directory.split(separator: "/").last).map(String.init) == requirement }
                .map { " (the folder '\(requirement)' holds the plugin '\($0.name)': a plugin is required by the name its manifest gives)" }
            return LuaError(.runtime, "\(manifest.manifestPath): plugin '\(manifest.name)' requires '\(requirement)', "
                            + "which is not installed (plugins: \(shown))" + (byFolder.first ?? ""))
        }
        for name in manifests.keys.sorted() {
            guard let start = manifests[name], !done.contains(name) else { continue }
            var stack = [Frame(manifest: start)]
            visiting.append(name)
            onPath.insert(name)
            while let top = stack.indices.last {
                let manifest = stack[top].manifest
                guard stack[top].next < manifest.requires.count else {
                    stack.removeLast()
                    visiting.removeLast()
                    onPath.remove(manifest.name)
                    done.insert(manifest.name)
                    ordered.append(manifest)
                    continue
                }
                let requirement = manifest.requires[stack[top].next]
                stack[top].next += 1
                if done.contains(requirement) { continue }
                guard let required = manifests[requirement] else { throw missing(requirement, of: manifest) }
                if onPath.contains(requirement), let first = visiting.firstIndex(of: requirement) {
                    let cycle = visiting[first...] + [requirement]
                    let shown = cycle.count > 12 ? Array(cycle.prefix(6)) + ["… \(cycle.count - 11) more …"] + Array(cycle.suffix(5)) : Array(cycle)
                    throw LuaError(.runtime, "plugin requirement cycle: \(shown.joined(separator: " → "))"
                                   + " (\(cycle.dropLast().prefix(12).compactMap { manifests[$0]?.manifestPath }.joined(separator: ", ")))")
                }
                stack.append(Frame(manifest: required))
                visiting.append(requirement)
                onPath.insert(requirement)
            }
        }
        return ordered
    }
}
