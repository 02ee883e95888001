Content-Length: 99999999999999999999999

Content-Length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}Content-Length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}