-- The configurations both coverage specs require.
configuration "shop" {
  register "string#greeting" { make = function() return "hello" end },
  register "string#farewell" { make = function() return "bye" end },
  register "table#basket" { deps = { greeting = "string#greeting" }, make = function(d) return { d.greeting } end },
}
configuration "shop-tests" {
  extends = "shop",
  register "string#greeting" { override = true, make = function() return "hi" end },
  register "string#motto" { make = function() return "buy" end },
}
