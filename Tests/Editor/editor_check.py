#!/usr/bin/env python3
"""What an editor shows for a configuration script typed against the
definitions `factoryhost types --output` writes, asked of a real Lua
language server (EmmyLua's emmylua_ls, which reads the same LuaCATS
annotations as lua-language-server) over LSP, as an editor asks it.

    editor_check.py FACTORYHOST LANGUAGE_SERVER

In a scratch workspace with the definitions as a library (.luarc.json and
.emmyrc.json), the user types `local loader = net.MovieLoader.new(`: the
signature help must show both parameters with their types; after `loader:`
the completions must offer every method of MovieLoader. The same workspace
without the definitions must show neither (so the check can fail). Exit 0
when all holds; 1 with the reason otherwise.
"""
import json, os, queue, shutil, subprocess, sys, tempfile, threading, time

EXPECTED_SIGNATURE = "cache: Cache, httpSession: HTTPSession"
EXPECTED_METHODS = {"load", "start", "cancelAll"}
TYPING = 'local net = require "factoryhost.networking"\nlocal loader = net.MovieLoader.new('
CALLING = 'local net = require "factoryhost.networking"\nlocal loader = net.MovieLoader.new(nil, nil)\nloader:'


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
    """(signature label or None, set of method names) for the two scripts."""
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
        documents = {}
        for name, text in (("typing.lua", TYPING), ("calling.lua", CALLING)):
            uri = "file://" + os.path.join(workspace, name)
            documents[name] = uri
            server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "lua", "version": 1, "text": text}})
        signature, methods = None, set()
        # The server may still be indexing at first: ask again until the deadline.
        while time.time() < deadline:
            help = server.request("textDocument/signatureHelp",
                                  {"textDocument": {"uri": documents["typing.lua"]}, "position": end_of(TYPING)}, deadline)
            if help and help.get("signatures"):
                signature = help["signatures"][0]["label"]
            completion = server.request("textDocument/completion",
                                        {"textDocument": {"uri": documents["calling.lua"]}, "position": end_of(CALLING)}, deadline)
            items = completion.get("items", []) if isinstance(completion, dict) else (completion or [])
            methods = {item["label"].split("(")[0] for item in items}
            if signature and methods:
                break
            time.sleep(0.25)
        return signature, methods
    finally:
        server.close()


def workspace_with(factoryhost, definitions):
    workspace = tempfile.mkdtemp(prefix="factoryhost-editor-")
    if definitions:
        subprocess.run([factoryhost, "types", "--output", os.path.join(workspace, "types")], check=True)
        # lua-language-server reads .luarc.json; EmmyLua reads .emmyrc.json (and .luarc.json).
        with open(os.path.join(workspace, ".luarc.json"), "w") as file:
            json.dump({"runtime.version": "Lua 5.4", "workspace.library": ["types"]}, file)
        with open(os.path.join(workspace, ".emmyrc.json"), "w") as file:
            json.dump({"runtime": {"version": "Lua5.4"}, "workspace": {"library": [os.path.join(workspace, "types")]}}, file)
    return workspace


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 64
    factoryhost, server = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    failures = []
    typed = workspace_with(factoryhost, True)
    bare = workspace_with(factoryhost, False)
    try:
        signature, methods = ask(server, typed, 60)
        print(f"editor: signature help at `net.MovieLoader.new(`: {signature}")
        print(f"editor: completions after `loader:`: {' '.join(sorted(methods))}")
        if not signature or EXPECTED_SIGNATURE not in signature:
            failures.append(f"the signature help does not show `{EXPECTED_SIGNATURE}`")
        if not EXPECTED_METHODS <= methods:
            failures.append(f"the completions lack {sorted(EXPECTED_METHODS - methods)}")
        # The control: without the definitions the server knows none of it.
        signature, methods = ask(server, bare, 5)
        if (signature and EXPECTED_SIGNATURE in signature) or EXPECTED_METHODS <= methods:
            failures.append("without the definitions the server still knew MovieLoader: the check proves nothing")
    finally:
        shutil.rmtree(typed, ignore_errors=True)
        shutil.rmtree(bare, ignore_errors=True)
    for failure in failures:
        print(f"editor: {failure}", file=sys.stderr)
    return 1 if failures else 0


sys.exit(main())
