content-length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}CONTENT-LENGTH: 44
Content-Type: application/vscode-jsonrpc; charset=utf-8

{"jsonrpc":"2.0","id":2,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}