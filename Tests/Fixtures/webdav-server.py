#!/usr/bin/env python3
"""Serves a folder over WebDAV, HTTPS and basic auth, with wsgidav (PyPI) on cheroot.

Usage: webdav-server.py ROOT CERT KEY USER PASSWORD

Binds a port the kernel chooses on 127.0.0.1, prints it on a line of its own, then
serves ROOT as https://127.0.0.1:PORT/dav/ until it is killed. Run with the Python of
the venv that scripts/install-deps makes (.build-venv), where wsgidav is installed.
"""
import sys

from cheroot import wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter
from wsgidav.wsgidav_app import WsgiDAVApp

root, certificate, key, user, password = sys.argv[1:6]
app = WsgiDAVApp({
    "host": "127.0.0.1",
    "port": 0,
    "provider_mapping": {"/dav": root},
    "http_authenticator": {"accept_basic": True, "accept_digest": False, "default_to_digest": False},
    "simple_dc": {"user_mapping": {"*": {user: {"password": password}}}},
    "verbose": 1,
    "logging": {"enable_loggers": []},
})
server = wsgi.Server(("127.0.0.1", 0), app)
server.ssl_adapter = BuiltinSSLAdapter(certificate, key)
server.prepare()
print(server.bind_addr[1], flush=True)
server.serve()
