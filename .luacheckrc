-- luacheck for the project's own Lua: the examples, the embedded runner,
-- REPL and check Lua. The globals come from `factoryhost types --format
-- luacheck` (Scripts/test.sh writes them to .build/, then runs luacheck).
local factoryhost = dofile(os.getenv("FACTORYHOST_LUACHECK_STD") or ".build/factoryhost.luacheck.lua")
stds.factoryhost, stds.factoryhost_spec = factoryhost, factoryhost.spec
std = "lua54+factoryhost"
max_line_length = 170
files["**/*_spec.lua"] = { std = "+factoryhost_spec" }
-- The embedded Lua that defines the test runner's globals (and check's stand-ins for them).
files["Sources/ScenarioTesting/Lua/test_library.lua"] = { std = "lua54+factoryhost", globals = factoryhost.spec.read_globals }
files["Sources/FactoryScripting/Checking/spec_stubs.lua"] = { globals = factoryhost.spec.read_globals }
-- Its own definition file (every global defined, nothing run) is luacheck's to skip.
exclude_files = { ".build", "Benchmarks/.build", "Sources/FactoryScripting/EditorSupport/dsl_definitions.lua" }
