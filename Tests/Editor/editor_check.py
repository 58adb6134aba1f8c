#!/usr/bin/env python3
"""What an editor shows for a configuration script typed against the
definitions `factoryhost types --output` writes, asked of a real Lua
language server (EmmyLua's emmylua_ls, which reads the same LuaCATS
annotations as lua-language-server) over LSP, as an editor asks it.

    editor_check.py FACTORYHOST LANGUAGE_SERVER

The definitions are written outside a scratch workspace whose .luarc.json
and .emmyrc.json name them as a library, as docs/Editors.md says. Once the server
has indexed (it answers for a function the script defines itself): the
signature help at `net.MovieLoader.new(` must be exactly the constructor's,
with both parameters' types and the result; at `loader:load(` the method's;
after `loader:` every method must be offered and after `loader.` every
property. The same scripts in a workspace without the library must show
none of it (so the check can fail). Exit 0 when all holds; 1 with the
reason otherwise.
"""
import json, os, queue, shutil, subprocess, sys, tempfile, threading, time

EXPECTED_CONSTRUCTOR = "MovieLoader.new(cache: Cache, httpSession: HTTPSession): MovieLoader"
EXPECTED_METHOD = "load(value: integer): string"
EXPECTED_METHODS = {"load", "start", "cancelAll"}
EXPECTED_PROPERTIES = {"cache", "fetches", "pendingCount", "session"}
# Each script first calls a function of its own: when the server answers for
# it, it has indexed the workspace, and an answer about factoryhost's types
# (or its absence, in the control) means something.
PROLOGUE = 'local function probe(first, second) return first, second end\nlocal _ = probe(\n'
HEADER = PROLOGUE + '1, 2)\nlocal net = require "factoryhost.networking"\n'
TYPING = HEADER + 'local loader = net.MovieLoader.new('
CALLING = HEADER + 'local loader = net.MovieLoader.new(nil, nil)\nloader:load('
METHODS = HEADER + 'local loader = net.MovieLoader.new(nil, nil)\nloader:'
FIELDS = HEADER + 'local loader = net.MovieLoader.new(nil, nil)\nlocal _ = loader.'


class LanguageServer:
    """One server process, spoken to over stdio with LSP's framing."""

    def __init__(self, command, workspace):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=workspace)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.decode("utf-8", "replace").strip()
                if not line:
                    break
                name, _, value = line.partition(":")
                headers[name.lower()] = value.strip()
            self.messages.put(json.loads(stream.read(int(headers["content-length"]))))

    def _write(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, deadline):
        """The result of one request (None if none came before `deadline`);
        requests from the server meanwhile are answered with nothing."""
        self.next_id += 1
        request_id = self.next_id
        self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while time.time() < deadline:
            try:
                message = self.messages.get(timeout=max(0.05, deadline - time.time()))
            except queue.Empty:
                break
            if message is None:
                break
            if "method" in message and "id" in message:
                items = message.get("params", {}).get("items")
                result = [None] * len(items) if message["method"] == "workspace/configuration" and items else None
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif message.get("id") == request_id:
                return message.get("result")
        return None

    def close(self):
        self.process.kill()
        self.process.wait()


def end_of(text):
    return {"line": text.count("\n"), "character": len(text) - (text.rfind("\n") + 1)}


