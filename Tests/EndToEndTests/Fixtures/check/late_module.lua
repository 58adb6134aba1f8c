configuration "from-a-module" { }
