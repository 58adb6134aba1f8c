import Foundation
import PackagePlugin

/// Runs `shophost check` on each composition script (Composition/*.lua) when
/// the target it is applied to builds: a broken composition fails `swift
/// build`, with the file and line of each problem — the graph is checked at
/// build time, without generating code. (To use it in your package, copy it
/// and name your host where it says `shophost`.)
@main
struct CheckComposition: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let host = try context.tool(named: "shophost").url
        let folder = context.package.directoryURL.appending(path: "Composition")
        let scripts = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "lua" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return scripts.map { script in
            // A Swift file the target compiles (a comment): what says the check passed, for the build to track.
            let stamp = context.pluginWorkDirectoryURL.appending(path: script.deletingPathExtension().lastPathComponent + "_checked.swift")
            return .buildCommand(
                displayName: "shophost check \(script.lastPathComponent)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                // Quiet when the script passes; its report, naming each problem's line, when it does not.
                arguments: ["-c", #"report=$("$0" check "$1") || { printf '%s\n' "$report"; exit 1; }; echo "// $1 passed shophost check" > "$2""#,
                            host.path, script.path, stamp.path],
                inputFiles: [host] + scripts,          // any module the script requires may change its graph
                outputFiles: [stamp])
        }
    }
}
