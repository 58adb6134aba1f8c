-- A fixture movie catalog for the starter example.
return {
  [1] = { title = "Metropolis", year = 1927 },
  [2] = { title = "Stalker", year = 1979 },
}
