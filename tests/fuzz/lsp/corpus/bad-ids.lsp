Content-Length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}Content-Length: 50

{"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}Content-Length: 46

{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}Content-Length: 47

{"jsonrpc":"2.0","id":null,"method":"shutdown"}Content-Length: 5

[1,2]Content-Length: 22

{"id":3,"result":null}Content-Length: 44

{"jsonrpc":"1.0","id":4,"method":"shutdown"}Content-Length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}