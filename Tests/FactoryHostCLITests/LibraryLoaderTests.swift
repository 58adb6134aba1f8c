import CLibraryLoader
import Foundation
import Testing

/// The optional system libraries (libsqlite3, libcurl, libedit) are opened
/// by trying names in turn; when none loads, the reason given must be the
/// most telling one — a file that is there but broken — not the last name's.
@Suite("Opening an optional system library")
struct LibraryLoaderTests {
    private func open(_ names: [String]) -> (loaded: Bool, reason: String) {
        let copies = names.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        var reason = [CChar](repeating: 0, count: 512)
        let library = pointers.withUnsafeMutableBufferPointer { fh_dlopen_first($0.baseAddress, &reason, reason.count) }
        if let library { dlclose(library) }
        return (library != nil, String(cString: reason))
    }

    @Test func aBrokenFileIsTheReasonWhateverComesAfterIt() throws {
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("fh-broken-\(UUID().uuidString).so").path
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: broken))
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let result = open(["/nonexistent/libfirst.so", broken, "/nonexistent/liblast.so"])
        #expect(!result.loaded)
        #expect(result.reason.contains(broken), "\(result.reason)")
    }

    @Test func withNothingThereTheFirstNameIsTheReason() {
        let result = open(["/nonexistent/libfirst.so", "/nonexistent/liblast.so"])
        #expect(!result.loaded)
        #expect(result.reason.contains("/nonexistent/libfirst.so"), "\(result.reason)")
    }

    #if os(Linux)
    @Test func theFirstThatLoadsIsOpened() {
        let result = open(["/nonexistent/libfirst.so", "libc.so.6"])
        #expect(result.loaded)
    }
    #endif
}
