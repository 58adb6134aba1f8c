while true do end
configuration "app" { }
