"""100 QoS 1 PUBLISH packets to Mosquitto in one TCP write; strace counts the broker's epoll_wait and read calls."""
import socket, struct, subprocess, sys, time, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from edge_agent.mqtt.broker import MosquittoBroker
work = Path(tempfile.mkdtemp())
b = MosquittoBroker(work / "b").start()
def rl(n):
    out = b""
    while True:
        d = n % 128; n //= 128
        out += bytes([d | (0x80 if n else 0)])
        if not n: return out
def pkt(t, body): return bytes([t]) + rl(len(body)) + body
def s16(x): return struct.pack("!H", len(x)) + x
s = socket.create_connection(("127.0.0.1", b.port)); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
# MQTT 3.1.1 CONNECT clean session
s.sendall(pkt(0x10, s16(b"MQTT") + bytes([4, 2]) + struct.pack("!H", 60) + s16(b"rawpub")))
print("connack", s.recv(4))
st = subprocess.Popen(["strace", "-f", "-c", "-e", "trace=rename,epoll_wait,read,recvfrom,fsync", "-p", str(b.proc.pid)], stderr=subprocess.PIPE, text=True)
time.sleep(1)
n = int(sys.argv[1])
data = b"".join(pkt(0x32, s16(b"t/x") + struct.pack("!H", i + 1) + b"hello") for i in range(n))
s.sendall(data)
got = b""
while got.count(b"\x40\x02") < n:
    got += s.recv(65536)
time.sleep(0.5)
st.send_signal(2); print(st.communicate()[1][-900:])
b.stop()
