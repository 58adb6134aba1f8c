import Foundation

#if FUZZING
// Built by Scripts/fuzz.sh with -sanitize=fuzzer: libFuzzer calls this for
// every input; FUZZ_TARGET names the target.
nonisolated(unsafe) private var target: String = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "dsl"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.run(target, input)
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// SwiftPM links an executable's entry point under this name; here it hands
/// the command line to libFuzzer's driver.
@_cdecl("factoryhost_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
/// `factoryhost-fuzz TARGET FILE…`: runs the target on each file (a corpus
/// replay, or a crash a fuzzer found) — what the normal build makes.
@main
struct FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, FuzzTargets.names.contains(name) else {
            FileHandle.standardError.write(Data("usage: factoryhost-fuzz \(FuzzTargets.names.joined(separator: "|")) FILE…\n".utf8))
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("factoryhost-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            FuzzTargets.run(name, Array(data))
            count += 1
        }
        print("\(name): \(count) inputs ran")
    }
}
#endif
