os.execute("true")
package.path = "./elsewhere/?.lua;" .. package.path
require "subconf"
