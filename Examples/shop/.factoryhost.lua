-- The project's root: scripts and specs anywhere below require the composition's modules.
return { modules = { "Composition" } }
