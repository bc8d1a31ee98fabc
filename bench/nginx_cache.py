"""A real nginx on loopback serving a bazel-remote layout (`/ac/<sha256>`, `/cas/<sha256>`) with
WebDAV PUT, for the remote-cache benchmarks. Its config, pid, logs and data live in one folder."""

import os
import pwd
import grp
import shutil
import socket
import subprocess
import time
import urllib.request


class NginxCache:
    def __init__(self, folder):
        self.folder = os.path.abspath(folder)
        self.data = os.path.join(self.folder, "data")
        self.process = None
        self.port = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.data)
        os.makedirs(os.path.join(self.folder, "temp"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        # As root, nginx's workers would switch to `nobody`, who cannot write the folder.
        user = ""
        if os.geteuid() == 0:
            user = f"user {pwd.getpwuid(0).pw_name} {grp.getgrgid(0).gr_name};"
        conf = os.path.join(self.folder, "nginx.conf")
        temp = os.path.join(self.folder, "temp")
        with open(conf, "w") as file:
            file.write(f"""{user}
daemon off;
worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    server {{
        listen 127.0.0.1:{self.port};
        root {self.data};
        location / {{
            dav_methods PUT;
            create_full_put_path on;
            client_max_body_size 1g;
        }}
    }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-p", self.folder, "-e", f"{self.folder}/error.log", "-c", conf],
                                        stdin=subprocess.DEVNULL)
        for _ in range(100):
            try:
                urllib.request.urlopen(self.url + "/cas/none", timeout=1)
            except urllib.error.HTTPError:
                return self  # answered (404)
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"nginx did not start; see {self.folder}/error.log")
                time.sleep(0.05)
        raise RuntimeError("nginx did not answer within 5 s")

    def put(self, path, data):
        request = urllib.request.Request(f"{self.url}/{path}", data=data, method="PUT")
        urllib.request.urlopen(request, timeout=30).read()

    def cpu_seconds(self):
        """CPU time (user + system) nginx's master and worker processes have used so far."""
        ticks = os.sysconf("SC_CLK_TCK")
        pids = [self.process.pid]
        children = f"/proc/{self.process.pid}/task/{self.process.pid}/children"
        if os.path.exists(children):
            with open(children) as file:
                pids += [int(pid) for pid in file.read().split()]
        total = 0
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat(5))
        return total / ticks

    def clear(self):
        """Removes every object the server keeps."""
        shutil.rmtree(self.data)
        os.makedirs(self.data)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
