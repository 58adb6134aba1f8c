/// The Lua half of the test runner: `test_library.lua` beside this file,
/// embedded in the binary at build time (a real Lua file, not a Swift
/// string, so editors and linters read it as Lua).
let testDSLSource = String(decoding: PackageResources.test_library_lua, as: UTF8.self)
