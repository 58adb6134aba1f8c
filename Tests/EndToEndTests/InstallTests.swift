import Foundation
import Testing

/// `Scripts/install.sh PREFIX`, as the README tells a user to run it: the
/// binary, the man page and the completions land where each tool looks, and
/// each shell completes factoryhost's subcommands and option values with them.
@Suite("Scripts/install.sh")
struct InstallTests {
    /// A fresh prefix with the built binary installed (not a release build);
    /// the caller removes it.
    private func prefix() throws -> URL {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("install-\(UUID().uuidString)")
        let binDirectory = URL(fileURLWithPath: CommandRunner.factoryhost).deletingLastPathComponent()
        // $GENERATE_MANUAL, else beside the binary, else in the normal build
        // (the sanitizer builds test their binary with the normal build's tool).
        let beside: String = binDirectory.appendingPathComponent("generate-manual").path
        let normal: String = CommandRunner.packageRoot.appendingPathComponent(".build/debug/generate-manual").path
        let candidates: [String] = [ProcessInfo.processInfo.environment["GENERATE_MANUAL"], beside, normal].compactMap { $0 }
        let generator = candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[candidates.count - 1]
        guard FileManager.default.isExecutableFile(atPath: generator) else {
            throw InstallFailure(message: "no \(generator): build it first (swift build --product generate-manual; Scripts/test.sh does)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["FACTORYHOST_BIN"] = CommandRunner.factoryhost
        environment["GENERATE_MANUAL"] = generator
        let script = CommandRunner.packageRoot.appendingPathComponent("Scripts/install.sh").path
        let result = try CommandRunner.run(script, [prefix.path], environment: environment, killAfter: 120)
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: prefix)
            throw InstallFailure(message: "install.sh failed: \(result)")
        }
        return prefix
    }

    /// What a shell sees with the prefix's bin first on its PATH.
    private func environment(_ prefix: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = prefix.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["XDG_DATA_DIRS"] = prefix.appendingPathComponent("share").path
        environment["HOME"] = prefix.path                       // no user's shell set-up
        return environment
    }

    @Test func installsTheBinaryAndAManPageThatRenders() throws {
        let prefix = try prefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let binary = prefix.appendingPathComponent("bin/factoryhost").path
        let version = try CommandRunner.run(binary, ["--version"], killAfter: 30)
        #expect(version.status == 0 && !version.stdout.isEmpty, "\(version)")
        let page = prefix.appendingPathComponent("share/man/man1/factoryhost.1").path
        let rendered = try CommandRunner.run("/bin/sh", ["-c", "groff -mdoc -Tutf8 \"$0\" | col -b", page], killAfter: 30)
        #expect(rendered.status == 0, "\(rendered)")
        #expect(rendered.stdout.contains("factoryhost — A typed factory registry"), "\(rendered)")
        // Every subcommand, with its options, is in the page.
        for word in ["run", "repl", "test", "check", "graph", "types", "--plugin-path", "--reporter", "--memory-limit", "--format"] {
            #expect(rendered.stdout.contains(word), "the man page lacks \(word)")
        }
        #expect(!rendered.stdout.contains("worker-file"), "hidden options stay out of the page")
    }

