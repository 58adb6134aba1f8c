local cycle = {} cycle.self = cycle cycle[1] = cycle
return 1, 2.5, 0/0, math.huge, math.maxinteger, "s\0x", "\255", true, nil,
  { 1, 2, 3 }, { a = 1, b = { c = 2.5 } }, { [1] = { "x", "y" } }, cycle, { 1, nil, 3 }, { [2^53] = 1 }
