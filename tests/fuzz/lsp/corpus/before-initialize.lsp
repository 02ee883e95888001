Content-Length: 144

{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/a.scn"},"position":{"line":0,"character":0}}}Content-Length: 199

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.scn","version":1,"text":"title \"a\"\nsocketpair a b\nsned a fds=b\nclose zz\nrepeat 3 {\n  gc\n}\n"}}}Content-Length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}Content-Length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}