    /// bash: the completion function the file registers completes
    /// subcommands, an option's values and, for a script, .lua files.
    @Test func bashCompletes() throws {
        let prefix = try prefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let scripts = prefix.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        for name in ["app.lua", "notes.txt"] { FileManager.default.createFile(atPath: scripts.appendingPathComponent(name).path, contents: Data()) }
        let program = #"""
            source "$1/share/bash-completion/completions/factoryhost"
            complete_line() {
                local line="$1"
                COMP_LINE="$line"; COMP_POINT=${#line}
                read -ra COMP_WORDS <<< "$line"
                [[ "$line" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMPREPLY=()
                _factoryhost factoryhost "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                echo "$line=> ${COMPREPLY[*]}"
            }
            cd "$1/scripts"
            complete_line "factoryhost ty"
            complete_line "factoryhost test --reporter "
            complete_line "factoryhost run --allow "
            complete_line "factoryhost check "
            """#
        let result = try CommandRunner.run("/bin/bash", ["-c", program, "bash", prefix.path], environment: environment(prefix), killAfter: 30)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("factoryhost ty=> types"), "\(result)")
        #expect(lines.contains("factoryhost test --reporter => text tap json"), "\(result)")
        #expect(lines.contains("factoryhost run --allow => files network processes environment all"), "\(result)")
        #expect(lines.contains("factoryhost check => app.lua"), "\(result)")
    }

    /// zsh: the file is a completion function compinit finds on $fpath.
    @Test func zshLoadsTheCompletion() throws {
        let prefix = try prefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let program = #"""
            fpath=("$1/share/zsh/site-functions" $fpath)
            autoload -Uz compinit && compinit -u -d "$1/zcompdump"
            print -r -- "${_comps[factoryhost]}"
            autoload -Uz +X _factoryhost && print loaded
            """#
        let result = try CommandRunner.run("/usr/bin/env", ["zsh", "-f", "-c", program, "zsh", prefix.path], environment: environment(prefix), killAfter: 30)
        #expect(result.status == 0 && result.stdout == "_factoryhost\nloaded\n", "\(result)")
    }

    /// fish: with the prefix on $XDG_DATA_DIRS (~/.local/share is searched
    /// by default), fish finds the file itself and completes from it.
    @Test func fishCompletes() throws {
        let prefix = try prefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let result = try CommandRunner.run("/usr/bin/env", ["fish", "-c", """
            complete -C"factoryhost gr"; complete -C"factoryhost types --format "
            """], environment: environment(prefix), killAfter: 30)
        #expect(result.status == 0, "\(result)")
        let words = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(words == ["graph", "luals", "luacheck", "json"], "\(result)")
    }

    /// A relative prefix and binary are the caller's, not the repository's;
    /// an empty prefix is an error; installing the installed binary again
    /// keeps it. (Before: installed into the repository, into ~/.local, and
    /// failed with "are the same file".)
    @Test func pathsAreTheCallersAndAnEmptyPrefixIsAnError() throws {
        let caller = FileManager.default.temporaryDirectory.appendingPathComponent("install-caller-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: caller, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: caller) }
        try FileManager.default.copyItem(atPath: CommandRunner.factoryhost, toPath: caller.appendingPathComponent("fh").path)
        let script = CommandRunner.packageRoot.appendingPathComponent("Scripts/install.sh").path
        let generator = CommandRunner.packageRoot.appendingPathComponent(".build/debug/generate-manual").path
        var environment = ProcessInfo.processInfo.environment
        environment["FACTORYHOST_BIN"] = "fh"
        environment["GENERATE_MANUAL"] = environment["GENERATE_MANUAL"] ?? generator
        let relative = try CommandRunner.run(script, ["here"], in: caller, environment: environment, killAfter: 120)
        #expect(relative.status == 0, "\(relative)")
        #expect(FileManager.default.isExecutableFile(atPath: caller.appendingPathComponent("here/bin/factoryhost").path), "\(relative)")
        #expect(!FileManager.default.fileExists(atPath: CommandRunner.packageRoot.appendingPathComponent("here").path))
        environment["FACTORYHOST_BIN"] = "here/bin/factoryhost"
        let again = try CommandRunner.run(script, ["here"], in: caller, environment: environment, killAfter: 120)
        #expect(again.status == 0, "\(again)")
        let empty = try CommandRunner.run(script, [""], in: caller, environment: environment, killAfter: 30)
        #expect(empty.status == 64 && empty.stderr.contains("the prefix is empty"), "\(empty)")
        // A completion that cannot be written fails the install and leaves every installed one as it was.
        let bash = caller.appendingPathComponent("here/share/bash-completion/completions/factoryhost")
        try "old bash completion\n".write(to: bash, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: caller.appendingPathComponent("here/share/zsh/site-functions/_factoryhost.tmp"),
                                                withIntermediateDirectories: true)
        let blocked = try CommandRunner.run(script, ["here"], in: caller, environment: environment, killAfter: 120)
        #expect(blocked.status == 1 && blocked.stderr.contains("cannot write the zsh completion script"), "\(blocked)")
        #expect(try String(contentsOf: bash, encoding: .utf8) == "old bash completion\n")
    }
}

struct InstallFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}