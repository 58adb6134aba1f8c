local helper = require "helper"
print(helper.greet("lua"), package.loaded.helper == helper)
