-- The performance guard's start-up case: `run` of a one-line script.
local x = 1
