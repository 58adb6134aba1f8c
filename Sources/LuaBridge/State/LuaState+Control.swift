import CLuaShim

extension LuaState {
    /// While `on`, Ctrl-C (SIGINT) stops the running Lua code with the error
    /// "interrupted!" instead of killing the process; a second Ctrl-C before
    /// the code notices kills it, as with the stock interpreter. One state at a
    /// time can own Ctrl-C.
    public func interruptOnControlC(_ on: Bool) {
        if on, let L = mainThread { fh_install_sigint(L) } else if !on { fh_uninstall_sigint() }
    }
}

extension LuaState {
    /// Where `require` looks for modules in a sandboxed state
    /// (`"dir/?.lua;dir/?/init.lua"`). Scripts cannot change it; by default
    /// it is empty, so a sandboxed script can require nothing from disk.
    public func setSandboxModulePath(_ path: String) {
        if let L = mainThread { fh_set_module_path(L, path) }
    }
}
