-- status: 1
-- stderr: the factory for string#s0 failed: deep-provider-chain-cause.lua:10: the real cause, at the bottom
-- output under: 6000
-- A failure at the end of 150 factories, each calling the next one's
-- provider in its make: the message is bounded and still ends with the
-- cause. Each level added its resolution path and origin after the cause,
-- and the bound cut the end: the cause never reached the user.
configuration "app" {
  register "string#s0" {
    make = function() error("the real cause, at the bottom") end,
  },
}
for i = 1, 150 do
  configuration "app" {
    register("string#s" .. i) { deps = { p = provider("string#s" .. (i - 1)) }, make = function(d) return d.p() end },
  }
end
print(container("app"):resolve "string#s150")
