import Foundation

func host_mkdir(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

func host_write(_ path: String, _ text: String) throws {
    try host_mkdir((path as NSString).deletingLastPathComponent)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}
