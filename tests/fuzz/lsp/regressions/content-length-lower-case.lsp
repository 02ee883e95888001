content-length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}content-length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}content-length: 33

{"jsonrpc":"2.0","method":"exit"}