import ArgumentParser
import FactoryScripting


/// What `run` and `repl` check and derive alike from their host options.
enum HostOptions {
    /// `--allow` only with `--sandbox`, and each value a capability list;
    /// `--memory-limit` a size, `--timeout` a duration.
    static func validate(sandbox: Bool, allow: [String], memoryLimit: String?, timeout: String?) throws {
        if !allow.isEmpty && !sandbox {
            throw ValidationError("--allow only applies with --sandbox (without it, every plugin is available)")
        }
        for value in allow {
            do { _ = try PluginCapabilities(parsing: value) } catch { throw ValidationError("--allow: \(error)") }
        }
        if let memoryLimit, Limits.bytes(memoryLimit) == nil {
            throw ValidationError("--memory-limit: '\(memoryLimit)' is not a size (try 65536, 512K, 64M or 1G)")
        }
        try Limits.validateDuration(timeout)
    }
}
