Content-Length: 18446744073709551615

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}