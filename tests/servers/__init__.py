"""Real servers on 127.0.0.1 for adapter tests: a scriptable raw HTTP/1.1 server and an FTP server.

They run in background threads, bind free ports, record what they receive and stop quickly.
See :mod:`tests.servers.http` and :mod:`tests.servers.ftp`.
"""
