-- A scratch file made before the declarations stops check before them.
local path = os.tmpname()
configuration "app" { }
