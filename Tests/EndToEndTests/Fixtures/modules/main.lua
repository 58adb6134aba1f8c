-- run from another directory: require still finds modules beside the script
local util = require "lib.util"
local helper = require "sibling"
print(util.name, helper)
