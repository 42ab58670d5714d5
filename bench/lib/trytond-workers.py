"""trytond as N worker processes on one listening socket, for the Tryton benchmark (scenario 7).

trytond 6.0's own `trytond` command serves from one process, whose Python computes on one core
whatever its threads. This is what a WSGI server with N workers (uwsgi --processes N, gunicorn -w
N on trytond.application:app) does, with only what trytond itself depends on (werkzeug): the
parent binds the port, forks N children that each serve trytond's WSGI app on it, and the kernel
hands each connection to one of them. Usage: trytond-workers.py CONFIG PORT WORKERS
"""
import os
import signal
import socket
import sys

config_file, port, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

from trytond.config import config  # noqa: E402

config.update_etc(config_file)

from trytond.pool import Pool  # noqa: E402
from trytond.wsgi import app  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

Pool.start()
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(('127.0.0.1', port))
listener.listen(128)
children = []
for _ in range(workers):
    pid = os.fork()
    if pid == 0:
        server = make_server('127.0.0.1', port, app, threaded=True, fd=listener.fileno())
        server.serve_forever()
        os._exit(0)
    children.append(pid)


def stop(*_):
    for child in children:
        try:
            os.kill(child, signal.SIGTERM)
        except ProcessLookupError:
            pass
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
while children:
    try:
        done, _ = os.wait()
    except ChildProcessError:
        break
    children = [c for c in children if c != done]
