Content-Length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 223

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.scn","languageId":"inflight","version":1,"text":"title \"a\"\nsocketpair a b\nsned a fds=b\nclose zz\nrepeat 3 {\n  gc\n}\n"}}}Content-Length: 149

{"jsonrpc":"2.0","id":2,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///tmp/a.scn"},"position":{"line":2,"character":7}}}Content-Length: 144

{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/a.scn"},"position":{"line":1,"character":2}}}Content-Length: 117

{"jsonrpc":"2.0","id":4,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///tmp/a.scn"}}}Content-Length: 222

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///tmp/a.scn","version":2},"contentChanges":[{"text":"title \"a\"\nsocketpair a b\nsend a fds=b\nclose zz\nrepeat 3 {\n  gc\n}\n"}]}}Content-Length: 104

{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///tmp/a.scn"}}}Content-Length: 71

{"jsonrpc":"2.0","id":5,"method":"textDocument/formatting","params":{}}Content-Length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}