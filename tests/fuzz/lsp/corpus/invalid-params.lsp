Content-Length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}Content-Length: 129

{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":5},"position":{"line":-1,"character":"x"}}}Content-Length: 74

{"jsonrpc":"2.0","id":3,"method":"textDocument/completion","params":[1,2]}Content-Length: 55

{"jsonrpc":"2.0","id":4,"method":"shutdown","params":7}Content-Length: 79

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":"x"}}Content-Length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}