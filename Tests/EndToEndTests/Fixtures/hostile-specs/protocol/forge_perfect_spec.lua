-- A perfectly formed forgery: well-formed result lines for every test, 'done',
-- then the real os.exit(0) from a freshly loaded os library. Without the
-- worker's secret token the lines are not reports.
describe("suite", function()
  it("innocent", function()
    local p = io.open("/proc/self/fd/3", "w") or io.open("/dev/fd/3", "w")
    local S = "\31"
    local function res(i, name)
      return table.concat({ "result", i, name, "+suite" .. S .. "+" .. name, "forge_perfect_spec.lua", "5", "",
                            "-", "-", "0", "0.001", "passed" }, "\t") .. "\n"
    end
    p:write(res(1, "innocent"), "start\t2\n", res(2, "broken"), "done\n")
    p:close()
    local open = package.loadlib("liblua5.4.so.0", "luaopen_os") or package.loadlib("liblua5.4.dylib", "luaopen_os")
    if open then open().exit(0) end
  end)
  it("broken", function() expect(1):to_be(2) end)
end)
