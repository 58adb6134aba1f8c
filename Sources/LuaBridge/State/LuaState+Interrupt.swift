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
