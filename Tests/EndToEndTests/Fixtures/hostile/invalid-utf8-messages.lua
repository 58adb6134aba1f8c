-- command: test
-- status: 1
-- stderr: <none>
-- stdout: invalid-utf8-messages.lua:12: boom \xFF\xFE here
-- stdout: bad \xFF bytes > compares
-- stdout: actual:   "\xFF\xFE"
-- stdout: ✗ real � (3)
-- A message, a value or a name with bytes that are not UTF-8 is shown with
-- those bytes as \xNN — it was replaced by "string is not valid UTF-8",
-- and a describe so named failed to load — and a real U+FFFD stays one.
describe("bad \255 bytes", function()
  it("errors", function() error("boom \255\254 here") end)
  it("compares", function() expect("\255\254"):to_be("x") end)
  it("real \u{FFFD}", function() expect(1):to_be(2) end)
end)