def ask(server_path, workspace, seconds):
    """What the server shows in the four scripts, once it has indexed:
    {constructor, method, methods, properties}; None if it never got ready."""
    server = LanguageServer([server_path, "--log-path", "none"], workspace)
    try:
        deadline = time.time() + seconds
        root = "file://" + workspace
        server.request("initialize", {
            "processId": os.getpid(), "rootUri": root, "workspaceFolders": [{"uri": root, "name": "workspace"}],
            "capabilities": {"workspace": {"configuration": False, "workspaceFolders": True},
                             "textDocument": {"completion": {"completionItem": {"snippetSupport": False}},
                                              "signatureHelp": {}}}}, deadline)
        server.notify("initialized", {})
        scripts = {"typing.lua": TYPING, "calling.lua": CALLING, "methods.lua": METHODS, "fields.lua": FIELDS}
        uris = {}
        for name, text in scripts.items():
            uris[name] = "file://" + os.path.join(workspace, name)
            server.notify("textDocument/didOpen", {"textDocument": {"uri": uris[name], "languageId": "lua", "version": 1, "text": text}})

        def signature(name, text):
            help = server.request("textDocument/signatureHelp", {"textDocument": {"uri": uris[name]}, "position": end_of(text)}, deadline)
            return help["signatures"][0]["label"] if help and help.get("signatures") else None

        def completions(name, text):
            result = server.request("textDocument/completion", {"textDocument": {"uri": uris[name]}, "position": end_of(text)}, deadline)
            items = result.get("items", []) if isinstance(result, dict) else (result or [])
            return {item["label"].split("(")[0] for item in items}

        # Ready when the script's own function has its signature.
        while time.time() < deadline:
            if signature("typing.lua", PROLOGUE):
                break
            time.sleep(0.25)
        else:
            return None
        time.sleep(0.5)                 # the library indexes beside the workspace: give it a moment
        return {"constructor": signature("typing.lua", TYPING), "method": signature("calling.lua", CALLING),
                "methods": completions("methods.lua", METHODS), "properties": completions("fields.lua", FIELDS)}
    finally:
        server.close()


def workspace_with(library):
    """A scratch workspace for the scripts; with `library` (a directory
    outside it), its .luarc.json and .emmyrc.json name that as a library, as
    docs/Editors.md tells users to."""
    workspace = tempfile.mkdtemp(prefix="factoryhost-editor-")
    if library:
        with open(os.path.join(workspace, ".luarc.json"), "w") as file:
            json.dump({"runtime.version": "Lua 5.4", "workspace.library": [library]}, file)
        with open(os.path.join(workspace, ".emmyrc.json"), "w") as file:
            json.dump({"runtime": {"version": "Lua5.4"}, "workspace": {"library": [library]}}, file)
    return workspace


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 64
    factoryhost, server = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    failures = []
    library = tempfile.mkdtemp(prefix="factoryhost-types-")
    subprocess.run([factoryhost, "types", "--output", library], check=True)
    typed, bare = workspace_with(library), workspace_with(None)
    try:
        shown = ask(server, typed, 60)
        if shown is None:
            failures.append("the server never answered for the script's own function")
        else:
            print(f"editor: signature help at `net.MovieLoader.new(`: {shown['constructor']}")
            print(f"editor: signature help at `loader:load(`: {shown['method']}")
            print(f"editor: completions after `loader:`: {' '.join(sorted(shown['methods']))}")
            print(f"editor: completions after `loader.`: {' '.join(sorted(shown['properties']))}")
            if shown["constructor"] != EXPECTED_CONSTRUCTOR:
                failures.append(f"the constructor's signature is not `{EXPECTED_CONSTRUCTOR}`")
            if not shown["method"] or not shown["method"].endswith(EXPECTED_METHOD):
                failures.append(f"the method's signature does not end `{EXPECTED_METHOD}`")
            if not EXPECTED_METHODS <= shown["methods"]:
                failures.append(f"the completions after `loader:` lack {sorted(EXPECTED_METHODS - shown['methods'])}")
            if not EXPECTED_PROPERTIES <= shown["properties"]:
                failures.append(f"the completions after `loader.` lack {sorted(EXPECTED_PROPERTIES - shown['properties'])}")
        # The control: the same scripts with no library configured show none of it.
        shown = ask(server, bare, 60)
        if shown is None:
            failures.append("the server never answered in the control workspace")
        elif shown["constructor"] == EXPECTED_CONSTRUCTOR or EXPECTED_METHODS <= shown["methods"]:
            failures.append("without the library configured the server still knew MovieLoader: the check proves nothing")
    finally:
        for directory in (typed, bare, library):
            shutil.rmtree(directory, ignore_errors=True)
    for failure in failures:
        print(f"editor: {failure}", file=sys.stderr)
    return 1 if failures else 0


sys.exit(main())
