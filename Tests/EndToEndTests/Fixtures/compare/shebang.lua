#!/usr/bin/env lua5.4
print("shebang skipped")
