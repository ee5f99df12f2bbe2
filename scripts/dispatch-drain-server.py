"""The server of scripts/dispatch-drain-repro.sh: HTTP/1.1 on loopback that answers up to four
requests on each connection with a small keep-alive response, and on the last of them closes
the connection unanswered, resets it (SO_LINGER 0), or answers and then closes it.

    dispatch-drain-server.py PORT_FILE    listens on a free port and writes its number there"""
import os
import random
import socket
import socketserver
import struct
import sys


class Connection(socketserver.BaseRequestHandler):
    def handle(self):
        sock = self.request
        last = random.randint(0, 3)
        try:
            for index in range(last + 1):
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = sock.recv(4096)
                    if not chunk:
                        return
                    head += chunk
                # Requests are small: the body came with the head.
                fate = random.random()
                if index == last and fate < 0.3:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    sock.close()
                    return
                if index == last and fate < 0.5:
                    sock.close()
                    return
                sock.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 2\r\nConnection: keep-alive\r\n\r\n{}")
        except OSError:
            pass


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


if __name__ == "__main__":
    server = Server(("127.0.0.1", 0), Connection)
    with open(sys.argv[1] + ".tmp", "w") as port_file:
        port_file.write(str(server.server_address[1]))
    # Written whole, then renamed: the script never reads half a number.
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()
