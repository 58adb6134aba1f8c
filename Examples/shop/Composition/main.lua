-- shophost run Composition/main.lua
local shop = require "factoryhost.shop"
require "shop"

local app = container "app"
local checkout = app:resolve "CheckoutViewModel"
local order = shop.Order.new("A-1")
order:add("tea", 450)
order:add("cups", 1200)
print(order.total, checkout:pay(order), checkout.status, app:resolve("OrderStore").count)
